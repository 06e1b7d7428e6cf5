"""The packets of an MS-MQQB session, as the receiving queue manager reads and writes them.

Theory of operation
-------------------
`frame_length` tells where a packet ends in the byte stream (MS-MQMQ 2.2.19.1: PacketSize,
plus 16 when a SessionHeader follows; a SessionAck is 36 bytes whether its PacketSize counts
its SessionHeader or not, D-85).  `packet_kind` names a whole packet by the rules of
MS-MQQB 3.1.5.1.1; an internal packet (BaseHeader.Flags.IN) is read by `read_internal`, any
other by `read_user_message`, which walks every header the flags announce in MS-MQMQ 2.2.20's
order (with MS-MQRR 2.2.5.1's SRMPEnvelopeHeader and CompoundMessageHeader behind AH, D-90),
checks each length against PacketSize and each enumerated field against its set, and returns
the fields as `UserMessagePacket`.  Both raise PacketFormatError for bytes that do not follow
the structures of MS-MQQB 2 and MS-MQMQ 2.2.19 - 2.2.20, never another exception; the session
closes on it (MS-MQQB:3.1.5.1.3:01).

The writers build what an acceptor sends: the EstablishConnection and ConnectionParameters
responses (MS-MQQB 2.2.2, 2.2.3), SessionAck (2.2.6) and the OrderAck and FinalAck packets
(2.2.4, 2.2.5).  This module knows the wire only; what the fields mean is mqqb_session.py's
and mqqb_arrival.py's business.  (reference/packet.py writes the different layout MS-MQRR
returns to remote readers.)
"""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass, field

VERSION, SIGNATURE, INFINITE = 0x10, 0x524F494C, 0xFFFFFFFF  # MS-MQMQ 2.2.19.1
BASE = struct.Struct("<BBHIII")                # MS-MQMQ 2.2.19.1 BaseHeader, 16 bytes
INTERNAL = struct.Struct("<HH")                # MS-MQQB 2.2.1 InternalHeader
ESTABLISH = struct.Struct("<16s16sIHH")        # MS-MQQB 2.2.3.1, followed by 512 bytes of padding
PARAMETERS = struct.Struct("<IIHH")            # MS-MQQB 2.2.2.1
SESSION = struct.Struct("<HHIHHHH")            # MS-MQMQ 2.2.20.4 SessionHeader, 16 bytes
USER = struct.Struct("<16s16sIIII")            # MS-MQMQ 2.2.19.2 fixed part, 48 bytes
TRANSACTION = struct.Struct("<I8sII")          # MS-MQMQ 2.2.20.5 without ConnectorQMGuid
SECURITY = struct.Struct("<HHHHII")            # MS-MQMQ 2.2.20.6 fixed part
PROPERTIES = struct.Struct("<BBH20sIIIIIIII")  # MS-MQMQ 2.2.19.3 fixed part, 56 bytes
DEBUG = struct.Struct("<HH")                   # MS-MQMQ 2.2.20.8 without QueueIdentifier
SRMP_ENVELOPE = struct.Struct("<HHI")          # MS-MQRR 2.2.5.1.2.1 SRMPEnvelopeHeader fixed part
COMPOUND_MESSAGE = struct.Struct("<HHIII")     # MS-MQRR 2.2.5.1.2.2 CompoundMessageHeader fixed part
SOAP_SECTION = struct.Struct("<HHI")           # MS-MQMQ 2.2.20.7 a section id, Reserved and its length
MQF_ADDRESS = struct.Struct("<IHHI")           # MS-MQMQ 2.2.20.2 MQFAddressHeader fixed part
MQF_SIGNATURE = struct.Struct("<HHI")          # MS-MQMQ 2.2.20.3 MQFSignatureHeader fixed part
FIXED_HEADERS = BASE.size + USER.size + PROPERTIES.size  # MS-MQMQ 2.2.20 the headers every UserMessage has
IN, SH, DH = 0x0008, 0x0010, 0x0020            # MS-MQMQ 2.2.19.1 BaseHeader.Flags
PT_SESSION_ACK, PT_ESTABLISH, PT_PARAMETERS = 1, 2, 3  # MS-MQQB 2.2.1 InternalHeader.Flags.PT
CS = 0x0010                                     # MS-MQQB 2.2.1 connection refused
OS_SERVER_CLASS = 0x0200                        # MS-MQQB 2.2.3.1 OperatingSystem.OS, a server-class initiator
JN, JP, TH, MP, SECURITY_FLAG, CQ, MQ, AH, HH = (1 << 8, 1 << 9, 1 << 20, 1 << 21, 1 << 19, 1 << 22, 1 << 23,
                                                 1 << 25, 1 << 28)  # MS-MQMQ 2.2.19.2 UserHeader.Flags
ALLOWED_DM = frozenset({0, 1})                  # MS-MQMQ 2.2.19.2 DM: express or recoverable
ALLOWED_DQ, ALLOWED_AQ = frozenset({0, 3, 5, 7}), frozenset({0, 2, 3, 5, 6, 7})  # MS-MQMQ 2.2.19.2
EB = 0x0020                                     # MS-MQMQ 2.2.20.6 SecurityHeader.Flags.EB
ORDER_ACK_LABEL = "QM Ordering Ack"             # MS-MQQB 2.2.4, 2.2.5
ORDER_QUEUE_NUMBER = 4                          # MS-MQQB 2.2.4 order_queue$ is private queue 4
ORDER_ACK_CLASS = 0x00FF                        # MS-MQMQ 2.2.18.1.6 MQMSG_CLASS_ORDER_ACK
MAX_PACKET = 0x00400000                         # MS-MQMQ 2.2.19.1 PacketSize limit
SESSION_ACK_SIZE = BASE.size + INTERNAL.size + SESSION.size  # MS-MQQB 2.2.6 the whole SessionAck, 36 bytes
SESSION_ACK_SIZES = (BASE.size + INTERNAL.size, SESSION_ACK_SIZE)  # D-85 its PacketSize: text, windows
MAX_LABEL_LENGTH = 0xFA                         # MS-MQMQ 2.2.19.3 LabelLength valid range
QT_PUBLIC = 1                                   # MS-MQMQ 2.2.20.8 DebugHeader.Flags.QT: a QueueIdentifier follows
SOAP_HEADER_ID, SOAP_BODY_ID = 0x0320, 0x0384   # MS-MQMQ 2.2.20.7
MQF_IDS, MQF_SIGNATURE_ID = (0x0064, 0x00C8, 0x012C), 0x015E  # MS-MQMQ 2.2.20.2 Destination, Admin, Response


class PacketFormatError(ValueError):
    """Bytes that do not follow the structures of MS-MQQB 2 / MS-MQMQ 2.2 (MS-MQQB 3.1.5.1.3)."""


@dataclass
class UserMessagePacket:
    """Every field of a UserMessage packet the receiver acts on (MS-MQMQ 2.2.19 - 2.2.20)."""
    base_flags: int
    time_to_reach_queue: int
    source_queue_manager: bytes      # GUID, wire order
    queue_manager_address: bytes
    time_to_be_received: int
    sent_time: int
    message_id: int
    flags: int                       # UserHeader.Flags
    destination: str                 # format names rebuilt from DQ / AQ / RQ ("" for none)
    admin: str
    response: str
    transaction: tuple | None = None  # (Flags, TxSequenceID, TxSequenceNumber, PreviousTxSequenceNumber)
    security_flags: int | None = None  # SecurityHeader.Flags, when the packet has one
    signature_size: int = 0            # SecurityHeader.SignatureSize
    security_data: tuple = ()          # SecurityHeader items: SecurityID, EncryptionKey, Signature, SenderCert,
                                       # ProviderInfo (b"" for each one absent)
    acknowledgements: int = 0
    label: str = ""
    message_class: int = 0
    correlation_id: bytes = bytes(20)
    body_type: int = 0
    application_tag: int = 0
    body: bytes = b""
    extension: bytes = b""
    privacy_level: int = 0
    srmp_envelope: str | None = None     # SRMPEnvelopeHeader.Data without its NUL, when UserHeader.Flags.AH
    compound_message: bytes | None = None  # CompoundMessageHeader.Data, when UserHeader.Flags.AH
    compound_message_body: tuple[int, int] = (0, 0)  # CompoundMessageHeader (MsgBodyOffset, MsgBodySize)
    hash_algorithm: int = 0            # MessagePropertiesHeader.HashAlgorithm
    encryption_algorithm: int = 0      # MessagePropertiesHeader.EncryptionAlgorithm
    session_header: tuple | None = None  # the SessionHeader fields when BaseHeader.Flags.SH
    raw: bytes = field(default=b"", repr=False)

    def code(self, name: str) -> int:
        """UserHeader.Flags.DQ / AQ / RQ / DM."""
        shift, mask = {"DM": (5, 3), "DQ": (10, 7), "AQ": (13, 7), "RQ": (16, 7)}[name]
        return self.flags >> shift & mask

    @property
    def transactional(self) -> bool:
        return self.transaction is not None

    @property
    def encrypted_body(self) -> bool:
        return self.security_flags is not None and bool(self.security_flags & EB)

    @property
    def signed(self) -> bool:
        return self.signature_size > 0


def frame_length(buffer: bytes | bytearray) -> int | None:
    """The length of the packet at the start of `buffer`, None if the BaseHeader is not all there."""
    if len(buffer) < BASE.size:
        return None
    version, _, flags, signature, size, _ = BASE.unpack_from(buffer)
    if version != VERSION or signature != SIGNATURE:  # MS-MQQB:3.1.5.1.2:01 the session closes, nothing answered
        raise PacketFormatError("MS-MQQB 3.1.5.1.2: bad VersionNumber or Signature")
    if not BASE.size <= size <= MAX_PACKET:
        raise PacketFormatError(f"MS-MQMQ 2.2.19.1: PacketSize {size}")
    if flags & IN and flags & SH:
        # D-85 a SessionAck (MS-MQQB:2.2.6:01) is 36 bytes: PacketSize 20 (the text) or 36 (Windows) frames it
        if size not in SESSION_ACK_SIZES:
            raise PacketFormatError(f"MS-MQQB 2.2.6: a SessionAck with PacketSize {size}")
        return SESSION_ACK_SIZE
    return size + (SESSION.size if flags & SH else 0)  # MS-MQMQ:2.2.19.1:11 the SessionHeader is not counted


def packet_kind(packet: bytes) -> str:
    """MS-MQQB 3.1.5.1.1: EstablishConnection, ConnectionParameters, SessionAck, OrderAck, FinalAck or UserMessage."""
    flags = BASE.unpack_from(packet)[2]
    if flags & IN:
        if len(packet) < BASE.size + INTERNAL.size:
            raise PacketFormatError("MS-MQQB 2.2.1: no InternalHeader")
        pt = INTERNAL.unpack_from(packet, BASE.size)[1] & 0xF
        kinds = {PT_SESSION_ACK: "SessionAck", PT_ESTABLISH: "EstablishConnection",
                 PT_PARAMETERS: "ConnectionParameters"}
        if pt not in kinds or (pt == PT_SESSION_ACK and not flags & SH):
            raise PacketFormatError(f"MS-MQQB 2.2.1: packet type {pt}")  # any other value closes the session
        return kinds[pt]
    message = read_user_message(packet)
    # MS-MQQB:3.1.5.1.1:01 / :02 an acknowledgment only with Flags 0 and its Label, to the order queue (D-100)
    if message.label == ORDER_ACK_LABEL and message.base_flags == 0 and _for_order_queue(message.destination):
        return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"
    return "UserMessage"


def _for_order_queue(destination: str) -> bool:
    """MS-MQQB 2.2.4 / 2.2.5 the receiver's order queue: private queue 4 by its number, or order_queue$ by a direct
    name (names are case-insensitive, MS-MQMQ 2.1); a queue whose name is 00000004 is not it."""
    name = destination.lower()
    if name.startswith("direct="):
        return name.endswith("\\private$\\order_queue$")
    return name.startswith("private=") and name.endswith("\\00000004")


def read_internal(packet: bytes, kind: str) -> tuple:
    """The header after the InternalHeader, as a tuple of its fields, and the InternalHeader.Flags."""
    internal_flags = INTERNAL.unpack_from(packet, BASE.size)[1]
    start = BASE.size + INTERNAL.size
    layout = {"EstablishConnection": ESTABLISH, "ConnectionParameters": PARAMETERS, "SessionAck": SESSION}[kind]
    need = layout.size + (512 if kind == "EstablishConnection" else 0)
    if len(packet) != start + need:
        raise PacketFormatError(f"MS-MQQB 2.2: a {kind} packet of {len(packet)} bytes")
    return layout.unpack_from(packet, start), internal_flags


def _guid(raw: bytes) -> str:
    return str(uuid.UUID(bytes_le=bytes(raw)))


def _within(end: int, size: int, clause: str, what: str) -> int:
    """`end` if the field ending there lies inside PacketSize; a format error naming `clause` otherwise."""
    if end > size:
        raise PacketFormatError(f"{clause}: {what} runs past PacketSize {size}")
    return end


def _align(offset: int) -> int:
    return (offset + 3) & ~3


def _utf16(raw: bytes) -> str:
    return bytes(raw).decode("utf-16-le", "surrogatepass").rstrip("\0")


def _queue(packet: bytes, offset: int, size: int, code: int, source: bytes, dest: bytes,
           admin_host: bytes | None) -> tuple[str, int, bytes | None]:
    """One DQ / AQ / RQ field: (format name, next offset, host GUID of a private name)."""
    clause = "MS-MQMQ:2.2.19.2:14"  # a queue name field lies inside PacketSize
    if code in (0, 1):
        return "", offset, None
    if code in (2, 3, 4):  # MS-MQMQ 2.2.18.1.5.1 PrivateQueueFormatNameId on a host the flag names
        host = {2: source, 3: dest, 4: admin_host}[code]
        if host is None:
            raise PacketFormatError("MS-MQMQ 2.2.19.2: RQ 4 without a private administration queue")
        (number,) = struct.unpack_from("<I", packet, offset)
        return f"PRIVATE={_guid(host)}\\{number:08x}", _within(offset + 4, size, clause, "a queue number"), host
    if code == 5:  # MS-MQMQ 2.2.18.1.7.1 PublicQueueFormatName
        end = _within(offset + 16, size, clause, "a public queue name")
        return f"PUBLIC={_guid(packet[offset:end])}", end, None
    if code == 6:  # MS-MQMQ 2.2.18.1.7.2 PrivateQueueFormatName
        end = _within(offset + 20, size, clause, "a private queue name")
        (number,) = struct.unpack_from("<I", packet, offset + 16)
        return f"PRIVATE={_guid(packet[offset:offset + 16])}\\{number:08x}", end, bytes(packet[offset:offset + 16])
    (count,) = struct.unpack_from("<H", packet, offset)  # MS-MQMQ 2.2.18.1.5.2 Count in bytes, NUL included
    end = _within(offset + 2 + count, size, clause, f"a direct name of {count} bytes")
    text = _utf16(packet[offset + 2:end])
    # MS-MQMQ:2.2.18.1.5.2:02 (D-99) the name after DIRECT= (Windows) or the whole name; a format name needs the keyword
    name = text if text[:7].upper() == "DIRECT=" else "DIRECT=" + text
    return name, BASE.size + _align(end - BASE.size), None


def read_user_message(packet: bytes) -> UserMessagePacket:
    """Every header of a UserMessage-shaped packet (UserMessage, OrderAck, FinalAck)."""
    try:
        return _read_user_message(packet)
    except (struct.error, UnicodeDecodeError, IndexError) as error:
        raise PacketFormatError(f"MS-MQMQ 2.2.20: the packet ends early ({error})") from None


def _read_user_message(packet: bytes) -> UserMessagePacket:
    _, _, base_flags, _, size, ttrq = BASE.unpack_from(packet)
    if size % 4 or size < FIXED_HEADERS:
        # MS-MQMQ:2.2.19.1:12 PacketSize counts 4-byte aligned headers, at least the three every UserMessage has
        raise PacketFormatError(f"MS-MQMQ:2.2.19.1:12: PacketSize {size} of a UserMessage")
    if len(packet) < size:
        # MS-MQMQ:2.2.20:02 every header lies inside PacketSize, so bytes that stop short of it hold no packet
        raise PacketFormatError(f"MS-MQMQ:2.2.20:02: {len(packet)} bytes of a packet of PacketSize {size}")
    start = BASE.size
    source, address, ttbr, sent, message_id, flags = USER.unpack_from(packet, start)
    dq, aq, rq, dm = flags >> 10 & 7, flags >> 13 & 7, flags >> 16 & 7, flags >> 5 & 3
    if dq not in ALLOWED_DQ or aq not in ALLOWED_AQ:
        # MS-MQMQ:2.2.19.2:12 any other DQ or AQ value is an error that closes the session
        raise PacketFormatError(f"MS-MQMQ 2.2.19.2: DQ {dq} / AQ {aq} outside the allowed values")
    if dm not in ALLOWED_DM:
        raise PacketFormatError(f"MS-MQMQ:2.2.19.2:13: DM {dm} is no delivery mode")  # only 0 and 1 are defined
    if not flags & MP or (flags & TH and not dm):
        raise PacketFormatError("MS-MQMQ 2.2.19.2: MP clear, or TH with DM 0")
    offset = start + USER.size
    destination, offset, _ = _queue(packet, offset, size, dq, source, address, None)
    admin, offset, admin_host = _queue(packet, offset, size, aq, source, address, None)
    response, offset, _ = _queue(packet, offset, size, rq, source, address, admin_host)
    if rq == 1:
        response = admin  # MS-MQMQ 2.2.19.2 RQ 1: the same as the administration queue
    if flags & CQ:
        offset = _within(offset + 16, size, "MS-MQMQ:2.2.19.2:14", "ConnectorType")  # MS-MQMQ 2.2.19.2 CQ
    message = UserMessagePacket(base_flags, ttrq, bytes(source), bytes(address), ttbr, sent, message_id, flags,
                                destination, admin, response, raw=bytes(packet))
    if flags & TH:
        xflags, sequence_id, number, previous = TRANSACTION.unpack_from(packet, offset)
        message.transaction = (xflags, bytes(sequence_id), number, previous)
        offset += TRANSACTION.size + (16 if xflags & 1 else 0)  # MS-MQMQ 2.2.20.5 ConnectorQMGuid when CG
        _within(offset, size, "MS-MQMQ:2.2.20:02", "the TransactionHeader")  # an announced header fits
    if flags & SECURITY_FLAG:
        security = SECURITY.unpack_from(packet, offset)
        message.security_flags, message.signature_size = security[0], security[3]
        offset += SECURITY.size
        items = []
        for length in security[1:]:  # MS-MQMQ 2.2.20.6 SecurityID, EncryptionKey, Signature, SenderCert, ProviderInfo
            items.append(bytes(packet[offset:offset + length]))
            offset += (length + 3) & ~3  # MS-MQMQ 2.2.20.6 each item padded to 4 bytes
        _within(offset, size, "MS-MQMQ:2.2.20.6:02", "the SecurityHeader")  # its SecurityData items fit too
        message.security_data = tuple(items)
    offset = _message_properties(packet, offset, size, message)
    if base_flags & DH:
        offset = _debug_header(packet, offset, size)
    if flags & AH:
        offset = _srmp_headers(packet, offset, size, message)
    if flags & HH:
        offset = _soap_header(packet, offset, size)
    if flags & MQ:
        _multi_queue_format_header(packet, offset, size)
    # D-91 bytes after the last header the flags announce, up to PacketSize, are not read
    if base_flags & SH:
        message.session_header = SESSION.unpack_from(packet, size)  # MS-MQMQ 2.2.20.4, after PacketSize bytes
    return message


def _message_properties(packet: bytes, offset: int, size: int, message: UserMessagePacket) -> int:
    """MS-MQMQ 2.2.19.3, into `message`; the offset after its padding."""
    clause = "MS-MQMQ:2.2.19.3:12"  # LabelLength in range; Label, ExtensionData and MessageBody inside PacketSize
    props = offset
    _within(offset + PROPERTIES.size, size, clause, "the MessagePropertiesHeader")
    (message.acknowledgements, label_length, message.message_class, correlation, message.body_type,
     message.application_tag, body_size, _, message.privacy_level, message.hash_algorithm,
     message.encryption_algorithm, extension_size) = PROPERTIES.unpack_from(packet, offset)
    if message.privacy_level not in (0, 1, 3, 5):
        raise PacketFormatError("MS-MQMQ 2.2.19.3: PrivacyLevel outside its table")
    if label_length > MAX_LABEL_LENGTH:
        raise PacketFormatError(f"{clause}: LabelLength {label_length}")
    message.correlation_id = bytes(correlation)
    offset = _within(offset + PROPERTIES.size + 2 * label_length, size, clause, "the Label")
    message.label = _utf16(packet[offset - 2 * label_length:offset])
    offset = _within(offset + extension_size, size, clause, "the ExtensionData")
    message.extension = bytes(packet[offset - extension_size:offset])
    offset = _within(offset + body_size, size, clause, "the MessageBody")
    message.body = bytes(packet[offset - body_size:offset])
    return _within(props + _align(offset - props), size, clause, "the MessagePropertiesHeader's padding")


def _debug_header(packet: bytes, offset: int, size: int) -> int:
    """MS-MQMQ 2.2.20.8 when BaseHeader.Flags.DH: checked and stepped over (the Message keeps no trace queue)."""
    end = _within(offset + DEBUG.size, size, "MS-MQMQ:2.2.20:02", "the DebugHeader")
    qt = DEBUG.unpack_from(packet, offset)[0] & 3
    if qt > QT_PUBLIC:
        raise PacketFormatError(f"MS-MQMQ:2.2.20.8:02: DebugHeader QT {qt}")  # only 0 and 1 say what follows
    if qt == QT_PUBLIC:
        end = _within(end + 16, size, "MS-MQMQ:2.2.20:02", "the DebugHeader's QueueIdentifier")
    return end


def _srmp_headers(packet: bytes, offset: int, size: int, message: UserMessagePacket) -> int:
    """MS-MQMQ:2.2.19.2:15 AH: SRMPEnvelopeHeader then CompoundMessageHeader (MS-MQRR 2.2.5.1.2), D-90, D-91."""
    clause = "MS-MQMQ:2.2.19.2:15"
    end = _within(offset + SRMP_ENVELOPE.size, size, clause, "the SRMPEnvelopeHeader")
    data_length = SRMP_ENVELOPE.unpack_from(packet, offset)[2]  # in WCHARs, the NUL included
    end = _within(end + 2 * data_length, size, clause, f"SRMPEnvelopeHeader.DataLength 0x{data_length:08X}")
    message.srmp_envelope = _utf16(packet[end - 2 * data_length:end])
    offset = _align(end)
    end = _within(offset + COMPOUND_MESSAGE.size, size, clause, "the CompoundMessageHeader")
    _, _, http_body_size, body_size, body_offset = COMPOUND_MESSAGE.unpack_from(packet, offset)
    end = _within(end + http_body_size, size, clause, f"CompoundMessageHeader.HTTPBodySize 0x{http_body_size:08X}")
    if body_offset + body_size > http_body_size:
        raise PacketFormatError(f"{clause}: a message body at {body_offset} of {body_size} bytes outside the "
                                f"compound message's {http_body_size}")
    message.compound_message = bytes(packet[end - http_body_size:end])
    message.compound_message_body = (body_offset, body_size)
    return _within(_align(end), size, clause, "the CompoundMessageHeader's padding")


def _soap_header(packet: bytes, offset: int, size: int) -> int:
    """MS-MQMQ 2.2.20.7 when UserHeader.Flags.HH: the Header section, then the Body section (D-91 each aligned),
    checked and stepped over: the Message keeps nothing a SoapHeader carries (packet.py writes none back)."""
    for section_id in (SOAP_HEADER_ID, SOAP_BODY_ID):
        end = _within(offset + SOAP_SECTION.size, size, "MS-MQMQ:2.2.20:02", "the SoapHeader")
        got, _, length = SOAP_SECTION.unpack_from(packet, offset)
        if got != section_id:
            raise PacketFormatError(f"MS-MQMQ:2.2.20.7:02: SoapHeader section id 0x{got:04X}, not 0x{section_id:04X}")
        end = _within(end + 2 * length, size, "MS-MQMQ:2.2.20.7:02", f"a SoapHeader section of {length} WCHARs")
        offset = _align(end)
    return _within(offset, size, "MS-MQMQ:2.2.20.7:02", "the SoapHeader's padding")


def _multi_queue_format_header(packet: bytes, offset: int, size: int) -> None:
    """MS-MQMQ 2.2.20.1 when UserHeader.Flags.MQ: Destination, Admin and Response MQFAddressHeaders, Signature."""
    clause = "MS-MQMQ:2.2.20.2:02"
    for header_id in MQF_IDS:
        _within(offset + MQF_ADDRESS.size, size, "MS-MQMQ:2.2.20:02", "the MultiQueueFormatHeader")
        header_size, got, _, _ = MQF_ADDRESS.unpack_from(packet, offset)
        if got != header_id or header_size < MQF_ADDRESS.size:
            raise PacketFormatError(f"{clause}: MQFAddressHeader HeaderID 0x{got:04X} HeaderSize {header_size} "
                                    f"where 0x{header_id:04X} belongs")
        offset = _within(offset + _align(header_size), size, clause, f"an MQFAddressHeader of {header_size} bytes")
    _within(offset + MQF_SIGNATURE.size, size, "MS-MQMQ:2.2.20:02", "the MQFSignatureHeader")
    got, _, signature_size = MQF_SIGNATURE.unpack_from(packet, offset)
    if got != MQF_SIGNATURE_ID:
        raise PacketFormatError(f"{clause}: MQFSignatureHeader ID 0x{got:04X}")
    _within(_align(offset + MQF_SIGNATURE.size + signature_size), size, clause, "the MQFSignatureHeader")


# -- what the acceptor writes ---------------------------------------------------------------

def _base(flags: int, body: bytes, session: bytes = b"", session_counted: bool = False) -> bytes:
    # MS-MQMQ:2.2.19.1:10 a packet that is not a UserMessage never expires (TimeToReachQueue INFINITE)
    # MS-MQMQ:2.2.19.1:11 PacketSize leaves the SessionHeader out; D-85 windows counts a SessionAck's in
    size = BASE.size + len(body) + (len(session) if session_counted else 0)
    return BASE.pack(VERSION, 0, flags, SIGNATURE, size, INFINITE) + body + session


def _internal_flags(flags: int, priority: int) -> int:
    """BaseHeader.Flags of an internal packet: IN (MS-MQQB:2.2.2:01) and the priority of D-86's reading."""
    return flags | IN | priority & 7


def establish_connection_response(client: bytes, server: bytes, timestamp: int, session_flag: int,
                                  refused: bool, priority: int = 0, server_class: bool = False) -> bytes:
    """MS-MQQB 3.1.5.3.1: the request's ClientGuid, TimeStamp and SE, this queue manager as ServerGuid."""
    # MS-MQQB:2.2.3.1:01 RE = 0x10, SE echoed; D-87 the OS bit (server-class) is the reading's
    operating_system = 0x10 | (session_flag & 1) << 8 | (OS_SERVER_CLASS if server_class else 0)
    header = ESTABLISH.pack(client, server, timestamp, operating_system, 0) + b"\x5A" * 512  # 2.2.3.1 padding
    return _base(_internal_flags(0, priority), INTERNAL.pack(0, PT_ESTABLISH | (CS if refused else 0)) + header)


def establish_connection_request(client: bytes, server: bytes, timestamp: int, priority: int = 0,
                                 server_class: bool = False) -> bytes:
    """MS-MQQB:3.1.5.2.3:01: CS 0, SE 1 (no ping was sent), RE 0x10, the two GUIDs and the time stamp."""
    operating_system = 0x10 | 1 << 8 | (OS_SERVER_CLASS if server_class else 0)  # D-87 the OS bit
    header = ESTABLISH.pack(client, server, timestamp, operating_system, 0) + bytes(512)
    return _base(_internal_flags(0, priority), INTERNAL.pack(0, PT_ESTABLISH) + header)


def connection_parameters_request(recoverable_ack_timeout: int, ack_timeout: int, window_size: int,
                                  priority: int = 0) -> bytes:
    """MS-MQQB 3.1.5.3.2 the initiator's ConnectionParameters."""
    return _base(_internal_flags(0, priority), INTERNAL.pack(0, PT_PARAMETERS) + PARAMETERS.pack(
        recoverable_ack_timeout, ack_timeout, 0, window_size))


def connection_parameters_response(recoverable_ack_timeout: int, ack_timeout: int, window_size: int,
                                   priority: int = 0) -> bytes:
    """MS-MQQB 3.1.5.4.1: the two time-outs of the request, this session's WindowSize."""
    header = PARAMETERS.pack(recoverable_ack_timeout, ack_timeout, 0, window_size)
    return _base(_internal_flags(0, priority), INTERNAL.pack(0, PT_PARAMETERS) + header)


def session_ack(fields: tuple, priority: int = 0, session_counted: bool = False) -> bytes:
    """MS-MQQB 2.2.6: BaseHeader (IN, SH) + InternalHeader (PT 1) + SessionHeader (PacketSize as D-85 reads it)."""
    return _base(_internal_flags(SH, priority), INTERNAL.pack(0, PT_SESSION_ACK), SESSION.pack(*fields),
                 session_counted)


def transactional_ack(source: bytes, destination_qm: bytes, direct_address: str | None, message_id: int,
                      sent_time: int, message_class: int, body: bytes) -> bytes:
    """MS-MQQB 2.2.4 / 2.2.5: an OrderAck or FinalAck to the sender's order queue.

    DQ 3 (PrivateQueueFormatNameId 4 on the sender) or, for a direct session, DQ 7 with
    TCP:<address>\\PRIVATE$\\order_queue$ (MS-MQQB 3.1.7.17)."""
    if direct_address is None:
        address, dq, queue = destination_qm, 3, struct.pack("<I", ORDER_QUEUE_NUMBER)
    else:
        text = f"TCP:{direct_address}\\PRIVATE$\\order_queue$".encode("utf-16-le") + b"\0\0"
        raw = struct.pack("<H", len(text)) + text
        address, dq, queue = bytes(16), 7, raw + bytes(-len(raw) % 4)
    final = message_class != ORDER_ACK_CLASS
    # MS-MQQB:2.2.5:01 a FinalAck asks for recoverable delivery; MS-MQQB:2.2.4:01 every other bit of an OrderAck is 0
    flags = MP | dq << 10 | (1 << 5 if final else 0)
    user = USER.pack(source, address, INFINITE, sent_time, message_id, flags) + queue
    label = ORDER_ACK_LABEL.encode("utf-16-le") + b"\0\0"
    props = PROPERTIES.pack(0, len(ORDER_ACK_LABEL) + 1, message_class, bytes(20), 0, 0, len(body), len(body),
                            0, 0, 0, 0) + label + body
    props += bytes(-len(props) % 4)
    return _base(0, user + props)  # MS-MQQB 2.2.4 / 2.2.5 BaseHeader.Flags all 0
