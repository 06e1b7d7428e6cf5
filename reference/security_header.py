"""The security fields of a stored Message, between the packets that carry them (MS-MQMQ 2.2.19.3, 2.2.20.6).

Theory of operation
-------------------
A message another queue manager sends may carry a SecurityHeader (Windows puts the sender's
SID there, MS-MQQB 4.1 FRAME 7) and always carries a HashAlgorithm and an EncryptionAlgorithm.
`keep` sets the Message attributes MS-MQDMPR 3.1.7.1.31 maps them to, plus the header's Flags
word as it came (the bits no attribute holds: DE, AI and the unused ones), so that `security_header`
writes the same SecurityHeader back into the packet a remote read returns (MS-MQDMPR 3.1.7.1.32)
and `algorithms` the same two fields.  A message sent through the control interface has none of
this: it gets no SecurityHeader and the defaults of MS-MQDMPR 3.1.1.12 (D-97).

The Signature is not kept: MS-MQDMPR 3.1.7.1.31 maps no attribute to it, and a signed packet is
refused before it becomes a Message (MS-MQQB 3.1.5.8.3, the reference holds no certificates).
"""

from __future__ import annotations

import struct

from .message import Message

_FIXED = struct.Struct("<HHHHII")          # MS-MQMQ 2.2.20.6 Flags and the five sizes
ST_MASK, AU = 0x000F, 0x0010               # MS-MQMQ 2.2.20.6 Flags.ST, Flags.AU
CALG_SHA1 = 0x8004                         # MS-MQMQ 2.2.19.3 SHA-1
CALG_RC4, CALG_AES256 = 0x6801, 0x6610     # MS-MQMQ 2.2.19.3 EncryptionAlgorithm
ADVANCED = 5                               # MS-MQMQ 2.2.19.3 PrivacyLevel AES


def keep(message: Message, flags: int, security_data: tuple, keep_sender: bool) -> None:
    """MS-MQDMPR 3.1.7.1.31 the SecurityHeader's fields as Message attributes; `keep_sender` False drops the
    SecurityID (D-96 dropped)."""
    sender, key, _, certificate, provider = security_data
    message.set("security_header_flags", flags)
    if sender and keep_sender:
        message.set("sender_identifier_type", flags & ST_MASK)  # MS-MQDMPR 3.1.7.1.31 SenderIdentifierType
        message.set("sender_identifier", sender)
    if flags & AU:
        message.set("authentication_level", 1)  # MS-MQDMPR 3.1.7.1.31 AU 1: Sig10
    if key:
        message.set("symmetric_key", key)
    if certificate:
        message.set("sender_certificate", certificate)
    if provider:
        # MS-MQMQ 2.2.20.6 ProviderInfo: ProviderType, then a NUL-terminated ProviderName
        message.set("authentication_provider_type", struct.unpack("<I", provider[:4].ljust(4, b"\0"))[0])
        message.set("authentication_provider_name",
                    provider[4:].decode("utf-16-le", "surrogatepass").split("\0", 1)[0])


def security_header(message: Message) -> bytes:
    """MS-MQDMPR 3.1.7.1.32 the SecurityHeader of the packet, b"" when the message has none to carry."""
    flags = message.get("security_header_flags")
    if flags is None:
        return b""
    name = message.get("authentication_provider_name")
    provider = b"" if name is None else (struct.pack("<I", message.get("authentication_provider_type"))
                                         + name.encode("utf-16-le", "surrogatepass") + b"\0\0")
    items = (message.get("sender_identifier"), message.get("symmetric_key"), b"", message.get("sender_certificate"),
             provider)
    if not any(items):
        return b""  # MS-MQMQ 2.2.20.6 a SecurityHeader holds at least one item (D-96 dropped leaves none)
    # MS-MQDMPR 3.1.7.1.32 ST from SenderIdentifierType; the other bits as they came
    flags = flags & ~ST_MASK | message.get("sender_identifier_type")
    return _FIXED.pack(flags, *map(len, items)) + b"".join(item + bytes(-len(item) % 4) for item in items)


def algorithms(message: Message, privacy_level: int) -> tuple[int, int]:
    """MS-MQDMPR 3.1.7.1.32 (HashAlgorithm, EncryptionAlgorithm): the message's, else the defaults (D-97)."""
    hash_algorithm = message.get("hash_algorithm")
    encryption_algorithm = message.get("encryption_algorithm")
    if hash_algorithm is None:
        hash_algorithm = CALG_SHA1  # MS-MQDMPR:3.1.1.12:14 the default SHOULD be SHA1
    if encryption_algorithm is None:
        # MS-MQDMPR:3.1.1.12:14 the default SHOULD be RC4; MS-MQMQ:2.2.19.3:09 AES goes with PrivacyLevel 5
        encryption_algorithm = CALG_AES256 if privacy_level == ADVANCED else CALG_RC4
    return hash_algorithm, encryption_algorithm
