"""The MS-MQQB pieces on their own: the suite's writer against the reference's reader, the session's table, and
the wire listener of `mqspec serve` (capability mqqb_peer)."""

from __future__ import annotations

import struct
import uuid

from mqspec.adapters import connect
from mqspec.adapters.mqqb.listener import MqqbListener
from mqspec.adapters.mqqb.tcp import TcpMqqbConnection
from mqspec.reference import mqqb_packets as reference_wire
from mqspec.adapters.mqqb import packets as suite_wire

TARGET_GUID, PEER_GUID = uuid.uuid4().bytes_le, uuid.uuid4().bytes_le


def test_what_the_suite_writes_the_reference_reads_field_for_field():
    out = suite_wire.Outgoing(
        source=PEER_GUID, destination_qm=TARGET_GUID, message_id=7, destination=f"PRIVATE={uuid.UUID(bytes_le=TARGET_GUID)}\\0000000a",
        admin="DIRECT=OS:host\\private$\\admin", response=f"PRIVATE={uuid.UUID(bytes_le=PEER_GUID)}\\00000002",
        delivery=1, positive_journaling=True, transaction=(True, b"\x01\x00\x00\x00\x09\x00\x00\x00", 3, 2),
        acknowledgements=0x4, label="hello", body=b"payload!", encrypted_body=True)
    packet = suite_wire.user_message(out)
    assert reference_wire.frame_length(packet) == len(packet)
    read = reference_wire.read_user_message(packet)
    assert (read.source_queue_manager, read.queue_manager_address, read.message_id) == (PEER_GUID, TARGET_GUID, 7)
    assert read.destination == out.destination
    assert (read.admin, read.response) == (out.admin, out.response)   # AQ 7, RQ 2
    assert (read.code("DQ"), read.code("AQ"), read.code("RQ"), read.code("DM")) == (3, 7, 2, 1)
    assert read.transaction == (0x2 | 0x4 | 0x8 | 3 << 4, out.transaction[1], 3, 2)
    assert read.encrypted_body and (read.label, read.body, read.acknowledgements) == ("hello", b"payload!", 0x4)


def test_what_the_reference_writes_the_suite_reads():
    body = struct.pack("<8sII16sI", bytes(8), 1, 0, PEER_GUID, 7)
    packet = reference_wire.transactional_ack(TARGET_GUID, PEER_GUID, None, 5, 0, 0x4000, body)
    (decoded,) = suite_wire.Stream().feed(packet)
    got = suite_wire.decode(decoded)
    assert (got.kind, got.message_class, got.body, got.problems) == ("FinalAck", 0x4000, body, [])
    ack = suite_wire.decode(reference_wire.session_ack((3, 1, 0x3, 0, 0, 64, 0)))
    assert (ack.kind, ack.fields[:3], ack.time_to_reach_queue) == ("SessionAck", (3, 1, 0x3), 0xFFFFFFFF)


def test_a_session_answers_its_set_up_then_closes_on_a_packet_out_of_place():
    with connect("reference") as target:
        connection = target.mqqb_connect()
        stream = suite_wire.Stream()
        connection.send(suite_wire.establish_connection(PEER_GUID, target.queue_manager_identifier, 42))
        (answer,) = [suite_wire.decode(p) for p in stream.feed(connection.receive())]
        assert answer.kind == "EstablishConnection" and answer.fields[2] == 42 and not answer.internal_flags & 0x10
        connection.send(suite_wire.establish_connection(PEER_GUID, target.queue_manager_identifier, 43))
        assert connection.closed  # MS-MQQB 3.1.5.3: EstablishConnection only while WAITING_EC_MSG


def test_a_session_refuses_a_server_guid_that_is_not_the_queue_managers():
    with connect("reference") as target:
        connection = target.mqqb_connect()
        connection.send(suite_wire.establish_connection(PEER_GUID, uuid.uuid4().bytes_le, 1))
        (answer,) = [suite_wire.decode(p) for p in suite_wire.Stream().feed(connection.receive())]
        assert answer.internal_flags & 0x10 and connection.closed  # MS-MQQB 2.2.1 CS


def test_the_wire_listener_carries_a_session_and_stops():
    with connect("reference") as target:
        listener = MqqbListener(target)
        try:
            connection = TcpMqqbConnection("127.0.0.1", listener.port)
            connection.send(suite_wire.establish_connection(PEER_GUID, target.queue_manager_identifier, 1))
            stream = suite_wire.Stream()
            packets = stream.feed(connection.receive(2000))
            assert [suite_wire.decode(p).kind for p in packets] == ["EstablishConnection"]
            connection.send(b"\x00" * 16)  # no signature: the session closes, and with it the connection
            connection.receive(2000)
            assert connection.closed
            connection.close()
        finally:
            listener.stop()


def test_a_peer_that_frames_its_sessionack_as_windows_keeps_its_session_and_both_messages():
    """D-85: a SessionAck of PacketSize 36 (MS-MQQB 4.1.8) between two UserMessages loses neither of them."""
    with connect("reference") as target:
        queue = target.create_queue(f"{target.computer_name}\\private$\\framing").format_name
        connection = target.mqqb_connect()
        stream = suite_wire.Stream()
        connection.send(suite_wire.establish_connection(PEER_GUID, target.queue_manager_identifier, 1))
        connection.send(suite_wire.connection_parameters(500, 20_000, 64))

        def message(number: int) -> bytes:
            return suite_wire.user_message(suite_wire.Outgoing(
                source=PEER_GUID, destination_qm=target.queue_manager_identifier, message_id=number,
                destination=queue, label=f"m{number}", body=b"x"))
        connection.send(message(1) + suite_wire.session_ack(0, 0, 0, 1, 0, 64, session_counted=True) + message(2))
        target.elapse(11_000)
        kinds = [suite_wire.decode(p).kind for p in stream.feed(connection.receive())]
        assert not connection.closed and kinds[-1] == "SessionAck"
        assert len(target.list_messages(queue).messages) == 2
