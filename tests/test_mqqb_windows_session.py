"""The client side of MS-MQQB 4.1's Windows session, replayed to `mqspec serve` over TCP, in real time.

FRAMES 3, 5 and 7 (tests/vectors/mqqb_4_1.py) go to the served MS-MQQB port with only what must change for
another queue manager adapted: FRAME 3's ServerGuid (the served queue manager's GUID), FRAME 5's AckTimeout
(20,000 ms, so that the SessionAck is due within 10 s: MS-MQQB 3.1.5.8.2 starts the Session Ack Send timer at
AckWaitTimeout / 2) and FRAME 7's direct destination (a queue of the served computer) and SentTime (now).  The
answers must be FRAMES 4, 6 and 8 as the served reference's readings write them (D-85 - D-87), the SessionAck
must come in real time with no control call, and the message must read back over MS-MQRR as it was sent.
"""

from __future__ import annotations

import struct
import time

import pytest

from mqspec.adapters import connect
from mqspec.adapters.in_process import InProcessTarget
from mqspec.adapters.mqqb.tcp import TcpMqqbConnection
from mqspec.adapters.serve import serve
from mqspec.adapters.mqqb import packets as suite
from mqspec.steps.packet_reader import read_packet
from mqspec.tests.vectors import mqqb_4_1 as v

pytestmark = pytest.mark.slow
ACK_TIMEOUT = 20_000
WINDOWS = "D-85:windows,D-86:nonzero,D-87:set"   # the readings under which the reference writes Windows' bytes


def adapted_frame3(server_guid: bytes) -> bytes:
    return v.FRAME3_ESTABLISH_REQUEST[:36] + server_guid + v.FRAME3_ESTABLISH_REQUEST[52:]   # ServerGuid at 36


def adapted_frame5() -> bytes:
    return v.FRAME5_PARAMETERS_REQUEST[:24] + struct.pack("<I", ACK_TIMEOUT) + v.FRAME5_PARAMETERS_REQUEST[28:]


def adapted_frame7(direct_name: str, sent_time: int) -> bytes:
    """FRAME7_WHOLE with another DirectQueueFormatName (MS-MQMQ 2.2.18.1.5.2: Count in bytes, NUL included,
    padded so the next header starts 4-aligned from the UserHeader) and SentTime; PacketSize follows."""
    text = (direct_name + "\0").encode("utf-16-le")
    field = struct.pack("<H", len(text)) + text
    field += bytes(-len(field) % 4)
    frame = v.FRAME7_WHOLE
    packet = frame[:52] + struct.pack("<I", sent_time) + frame[56:64] + field + frame[92:]
    return packet[:8] + struct.pack("<I", len(packet)) + packet[12:]


def answers(connection: TcpMqqbConnection, stream: suite.Stream, count: int, seconds: float) -> list[bytes]:
    got: list[bytes] = []
    deadline = time.monotonic() + seconds
    while len(got) < count and time.monotonic() < deadline and not connection.closed:
        got += stream.feed(connection.receive(200))
    return got


@pytest.mark.parametrize("readings", ["", WINDOWS], ids=["text", "windows"])
def test_the_windows_session_is_answered_as_windows_answered_it(readings):
    hosted = InProcessTarget(readings=readings)
    with serve(hosted) as served:
        created = hosted.create_queue(f"{hosted.computer_name}\\q")
        assert created.hresult == 0
        guid = hosted.queue_manager_identifier
        connection = TcpMqqbConnection("127.0.0.1", served.control.mqqb_port)
        stream = suite.Stream()
        connection.send(adapted_frame3(guid))
        (raw4,) = answers(connection, stream, 1, 5)
        connection.send(adapted_frame5())
        (raw6,) = answers(connection, stream, 1, 5)
        sent_time = int(time.time())
        frame7 = adapted_frame7(f"OS:{hosted.computer_name}\\q", sent_time)
        began = time.monotonic()
        connection.send(frame7)
        (raw8,) = answers(connection, stream, 1, ACK_TIMEOUT / 1000)
        waited = time.monotonic() - began
        connection.close()
        frame4, frame6, frame8 = (suite.decode(raw) for raw in (raw4, raw6, raw8))

        # FRAME 4 (MS-MQQB 3.1.5.3.1): the request's ClientGuid and TimeStamp, this queue manager as ServerGuid
        windows = bool(readings)
        assert (frame4.kind, frame4.internal_flags, frame4.packet_size) == ("EstablishConnection", 0x0002, 572)
        assert frame4.fields == (v.FRAME3_ESTABLISH_REQUEST[20:36], guid, 0x1DDECA4E, 0x0310 if windows else 0x0110, 0)
        assert frame4.base_flags == (0x000B if windows else 0x0008)    # D-86: FRAME 4's 0x000B under `nonzero`
        assert frame4.padding == b"\x5A" * 512                          # as FRAME 4: MS-MQQB 2.2.3.1
        # FRAME 6 (3.1.5.4.1): the request's time-outs, a window of 64 (FRAME 6's hex)
        assert (frame6.kind, frame6.fields, frame6.packet_size) == ("ConnectionParameters", (1496, ACK_TIMEOUT, 0, 64), 32)
        # FRAME 8 (3.1.6.4): one message received, nothing recoverable; PacketSize 36 under D-85 `windows`
        assert (frame8.kind, frame8.fields) == ("SessionAck", (1, 0, 0, 0, 0, 64, 0))
        assert frame8.packet_size == (36 if windows else 20) and frame8.session_ack_framing == ("windows" if windows else "text")
        if windows:  # Windows' bytes, but for BaseHeader.Reserved (ignored), FRAME 4's GUIDs and the adapted AckTimeout
            # (FRAME 6 echoes FRAME 5's, MS-MQQB 3.1.5.4.1)
            assert (raw4[0], raw4[2:20], raw4[52:]) == (0x10, v.FRAME4_ESTABLISH_RESPONSE[2:20],
                                                         v.FRAME4_ESTABLISH_RESPONSE[52:])
            assert (raw6[0], raw6[2:], raw8[0], raw8[2:]) == (0x10, adapted_frame5()[2:], 0x10,
                                                              v.FRAME8_SESSION_ACK[2:])
        assert waited < ACK_TIMEOUT / 1000   # in real time, within the AckTimeout, with no control call

        # The message, read back over MS-MQRR (MS-MQRR 2.2.5 packet, MS-MQQB 3.1.7.10)
        with connect(f"mqrr://127.0.0.1:{served.port}") as client:
            read = client.read_queue(created.format_name)
        (message,) = read.messages
        decoded = read_packet(b"".join(s.p_section_buffer for s in message.pp_packet_sections))
        assert decoded.violations == []
        sent = read_packet(frame7)
        # the fields a clause changes: TimeToReachQueue is absolute (MS-MQRR:3.1.4.7:14), PacketSize grows by the
        # trailers (MS-MQRR 2.2.5), QueueManagerAddress carries the sender's address for a direct name (2.2.5.1)
        assert decoded.time_to_reach_queue == sent_time + 0x54600 and decoded.packet_size > len(frame7)
        for name in ("priority", "source_queue_manager", "time_to_be_received", "sent_time",
                     "message_id", "delivery_mode", "destination_queue", "admin_queue", "response_queue",
                     "acknowledgements", "label", "message_class", "correlation_id", "body_type", "application_tag",
                     "body", "extension", "privacy_level", "hash_algorithm", "encryption_algorithm",
                     "security_header"):
            assert getattr(decoded, name) == getattr(sent, name), name
    hosted.close()
