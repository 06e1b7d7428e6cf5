"""Structure rules a receiver enforces on a UserMessage (MS-MQMQ 2.2.19 - 2.2.20, MS-MQQB 3.1.5.1.3), on bytes the
suite's writer makes and on Metasploit's QueueJumper messages, for the reference's reader."""

from __future__ import annotations

import struct
import uuid

import pytest

from mqspec.adapters import connect
from mqspec.reference import mqqb_packets as reference_wire
from mqspec.reference.mqqb_packets import PacketFormatError
from mqspec.adapters.mqqb import packets as suite_wire
from mqspec.tests.vectors import metasploit_queuejumper as msf

TARGET_GUID, PEER_GUID = uuid.uuid4().bytes_le, uuid.uuid4().bytes_le



def packet(**fields) -> bytes:
    """A UserMessage the suite writes, for a private queue of the target, with `fields` set on the Outgoing."""
    out = suite_wire.Outgoing(source=PEER_GUID, destination_qm=TARGET_GUID, message_id=1, label="m1",
                              destination=f"PRIVATE={uuid.UUID(bytes_le=TARGET_GUID)}\\00000001", body=b"hello")
    for name, value in fields.items():
        setattr(out, name, value)
    return suite_wire.user_message(out)


def refused(data: bytes, clause: str) -> None:
    with pytest.raises(PacketFormatError, match=clause):
        reference_wire.read_user_message(data)


def test_the_queuejumper_message_is_read_header_by_header():
    assert len(msf.MESSAGE_NORMAL) == 2404
    read = reference_wire.read_user_message(msf.MESSAGE_NORMAL)
    assert read.flags == 0x02201C01 and read.flags & reference_wire.AH
    assert read.destination == "DIRECT=http://192.168.56.113/msmq/private$/queuejumper"
    assert (read.label, read.body, read.code("DM")) == ("poc", b"", 0)
    assert read.srmp_envelope.startswith("<se:Envelope") and len(read.srmp_envelope) == 0x21B - 1
    assert len(read.compound_message) == 1060 and read.compound_message_body == (995, 7)
    assert read.compound_message[995:1002] == b"Message"
    assert suite_wire.decode(msf.MESSAGE_NORMAL).problems == []


def test_the_malformed_queuejumper_message_is_refused():
    assert struct.unpack_from("<I", msf.MESSAGE_MALFORMED, 232)[0] == 0x8000021B
    refused(msf.MESSAGE_MALFORMED, "MS-MQMQ:2.2.19.2:15")
    assert any("2.2.19.2:15" in line for line in suite_wire.decode(msf.MESSAGE_MALFORMED).problems)


def test_the_malformed_queuejumper_message_closes_a_session():
    with connect("reference") as target:
        connection = target.mqqb_connect()
        connection.send(suite_wire.establish_connection(PEER_GUID, target.queue_manager_identifier, 1))
        connection.send(suite_wire.connection_parameters(500, 20000, 64))
        connection.receive()
        assert not connection.closed
        connection.send(msf.MESSAGE_MALFORMED)
        assert connection.closed  # MS-MQQB:3.1.5.1.3:01


def test_what_the_writer_makes_well_formed_is_read():
    for fields in ({}, {"srmp_envelope": "<se:Envelope/>"}, {"forced": {"QT": 0}}, {"forced": {"trailing bytes": 4}},
                   {"forced": {"DM": 1}}):
        data = packet(**fields)
        read = reference_wire.read_user_message(data)
        assert read.label == "m1" and suite_wire.decode(data).problems == []
    srmp = reference_wire.read_user_message(packet(srmp_envelope="<se:Envelope/>"))
    offset, size = srmp.compound_message_body
    assert srmp.srmp_envelope == "<se:Envelope/>" and srmp.compound_message[offset:offset + size] == b"hello"


@pytest.mark.parametrize("trailing", [1, 2, 3])
def test_a_packet_size_that_is_not_a_multiple_of_4_is_refused(trailing):
    data = packet(forced={"trailing bytes": trailing})
    refused(data, "MS-MQMQ:2.2.19.1:12")
    assert any("2.2.19.1:12" in line for line in suite_wire.decode(data).problems)


def test_a_packet_size_below_the_fixed_headers_is_refused():
    data = bytearray(packet())
    struct.pack_into("<I", data, 8, 116)
    refused(bytes(data), "MS-MQMQ:2.2.19.1:12")


@pytest.mark.parametrize("dm", [2, 3])
def test_delivery_mode_2_or_3_is_a_format_error_not_an_exception(dm):
    data = packet(forced={"DM": dm})
    refused(data, "MS-MQMQ:2.2.19.2:13")
    assert any("2.2.19.2:13" in line for line in suite_wire.decode(data).problems)


def test_a_direct_name_longer_than_the_packet_is_refused():
    refused(packet(destination="DIRECT=OS:host\\private$\\q", forced={"DQ Count": 4000}), "MS-MQMQ:2.2.19.2:14")


@pytest.mark.parametrize("forced", [{"DataLength": 0x8000021B}, {"DataLength": 0x10000}, {"HTTPBodySize": 0x7FFFFFFF},
                                    {"MsgBodyOffset": 0x1000}])
def test_srmp_lengths_that_run_past_the_packet_are_refused(forced):
    data = packet(srmp_envelope="<se:Envelope/>", forced=forced)
    refused(data, "MS-MQMQ:2.2.19.2:15")
    assert any("2.2.19.2:15" in line for line in suite_wire.decode(data).problems)


@pytest.mark.parametrize("forced", [{"LabelLength": 0xFB}, {"LabelLength": 0xFA}, {"MessageSize": 0x10000},
                                    {"ExtensionSize": 0x400}])
def test_message_properties_lengths_out_of_range_or_past_the_packet_are_refused(forced):
    data = packet(forced=forced)
    refused(data, "MS-MQMQ:2.2.19.3:12")
    assert any("2.2.19.3:12" in line for line in suite_wire.decode(data).problems)


def test_a_security_header_whose_items_run_past_the_packet_is_refused():
    refused(packet(encrypted_body=True, forced={"EncryptionKeySize": 0xFFFF}), "MS-MQMQ:2.2.20.6:02")


@pytest.mark.parametrize("flag", ["HH", "MQ"])
def test_an_announced_header_that_is_not_there_is_refused(flag):
    refused(packet(forced={flag: 1}), "MS-MQMQ:2.2.20:02")


@pytest.mark.parametrize("flag, clause", [("HH", "MS-MQMQ:2.2.20.7:02"), ("MQ", "MS-MQMQ:2.2.20.2:02")])
def test_optional_headers_with_wrong_identifiers_are_refused(flag, clause):
    refused(packet(forced={flag: 1, "trailing bytes": 12}), clause)


@pytest.mark.parametrize("qt", [2, 3])
def test_a_debug_header_whose_qt_says_nothing_is_refused(qt):
    refused(packet(forced={"QT": qt}), "MS-MQMQ:2.2.20.8:02")
