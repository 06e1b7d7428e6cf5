"""Strict decoder for the message packets that MS-MQRR R_StartReceive hands back.

Theory of operation
-------------------
The suite must judge any server, ours included, so this decoder is written from the
MS-MQRR / MS-MQMQ field tables alone and shares no code with the reference server.

1. `read_sections` checks the SectionBuffer records (`packet_checks.check_records`).
2. It decodes the first section alone to learn where the body (binary) or the
   CompoundMessageHeader data (SRMP) starts and how long it claims to be (`Layout`).
3. `packet_checks.judge_split` checks the split against dwMaxBodySize /
   dwMaxCompoundMessageSize and says where the second section sits in the original
   packet.  The packet is rebuilt as first section + a gap + second section (the gap
   is never stored, see `Spliced`), the gap standing for the body bytes that were not
   sent.  This is how the Windows client rebuilds it too: each section is placed
   SectionSizeAlloc bytes after the start of the previous one.
4. `_Decoder` walks the rebuilt packet header by header in the order of MS-MQRR 2.2.5.
   Every broken rule becomes one line in `violations`, prefixed with its section id.
   When the bytes run out (or a read would land in the gap) decoding stops with one
   line saying so; whatever was read until then stays in the result.  Fields never
   reached keep neutral values (0, "", b"", None).

Nothing here raises on bad input; an unexpected exception is caught and reported as a
violation that starts with "mqspec packet_reader: internal error".
"""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass, field
from typing import Sequence

from mqspec.steps.packet_checks import (
    NIL_GUID,
    Layout,
    Short,
    Spliced,
    TrailerReader,
    align4,
    check_kinds,
    check_records,
    direct_name,
    judge_split,
    private_name,
    public_name,
    wstring,
)
from mqspec.steps.packet_security import property_problems, security_header_problems

SIGNATURE = 0x524F494C
FLAG_BITS = {"RC": (0, 0x1F), "DM": (5, 3), "JN": (8, 1), "JP": (9, 1), "DQ": (10, 7),
             "AQ": (13, 7), "RQ": (16, 7), "SH": (19, 1), "TH": (20, 1), "MP": (21, 1),
             "CQ": (22, 1), "MQ": (23, 1), "AH": (25, 1), "HH": (28, 1)}
# MS-MQMQ 2.2.20.6 SecurityData, in order
SECURITY_ITEMS = ("SecurityID", "EncryptionKey", "Signature", "SenderCert", "ProviderInfo")


@dataclass(frozen=True)
class Section:
    section_buffer_type: int
    section_size_alloc: int
    section_size: int
    p_section_buffer: bytes


@dataclass
class DecodedMessage:
    priority: int = 0
    time_to_reach_queue: int = 0
    packet_size: int = 0
    source_queue_manager: uuid.UUID = NIL_GUID
    queue_manager_address: bytes = b""
    time_to_be_received: int = 0
    sent_time: int = 0
    message_id: int = 0
    delivery_mode: int = 0
    destination_queue: str = ""
    admin_queue: str = ""
    response_queue: str = ""
    flags: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FLAG_BITS, 0))
    transactional: bool = False
    first_in_transaction: bool | None = None
    last_in_transaction: bool | None = None
    transaction_header: tuple | None = None   # (Flags, TxSequenceID, TxSequenceNumber, previous, ConnectorQMGuid)
    acknowledgements: int = 0
    label: str = ""
    message_class: int = 0
    correlation_id: bytes = b""
    body_type: int = 0
    application_tag: int = 0
    body: bytes = b""
    body_size: int = 0
    extension: bytes = b""
    privacy_level: int = 0
    hash_algorithm: int = 0
    encryption_algorithm: int = 0
    security_header: dict | None = None        # Flags, the five sizes and the five items, when the packet has one
    mqf_signature: tuple[int, int] | None = None  # MQFSignatureHeader (ID, Size), when the packet has one
    is_srmp: bool = False
    srmp_envelope: str | None = None
    compound_message: bytes | None = None
    compound_body: tuple[int, int] | None = None   # CompoundMessageHeader (MsgBodyOffset, MsgBodySize)
    extension_header: dict | None = None
    subqueue_name: str = ""
    acknowledgement_class: int = 0
    abort_counter: int = 0
    move_counter: int = 0
    last_move_time: int = 0
    deadletter_path_name: str | None = None
    extended_address: dict | None = None
    violations: list[str] = field(default_factory=list)


class _Decoder(TrailerReader):
    def __init__(self, data: bytes, msg: DecodedMessage, gap: tuple[int, int] | None):
        super().__init__(data, msg, gap)
        self.lay = Layout()
        self.dh = self.session = False

    def run(self) -> Layout:
        try:
            o = self.user(self.base())
            f = self.m.flags
            if f["TH"]:
                o = self.xact(o)
            if f["SH"]:
                o = self.security(o)
            o = self.props(o)
            if self.dh:
                o = self.debug(o)
            if f["AH"]:
                o = self.compound(self.envelope(o))
            if f["HH"]:
                o = self.soap(o)
            if f["MQ"]:
                o = self.mqf(o)
            if self.session:
                self.need(o, 16, "MS-MQMQ 2.2.20.4: SessionHeader")
                o += 16
            self.trailers(o)
        except Short as exc:
            self.bad(str(exc))
        return self.lay

    def base(self) -> int:
        m, w = self.m, "MS-MQMQ 2.2.19.1"
        ver, _, fl, sig, m.packet_size, m.time_to_reach_queue = struct.unpack(
            "<BBHIII", self.need(0, 16, w + ": BaseHeader"))
        m.priority, self.session, self.dh = fl & 7, bool(fl & 0x10), bool(fl & 0x20)
        if ver != 0x10:  # MS-MQMQ 2.2.19.1
            self.bad(f"{w}: VersionNumber is 0x{ver:02X} not 0x10")
        if sig != SIGNATURE:  # MS-MQMQ 2.2.19.1
            self.bad(f"{w}: Signature is 0x{sig:08X} not 0x{SIGNATURE:08X}")
        if fl & 0x08:  # MS-MQMQ 2.2.20
            self.bad("MS-MQMQ 2.2.20: BaseHeader.Flags.IN is set on a UserMessage")
        if fl & 0x100 and not self.dh:  # MS-MQMQ 2.2.19.1
            self.bad(f"{w}: Flags.TR is set without Flags.DH")
        expect = len(self.d) - (16 if self.session else 0)
        if m.packet_size != expect:  # MS-MQMQ 2.2.19.1
            self.bad(f"{w}: PacketSize is {m.packet_size} but the packet is {expect} bytes")
        if m.packet_size % 4:  # MS-MQMQ 2.2.19.1 (every header is padded to 4)
            self.bad(f"{w}: PacketSize {m.packet_size} is not a multiple of 4")
        if m.packet_size > 0x00400000:  # MS-MQMQ 2.2.19.1
            self.bad(f"{w}: PacketSize {m.packet_size} exceeds 0x00400000")
        return 16

    def user(self, o: int) -> int:
        m, w = self.m, "MS-MQMQ 2.2.19.2"
        raw = self.need(o, 48, w + ": UserHeader")
        m.source_queue_manager = uuid.UUID(bytes_le=raw[:16])
        m.queue_manager_address = raw[16:32]
        m.time_to_be_received, m.sent_time, m.message_id, fl = struct.unpack_from("<4I", raw, 32)
        f = m.flags = {k: fl >> s & mask for k, (s, mask) in FLAG_BITS.items()}
        m.delivery_mode, m.transactional, m.is_srmp = f["DM"], bool(f["TH"]), bool(f["AH"])
        self.lay.srmp = m.is_srmp
        if f["RC"] > 0x1D:  # MS-MQMQ 2.2.19.2
            self.bad(f"{w}: RC is {f['RC']}, above 0x1D")
        if f["DM"] > 1:  # MS-MQMQ 2.2.19.2
            self.bad(f"{w}: DM is {f['DM']}, not 0 or 1")
        if f["TH"] and not f["DM"]:  # MS-MQMQ 2.2.19.2
            self.bad(f"{w}: TH is set with DM 0 (express)")
        if f["TH"] and m.priority:  # MS-MQMQ 2.2.19.1
            self.bad(f"MS-MQMQ 2.2.19.1: PR is {m.priority} but must be 0 on a transactional message")
        if not f["MP"]:  # MS-MQMQ 2.2.19.2
            self.bad(f"{w}: MP is clear; the MessagePropertiesHeader must always be present")
        if f["DQ"] not in (0, 3, 5, 7):  # MS-MQMQ 2.2.19.2
            self.bad(f"{w}: DQ is {f['DQ']}, not one of 0, 3, 5, 7")
        if f["AQ"] not in (0, 2, 3, 5, 6, 7):  # MS-MQMQ 2.2.19.2
            self.bad(f"{w}: AQ is {f['AQ']}, not one of 0, 2, 3, 5, 6, 7")
        if f["DQ"] == 7:
            alen, atype, scope = struct.unpack_from("<HHI", raw, 16)
            if atype not in (1, 6):  # MS-MQRR 2.2.5.1
                self.bad(f"MS-MQRR 2.2.5.1: overlay AddressType is {atype}, not 1 (IPv4) or 6 (IPv6)")
            if atype == 1 and scope:  # MS-MQRR 2.2.5.1
                self.bad(f"MS-MQRR 2.2.5.1: overlay AddressScope is {scope} on an IPv4 address")
        src, dst = m.source_queue_manager, uuid.UUID(bytes_le=raw[16:32])
        p = o + 48
        m.destination_queue, p, _ = self.queue("DQ", f["DQ"], p, o, src, dst, None, "")
        m.admin_queue, p, host = self.queue("AQ", f["AQ"], p, o, src, dst, None, "")
        m.response_queue, p, _ = self.queue("RQ", f["RQ"], p, o, src, dst, host, m.admin_queue,
                                            f["AQ"])
        if f["CQ"]:
            self.need(p, 16, w + ": ConnectorType")
            p += 16
        return p

    def queue(self, kind, val, p, hdr, src, dst, admin_host, admin_text, aq=0):
        """One DQ/AQ/RQ field: (format name, next offset, host GUID if a private name)."""
        w = f"MS-MQMQ 2.2.19.2: UserHeader {kind} field"
        if val == 0:
            return "", p, None
        if val == 1:  # same as the admin queue, nothing on the wire
            return admin_text, p, None
        if val in (2, 3, 4):
            qid = self.u32(p, w)
            host = {2: src, 3: dst, 4: admin_host}[val]
            if host is None:  # MS-MQMQ 2.2.19.2
                self.bad(f"MS-MQMQ 2.2.19.2: {kind} 4 names a private queue on the admin "
                         f"queue's host but AQ {aq} gives no host GUID")
                host = NIL_GUID
            return private_name(host, qid), p + 4, host
        if val == 5:
            return public_name(uuid.UUID(bytes_le=self.need(p, 16, w))), p + 16, None
        if val == 6:
            q = hdr + align4(p - hdr)  # MS-MQMQ 2.2.18.1.7.2
            guid = uuid.UUID(bytes_le=self.need(q, 16, w))
            return private_name(guid, self.u32(q + 16, w)), q + 20, guid
        count = self.u16(p, w)
        if count < 2 or count % 2:  # MS-MQMQ 2.2.18.1.5.2
            self.bad(f"MS-MQMQ 2.2.18.1.5.2: {kind} Count is {count}, not an even byte count "
                     "that includes the NUL")
        text, nul, rest = wstring(self.need(p + 2, count, w))
        if not nul or rest:  # MS-MQMQ 2.2.18.1.5.2
            self.bad(f"MS-MQMQ 2.2.18.1.5.2: {kind} direct name does not end with its only NUL")
        end = p + 2 + count
        q = hdr + align4(end - hdr)  # MS-MQMQ 2.2.18.1.5.2
        self.need(end, q - end, w + " padding")
        return direct_name(text), q, None

    def xact(self, o: int) -> int:
        m, w = self.m, "MS-MQMQ 2.2.20.5"
        fl, seq_id, seq_n, prev_n = struct.unpack("<I8sII", self.need(o, 20, w + ": TransactionHeader"))
        m.first_in_transaction, m.last_in_transaction = bool(fl & 4), bool(fl & 8)
        m.transaction_header = (fl, seq_id, seq_n, prev_n, self.need(o + 20, 16, w + ": ConnectorQMGuid")
                                if fl & 1 else b"")
        if seq_n == 0:  # MS-MQMQ 2.2.20.5
            self.bad(f"{w}: TxSequenceNumber is 0")
        if prev_n == 0xFFFFFFFF:  # MS-MQMQ 2.2.20.5
            self.bad(f"{w}: PreviousTxSequenceNumber is 0xFFFFFFFF")
        if fl & 1:
            self.need(o + 20, 16, w + ": ConnectorQMGuid")
            return o + 36
        return o + 20

    def security(self, o: int) -> int:
        w = "MS-MQMQ 2.2.20.6"
        fl, sid, key, sig, cert, prov = struct.unpack("<HHHHII", self.need(o, 16, w + ": SecurityHeader"))
        self.m.security_header = {"Flags": fl, "SenderIdSize": sid, "EncryptionKeySize": key, "SignatureSize": sig,
                                  "SenderCertSize": cert, "ProviderInfoSize": prov}
        for problem in security_header_problems(fl, sid, (sid, key, sig, cert, prov), cert):  # MS-MQMQ 2.2.20.6
            self.bad(problem)
        total = 16 + sum(align4(n) for n in (sid, key, sig, cert, prov))  # MS-MQMQ 2.2.20.6
        self.need(o, total, w + ": SecurityData")
        p = o + 16
        for name, size in zip(SECURITY_ITEMS, (sid, key, sig, cert, prov)):
            self.m.security_header[name] = bytes(self.need(p, size, f"{w}: {name}"))
            p += align4(size)  # MS-MQMQ 2.2.20.6 each item starts on a 4-byte boundary
        return o + total

    def props(self, o: int) -> int:
        m, w = self.m, "MS-MQMQ 2.2.19.3"
        raw = self.need(o, 56, w + ": MessagePropertiesHeader")
        (m.acknowledgements, lab_len, m.message_class) = struct.unpack_from("<BBH", raw)
        m.correlation_id = raw[4:24]
        (m.body_type, m.application_tag, m.body_size, alloc, m.privacy_level, m.hash_algorithm,
         m.encryption_algorithm, ext_size) = struct.unpack_from("<8I", raw, 24)
        if m.message_class & 0x1E00:  # MS-MQMQ 2.2.18.1.6
            self.bad(f"MS-MQMQ 2.2.18.1.6: MessageClass 0x{m.message_class:04X} is neither a "
                     "defined class nor within the custom mask 0xE1FF")
        if alloc < m.body_size:  # MS-MQMQ 2.2.19.3
            self.bad(f"{w}: AllocationBodySize {alloc} is below MessageSize {m.body_size}")
        for problem in property_problems(m.privacy_level, m.hash_algorithm, m.encryption_algorithm):
            self.bad(problem)  # MS-MQMQ 2.2.19.3 PrivacyLevel, HashAlgorithm, EncryptionAlgorithm
        if lab_len > 0xFA:  # MS-MQMQ 2.2.19.3
            self.bad(f"{w}: LabelLength is {lab_len}, above 0xFA")
        p = o + 56
        if lab_len:
            m.label, nul, rest = wstring(self.need(p, 2 * lab_len, w + ": Label"))
            if not nul or rest:  # MS-MQMQ 2.2.19.3
                self.bad(f"{w}: Label of {lab_len} WCHARs does not end with its only NUL")
        p += 2 * lab_len
        m.extension = self.need(p, ext_size, w + ": ExtensionData")
        p += ext_size
        self.lay.hdr_off, self.lay.unit_off, self.lay.unit_size = o, p, m.body_size
        end = p + m.body_size
        if self.gap and self.gap[0] < end:  # the tail of the body was not sent
            m.body = self.d[p:max(p, self.gap[0])]
        else:
            m.body = self.need(p, m.body_size, w + ": MessageBody")
        padded = o + align4(end - o)  # MS-MQMQ 2.2.19.3
        if not (self.gap and self.gap[0] < padded):
            self.need(end, padded - end, w + ": padding")
        return padded

    def debug(self, o: int) -> int:
        w = "MS-MQMQ 2.2.20.8"
        qt = self.u16(o, w + ": DebugHeader") & 3
        if qt > 1:  # MS-MQMQ 2.2.20.8
            self.bad(f"{w}: QT is {qt}, not 0 or 1")
        if qt == 1:
            self.need(o + 4, 16, w + ": QueueIdentifier")
            return o + 20
        self.need(o, 4, w + ": DebugHeader")
        return o + 4

    def envelope(self, o: int) -> int:
        w = "MS-MQRR 2.2.5.1.2.1"
        n = self.u32(o + 4, w + ": SRMPEnvelopeHeader")  # DataLength counts WCHARs
        text, nul, rest = wstring(self.need(o + 8, 2 * n, w + ": Data"))
        if not nul or rest:  # MS-MQRR 2.2.5.1.2.1
            self.bad(f"{w}: envelope of {n} WCHARs does not end with its only NUL")
        self.m.srmp_envelope = text
        end = o + align4(8 + 2 * n)
        self.need(o + 8 + 2 * n, end - o - 8 - 2 * n, w + ": padding")
        return end

    def compound(self, o: int) -> int:
        m, w = self.m, "MS-MQRR 2.2.5.1.2.2"
        self.lay.hdr_off = o
        self.lay.unit_off = self.lay.unit_size = None  # known once the 16 fixed bytes are read
        if self.gap and self.gap[0] < o + 16 <= self.gap[1]:
            # D-62 header: the cut fell inside the fixed part; the first section's SectionSizeAlloc (the
            # gap's end) is where the header ends, so the trailers can still be read
            m.compound_message = b""
            return self.gap[1]
        _, _, size, body_size, body_off = struct.unpack(
            "<HHIII", self.need(o, 16, w + ": CompoundMessageHeader"))
        self.lay.unit_off, self.lay.unit_size = o + 16, size
        m.compound_body = (body_off, body_size)
        if body_off + body_size > size:  # MS-MQRR 2.2.5.1.2.2
            self.bad(f"{w}: MsgBodyOffset {body_off} + MsgBodySize {body_size} runs past "
                     f"the {size}-byte Data")
        end, padded = o + 16 + size, o + align4(16 + size)
        if self.gap and self.gap[0] < end:
            m.compound_message = self.d[o + 16:max(o + 16, self.gap[0])]
        else:
            m.compound_message = self.need(o + 16, size, w + ": Data")
        if not (self.gap and self.gap[0] < padded):
            self.need(end, padded - end, w + ": padding")
        return padded

    def soap(self, o: int) -> int:
        w = "MS-MQMQ 2.2.20.7"
        for ident, part in ((0x0320, "Header"), (0x0384, "Body")):
            sid = self.u16(o, f"{w}: {part}SectionID")
            if sid != ident:  # MS-MQMQ 2.2.20.7
                self.bad(f"{w}: {part}SectionID is 0x{sid:04X} not 0x{ident:04X}")
            n = self.u32(o + 4, f"{w}: {part}DataLength")
            _, nul, rest = wstring(self.need(o + 8, 2 * n, f"{w}: {part}"))
            if n and (not nul or rest):  # MS-MQMQ 2.2.20.7
                self.bad(f"{w}: {part} of {n} WCHARs does not end with its only NUL")
            o += align4(8 + 2 * n)  # each part is padded to 4 like every header
        return o

    def mqf(self, o: int) -> int:
        w = "MS-MQMQ 2.2.20.2"
        for ident in (0x0064, 0x00C8, 0x012C):
            size, hid = struct.unpack("<IH", self.need(o, 6, w + ": MQFAddressHeader"))
            if hid != ident:  # MS-MQMQ 2.2.20.2
                self.bad(f"{w}: HeaderID is 0x{hid:04X} not 0x{ident:04X}")
            if size < 12:  # MS-MQMQ 2.2.20.2
                raise Short(f"{w}: HeaderSize {size} is below 12; the headers after it "
                             "cannot be located")
            self.need(o, size, w + ": MQFAddressHeader")
            o += align4(size)  # MS-MQMQ 2.2.20.1
        sid, _, size = struct.unpack("<HHI", self.need(o, 8, "MS-MQMQ 2.2.20.3: MQFSignatureHeader"))
        self.m.mqf_signature = (sid, size)
        if sid != 0x015E:  # MS-MQMQ 2.2.20.3
            self.bad(f"MS-MQMQ 2.2.20.3: ID is 0x{sid:04X} not 0x015E")
        self.need(o, align4(8 + size), "MS-MQMQ 2.2.20.3: Signature")
        return o + align4(8 + size)



def _guarded(work, msg: DecodedMessage) -> DecodedMessage:
    try:
        work()
    except Exception as exc:  # the reader reports problems, it never raises them
        msg.violations.append(f"mqspec packet_reader: internal error {exc!r}")
    return msg


def read_packet(data: bytes) -> DecodedMessage:
    """Decode one whole packet, as carried by a stFullPacket section."""
    msg = DecodedMessage()
    return _guarded(lambda: _Decoder(bytes(data), msg, None).run(), msg)


def read_sections(sections: Sequence[Section], dw_max_body_size: int,
                  dw_max_compound_message_size: int) -> DecodedMessage:
    """Check ppPacketSections against MS-MQRR 3.1.4.7 / 2.2.6, rebuild and decode."""
    msg = DecodedMessage()

    def work() -> None:
        out = msg.violations
        pieces = check_records(list(sections), out)
        if not pieces:
            return
        first = pieces[0].data
        lay = _Decoder(first, DecodedMessage(), None).run()  # locate the body only
        check_kinds(pieces, lay.srmp, out)
        place = judge_split(pieces, lay, dw_max_body_size, dw_max_compound_message_size, out)
        place = len(first) if place is None else max(place, len(first))
        tail = pieces[1].data if len(pieces) == 2 else b""
        gap = (len(first), place) if place > len(first) else None
        _Decoder(Spliced(first, place, tail), msg, gap).run()

    return _guarded(work, msg)
