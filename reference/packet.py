"""The Message Packet Structure that MS-MQRR remote reads return (MS-MQRR 2.2.5).

Theory of operation
-------------------
build_packet() turns a stored Message into the bytes a remote-read client gets from
R_StartReceive / R_StartTransactionalReceive.  Headers follow each other in wire
order, each one starting on a 4-byte boundary:

    BaseHeader | UserHeader | [TransactionHeader] | [SecurityHeader] | MessagePropertiesHeader |
    [DebugHeader] | [SRMPEnvelopeHeader | CompoundMessageHeader]      (the UserMessage)
    ExtensionHeader | SubqueueHeader | [DeadLetterHeader] | ExtendedAddressHeader

A SecurityHeader is written when the message arrived with one (security_header.py); no
SoapHeader or SessionHeader is written: the Message keeps nothing they would carry.  The
body of a binary message sits in the MessagePropertiesHeader; the body of an SRMP message
lives only inside the compound message (CompoundMessageHeader.MsgBodyOffset/MsgBodySize),
as Windows stores it.

packet_size() runs the same arithmetic without building any bytes (quota accounting
on every enqueue).  Both go through _plan(), so they cannot drift apart, and neither
depends on the PacketContext: the context only fills fixed-size fields.

The stored BaseHeader.TimeToReachQueue is the relative value; packet_sections()
(packet_sections.py) cuts the packet into SectionBuffers and makes it absolute.

Queue names in the UserHeader come from format-name strings through a small private
parser (_parse_queue); reference.format_name is deliberately not used here.
"""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass
from functools import lru_cache

from .format_name import FormatNameError, parse_path_name
from .message import Message
from .packet_sections import REFERENCE_READINGS, PacketLayout, packet_sections
from .readings import Readings
from .security_header import algorithms, security_header

_BASE = struct.Struct("<BBHIII")          # MS-MQMQ:2.2.19.1 16 bytes
_USER = struct.Struct("<16s16sIIII")      # MS-MQMQ:2.2.19.2 48 fixed bytes
_XACT = struct.Struct("<I8sII")           # MS-MQMQ:2.2.20.5 20 bytes without ConnectorQMGuid
_PROPS = struct.Struct("<BBH20sIIIIIIII")  # MS-MQMQ:2.2.19.3 56 fixed bytes
_DEBUG = struct.Struct("<HH")             # MS-MQMQ:2.2.20.8 4 bytes when QT = 0
_ENVELOPE = struct.Struct("<HHI")         # MS-MQRR:2.2.5.1.2.1
_COMPOUND = struct.Struct("<HHIII")       # MS-MQRR:2.2.5.1.2.2
_EXTENSION = struct.Struct("<IIB3x")      # MS-MQRR:2.2.5.2 12 bytes
_SUBQUEUE = struct.Struct("<IIIII64s64s")  # MS-MQRR:2.2.5.3 148 bytes
_EXT_ADDRESS = struct.Struct("<IHHI16s")  # MS-MQRR:2.2.5.5 28 bytes

VERSION = 0x10                 # MS-MQMQ:2.2.19.1 VersionNumber
SIGNATURE = 0x524F494C         # MS-MQMQ:2.2.19.1 "LIOR" on the wire
INFINITE = 0xFFFFFFFF
BASE_DH = 0x0020               # MS-MQMQ:2.2.19.1 bit 5: DebugHeader present
BASE_TR = 0x0100               # MS-MQMQ:2.2.19.1 bit 8: tracing (needs DH)
USER_JN, USER_JP = 1 << 8, 1 << 9  # MS-MQMQ:2.2.19.2 source journaling bits
USER_SH = 1 << 19              # MS-MQMQ:2.2.19.2 SecurityHeader present
USER_TH = 1 << 20              # MS-MQMQ:2.2.19.2 TransactionHeader present
USER_MP = 1 << 21              # MS-MQMQ:2.2.19.2 MessagePropertiesHeader present, always
USER_AH = 1 << 25              # MS-MQRR:2.2.5.1.2 SRMP message
USER_MQ = 1 << 23              # MS-MQMQ:2.2.19.2 MultiQueueFormatHeader present
EXT_DL, EXT_SQ, EXT_DI, EXT_EA = 0x01, 0x02, 0x08, 0x10  # MS-MQRR:2.2.5.2 Flags
SRMP_ENVELOPE_ID = 400         # MS-MQRR:2.2.5.1.2.1 HeaderId (value used by Windows)
COMPOUND_MESSAGE_ID = 500      # MS-MQRR:2.2.5.1.2.2 HeaderId (value used by Windows)
LABEL_MAX_UNITS = 249          # MS-MQMQ:2.2.19.3 at most 249 WCHARs before the NUL
TRAILER_FIXED = _EXTENSION.size + _SUBQUEUE.size + _EXT_ADDRESS.size  # 12 + 148 + 28

# Queue type codes of UserHeader.Flags.DQ/AQ/RQ (MS-MQMQ:2.2.19.2).
Q_NONE, Q_SOURCE, Q_DEST, Q_ADMIN_HOST, Q_PUBLIC, Q_PRIVATE, Q_DIRECT = 0, 2, 3, 4, 5, 6, 7


def _align4(n: int) -> int:
    return (n + 3) & ~3


def _units(text: str) -> int:
    """UTF-16 code units of text (characters beyond the BMP take two)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for c in text if c > "\uffff")


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-le", "surrogatepass")


def _clip_label(label: str) -> tuple[str, int]:
    """The label cut to 249 code units without splitting a surrogate pair."""
    units = _units(label)
    if units <= LABEL_MAX_UNITS:  # MS-MQMQ:2.2.19.3 LabelLength <= 0xFA with the NUL
        return label, units
    kept, count = [], 0
    for c in label:
        width = 2 if c > "\uffff" else 1
        if count + width > LABEL_MAX_UNITS:
            break
        kept.append(c)
        count += width
    return "".join(kept), count


@lru_cache(maxsize=4096)
def _parse_queue(name: str) -> tuple:
    """('none',) | ('private', guid_le, id) | ('public', guid_le) | ('direct', text, units).

    A ';suffix' (journal, subqueue) is dropped; names the UserHeader cannot carry
    (MACHINE=, DL=, MULTICAST=, CONNECTOR=, malformed text) map to 'none'.
    """
    head, _, rest = name.partition("=")
    kind = head.strip().upper()
    rest = rest.split(";", 1)[0]
    try:
        if kind == "PRIVATE":  # MS-MQMQ:2.1.4 PRIVATE=<machine guid>\<hex id>
            machine, _, ident = rest.partition("\\")
            return ("private", uuid.UUID(machine).bytes_le, int(ident, 16) & 0xFFFFFFFF)
        if kind == "PUBLIC":  # MS-MQMQ:2.1.3 PUBLIC=<queue guid>
            return ("public", uuid.UUID(rest).bytes_le)
    except ValueError:
        return ("none",)
    if kind == "DIRECT" and rest:  # MS-MQMQ:2.2.18.1.5.2 the text after "DIRECT="
        return ("direct", rest, _units(rest))
    return ("none",)


def _queue_code(parsed: tuple, source: bytes, dest: bytes | None, admin: tuple | None) -> int:
    kind = parsed[0]
    if kind == "public":
        return Q_PUBLIC
    if kind == "direct":
        return Q_DIRECT
    if kind != "private":
        return Q_NONE
    if parsed[1] == source:  # MS-MQMQ:2.2.19.2 private queue on the source host
        return Q_SOURCE
    if dest is not None and parsed[1] == dest:  # MS-MQMQ:2.2.19.2 private queue on the destination host
        return Q_DEST
    if admin is not None and admin[0] == "private" and parsed[1] == admin[1]:
        return Q_ADMIN_HOST  # MS-MQMQ:2.2.19.2 RQ 4, the admin queue's host (never chosen for AQ)
    return Q_PRIVATE


def _queue_size(code: int, parsed: tuple) -> int:
    if code in (Q_SOURCE, Q_DEST, Q_ADMIN_HOST):
        return 4   # MS-MQMQ:2.2.18.1.5.1 PrivateQueueFormatNameId
    if code == Q_PUBLIC:
        return 16  # MS-MQMQ:2.2.18.1.7.1 PublicQueueFormatName
    if code == Q_PRIVATE:
        return 20  # MS-MQMQ:2.2.18.1.7.2 PrivateQueueFormatName
    if code == Q_DIRECT:
        return _align4(2 + 2 * (parsed[2] + 1))  # MS-MQMQ:2.2.18.1.5.2 Count + WCHARs + NUL, padded
    return 0


def _queue_bytes(code: int, parsed: tuple) -> bytes:
    if code in (Q_SOURCE, Q_DEST, Q_ADMIN_HOST):
        return struct.pack("<I", parsed[2])
    if code == Q_PUBLIC:
        return parsed[1]
    if code == Q_PRIVATE:
        return parsed[1] + struct.pack("<I", parsed[2])
    if code == Q_DIRECT:
        text = _utf16(parsed[1]) + b"\0\0"
        raw = struct.pack("<H", len(text)) + text  # MS-MQMQ:2.2.18.1.5.2 Count in bytes, NUL included
        return raw + bytes(-len(raw) % 4)
    return b""


def _plan(message: Message, readings: Readings = REFERENCE_READINGS) -> tuple:
    """Everything about the layout that depends on the message (and the D-63 reading) only."""
    source = message.identifier[:16]
    dq = _parse_queue(message.destination_queue_format_name)
    aq = _parse_queue(message.administration_queue_format_name)
    rq = _parse_queue(message.response_queue_format_name)
    # The destination host is known only from a PRIVATE= destination (see module notes).
    dest = dq[1] if dq[0] == "private" else None
    dq_code = {"private": Q_DEST, "public": Q_PUBLIC, "direct": Q_DIRECT}.get(dq[0], Q_NONE)
    aq_code = _queue_code(aq, source, dest, None)
    if aq_code == Q_ADMIN_HOST:
        aq_code = Q_PRIVATE
    rq_code = _queue_code(rq, source, dest, aq)
    if readings["D-63"] == "other-encoding":
        # D-63 other-encoding: a private admin or response queue always by its full name (AQ/RQ 6), which
        # designates the same queue as the short forms 2, 3 and 4 (MS-MQMQ 2.2.19.2)
        aq_code = Q_PRIVATE if aq_code in (Q_SOURCE, Q_DEST) else aq_code
        rq_code = Q_PRIVATE if rq_code in (Q_SOURCE, Q_DEST, Q_ADMIN_HOST) else rq_code
    user = 48 + _queue_size(dq_code, dq) + _queue_size(aq_code, aq) + _queue_size(rq_code, rq)
    label, label_units = _clip_label(message.label)
    label_len = label_units + 1 if label else 0  # MS-MQMQ:2.2.19.3 0 = no Label, else NUL counted
    srmp = message.is_srmp
    body_len = 0 if srmp else len(message.body)
    props_fixed = 56 + 2 * label_len + len(message.extension)
    return (dq, aq, rq, dq_code, aq_code, rq_code, user, label, label_len, srmp, body_len,
            props_fixed)


def _srmp_sizes(message: Message) -> tuple[int, int]:
    envelope = _align4(_ENVELOPE.size + 2 * (_units(message.get("soap_envelope")) + 1))
    compound = _align4(_COMPOUND.size + len(message.get("soap_compound_message")))
    return envelope, compound


def _deadletter_size(message: Message) -> int:
    path = message.get("deadletter_path_name")
    return 0 if path is None else _align4(4 + 2 * (_units(path) + 1))  # MS-MQRR:2.2.5.4


@lru_cache(maxsize=4096)
def _destination_only_size(destination: str) -> int:
    """BaseHeader + UserHeader + trailers of a message with no admin or response queue."""
    dq = _parse_queue(destination)
    code = {"private": Q_DEST, "public": Q_PUBLIC, "direct": Q_DIRECT}.get(dq[0], Q_NONE)
    return 16 + 48 + _queue_size(code, dq) + TRAILER_FIXED


def packet_size(message: Message, readings: Readings = REFERENCE_READINGS) -> int:
    """Byte length of build_packet(message, ctx).data for any ctx with these readings, without building it."""
    label = message.label
    if (message.extra is None and message.transactional_message_sequence_identifier is None
            and not message.administration_queue_format_name and not message.response_queue_format_name
            and len(label) <= LABEL_MAX_UNITS and label.isascii()):
        # The common shape, on every enqueue: plain arithmetic (the full plan gives the same figure).
        label_bytes = 2 * len(label) + 2 if label else 0
        return (_destination_only_size(message.destination_queue_format_name)
                + ((56 + label_bytes + len(message.extension) + len(message.body) + 3) & ~3))
    plan = _plan(message, readings)
    size = 16 + plan[6] + _align4(plan[11] + plan[10])
    if message.is_transactional:
        size += _XACT.size
    size += len(security_header(message))
    if message.get("tracing_requested"):
        size += _DEBUG.size
    if plan[9]:
        size += sum(_srmp_sizes(message))
    if message.get("destination_multi_queue_format_name"):
        size += len(_multi_queue_format_header(message.get("destination_multi_queue_format_name")))
    return size + TRAILER_FIXED + _deadletter_size(message)


def _multi_queue_format_header(names: str) -> bytes:
    """MS-MQMQ 2.2.20.1 MultiQueueFormatHeader: the destinations, no admin or response list, no signature
    (D-67 mqf-header: a copy delivered through a multiple-element name says so)."""
    elements, count = bytearray(), 0
    for name in names.split(","):
        parsed = _parse_queue(name)
        if parsed[0] == "none":
            continue
        count += 1
        start = 12 + len(elements)  # offsets count from the MQFAddressHeader's start
        if parsed[0] in ("public", "private"):
            # MS-MQMQ 2.2.18.1.4 FormatType 1 or 2, then the GUID (and queue number) on a 4-byte boundary
            elements += struct.pack("<H", 1 if parsed[0] == "public" else 2) + bytes(-(start + 2) % 4)
            elements += parsed[1] + (struct.pack("<I", parsed[2]) if parsed[0] == "private" else b"")
        else:  # FormatType 3: a NUL-terminated UTF-16 direct name (MS-MQMQ 2.2.18.1.4.1)
            elements += struct.pack("<H", 3) + _utf16(parsed[1]) + b"\0\0"
    elements += bytes(-len(elements) % 4)  # MS-MQMQ 2.2.20.2 the list ends on a 4-byte boundary
    out = struct.pack("<IHHI", 12 + len(elements), 0x0064, 0, count) + bytes(elements)  # MS-MQMQ 2.2.20.2
    for header_id in (0x00C8, 0x012C):
        out += struct.pack("<IHHI", 12, header_id, 0, 0)  # no admin, no response list
    return out + struct.pack("<HHI", 0x015E, 0, 0)  # MS-MQMQ 2.2.20.3 an empty signature


@dataclass(frozen=True)
class PacketContext:
    queue_manager_guid: bytes                    # 16 bytes, bytes_le: the local (destination) QM
    source_address: tuple[int, bytes] | None = None  # (1 = IPv4 / 6 = IPv6, address) of the sender
    acknowledgement_class: int = 0               # SubqueueHeader.AcknowledgementClass
    source_address_scope: int = 0                # MS-MQRR:2.2.5.5 AddressScope for an IPv6 sender
    dead_letter_queue_invalid: bool = False      # MS-MQRR:2.2.5.2 ExtensionHeader.Flags.DI
    readings: Readings = REFERENCE_READINGS      # the queue manager's readings of D-61, D-62, D-64, D-67


def _address_overlay(context: PacketContext) -> bytes:
    """MS-MQRR:2.2.5.1 QueueManagerAddress of a direct destination: the sender's address."""
    if context.source_address is None:
        return bytes(16)  # MS-MQMQ:2.2.19.2 NULL GUID when nothing better is known
    kind, address = context.source_address
    scope = context.source_address_scope if kind == 6 else 0  # MS-MQRR:2.2.5.1 scope only for IPv6
    part = address[:8]  # MS-MQRR:2.2.5.1 as much of the address as fits in 8 bytes
    return struct.pack("<HHI8s", len(part), kind, scope, part)


def _is_path_name(text: str) -> bool:
    try:
        parse_path_name(text)
    except FormatNameError:
        return False
    return True


def _fixed_name(text: str) -> bytes:
    """MS-MQRR:2.2.5.3 a 64-byte NUL-terminated, zero-filled UTF-16 name (31 units kept)."""
    raw = _utf16(text)[:62]
    if len(raw) >= 2 and 0xD8 <= raw[-1] <= 0xDB:
        raw = raw[:-2]  # do not leave half of a surrogate pair
    return raw.ljust(64, b"\0")


def build_packet(message: Message, context: PacketContext) -> PacketLayout:
    (dq, aq, rq, dq_code, aq_code, rq_code, user_len, label, label_len, srmp, body_len,
     props_fixed) = _plan(message, context.readings)
    total = packet_size(message, context.readings)
    out = bytearray()
    transactional = message.is_transactional
    tracing = bool(message.get("tracing_requested"))

    # MS-MQMQ:2.2.19.1 priority in bits 0-2, forced to 0 for a transactional message
    flags = 0 if transactional else message.priority & 0x7
    if tracing:
        flags |= BASE_DH | BASE_TR  # MS-MQMQ:2.2.19.1 TR needs DH
    # MS-MQMQ:2.2.19.1 PacketSize covers everything written (no SessionHeader)
    out += _BASE.pack(VERSION, 0, flags, SIGNATURE, total, message.time_to_reach_queue & INFINITE)

    if dq_code == Q_DIRECT:
        address = _address_overlay(context)
    elif dq_code == Q_DEST:
        address = dq[1]  # MS-MQMQ:2.2.19.2 the destination QM named by the PRIVATE= name
    else:
        address = context.queue_manager_guid  # MS-MQRR:2.2.5.1 GUID of the local QM
    delivery = 1 if transactional else int(message.delivery_guarantee) & 0x3
    uflags = (delivery << 5) | (dq_code << 10) | (aq_code << 13) | (rq_code << 16) | USER_MP
    if message.negative_journaling_requested:
        uflags |= USER_JN
    if message.positive_journaling_requested:
        uflags |= USER_JP
    if transactional:
        uflags |= USER_TH  # MS-MQMQ:2.2.19.2 TH requires DM != 0
    if srmp:
        uflags |= USER_AH  # MS-MQRR:2.2.5.1.2 AH marks an SRMP message
    security = security_header(message)
    if security:
        uflags |= USER_SH  # MS-MQMQ:2.2.19.2 SH: a SecurityHeader follows
    multi = message.get("destination_multi_queue_format_name")
    if multi:
        uflags |= USER_MQ  # MS-MQMQ:2.2.19.2 a MultiQueueFormatHeader follows (D-67 mqf-header)
    ordinal = struct.unpack_from("<I", message.identifier, 16)[0]
    out += _USER.pack(message.identifier[:16], address, message.time_to_be_received & INFINITE,
                      message.sent_time & INFINITE, ordinal, uflags)
    out += _queue_bytes(dq_code, dq) + _queue_bytes(aq_code, aq) + _queue_bytes(rq_code, rq)

    if transactional:
        # MS-MQMQ:2.2.20.5 CG = 0, FA bit 1, FM bit 2, LM bit 3, the transaction's 20-bit ID in bits 4-23
        xflags = ((2 if message.get("final_ack_required") else 0)
                  | (4 if message.get("first_in_transaction") else 0)
                  | (8 if message.get("last_in_transaction") else 0)
                  | (message.get("transaction_header_id") & 0xFFFFF) << 4)
        sequence_id = bytes(message.transactional_message_sequence_identifier)[:8].ljust(8, b"\0")
        # MS-MQMQ:2.2.20.5 TxSequenceNumber is at least 1
        number = max(1, message.get("transaction_sequence_number")) & INFINITE
        out += _XACT.pack(xflags, sequence_id, number,
                          message.get("transaction_previous_sequence_number") & INFINITE)

    out += security  # MS-MQMQ:2.2.20 after the TransactionHeader, before the MessagePropertiesHeader

    props_start = len(out)
    # MS-MQDMPR:3.1.7.1.32 Flags from AcknowledgementsRequested (without an AdminQueue: D-59, D-95)
    acks = message.acknowledgements_requested & 0x0F
    privacy = int(message.privacy_level)
    hash_algorithm, encryption_algorithm = algorithms(message, privacy)
    out += _PROPS.pack(acks, label_len, message.message_class & 0xFFFF,
                       bytes(message.correlation_identifier)[:20].ljust(20, b"\0"),
                       message.body_type & INFINITE, message.application_tag & INFINITE,
                       body_len, body_len,  # MS-MQMQ:2.2.19.3 AllocationBodySize = MessageSize
                       privacy, hash_algorithm, encryption_algorithm,
                       len(message.extension))
    if label_len:
        out += _utf16(label) + b"\0\0"  # MS-MQMQ:2.2.19.3 Label ends with a NUL WCHAR
    out += message.extension
    body_offset = len(out)
    if not srmp:
        out += message.body
    out += bytes(-(len(out) - props_start) % 4)  # MS-MQMQ:2.2.19.3 pad the header to 4 bytes
    trailer_offset = len(out)

    if tracing:
        out += _DEBUG.pack(0, 0)  # MS-MQMQ:2.2.20.8 QT = 0: no QueueIdentifier

    header_size, actual = body_offset, body_len
    if srmp:
        envelope = _utf16(message.get("soap_envelope")) + b"\0\0"
        out += _ENVELOPE.pack(SRMP_ENVELOPE_ID, 0, len(envelope) // 2)  # MS-MQRR:2.2.5.1.2.1 length in WCHARs
        out += envelope + bytes(-len(envelope) % 4)
        compound = bytes(message.get("soap_compound_message"))
        offset = message.get("soap_body_offset")
        in_compound = max(0, min(len(message.body), len(compound) - offset))
        compound_start = len(out)
        out += _COMPOUND.pack(COMPOUND_MESSAGE_ID, 0, len(compound), in_compound, offset)
        if context.readings["D-62"] == "data":
            header_size, actual = len(out), len(compound)  # D-62 data: HTTPBodySize, the Data field only
        else:
            # D-62 header: MS-MQRR:3.1.4.7 actualMessageSize is the size of the whole CompoundMessageHeader
            header_size, actual = compound_start, _COMPOUND.size + len(compound)
        out += compound + bytes(-len(compound) % 4)
        trailer_offset = len(out)

    if multi:
        out += _multi_queue_format_header(multi)  # MS-MQRR:2.2.5.1 after the SOAP headers

    deadletter = message.get("deadletter_path_name")
    ext_flags = EXT_SQ | EXT_EA  # MS-MQRR:2.2.5.2 SQ and EA are always set
    if deadletter is not None:
        # MS-MQRR:2.2.5.2:04 DI: the named dead-letter queue is not a valid queue path name
        invalid = context.dead_letter_queue_invalid or not _is_path_name(deadletter)
        ext_flags |= EXT_DL | (EXT_DI if invalid else 0)
    out += _EXTENSION.pack(_EXTENSION.size, total - len(out) - _EXTENSION.size, ext_flags)
    out += _SUBQUEUE.pack(_SUBQUEUE.size,
                          # MS-MQRR:2.2.5.3 TM (bit 0) = 0, AcknowledgementClass in bits 1-16
                          ((context.acknowledgement_class or message.get("acknowledgement_class")) & 0xFFFF) << 1,
                          message.get("abort_counter") & INFINITE, message.get("move_counter") & INFINITE,
                          message.get("last_move_time") & INFINITE,
                          _fixed_name(message.get("subqueue_name")),
                          _fixed_name(message.get("target_subqueue_name")))
    if deadletter is not None:
        name = _utf16(deadletter) + b"\0\0"
        size = _deadletter_size(message)
        out += struct.pack("<I", size) + name + bytes(size - 4 - len(name))  # MS-MQRR:2.2.5.4
    if context.source_address is None:
        out += _EXT_ADDRESS.pack(_EXT_ADDRESS.size, 0, 0, 0, bytes(16))  # MS-MQRR:2.2.5.5 type 0 = ignore
    else:
        kind, address = context.source_address
        scope = context.source_address_scope if kind == 6 else 0
        out += _EXT_ADDRESS.pack(_EXT_ADDRESS.size, min(len(address), 16), kind, scope,
                                 bytes(address[:16]).ljust(16, b"\0"))
    return PacketLayout(bytes(out), header_size, actual, trailer_offset, srmp, context.readings)


__all__ = ["PacketContext", "PacketLayout", "build_packet", "packet_sections", "packet_size"]
