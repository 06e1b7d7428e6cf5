"""MS-MQDMPR 3.1.7.1.9 Enqueue Message (seed 004), 3.1.7.2.2 Message Position Available,
3.1.7.2.5/6 flow control and 3.1.7.1.27 Enqueue Message To An Open Queue.

Each test names the clause it checks (ids as in the reference's comments, or a decision id).
"""

from __future__ import annotations

import pytest

from mqspec.protocol.constants import INFINITE
from mqspec.protocol.hresult import HRESULT
from mqspec.reference.enumerations import (
    MessagePositionState,
    OperationType,
    QueueAccessType,
    QueueShareMode,
)
from mqspec.reference.message import Message
from mqspec.reference.packet import packet_size
from mqspec.reference.queue_manager import QueueManager
from tests.conftest import COMPUTER, labels, make_queue, open_descriptor, send

AVAILABLE, LOCKED = MessagePositionState.Available, MessagePositionState.Locked
LOW7 = (1 << 56) - 1
WAIT = 60_000  # a time-out long enough never to expire in these tests


def msg(label: str, priority: int = 3, body: bytes = b"", **kw) -> Message:
    return Message(body, label=label, priority=priority, **kw)


def tx_msg(label: str, priority: int) -> Message:
    """A message that carries a TransactionalMessageSequenceIdentifier (a transactional message)."""
    return msg(label, priority, transactional_message_sequence_identifier=b"\x01" * 8)


# -- rStatus 0, 1, 2, 3 and the order of the checks -------------------------------------------

def test_status_0_inserts_an_available_position(qm):
    """MS-MQDMPR:3.1.7.1.9:06 / 3.1.7.1.9 rStatus 0: a non-transactional enqueue succeeds and
    leaves an Available position in the queue."""
    queue, _ = make_queue(qm)
    message = msg("a")
    assert qm.enqueue_message(queue, message) == 0
    position = message.message_position_reference
    assert position.state == AVAILABLE
    assert position.queue_reference is queue
    assert list(queue.message_position_list.positions()) == [position]


def test_status_2_when_throttled_and_nothing_changes(qm):
    """MS-MQDMPR:3.1.7.1.9:01 / MS-MQDMPR:3.1.7.2.5:01 while the QM is Throttled every enqueue
    fails with 2; End Flow Control lets messages in again."""
    queue, _ = make_queue(qm)
    qm.begin_flow_control()
    assert qm.throttled is True
    before = qm.sequential_id
    assert qm.enqueue_message(queue, msg("a")) == 2
    assert labels(queue) == [] and queue.total_bytes == 0 and qm.sequential_id == before
    qm.end_flow_control()
    assert qm.throttled is False
    assert qm.enqueue_message(queue, msg("b")) == 0
    assert labels(queue) == ["b"]


def test_status_2_when_queue_manager_quota_would_be_exceeded(clock):
    """MS-MQDMPR:3.1.7.1.9:01 QueueManagerQuota (bytes) counts every queue; filling it exactly is
    allowed, one byte more is refused with 2."""
    size = packet_size(msg("", body=b"x" * 204))
    qm = QueueManager(clock, computer_name=COMPUTER, queue_manager_quota=2 * size)
    first, _ = make_queue(qm, "first")
    second, _ = make_queue(qm, "second")
    assert qm.enqueue_message(first, msg("", body=b"x" * 204)) == 0
    assert qm.enqueue_message(second, msg("", body=b"y" * 204)) == 0  # exactly at the quota
    assert qm.total_bytes == 2 * size
    assert qm.enqueue_message(first, msg("")) == 2
    assert len(first.message_position_list) == 1 and len(second.message_position_list) == 1


def test_status_1_when_queue_quota_would_be_exceeded(qm):
    """MS-MQDMPR:3.1.7.1.9:02 Queue.Quota is in kilobytes: two 512-byte messages fill 1 KB
    exactly, a third is refused with 1."""
    body = b"x" * 204
    assert packet_size(msg("", body=body)) == 512
    queue, _ = make_queue(qm, quota=1)
    assert qm.enqueue_message(queue, msg("", body=body)) == 0
    assert qm.enqueue_message(queue, msg("", body=body)) == 0
    assert queue.total_bytes == 1024
    assert qm.enqueue_message(queue, msg("")) == 1
    assert len(queue.message_position_list) == 2
    other, _ = make_queue(qm, "other", quota=1)
    assert qm.enqueue_message(other, msg("d")) == 0  # the quota is per queue


def test_throttled_is_checked_before_the_queue_quota(qm):
    """MS-MQDMPR:3.1.7.1.9:01 before 3.1.7.1.9:02: a throttled QM answers 2 even when the queue
    quota would also be exceeded."""
    queue, _ = make_queue(qm, quota=0)
    assert qm.enqueue_message(queue, msg("a")) == 1
    qm.begin_flow_control()
    assert qm.enqueue_message(queue, msg("a")) == 2


def test_queue_manager_quota_is_checked_before_the_queue_quota(clock):
    """MS-MQDMPR:3.1.7.1.9:01 before 3.1.7.1.9:02: both quotas exceeded gives 2."""
    qm = QueueManager(clock, computer_name=COMPUTER, queue_manager_quota=100)
    queue, _ = make_queue(qm, quota=0)
    assert qm.enqueue_message(queue, msg("a")) == 2


def test_status_3_when_time_to_reach_queue_has_passed(qm, clock):
    """D-08: after the quota checks, SentTime + TimeToReachQueue before CURRENT_TIME gives 3;
    exactly at the limit the message is still accepted."""
    queue, _ = make_queue(qm)
    now = clock.now_ms() // 1000
    late = msg("late", sent_time=now - 11, time_to_reach_queue=10)
    assert qm.enqueue_message(queue, late) == 3
    on_time = msg("on-time", sent_time=now - 10, time_to_reach_queue=10)
    assert qm.enqueue_message(queue, on_time) == 0
    never = msg("never", sent_time=now - 10**6, time_to_reach_queue=INFINITE)
    assert qm.enqueue_message(queue, never) == 0
    assert labels(queue) == ["on-time", "never"]


def test_quotas_are_checked_before_the_time_to_reach_queue(qm, clock):
    """D-08 "after the two quota checks": an expired message for a full queue gets 1, and 2
    while throttled, never 3."""
    queue, _ = make_queue(qm, quota=0)
    now = clock.now_ms() // 1000
    assert qm.enqueue_message(queue, msg("x", sent_time=now - 100, time_to_reach_queue=1)) == 1
    qm.begin_flow_control()
    assert qm.enqueue_message(queue, msg("x", sent_time=now - 100, time_to_reach_queue=1)) == 2


def test_refused_enqueue_does_not_consume_a_sequential_id(qm, clock):
    """MS-MQDMPR:3.1.7.1.9:03 SequentialID is incremented only after the status 1/2/3 checks."""
    full, _ = make_queue(qm, "full", quota=0)
    queue, _ = make_queue(qm)
    now = clock.now_ms() // 1000
    assert qm.enqueue_message(full, msg("q")) == 1
    assert qm.enqueue_message(queue, msg("t", sent_time=now - 5, time_to_reach_queue=1)) == 3
    qm.begin_flow_control()
    assert qm.enqueue_message(queue, msg("f")) == 2
    qm.end_flow_control()
    assert qm.sequential_id == 0
    message = msg("ok")
    assert qm.enqueue_message(queue, message) == 0
    assert qm.sequential_id == 1 and message.lookup_identifier == 1


# -- SequentialID and LookupIdentifier ------------------------------------------------------

def test_sequential_id_increments_once_per_enqueue_across_queues(qm):
    """MS-MQDMPR:3.1.1.1:02 / 3.1.7.1.9:03 one increment of LocalQueueManager.SequentialID per
    Enqueue Message, whatever the queue."""
    first, _ = make_queue(qm, "first")
    second, _ = make_queue(qm, "second")
    ids = []
    for n, queue in enumerate([first, second, first, second, second]):
        message = msg(str(n))
        assert qm.enqueue_message(queue, message) == 0
        assert qm.sequential_id == n + 1
        ids.append(message.lookup_identifier)
    assert ids == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("priority", range(8))
def test_lookup_identifier_high_byte_non_transactional_is_zero(qm, priority):
    """MS-MQDMPR:3.1.7.1.9:03 an empty TransactionalMessageSequenceIdentifier gives high byte 0x00
    whatever the priority."""
    queue, _ = make_queue(qm)
    message = msg("a", priority)
    qm.enqueue_message(queue, message)
    assert message.lookup_identifier >> 56 == 0
    assert message.lookup_identifier & LOW7 == qm.sequential_id


@pytest.mark.parametrize("priority", range(8))
def test_lookup_identifier_high_byte_transactional_is_7_minus_priority(qm, priority):
    """MS-MQDMPR:3.1.7.1.9:03 a transactional message's high byte is 0x07 - Priority."""
    queue, _ = make_queue(qm)
    message = tx_msg("a", priority)
    qm.enqueue_message(queue, message)
    assert message.lookup_identifier >> 56 == 0x07 - priority
    assert message.lookup_identifier & LOW7 == qm.sequential_id


def test_lookup_identifier_takes_the_seven_low_bytes_of_sequential_id(qm):
    """MS-MQDMPR:3.1.7.1.9:03 only the seven low-order bytes of SequentialID are copied; the high
    byte comes from the transactional rule, not from the counter."""
    queue, _ = make_queue(qm)
    qm.sequential_id = 0xAB23456789ABCDEE
    plain = msg("plain")
    qm.enqueue_message(queue, plain)
    assert qm.sequential_id == 0xAB23456789ABCDEF
    assert plain.lookup_identifier == 0x0023456789ABCDEF
    transactional = tx_msg("tx", 2)
    qm.enqueue_message(queue, transactional)
    assert transactional.lookup_identifier == 0x0523456789ABCDF0


def test_send_in_a_transaction_gives_high_byte_0x07(qm):
    """D-65: a message sent in a transaction gets priority 0 and Recoverable delivery, so its
    lookup identifier's high byte is 0x07."""
    queue, fn = make_queue(qm, transactional=True)
    transaction = qm.create_transaction(b"T" * 16)
    message = Message(b"", label="a", priority=6)
    assert qm.send_message(fn, message, transaction) == (0, 0)
    assert message.priority == 0 and message.is_recoverable
    assert message.lookup_identifier >> 56 == 0x07


def test_arrival_time_is_the_enqueue_time(qm, clock):
    """MS-MQDMPR:3.1.7.1.9:04 / MS-MQDMPR:3.1.1.12 ArrivalTime: the time the message was added to the list (seconds)."""
    queue, _ = make_queue(qm)
    clock.advance(5_500)
    message = msg("a", sent_time=clock.now_ms() // 1000 - 3)
    qm.enqueue_message(queue, message)
    assert message.arrival_time == clock.now_ms() // 1000


# -- insertion order and the TTBR timer -----------------------------------------------------

def test_insertion_by_priority_then_arrival(qm):
    """MS-MQDMPR:3.1.7.1.9:04 / MS-MQDMPR:3.1.1.2:04 priority 7 first, arrival order inside one
    priority."""
    queue, _ = make_queue(qm)
    for label, priority in [("a3", 3), ("b5", 5), ("c3", 3), ("d7", 7), ("e0", 0), ("f5", 5), ("g7", 7)]:
        assert qm.enqueue_message(queue, msg(label, priority)) == 0
    assert labels(queue) == ["d7", "g7", "b5", "f5", "a3", "c3", "e0"]


def test_enqueue_starts_a_time_to_be_received_timer(qm, clock):
    """MS-MQDMPR:3.1.7.1.9:04 / MS-MQDMPR:3.1.2.4:01 a finite TimeToBeReceived arms a timer at
    enqueue; 0xFFFFFFFF arms none."""
    queue, _ = make_queue(qm)
    timers = len(qm.timers)
    qm.enqueue_message(queue, msg("forever"))
    assert len(qm.timers) == timers
    qm.enqueue_message(queue, msg("short", time_to_be_received=7))
    assert len(qm.timers) == timers + 1
    assert qm.timers.next_deadline() == clock.now_ms() + 7_000
    clock.advance(7_000)
    qm.run_timers()
    assert labels(queue) == ["forever"]


def test_enqueue_accounts_total_bytes(qm):
    """D-07 / MS-MQDMPR:3.1.7.2.2:01 a message's size counts in Queue.TotalBytes and the QM's
    total while its position is in the list; Message Position Deleted takes it out."""
    queue, fn = make_queue(qm)
    message = msg("a", body=b"12345678")
    qm.enqueue_message(queue, message)
    assert queue.total_bytes == packet_size(message) == message.size
    assert qm.total_bytes == message.size
    request = qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    assert request.status == HRESULT.MQ_OK
    assert queue.total_bytes == 0 and qm.total_bytes == 0


# -- transactional enqueue ------------------------------------------------------------------

def test_transactional_enqueue_is_locked_with_an_enqueue_operation(qm):
    """MS-MQDMPR:3.1.7.1.9:05 with iTransaction the new position is Locked and an Enqueue
    TransactionalOperation referencing it is added to the transaction."""
    queue, fn = make_queue(qm)
    transaction = qm.create_transaction(b"T" * 16)
    message = msg("a")
    assert qm.enqueue_message(queue, message, transaction) == 0
    position = message.message_position_reference
    assert position.state == LOCKED
    [operation] = transaction.transactional_operation_collection
    assert operation.operation_type is OperationType.Enqueue
    assert operation.message_position_reference is position
    assert queue.total_bytes == message.size  # D-07 an uncommitted enqueue occupies storage
    descriptor = open_descriptor(qm, fn)
    assert qm.dequeue_message(descriptor, timeout=0).status == HRESULT.MQ_ERROR_IO_TIMEOUT
    assert qm.peek_message(descriptor, timeout=0).status == HRESULT.MQ_ERROR_IO_TIMEOUT


def test_transactional_enqueue_does_not_wake_waiting_readers(qm):
    """MS-MQDMPR:3.1.7.1.9:05 no Message Position Available until the commit (3.1.4.4)."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    waiting = qm.dequeue_message(descriptor, timeout=WAIT)
    transaction = qm.create_transaction(b"T" * 16)
    qm.enqueue_message(queue, msg("a"), transaction)
    assert not waiting.done
    assert qm.transaction_commit(b"T" * 16) == HRESULT.MQ_OK
    assert waiting.done and waiting.status == HRESULT.MQ_OK and waiting.message.label == "a"


# -- Message Position Available wakes waiting readers (3.1.7.2.2) ---------------------------

def test_available_satisfies_a_waiting_receiver(qm):
    """MS-MQDMPR:3.1.7.1.9:06 / MS-MQDMPR:3.1.7.2.2:02 a blocked destructive reader gets the new
    message, which leaves the queue."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    waiting = qm.dequeue_message(descriptor, timeout=WAIT)
    assert not waiting.done
    assert len(descriptor.waiting_message_read_operation_collection) == 1
    message = send(qm, fn, label="a")
    assert waiting.done and waiting.status == HRESULT.MQ_OK and waiting.message is message
    assert labels(queue) == []
    assert descriptor.waiting_message_read_operation_collection == []


def test_available_serves_receivers_fifo_within_a_descriptor(qm):
    """MS-MQDMPR:3.1.7.2.2:02 waiting readers of one descriptor are served in FIFO order."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    first = qm.dequeue_message(descriptor, timeout=WAIT)
    second = qm.dequeue_message(descriptor, timeout=WAIT)
    send(qm, fn, label="a")
    assert first.done and first.message.label == "a"
    assert not second.done
    send(qm, fn, label="b")
    assert second.done and second.message.label == "b"


def test_available_stops_after_the_first_destructive_reader(qm):
    """MS-MQDMPR:3.1.7.2.2:02 every peeker queued before the first receiver sees the message, the
    first receiver takes it, and readers after it keep waiting."""
    queue, fn = make_queue(qm)
    descriptor = open_descriptor(qm, fn)
    peek1 = qm.peek_message(descriptor, timeout=WAIT)
    peek2 = qm.peek_message(descriptor, timeout=WAIT)
    receive1 = qm.dequeue_message(descriptor, timeout=WAIT)
    peek3 = qm.peek_message(descriptor, timeout=WAIT)
    receive2 = qm.dequeue_message(descriptor, timeout=WAIT)
    message = send(qm, fn, label="a")
    assert peek1.done and peek1.message is message
    assert peek2.done and peek2.message is message
    assert receive1.done and receive1.message is message
    assert not peek3.done and not receive2.done
    assert labels(queue) == []
    second = send(qm, fn, label="b")
    assert peek3.done and peek3.message is second
    assert receive2.done and receive2.message is second


def test_available_walks_descriptors_in_order(qm):
    """MS-MQDMPR:3.1.7.2.2:02 the walk covers every descriptor of the queue: a peeker of the first
    descriptor does not stop a receiver of the second; a receiver of the first does stop it."""
    queue, fn = make_queue(qm)
    d1 = open_descriptor(qm, fn)
    d2 = open_descriptor(qm, fn)
    peek = qm.peek_message(d1, timeout=WAIT)
    receive = qm.dequeue_message(d2, timeout=WAIT)
    send(qm, fn, label="a")
    assert peek.done and receive.done and receive.message.label == "a"
    receive_first = qm.dequeue_message(d1, timeout=WAIT)
    peek_second = qm.peek_message(d2, timeout=WAIT)
    send(qm, fn, label="b")
    assert receive_first.done and receive_first.message.label == "b"
    assert not peek_second.done


def test_available_with_no_waiters_leaves_the_message(qm):
    """MS-MQDMPR:3.1.7.2.2:01 with nobody waiting the message simply becomes Available."""
    queue, fn = make_queue(qm)
    open_descriptor(qm, fn)
    send(qm, fn, label="a")
    assert [p.state for p in queue.message_position_list.positions()] == [AVAILABLE]


# -- Enqueue Message To An Open Queue (3.1.7.1.27) ------------------------------------------

def test_enqueue_to_open_queue_single_descriptor(qm):
    """MS-MQDMPR:3.1.7.1.27:01 / MS-MQDMPR:3.1.7.1.27 a non-multiple descriptor enqueues into its queue and returns the
    Enqueue Message status."""
    queue, fn = make_queue(qm, quota=0)
    status, descriptor = qm.open_queue(fn, QueueAccessType.SendAccess, QueueShareMode.DenyNone)
    assert status == HRESULT.MQ_OK
    assert qm.enqueue_message_to_an_open_queue(descriptor, msg("a")) == 1
    queue.quota = INFINITE
    assert qm.enqueue_message_to_an_open_queue(descriptor, msg("b")) == 0
    assert labels(queue) == ["b"]


def test_enqueue_to_open_queue_multiple_copies_per_element(qm):
    """MS-MQDMPR:3.1.7.1.27:01 a multiple-element descriptor enqueues one copy per element, each
    with the element's destination format name."""
    qa, fa = make_queue(qm, "a")
    qb, fb = make_queue(qm, "b")
    status, descriptor = qm.open_queue(f"{fa},{fb}", QueueAccessType.SendAccess, QueueShareMode.DenyNone)
    assert status == HRESULT.MQ_OK and descriptor.multiple
    original = msg("m")
    assert qm.enqueue_message_to_an_open_queue(descriptor, original) == 0
    [copy_a] = [p.message_reference for p in qa.message_position_list.positions()]
    [copy_b] = [p.message_reference for p in qb.message_position_list.positions()]
    assert copy_a is not copy_b and copy_a is not original
    assert copy_a.destination_queue_format_name.lower() == fa.lower()
    assert copy_b.destination_queue_format_name.lower() == fb.lower()
    assert copy_a.lookup_identifier != copy_b.lookup_identifier


def test_enqueue_to_open_queue_multiple_stops_at_first_failure(qm):
    """MS-MQDMPR:3.1.7.1.27:01 the first non-zero status is returned at once; copies already
    enqueued stay, later elements get nothing."""
    qa, fa = make_queue(qm, "a")
    qb, fb = make_queue(qm, "b", quota=0)
    qc, fc = make_queue(qm, "c")
    status, descriptor = qm.open_queue(f"{fc},{fb},{fa}", QueueAccessType.SendAccess, QueueShareMode.DenyNone)
    assert status == HRESULT.MQ_OK
    # the expanded name is sorted (MS-MQDMPR 3.1.7.3.8): a, b, c
    assert qm.enqueue_message_to_an_open_queue(descriptor, msg("m")) == 1
    assert labels(qa) == ["m"] and labels(qb) == [] and labels(qc) == []


def test_enqueue_to_open_queue_of_deleted_queue(qm):
    """D-32: Enqueue Message To An Open Queue through a descriptor whose queue was deleted
    reports status 2."""
    queue, fn = make_queue(qm)
    status, descriptor = qm.open_queue(fn, QueueAccessType.SendAccess, QueueShareMode.DenyNone)
    qm.delete_queue(queue)
    assert descriptor.queue_reference is None
    assert qm.enqueue_message_to_an_open_queue(descriptor, msg("a")) == 2


# -- the set-up "send" (arrival.py) refuses out-of-range properties before any enqueue ---------

@pytest.mark.parametrize("properties, clause", [
    (dict(priority=8), "MS-MQDMPR:3.1.1.12:02"),
    (dict(priority=-1), "MS-MQDMPR:3.1.1.12:02"),
    (dict(label="x" * 250), "MS-MQDMPR:3.1.1.12:06"),
    (dict(acknowledgements_requested=0x10, administration_queue_format_name="DIRECT=OS:mqspec\\private$\\a"),
     "MS-MQMQ:2.2.19.3"),
    (dict(message_class=0x1200), "MS-MQMQ:2.2.19.3:03"),
    (dict(acknowledgements_requested=0x2), "D-59"),
])
def test_send_refuses_illegal_property_values(qm, properties, clause):
    """MS-MQDMPR:3.1.1.12:02 priority 0..7, 3.1.1.12:06 label <= 249 characters, MS-MQMQ 2.2.19.3
    acknowledgment flags and classes (mask 0xE1FF), D-59 acknowledgments need an admin queue:
    MQ_ERROR_ILLEGAL_PROPERTY_VALUE, nothing enqueued, no SequentialID used."""
    queue, fn = make_queue(qm)
    assert qm.send_message(fn, Message(b"", **properties)) == (HRESULT.MQ_ERROR_ILLEGAL_PROPERTY_VALUE, None), clause
    assert labels(queue) == [] and qm.sequential_id == 0


def test_send_accepts_boundary_property_values(qm):
    """MS-MQDMPR:3.1.1.12:02 / 3.1.1.12:06 priorities 0 and 7, a 249-character label and an
    application class inside mask 0xE1FF are accepted."""
    queue, fn = make_queue(qm)
    send(qm, fn, label="x" * 249, priority=7)
    send(qm, fn, label="low", priority=0, message_class=0x0101)
    assert labels(queue) == ["x" * 249, "low"]


@pytest.mark.parametrize("field", ["administration_queue_format_name", "response_queue_format_name"])
def test_send_refuses_illegal_format_names(qm, field):
    """MS-MQMQ:2.1.2:01 / MS-MQMQ 2.1: an admin or response queue that is no format name: MQ_ERROR_ILLEGAL_FORMATNAME."""
    queue, fn = make_queue(qm)
    assert qm.send_message(fn, Message(b"", **{field: "not a format name"})) == (
        HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME, None)
    assert labels(queue) == []


def test_send_to_a_queue_that_cannot_be_opened(qm):
    """MS-MQDMPR:3.1.7.1.5:02 the send opens the destination first; its failure is returned."""
    make_queue(qm)
    assert qm.send_message(f"DIRECT=OS:{COMPUTER}\\private$\\missing", Message(b"")) == (
        HRESULT.MQ_ERROR_QUEUE_NOT_FOUND, None)
    assert qm.sequential_id == 0


def test_send_stamps_identifier_sent_time_and_destination(qm, clock):
    """MS-MQMQ:2.2.18.1.3:01 / MS-MQMQ:2.2.19.2:03 / MS-MQDMPR:3.1.1.12 Identifier (OBJECTID: this QM's GUID + ordinal, unique), SentTime and
    DestinationQueueFormatName are set for an arriving message; SourceMachineIdentifier is the
    lineage."""
    queue, fn = make_queue(qm)
    first = send(qm, fn, label="a")
    second = send(qm, fn, label="b")
    assert first.identifier != second.identifier
    assert first.identifier[:16] == qm.identifier == first.source_machine_identifier
    assert first.sent_time == clock.now_ms() // 1000
    assert first.destination_queue_format_name == fn
