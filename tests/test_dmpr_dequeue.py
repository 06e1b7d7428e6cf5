"""MS-MQDMPR 3.1.7.1.10 Dequeue Message (seed 001), 3.1.7.1.11 Dequeue Message Begin,
3.1.7.1.12 Dequeue Message End, 3.1.7.1.17 Cancel Waiting Message Read Request and the
waits of 3.1.7.3.1 / 3.1.6.3 they use.
"""

from __future__ import annotations

import pytest

from mqspec.reference.cursor import CursorState
from mqspec.reference.enumerations import OperationType
from tests.conftest import (
    AVAILABLE,
    LOCKED,
    PURGE_PENDING,
    TX,
    WAIT,
    C,
    H,
    labels,
    open_descriptor,
    send,
)


def fill(qm, fn, *items):
    out = []
    for item in items:
        label, priority = (item, 3) if isinstance(item, str) else item
        out.append(send(qm, fn, label=label, priority=priority))
    return out


# -- without a cursor ---------------------------------------------------------------------

def test_plain_dequeue_deletes_with_ack_receive(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.10:08 without transaction or two-phase read the position goes through
    Message Position Deleted with reason AckReceive; rMessage is the message."""
    queue, fn, descriptor = setup
    [a] = fill(qm, fn, "a")
    request = qm.dequeue_message(descriptor, timeout=0)
    assert request.done and request.status == H.MQ_OK and request.message is a
    assert deleted == [("a", C.MQMSG_CLASS_ACK_RECEIVE)]
    assert labels(queue) == [] and a.message_position_reference is None


def test_dequeue_without_cursor_takes_the_front(qm, setup):
    """MS-MQDMPR:3.1.7.1.10:05 / D-01 the first Available message from the front, the very first
    message included, highest priority first."""
    queue, fn, descriptor = setup
    fill(qm, fn, ("low", 1), ("high", 6), ("mid", 3), ("high2", 6))
    got = [qm.dequeue_message(descriptor, timeout=0).message.label for _ in range(4)]
    assert got == ["high", "high2", "mid", "low"]


def test_dequeue_without_cursor_skips_locked_messages(qm, setup):
    """MS-MQDMPR:3.1.7.1.10:05 / MS-MQDMPR:3.1.7.3.2:01 the seek skips positions that are not
    Available (here one locked by a two-phase read)."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b")
    first = qm.dequeue_message(descriptor, timeout=0, two_phase_read=True)
    assert first.message.label == "a"
    second = qm.dequeue_message(descriptor, timeout=0)
    assert second.status == H.MQ_OK and second.message.label == "b"
    assert qm.dequeue_message(descriptor, timeout=0).status == H.MQ_ERROR_IO_TIMEOUT


def test_zero_timeout_on_empty_queue_is_io_timeout(qm, setup):
    """D-03: a read that would have to wait with a zero time-out ends at once with
    MQ_ERROR_IO_TIMEOUT and registers no waiter (MS-MQDMPR:3.1.7.3.1:01)."""
    queue, fn, descriptor = setup
    request = qm.dequeue_message(descriptor, timeout=0)
    assert request.done and request.status == H.MQ_ERROR_IO_TIMEOUT and request.message is None
    assert descriptor.waiting_message_read_operation_collection == []


def test_wait_satisfied_by_a_later_enqueue(qm, setup, clock, deleted):
    """MS-MQDMPR:3.1.7.3.1:02 / 3.1.7.1.10:05 an empty queue makes the read wait; the next
    message satisfies it and is deleted with AckReceive."""
    queue, fn, descriptor = setup
    request = qm.dequeue_message(descriptor, timeout=5_000)
    assert not request.done
    clock.advance(1_000)
    qm.run_timers()
    [a] = fill(qm, fn, "a")
    assert request.done and request.status == H.MQ_OK and request.message is a
    assert deleted == [("a", C.MQMSG_CLASS_ACK_RECEIVE)]
    clock.advance(10_000)
    qm.run_timers()  # the wait's timer was cancelled: nothing changes
    assert request.status == H.MQ_OK


def test_wait_timer_expiry_is_io_timeout(qm, setup, clock):
    """MS-MQDMPR:3.1.6.3:01 / MS-MQDMPR:3.1.2.3:01 the waiting read's timer fires after exactly its
    duration (milliseconds, D-02) and ends the read with MQ_ERROR_IO_TIMEOUT."""
    queue, fn, descriptor = setup
    request = qm.dequeue_message(descriptor, timeout=5_000)
    clock.advance(4_999)
    qm.run_timers()
    assert not request.done
    clock.advance(1)
    qm.run_timers()
    assert request.done and request.status == H.MQ_ERROR_IO_TIMEOUT
    assert descriptor.waiting_message_read_operation_collection == []
    fill(qm, fn, "late")
    assert labels(queue) == ["late"]  # nobody took it


def test_missing_timeout_means_infinite(qm, setup, clock):
    """MS-MQDMPR:3.1.7.1.10:02 / MS-MQDMPR:3.1.2.3:01 no iTimeout is Infinite: no timer, the read
    waits however long it takes."""
    queue, fn, descriptor = setup
    timers = len(qm.timers)
    request = qm.dequeue_message(descriptor)
    assert len(qm.timers) == timers
    clock.advance(10**9)
    qm.run_timers()
    assert not request.done
    fill(qm, fn, "a")
    assert request.status == H.MQ_OK and request.message.label == "a"


def test_queue_not_available_after_delete(qm, setup):
    """MS-MQDMPR:3.1.7.1.10:01 a descriptor whose queue was deleted gives
    MQ_ERROR_QUEUE_NOT_AVAILABLE, with or without a cursor."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    qm.delete_queue(queue)
    assert qm.dequeue_message(descriptor, timeout=0).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE
    assert qm.dequeue_message(descriptor, timeout=0, cursor=cursor).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE
    assert qm.dequeue_message_begin(descriptor, timeout=0).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE


def test_two_phase_dequeue_locks(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.10:07 iTwoPhaseRead locks the position and does not delete it."""
    queue, fn, descriptor = setup
    [a] = fill(qm, fn, "a")
    request = qm.dequeue_message(descriptor, timeout=0, two_phase_read=True)
    assert request.status == H.MQ_OK and request.message is a
    assert request.position.state == LOCKED
    assert labels(queue) == ["a"] and deleted == []


def test_transactional_dequeue_locks_and_records_dequeue(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.10:06 with a transaction the position is Locked and a Dequeue operation
    with DequeueReason AckReceive is appended."""
    queue, fn, descriptor = setup
    [a] = fill(qm, fn, "a")
    transaction = qm.create_transaction(TX)
    request = qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    assert request.status == H.MQ_OK and request.message is a
    assert request.position.state == LOCKED and deleted == []
    [operation] = transaction.transactional_operation_collection
    assert operation.operation_type is OperationType.Dequeue
    assert operation.message_position_reference is request.position
    assert operation.dequeue_reason == C.MQMSG_CLASS_ACK_RECEIVE
    assert qm.transaction_commit(TX) == H.MQ_OK
    assert deleted == [("a", C.MQMSG_CLASS_ACK_RECEIVE)]


def test_transaction_without_identifier_is_a_plain_dequeue(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.10:06 only a transaction with a non-NULL Identifier locks."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    transaction = qm.create_transaction(None)
    request = qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    assert request.status == H.MQ_OK
    assert transaction.transactional_operation_collection == []
    assert deleted == [("a", C.MQMSG_CLASS_ACK_RECEIVE)]


def test_transaction_and_two_phase_together(qm, setup):
    """D-10 / MS-MQDMPR:3.1.7.1.10:09 when both are given the transaction decides (Locked plus a
    Dequeue operation)."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    transaction = qm.create_transaction(TX)
    request = qm.dequeue_message_begin(descriptor, timeout=0, transaction=transaction)
    assert request.position.state == LOCKED
    assert len(transaction.transactional_operation_collection) == 1


# -- with a cursor ------------------------------------------------------------------------

def test_cursor_dequeue_takes_the_next_message(qm, setup, deleted):
    """MSDN-CURSOR:CREATE:04 / MS-MQDMPR:3.1.7.1.10:03 / MS-MQDMPR:3.2.7.4:01 a fresh cursor's receive takes the first
    Available message and the cursor stays Unread on it."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b")
    cursor = qm.open_cursor(descriptor)
    request = qm.dequeue_message(descriptor, timeout=0, cursor=cursor)
    assert request.status == H.MQ_OK and request.message.label == "a"
    assert cursor.cursor_state is CursorState.Unread
    assert cursor.message_position_reference is request.position
    assert qm.dequeue_message(descriptor, timeout=0, cursor=cursor).message.label == "b"
    assert deleted == [("a", C.MQMSG_CLASS_ACK_RECEIVE), ("b", C.MQMSG_CLASS_ACK_RECEIVE)]


def test_cursor_dequeue_zero_timeout_is_message_not_found(qm, setup):
    """D-03 / MS-MQDMPR:3.2.7.4:01 a cursor receive with a zero time-out that finds nothing
    returns MQ_ERROR_MESSAGE_NOT_FOUND (iNoWait) and the cursor does not wait."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    request = qm.dequeue_message(descriptor, timeout=0, cursor=cursor)
    assert request.status == H.MQ_ERROR_MESSAGE_NOT_FOUND
    assert cursor.cursor_state is CursorState.Unread
    assert descriptor.waiting_message_read_operation_collection == []


def test_cursor_dequeue_wait_satisfied_moves_the_cursor(qm, setup):
    """MS-MQDMPR:3.1.7.1.10:04 / MS-MQDMPR:3.2.7.5:01 a waiting cursor receive gets the new
    message and the cursor is moved onto it (WaitReceive -> Unread)."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    request = qm.dequeue_message(descriptor, timeout=WAIT, cursor=cursor)
    assert not request.done and cursor.cursor_state is CursorState.WaitReceive
    [a] = fill(qm, fn, "a")
    assert request.status == H.MQ_OK and request.message is a
    assert cursor.cursor_state is CursorState.Unread
    assert cursor.message_position_reference is request.position


def test_cursor_dequeue_wait_expiry(qm, setup, clock):
    """MS-MQDMPR:3.1.7.1.10:04 / MS-MQDMPR:3.2.7.6:01 a failed cursor wait raises Wait Time
    Expired (cursor parked at End, Unread) and returns MQ_ERROR_IO_TIMEOUT."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    request = qm.dequeue_message(descriptor, timeout=2_000, cursor=cursor)
    clock.advance(2_000)
    qm.run_timers()
    assert request.status == H.MQ_ERROR_IO_TIMEOUT
    assert cursor.cursor_state is CursorState.Unread
    assert cursor.message_position_reference is queue.message_position_list.end


def test_cursor_already_received(qm, setup):
    """MS-MQDMPR:3.1.7.1.10:03 / MS-MQDMPR:3.2.7.4:02 a Read cursor whose message was removed by
    another reader gets MQ_ERROR_MESSAGE_ALREADY_RECEIVED."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b")
    cursor = qm.open_cursor(descriptor)
    assert qm.peek_message(descriptor, timeout=0, cursor=cursor).message.label == "a"
    assert qm.dequeue_message(descriptor, timeout=0).message.label == "a"
    request = qm.dequeue_message(descriptor, timeout=0, cursor=cursor)
    assert request.status == H.MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    assert labels(queue) == ["b"]


def test_cursor_on_locked_message_already_received(qm, setup):
    """MSDN-CURSOR:NA:04 / MS-MQDMPR:3.2.7.4:02 (cursor-behavior C-8) a Read cursor on a message another reader
    locked: MQ_ERROR_MESSAGE_ALREADY_RECEIVED, the message stays Locked."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    cursor = qm.open_cursor(descriptor)
    qm.peek_message(descriptor, timeout=0, cursor=cursor)
    locked = qm.dequeue_message_begin(descriptor, timeout=0)
    assert qm.dequeue_message(descriptor, timeout=0, cursor=cursor).status == H.MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    assert locked.position.state == LOCKED


def test_waiting_cursor_refuses_another_read(qm, setup):
    """D-12: any read on a cursor that is already waiting is refused with
    MQ_ERROR_ILLEGAL_CURSOR_ACTION and nothing changes; the first wait still completes."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    first = qm.dequeue_message(descriptor, timeout=WAIT, cursor=cursor)
    assert qm.dequeue_message(descriptor, timeout=WAIT, cursor=cursor).status == H.MQ_ERROR_ILLEGAL_CURSOR_ACTION
    assert qm.peek_message(descriptor, timeout=WAIT, cursor=cursor).status == H.MQ_ERROR_ILLEGAL_CURSOR_ACTION
    assert qm.peek_next_message(descriptor, timeout=WAIT, cursor=cursor).status == H.MQ_ERROR_ILLEGAL_CURSOR_ACTION
    assert cursor.cursor_state is CursorState.WaitReceive
    assert len(descriptor.waiting_message_read_operation_collection) == 1
    fill(qm, fn, "a")
    assert first.status == H.MQ_OK and first.message.label == "a"


# -- Dequeue Message Begin / End (3.1.7.1.11, 3.1.7.1.12) ---------------------------------

def test_begin_is_a_two_phase_dequeue(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.11:01 Dequeue Message Begin leaves the message Locked."""
    queue, fn, descriptor = setup
    [a] = fill(qm, fn, "a")
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    assert request.status == H.MQ_OK and request.message is a
    assert request.position.state == LOCKED and deleted == []


def test_begin_waits_like_dequeue(qm, setup, clock):
    """MS-MQDMPR:3.1.7.1.11:01 same time-out rules as Dequeue Message; a later message is
    locked for the waiting Begin."""
    queue, fn, descriptor = setup
    assert qm.dequeue_message_begin(descriptor, timeout=0).status == H.MQ_ERROR_IO_TIMEOUT
    request = qm.dequeue_message_begin(descriptor, timeout=1_000)
    fill(qm, fn, "a")
    assert request.status == H.MQ_OK and request.position.state == LOCKED


def test_end_on_available_message_is_transaction_sequence(qm, setup):
    """MS-MQDMPR:3.1.7.1.12:01 nothing in progress: MQ_ERROR_TRANSACTION_SEQUENCE."""
    queue, fn, descriptor = setup
    [a] = fill(qm, fn, "a")
    position = a.message_position_reference
    assert qm.dequeue_message_end(descriptor, position, True) == H.MQ_ERROR_TRANSACTION_SEQUENCE
    assert qm.dequeue_message_end(descriptor, position, False, transactional=True) == H.MQ_ERROR_TRANSACTION_SEQUENCE
    assert position.state == AVAILABLE and labels(queue) == ["a"]


def test_end_transactional_only_returns_ok(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.12:02 iTransactional True: MQ_OK, iDeleteMessage ignored, no change."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    request = qm.dequeue_message_begin(descriptor, timeout=0, transaction=qm.create_transaction(TX))
    for delete in (True, False):
        assert qm.dequeue_message_end(descriptor, request.position, delete, transactional=True) == H.MQ_OK
    assert request.position.state == LOCKED and deleted == []


def test_end_delete(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.12:03 iDeleteMessage True deletes with reason AckReceive."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    assert qm.dequeue_message_end(descriptor, request.position, True) == H.MQ_OK
    assert deleted == [("a", C.MQMSG_CLASS_ACK_RECEIVE)]
    assert labels(queue) == []


def test_end_without_delete_makes_it_available_again(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.12:03 iDeleteMessage False raises Message Position Available: the message
    is receivable again, at its place, and a waiting reader gets it."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b")
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    qm.dequeue_message(descriptor, timeout=0)  # takes b
    other = open_descriptor(qm, fn)
    waiting = qm.dequeue_message(other, timeout=WAIT)
    assert qm.dequeue_message_end(descriptor, request.position, False) == H.MQ_OK
    assert waiting.done and waiting.message.label == "a"
    assert deleted == [("b", C.MQMSG_CLASS_ACK_RECEIVE), ("a", C.MQMSG_CLASS_ACK_RECEIVE)]


def test_end_without_delete_restores_the_order(qm, setup):
    """MS-MQDMPR:3.1.7.1.12:03 the returned message keeps its place in the list."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b", "c")
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    assert qm.dequeue_message_end(descriptor, request.position, False) == H.MQ_OK
    assert labels(queue) == ["a", "b", "c"]
    assert qm.dequeue_message(descriptor, timeout=0).message.label == "a"


@pytest.mark.parametrize("delete", [True, False])
def test_end_of_purge_pending_deletes_as_purged(qm, setup, deleted, delete):
    """MS-MQDMPR:3.1.7.1.12:03 a PurgePending position is deleted with NackQueuePurged whatever
    iDeleteMessage says."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    qm.purge_queue(queue)
    assert request.position.state == PURGE_PENDING
    assert qm.dequeue_message_end(descriptor, request.position, delete) == H.MQ_OK
    assert deleted == [("a", C.MQMSG_CLASS_NACK_Q_PURGED)]
    assert labels(queue) == []


def test_end_after_queue_deleted(qm, setup):
    """D-46 (MS-MQDMPR:3.1.7.1.12) / MS-MQDMPR:3.1.7.1.12 a descriptor whose queue is gone: MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    qm.delete_queue(queue)
    assert qm.dequeue_message_end(descriptor, request.position, True) == H.MQ_ERROR_QUEUE_NOT_AVAILABLE


# -- Cancel Waiting Message Read Request (3.1.7.1.17) -------------------------------------

def test_cancel_tagged_waiter(qm, setup):
    """MS-MQDMPR:3.1.7.1.17:01 the tagged waiter ends with the given status; MQ_OK is returned."""
    queue, fn, descriptor = setup
    request = qm.dequeue_message(descriptor, timeout=WAIT, tag=7)
    other = qm.dequeue_message(descriptor, timeout=WAIT, tag=8)
    status = qm.cancel_waiting_message_read_request(queue, 7, H.MQ_ERROR_OPERATION_CANCELLED)
    assert status == H.MQ_OK
    assert request.done and request.status == H.MQ_ERROR_OPERATION_CANCELLED
    assert not other.done
    fill(qm, fn, "a")
    assert other.message.label == "a"


def test_cancel_unknown_tag_is_status_not_found(qm, setup):
    """MS-MQDMPR:3.1.7.1.17:01 no waiter with that tag (or untagged waiters only):
    STATUS_NOT_FOUND."""
    queue, fn, descriptor = setup
    untagged = qm.dequeue_message(descriptor, timeout=WAIT)
    assert qm.cancel_waiting_message_read_request(queue, 99, H.MQ_ERROR_OPERATION_CANCELLED) == H.STATUS_NOT_FOUND
    assert qm.cancel_waiting_message_read_request(queue, None, H.MQ_ERROR_OPERATION_CANCELLED) == H.STATUS_NOT_FOUND
    assert not untagged.done


def test_cancel_scoped_to_a_descriptor(qm, setup):
    """D-17: with a descriptor given, only that descriptor's waiters are searched."""
    queue, fn, descriptor = setup
    other = open_descriptor(qm, fn)
    request = qm.dequeue_message(descriptor, timeout=WAIT, tag=5)
    status = qm.cancel_waiting_message_read_request(queue, 5, H.MQ_ERROR_OPERATION_CANCELLED, queue_desc=other)
    assert status == H.STATUS_NOT_FOUND and not request.done
    status = qm.cancel_waiting_message_read_request(queue, 5, H.MQ_ERROR_OPERATION_CANCELLED, queue_desc=descriptor)
    assert status == H.MQ_OK and request.status == H.MQ_ERROR_OPERATION_CANCELLED


def test_cancel_a_cursor_wait_expires_the_cursor(qm, setup):
    """MS-MQDMPR:3.1.7.1.17:01 / MS-MQDMPR:3.2.7.6:01 a cancelled cursor receive raises Wait Time
    Expired: the cursor is Unread at End and usable again."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    request = qm.dequeue_message(descriptor, timeout=WAIT, cursor=cursor, tag=1)
    assert qm.cancel_waiting_message_read_request(queue, 1, H.MQ_ERROR_OPERATION_CANCELLED) == H.MQ_OK
    assert request.status == H.MQ_ERROR_OPERATION_CANCELLED
    assert cursor.cursor_state is CursorState.Unread
    assert cursor.message_position_reference is queue.message_position_list.end
