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
Gherkin lines in the suite's own vocabulary (steps/setup_steps.py,
steps/receive_steps.py); a failure raises AssertionError carrying the whole
scenario, with the model's expectations as its Then lines, so the shrunk example
can be pasted into a .feature file and replayed against any target.  Lines that
some step module does not define yet are listed in NEW_SENTENCES.

Every step is also one JSON line in $MQSPEC_RESULTS/machines.ndjson (nothing is
written when the variable is unset).  The machines themselves live in
machine_cursors.py, machine_lookups.py and machine_reads.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant

from adapters import Access, HRESULT, MessageProperties, ShareMode, connect, queue_format

from .model import Outcome, QueueModel
from .packet_reader import read_sections

QUEUE, HANDLE = "q", "h"
MAX_SIZE = 0x10000  # our messages have empty bodies; anything above the headers will do
LOG_NAME = "machines.ndjson"
# Priorities 0..7 that shrink towards the default, 3, so shrunk scenarios need no priority table.
PRIORITY = st.integers(0, 7).map(lambda n: (n + 3) % 8)

# Sentences the machines write that no step module defines yet (reported, not defined here).
NEW_SENTENCES = ('cursor "{cursor}" is closed', 'the client purges "{handle}"')


def hresult_name(value: int) -> str:
    try:
        return HRESULT(value).name
    except ValueError:
        return f"0x{value:08X}"


def quoted(labels: list[str]) -> str:
    """'"m1", "m2" and "m3"', as steps.values.labels reads it back; 'nothing' when empty."""
    if not labels:
        return "nothing"
    names = [f'"{label}"' for label in labels]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- the Gherkin script of one example ---------------------------------------------------------
@dataclass
class ScriptStep:
    lines: list[tuple[str, str]]        # (keyword, text); keyword "|" for a table row
    sends: list[str] = field(default_factory=list)
    visible_after: list[str] = field(default_factory=list)
    refers: list[str] = field(default_factory=list)   # labels named by lookup id
    returns: str | None = None          # the label the step's call handed back


@dataclass
class Script:
    """The example so far as a scenario.

    A scenario names messages by label and finds their lookup ids by peeking
    (steps/world.py); a message that was never returned by a call must have been
    seen by a peek walk before it is named, so `render` adds a `"q" holds ...`
    check right after the send of every such message."""
    machine: str
    setup: list[str]
    steps: list[ScriptStep] = field(default_factory=list)

    def add(self, step: ScriptStep) -> None:
        self.steps.append(step)

    def render(self, tags: list[str], title: str, final: list[tuple[str, str]] = ()) -> str:
        known, need = set(), set()
        for step in self.steps:
            need.update(label for label in step.refers if label not in known)
            if step.returns:
                known.add(step.returns)
        out = ["  " + " ".join(f"@clause:{tag}" for tag in tags)] if tags else []
        out.append(f"  Scenario: {title}")
        previous = None

        def emit(keyword: str, text: str) -> None:
            nonlocal previous
            if keyword in ("|", "#"):
                out.append(f"      {text}" if keyword == "|" else f"    # {text}")
                return
            shown = "And" if keyword == previous else keyword
            previous = keyword
            out.append(f"    {shown} {text}")

        for line in self.setup:
            emit("Given", line)
        for step in self.steps:
            for keyword, text in step.lines:
                emit(keyword, text)
            if need.intersection(step.sends):
                emit("Then", f'"{QUEUE}" holds {quoted(step.visible_after)}')
        for keyword, text in final:
            emit(keyword, text)
        return "\n".join(out)


# -- results log -------------------------------------------------------------------------------
_logs: dict[str, object] = {}


def _log_file():
    directory = os.environ.get("MQSPEC_RESULTS")
    if not directory:
        return None
    path = os.path.join(directory, LOG_NAME)
    if path not in _logs:
        os.makedirs(directory, exist_ok=True)
        _logs[path] = open(path, "a", encoding="utf-8")
    return _logs[path]


# -- the observable ledger -----------------------------------------------------------------------
@dataclass
class Ledger:
    """Where every sent label is, by what the target said, not by the model."""
    sent: list[str] = field(default_factory=list)
    held: dict[str, str] = field(default_factory=dict)         # label -> request or transaction
    uncommitted: dict[str, str] = field(default_factory=dict)  # label -> transaction of its send
    received: set[str] = field(default_factory=set)
    purged: set[str] = field(default_factory=set)
    aborted: set[str] = field(default_factory=set)
    purge_hit: set[str] = field(default_factory=set)           # held or uncommitted at a purge
    visible: list[str] = field(default_factory=list)           # the last peek walk

    def out(self) -> set[str]:
        return self.received | self.purged | self.aborted

    def release(self, label: str, deleted: bool) -> None:
        self.held.pop(label, None)
        if label in self.purge_hit:
            self.purged.add(label)
        elif deleted:
            self.received.add(label)

    def purge(self) -> None:
        self.purged.update(self.visible)
        self.purge_hit.update(self.held)
        self.purge_hit.update(self.uncommitted)

    def finish(self, tx: str, committed: bool) -> None:
        for label in [label for label, owner in self.held.items() if owner == tx]:
            self.release(label, deleted=committed)
        for label in [label for label, owner in self.uncommitted.items() if owner == tx]:
            del self.uncommitted[label]
            if not committed:
                self.aborted.add(label)
            elif label in self.purge_hit:
                self.purged.add(label)

    def problems(self, visible: list[str]) -> list[str]:
        found = []
        twice = sorted({label for label in visible if visible.count(label) > 1})
        if twice:
            found.append(f"listed twice: {quoted(twice)}")
        stray = sorted(set(visible) - set(self.sent))
        if stray:
            found.append(f"never sent: {quoted(stray)}")
        back = sorted(set(visible) & (self.out() | set(self.held) | set(self.uncommitted)))
        if back:
            found.append(f"visible although received, purged, aborted, held or uncommitted: {quoted(back)}")
        lost = [label for label in self.sent if label not in set(visible) | self.out() | set(self.held)
                | set(self.uncommitted)]
        if lost:
            found.append(f"lost (neither queued, held, received, purged nor aborted): {quoted(lost)}")
        return found


# -- the machine base ---------------------------------------------------------------------------
class MachineBase(RuleBasedStateMachine):
    """One queue "q", one handle "h", a model, a ledger, a script; see the module docstring."""

    machine = "base"
    url = "reference"
    transactional = False
    examples = 0
    clauses: dict[str, str] = {}   # action -> the clause a wrong answer breaks

    def __init__(self) -> None:
        super().__init__()
        cls = type(self)
        cls.examples += 1
        self.run = f"{os.environ.get('MQSPEC_RUN_ID', 'local')}-{self.machine}-{cls.examples}"
        self.step_number = 0
        self.model = QueueModel(transactional=self.transactional)
        self.ledger = self.ledger_class()
        self.order: dict[str, int] = {}          # label -> sending order
        self.priority: dict[str, int] = {}       # label -> priority it was sent with
        self.sequence: dict[str, int] = {}       # label -> pSequenceId seen
        self.request_ids: dict[str, int] = {}    # request alias -> dwRequestId
        self.uows: dict[str, bytes] = {}           # transaction alias -> XACTUOW
        self._counters: dict[str, int] = {}
        self._requests = 0
        self.last_clause: str | None = None    # the clause of the latest step, for invariant failures
        self.target = connect(self.url)
        queue_kind = "a transactional queue" if self.transactional else "a queue"
        self.script = Script(self.machine, [f'{queue_kind} "{QUEUE}"',
                                            f'"{QUEUE}" is opened with RECEIVE_ACCESS as "{HANDLE}"'])
        pathname = f"{self.target.computer_name}\\private$\\mqspec-{self.machine}"
        created = self.target.create_queue(pathname, transactional=self.transactional)
        assert created.hresult == HRESULT.MQ_OK, f"creating the queue: {hresult_name(created.hresult)}"
        self.format_name = created.format_name
        opened = self.target.open_queue(queue_format(self.format_name), Access.RECEIVE_ACCESS,
                                        ShareMode.MQ_DENY_NONE)
        assert opened.hresult == HRESULT.MQ_OK, f"opening the queue: {hresult_name(opened.hresult)}"
        self.handle = opened.pph_context

    ledger_class = Ledger

    def teardown(self) -> None:
        self.target.close()
        log = _log_file()
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
        message = read_sections(out.pp_packet_sections, MAX_SIZE, MAX_SIZE)
        return message.label, message.priority

    def learn(self, label: str, sequence_id: int, priority: int | None = None) -> None:
        """Check and keep a label's pSequenceId and priority (lookup ids grow with arrival)."""
        if label not in self.order:
            raise AssertionError(self.failure(f"the target returned {label!r}, which was never sent"))
        if priority is not None and label in self.priority and priority != self.priority[label]:
            raise AssertionError(self.failure(
                f"{label!r} came back with priority {priority}, sent with {self.priority[label]}",
                "MS-MQDMPR:3.1.1.12:05"))
        seen = self.sequence.setdefault(label, sequence_id)
        if seen != sequence_id:
            raise AssertionError(self.failure(
                f"{label!r} came back with pSequenceId {sequence_id:#x}, earlier {seen:#x}",
                "MS-MQDMPR:3.1.1.12:01"))
        ordered = sorted(self.sequence, key=self.order.__getitem__)
        for before, after in zip(ordered, ordered[1:]):
            if self.sequence[before] >= self.sequence[after]:
                raise AssertionError(self.failure(
                    f"lookup ids do not grow with arrival: {before!r} {self.sequence[before]:#x}, "
                    f"{after!r} {self.sequence[after]:#x}", "MS-MQDMPR:3.1.7.1.9:03"))

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
        else:
            checks = [("Then", f"the call returns {expected.hresult}")]
            if expected.label:
                checks.append(("#", f'(the message returned is "{expected.label}")'))
        self.script.add(ScriptStep(lines + checks, refers=list(refers), returns=label))
        if label is not None:
            self.learn(label, out.p_sequence_id, priority)
        self.last_clause = clause or self.clauses.get(action)
        if actual != expected:
            raise AssertionError(self.failure(
                f"{action} {arguments}: the target answered {self.show(actual)}, the model expects "
                f"{self.show(expected)}", self.last_clause))
        return label

    def note(self, action: str, arguments: dict, lines: list[tuple[str, str]], *, sends=(), result=None) -> None:
        """A step whose outcome is not compared with the model (set-up style: sends, begin)."""
        self.step_number += 1
        self.last_clause = self.clauses.get(action, "MS-MQDMPR:3.1.7.1.9:04")
        self.log(action, arguments, result or Outcome("MQ_OK"), None)
        self.script.add(ScriptStep(lines, sends=list(sends), visible_after=self.model.available()))

    @staticmethod
    def show(outcome: Outcome) -> str:
        return outcome.hresult + (f' with "{outcome.label}"' if outcome.label else "")

    def log(self, action: str, arguments: dict, actual: Outcome, expected: Outcome | None) -> None:
        log = _log_file()
        if log is None:
            return
        result = {"hresult": actual.hresult, "label": actual.label}
        if expected is not None:
            result["expected"] = {"hresult": expected.hresult, "label": expected.label}
        log.write(json.dumps({"run": self.run, "machine": self.machine, "step": self.step_number,
                              "action": action, "arguments": arguments, "result": result}) + "\n")

    def failure(self, what: str, clause: str | None = None, final=()) -> str:
        tags = [clause] if clause and _in_catalogue(clause) else []
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
        self.note("send", {"label": label, "priority": priority, "transaction": tx}, lines, sends=[label],
                  result=Outcome(hresult_name(out.hresult)))
        if (out.hresult, out.r_status) != (HRESULT.MQ_OK, 0) or expected.hresult != "MQ_OK":
            raise AssertionError(self.failure(
                f"sending {label!r}: {hresult_name(out.hresult)}, status {out.r_status}", "MS-MQDMPR:3.1.7.1.9:04"))
        return label

    # -- the invariant ---------------------------------------------------------------------------
    @invariant()
    def queue_matches(self) -> None:
        out = self.target.read_queue(self.format_name, MAX_SIZE)
        if out.hresult != HRESULT.MQ_OK:
            raise AssertionError(self.failure(f"read_queue failed: {hresult_name(out.hresult)}"))
        visible, priorities = [], []
        for message in out.messages:
            decoded = read_sections(message.pp_packet_sections, MAX_SIZE, MAX_SIZE)
            self.learn(decoded.label, message.p_sequence_id, decoded.priority)
            visible.append(decoded.label)
            priorities.append(decoded.priority)
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
            where = ("held by " + self.ledger.held[label]) if label in self.ledger.held else "gone"
            raise AssertionError(self.failure(f'"{label}" was handed out again although it is {where}',
                                              "MS-MQDMPR:3.1.7.1.10:07"))
        self.ledger.held[label] = owner


_catalogue_ids: set[str] | None = None


def _in_catalogue(clause: str) -> bool:
    global _catalogue_ids
    if _catalogue_ids is None:
        try:
            from mqspec.catalogue import load_catalogue
            _catalogue_ids = set(load_catalogue().clauses)
        except Exception:  # the catalogue is optional for a replay script
            _catalogue_ids = set()
    return clause in _catalogue_ids


def machine_settings(deep: bool = False) -> settings:
    """200 examples of up to 30 steps; --deep: 2000 of up to 50."""
    return settings(max_examples=2000 if deep else 200, stateful_step_count=50 if deep else 30, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def bind(machine: type[MachineBase], url: str) -> type[MachineBase]:
    """A subclass of `machine` that talks to `url`, with its own example counter."""
    return type(machine.__name__, (machine,), {"url": url, "examples": 0})
