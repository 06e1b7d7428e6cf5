"""Structure rules a receiver enforces on a UserMessage (MS-MQMQ 2.2.19 - 2.2.20, MS-MQQB 3.1.5.1.3), on bytes the
suite's writer makes and on Metasploit's QueueJumper messages, for the reference's reader."""

from __future__ import annotations

import struct
import uuid

import pytest

from mqspec.adapters import connect
from mqspec.reference import mqqb_packets as reference_wire
from mqspec.reference.mqqb_packets import PacketFormatError
from mqspec.steps import mqqb_packets as suite_wire

TARGET_GUID, PEER_GUID = uuid.uuid4().bytes_le, uuid.uuid4().bytes_le

# Metasploit Framework, modules/auxiliary/scanner/msmq/cve_2023_21554_queuejumper.rb, `message_normal`
# (repository rapid7/metasploit-framework, commit 3953322e8085ff06f4e292abd49d87d22d3ed786): a 2,404-byte
# UserMessage with AH, DQ 7 and an SRMP envelope and compound message. `message_malformed` sets byte 235, the top
# byte of SRMPEnvelopeHeader.DataLength, to 0x80.
QUEUEJUMPER_NORMAL = bytes.fromhex(
    "100003104c494f52640900006376096c0000000000000000000000000000000000000000000000000000000000000000"
    "0000000063aabe6401000000011c2002600068007400740070003a002f002f003100390032002e003100360038002e00"
    "350036002e003100310033002f006d0073006d0071002f00700072006900760061007400650024002f00710075006500"
    "750065006a0075006d007000650072000000000000040000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000070006f0063000000000000001b0200003c007300"
    "65003a0045006e00760065006c006f0070006500200078006d006c006e0073003a00730065003d002200680074007400"
    "70003a002f002f0073006300680065006d00610073002e0078006d006c0073006f00610070002e006f00720067002f00"
    "73006f00610070002f0065006e00760065006c006f00700065002f00220020000d000a0078006d006c006e0073003d00"
    "220068007400740070003a002f002f0073006300680065006d00610073002e0078006d006c0073006f00610070002e00"
    "6f00720067002f00730072006d0070002f0022003e000d000a003c00730065003a004800650061006400650072003e00"
    "0d000a0020003c007000610074006800200078006d006c006e0073003d00220068007400740070003a002f002f007300"
    "6300680065006d00610073002e0078006d006c0073006f00610070002e006f00720067002f00720070002f0022002000"
    "730065003a006d0075007300740055006e006400650072007300740061006e0064003d002200310022003e000d000a00"
    "2000200020003c0061006300740069006f006e003e004d0053004d0051003a0070006f0063003c002f00610063007400"
    "69006f006e003e000d000a002000200020003c0074006f003e0068007400740070003a002f002f003100390032002e00"
    "3100360038002e00350036002e003100310033002f006d0073006d0071002f0070007200690076006100740065002400"
    "2f00710075006500750065006a0075006d007000650072003c002f0074006f003e000d000a002000200020003c006900"
    "64003e0075007500690064003a0031004000300030003000300030003000300030002d0030003000300030002d003000"
    "3000300030002d0030003000300030002d003000300030003000300030003000300030003000300030003c002f006900"
    "64003e000d000a0020003c002f0070006100740068003e000d000a0020003c00700072006f0070006500720074006900"
    "650073002000730065003a006d0075007300740055006e006400650072007300740061006e0064003d00220031002200"
    "3e000d000a002000200020003c006500780070006900720065007300410074003e003200300032003700300036003000"
    "390054003100360034003400310039003c002f006500780070006900720065007300410074003e000d000a0020002000"
    "20003c00730065006e007400410074003e00320030003200330030003700320034005400310036003400340031003900"
    "3c002f00730065006e007400410074003e000d000a0020003c002f00700072006f007000650072007400690065007300"
    "3e000d000a003c002f00730065003a004800650061006400650072003e000d000a003c00730065003a0042006f006400"
    "79003e003c002f00730065003a0042006f00640079003e000d000a003c002f00730065003a0045006e00760065006c00"
    "6f00700065003e000d000a000d000a0000006400f40100002404000007000000e3030000504f5354202f6d736d712048"
    "5454502f312e310d0a436f6e74656e742d4c656e6774683a203831360d0a436f6e74656e742d547970653a206d756c74"
    "69706172742f72656c617465643b20626f756e646172793d224d534d51202d20534f415020626f756e646172792c2035"
    "33323837223b20747970653d746578742f786d6c0d0a486f73743a203139322e3136382e35362e3131330d0a534f4150"
    "416374696f6e3a20224d534d514d657373616765220d0a50726f78792d4163636570743a204e6f6e496e746572616374"
    "697665436c69656e740d0a0d0a2d2d4d534d51202d20534f415020626f756e646172792c2035333238370d0a436f6e74"
    "656e742d547970653a20746578742f786d6c3b20636861727365743d5554462d380d0a436f6e74656e742d4c656e6774"
    "683a203630360d0a0d0a3c73653a456e76656c6f706520786d6c6e733a73653d22687474703a2f2f736368656d61732e"
    "786d6c736f61702e6f72672f736f61702f656e76656c6f70652f22200d0a786d6c6e733d22687474703a2f2f73636865"
    "6d61732e786d6c736f61702e6f72672f73726d702f223e0d0a3c73653a4865616465723e0d0a203c7061746820786d6c"
    "6e733d22687474703a2f2f736368656d61732e786d6c736f61702e6f72672f72702f222073653a6d757374556e646572"
    "7374616e643d2231223e0d0a2020203c616374696f6e3e4d534d513a706f633c2f616374696f6e3e0d0a2020203c746f"
    "3e687474703a2f2f3139322e3136382e35362e3131332f6d736d712f70726976617465242f71756575656a756d706572"
    "3c2f746f3e0d0a2020203c69643e757569643a314030303030303030302d303030302d303030302d303030302d303030"
    "3030303030303030303c2f69643e0d0a203c2f706174683e0d0a203c70726f706572746965732073653a6d757374556e"
    "6465727374616e643d2231223e0d0a2020203c6578706972657341743e3230323730363039543136343431393c2f6578"
    "706972657341743e0d0a2020203c73656e7441743e3230323330373234543136343431393c2f73656e7441743e0d0a20"
    "3c2f70726f706572746965733e0d0a3c2f73653a4865616465723e0d0a3c73653a426f64793e3c2f73653a426f64793e"
    "0d0a3c2f73653a456e76656c6f70653e0d0a0d0a2d2d4d534d51202d20534f415020626f756e646172792c2035333238"
    "370d0a436f6e74656e742d547970653a206170706c69636174696f6e2f6f637465742d73747265616d0d0a436f6e7465"
    "6e742d4c656e6774683a20370d0a436f6e74656e742d49643a20626f64794066663361663330312d333139362d343937"
    "612d613931382d3732313437633837316131330d0a0d0a4d6573736167650c0000009400000002000000940000000000"
    "0000000000000000000000000000000020534f415020626f756e646172792c2035333238372d2d000c00000000000000"
    "00000000")
QUEUEJUMPER_MALFORMED = QUEUEJUMPER_NORMAL[:235] + b"\x80" + QUEUEJUMPER_NORMAL[236:]


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
    assert len(QUEUEJUMPER_NORMAL) == 2404
    read = reference_wire.read_user_message(QUEUEJUMPER_NORMAL)
    assert read.flags == 0x02201C01 and read.flags & reference_wire.AH
    assert read.destination == "DIRECT=http://192.168.56.113/msmq/private$/queuejumper"
    assert (read.label, read.body, read.code("DM")) == ("poc", b"", 0)
    assert read.srmp_envelope.startswith("<se:Envelope") and len(read.srmp_envelope) == 0x21B - 1
    assert len(read.compound_message) == 1060 and read.compound_message_body == (995, 7)
    assert read.compound_message[995:1002] == b"Message"
    assert suite_wire.decode(QUEUEJUMPER_NORMAL).problems == []


def test_the_malformed_queuejumper_message_is_refused():
    assert struct.unpack_from("<I", QUEUEJUMPER_MALFORMED, 232)[0] == 0x8000021B
    refused(QUEUEJUMPER_MALFORMED, "MS-MQMQ:2.2.19.2:15")
    assert any("2.2.19.2:15" in line for line in suite_wire.decode(QUEUEJUMPER_MALFORMED).problems)


def test_the_malformed_queuejumper_message_closes_a_session():
    with connect("reference") as target:
        connection = target.mqqb_connect()
        connection.send(suite_wire.establish_connection(PEER_GUID, target.queue_manager_identifier, 1))
        connection.send(suite_wire.connection_parameters(500, 20000, 64))
        connection.receive()
        assert not connection.closed
        connection.send(QUEUEJUMPER_MALFORMED)
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
    refused(data, "MS-MQMQ:2.2.19.1:11")
    assert any("2.2.19.1:11" in line for line in suite_wire.decode(data).problems)


def test_a_packet_size_below_the_fixed_headers_is_refused():
    data = bytearray(packet())
    struct.pack_into("<I", data, 8, 116)
    refused(bytes(data), "MS-MQMQ:2.2.19.1:11")


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
