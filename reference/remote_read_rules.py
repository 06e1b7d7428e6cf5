"""Parameter rules and records of MS-MQRR R_StartReceive / R_StartTransactionalReceive.

`receive_parameters_valid` is the combination table of MS-MQRR 3.1.4.7 (and
3.1.4.13): which ulAction goes with a LookupId, a cursor, and a time-out.
PendingRequestEntry is MS-MQRR 3.1.1.2; ReceiveCall is what a Start*Receive
call hands back: its outputs, set now or when its wait ends.
"""

from __future__ import annotations

from mqspec.protocol.constants import Action
from mqspec.protocol.hresult import HRESULT

from .enumerations import MessageSeekAction

LOOKUP_ACTIONS = frozenset({
    Action.MQ_LOOKUP_PEEK_CURRENT, Action.MQ_LOOKUP_PEEK_NEXT, Action.MQ_LOOKUP_PEEK_PREV,
    Action.MQ_LOOKUP_RECEIVE_CURRENT, Action.MQ_LOOKUP_RECEIVE_NEXT, Action.MQ_LOOKUP_RECEIVE_PREV,
})
RECEIVE_ACTIONS = frozenset({Action.MQ_ACTION_RECEIVE, Action.MQ_LOOKUP_RECEIVE_CURRENT,
                             Action.MQ_LOOKUP_RECEIVE_NEXT, Action.MQ_LOOKUP_RECEIVE_PREV})
PEEK_ACTIONS = frozenset({Action.MQ_ACTION_PEEK_CURRENT, Action.MQ_ACTION_PEEK_NEXT,
                          Action.MQ_LOOKUP_PEEK_CURRENT, Action.MQ_LOOKUP_PEEK_NEXT,
                          Action.MQ_LOOKUP_PEEK_PREV})
CURSOR_ACTIONS = frozenset({Action.MQ_ACTION_RECEIVE, Action.MQ_ACTION_PEEK_CURRENT,
                            Action.MQ_ACTION_PEEK_NEXT})
PLAIN_ACTIONS = frozenset({Action.MQ_ACTION_RECEIVE, Action.MQ_ACTION_PEEK_CURRENT})
LOOKUP_SEEK = {
    Action.MQ_LOOKUP_PEEK_CURRENT: MessageSeekAction.SeekCurrent,
    Action.MQ_LOOKUP_PEEK_NEXT: MessageSeekAction.SeekNext,
    Action.MQ_LOOKUP_PEEK_PREV: MessageSeekAction.SeekPrevious,
    Action.MQ_LOOKUP_RECEIVE_CURRENT: MessageSeekAction.SeekCurrent,
    Action.MQ_LOOKUP_RECEIVE_NEXT: MessageSeekAction.SeekNext,
    Action.MQ_LOOKUP_RECEIVE_PREV: MessageSeekAction.SeekPrevious,
}


def receive_parameters_valid(lookup_id: int, h_cursor: int, ul_action: int, ul_timeout: int) -> bool:
    """MS-MQRR:3.1.4.7:04 the LookupId / hCursor / ulAction / ulTimeout combinations."""
    if lookup_id:
        # a lookup id: a lookup action, no cursor, no time-out
        return ul_action in LOOKUP_ACTIONS and h_cursor == 0 and ul_timeout == 0
    if h_cursor:
        return ul_action in CURSOR_ACTIONS
    # D-60: MQ_LOOKUP_RECEIVE_PREV with LookupId 0 is refused like every lookup action
    return ul_action in PLAIN_ACTIONS


class PendingRequestEntry:
    """MS-MQRR 3.1.1.2: a receive that waits for its R_EndReceive."""
    __slots__ = ("request_id", "queue_context_handle", "lookup_identifier", "time_stamp", "timer",
                 "transactional", "waiting")

    def __init__(self, request_id: int, queue_context_handle: bytes, lookup_identifier: int,
                 time_stamp: int, transactional: bool = False) -> None:
        self.request_id = request_id
        self.queue_context_handle = queue_context_handle
        self.lookup_identifier = lookup_identifier
        self.time_stamp = time_stamp
        self.timer = None
        self.transactional = transactional
        self.waiting = True  # its read has not ended yet (D-37, D-38, D-52)


class ReceiveCall:
    """The outputs of one Start*Receive call (MS-MQRR 3.1.4.7), ready when `done`."""
    __slots__ = ("hresult", "pdw_arrive_time", "p_sequence_id", "pdw_number_of_sections",
                 "pp_packet_sections", "done", "request", "dw_max_body_size",
                 "dw_max_compound_message_size")

    def __init__(self, dw_max_body_size: int, dw_max_compound_message_size: int) -> None:
        self.hresult = HRESULT.MQ_OK
        self.pdw_arrive_time = 0
        self.p_sequence_id = 0
        self.pdw_number_of_sections = 0
        self.pp_packet_sections = ()
        self.done = False
        self.request = None
        self.dw_max_body_size = dw_max_body_size
        self.dw_max_compound_message_size = dw_max_compound_message_size

    def fail(self, status: int) -> "ReceiveCall":
        # MS-MQRR:3.1.4.7:15 on failure the outputs mean nothing; they stay empty
        self.hresult = status
        self.done = True
        return self

    def succeed(self, arrive_time: int, sequence_id: int, sections) -> "ReceiveCall":
        self.pdw_arrive_time = arrive_time
        self.p_sequence_id = sequence_id
        self.pp_packet_sections = tuple(sections)
        self.pdw_number_of_sections = len(self.pp_packet_sections)  # MS-MQRR:3.1.4.7:10
        self.hresult = HRESULT.MQ_OK
        self.done = True
        return self
