"""Timers in virtual time: the Time To Be Received timer (MS-MQDMPR 3.1.2.4, 3.1.7.2.7, D-09) and
the Waiting Message Read timer (3.1.2.3, 3.1.6.3). Time passes only through clock.advance(ms)
followed by qm.run_timers()."""

from __future__ import annotations

import pytest

from mqspec.protocol.constants import INFINITE, AcknowledgementsRequested as Acks
from mqspec.reference.enumerations import OperationType
from mqspec.reference.message import Message
from tests.conftest import (
    DELETED,
    LOCKED,
    TX,
    WAIT,
    C,
    H,
    labels,
    make_queue,
    open_descriptor,
    send,
)


@pytest.fixture
def setup(qm):
    queue, fn = make_queue(qm)
    admin, admin_fn = make_queue(qm, "admin")
    return queue, fn, admin, admin_fn


def tick(qm, clock, ms):
    clock.advance(ms)
    return qm.run_timers()


def classes(queue):
    return [p.message_reference.message_class for p in queue.message_position_list.positions()]


# -- Time To Be Received ------------------------------------------------------------------

def test_ttbr_expiry_deletes_with_nack_receive_timeout(qm, clock, setup, deleted):
    """MS-MQDMPR:3.1.2.4:01 / MS-MQDMPR:3.1.7.2.7:02 the timer fires after TimeToBeReceived
    seconds, not before, and the position is deleted with NackReceiveTimeout."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, label="a", time_to_be_received=5)
    send(qm, fn, label="keep")
    tick(qm, clock, 4_999)
    assert labels(queue) == ["a", "keep"]
    tick(qm, clock, 1)
    assert labels(queue) == ["keep"]
    assert deleted == [("a", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]


def test_ttbr_expiry_sends_nack_when_requested(qm, clock, setup):
    """MS-MQDMPR:3.1.7.2.7:02 with MS-MQQB:3.1.7.2.1:01 an NR request yields a
    NACK_RECEIVE_TIMEOUT acknowledgment; without it, none."""
    queue, fn, admin, admin_fn = setup
    original = send(qm, fn, label="nr", time_to_be_received=1, acknowledgements_requested=Acks.ACK_NEG_RECEIVE,
                    administration_queue_format_name=admin_fn)
    send(qm, fn, label="pr", time_to_be_received=1, acknowledgements_requested=Acks.ACK_POS_RECEIVE,
         administration_queue_format_name=admin_fn)
    send(qm, fn, label="none", time_to_be_received=1, administration_queue_format_name=admin_fn)
    tick(qm, clock, 1_000)
    assert labels(queue) == []
    [ack] = [p.message_reference for p in admin.message_position_list.positions()]
    assert ack.message_class == C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    assert ack.correlation_identifier == original.identifier


def test_ttbr_expiry_dead_letters_with_negative_journaling(qm, clock, setup):
    """MS-MQDMPR:3.1.1.12:11 / D-26: an expired message with NegativeJournalingRequested is copied,
    re-classed NackReceiveTimeout, into the dead-letter queue; without it, nothing is kept."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, b"body", label="jn", time_to_be_received=2, negative_journaling_requested=True)
    send(qm, fn, label="plain", time_to_be_received=2)
    tick(qm, clock, 2_000)
    dlq = qm.system_deadletter_queue
    assert labels(dlq) == ["jn"] and classes(dlq) == [C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT]
    [copy] = [p.message_reference for p in dlq.message_position_list.positions()]
    assert copy.body == b"body"
    assert copy.time_to_be_received == INFINITE and not copy.negative_journaling_requested  # D-28
    assert labels(qm.system_transactional_deadletter_queue) == []


def test_ttbr_expiry_of_transactional_message_goes_to_transactional_dlq(qm, clock):
    """D-26 / MS-MQDMPR:3.1.1.12:11 a transactional message is dead-lettered in the transactional
    dead-letter queue."""
    queue, fn = make_queue(qm, "xq", transactional=True)
    message = Message(b"", label="t", time_to_be_received=3, negative_journaling_requested=True)
    qm.create_transaction(TX)
    assert qm.send_message(fn, message, qm.transaction_collection[TX]) == (0, 0)
    qm.transaction_commit(TX)
    tick(qm, clock, 3_000)
    assert labels(queue) == []
    assert labels(qm.system_transactional_deadletter_queue) == ["t"]
    assert labels(qm.system_deadletter_queue) == []


def test_ttbr_is_relative_to_sent_time(qm, clock, setup, deleted):
    """D-09: the deadline is SentTime + TimeToBeReceived: a message sent 3 s before it arrives
    with a 5 s TTBR expires 2 s after enqueue."""
    queue, fn, admin, admin_fn = setup
    sent = clock.now_ms() // 1000 - 3
    send(qm, fn, label="a", sent_time=sent, time_to_be_received=5)
    tick(qm, clock, 1_999)
    assert labels(queue) == ["a"]
    tick(qm, clock, 1)
    assert labels(queue) == []


def test_ttbr_already_past_expires_at_next_run(qm, clock, setup):
    """D-09: SentTime + TimeToBeReceived already in the past: the message expires at the next timer
    run, without any time passing."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, label="a", sent_time=clock.now_ms() // 1000 - 10, time_to_be_received=5)
    assert labels(queue) == ["a"]
    qm.run_timers()
    assert labels(queue) == []


def test_ttbr_zero_expires_at_next_run(qm, clock, setup, deleted):
    """MS-MQDMPR:3.1.2.4:01 / D-09: TimeToBeReceived 0 fires at once, i.e. at the next timer run."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, label="a", time_to_be_received=0)
    assert labels(queue) == ["a"]
    assert qm.run_timers() == 1
    assert deleted == [("a", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]


def test_ttbr_infinite_never_expires(qm, clock, setup):
    """MS-MQDMPR:3.1.2.4:01 0xFFFFFFFF disables the timer."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, label="a", time_to_be_received=INFINITE)
    tick(qm, clock, 10**12)
    assert labels(queue) == ["a"]


def test_ttbr_of_received_message_does_nothing(qm, clock, setup, deleted):
    """MS-MQDMPR:3.1.2.4:01 only a message still in the queue expires: no NACK for a message
    already received."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, label="a", time_to_be_received=5, acknowledgements_requested=Acks.ACK_NEG_RECEIVE,
         administration_queue_format_name=admin_fn)
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    tick(qm, clock, 5_000)
    assert deleted == [("a", C.MQMSG_CLASS_ACK_RECEIVE)]
    assert labels(admin) == []


def test_ttbr_of_two_phase_locked_message_deletes_it(qm, clock, setup, deleted):
    """MS-MQDMPR:3.1.7.2.7:02 a message locked by a two-phase read (no transaction) is still in the
    queue: it is deleted with NackReceiveTimeout."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, label="a", time_to_be_received=5)
    descriptor = open_descriptor(qm, fn)
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    tick(qm, clock, 5_000)
    assert deleted == [("a", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]
    assert request.position.state == DELETED and labels(queue) == []
    # D-70: the read is over; ending it changes nothing
    assert qm.dequeue_message_end(descriptor, request.position, True) == H.MQ_ERROR_TRANSACTION_SEQUENCE
    assert deleted == [("a", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]


def test_end_without_delete_after_ttbr_expiry_does_not_resurrect(qm, clock, setup):
    """D-70 / MS-MQDMPR:3.1.7.1.12:01 / MS-MQDMPR:3.1.7.2.7:02: once TTBR expiry deleted a
    two-phase-locked message, Dequeue Message End (no delete) returns
    MQ_ERROR_TRANSACTION_SEQUENCE and does not bring it back: the position stays Deleted and a
    waiting reader does not get the expired message (it used to crash here)."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, label="a", time_to_be_received=5)
    descriptor = open_descriptor(qm, fn)
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    tick(qm, clock, 5_000)
    waiting = qm.dequeue_message(open_descriptor(qm, fn), timeout=WAIT)
    assert qm.dequeue_message_end(descriptor, request.position, False) == H.MQ_ERROR_TRANSACTION_SEQUENCE
    assert request.position.state == DELETED
    assert not waiting.done
    assert labels(queue) == [] and len(queue.message_position_list) == 0


def test_ttbr_of_message_captured_by_transaction(qm, clock, setup, deleted):
    """MS-MQDMPR:3.1.7.2.7:01 a message held by a transaction stays Locked; a Dequeue operation with
    reason NackReceiveTimeout is appended to that transaction."""
    queue, fn, admin, admin_fn = setup
    send(qm, fn, label="a", time_to_be_received=5)
    transaction = qm.create_transaction(TX)
    request = qm.dequeue_message(open_descriptor(qm, fn), timeout=0, transaction=transaction)
    tick(qm, clock, 5_000)
    assert request.position.state == LOCKED and deleted == []
    operations = transaction.transactional_operation_collection
    assert len(operations) == 2
    assert operations[1].operation_type is OperationType.Dequeue
    assert operations[1].dequeue_reason == C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT
    assert operations[1].message_position_reference is request.position


def test_ttbr_of_uncommitted_enqueue(qm, clock, setup, deleted):
    """MS-MQDMPR:3.1.7.2.7:01 an uncommitted transactional enqueue that expires gets a
    NackReceiveTimeout Dequeue in its transaction; commit removes it with that reason."""
    queue, fn, admin, admin_fn = setup
    transaction = qm.create_transaction(TX)
    message = Message(b"", label="n", time_to_be_received=1)
    qm.enqueue_message(queue, message, transaction)
    tick(qm, clock, 1_000)
    assert message.message_position_reference.state == LOCKED
    assert [o.operation_type for o in transaction.transactional_operation_collection] == [
        OperationType.Enqueue, OperationType.Dequeue]
    qm.transaction_commit(TX)
    assert deleted == [("n", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]
    assert labels(queue) == []


def test_ttbr_of_aborted_enqueue_does_nothing(qm, clock, setup, deleted):
    """MS-MQDMPR:3.1.2.4:01 an aborted enqueue is no longer queued: its timer does nothing."""
    queue, fn, admin, admin_fn = setup
    qm.enqueue_message(queue, Message(b"", label="n", time_to_be_received=1), qm.create_transaction(TX))
    qm.transaction_abort(TX)
    tick(qm, clock, 1_000)
    assert deleted == []


def test_ttbr_survives_a_move(qm, clock, setup, deleted):
    """MS-MQDMPR:3.1.2.4:01 / MS-MQDMPR:3.1.7.1.16:02 / MS-MQDMPR:3.1.2.4 the timer belongs to the message: after a move it expires in the target."""
    queue, fn, admin, admin_fn = setup
    target, _ = make_queue(qm, "target")
    message = send(qm, fn, label="m", time_to_be_received=4)
    qm.move_message(message.message_position_reference, target)
    tick(qm, clock, 4_000)
    assert labels(target) == [] and deleted == [("m", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]


# -- Waiting Message Read timer -------------------------------------------------------------

def test_waiting_read_timer_duration(qm, clock, setup):
    """MS-MQDMPR:3.1.2.3:01 / MS-MQDMPR:3.1.6.3:01 the timer of a waiting read expires after its
    duration in milliseconds (D-02) with MQ_ERROR_IO_TIMEOUT; peeks and receives alike."""
    queue, fn, admin, admin_fn = setup
    descriptor = open_descriptor(qm, fn)
    receive = qm.dequeue_message(descriptor, timeout=1_500)
    peek = qm.peek_message(descriptor, timeout=2_500)
    assert qm.timers.next_deadline() == clock.now_ms() + 1_500
    tick(qm, clock, 1_499)
    assert not receive.done
    tick(qm, clock, 1)
    assert receive.status == H.MQ_ERROR_IO_TIMEOUT and not peek.done
    tick(qm, clock, 1_000)
    assert peek.status == H.MQ_ERROR_IO_TIMEOUT
    assert descriptor.waiting_message_read_operation_collection == []


def test_waiting_read_timer_cancelled_when_satisfied(qm, clock, setup):
    """MS-MQDMPR:3.1.7.3.1:02 a satisfied wait cancels its timer: later time passing changes
    nothing."""
    queue, fn, admin, admin_fn = setup
    descriptor = open_descriptor(qm, fn)
    request = qm.dequeue_message(descriptor, timeout=1_000)
    send(qm, fn, label="a")
    assert request.status == H.MQ_OK
    assert tick(qm, clock, 5_000) == 0
    assert request.status == H.MQ_OK and request.message.label == "a"


def test_waiting_read_infinite_has_no_timer(qm, clock, setup):
    """MS-MQDMPR:3.1.2.3:01 an Infinite duration never fires."""
    queue, fn, admin, admin_fn = setup
    before = len(qm.timers)
    request = qm.dequeue_message(open_descriptor(qm, fn), timeout=INFINITE)
    assert len(qm.timers) == before
    tick(qm, clock, 10**10)
    assert not request.done
