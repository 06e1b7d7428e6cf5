"""The impacket path: the same four functions as ndr, done by the impacket classes of ndr_types.

Theory of operation
-------------------
Plain values (the dicts of ndr) are copied into the NDRCALL object of the
opnum, which impacket marshals (``getData``), and copied back out of one that
impacket unmarshalled (``NDRCALL(stub, isNDR64=...)``).  This is the
definition's own codec: the test suite runs it against the fast codec, and the
benchmark times it as the stock path.  It is not hardened: impacket raises
whatever it raises on a stub that does not decode, and trusts sizes it reads.

Referent ids are impacket's (random, 1..65535) unless `referent_ids` gives an
iterator of them, consumed in marshalling order (the fast codec's 0x20000,
0x20004, ... make the two outputs comparable).
"""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

from impacket.dcerpc.v5.dtypes import GUID, NULL
from impacket.dcerpc.v5.ndr import NDRPOINTER

from mqspec.protocol.idl import SectionBuffer as PlainSectionBuffer
from mqspec.protocol.queue_format import QueueFormat

from .ndr_types import (
    BYTE_ARRAY,
    CALLS,
    QUEUE_CONTEXT_HANDLE,
    QUEUE_FORMAT,
    XACTUOW,
    PSectionBuffer_ARRAY,
    SectionBuffer,
)

_GUID_ARMS = {1: "m_gPublicID", 4: "m_gMachineID", 5: "m_GConnectorID"}
_STRING_ARMS = {3: "m_pDirectID", 8: "m_pDirectSubqueueID"}


def _plain_name(name: str) -> str:
    return "ReturnValue" if name == "ErrorCode" else name


def _is_null(pointer) -> bool:
    return not isinstance(pointer, NDRPOINTER) or pointer["ReferentID"] == 0


def _set_pointer(parent, name: str, value, referent_ids: Iterator[int] | None) -> None:
    if value is None:
        parent[name] = NULL
        return
    if referent_ids is not None:
        parent.fields[name]["ReferentID"] = next(referent_ids)
    parent[name] = value


def _put_queue_format(target: QUEUE_FORMAT, qf: QueueFormat, referent_ids) -> None:
    target["m_qft"] = qf.m_qft
    target["m_SuffixAndFlags"] = qf.m_suffix_and_flags
    target["m_reserved"] = qf.m_reserved
    union = target.fields["u"]
    union["tag"] = qf.m_qft  # the union tag is m_qft: switch_is(m_qft)
    if qf.m_qft in _GUID_ARMS:
        union[_GUID_ARMS[qf.m_qft]] = qf.guid.bytes_le
    elif qf.m_qft == 2:
        union.fields["m_oPrivateID"]["Lineage"] = qf.guid.bytes_le
        union.fields["m_oPrivateID"]["Uniquifier"] = qf.uniquifier
    elif qf.m_qft in _STRING_ARMS:
        text = None if qf.direct_id is None else qf.direct_id + "\x00"  # [string]: the terminator travels
        _set_pointer(union, _STRING_ARMS[qf.m_qft], text, referent_ids)
    elif qf.m_qft == 6:
        dl_id = union.fields["m_DlID"]
        dl_id["m_DlGuid"] = qf.guid.bytes_le
        _set_pointer(dl_id, "m_pwzDomain", None if qf.domain is None else qf.domain + "\x00", referent_ids)
    elif qf.m_qft == 7:
        union.fields["m_MulticastID"]["m_address"] = qf.multicast_address
        union.fields["m_MulticastID"]["m_port"] = qf.multicast_port


def _string(parent, name: str) -> str | None:
    pointer = parent.fields[name]
    if _is_null(pointer):
        return None
    text = pointer["Data"]
    return text.removesuffix("\x00")


def _get_queue_format(source: QUEUE_FORMAT) -> QueueFormat:
    qft = source["m_qft"]
    union = source.fields["u"]
    fields: dict = {}
    if qft in _GUID_ARMS:
        fields["guid"] = UUID(bytes_le=union[_GUID_ARMS[qft]])
    elif qft == 2:
        private_id = union.fields["m_oPrivateID"]
        fields["guid"], fields["uniquifier"] = UUID(bytes_le=private_id["Lineage"]), private_id["Uniquifier"]
    elif qft in _STRING_ARMS:
        fields["direct_id"] = _string(union, _STRING_ARMS[qft])
    elif qft == 6:
        dl_id = union.fields["m_DlID"]
        fields["guid"], fields["domain"] = UUID(bytes_le=dl_id["m_DlGuid"]), _string(dl_id, "m_pwzDomain")
    elif qft == 7:
        multicast = union.fields["m_MulticastID"]
        fields["multicast_address"], fields["multicast_port"] = multicast["m_address"], multicast["m_port"]
    return QueueFormat(qft, source["m_SuffixAndFlags"], source["m_reserved"], **fields)


def _put_sections(call, name: str, sections, ndr64: bool, referent_ids) -> None:
    if not sections:
        call[name] = NULL  # () is the NULL unique pointer
        return
    if referent_ids is not None:
        call.fields[name]["ReferentID"] = next(referent_ids)
    items = []
    for plain in sections:
        item = SectionBuffer(isNDR64=ndr64)
        item["SectionBufferType"] = plain.section_buffer_type
        item["SectionSizeAlloc"] = plain.section_size_alloc
        item["SectionSize"] = plain.section_size
        _set_pointer(item, "pSectionBuffer", bytes(plain.p_section_buffer) or None, referent_ids)
        items.append(item)
    call[name] = items


def _get_sections(call, name: str) -> tuple:
    if _is_null(call.fields[name]):
        return ()
    found = []
    for item in call[name]:
        buffer = item.fields["pSectionBuffer"]
        data = b"" if _is_null(buffer) else b"".join(item["pSectionBuffer"])
        found.append(PlainSectionBuffer(item["SectionBufferType"], item["SectionSizeAlloc"], item["SectionSize"],
                                        data))
    return tuple(found)


def to_call(cls, values: dict, ndr64: bool = False, referent_ids: Iterator[int] | None = None):
    """An NDRCALL instance of `cls` holding the plain `values`."""
    call = cls(isNDR64=ndr64)
    for name, kind in cls.structure:
        value = values[_plain_name(name)]
        if kind is QUEUE_FORMAT:
            _put_queue_format(call.fields[name], value, referent_ids)
        elif kind is PSectionBuffer_ARRAY:
            _put_sections(call, name, value, ndr64, referent_ids)
        elif kind is XACTUOW:
            call.fields[name]["rgb"] = value
        else:
            call[name] = value  # scalars, GUID, context handles, the token's byte array
    return call


def from_call(call) -> dict:
    """The plain values of a decoded NDRCALL."""
    values = {}
    for name, kind in call.structure:
        if kind is QUEUE_FORMAT:
            value = _get_queue_format(call.fields[name])
        elif kind is PSectionBuffer_ARRAY:
            value = _get_sections(call, name)
        elif kind is XACTUOW:
            value = call.fields[name]["rgb"]
        elif kind is BYTE_ARRAY:
            value = b"".join(call[name])
        elif kind in (GUID, QUEUE_CONTEXT_HANDLE):
            value = bytes(call[name])
        else:
            value = call[name]
        values[_plain_name(name)] = value
    return values


def encode_request(opnum: int, args: dict, ndr64: bool = False, referent_ids=None) -> bytes:
    return to_call(CALLS[opnum][0], args, ndr64, referent_ids).getData()


def encode_response(opnum: int, out: dict, ndr64: bool = False, referent_ids=None) -> bytes:
    return to_call(CALLS[opnum][1], out, ndr64, referent_ids).getData()


def decode_request(opnum: int, stub: bytes, ndr64: bool = False) -> dict:
    return from_call(CALLS[opnum][0](stub, isNDR64=ndr64))


def decode_response(opnum: int, stub: bytes, ndr64: bool = False) -> dict:
    return from_call(CALLS[opnum][1](stub, isNDR64=ndr64))
