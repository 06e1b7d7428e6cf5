"""Queue manager initialization (MS-MQDMPR 3.1.3), Set Queue Defaults (3.1.7.1.33), Create Queue
(3.1.7.1.3), Delete Queue (3.1.7.1.4) and Close Queue (3.1.7.1.6)."""

from __future__ import annotations

import pytest

from mqspec.protocol.constants import INFINITE
from mqspec.reference.enumerations import QueueAccessType as A, QueuePrivacyLevel, QueueShareMode as M, QueueType
from mqspec.reference.message import Message
from mqspec.reference.packet import packet_size
from mqspec.reference.queue_manager import QueueManager
from tests.conftest import (
    COMPUTER,
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

# -- initialization -------------------------------------------------------------------------

def test_initialization_creates_system_queues(clock):
    """MS-MQDMPR:3.1.3:01 the dead-letter, transactional dead-letter and journal queues exist from
    the start, as System queues; the transactional dead-letter queue is transactional."""
    qm = QueueManager(clock, computer_name=COMPUTER)
    queues = (qm.system_deadletter_queue, qm.system_transactional_deadletter_queue, qm.system_journal_queue)
    assert len({id(q) for q in queues}) == 3
    assert all(q.queue_type is QueueType.System for q in queues)
    assert qm.system_transactional_deadletter_queue.transactional
    assert not qm.system_deadletter_queue.transactional
    assert qm.system_journal_queue.is_journal


def test_queue_manager_defaults(clock):
    """MS-MQDMPR:3.1.1.1:01 / D-20 QueueManagerQuota defaults to 0x00100000 bytes; MS-MQQB 3.1.1.3
    SendInsecureNacks SHOULD default to FALSE; a new QM is not throttled and has SequentialID 0."""
    qm = QueueManager(clock, computer_name=COMPUTER)
    assert qm.queue_manager_quota == 0x00100000
    assert qm.send_insecure_nacks is False
    assert qm.throttled is False and qm.sequential_id == 0


def test_default_queue_manager_quota_is_enforced(clock):
    """D-20 / MS-MQDMPR:3.1.7.1.9:01 the 1 MiB default quota refuses the message that would pass it."""
    qm = QueueManager(clock, computer_name=COMPUTER)
    queue, _ = make_queue(qm)
    body = b"x" * 4000
    size = packet_size(Message(body))
    accepted = 0
    for _ in range(2 * 0x00100000 // size):  # bounded: a missing quota check must fail, not fill memory
        if qm.enqueue_message(queue, Message(body)) != 0:
            break
        accepted += 1
    assert accepted == 0x00100000 // size
    assert qm.total_bytes == accepted * size


# -- Set Queue Defaults and Create Queue ----------------------------------------------------

def test_set_queue_defaults(qm):
    """MS-MQDMPR:3.1.7.1.33:01 Label "", Type NULL GUID, Journaling False, Quota and JournalQuota
    0xFFFFFFFF, Authentication False, PrivacyLevel Optional, Transactional False,
    BasePriority 0."""
    queue, _ = make_queue(qm)
    assert queue.label == "" and queue.type == bytes(16)
    assert queue.journaling is False and queue.authentication is False and queue.transactional is False
    assert queue.quota == INFINITE and queue.journal_quota == INFINITE
    assert queue.privacy_level is QueuePrivacyLevel.Optional
    assert queue.base_priority == 0


def test_create_queue_initial_state(qm, clock):
    """MS-MQDMPR:3.1.7.1.3:03 / 3.1.7.1.3:02 a new queue is empty (TotalBytes 0, not Active), typed
    from its path, with its own journal queue; it is in the QueueCollection."""
    status, private = qm.create_queue(f"{COMPUTER}\\private$\\p")
    assert status == H.MQ_OK
    status, public = qm.create_queue(f"{COMPUTER}\\pub")
    assert status == H.MQ_OK
    assert private.queue_type is QueueType.Private and public.queue_type is QueueType.Public
    for queue in (private, public):
        assert len(queue.message_position_list) == 0 and queue.total_bytes == 0
        assert queue.active is False
        assert queue.journal_queue_reference is not None and queue.journal_queue_reference.is_journal
        assert queue.journal_queue_reference is not queue
        assert queue.create_time == clock.now_ms() // 1000
        assert queue in qm.queue_collection.values()
    assert private.private_queue_number and public.private_queue_number == 0


def test_private_queue_numbers_are_unique(qm):
    """MS-MQDMPR:3.1.7.1.3:03 / MS-MQDMPR:3.1.7.1.3 PrivateQueueNumber: an unused number for each private queue."""
    numbers = [make_queue(qm, f"q{n}")[0].private_queue_number for n in range(5)]
    assert len(set(numbers)) == 5 and all(numbers)


@pytest.mark.parametrize("path", ["", "noslash", f"{COMPUTER}\\", f"{COMPUTER}\\private$\\",
                                  f"{COMPUTER}\\bad name", f"{COMPUTER}\\a+b", f"{COMPUTER}\\private$\\" + "x" * 125,
                                  f"{COMPUTER}\\private$\\q;" + "s" * 33, "other\\private$\\q"])
def test_create_queue_invalid_path(qm, path):
    """MS-MQDMPR:3.1.7.1.3:01 an invalid path name (or one of another computer) is refused."""
    status, queue = qm.create_queue(path)
    assert status == H.MQ_ERROR_ILLEGAL_QUEUE_PATHNAME and queue is None


def test_create_queue_duplicate(qm):
    """D-21: a path name already in use, in any case, gives MQ_ERROR_QUEUE_EXISTS."""
    make_queue(qm, "dup")
    assert qm.create_queue(f"{COMPUTER}\\private$\\DUP") == (H.MQ_ERROR_QUEUE_EXISTS, None)
    assert qm.create_queue(".\\private$\\dup") == (H.MQ_ERROR_QUEUE_EXISTS, None)


def test_create_subqueue(qm):
    """D-22: a subqueue needs its queue (MQ_ERROR_QUEUE_NOT_FOUND otherwise), shares its
    Transactional attribute and has no journal."""
    assert qm.create_queue(f"{COMPUTER}\\private$\\parent;sub") == (H.MQ_ERROR_QUEUE_NOT_FOUND, None)
    parent, fn = make_queue(qm, "parent", transactional=True)
    status, sub = qm.create_queue(f"{COMPUTER}\\private$\\parent;sub")
    assert status == H.MQ_OK
    assert sub.transactional is True and sub.journal_queue_reference is None
    assert parent.subqueue_collection["sub"] is sub
    descriptor = open_descriptor(qm, fn + ";sub")
    assert descriptor.queue_reference is sub


def test_active_follows_open_descriptors(qm):
    """MS-MQDMPR:3.1.1.2:03 a local queue is Active while it has open descriptors."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    assert queue.active
    qm.close_queue(descriptor)
    assert not queue.active


# -- Delete Queue ---------------------------------------------------------------------------

def test_delete_queue_deletes_every_position(qm, deleted):
    """MS-MQDMPR:3.1.7.1.4:01 every position, whatever its state (Available, Locked,
    PurgePending), goes through Message Position Deleted with NackQueueDeleted."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    for name in "abcd":
        send(qm, fn, label=name)
    qm.dequeue_message_begin(descriptor, timeout=0)                                   # a Locked
    qm.dequeue_message(descriptor, timeout=0, transaction=qm.create_transaction(TX))  # b Locked (tx)
    qm.dequeue_message_begin(descriptor, timeout=0)                                   # c Locked
    qm.purge_queue(queue)                                                              # d purged, c/a/b PurgePending
    deleted.clear()
    assert qm.delete_queue(queue) == H.MQ_OK
    assert sorted(deleted) == [(n, C.MQMSG_CLASS_NACK_Q_DELETED) for n in "abc"]
    assert qm.total_bytes == 0
    assert qm.transaction_commit(TX) == H.MQ_OK  # the transaction's position is already gone


def test_delete_queue_detaches_descriptors(qm):
    """MS-MQDMPR:3.1.7.1.4:02 every open descriptor's QueueReference becomes NULL; the queue leaves
    the QueueCollection and can no longer be opened; the name can be used again."""
    queue, fn = make_queue(qm)
    d1 = open_descriptor(qm, fn)
    d2 = open_descriptor(qm, fn, A.PeekAccess)
    assert qm.delete_queue(queue) == H.MQ_OK
    assert d1.queue_reference is None and d2.queue_reference is None
    assert queue not in qm.queue_collection.values()
    assert qm.open_queue(fn, A.ReceiveAccess, M.DenyNone) == (H.MQ_ERROR_QUEUE_NOT_FOUND, None)
    new, _ = make_queue(qm)
    assert new is not queue and open_descriptor(qm, fn).queue_reference is new


def test_delete_queue_ends_waiting_reads(qm):
    """D-13: blocked readers of a deleted queue (plain, cursor, peek) end with
    MQ_ERROR_QUEUE_DELETED; later calls get MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    cursor = qm.open_cursor(descriptor)
    plain = qm.dequeue_message(descriptor, timeout=WAIT)
    by_cursor = qm.dequeue_message(descriptor, timeout=WAIT, cursor=cursor)
    peek = qm.peek_message(open_descriptor(qm, fn), timeout=WAIT)
    qm.delete_queue(queue)
    for request in (plain, by_cursor, peek):
        assert request.done and request.status == H.MQ_ERROR_QUEUE_DELETED
    assert descriptor.waiting_message_read_operation_collection == []
    assert qm.dequeue_message(descriptor, timeout=WAIT).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE


def test_delete_queue_takes_subqueues_and_journal(qm):
    """MS-MQDMPR:3.1.7.1.4 (D-22) subqueues go with their queue, and the journal is emptied."""
    queue, fn = make_queue(qm, journaling=True)
    status, sub = qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    send(qm, fn, label="a")
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    assert labels(queue.journal_queue_reference) == ["a"]
    qm.delete_queue(queue)
    assert labels(queue.journal_queue_reference) == []
    assert sub.deleted and qm.open_queue(fn + ";sub", A.ReceiveAccess, M.DenyNone)[0] == H.MQ_ERROR_QUEUE_NOT_FOUND


def test_delete_queue_ends_reads_of_its_journal(qm):
    """D-13 / MS-MQDMPR:3.1.7.1.4:02: the journal goes with its queue (delete_queue: "subqueues and
    the journal go with it"), so a reader blocked on <queue>;JOURNAL ends with
    MQ_ERROR_QUEUE_DELETED, the descriptor loses its queue and later reads through it give
    MQ_ERROR_QUEUE_NOT_AVAILABLE, as for the queue itself and its subqueues."""
    queue, fn = make_queue(qm, journaling=True)
    journal_reader = open_descriptor(qm, fn + ";JOURNAL")
    waiting = qm.dequeue_message(journal_reader, timeout=WAIT)
    qm.delete_queue(queue)
    assert waiting.done and waiting.status == H.MQ_ERROR_QUEUE_DELETED
    assert journal_reader.queue_reference is None
    assert qm.dequeue_message(journal_reader, timeout=0).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE


def test_delete_queue_ends_reads_of_its_subqueues(qm):
    """D-13 / D-22 / MS-MQDMPR:3.1.7.1.4:02: subqueues are deleted with their queue: their blocked
    readers end with MQ_ERROR_QUEUE_DELETED and their descriptors lose the queue."""
    queue, fn = make_queue(qm)
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    sub_reader = open_descriptor(qm, fn + ";sub")
    waiting = qm.dequeue_message(sub_reader, timeout=WAIT)
    qm.delete_queue(queue)
    assert waiting.status == H.MQ_ERROR_QUEUE_DELETED
    assert sub_reader.queue_reference is None
    assert qm.dequeue_message(sub_reader, timeout=0).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE


# -- Close Queue ----------------------------------------------------------------------------

def test_close_queue_cancels_waiting_reads(qm):
    """MS-MQDMPR:3.1.7.1.6:01 / D-31: every waiting read of the descriptor, tagged or not, ends
    with MQ_ERROR_OPERATION_CANCELLED; other descriptors' waits go on."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    other = open_descriptor(qm, fn)
    tagged = qm.dequeue_message(descriptor, timeout=WAIT, tag=1)
    untagged = qm.peek_message(descriptor, timeout=WAIT)
    elsewhere = qm.dequeue_message(other, timeout=WAIT)
    qm.close_queue(descriptor)
    assert tagged.status == H.MQ_ERROR_OPERATION_CANCELLED and tagged.done
    assert untagged.status == H.MQ_ERROR_OPERATION_CANCELLED and untagged.done
    assert not elsewhere.done
    send(qm, fn, label="a")
    assert elsewhere.message.label == "a"


def test_close_queue_closes_cursors_and_detaches(qm):
    """MS-MQDMPR:3.1.7.1.6:02 all cursors of the descriptor are closed (their waits cancelled) and
    the descriptor leaves the queue."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    cursors = [qm.open_cursor(descriptor) for _ in range(2)]
    waiting = qm.peek_message(descriptor, timeout=WAIT, cursor=cursors[0])
    qm.close_queue(descriptor)
    assert waiting.status == H.MQ_ERROR_OPERATION_CANCELLED
    assert descriptor.cursor_collection == {}
    assert all(c.closed and c.handle not in qm.cursors for c in cursors)
    assert descriptor not in queue.open_queue_descriptor_collection
    assert descriptor.handle not in qm.open_queue_descriptors


def test_close_queue_keeps_locked_messages(qm):
    """MS-MQDMPR:3.1.7.1.6:02 / MS-MQDMPR:3.1.7.1.6 (digest) Close Queue does not return two-phase reads; that is the
    calling protocol's business."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    send(qm, fn, label="a")
    request = qm.dequeue_message_begin(descriptor, timeout=0)
    qm.close_queue(descriptor)
    assert request.position.state == LOCKED and labels(queue) == ["a"]


def test_close_queue_of_deleted_queue(qm):
    """MS-MQDMPR:3.1.7.1.6:02 / D-13 / MS-MQDMPR:3.1.7.1.6 a descriptor whose queue was deleted is simply dropped."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    qm.delete_queue(queue)
    qm.close_queue(descriptor)
    assert descriptor.handle not in qm.open_queue_descriptors


def test_close_multiple_descriptor_closes_children(qm):
    """MS-MQDMPR:3.1.7.1.6:02 / MS-MQDMPR:3.1.1.16:02 / MS-MQDMPR:3.1.7.1.6 a Multiple descriptor: Close Queue on every child."""
    qa, fa = make_queue(qm, "a")
    qb, fb = make_queue(qm, "b")
    status, parent = qm.open_queue(f"{fa},{fb}", A.SendAccess, M.DenyNone)
    assert status == H.MQ_OK and qa.active and qb.active
    qm.close_queue(parent)
    assert not qa.active and not qb.active
    assert parent.handle not in qm.open_queue_descriptors
