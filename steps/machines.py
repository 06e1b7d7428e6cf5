"""Stateful (hypothesis) machines that hold a target to the model of steps/model.py.

Theory of operation
-------------------
Each machine owns one fresh target per generated example (`adapters.connect(url)`,
closed in `teardown`), one queue "q" and one receive handle "h" on it.  Every rule
does one thing to the target and the same thing to the model, then `compare`
checks the HRESULT and the returned label against the model's prediction.  After
every rule `MachineBase.queue_matches` reads the queue through `Target.read_queue`
and checks what can be checked without the model too:

* the labels a peek walk sees are the model's Available messages, in its order;
* the order is priority (7..0), then arrival (the order the machine sent them);
* a label always comes back with the same pSequenceId, and pSequenceIds grow with
  arrival;
* the ledger balances: every label sent is visible, held by a pending receive or
  an open transaction, or left the queue in a way the machine saw (a receive it
  acknowledged, a purge, an aborted send), never two of these at once.

Server-issued values never reach a report: messages are "m1", "m2", ... in sending
order, cursors "c1", requests "r1", transactions "t1".  Every step also becomes
Gherkin lines in the suite's own vocabulary (the step modules setup_steps,
receive_steps, handle_steps and transaction_steps); a failure raises
AssertionError carrying the whole scenario, with the model's expectations as its
Then lines, so the shrunk example can be pasted into a .feature file and replayed
against any target.

Every step is also one JSON line in $MQSPEC_RESULTS/machines.ndjson (nothing is
written when the variable is unset).  The script, the ledger, the log and the
packet decoding live in machine_support.py; the machines themselves in
machine_cursors.py, machine_lookups.py and machine_reads.py.
"""

from __future__ import annotations

import functools
import json
import os
import uuid

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant

from mqspec.adapters import MessageProperties, connect
from mqspec.protocol.constants import Access, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name as queue_format

from .machine_support import (
    HANDLE,
    MAX_SIZE,
    QUEUE,
    Ledger,
    Script,
    ScriptStep,
    hresult_name,
    in_catalogue,
    label_and_priority,
    log_file,
    quoted,
)
from .model import ANY_FAILURE, Outcome, QueueModel

# Priorities 0..7 that shrink towards the default, 3, so shrunk scenarios need no priority table.
PRIORITY = st.integers(0, 7).map(lambda n: (n + 3) % 8)


def step(function):
    """Mark a rule whose calls are recorded, so that a failing example can be replayed (`minimise`).

    Put it under @rule/@initialize; calls that one rule makes to another are not recorded."""
    @functools.wraps(function)
    def recorded(self, *args, **arguments):
        if self._depth == 0:
            self.calls.append((function.__name__, args, dict(arguments)))
        self._depth += 1
        try:
            return function(self, *args, **arguments)
        finally:
            self._depth -= 1
    return recorded


# -- the machine base ---------------------------------------------------------------------------
class MachineBase(RuleBasedStateMachine):
    """One queue "q", one handle "h", a model, a ledger, a script; see the module docstring."""

    machine = "base"
    url = "reference"
    transactional = False
    examples = 0
    clauses: dict[str, str] = {}   # action -> the clause a wrong answer breaks
    last_failure: tuple | None = None  # (calls, signature) of the latest failing example
    seen: dict[str, set[str]] = {}     # open decision -> readings the target showed (bind gives each run its own)

    def __init__(self) -> None:
        super().__init__()
        cls = type(self)
        cls.examples += 1
        self.run = f"{os.environ.get('MQSPEC_RUN_ID', 'local')}-{cls.examples}"
        self.step_number = 0
        self.model = QueueModel(transactional=self.transactional)
        self.ledger = Ledger()
        self.order: dict[str, int] = {}          # label -> sending order
        self.priority: dict[str, int] = {}       # label -> priority it was sent with
        self.sequence: dict[str, int] = {}       # label -> pSequenceId seen
        self.request_ids: dict[str, int] = {}    # request alias -> dwRequestId
        self.uows: dict[str, bytes] = {}           # transaction alias -> XACTUOW
        self._counters: dict[str, int] = {}
        self._requests = 0
        self.last_clause: str | None = None    # the clause of the latest step, for invariant failures
        self.calls: list[tuple] = []             # the rules called so far (see `step`)
        self._depth = 0
        self.logging = True
        self.target = connect(self.url)
        queue_kind = "a transactional queue" if self.transactional else "a queue"
        self.script = Script(self.machine, [f'{queue_kind} "{QUEUE}"',
                                            f'"{QUEUE}" is opened with RECEIVE_ACCESS as "{HANDLE}"'])
        # A name of its own, so that a target that keeps its queues can run many examples.
        pathname = f"{self.target.computer_name}\\private$\\mqspec-{self.machine}-{uuid.uuid4().hex[:12]}"
        created = self.target.create_queue(pathname, transactional=self.transactional)
        assert created.hresult == HRESULT.MQ_OK, f"creating the queue: {hresult_name(created.hresult)}"
        self.format_name = created.format_name
        opened = self.target.open_queue(queue_format(self.format_name), Access.RECEIVE_ACCESS,
                                        ShareMode.MQ_DENY_NONE)
        assert opened.hresult == HRESULT.MQ_OK, f"opening the queue: {hresult_name(opened.hresult)}"
        self.handle = opened.pph_context

    def teardown(self) -> None:
        self.target.delete_queue(self.format_name)
        self.target.close()
        log = log_file()
        if log is not None:
            log.flush()

    # -- names ---------------------------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self._counters[prefix] = self._counters.get(prefix, 0) + 1
        return f"{prefix}{self._counters[prefix]}"

    def new_request(self, prefix: str = "r") -> tuple[str, int]:
        """A request alias and its dwRequestId (client-chosen, unique on the handle)."""
        alias = self.fresh(prefix)
        self.request_ids[alias] = self.request_number()
        return alias, self.request_ids[alias]

    def request_number(self) -> int:
        self._requests += 1
        return self._requests

    def lookup_id(self, label: str) -> int:
        """The LookupId of a message from the pSequenceId it was seen with (MS-MQDMPR 3.1.7.1.9)."""
        if label not in self.sequence:
            raise AssertionError(self.failure(f"message {label!r} was never seen, so it has no lookup id"))
        transactional = self.transactional  # D-65: messages of a transactional queue have priority 0
        return self.sequence[label] | (0x07 << 56 if transactional else 0)

    # -- reading results -----------------------------------------------------------------------
    @staticmethod
    def decode(out) -> tuple[str | None, int | None]:
        """(label, priority) of the message a call returned, or (None, None)."""
        if isinstance(out, int) or out.hresult != HRESULT.MQ_OK or not out.pp_packet_sections:
            return None, None
        return label_and_priority(out.pp_packet_sections)

    def learn(self, label: str, sequence_id: int, priority: int | None = None) -> None:
        """Check and keep a label's pSequenceId and priority (lookup ids grow with arrival)."""
        if label not in self.order:
            raise AssertionError(self.failure(f"the target returned {label!r}, which was never sent"))
        if priority is not None and label in self.priority and priority != self.priority[label]:
            raise AssertionError(self.failure(
                f"{label!r} came back with priority {priority}, sent with {self.priority[label]}",
                "MS-MQDMPR:3.1.1.12:05"))
        seen = self.sequence.get(label)
        if seen is not None:
            if seen != sequence_id:
                raise AssertionError(self.failure(
                    f"{label!r} came back with pSequenceId {sequence_id:#x}, earlier {seen:#x}",
                    "MS-MQDMPR:3.1.1.12:01"))
            return
        self.sequence[label] = sequence_id
        rank = self.order[label]
        earlier = [other for other in self.sequence if self.order[other] < rank]
        later = [other for other in self.sequence if self.order[other] > rank]
        before = max(earlier, key=self.order.__getitem__, default=None)
        after = min(later, key=self.order.__getitem__, default=None)
        for first, second in ((before, label), (label, after)):
            if first is not None and second is not None and self.sequence[first] >= self.sequence[second]:
                raise AssertionError(self.failure(
                    f"lookup ids do not grow with arrival: {first!r} {self.sequence[first]:#x}, "
                    f"{second!r} {self.sequence[second]:#x}", "MS-MQDMPR:3.1.7.1.9:03"))

    # -- one step ------------------------------------------------------------------------------
    def compare(self, action: str, arguments: dict, lines: list[tuple[str, str]], expected: Outcome, out,
                *, clause: str | None = None, label_line: bool = True, then: bool = True,
                refers: tuple[str, ...] = ()) -> str | None:
        """Log the step, add it to the script, and fail when the target differs from the model.

        `out` is what the target returned: an HRESULT or a StartReceiveOut.  Returns the label."""
        hresult = out if isinstance(out, int) else out.hresult
        label, priority = self.decode(out)
        actual = Outcome(hresult_name(hresult), label)
        self.step_number += 1
        self.log(action, arguments, actual, expected)
        if not then:
            checks = []
        elif expected.label and label_line:
            checks = [("Then", f'the message returned is "{expected.label}"')]
        elif expected.options:
            choices = " or ".join(f"{option.hresult} ({reading})" for reading, option in expected.options)
            checks = [("Then", f"by {expected.decision} the call returns {choices}")]
        elif expected.hresult == ANY_FAILURE:
            checks = [("Then", "the HRESULT is a failure code")]  # a reading that names no status
        else:
            checks = [("Then", f"the call returns {expected.hresult}")]
            if expected.label:
                checks.append(("#", f'(the message returned is "{expected.label}")'))
        self.script.add(ScriptStep(lines + checks, refers=list(refers), returns=label,
                                   visible_after=self.model.available()))
        if label is not None:
            self.learn(label, out.p_sequence_id, priority)
        self.last_clause = clause or self.clauses.get(action)
        if expected.options:
            # an open decision: any reading's outcome, and from now on that reading only
            reading = next((name for name, option in expected.options if option.matches(actual)), None)
            if reading is not None:
                self.learn_reading(expected.decision, reading)
                expected = actual
        if not expected.matches(actual):
            raise AssertionError(self.failure(
                f"{action} {arguments}: the target answered {self.show(actual)}, the model expects "
                f"{self.show(expected)}", self.last_clause))
        return label

    def note(self, action: str, arguments: dict, lines: list[tuple[str, str]], *, result=None) -> None:
        """A step whose outcome is not compared with the model (set-up style: sends, begin)."""
        self.step_number += 1
        self.last_clause = self.clauses.get(action, "MS-MQDMPR:3.1.7.1.9:04")
        self.log(action, arguments, result or Outcome("MQ_OK"), None)
        self.script.add(ScriptStep(lines, visible_after=self.model.available()))

    @staticmethod
    def show(outcome: Outcome) -> str:
        return outcome.hresult + (f' with "{outcome.label}"' if outcome.label else "")

    def log(self, action: str, arguments: dict, actual: Outcome, expected: Outcome | None) -> None:
        log = log_file() if self.logging else None
        if log is None:
            return
        result = {"hresult": actual.hresult, "label": actual.label}
        if expected is not None:
            result["expected"] = {"hresult": expected.hresult, "label": expected.label}
        log.write(json.dumps({"run": self.run, "machine": self.machine, "step": self.step_number,
                              "action": action, "arguments": arguments, "result": result,
                              "target": self.url}) + "\n")

    def failure(self, what: str, clause: str | None = None, final=()) -> str:
        """The text of a failure: what differs, and the example so far as a scenario."""
        type(self).last_failure = (list(self.calls), (what.split(" ", 1)[0], clause))
        tags = [clause] if clause and in_catalogue(clause) else []
        scenario = self.script.render(tags, f"{self.machine} machine, shrunk example", final)
        where = f" ({clause})" if clause else ""
        return (f"{self.machine} machine, step {self.step_number}: {what}{where}\n\n"
                f"Replay (paste into a .feature file; names stand for server-issued values):\n\n{scenario}\n")

    # -- sending -------------------------------------------------------------------------------
    def send_message(self, priority: int = 3, tx: str | None = None) -> str:
        label = self.fresh("m")
        self.order[label] = len(self.order)
        self.priority[label] = 0 if tx else priority
        self.ledger.sent.append(label)
        props = MessageProperties(label=label, priority=priority)
        out = self.target.send(self.format_name, props, self.uows[tx] if tx else None)
        expected = self.model.send(label, priority, tx)
        if tx:
            self.ledger.uncommitted[label] = tx
            lines = [("When", f'message "{label}" is sent to "{QUEUE}" in transaction "{tx}"')]
        elif priority == 3:
            lines = [("When", f'message "{label}" is sent to "{QUEUE}"')]
        else:
            lines = [("When", f'message "{label}" is sent to "{QUEUE}" with:'), ("|", f"| priority | {priority} |")]
        self.note("send", {"label": label, "priority": priority, "transaction": tx}, lines,
                  result=Outcome(hresult_name(out.hresult)))
        if (out.hresult, out.r_status) != (HRESULT.MQ_OK, 0) or expected.hresult != "MQ_OK":
            raise AssertionError(self.failure(
                f"sending {label!r}: {hresult_name(out.hresult)}, status {out.r_status}", "MS-MQDMPR:3.1.7.1.9:04"))
        return label

    # -- the invariant ---------------------------------------------------------------------------

    def open_cursor(self) -> str:
        """R_CreateCursor on the machine's handle; the cursor's name for the rules."""
        cursor = self.fresh("c")
        out = self.target.create_cursor(self.handle)
        self.compare("create_cursor", {"cursor": cursor}, [("When", f'cursor "{cursor}" is created on "{HANDLE}"')],
                     self.model.create_cursor(cursor), out.hresult, then=False)
        self.cursor_handles[cursor] = out.ph_cursor
        return cursor

    def begin_receive(self) -> str:
        """R_StartReceive (MQ_ACTION_RECEIVE, no cursor, no wait); the request's name for the rules."""
        alias, request_id = self.new_request()
        out = self.target.start_receive(self.handle, 0, 0, Action.MQ_ACTION_RECEIVE, 0, request_id, MAX_SIZE,
                                        MAX_SIZE)
        got = self.compare("start_receive", {"request": alias},
                           [("When", f'the client starts a receive on "{HANDLE}" as "{alias}"')],
                           self.model.start_receive(alias), out)
        self.handed_out(got, alias)
        if got is not None:
            self.holding[alias] = got
        return alias

    def learn_reading(self, decision: str, reading: str) -> None:
        """The target showed `reading` of an open decision: the model holds it to that from now on, and the
        test reports it (run.json's profile) through the class's `seen`."""
        self.model.readings[decision] = reading
        type(self).seen.setdefault(decision, set()).add(reading)

    @invariant()
    def queue_matches(self) -> None:
        out = self.target.read_queue(self.format_name, MAX_SIZE)
        if out.hresult != HRESULT.MQ_OK:
            raise AssertionError(self.failure(f"read_queue failed: {hresult_name(out.hresult)}"))
        visible, priorities = [], []
        for message in out.messages:
            label, priority = label_and_priority(message.pp_packet_sections)
            self.learn(label, message.p_sequence_id, priority)
            visible.append(label)
            priorities.append(priority)
        expected = self.model.available()
        final = [("Then", f'"{QUEUE}" holds {quoted(expected)}')]
        if visible != expected:
            clause = "MS-MQDMPR:3.1.1.2:04" if sorted(visible) == sorted(expected) else self.last_clause
            raise AssertionError(self.failure(
                f"the queue holds {quoted(visible)}; the model expects {quoted(expected)}", clause, final))
        keys = [(-priority, self.order[label]) for label, priority in zip(visible, priorities)]
        if keys != sorted(keys):
            raise AssertionError(self.failure(
                f"the queue is not ordered by priority, then arrival: {visible} with priorities {priorities}",
                "MS-MQDMPR:3.1.1.2:04", final))
        problems = self.ledger.problems(visible)
        if problems:
            raise AssertionError(self.failure("; ".join(problems), "MS-MQDMPR:3.1.7.1.10:08", final))
        self.ledger.visible = visible

    # -- the ledger's view of receives ---------------------------------------------------------
    def handed_out(self, label: str | None, owner: str) -> None:
        """A start handed `label` out: it must not be held, received, purged or aborted already."""
        if label is None:
            return
        if label in self.ledger.held or label in self.ledger.out() or label in self.ledger.uncommitted:
            where = (f"held by {self.ledger.held[label]}" if label in self.ledger.held
                     else "sent in an open transaction" if label in self.ledger.uncommitted else "gone")
            raise AssertionError(self.failure(f'"{label}" was handed out again although it is {where}',
                                              "MS-MQDMPR:3.1.7.1.10:07"))
        self.ledger.held[label] = owner


def machine_settings(deep: bool = False) -> settings:
    """200 examples of up to 30 steps; --deep: 2000 of up to 50."""
    # D-141 a failing machine blames the clause that broke: one bug (Hypothesis' smallest), never a group of them
    return settings(max_examples=2000 if deep else 200, stateful_step_count=50 if deep else 30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
                    report_multiple_bugs=False)


def bind(machine: type[MachineBase], url: str) -> type[MachineBase]:
    """A subclass of `machine` that talks to `url`, with its own example counter."""
    return type(machine.__name__, (machine,), {"url": url, "examples": 0, "last_failure": None, "seen": {}})


def minimise(machine: type[MachineBase]) -> str | None:
    """Delete steps from the latest failing example while the same failure remains; its report, or None.

    Hypothesis' shrinker cannot always drop a step whose removal shifts the numbering
    of later choices; this pass replays the recorded rule calls on fresh targets and
    drops one step at a time (a few hundred replays of a few milliseconds each)."""
    if machine.last_failure is None:
        return None
    calls, signature = machine.last_failure

    def attempt(candidate: list[tuple]) -> str | None:
        machine.last_failure = None
        replay = machine()
        replay.logging = False
        try:
            replay.queue_matches()
            for name, args, arguments in candidate:
                getattr(replay, name)(*args, **arguments)
                replay.queue_matches()
        except AssertionError as error:
            same = machine.last_failure is not None and machine.last_failure[1] == signature
            return str(error) if same else None
        except Exception:  # a step that needs a deleted one (a cursor never created, ...)
            return None
        finally:
            replay.teardown()
        return None

    report = attempt(calls)
    if report is None:
        return None
    changed = True
    while changed:
        changed = False
        for index in reversed(range(len(calls))):
            shorter = calls[:index] + calls[index + 1:]
            text = attempt(shorter)
            if text is not None:
                calls, report, changed = shorter, text, True
    return report
