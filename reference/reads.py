"""Reading events of MS-MQDMPR 3.1.7.1.10 - 3.1.7.1.17 and the internal waits of 3.1.7.3.

Theory of operation
-------------------
Every read returns a ReadRequest.  When a message (or an error) is at hand the
request is finished before the call returns.  Otherwise the read becomes a
WaitingMessageReadOperation on its descriptor (Wait For New Message, 3.1.7.3.1)
with an `on_satisfied` continuation holding the rest of the event; the request
is finished later by exactly one of:

    Message Position Available -> waiting_message_read_satisfied  (the continuation runs)
    its timer                  -> MQ_ERROR_IO_TIMEOUT             (3.1.6.3)
    Cancel / Close Queue / ... -> the status they carry          (3.1.7.1.17, 3.1.7.1.6)

Time-outs are milliseconds, 0xFFFFFFFF is infinite (D-02); a zero time-out never
waits and reports MQ_ERROR_IO_TIMEOUT (D-03).  A taken message is Locked (inside a
transaction, or for a two-phase read) or deleted with reason AckReceive.
"""

from __future__ import annotations

from mqspec.protocol.constants import INFINITE, MessageClass
from mqspec.protocol.hresult import HRESULT

from .adm import OpenQueueDescriptor, ReadRequest, WaitingMessageReadOperation
from .cursor import Cursor, CursorEvent, CursorStatus
from .enumerations import MessagePositionState, MessageSeekAction

AVAILABLE = MessagePositionState.Available
LOCKED = MessagePositionState.Locked
PURGE_PENDING = MessagePositionState.PurgePending
DELETED = MessagePositionState.Deleted
ACK_RECEIVE = MessageClass.MQMSG_CLASS_ACK_RECEIVE
# Enum members looked up once: a class attribute of an Enum costs ~50 ns per access.
MQ_OK = HRESULT.MQ_OK
SUCCEEDED, WAITING = CursorStatus.Succeeded, CursorStatus.Waiting
SEEK_CURRENT, SEEK_NEXT, SEEK_PREVIOUS, SEEK_FIRST = (MessageSeekAction.SeekCurrent, MessageSeekAction.SeekNext,
                                                      MessageSeekAction.SeekPrevious, MessageSeekAction.SeekFirst)

_CURSOR_STATUS = {
    CursorStatus.AlreadyReceived: HRESULT.MQ_ERROR_MESSAGE_ALREADY_RECEIVED,
    CursorStatus.NotFound: HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND,
    CursorStatus.IllegalCursorAction: HRESULT.MQ_ERROR_ILLEGAL_CURSOR_ACTION,
    CursorStatus.Busy: HRESULT.MQ_ERROR_ILLEGAL_CURSOR_ACTION,  # D-12 refuse
}


class ReadEvents:
    def _cursor_failure(self, status: CursorStatus) -> int:
        if status is CursorStatus.Busy and self.readings["D-12"] == "other-failure":
            return HRESULT.MQ_ERROR  # D-12 other-failure: 3.2.7 defines no transition, so no status either
        return _CURSOR_STATUS[status]

    def _parked_after(self):
        """What Wait Time Expired gives a cursor: where later arrivals begin, if it is to see them (D-11)."""
        return self.sequential_id if self.readings["D-11"] == "end-sees-arrivals" else None

    # -- Dequeue Message (3.1.7.1.10) and its two-phase form (3.1.7.1.11, 3.1.7.1.12) --------

    def dequeue_message(self, queue_desc: OpenQueueDescriptor, timeout: int | None = None,
                        cursor: Cursor | None = None, transaction=None, tag=None,
                        two_phase_read: bool = False) -> ReadRequest:
        request = ReadRequest()
        queue = queue_desc.queue_reference
        if queue is None:
            return request.finish(HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE)  # MS-MQDMPR:3.1.7.1.10:01
        if timeout is None:
            timeout = INFINITE  # MS-MQDMPR:3.1.7.1.10:02
        if cursor is None:
            # MS-MQDMPR:3.1.7.1.10:05 first Available message from the front (D-01), or wait
            position_list = queue.message_position_list
            position = position_list.start.next
            if position.state != AVAILABLE or position is position_list.end:
                position = position_list.seek_forward(position_list.start, peek=False)
                if position is position_list.end:
                    return self._wait(request, queue_desc, timeout, True, tag, None, lambda found: self._take(
                        request, queue, found, transaction, two_phase_read))
            return self._take(request, queue, position, transaction, two_phase_read)
        # MS-MQDMPR:3.1.7.1.10:03 the cursor decides
        status, position = cursor.handle_event(CursorEvent.GET_NEXT_MESSAGE_FOR_DEQUEUE, timeout == 0)
        if status is SUCCEEDED:
            return self._take(request, queue, position, transaction, two_phase_read)
        if status is CursorStatus.NotFound and timeout == 0 and self.readings["D-03"] == "msdn":
            return request.finish(HRESULT.MQ_ERROR_IO_TIMEOUT)  # D-03 msdn: a zero time-out elapsed
        if status is not WAITING:
            return request.finish(self._cursor_failure(status))  # D-03 dmpr: iNoWait gives NotFound (3.2.7.4)
        # MS-MQDMPR:3.1.7.1.10:04 wait; the cursor follows the new message
        return self._wait(request, queue_desc, timeout, True, tag, cursor,
                          lambda found: self._take(request, queue, found, transaction, two_phase_read))

    def _take(self, request: ReadRequest, queue, position, transaction, two_phase_read: bool):
        message = position.message_reference
        if transaction is not None and transaction.identifier is not None:
            # MS-MQDMPR:3.1.7.1.10:06 inside a transaction: Locked, with a Dequeue operation (D-10)
            position.state = LOCKED
            message.transaction_identifier = transaction.identifier
            self.add_operation(transaction, "Dequeue", position, reason=ACK_RECEIVE)
            self.persistence.record_state(position)
        elif two_phase_read:
            position.state = LOCKED  # MS-MQDMPR:3.1.7.1.10:07
            self.persistence.record_state(position)
        else:
            self.message_position_deleted(queue, position, ACK_RECEIVE)  # MS-MQDMPR:3.1.7.1.10:08
        request.status = MQ_OK
        request.position = position
        request.message = message
        request.done = True
        if request.on_complete is not None:
            request.on_complete(request)
        return request

    def dequeue_message_begin(self, queue_desc: OpenQueueDescriptor, timeout: int | None = None,
                              cursor: Cursor | None = None, transaction=None, tag=None) -> ReadRequest:
        # MS-MQDMPR:3.1.7.1.11:01 a Dequeue Message that leaves the message Locked
        return self.dequeue_message(queue_desc, timeout, cursor, transaction, tag, two_phase_read=True)

    def dequeue_message_end(self, queue_desc: OpenQueueDescriptor, position, delete_message: bool,
                            transactional: bool = False) -> int:
        queue = queue_desc.queue_reference
        if queue is None:
            return HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE
        if position.state in (AVAILABLE, DELETED):
            # MS-MQDMPR:3.1.7.1.12:01 nothing in progress (D-70: a message that expired meanwhile is gone)
            return HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE
        if transactional:
            return MQ_OK  # MS-MQDMPR:3.1.7.1.12:02 the transaction decides
        # MS-MQDMPR:3.1.7.1.12:03
        if position.state == PURGE_PENDING:
            self.message_position_deleted(queue, position, MessageClass.MQMSG_CLASS_NACK_Q_PURGED)
        elif delete_message:
            self.message_position_deleted(queue, position, ACK_RECEIVE)
        else:
            self.message_position_available(queue, position)
        return MQ_OK

    # -- Read Message By Lookup Identifier (3.1.7.1.13, 3.1.7.3.3) ---------------------------

    def read_message_by_lookup_identifier(self, queue_desc: OpenQueueDescriptor, lookup_id: int,
                                          peek_operation: bool, lookup_operation: MessageSeekAction,
                                          transaction=None, two_phase_read: bool = False) -> ReadRequest:
        request = ReadRequest()
        queue = queue_desc.queue_reference
        if queue is None:
            return request.finish(HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE)
        status, position = self.seek_available_message_position_with_id(
            queue, lookup_id, peek_operation, lookup_operation)
        if status != MQ_OK:
            return request.finish(status)  # MS-MQDMPR:3.1.7.1.13:02
        if peek_operation:
            return request.finish(MQ_OK, position)
        # MS-MQDMPR:3.1.7.1.13:03
        return self._take(request, queue, position, transaction, two_phase_read)

    def seek_available_message_position_with_id(self, queue, lookup_id: int, peek: bool,
                                                action: MessageSeekAction):
        position_list = queue.message_position_list
        found = position_list.index.get(lookup_id)
        if found is None:
            if action is SEEK_CURRENT and lookup_id in position_list.moved:
                # D-05 already-received: a move left the position here, Deleted (3.1.7.1.16, 3.1.7.3.3)
                return HRESULT.MQ_ERROR_MESSAGE_ALREADY_RECEIVED, None
            return HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND, None  # MS-MQDMPR:3.1.7.3.3:01
        if action is SEEK_CURRENT:
            return _seek_current(found, peek)
        if action is SEEK_NEXT:
            result = position_list.seek_forward(found, peek)
        elif action is SEEK_PREVIOUS:
            result = position_list.seek_backward(found, peek)
        elif action is SEEK_FIRST:
            result = position_list.seek_forward(position_list.start, peek)
        else:
            result = position_list.seek_backward(position_list.end, peek)
        if result is position_list.end or result is position_list.start:
            if self.readings["D-04"] == "other-failure":
                return HRESULT.MQ_ERROR, None  # D-04 other-failure: the text names no status
            return HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND, None  # D-04 not-found: nothing before or after
        return MQ_OK, result

    # -- Peek Next Message (3.1.7.1.14) and Peek Message (3.1.7.1.15) ------------------------

    def peek_next_message(self, queue_desc: OpenQueueDescriptor, timeout: int | None = None,
                          cursor: Cursor | None = None, tag=None) -> ReadRequest:
        request = ReadRequest()
        if queue_desc.queue_reference is None:
            return request.finish(HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE)
        status, position = cursor.handle_event(CursorEvent.GET_NEXT_MESSAGE_FOR_PEEK)
        if status is SUCCEEDED:
            return request.finish(MQ_OK, position)
        if status is not WAITING:
            return request.finish(self._cursor_failure(status))  # MS-MQDMPR:3.1.7.1.14:01
        # MS-MQDMPR:3.1.7.1.14:02 (tagged so it can be cancelled, D-18)
        return self._wait(request, queue_desc, INFINITE if timeout is None else timeout, False, tag,
                          cursor, lambda position: request.finish(MQ_OK, position))

    def peek_message(self, queue_desc: OpenQueueDescriptor, timeout: int | None = None,
                     cursor: Cursor | None = None, tag=None) -> ReadRequest:
        request = ReadRequest()
        queue = queue_desc.queue_reference
        if queue is None:
            return request.finish(HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE)
        timeout = INFINITE if timeout is None else timeout

        def found(position):
            return request.finish(MQ_OK, position)

        if cursor is not None:
            status, position = cursor.handle_event(CursorEvent.GET_MESSAGE_FOR_PEEK)
            if status is SUCCEEDED:
                return found(position)
            if status is not WAITING:
                return request.finish(self._cursor_failure(status))  # MS-MQDMPR:3.1.7.1.15:01
            return self._wait(request, queue_desc, timeout, False, tag, cursor, found)
        # MS-MQDMPR:3.1.7.1.15:02 the first eligible message from the front, or wait
        position_list = queue.message_position_list
        position = position_list.seek_forward(position_list.start, peek=True)
        if position is position_list.end:
            return self._wait(request, queue_desc, timeout, False, tag, None, found)
        return found(position)

    # -- waiting (3.1.7.3.1, 3.1.7.3.4 - 3.1.7.3.6, 3.1.6.3) and cancelling (3.1.7.1.17) ----

    def _wait(self, request: ReadRequest, queue_desc, timeout: int, destructive_read: bool, tag,
              cursor, on_satisfied) -> ReadRequest:
        if queue_desc.queue_reference is None or timeout == 0:
            # MS-MQDMPR:3.1.7.3.1:01 no wait at all; "Failed" surfaces as a time-out (D-03)
            if cursor is not None:
                cursor.handle_event(CursorEvent.WAIT_TIME_EXPIRED, self._parked_after())
            return request.finish(HRESULT.MQ_ERROR_IO_TIMEOUT)
        # MS-MQDMPR:3.1.7.3.1:02 register the reader and its timer
        waiter = WaitingMessageReadOperation(destructive_read, tag, cursor, queue_desc, request, on_satisfied)
        queue_desc.waiting_message_read_operation_collection.append(waiter)
        if timeout != INFINITE:
            waiter.timer = self.timers.schedule(self.clock.now_ms() + timeout,
                                                lambda: self.waiting_message_read_timer_expired(waiter))
        request.waiter = waiter
        return request

    def _end_wait(self, waiter: WaitingMessageReadOperation) -> None:
        readers = waiter.queue_desc.waiting_message_read_operation_collection
        if waiter in readers:  # D-14 times-out: Close Cursor already dropped it, its timer still runs
            readers.remove(waiter)
        self.timers.cancel(waiter.timer)

    def waiting_message_read_satisfied(self, waiter: WaitingMessageReadOperation, position) -> None:
        self._end_wait(waiter)
        if waiter.cursor_reference is not None:
            # MS-MQDMPR:3.1.7.1.10:04 / 3.1.7.1.14:02 the cursor moves to the new message
            waiter.cursor_reference.handle_event(CursorEvent.MESSAGE_AVAILABLE, position)
        waiter.on_satisfied(position)

    def waiting_message_read_timer_expired(self, waiter: WaitingMessageReadOperation) -> None:
        self.waiting_message_read_timer_stop(waiter, HRESULT.MQ_ERROR_IO_TIMEOUT)  # MS-MQDMPR:3.1.6.3:01

    def waiting_message_read_timer_stop(self, waiter: WaitingMessageReadOperation, status: int) -> None:
        self._end_wait(waiter)
        cursor = waiter.cursor_reference
        if cursor is not None and not cursor.closed:
            cursor.handle_event(CursorEvent.WAIT_TIME_EXPIRED, self._parked_after())  # MS-MQDMPR:3.2.7.6:01
        waiter.request.finish(status)

    def cancel_waiting_message_read_request(self, queue, tag, status: int,
                                            queue_desc: OpenQueueDescriptor | None = None) -> int:
        """MS-MQDMPR 3.1.7.1.17; `queue_desc` narrows the search to one caller's handle (D-17)."""
        descriptors = [queue_desc] if queue_desc is not None else queue.open_queue_descriptor_collection
        for descriptor in descriptors:
            for waiter in descriptor.waiting_message_read_operation_collection:
                if waiter.tag is not None and waiter.tag == tag:
                    self.waiting_message_read_timer_stop(waiter, status)  # MS-MQDMPR:3.1.7.1.17:01
                    return MQ_OK
        return HRESULT.STATUS_NOT_FOUND


def _seek_current(position, peek: bool):
    """SeekCurrent of MS-MQDMPR 3.1.7.3.3 on the position that has the lookup id."""
    state = position.state
    if state == AVAILABLE:
        return MQ_OK, position
    if peek and state == LOCKED:
        # MS-MQDMPR:3.1.7.3.3:02
        if position.message_reference.allow_peek_when_locked:
            return MQ_OK, position
        return HRESULT.MQ_ERROR_TRANSACTION_USAGE, None
    return HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND, None  # D-05
