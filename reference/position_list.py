"""MessagePosition and Queue.MessagePositionList (MS-MQDMPR 3.1.1.2, 3.1.1.11, 3.1.7.3.2).

Theory of operation
-------------------
The list is a doubly linked list between two reserved sentinels, `start` (the
Start/Head reserved entry before the first position, decision D-01) and `end`
(the End entry after the last).  Order is priority 7..0, then arrival
(MS-MQDMPR:3.1.1.2:04).  Positions only ever enter a priority band at its tail
(a new arrival is the latest of its priority), so `_tails[p]`, the last
position of band p, gives O(1) insertion: after band p's tail, or after the
tail of the nearest non-empty higher band, or after `start`.

A position whose message left the queue is normally unlinked at once.  While a
cursor still references it, it stays linked as a tombstone in state Deleted
(decision D-06): seeks skip it, and a cursor resting on it still finds its
successor through `next`, so "receive-current advances" and "peek-next from a
removed message" work for every cursor without re-searching by key.

`index` maps LookupIdentifier -> live (not Deleted) position for the lookup-id
events (MS-MQDMPR 3.1.7.3.3).  Seeks walk `next`/`previous` and skip positions
that are not Available; the cost is the number of skipped positions, never the
queue depth.
"""

from __future__ import annotations

from .enumerations import MessagePositionState

AVAILABLE = MessagePositionState.Available
LOCKED = MessagePositionState.Locked
DELETED = MessagePositionState.Deleted


class MessagePosition:
    __slots__ = ("state", "next", "previous", "priority", "cursor_references", "message_reference",
                 "queue_reference")

    def __init__(self, message, queue, priority: int, state=LOCKED) -> None:
        self.state = state
        self.message_reference = message
        self.next = None
        self.previous = None
        self.queue_reference = queue
        self.priority = priority
        self.cursor_references = 0  # cursors resting here; keeps a Deleted position linked (D-06)

    @property
    def is_reserved(self) -> bool:
        return self.message_reference is None

    def __repr__(self) -> str:
        if self.message_reference is None:
            return "MessagePosition(<reserved>)"
        return f"MessagePosition({self.state.name}, {self.message_reference!r})"


class MessagePositionList:
    __slots__ = ("start", "end", "_tails", "index", "count", "moved")

    def __init__(self) -> None:
        # MS-MQDMPR:3.1.1.2:06 Start and End are reserved entries that hold no message
        self.start = MessagePosition(None, None, 8, AVAILABLE)
        self.end = MessagePosition(None, None, -1, AVAILABLE)
        self.start.next = self.end
        self.end.previous = self.start
        self._tails = [None] * 8
        self.index = {}
        self.count = 0  # linked positions that are not tombstones
        self.moved = set()  # lookup ids a move left Deleted here, for D-05 already-received

    @property
    def head(self) -> MessagePosition:
        # MS-MQDMPR:3.1.1.2:05 Head of an empty list is End
        return self.start.next

    @property
    def tail(self) -> MessagePosition:
        return self.end.previous

    def __len__(self) -> int:
        return self.count

    def insert(self, position: MessagePosition) -> None:
        """Link a new position at its place: priority band, then arrival (MS-MQDMPR:3.1.1.2:04)."""
        tails = self._tails
        p = position.priority
        after = tails[p]
        if after is None:
            after = self.start
            for q in range(p + 1, 8):
                if tails[q] is not None:
                    after = tails[q]
                    break
        following = after.next
        position.previous = after
        position.next = following
        after.next = position
        following.previous = position
        tails[p] = position
        self.index[position.message_reference.lookup_identifier] = position
        self.count += 1

    def remove(self, position: MessagePosition) -> None:
        """Take a position out of the list; a position a cursor rests on stays as a tombstone (D-06)."""
        if position.state != DELETED:
            raise ValueError("only Deleted positions leave the list")
        del self.index[position.message_reference.lookup_identifier]
        self.count -= 1
        if not position.cursor_references:
            self._unlink(position)

    def drop_tombstone(self, position: MessagePosition) -> None:
        """The last cursor left a Deleted position: unlink it now."""
        if position.state == DELETED and position.cursor_references == 0 and position.previous is not None:
            self._unlink(position)

    def discard_uncommitted(self, position: MessagePosition) -> None:
        """Unlink a Locked position of an aborted enqueue (MS-MQDMPR:3.1.4.5:02); no Deleted event."""
        self.index.pop(position.message_reference.lookup_identifier, None)
        self.count -= 1
        position.state = DELETED
        if position.cursor_references == 0:
            self._unlink(position)

    def _unlink(self, position: MessagePosition) -> None:
        before = position.previous
        after = position.next
        before.next = after
        after.previous = before
        p = position.priority
        if self._tails[p] is position:
            self._tails[p] = before if before.priority == p else None
        position.previous = None  # marks it unlinked

    # MS-MQDMPR:3.1.7.3.2 Seek Available Message Position ---------------------------------

    def seek_forward(self, initial: MessagePosition, peek: bool) -> MessagePosition:
        """First eligible position after `initial` (from Head when `initial` is Start), or End."""
        end = self.end
        if initial is end:
            return end  # D-11: nothing lies after End
        position = initial.next
        while position is not end:
            state = position.state
            if state == AVAILABLE:
                return position
            # MS-MQDMPR:3.1.7.3.2:01 peeks may stop on a Locked message that allows it
            if peek and state == LOCKED and position.message_reference.allow_peek_when_locked:
                return position
            position = position.next
        return end

    def seek_backward(self, initial: MessagePosition, peek: bool) -> MessagePosition:
        """Last eligible position before `initial` (from Tail when `initial` is End), or Start."""
        start = self.start
        if initial is start:
            return start
        position = initial.previous
        while position is not start:
            state = position.state
            if state == AVAILABLE:
                return position
            if peek and state == LOCKED and position.message_reference.allow_peek_when_locked:
                return position
            position = position.previous
        return start

    def positions(self):
        """Every position still in the list, front to back (tombstones excluded)."""
        position = self.start.next
        while position is not self.end:
            if position.state != DELETED:
                yield position
            position = position.next
