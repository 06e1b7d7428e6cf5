"""The eight frames of MS-MQQB 4.1 "Session Initialization and Express Message Example": a Windows session.

Source: [MS-MQQB] revision 33.0, section 4.1 (4.1.1 - 4.1.8), the hex dumps, as published in the open
specifications (also in the public repository awakecoding/openspecs,
skills/windows-protocols/MS-MQQB/MS-MQQB.md, commit d0da620aaaefa9df1328d9ad2dc650244d30c406).

The hex is the evidence; where the document's parsed text beside a dump says otherwise, the hex wins and
CONTRADICTIONS names the difference.  Long runs are written as runs (the 512 bytes of 0x5A padding of
FRAMES 3 and 4, the 'a' characters of FRAME 7's body); every other byte is as printed.  FRAME 7's dump stops
at 1,650 of the 2,224 bytes its PacketSize declares (FRAME7_PUBLISHED): the rest of its body is not
published, and FRAME7_WHOLE completes it with the same UTF-16 'a' the published part repeats, which is
what MessageSize (2,000 bytes = 1,000 characters) and the 2-byte padding to PacketSize say it holds.
"""

from __future__ import annotations


def _hex(text: str) -> bytes:
    return bytes.fromhex(text)


SOURCE = "MS-MQQB 33.0 section 4.1 (hex dumps of 4.1.1 - 4.1.8)"

# 4.1.1 FRAME 1: Ping Request (UDP 3527; MS-MQQB 2.1.2)
FRAME1_PING_REQUEST = _hex("01 7D 48 55 04 00 00 00 D1 58 73 55 50 91 95 95 49 97 B6 E6 11 EA 26 C6")
# 4.1.2 FRAME 2: Ping Response
FRAME2_PING_RESPONSE = _hex("95 B2 48 55 04 00 00 00 07 89 CD 43 4C 39 11 8F 44 45 90 78 90 9E A0 FC")

# 4.1.3 FRAME 3: EstablishConnection request, client to TCP 1801 (572 bytes)
FRAME3_ESTABLISH_REQUEST = _hex(
    "10 C0 0B 00 4C 49 4F 52 3C 02 00 00 FF FF FF FF"
    "00 00 02 00 D1 58 73 55 50 91 95 95 49 97 B6 E6"
    "11 EA 26 C6 07 89 CD 43 4C 39 11 8F 44 45 90 78"
    "90 9E A0 FC 4E CA DE 1D 10 03 00 00") + b"\x5A" * 512

# 4.1.4 FRAME 4: EstablishConnection response, server to client (572 bytes)
FRAME4_ESTABLISH_RESPONSE = _hex(
    "10 5A 0B 00 4C 49 4F 52 3C 02 00 00 FF FF FF FF"
    "00 00 02 00 05 23 74 1F 5E BE 77 41 BC 77 C4 DD"
    "77 19 E4 74 EB 6A 3A 3C 67 F5 43 41 87 D3 85 CF"
    "4D 68 CE B4 4E CA DE 1D 10 03 00 00") + b"\x5A" * 512

# 4.1.5 FRAME 5: ConnectionParameters request (32 bytes)
FRAME5_PARAMETERS_REQUEST = _hex(
    "10 C0 0B 00 4C 49 4F 52 20 00 00 00 FF FF FF FF"
    "00 00 03 00 D8 05 00 00 C0 D4 01 00 00 00 40 00")

# 4.1.6 FRAME 6: ConnectionParameters response (32 bytes; the same bytes as FRAME 5)
FRAME6_PARAMETERS_RESPONSE = _hex(
    "10 C0 0B 00 4C 49 4F 52 20 00 00 00 FF FF FF FF"
    "00 00 03 00 D8 05 00 00 C0 D4 01 00 00 00 40 00")

# 4.1.7 FRAME 7: UserMessage, express, to a direct queue, with a SecurityHeader carrying the sender's SID
_FRAME7_HEAD = _hex(
    "10 00 03 00 4C 49 4F 52 B0 08 00 00 00 46 05 00"
    "D1 58 73 55 50 91 95 95 49 97 B6 E6 11 EA 26 C6"
    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
    "FF FF FF FF 4C 49 4F 52 EE 08 00 00 00 1C 28 00"
    "1A 00 4F 00 53 00 3A 00 61 00 30 00 34 00 62 00"
    "6D 00 30 00 32 00 5C 00 71 00 00 00 01 00 1C 00"
    "00 00 00 00 00 00 00 00 00 00 00 00 01 05 00 00"
    "00 00 00 05 15 00 00 00 AD 4A 9E BD 36 D9 FA 3D"
    "63 A6 56 DA E8 03 00 00 0F 0F 00 00 00 00 00 00"
    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
    "08 00 00 00 00 00 00 00 D0 07 00 00 D0 07 00 00"
    "00 00 00 00 04 80 00 00 01 68 00 00 00 00 00 00"
    "6D 00 71 00 73 00 65 00 6E 00 64 00 65 00 72 00"
    "20 00 6C 00 61 00 62 00 65 00 6C 00 00 00 61 00")
FRAME7_PUBLISHED = _FRAME7_HEAD + "a".encode("utf-16-le") * (89 * 8 + 1)   # the dump: 14 lines, 89 of 'a', "61 00"
FRAME7_BODY_OFFSET = 222                      # the MessageBody starts after the 30-byte label at 192
FRAME7_BODY = "a".encode("utf-16-le") * 1000  # MessageSize 2,000
FRAME7_WHOLE = FRAME7_PUBLISHED[:FRAME7_BODY_OFFSET] + FRAME7_BODY + bytes(2)  # padded to PacketSize 2,224

# 4.1.8 FRAME 8: SessionAck, server to client (36 bytes: PacketSize counts the SessionHeader)
FRAME8_SESSION_ACK = _hex(
    "10 CD 1B 00 4C 49 4F 52 24 00 00 00 FF FF FF FF"
    "00 00 01 00 01 00 00 00 00 00 00 00 00 00 00 00"
    "40 00 00 00")

# Where the document's parsed text says one thing and its own hex another (the hex wins).
CONTRADICTIONS = {
    "FRAME 3 and 4 GUIDs": "the text prints ClientGUID {C626EA11-E6B6-9749-9595-9150557358D1} and ServerGUID "
                           "{FCA09E90-7890-4544-8F11-394C43CD8907} for both frames, byte-reversed against the "
                           "hex of FRAME 3 (the text reads the 16 bytes backwards, not as a GUID's "
                           "little-endian fields); FRAME 4's hex holds two other GUIDs altogether",
    "FRAME 3 and 4 OperatingSystem": "the text gives Reserved 784 (0x310) and OperatingSystem 0; in the hex the "
                                     "OperatingSystem field (MS-MQQB 2.2.3.1, first after TimeStamp) is 0x0310 "
                                     "and Reserved 0",
    "FRAME 6 WindowSize": "the text gives WindowSize 32 (0x20); the hex is 0x0040 (64), byte for byte FRAME 5",
    "FRAME 7 SentTime": "the text gives SentTime 1141966310 (0x441105E6); the hex holds 0x524F494C, the bytes "
                        "'LIOR' of the signature",
    "FRAME 7 AllocatedBodySize": "the text gives AllocatedBodySize 20 (0x14) and a 20-byte MessageBody; the hex "
                                 "holds 2000 (0x7D0) for both MessageSize and AllocatedBodySize",
    "FRAME 7 EncryptionAlgorithm": "the text gives 26113 (0x6601) and calls it RC4; the hex is 0x6801, CALG_RC4",
    "FRAME 7 length": "PacketSize is 2,224 (0x8B0); the published dump stops after 1,650 bytes",
    "FRAME 8 PacketSize": "PacketSize 36 counts the 16-byte SessionHeader, where MS-MQMQ 2.2.19.1 says a "
                          "SessionHeader is not counted in PacketSize",
}
