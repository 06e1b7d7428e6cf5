"""Wrong clients that break one condition of one client rule each (steps/client_conditions.py).

Each is mqspec's own client (shims/mqrr.py) with one plausible mistake made at one of its
seams: `clause` is the clause it misreads (its scenarios must catch it), `breaks` the
conditions (`rule:condition`) the mistake breaks.  Where a rule checks two things (an
End's handle and its dwRequestId; a cancel's), a client here breaks one and keeps the
other, so tests/test_client_suite.py proves every condition apart.  shims/wrong.py lists
them with the first wrong clients, one per clause.  Here: stubs, handles, associations,
cursors, failed calls, ends, request ids, cancels and moves; shims/wrong_sequences.py
holds those of transactions, of who the client says it is, and of each operation's calls.
"""

from __future__ import annotations

import os
import uuid

from mqspec.adapters.wire.dcerpc_client import Credentials, Pool
from mqspec.protocol.constants import Access, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.idl import OPNUMS, REMOTE_READ_UUID

from .mqrr import CALL_TIMEOUT, OpenQueue, RemoteReadClient

STARTS = ("R_StartReceive", "R_StartTransactionalReceive")


def _swapped(guid: bytes) -> bytes:
    """A GUID's 16 bytes written in the other byte order (little- for big-endian fields, as a GUID struct)."""
    return uuid.UUID(bytes_le=guid).bytes


class _Tweaked(RemoteReadClient):
    """A client that changes the arguments of some methods just before they are sent."""
    tweaked: tuple[str, ...] = ()

    def tweak(self, method: str, args: dict) -> dict:
        return args

    def call(self, method, timeout=CALL_TIMEOUT, **args):
        if method in self.tweaked:
            args = self.tweak(method, dict(args))
        return super().call(method, timeout, **args)


class _SecondAssociation(RemoteReadClient):
    """A client with a second pool of connections, a second association group, for the methods in `apart`."""
    apart: tuple[str, ...] = ()

    def __init__(self, host, port):
        super().__init__(host, port)
        self.other = Pool(host, port, (REMOTE_READ_UUID, "1.0"), credentials=Credentials())

    def pool_for(self, method):
        return self.other if method in self.apart else self.pool

    def bye(self):
        try:
            return super().bye()
        finally:
            self.other.close()


class _StubCutShort(RemoteReadClient):
    """A client whose stub for `method` lacks its last four octets."""
    method = ""

    def stub(self, opnum, args):
        whole = super().stub(opnum, args)
        return whole[:-4] if opnum == OPNUMS[self.method] else whole


# -- stubs, handles and associations ------------------------------------------------------------------
class OpenStubCutShort(_StubCutShort):
    """Sends R_OpenQueue without fWorkgroup, its last argument, as if the method ended at BuildNumber (MS-MQRR
    2.1:04)."""
    clause = "MS-MQRR:2.1:04"
    breaks = ("stubs_decode:decodes",)
    method = "R_OpenQueue"


class NullHandleAfterFailedOpen(RemoteReadClient):
    """Keeps a queue whose R_OpenQueue failed, with the zeroed handle it got, and calls through it (MS-MQRR
    3.1.4.2:11)."""
    clause = "MS-MQRR:3.1.4.2:11"
    breaks = ("only_handles_from_opening:not-null",)

    def open(self, queue, format_name, access, share):
        answer = super().open(queue, format_name, access, share)
        if answer["status"] != HRESULT.MQ_OK:
            self.queues[queue] = OpenQueue(bytes(20), format_name, Access.PEEK_ACCESS)
        return answer


class HandleUuidSwapped(RemoteReadClient):
    """Keeps a context handle's UUID as a GUID and writes it back in the other byte order (MS-MQRR 2.2.4:01)."""
    clause = "MS-MQRR:2.2.4:01"
    breaks = ("only_handles_from_opening:given",)

    def open(self, queue, format_name, access, share):
        answer = super().open(queue, format_name, access, share)
        if queue in self.queues:
            handle = self.queues[queue].handle
            self.queues[queue].handle = handle[:4] + _swapped(handle[4:])
        return answer


class CallsOnSecondAssociation(_SecondAssociation):
    """Opens its queues on one association group and calls through their handles on another, as if a context
    handle were the server's alone (MS-MQRR 2.2.4:01)."""
    clause = "MS-MQRR:2.2.4:01"
    breaks = ("only_handles_from_opening:association",)
    apart = ("R_StartReceive", "R_EndReceive", "R_CloseQueue", "R_CreateCursor", "R_PurgeQueue")


class MoveSourceOpenedForMove(RemoteReadClient):
    """Opens the source of a move with R_OpenQueueForMove too and moves from that handle (MS-MQRR 3.1.4.10:02)."""
    clause = "MS-MQRR:3.1.4.10:02"
    breaks = ("opened_by_r_open_queue:r-open-queue",)

    def move(self, queue, lookup_id, to, transaction=None):
        opened = self.queue(queue)
        status, out = self.call("R_OpenQueueForMove", **self.open_args(opened.format_name, Access.MQ_MOVE_ACCESS,
                                                                       ShareMode.MQ_DENY_NONE))
        if status != HRESULT.MQ_OK:
            return {"status": status}
        self.queues[queue] = OpenQueue(out["pphContext"], opened.format_name, Access.RECEIVE_ACCESS)
        try:
            return super().move(queue, lookup_id, to, transaction)
        finally:
            self.call("R_CloseQueue", pphContext=out["pphContext"])
            self.queues[queue] = opened


# -- cursors and failed calls -------------------------------------------------------------------------
class CursorThroughFirstHandle(_Tweaked):
    """Sends every cursor's reads through the handle of the queue opened first, as if cursors were the client's
    and not a handle's (MS-MQRR 3.2.1:01)."""
    clause = "MS-MQRR:3.2.1:01"
    breaks = ("only_live_cursors:of-its-handle",)
    tweaked = STARTS

    def tweak(self, method, args):
        first = next(iter(self.queues.values()), None)
        return dict(args, phContext=first.handle) if args["hCursor"] and first else args


class ClosedCursorRecycled(RemoteReadClient):
    """Gives a new cursor the hCursor of one it closed instead of calling R_CreateCursor (MS-MQRR 3.1.4.5:01)."""
    clause = "MS-MQRR:3.1.4.5:01"
    breaks = ("only_live_cursors:not-closed",)

    def __init__(self, host, port):
        super().__init__(host, port)
        self.free: list[int] = []

    def close_cursor(self, cursor):
        h_cursor = self.queues[self.cursor_queue(cursor)].cursors[cursor]
        answer = super().close_cursor(cursor)
        self.free.append(h_cursor)
        return answer

    def cursor(self, queue, cursor):
        if not self.free:
            return super().cursor(queue, cursor)
        self.queue(queue).cursors[cursor] = self.free.pop()
        return {"status": HRESULT.MQ_OK}


class FailedReadRetriedByLookup(RemoteReadClient):
    """Retries a read that failed by the pSequenceId the failure came back with, as a lookup (MS-MQRR
    3.1.4.7:15)."""
    clause = "MS-MQRR:3.1.4.7:15"
    breaks = ("ignored_failed_outputs:failed-sequence-id",)

    def call(self, method, timeout=CALL_TIMEOUT, **args):
        status, out = super().call(method, timeout, **args)
        if method in STARTS and status != HRESULT.MQ_OK and out.get("pSequenceId") and not args["LookupId"]:
            receive = args["ulAction"] not in (Action.MQ_ACTION_PEEK_CURRENT, Action.MQ_ACTION_PEEK_NEXT)
            args.update(LookupId=out["pSequenceId"], ulTimeout=0, dwRequestId=self.new_request_id(),
                        ulAction=Action.MQ_LOOKUP_RECEIVE_CURRENT if receive else Action.MQ_LOOKUP_PEEK_CURRENT)
            return super().call(method, timeout, **args)
        return status, out


# -- ends, request ids and cancels --------------------------------------------------------------------
class EndThroughFirstHandle(RemoteReadClient):
    """Ends every receive through the handle of the queue opened first (MS-MQRR 3.1.4.9:02)."""
    clause = "MS-MQRR:3.1.4.9:01"
    breaks = ("paired_every_receive:handle", "ends_match_their_start:end-handle")

    def end(self, opened, transactional, ack, request_id):
        return super().end(next(iter(self.queues.values())), transactional, ack, request_id)


class EndWithNewRequestId(RemoteReadClient):
    """Takes a fresh dwRequestId for an End, as for any other request (MS-MQRR 3.1.4.9:02)."""
    clause = "MS-MQRR:3.1.4.9:01"
    breaks = ("paired_every_receive:request-id", "ends_match_their_start:end-request-id")

    def end(self, opened, transactional, ack, request_id):
        return super().end(opened, transactional, ack, self.new_request_id())


class _EndDeferred(RemoteReadClient):
    """A client that sends a receive's End after its next call instead of before answering the application."""
    deferred_transactional = True

    def __init__(self, host, port):
        super().__init__(host, port)
        self.owed: tuple | None = None

    def end(self, opened, transactional, ack, request_id):
        if transactional != self.deferred_transactional:
            return super().end(opened, transactional, ack, request_id)
        self.owed = (opened, transactional, ack, request_id)
        return HRESULT.MQ_OK

    def call(self, method, timeout=CALL_TIMEOUT, **args):
        answer = super().call(method, timeout, **args)
        owed, self.owed = self.owed, None
        if owed is not None and method not in ("R_EndReceive", "R_EndTransactionalReceive"):
            super().end(*owed)
        return answer


class EndAfterNextStart(_EndDeferred):
    """Frees a receive's dwRequestId once its message is in hand and ends it after the next Start, which reuses
    the id (MS-MQRR 3.1.4.7:05)."""
    clause = "MS-MQRR:3.1.4.7:05"
    breaks = ("request_ids_unique:not-ended",)
    deferred_transactional = False

    def new_request_id(self):
        return self.owed[3] if self.owed is not None else super().new_request_id()


class EndDeferred(_EndDeferred):
    """Answers the application with the message at once and sends R_EndReceive with its next call (MS-MQRR
    3.2.4.4.1:01)."""
    clause = "MS-MQRR:3.2.4.4.1:01"
    breaks = ("operation_sequences:end-before-answer",)
    deferred_transactional = False


class TransactionalEndAfterReject(_EndDeferred):
    """Sends R_EndTransactionalReceive with its next call, so a reject that follows the receive comes first
    (MS-MQRR 3.1.4.14:01)."""
    clause = "MS-MQRR:3.1.4.14:01"
    breaks = ("acknowledgement_class:after-end",)


class CancelThroughLastHandle(RemoteReadClient):
    """Cancels a waiting read through the handle of the queue opened last (MS-MQRR 3.1.4.8:01)."""
    clause = "MS-MQRR:3.1.4.8:01"
    breaks = ("ends_match_their_start:cancel-handle",)

    def cancel(self, request):
        waiting = self.waiting.get(request)
        if waiting is None:
            return super().cancel(request)
        status, _ = self.call("R_CancelReceive", phContext=list(self.queues.values())[-1].handle,
                              dwRequestId=waiting.request_id)
        return {"status": status}


class CancelWithNewRequestId(_Tweaked):
    """Takes a fresh dwRequestId for R_CancelReceive, as for any other request (MS-MQRR 3.1.4.8:01)."""
    clause = "MS-MQRR:3.1.4.8:01"
    breaks = ("ends_match_their_start:cancel-request-id", "operation_sequences:cancel-request")
    tweaked = ("R_CancelReceive",)

    def tweak(self, method, args):
        return dict(args, dwRequestId=self.new_request_id())


# -- moves --------------------------------------------------------------------------------------------
class MoveDestinationClosedFirst(RemoteReadClient):
    """Closes the destination's handle as soon as R_OpenQueueForMove gave the move context, as if the context
    outlived it (MS-MQRR 3.1.4.11:01)."""
    clause = "MS-MQRR:3.1.4.11:01"
    breaks = ("moves_through_move_contexts:live",)

    def move_context(self, to):
        context, handle = super().move_context(to)
        self.call("R_CloseQueue", pphContext=handle)
        return context, None


class MoveDestinationOnSecondAssociation(_SecondAssociation):
    """Opens a move's destination on a connection of a new association group (MS-MQRR 3.1.4.11:01)."""
    clause = "MS-MQRR:3.1.4.11:01"
    breaks = ("moves_through_move_contexts:association",)
    apart = ("R_OpenQueueForMove",)


class MoveWithOwnTransactionId(_Tweaked):
    """Makes a transaction id of its own for a move outside any transaction (MS-MQRR 3.1.4.10:04)."""
    clause = "MS-MQRR:3.1.4.10:04"
    breaks = ("move_transaction_ids:zeros-or-enlisted", "operation_sequences:move-transaction-id")
    tweaked = ("R_MoveMessage",)

    def tweak(self, method, args):
        return dict(args, pTransactionId=os.urandom(16)) if args["pTransactionId"] == bytes(16) else args


class MoveLookupIdZero(_Tweaked):
    """Moves with LookupId 0, as if the move took the message last peeked (MS-MQRR 3.2.4.6:01)."""
    clause = "MS-MQRR:3.2.4.6:01"
    breaks = ("operation_sequences:move-lookup-id",)
    tweaked = ("R_MoveMessage",)

    def tweak(self, method, args):
        return dict(args, LookupId=0)


class MoveOpenWithReceiveAccess(_Tweaked):
    """Opens a move's destination with RECEIVE_ACCESS (MS-MQRR 3.1.4.11:03)."""
    clause = "MS-MQRR:3.1.4.11:03"
    breaks = ("move_opening:access",)
    tweaked = ("R_OpenQueueForMove",)

    def tweak(self, method, args):
        return dict(args, dwAccess=Access.RECEIVE_ACCESS)


class MoveOpenDenyingReceive(_Tweaked):
    """Opens a move's destination with MQ_DENY_RECEIVE_SHARE, keeping it to itself (MS-MQRR 3.1.4.11:03)."""
    clause = "MS-MQRR:3.1.4.11:03"
    breaks = ("move_opening:share",)
    tweaked = ("R_OpenQueueForMove",)

    def tweak(self, method, args):
        return dict(args, dwShareMode=ShareMode.MQ_DENY_SHARE)


VARIANTS = {
    "open-stub-cut-short": OpenStubCutShort, "null-handle-after-failed-open": NullHandleAfterFailedOpen,
    "handle-uuid-swapped": HandleUuidSwapped, "calls-on-second-association": CallsOnSecondAssociation,
    "move-source-opened-for-move": MoveSourceOpenedForMove, "cursor-through-first-handle": CursorThroughFirstHandle,
    "closed-cursor-recycled": ClosedCursorRecycled, "failed-read-retried-by-lookup": FailedReadRetriedByLookup,
    "end-through-first-handle": EndThroughFirstHandle, "end-with-new-request-id": EndWithNewRequestId,
    "end-after-next-start": EndAfterNextStart, "end-deferred": EndDeferred,
    "transactional-end-after-reject": TransactionalEndAfterReject,
    "cancel-through-last-handle": CancelThroughLastHandle, "cancel-with-new-request-id": CancelWithNewRequestId,
    "move-destination-closed-first": MoveDestinationClosedFirst,
    "move-destination-on-second-association": MoveDestinationOnSecondAssociation,
    "move-with-own-transaction-id": MoveWithOwnTransactionId, "move-lookup-id-zero": MoveLookupIdZero,
    "move-open-with-receive-access": MoveOpenWithReceiveAccess, "move-open-denying-receive": MoveOpenDenyingReceive,
}
