"""The packets of an MS-MQQB session, as the receiving queue manager reads and writes them.

Theory of operation
-------------------
`frame_length` tells where a packet ends in the byte stream (MS-MQMQ 2.2.19.1: PacketSize,
plus 16 when a SessionHeader follows).  `packet_kind` names a whole packet by the rules of
MS-MQQB 3.1.5.1.1; an internal packet (BaseHeader.Flags.IN) is read by `read_internal`, any
other by `read_user_message`, which returns the fields of every header as `UserMessagePacket`.
Both raise PacketFormatError for bytes that do not follow the structures of MS-MQQB 2 and
MS-MQMQ 2.2.19 - 2.2.20; the session closes on it (MS-MQQB 3.1.5.1.3).

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
IN, SH, DH = 0x0008, 0x0010, 0x0020            # MS-MQMQ 2.2.19.1 BaseHeader.Flags
PT_SESSION_ACK, PT_ESTABLISH, PT_PARAMETERS = 1, 2, 3  # MS-MQQB 2.2.1 InternalHeader.Flags.PT
CS = 0x0010                                     # MS-MQQB 2.2.1 connection refused
JN, JP, TH, MP, SECURITY_FLAG, CQ, MQ, HH = (1 << 8, 1 << 9, 1 << 20, 1 << 21, 1 << 19, 1 << 22, 1 << 23,
                                             1 << 28)  # MS-MQMQ 2.2.19.2 UserHeader.Flags
ALLOWED_DQ, ALLOWED_AQ = frozenset({0, 3, 5, 7}), frozenset({0, 2, 3, 5, 6, 7})  # MS-MQMQ 2.2.19.2
EB = 0x0020                                     # MS-MQMQ 2.2.20.6 SecurityHeader.Flags.EB
ORDER_ACK_LABEL = "QM Ordering Ack"             # MS-MQQB 2.2.4, 2.2.5
ORDER_QUEUE_NUMBER = 4                          # MS-MQQB 2.2.4 order_queue$ is private queue 4
ORDER_ACK_CLASS = 0x00FF                        # MS-MQMQ 2.2.18.1.6 MQMSG_CLASS_ORDER_ACK
MAX_PACKET = 0x00400000                         # MS-MQMQ 2.2.19.1 PacketSize limit


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
    if version != VERSION or signature != SIGNATURE:
        raise PacketFormatError("MS-MQQB 3.1.5.1.2: bad VersionNumber or Signature")
    if not BASE.size <= size <= MAX_PACKET:
        raise PacketFormatError(f"MS-MQMQ 2.2.19.1: PacketSize {size}")
    return size + (SESSION.size if flags & SH else 0)  # MS-MQMQ 2.2.19.1 the SessionHeader is not counted


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
    if message.label == ORDER_ACK_LABEL and message.base_flags == 0 and message.destination.endswith(
            ("\\00000004", "\\order_queue$")):
        return "OrderAck" if message.message_class == ORDER_ACK_CLASS else "FinalAck"
    return "UserMessage"


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


def _queue(packet: bytes, offset: int, start: int, code: int, source: bytes, dest: bytes,
           admin_host: bytes | None) -> tuple[str, int, bytes | None]:
    """One DQ / AQ / RQ field: (format name, next offset, host GUID of a private name)."""
    if code in (0, 1):
        return "", offset, None
    if code in (2, 3, 4):  # MS-MQMQ 2.2.18.1.5.1 PrivateQueueFormatNameId on a host the flag names
        host = {2: source, 3: dest, 4: admin_host}[code]
        if host is None:
            raise PacketFormatError("MS-MQMQ 2.2.19.2: RQ 4 without a private administration queue")
        (number,) = struct.unpack_from("<I", packet, offset)
        return f"PRIVATE={_guid(host)}\\{number:08x}", offset + 4, host
    if code == 5:  # MS-MQMQ 2.2.18.1.7.1 PublicQueueFormatName
        return f"PUBLIC={_guid(packet[offset:offset + 16])}", offset + 16, None
    if code == 6:  # MS-MQMQ 2.2.18.1.7.2 PrivateQueueFormatName
        host = bytes(packet[offset:offset + 16])
        (number,) = struct.unpack_from("<I", packet, offset + 16)
        return f"PRIVATE={_guid(host)}\\{number:08x}", offset + 20, host
    (count,) = struct.unpack_from("<H", packet, offset)  # MS-MQMQ 2.2.18.1.5.2 Count in bytes, NUL included
    text = bytes(packet[offset + 2:offset + 2 + count]).decode("utf-16-le", "surrogatepass").rstrip("\0")
    end = offset + 2 + count
    # MS-MQMQ 2.1.2: the field holds the name after "DIRECT="; a format name needs the keyword back
    name = text if text[:7].upper() == "DIRECT=" else "DIRECT=" + text
    return name, start + ((end - start + 3) & ~3), None


def read_user_message(packet: bytes) -> UserMessagePacket:
    """Every header of a UserMessage-shaped packet (UserMessage, OrderAck, FinalAck)."""
    try:
        return _read_user_message(packet)
    except (struct.error, UnicodeDecodeError, IndexError) as error:
        raise PacketFormatError(f"MS-MQMQ 2.2.20: the packet ends early ({error})") from None


def _read_user_message(packet: bytes) -> UserMessagePacket:
    _, _, base_flags, _, size, ttrq = BASE.unpack_from(packet)
    start = BASE.size
    source, address, ttbr, sent, message_id, flags = USER.unpack_from(packet, start)
    dq, aq, rq = flags >> 10 & 7, flags >> 13 & 7, flags >> 16 & 7
    if dq not in ALLOWED_DQ or aq not in ALLOWED_AQ:
        # MS-MQMQ:2.2.19.2:12 any other DQ or AQ value is an error that closes the session
        raise PacketFormatError(f"MS-MQMQ 2.2.19.2: DQ {dq} / AQ {aq} outside the allowed values")
    if not flags & MP or (flags & TH and not flags >> 5 & 3):
        raise PacketFormatError("MS-MQMQ 2.2.19.2: MP clear, or TH with DM 0")
    offset = start + USER.size
    destination, offset, _ = _queue(packet, offset, start, dq, source, address, None)
    admin, offset, admin_host = _queue(packet, offset, start, aq, source, address, None)
    response, offset, _ = _queue(packet, offset, start, rq, source, address, admin_host)
    if rq == 1:
        response = admin  # MS-MQMQ 2.2.19.2 RQ 1: the same as the administration queue
    if flags & CQ:
        offset += 16  # MS-MQMQ 2.2.19.2 ConnectorType
    message = UserMessagePacket(base_flags, ttrq, bytes(source), bytes(address), ttbr, sent, message_id, flags,
                                destination, admin, response, raw=bytes(packet))
    if flags & TH:
        xflags, sequence_id, number, previous = TRANSACTION.unpack_from(packet, offset)
        message.transaction = (xflags, bytes(sequence_id), number, previous)
        offset += TRANSACTION.size + (16 if xflags & 1 else 0)  # MS-MQMQ 2.2.20.5 ConnectorQMGuid when CG
    if flags & SECURITY_FLAG:
        security = SECURITY.unpack_from(packet, offset)
        message.security_flags, message.signature_size = security[0], security[3]
        offset += SECURITY.size
        items = []
        for length in security[1:]:  # MS-MQMQ 2.2.20.6 SecurityID, EncryptionKey, Signature, SenderCert, ProviderInfo
            items.append(bytes(packet[offset:offset + length]))
            offset += (length + 3) & ~3  # MS-MQMQ 2.2.20.6 each item padded to 4 bytes
        if offset > size:
            raise PacketFormatError("MS-MQMQ 2.2.20.6: the SecurityData runs past PacketSize")
        message.security_data = tuple(items)
    (message.acknowledgements, label_length, message.message_class, correlation, message.body_type,
     message.application_tag, body_size, _, message.privacy_level, message.hash_algorithm,
     message.encryption_algorithm, extension_size) = \
        PROPERTIES.unpack_from(packet, offset)
    if message.privacy_level not in (0, 1, 3, 5):
        raise PacketFormatError("MS-MQMQ 2.2.19.3: PrivacyLevel outside its table")
    message.correlation_id = bytes(correlation)
    props = offset
    offset += PROPERTIES.size
    message.label = bytes(packet[offset:offset + 2 * label_length]).decode("utf-16-le",
                                                                            "surrogatepass").rstrip("\0")
    offset += 2 * label_length
    message.extension = bytes(packet[offset:offset + extension_size])
    offset += extension_size
    message.body = bytes(packet[offset:offset + body_size])
    offset = props + ((offset + body_size - props + 3) & ~3)
    if len(message.body) != body_size or offset > size:
        raise PacketFormatError("MS-MQMQ 2.2.19.3: the MessageBody runs past PacketSize")
    if base_flags & SH:
        message.session_header = SESSION.unpack_from(packet, size)  # MS-MQMQ 2.2.20.4, after PacketSize bytes
    return message


# -- what the acceptor writes ---------------------------------------------------------------

def _base(flags: int, body: bytes, session: bytes = b"") -> bytes:
    # MS-MQMQ:2.2.19.1:10 a packet that is not a UserMessage never expires (TimeToReachQueue INFINITE)
    return BASE.pack(VERSION, 0, flags, SIGNATURE, BASE.size + len(body), INFINITE) + body + session


def establish_connection_response(client: bytes, server: bytes, timestamp: int, session_flag: int,
                                  refused: bool) -> bytes:
    """MS-MQQB 3.1.5.3.1: the request's ClientGuid, TimeStamp and SE, this queue manager as ServerGuid."""
    operating_system = 0x10 | (session_flag & 1) << 8  # MS-MQQB 2.2.3.1 RE = 0x10, SE echoed
    header = ESTABLISH.pack(client, server, timestamp, operating_system, 0) + b"\x5A" * 512  # 2.2.3.1 padding
    return _base(IN, INTERNAL.pack(0, PT_ESTABLISH | (CS if refused else 0)) + header)


def establish_connection_request(client: bytes, server: bytes, timestamp: int) -> bytes:
    """MS-MQQB 3.1.5.2.3: CS 0, SE 1 (no ping was sent), the two GUIDs and the time stamp."""
    header = ESTABLISH.pack(client, server, timestamp, 0x10 | 1 << 8, 0) + bytes(512)
    return _base(IN, INTERNAL.pack(0, PT_ESTABLISH) + header)


def connection_parameters_request(recoverable_ack_timeout: int, ack_timeout: int, window_size: int) -> bytes:
    """MS-MQQB 3.1.5.3.2 the initiator's ConnectionParameters."""
    return _base(IN, INTERNAL.pack(0, PT_PARAMETERS) + PARAMETERS.pack(recoverable_ack_timeout, ack_timeout, 0,
                                                                        window_size))


def connection_parameters_response(recoverable_ack_timeout: int, ack_timeout: int, window_size: int) -> bytes:
    """MS-MQQB 3.1.5.4.1: the two time-outs of the request, this session's WindowSize."""
    header = PARAMETERS.pack(recoverable_ack_timeout, ack_timeout, 0, window_size)
    return _base(IN, INTERNAL.pack(0, PT_PARAMETERS) + header)


def session_ack(fields: tuple) -> bytes:
    """MS-MQQB 2.2.6: BaseHeader (IN, SH) + InternalHeader (PT 1) + SessionHeader (not in PacketSize)."""
    return _base(IN | SH, INTERNAL.pack(0, PT_SESSION_ACK), SESSION.pack(*fields))


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
    # MS-MQQB 2.2.5 a FinalAck asks for recoverable delivery; 2.2.4 every other bit of an OrderAck is 0
    flags = MP | dq << 10 | (1 << 5 if final else 0)
    user = USER.pack(source, address, INFINITE, sent_time, message_id, flags) + queue
    label = ORDER_ACK_LABEL.encode("utf-16-le") + b"\0\0"
    props = PROPERTIES.pack(0, len(ORDER_ACK_LABEL) + 1, message_class, bytes(20), 0, 0, len(body), len(body),
                            0, 0, 0, 0) + label + body
    props += bytes(-len(props) % 4)
    return _base(0, user + props)  # MS-MQQB 2.2.4 / 2.2.5 BaseHeader.Flags all 0
