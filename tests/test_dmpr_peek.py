"""MS-MQDMPR 3.1.7.1.15 Peek Message and 3.1.7.1.14 Peek Next Message, with their waits
(3.1.7.3.1), AllowPeekWhenLocked (3.1.7.3.2) and the cursor events they raise (3.2.7.2,
3.2.7.3, 3.2.7.5, 3.2.7.6).
"""

from __future__ import annotations

from mqspec.reference.cursor import CursorState
from tests.conftest import AVAILABLE, LOCKED, WAIT, H, labels, open_descriptor, send


def fill(qm, fn, *names, **kw):
    return [send(qm, fn, label=name, **kw) for name in names]


# -- Peek Message without a cursor ----------------------------------------------------------

def test_peek_returns_the_front_without_removing(qm, setup):
    """MS-MQDMPR:3.1.7.1.15:02 the first eligible message from the front; it stays queued."""
    queue, fn, descriptor = setup
    send(qm, fn, label="low", priority=1)
    send(qm, fn, label="high", priority=5)
    for _ in range(2):
        request = qm.peek_message(descriptor, timeout=0)
        assert request.status == H.MQ_OK and request.message.label == "high"
    assert labels(queue) == ["high", "low"]
    assert all(p.state == AVAILABLE for p in queue.message_position_list.positions())


def test_peek_skips_locked_unless_allow_peek_when_locked(qm, setup):
    """MS-MQDMPR:3.1.7.3.2:01 peeks skip Locked positions except those whose message has
    AllowPeekWhenLocked; receives skip both."""
    queue, fn, descriptor = setup
    send(qm, fn, label="locked")
    send(qm, fn, label="visible", allow_peek_when_locked=True)
    send(qm, fn, label="free")
    qm.dequeue_message_begin(descriptor, timeout=0)   # locks "locked"
    qm.dequeue_message_begin(descriptor, timeout=0)   # locks "visible"
    assert qm.peek_message(descriptor, timeout=0).message.label == "visible"
    assert qm.dequeue_message(descriptor, timeout=0).message.label == "free"


def test_peek_zero_timeout_on_empty_queue(qm, setup):
    """D-03 / MS-MQDMPR:3.1.7.3.1:01 nothing to peek with a zero time-out: MQ_ERROR_IO_TIMEOUT."""
    queue, fn, descriptor = setup
    request = qm.peek_message(descriptor, timeout=0)
    assert request.status == H.MQ_ERROR_IO_TIMEOUT and request.message is None
    assert descriptor.waiting_message_read_operation_collection == []


def test_peek_wait_satisfied_leaves_the_message(qm, setup):
    """MS-MQDMPR:3.1.7.1.15:02 a waiting peek gets the new message, which stays in the queue."""
    queue, fn, descriptor = setup
    request = qm.peek_message(descriptor, timeout=WAIT)
    assert not request.done
    [a] = fill(qm, fn, "a")
    assert request.status == H.MQ_OK and request.message is a
    assert labels(queue) == ["a"]


def test_peek_wait_expiry(qm, setup, clock):
    """MS-MQDMPR:3.1.6.3:01 the peek's timer ends it with MQ_ERROR_IO_TIMEOUT after exactly the
    time-out."""
    queue, fn, descriptor = setup
    request = qm.peek_message(descriptor, timeout=300)
    clock.advance(299)
    qm.run_timers()
    assert not request.done
    clock.advance(1)
    qm.run_timers()
    assert request.status == H.MQ_ERROR_IO_TIMEOUT


def test_all_waiting_peekers_see_the_message(qm, setup):
    """MS-MQDMPR:3.1.7.2.2:02 / digest A-10 every blocked peek (no cursor) is released, one after
    the other, and they all see the same message."""
    queue, fn, descriptor = setup
    other = open_descriptor(qm, fn)
    peeks = [qm.peek_message(descriptor, timeout=WAIT) for _ in range(3)] + [qm.peek_message(other, timeout=WAIT)]
    [a] = fill(qm, fn, "a")
    assert all(p.done and p.message is a for p in peeks)


def test_peek_queue_not_available(qm, setup):
    """MSDN-CURSOR:NA:03 / MS-MQDMPR:3.1.7.3.1:01 / D-46 / MS-MQDMPR:3.1.7.1.15 / 3.1.7.1.14 a deleted queue: MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    qm.delete_queue(queue)
    assert qm.peek_message(descriptor, timeout=0).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE
    assert qm.peek_message(descriptor, timeout=0, cursor=cursor).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE
    assert qm.peek_next_message(descriptor, timeout=0, cursor=cursor).status == H.MQ_ERROR_QUEUE_NOT_AVAILABLE


# -- Peek Message with a cursor (peek-current, 3.2.7.2) ---------------------------------------

def test_cursor_peek_current_positions_then_stays(qm, setup):
    """MSDN-CURSOR:CREATE:01 / MSDN-CURSOR:PEEK:01 / MS-MQDMPR:3.2.7.2:01 / 3.2.7.2:02 the first peek-current moves a fresh cursor to the first
    message (Read); later peek-currents return the same message without moving."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b")
    cursor = qm.open_cursor(descriptor)
    first = qm.peek_message(descriptor, timeout=0, cursor=cursor)
    assert first.status == H.MQ_OK and first.message.label == "a"
    assert cursor.cursor_state is CursorState.Read
    assert cursor.message_position_reference is first.position
    again = qm.peek_message(descriptor, timeout=0, cursor=cursor)
    assert again.message.label == "a" and cursor.message_position_reference is first.position
    assert labels(queue) == ["a", "b"]


def test_cursor_peek_current_already_received(qm, setup):
    """MS-MQDMPR:3.1.7.1.15:01 the message under a Read cursor left the queue:
    MQ_ERROR_MESSAGE_ALREADY_RECEIVED, the cursor does not move."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b")
    cursor = qm.open_cursor(descriptor)
    position = qm.peek_message(descriptor, timeout=0, cursor=cursor).position
    qm.dequeue_message(descriptor, timeout=0)
    request = qm.peek_message(descriptor, timeout=0, cursor=cursor)
    assert request.status == H.MQ_ERROR_MESSAGE_ALREADY_RECEIVED and request.message is None
    assert cursor.message_position_reference is position and cursor.cursor_state is CursorState.Read


def test_cursor_peek_current_of_locked_message_already_received(qm, setup):
    """MS-MQDMPR:3.2.7.2:02 a Read cursor re-reads only an Available message; a message locked
    since (even with AllowPeekWhenLocked) answers MQ_ERROR_MESSAGE_ALREADY_RECEIVED."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", allow_peek_when_locked=True)
    cursor = qm.open_cursor(descriptor)
    qm.peek_message(descriptor, timeout=0, cursor=cursor)
    qm.dequeue_message_begin(descriptor, timeout=0)
    assert qm.peek_message(descriptor, timeout=0, cursor=cursor).status == H.MQ_ERROR_MESSAGE_ALREADY_RECEIVED


def test_cursor_peek_current_stops_on_locked_with_allow_peek(qm, setup):
    """MS-MQDMPR:3.2.7.2:01 / MS-MQDMPR:3.1.7.3.2:01 an Unread cursor's seek stops on a Locked
    message with AllowPeekWhenLocked and skips one without."""
    queue, fn, descriptor = setup
    send(qm, fn, label="hidden")
    send(qm, fn, label="shown", allow_peek_when_locked=True)
    qm.dequeue_message_begin(descriptor, timeout=0)
    qm.dequeue_message_begin(descriptor, timeout=0)
    cursor = qm.open_cursor(descriptor)
    request = qm.peek_message(descriptor, timeout=0, cursor=cursor)
    assert request.status == H.MQ_OK and request.message.label == "shown"
    assert request.position.state == LOCKED


def test_cursor_peek_current_waits_and_jumps(qm, setup):
    """MS-MQDMPR:3.2.7.2:01 / MS-MQDMPR:3.2.7.5:01 an Unread cursor with nothing ahead waits
    (WaitPeek); the new message moves it there (Read)."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    request = qm.peek_message(descriptor, timeout=WAIT, cursor=cursor)
    assert cursor.cursor_state is CursorState.WaitPeek and not request.done
    [a] = fill(qm, fn, "a")
    assert request.status == H.MQ_OK and request.message is a
    assert cursor.cursor_state is CursorState.Read and cursor.message_position_reference is request.position
    assert labels(queue) == ["a"]


def test_cursor_peek_zero_timeout(qm, setup):
    """D-03 / MS-MQDMPR:3.2.7.6:01 a cursor peek with nothing ahead and a zero time-out:
    MQ_ERROR_IO_TIMEOUT, the cursor is left Unread where it was."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    request = qm.peek_message(descriptor, timeout=0, cursor=cursor)
    assert request.status == H.MQ_ERROR_IO_TIMEOUT
    assert cursor.cursor_state is CursorState.Unread
    assert cursor.message_position_reference is queue.message_position_list.start


# -- Peek Next Message (3.1.7.1.14, 3.2.7.3) -------------------------------------------------

def test_peek_next_on_fresh_cursor_is_illegal(qm, setup):
    """MSDN-CURSOR:CREATE:03 / MS-MQDMPR:3.1.7.1.14:01 / MS-MQDMPR:3.2.7.3:01 peek-next on an Unread cursor:
    MQ_ERROR_ILLEGAL_CURSOR_ACTION, and the cursor does not move."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b")
    cursor = qm.open_cursor(descriptor)
    request = qm.peek_next_message(descriptor, timeout=0, cursor=cursor)
    assert request.status == H.MQ_ERROR_ILLEGAL_CURSOR_ACTION
    assert cursor.cursor_state is CursorState.Unread
    assert qm.peek_message(descriptor, timeout=0, cursor=cursor).message.label == "a"


def test_peek_next_walks_the_queue(qm, setup):
    """MSDN-CURSOR:PEEK:02 / MS-MQDMPR:3.2.7.3:02 each peek-next on a Read cursor moves to the next eligible message,
    in priority-then-arrival order, skipping Locked ones."""
    queue, fn, descriptor = setup
    send(qm, fn, label="c", priority=1)
    send(qm, fn, label="a", priority=6)
    send(qm, fn, label="x", priority=3)
    send(qm, fn, label="b", priority=3)
    qm.dequeue_message_begin(open_descriptor(qm, fn), timeout=0)  # locks "a"
    cursor = qm.open_cursor(descriptor)
    seen = [qm.peek_message(descriptor, timeout=0, cursor=cursor).message.label]
    for _ in range(10):  # bounded: a cursor that does not move must fail, not hang
        request = qm.peek_next_message(descriptor, timeout=0, cursor=cursor)
        if request.status != H.MQ_OK:
            break
        seen.append(request.message.label)
    assert seen == ["x", "b", "c"]
    assert request.status == H.MQ_ERROR_IO_TIMEOUT


def test_peek_next_wait_satisfied(qm, setup):
    """MS-MQDMPR:3.1.7.1.14:02 a waiting peek-next gets the new message; the cursor moves to it
    and the message stays."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    cursor = qm.open_cursor(descriptor)
    qm.peek_message(descriptor, timeout=0, cursor=cursor)
    request = qm.peek_next_message(descriptor, timeout=WAIT, cursor=cursor)
    assert cursor.cursor_state is CursorState.WaitPeek and not request.done
    [b] = fill(qm, fn, "b")
    assert request.status == H.MQ_OK and request.message is b
    assert cursor.cursor_state is CursorState.Read
    assert labels(queue) == ["a", "b"]


def test_peek_next_waiting_peek_releases_next_reader(qm, setup):
    """MS-MQDMPR:3.1.7.1.14:02 (Release Next Reader) after a waiting cursor peek is satisfied the
    next waiting reader, a receiver, still gets the message."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    peek = qm.peek_message(descriptor, timeout=WAIT, cursor=cursor)
    receive = qm.dequeue_message(descriptor, timeout=WAIT)
    [a] = fill(qm, fn, "a")
    assert peek.message is a and receive.message is a
    assert labels(queue) == []


def test_peek_next_wait_expiry(qm, setup, clock):
    """MS-MQDMPR:3.1.7.1.14 / MS-MQDMPR:3.2.7.6:01 a timed-out peek-next returns
    MQ_ERROR_IO_TIMEOUT and leaves the cursor Unread on its message."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a")
    cursor = qm.open_cursor(descriptor)
    position = qm.peek_message(descriptor, timeout=0, cursor=cursor).position
    request = qm.peek_next_message(descriptor, timeout=1_000, cursor=cursor)
    clock.advance(1_000)
    qm.run_timers()
    assert request.status == H.MQ_ERROR_IO_TIMEOUT
    assert cursor.cursor_state is CursorState.Unread
    assert cursor.message_position_reference is position
