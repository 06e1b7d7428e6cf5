"""NDR building blocks of the RemoteRead IDL, marshalled by hand with precompiled struct layouts.

Theory of operation
-------------------
`Fixed` is a stub that is a fixed sequence of scalars (most RemoteRead stubs):
one ``struct.Struct`` both ways, identical in NDR 2.0 and NDR64 because the
20-byte context handle is aligned 4, so a ULONGLONG after it always sits at 24.
`put_queue_format` / `get_queue_format` marshal a top-level QUEUE_FORMAT
(MS-MQMQ 2.2.7): the struct, its non-encapsulated union (the UCHAR tag, then
the arm), the NDR64 trailing gap, then the deferred [string] of the DIRECT,
SUBQUEUE or DL arm.  ndr_calls puts these together per opnum.

The layouts are those of the impacket classes in ndr_types, which stay the
definition; tests/test_mqrr_ndr.py proves the two agree byte for byte.
Decoding is strict in the ways MS-MQRR 3.1.4 asks of the runtime (target level
6.0, MS-RPCE 3.1.1.5.3): too few octets, a conformance or union tag that does
not match its correlated field, a [string] with an offset or without its
terminator, and a NULL unique pointer with a nonzero size are RPC_X_BAD_STUB_DATA;
a value outside range() is RPC_X_INVALID_BOUND.  Pad content is ignored
(MS-RPCE 3.1.1.5.3.2.2.6) and so are octets after the stub, which a client MAY
send (MS-RPCE 2.2.2.13).  Encoding writes zero pads and the referent ids
0x20000, 0x20004, ... in marshalling order.  A str travels as its UTF-16 code
units (lone surrogates included: a wchar_t string is any sequence of them).
"""

from __future__ import annotations

import struct
from uuid import UUID

from mqspec.protocol.hresult import RpcStatus
from mqspec.protocol.queue_format import QueueFormat

from .ndr_errors import NullReference, StubError

BAD = RpcStatus.RPC_X_BAD_STUB_DATA
BOUND = RpcStatus.RPC_X_INVALID_BOUND
INVALID_TAG = RpcStatus.RPC_S_INVALID_TAG
RPC_X_ENUM_VALUE_OUT_OF_RANGE = RpcStatus.RPC_X_ENUM_VALUE_OUT_OF_RANGE  # an enum it cannot carry in 16 bits
ENUM16_MAX = 0x7FFF   # MS-RPCE 2.2.4.11: an enum's values are 0..32,767 (a 16-bit short in NDR 2.0)
FIRST_REFERENT = 0x00020000   # MIDL's first referent id; each next pointer adds 4
GUID_SIZE = 16

_U32 = struct.Struct("<L")
_U64 = struct.Struct("<Q")


def pad(position: int, alignment: int) -> int:
    return (-position) % alignment


def blob(values: dict, name: str, size: int, ref: bool) -> bytes:
    """A fixed-size byte field (context handle, GUID, XACTUOW) checked before struct silently pads it."""
    value = values[name]
    if type(value) is bytes and len(value) == size:
        return value
    if value is None:
        if ref:
            raise NullReference(name)
        raise ValueError(f"{name}: expected {size} bytes, got None (a NULL context handle is 20 zero bytes)")
    if isinstance(value, (bytearray, memoryview)) and len(value) == size:
        return bytes(value)
    raise ValueError(f"{name}: expected {size} bytes, got {value!r:.60}")


def check_keys(values, keys: frozenset, what: str) -> None:
    if not isinstance(values, dict):
        raise ValueError(f"{what}: expected a dict, got {type(values).__name__}")  # noqa: TRY004 (API: ValueError)
    if values.keys() != keys:
        missing, extra = sorted(keys - values.keys()), sorted(values.keys() - keys)
        raise ValueError(f"{what}: missing {missing}, unexpected {extra}")


def scalar_error(what: str, names: tuple, codes: str, row: list) -> ValueError:
    """Which value struct refused: re-pack them one by one (only on the failure path)."""
    for name, code, value in zip(names, codes, row):
        try:
            struct.pack("<" + code, value)
        except struct.error as error:
            return ValueError(f"{what}: {name}={value!r:.60} does not fit an IDL {code!r} ({error})")
    return ValueError(f"{what}: a value does not fit its IDL type")


class Fixed:
    """A stub that is a fixed sequence of scalars: one precompiled layout both ways."""

    __slots__ = ("blobs", "codes", "keys", "layout", "names", "ranges", "refs", "what")

    def __init__(self, what: str, fields: tuple, ranges: tuple = ()) -> None:
        # fields: (IDL name, struct code, [ref] pointer?) in wire order; "pad" entries are alignment gaps
        self.what = what
        self.names = tuple(name for name, code, _ in fields if not name.startswith("pad"))
        self.codes = tuple(code for name, code, _ in fields if not name.startswith("pad"))
        self.layout = struct.Struct("<" + "".join(code for _, code, _ in fields))
        self.keys = frozenset(self.names)
        self.blobs = tuple((name, int(code[:-1]), ref) for name, code, ref in fields if code.endswith("s"))
        self.refs = tuple(name for name, code, ref in fields if ref)
        self.ranges = tuple((self.names.index(name), low, high, name) for name, low, high in ranges)

    def encode(self, values: dict) -> bytes:
        check_keys(values, self.keys, self.what)
        for name, size, ref in self.blobs:
            blob(values, name, size, ref)
        row = [values[name] for name in self.names]
        try:
            return self.layout.pack(*row)
        except struct.error:
            for name in self.refs:
                if values[name] is None:
                    raise NullReference(name) from None
            raise scalar_error(self.what, self.names, self.codes, row) from None

    def decode(self, stub: bytes) -> dict:
        try:
            row = self.layout.unpack_from(stub)
        except struct.error:
            raise StubError(BAD, f"{self.what}: {len(stub)} octets, {self.layout.size} needed") from None
        for index, low, high, name in self.ranges:
            if not low <= row[index] <= high:
                raise StubError(BOUND, f"{self.what}: {name}={row[index]} outside range({low},{high})")
        return dict(zip(self.names, row))


# -- QUEUE_FORMAT (MS-MQMQ 2.2.7) ------------------------------------------------------------------
_QF_HEAD = struct.Struct("<BBH")       # m_qft, m_SuffixAndFlags, m_reserved
_STRING20 = struct.Struct("<LLL")      # [string]: max_count, offset, actual_count
_STRING64 = struct.Struct("<QQQ")      # MS-RPCE 2.2.5.3.3.2: the same counts as 64-bit integers
_GUID_ARMS = (1, 4, 5)                 # m_gPublicID, m_gMachineID, m_GConnectorID
_STRING_ARMS = (3, 8)                  # m_pDirectID, m_pDirectSubqueueID
_DEFAULTS = {"guid": None, "uniquifier": 0, "direct_id": None, "domain": None,
             "multicast_address": 0, "multicast_port": 0}
_ARM_FIELDS = {0: (), 1: ("guid",), 2: ("guid", "uniquifier"), 3: ("direct_id",), 4: ("guid",), 5: ("guid",),
               6: ("guid", "domain"), 7: ("multicast_address", "multicast_port"), 8: ("direct_id",)}


def _check_queue_format(queue_format, name: str) -> int:
    if queue_format is None:
        raise NullReference(name)
    if not isinstance(queue_format, QueueFormat):
        raise ValueError(f"{name}: expected a QueueFormat, got {type(queue_format)}")  # noqa: TRY004 (API: ValueError)
    qft = queue_format.m_qft
    if not isinstance(qft, int) or not 0 <= qft <= 0xFF:
        raise ValueError(f"{name}: m_qft={qft!r} is not a UCHAR")
    # A discriminant past QUEUE_FORMAT_TYPE_SUBQUEUE selects no arm; a client under test may still send one
    # (the tag alone), so the server's refusal of it can be tested.
    arm = _ARM_FIELDS.get(qft, ())
    for field, default in _DEFAULTS.items():
        if field not in arm and getattr(queue_format, field) != default:
            raise ValueError(f"{name}: m_qft={qft} has no {field} (MS-MQMQ 2.2.7)")
    if "guid" in arm and not isinstance(queue_format.guid, UUID):
        raise ValueError(f"{name}: m_qft={qft} needs a uuid.UUID guid")
    for field in ("direct_id", "domain"):
        value = getattr(queue_format, field)
        if field in arm and value is not None and not isinstance(value, str):
            raise ValueError(f"{name}: {field} must be str or None")
    return qft


def _put_string(out: bytearray, text: str, ndr64: bool) -> None:
    data = text.encode("utf-16-le", "surrogatepass") + b"\x00\x00"   # [string]: the terminator is counted
    count = len(data) // 2
    if ndr64:
        out += bytes(pad(len(out), 8))
        out += _STRING64.pack(count, 0, count)
    else:
        out += bytes(pad(len(out), 4))
        out += _STRING20.pack(count, 0, count)
    out += data


def _get_string(stub: bytes, position: int, ndr64: bool, what: str) -> tuple[str, int]:
    if ndr64:
        position += pad(position, 8)
        maximum, offset, actual = _STRING64.unpack_from(stub, position)
        position += 24
    else:
        position += pad(position, 4)
        maximum, offset, actual = _STRING20.unpack_from(stub, position)
        position += 12
    if offset != 0 or actual > maximum or actual == 0:
        # MS-RPCE 3.1.1.5.3.2.1.7, .12: offset 0, actual <= max; a [string] holds at least its terminator
        raise StubError(BAD, f"{what}: [string] max {maximum}, offset {offset}, actual {actual}")
    end = position + 2 * actual
    if end > len(stub):
        raise StubError(BAD, f"{what}: [string] of {actual} characters runs past the stub")
    if stub[end - 2:end] != b"\x00\x00":
        raise StubError(BAD, f"{what}: [string] without its terminator")
    return stub[position:end - 2].decode("utf-16-le", "surrogatepass"), end


def put_queue_format(out: bytearray, queue_format: QueueFormat, ndr64: bool, name: str = "pQueueFormat") -> None:
    """Append a top-level QUEUE_FORMAT and its deferred [string] pointee (one at most) to `out`."""
    qft = _check_queue_format(queue_format, name)
    qf = queue_format
    out += bytes(pad(len(out), 8 if ndr64 else 4))
    try:
        out += _QF_HEAD.pack(qft, qf.m_suffix_and_flags, qf.m_reserved)
    except struct.error:
        raise ValueError(f"{name}: m_SuffixAndFlags is a UCHAR and m_reserved a USHORT") from None
    if ndr64:
        out += bytes(4)          # MS-RPCE 2.2.5.3.4.4: the union is aligned to its largest arm (8)
    out.append(qft)              # the union tag, equal to m_qft (MS-RPCE 3.1.1.5.3.2.1.11)
    deferred = None
    if qft in _ARM_FIELDS and qft:
        out += bytes(pad(len(out), 8 if ndr64 else 4))   # every arm is 4-aligned; NDR64: the largest, 8
        pointer = _U64 if ndr64 else _U32
        if qft in _GUID_ARMS:
            out += qf.guid.bytes_le
        elif qft == 2:
            out += qf.guid.bytes_le
            out += _u32(qf.uniquifier, name, "Uniquifier")
        elif qft in _STRING_ARMS:
            deferred = qf.direct_id
            out += pointer.pack(FIRST_REFERENT if deferred is not None else 0)
        elif qft == 6:
            deferred = qf.domain
            out += qf.guid.bytes_le   # 16 bytes: the pointer after it is aligned in both syntaxes
            out += pointer.pack(FIRST_REFERENT if deferred is not None else 0)
        else:
            out += _u32(qf.multicast_address, name, "m_address")
            out += _u32(qf.multicast_port, name, "m_port")
    if ndr64:
        out += bytes(pad(len(out), 8))   # MS-RPCE 2.2.5.3.4.1: trailing gap to the alignment (8)
    if deferred is not None:
        _put_string(out, deferred, ndr64)


def _u32(value, name: str, field: str) -> bytes:
    try:
        return _U32.pack(value)
    except struct.error:
        raise ValueError(f"{name}: {field}={value!r:.40} is not a ULONG") from None


def get_queue_format(stub: bytes, position: int, ndr64: bool, name: str = "pQueueFormat") -> tuple[QueueFormat, int]:
    """A top-level QUEUE_FORMAT and its deferred [string]; (value, position after it)."""
    try:
        return _get_queue_format(stub, position, ndr64, name)
    except struct.error:
        raise StubError(BAD, f"{name}: cut short") from None


def _get_queue_format(stub: bytes, position: int, ndr64: bool, name: str) -> tuple[QueueFormat, int]:
    position += pad(position, 8 if ndr64 else 4)
    qft, suffix, reserved = _QF_HEAD.unpack_from(stub, position)
    position += 8 if ndr64 else 4
    (tag,) = struct.unpack_from("<B", stub, position)
    position += 1
    if tag != qft:
        raise StubError(BAD, f"{name}: union tag {tag} is not m_qft {qft} (MS-RPCE 3.1.1.5.3.2.1.11)")
    if qft > 8:
        # MS-RPCE 3.1.1.5.3.2.1.11: a discriminant no arm is declared for is an invalid tag
        raise StubError(INVALID_TAG, f"{name}: m_qft {qft} selects no union arm (MS-MQMQ 2.2.7)")
    fields: dict = {}
    referent = 0
    if qft:
        position += pad(position, 8 if ndr64 else 4)
        pointer = _U64 if ndr64 else _U32
        if qft in _GUID_ARMS or qft in (2, 6):
            raw = stub[position:position + GUID_SIZE]
            if len(raw) != GUID_SIZE:
                raise StubError(BAD, f"{name}: GUID cut short")
            fields["guid"] = UUID(bytes_le=raw)
            position += GUID_SIZE
        if qft == 2:
            (fields["uniquifier"],) = _U32.unpack_from(stub, position)
            position += 4
        elif qft in _STRING_ARMS or qft == 6:
            (referent,) = pointer.unpack_from(stub, position)
            position += pointer.size
        elif qft == 7:
            fields["multicast_address"], fields["multicast_port"] = struct.unpack_from("<LL", stub, position)
            position += 8
    if ndr64:
        position += pad(position, 8)   # MS-RPCE 2.2.5.3.4.1: the trailing gap belongs to the struct
        if position > len(stub):
            raise StubError(BAD, f"{name}: trailing gap cut short")
    if referent:
        text, position = _get_string(stub, position, ndr64, name)
        fields["domain" if qft == 6 else "direct_id"] = text
    return QueueFormat(qft, suffix, reserved, **fields), position
