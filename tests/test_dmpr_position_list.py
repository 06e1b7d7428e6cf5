"""Property tests of Queue.MessagePositionList (MS-MQDMPR 3.1.1.2, 3.1.1.11, 3.1.7.3.2): the order
is priority 7..0, then arrival, for any mix of enqueues, removals, locks, releases and cursors
resting on removed positions (D-06)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mqspec.reference.clock import VirtualClock
from mqspec.reference.enumerations import MessageSeekAction as S
from mqspec.reference.message import Message
from mqspec.reference.queue_manager import QueueManager
from tests.conftest import (
    AVAILABLE,
    COMPUTER,
    DELETED,
    LOCKED,
    H,
    make_queue,
    open_descriptor,
)


def new_queue_manager():
    qm = QueueManager(VirtualClock(), computer_name=COMPUTER, queue_manager_quota=1 << 40)
    queue, fn = make_queue(qm)
    return qm, queue, open_descriptor(qm, fn)


def key(message):
    """The ordering key of MS-MQDMPR:3.1.1.2:04: higher priority first, then earlier arrival."""
    return (-message.priority, message.lookup_identifier)


def check_list(queue, live):
    """The list holds exactly the live messages in key order, and its links are consistent."""
    position_list = queue.message_position_list
    expected = sorted(live, key=key)
    assert [p.message_reference for p in position_list.positions()] == expected
    assert len(position_list) == len(expected)
    # walk every linked entry, tombstones included (D-06)
    linked = []
    position = position_list.start
    for _ in range(10_000):
        if position.next is None or position is position_list.end:
            break
        assert position.next.previous is position
        position = position.next
        if position is not position_list.end:
            linked.append(position)
    assert position is position_list.end
    for position in linked:
        if position.state == DELETED:
            assert position.cursor_references > 0  # a tombstone only while a cursor rests on it
    keys = [key(p.message_reference) for p in linked]
    assert keys == sorted(keys)
    # Head (the first eligible position) is the first Available message (D-01)
    first = position_list.seek_forward(position_list.start, peek=False)
    available = [m for m in expected if m.message_position_reference.state == AVAILABLE]
    assert (first is position_list.end) if not available else (first.message_reference is available[0])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("enqueue"), st.integers(0, 7)),
                          st.tuples(st.just("remove"), st.integers(0, 1000))),
                max_size=60))
def test_property_order_with_enqueues_and_removals(operations):
    """MS-MQDMPR:3.1.1.2:04 / MS-MQDMPR:3.1.7.1.9:04 / MS-MQDMPR:3.1.7.2.1:01: after any sequence of
    enqueues with random priorities and removals of random messages, the list is ordered by
    priority (7 first) then arrival, and holds exactly the messages not removed."""
    qm, queue, descriptor = new_queue_manager()
    live = []
    for operation, value in operations:
        if operation == "enqueue":
            message = Message(b"", label=str(qm.sequential_id), priority=value)
            assert qm.enqueue_message(queue, message) == 0
            live.append(message)
        elif live:
            victim = live.pop(value % len(live))
            request = qm.read_message_by_lookup_identifier(descriptor, victim.lookup_identifier, False, S.SeekCurrent)
            assert request.status == H.MQ_OK and request.message is victim
        check_list(queue, live)
    # draining from the front gives the same order
    drained = []
    for _ in range(len(live) + 1):
        request = qm.dequeue_message(descriptor, timeout=0)
        if request.status != H.MQ_OK:
            break
        drained.append(request.message)
    assert drained == sorted(live, key=key)


OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("enqueue"), st.integers(0, 7)),
    st.tuples(st.just("remove"), st.integers(0, 1000)),       # receive by lookup id
    st.tuples(st.just("take_front"), st.just(0)),             # Dequeue Message, no cursor
    st.tuples(st.just("lock"), st.integers(0, 1000)),         # two-phase read
    st.tuples(st.just("release"), st.integers(0, 1000)),      # Dequeue Message End, no delete
    st.tuples(st.just("finish"), st.integers(0, 1000)),       # Dequeue Message End, delete
    st.tuples(st.just("cursor_next"), st.integers(0, 2)),     # peek-current / peek-next
    st.tuples(st.just("cursor_reset"), st.integers(0, 2)),    # close and reopen a cursor
), max_size=60)


@settings(max_examples=200, deadline=None)
@given(OPERATIONS)
def test_property_order_with_locks_and_cursors(operations):
    """MS-MQDMPR:3.1.1.2:04 / MS-MQDMPR:3.1.7.3.2:01 / MS-MQDMPR:3.2.7.2:01 / 3.2.7.3:02 / D-06: with
    locks, releases and cursors resting on removed messages, the list stays in priority-then-
    arrival order, locked messages keep their place, and a cursor's next peek is always the
    first Available message after its position in that order."""
    qm, queue, descriptor = new_queue_manager()
    live = []                        # messages in the queue (Available or Locked)
    locked = []                      # positions locked by a two-phase read
    cursors = [qm.open_cursor(descriptor) for _ in range(3)]
    cursor_keys = [None, None, None]  # None: at Start

    def available():
        return sorted((m for m in live if m.message_position_reference.state == AVAILABLE), key=key)

    for operation, value in operations:
        if operation == "enqueue":
            message = Message(b"", label=str(qm.sequential_id), priority=value)
            assert qm.enqueue_message(queue, message) == 0
            live.append(message)
        elif operation == "remove" and available():
            victim = available()[value % len(available())]
            request = qm.read_message_by_lookup_identifier(descriptor, victim.lookup_identifier, False, S.SeekCurrent)
            assert request.message is victim
            live.remove(victim)
        elif operation == "take_front":
            expected = available()
            request = qm.dequeue_message(descriptor, timeout=0)
            if expected:
                assert request.message is expected[0]
                live.remove(expected[0])
            else:
                assert request.status == H.MQ_ERROR_IO_TIMEOUT
        elif operation == "lock" and available():
            victim = available()[value % len(available())]
            request = qm.read_message_by_lookup_identifier(descriptor, victim.lookup_identifier, False,
                                                           S.SeekCurrent, two_phase_read=True)
            assert request.position.state == LOCKED
            locked.append(request.position)
        elif operation in ("release", "finish") and locked:
            position = locked.pop(value % len(locked))
            assert qm.dequeue_message_end(descriptor, position, operation == "finish") == H.MQ_OK
            if operation == "finish":
                live.remove(position.message_reference)
        elif operation == "cursor_next":
            cursor = cursors[value]
            after = cursor_keys[value]
            expected = [m for m in available() if after is None or key(m) > after]
            if cursor.cursor_state.name == "Read":
                request = qm.peek_next_message(descriptor, timeout=0, cursor=cursor)
            else:
                request = qm.peek_message(descriptor, timeout=0, cursor=cursor)
            if expected:
                assert request.status == H.MQ_OK and request.message is expected[0]
                cursor_keys[value] = key(expected[0])
            else:
                assert request.status == H.MQ_ERROR_IO_TIMEOUT
        elif operation == "cursor_reset":
            qm.close_cursor(cursors[value])
            cursors[value] = qm.open_cursor(descriptor)
            cursor_keys[value] = None
        check_list(queue, live)
    for cursor in cursors:
        qm.close_cursor(cursor)
    position_list = queue.message_position_list
    linked = 0
    position = position_list.start.next
    while position is not position_list.end and linked <= len(live):
        linked += 1
        position = position.next
    assert linked == len(live)  # every tombstone is gone once no cursor rests on it
