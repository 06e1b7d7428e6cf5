"""The Cursor of MS-MQDMPR 3.2 as one table-driven state machine.

Theory of operation
-------------------
A cursor is a bookmark in one queue's MessagePositionList: `message_position_reference`
(a real position, Start or End) and `cursor_state`:

    Unread       the referenced message has not been handed out through this cursor
                 (fresh cursors, and cursors that just received)
    Read         the referenced message was peeked through this cursor
    WaitPeek     a peek found nothing and waits for a new message
    WaitReceive  a receive found nothing and waits for a new message

The five cursor events of 3.2.7.2-3.2.7.6 are the only inputs.  TRANSITIONS maps
(state, event) to the rule that runs; every rule returns a CursorStatus and the
position it chose.  A read event in a Wait state has no rule (the specification
defines none): it returns Busy and nothing changes, and the caller reports it as
decision D-12 says.  Message Available and Wait Time Expired in Unread or Read
are ignored.

"Seek" means Seek Available Message Position (3.1.7.3.2) forward from the
cursor's reference; see position_list.py.  The cursor keeps a count on the
position it rests on so that a removed message stays linked as a tombstone
while a cursor needs its successor (D-06).  End has no successor: a cursor a
timed-out receive parked there finds nothing (D-11 parked-end) unless the queue
manager gave Wait Time Expired the sequence number reached so far, in which case
it finds the messages that arrived later (D-11 end-sees-arrivals).
"""

from __future__ import annotations

from enum import IntEnum

from .enumerations import MessagePositionState
from .position_list import MessagePosition, MessagePositionList


# IntEnums: the transition table is looked up on every cursor event, and ints hash fast.
class CursorState(IntEnum):
    Unread = 0
    WaitReceive = 1
    WaitPeek = 2
    Read = 3


class CursorEvent(IntEnum):
    GET_MESSAGE_FOR_PEEK = 0           # 3.2.7.2 Get Message For Peek
    GET_NEXT_MESSAGE_FOR_PEEK = 1      # 3.2.7.3 Get Next Message For Peek
    GET_NEXT_MESSAGE_FOR_DEQUEUE = 2   # 3.2.7.4 Get Next Message For Dequeue
    MESSAGE_AVAILABLE = 3              # 3.2.7.5 Message Available
    WAIT_TIME_EXPIRED = 4              # 3.2.7.6 Wait Time Expired


class CursorStatus(IntEnum):
    Succeeded = 0
    AlreadyReceived = 1
    NotFound = 2
    Waiting = 3
    IllegalCursorAction = 4
    Busy = 5                  # a read event while a read waits through the cursor (D-12)


Unread, WaitReceive, WaitPeek, Read = (CursorState.Unread, CursorState.WaitReceive,
                                       CursorState.WaitPeek, CursorState.Read)
SUCCEEDED, ALREADY_RECEIVED, NOT_FOUND, WAITING, ILLEGAL, BUSY = (
    CursorStatus.Succeeded, CursorStatus.AlreadyReceived, CursorStatus.NotFound, CursorStatus.Waiting,
    CursorStatus.IllegalCursorAction, CursorStatus.Busy)
AVAILABLE = MessagePositionState.Available
DELETED = MessagePositionState.Deleted
SEQUENCE_BITS = 0x00FFFFFFFFFFFFFF  # the SequentialID part of a LookupIdentifier (MS-MQDMPR 3.1.7.1.9)


def _seek(cursor: "Cursor", peek: bool):
    """Seek Available Message Position forward from the cursor (3.1.7.3.2)."""
    position_list = cursor.position_list
    parked_after = cursor.parked_after
    if parked_after is None or cursor.message_position_reference is not position_list.end:
        return position_list.seek_forward(cursor.message_position_reference, peek)
    # D-11 end-sees-arrivals: from End, the first eligible message that arrived after the cursor was parked
    found = position_list.seek_forward(position_list.start, peek)
    while found is not position_list.end and found.message_reference.lookup_identifier & SEQUENCE_BITS <= parked_after:
        found = position_list.seek_forward(found, peek)
    return found


def _seek_for_peek(cursor: "Cursor", _arg):
    # MS-MQDMPR:3.2.7.2:01 / 3.2.7.3:02 move to the next eligible message, or wait for one
    found = _seek(cursor, True)
    if found is cursor.position_list.end:
        cursor.cursor_state = WaitPeek
        return WAITING, None
    cursor.move_to(found)
    cursor.cursor_state = Read
    return SUCCEEDED, found


def _current_for_peek(cursor: "Cursor", _arg):
    # MS-MQDMPR:3.2.7.2:02 re-read the message under the cursor without moving
    position = cursor.message_position_reference
    if position.state == AVAILABLE and not position.is_reserved:
        return SUCCEEDED, position
    return ALREADY_RECEIVED, None


def _illegal(cursor: "Cursor", _arg):
    # MS-MQDMPR:3.2.7.3:01 peek-next needs a cursor that has read something
    return ILLEGAL, None


def _seek_for_dequeue(cursor: "Cursor", no_wait: bool):
    # MS-MQDMPR:3.2.7.4:01 take the next Available message; the cursor stays Unread on it
    found = _seek(cursor, False)
    if found is cursor.position_list.end:
        if no_wait:
            return NOT_FOUND, None
        cursor.cursor_state = WaitReceive
        return WAITING, None
    cursor.move_to(found)
    return SUCCEEDED, found


def _current_for_dequeue(cursor: "Cursor", _arg):
    # MS-MQDMPR:3.2.7.4:02 take the peeked message; the cursor becomes Unread on it
    position = cursor.message_position_reference
    if position.state == AVAILABLE and not position.is_reserved:
        cursor.cursor_state = Unread
        return SUCCEEDED, position
    return ALREADY_RECEIVED, None


def _arrived_after_peek(cursor: "Cursor", position: MessagePosition):
    # MS-MQDMPR:3.2.7.5:01 the cursor jumps to the new message wherever it was inserted
    cursor.move_to(position)
    cursor.cursor_state = Read
    return SUCCEEDED, position


def _arrived_after_receive(cursor: "Cursor", position: MessagePosition):
    # MS-MQDMPR:3.2.7.5:01
    cursor.move_to(position)
    cursor.cursor_state = Unread
    return SUCCEEDED, position


def _peek_wait_expired(cursor: "Cursor", _arg):
    # MS-MQDMPR:3.2.7.6:01 a timed-out peek leaves the cursor Unread where it was (D-72)
    cursor.cursor_state = Unread
    return SUCCEEDED, None


def _receive_wait_expired(cursor: "Cursor", parked_after):
    # MS-MQDMPR:3.2.7.6:01 a timed-out receive parks the cursor at End (D-11: `parked_after` is the
    # sequence number reached so far when later arrivals are to be seen from there, else None)
    cursor.move_to(cursor.position_list.end)
    cursor.cursor_state = Unread
    cursor.parked_after = parked_after
    return SUCCEEDED, None


E = CursorEvent
TRANSITIONS = {
    (Unread, E.GET_MESSAGE_FOR_PEEK): _seek_for_peek,
    (Read, E.GET_MESSAGE_FOR_PEEK): _current_for_peek,
    (Unread, E.GET_NEXT_MESSAGE_FOR_PEEK): _illegal,
    (Read, E.GET_NEXT_MESSAGE_FOR_PEEK): _seek_for_peek,
    (Unread, E.GET_NEXT_MESSAGE_FOR_DEQUEUE): _seek_for_dequeue,
    (Read, E.GET_NEXT_MESSAGE_FOR_DEQUEUE): _current_for_dequeue,
    (WaitPeek, E.MESSAGE_AVAILABLE): _arrived_after_peek,
    (WaitReceive, E.MESSAGE_AVAILABLE): _arrived_after_receive,
    (WaitPeek, E.WAIT_TIME_EXPIRED): _peek_wait_expired,
    (WaitReceive, E.WAIT_TIME_EXPIRED): _receive_wait_expired,
}


class Cursor:
    __slots__ = ("handle", "open_queue_descriptor_reference", "message_position_reference",
                 "cursor_state", "position_list", "closed", "parked_after")

    def __init__(self, handle: int, open_queue_descriptor, position_list: MessagePositionList) -> None:
        # MS-MQDMPR:3.2.7.1:01 Initialize: a new cursor rests on Start and is Unread
        self.handle = handle
        self.open_queue_descriptor_reference = open_queue_descriptor
        self.position_list = position_list
        self.message_position_reference = position_list.start
        position_list.start.cursor_references += 1
        self.cursor_state = Unread
        self.closed = False
        self.parked_after = None  # D-11: set while parked at End by a timed-out receive, if arrivals count

    def handle_event(self, event: CursorEvent, arg=None):
        rule = TRANSITIONS.get((self.cursor_state, event))
        if rule is None:
            # D-12 no transition: a read while one waits (Busy); Message Available / Wait Time Expired ignored
            return (BUSY if self.cursor_state in (WaitReceive, WaitPeek) else ILLEGAL), None
        return rule(self, arg)

    def move_to(self, position: MessagePosition) -> None:
        old = self.message_position_reference
        if old is position:
            return
        self.parked_after = None
        old.cursor_references -= 1
        if old.state == DELETED and old.cursor_references == 0:
            self.position_list.drop_tombstone(old)
        position.cursor_references += 1
        self.message_position_reference = position

    def release(self) -> None:
        """Close: let go of the position so a tombstone can be dropped (MS-MQDMPR 3.1.7.1.2)."""
        self.closed = True
        self.move_to(self.position_list.start)
