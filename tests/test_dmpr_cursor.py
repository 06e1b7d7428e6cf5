"""The Cursor of MS-MQDMPR 3.2 (events 3.2.7.1 - 3.2.7.6), Open Cursor / Close Cursor
(3.1.7.1.1, 3.1.7.1.2) and the MSDN cursor behaviour pages (cursor-behavior.md, seed 002).
"""

from __future__ import annotations

import pytest

from mqspec.reference.cursor import CursorState
from mqspec.reference.enumerations import MessageSeekAction
from tests.conftest import TX, WAIT, H, labels, open_descriptor, send

Unread, Read, WaitPeek, WaitReceive = (CursorState.Unread, CursorState.Read,
                                       CursorState.WaitPeek, CursorState.WaitReceive)




def fill(qm, fn, *items):
    for item in items:
        label, priority = (item, 3) if isinstance(item, str) else item
        send(qm, fn, label=label, priority=priority)


def peek(qm, d, c, timeout=0):
    return qm.peek_message(d, timeout=timeout, cursor=c)


def peek_next(qm, d, c, timeout=0):
    return qm.peek_next_message(d, timeout=timeout, cursor=c)


def receive(qm, d, c, timeout=0):
    return qm.dequeue_message(d, timeout=timeout, cursor=c)


def label(request):
    assert request.status == H.MQ_OK, hex(request.status)
    return request.message.label


# -- Open Cursor / Initialize / Close Cursor ---------------------------------------------

def test_open_cursor_initializes(qm, setup):
    """MS-MQDMPR:3.1.7.1.1:02 / MS-MQDMPR:3.2.7.1:01 the new cursor is in the descriptor's
    CursorCollection, references Start and is Unread; handles are QM-unique
    (MS-MQDMPR:3.2.1.2:01)."""
    queue, fn, descriptor = setup
    cursors = [qm.open_cursor(descriptor) for _ in range(5)]
    for cursor in cursors:
        assert descriptor.cursor_collection[cursor.handle] is cursor
        assert cursor.open_queue_descriptor_reference is descriptor
        assert cursor.message_position_reference is queue.message_position_list.start
        assert cursor.cursor_state is Unread
    assert len({c.handle for c in cursors}) == 5 and all(c.handle for c in cursors)


def test_open_cursor_on_deleted_queue_is_null(qm, setup):
    """MS-MQDMPR:3.1.7.1.1:01 a descriptor whose queue is gone: rCursor NULL."""
    queue, fn, descriptor = setup
    qm.delete_queue(queue)
    assert qm.open_cursor(descriptor) is None
    assert descriptor.cursor_collection == {}


def test_close_cursor_removes_it(qm, setup):
    """MS-MQDMPR:3.1.7.1.2:01 Close Cursor removes the cursor from its descriptor."""
    queue, fn, descriptor = setup
    keep = qm.open_cursor(descriptor)
    cursor = qm.open_cursor(descriptor)
    qm.close_cursor(cursor)
    assert list(descriptor.cursor_collection.values()) == [keep]
    assert cursor.handle not in qm.cursors and cursor.closed


def test_close_cursor_cancels_its_waiting_reads(qm, setup):
    """MS-MQDMPR:3.1.7.1.2:01 / D-14: the cursor's waiting reads end with
    MQ_ERROR_OPERATION_CANCELLED; other waiters of the descriptor keep waiting."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    other_cursor = qm.open_cursor(descriptor)
    mine = receive(qm, descriptor, cursor, WAIT)
    others = peek(qm, descriptor, other_cursor, WAIT)
    plain = qm.dequeue_message(descriptor, timeout=WAIT)
    qm.close_cursor(cursor)
    assert mine.done and mine.status == H.MQ_ERROR_OPERATION_CANCELLED
    assert not others.done and not plain.done
    assert len(descriptor.waiting_message_read_operation_collection) == 2
    fill(qm, fn, "a")
    assert label(others) == "a" and label(plain) == "a"


def test_close_cursor_lets_go_of_a_removed_message(qm, setup):
    """D-06: a removed position stays linked only while a cursor rests on it."""
    queue, fn, descriptor = setup
    fill(qm, fn, "a", "b")
    cursor = qm.open_cursor(descriptor)
    removed = peek(qm, descriptor, cursor).position
    qm.dequeue_message(descriptor, timeout=0)
    position_list = queue.message_position_list
    assert position_list.start.next is removed  # tombstone kept for the cursor
    assert labels(queue) == ["b"] and len(position_list) == 1
    qm.close_cursor(cursor)
    assert position_list.start.next.message_reference.label == "b"


# -- receiving through a cursor (seed 002, RETR) -------------------------------------------

def test_receive_current_advances(qm, setup):
    """MSDN-CURSOR:RETR:01 / MSDN-CURSOR:RETR:04 / Seed 002 / MS-MQDMPR:3.2.7.4:02: cursor on A, receive-current removes A, the next
    peek-current lands on B."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B", "C")
    cursor = qm.open_cursor(descriptor)
    assert label(peek(qm, descriptor, cursor)) == "A"
    assert label(receive(qm, descriptor, cursor)) == "A"
    assert cursor.cursor_state is Unread
    assert label(peek(qm, descriptor, cursor)) == "B"
    assert label(receive(qm, descriptor, cursor)) == "B"
    assert label(receive(qm, descriptor, cursor)) == "C"
    assert labels(queue) == []


def test_peek_next_right_after_receive_is_illegal(qm, setup):
    """MSDN-CURSOR:RETR:03 / Seed 002 / MS-MQDMPR:3.2.7.3:01: peek-next straight after a receive would skip a message and
    is MQ_ERROR_ILLEGAL_CURSOR_ACTION; peek-current then still returns B."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B", "C")
    cursor = qm.open_cursor(descriptor)
    peek(qm, descriptor, cursor)
    receive(qm, descriptor, cursor)
    assert peek_next(qm, descriptor, cursor).status == H.MQ_ERROR_ILLEGAL_CURSOR_ACTION
    assert label(peek(qm, descriptor, cursor)) == "B"


def test_peek_next_after_last_message_received_is_illegal(qm, setup):
    """MSDN-CURSOR:END:02 / cursor-behavior END: retrieve the last message, then PEEK_NEXT ->
    MQ_ERROR_ILLEGAL_CURSOR_ACTION."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A")
    cursor = qm.open_cursor(descriptor)
    assert label(receive(qm, descriptor, cursor)) == "A"
    assert peek_next(qm, descriptor, cursor).status == H.MQ_ERROR_ILLEGAL_CURSOR_ACTION


def test_receive_on_unread_cursor_after_receive_takes_the_next(qm, setup):
    """MS-MQDMPR:3.2.7.4:01 an Unread cursor seeks past its (removed) position."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B")
    cursor = qm.open_cursor(descriptor)
    assert [label(receive(qm, descriptor, cursor)) for _ in range(2)] == ["A", "B"]
    assert receive(qm, descriptor, cursor).status == H.MQ_ERROR_MESSAGE_NOT_FOUND


def test_last_message_received_then_wait_at_the_end(qm, setup):
    """MSDN-CURSOR:RETR:05 / MSDN-CURSOR:RETR:06 / Seed 002 "Reaching the End of the Queue": after the last message the next receive waits;
    a new message arrives and the cursor goes to it."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A")
    cursor = qm.open_cursor(descriptor)
    receive(qm, descriptor, cursor)
    waiting = receive(qm, descriptor, cursor, WAIT)
    assert cursor.cursor_state is WaitReceive and not waiting.done
    fill(qm, fn, ("Z", 7))
    assert label(waiting) == "Z"


# -- several cursors (MULTI) -------------------------------------------------------------

def test_cursors_move_independently(qm, setup):
    """MSDN-CURSOR:MULTI:01 / MSDN-CURSOR:NAV:03 / cursor-behavior MULTI / MS-MQDMPR:3.2.1.2: each cursor keeps its own position."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B", "C")
    c1 = qm.open_cursor(descriptor)
    c2 = qm.open_cursor(open_descriptor(qm, fn))
    assert label(peek(qm, descriptor, c1)) == "A"
    assert label(peek_next(qm, descriptor, c1)) == "B"
    assert label(peek_next(qm, descriptor, c1)) == "C"
    assert label(peek(qm, c2.open_queue_descriptor_reference, c2)) == "A"
    assert label(peek(qm, descriptor, c1)) == "C"


def test_cursor_survives_removal_of_its_message(qm, setup):
    """MSDN-CURSOR:MULTI:04 / MSDN-CURSOR:NA:01 / MSDN-CURSOR:RETR:02 / D-06 / cursor-behavior MULTI: cursor 2 rests on C; cursor 1 receives A, B, C; reading at
    cursor 2 fails with ALREADY_RECEIVED, PEEK_NEXT on cursor 2 moves on to D."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B", "C", "D")
    c1 = qm.open_cursor(descriptor)
    c2 = qm.open_cursor(descriptor)
    peek(qm, descriptor, c2)
    peek_next(qm, descriptor, c2)
    assert label(peek_next(qm, descriptor, c2)) == "C"
    assert [label(receive(qm, descriptor, c1)) for _ in range(3)] == ["A", "B", "C"]
    assert peek(qm, descriptor, c2).status == H.MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    assert receive(qm, descriptor, c2).status == H.MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    assert label(peek_next(qm, descriptor, c2)) == "D"


def test_cursor_on_removed_message_sees_later_arrivals_in_order(qm, setup):
    """D-06 / cursor-behavior PRIO: after its message is removed, arrivals of equal priority go
    after the cursor and are seen; a higher-priority arrival goes before it and is not."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B")
    cursor = qm.open_cursor(descriptor)
    assert label(peek(qm, descriptor, cursor)) == "A"
    qm.dequeue_message(descriptor, timeout=0)  # A removed under the cursor
    fill(qm, fn, "C", ("X", 7), ("L", 0))
    assert labels(queue) == ["X", "B", "C", "L"]
    seen = [label(peek_next(qm, descriptor, cursor)) for _ in range(3)]
    assert seen == ["B", "C", "L"]


# -- priority (PRIO) ---------------------------------------------------------------------

def test_higher_priority_arrival_not_seen_by_cursor_past_it(qm, setup):
    """MSDN-CURSOR:PRIO:02 / MSDN-CURSOR:PRIO:03 / cursor-behavior PRIO: a cursor on a priority-3 message never sees a later higher-priority
    arrival (it goes in front); equal or lower priorities are not missed."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B")
    cursor = qm.open_cursor(descriptor)
    peek(qm, descriptor, cursor)
    assert label(peek_next(qm, descriptor, cursor)) == "B"
    fill(qm, fn, ("X", 7), ("E", 3), ("L", 1))
    assert labels(queue) == ["X", "A", "B", "E", "L"]
    assert [label(peek_next(qm, descriptor, cursor)) for _ in range(2)] == ["E", "L"]
    assert peek_next(qm, descriptor, cursor).status == H.MQ_ERROR_IO_TIMEOUT


def test_waiting_cursor_jumps_to_new_message_wherever_it_lands(qm, setup):
    """MSDN-CURSOR:PEEK:04 / MSDN-CURSOR:END:04 / MSDN-CURSOR:PRIO:04 / MS-MQDMPR:3.2.7.5:01 / cursor-behavior END, PRIO: a cursor waiting at the end is moved to
    the new message even when priority puts it at the front; peek-next then continues from
    there."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B")
    cursor = qm.open_cursor(descriptor)
    peek(qm, descriptor, cursor)
    peek_next(qm, descriptor, cursor)
    waiting = peek_next(qm, descriptor, cursor, WAIT)
    assert cursor.cursor_state is WaitPeek
    fill(qm, fn, ("X", 7))
    assert label(waiting) == "X"
    assert cursor.cursor_state is Read
    assert label(peek(qm, descriptor, cursor)) == "X"
    assert label(peek_next(qm, descriptor, cursor)) == "A"


def test_waiting_receive_cursor_jumps_and_takes(qm, setup):
    """MS-MQDMPR:3.2.7.5:01 WaitReceive -> Unread at the new message, which is received."""
    queue, fn, descriptor = setup
    fill(qm, fn, ("A", 1))
    cursor = qm.open_cursor(descriptor)
    receive(qm, descriptor, cursor)
    fill(qm, fn, ("B", 1))
    assert label(receive(qm, descriptor, cursor)) == "B"
    waiting = receive(qm, descriptor, cursor, WAIT)
    fill(qm, fn, ("X", 7))
    assert label(waiting) == "X"
    assert cursor.cursor_state is Unread


# -- Wait Time Expired (3.2.7.6) ---------------------------------------------------------

def test_wait_time_expired_receive_parks_at_end(qm, setup, clock):
    """MSDN-CURSOR:END:05 / MS-MQDMPR:3.2.7.6:01 / D-11: a timed-out cursor receive parks the cursor at End (Unread);
    a forward seek from End finds nothing, even with messages queued; only a new arrival moves
    it."""
    queue, fn, descriptor = setup
    cursor = qm.open_cursor(descriptor)
    request = receive(qm, descriptor, cursor, 1_000)
    clock.advance(1_000)
    qm.run_timers()
    assert request.status == H.MQ_ERROR_IO_TIMEOUT
    assert cursor.message_position_reference is queue.message_position_list.end
    assert cursor.cursor_state is Unread
    fill(qm, fn, "A")
    assert receive(qm, descriptor, cursor).status == H.MQ_ERROR_MESSAGE_NOT_FOUND
    assert peek(qm, descriptor, cursor).status == H.MQ_ERROR_IO_TIMEOUT
    waiting = receive(qm, descriptor, cursor, WAIT)
    fill(qm, fn, "B")
    assert label(waiting) == "B"
    assert labels(queue) == ["A"]


def test_wait_time_expired_peek_leaves_cursor_unread(qm, setup, clock):
    """MS-MQDMPR:3.2.7.6:01 (digest A-11): a timed-out peek leaves the cursor Unread at its old
    message: peek-next is then illegal and peek-current seeks past the old message."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A")
    cursor = qm.open_cursor(descriptor)
    peek(qm, descriptor, cursor)
    request = peek_next(qm, descriptor, cursor, 500)
    clock.advance(500)
    qm.run_timers()
    assert request.status == H.MQ_ERROR_IO_TIMEOUT
    assert cursor.cursor_state is Unread
    assert cursor.message_position_reference.message_reference.label == "A"
    assert peek_next(qm, descriptor, cursor).status == H.MQ_ERROR_ILLEGAL_CURSOR_ACTION
    assert peek(qm, descriptor, cursor).status == H.MQ_ERROR_IO_TIMEOUT
    fill(qm, fn, "B")
    assert label(peek(qm, descriptor, cursor)) == "B"


# -- transactions and cursors (MULTI, C-7) -------------------------------------------------

def test_cursor_not_rolled_back_by_abort(qm, setup):
    """MSDN-CURSOR:MULTI:02 / cursor-behavior C-7 / MS-MQDMPR:3.2.7.4: receive A through a cursor in a transaction, abort:
    A is back but the cursor stays past it and peek-current gives B."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B")
    cursor = qm.open_cursor(descriptor)
    request = qm.dequeue_message(descriptor, timeout=0, cursor=cursor, transaction=qm.create_transaction(TX))
    assert label(request) == "A"
    assert qm.transaction_abort(TX) == H.MQ_OK
    assert labels(queue) == ["A", "B"]
    assert label(peek(qm, descriptor, cursor)) == "B"
    assert label(qm.peek_message(descriptor, timeout=0)) == "A"


def test_cursor_skips_message_locked_by_other_reader(qm, setup):
    """MS-MQDMPR:3.2.7.4:01 / 3.2.7.2:01 an Unread cursor's seek skips a message another reader
    has locked."""
    queue, fn, descriptor = setup
    fill(qm, fn, "A", "B")
    qm.dequeue_message_begin(descriptor, timeout=0)
    cursor = qm.open_cursor(descriptor)
    assert label(peek(qm, descriptor, cursor)) == "B"
    other = qm.open_cursor(descriptor)
    assert label(receive(qm, descriptor, other)) == "B"


@pytest.mark.parametrize("how", ["purge", "expire", "lookup"])
def test_message_gone_by_purge_or_expiry(qm, setup, clock, how):
    """MSDN-CURSOR:NA:02 / MSDN-CURSOR:NA:01 / MS-MQDMPR:3.2.7.2:02: the message under a cursor was
    purged, expired or received by lookup id: peek and receive at the cursor give
    MQ_ERROR_MESSAGE_ALREADY_RECEIVED, peek-next goes on to the next message."""
    queue, fn, descriptor = setup
    send(qm, fn, label="A", time_to_be_received=5)
    cursor = qm.open_cursor(descriptor)
    assert label(peek(qm, descriptor, cursor)) == "A"
    if how == "purge":
        qm.purge_queue(queue)
    elif how == "expire":
        clock.advance(5_000)
        qm.run_timers()
    else:
        lookup_id = cursor.message_position_reference.message_reference.lookup_identifier
        qm.read_message_by_lookup_identifier(descriptor, lookup_id, False, MessageSeekAction.SeekCurrent)
    assert labels(queue) == []
    fill(qm, fn, "B")
    assert peek(qm, descriptor, cursor).status == H.MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    assert receive(qm, descriptor, cursor).status == H.MQ_ERROR_MESSAGE_ALREADY_RECEIVED
    assert label(peek_next(qm, descriptor, cursor)) == "B"
