"""Wrong clients that break one condition of one client rule each: transactions, who the client says it is, and
the calls of each operation (the others: shims/wrong_conditions.py, whose helpers these use).

Each is mqspec's own client (shims/mqrr.py) with one plausible mistake made at one of its
seams: `clause` is the clause it misreads (its scenarios must catch it), `breaks` the
conditions (`rule:condition`, steps/client_conditions.py) the mistake breaks.
"""

from __future__ import annotations

from mqspec.protocol.constants import Access, Ack, Action, ShareMode
from mqspec.protocol.hresult import HRESULT

from .mqrr import CALL_TIMEOUT, LARGEST, SEEK_PEEK, SEEK_RECEIVE, RemoteReadClient
from .wrong_conditions import STARTS, _StubCutShort, _Tweaked, _swapped

OPENS = ("R_OpenQueue", "R_OpenQueueForMove")
RECEIVES = {int(peek): int(receive) for peek, receive in zip(SEEK_PEEK.values(), SEEK_RECEIVE.values())}


# -- transactions -------------------------------------------------------------------------------------
class MoveNotEnlisted(RemoteReadClient):
    """Enlists a transaction before a transactional receive but not before a move, as if R_MoveMessage enlisted
    it (MS-MQRR 3.1.4.12:02)."""
    clause = "MS-MQRR:3.1.4.12:02"
    breaks = ("enlisted_before_use:move",)

    def move(self, queue, lookup_id, to, transaction=None):
        self.moving = True
        try:
            return super().move(queue, lookup_id, to, transaction)
        finally:
            self.moving = False

    def enlist(self, transaction, format_name):
        if getattr(self, "moving", False) and transaction in self.transactions:
            return self.transactions[transaction]
        return super().enlist(transaction, format_name)


class EnlistStubCutShort(_StubCutShort):
    """Sends R_QMEnlistRemoteTransaction without the last four octets of its QUEUE_FORMAT (MS-MQRR 3.1.4.12:03)."""
    clause = "MS-MQRR:3.1.4.12:03"
    breaks = ("enlistment_arguments:decodes",)
    method = "R_QMEnlistRemoteTransaction"


class EnlistZeroTransactionId(_Tweaked):
    """Enlists with a zeroed pTransactionId, as if the token alone named the transaction (MS-MQRR 3.1.4.12:03)."""
    clause = "MS-MQRR:3.1.4.12:03"
    breaks = ("enlistment_arguments:transaction-id",)
    tweaked = ("R_QMEnlistRemoteTransaction",)

    def tweak(self, method, args):
        return dict(args, pTransactionId=bytes(16))


class EmptyPropagationToken(_Tweaked):
    """Enlists with an empty propagation token, having no MS-DTCO coordinator to ask (MS-MQRR 3.1.4.12:03)."""
    clause = "MS-MQRR:3.1.4.12:03"
    breaks = ("enlistment_arguments:token",)
    tweaked = ("R_QMEnlistRemoteTransaction",)

    def tweak(self, method, args):
        return dict(args, pbPropagationToken=b"", cbPropagationToken=0)


class EnlistNamingTheJournal(RemoteReadClient):
    """Names the queue's journal in the enlistment, where the transaction's receives are kept (MS-MQRR
    3.1.4.12:04)."""
    clause = "MS-MQRR:3.1.4.12:04"
    breaks = ("enlisted_with_its_queue:queue",)

    def enlist(self, transaction, format_name):
        return super().enlist(transaction, format_name.split(";")[0] + ";journal")


class TransactionIdSwapped(_Tweaked):
    """Enlists the XACTUOW as made and passes it to R_StartTransactionalReceive in the other byte order (MS-MQRR
    3.2.4.4.2:01)."""
    clause = "MS-MQRR:3.2.4.4.2:01"
    breaks = ("operation_sequences:transaction-id",)
    tweaked = ("R_StartTransactionalReceive",)

    def tweak(self, method, args):
        return dict(args, pTransactionId=_swapped(args["pTransactionId"]))


class TransactionIgnoredInReceive(RemoteReadClient):
    """Enlists the transaction and then receives with R_StartReceive and R_EndReceive (MS-MQRR 3.2.4.4.2:01)."""
    clause = "MS-MQRR:3.2.4.4.2:01"
    breaks = ("operation_sequences:start-method",)

    def call(self, method, timeout=CALL_TIMEOUT, **args):
        if method == "R_StartTransactionalReceive":
            args.pop("pTransactionId")
            method = "R_StartReceive"
        return super().call(method, timeout, **args)

    def end(self, opened, transactional, ack, request_id):
        return super().end(opened, False, ack, request_id)


class FirstTransactionIdZero(RemoteReadClient):
    """Leaves the first transaction's XACTUOW as it was initialised, all zeros (MS-MQRR 2.2.8:02)."""
    clause = "MS-MQRR:2.2.8:02"
    breaks = ("fresh_transaction_ids:not-zero",)

    def new_transaction_id(self):
        return super().new_transaction_id() if self.transactions else bytes(16)


class RejectLookupIdZero(_Tweaked):
    """Rejects with LookupId 0, as if it named the message just received (MS-MQRR 3.1.4.14:02)."""
    clause = "MS-MQRR:3.1.4.14:02"
    breaks = ("acknowledgement_class:received", "operation_sequences:reject-lookup-id")
    tweaked = ("R_SetUserAcknowledgementClass",)

    def tweak(self, method, args):
        return dict(args, LookupId=0)


class RejectDeferredToClose(RemoteReadClient):
    """Keeps rejections and sends them in one go when the queue is closed (MS-MQRR 3.1.4.14:01)."""
    clause = "MS-MQRR:3.1.4.14:01"
    breaks = ("acknowledgement_class:before-commit",)

    def __init__(self, host, port):
        super().__init__(host, port)
        self.rejects: list[tuple[str, int]] = []

    def reject(self, queue, lookup_id):
        self.queue(queue)
        self.rejects.append((queue, lookup_id))
        return {"status": HRESULT.MQ_OK}

    def close(self, queue):
        for name, lookup_id in [kept for kept in self.rejects if kept[0] == queue]:
            super().reject(name, lookup_id)
        self.rejects = [kept for kept in self.rejects if kept[0] != queue]
        return super().close(queue)


# -- who the client is, and how it opens --------------------------------------------------------------
class NullClientId(_Tweaked):
    """Sends the null GUID as pClientId, having none configured (MS-MQRR 3.1.4.2:03)."""
    clause = "MS-MQRR:3.1.4.2:03"
    breaks = ("client_id:not-null",)
    tweaked = OPENS

    def tweak(self, method, args):
        return dict(args, pClientId=bytes(16))


class RoutingServerClaimed(_Tweaked):
    """Says it is a routing server (fNonRoutingServer FALSE) while it is not (MS-MQRR 3.1.4.2:05)."""
    clause = "MS-MQRR:3.1.4.2:05"
    breaks = ("routing:routing",)
    tweaked = OPENS

    def tweak(self, method, args):
        return dict(args, fNonRoutingServer=0)


class OpensTwice(RemoteReadClient):
    """Opens a queue, closes it and opens it again, the first open only to see that it is there (MS-MQRR
    3.2.4.1:01)."""
    clause = "MS-MQRR:3.2.4.1:01"
    breaks = ("opened_as_asked:once",)

    def open(self, queue, format_name, access, share):
        answer = super().open(queue, format_name, access, share)
        if answer["status"] != HRESULT.MQ_OK:
            return answer
        self.call("R_CloseQueue", pphContext=self.queues.pop(queue).handle)
        return super().open(queue, format_name, access, share)


class DirectTcpOpenedAsOs(RemoteReadClient):
    """Opens a DIRECT=TCP: format name as DIRECT=OS:, the same path by another protocol (MS-MQRR 3.2.4.1:01)."""
    clause = "MS-MQRR:3.2.4.1:01"
    breaks = ("opened_as_asked:name",)

    def open_args(self, format_name, access, share):
        return super().open_args(format_name.replace("DIRECT=TCP:", "DIRECT=OS:", 1), access, share)


class PeekOpenedToReceive(_Tweaked):
    """Opens every queue with RECEIVE_ACCESS, whatever the application asked, to be able to do anything later
    (MS-MQRR 3.2.4.1:01)."""
    clause = "MS-MQRR:3.2.4.1:01"
    breaks = ("opened_as_asked:access",)
    tweaked = ("R_OpenQueue",)

    def tweak(self, method, args):
        return dict(args, dwAccess=Access.RECEIVE_ACCESS)


class ShareModeIgnored(_Tweaked):
    """Opens every queue with MQ_DENY_NONE, whatever share mode the application asked (MS-MQRR 3.2.4.1:01)."""
    clause = "MS-MQRR:3.2.4.1:01"
    breaks = ("opened_as_asked:share",)
    tweaked = ("R_OpenQueue",)

    def tweak(self, method, args):
        return dict(args, dwShareMode=ShareMode.MQ_DENY_NONE)


class ReadsThroughFirstHandle(_Tweaked):
    """Reads every queue through the handle of the queue opened first (MS-MQRR 3.2.1:01)."""
    clause = "MS-MQRR:3.2.1:01"
    breaks = ("handle_per_queue:own-handle",)
    tweaked = STARTS

    def tweak(self, method, args):
        first = next(iter(self.queues.values()), None)
        return dict(args, phContext=first.handle) if not args["hCursor"] and first else args


# -- the calls of each operation ----------------------------------------------------------------------
class PeekBeforeReceive(RemoteReadClient):
    """Peeks before each receive, to know the message before taking it (MS-MQRR 3.2.4.4.1:01)."""
    clause = "MS-MQRR:3.2.4.4.1:01"
    breaks = ("operation_sequences:one-start",)

    def read(self, queue, timeout, *, peek, **more):
        if not peek and more.get("lookup_id") is None and more.get("cursor") is None:
            super().read(queue, 0, peek=True)
        return super().read(queue, timeout, peek=peek, **more)


class CursorReceiveWithoutCursor(_Tweaked):
    """Receives at a cursor with hCursor 0, taking the cursor for the client's own business (MS-MQRR
    3.2.4.10.1:01)."""
    clause = "MS-MQRR:3.2.4.10.1:01"
    breaks = ("operation_sequences:cursor",)
    tweaked = STARTS

    def tweak(self, method, args):
        return dict(args, hCursor=0) if args["ulAction"] == Action.MQ_ACTION_RECEIVE else args


class LookupIdDropped(_Tweaked):
    """Sends a lookup's action without its LookupId (MS-MQRR 3.2.4.3:01)."""
    clause = "MS-MQRR:3.2.4.3:01"
    breaks = ("operation_sequences:lookup-id",)
    tweaked = STARTS

    def tweak(self, method, args):
        return dict(args, LookupId=0)


class LookupPeekAsReceive(_Tweaked):
    """Sends the lookup receive actions for peeks by lookup id (MS-MQRR 3.2.4.3:01)."""
    clause = "MS-MQRR:3.2.4.3:01"
    breaks = ("operation_sequences:action",)
    tweaked = STARTS

    def tweak(self, method, args):
        return dict(args, ulAction=RECEIVES.get(int(args["ulAction"]), args["ulAction"]))


class CursorPeekNextAsCurrent(_Tweaked):
    """Peeks at the cursor's current message when the application asks for the next (MS-MQRR 3.2.4.9:01)."""
    clause = "MS-MQRR:3.2.4.9:01"
    breaks = ("operation_sequences:cursor-next",)
    tweaked = STARTS

    def tweak(self, method, args):
        next_ = args["hCursor"] and args["ulAction"] == Action.MQ_ACTION_PEEK_NEXT
        return dict(args, ulAction=Action.MQ_ACTION_PEEK_CURRENT) if next_ else args


class TimeoutInSeconds(_Tweaked):
    """Sends ulTimeout in seconds, not milliseconds (MS-MQRR 3.2.4.11:01)."""
    clause = "MS-MQRR:3.2.4.11:01"
    breaks = ("operation_sequences:timeout",)
    tweaked = STARTS

    def tweak(self, method, args):
        return dict(args, ulTimeout=args["ulTimeout"] // 1000)


class MaxBodyIgnored(_Tweaked):
    """Asks for the whole body whatever the application wants (MS-MQRR 3.1.4.7:06)."""
    clause = "MS-MQRR:3.1.4.7:06"
    breaks = ("operation_sequences:max-body",)
    tweaked = STARTS

    def tweak(self, method, args):
        return dict(args, dwMaxBodySize=LARGEST)


class MaxCompoundIgnored(_Tweaked):
    """Asks for the whole compound message whatever the application wants (MS-MQRR 3.1.4.7:07)."""
    clause = "MS-MQRR:3.1.4.7:07"
    breaks = ("operation_sequences:max-compound",)
    tweaked = STARTS

    def tweak(self, method, args):
        return dict(args, dwMaxCompoundMessageSize=LARGEST)


class PeekEnded(RemoteReadClient):
    """Ends a peek with R_EndReceive and RR_ACK, as it ends a receive (MS-MQRR 3.2.4.3:01)."""
    clause = "MS-MQRR:3.2.4.3:01"
    breaks = ("operation_sequences:peek-not-ended",)

    def new_request_id(self):
        self.last_request_id = super().new_request_id()
        return self.last_request_id

    def read(self, queue, timeout, *, peek, **more):
        answer = super().read(queue, timeout, peek=peek, **more)
        if peek and answer["status"] == HRESULT.MQ_OK:
            super().end(self.queue(queue), False, Ack.RR_ACK, self.last_request_id)
        return answer


class PurgeTwice(RemoteReadClient):
    """Purges twice, to empty too what arrived while the first purge ran (MS-MQRR 3.2.4.7:01)."""
    clause = "MS-MQRR:3.2.4.7:01"
    breaks = ("operation_sequences:one-call",)

    def purge(self, queue):
        super().purge(queue)
        return super().purge(queue)


class CursorsLeftOpen(RemoteReadClient):
    """Cancels the reads waiting on a queue it closes but leaves its cursors to R_CloseQueue (MS-MQRR
    3.2.4.13:01)."""
    clause = "MS-MQRR:3.2.4.13:01"
    breaks = ("closed_waits_first:cursors",)

    def close(self, queue):
        self.queue(queue).cursors.clear()
        return super().close(queue)


VARIANTS = {
    "move-not-enlisted": MoveNotEnlisted, "enlist-stub-cut-short": EnlistStubCutShort,
    "enlist-zero-transaction-id": EnlistZeroTransactionId, "empty-propagation-token": EmptyPropagationToken,
    "enlist-naming-the-journal": EnlistNamingTheJournal, "transaction-id-swapped": TransactionIdSwapped,
    "transaction-ignored-in-receive": TransactionIgnoredInReceive,
    "first-transaction-id-zero": FirstTransactionIdZero, "reject-lookup-id-zero": RejectLookupIdZero,
    "reject-deferred-to-close": RejectDeferredToClose, "null-client-id": NullClientId,
    "routing-server-claimed": RoutingServerClaimed, "opens-twice": OpensTwice,
    "direct-tcp-opened-as-os": DirectTcpOpenedAsOs, "peek-opened-to-receive": PeekOpenedToReceive,
    "share-mode-ignored": ShareModeIgnored, "reads-through-first-handle": ReadsThroughFirstHandle,
    "peek-before-receive": PeekBeforeReceive, "cursor-receive-without-cursor": CursorReceiveWithoutCursor,
    "lookup-id-dropped": LookupIdDropped, "lookup-peek-as-receive": LookupPeekAsReceive,
    "cursor-peek-next-as-current": CursorPeekNextAsCurrent, "timeout-in-seconds": TimeoutInSeconds,
    "max-body-ignored": MaxBodyIgnored, "max-compound-ignored": MaxCompoundIgnored, "peek-ended": PeekEnded,
    "purge-twice": PurgeTwice, "cursors-left-open": CursorsLeftOpen,
}
