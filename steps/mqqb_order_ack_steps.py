"""Steps that judge the OrderAcks a target sends for the transactional messages the suite's peer sent it.

    When "remote" sends the prepared message "t1" to "ledger" with packet fields:
      | TH | 1 |
    And "remote" waits 499 ms for the target's packets
    Then "remote" received no OrderAck
    When "remote" waits 1 ms for the target's packets
    Then "remote" received an OrderAck for "t1"

A receiver acknowledges the transactional messages it takes with an OrderAck (MS-MQQB 2.2.4): a UserMessage
to the sender's order queue, labelled "QM Ordering Ack", of class MQMSG_CLASS_ORDER_ACK, whose 36-byte body
(2.2.4.1) names the sequence and number of the message acknowledged.  It goes out when the receiver's Order
Ack Send Timer expires, OrderAckTimeout (500 ms, 3.1.3.2) after the last transactional message (3.1.5.8.6).
It may come on the session the peer opened or on one the target opens to it (D-76); Peer.collect reads both,
and the waits move a target's clock when it has virtual time (mqqb_steps).
"""

from __future__ import annotations

import struct
import time

from pytest_bdd import then, when

from .blame import clause_failure
from .mqqb_steps import _final_acks, _peer, _send, check_order_queue
from .phrases import phrase
from .world import World

ORDER_ACK_FLAGS = "MS-MQQB:2.2.4:01"
ORDER_ACK_BODY = "MS-MQQB:2.2.4.1:01"
ONE_SESSION = "MS-MQQB:3.1.5.2.3:02"
NOT_AN_ACK = "MS-MQQB:3.1.5.1.1:02"
COUNTS = "MS-MQMQ:2.2.20.4:01"
SESSION_ACK_POLLS, SESSION_ACK_POLL_MS = 26, 5000   # up to 130 s: an AckWaitTimeout / 2 of a session the target opened
_MP = 1 << 21   # MS-MQMQ 2.2.19.2 UserHeader.Flags.MP: a MessagePropertiesHeader follows
_BODY = struct.Struct("<8sII20s")   # MS-MQQB 2.2.4.1: TxSequenceID, TxSequenceNumber, TxPreviousSequenceNumber


LATE_S = 3.0


def _names(found: list, number: int) -> bool:
    return any(len(ack.body) == _BODY.size and _BODY.unpack(ack.body)[1] == number for ack in found)


def _order_acks(world: World, remote: str) -> list:
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)   # what came during the scenario's waits
    return [packet for packet in peer.received if packet.kind == "OrderAck"]


@then(phrase('"{remote}" received no OrderAck'))
def no_order_ack(world: World, remote):
    world.require("virtual_time")   # "not yet" is judged just short of a timer's expiry, which a wall clock passes
    found = _order_acks(world, remote)
    assert not found, f"{remote!r} received {len(found)} OrderAck(s) already"


@then(phrase('"{remote}" received no OrderAck for "{label}"'))
def no_order_ack_for(world: World, remote, label):
    """None of the OrderAcks "remote" received yet names `label` (an earlier one may name an earlier message)."""
    world.require("virtual_time")   # "not yet" is judged just short of a timer's expiry, which a wall clock passes
    peer = _peer(world, remote)
    assert label in peer.transactions, f"{remote!r} sent no transactional message {label!r}"
    assert not _names(_order_acks(world, remote), peer.transactions[label][2]), \
        f"{remote!r} received an OrderAck for {label!r} already"


@then(phrase('"{remote}" received an OrderAck or a negative FinalAck for "{label}", as a message'))
def ordered_or_refused(world: World, remote, label):
    """A transactional UserMessage is either taken and ordered (an OrderAck names it, 3.1.5.8.6) or refused (a
    FinalAck of a NACK class names it, 3.1.5.8.2); a packet taken for an acknowledgment brings neither
    (MS-MQQB:3.1.5.1.1:02)."""
    peer = _peer(world, remote)
    assert label in peer.transactions, f"{remote!r} sent no transactional message {label!r}"
    # MS-MQMQ 2.2.18.1.6: every negative acknowledgment class has bit 0x8000 set
    refused = [packet for packet in _final_acks(world, remote, label) if packet.message_class & 0x8000]
    number = peer.transactions[label][2]
    ordered = _names(_order_acks(world, remote), number)
    if not (ordered or refused):
        raise clause_failure(f"the target neither ordered {label!r} (no OrderAck names TxSequenceNumber {number}) "
                             f"nor refused it (no negative FinalAck): it took the UserMessage for an acknowledgment "
                             f"({NOT_AN_ACK})", NOT_AN_ACK)
    if refused:
        world.observe("D-76", "same-session" if refused[0].session == "own" else "new-session")


@then(phrase('"{remote}" received an OrderAck for "{label}"'))
def order_ack_for(world: World, remote, label):
    """The last OrderAck "remote" received acknowledges `label`, the last transactional message it sent; its
    headers are those of MS-MQQB 2.2.4 and its body that of 2.2.4.1."""
    peer = _peer(world, remote)
    assert label in peer.transactions, f"{remote!r} sent no transactional message {label!r}"
    found = _order_acks(world, remote)
    deadline = time.monotonic() + LATE_S
    while not _names(found, peer.transactions[label][2]) and time.monotonic() < deadline:
        peer.collect(200, move_clock=False)   # a host on the wall clock may send it a little after the scenario's wait
        found = _order_acks(world, remote)
    assert found, f"{remote!r} received no OrderAck"
    ack = found[-1]
    dq = ack.user_flags >> 10 & 7
    if (ack.base_flags or ack.user_flags != (_MP | dq << 10) or dq not in (3, 7) or len(ack.body) != _BODY.size
            or ack.properties_flags or ack.body_type or ack.privacy_level or ack.problems):   # 2.2.4, 2.2.4.1
        raise clause_failure(f"the OrderAck has BaseHeader.Flags {ack.base_flags:#06x}, UserHeader.Flags "
                             f"{ack.user_flags:#010x}, MessagePropertiesHeader.Flags {ack.properties_flags:#04x}, "
                             f"BodyType {ack.body_type}, PrivacyLevel {ack.privacy_level} and a {len(ack.body)}-byte "
                             f"body {ack.problems or ''}: Flags 0, MP and DQ 3 or 7 alone, Flags 0, VT_EMPTY, a clear "
                             f"36-byte body ({ORDER_ACK_FLAGS})",
                             ORDER_ACK_FLAGS)
    check_order_queue(peer, ack, "the OrderAck")
    sequence_id, number, previous, _ = _BODY.unpack(ack.body)   # Reserved: ignored on receipt
    _, sent_sequence, sent_number, _ = peer.transactions[label]
    if (sequence_id, number, previous) != (sent_sequence, sent_number, sent_number - 1):
        raise clause_failure(f"the OrderAck names TxSequence {sequence_id.hex()}/{number}/{previous}, not "
                             f"{sent_sequence.hex()}/{sent_number}/{sent_number - 1} of {label!r} ({ORDER_ACK_BODY})",
                             ORDER_ACK_BODY)
    world.observe("D-76", "same-session" if ack.session == "own" else "new-session")


def _acknowledgment_session(world: World, remote: str) -> str:
    """The session the target's OrderAcks and FinalAcks came on: "own" (D-76 same-session) or the one it opened
    (new-session); acknowledgments spread over several sessions it opened break MS-MQQB:3.1.5.2.3:02."""
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)
    acks = [packet for packet in peer.received if packet.kind in ("OrderAck", "FinalAck")]
    assert acks, f"{remote!r} received no OrderAck or FinalAck"
    world.observe("D-76", "same-session" if acks[0].session == "own" else "new-session")
    sessions = sorted({packet.session for packet in acks})
    if len(sessions) > 1:
        raise clause_failure(f"the target sent its {len(acks)} acknowledgments for {remote!r} on {len(sessions)} "
                             f"sessions ({', '.join(sessions)}): one outgoing queue opens one session while it is "
                             f"open ({ONE_SESSION})", ONE_SESSION)
    return sessions[0]


@when(phrase('"{remote}" sends the prepared message "{label}" to "{alias}" on the session the acknowledgments '
             'came on'))
def peer_sends_on_acknowledgment_session(world: World, remote, label, alias):
    """A UserMessage on the session the target's acknowledgments came on; on one the target opened (D-76
    new-session) it counts there, not in the peer's own session's counts (MS-MQQB 3.1.1.3.1)."""
    _send(world, remote, label, alias, {}, session=_acknowledgment_session(world, remote))


@then(phrase('the last SessionAck "{remote}" received on the session the acknowledgments came on counts the '
             '{sent:d} UserMessages, {recoverable:d} of them recoverable, that the target sent on it'))
def last_session_ack_counts(world: World, remote, sent, recoverable):
    """MS-MQMQ 2.2.20.4 UserMsgSequenceNumber and RecoverableMsgSeqNumber count what the target sent on the session
    the SessionAck travels on: its OrderAcks and FinalAcks, on the session the peer opened (D-76 same-session) or on
    the one the target opened (new-session; those it held until that session was set up count too, 3.1.5.2.3:02).
    On a session the target opened, its SessionAck may take its own AckWaitTimeout / 2: waited for, bounded."""
    peer = _peer(world, remote)
    session = _acknowledgment_session(world, remote)
    for _ in range(SESSION_ACK_POLLS if session != "own" else 0):
        on_it = [packet for packet in peer.received if packet.session == session]
        if on_it and on_it[-1].kind == "SessionAck":
            break
        peer.collect(SESSION_ACK_POLL_MS, move_clock=True)
    on_it = [packet for packet in peer.received if packet.session == session]
    mine = [packet for packet in on_it if not packet.internal]
    counted = (len(mine), sum(1 for packet in mine if packet.user_flags >> 5 & 3))
    assert counted == (sent, recoverable), \
        f"the target sent {counted[0]} UserMessages ({counted[1]} recoverable) on the session {session!r}"
    last = max((index for index, packet in enumerate(on_it) if packet.kind == "SessionAck"), default=None)
    assert last is not None and last > max(on_it.index(packet) for packet in mine), \
        f"{remote!r} received no SessionAck on the session {session!r} after the target's own UserMessages"
    _, _, _, user_count, recoverable_count, _, _ = on_it[last].fields
    if (user_count, recoverable_count) != counted:
        clause = COUNTS if session == "own" else ONE_SESSION
        raise clause_failure(f"the last SessionAck on the session {session!r} counts {user_count} UserMessages sent "
                             f"({recoverable_count} recoverable), not {counted} ({clause})", clause)
