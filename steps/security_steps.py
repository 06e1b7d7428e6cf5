"""Steps that check the security fields of a packet the target returned (MS-MQMQ 2.2.19.3, 2.2.20.3,
2.2.20.6), field by field, with the rules of packet_security.py.

A header a packet does not carry cannot be judged; the step then passes and records
("absent", header) on the scenario, so the report shows that the check had nothing to see.
"""

from __future__ import annotations

import pytest
from pytest_bdd import parsers, then

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .packet_security import property_problems
from .packet_steps import PACKET, _packet
from .phrases import phrase
from .world import World


def _absent(world: World, header: str) -> None:
    if world.node is not None:
        world.node.user_properties.append(("absent", header))


@then(parsers.re(rf"^{PACKET} has a PrivacyLevel, HashAlgorithm and EncryptionAlgorithm that MS-MQMQ allows$"))
def security_properties_allowed(world: World, label=None):
    decoded, _, _ = _packet(world, label)
    problems = property_problems(decoded.privacy_level, decoded.hash_algorithm, decoded.encryption_algorithm)
    assert not problems, "\n  ".join(problems)


@then(parsers.re(rf"^{PACKET} has a well-formed SecurityHeader, if it has one$"))
def security_header_well_formed(world: World, label=None):
    decoded, _, _ = _packet(world, label)
    if decoded.security_header is None:
        assert not decoded.flags.get("SH"), "UserHeader.Flags.SH is set but no SecurityHeader was read"
        _absent(world, "SecurityHeader")
        return
    problems = [line for line in decoded.violations if line.startswith("MS-MQMQ 2.2.20.6")]
    assert not problems, "\n  ".join(problems)


@then(parsers.re(rf"^{PACKET} has a well-formed MQFSignatureHeader, if it has a MultiQueueFormatHeader$"))
def mqf_signature_well_formed(world: World, label=None):
    decoded, _, _ = _packet(world, label)
    if not decoded.flags.get("MQ"):
        _absent(world, "MultiQueueFormatHeader")
        return
    assert decoded.mqf_signature is not None, "UserHeader.Flags.MQ is set but no MQFSignatureHeader was read"
    problems = [line for line in decoded.violations if line.startswith("MS-MQMQ 2.2.20.3")]
    assert not problems, "\n  ".join(problems)


@then(phrase("the send is accepted with status 0, or not run if the target refuses privacy level {level:d}"))
def private_send_accepted(world: World, level):
    """A queue manager without encryption keys (a Windows host in a workgroup) refuses private messages; that
    says nothing about the fields of the messages it does take, so the scenario is then not run."""
    status = getattr(world.last, "r_status", None)
    if level and not (world.status == HRESULT.MQ_OK and status == 0):
        pytest.skip(f"not run: the target refuses messages of privacy level {level} "
                    f"({describe_hresult(world.status)}, Enqueue Message status {status})")
    assert world.status == HRESULT.MQ_OK, describe_hresult(world.status)
    assert status == 0, f"Enqueue Message status {status}, expected 0"
