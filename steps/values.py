"""Turning the words of a scenario into protocol values, and back for messages.

A value in a step may be a number (decimal or 0x hex), a constant from the
specifications (MQ_ACTION_PEEK_NEXT, RECEIVE_ACCESS, MQ_DENY_SHARE, RR_ACK,
MQMSG_CLASS_ACK_RECEIVE, INFINITE, ...), an HRESULT or RPC status name, or a name the scenario
gave to something (see world.py).
"""

from __future__ import annotations

from mqspec.protocol.constants import (
    INFINITE,
    UNLISTED_LOOKUP_ACTIONS,
    Access,
    Ack,
    AcknowledgementsRequested,
    Action,
    MessageClass,
    ShareMode,
)
from mqspec.protocol.hresult import HRESULT, RpcStatus

CONSTANTS: dict[str, int] = {"INFINITE": INFINITE, "NULL": 0}
for enum in (Access, Ack, Action, MessageClass, ShareMode):
    CONSTANTS.update({member.name: int(member.value) for member in enum})
CONSTANTS.update(UNLISTED_LOOKUP_ACTIONS)
ACKNOWLEDGEMENTS = {
    "none": 0, "positive arrival": AcknowledgementsRequested.ACK_POS_ARRIVAL,
    "positive receive": AcknowledgementsRequested.ACK_POS_RECEIVE,
    "negative arrival": AcknowledgementsRequested.ACK_NEG_ARRIVAL,
    "negative receive": AcknowledgementsRequested.ACK_NEG_RECEIVE,
    "full reach queue": AcknowledgementsRequested.ACK_FULL_REACH_QUEUE,
    "nack receive": AcknowledgementsRequested.ACK_NACK_RECEIVE,
    "full receive": AcknowledgementsRequested.ACK_FULL_RECEIVE,
}


def number(text: str) -> int:
    """A number or a named constant."""
    text = text.strip()
    if text in CONSTANTS:
        return CONSTANTS[text]
    try:
        return int(text, 0)
    except ValueError:
        raise ValueError(f"{text!r} is neither a number nor a known constant") from None


def hresult(text: str) -> int:
    """An HRESULT or RPC fault status by name, or a number."""
    text = text.strip()
    if text in HRESULT.__members__:
        return HRESULT[text]
    if text in RpcStatus.__members__:
        return RpcStatus[text]
    return number(text)


def acknowledgements(text: str) -> int:
    """'positive receive and negative receive' -> the PA/PR/NA/NR bits."""
    value = 0
    for part in text.replace(",", " and ").split(" and "):
        part = part.strip()
        if part:
            value |= ACKNOWLEDGEMENTS[part]
    return value


def labels(text: str) -> list[str]:
    """'"m1", "m2" and "m3"' -> ['m1', 'm2', 'm3']; 'nothing' -> []."""
    text = text.strip()
    if text in ("nothing", "no messages"):
        return []
    return [part.strip().strip('"') for part in text.replace(" and ", ", ").split(",") if part.strip()]
