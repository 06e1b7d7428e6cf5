"""The MS-MQRR RemoteRead methods (opnums 0 and 2-15) over a QueueManager.

Theory of operation
-------------------
Each `r_*` method checks its parameters in the order of its section of
MS-MQRR 3.1.4, finds the descriptor behind the 20-byte context handle, and
raises the MS-MQDMPR events the section names.  Failures are returned as the
HRESULT the section gives (never raised).  The two `void` methods of the IDL
(R_OpenQueue, R_OpenQueueForMove) report failure the same way; the wire server
turns that status into an RPC exception.

A receive (MQ_ACTION_RECEIVE or MQ_LOOKUP_RECEIVE_*) leaves its message Locked
and files a PendingRequestEntry under {dwRequestId, handle}; R_EndReceive,
R_EndTransactionalReceive, R_CancelReceive or the Pending Request Cleanup Timer
ends it.  R_StartReceive returns a ReceiveCall: finished at once, or later when
a message arrives, the time-out passes or the request is cancelled.  The caller
decides how to wait for it.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from mqspec.protocol.constants import (
    Access,
    Ack,
    Action,
    AuthnLevel,
    MessageClass,
    QueueFormatType as T,
    QueueRights,
    ShareMode,
)
from mqspec.protocol.hresult import HRESULT, RpcStatus

from .adm import OpenQueueDescriptor
from .enumerations import MessagePositionState, QueueAccessType, QueueShareMode, QueueType
from .format_name import FormatNameError, parse_format_name
from .packet import PacketContext, build_packet
from .packet_sections import packet_sections
from .queue_format import QueueFormat, to_format_name
from .security import Caller, granted
from .remote_read_rules import (
    LOOKUP_SEEK,
    PEEK_ACTIONS,
    RECEIVE_ACTIONS,
    PendingRequestEntry,
    ReceiveCall,
    receive_parameters_valid,
)

DEFAULT_PORT = 2103  # MS-MQRR:3.1.4.1:01
DEFAULT_CLEANUP_MS = 5 * 60 * 1000  # MS-MQRR:3.1.2.2:02 Windows' default
NULL_HANDLE = bytes(20)
RPC_S_ACCESS_DENIED = RpcStatus.RPC_S_ACCESS_DENIED  # what an RPC runtime refuses a call below its level with
_OPEN_TYPES = {T.QUEUE_FORMAT_TYPE_PUBLIC, T.QUEUE_FORMAT_TYPE_PRIVATE, T.QUEUE_FORMAT_TYPE_DIRECT,
               T.QUEUE_FORMAT_TYPE_MACHINE, T.QUEUE_FORMAT_TYPE_SUBQUEUE}


@dataclass(frozen=True)
class OpenQueueResult:
    hresult: int
    pph_context: bytes = NULL_HANDLE
    p_move_context: int = 0


class RemoteReadServer:
    def __init__(self, queue_manager, *, port: int = DEFAULT_PORT,
                 pending_request_cleanup_ms: int = DEFAULT_CLEANUP_MS, workgroup_policy: int = 0) -> None:
        self.qm = queue_manager
        self.port = port
        self.pending_request_cleanup_ms = pending_request_cleanup_ms
        self.workgroup_policy = workgroup_policy   # D-82: the level a caller needs follows its fWorkgroup
        self.context_handles: dict[bytes, OpenQueueDescriptor] = {}
        self.move_contexts: dict[int, bytes] = {}
        self.pending_request_table: dict[tuple[int, bytes], PendingRequestEntry] = {}
        # the same entries by handle: what a rundown, a close or an End asks (MS-MQRR 3.1.4.9:05, 3.1.6.2), in
        # time proportional to that handle's entries however many other handles have some
        self.pending_by_handle: dict[bytes, dict[int, PendingRequestEntry]] = {}
        # Messages are sent on this machine: the address overlay names its first address (D-63).
        address = ipaddress.ip_address(queue_manager.addresses[0])
        self.packet_context = PacketContext(queue_manager_guid=queue_manager.identifier,
                                            source_address=(1 if address.version == 4 else 6, address.packed),
                                            readings=queue_manager.readings)  # D-61, D-62, D-64, D-67

    # -- opnum 0 ---------------------------------------------------------------------------

    def r_get_server_port(self) -> int:
        return self.port  # MS-MQRR:3.1.4.1:04 nonzero on success

    # -- opnums 2, 3, 11: queue handles ----------------------------------------------------

    def r_open_queue(self, p_queue_format: QueueFormat | None, dw_access: int, dw_share_mode: int,
                     p_client_id: bytes | None, f_non_routing_server: int = 1, major: int = 6,
                     minor: int = 0, build_number: int = 0, f_workgroup: int = 0,
                     caller: Caller | None = None) -> OpenQueueResult:
        if self._below_level(caller, f_workgroup):
            return OpenQueueResult(RPC_S_ACCESS_DENIED)  # MS-MQRR:3.1.4.2:09 D-82 too weak for its fWorkgroup
        if self.qm.readings["D-42"] == "refuse-unknown" and dw_access not in (Access.RECEIVE_ACCESS,
                                                                               Access.PEEK_ACCESS):
            return OpenQueueResult(HRESULT.MQ_ERROR_INVALID_PARAMETER)  # D-42 refuse-unknown: not in the table
        if self.qm.readings["D-73"] == "refuse-unknown" and dw_share_mode not in (ShareMode.MQ_DENY_NONE,
                                                                                   ShareMode.MQ_DENY_SHARE):
            return OpenQueueResult(HRESULT.MQ_ERROR_INVALID_PARAMETER)  # D-73 refuse-unknown: not a listed value
        # MS-MQRR:3.1.4.2:14 RECEIVE_ACCESS gives ReceiveAccess, anything else PeekAccess (D-42 any-is-peek)
        access = QueueAccessType.ReceiveAccess if dw_access == Access.RECEIVE_ACCESS else QueueAccessType.PeekAccess
        return self._open(p_queue_format, access, dw_share_mode, p_client_id, move=False, caller=caller)

    def r_open_queue_for_move(self, p_queue_format: QueueFormat | None, dw_access: int, dw_share_mode: int,
                              p_client_id: bytes | None, f_non_routing_server: int = 1, major: int = 6,
                              minor: int = 0, build_number: int = 0, f_workgroup: int = 0,
                              caller: Caller | None = None) -> OpenQueueResult:
        if self._below_level(caller, f_workgroup):
            return OpenQueueResult(RPC_S_ACCESS_DENIED)  # MS-MQRR:3.1.4.11:07 D-82
        # MS-MQRR:3.1.4.11:10 always MoveAccess, whatever dwAccess says
        return self._open(p_queue_format, QueueAccessType.MoveAccess, dw_share_mode, p_client_id, move=True,
                          caller=caller)

    def _below_level(self, caller: Caller | None, f_workgroup: int) -> bool:
        """D-82 (Windows' rule of MS-MQRR <19>): with the policy on, a client that says it is in a domain needs
        packet privacy; one in a workgroup (fWorkgroup TRUE) may come unauthenticated."""
        if not self.workgroup_policy or caller is None:
            return False
        needed = AuthnLevel.RPC_C_AUTHN_LEVEL_NONE if f_workgroup == 1 else AuthnLevel.RPC_C_AUTHN_LEVEL_PKT_PRIVACY
        return caller.auth_level < needed

    def _open(self, p_queue_format, access, dw_share_mode, p_client_id, move: bool,
              caller: Caller | None = None) -> OpenQueueResult:
        name = self._format_name(p_queue_format, p_client_id)
        if name is None:
            return OpenQueueResult(HRESULT.MQ_ERROR_INVALID_PARAMETER)  # MS-MQRR:3.1.4.2:12
        format_name = name.text
        queue = self.qm.resolve_format_name(name)
        if queue is None:
            return OpenQueueResult(HRESULT.MQ_ERROR_QUEUE_NOT_FOUND)  # MS-MQRR:3.1.4.2:13
        if caller is not None and not self._admits(queue, access, caller):
            # MS-MQRR:2.1:03 the caller's identity checked (D-81), before Open Queue and its sharing rules
            if self.qm.readings["D-80"] == "queue-not-found":
                return OpenQueueResult(HRESULT.MQ_ERROR_QUEUE_NOT_FOUND)  # D-80 queue-not-found
            return OpenQueueResult(HRESULT.MQ_ERROR_ACCESS_DENIED)  # D-80 access-denied
        # MS-MQRR:3.1.4.2:14 MQ_DENY_NONE shares, any other value denies receivers (D-73 deny-receive)
        share = QueueShareMode.DenyNone if dw_share_mode == ShareMode.MQ_DENY_NONE else QueueShareMode.DenyReceive
        status, descriptor = self.qm.open_queue(format_name, access, share)
        if status != HRESULT.MQ_OK:
            if self.qm.readings["D-43"] == "other-failure":
                return OpenQueueResult(HRESULT.MQ_ERROR)  # D-43 other-failure: a failure of the server's own
            return OpenQueueResult(status)  # D-43 open-status: the Open Queue status is what the call throws
        handle = bytes(4) + self.qm.new_guid()  # 20-byte context handle: attributes + GUID
        self.context_handles[handle] = descriptor
        if not move:
            return OpenQueueResult(HRESULT.MQ_OK, handle)  # MS-MQRR:3.1.4.2:15
        # MS-MQRR:3.1.4.11:08 a random value that stands for the new handle
        move_context = 0
        while move_context == 0 or move_context in self.move_contexts:
            move_context = self.qm.random.getrandbits(64)
        self.move_contexts[move_context] = handle
        return OpenQueueResult(HRESULT.MQ_OK, handle, move_context)

    def _admits(self, queue, access: QueueAccessType, caller: Caller) -> bool:
        """D-81: the rights each access needs, judged by the family's access list (a journal or a subqueue by its
        queue's); the machine queues are open to every caller."""
        if queue.queue_type is QueueType.System:
            return True  # D-81 the queue manager's own queues: world-readable
        journal = queue.is_journal
        family = queue.parent or (self.qm.queue_collection.get(queue.key[:-len(";journal")]) if journal else queue)
        if access is QueueAccessType.PeekAccess:
            wanted = QueueRights.MQSEC_PEEK_MESSAGE
        elif journal:
            wanted = QueueRights.MQSEC_RECEIVE_JOURNAL_MESSAGE  # MS-MQMQ 2.2.24: DELETE_JOURNAL | PEEK
        else:
            wanted = QueueRights.MQSEC_RECEIVE_MESSAGE  # receive, and the move (D-81): DELETE | PEEK
        return family is None or granted(family.security, caller, int(wanted))

    @staticmethod
    def _format_name(p_queue_format, p_client_id):
        """The parsed format name a valid QUEUE_FORMAT stands for, or None for invalid input."""
        if p_queue_format is None or p_client_id is None:
            return None  # MS-MQRR:3.1.4.2:02, 3.1.4.2:03 neither may be NULL
        if p_queue_format.m_qft not in _OPEN_TYPES:
            return None
        try:
            text = to_format_name(p_queue_format)
            name = parse_format_name(text)
        except FormatNameError:
            return None
        if name.kind == "DIRECT" and name.protocol not in ("TCP", "OS"):
            return None  # MS-MQRR 2.2.3: only the TCP and OS protocols
        return name

    def _unknown_handle(self) -> int:
        """The "failure HRESULT" for a context handle the server does not know (D-44)."""
        if self.qm.readings["D-44"] == "other-failure":
            return HRESULT.MQ_ERROR
        return HRESULT.MQ_ERROR_INVALID_HANDLE

    def _queue_gone(self) -> int:
        """R_CreateCursor / R_PurgeQueue on a handle whose queue was deleted (D-46)."""
        if self.qm.readings["D-46"] == "other-failure":
            return HRESULT.MQ_ERROR
        return HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE

    def r_close_queue(self, pph_context: bytes) -> tuple[int, bytes]:
        descriptor = self.context_handles.get(pph_context)
        if descriptor is None:
            return self._unknown_handle(), pph_context  # MS-MQRR:3.1.4.3:04 (D-44)
        self.qm.close_queue(descriptor)  # MS-MQRR:3.1.4.3:05 waiting reads end cancelled first
        self._release_pending(pph_context, descriptor)  # D-45 locked messages come back, as in the rundown
        self._forget(pph_context)
        return HRESULT.MQ_OK, NULL_HANDLE  # MS-MQRR:3.1.4.3:02

    def rundown(self, ph_context: bytes) -> int:
        """MS-MQRR 3.1.6.1 / 3.1.6.2: the client's connection is gone; release what it held."""
        descriptor = self.context_handles.get(ph_context)
        if descriptor is None:
            return HRESULT.MQ_ERROR_INVALID_HANDLE
        for cursor in list(descriptor.cursor_collection.values()):
            self.qm.close_cursor(cursor)  # MS-MQRR:3.1.6.1:01
        self.qm.close_queue(descriptor)  # MS-MQRR:3.1.6.2:01
        self._release_pending(ph_context, descriptor)
        self._forget(ph_context)
        return HRESULT.MQ_OK

    def _release_pending(self, handle: bytes, descriptor: OpenQueueDescriptor) -> None:
        for entry in list(self.pending_by_handle.get(handle, {}).values()):
            self._remove_entry(entry)
            position = self._position(descriptor, entry.lookup_identifier)
            if position is not None and not entry.transactional:
                self.qm.dequeue_message_end(descriptor, position, delete_message=False)

    def _forget(self, handle: bytes) -> None:
        self.context_handles.pop(handle, None)
        for move_context, target in list(self.move_contexts.items()):
            if target == handle:
                del self.move_contexts[move_context]

    # -- opnums 4, 5, 6 ---------------------------------------------------------------------

    def r_create_cursor(self, ph_context: bytes) -> tuple[int, int]:
        descriptor = self.context_handles.get(ph_context)
        if descriptor is None:
            return self._unknown_handle(), 0  # MS-MQRR:3.1.4.4:02 (D-44)
        cursor = self.qm.open_cursor(descriptor)
        if cursor is None:
            return self._queue_gone(), 0  # D-46 the queue was deleted: Open Cursor gives no cursor
        return HRESULT.MQ_OK, cursor.handle

    def r_close_cursor(self, ph_context: bytes, h_cursor: int) -> int:
        descriptor = self.context_handles.get(ph_context)
        if descriptor is None:
            return self._unknown_handle()  # MS-MQRR:3.1.4.5:02 (D-44)
        cursor = descriptor.cursor_collection.get(h_cursor)
        if cursor is None:
            if self.qm.readings["D-47"] == "other-failure":
                return HRESULT.MQ_ERROR  # D-47 other-failure
            return HRESULT.STATUS_INVALID_HANDLE  # D-47 same code as a bad hCursor in R_StartReceive
        self.qm.close_cursor(cursor)
        return HRESULT.MQ_OK

    def r_purge_queue(self, ph_context: bytes) -> int:
        descriptor = self.context_handles.get(ph_context)
        if descriptor is None:
            return self._unknown_handle()  # MS-MQRR:3.1.4.6:02 (D-44)
        if descriptor.access_type != QueueAccessType.ReceiveAccess:
            return HRESULT.STATUS_ACCESS_DENIED  # MS-MQRR:3.1.4.6:04
        if descriptor.queue_reference is None:
            if self.qm.readings["D-46"] == "purge-ok":
                return HRESULT.MQ_OK  # D-46 purge-ok: nothing to purge, and the text then returns MQ_OK
            return self._queue_gone()  # D-46
        self.qm.purge_queue(descriptor.queue_reference)  # MS-MQRR:3.1.4.6:03
        return HRESULT.MQ_OK

    # -- opnums 7 and 13: R_StartReceive, R_StartTransactionalReceive -----------------------

    def r_start_receive(self, ph_context: bytes, lookup_id: int, h_cursor: int, ul_action: int,
                        ul_timeout: int, dw_request_id: int, dw_max_body_size: int,
                        dw_max_compound_message_size: int) -> ReceiveCall:
        return self._start(ph_context, lookup_id, h_cursor, ul_action, ul_timeout, dw_request_id,
                           dw_max_body_size, dw_max_compound_message_size, None)

    def r_start_transactional_receive(self, ph_context: bytes, lookup_id: int, h_cursor: int,
                                      ul_action: int, ul_timeout: int, dw_request_id: int,
                                      dw_max_body_size: int, dw_max_compound_message_size: int,
                                      p_transaction_id: bytes | None) -> ReceiveCall:
        if p_transaction_id is None:
            # MS-MQRR:3.1.4.13:09 no transaction: exactly R_StartReceive
            return self.r_start_receive(ph_context, lookup_id, h_cursor, ul_action, ul_timeout,
                                        dw_request_id, dw_max_body_size, dw_max_compound_message_size)
        return self._start(ph_context, lookup_id, h_cursor, ul_action, ul_timeout, dw_request_id,
                           dw_max_body_size, dw_max_compound_message_size, p_transaction_id)

    def _start(self, ph_context, lookup_id, h_cursor, ul_action, ul_timeout, dw_request_id,
               dw_max_body_size, dw_max_compound_message_size, p_transaction_id) -> ReceiveCall:
        call = ReceiveCall(dw_max_body_size, dw_max_compound_message_size)
        # MS-MQRR:3.1.4.7:16 / 3.1.4.13:08 the combination table first
        if not (_fits(64, lookup_id) and _fits(32, h_cursor, ul_action, ul_timeout, dw_request_id,
                                                dw_max_body_size, dw_max_compound_message_size)
                and receive_parameters_valid(lookup_id, h_cursor, ul_action, ul_timeout)):
            return call.fail(HRESULT.MQ_ERROR_INVALID_PARAMETER)
        readings = self.qm.readings
        if p_transaction_id is not None and ul_action in PEEK_ACTIONS and readings["D-41"] == "param":
            # D-41 param: the table lists peeks only with pTransactionId NULL, and step 1 checks it first
            return call.fail(HRESULT.MQ_ERROR_INVALID_PARAMETER)
        descriptor = self.context_handles.get(ph_context)
        if descriptor is None:
            return call.fail(self._unknown_handle())  # MS-MQRR:3.1.4.7:17 (D-44)
        cursor = None
        if h_cursor:
            # MS-MQRR:3.1.4.7:18 unknown or closed cursor (D-48 own-handle: it must belong to this handle;
            # qm-wide: any open cursor of the queue manager on the same queue)
            if readings["D-48"] == "qm-wide":
                cursor = self.qm.cursors.get(h_cursor)
                if cursor is not None and cursor.open_queue_descriptor_reference.queue_reference is not \
                        descriptor.queue_reference:
                    cursor = None
            else:
                cursor = descriptor.cursor_collection.get(h_cursor)
            if cursor is None:
                return call.fail(HRESULT.STATUS_INVALID_HANDLE)
        receive = ul_action in RECEIVE_ACTIONS
        # D-49 check: the handle's access must permit the action (no-check: the client's duty alone)
        allowed = (QueueAccessType.ReceiveAccess,) if receive else (QueueAccessType.ReceiveAccess,
                                                                    QueueAccessType.PeekAccess)
        if descriptor.access_type not in allowed and readings["D-49"] == "check":
            return call.fail(HRESULT.MQ_ERROR_ACCESS_DENIED)
        if readings["D-36"] == "refuse" and (
                (dw_request_id, ph_context) in self.pending_request_table
                or any(w.request.request_id == dw_request_id
                       for w in descriptor.waiting_message_read_operation_collection)):
            return call.fail(HRESULT.MQ_ERROR_INVALID_PARAMETER)  # MS-MQRR:3.1.4.7:34 D-36 dwRequestId in use
        transaction = None
        if p_transaction_id is not None:
            queue = descriptor.queue_reference
            if queue is None:
                return call.fail(HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE)
            if not queue.transactional:
                return call.fail(HRESULT.MQ_ERROR_TRANSACTION_USAGE)  # MS-MQRR:3.1.4.13:11
            if ul_action in PEEK_ACTIONS:
                return call.fail(HRESULT.MQ_ERROR_TRANSACTION_USAGE)  # MS-MQRR:3.1.4.13:12, D-41 usage
            transaction = self.qm.transaction_collection.get(p_transaction_id)
            if transaction is None:
                if readings["D-50"] == "sequence":
                    # MS-MQRR:3.1.4.13:13 D-50 sequence: never enlisted, as R_MoveMessage answers it
                    return call.fail(HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE)
                # D-50 implicit: created under its identifier, as if enlisted
                transaction = self.qm.create_transaction(p_transaction_id)
        entry = None
        if receive:
            # MS-MQRR:3.1.4.7:19 a PendingRequestEntry and its cleanup timer (D-51: lookup receives too)
            entry = PendingRequestEntry(dw_request_id, ph_context, 0, self.qm.clock.now_ms() & 0xFFFFFFFF,
                                        transactional=transaction is not None)
            self.pending_request_table[(dw_request_id, ph_context)] = entry
            self.pending_by_handle.setdefault(ph_context, {})[dw_request_id] = entry
            self._start_cleanup_timer(entry)
        request = self._read(descriptor, lookup_id, cursor, ul_action, ul_timeout, dw_request_id, transaction)
        request.request_id = dw_request_id  # known while it waits, even untagged (D-18)
        call.request = request
        request.on_complete = lambda done: self._finish(call, entry, descriptor, done)
        if request.done:
            self._finish(call, entry, descriptor, request)
        return call

    def _read(self, descriptor, lookup_id, cursor, ul_action, ul_timeout, tag, transaction):
        qm = self.qm
        # MS-MQRR:3.1.4.7:20 each action raises its MS-MQDMPR event
        if ul_action == Action.MQ_ACTION_RECEIVE:
            return qm.dequeue_message_begin(descriptor, ul_timeout, cursor, transaction, tag)
        if ul_action in (Action.MQ_ACTION_PEEK_CURRENT, Action.MQ_ACTION_PEEK_NEXT):
            # D-18 tagged: a waiting peek can be cancelled; untagged: 3.1.4.7 raises the peeks without iTag
            # (D-31 tagged-only shows only on untagged waits, so its variant takes this reading too)
            if qm.readings["D-18"] == "untagged" or qm.readings["D-31"] == "tagged-only":
                tag = None
            peek = qm.peek_message if ul_action == Action.MQ_ACTION_PEEK_CURRENT else qm.peek_next_message
            return peek(descriptor, ul_timeout, cursor, tag)
        seek = LOOKUP_SEEK[ul_action]
        peek = ul_action in PEEK_ACTIONS
        return qm.read_message_by_lookup_identifier(descriptor, lookup_id, peek, seek, transaction,
                                                    two_phase_read=not peek)

    def _finish(self, call: ReceiveCall, entry, descriptor, request) -> None:
        if entry is not None:
            entry.waiting = False
        if request.status != HRESULT.MQ_OK:
            if entry is not None and self.qm.readings["D-52"] == "remove":
                self._remove_entry(entry)  # D-52 remove: a failed start leaves no entry behind
            # D-52 keep: the entry stays (LookupIdentifier 0) until an End, a cancel or its clean-up timer
            call.fail(request.status)
            return
        message = request.message
        if entry is not None:
            entry.lookup_identifier = message.lookup_identifier
            if entry.timer is not None:
                self.qm.timers.cancel(entry.timer)
                self._start_cleanup_timer(entry)  # D-37 the clean-up period starts when the message is locked
            # else D-38 remove: an R_EndReceive removed the entry and its timer while the read waited
        # MS-MQRR:3.1.4.7:21 the sections, the arrival time (D-53: for peeks too) and sequence id
        sections = packet_sections(build_packet(message, self.packet_context), call.dw_max_body_size,
                                   call.dw_max_compound_message_size)
        call.succeed(message.arrival_time, message.lookup_identifier & 0x00FFFFFFFFFFFFFF, sections)

    # -- opnums 8, 9, 15 --------------------------------------------------------------------

    def r_cancel_receive(self, ph_context: bytes, dw_request_id: int) -> int:
        descriptor = self.context_handles.get(ph_context)
        if descriptor is None:
            return self._unknown_handle()  # MS-MQRR:3.1.4.8:03 (D-44)
        queue = descriptor.queue_reference
        if queue is None and self.qm.readings["D-74"] == "not-available":
            return HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE  # D-74 not-available: the queue was deleted
        # MS-MQRR:3.1.4.8:04 the blocked call ends with MQ_ERROR_OPERATION_CANCELLED (D-17 own-handle: this
        # handle only; queue-wide: 3.1.7.1.17 searches every descriptor of the queue)
        scope = None if self.qm.readings["D-17"] == "queue-wide" else descriptor
        status = HRESULT.STATUS_NOT_FOUND if queue is None else self.qm.cancel_waiting_message_read_request(
            queue, dw_request_id, HRESULT.MQ_ERROR_OPERATION_CANCELLED, scope)  # D-74 literal: none waits
        if status != HRESULT.MQ_OK:
            if self.qm.readings["D-54"] == "other-failure":
                return HRESULT.MQ_ERROR  # D-54 other-failure
            return status  # D-54 status-not-found: the Cancel event's status, nothing was waiting
        entry = self.pending_request_table.get((dw_request_id, ph_context))
        if entry is not None:
            self._remove_entry(entry)
        return HRESULT.MQ_OK

    def r_end_receive(self, ph_context: bytes, dw_ack: int, dw_request_id: int) -> int:
        return self._end(ph_context, dw_ack, dw_request_id, transactional=False)

    def r_end_transactional_receive(self, ph_context: bytes, dw_ack: int, dw_request_id: int) -> int:
        return self._end(ph_context, dw_ack, dw_request_id, transactional=True)  # MS-MQRR:3.1.4.15:05

    def _end(self, ph_context, dw_ack, dw_request_id, transactional: bool) -> int:
        readings = self.qm.readings
        if dw_ack not in (Ack.RR_NACK, Ack.RR_ACK):
            if readings["D-55"] == "other-failure":
                return HRESULT.MQ_ERROR  # D-55 other-failure
            return HRESULT.MQ_ERROR_INVALID_PARAMETER  # MS-MQRR:3.1.4.9:09 D-55 the IDL's range(1,2)
        if not self.pending_by_handle.get(ph_context):
            return HRESULT.MQ_ERROR_INVALID_HANDLE  # MS-MQRR:3.1.4.9:05 no entry for this handle
        entry = self.pending_request_table.get((dw_request_id, ph_context))
        if entry is None:
            return HRESULT.MQ_ERROR_INVALID_PARAMETER  # MS-MQRR:3.1.4.9:06
        if entry.lookup_identifier == 0:
            if entry.waiting and readings["D-38"] == "keep":
                return HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND  # D-38 keep: its Start is still waiting
            self._remove_entry(entry)  # D-38 remove (or D-52 keep: a failed start), as step 2 says
            return HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND  # MS-MQRR:3.1.4.9:07 LookupIdentifier 0 finds nothing
        if entry.transactional and not transactional and readings["D-69"] == "refuse":
            return HRESULT.MQ_ERROR_TRANSACTION_USAGE  # D-69 refuse: a transactional receive needs its End
        # D-69 as-started: the End acts as the Start requires; literal: each End runs its own section
        transactional = transactional if readings["D-69"] == "literal" else entry.transactional
        self._remove_entry(entry)
        descriptor = self.context_handles.get(ph_context)
        if descriptor is None:
            return self._unknown_handle()  # D-44
        if descriptor.queue_reference is None and readings["D-74"] == "not-available":
            return HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE  # D-74 not-available: the queue was deleted
        position = self._position(descriptor, entry.lookup_identifier)
        if position is None:
            return HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND  # MS-MQRR:3.1.4.9:07 (D-74 literal: no queue to search)
        # MS-MQRR:3.1.4.9:04 / 3.1.4.9:08 RR_ACK deletes, RR_NACK makes it available again
        # (MS-MQRR:3.1.4.15:05 transactional: the transaction decides)
        status = self.qm.dequeue_message_end(descriptor, position, dw_ack == Ack.RR_ACK, transactional)
        if transactional and dw_ack == Ack.RR_NACK and status == HRESULT.MQ_OK and readings["D-66"] == "released":
            # MS-MQRR:3.1.4.15:04 D-66 released: out of its transaction, then available again
            self.qm.withdraw_dequeue(position)
            self.qm.dequeue_message_end(descriptor, position, delete_message=False)
        return status  # D-66 stays-locked: Dequeue Message End changed nothing; the transaction decides

    @staticmethod
    def _position(descriptor, lookup_identifier: int):
        queue = descriptor.queue_reference
        if queue is None or not lookup_identifier:
            return None
        return queue.message_position_list.index.get(lookup_identifier)  # D-56 by LookupIdentifier

    # -- the Pending Request Cleanup Timer (MS-MQRR 3.1.2.2, 3.1.5.1) -----------------------

    def _start_cleanup_timer(self, entry: PendingRequestEntry) -> None:
        deadline = self.qm.clock.now_ms() + self.pending_request_cleanup_ms
        entry.timer = self.qm.timers.schedule(deadline, lambda: self._cleanup_timer_expired(entry))

    def _cleanup_timer_expired(self, entry: PendingRequestEntry) -> None:
        if entry.lookup_identifier == 0 and entry.waiting:
            self._start_cleanup_timer(entry)  # D-37 its read still waits: the entry is in use
            return
        self._remove_entry(entry)
        descriptor = self.context_handles.get(entry.queue_context_handle)
        if descriptor is None or entry.transactional:
            return  # D-57 a transaction owns its message
        position = self._position(descriptor, entry.lookup_identifier)
        if position is not None:
            # MS-MQRR:3.1.5.1:01 a receive nobody finished: the message becomes available again
            self.qm.dequeue_message_end(descriptor, position, delete_message=False)

    def _remove_entry(self, entry: PendingRequestEntry) -> None:
        key = (entry.request_id, entry.queue_context_handle)
        if self.pending_request_table.get(key) is entry:  # D-36 accept: a later start may have replaced it
            del self.pending_request_table[key]
            by_handle = self.pending_by_handle[entry.queue_context_handle]
            del by_handle[entry.request_id]
            if not by_handle:
                del self.pending_by_handle[entry.queue_context_handle]
        self.qm.timers.cancel(entry.timer)
        entry.timer = None

    # -- opnums 10, 12, 14: move, enlist, reject --------------------------------------------

    def r_move_message(self, ph_context_from: bytes, ull_context_to: int, lookup_id: int,
                       p_transaction_id: bytes | None) -> int:
        source = self.context_handles.get(ph_context_from)
        if source is None:
            return self._unknown_handle()  # MS-MQRR:3.1.4.10 (D-44)
        if source.access_type != QueueAccessType.ReceiveAccess and self.qm.readings["D-49"] == "check":
            return HRESULT.MQ_ERROR_ACCESS_DENIED  # D-49 check
        target = self.context_handles.get(self.move_contexts.get(ull_context_to))
        if target is None or target.access_type != QueueAccessType.MoveAccess:
            return HRESULT.MQ_ERROR_INVALID_HANDLE
        source_queue, target_queue = source.queue_reference, target.queue_reference
        if source_queue is None or target_queue is None:
            return HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE
        if not _related(source_queue, target_queue):
            return HRESULT.STATUS_INVALID_PARAMETER
        has_transaction = p_transaction_id is not None and any(p_transaction_id)
        if has_transaction and not target_queue.transactional:
            return HRESULT.MQ_ERROR_TRANSACTION_USAGE
        position = source_queue.message_position_list.index.get(lookup_id)
        if position is None:
            return HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND  # D-56
        if position.state != MessagePositionState.Available:
            return HRESULT.MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION  # D-39
        transaction = None
        if has_transaction:
            transaction = self.qm.transaction_collection.get(p_transaction_id)
            if transaction is None:
                return HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE
        self.qm.move_message(position, target_queue, transaction)
        return HRESULT.MQ_OK

    def r_qm_enlist_remote_transaction(self, p_transaction_id: bytes | None, cb_propagation_token: int,
                                       pb_propagation_token: bytes | None,
                                       p_queue_format: QueueFormat | None) -> int:
        # MS-MQRR:3.1.4.12:03 the id and token must be there and agree with their size
        if (p_transaction_id is None or len(p_transaction_id) != 16
                or (not any(p_transaction_id) and self.qm.readings["D-40"] == "refuse-zero")
                or pb_propagation_token is None or not 0 <= cb_propagation_token <= 131072
                or cb_propagation_token != len(pb_propagation_token)):
            return HRESULT.MQ_ERROR_INVALID_PARAMETER
        if p_transaction_id not in self.qm.transaction_collection:
            transaction = self.qm.create_transaction(p_transaction_id)  # MS-MQRR:3.1.4.12:05 (D-40 once per id)
            if self.qm.readings["D-23"] == "keep-enlisted":
                transaction.single_phase = False  # D-23 keep-enlisted: MS-DTC decides, not a restart
                self.qm.persistence.record_transaction(transaction)
        return HRESULT.MQ_OK

    def r_set_user_acknowledgement_class(self, ph_context: bytes, lookup_id: int, us_class: int) -> int:
        if us_class not in (0, MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED) and self.qm.readings["D-58"] == "refuse":
            return HRESULT.MQ_ERROR_INVALID_PARAMETER  # MS-MQRR:3.1.4.14:03 D-58 refuse: not a listed class
        descriptor = self.context_handles.get(ph_context)
        if descriptor is None:
            return self._unknown_handle()  # MS-MQRR:3.1.4.14:04 (D-44)
        if descriptor.access_type != QueueAccessType.ReceiveAccess and self.qm.readings["D-49"] == "check":
            return HRESULT.MQ_ERROR_ACCESS_DENIED  # D-49 check
        position = self._position(descriptor, lookup_id)
        if position is None:
            return HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND
        for transaction in self.qm.transaction_collection.values():
            for index, operation in enumerate(transaction.transactional_operation_collection):
                if operation.message_position_reference is position:
                    if us_class:
                        # MS-MQRR:3.1.4.14:05 any nonzero usClass: the commit will remove it as rejected
                        # (D-58 any-nonzero-rejects; a Move keeps the reason unused)
                        operation.dequeue_reason = MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED
                        # MS-MQRR:2.2.5.3:03 later reads show the class in the SubqueueHeader
                        position.message_reference.set("acknowledgement_class",
                                                       MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED)
                        self.qm.persistence.record_operation(transaction, operation, index)
                    return HRESULT.MQ_OK
        return HRESULT.MQ_ERROR_TRANSACTION_USAGE


def _fits(bits: int, *values) -> bool:
    """The IDL types: every value is an unsigned integer of `bits` bits."""
    return all(isinstance(v, int) and 0 <= v < (1 << bits) for v in values)


def _related(source, target) -> bool:
    """MS-MQRR 3.1.4.10: a queue and its subqueues, or two subqueues of one queue."""
    return (source.parent is target or target.parent is source
            or (source.parent is not None and source.parent is target.parent))

