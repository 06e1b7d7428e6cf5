"""The shim of mqspec's own MS-MQRR client: `python -m mqspec.shims.mqrr` (docs/client-shim.md).

Theory of operation
-------------------
The client library here is MS-MQRR 3.2 written over the suite's wire client: the
DCE/RPC connections of adapters/wire/dcerpc_client.py (one association group, a
connection per call in flight) and the NDR codec of adapters/mqrr/ndr.py.  Its
abstract data model (3.2.1) is one SERIALIZE handle per open queue and a table
of cursors per handle; each application operation is the sequence of calls
section 3.2.4 gives it:

    open      R_OpenQueue, the handle kept                          3.2.4.1
    peek      R_StartReceive (a peek action), rebuild               3.2.4.3, 3.2.4.9
    receive   [enlist] R_Start[Transactional]Receive, rebuild,      3.2.4.4, 3.2.4.10
              R_End[Transactional]Receive with ACK, or NACK when the rebuild fails
    reject    R_SetUserAcknowledgementClass(NACK_RECEIVE_REJECTED)  3.2.4.5
    move      [enlist] R_OpenQueueForMove, R_MoveMessage, R_CloseQueue   3.2.4.6
    purge     R_PurgeQueue                                          3.2.4.7
    cursor    R_CreateCursor / R_CloseCursor (its waits cancelled first)  3.2.4.8, 3.2.4.12
    cancel    R_CancelReceive                                       3.2.4.11
    close     waits cancelled, cursors closed, R_CloseQueue         3.2.4.13

An operation the handle's access does not allow is refused here, before any
call (D-83).  A failed call's outputs are never used (MS-MQRR 3.1.4.2, 3.1.4.4).
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import sys
import threading
import uuid
from dataclasses import dataclass, field

from mqspec import __version__
from mqspec.adapters.wire.dcerpc_client import ConnectError, Credentials, Pool
from mqspec.adapters.mqrr.ndr import StubError, decode_response, encode_request
from mqspec.protocol.constants import Access, Ack, Action, MessageClass, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.idl import OPNUMS, REMOTE_READ_UUID
from mqspec.protocol.queue_format import from_format_name

from .rebuild import RebuildError, rebuild

VERSION = tuple(int(part) for part in __version__.split(".")[:2]) + (0,)   # Major, Minor, BuildNumber
LARGEST = 0x00400000         # MS-MQMQ 2.2.19.1: no packet is larger, so no body or compound message either
CALL_TIMEOUT = 120.0
ACCESS = {"receive": Access.RECEIVE_ACCESS, "peek": Access.PEEK_ACCESS}
SHARE = {"deny_none": ShareMode.MQ_DENY_NONE, "deny_receive": ShareMode.MQ_DENY_SHARE}
SEEK_PEEK = {"current": Action.MQ_LOOKUP_PEEK_CURRENT, "next": Action.MQ_LOOKUP_PEEK_NEXT,
             "prev": Action.MQ_LOOKUP_PEEK_PREV}
SEEK_RECEIVE = {"current": Action.MQ_LOOKUP_RECEIVE_CURRENT, "next": Action.MQ_LOOKUP_RECEIVE_NEXT,
                "prev": Action.MQ_LOOKUP_RECEIVE_PREV}


class Refused(Exception):
    """The application asked for something this client does not send: the status it gets instead."""

    def __init__(self, status: int) -> None:
        super().__init__(hex(status))
        self.status = status


@dataclass
class OpenQueue:
    handle: bytes
    format_name: str
    access: int
    cursors: dict = field(default_factory=dict)     # cursor name -> hCursor (MS-MQRR 3.2.1)


@dataclass
class Waiting:
    queue: str
    request_id: int
    cursor: str | None


class RemoteReadClient:
    """MS-MQRR 3.2: the client's abstract data model and its operations."""

    reject_class = MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED   # MS-MQRR 3.2.4.5

    def __init__(self, host: str, port: int) -> None:
        self.pool = Pool(host, port, (REMOTE_READ_UUID, "1.0"), credentials=Credentials())
        self.client_id = uuid.uuid4().bytes_le         # MS-MQRR 3.1.4.2: a GUID that identifies this client
        self.queues: dict[str, OpenQueue] = {}
        self.transactions: dict[str, bytes] = {}       # name -> XACTUOW
        self.enlisted: set[bytes] = set()
        self.waiting: dict[str, Waiting] = {}
        self.request_ids = itertools.count(1)
        self.lock = threading.Lock()

    # -- calls ---------------------------------------------------------------------------------
    def call(self, method: str, timeout: float | None = CALL_TIMEOUT, **args) -> tuple[int, dict]:
        """(status, outputs): a fault or a thrown HRESULT is the status, the outputs then empty (never used)."""
        opnum = OPNUMS[method]
        fault, answer = self.pool_for(method).call(opnum, self.stub(opnum, args), timeout)
        if fault is not None:
            return fault, {}
        try:
            out = decode_response(opnum, answer)
        except StubError as error:
            return error.status, {}
        return out.get("ReturnValue", HRESULT.MQ_OK), out

    # -- the seams a variant of this client changes (shims/wrong.py, shims/wrong_conditions.py) ---------
    def pool_for(self, method: str) -> Pool:
        return self.pool                        # MS-MQRR 2.2.4: one association group, where the handles live

    def stub(self, opnum: int, args: dict) -> bytes:
        return encode_request(opnum, args)

    def open_args(self, format_name: str, access: int, share: int) -> dict:
        try:
            queue_format = from_format_name(format_name)
        except ValueError:
            raise Refused(HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME) from None
        return {"pQueueFormat": queue_format, "dwAccess": access, "dwShareMode": share, "pClientId": self.client_id,
                "fNonRoutingServer": 1, "Major": VERSION[0], "Minor": VERSION[1], "BuildNumber": VERSION[2],
                "fWorkgroup": 1}   # MS-MQRR 3.1.4.2: not a routing server; not in a domain

    def new_request_id(self) -> int:
        with self.lock:
            return next(self.request_ids)   # MS-MQRR 3.1.4.7: unique, never reused while outstanding

    def permits(self, opened: OpenQueue) -> bool:
        """Whether the handle's access allows receiving, purging, moving (D-83: refused here otherwise)."""
        return opened.access == Access.RECEIVE_ACCESS

    def rebuild_message(self, out: dict) -> tuple[dict | None, int]:
        """(the message, or None when the sections do not make one; the dwAck that says so)."""
        try:
            return rebuild(out["ppPacketSections"], out["pSequenceId"]), Ack.RR_ACK
        except RebuildError:
            return None, Ack.RR_NACK            # MS-MQRR 3.2.4.4.1 step 2

    def end(self, opened: OpenQueue, transactional: bool, ack: int, request_id: int) -> int:
        """R_EndReceive or R_EndTransactionalReceive of a receive that returned a packet."""
        method = "R_EndTransactionalReceive" if transactional else "R_EndReceive"
        return self.call(method, phContext=opened.handle, dwAck=ack, dwRequestId=request_id)[0]

    def new_transaction_id(self) -> bytes:
        return os.urandom(16)                   # MS-MQRR 2.2.8: a unique random XACTUOW

    def cancel_waits(self, queue: str, cursor: str | None = None) -> None:
        """MS-MQRR 3.2.4.12, 3.2.4.13 SHOULD: reads waiting on the queue (or cursor) are cancelled first."""
        opened = self.queues[queue]
        for waiting in list(self.waiting.values()):
            if waiting.queue == queue and (cursor is None or waiting.cursor == cursor):
                self.call("R_CancelReceive", phContext=opened.handle, dwRequestId=waiting.request_id)

    def move_context(self, to: str) -> tuple[int, bytes | None]:
        """(pMoveContext of the destination, the handle to close after the move) (MS-MQRR 3.2.4.6)."""
        status, out = self.call("R_OpenQueueForMove", **self.open_args(to, Access.MQ_MOVE_ACCESS,
                                                                       ShareMode.MQ_DENY_NONE))
        if status != HRESULT.MQ_OK:
            raise Refused(status)
        return out["pMoveContext"], out["pphContext"]

    def queue(self, name: str) -> OpenQueue:
        if name not in self.queues:
            raise Refused(HRESULT.MQ_ERROR_INVALID_HANDLE)
        return self.queues[name]

    # -- operations (MS-MQRR 3.2.4) ------------------------------------------------------------
    def open(self, queue: str, format_name: str, access: str, share: str) -> dict:
        access_code = ACCESS[access]
        status, out = self.call("R_OpenQueue", **self.open_args(format_name, access_code, SHARE[share]))
        if status == HRESULT.MQ_OK:
            self.queues[queue] = OpenQueue(out["pphContext"], format_name, access_code)   # MS-MQRR 3.2.4.1
        return {"status": status}

    def close(self, queue: str) -> dict:
        opened = self.queue(queue)
        self.cancel_waits(queue)
        for cursor in list(opened.cursors):
            self.close_cursor(cursor)
        status, _ = self.call("R_CloseQueue", pphContext=opened.handle)
        del self.queues[queue]                             # MS-MQRR 3.2.4.13: forgotten either way
        return {"status": status}

    def read(self, queue: str, timeout: int, *, peek: bool, lookup_id: int | None = None, seek: str = "current",
             transaction: str | None = None, max_body: int | None = None, cursor: str | None = None,
             wait: str | None = None, **more) -> dict:
        opened = self.queue(queue)
        if not peek and not self.permits(opened):
            raise Refused(HRESULT.MQ_ERROR_ACCESS_DENIED)   # D-83: MS-MQRR 3.1.4.7 access must permit it
        h_cursor = opened.cursors[cursor] if cursor is not None else 0
        if lookup_id is not None:
            action, timeout = (SEEK_PEEK if peek else SEEK_RECEIVE)[seek], 0
        elif peek:
            action = Action.MQ_ACTION_PEEK_NEXT if more.get("next") else Action.MQ_ACTION_PEEK_CURRENT
        else:
            action = Action.MQ_ACTION_RECEIVE
        uow = None
        if transaction is not None and not peek:
            uow = self.enlist(transaction, opened.format_name)   # MS-MQRR 3.2.4.4.2 step 1
        request_id = self.new_request_id()
        if wait is not None:
            self.waiting[wait] = Waiting(queue, request_id, cursor)
        args = {"phContext": opened.handle, "LookupId": lookup_id or 0, "hCursor": h_cursor, "ulAction": action,
                "ulTimeout": timeout, "dwRequestId": request_id,   # MS-MQRR 3.1.4.7: what the application wants
                "dwMaxBodySize": LARGEST if max_body is None else max_body,
                "dwMaxCompoundMessageSize": more.get("max_compound", LARGEST)}
        try:
            if uow is not None:
                status, out = self.call("R_StartTransactionalReceive", None, pTransactionId=uow, **args)
            else:
                status, out = self.call("R_StartReceive", None, **args)
        finally:
            if wait is not None:
                self.waiting.pop(wait, None)
        if status != HRESULT.MQ_OK:
            return {"status": status}
        message, ack = self.rebuild_message(out)
        if peek:
            return {"status": HRESULT.MQ_OK, "message": message} if message else {"status": HRESULT.MQ_ERROR}
        ended = self.end(opened, uow is not None, ack, request_id)
        if message is None:
            return {"status": HRESULT.MQ_ERROR}
        if ended != HRESULT.MQ_OK and uow is not None:
            return {"status": ended}                     # MS-MQRR 3.2.4.4.2 step 5: End's error is passed on
        return {"status": HRESULT.MQ_OK, "message": message}   # 3.2.4.4.1 MAY: MQ_OK even when End fails

    def enlist(self, transaction: str, format_name: str) -> bytes:
        if transaction not in self.transactions:
            raise Refused(HRESULT.MQ_ERROR_TRANSACTION_USAGE)
        uow = self.transactions[transaction]
        if uow not in self.enlisted:                     # MS-MQRR 3.2.4.2: once, before the first use
            token = os.urandom(32)                       # this client's stand-in for an MS-DTCO propagation token
            status, _ = self.call("R_QMEnlistRemoteTransaction", pTransactionId=uow, cbPropagationToken=len(token),
                                  pbPropagationToken=token, pQueueFormat=from_format_name(format_name))
            if status != HRESULT.MQ_OK:
                raise Refused(status)
            self.enlisted.add(uow)
        return uow

    def cursor(self, queue: str, cursor: str) -> dict:
        opened = self.queue(queue)
        status, out = self.call("R_CreateCursor", phContext=opened.handle)
        if status == HRESULT.MQ_OK:
            opened.cursors[cursor] = out["phCursor"]    # MS-MQRR 3.2.4.8
        return {"status": status}

    def cursor_queue(self, cursor: str) -> str:
        for name, opened in self.queues.items():
            if cursor in opened.cursors:
                return name
        raise Refused(HRESULT.MQ_ERROR_INVALID_HANDLE)

    def close_cursor(self, cursor: str) -> dict:
        queue = self.cursor_queue(cursor)
        opened = self.queues[queue]
        self.cancel_waits(queue, cursor)
        status, _ = self.call("R_CloseCursor", phContext=opened.handle, hCursor=opened.cursors.pop(cursor))
        return {"status": status}

    def cancel(self, request: str) -> dict:
        waiting = self.waiting.get(request)
        if waiting is None:
            raise Refused(HRESULT.MQ_ERROR_INVALID_PARAMETER)
        status, _ = self.call("R_CancelReceive", phContext=self.queue(waiting.queue).handle,
                              dwRequestId=waiting.request_id)
        return {"status": status}

    def purge(self, queue: str) -> dict:
        opened = self.queue(queue)
        if not self.permits(opened):
            raise Refused(HRESULT.MQ_ERROR_ACCESS_DENIED)   # D-83: MS-MQRR 3.1.4.6
        status, _ = self.call("R_PurgeQueue", phContext=opened.handle)
        return {"status": status}

    def begin(self, transaction: str) -> dict:
        uow = self.new_transaction_id()
        self.transactions[transaction] = uow
        return {"status": HRESULT.MQ_OK, "transaction_id": uow.hex()}

    def reject(self, queue: str, lookup_id: int) -> dict:
        status, _ = self.call("R_SetUserAcknowledgementClass", phContext=self.queue(queue).handle,
                              LookupId=lookup_id, usClass=self.reject_class)
        return {"status": status}

    def move(self, queue: str, lookup_id: int, to: str, transaction: str | None = None) -> dict:
        opened = self.queue(queue)
        uow = self.enlist(transaction, to) if transaction is not None else bytes(16)   # MS-MQRR 3.2.4.6
        context, handle = self.move_context(to)
        status, _ = self.call("R_MoveMessage", phContextFrom=opened.handle, ullContextTo=context,
                              LookupId=lookup_id, pTransactionId=uow)
        if handle is not None:
            self.call("R_CloseQueue", pphContext=handle)
        return {"status": status}

    def bye(self) -> dict:
        for queue in list(self.queues):
            self.close(queue)
        self.pool.close()
        return {"status": HRESULT.MQ_OK}


class ShimLoop:
    """Requests in, replies out (docs/client-shim.md); reads that wait run on threads of their own."""

    def __init__(self, output, client_class=RemoteReadClient, name: str = f"mqspec-mqrr {__version__}") -> None:
        self.output, self.client_class, self.name = output, client_class, name
        self.client: RemoteReadClient | None = None
        self.write_lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def write(self, reply: dict) -> None:
        line = json.dumps({key: _jsonable(value) for key, value in reply.items()})
        with self.write_lock:
            self.output.write(line + "\n")
            self.output.flush()

    def handle(self, request: dict) -> dict | None:
        op, number = request.get("op"), request.get("id")
        args = {key: value for key, value in request.items() if key not in ("op", "id")}
        if op == "hello":
            self.client = self.client_class(args["server"], args["port"])
            return {"name": self.name, "version": list(VERSION), "workgroup": True,
                    "routing_server": False}
        if self.client is None:
            return {"error": f"{op} before hello"}
        if args.get("wait") is not None:
            worker = threading.Thread(target=lambda: self.write({"id": number, **self.run(op, args)}), daemon=True)
            self.threads.append(worker)
            self.write({"id": number, "pending": True})
            worker.start()
            return None
        return self.run(op, args)

    def run(self, op: str, args: dict) -> dict:
        client = self.client
        try:
            if op in ("peek", "receive"):
                return client.read(peek=op == "peek", **args)
            if op in ("cursor_peek", "cursor_receive"):
                return client.read(client.cursor_queue(args["cursor"]), peek=op == "cursor_peek", **args)
            if op in ("open", "close", "cursor", "close_cursor", "cancel", "purge", "begin", "reject", "move",
                      "bye"):
                return getattr(client, op)(**args)
        except Refused as refusal:
            return {"status": int(refusal.status)}
        except ConnectError as error:
            return {"status": HRESULT.MQ_ERROR, "note": str(error)}   # the server could not be reached
        except (TypeError, KeyError) as error:
            return {"error": f"{op}: arguments this shim cannot take ({error})"}
        return {"unimplemented": op}


def main(client_class=RemoteReadClient, name: str | None = None) -> int:
    loop = ShimLoop(sys.stdout, client_class, *([name] if name else []))
    for line in sys.stdin:
        request = json.loads(line)
        reply = loop.handle(request)
        if reply is not None:
            loop.write({"id": request.get("id"), **reply})
        if request.get("op") == "bye":
            return 0
    return 0


def _jsonable(value):
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else value


if __name__ == "__main__":
    sys.exit(main())
