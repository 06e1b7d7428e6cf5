"""The suite's rules for the security fields of a packet (steps/packet_security.py, MS-MQMQ 2.2.19.3 and
2.2.20.6): every allowed combination passes, every other one is named."""

from __future__ import annotations

import pytest

from mqspec.steps.packet_security import (
    ALLOWED_BY_PRIVACY,
    ENCRYPTION_ALGORITHMS,
    HASH_ALGORITHMS,
    property_problems,
    security_header_problems,
)


@pytest.mark.parametrize("privacy", [0, 1, 3, 5])
def test_every_allowed_combination_of_properties_passes(privacy):
    for hash_algorithm in HASH_ALGORITHMS:
        for encryption in ALLOWED_BY_PRIVACY.get(privacy, ENCRYPTION_ALGORITHMS):
            assert property_problems(privacy, hash_algorithm, encryption) == []


@pytest.mark.parametrize("fields, named", [
    ((2, 0x800E, 0x6801), "PrivacyLevel is 2"),
    ((0, 0, 0x6801), "HashAlgorithm 0x00000000"),
    ((0, 0x800E, 0), "EncryptionAlgorithm 0x00000000"),
    ((1, 0x800E, 0x6610), "EncryptionAlgorithm AES 256 with PrivacyLevel 1"),
    ((3, 0x800E, 0x660E), "EncryptionAlgorithm AES 128 with PrivacyLevel 3"),
    ((5, 0x800E, 0x6801), "EncryptionAlgorithm RC4 with PrivacyLevel 5"),
    ((5, 0x800E, 0x6602), "EncryptionAlgorithm RC2 with PrivacyLevel 5"),
])
def test_a_field_outside_the_tables_is_named(fields, named):
    problems = property_problems(*fields)
    assert len(problems) == 1 and named in problems[0], problems


@pytest.mark.parametrize("flags, sender_id, sizes", [
    (0x0082, 16, (16, 0, 0, 0, 0)),     # ST 2: the queue manager GUID, AI set
    (0x0081, 28, (28, 0, 0, 0, 0)),     # ST 1: a SID
    (0x00C0, 0, (0, 0, 128, 0, 0)),     # ST 0: a signature only
])
def test_well_formed_security_headers_pass(flags, sender_id, sizes):
    assert security_header_problems(flags, sender_id, sizes, sizes[3]) == []


@pytest.mark.parametrize("flags, sender_id, sizes, cert, named", [
    (0x0082, 16, (0, 0, 0, 0, 0), 0, "every SecurityData size is zero"),
    (0x0092, 16, (16, 0, 0, 0, 0), 0, "AU or AS is not zero"),
    (0x0182, 16, (16, 0, 0, 0, 0), 0, "AU or AS is not zero"),
    (0x0083, 16, (16, 0, 0, 0, 0), 0, "ST is 3"),
    (0x0080, 16, (16, 0, 0, 0, 0), 0, "ST is 0 with SenderIdSize 16"),
    (0x0081, 0, (0, 4, 0, 0, 0), 0, "ST 1"),
    (0x0082, 12, (12, 0, 0, 0, 0), 0, "ST 2"),
    (0x0080, 0, (0, 0, 0, 0x10000, 0), 0x10000, "SenderCertSize 65536"),
])
def test_a_malformed_security_header_is_named(flags, sender_id, sizes, cert, named):
    problems = security_header_problems(flags, sender_id, sizes, cert)
    assert len(problems) == 1 and named in problems[0], problems
