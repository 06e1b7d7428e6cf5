"""A message another queue manager sends over MS-MQQB reads back over MS-MQRR as it was sent (issue 18, part 4).

FRAME 7 of MS-MQQB 4.1 (tests/vectors/mqqb_4_1.py), a Windows UserMessage with a SecurityHeader that
carries the sender's SID, SHA-1 and RC4 named and acknowledgments asked with no administration queue,
is sent to the in-process reference after FRAMES 3 and 5 (ServerGuid set to the queue manager, the
direct destination rewritten to a queue of the reference, SentTime now), then read back through R_StartReceive.
The returned packet is compared byte for byte with the frame; the only bytes that differ are the
fields a clause changes, each named in CHANGED_BY_A_CLAUSE.
"""

from __future__ import annotations

import struct
import time

from mqspec.adapters import connect
from mqspec.reference import mqqb_packets as reference_wire
from mqspec.reference.message import Message
from mqspec.reference.packet import PacketContext, build_packet
from mqspec.reference.persistence import message_from_record, message_record
from mqspec.reference.security_header import keep
from mqspec.adapters.mqqb import packets as suite_wire
from mqspec.steps.packet_reader import read_packet, read_sections
from tests.vectors.mqqb_4_1 import (
    FRAME3_ESTABLISH_REQUEST,
    FRAME5_PARAMETERS_REQUEST,
    FRAME7_WHOLE,
)

QUEUE_TEXT = "OS:mqspec\\q"          # 11 WCHARs + NUL: Count 24, padded to the 28 bytes of FRAME 7's 26 + 2
SENT_TIME_OFFSET = 52                # UserHeader.SentTime
DQ_OFFSET = 64                       # DestinationQueue after the 48 fixed bytes of the UserHeader
CHANGED_BY_A_CLAUSE = {
    "BaseHeader.PacketSize": (8, 12),           # MS-MQRR 2.2.5: the trailers follow the UserMessage
    "BaseHeader.TimeToReachQueue": (12, 16),    # MS-MQRR:3.1.4.7:14 absolute: SentTime + the relative value
    "UserHeader.QueueManagerAddress": (32, 48),  # MS-MQRR:2.2.5.1:01-04 the sender's address for a direct name
}


def _frame7_for(target) -> bytes:
    """FRAME 7 with its destination DIRECT=OS:a04bm02\\q rewritten to a queue of `target` (same length) and
    SentTime now (the frame's 'LIOR' is from 2013: its TimeToReachQueue has long passed)."""
    assert target.computer_name == "mqspec"
    text = QUEUE_TEXT.encode("utf-16-le") + b"\0\0"
    field = struct.pack("<H", len(text)) + text
    field += bytes(28 - len(field))  # MS-MQMQ 2.2.18.1.5.2 padded to 4 from the UserHeader's start
    frame = bytearray(FRAME7_WHOLE)
    frame[DQ_OFFSET:DQ_OFFSET + 28] = field
    struct.pack_into("<I", frame, SENT_TIME_OFFSET, int(time.time()))
    return bytes(frame)


def _server_guid(frame: bytes, guid: bytes) -> bytes:
    """FRAME 3 with ServerGuid (after BaseHeader, InternalHeader and ClientGuid) set to the target's."""
    return frame[:36] + guid + frame[52:]


def _session_sends(target, frame: bytes):
    connection = target.mqqb_connect()
    stream = suite_wire.Stream()
    connection.send(_server_guid(FRAME3_ESTABLISH_REQUEST, target.queue_manager_identifier))
    connection.send(FRAME5_PARAMETERS_REQUEST)
    answers = [suite_wire.decode(p).kind for p in stream.feed(connection.receive())]
    assert answers == ["EstablishConnection", "ConnectionParameters"], answers
    connection.send(frame)
    assert not connection.closed
    return connection


def _read_back(target, format_name: str) -> bytes:
    out = target.read_queue(format_name)
    (message,) = out.messages
    (section,) = message.pp_packet_sections  # the whole body fits: one stFullPacket section
    return bytes(section.p_section_buffer)


def test_frame_7_reads_back_over_mqrr_byte_for_byte_but_for_the_fields_a_clause_changes():
    with connect("reference") as target:
        queue = target.create_queue("mqspec\\q").format_name
        frame = _frame7_for(target)
        _session_sends(target, frame)
        returned = _read_back(target, queue)
    sent, size = reference_wire.read_user_message(frame), len(frame)
    assert struct.unpack_from("<I", returned, 8)[0] == len(returned) > size
    base_ttrq, sent_time = struct.unpack_from("<I", frame, 12)[0], struct.unpack_from("<I", frame, 52)[0]
    assert struct.unpack_from("<I", returned, 12)[0] == sent_time + base_ttrq   # MS-MQRR:3.1.4.7:14
    kept = bytearray(returned[:size])
    for start, end in CHANGED_BY_A_CLAUSE.values():
        kept[start:end] = frame[start:end]
    assert bytes(kept) == frame  # every other byte the sender wrote, SecurityHeader included
    decoded = read_packet(returned)
    assert decoded.flags["SH"] == 1 and decoded.security_header["Flags"] == sent.security_flags == 0x0001
    assert decoded.security_header["SecurityID"] == sent.security_data[0]   # S-1-5-21-...-1000, 28 bytes
    assert (decoded.hash_algorithm, decoded.encryption_algorithm) == (0x8004, 0x6801)
    assert decoded.acknowledgements == 0x0F and decoded.admin_queue == ""   # D-95 kept
    assert (decoded.label, decoded.body_type, decoded.body) == ("mqsender label", 8, "a".encode("utf-16-le") * 1000)


def _arrived(frame: bytes, **readings) -> Message:
    with connect("reference" + ("?readings=" + ",".join(f"{d}:{r}" for d, r in readings.items())
                                if readings else "")) as target:
        queue = target.create_queue("mqspec\\q").format_name
        _session_sends(target, frame)
        return read_sections(target.read_queue(queue).messages[0].pp_packet_sections, 1 << 22, 1 << 22)


def test_the_other_readings_drop_what_they_say():
    with connect("reference") as target:
        frame = _frame7_for(target)
    cleared = _arrived(frame, **{"D-95": "cleared"})
    assert cleared.acknowledgements == 0 and cleared.security_header is not None
    dropped = _arrived(frame, **{"D-96": "dropped"})   # the SID was the only item: no SecurityHeader left
    assert dropped.security_header is None and not dropped.flags["SH"] and dropped.acknowledgements == 0x0F


def test_every_security_item_and_both_algorithms_survive_the_packet_and_a_restart():
    provider = struct.pack("<I", 1) + "Microsoft Base Cryptographic Provider, v1.0".encode("utf-16-le") + b"\0\0"
    packet = reference_wire.UserMessagePacket(
        0, 0, bytes(range(16)), bytes(16), 0xFFFFFFFF, 1, 9, 0, "", "", "", security_flags=0x0042,
        security_data=(bytes(range(16)), b"key", b"", b"\x30\x82cert", provider), hash_algorithm=0x800C,
        encryption_algorithm=0x6602, label="x", body=b"b")
    message = Message(b"b", label="x", destination_queue_format_name="DIRECT=OS:mqspec\\q",
                      identifier=bytes(range(16)) + struct.pack("<I", 9))
    keep(message, packet.security_flags, packet.security_data, keep_sender=True)
    message.set("hash_algorithm", packet.hash_algorithm)
    message.set("encryption_algorithm", packet.encryption_algorithm)
    restored = message_from_record(1, message_record(message))  # MS-MQDMPR:3.1.1.12:03 what a restart keeps
    decoded = read_packet(build_packet(restored, PacketContext(bytes(16))).data)
    header = decoded.security_header
    assert not [v for v in decoded.violations if "2.2.20.6" in v]
    assert (header["Flags"], header["SecurityID"], header["EncryptionKey"], header["Signature"]) == \
        (0x0042, bytes(range(16)), b"key", b"")
    assert (header["SenderCert"], header["ProviderInfo"]) == (b"\x30\x82cert", provider)
    assert (decoded.hash_algorithm, decoded.encryption_algorithm) == (0x800C, 0x6602)


def test_a_message_sent_through_the_control_interface_gets_the_defaults_and_no_security_header():
    decoded = read_packet(build_packet(Message(b"b", destination_queue_format_name="DIRECT=OS:mqspec\\q"),
                                       PacketContext(bytes(16))).data)
    assert decoded.security_header is None and not decoded.flags["SH"]
    assert (decoded.hash_algorithm, decoded.encryption_algorithm) == (0x8004, 0x6801)  # D-97, MS-MQDMPR 3.1.1.12
