"""MS-MQMQ's rules for the security fields of a packet, as the suite's packet reader applies them.

A server that does not sign or encrypt still writes PrivacyLevel, HashAlgorithm and
EncryptionAlgorithm in every MessagePropertiesHeader, and may write a SecurityHeader
(Windows puts the sender's SID there).  These are the values MS-MQMQ 2.2.19.3 and
2.2.20.6 allow; the reader reports any other as a violation, and the steps of
security_steps.py check them field by field.  Written from the field tables alone.
"""

from __future__ import annotations

# MS-MQMQ 2.2.19.3 PrivacyLevel
PRIVACY_LEVELS = {0: "none", 1: "40-bit", 3: "128-bit", 5: "AES"}
# MS-MQMQ 2.2.19.3 HashAlgorithm: the allowed values (Windows writes its default even when not signing, note <7>)
HASH_ALGORITHMS = {0x8001: "MD2", 0x8002: "MD4", 0x8003: "MD5", 0x8004: "SHA-1", 0x800C: "SHA-256",
                   0x800E: "SHA-512"}
# MS-MQMQ 2.2.19.3 EncryptionAlgorithm: "MUST be set to a value in the following table"
RC2, AES256, AES128, AES192, RC4 = 0x6602, 0x6610, 0x660E, 0x660F, 0x6801
ENCRYPTION_ALGORITHMS = {RC2: "RC2", AES256: "AES 256", AES128: "AES 128", AES192: "AES 192", RC4: "RC4"}
# MS-MQMQ 2.2.19.3 "MUST be set according to PrivacyLevel"
ALLOWED_BY_PRIVACY = {1: {RC2, RC4}, 3: {RC2, RC4}, 5: {AES128, AES192, AES256}}

# MS-MQMQ 2.2.20.6 SecurityHeader.Flags
ST_MASK, AU, EB, DE, AI, AS_MASK = 0x000F, 0x0010, 0x0020, 0x0040, 0x0080, 0x0F00


def property_problems(privacy_level: int, hash_algorithm: int, encryption_algorithm: int) -> list[str]:
    """What is wrong with the three security fields of a MessagePropertiesHeader (MS-MQMQ 2.2.19.3)."""
    where, out = "MS-MQMQ 2.2.19.3", []
    if privacy_level not in PRIVACY_LEVELS:
        out.append(f"{where}: PrivacyLevel is {privacy_level}, not 0, 1, 3 or 5")
    if hash_algorithm not in HASH_ALGORITHMS:
        out.append(f"{where}: HashAlgorithm 0x{hash_algorithm:08X} is none of MD2, MD4, MD5, SHA-1, SHA-256, SHA-512")
    if encryption_algorithm not in ENCRYPTION_ALGORITHMS:
        out.append(f"{where}: EncryptionAlgorithm 0x{encryption_algorithm:08X} is none of RC2, RC4, AES 128/192/256")
    elif encryption_algorithm not in ALLOWED_BY_PRIVACY.get(privacy_level, ENCRYPTION_ALGORITHMS):
        allowed = ", ".join(sorted(ENCRYPTION_ALGORITHMS[a] for a in ALLOWED_BY_PRIVACY[privacy_level]))
        out.append(f"{where}: EncryptionAlgorithm {ENCRYPTION_ALGORITHMS[encryption_algorithm]} with PrivacyLevel "
                   f"{privacy_level}, which allows {allowed}")
    return out


def security_header_problems(flags: int, sender_id_size: int, sizes: tuple[int, ...],
                             sender_cert_size: int) -> list[str]:
    """What is wrong with a SecurityHeader's Flags and sizes (MS-MQMQ 2.2.20.6); `sizes` are all five."""
    where, out = "MS-MQMQ 2.2.20.6", []
    if not any(sizes):
        out.append(f"{where}: every SecurityData size is zero")
    if flags & AU or flags & AS_MASK:
        out.append(f"{where}: AU or AS is not zero (Flags 0x{flags:04X})")
    kind = flags & ST_MASK
    if kind not in (0, 1, 2) or (kind == 0 and sender_id_size):
        out.append(f"{where}: ST is {kind} with SenderIdSize {sender_id_size}")
    elif kind == 1 and sender_id_size == 0:
        out.append(f"{where}: ST 1 says SecurityID holds the sender's SID, but SenderIdSize is 0")
    elif kind == 2 and sender_id_size != 16:
        out.append(f"{where}: ST 2 says SecurityID holds the queue manager GUID, but SenderIdSize is "
                   f"{sender_id_size}, not 16")
    if sender_cert_size > 0xFFFF:
        out.append(f"{where}: SenderCertSize {sender_cert_size} is above 0xFFFF")
    return out
