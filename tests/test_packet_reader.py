"""Tests for steps.packet_reader: packets are built here by hand from the spec tables."""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mqspec.steps.packet_reader import Section, read_packet, read_sections

SRC = uuid.UUID("11111111-2222-3333-4444-555555555555")
DST = uuid.UUID("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")
OTHER = uuid.UUID("01234567-89ab-cdef-0123-456789abcdef")


def a4(n: int) -> int:
    return (n + 3) & ~3


def pad4(b: bytes, rel: int = 0) -> bytes:
    return b + bytes(a4(rel + len(b)) - rel - len(b))


def wz(text: str) -> bytes:
    return (text + "\0").encode("utf-16-le")


@dataclass
class Built:
    packet: bytes
    body_off: int      # MessageBody, or CompoundMessageHeader.Data for SRMP
    body_end: int      # end of the body / compound data, before padding
    hdr_end: int       # end of the MessagePropertiesHeader / CompoundMessageHeader, padded


def queue_bytes(code: int, value, hdr_len: int) -> bytes:
    """One DQ/AQ/RQ field (MS-MQMQ 2.2.18.1.5, 2.2.18.1.7); hdr_len = UserHeader bytes so far."""
    if code in (0, 1):
        return b""
    if code in (2, 3, 4):
        return struct.pack("<I", value)
    if code == 5:
        return value.bytes_le
    if code == 6:
        return value[0].bytes_le + struct.pack("<I", value[1])
    name = wz(value)
    return pad4(struct.pack("<H", len(name)) + name, hdr_len)


def build(*, priority=3, label="", body=b"", ext=b"", mclass=0, corr=bytes(20), body_type=0x1011,
          app_tag=0, acks=0, privacy=0, dq=(3, 7), aq=(0, None), rq=(0, None), dm=1, cq=False,
          xact=None, security=None, debug=None, srmp=None, soap=None, mqf=False, session=False,
          subqueue="", ack_class=0, counters=(0, 0, 0), deadletter=None, ext_flags=None,
          ext_addr=(4, 1, 0, bytes([10, 0, 0, 1])), qma=None, base_extra=0, user_extra=0,
          version=0x10, signature=0x524F494C, packet_size=None, lab_len=None,
          sub_size=148, addr_size=28, rem_delta=0, tail=b"") -> Built:
    uflags = (dm << 5 | dq[0] << 10 | aq[0] << 13 | rq[0] << 16 | 1 << 21 | user_extra)
    uflags |= (security is not None) << 19 | (xact is not None) << 20 | cq << 22
    uflags |= mqf << 23 | (srmp is not None) << 25 | (soap is not None) << 28
    if dq[0] == 7 and qma is None:  # MS-MQRR 2.2.5.1 overlay: IPv4 10.0.0.1
        qma = struct.pack("<HHI8s", 4, 1, 0, bytes([10, 0, 0, 1]))
    uh = SRC.bytes_le + (qma if qma is not None else DST.bytes_le)
    uh += struct.pack("<IIII", 86400, 1_700_000_000, 42, uflags)
    for code, value in (dq, aq, rq):
        uh += queue_bytes(code, value, len(uh))
    if cq:
        uh += OTHER.bytes_le
    out = uh
    if xact is not None:
        fl, seq, prev = xact
        out += struct.pack("<IQII", fl, 0x0000000500000009, seq, prev)
        if fl & 1:
            out += OTHER.bytes_le
    if security is not None:
        sizes = security
        out += struct.pack("<HHHHII", 0x0002, *sizes) + b"".join(pad4(b"\x5a" * n) for n in sizes)
    mph_off = 16 + len(out)
    lab = wz(label) if label else b""
    mph = struct.pack("<BBH20sIIIIIIII", acks, len(lab) // 2 if lab_len is None else lab_len,
                      mclass, corr, body_type, app_tag, len(body), len(body), privacy, 0x800E,
                      0x6610 if privacy == 5 else 0x6801, len(ext)) + lab + ext  # AES only with level 5
    body_off = mph_off + len(mph)
    mph = pad4(mph + body)
    out += mph
    body_end, hdr_end = body_off + len(body), mph_off + len(mph)
    if debug is not None:
        out += struct.pack("<HH", debug, 0) + (OTHER.bytes_le if debug == 1 else b"")
    if srmp is not None:
        env, data = srmp
        out += pad4(struct.pack("<HHI", 1, 0, len(wz(env)) // 2) + wz(env))
        cmh_off = 16 + len(out)
        out += pad4(struct.pack("<HHIII", 2, 0, len(data), min(3, len(data)), 0) + data)
        body_off, body_end, hdr_end = cmh_off + 16, cmh_off + 16 + len(data), 16 + len(out)
    if soap is not None:
        out += pad4(struct.pack("<HHI", 0x0320, 0, len(wz(soap[0])) // 2) + wz(soap[0]))
        out += pad4(struct.pack("<HHI", 0x0384, 0, len(wz(soap[1])) // 2) + wz(soap[1]))
    if mqf:
        for hid in (0x64, 0xC8, 0x12C):
            elem = struct.pack("<H", 1) + b"\0\0" + OTHER.bytes_le  # public name element
            out += pad4(struct.pack("<IHHI", 12 + len(elem), hid, 0, 1) + elem)
        out += pad4(struct.pack("<HHI", 0x015E, 0, 3) + b"sig")
    if session:
        out += struct.pack("<HHIHHHH", 1, 0, 0, 1, 0, 0x40, 0)
    sq = struct.pack("<5I", sub_size, ack_class << 1, *counters)
    sq += wz(subqueue).ljust(64, b"\0") if subqueue else bytes(64)
    sq += bytes(64)
    trail = sq
    if deadletter is not None:
        dl = pad4(wz(deadletter))
        trail += struct.pack("<I", 4 + len(dl)) + dl
    alen, atype, scope, addr = ext_addr
    trail += struct.pack("<IHHI16s", addr_size, alen, atype, scope, addr)
    flags = (0b10010 | (deadletter is not None)) if ext_flags is None else ext_flags
    out += struct.pack("<IIB3s", 12, len(trail) + rem_delta, flags, b"\0\0\0") + trail + tail
    bflags = priority | session << 4 | (debug is not None) << 5 | base_extra
    size = 16 + len(out) - (16 if session else 0) if packet_size is None else packet_size
    base = struct.pack("<BBHIII", version, 0, bflags, signature, size, 1_700_086_400)
    return Built(base + out, body_off, body_end, hdr_end)


def full(b: Built) -> list[Section]:
    n = len(b.packet)
    return [Section(0, n, n, b.packet)]


def split(b: Built, limit: int, padded: bool = True, srmp: bool = False) -> list[Section]:
    """Windows-style split (padded=True) or spec-literal split with padding in section 2."""
    cut = b.body_off + limit
    end = b.hdr_end if padded else b.body_end
    second = b.packet[end:]
    t1, t2 = (3, 4) if srmp else (1, 2)
    return [Section(t1, end, cut, b.packet[:cut]), Section(t2, len(second), len(second), second)]


def clean(msg) -> None:
    assert msg.violations == []


def has(msg, *parts: str) -> None:
    assert any(all(p in v for p in parts) for v in msg.violations), msg.violations


# ---------------------------------------------------------------- well-formed packets


def test_captured_base_header_bytes_decode_as_priority_3():
    msg = read_packet(bytes.fromhex("100003004C494F52") + struct.pack("<II", 16, 0))
    assert msg.priority == 3
    assert not any("Signature" in v or "VersionNumber" in v for v in msg.violations)
    has(msg, "MS-MQMQ 2.2.19.2", "UserHeader needs 48 bytes")


def test_minimal_binary_message():
    b = build()
    msg = read_packet(b.packet)
    clean(msg)
    assert (msg.priority, msg.packet_size, msg.time_to_reach_queue) == (3, len(b.packet), 1_700_086_400)
    assert msg.source_queue_manager == SRC and msg.queue_manager_address == DST.bytes_le
    assert (msg.time_to_be_received, msg.sent_time, msg.message_id) == (86400, 1_700_000_000, 42)
    assert msg.destination_queue == f"PRIVATE={DST}\\00000007"
    assert msg.admin_queue == msg.response_queue == ""
    assert msg.flags["MP"] == 1 and msg.flags["DQ"] == 3 and msg.delivery_mode == 1
    assert set(msg.flags) == {"RC", "DM", "JN", "JP", "DQ", "AQ", "RQ", "SH", "TH", "MP", "CQ",
                              "MQ", "AH", "HH"}
    assert (msg.body, msg.body_size, msg.label, msg.is_srmp) == (b"", 0, "", False)
    assert msg.transactional is False and msg.first_in_transaction is None
    assert msg.extension_header["SQ"] == 1 and msg.extension_header["EA"] == 1
    assert msg.extended_address["address_type"] == 1
    assert msg.deadletter_path_name is None and msg.subqueue_name == ""
    clean(read_sections(full(b), 0, 0))


def test_label_body_and_properties():
    b = build(label="hello wörld", body=b"\x01\x02\x03\x04\x05", ext=b"xyz", mclass=0x8002,
              corr=bytes(range(20)), body_type=8, app_tag=77, acks=0, privacy=3)
    msg = read_packet(b.packet)
    clean(msg)
    assert msg.label == "hello wörld" and msg.body == b"\x01\x02\x03\x04\x05"
    assert (msg.body_size, msg.extension, msg.message_class) == (5, b"xyz", 0x8002)
    assert (msg.correlation_id, msg.body_type, msg.application_tag) == (bytes(range(20)), 8, 77)
    assert msg.privacy_level == 3


@pytest.mark.parametrize("dq, want", [
    ((3, 0x12), f"PRIVATE={DST}\\00000012"),
    ((5, OTHER), f"PUBLIC={OTHER}"),
    ((7, "OS:host\\private$\\q"), "DIRECT=OS:host\\private$\\q"),
    ((7, "TCP:10.0.0.9\\private$\\qq"), "DIRECT=TCP:10.0.0.9\\private$\\qq"),
    ((7, "DIRECT=OS:h\\q1"), "DIRECT=OS:h\\q1"),
    ((7, "OS:host\\private$\\qq"), "DIRECT=OS:host\\private$\\qq"),  # needs 2 padding bytes
    ((7, "OS:h\\q"), "DIRECT=OS:h\\q"),
])
def test_destination_queue_forms(dq, want):
    msg = read_packet(build(dq=dq, aq=(2, 9), rq=(6, (OTHER, 4))).packet)
    clean(msg)
    assert msg.destination_queue == want
    # the fields after DestinationQueue only line up if its size and padding were right
    assert msg.admin_queue == f"PRIVATE={SRC}\\00000009"
    assert msg.response_queue == f"PRIVATE={OTHER}\\00000004"


@pytest.mark.parametrize("aq, rq, admin, response", [
    ((2, 5), (1, None), f"PRIVATE={SRC}\\00000005", f"PRIVATE={SRC}\\00000005"),
    ((3, 6), (3, 1), f"PRIVATE={DST}\\00000006", f"PRIVATE={DST}\\00000001"),
    ((5, OTHER), (5, SRC), f"PUBLIC={OTHER}", f"PUBLIC={SRC}"),
    ((6, (OTHER, 0xABC)), (4, 0x10), f"PRIVATE={OTHER}\\00000abc", f"PRIVATE={OTHER}\\00000010"),
    ((2, 1), (4, 2), f"PRIVATE={SRC}\\00000001", f"PRIVATE={SRC}\\00000002"),
    ((7, "OS:adm\\private$\\a"), (6, (SRC, 3)), "DIRECT=OS:adm\\private$\\a", f"PRIVATE={SRC}\\00000003"),
    ((0, None), (7, "OS:r\\q"), "", "DIRECT=OS:r\\q"),
])
def test_admin_and_response_queue_forms(aq, rq, admin, response):
    msg = read_packet(build(aq=aq, rq=rq, cq=True).packet)
    clean(msg)
    assert (msg.admin_queue, msg.response_queue) == (admin, response)


def test_transactional_message_with_transaction_header():
    msg = read_packet(build(priority=0, xact=(0b1101 | 0x55 << 4, 3, 2)).packet)
    clean(msg)
    assert msg.transactional and msg.flags["TH"] == 1
    assert msg.first_in_transaction is True and msg.last_in_transaction is True
    msg = read_packet(build(priority=0, xact=(0x10, 1, 0)).packet)
    clean(msg)
    assert (msg.first_in_transaction, msg.last_in_transaction) == (False, False)
    msg = read_packet(build(priority=0, xact=(0x4, 1, 0)).packet)
    clean(msg)
    assert (msg.first_in_transaction, msg.last_in_transaction) == (True, False)


@pytest.mark.parametrize("qt", [0, 1])
def test_debug_header_is_skipped(qt):
    msg = read_packet(build(debug=qt, base_extra=0x100, body=b"abc").packet)
    clean(msg)
    assert msg.body == b"abc" and msg.extended_address["header_size"] == 28


def test_security_soap_mqf_and_session_headers_are_skipped():
    b = build(security=(16, 0, 5, 0, 0), soap=("<h/>", "<b/>x"), mqf=True, session=True,
              deadletter="DIRECT=OS:x\\private$\\dl", body=b"payload")
    msg = read_packet(b.packet)
    clean(msg)
    assert msg.packet_size == len(b.packet) - 16
    assert msg.body == b"payload" and msg.deadletter_path_name == "DIRECT=OS:x\\private$\\dl"


def test_srmp_message_whole():
    env = "<se:Envelope>hi</se:Envelope>"
    b = build(srmp=(env, b"POST /msmq HTTP/1.1\r\n\r\nbody!"), body=b"body!")
    msg = read_packet(b.packet)
    clean(msg)
    assert msg.is_srmp and msg.flags["AH"] == 1
    assert msg.srmp_envelope == env
    assert msg.compound_message == b"POST /msmq HTTP/1.1\r\n\r\nbody!"
    clean(read_sections(full(b), 0, 10_000))


def test_srmp_message_truncated_compound():
    data = b"POST /msmq HTTP/1.1\r\n\r\n" + bytes(range(50))
    b = build(srmp=("<e/>", data), body=b"xx")
    msg = read_sections(split(b, 10, srmp=True), 0, 10)
    clean(msg)
    assert msg.compound_message == data[:10] and msg.body == b"xx"
    assert msg.extension_header["SQ"] == 1


def test_srmp_limit_counted_with_or_without_the_fixed_header_part():
    """MS-MQRR 3.1.4.7 sizes the CompoundMessageHeader; both readings of that size pass."""
    data = bytes(range(40))
    b = build(srmp=("<e/>", data))
    clean(read_sections(full(b), 0, 45))  # 45 >= 40 bytes of Data
    cmh = b.body_off - 16
    cut = cmh + 45  # 45 < 16 + 40 bytes of header: the split is also allowed
    second = b.packet[b.hdr_end:]
    msg = read_sections([Section(3, b.hdr_end, cut, b.packet[:cut]),
                         Section(4, len(second), len(second), second)], 0, 45)
    clean(msg)
    assert msg.compound_message == data[:29]
    has(read_sections(full(b), 0, 39), "MS-MQRR 3.1.4.7", "exceeds dwMaxCompoundMessageSize 39")


def test_trailers_with_and_without_deadletter():
    msg = read_packet(build(deadletter="q\\dead", subqueue="poison", ack_class=0xC002,
                            counters=(2, 5, 1234)).packet)
    clean(msg)
    assert msg.deadletter_path_name == "q\\dead" and msg.extension_header["DL"] == 1
    assert (msg.subqueue_name, msg.acknowledgement_class) == ("poison", 0xC002)
    assert (msg.abort_counter, msg.move_counter, msg.last_move_time) == (2, 5, 1234)
    msg = read_packet(build().packet)
    assert msg.deadletter_path_name is None and msg.extension_header["DL"] == 0


@pytest.mark.parametrize("padded", [True, False])
@pytest.mark.parametrize("body_len, limit", [(103, 10), (100, 0), (9, 8)])
def test_truncated_two_section_delivery(padded, body_len, limit):
    body = bytes((i * 7) & 0xFF for i in range(body_len))
    b = build(body=body, label="L", deadletter="dl")
    msg = read_sections(split(b, limit, padded), limit, 0)
    clean(msg)
    assert msg.body == body[:limit] and msg.body_size == body_len
    assert msg.label == "L" and msg.deadletter_path_name == "dl"
    assert msg.extended_address["address"][:4] == bytes([10, 0, 0, 1])


# ---------------------------------------------------------------- malformed packets


@pytest.mark.parametrize("kwargs, parts", [
    (dict(signature=0x524F494D), ("MS-MQMQ 2.2.19.1", "Signature is 0x524F494D not 0x524F494C")),
    (dict(version=0x11), ("MS-MQMQ 2.2.19.1", "VersionNumber is 0x11")),
    (dict(packet_size=999), ("MS-MQMQ 2.2.19.1", "PacketSize is 999 but the packet is")),
    (dict(base_extra=0x08), ("MS-MQMQ 2.2.20", "Flags.IN is set")),
    (dict(base_extra=0x100), ("MS-MQMQ 2.2.19.1", "TR is set without Flags.DH")),
    (dict(user_extra=0x1E), ("MS-MQMQ 2.2.19.2", "RC is 30")),
    (dict(dm=0, xact=(4, 1, 0), priority=0), ("MS-MQMQ 2.2.19.2", "TH is set with DM 0")),
    (dict(xact=(4, 1, 0)), ("MS-MQMQ 2.2.19.1", "PR is 3")),
    (dict(xact=(4, 0, 0), priority=0), ("MS-MQMQ 2.2.20.5", "TxSequenceNumber is 0")),
    (dict(user_extra=0, dq=(1, None)), ("MS-MQMQ 2.2.19.2", "DQ is 1")),
    (dict(aq=(4, 3)), ("MS-MQMQ 2.2.19.2", "AQ is 4")),
    (dict(aq=(5, OTHER), rq=(4, 1)), ("MS-MQMQ 2.2.19.2", "RQ 4", "AQ 5")),
    (dict(mclass=0x0200), ("MS-MQMQ 2.2.18.1.6", "MessageClass 0x0200")),
    (dict(privacy=2), ("MS-MQMQ 2.2.19.3", "PrivacyLevel is 2")),
    (dict(label="x" * 250), ("MS-MQMQ 2.2.19.3", "LabelLength is 251, above 0xFA")),
    (dict(label="ab", lab_len=2), ("MS-MQMQ 2.2.19.3", "does not end with its only NUL")),
    (dict(label="a\0b"), ("MS-MQMQ 2.2.19.3", "does not end with its only NUL")),
    (dict(dq=(7, "OS:h\\q"), qma=DST.bytes_le), ("MS-MQRR 2.2.5.1", "AddressType is")),
    (dict(security=(0, 0, 0, 0, 0)), ("MS-MQMQ 2.2.20.6", "every SecurityData size is zero")),
    (dict(debug=2), ("MS-MQMQ 2.2.20.8", "QT is 2")),
    (dict(ext_flags=0b10000), ("MS-MQRR 2.2.5.2", "Flags.SQ is clear")),
    (dict(ext_flags=0b00010), ("MS-MQRR 2.2.5.2", "Flags.EA is clear")),
    (dict(rem_delta=4), ("MS-MQRR 2.2.5.2", "RemainingHeadersSize is")),
    (dict(sub_size=140), ("MS-MQRR 2.2.5.3", "HeaderSize is 140 not 148")),
    (dict(ack_class=0, counters=(0, 0, 0), subqueue="s" * 40), ("MS-MQRR 2.2.5.3", "SubqueueName")),
    (dict(addr_size=24), ("MS-MQRR 2.2.5.5", "HeaderSize is 24 not 28")),
    (dict(ext_addr=(4, 3, 0, bytes(16))), ("MS-MQRR 2.2.5.5", "AddressType is 3")),
    (dict(ext_addr=(4, 1, 7, bytes(16))), ("MS-MQRR 2.2.5.5", "AddressScope is 7")),
    (dict(tail=b"\0" * 4), ("MS-MQRR 2.2.5", "4 bytes follow the last header")),
    (dict(tail=b"\0" * 2), ("MS-MQMQ 2.2.19.1", "not a multiple of 4")),
])
def test_malformed_packet_reports_specific_violation(kwargs, parts):
    has(read_packet(build(**kwargs).packet), *parts)


def test_acknowledgments_without_an_admin_queue_are_a_reading_not_a_violation():
    """D-95: a packet that came with acknowledgments and no AdminQueue may read back with them (kept)."""
    msg = read_packet(build(acks=0x0F).packet)
    clean(msg)
    assert msg.acknowledgements == 0x0F and msg.admin_queue == ""


def test_malformed_subqueue_name_without_nul():
    b = bytearray(build(subqueue="x").packet)
    start = b.find(wz("x"))
    b[start:start + 64] = b"y\0" * 32
    has(read_packet(bytes(b)), "MS-MQRR 2.2.5.3", "SubqueueName is not a NUL-terminated")


def test_mp_flag_clear_is_reported():
    b = bytearray(build().packet)
    struct.pack_into("<I", b, 16 + 44, struct.unpack_from("<I", b, 60)[0] & ~(1 << 21))
    has(read_packet(bytes(b)), "MS-MQMQ 2.2.19.2", "MP is clear")


@pytest.mark.parametrize("cut, part", [
    (0, "BaseHeader needs 16 bytes"), (30, "UserHeader needs 48 bytes"),
    (70, "MessagePropertiesHeader needs 56 bytes"), (-20, "ExtendedAddressHeader needs 28 bytes"),
])
def test_short_buffer_names_the_header_that_ran_out(cut, part):
    b = build().packet
    msg = read_packet(b[:cut] if cut >= 0 else b[:len(b) + cut])
    has(msg, part)
    if cut >= 64:
        assert msg.source_queue_manager == SRC  # what was read before the end stays


def _with(s: Section, **kw) -> Section:
    d = dict(section_buffer_type=s.section_buffer_type, section_size_alloc=s.section_size_alloc,
             section_size=s.section_size, p_section_buffer=s.p_section_buffer)
    d.update(kw)
    return Section(**d)


def test_section_type_must_match_ah_flag():
    secs = split(build(srmp=("<e/>", b"x" * 40)), 4, srmp=True)
    bad = [_with(secs[0], section_buffer_type=1), _with(secs[1], section_buffer_type=2)]
    has(read_sections(bad, 0, 4), "MS-MQRR 2.2.7", "stBinaryFirstSection", "AH is set")
    secs = split(build(body=b"z" * 40), 4)
    bad = [_with(secs[0], section_buffer_type=3), _with(secs[1], section_buffer_type=4)]
    has(read_sections(bad, 4, 0), "MS-MQRR 2.2.7", "stSrmpFirstSection", "AH is clear")


BODY40 = build(body=bytes(range(40)), label="lbl")


@pytest.mark.parametrize("make, limit, parts", [
    (lambda: [], 100, ("MS-MQRR 3.1.4.7", "0 sections")),
    (lambda: full(BODY40) * 3, 100, ("MS-MQRR 3.1.4.7", "3 sections")),
    (lambda: full(BODY40), 39, ("MS-MQRR 3.1.4.7", "40 bytes exceeds dwMaxBodySize 39")),
    (lambda: split(BODY40, 40), 40, ("MS-MQRR 3.1.4.7", "fits dwMaxBodySize 40")),
    (lambda: [_with(full(BODY40)[0], section_size=12)], 100, ("MS-MQRR 2.2.6", "SectionSize is 12")),
    (lambda: [_with(full(BODY40)[0], section_size_alloc=9)], 100, ("MS-MQRR 2.2.6", "SectionSizeAlloc 9")),
    (lambda: [_with(full(BODY40)[0], section_buffer_type=7)], 100, ("MS-MQRR 2.2.7", "type 7")),
    (lambda: split(BODY40, 11), 10, ("MS-MQRR 3.1.4.7", "first section holds")),
    (lambda: [_with(split(BODY40, 10)[0], section_size_alloc=BODY40.hdr_end + 4),
              split(BODY40, 10)[1]], 10, ("MS-MQRR 3.1.4.7", "first SectionSizeAlloc is")),
    (lambda: [split(BODY40, 10)[0], _with(split(BODY40, 10)[1], section_buffer_type=4)], 10,
     ("MS-MQRR 3.1.4.7", "must be types (1, 2) or (3, 4)")),
    (lambda: split(BODY40, 10)[:1], 10, ("MS-MQRR 3.1.4.7", "without the second section")),
    (lambda: [split(BODY40, 10)[0], _with(split(BODY40, 10)[1], section_size_alloc=1)], 10,
     ("MS-MQRR 2.2.6", "SectionSizeAlloc 1 != SectionSize")),
    (lambda: [_with(split(BODY40, 10)[0], section_size_alloc=5)], 10,
     ("MS-MQRR 2.2.6", "SectionSizeAlloc 5 < SectionSize")),
])
def test_section_rules(make, limit, parts):
    has(read_sections(make(), limit, 0), *parts)


def test_section_rules_do_not_fire_on_a_good_split():
    clean(read_sections(split(BODY40, 10), 10, 0))
    clean(read_sections(full(BODY40), 40, 0))


def test_trailers_misplaced_in_second_section_are_reported():
    secs = split(BODY40, 10)
    moved = secs[1].p_section_buffer[4:] + bytes(4)
    msg = read_sections([secs[0], _with(secs[1], p_section_buffer=moved)], 10, 0)
    has(msg, "MS-MQRR 2.2.5.2")


# ---------------------------------------------------------------- properties


labels = st.text(st.characters(min_codepoint=1, max_codepoint=0xFFFF, blacklist_categories=("Cs",)),
                 max_size=249)
classes = st.one_of(st.sampled_from([0, 1, 2, 0xFF, 0x4000, 0x8000, 0x800B, 0xC004]),
                    st.integers(0, 0xFFFF).map(lambda c: c & 0xE1FF))


@settings(max_examples=150, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
@given(label=labels, body=st.binary(max_size=300), priority=st.integers(0, 7), mclass=classes,
       limit=st.integers(0, 400))
def test_round_trip(label, body, priority, mclass, limit):
    b = build(label=label, body=body, priority=priority, mclass=mclass)
    msg = read_packet(b.packet)
    clean(msg)
    assert (msg.label, msg.body, msg.priority, msg.message_class) == (label, body, priority, mclass)
    secs = full(b) if limit >= len(body) else split(b, limit)
    msg = read_sections(secs, limit, 0)
    clean(msg)
    assert msg.body == body[:limit] and msg.body_size == len(body) and msg.label == label


def _no_internal_error(msg) -> None:
    assert not any("internal error" in v for v in msg.violations), msg.violations


@settings(max_examples=300, deadline=1000)
@given(st.binary(max_size=600))
def test_random_bytes_never_raise(data):
    msg = read_packet(data)
    _no_internal_error(msg)
    assert msg.violations  # random bytes are never a valid packet


@settings(max_examples=300, deadline=1000)
@given(st.lists(st.tuples(st.integers(-2, 6), st.integers(0, 2000), st.integers(0, 2000),
                          st.binary(max_size=400)), max_size=3),
       st.integers(0, 500), st.integers(0, 500))
def test_random_sections_never_raise(raw, max_body, max_cmh):
    _no_internal_error(read_sections([Section(*r) for r in raw], max_body, max_cmh))


GOOD = build(label="fuzz", body=bytes(range(64)), aq=(7, "OS:a\\private$\\b"), rq=(1, None),
             deadletter="dl", xact=(0xC, 1, 0), priority=0, srmp=("<e/>", b"POST x" * 9)).packet


@settings(max_examples=300, deadline=1000)
@given(st.lists(st.tuples(st.integers(0, len(GOOD) - 1), st.integers(0, 255)), min_size=1,
                max_size=6), st.integers(0, 200))
def test_mutated_packets_never_raise(edits, limit):
    data = bytearray(GOOD)
    for pos, val in edits:
        data[pos] = val
    _no_internal_error(read_packet(bytes(data)))
    n = len(data)
    _no_internal_error(read_sections([Section(3, n, limit, bytes(data[:limit])),
                                      Section(4, n - limit, n - limit, bytes(data[limit:]))], 5, 5))
