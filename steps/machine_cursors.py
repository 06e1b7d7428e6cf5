"""The cursor machine: cursors walking a queue while others take messages from it.

Theory of operation
-------------------
One non-transactional queue gets messages of random priorities (7..0).  Rules
create and close cursors, peek the current or the next message through them,
receive through them (R_StartReceive, then R_EndReceive with RR_ACK), and take
messages from the front without a cursor, so that cursors keep finding the
message under them gone (MS-MQDMPR 3.2.7, MSDN cursor pages, D-06).  Every
answer is compared with steps.model; besides, a cursor never goes back: what it
returns sorts after (peek-next) or not before (peek-current, receive) what it
returned last, by priority then arrival.  A closed cursor must be refused with
STATUS_INVALID_HANDLE (MS-MQRR 3.1.4.7).
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, consumes, initialize, precondition, rule

from mqspec.protocol.constants import Ack, Action
from mqspec.protocol.hresult import HRESULT

from .machines import HANDLE, MAX_SIZE, PRIORITY, MachineBase, hresult_name, step
from .model import UNREAD, Outcome

PRIORITIES = st.lists(PRIORITY, min_size=1, max_size=3)


class CursorMachine(MachineBase):
    machine = "cursors"
    cursors = Bundle("cursors")
    closed_cursors = Bundle("closed_cursors")
    requests = Bundle("requests")
    clauses = {"create_cursor": "MS-MQRR:3.1.4.4:02", "close_cursor": "MS-MQRR:3.1.4.5:02",
               "receive_front": "MS-MQDMPR:3.1.7.1.10:05", "peek_front": "MS-MQDMPR:3.1.7.1.15:02",
               "use_closed_cursor": "MS-MQRR:3.1.4.7:18", "hold": "MS-MQDMPR:3.1.7.1.10:07",
               "release": "MS-MQRR:3.1.4.9:04"}

    def __init__(self) -> None:
        super().__init__()
        self.cursor_handles: dict[str, int] = {}
        self.last_key: dict[str, tuple] = {}             # cursor -> (key, label) of what it returned last
        self.holding: dict[str, str] = {}                # request alias -> label its start locked

    # -- helpers -------------------------------------------------------------------------------
    def call(self, h_cursor: int, action: int, request_id: int | None = None):
        request_id = self.request_number() if request_id is None else request_id
        return self.target.start_receive(self.handle, 0, h_cursor, action, 0, request_id, MAX_SIZE, MAX_SIZE)

    def moved(self, cursor: str, label: str | None, strict: bool) -> None:
        """A cursor never returns a message before the one it returned last (after it, for peek-next)."""
        if label is None:
            return
        key = (-self.priority[label], self.order[label])
        last = self.last_key.get(cursor)
        if last is not None and (key <= last[0] if strict else key < last[0]):
            raise AssertionError(self.failure(f'cursor "{cursor}" went back: it returned "{label}" after "{last[1]}"',
                                              "MS-MQDMPR:3.2.7.3:02"))
        self.last_key[cursor] = (key, label)

    def finish(self, request_id: int, label: str | None) -> None:
        """R_EndReceive with RR_ACK for a start that returned `label`."""
        if label is None:
            return
        ended = self.target.end_receive(self.handle, Ack.RR_ACK, request_id)
        if ended != HRESULT.MQ_OK:
            raise AssertionError(self.failure(f'R_EndReceive RR_ACK of "{label}" returned {hresult_name(ended)}',
                                              "MS-MQRR:3.1.4.9:04"))
        self.ledger.release(label, deleted=True)

    def state(self, cursor: str) -> str:
        return self.model.cursors[cursor].state

    # -- rules ---------------------------------------------------------------------------------
    @initialize(target=cursors, priorities=st.lists(PRIORITY, max_size=6))
    @step
    def start_with(self, priorities):
        """A few messages and a first cursor, so that cursor rules have something to walk."""
        self.send(priorities)
        return self.create_cursor()

    @rule(priorities=PRIORITIES)
    @step
    def send(self, priorities):
        for priority in priorities:
            self.send_message(priority)

    @precondition(lambda self: len(self.model.cursors) < 3)
    @rule(target=cursors)
    @step
    def create_cursor(self):
        return self.open_cursor()

    @rule(target=closed_cursors, cursor=consumes(cursors))
    @step
    def close_cursor(self, cursor):
        status = self.target.close_cursor(self.handle, self.cursor_handles[cursor])
        self.compare("close_cursor", {"cursor": cursor},
                     [("When", f'R_CloseCursor is called on "{HANDLE}" for "{cursor}"')],
                     self.model.close_cursor(cursor), status)
        return cursor

    @rule(cursor=cursors)
    @step
    def peek_current(self, cursor):
        clause = "MS-MQDMPR:3.2.7.2:01" if self.state(cursor) == UNREAD else "MS-MQDMPR:3.2.7.2:02"
        out = self.call(self.cursor_handles[cursor], Action.MQ_ACTION_PEEK_CURRENT)
        label = self.compare("peek_current", {"cursor": cursor},
                             [("When", f'cursor "{cursor}" peeks the current message')],
                             self.model.peek(cursor), out, clause=clause)
        self.moved(cursor, label, strict=False)

    @rule(cursor=cursors)
    @step
    def peek_next(self, cursor):
        clause = "MS-MQDMPR:3.2.7.3:01" if self.state(cursor) == UNREAD else "MS-MQDMPR:3.2.7.3:02"
        out = self.call(self.cursor_handles[cursor], Action.MQ_ACTION_PEEK_NEXT)
        label = self.compare("peek_next", {"cursor": cursor}, [("When", f'cursor "{cursor}" peeks the next message')],
                             self.model.peek_next(cursor), out, clause=clause)
        self.moved(cursor, label, strict=True)

    @rule(cursor=cursors)
    @step
    def receive_through_cursor(self, cursor):
        clause = "MS-MQDMPR:3.2.7.4:01" if self.state(cursor) == UNREAD else "MS-MQDMPR:3.2.7.4:02"
        request_id = self.request_number()
        out = self.call(self.cursor_handles[cursor], Action.MQ_ACTION_RECEIVE, request_id)
        label = self.compare("receive_through_cursor", {"cursor": cursor}, [("When", f'cursor "{cursor}" receives')],
                             self.model.receive(cursor), out, clause=clause)
        self.handed_out(label, f"cursor {cursor}")
        self.finish(request_id, label)
        self.moved(cursor, label, strict=False)

    @rule(action=st.sampled_from(["receive", "peek"]))
    @step
    def front(self, action):
        """Another reader, without a cursor: takes (or peeks at) the first message."""
        if action == "peek":
            out = self.call(0, Action.MQ_ACTION_PEEK_CURRENT)
            self.compare("peek_front", {}, [("When", f'the client peeks at "{HANDLE}"')], self.model.peek(), out)
            return
        request_id = self.request_number()
        out = self.call(0, Action.MQ_ACTION_RECEIVE, request_id)
        label = self.compare("receive_front", {}, [("When", f'the client receives from "{HANDLE}"')],
                             self.model.receive(), out)
        self.handed_out(label, "a receive")
        self.finish(request_id, label)

    @rule(target=requests)
    @step
    def hold(self):
        """Another reader starts a two-phase receive from the front and keeps the message Locked."""
        alias, request_id = self.new_request()
        out = self.call(0, Action.MQ_ACTION_RECEIVE, request_id)
        label = self.compare("hold", {"request": alias},
                             [("When", f'the client starts a receive on "{HANDLE}" as "{alias}"')],
                             self.model.start_receive(alias), out)
        self.handed_out(label, alias)
        if label is not None:
            self.holding[alias] = label
        return alias

    @rule(request=consumes(requests), ack=st.sampled_from(["RR_NACK", "RR_ACK"]))
    @step
    def release(self, request, ack):
        """The held receive ends: RR_NACK puts the message back behind the cursors that passed it."""
        status = self.target.end_receive(self.handle, Ack[ack], self.request_ids[request])
        self.compare("release", {"request": request, "ack": ack},
                     [("When", f'the client ends "{request}" with {ack}')], self.model.end_receive(request, ack),
                     status)
        if status == HRESULT.MQ_OK and request in self.holding:
            self.ledger.release(self.holding.pop(request), deleted=ack == "RR_ACK")

    @rule(cursor=closed_cursors)
    @step
    def use_closed_cursor(self, cursor):
        h_cursor = self.cursor_handles[cursor]
        if h_cursor in {self.cursor_handles[c] for c in self.model.cursors}:
            return  # the target gave the number to a new cursor: it names a live cursor again
        out = self.call(h_cursor, Action.MQ_ACTION_PEEK_CURRENT)
        self.compare("use_closed_cursor", {"cursor": cursor},
                     [("When", f'cursor "{cursor}" peeks the current message')],
                     Outcome("STATUS_INVALID_HANDLE"), out)
