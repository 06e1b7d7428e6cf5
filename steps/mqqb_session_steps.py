"""Steps that set up an MS-MQQB session wrongly, or in an unusual way, and judge what the target does with it.

    Given another queue manager "remote" connected to the target with no session
    When "remote" asks for a session naming another queue manager as ServerGuid
    Then the target answered "remote" with CS set
    And the target closed the session of "remote"

The suite plays the initiator (MS-MQQB 3.1.5.2.3): its EstablishConnection names as ServerGuid the target's
GUID, a GUID of no queue manager, or zeros (a direct format name); its ConnectionParameters and SessionAcks can
come out of their turn (3.1.5.3 - 3.1.5.5), and a SessionAck can claim counts of its own (3.1.5.5: the target
checks UserMsgSequenceNumber and RecoverableMsgSeqNumber against what it received).  The peer is mqqb_steps.Peer.
"""

from __future__ import annotations

import struct
import time
import uuid

import pytest
from pytest_bdd import given, then, when

from .blame import clause_failure
from ..adapters.mqqb.packets import connection_parameters, establish_connection, session_ack
from .mqqb_steps import ACK_TIMEOUT, ANSWER_FAULTS, RECOVERABLE_ACK_TIMEOUT, WINDOW, _peer, with_base_fields
from .phrases import phrase
from .world import World

CS = 0x0010                     # MS-MQQB 2.2.1 InternalHeader.Flags.CS: the connection is refused
ANSWER_WAIT_MS = 2000


def _answer(world: World, remote: str, kind: str):
    """The first `kind` packet the target sent "remote" on its own session, waiting for it a little."""
    peer = _peer(world, remote)
    deadline = time.monotonic() + ANSWER_WAIT_MS / 1000
    while True:
        closed = peer.connection.closed       # what came before the close is still read below
        peer.collect(0 if closed else 100, move_clock=False)
        found = [p for p in peer.received if p.kind == kind and p.session == "own"]
        if found or closed or time.monotonic() > deadline:
            return found[0] if found else None


@when(phrase('"{remote}" asks for a session naming {whom} as ServerGuid',
             whom="the target|another queue manager|zeros"))
def ask_for_session(world: World, remote, whom, stamp: str | None = None):
    """MS-MQQB 3.1.5.2.3 an EstablishConnection request: ServerGuid the target's, a random GUID, or zero-filled
    (what an initiator sends for a direct format name); TimeStamp the scenario's, else milliseconds since boot."""
    peer = _peer(world, remote)
    server = {"the target": world.target.queue_manager_identifier, "another queue manager": uuid.uuid4().bytes_le,
              "zeros": bytes(16)}[whom]
    peer.send(establish_connection(peer.guid, server, int(time.monotonic() * 1000) if stamp is None
                                   else int(stamp, 0)))
    _answer(world, remote, "EstablishConnection")


@when(phrase('"{remote}" asks for a session naming {whom} as ServerGuid with TimeStamp {stamp}',
             whom="the target|zeros"))
def ask_with_stamp(world: World, remote, whom, stamp):
    ask_for_session(world, remote, whom, stamp)


@when(phrase('"{remote}" asks for a session naming the target as ServerGuid with OperatingSystem.SE 0'))
def ask_after_a_ping(world: World, remote):
    """MS-MQQB 2.2.3.1 SE 0: the initiator sent a Ping Request while it made the session (3.1.5.2.2)."""
    peer = _peer(world, remote)
    request = establish_connection(peer.guid, world.target.queue_manager_identifier, int(time.monotonic() * 1000))
    operating_system = struct.unpack_from("<H", request, 56)[0] & ~0x0100   # after the two GUIDs and TimeStamp
    peer.send(request[:56] + struct.pack("<H", operating_system) + request[58:])
    _answer(world, remote, "EstablishConnection")


@then(phrase('the target\'s EstablishConnection response to "{remote}" carries OperatingSystem.SE {bit:d}'))
def answered_session_flag(world: World, remote, bit):
    """MS-MQQB 2.2.3.1: the receiver sends the request's SE bit back."""
    answer = _answer(world, remote, "EstablishConnection")
    assert answer is not None, f"the target sent {remote!r} no EstablishConnection response"
    assert answer.fields[3] >> 8 & 1 == bit, f"the response's OperatingSystem is 0x{answer.fields[3]:04X}: SE not {bit}"


@then(phrase('the target\'s EstablishConnection response to "{remote}" carries TimeStamp {stamp}'))
def answered_stamp(world: World, remote, stamp):
    """MS-MQQB 3.1.5.3.1: the response's TimeStamp is the request's (2.2.3.1: the field after the two GUIDs)."""
    answer = _answer(world, remote, "EstablishConnection")
    assert answer is not None, f"the target sent {remote!r} no EstablishConnection response"
    assert answer.fields[2] == int(stamp, 0), \
        f"the response's TimeStamp is 0x{answer.fields[2]:08X}, not the request's {stamp}"


@when(phrase('"{remote}" asks for a session naming the target as ServerGuid in a packet whose {field} is {value}',
             field="VersionNumber|Signature|BaseHeader.Flags|InternalHeader.Flags"))
def ask_with_base_field(world: World, remote, field, value):
    """MS-MQQB 3.1.5.1.2 an EstablishConnection request whose BaseHeader carries a VersionNumber or Signature of the
    scenario's, or whose BaseHeader.Flags or InternalHeader.Flags (MS-MQQB 2.2.1, bytes 18-19) are the scenario's,
    the rest of it right."""
    peer = _peer(world, remote)
    request = establish_connection(peer.guid, world.target.queue_manager_identifier, int(time.monotonic() * 1000))
    offset = {"BaseHeader.Flags": 2, "InternalHeader.Flags": 18}.get(field)   # MS-MQMQ 2.2.19.1, MS-MQQB 2.2.1
    if offset is None:
        peer.send(with_base_fields(request, {field: value}))
    else:
        peer.send(request[:offset] + struct.pack("<H", int(value, 0)) + request[offset + 2:])
    _answer(world, remote, "EstablishConnection")


@then(phrase('the target sent "{remote}" no EstablishConnection response'))
def no_establish_answer(world: World, remote):
    answer = _answer(world, remote, "EstablishConnection")
    assert answer is None, (f"the target answered {remote!r}'s EstablishConnection (InternalHeader.Flags "
                            f"0x{answer.internal_flags:04X}) instead of discarding the packet")


@when(phrase('"{remote}" sends its ConnectionParameters'))
def send_parameters(world: World, remote):
    """MS-MQQB 3.1.5.3.2 the initiator's ConnectionParameters request (the shortest time-outs 2.2.2.1 allows)."""
    _peer(world, remote).send(connection_parameters(RECOVERABLE_ACK_TIMEOUT, ACK_TIMEOUT, WINDOW))
    _answer(world, remote, "ConnectionParameters")


@when(phrase('"{remote}" sends another EstablishConnection request on its session'))
def second_establish(world: World, remote):
    peer = _peer(world, remote)
    peer.send(establish_connection(peer.guid, world.target.queue_manager_identifier, int(time.monotonic() * 1000)))
    peer.collect(200, move_clock=False)


@when(phrase('"{remote}" acknowledges the session claiming {sent:d} messages sent, {recoverable:d} of them '
             'recoverable'))
def claim_counts(world: World, remote, sent, recoverable):
    """MS-MQQB 2.2.6 a SessionAck whose UserMsgSequenceNumber and RecoverableMsgSeqNumber are the scenario's,
    whatever "remote" really sent; it acknowledges what "remote" received."""
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)
    received = sum(1 for packet in peer.received if not packet.internal and packet.session == "own")
    peer.send(session_ack(received, 0, 0, sent, recoverable, WINDOW))
    peer.collect(200, move_clock=False)


@then(phrase('the target answered "{remote}" with CS set'))
def answered_refused(world: World, remote):
    answer = _answer(world, remote, "EstablishConnection")
    assert answer is not None, f"the target sent {remote!r} no EstablishConnection response"
    assert answer.internal_flags & CS, \
        f"the target accepted the session (InternalHeader.Flags 0x{answer.internal_flags:04X})"


@then(phrase('the target answered "{remote}" with CS clear, its ClientGuid and the target\'s GUID as ServerGuid'))
def answered_accepted(world: World, remote):
    """MS-MQQB 2.2.3.1: the response echoes ClientGuid; ServerGuid is the acceptor's GUID when the request's was zero
    (and the request's, which is the acceptor's, otherwise)."""
    peer = _peer(world, remote)
    answer = _answer(world, remote, "EstablishConnection")
    assert answer is not None, f"the target sent {remote!r} no EstablishConnection response"
    assert not answer.internal_flags & CS, \
        f"the target refused the session (InternalHeader.Flags 0x{answer.internal_flags:04X})"
    client, server = bytes(answer.fields[0]), bytes(answer.fields[1])
    assert client == peer.guid, f"the response's ClientGuid is {uuid.UUID(bytes_le=client)}, not the request's"
    assert server == world.target.queue_manager_identifier, \
        f"the response's ServerGuid is {uuid.UUID(bytes_le=server)}, not the target's GUID"


@then(phrase('the target sent "{remote}" no ConnectionParameters'))
def no_parameters(world: World, remote):
    peer = _peer(world, remote)
    peer.collect(200, move_clock=False)
    kinds = [p.kind for p in peer.received if p.session == "own"]
    assert "ConnectionParameters" not in kinds, f"the target answered ConnectionParameters ({kinds})"


@then(phrase('the target answered "{remote}"\'s ConnectionParameters giving WindowSize {window:d}'))
def parameters_window(world: World, remote, window):
    """MS-MQQB 3.1.3.2 (SHOULD): an acceptor's WindowSize is 64; 2.2.3.2 ConnectionParameters' last field."""
    answer = _answer(world, remote, "ConnectionParameters")
    assert answer is not None, f"the target sent {remote!r} no ConnectionParameters"
    assert answer.fields[3] == window, f"the target's ConnectionParameters gives WindowSize {answer.fields[3]}"


@then(phrase('the target answered "{remote}"\'s ConnectionParameters'))
def parameters_answered(world: World, remote):
    assert _answer(world, remote, "ConnectionParameters") is not None, \
        f"the target sent {remote!r} no ConnectionParameters"


INITIATOR_REQUEST, INITIATOR_PARAMETERS = "MS-MQQB:3.1.5.2.3:01", "MS-MQQB:3.1.5.3.2:01"


@then(phrase('a session the target opened to "{remote}", if it opened one (D-76 new-session), began as an '
             'initiator\'s does'))
def target_initiated_session(world: World, remote):
    """MS-MQQB 3.1.5.2.3 the EstablishConnection request (2.2.3.1: RE 0x10, SE 1 when no ping was sent, Reserved 0;
    ClientGuid the target's, ServerGuid this queue manager's or zero for a direct name), then 3.1.5.3.2 the
    ConnectionParameters request (PT 3, CS clear, RecoverableAckTimeout from 0x1F4 to 0x1D4C0)."""
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)
    set_up = peer.set_up_by_target
    if not set_up:
        pytest.skip(f"not run: the target opened no session to {remote!r} (the D-76 reading same-session)")
    arrived = [packet.kind for packet in peer.received if packet.session != "own"][:2]
    if arrived != ["EstablishConnection", "ConnectionParameters"]:
        raise clause_failure(f"the session the target opened to {remote!r} began with {arrived}, not an "
                             f"EstablishConnection then ConnectionParameters ({INITIATOR_REQUEST})", INITIATOR_REQUEST)
    request = set_up[0]
    client, server, _, operating_system, reserved = request.fields
    if (request.kind != "EstablishConnection" or request.internal_flags & 0xF != 2 or request.internal_flags & CS
            or bytes(client) != world.target.queue_manager_identifier or bytes(server) not in (peer.guid, bytes(16))
            or operating_system & 0xFF != 0x10 or not operating_system >> 8 & 1 or reserved
            or request.problems):   # decode's: InternalHeader.Reserved 0, 572 bytes
        raise clause_failure(f"the target's session began with {request.kind} InternalHeader.Flags "
                             f"0x{request.internal_flags:04X}, ClientGuid {uuid.UUID(bytes_le=bytes(client))}, "
                             f"ServerGuid {uuid.UUID(bytes_le=bytes(server))}, OperatingSystem 0x{operating_system:04X}, "
                             f"Reserved {reserved} {request.problems or ''} ({INITIATOR_REQUEST})", INITIATOR_REQUEST)
    parameters = next((packet for packet in set_up[1:] if packet.kind == "ConnectionParameters"), None)
    assert parameters is not None, f"the target sent no ConnectionParameters on the session it opened to {remote!r}"
    recoverable_ack_timeout, _, _, window = parameters.fields
    if (parameters.internal_flags & 0xF != 3 or parameters.internal_flags & CS
            or not 0x1F4 <= recoverable_ack_timeout <= 0x1D4C0 or not 1 <= window <= 0xFFFF
            or parameters.problems):   # decode's: both Reserved fields 0, 32 bytes
        raise clause_failure(f"the target's ConnectionParameters request has InternalHeader.Flags "
                             f"0x{parameters.internal_flags:04X}, RecoverableAckTimeout {recoverable_ack_timeout}, "
                             f"WindowSize {window} {parameters.problems or ''} ({INITIATOR_PARAMETERS})",
                             INITIATOR_PARAMETERS)


@given(phrase('"{remote}" answers a session the target opens to it with {fault}', fault="|".join(ANSWER_FAULTS)))
def answer_with_fault(world: World, remote, fault):
    _peer(world, remote).answer_fault = fault


RESPONSE_CHECKED = "MS-MQQB:3.1.5.3.2:02"


@then(phrase('a session the target opened to "{remote}", if it opened one (D-76 new-session), was closed without '
             'ConnectionParameters'))
def target_session_refused(world: World, remote):
    """MS-MQQB 3.1.5.3.2: a response whose ClientGuid is not the initiator's, whose ServerGuid is not the queue
    manager it asked for, or with CS set, is discarded and the session closed: no ConnectionParameters follows."""
    peer = _peer(world, remote)
    peer.collect(500, move_clock=True)
    if not peer.set_up_by_target:
        pytest.skip(f"not run: the target opened no session to {remote!r} (the D-76 reading same-session)")
    kinds = [packet.kind for packet in peer.set_up_by_target]
    open_ones = [connection for connection, _ in peer.opened_by_target if not connection.closed]
    if "ConnectionParameters" in kinds or open_ones:
        raise clause_failure(f"after a response with {peer.answer_fault} the target sent {kinds} and left "
                             f"{len(open_ones)} session(s) open ({RESPONSE_CHECKED})", RESPONSE_CHECKED)
