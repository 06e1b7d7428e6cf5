"""The state one client scenario builds up: the judge's scene, what the application asked, what it was told.

A client scenario plays the application (through the shim, adapters/shim.py) and
the rest of the world (through the judging server, adapters/judge.py): it sets
queues and messages up on the judge, asks the client for application operations,
plays the transaction coordinator, and finally judges the calls the judge
recorded (client_rules.py).  Each operation asked is remembered with the number
of judge records before it was sent and after its final reply, so a rule can tell
which calls the client made for which operation.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass, field

import pytest

from mqspec.adapters import MessageProperties
from mqspec.adapters.judge import Judge
from mqspec.adapters.shim import Shim, ShimUnimplemented

ANSWER_SETTLE = 10.0   # seconds a background read may take to reach the judge


@dataclass
class Asked:
    """One application operation: what was asked, the judge records it spans, the client's final reply."""
    op: str
    args: dict
    first: int                    # the number of judge records when it was sent
    last: int | None = None       # ... when its final reply came (None: still waiting)
    reply: dict | None = None
    number: int = 0               # the shim protocol id

    @property
    def status(self) -> int | None:
        return None if self.reply is None else self.reply["status"]


@dataclass
class SentMessage:
    properties: MessageProperties
    message_id: bytes


@dataclass
class ClientWorld:
    judge: Judge
    shim: Shim
    queues: dict[str, str] = field(default_factory=dict)          # alias -> pathname on the judge
    private_names: dict[str, str] = field(default_factory=dict)   # alias -> its PRIVATE= format name, when given
    transactional: set[str] = field(default_factory=set)          # aliases of transactional queues
    sent: dict[str, SentMessage] = field(default_factory=dict)    # label -> what the judge was given
    asked: list[Asked] = field(default_factory=list)
    waiting: dict[str, Asked] = field(default_factory=dict)       # request name -> its read
    transactions: dict[str, str] = field(default_factory=dict)    # name -> XACTUOW (hex) the client made
    ended: dict[str, int] = field(default_factory=dict)           # transaction name -> judge records when it ended
    node: object = None
    last: Asked | None = None

    # -- the judge's scene ---------------------------------------------------------------------
    def format_name(self, alias: str) -> str:
        """The DIRECT= format name an application would use for the judge's queue (MS-MQMQ 2.1.2)."""
        # "orders;archive" is a subqueue (MS-MQMQ 2.1.2); a name the judge does not hold is sent as it is
        name = self.queues[alias].rpartition("\\")[2] if alias in self.queues else alias
        return f"DIRECT=TCP:{self.judge.host}\\PRIVATE$\\{name}"

    def judge_format_name(self, alias: str) -> str:
        """The format name the judge's own set-up reads the queue (or subqueue) by."""
        return f"DIRECT=OS:{self.queues[alias]}"

    def records(self) -> list[dict]:
        return self.judge.calls()

    # -- asking the application's operations ---------------------------------------------------
    def ask(self, op: str, **args) -> Asked:
        """Ask the client for one operation and wait for its final reply."""
        asked = self.begin(op, **args)
        return self.finish(asked)

    def begin(self, op: str, **args) -> Asked:
        asked = Asked(op, args, len(self.records()))
        self.asked.append(asked)
        timeout = args.get("timeout", 0)
        try:
            asked.number = self.shim.send(op, **args)
            if "wait" in args:
                self.shim.pending(asked.number, op)
                self.waiting[args["wait"]] = asked
                self._until_started(asked, timeout)
                return asked
        except ShimUnimplemented as missing:
            pytest.skip(f"not run: {missing}")
        return asked

    def finish(self, asked: Asked) -> Asked:
        try:
            asked.reply = self.shim.reply(asked.number, asked.op, asked.args.get("timeout", 0))
        except ShimUnimplemented as missing:
            pytest.skip(f"not run: {missing}")
        asked.last = len(self.records())
        self.last = asked
        return asked

    def _until_started(self, asked: Asked, timeout_ms: int) -> None:
        """A read that waits has reached the judge once a Start*Receive of it is recorded and not yet answered."""
        deadline = time.monotonic() + ANSWER_SETTLE
        while time.monotonic() < deadline:
            calls = self.records()[asked.first:]
            if any(call["method"] in ("R_StartReceive", "R_StartTransactionalReceive") for call in calls):
                return
            time.sleep(0.01)
        raise AssertionError(f"{asked.op} in the background: no R_StartReceive or R_StartTransactionalReceive "
                             f"reached the judge within {ANSWER_SETTLE:g} s")

    def message_of(self, asked: Asked) -> dict:
        """The message the client reported for an operation (an assertion error when it reported none)."""
        assert asked.reply is not None, f"{asked.op}: no final reply yet"
        message = asked.reply.get("message")
        assert isinstance(message, dict), f"{asked.op}: the client reported status 0x{asked.status:08X} and no " \
                                          f"message ({asked.reply})"
        return message

    def lookup_id(self, label: str) -> int:
        """The lookup id the client reported for the message `label` (from its latest report of it)."""
        for asked in reversed(self.asked):
            message = (asked.reply or {}).get("message")
            if isinstance(message, dict) and self.label_of(message) == label:
                return int(message["lookup_id"])
        raise AssertionError(f"the client never reported the message {label!r}, so it has no lookup id for it")

    def label_of(self, message: dict) -> str | None:
        for label, sent in self.sent.items():
            if message.get("label") == sent.properties.label:
                return label
        return None


def body_of(message: dict) -> bytes:
    try:
        return base64.b64decode(message["body"], validate=True)
    except (KeyError, ValueError, TypeError):
        raise AssertionError(f"the client's message has no base64 'body': {message}") from None
