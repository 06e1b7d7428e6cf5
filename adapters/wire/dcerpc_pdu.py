"""Wire format of connection-oriented DCE/RPC PDUs ([C706] 12.6, [MS-RPCE] 2.2.2).

Parses what a client sends (the 16-byte common header, request, bind and
alter_context bodies) and builds what a server answers (response, fault,
bind_ack, alter_context_resp, bind_nak).  Plain ``struct`` on purpose: this sits
on the per-request path of dcerpc_server, where per-PDU objects cost more than
the call itself.  Everything a server sends is little-endian, ASCII, IEEE (each
PDU names its sender's data representation in packed_drep, [C706] chapter 14);
what it receives is read in the byte order its packed_drep names.
"""

from __future__ import annotations

import struct
import uuid

RPC_VERS = 5                    # [C706] 12.6.3.1: connection-oriented major version
RPC_VERS_MINORS = (0, 1)        # [C706] 12.6.3.1: 5.0 and 5.1 share one PDU layout
COMMON_HEADER = 16              # [C706] 12.6.3.1: the bytes every PDU starts with
REQUEST_HEADER = 24             # [C706] 12.6.4.9: common header + alloc_hint, p_cont_id, opnum
RESPONSE_HEADER = 24            # [C706] 12.6.4.10
SEC_TRAILER = 8                 # [MS-RPCE] 2.2.2.11: the sec_trailer before auth_value

# PTYPE values, [C706] chapter 12 (rts: [MS-RPCH]).
REQUEST, PING, RESPONSE, FAULT, WORKING, NOCALL, REJECT, ACK = range(8)
CL_CANCEL, FACK, CANCEL_ACK, BIND, BIND_ACK, BIND_NAK, ALTER_CONTEXT = range(8, 15)
ALTER_CONTEXT_RESP, AUTH3, SHUTDOWN, CO_CANCEL, ORPHANED, RTS = range(15, 21)

# pfc_flags, [C706] 12.6.3.1.
PFC_FIRST_FRAG = 0x01
PFC_LAST_FRAG = 0x02
PFC_PENDING_CANCEL = 0x04       # on bind/alter_context the same bit is PFC_SUPPORT_HEADER_SIGN
PFC_SUPPORT_HEADER_SIGN = 0x04  # [MS-RPCE] 2.2.2.3
PFC_CONC_MPX = 0x10
PFC_DID_NOT_EXECUTE = 0x20
PFC_MAYBE = 0x40
PFC_OBJECT_UUID = 0x80

# p_cont_def_result_t ([C706] 12.6.3.1; negotiate_ack: [MS-RPCE] 3.3.1.5.3).
ACCEPTANCE, USER_REJECTION, PROVIDER_REJECTION, NEGOTIATE_ACK = range(4)
# p_provider_reason_t ([C706] 12.6.3.1).
REASON_NOT_SPECIFIED, ABSTRACT_SYNTAX_NOT_SUPPORTED = 0, 1
PROPOSED_TRANSFER_SYNTAXES_NOT_SUPPORTED, LOCAL_LIMIT_EXCEEDED = 2, 3
# p_reject_reason_t of bind_nak ([C706] 12.6.3.1, [MS-RPCE] 2.2.2.5).
NAK_REASON_NOT_SPECIFIED = 0
NAK_LOCAL_LIMIT_EXCEEDED = 2
NAK_PROTOCOL_VERSION_NOT_SUPPORTED = 4
NAK_AUTHENTICATION_TYPE_NOT_RECOGNIZED = 8

MUST_RECV_FRAG_SIZE = 1432      # [C706] Table K-2: every CO implementation receives this much
MAX_FRAG = 5840                 # what Windows advertises on ncacn_ip_tcp; our receive ceiling
DREP_LE = 0x10                  # packed_drep[0]: little-endian integers, ASCII characters

# Bind time feature negotiation ([MS-RPCE] 2.2.2.14, 3.3.1.5.3).
KEEP_CONNECTION_ON_ORPHAN = 0x02
SECURITY_CONTEXT_MULTIPLEXING = 0x01


def syntax_id(text: str, major: int, minor: int = 0) -> bytes:
    """A p_syntax_id_t as it appears in a little-endian PDU: uuid + if_version ([C706] 12.6.3.1)."""
    return uuid.UUID(text).bytes_le + struct.pack("<HH", major, minor)


NDR20 = syntax_id("8a885d04-1ceb-11c9-9fe8-08002b104860", 2)   # [MS-RPCE] 2.2.4.12: NDR, version 2.0
NDR64 = syntax_id("71710533-beba-4937-8319-b5dbef9ccc36", 1)   # [MS-RPCE]: NDR64, version 1.0
FEATURE_PREFIX = uuid.UUID("6cb71c2c-9812-4540-0000-000000000000").bytes_le[:8]
FEATURE_VERSION = struct.pack("<I", 1)
NO_SYNTAX = bytes(20)

# Struct layouts, per byte order where a client chooses it.
FRAME = {True: struct.Struct("<HHI"), False: struct.Struct(">HHI")}        # frag_length, auth_length, call_id
REQUEST_FIELDS = {True: struct.Struct("<IHH"), False: struct.Struct(">IHH")}  # alloc_hint, p_cont_id, opnum
_BIND_FIELDS = {True: struct.Struct("<HHIB"), False: struct.Struct(">HHIB")}
_ELEMENT = {True: struct.Struct("<HB"), False: struct.Struct(">HB")}
_U32 = {True: struct.Struct("<I"), False: struct.Struct(">I")}
_RESPONSE = struct.Struct("<BBBBBBBBHHIIHBB")
_FAULT = struct.Struct("<BBBBBBBBHHIIHBBII")
_ACK_HEAD = struct.Struct("<BBBBBBBBHHIHHIH")
_RESULT = struct.Struct("<HH")


class PduError(ValueError):
    """A PDU body that does not parse: too short for what its counts announce."""


def _syntax(pdu: bytes, offset: int, little: bool) -> bytes:
    """A p_syntax_id_t rewritten in little-endian form, so one comparison serves both orders."""
    raw = pdu[offset:offset + 20]
    if little:
        return raw
    return uuid.UUID(bytes=raw[:16]).bytes_le + struct.pack("<I", _U32[False].unpack_from(raw, 16)[0])


def parse_bind(pdu: bytes, little: bool, body_end: int):
    """The bind / alter_context body ([C706] 12.6.4.3, 12.6.4.1).

    Returns (max_xmit_frag, max_recv_frag, assoc_group_id, elements) where each element of
    p_cont_list is (p_cont_id, abstract_syntax, [transfer_syntaxes]) in little-endian form.
    """
    if body_end < COMMON_HEADER + 12:
        raise PduError("bind body shorter than its fixed fields")
    max_xmit, max_recv, assoc_group_id, n_context_elem = _BIND_FIELDS[little].unpack_from(pdu, COMMON_HEADER)
    offset = COMMON_HEADER + 12            # n_context_elem, reserved, reserved2 end on a 4-byte boundary
    element_head = _ELEMENT[little]
    elements = []
    for _ in range(n_context_elem):
        if offset + 24 > body_end:
            raise PduError("p_cont_list shorter than n_context_elem")
        p_cont_id, n_transfer_syn = element_head.unpack_from(pdu, offset)
        abstract = _syntax(pdu, offset + 4, little)
        offset += 24
        if offset + 20 * n_transfer_syn > body_end:
            raise PduError("transfer_syntaxes shorter than n_transfer_syn")
        transfers = [_syntax(pdu, offset + 20 * i, little) for i in range(n_transfer_syn)]
        offset += 20 * n_transfer_syn
        elements.append((p_cont_id, abstract, transfers))
    return max_xmit, max_recv, assoc_group_id, elements


def response(call_id: int, p_cont_id: int, stub: bytes, max_xmit_frag: int, cancel_count: int = 0) -> bytes:
    """Every response fragment of one call, concatenated ([C706] 12.6.4.10).

    Each fragment carries at most max_xmit_frag bytes; stub bytes per fragment are a
    multiple of 8 so NDR alignment survives the split; alloc_hint is what remains.
    """
    room = (max_xmit_frag - RESPONSE_HEADER) & ~7
    total = len(stub)
    if total <= room:
        return _RESPONSE.pack(RPC_VERS, 0, RESPONSE, PFC_FIRST_FRAG | PFC_LAST_FRAG, DREP_LE, 0, 0, 0,
                              RESPONSE_HEADER + total, 0, call_id, total, p_cont_id, cancel_count, 0) + stub
    view = memoryview(stub)
    out = []
    offset = 0
    while offset < total:
        chunk = view[offset:offset + room]
        flags = (PFC_FIRST_FRAG if offset == 0 else 0) | (PFC_LAST_FRAG if offset + room >= total else 0)
        out.append(_RESPONSE.pack(RPC_VERS, 0, RESPONSE, flags, DREP_LE, 0, 0, 0, RESPONSE_HEADER + len(chunk),
                                  0, call_id, total - offset, p_cont_id, cancel_count, 0))
        out.append(chunk)
        offset += room
    return b"".join(out)


def fault(call_id: int, p_cont_id: int, status: int, extra_flags: int = 0, cancel_count: int = 0) -> bytes:
    """A fault PDU ([C706] 12.6.4.7): 32 bytes, status at offset 24, reserved2 zero."""
    return _FAULT.pack(RPC_VERS, 0, FAULT, PFC_FIRST_FRAG | PFC_LAST_FRAG | extra_flags, DREP_LE, 0, 0, 0,
                       32, 0, call_id, 0, p_cont_id, cancel_count, 0, status & 0xFFFFFFFF, 0)


def bind_ack(ptype: int, call_id: int, max_xmit_frag: int, max_recv_frag: int, assoc_group_id: int,
             secondary_address: bytes, results) -> bytes:
    """bind_ack or alter_context_resp ([C706] 12.6.4.4, 12.6.4.2).

    secondary_address is the port_any_t string including its NUL (or b"" for none);
    results are (result, reason, transfer_syntax) in p_cont_list order.
    """
    head_len = _ACK_HEAD.size + len(secondary_address)
    pad = b"\0" * (-head_len % 4)      # [C706] 12.6.4.4: p_result_list starts 4-byte aligned
    body = [struct.pack("<BBH", len(results), 0, 0)]
    for result, reason, syntax in results:
        body.append(_RESULT.pack(result, reason))
        body.append(syntax)
    tail = b"".join(body)
    frag_length = head_len + len(pad) + len(tail)
    head = _ACK_HEAD.pack(RPC_VERS, 0, ptype, PFC_FIRST_FRAG | PFC_LAST_FRAG, DREP_LE, 0, 0, 0, frag_length, 0,
                          call_id, max_xmit_frag, max_recv_frag, assoc_group_id, len(secondary_address))
    return head + secondary_address + pad + tail


def bind_nak(call_id: int, reason: int) -> bytes:
    """bind_nak ([C706] 12.6.4.5) listing the one protocol version served, 5.0, padded to 4 bytes."""
    body = struct.pack("<HBBB", reason, 1, RPC_VERS, 0) + b"\0\0\0"
    return struct.pack("<BBBBBBBBHHI", RPC_VERS, 0, BIND_NAK, PFC_FIRST_FRAG | PFC_LAST_FRAG, DREP_LE, 0, 0, 0,
                       COMMON_HEADER + len(body), 0, call_id) + body
