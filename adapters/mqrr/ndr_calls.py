"""The stub of every RemoteRead call (MS-MQRR 6, opnums 0 and 2-15), request and response.

Theory of operation
-------------------
`CALLS` maps each opnum to a `Call` holding four functions: encode/decode of the
request and of the response, each taking the NDR64 flag.  Scalar-only stubs are
`Fixed` layouts (ndr_wire), the same in both syntaxes.  Written out here are
the request of R_OpenQueue/R_OpenQueueForMove (a QUEUE_FORMAT, then scalars),
the request of R_QMEnlistRemoteTransaction (an XACTUOW, the range()d token size,
the token as a top-level conformant array, a QUEUE_FORMAT) and the response of
R_StartReceive/R_StartTransactionalReceive: three [ref] out scalars, then the
unique pointer of SectionBuffer** with its conformant array of SectionBuffer,
each pSectionBuffer's byte array deferred after the whole array, then the HRESULT.

Every pointer parameter is [ref]: pointer_default governs only the pointers
that are not top-level (C706 4.2.20), so a top-level pointer without an attribute
is ref and has no representation; None for one raises NullReference.  The
pointers inside (the strings of QUEUE_FORMAT, *ppPacketSections, pSectionBuffer)
take the interface's pointer_default(unique).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass

from mqspec.protocol.idl import (
    CB_PROPAGATION_TOKEN_RANGE,
    DW_ACK_RANGE,
    XACTUOW_SIZE,
    SectionBuffer,
)

from .ndr_errors import NullReference, StubError
from .ndr_wire import (
    BAD,
    BOUND,
    ENUM16_MAX,
    FIRST_REFERENT,
    RPC_X_ENUM_VALUE_OUT_OF_RANGE,
    Fixed,
    blob,
    check_keys,
    get_queue_format,
    pad,
    put_queue_format,
    scalar_error,
)

CTX, UOW, GUID = "20s", f"{XACTUOW_SIZE}s", "16s"
_REF = True   # marks a [ref] pointer parameter in a Fixed field list


@dataclass(frozen=True)
class Call:
    name: str
    encode_request: Callable[[dict, bool], bytes]
    decode_request: Callable[[bytes, bool], dict]
    encode_response: Callable[[dict, bool], bytes]
    decode_response: Callable[[bytes, bool], dict]


def _codec(shape) -> tuple:
    """(encode, decode) of one direction: a Fixed layout, or a written-out pair taking the NDR64 flag."""
    if isinstance(shape, Fixed):
        return (lambda values, ndr64: shape.encode(values)), (lambda stub, ndr64: shape.decode(stub))
    return shape


def _call(name: str, request, response) -> Call:
    return Call(name, *_codec(request), *_codec(response))


def _returns(name: str) -> Fixed:
    return Fixed(name + " response", (("ReturnValue", "L", False),))


# -- R_OpenQueue (2) / R_OpenQueueForMove (11): QUEUE_FORMAT, then scalars ----------------------------
_OPEN_TAIL = Fixed("R_OpenQueue request", (
    ("dwAccess", "L", False), ("dwShareMode", "L", False),
    ("pClientId", GUID, _REF),                       # [in] GUID*: top-level, ref
    ("fNonRoutingServer", "l", False), ("Major", "B", False), ("Minor", "B", False),
    ("BuildNumber", "H", False), ("fWorkgroup", "l", False)))
_OPEN_KEYS = _OPEN_TAIL.keys | {"pQueueFormat"}      # [in] QUEUE_FORMAT*: top-level, ref


def _encode_open(values: dict, ndr64: bool) -> bytes:
    check_keys(values, _OPEN_KEYS, "R_OpenQueue request")
    out = bytearray()
    put_queue_format(out, values["pQueueFormat"], ndr64)
    out += bytes(pad(len(out), 4))
    for name, size, ref in _OPEN_TAIL.blobs:
        blob(values, name, size, ref)
    row = [values[name] for name in _OPEN_TAIL.names]
    try:
        out += _OPEN_TAIL.layout.pack(*row)
    except struct.error:
        raise scalar_error("R_OpenQueue request", _OPEN_TAIL.names, _OPEN_TAIL.codes, row) from None
    return bytes(out)


def _decode_open(stub: bytes, ndr64: bool) -> dict:
    queue_format, position = get_queue_format(stub, 0, ndr64)
    position += pad(position, 4)
    try:
        row = _OPEN_TAIL.layout.unpack_from(stub, position)
    except struct.error:
        raise StubError(BAD, "R_OpenQueue request: cut short after pQueueFormat") from None
    values = dict(zip(_OPEN_TAIL.names, row))
    values["pQueueFormat"] = queue_format
    return values


# -- R_QMEnlistRemoteTransaction (12) ------------------------------------------------------------------
_ENLIST_KEYS = frozenset(("pTransactionId", "cbPropagationToken", "pbPropagationToken", "pQueueFormat"))
_TOKEN_LOW, _TOKEN_HIGH = CB_PROPAGATION_TOKEN_RANGE
_TOKEN20 = struct.Struct("<LL")       # cbPropagationToken, then the array's max_count
_TOKEN64 = struct.Struct("<L4xQ")     # NDR64: the max_count is 8 octets, aligned 8


def _encode_enlist(values: dict, ndr64: bool) -> bytes:
    check_keys(values, _ENLIST_KEYS, "R_QMEnlistRemoteTransaction request")
    uow = blob(values, "pTransactionId", XACTUOW_SIZE, True)      # [in] XACTUOW*: top-level, ref
    token, size = values["pbPropagationToken"], values["cbPropagationToken"]
    if token is None:
        raise NullReference("pbPropagationToken")   # [in, size_is(cbPropagationToken)] unsigned char*: ref
    if not isinstance(token, (bytes, bytearray, memoryview)) or len(token) != size:
        raise ValueError("pbPropagationToken: bytes of exactly cbPropagationToken octets (size_is)")
    out = bytearray(uow)   # XACTUOW is byte aligned: offset 0
    try:
        out += (_TOKEN64 if ndr64 else _TOKEN20).pack(size, size)
    except struct.error:
        raise ValueError(f"cbPropagationToken={size!r:.40} is not a DWORD") from None
    out += token
    put_queue_format(out, values["pQueueFormat"], ndr64)
    return bytes(out)


def _decode_enlist(stub: bytes, ndr64: bool) -> dict:
    uow = stub[:XACTUOW_SIZE]
    layout = _TOKEN64 if ndr64 else _TOKEN20
    try:
        (size,) = struct.unpack_from("<L", stub, XACTUOW_SIZE)
        if not _TOKEN_LOW <= size <= _TOKEN_HIGH:
            raise StubError(BOUND, f"cbPropagationToken={size} outside range({_TOKEN_LOW},{_TOKEN_HIGH})")
        _, maximum = layout.unpack_from(stub, XACTUOW_SIZE)
    except struct.error:
        raise StubError(BAD, "R_QMEnlistRemoteTransaction request: cut short") from None
    if maximum != size:
        raise StubError(BAD, f"pbPropagationToken: max_count {maximum} is not cbPropagationToken {size}")
    start = XACTUOW_SIZE + layout.size
    token = stub[start:start + size]
    if len(token) != size:
        raise StubError(BAD, "pbPropagationToken: cut short")
    queue_format, _ = get_queue_format(stub, start + size, ndr64)
    return {"pTransactionId": uow, "cbPropagationToken": size, "pbPropagationToken": token,
            "pQueueFormat": queue_format}


# -- R_StartReceive (7) / R_StartTransactionalReceive (13) response ------------------------------------
_RECEIVE_KEYS = frozenset(("pdwArriveTime", "pSequenceId", "pdwNumberOfSections", "ppPacketSections", "ReturnValue"))
_HEAD20 = struct.Struct("<L4xQLL")      # pdwArriveTime, pSequenceId (aligned 8), pdwNumberOfSections, pointer
_HEAD64 = struct.Struct("<L4xQL4xQ")    # the same; the pointer is 8 octets, aligned 8 (MS-RPCE 2.2.5.3.5)
_SECTION20 = struct.Struct("<H2xLLL")   # SectionType: 2 octets; pSectionBuffer: 4
_SECTION64 = struct.Struct("<LLL4xQ")   # SectionType: 4 octets (MS-RPCE 2.2.5.2); pointer 8, aligned 8
_U32 = struct.Struct("<L")
_U64 = struct.Struct("<Q")
_SCALARS_OUT = ("pdwArriveTime", "pSequenceId", "pdwNumberOfSections", "ReturnValue")
# [out] DWORD*, ULONGLONG*, DWORD*, SectionBuffer**: top-level, ref (the inner pointer of ** is unique)
_REF_OUT = ("pdwArriveTime", "pSequenceId", "pdwNumberOfSections", "ppPacketSections")


def _section_row(section, index: int) -> tuple:
    if not isinstance(section, SectionBuffer):
        raise ValueError(f"ppPacketSections[{index}]: expected a protocol.idl.SectionBuffer")  # noqa: TRY004 (API: ValueError)
    data = section.p_section_buffer
    if not isinstance(data, (bytes, bytearray, memoryview)) or len(data) != section.section_size:
        raise ValueError(f"ppPacketSections[{index}]: p_section_buffer must be bytes of section_size octets "
                         "(MS-MQRR 6: size_is(SectionSize))")
    kind, alloc = section.section_buffer_type, section.section_size_alloc
    if not isinstance(kind, int) or not 0 <= kind <= ENUM16_MAX:
        raise ValueError(f"ppPacketSections[{index}]: SectionType {kind!r} is not a 16-bit enum value")
    if not isinstance(alloc, int) or not 0 <= alloc <= 0xFFFFFFFF:
        raise ValueError(f"ppPacketSections[{index}]: SectionSizeAlloc {alloc!r} is not a DWORD")
    return kind, alloc, section.section_size, data


def _encode_receive_out(values: dict, ndr64: bool) -> bytes:
    check_keys(values, _RECEIVE_KEYS, "Start*Receive response")
    for name in _REF_OUT:
        if values[name] is None:
            raise NullReference(name)
    sections, count = values["ppPacketSections"], values["pdwNumberOfSections"]
    if not isinstance(sections, (tuple, list)) or len(sections) != count:
        raise ValueError("ppPacketSections: a tuple of pdwNumberOfSections SectionBuffer (size_is(, *pdw...))")
    rows = [_section_row(section, index) for index, section in enumerate(sections)]
    head, item, pointer, unit = (_HEAD64, _SECTION64, _U64, 8) if ndr64 else (_HEAD20, _SECTION20, _U32, 4)
    referent = FIRST_REFERENT
    try:
        parts = [head.pack(values["pdwArriveTime"], values["pSequenceId"], count, referent if rows else 0)]
        if rows:                                 # () is the NULL unique pointer: nothing follows it
            parts.append(pointer.pack(count))    # conformant array: max_count before the elements
            for kind, alloc, size, data in rows:
                referent += 4 if size else 0
                parts.append(item.pack(kind, alloc, size, referent if size else 0))
        position = sum(map(len, parts))
        for kind, alloc, size, data in rows:     # the deferred pointees, in element order
            if size:
                gap = pad(position, unit)
                parts.append(bytes(gap) + pointer.pack(size))
                parts.append(data)
                position += gap + unit + size
        parts.append(bytes(pad(position, 4)) + _U32.pack(values["ReturnValue"]))
    except struct.error:
        row = [values[name] for name in _SCALARS_OUT]
        raise scalar_error("Start*Receive response", _SCALARS_OUT, "LQLL", row) from None
    return b"".join(parts)


def _decode_receive_out(stub: bytes, ndr64: bool) -> dict:
    head, item, pointer, unit = (_HEAD64, _SECTION64, _U64, 8) if ndr64 else (_HEAD20, _SECTION20, _U32, 4)
    try:
        arrive, sequence, count, referent = head.unpack_from(stub)
        position = head.size
        sections = ()
        if referent:
            (maximum,) = pointer.unpack_from(stub, position)
            if maximum != count:   # MS-RPCE 3.1.1.5.3.2.1.1: conformance correlation
                raise StubError(BAD, f"ppPacketSections: max_count {maximum} is not pdwNumberOfSections {count}")
            position += unit
            if position + maximum * item.size > len(stub):
                raise StubError(BAD, "ppPacketSections: the array runs past the stub")
            rows = [item.unpack_from(stub, position + index * item.size) for index in range(maximum)]
            position += maximum * item.size
            found = []
            for kind, alloc, size, buffer_referent in rows:
                if kind > ENUM16_MAX:
                    raise StubError(RPC_X_ENUM_VALUE_OUT_OF_RANGE, f"SectionType {kind}")
                if not buffer_referent:
                    if size:   # MS-MQRR 3.1.4, MS-RPCE 3.1.1.5.3.3.1.2: NULL unique pointer, nonzero size_is
                        raise StubError(BAD, f"pSectionBuffer: NULL with SectionSize {size}")
                    found.append(SectionBuffer(kind, alloc, size, b""))
                    continue
                position += pad(position, unit)
                (length,) = pointer.unpack_from(stub, position)
                if length != size:
                    raise StubError(BAD, f"pSectionBuffer: max_count {length} is not SectionSize {size}")
                position += unit
                data = stub[position:position + size]
                if len(data) != size:
                    raise StubError(BAD, "pSectionBuffer: cut short")
                position += size
                found.append(SectionBuffer(kind, alloc, size, data))
            sections = tuple(found)
        elif count:   # MS-RPCE 3.1.1.5.3.3.1.2: a NULL unique pointer with a nonzero conformance
            raise StubError(BAD, f"ppPacketSections: NULL with pdwNumberOfSections {count}")
        position += pad(position, 4)
        (result,) = _U32.unpack_from(stub, position)
    except struct.error:
        raise StubError(BAD, "Start*Receive response: cut short") from None
    return {"pdwArriveTime": arrive, "pSequenceId": sequence, "pdwNumberOfSections": count,
            "ppPacketSections": sections, "ReturnValue": result}


# -- the scalar-only calls -----------------------------------------------------------------------------
_START_RECEIVE_IN = (
    ("phContext", CTX, False), ("pad", "4x", False), ("LookupId", "Q", False), ("hCursor", "L", False),
    ("ulAction", "L", False), ("ulTimeout", "L", False), ("dwRequestId", "L", False),
    ("dwMaxBodySize", "L", False), ("dwMaxCompoundMessageSize", "L", False))
_END_RECEIVE_IN = (("phContext", CTX, False), ("dwAck", "L", False), ("dwRequestId", "L", False))
_ACK_RANGE = (("dwAck",) + DW_ACK_RANGE,)   # MS-MQRR 6: [in, range(1,2)] DWORD dwAck


_OPEN = (_encode_open, _decode_open)
_RECEIVE_OUT = (_encode_receive_out, _decode_receive_out)

CALLS: dict[int, Call] = {
    0: _call("R_GetServerPort", Fixed("R_GetServerPort request", ()), _returns("R_GetServerPort")),
    2: _call("R_OpenQueue", _OPEN, Fixed("R_OpenQueue response", (("pphContext", CTX, _REF),))),
    3: _call("R_CloseQueue", Fixed("R_CloseQueue request", (("pphContext", CTX, _REF),)),
             Fixed("R_CloseQueue response", (("pphContext", CTX, _REF), ("ReturnValue", "L", False)))),
    4: _call("R_CreateCursor", Fixed("R_CreateCursor request", (("phContext", CTX, False),)),
             Fixed("R_CreateCursor response", (("phCursor", "L", _REF), ("ReturnValue", "L", False)))),
    5: _call("R_CloseCursor", Fixed("R_CloseCursor request", (("phContext", CTX, False), ("hCursor", "L", False))),
             _returns("R_CloseCursor")),
    6: _call("R_PurgeQueue", Fixed("R_PurgeQueue request", (("phContext", CTX, False),)),
             _returns("R_PurgeQueue")),
    7: _call("R_StartReceive", Fixed("R_StartReceive request", _START_RECEIVE_IN), _RECEIVE_OUT),
    8: _call("R_CancelReceive", Fixed("R_CancelReceive request", (("phContext", CTX, False),
                                                                   ("dwRequestId", "L", False))),
             _returns("R_CancelReceive")),
    9: _call("R_EndReceive", Fixed("R_EndReceive request", _END_RECEIVE_IN, _ACK_RANGE), _returns("R_EndReceive")),
    10: _call("R_MoveMessage", Fixed("R_MoveMessage request", (
        ("phContextFrom", CTX, False), ("pad", "4x", False), ("ullContextTo", "Q", False),
        ("LookupId", "Q", False), ("pTransactionId", UOW, _REF))), _returns("R_MoveMessage")),
    11: _call("R_OpenQueueForMove", _OPEN, Fixed("R_OpenQueueForMove response", (
        ("pMoveContext", "Q", _REF), ("pphContext", CTX, _REF)))),
    12: _call("R_QMEnlistRemoteTransaction", (_encode_enlist, _decode_enlist),
              _returns("R_QMEnlistRemoteTransaction")),
    13: _call("R_StartTransactionalReceive", Fixed("R_StartTransactionalReceive request",
                                                    _START_RECEIVE_IN + (("pTransactionId", UOW, _REF),)),
              _RECEIVE_OUT),
    14: _call("R_SetUserAcknowledgementClass", Fixed("R_SetUserAcknowledgementClass request", (
        ("phContext", CTX, False), ("pad", "4x", False), ("LookupId", "Q", False), ("usClass", "H", False))),
        _returns("R_SetUserAcknowledgementClass")),
    15: _call("R_EndTransactionalReceive", Fixed("R_EndTransactionalReceive request", _END_RECEIVE_IN, _ACK_RANGE),
              _returns("R_EndTransactionalReceive")),
}
