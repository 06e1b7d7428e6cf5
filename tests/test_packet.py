"""Tests of reference.packet: the bytes are decoded here with struct at the offsets that
[MS-MQMQ] 2.2.19/2.2.20 and [MS-MQRR] 2.2.5-2.2.7 and 3.1.4.7 give, never with the
module's own helpers."""

import dataclasses
import struct
import uuid

import pytest
from hypothesis import given, settings, strategies as st

from mqspec.protocol.constants import INFINITE, SectionType
from mqspec.reference.enumerations import DeliveryGuarantee
from mqspec.reference.message import Message
from mqspec.reference.packet import PacketContext, build_packet, packet_sections, packet_size
from mqspec.reference.readings import Readings

SOURCE = uuid.UUID("11111111-2222-3333-4444-555555555555")
LOCAL = uuid.UUID("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")
OTHER = uuid.UUID("01234567-89ab-cdef-0123-456789abcdef")
PUBQ = uuid.UUID("fedcba98-7654-3210-fedc-ba9876543210")
IDENTIFIER = SOURCE.bytes_le + struct.pack("<I", 0x1234)
CTX = PacketContext(LOCAL.bytes_le, (1, bytes([10, 0, 0, 7])), acknowledgement_class=0x8002)

# Bit positions from the spec (bit 0 = least significant bit of the little-endian field).
DH, TR = 1 << 5, 1 << 8                       # BaseHeader.Flags
DM_SHIFT, DQ_SHIFT, AQ_SHIFT, RQ_SHIFT = 5, 10, 13, 16
JN, JP, SH, TH, MP, CQ, MQ, AH, HH = (1 << 8, 1 << 9, 1 << 19, 1 << 20, 1 << 21, 1 << 22,
                                      1 << 23, 1 << 25, 1 << 28)


def u16(data, off):
    return struct.unpack_from("<H", data, off)[0]


def u32(data, off):
    return struct.unpack_from("<I", data, off)[0]


def a4(n):
    return (n + 3) // 4 * 4


def msg(body=b"payload", **kw):
    kw.setdefault("identifier", IDENTIFIER)
    kw.setdefault("destination_queue_format_name", f"PRIVATE={LOCAL}\\0000000a")
    extra = kw.pop("extra", None)
    return Message(body, extra=extra, **kw)


def queue_field_size(code, data, off):
    """Size of one DestinationQueue/AdminQueue/ResponseQueue field (MS-MQMQ 2.2.19.2)."""
    if code in (0, 1):
        return 0
    if code in (2, 3, 4):
        return 4
    if code == 5:
        return 16
    if code == 6:
        return 20
    if code == 7:
        return a4(2 + u16(data, off))
    raise AssertionError(f"bad queue code {code}")


def walk(data):
    """Offsets of every header, found only from sizes and flags stored in the packet."""
    o = {"base": 0, "user": 16}
    bflags, uflags = u16(data, 2), u32(data, 16 + 44)
    q = 16 + 48
    o["queues"] = []
    for shift in (DQ_SHIFT, AQ_SHIFT, RQ_SHIFT):
        code = (uflags >> shift) & 7
        o["queues"].append((code, q))
        q += queue_field_size(code, data, q)
    if uflags & CQ:
        q += 16
    off = a4(q)
    if uflags & TH:
        o["xact"] = off
        off += 20 + (16 if u32(data, off) & 1 else 0)
    assert not uflags & SH
    o["props"] = off
    label_len, alloc, ext = data[off + 1], u32(data, off + 36), u32(data, off + 52)
    o["body"] = off + 56 + 2 * label_len + ext
    off += a4(56 + 2 * label_len + ext + alloc)
    o["props_end"] = off
    if bflags & DH:
        o["debug"] = off
        off += 4 + (16 if u16(data, off) & 3 == 1 else 0)
    if uflags & AH:
        o["envelope"] = off
        off += a4(8 + 2 * u32(data, off + 4))
        o["compound"] = off
        off += a4(16 + u32(data, off + 4))
        o["compound_end"] = off
    assert not uflags & (HH | MQ)
    o["ext"] = off
    eflags = data[off + 8]
    off += u32(data, off)
    o["sub"] = off
    off += u32(data, off)
    if eflags & 1:
        o["dl"] = off
        off += u32(data, off)
    o["ea"] = off
    off += u32(data, off)
    o["end"] = off
    return o


# ---------------------------------------------------------------- BaseHeader

def test_base_header_version_signature_size_and_relative_ttrq():
    data = build_packet(msg(time_to_reach_queue=3600, sent_time=1000), CTX).data
    assert data[0] == 0x10
    assert data[4:8] == b"LIOR"
    assert u32(data, 4) == 0x524F494C
    assert u32(data, 8) == len(data)
    assert u32(data, 12) == 3600  # the stored packet keeps the relative value
    assert walk(data)["end"] == len(data)


@pytest.mark.parametrize("priority", range(8))
def test_priority_in_bits_0_to_2(priority):
    data = build_packet(msg(priority=priority), CTX).data
    assert u16(data, 2) & 0x7 == priority
    assert u16(data, 2) & ~0x7 == 0


def test_captured_base_header_prefix_for_default_priority():
    assert build_packet(msg(), CTX).data[:8] == bytes.fromhex("10 00 03 00 4C 49 4F 52")


def test_transactional_message_has_priority_0_dm_1_and_transaction_header():
    m = msg(priority=6, transactional_message_sequence_identifier=struct.pack("<II", 7, 99),
            extra={"first_in_transaction": True, "last_in_transaction": True,
                   "final_ack_required": True, "transaction_sequence_number": 5,
                   "transaction_previous_sequence_number": 4})
    data = build_packet(m, CTX).data
    o = walk(data)
    uflags = u32(data, 60)
    assert u16(data, 2) & 7 == 0
    assert uflags & TH and (uflags >> DM_SHIFT) & 3 == 1
    x = o["xact"]
    assert u32(data, x) & 0xF == 0b1110  # CG=0, FA, FM, LM
    assert data[x + 4:x + 12] == struct.pack("<II", 7, 99)
    assert (u32(data, x + 12), u32(data, x + 16)) == (5, 4)
    assert o["props"] == x + 20


def test_tracing_sets_dh_tr_and_adds_debug_header_after_properties():
    data = build_packet(msg(extra={"tracing_requested": True}), CTX).data
    assert u16(data, 2) & (DH | TR) == DH | TR
    o = walk(data)
    assert o["debug"] == o["props_end"] and u16(data, o["debug"]) == 0
    assert o["ext"] == o["debug"] + 4
    assert u16(build_packet(msg(), CTX).data, 2) & (DH | TR) == 0


# ---------------------------------------------------------------- UserHeader

def test_user_header_fixed_fields():
    m = msg(time_to_be_received=77, sent_time=123456, delivery_guarantee=DeliveryGuarantee.Recoverable,
            negative_journaling_requested=True)
    data = build_packet(m, CTX).data
    assert data[16:32] == SOURCE.bytes_le
    assert data[32:48] == LOCAL.bytes_le  # private destination: the destination QM GUID
    assert (u32(data, 48), u32(data, 52), u32(data, 56)) == (77, 123456, 0x1234)
    uflags = u32(data, 60)
    assert (uflags >> DM_SHIFT) & 3 == 1
    assert uflags & MP and uflags & JN and not uflags & (JP | TH | AH | SH)
    assert (uflags >> DQ_SHIFT) & 7 == 3
    assert u32(data, 64) == 0x0A  # PrivateQueueFormatNameId


def test_express_message_has_dm_0():
    assert (u32(build_packet(msg(), CTX).data, 60) >> DM_SHIFT) & 3 == 0


def test_public_destination():
    data = build_packet(msg(destination_queue_format_name=f"public={str(PUBQ).upper()}"), CTX).data
    assert (u32(data, 60) >> DQ_SHIFT) & 7 == 5
    assert data[64:80] == PUBQ.bytes_le
    assert data[32:48] == LOCAL.bytes_le


def test_direct_destination_name_and_address_overlay():
    name = "OS:host\\private$\\q"
    data = build_packet(msg(destination_queue_format_name="DIRECT=" + name), CTX).data
    assert (u32(data, 60) >> DQ_SHIFT) & 7 == 7
    count = u16(data, 64)
    assert count == 2 * (len(name) + 1)
    assert data[66:66 + count] == name.encode("utf-16-le") + b"\0\0"
    assert walk(data)["props"] == a4(64 + 2 + count)
    # MS-MQRR 2.2.5.1: AddressLength, AddressType, AddressScope, Address (8 bytes)
    assert struct.unpack_from("<HHI", data, 32) == (4, 1, 0)
    assert data[40:48] == bytes([10, 0, 0, 7, 0, 0, 0, 0])


def test_direct_destination_ipv6_overlay_keeps_first_8_bytes():
    addr = bytes(range(1, 17))
    ctx = PacketContext(LOCAL.bytes_le, (6, addr), source_address_scope=3)
    data = build_packet(msg(destination_queue_format_name="DIRECT=TCP:10.0.0.1\\q"), ctx).data
    assert struct.unpack_from("<HHI", data, 32) == (8, 6, 3)
    assert data[40:48] == addr[:8]


@pytest.mark.parametrize("admin, code, payload", [
    (f"PRIVATE={SOURCE}\\1f", 2, struct.pack("<I", 0x1F)),
    (f"PRIVATE={LOCAL}\\2", 3, struct.pack("<I", 2)),
    (f"PRIVATE={OTHER}\\3", 6, OTHER.bytes_le + struct.pack("<I", 3)),
    (f"PUBLIC={PUBQ}", 5, PUBQ.bytes_le),
])
def test_admin_queue_codes(admin, code, payload):
    data = build_packet(msg(administration_queue_format_name=admin), CTX).data
    (_, dq_off), (aq_code, aq_off), (rq_code, _) = walk(data)["queues"]
    assert (aq_code, rq_code) == (code, 0)
    assert aq_off == dq_off + 4 and data[aq_off:aq_off + len(payload)] == payload


@pytest.mark.parametrize("response, code, payload", [
    (f"PRIVATE={SOURCE}\\5", 2, struct.pack("<I", 5)),
    (f"PRIVATE={LOCAL}\\5", 3, struct.pack("<I", 5)),
    (f"PRIVATE={OTHER}\\5", 4, struct.pack("<I", 5)),  # same host as the admin queue
    (f"PRIVATE={PUBQ}\\5", 6, PUBQ.bytes_le + struct.pack("<I", 5)),
    ("DIRECT=TCP:10.1.2.3\\private$\\r", 7, struct.pack("<H", 2 * (len("TCP:10.1.2.3\\private$\\r") + 1))),
])
def test_response_queue_codes(response, code, payload):
    m = msg(administration_queue_format_name=f"PRIVATE={OTHER}\\9", response_queue_format_name=response)
    data = build_packet(m, CTX).data
    _, (aq_code, aq_off), (rq_code, rq_off) = walk(data)["queues"]
    assert (aq_code, rq_code) == (6, code)
    assert rq_off == aq_off + 20 and data[rq_off:rq_off + len(payload)] == payload


def test_ack_flags_are_the_messages():
    """MS-MQDMPR 3.1.7.1.32 Flags from AcknowledgementsRequested, with or without an admin queue: a message that
    came asking for them without one keeps them (D-95 kept); one sent here gets none (D-59, arrival.py)."""
    with_admin = build_packet(msg(acknowledgements_requested=0xF,
                                  administration_queue_format_name=f"PRIVATE={SOURCE}\\1"), CTX).data
    assert with_admin[walk(with_admin)["props"]] == 0xF
    without = build_packet(msg(acknowledgements_requested=0xF), CTX).data
    assert without[walk(without)["props"]] == 0xF


# ---------------------------------------------------------------- MessagePropertiesHeader

def test_properties_header_label_extension_and_body():
    m = msg(b"0123456789", label="héllo", extension=b"EXT", message_class=0x4000,
            correlation_identifier=bytes(range(20)), body_type=0x1011, application_tag=42,
            privacy_level=0)
    layout = build_packet(m, CTX)
    data, p = layout.data, walk(layout.data)["props"]
    assert data[p + 1] == 6  # five WCHARs + NUL
    assert u16(data, p + 2) == 0x4000
    assert data[p + 4:p + 24] == bytes(range(20))
    assert (u32(data, p + 24), u32(data, p + 28)) == (0x1011, 42)
    assert (u32(data, p + 32), u32(data, p + 36), u32(data, p + 52)) == (10, 10, 3)
    assert data[p + 56:p + 68] == "héllo\0".encode("utf-16-le")
    assert data[p + 68:p + 71] == b"EXT"
    assert layout.header_size == p + 71 and data[p + 71:p + 81] == b"0123456789"
    assert layout.actual_message_size == 10
    assert layout.trailer_offset == p + a4(56 + 12 + 3 + 10) == walk(data)["ext"]


def test_empty_label_has_length_0_and_no_label_bytes():
    data = build_packet(msg(b"xy", label=""), CTX).data
    p = walk(data)["props"]
    assert data[p + 1] == 0 and data[p + 56:p + 58] == b"xy"


def test_label_is_limited_to_249_wchars_plus_nul():
    label = "ab" + "\U0001F600" * 124  # 250 UTF-16 units; unit 249 is half of a pair
    data = build_packet(msg(label=label), CTX).data
    p = walk(data)["props"]
    assert data[p + 1] == 0xF9  # "ab" + 123 pairs = 248 units, + NUL; no pair is split
    text = data[p + 56:p + 56 + 2 * 0xF9].decode("utf-16-le")
    assert text == "ab" + "\U0001F600" * 123 + "\0"
    data = build_packet(msg(label="c" * 260), CTX).data
    assert data[walk(data)["props"] + 1] == 0xFA


def test_every_header_is_4_byte_aligned():
    m = msg(b"abc", label="x", extension=b"12345", destination_queue_format_name="DIRECT=OS:h\\q1",
            administration_queue_format_name="DIRECT=OS:hh\\adm",
            response_queue_format_name=f"PRIVATE={OTHER}\\7",
            transactional_message_sequence_identifier=bytes(8),
            extra={"tracing_requested": True, "deadletter_path_name": "h\\dlq1"})
    o = walk(build_packet(m, CTX).data)
    offsets = [o[k] for k in ("base", "user", "xact", "props", "props_end", "debug", "ext", "sub", "dl",
                              "ea", "end")] + [off for _, off in o["queues"]]
    assert all(off % 4 == 0 for off in offsets), o


# ---------------------------------------------------------------- MS-MQRR trailers

def test_extension_subqueue_and_extended_address_headers():
    m = msg(extra={"abort_counter": 2, "move_counter": 3, "last_move_time": 1234,
                   "subqueue_name": "poison", "target_subqueue_name": "retry"})
    data = build_packet(m, CTX).data
    o = walk(data)
    e = o["ext"]
    assert (u32(data, e), u32(data, e + 4)) == (12, len(data) - e - 12)
    assert data[e + 8] & 0x12 == 0x12 and not data[e + 8] & 0x01  # SQ and EA, no DL
    s = o["sub"]
    assert s == e + 12 and u32(data, s) == 148
    word = u32(data, s + 4)
    assert word & 1 == 0 and (word >> 1) & 0xFFFF == 0x8002
    assert (u32(data, s + 8), u32(data, s + 12), u32(data, s + 16)) == (2, 3, 1234)
    assert data[s + 20:s + 84] == "poison".encode("utf-16-le").ljust(64, b"\0")
    assert data[s + 84:s + 148] == "retry".encode("utf-16-le").ljust(64, b"\0")
    a = o["ea"]
    assert a == s + 148 and a + 28 == len(data)
    assert struct.unpack_from("<IHHI", data, a) == (28, 4, 1, 0)
    assert data[a + 12:a + 28] == bytes([10, 0, 0, 7]) + bytes(12)


def test_unknown_source_address_gives_type_0_and_null_overlay():
    ctx = PacketContext(LOCAL.bytes_le)
    data = build_packet(msg(destination_queue_format_name="DIRECT=OS:h\\q"), ctx).data
    assert u16(data, walk(data)["ea"] + 6) == 0
    assert data[32:48] == bytes(16)


def test_long_subqueue_name_keeps_a_nul():
    data = build_packet(msg(extra={"subqueue_name": "s" * 32}), CTX).data
    field = data[walk(data)["sub"] + 20:][:64]
    assert field[:62] == ("s" * 31).encode("utf-16-le") and field[62:] == b"\0\0"


def test_dead_letter_header():
    ctx = PacketContext(LOCAL.bytes_le, dead_letter_queue_invalid=True)
    data = build_packet(msg(extra={"deadletter_path_name": "host\\private$\\dlq1"}), ctx).data
    o = walk(data)
    assert data[o["ext"] + 8] & 0x1B == 0x1B  # DL, SQ, DI, EA
    d, name = o["dl"], "host\\private$\\dlq1\0".encode("utf-16-le")  # 38 bytes: needs padding
    assert d == o["sub"] + 148 and u32(data, d) == a4(4 + len(name))
    assert data[d + 4:d + 4 + len(name)] == name
    assert u32(data, o["ext"] + 4) == 148 + u32(data, d) + 28


# ---------------------------------------------------------------- SectionBuffers

def test_full_packet_when_limit_covers_body():
    layout = build_packet(msg(b"x" * 100), CTX)
    for limit in (100, 1000, INFINITE):
        (only,) = packet_sections(layout, limit, 0)
        assert only.section_buffer_type == SectionType.stFullPacket == 0
        assert only.section_size == only.section_size_alloc == len(layout.data)
        assert only.p_section_buffer[16:] == layout.data[16:]


@pytest.mark.parametrize("limit", [0, 1, 7, 99])
def test_two_sections_when_body_is_cut(limit):
    body = bytes(range(100)) + b"z"  # 101 bytes: the header ends with 3 pad bytes or fewer
    layout = build_packet(msg(body, label="ab"), CTX)
    data, o = layout.data, walk(layout.data)
    first, second = packet_sections(layout, limit, 1 << 30)
    assert (first.section_buffer_type, second.section_buffer_type) == (1, 2)
    assert first.section_size == len(first.p_section_buffer) == o["body"] + limit
    assert first.section_size_alloc == o["props_end"] == layout.trailer_offset
    assert first.section_size_alloc - first.section_size >= len(body) - limit
    assert second.section_size == second.section_size_alloc == len(data) - o["props_end"]
    joined = first.p_section_buffer + second.p_section_buffer
    assert joined[16:] == data[16:o["body"]] + body[:limit] + data[o["ext"]:]
    # A client copying each section at the running sum of SectionSizeAlloc gets every
    # header back at its offset; only the unsent body bytes (and padding) differ.
    rebuilt = bytearray(b"\xfd" * (first.section_size_alloc + second.section_size_alloc))
    rebuilt[:first.section_size] = first.p_section_buffer
    rebuilt[first.section_size_alloc:] = second.p_section_buffer
    assert len(rebuilt) == len(data) == u32(rebuilt, 8)
    assert rebuilt[o["ext"]:] == data[o["ext"]:] and walk(bytes(rebuilt))["end"] == len(data)


def test_ttrq_becomes_absolute_in_first_section_only():
    layout = build_packet(msg(b"x" * 50, sent_time=1_000_000, time_to_reach_queue=3600), CTX)
    first, second = packet_sections(layout, 10, 0)
    assert u32(first.p_section_buffer, 12) == 1_003_600
    assert u32(layout.data, 12) == 3600 and second.p_section_buffer == layout.data[layout.trailer_offset:]
    (full,) = packet_sections(layout, 50, 0)
    assert u32(full.p_section_buffer, 12) == 1_003_600


@pytest.mark.parametrize("sent, ttrq, expected", [
    (1_700_000_000, INFINITE, INFINITE),
    (0xFFFFFF00, 0x200, 0xFFFFFFFE),
    (0xFFFFFF00, 0xFF, 0xFFFFFFFE),   # a finite sum must not read as INFINITE
    (0xFFFFFF00, 0xFE, 0xFFFFFFFE),
    (0, 0, 0),
])
def test_ttrq_infinite_and_overflow(sent, ttrq, expected):
    layout = build_packet(msg(sent_time=sent, time_to_reach_queue=ttrq), CTX)
    (full,) = packet_sections(layout, INFINITE, INFINITE)
    assert u32(full.p_section_buffer, 12) == expected


# ---------------------------------------------------------------- SRMP

ENVELOPE = "<se:Envelope>é</se:Envelope>"
COMPOUND = b"POST /msmq HTTP/1.1\r\n\r\n" + b"B" * 40 + b"--end"


def srmp_msg(**kw):
    extra = {"soap_envelope": ENVELOPE, "soap_compound_message": COMPOUND, "soap_body_offset": 23}
    return msg(b"B" * 40, extra=extra, **kw)


def test_srmp_headers():
    layout = build_packet(srmp_msg(), CTX)
    data, o = layout.data, walk(layout.data)
    assert u32(data, 60) & AH and layout.is_srmp
    assert u32(data, o["props"] + 32) == 0  # the body travels in the compound message
    env = o["envelope"]
    assert env == o["props_end"]
    assert u16(data, env) == 400 and u32(data, env + 4) == len(ENVELOPE) + 1
    assert data[env + 8:env + 8 + 2 * (len(ENVELOPE) + 1)] == (ENVELOPE + "\0").encode("utf-16-le")
    c = o["compound"]
    assert u16(data, c) == 500
    assert (u32(data, c + 4), u32(data, c + 8), u32(data, c + 12)) == (len(COMPOUND), 40, 23)
    assert data[c + 16:c + 16 + len(COMPOUND)] == COMPOUND
    # D-62 header: actualMessageSize is the whole CompoundMessageHeader, counted from its start
    assert (layout.header_size, layout.actual_message_size) == (c, 16 + len(COMPOUND))
    assert layout.trailer_offset == o["compound_end"] == o["ext"]
    assert not u32(build_packet(msg(), CTX).data, 60) & AH
    data_reading = build_packet(srmp_msg(), dataclasses.replace(CTX, readings=Readings.parse("D-62:data")))
    assert (data_reading.header_size, data_reading.actual_message_size) == (c + 16, len(COMPOUND))
    assert data_reading.data == layout.data


@pytest.mark.parametrize("reading", ["header", "data"])
def test_srmp_sections_use_compound_limit(reading):
    layout = build_packet(srmp_msg(), dataclasses.replace(CTX, readings=Readings.parse(f"D-62:{reading}")))
    fixed = 16 if reading == "header" else 0  # D-62: the CompoundMessageHeader's fixed part counts or not
    (full,) = packet_sections(layout, 0, fixed + len(COMPOUND))  # dwMaxBodySize is ignored for SRMP
    assert full.section_buffer_type == 0 and full.section_size == len(layout.data)
    first, second = packet_sections(layout, 1 << 30, fixed + len(COMPOUND) - 1)
    assert (first.section_buffer_type, second.section_buffer_type) == (3, 4)
    first, second = packet_sections(layout, 1 << 30, 10)
    assert (first.section_buffer_type, second.section_buffer_type) == (3, 4)
    assert first.p_section_buffer[16:] == layout.data[16:layout.header_size + 10]
    assert first.section_size_alloc == layout.trailer_offset
    assert second.p_section_buffer == layout.data[layout.trailer_offset:]


# ---------------------------------------------------------------- packet_size

GUIDS = st.sampled_from([SOURCE, LOCAL, OTHER, PUBQ]) | st.uuids()
NAMES = st.one_of(
    st.just(""),
    st.builds(lambda g, n, p: f"{p}={g}\\{n:x}", GUIDS, st.integers(0, 0xFFFFFFFF),
              st.sampled_from(["PRIVATE", "private"])),
    st.builds(lambda g: f"PUBLIC={str(g).upper()}", GUIDS),
    st.builds(lambda t: "DIRECT=OS:" + t, st.text(min_size=1, max_size=60)),
    st.builds(lambda g: f"PRIVATE={g}\\1;JOURNAL", GUIDS),
    st.sampled_from(["MACHINE=" + str(OTHER), "DIRECT=", "PRIVATE=junk\\zz"]),
)
CONTEXTS = st.builds(
    PacketContext, st.binary(min_size=16, max_size=16),
    st.none() | st.tuples(st.just(1), st.binary(min_size=4, max_size=4))
    | st.tuples(st.just(6), st.binary(min_size=16, max_size=16)),
    st.integers(0, 0xFFFF))


@st.composite
def messages(draw):
    extra = {"tracing_requested": draw(st.booleans())}
    if draw(st.booleans()):
        extra["deadletter_path_name"] = draw(st.text(max_size=40))
    if draw(st.booleans()):
        extra.update(soap_envelope=draw(st.text(max_size=50)),
                     soap_compound_message=draw(st.binary(max_size=70)), soap_body_offset=0)
    return Message(
        draw(st.binary(max_size=300)), label=draw(st.text(max_size=260)),
        priority=draw(st.integers(0, 7)), extension=draw(st.binary(max_size=30)),
        identifier=draw(st.sampled_from([SOURCE, OTHER])).bytes_le + b"\1\0\0\0",
        destination_queue_format_name=draw(NAMES), administration_queue_format_name=draw(NAMES),
        response_queue_format_name=draw(NAMES), acknowledgements_requested=draw(st.integers(0, 15)),
        transactional_message_sequence_identifier=draw(st.none() | st.binary(min_size=8, max_size=8)),
        extra=extra)


@settings(max_examples=400, deadline=None)
@given(messages(), CONTEXTS)
def test_packet_size_matches_built_packet(m, ctx):
    layout = build_packet(m, ctx)
    assert packet_size(m) == len(layout.data) == u32(layout.data, 8)
    o = walk(layout.data)
    assert o["end"] == len(layout.data)
    assert layout.trailer_offset == (o["compound_end"] if m.is_srmp else o["props_end"])
    assert u32(layout.data, o["ext"] + 4) == len(layout.data) - o["ext"] - 12
    aligned = [o[k] for k in ("user", "props", "props_end", "ext", "sub", "dl", "ea", "envelope",
                              "compound", "compound_end", "xact", "debug") if k in o]
    assert all(off % 4 == 0 for off in aligned), o
