"""The judging server: RemoteRead that records every call a client makes and answers chosen calls with faults.

Theory of operation
-------------------
A client of MS-MQRR is certified by what it sends.  `JudgingService` is the
RemoteRead service of `mqspec serve` with two additions, both on the call path:

- every call that reaches the interface becomes one record (`Record`), opnum 1 and
  stubs that do not decode included: which association and connection, the
  transfer syntax, the decoded arguments (of a stub that does not decode: the
  stub itself, its size and the decoder's reason), and, once answered, the status, the
  RPC fault or the dropped connection, and the outputs the client was handed
  (context handles, cursor, move context, sequence id).  The records are what
  the suite's client rules read (steps/client_rules.py): the judging itself is
  the suite's, never this module's;
- a plan of injections (`Injection`) answers the next matching call(s) with an
  HRESULT (thrown, for the two void methods), an RPC fault, damaged packet
  sections, or a closed connection, as the client clauses need (MS-MQRR
  3.1.4.2, 3.1.4.4, 3.2.4.4.1, 3.2.4.4.2).  An injected HRESULT runs nothing:
  the outputs are the ones a failed call carries, with a cursor handle and a
  sequence id nobody was given, so a client that uses them is seen doing so.

Records and plan are read and changed through the control interface
(judge_calls, judge_inject, judge_forget), so the suite judges a judge in its
own process and one started apart (`mqspec serve --judge`) alike.
"""

from __future__ import annotations

import dataclasses
import struct
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from mqspec.protocol.hresult import HRESULT, RpcStatus
from mqspec.protocol.idl import OPNUMS, SectionBuffer

from ..wire.dcerpc_server import Call, Drop, Fault
from .ndr import StubError, decode_request, encode_response
from .service import RemoteReadService

METHODS = {number: name for name, number in OPNUMS.items()}
KINDS = ("hresult", "fault", "drop", "damage", "noise")
RECORD_LIMIT = 100_000        # records kept until judge_forget: a client that floods cannot exhaust the judge
STUB_KEPT = 4096              # octets of an undecodable stub kept in its record
BOGUS_CURSOR = 0x4A554447      # "JUDG": the phCursor of an injected failure, a handle the judge never made
BOGUS_SEQUENCE_ID = 0x004A5544474544   # the pSequenceId of an injected failure
_ACK = struct.Struct("<20sII")   # phContext, dwAck, dwRequestId: opnums 9 and 15, in NDR 2.0 and NDR64 alike


@dataclass
class Injection:
    """Answer the matching calls after the first `skip` with `kind` (KINDS), `times` times."""
    method: str
    kind: str
    value: int = 0
    skip: int = 0
    times: int = 1

    def __post_init__(self) -> None:
        if self.method not in OPNUMS:
            raise ValueError(f"no RemoteRead method {self.method!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind {self.kind!r}: use one of {', '.join(KINDS)}")
        if self.kind in ("damage", "noise") and self.method not in ("R_StartReceive", "R_StartTransactionalReceive"):
            raise ValueError(f"{self.kind}: only the packet sections of a Start*Receive can be changed")
        for name in ("value", "skip", "times"):
            number = getattr(self, name)
            if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= 0xFFFFFFFF:
                raise ValueError(f"{name} must be a whole number from 0 to 0xFFFFFFFF, not {number!r}")


class JudgingService(RemoteReadService):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._records: list[dict] = []
        self._plan: list[Injection] = []
        self._since = time.monotonic()
        self._record_lock = threading.Lock()

    # -- what the control interface asks ------------------------------------------------------
    def judge_calls(self, since: int = 0) -> list[dict]:
        """The records from number `since` on (each record's `seq` is its number)."""
        with self._record_lock:
            return [dict(record) for record in self._records[since:]]

    def judge_inject(self, **plan) -> None:
        injection = Injection(**plan)
        with self._record_lock:
            self._plan.append(injection)

    def judge_forget(self) -> None:
        """A new scenario: no records, no injections."""
        with self._record_lock:
            self._records.clear()
            self._plan.clear()
            self._since = time.monotonic()

    # -- the call path ----------------------------------------------------------------------
    def admit(self, call: Call) -> Callable[[], bytes]:
        """RemoteReadService.admit, each call recorded as it arrives and answered as the plan says."""
        name = METHODS.get(call.opnum)
        record = self._arrived(call, name)
        if name is None:
            return self._answer(record, fault=RpcStatus.NCA_S_OP_RNG_ERROR)   # opnum 1 and past 15, recorded first
        try:
            args = decode_request(call.opnum, call.stub, call.ndr64)
        except StubError as error:
            record["undecodable"] = error.status
            record["args"] = _lenient(call)
            # the evidence: the stub as it came, and what the decoder said of it
            record["stub"] = {"size": len(call.stub), "octets": call.stub[:STUB_KEPT].hex(), "why": str(error)}
            return self._answer(record, fault=error.status)
        record["args"] = plain(args)
        injection = self._take(name)
        if injection is not None:
            record["injected"] = injection.kind
            if injection.kind == "drop":
                self._finish(record, dropped=True)
                raise Drop()
            if injection.kind == "fault":
                return self._answer(record, fault=injection.value)
            if injection.kind == "hresult":
                if name in ("R_OpenQueue", "R_OpenQueueForMove"):
                    return self._answer(record, fault=injection.value)   # a void method throws its status
                stub = self._answer(record, out=_failed(name, args, injection.value), opnum=call.opnum,
                                    ndr64=call.ndr64)
                return lambda: stub
        try:
            outputs = self.begin(call, name, args)
        except Fault as fault:
            return self._answer(record, fault=fault.status)

        def answer() -> bytes:
            try:
                out = outputs()
            except Fault as fault:
                return self._answer(record, fault=fault.status)
            if injection is not None:   # damage or noise: the call ran (its message is locked); its sections change
                change = _damaged if injection.kind == "damage" else _noisy
                sections, record["injected"] = change(out["ppPacketSections"])
                out = dict(out, ppPacketSections=sections)
            return self._answer(record, out=out, opnum=call.opnum, ndr64=call.ndr64)
        return answer

    def _arrived(self, call: Call, name: str | None) -> dict:
        record = {"seq": 0, "at": 0.0, "association": call.association.id, "connection": call.connection_id,
                  "opnum": call.opnum, "method": name, "ndr64": call.ndr64, "args": None, "undecodable": None,
                  "stub": None,
                  "injected": None, "status": None, "fault": None, "dropped": False, "outputs": None,
                  "done": False, "done_at": None,
                  "user": call.identity.user if call.identity is not None else None,
                  "auth": [call.identity.auth_type, call.identity.auth_level] if call.identity is not None else None}
        with self._record_lock:
            record["at"] = round(time.monotonic() - self._since, 6)
            if len(self._records) < RECORD_LIMIT:
                record["seq"] = len(self._records)
                self._records.append(record)
        return record

    def _take(self, name: str) -> Injection | None:
        with self._record_lock:
            for injection in self._plan:
                if injection.method != name:
                    continue
                if injection.skip:
                    injection.skip -= 1
                    return None
                injection.times -= 1
                if injection.times == 0:
                    self._plan.remove(injection)
                return injection
        return None

    def _answer(self, record: dict, *, fault: int | None = None, out: dict | None = None, opnum: int = 0,
                ndr64: bool = False) -> bytes:
        if fault is not None:
            self._finish(record, fault=fault)
            raise Fault(fault)
        self._finish(record, out=out)
        return encode_response(opnum, out, ndr64)

    def _finish(self, record: dict, *, fault: int | None = None, out: dict | None = None,
                dropped: bool = False) -> None:
        with self._record_lock:
            record["fault"], record["dropped"] = fault, dropped
            if out is not None:
                record["status"] = out.get("ReturnValue", HRESULT.MQ_OK)
                record["outputs"] = plain({key: value for key, value in out.items()
                                           if key not in ("ReturnValue", "ppPacketSections")})
            record["done"], record["done_at"] = True, round(time.monotonic() - self._since, 6)


def _lenient(call: Call) -> dict | None:
    """What can still be read of a stub that does not decode: dwAck and dwRequestId of an End call (a dwAck out of
    range(1,2) is refused by the runtime, and MS-MQRR 3.1.4.9 says what a client must send there)."""
    if call.opnum in (OPNUMS["R_EndReceive"], OPNUMS["R_EndTransactionalReceive"]) and len(call.stub) >= _ACK.size:
        handle, ack, request_id = _ACK.unpack_from(call.stub)
        return {"phContext": handle.hex(), "dwAck": ack, "dwRequestId": request_id}
    return None


def _failed(name: str, args: dict, status: int) -> dict:
    """The outputs of a call answered `status` without running: what the IDL makes the server send back."""
    if name == "R_GetServerPort":
        return {"ReturnValue": status}
    if name == "R_CloseQueue":
        return {"pphContext": args["pphContext"], "ReturnValue": status}
    if name == "R_CreateCursor":
        return {"phCursor": BOGUS_CURSOR, "ReturnValue": status}
    if name in ("R_StartReceive", "R_StartTransactionalReceive"):
        return {"pdwArriveTime": 0, "pSequenceId": BOGUS_SEQUENCE_ID, "pdwNumberOfSections": 0,
                "ppPacketSections": (), "ReturnValue": status}
    return {"ReturnValue": status}


def _damaged(sections: tuple) -> tuple[tuple, str]:
    """The first section cut to 8 bytes (half a BaseHeader): no client can rebuild a message from it."""
    if not sections:
        return sections, "damage (no sections)"
    first = sections[0]
    return (SectionBuffer(first.section_buffer_type, 8, 8, first.p_section_buffer[:8]),) + tuple(sections[1:]), \
        "damage"


EXTENSION, SUBQUEUE, EXTENDED_ADDRESS = 12, 148, 28   # header sizes, MS-MQRR 2.2.5.2, 2.2.5.3, 2.2.5.5
_TRAILERS = EXTENSION + SUBQUEUE + EXTENDED_ADDRESS


def _noisy(sections: tuple) -> tuple[tuple, str]:
    """The packet's trailer headers with what readers must ignore filled in: the ExtensionHeader's unused flag
    bits and reserved bytes (MS-MQRR 2.2.5.2), a SubqueueHeader whose SubqueueName is empty (2.2.5.3), an
    ExtendedAddressHeader made AddressType 0 (2.2.5.5).  The trailers end the packet, so they end its last
    section; a packet with a DeadLetterHeader (its size is not known from the end) is left as it is."""
    if not sections:
        return sections, "noise (no sections)"
    last = sections[-1]
    data = bytearray(last.p_section_buffer)
    at = len(data) - _TRAILERS
    if at < 0 or struct.unpack_from("<II", data, at) != (EXTENSION, SUBQUEUE + EXTENDED_ADDRESS):
        return sections, "noise (no trailers found: left as it was)"
    data[at + 8] |= 0xE4                                  # flag bits 2, 5, 6 and 7: unused
    data[at + 9:at + 12] = b"\xA5\xA5\xA5"                  # Reserved
    sub = at + EXTENSION
    if not any(data[sub + 20:sub + 84]):                  # SubqueueName empty: the whole header is to be ignored
        data[sub + 8:sub + 20] = struct.pack("<III", 0xA5A5A5A5, 0x5A5A5A5A, 0xA5A5A5A5)
        data[sub + 84:sub + 148] = b"\xA5" * 64
    address = sub + SUBQUEUE
    data[address + 4:address + 28] = struct.pack("<HHI", 0xA5A5, 0, 0xA5A5A5A5) + b"\xA5" * 16   # AddressType 0
    changed = SectionBuffer(last.section_buffer_type, last.section_size_alloc, last.section_size, bytes(data))
    return tuple(sections[:-1]) + (changed,), "noise"


def plain(value):
    """A record's value as JSON can carry it: bytes as hex, GUIDs as text, dataclasses as dicts."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, uuid.UUID):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, (int, float, str)):
        return int(value) if isinstance(value, int) and not isinstance(value, bool) else value
    raise TypeError(f"a record cannot hold {type(value).__name__}")
