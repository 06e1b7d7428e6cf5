"""MS-MQDMPR 3.1.7.1.13 Read Message By Lookup Identifier and 3.1.7.3.3 Seek Available Message
Position With Id, plus property tests of LookupIdentifier construction (3.1.7.1.9).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mqspec.reference.clock import VirtualClock
from mqspec.reference.enumerations import MessageSeekAction as S, OperationType
from mqspec.reference.message import Message
from mqspec.reference.queue_manager import QueueManager
from tests.conftest import (
    COMPUTER,
    LOCKED,
    TX,
    C,
    H,
    labels,
    make_queue,
    open_descriptor,
    send,
)

NOT_FOUND = H.MQ_ERROR_MESSAGE_NOT_FOUND
LOW7 = (1 << 56) - 1




@pytest.fixture
def q(qm):
    """Queue with A(3) B(5) C(3) D(1) sent in that order: list order B A C D, ids 1 2 3 4."""
    queue, fn = make_queue(qm)
    ids = {}
    for label, priority in [("A", 3), ("B", 5), ("C", 3), ("D", 1)]:
        ids[label] = send(qm, fn, label=label, priority=priority).lookup_identifier
    return queue, fn, open_descriptor(qm, fn), ids


def read(qm, descriptor, lookup_id, action, peek=True, **kw):
    return qm.read_message_by_lookup_identifier(descriptor, lookup_id, peek, action, **kw)


def test_ids_follow_arrival_not_position(q):
    """MS-MQDMPR:3.1.7.1.9:03 / digest A-3: non-transactional ids grow with arrival; the list is
    in priority order."""
    queue, fn, descriptor, ids = q
    assert [ids[x] for x in "ABCD"] == [1, 2, 3, 4]
    assert labels(queue) == ["B", "A", "C", "D"]


@pytest.mark.parametrize("action, start, expected", [
    (S.SeekCurrent, "A", "A"),
    (S.SeekCurrent, "D", "D"),
    (S.SeekNext, "A", "C"),       # list order, not numeric order
    (S.SeekNext, "B", "A"),
    (S.SeekNext, "C", "D"),
    (S.SeekPrevious, "A", "B"),
    (S.SeekPrevious, "D", "C"),
    (S.SeekPrevious, "C", "A"),
    (S.SeekFirst, "D", "B"),
    (S.SeekFirst, "B", "B"),
    (S.SeekLast, "B", "D"),
    (S.SeekLast, "A", "D"),
])
def test_peek_by_lookup_identifier_each_action(qm, q, action, start, expected):
    """MS-MQDMPR:3.1.7.3.3 SeekCurrent / SeekNext / SeekPrevious / SeekFirst / SeekLast follow the
    list's Next and Previous links (MS-MQDMPR:3.1.7.3.2:01, 3.1.7.3.2:02); a peek leaves the
    message in place."""
    queue, fn, descriptor, ids = q
    request = read(qm, descriptor, ids[start], action)
    assert request.status == H.MQ_OK and request.message.label == expected
    assert labels(queue) == ["B", "A", "C", "D"]


@pytest.mark.parametrize("action, start", [(S.SeekNext, "D"), (S.SeekPrevious, "B")])
@pytest.mark.parametrize("peek", [True, False])
def test_nothing_next_or_previous_is_not_found(qm, q, action, start, peek):
    """D-04: a seek that finds nothing before the first / after the last message gives
    MQ_ERROR_MESSAGE_NOT_FOUND."""
    queue, fn, descriptor, ids = q
    request = read(qm, descriptor, ids[start], action, peek)
    assert request.status == NOT_FOUND and request.message is None
    assert labels(queue) == ["B", "A", "C", "D"]


@pytest.mark.parametrize("action", list(S))
@pytest.mark.parametrize("peek", [True, False])
def test_unknown_lookup_identifier_is_not_found(qm, q, action, peek):
    """MS-MQDMPR:3.1.7.3.3:01 no position has the id: MQ_ERROR_MESSAGE_NOT_FOUND for every action,
    SeekFirst and SeekLast included."""
    queue, fn, descriptor, ids = q
    assert read(qm, descriptor, 999, action, peek).status == NOT_FOUND
    assert read(qm, descriptor, 0, action, peek).status == NOT_FOUND


def test_empty_queue_first_and_last(qm):
    """MS-MQDMPR:3.1.7.3.3:01 an empty queue has no id to look up."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    assert read(qm, descriptor, 1, S.SeekFirst).status == NOT_FOUND


@pytest.mark.parametrize("action, start, expected", [
    (S.SeekCurrent, "C", "C"), (S.SeekNext, "A", "C"), (S.SeekPrevious, "A", "B"),
    (S.SeekFirst, "D", "B"), (S.SeekLast, "B", "D"),
])
def test_receive_by_lookup_identifier_deletes(qm, q, deleted, action, start, expected):
    """MS-MQDMPR:3.1.7.1.13:03 a non-peek read without transaction or two-phase read deletes the
    position with reason AckReceive."""
    queue, fn, descriptor, ids = q
    request = read(qm, descriptor, ids[start], action, peek=False)
    assert request.status == H.MQ_OK and request.message.label == expected
    assert deleted == [(expected, C.MQMSG_CLASS_ACK_RECEIVE)]
    assert expected not in labels(queue)


def test_received_message_is_no_longer_found(qm, q):
    """D-05 / D-06: a message that left the queue is not found by its lookup identifier any more
    (MQ_ERROR_MESSAGE_NOT_FOUND, never ALREADY_RECEIVED)."""
    queue, fn, descriptor, ids = q
    assert read(qm, descriptor, ids["A"], S.SeekCurrent, peek=False).status == H.MQ_OK
    for action in S:
        assert read(qm, descriptor, ids["A"], action).status == NOT_FOUND
    # even while a cursor keeps the removed position as a tombstone
    cursor = qm.open_cursor(descriptor)
    assert qm.peek_message(descriptor, timeout=0, cursor=cursor).message.label == "B"
    assert read(qm, descriptor, ids["B"], S.SeekCurrent, peek=False).status == H.MQ_OK
    assert read(qm, descriptor, ids["B"], S.SeekCurrent).status == NOT_FOUND


def test_two_phase_lookup_read_locks(qm, q, deleted):
    """MS-MQDMPR:3.1.7.1.13:03 iTwoPhaseRead locks the position instead of deleting it."""
    queue, fn, descriptor, ids = q
    request = read(qm, descriptor, ids["C"], S.SeekCurrent, peek=False, two_phase_read=True)
    assert request.status == H.MQ_OK and request.position.state == LOCKED
    assert deleted == [] and "C" in labels(queue)


def test_transactional_lookup_read(qm, q, deleted):
    """MS-MQDMPR:3.1.7.1.13:03 with a transaction: Locked plus a Dequeue operation (AckReceive)."""
    queue, fn, descriptor, ids = q
    transaction = qm.create_transaction(TX)
    request = read(qm, descriptor, ids["D"], S.SeekCurrent, peek=False, transaction=transaction)
    assert request.status == H.MQ_OK and request.position.state == LOCKED
    [operation] = transaction.transactional_operation_collection
    assert operation.operation_type is OperationType.Dequeue
    assert operation.dequeue_reason == C.MQMSG_CLASS_ACK_RECEIVE
    assert operation.message_position_reference is request.position
    assert deleted == []
    qm.transaction_commit(TX)
    assert deleted == [("D", C.MQMSG_CLASS_ACK_RECEIVE)]


def test_peek_of_locked_message_needs_allow_peek_when_locked(qm):
    """MS-MQDMPR:3.1.7.3.3:02 SeekCurrent on a Locked message during a peek: found with
    AllowPeekWhenLocked, else MQ_ERROR_TRANSACTION_USAGE."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    plain = send(qm, fn, label="plain")
    allowed = send(qm, fn, label="allowed", allow_peek_when_locked=True)
    qm.dequeue_message_begin(descriptor, timeout=0)
    qm.dequeue_message_begin(descriptor, timeout=0)
    assert read(qm, descriptor, plain.lookup_identifier, S.SeekCurrent).status == H.MQ_ERROR_TRANSACTION_USAGE
    request = read(qm, descriptor, allowed.lookup_identifier, S.SeekCurrent)
    assert request.status == H.MQ_OK and request.message is allowed and request.position.state == LOCKED


def test_receive_of_locked_message_is_not_found(qm):
    """D-05: a receive by lookup id of a Locked message (even with AllowPeekWhenLocked) is
    MQ_ERROR_MESSAGE_NOT_FOUND, and the lock is untouched."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    message = send(qm, fn, label="a", allow_peek_when_locked=True)
    begin = qm.dequeue_message_begin(descriptor, timeout=0)
    assert read(qm, descriptor, message.lookup_identifier, S.SeekCurrent, peek=False).status == NOT_FOUND
    assert begin.position.state == LOCKED


@pytest.mark.parametrize("peek", [True, False])
def test_purge_pending_message_is_not_found(qm, peek):
    """D-05: SeekCurrent on a PurgePending message: MQ_ERROR_MESSAGE_NOT_FOUND for peeks and
    receives."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    message = send(qm, fn, label="a", allow_peek_when_locked=True)
    qm.dequeue_message_begin(descriptor, timeout=0)
    qm.purge_queue(queue)
    assert read(qm, descriptor, message.lookup_identifier, S.SeekCurrent, peek).status == NOT_FOUND


def test_next_and_previous_skip_locked_messages(qm):
    """MS-MQDMPR:3.1.7.3.2:01 / 3.1.7.3.2:02 SeekNext / SeekPrevious skip positions that are not
    Available; a peek stops on a Locked one with AllowPeekWhenLocked, a receive does not."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    a = send(qm, fn, label="a")
    send(qm, fn, label="hidden")
    send(qm, fn, label="shown", allow_peek_when_locked=True)
    d = send(qm, fn, label="d")
    assert read(qm, descriptor, a.lookup_identifier, S.SeekCurrent, peek=False, two_phase_read=True).status == H.MQ_OK
    # now lock hidden and shown (a is locked already)
    qm.dequeue_message_begin(descriptor, timeout=0)
    qm.dequeue_message_begin(descriptor, timeout=0)
    assert read(qm, descriptor, a.lookup_identifier, S.SeekNext).message.label == "shown"
    assert read(qm, descriptor, d.lookup_identifier, S.SeekPrevious).message.label == "shown"
    assert read(qm, descriptor, a.lookup_identifier, S.SeekNext, peek=False, two_phase_read=True).message.label == "d"
    assert read(qm, descriptor, d.lookup_identifier, S.SeekFirst).message.label == "shown"
    assert read(qm, descriptor, d.lookup_identifier, S.SeekLast).message.label == "shown"  # d is locked now
    assert read(qm, descriptor, d.lookup_identifier, S.SeekPrevious, peek=False).status == NOT_FOUND


def test_lookup_queue_not_available(qm, q):
    """MS-MQDMPR:3.1.7.1.13:02 / MS-MQDMPR:3.1.7.1.13 a descriptor whose queue was deleted: MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn, descriptor, ids = q
    qm.delete_queue(queue)
    assert read(qm, descriptor, ids["A"], S.SeekCurrent).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE


def test_lookup_never_waits(qm):
    """MS-MQDMPR:3.1.7.1.13:02 / D-04 / MS-MQDMPR:3.1.7.1.13 the event has no time-out: it never registers a waiter."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    a = send(qm, fn, label="a")
    assert read(qm, descriptor, a.lookup_identifier, S.SeekNext, peek=False).status == NOT_FOUND
    assert descriptor.waiting_message_read_operation_collection == []


# -- property tests of LookupIdentifier construction ----------------------------------------

ENQUEUES = st.lists(st.tuples(st.integers(0, 2),          # which queue
                              st.integers(0, 7),          # priority
                              st.booleans(),              # transactional message?
                              st.booleans()),             # inside a transaction?
                    min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(ENQUEUES)
def test_property_lookup_identifiers(enqueues):
    """MS-MQDMPR:3.1.7.1.9:03 / MS-MQDMPR:3.1.1.12:01 for any sequence of enqueues into several
    queues: the low 7 bytes equal the new SequentialID and strictly increase with arrival across
    queues; the high byte is 0x00 for non-transactional messages and 0x07 - Priority for
    transactional ones; ids are unique."""
    qm = QueueManager(VirtualClock(), computer_name=COMPUTER, queue_manager_quota=1 << 40)
    queues = [make_queue(qm, f"q{n}")[0] for n in range(3)]
    transaction = qm.create_transaction(TX)
    previous_low = -1
    seen = set()
    for index, priority, transactional, in_transaction in enqueues:
        message = Message(b"", label=str(len(seen)), priority=priority,
                          transactional_message_sequence_identifier=b"\x02" * 8 if transactional else None)
        before = qm.sequential_id
        assert qm.enqueue_message(queues[index], message, transaction if in_transaction else None) == 0
        assert qm.sequential_id == before + 1
        low = message.lookup_identifier & LOW7
        assert low == qm.sequential_id & LOW7
        assert low > previous_low
        previous_low = low
        assert message.lookup_identifier >> 56 == ((0x07 - priority) if transactional else 0x00)
        assert message.lookup_identifier not in seen
        seen.add(message.lookup_identifier)
        # the id finds the message again (MS-MQDMPR:3.1.7.3.3)
        assert queues[index].message_position_list.index[message.lookup_identifier].message_reference is message
