"""Transactions: MS-MQDMPR 3.1.7.1.8 Create Transaction, 3.1.4.3 Prepare, 3.1.4.4 Commit,
3.1.4.5 Abort, and the start-up abort of 3.1.3 (D-16, D-23, D-24, D-25)."""

from __future__ import annotations

import pytest

from mqspec.reference.enumerations import MessageSeekAction as S, OperationType
from mqspec.reference.message import Message
from tests.conftest import (
    AVAILABLE,
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


def test_create_transaction(qm):
    """MS-MQDMPR:3.1.7.1.8:01 a new Transaction with the given Identifier joins the
    TransactionCollection, empty."""
    transaction = qm.create_transaction(TX)
    assert qm.transaction_collection[TX] is transaction
    assert transaction.identifier == TX and transaction.transactional_operation_collection == []
    nameless = qm.create_transaction(None)
    assert nameless.identifier is None and None not in qm.transaction_collection


@pytest.mark.parametrize("event", ["transaction_prepare", "transaction_commit", "transaction_abort"])
def test_unknown_transaction_is_transaction_sequence(qm, event):
    """MS-MQDMPR:3.1.4.3:01 / MS-MQDMPR:3.1.4.4:01 / 3.1.4.5: an unknown identifier gives
    MQ_ERROR_TRANSACTION_SEQUENCE, as does a transaction already ended."""
    assert getattr(qm, event)(b"?" * 16) == H.MQ_ERROR_TRANSACTION_SEQUENCE
    qm.create_transaction(TX)
    assert qm.transaction_commit(TX) == H.MQ_OK
    assert getattr(qm, event)(TX) == H.MQ_ERROR_TRANSACTION_SEQUENCE


def test_prepare_marks_first_and_last(qm, setup):
    """MS-MQDMPR:3.1.4.3:02 the first operation's message is FirstInTransaction, the last one's
    LastInTransaction; SinglePhase is stored."""
    queue, fn, descriptor = setup
    transaction = qm.create_transaction(TX)
    messages = [Message(b"", label=n) for n in "abc"]
    for message in messages:
        qm.enqueue_message(queue, message, transaction)
    assert qm.transaction_prepare(TX, single_phase=False) == H.MQ_OK
    assert transaction.single_phase is False
    flags = [(m.get("first_in_transaction"), m.get("last_in_transaction")) for m in messages]
    assert flags == [(True, False), (False, False), (False, True)]


def test_prepare_single_operation_is_first_and_last(qm, setup):
    """MS-MQDMPR:3.1.4.3:02 one operation: its message is both first and last; an empty
    transaction prepares too."""
    queue, fn, descriptor = setup
    message = send(qm, fn, label="a")
    transaction = qm.create_transaction(TX)
    qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    assert qm.transaction_prepare(TX) == H.MQ_OK
    assert message.get("first_in_transaction") and message.get("last_in_transaction")
    qm.create_transaction(b"E" * 16)
    assert qm.transaction_prepare(b"E" * 16) == H.MQ_OK


def test_commit_processes_operations_in_order(qm, setup, deleted):
    """MS-MQDMPR:3.1.4.4:02 operations run in FIFO order: Dequeue x, Enqueue n1, Dequeue z,
    Enqueue n2 give the deletions x, n1 (taken by the first waiter), z, n2 (second waiter)."""
    queue, fn, descriptor = setup
    send(qm, fn, label="x")
    z = send(qm, fn, label="z")
    transaction = qm.create_transaction(TX)
    qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    qm.enqueue_message(queue, Message(b"", label="n1"), transaction)
    qm.read_message_by_lookup_identifier(descriptor, z.lookup_identifier, False, S.SeekCurrent,
                                         transaction=transaction)
    qm.enqueue_message(queue, Message(b"", label="n2"), transaction)
    assert [o.operation_type for o in transaction.transactional_operation_collection] == [
        OperationType.Dequeue, OperationType.Enqueue, OperationType.Dequeue, OperationType.Enqueue]
    waiters = [qm.dequeue_message(open_descriptor(qm, fn), timeout=WAIT) for _ in range(2)]
    assert qm.transaction_commit(TX) == H.MQ_OK
    ack = C.MQMSG_CLASS_ACK_RECEIVE
    assert deleted == [("x", ack), ("n1", ack), ("z", ack), ("n2", ack)]
    assert [w.message.label for w in waiters] == ["n1", "n2"]


def test_commit_enqueue_and_dequeue(qm, setup, deleted):
    """MS-MQDMPR:3.1.4.4:02 / 3.1.4.4:03 Enqueue -> Message Position Available (readers wake);
    Dequeue -> Message Position Deleted with its DequeueReason; then the transaction is gone."""
    queue, fn, descriptor = setup
    send(qm, fn, label="old")
    transaction = qm.create_transaction(TX)
    taken = qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    new = Message(b"", label="new")
    qm.enqueue_message(queue, new, transaction)
    waiting = qm.dequeue_message(open_descriptor(qm, fn), timeout=WAIT)
    assert not waiting.done
    assert qm.transaction_commit(TX) == H.MQ_OK
    assert deleted[0] == ("old", C.MQMSG_CLASS_ACK_RECEIVE)
    assert waiting.done and waiting.message is new
    assert TX not in qm.transaction_collection
    assert transaction.transactional_operation_collection == []
    assert taken.position.state == DELETED


def test_commit_enqueue_order_in_the_queue(qm, setup):
    """MS-MQDMPR:3.1.4.4:02 committed enqueues are read in the order they were made."""
    queue, fn, descriptor = setup
    transaction = qm.create_transaction(TX)
    for name in "abc":
        qm.enqueue_message(queue, Message(b"", label=name), transaction)
    qm.transaction_commit(TX)
    assert [qm.dequeue_message(descriptor, timeout=0).message.label for _ in range(3)] == ["a", "b", "c"]


def test_commit_uses_the_operation_reason(qm, setup, deleted):
    """MS-MQDMPR:3.1.4.4:02 the Dequeue's DequeueReason is used (NackReceiveRejected when a
    receiver rejected it, MS-MQRR 3.1.4.14)."""
    queue, fn, descriptor = setup
    send(qm, fn, label="a")
    transaction = qm.create_transaction(TX)
    qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    transaction.transactional_operation_collection[0].dequeue_reason = C.MQMSG_CLASS_NACK_RECEIVE_REJECTED
    qm.transaction_commit(TX)
    assert deleted == [("a", C.MQMSG_CLASS_NACK_RECEIVE_REJECTED)]


def test_abort_restores_dequeued_messages_in_place(qm, setup, deleted):
    """MS-MQDMPR:3.1.4.5:01 an aborted Dequeue makes the position Available again at its original
    place; waiting readers get it."""
    queue, fn, descriptor = setup
    for name in "abc":
        send(qm, fn, label=name)
    transaction = qm.create_transaction(TX)
    qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    assert qm.peek_message(open_descriptor(qm, fn), timeout=0).message.label == "c"
    assert qm.transaction_abort(TX) == H.MQ_OK
    assert labels(queue) == ["a", "b", "c"]
    assert all(p.state == AVAILABLE for p in queue.message_position_list.positions())
    assert deleted == [] and TX not in qm.transaction_collection
    assert qm.dequeue_message(descriptor, timeout=0).message.label == "a"


def test_abort_removes_uncommitted_enqueues(qm, setup, deleted):
    """MS-MQDMPR:3.1.4.5:02 an aborted Enqueue is unlinked without Message Position Deleted (so no
    acknowledgment); its bytes are given back."""
    queue, fn, descriptor = setup
    admin, admin_fn = make_queue(qm, "admin")
    transaction = qm.create_transaction(TX)
    message = Message(b"", label="n", acknowledgements_requested=0xE, administration_queue_format_name=admin_fn)
    qm.enqueue_message(queue, message, transaction)
    assert queue.total_bytes == message.size
    assert qm.transaction_abort(TX) == H.MQ_OK
    assert labels(queue) == [] and queue.total_bytes == 0
    assert deleted == [] and labels(admin) == []
    assert qm.read_message_by_lookup_identifier(
        descriptor, message.lookup_identifier, True,
        S.SeekCurrent).status == H.MQ_ERROR_MESSAGE_NOT_FOUND


def test_abort_of_purged_receive_is_purged(qm, setup, deleted):
    """D-16 / MS-MQDMPR:3.1.4.5:01 abort of a Dequeue whose position was purged meanwhile deletes it
    with NackQueuePurged (not the operation's AckReceive)."""
    queue, fn, descriptor = setup
    send(qm, fn, label="a")
    qm.dequeue_message(descriptor, timeout=0, transaction=qm.create_transaction(TX))
    qm.purge_queue(queue)
    qm.transaction_abort(TX)
    assert deleted == [("a", C.MQMSG_CLASS_NACK_Q_PURGED)]
    assert labels(queue) == []


def test_commit_of_purged_receive_uses_its_reason(qm, setup, deleted):
    """MS-MQDMPR:3.1.4.4:02 commit of a purged Dequeue deletes it with the DequeueReason
    (the receive did happen)."""
    queue, fn, descriptor = setup
    send(qm, fn, label="a")
    qm.dequeue_message(descriptor, timeout=0, transaction=qm.create_transaction(TX))
    qm.purge_queue(queue)
    qm.transaction_commit(TX)
    assert deleted == [("a", C.MQMSG_CLASS_ACK_RECEIVE)]


def test_commit_of_purged_enqueue_is_purged(qm, setup, deleted):
    """D-24: commit of an uncommitted enqueue that was purged deletes it with NackQueuePurged;
    it never becomes Available."""
    queue, fn, descriptor = setup
    waiting = qm.dequeue_message(descriptor, timeout=WAIT)
    transaction = qm.create_transaction(TX)
    qm.enqueue_message(queue, Message(b"", label="n"), transaction)
    qm.purge_queue(queue)
    qm.transaction_commit(TX)
    assert deleted == [("n", C.MQMSG_CLASS_NACK_Q_PURGED)]
    assert not waiting.done and labels(queue) == []


def test_abort_of_purged_enqueue_leaves_no_trace(qm, setup, deleted):
    """MS-MQDMPR:3.1.4.5:02 abort of a purged uncommitted enqueue simply unlinks it."""
    queue, fn, descriptor = setup
    qm.enqueue_message(queue, Message(b"", label="n"), qm.create_transaction(TX))
    qm.purge_queue(queue)
    qm.transaction_abort(TX)
    assert deleted == [] and labels(queue) == [] and queue.total_bytes == 0


def test_abort_of_expired_receive_deletes_it(qm, setup, clock, deleted):
    """D-25: a message whose TTBR expired while a transaction held it is deleted with
    NackReceiveTimeout when the transaction aborts."""
    queue, fn, descriptor = setup
    send(qm, fn, label="a", time_to_be_received=5)
    qm.dequeue_message(descriptor, timeout=0, transaction=qm.create_transaction(TX))
    clock.advance(5_000)
    qm.run_timers()
    assert deleted == []
    qm.transaction_abort(TX)
    assert deleted == [("a", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]
    assert labels(queue) == []


def test_abort_of_expired_receive_is_not_handed_to_a_waiting_reader(qm, setup, clock, deleted):
    """D-25 / MS-MQDMPR:3.1.4.5:01: abort deletes an expired message with NackReceiveTimeout; a reader blocked on the
    queue meanwhile must not receive it."""
    queue, fn, descriptor = setup
    send(qm, fn, label="a", time_to_be_received=5)
    qm.dequeue_message(descriptor, timeout=0, transaction=qm.create_transaction(TX))
    clock.advance(5_000)
    qm.run_timers()
    waiting = qm.dequeue_message(open_descriptor(qm, fn), timeout=WAIT)
    qm.transaction_abort(TX)
    assert not waiting.done
    assert deleted == [("a", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]


def test_abort_of_expired_move_deletes_it(qm, setup, clock, deleted):
    """D-25 / MS-MQDMPR:3.1.7.2.7:01: a message whose TTBR expired while a transactional Move held
    it is deleted with NackReceiveTimeout on abort, not returned to its queue."""
    queue, fn, descriptor = setup
    target, _ = make_queue(qm, "target")
    message = send(qm, fn, label="m", time_to_be_received=5)
    qm.move_message(message.message_position_reference, target, qm.create_transaction(TX))
    waiting = qm.dequeue_message(open_descriptor(qm, fn), timeout=WAIT)
    clock.advance(5_000)
    qm.run_timers()
    assert deleted == []
    qm.transaction_abort(TX)
    assert deleted == [("m", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)]
    assert not waiting.done and labels(queue) == [] and labels(target) == []


def test_commit_after_queue_deleted(qm, setup):
    """MS-MQDMPR:3.1.4.4:02 / MS-MQDMPR:3.1.7.1.4:01 / MS-MQDMPR:3.1.4.4 positions already removed (queue deleted) are skipped."""
    queue, fn, descriptor = setup
    send(qm, fn, label="a")
    transaction = qm.create_transaction(TX)
    qm.dequeue_message(descriptor, timeout=0, transaction=transaction)
    qm.enqueue_message(queue, Message(b"", label="n"), transaction)
    qm.delete_queue(queue)
    assert qm.transaction_commit(TX) == H.MQ_OK
    assert labels(queue) == []


def test_startup_aborts_unprepared_transactions(qm, setup):
    """MS-MQDMPR:3.1.3:02 / D-23: at start every transaction not prepared for two-phase commit is
    aborted; one prepared with iSinglePhase False survives."""
    queue, fn, descriptor = setup
    for name in "abc":
        send(qm, fn, label=name)
    for identifier in (b"1" * 16, b"2" * 16, b"3" * 16):
        qm.dequeue_message(descriptor, timeout=0, transaction=qm.create_transaction(identifier))
    qm.transaction_prepare(b"2" * 16)                       # single phase
    qm.transaction_prepare(b"3" * 16, single_phase=False)  # two phase
    qm.abort_unprepared_transactions()
    assert set(qm.transaction_collection) == {b"3" * 16}
    assert labels(queue) == ["a", "b", "c"]
    assert [p.state for p in queue.message_position_list.positions()] == [AVAILABLE, AVAILABLE, LOCKED]
