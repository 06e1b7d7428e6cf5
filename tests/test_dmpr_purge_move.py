"""MS-MQDMPR 3.1.7.1.7 Purge Queue and 3.1.7.1.16 Move Message (with the transaction outcomes of
3.1.4.4 / 3.1.4.5 that finish them)."""

from __future__ import annotations

import uuid

from mqspec.reference.enumerations import OperationType, QueueAccessType, QueueShareMode
from mqspec.reference.message import Message
from tests.conftest import (
    AVAILABLE,
    DELETED,
    LOCKED,
    PURGE_PENDING,
    TX,
    WAIT,
    C,
    H,
    labels,
    make_queue,
    open_descriptor,
    send,
)

# -- Purge Queue ------------------------------------------------------------------------

def test_purge_deletes_available_messages_as_purged(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.7:01 every Available position goes through Message Position Deleted with
    reason NackQueuePurged."""
    queue, fn, descriptor = setup
    for name in "abc":
        send(qm, fn, label=name)
    qm.purge_queue(queue)
    assert labels(queue) == [] and queue.total_bytes == 0 and qm.total_bytes == 0
    assert sorted(deleted) == [(n, C.MQMSG_CLASS_NACK_Q_PURGED) for n in "abc"]


def test_purge_marks_locked_messages_purge_pending(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.7:02 positions that are not Available (two-phase, transactional receive,
    uncommitted enqueue) become PurgePending and stay in the list."""
    queue, fn, descriptor = setup
    for name in "abc":
        send(qm, fn, label=name)
    two_phase = qm.dequeue_message_begin(descriptor, timeout=0)
    transaction = qm.create_transaction(TX)
    in_tx = qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    uncommitted = Message(b"", label="u")
    qm.enqueue_message(queue, uncommitted, transaction)
    qm.purge_queue(queue)
    assert deleted == [("c", C.MQMSG_CLASS_NACK_Q_PURGED)]
    assert two_phase.position.state == PURGE_PENDING
    assert in_tx.position.state == PURGE_PENDING
    assert uncommitted.message_position_reference.state == PURGE_PENDING
    assert labels(queue) == ["a", "b", "u"]
    # nothing of it can be read any more
    assert qm.dequeue_message(descriptor, timeout=0).status == H.MQ_ERROR_IO_TIMEOUT
    assert qm.peek_message(descriptor, timeout=0).status == H.MQ_ERROR_IO_TIMEOUT


def test_purge_pending_finished_by_its_owner(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.7:02 with 3.1.7.1.12:03, D-16 and D-24: a purged locked message vanishes
    as purged when its owner finishes (End, Abort, Commit of an enqueue)."""
    queue, fn, descriptor = setup
    send(qm, fn, label="two-phase")
    send(qm, fn, label="aborted")
    two_phase = qm.dequeue_message_begin(descriptor, timeout=0)
    qm.dequeue_message(descriptor, timeout=0, transaction=qm.create_transaction(b"1" * 16))
    qm.enqueue_message(queue, Message(b"", label="enqueued"), qm.create_transaction(b"2" * 16))
    qm.purge_queue(queue)
    assert deleted == []
    qm.dequeue_message_end(descriptor, two_phase.position, False)
    qm.transaction_abort(b"1" * 16)
    qm.transaction_commit(b"2" * 16)
    assert deleted == [("two-phase", C.MQMSG_CLASS_NACK_Q_PURGED), ("aborted", C.MQMSG_CLASS_NACK_Q_PURGED),
                       ("enqueued", C.MQMSG_CLASS_NACK_Q_PURGED)]
    assert labels(queue) == []


def test_purge_leaves_other_queues_alone(qm, setup):
    """MS-MQDMPR:3.1.7.1.7:01 / MS-MQDMPR:3.1.7.1.7 only iQueue's positions are touched."""
    queue, fn, descriptor = setup
    other, other_fn = make_queue(qm, "other")
    send(qm, fn, label="a")
    send(qm, other_fn, label="b")
    qm.purge_queue(queue)
    assert labels(queue) == [] and labels(other) == ["b"]


# -- Move Message ------------------------------------------------------------------------

def test_move_without_transaction(qm, setup, deleted):
    """MS-MQDMPR:3.1.7.1.16:02 the source position is Deleted (no acknowledgment, D-07) and a new
    Available position in the target holds the same message, inserted by priority."""
    queue, fn, descriptor = setup
    target, target_fn = make_queue(qm, "target")
    send(qm, target_fn, label="t-high", priority=6)
    send(qm, target_fn, label="t-low", priority=1)
    message = send(qm, fn, label="m", priority=3)
    source_position = message.message_position_reference
    qm.move_message(source_position, target)
    assert source_position.state == DELETED and labels(queue) == []
    assert labels(target) == ["t-high", "m", "t-low"]
    assert message.message_position_reference.queue_reference is target
    assert message.message_position_reference.state == AVAILABLE
    assert queue.total_bytes == 0 and target.total_bytes == sum(
        p.message_reference.size for p in target.message_position_list.positions())
    assert deleted == []


def test_move_wakes_readers_of_the_target(qm, setup):
    """MS-MQDMPR:3.1.7.1.16:02 a non-system target gets Message Position Available."""
    queue, fn, descriptor = setup
    target, target_fn = make_queue(qm, "target")
    waiting = qm.dequeue_message(open_descriptor(qm, target_fn), timeout=WAIT)
    message = send(qm, fn, label="m")
    qm.move_message(message.message_position_reference, target)
    assert waiting.done and waiting.message is message and labels(target) == []


def test_move_into_system_queue_raises_no_available(qm, setup):
    """MS-MQDMPR:3.1.7.1.16:02 moving into a System queue raises no Message Position Available:
    a reader blocked on the dead-letter queue stays blocked, though the message is there."""
    queue, fn, descriptor = setup
    dlq = qm.system_deadletter_queue
    status, dlq_descriptor = qm.open_queue(f"MACHINE={uuid.UUID(bytes_le=qm.identifier)};DEADLETTER",
                                           QueueAccessType.ReceiveAccess, QueueShareMode.DenyNone)
    assert status == H.MQ_OK and dlq_descriptor.queue_reference is dlq
    waiting = qm.dequeue_message(dlq_descriptor, timeout=WAIT)
    message = send(qm, fn, label="m")
    qm.move_message(message.message_position_reference, dlq)
    assert not waiting.done
    assert labels(dlq) == ["m"]
    assert qm.dequeue_message(dlq_descriptor, timeout=0).message is message


def test_transactional_move_locks_and_records(qm, setup):
    """MS-MQDMPR:3.1.7.1.16:03 with a transaction the source is Locked and a Move operation with
    the target is recorded; nothing reaches the target yet."""
    queue, fn, descriptor = setup
    target, _ = make_queue(qm, "target")
    message = send(qm, fn, label="m")
    position = message.message_position_reference
    transaction = qm.create_transaction(TX)
    qm.move_message(position, target, transaction)
    assert position.state == LOCKED and labels(queue) == ["m"] and labels(target) == []
    [operation] = transaction.transactional_operation_collection
    assert operation.operation_type is OperationType.Move
    assert operation.message_position_reference is position
    assert operation.target_queue_reference is target  # MS-MQDMPR:3.1.1.13:01
    assert qm.dequeue_message(descriptor, timeout=0).status == H.MQ_ERROR_IO_TIMEOUT


def test_transactional_move_commit(qm, setup, deleted):
    """MS-MQDMPR:3.1.4.4:02 commit of a Move: source Deleted, new Available position in the target,
    readers of the target woken."""
    queue, fn, descriptor = setup
    target, target_fn = make_queue(qm, "target")
    waiting = qm.peek_message(open_descriptor(qm, target_fn), timeout=WAIT)
    message = send(qm, fn, label="m")
    qm.move_message(message.message_position_reference, target, qm.create_transaction(TX))
    assert qm.transaction_commit(TX) == H.MQ_OK
    assert labels(queue) == [] and labels(target) == ["m"]
    assert waiting.done and waiting.message is message
    assert deleted == []


def test_transactional_move_abort(qm, setup):
    """MS-MQDMPR:3.1.4.5:01 abort of a Move: the message is Available again in its source, at its
    place."""
    queue, fn, descriptor = setup
    target, _ = make_queue(qm, "target")
    send(qm, fn, label="a")
    message = send(qm, fn, label="m")
    send(qm, fn, label="z")
    position = message.message_position_reference
    qm.move_message(position, target, qm.create_transaction(TX))
    assert qm.transaction_abort(TX) == H.MQ_OK
    assert position.state == AVAILABLE
    assert labels(queue) == ["a", "m", "z"] and labels(target) == []
