"""The state one scenario builds up: names it gave to what the target handed out.

Scenarios never see server-issued values (context handles, cursor handles,
lookup identifiers, request ids, transaction ids); they name them ("h", "c1",
"m2") and the World keeps the mapping, so the same scenario runs against any
target.  Queue names get a per-scenario prefix so that scenarios can share a
live server.
"""

from __future__ import annotations

import itertools
import threading
import time
import uuid
from dataclasses import dataclass, field

import pytest

from mqspec.adapters import CAPABILITIES, Target, TargetCapabilityError
from mqspec.adapters.target import SendOut
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .observed import ObservedTarget
from .packet_reader import DecodedMessage, read_sections

MAX_SIZE = 0x400000  # MS-MQMQ 2.2.19.1: no packet is larger


@dataclass
class Sent:
    label: str
    format_name: str
    message_id: bytes
    transactional: bool = False


@dataclass
class Background:
    """A call running on another thread (a receive that waits)."""
    thread: threading.Thread
    result: object = None


@dataclass
class World:
    target: Target
    prefix: str = field(default_factory=lambda: "mqs" + uuid.uuid4().hex[:6])
    queues: dict[str, str] = field(default_factory=dict)          # alias -> format name
    handles: dict[str, bytes] = field(default_factory=dict)       # alias -> context handle
    handle_queue: dict[str, str] = field(default_factory=dict)    # handle alias -> queue alias
    move_contexts: dict[str, int] = field(default_factory=dict)   # handle alias -> pMoveContext
    cursors: dict[str, tuple[str, int]] = field(default_factory=dict)  # alias -> (handle alias, hCursor)
    transactions: dict[str, bytes] = field(default_factory=dict)  # alias -> XACTUOW
    sent: dict[str, Sent] = field(default_factory=dict)           # label -> what was sent
    sequence_ids: dict[str, int] = field(default_factory=dict)    # label -> pSequenceId seen
    requests: dict[str, tuple[str, int]] = field(default_factory=dict)  # alias -> (handle alias, dwRequestId)
    background: dict[str, Background] = field(default_factory=dict)
    last: object = None            # the last call's result object
    _status: int | None = None     # the last call's HRESULT (see status)
    send_unseen: bool = False      # the last call was a send whose Enqueue Message status the target did not see
    decoded: DecodedMessage | None = None  # the message the last call returned
    max_body: int = MAX_SIZE
    notes: dict = field(default_factory=dict)  # anything else a step module needs to remember
    runtime_refusal: tuple[int | None, bool] = (None, False)  # see steps/observed.py, for the last call
    _ids: itertools.count = field(default_factory=lambda: itertools.count(101))

    clients: dict[str, ObservedTarget] = field(default_factory=dict)  # name -> client; "first" is the fixture's
    node: object = None            # the pytest item of the scenario, where readings are recorded
    readings: dict[str, str] = field(default_factory=dict)  # decision -> the reading the target showed

    def __post_init__(self) -> None:
        self.target = ObservedTarget(self.target)
        self.clients["first"] = self.target

    def close_clients(self) -> None:
        """The other clients a scenario opened, released as their connections closing would."""
        for name, client in self.clients.items():
            if name != "first":
                client.close()

    # -- what the target can do -------------------------------------------------------------
    def require(self, capability: str) -> None:
        """Stop the scenario as not run when the target lacks `capability` (never as passed)."""
        if capability not in self.target.capabilities:
            pytest.skip(f"not run: needs {capability} ({CAPABILITIES[capability]}); "
                        f"{self.target.name} does not offer it")

    def judging_a_send(self) -> None:
        """The step judges how the last send was refused or accepted: only a target whose sends answer the
        Enqueue Message status can show it (over MS-MQQB a refused message is just not there)."""
        if isinstance(self.last, SendOut):
            self.require("send_status")

    def observe(self, decision: str, reading: str) -> None:
        """The target showed `reading` of the open decision `decision` (spec/decisions.md): record it (the run's
        profile; --profile may demand another)."""
        seen = self.readings.setdefault(decision, reading)
        assert seen == reading, f"{decision}: the target showed the reading {seen!r}, and now {reading!r}"
        if self.node is not None:
            self.node.user_properties.append(("reading", f"{decision}={reading}"))

    # -- names ------------------------------------------------------------------------------
    def pathname(self, alias: str) -> str:
        return f"{self.target.computer_name}\\private$\\{self.prefix}-{alias}"

    def queue(self, alias: str) -> str:
        if alias in ("the system journal", "the dead-letter queue", "the transactional dead-letter queue"):
            return self.target.machine_format_name({"the system journal": "JOURNAL",
                                                    "the dead-letter queue": "DEADLETTER",
                                                    "the transactional dead-letter queue": "DEADXACT"}[alias])
        if alias.endswith(" journal"):
            return self.queue(alias[: -len(" journal")]) + ";JOURNAL"
        if alias not in self.queues:
            raise KeyError(f"no queue called {alias!r} in this scenario")
        return self.queues[alias]

    def handle(self, alias: str) -> bytes:
        if alias not in self.handles:
            raise KeyError(f"no queue handle called {alias!r} in this scenario")
        return self.handles[alias]

    def cursor(self, alias: str) -> tuple[bytes, int]:
        handle_alias, h_cursor = self.cursors[alias]
        return self.handle(handle_alias), h_cursor

    def request_id(self) -> int:
        return next(self._ids)

    def in_background(self, request: str, handle: str, request_id: int, method: str, *args) -> Background:
        """Start the Start*Receive `method` with `args` now, known as `request` (its dwRequestId on `handle`, for
        End and Cancel), and wait for its end on a thread of its own.  The call is in when this returns (the target
        has it, or over the wire its request is sent and the server had its settling time: Target.enter_receive,
        D-150), so the steps that follow find it waiting however slow the machine is."""
        self.requests[request] = (handle, request_id)
        wait = self.target.enter_receive(method, *args)
        job = Background(thread=threading.Thread(target=lambda: setattr(job, "result", wait()), daemon=True))
        self.background[request] = job
        job.thread.start()
        if "rpc" in self.target.capabilities and "calls_in_order" not in self.target.capabilities:
            time.sleep(self.target.settle_seconds)   # D-150: a server's runtime may take the call up on its own time
        return job

    def lookup_id(self, label: str) -> int:
        """The LookupId of a message the scenario has seen, rebuilt from its pSequenceId.

        MS-MQDMPR:3.1.7.1.9:03 the high byte is 0x07 - priority (0) for transactional messages."""
        if label not in self.sequence_ids:
            self.learn_sequence_ids()
        sequence_id = self.sequence_ids[label]
        sent = self.sent.get(label)
        return sequence_id | (0x07 << 56 if sent and sent.transactional else 0)

    def learn_sequence_ids(self) -> None:
        """Peek through every queue of the scenario to learn the sequence ids of its messages."""
        for format_name in self.queues.values():
            for message in self.target.read_queue(format_name).messages:
                decoded = read_sections(message.pp_packet_sections, MAX_SIZE, MAX_SIZE)
                self.sequence_ids.setdefault(decoded.label, message.p_sequence_id)

    # -- results ----------------------------------------------------------------------------
    @property
    def status(self) -> int | None:
        """The last call's HRESULT; after a send whose status the target cannot tell (a send over MS-MQQB that
        was not seen to arrive), the scenario that asks is not run, for want of send_status."""
        if self.send_unseen:
            raise TargetCapabilityError(self.target.name, "send_status", "the send was not seen to arrive")
        return self._status

    def record(self, result) -> None:
        self.last = result
        self._status = result if isinstance(result, int) else getattr(result, "hresult", None)
        self.send_unseen = (isinstance(result, SendOut) and result.hresult == HRESULT.MQ_OK and result.r_status is None
                            and "send_status" not in self.target.capabilities)   # a target that answers it said it
        self.runtime_refusal = (self.target.refusal, self.target.strict)
        self.decoded = None
        sections = getattr(result, "pp_packet_sections", None)
        if self.status == HRESULT.MQ_OK and sections:
            self.decoded = read_sections(sections, self.max_body, self.max_body)
            self.sequence_ids[self.decoded.label] = result.p_sequence_id

    def status_is(self, expected: int) -> bool:
        """The last call's status is `expected`; over DCE/RPC, when `expected` is a failure the RPC runtime
        would draw first, its refusal instead (strict: the IDL requires it) or besides (see steps/observed.py)."""
        refusal, strict = self.runtime_refusal
        if refusal is None or not expected & 0x80000000 or "rpc" not in self.target.capabilities:
            return self.status == expected
        return self.status == refusal or (not strict and self.status == expected)

    def failed(self) -> bool:
        """The last call failed: its status has the severity bit ([MS-ERREF] 2.1), or over DCE/RPC it is the
        runtime's refusal of a call the runtime may refuse (steps/observed.py)."""
        refusal, _ = self.runtime_refusal
        return bool(self.status & 0x80000000) or (
            "rpc" in self.target.capabilities and refusal is not None and self.status == refusal)

    def labels(self, queue_alias: str) -> list[str]:
        out = self.target.read_queue(self.queue(queue_alias))
        assert out.hresult == HRESULT.MQ_OK, f"reading {queue_alias!r}: {describe_hresult(out.hresult)}"
        labels = []
        for message in out.messages:
            decoded = read_sections(message.pp_packet_sections, MAX_SIZE, MAX_SIZE)
            self.sequence_ids.setdefault(decoded.label, message.p_sequence_id)
            labels.append(decoded.label)
        return labels

    def messages(self, queue_alias: str) -> list[DecodedMessage]:
        out = self.target.read_queue(self.queue(queue_alias))
        assert out.hresult == HRESULT.MQ_OK, f"reading {queue_alias!r}: {describe_hresult(out.hresult)}"
        return [read_sections(m.pp_packet_sections, MAX_SIZE, MAX_SIZE) for m in out.messages]
