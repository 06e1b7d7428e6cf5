"""What a client's connections sent and received, kept cheaply, decoded only when asked (evidence of a failure).

Theory of operation
-------------------
`WireCapture` is a bounded ring (KEPT PDUs): the client's transport calls
`tap(connection, direction, data)` with the bytes of each PDU, or of several in a
row, as they go out or come in; that is one deque append, so a scenario that
passes pays nothing more.  When a scenario fails, `pdus(decode)` turns the ring
into one dict per PDU: its PDU type, flags, fragment and auth lengths, call id,
the opnum of a request and of the response or fault answering it (matched by
call id on the connection), a fault's status, and the stub decoded by `decode`
(the interface's NDR codec) when the call came whole in one unsealed fragment;
the octets as hex (the first HEX_KEPT of them) for a reader who wants them.
"""

from __future__ import annotations

import collections
import itertools
import struct
import time
from collections.abc import Callable

from . import dcerpc_pdu as pdu_

KEPT = 128           # PDUs kept per client: the latest ones, the failing call's among them
HEX_KEPT = 4096      # octets of each PDU shown as hex
_HEADER = struct.Struct("<BBBB4sHHI")   # [C706] 12.6.3.1 common header, little-endian
_BODY = struct.Struct("<IHH")           # request: alloc_hint, p_cont_id, opnum; response: ..., cancel_count
PTYPES = {pdu_.REQUEST: "request", pdu_.RESPONSE: "response", pdu_.FAULT: "fault", pdu_.BIND: "bind",
          pdu_.BIND_ACK: "bind_ack", pdu_.BIND_NAK: "bind_nak", pdu_.ALTER_CONTEXT: "alter_context",
          pdu_.ALTER_CONTEXT_RESP: "alter_context_resp", pdu_.AUTH3: "auth3", pdu_.CO_CANCEL: "co_cancel",
          pdu_.ORPHANED: "orphaned", pdu_.SHUTDOWN: "shutdown"}
FLAGS = ((pdu_.PFC_FIRST_FRAG, "first"), (pdu_.PFC_LAST_FRAG, "last"), (pdu_.PFC_PENDING_CANCEL, "pending_cancel"),
         (pdu_.PFC_CONC_MPX, "conc_mpx"), (pdu_.PFC_DID_NOT_EXECUTE, "did_not_execute"), (pdu_.PFC_MAYBE, "maybe"),
         (pdu_.PFC_OBJECT_UUID, "object_uuid"))

# decode(opnum, "request" | "response", stub) -> the stub's fields, JSON-able; it raises for a stub it cannot read
Decoder = Callable[[int, str, bytes], dict]


class WireCapture:
    def __init__(self, interface: str, kept: int = KEPT) -> None:
        self.interface = interface   # what the tapped connections are bound to, as a reader names it
        self.ring: collections.deque = collections.deque(maxlen=kept)
        self.dropped = 0             # PDUs pushed out of the ring by later ones (an estimate: see tap)
        self._began = time.monotonic()
        self._connections = itertools.count(1)

    def connection(self) -> int:
        """A number for a new connection, as the decoded PDUs name it."""
        return next(self._connections)

    def tap(self, connection: int, direction: str, data: bytes) -> None:
        """`data` (one PDU or several whole ones) went "out" or came "in" on `connection`."""
        if len(self.ring) == self.ring.maxlen:
            self.dropped += 1
        self.ring.append((time.monotonic() - self._began, connection, direction, bytes(data)))

    def pdus(self, decode: Decoder | None = None) -> list[dict]:
        """The PDUs kept, oldest first, decoded (see the module's docstring)."""
        opnums: dict[tuple[int, int], int] = {}   # (connection, call_id) -> opnum of its request
        decoded = []
        for at, connection, direction, data in list(self.ring):
            for one in _split(data):
                row = _header(one)
                row.update(at=round(at, 6), connection=connection, direction=direction, interface=self.interface,
                           hex=one[:HEX_KEPT].hex())
                _body(row, one, opnums, decode)
                decoded.append(row)
        return decoded


def _split(data: bytes) -> list[bytes]:
    """The PDUs in `data`, by each one's frag_length; a remainder that is no whole PDU is kept as it is."""
    pdus, at = [], 0
    while len(data) - at >= pdu_.COMMON_HEADER:
        length = struct.unpack_from("<H", data, at + 8)[0]
        if length < pdu_.COMMON_HEADER or at + length > len(data):
            break
        pdus.append(data[at:at + length])
        at += length
    if at < len(data):
        pdus.append(data[at:])
    return pdus


def _header(data: bytes) -> dict:
    if len(data) < pdu_.COMMON_HEADER:
        return {"type": "(cut short)", "length": len(data)}
    vers, minor, ptype, flags, _, frag_length, auth_length, call_id = _HEADER.unpack_from(data)
    return {"type": PTYPES.get(ptype, f"ptype {ptype}"), "version": f"{vers}.{minor}",
            "flags": [name for bit, name in FLAGS if flags & bit], "frag_length": frag_length,
            "auth_length": auth_length, "call_id": call_id, "length": len(data)}


def _body(row: dict, data: bytes, opnums: dict, decode: Decoder | None) -> None:
    """The request or response fields of `row`, and its stub decoded where it can be."""
    kind = row["type"]
    if kind not in ("request", "response", "fault") or len(data) < pdu_.REQUEST_HEADER:
        return
    alloc_hint, p_cont_id, third = _BODY.unpack_from(data, pdu_.COMMON_HEADER)
    key = (row["connection"], row["call_id"])
    row.update(alloc_hint=alloc_hint, p_cont_id=p_cont_id)
    if kind == "request":
        row["opnum"] = opnums[key] = third
    else:
        row["opnum"] = opnums.get(key)
        row["cancel_count"] = third & 0xFF
    if kind == "fault":
        row["status"] = struct.unpack_from("<I", data, pdu_.REQUEST_HEADER)[0] if len(data) >= 28 else None
        return
    stub = data[pdu_.REQUEST_HEADER:len(data) - (row["auth_length"] + pdu_.SEC_TRAILER if row["auth_length"] else 0)]
    row["stub_length"] = len(stub)
    whole = {"first", "last"} <= set(row["flags"])
    if decode is None or row["opnum"] is None:
        return
    if not whole or row["auth_length"]:
        row["stub_note"] = "not decoded: " + ("sealed or signed" if row["auth_length"] else "one fragment of several")
        return
    try:
        row["stub"] = decode(row["opnum"], kind, stub)
    except Exception as error:  # noqa: BLE001 - evidence of a failure: a stub that does not decode is named, not raised
        row["stub_note"] = f"does not decode: {type(error).__name__}: {error}"
