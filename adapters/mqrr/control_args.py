"""What the control interface accepts: every operation's arguments, each with its type and range.

Theory of operation
-------------------
A control request is JSON from anyone who can reach the port, and the hosted queue
manager trusts the arguments it is given (the suite's steps never send a float for a
quota).  So `check(op, args)` stands between the two: each argument of each operation
(ARGUMENTS) has a kind (KINDS: text, flag, a whole number within a range, octets of
a length, a message's properties, a queue's security) and is required or optional;
an argument that is missing, unknown, of another type or out of its range is refused
with one line naming the operation, the argument and what it must be (ArgumentError),
before anything runs.  What the check lets through can be stored, read back and
served: no float clock (issue 20: Infinity or NaN made every receive fault), no body
given as text (acknowledged, then unreadable), no quota beyond the specification's
32 bits (MS-MQDMPR 3.1.1.1 QueueManagerQuota, 3.1.1.2 Quota).  Values a queue manager
itself judges (a priority of 8, a label too long, an unknown message class) pass,
so that the queue manager's own answer to them can be tested.
"""

from __future__ import annotations

import dataclasses

U32 = 0xFFFFFFFF                # MS-MQDMPR: quotas, counters and times are unsigned 32-bit
LARGEST_STEP_MS = 2 ** 53 - 1   # elapse: a clock step every JSON reader holds exactly (400 days is 3.5e10 ms)
LONGEST_WAIT_MS = 120_000       # await_rundown: a worker thread waits no longer than a control call may take
SHOWN = 40                      # characters of a refused value quoted in the error line


class ArgumentError(ValueError):
    """An argument the operation cannot take; the message is one line."""


@dataclasses.dataclass(frozen=True)
class Whole:
    low: int
    high: int

    def check(self, value) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            return f"a whole number from {self.low} to {self.high:#x}" if self.high >= 0x10000 else \
                f"a whole number from {self.low} to {self.high}"
        return None


@dataclasses.dataclass(frozen=True)
class Octets:
    length: int | None = None    # exactly this many, or any number

    def check(self, value) -> str | None:
        if not isinstance(value, (bytes, bytearray)) or (self.length is not None and len(value) != self.length):
            size = f"{self.length} " if self.length is not None else ""
            return f'{size}bytes, given as {{"$bytes": BASE64}}'
        return None


class _Text:
    def check(self, value) -> str | None:
        return None if isinstance(value, str) else "text"


class _Flag:
    def check(self, value) -> str | None:
        return None if isinstance(value, bool) else "true or false"


@dataclasses.dataclass(frozen=True)
class OneOf:
    choices: tuple

    def check(self, value) -> str | None:
        return None if isinstance(value, str) and value in self.choices else "one of " + ", ".join(self.choices)


@dataclasses.dataclass(frozen=True)
class OrNull:
    kind: object     # or null

    def check(self, value) -> str | None:
        if value is None:
            return None
        wrong = self.kind.check(value)
        return None if wrong is None else f"{wrong}, or null"


class _Extra:
    """MessageProperties.extra: property name -> a JSON scalar or bytes (the queue manager checks its type)."""

    def check(self, value) -> str | None:
        if not isinstance(value, dict) or not all(
                isinstance(item, (str, bool, bytes)) or item is None
                or (isinstance(item, int) and -2 ** 63 <= item < 2 ** 64) for item in value.values()):
            return "a table of property names and values (text, true/false, a whole number, bytes or null)"
        return None


class _Security:
    """create_queue's security (docs/control.md): {"owner": NAME, "dacl": [[allow|deny, TRUSTEE, RIGHTS], ...]}."""

    def check(self, value) -> str | None:
        if value is None:
            return None
        entries = value.get("dacl") if isinstance(value, dict) else None
        if (not isinstance(value, dict) or set(value) - {"owner", "dacl"}
                or not isinstance(value.get("owner"), (str, type(None)))
                or not (entries is None or isinstance(entries, list) and all(
                    isinstance(entry, list) and len(entry) == 3 and entry[0] in ("allow", "deny")
                    and isinstance(entry[1], str) and Whole(0, U32).check(entry[2]) is None for entry in entries))):
            return 'null or {"owner": NAME, "dacl": [["allow" or "deny", TRUSTEE, RIGHTS], ...]}'
        return None


TEXT, FLAG, U32_NUMBER, GUID = _Text(), _Flag(), Whole(0, U32), Octets(16)
NUMBER_32 = Whole(-2 ** 31, U32)   # a message property the queue manager range-checks itself (priority 8, -1)

# MessageProperties (adapters/target.py), field by field: what `send`'s `properties` may hold.
PROPERTIES = {
    "body": Octets(), "label": TEXT, "priority": OrNull(NUMBER_32), "delivery": OneOf(("express", "recoverable")),
    "message_class": NUMBER_32, "acknowledgements": NUMBER_32, "admin_queue": TEXT, "response_queue": TEXT,
    "time_to_reach_queue": OrNull(U32_NUMBER), "time_to_be_received": OrNull(U32_NUMBER),
    "privacy_level": NUMBER_32, "sent_time": U32_NUMBER, "positive_journaling": FLAG, "negative_journaling": FLAG,
    "allow_peek_when_locked": FLAG, "correlation_id": Octets(20), "application_tag": U32_NUMBER,
    "body_type": U32_NUMBER, "extension": Octets(), "srmp_envelope": OrNull(TEXT),
    "srmp_compound_message": OrNull(Octets()), "extra": _Extra(),
}


class _Properties:
    def check(self, value) -> str | None:
        if not isinstance(value, dict):
            return "a table of message properties (docs/control.md)"
        return None      # check() walks the fields


PROPERTIES_KIND = _Properties()

# op -> {argument: (kind, required)}; an argument left out takes the Target method's default.
ARGUMENTS = {
    "identity": {},
    "create_queue": {"pathname": (TEXT, True), "transactional": (FLAG, False),
                     "quota": (U32_NUMBER, False),   # MS-MQDMPR 3.1.1.2 Quota: kilobytes, 32 bits
                     "journaling": (FLAG, False), "label": (TEXT, False), "security": (_Security(), False)},
    "delete_queue": {"format_name": (TEXT, True)},
    "send": {"format_name": (TEXT, True), "properties": (PROPERTIES_KIND, True), "transaction": (OrNull(GUID), False)},
    "begin_transaction": {},
    "prepare_transaction": {"uow": (GUID, True)},
    "commit_transaction": {"uow": (GUID, True)},
    "abort_transaction": {"uow": (GUID, True)},
    "elapse": {"ms": (Whole(0, LARGEST_STEP_MS), True)},
    "run_in_real_time": {},
    "restart": {},
    "reset": {},
    "list_messages": {"format_name": (TEXT, True)},
    "await_rundown": {"association": (U32_NUMBER, True), "timeout_ms": (Whole(0, LONGEST_WAIT_MS), True)},
    "configure": {"pending_request_cleanup_ms": (U32_NUMBER, False), "workgroup_policy": (U32_NUMBER, False)},
    "restart_holding_ports": {"count": (U32_NUMBER, True)},   # Served checks the sequence's length
    "set_queue_manager_quota": {"quota": (U32_NUMBER, True)},   # MS-MQDMPR 3.1.1.1 QueueManagerQuota: bytes, 32 bits
    "judge_calls": {"since": (Whole(0, 2 ** 63 - 1), False)},
    "judge_inject": {"method": (TEXT, True), "kind": (TEXT, True), "value": (U32_NUMBER, False),
                     "skip": (U32_NUMBER, False), "times": (U32_NUMBER, False)},
    "judge_forget": {},
}


def check(op: str, args: dict) -> None:
    """ArgumentError (one line) unless every argument of `args` is one `op` takes, of its kind and range, and
    every required one is there."""
    table = ARGUMENTS[op]
    for name in args:
        if name not in table:
            known = ", ".join(table) or "none"
            raise ArgumentError(f"{op}: no argument {_shown(name)} (it takes: {known})")
    for name, (kind, required) in table.items():
        if name not in args:
            if required:
                raise ArgumentError(f"{op}: {name} is missing")
            continue
        _check(op, name, kind, args[name])
        if kind is PROPERTIES_KIND:
            for field, value in args[name].items():
                if field not in PROPERTIES:
                    raise ArgumentError(f"{op}: properties has no field {_shown(field)}")
                _check(op, f"properties.{field}", PROPERTIES[field], value)


def _check(op: str, name: str, kind, value) -> None:
    wrong = kind.check(value)
    if wrong is not None:
        raise ArgumentError(f"{op}: {name} must be {wrong}, not {_shown(value)}")


def _shown(value) -> str:
    """A refused value in a few characters: it may be megabytes, and the error is one line."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."
