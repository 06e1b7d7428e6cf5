"""Public bytes of real MSMQ traffic, read by the reference's reader and by the suite's readers field by field.

The vectors (tests/vectors/) carry their sources: MS-MQQB 4.1's eight frames of a Windows session, Metasploit's
QueueJumper UserMessage and its malformed twin, and the EstablishConnection of the 1801 scanners.  Every expected
value below is read off the published hex, not off a reader; where the document's parsed text says otherwise, the
test is named after the contradiction (CONTRADICTIONS) and says what the text claims.
"""

from __future__ import annotations

import struct

import pytest

from mqspec.adapters import connect
from mqspec.reference import mqqb_packets as ref
from mqspec.reference.mqqb_packets import PacketFormatError
from mqspec.adapters.mqqb import packets as suite
from mqspec.steps.packet_reader import read_packet
from mqspec.tests.vectors import metasploit_queuejumper as msf
from mqspec.tests.vectors import mqqb_4_1 as v
from mqspec.tests.vectors.port_1801_scanners import SCANNER_ESTABLISH_REQUEST

CLIENT_GUID = bytes.fromhex("D1587355509195954997B6E611EA26C6")   # FRAME 3 ClientGuid, wire order
SERVER_GUID = bytes.fromhex("0789CD434C39118F44459078909EA0FC")   # FRAME 3 ServerGuid
F4_CLIENT = bytes.fromhex("0523741F5EBE7741BC77C4DD7719E474")     # FRAME 4's two GUIDs
F4_SERVER = bytes.fromhex("EB6A3A3C67F5434187D385CF4D68CEB4")
TIMESTAMP = 0x1DDECA4E
SID = bytes.fromhex("010500000000000515000000AD4A9EBD36D9FA3D63A656DAE8030000")  # S-1-5-21-...-1000


def both_framings(packet: bytes) -> tuple[int | None, list[bytes]]:
    """The reference's frame_length and the suite's Stream on the same bytes."""
    return ref.frame_length(packet), suite.Stream().feed(packet)


# -- FRAMES 1 and 2: the UDP ping (MS-MQQB 2.1.2), no reader of 1801 applies ---------------------------------

def test_frames_1_and_2_are_the_24_byte_ping_of_the_session():
    for frame in (v.FRAME1_PING_REQUEST, v.FRAME2_PING_RESPONSE):
        assert len(frame) == 24 and frame[4:8] == b"\x04\x00\x00\x00"   # MS-MQQB 2.1.2 signature 4
    assert v.FRAME1_PING_REQUEST[8:24] == CLIENT_GUID and v.FRAME2_PING_RESPONSE[8:24] == SERVER_GUID


# -- FRAMES 3 and 4: EstablishConnection -----------------------------------------------------------------------

@pytest.mark.parametrize("frame, client, server, reserved", [
    (v.FRAME3_ESTABLISH_REQUEST, CLIENT_GUID, SERVER_GUID, 0xC0),
    (v.FRAME4_ESTABLISH_RESPONSE, F4_CLIENT, F4_SERVER, 0x5A)])
def test_the_establish_connection_frames_read_field_by_field(frame, client, server, reserved):
    assert both_framings(frame) == (572, [frame])
    assert frame[1] == reserved                       # BaseHeader.Reserved: whatever Windows had there, ignored
    assert ref.packet_kind(frame) == "EstablishConnection"
    fields, internal_flags = ref.read_internal(frame, "EstablishConnection")
    assert (fields[0], fields[1], fields[2], fields[3], fields[4], internal_flags) == \
        (client, server, TIMESTAMP, 0x0310, 0, 0x0002)
    got = suite.decode(frame)
    assert (got.kind, got.base_flags, got.time_to_reach_queue, got.packet_size, got.internal_flags, got.problems) == \
        ("EstablishConnection", 0x000B, 0xFFFFFFFF, 572, 0x0002, [])
    assert got.fields == (client, server, TIMESTAMP, 0x0310, 0) and got.padding == b"\x5A" * 512


def test_contradiction_frame_3_and_4_guids():
    """The text prints {C626EA11-E6B6-9749-9595-9150557358D1} as ClientGUID of both frames: FRAME 3's 16 bytes read
    backwards. The hex of FRAME 3 holds D1 58 ... 26 C6, and FRAME 4's hex two other GUIDs altogether."""
    assert v.FRAME3_ESTABLISH_REQUEST[20:36] == CLIENT_GUID == bytes(reversed(bytes.fromhex(
        "C626EA11E6B6974995959150557358D1")))
    assert ref.read_internal(v.FRAME4_ESTABLISH_RESPONSE, "EstablishConnection")[0][:2] == (F4_CLIENT, F4_SERVER)
    assert "FRAME 3 and 4 GUIDs" in v.CONTRADICTIONS


def test_contradiction_frame_3_and_4_operating_system():
    """The text gives Reserved 784 (0x310) and OperatingSystem 0; the hex puts 0x0310 in OperatingSystem (RE 0x10,
    SE, OS: a server-class initiator, D-87) and 0 in Reserved."""
    for frame in (v.FRAME3_ESTABLISH_REQUEST, v.FRAME4_ESTABLISH_RESPONSE):
        assert struct.unpack_from("<HH", frame, 56) == (0x0310, 0)
    assert "FRAME 3 and 4 OperatingSystem" in v.CONTRADICTIONS


def test_windows_priority_3_on_internal_packets():
    """D-86: Windows writes BaseHeader.Flags 0x000B (IN, priority 3) on FRAMES 3 - 6 and 0x001B on FRAME 8."""
    for frame in (v.FRAME3_ESTABLISH_REQUEST, v.FRAME4_ESTABLISH_RESPONSE, v.FRAME5_PARAMETERS_REQUEST,
                  v.FRAME6_PARAMETERS_RESPONSE):
        assert suite.decode(frame).base_flags == 0x000B and suite.decode(frame).priority == 3
    assert suite.decode(v.FRAME8_SESSION_ACK).base_flags == 0x001B


# -- FRAMES 5 and 6: ConnectionParameters ------------------------------------------------------------------------

@pytest.mark.parametrize("frame", [v.FRAME5_PARAMETERS_REQUEST, v.FRAME6_PARAMETERS_RESPONSE])
def test_the_connection_parameters_frames_read_field_by_field(frame):
    assert both_framings(frame) == (32, [frame])
    assert ref.packet_kind(frame) == "ConnectionParameters"
    # RecoverableAckTimeout 0x5D8 (1,496 ms), AckTimeout 0x1D4C0 (120,000 ms), Reserved 0, WindowSize 0x40
    assert ref.read_internal(frame, "ConnectionParameters") == ((0x05D8, 0x0001D4C0, 0, 0x0040), 0x0003)
    got = suite.decode(frame)
    assert (got.kind, got.fields, got.problems) == ("ConnectionParameters", (0x05D8, 0x0001D4C0, 0, 0x0040), [])


def test_contradiction_frame_6_window_size():
    """The text gives FRAME 6 WindowSize 32 (0x20); the hex is 0x0040 (64), FRAME 5 byte for byte."""
    assert v.FRAME6_PARAMETERS_RESPONSE == v.FRAME5_PARAMETERS_REQUEST
    assert ref.read_internal(v.FRAME6_PARAMETERS_RESPONSE, "ConnectionParameters")[0][3] == 0x40
    assert "FRAME 6 WindowSize" in v.CONTRADICTIONS


# -- FRAME 7: a UserMessage ----------------------------------------------------------------------------------

def test_contradiction_frame_7_length_the_published_dump_is_short():
    """PacketSize says 2,224 bytes; the published dump holds 1,650. Both readers wait for the rest, and a reader
    handed the short bytes as a packet refuses them (the body runs past what is there)."""
    assert len(v.FRAME7_PUBLISHED) == 1650 and struct.unpack_from("<I", v.FRAME7_PUBLISHED, 8) == (0x8B0,)
    assert both_framings(v.FRAME7_PUBLISHED) == (2224, [])
    with pytest.raises(PacketFormatError):
        ref.read_user_message(v.FRAME7_PUBLISHED)
    assert suite.decode(v.FRAME7_PUBLISHED).problems
    assert "FRAME 7 length" in v.CONTRADICTIONS


def test_frame_7_whole_read_by_the_reference_field_by_field():
    frame = v.FRAME7_WHOLE
    assert both_framings(frame) == (2224, [frame]) and ref.packet_kind(frame) == "UserMessage"
    m = ref.read_user_message(frame)
    assert (m.base_flags, m.time_to_reach_queue) == (0x0003, 0x00054600)
    assert (m.source_queue_manager, m.queue_manager_address) == (CLIENT_GUID, bytes(16))
    assert (m.time_to_be_received, m.sent_time, m.message_id, m.flags) == (0xFFFFFFFF, 0x524F494C, 0x8EE, 0x00281C00)
    assert (m.code("DQ"), m.code("AQ"), m.code("RQ"), m.code("DM")) == (7, 0, 0, 0)
    assert (m.destination, m.admin, m.response) == ("DIRECT=OS:a04bm02\\q", "", "")
    assert (m.security_flags, m.signature_size, m.transaction, m.session_header) == (0x0001, 0, None, None)
    assert (m.acknowledgements, m.label, m.message_class, m.correlation_id) == (0x0F, "mqsender label", 0, bytes(20))
    assert (m.body_type, m.application_tag, m.privacy_level, m.extension) == (8, 0, 0, b"")
    assert m.body == v.FRAME7_BODY


def test_frame_7_whole_read_by_the_suite_field_by_field():
    got = suite.decode(v.FRAME7_WHOLE)
    assert (got.kind, got.source_queue_manager, got.message_id, got.user_flags) == \
        ("UserMessage", CLIENT_GUID, 0x8EE, 0x00281C00)
    assert (got.label, got.message_class, got.body, got.problems) == ("mqsender label", 0, v.FRAME7_BODY, [])
    d = read_packet(v.FRAME7_WHOLE)   # the suite's strict reader of MS-MQMQ packets (its MS-MQRR trailers aside)
    assert (d.priority, d.packet_size, d.time_to_reach_queue, d.sent_time, d.message_id) == \
        (3, 2224, 0x00054600, 0x524F494C, 0x8EE)
    assert (d.destination_queue, d.label, d.body_size, d.body_type, d.acknowledgements) == \
        ("DIRECT=OS:a04bm02\\q", "mqsender label", 2000, 8, 0x0F)
    assert d.security_header == {"Flags": 1, "SenderIdSize": 28, "EncryptionKeySize": 0, "SignatureSize": 0,
                                 "SenderCertSize": 0, "ProviderInfoSize": 0, "SecurityID": SID, "EncryptionKey": b"",
                                 "Signature": b"", "SenderCert": b"", "ProviderInfo": b""}
    assert v.FRAME7_WHOLE[108:136] == SID   # the SenderId after the SecurityHeader's 16 fixed bytes at 92
    assert (d.hash_algorithm, d.encryption_algorithm) == (0x8004, 0x6801)


def test_contradiction_frame_7_sent_time():
    """The text gives SentTime 1141966310 (0x441105E6); the hex holds 0x524F494C, the bytes 'LIOR'."""
    assert v.FRAME7_WHOLE[52:56] == b"LIOR" and ref.read_user_message(v.FRAME7_WHOLE).sent_time == 0x524F494C
    assert "FRAME 7 SentTime" in v.CONTRADICTIONS


def test_contradiction_frame_7_allocated_body_size():
    """The text gives AllocatedBodySize 20 and a 20-byte body; the hex holds 2,000 for MessageSize and
    AllocatedBodySize alike."""
    assert struct.unpack_from("<II", v.FRAME7_WHOLE, 168) == (2000, 2000)
    assert "FRAME 7 AllocatedBodySize" in v.CONTRADICTIONS


def test_contradiction_frame_7_encryption_algorithm():
    """The text gives EncryptionAlgorithm 26113 (0x6601) and calls it RC4; the hex is 0x6801, CALG_RC4."""
    assert struct.unpack_from("<I", v.FRAME7_WHOLE, 184) == (0x6801,)
    assert "FRAME 7 EncryptionAlgorithm" in v.CONTRADICTIONS


# -- FRAME 8: a Windows SessionAck (D-85) -----------------------------------------------------------------------

def test_contradiction_frame_8_packet_size_and_both_readers_frame_it():
    """PacketSize 36 counts the SessionHeader, which MS-MQMQ 2.2.19.1 leaves out (it would say 20): D-85's
    windows reading. Both readers frame the 36 bytes as one packet and wait for nothing more."""
    assert struct.unpack_from("<I", v.FRAME8_SESSION_ACK, 8) == (36,) and len(v.FRAME8_SESSION_ACK) == 36
    assert both_framings(v.FRAME8_SESSION_ACK) == (36, [v.FRAME8_SESSION_ACK])
    assert ref.packet_kind(v.FRAME8_SESSION_ACK) == "SessionAck"
    # AckSequenceNumber 1, RecoverableMsgAckSeqNumber 0, flags 0, UserMsgSequenceNumber 0, RecoverableMsgSeqNumber 0,
    # WindowSize 0x40, Reserved 0
    assert ref.read_internal(v.FRAME8_SESSION_ACK, "SessionAck") == ((1, 0, 0, 0, 0, 0x40, 0), 0x0001)
    got = suite.decode(v.FRAME8_SESSION_ACK)
    assert (got.kind, got.fields, got.session_ack_framing, got.problems) == \
        ("SessionAck", (1, 0, 0, 0, 0, 0x40, 0), "windows", [])
    assert "FRAME 8 PacketSize" in v.CONTRADICTIONS


def test_a_windows_sessionack_then_a_user_message_are_cut_where_they_end():
    """The stream a FRAME 8 peer sends: its SessionAck, then FRAME 7. Neither reader loses the message."""
    stream = v.FRAME8_SESSION_ACK + v.FRAME7_WHOLE
    assert ref.frame_length(stream) == 36 and ref.frame_length(stream[36:]) == 2224
    assert suite.Stream().feed(stream) == [v.FRAME8_SESSION_ACK, v.FRAME7_WHOLE]


def test_a_text_framed_sessionack_is_read_alike_and_other_packet_sizes_are_refused():
    text = v.FRAME8_SESSION_ACK[:8] + struct.pack("<I", 20) + v.FRAME8_SESSION_ACK[12:]
    assert both_framings(text) == (36, [text]) and suite.decode(text).session_ack_framing == "text"
    odd = v.FRAME8_SESSION_ACK[:8] + struct.pack("<I", 28) + v.FRAME8_SESSION_ACK[12:]
    with pytest.raises(PacketFormatError):
        ref.frame_length(odd)
    stream = suite.Stream()
    assert stream.feed(odd) == [] and "2.2.6" in stream.broken


@pytest.mark.parametrize("reading, size", [("text", 20), ("windows", 36)])
def test_the_reference_writes_the_sessionack_its_reading_of_d85_says(reading, size):
    packet = ref.session_ack((1, 0, 0, 0, 0, 0x40, 0), 3 if reading == "windows" else 0, reading == "windows")
    assert len(packet) == 36 and struct.unpack_from("<I", packet, 8) == (size,)
    if reading == "windows":   # Windows' bytes, its Reserved byte (0xCD in FRAME 8, ignored) aside
        assert packet[:1] + packet[2:] == v.FRAME8_SESSION_ACK[:1] + v.FRAME8_SESSION_ACK[2:]


# -- the public 1801 scanners -------------------------------------------------------------------------------------

def test_the_scanners_establish_connection_reads_as_frame_3_and_is_refused():
    assert both_framings(SCANNER_ESTABLISH_REQUEST) == (572, [SCANNER_ESTABLISH_REQUEST])
    assert ref.read_internal(SCANNER_ESTABLISH_REQUEST, "EstablishConnection")[0] == \
        (CLIENT_GUID, SERVER_GUID, TIMESTAMP, 0x0310, 0)
    with connect("reference") as target:
        connection = target.mqqb_connect()
        connection.send(SCANNER_ESTABLISH_REQUEST)
        (answer,) = [suite.decode(p) for p in suite.Stream().feed(connection.receive())]
        # MS-MQQB 2.2.1 CS: the ServerGuid is the Windows host of MS-MQQB 4.1, not this queue manager
        assert answer.internal_flags & 0x10 and answer.fields[0] == CLIENT_GUID and connection.closed


def test_the_malformed_queuejumper_message_differs_in_one_byte_and_the_strict_reader_refuses_it():
    differing = [i for i, (a, b) in enumerate(zip(msf.MESSAGE_NORMAL, msf.MESSAGE_MALFORMED)) if a != b]
    assert differing == [235] and msf.MESSAGE_MALFORMED[235] == 0x80
    normal = set(read_packet(msf.MESSAGE_NORMAL).violations)
    assert [line for line in read_packet(msf.MESSAGE_MALFORMED).violations if line not in normal]


def test_the_malformed_queuejumper_message_is_refused_by_the_session_readers():
    with pytest.raises(PacketFormatError):
        ref.read_user_message(msf.MESSAGE_MALFORMED)
    assert suite.decode(msf.MESSAGE_MALFORMED).problems


@pytest.mark.parametrize("reading", ["close", "answer"])
def test_a_sessionless_queuejumper_message_is_closed_or_answered_as_d88_says(reading):
    url = "reference" if reading == "close" else "reference?readings=D-88:answer"
    with connect(url) as target:
        connection = target.mqqb_connect()
        connection.send(msf.MESSAGE_NORMAL)
        data = connection.receive()
        packets = [suite.decode(p) for p in suite.Stream().feed(data)]
        assert connection.closed
        if reading == "close":
            assert data == b""
        else:   # a refused EstablishConnection naming the sender: it holds "LIOR", as the scanners expect
            (answer,) = packets
            assert (answer.kind, answer.internal_flags & 0x10, answer.fields[0]) == ("EstablishConnection", 0x10,
                                                                                     bytes(16))
            assert b"LIOR" in data
