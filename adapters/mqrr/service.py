"""RemoteRead on the wire: MS-MQRR calls decoded, checked as an RPC runtime would, and run on a Target.

Theory of operation
-------------------
The DCE/RPC server hands each request of the RemoteRead interface here with the
association group it came on.  The stub is decoded (ndr); a stub that does not
decode, or breaks an IDL range(), is refused with the runtime's fault status
before any method runs (MS-MQRR 3.1.4, 6).  Context handles are minted by the
hosted target and owned by the association that opened them: every [in] handle
must be one this association owns, otherwise the call faults with
nca_s_fault_context_mismatch, as [C706] 5.1.6 has the runtime do for a strict
context handle it does not know.  Then the method runs on the hosted Target and
its outputs are encoded.  The two `void` methods (R_OpenQueue,
R_OpenQueueForMove) report a failure as an RPC exception whose status is the
HRESULT (MS-MQRR 3.1.4.2, 3.1.4.11).

When an association's last connection goes, each handle it still owns is run
down (MS-MQRR 3.1.6.1, 3.1.6.2: cursors and queue closed, waiting reads
cancelled, two-phase-read messages made available again).  A waiting
Start*Receive whose connection is lost is cancelled as R_CancelReceive would.
A Start*Receive that must wait holds no thread: the hosted (in-process) target
hands its outputs on when the wait ends (start_receive_later) and the call
answers the server with a Pending it settles then.

Context handles and cursors are bounded per association (D-123: HANDLES, CURSORS):
past them R_OpenQueue and R_OpenQueueForMove throw, and R_CreateCursor returns,
MQ_ERROR_INSUFFICIENT_RESOURCES, so one client cannot make the server keep without
end.  Transactions an association enlists (R_QMEnlistRemoteTransaction) are bounded
(D-79): at most ENLISTMENTS of them per association; the ones no operation used
are released when the association ends, or once ``enlistment_timeout`` seconds
(of real time) have passed, so a client that enlists without end cannot make the
server keep without end.
"""

from __future__ import annotations

import threading
import time

from mqspec.protocol.hresult import HRESULT, RpcStatus
from mqspec.protocol.idl import NULL_CONTEXT_HANDLE, OPNUMS, REMOTE_READ_UUID, REMOTE_READ_VERSION

from ..target import Target
from ..wire.dcerpc_server import Association, Call, Fault, Pending
from .ndr import StubError, decode_request, encode_response

_METHODS = {number: name for name, number in OPNUMS.items()}
_HANDLE_PARAMETERS = ("phContext", "phContextFrom")  # [in] QUEUE_CONTEXT_HANDLE_NOSERIALIZE
ENLISTMENTS = 1024       # D-79: transactions one association may have enlisted and not yet seen released
HANDLES = 4096           # D-123: context handles one association may hold open at once
CURSORS = 4096           # D-123: cursors one association may hold open at once, over all its handles
ENLISTMENT_TIMEOUT = 600.0   # D-79: seconds after which an enlistment no operation used is released


class RemoteReadService:
    uuid = REMOTE_READ_UUID
    version = REMOTE_READ_VERSION

    def __init__(self, target: Target, port: int = 0, *, enlistment_timeout: float = ENLISTMENT_TIMEOUT,
                 authenticated: bool = False) -> None:
        self.target = target
        self.authenticated = authenticated   # the server has accounts: callers are identified, access lists apply
        self.port = port   # the port this server listens on: what R_GetServerPort answers
        self.enlistment_timeout = enlistment_timeout
        self._handles: dict[int, set[bytes]] = {}   # association group id -> the context handles it owns
        self._enlisted: dict[int, dict[bytes, float]] = {}   # association group id -> XACTUOW -> when enlisted
        self._cursors: dict[int, set[tuple[bytes, int]]] = {}   # association group id -> its (handle, cursor)s
        self._lock = threading.Condition()

    # -- the Interface of dcerpc_server ---------------------------------------------------------
    def call(self, call: Call) -> bytes:
        name = _METHODS.get(call.opnum)
        if name is None:
            raise Fault(RpcStatus.NCA_S_OP_RNG_ERROR)  # opnum 1 and anything past 15
        try:
            args = decode_request(call.opnum, call.stub, call.ndr64)
        except StubError as error:
            raise Fault(error.status) from None
        out = self.run(call, name, args)
        if isinstance(out, Pending):   # a receive that waits: encoded once it ends
            return out.then(lambda done: encode_response(call.opnum, done, call.ndr64))
        return encode_response(call.opnum, out, call.ndr64)

    def run(self, call: Call, name: str, args: dict) -> dict:
        """The method `name` on its decoded arguments: its outputs (Fault for an RPC exception)."""
        owned = self._owned(call.association)   # also marks the association live until it ends
        for parameter in _HANDLE_PARAMETERS:
            if parameter in args and args[parameter] not in owned:
                raise Fault(RpcStatus.NCA_S_FAULT_CONTEXT_MISMATCH)  # [C706] 5.1.6 strict context handles
        method = getattr(self, "_" + name.lower())
        if name in ("R_OpenQueue", "R_OpenQueueForMove"):   # MS-MQRR:2.1:03 where the caller's identity is used
            return method(call.association, owned, args, self._caller(call))
        return method(call.association, owned, args)

    def may_block(self, opnum: int, stub: bytes) -> bool:
        """No RemoteRead call blocks a thread: a Start*Receive that must wait (MS-MQRR 3.1.4.7) returns a Pending."""
        return False

    def call_abandoned(self, call: Call) -> None:
        """The client went away (or cancelled) while its receive waited: cancel it as R_CancelReceive."""
        try:
            args = decode_request(call.opnum, call.stub, call.ndr64)
        except StubError:
            return
        if args["phContext"] in self._owned(call.association):
            self.target.cancel_receive(args["phContext"], args["dwRequestId"])

    def holds_state(self, association: Association) -> bool:
        """Whether the association owns context handles or enlistments (then its idle connections are kept)."""
        with self._lock:
            return bool(self._handles.get(association.id)) or bool(self._enlisted.get(association.id))

    def association_ended(self, association: Association) -> None:
        with self._lock:
            handles = self._handles.get(association.id, set())
            enlisted = self._enlisted.pop(association.id, {})
            self._cursors.pop(association.id, None)
        for handle in list(handles):
            self.target.rundown(handle)  # MS-MQRR 3.1.6.2
        for uow in enlisted:
            self.target.release_unused_transaction(uow)   # D-79
        with self._lock:
            self._handles.pop(association.id, None)
            self._lock.notify_all()

    def tick(self, now: float) -> None:
        """D-79: release the enlistments no operation used within the enlistment time-out (real time)."""
        stale = []
        with self._lock:
            for association_id, enlisted in self._enlisted.items():
                for uow, since in list(enlisted.items()):
                    if now - since >= self.enlistment_timeout:
                        del enlisted[uow]
                        stale.append(uow)
        for uow in stale:
            self.target.release_unused_transaction(uow)

    def await_association_end(self, association_id: int, timeout_ms: int) -> bool:
        """Wait until the association has been run down (or never called here); False on time-out."""
        with self._lock:
            return self._lock.wait_for(lambda: association_id not in self._handles, timeout_ms / 1000)

    def forget_all(self) -> None:
        """The hosted queue manager restarted: no handle of before means anything now."""
        with self._lock:
            self._handles.clear()
            self._enlisted.clear()
            self._cursors.clear()

    def _owned(self, association: Association) -> set:
        with self._lock:
            return self._handles.setdefault(association.id, set())

    def _own(self, association: Association, handle: bytes) -> None:
        with self._lock:
            self._handles.setdefault(association.id, set()).add(handle)

    # -- the methods, opnums 0 and 2-15 -----------------------------------------------------------
    def _r_getserverport(self, association, owned, args):
        return {"ReturnValue": self.port}  # MS-MQRR 3.1.4.1: the port this interface is served on

    def _caller(self, call: Call) -> tuple[str | None, int] | None:
        """Who the call is from, as the hosted queue manager judges access lists (D-81): (account, RPC level),
        (None, 1) for a call with no security context (Anonymous Logon), None on a server that authenticates
        nobody (no list is checked)."""
        if not self.authenticated:
            return None
        identity = call.identity
        return (identity.user, identity.auth_level) if identity is not None else (None, 1)

    def _r_openqueue(self, association, owned, args, caller=None):
        if len(owned) >= HANDLES:
            raise Fault(HRESULT.MQ_ERROR_INSUFFICIENT_RESOURCES)   # D-123 (a void method throws its status)
        out = self.target.calling_as(caller).open_queue(args["pQueueFormat"], args["dwAccess"], args["dwShareMode"],
                                     args["pClientId"], args["fNonRoutingServer"], args["Major"], args["Minor"],
                                     args["BuildNumber"], args["fWorkgroup"])
        if out.hresult != HRESULT.MQ_OK:
            raise Fault(out.hresult)  # MS-MQRR 3.1.4.2: a void method throws its status
        self._own(association, out.pph_context)
        return {"pphContext": out.pph_context}

    def _r_openqueueformove(self, association, owned, args, caller=None):
        if len(owned) >= HANDLES:
            raise Fault(HRESULT.MQ_ERROR_INSUFFICIENT_RESOURCES)   # D-123
        out = self.target.calling_as(caller).open_queue_for_move(args["pQueueFormat"], args["dwAccess"], args["dwShareMode"],
                                              args["pClientId"], args["fNonRoutingServer"], args["Major"],
                                              args["Minor"], args["BuildNumber"], args["fWorkgroup"])
        if out.hresult != HRESULT.MQ_OK:
            raise Fault(out.hresult)  # MS-MQRR 3.1.4.11
        self._own(association, out.pph_context)
        return {"pMoveContext": out.p_move_context, "pphContext": out.pph_context}

    def _r_closequeue(self, association, owned, args):
        handle = args["pphContext"]
        if handle != NULL_CONTEXT_HANDLE and handle not in owned:
            raise Fault(RpcStatus.NCA_S_FAULT_CONTEXT_MISMATCH)  # a NULL [in, out] handle reaches the method
        out = self.target.close_queue(handle)
        if out.hresult == HRESULT.MQ_OK:
            with self._lock:
                owned.discard(handle)
                cursors = self._cursors.get(association.id)
                if cursors:   # MS-MQDMPR:3.1.7.1.6:02 closing the queue closed its cursors
                    cursors.difference_update([pair for pair in cursors if pair[0] == handle])
        return {"pphContext": out.pph_context, "ReturnValue": out.hresult}

    def _r_createcursor(self, association, owned, args):
        with self._lock:
            cursors = self._cursors.setdefault(association.id, set())
            if len(cursors) >= CURSORS:   # D-123: the association's bound
                return {"phCursor": 0, "ReturnValue": HRESULT.MQ_ERROR_INSUFFICIENT_RESOURCES}
        out = self.target.create_cursor(args["phContext"])
        if out.hresult == HRESULT.MQ_OK:
            with self._lock:
                cursors.add((args["phContext"], out.ph_cursor))
        return {"phCursor": out.ph_cursor, "ReturnValue": out.hresult}

    def _r_closecursor(self, association, owned, args):
        status = self.target.close_cursor(args["phContext"], args["hCursor"])
        if status == HRESULT.MQ_OK:
            with self._lock:
                self._cursors.get(association.id, set()).discard((args["phContext"], args["hCursor"]))
        return {"ReturnValue": status}

    def _r_purgequeue(self, association, owned, args):
        return {"ReturnValue": self.target.purge_queue(args["phContext"])}

    def _r_startreceive(self, association, owned, args):
        return self._receive("start_receive", args["phContext"], args["LookupId"], args["hCursor"],
                             args["ulAction"], args["ulTimeout"], args["dwRequestId"], args["dwMaxBodySize"],
                             args["dwMaxCompoundMessageSize"])

    def _r_starttransactionalreceive(self, association, owned, args):
        return self._receive("start_transactional_receive", args["phContext"], args["LookupId"], args["hCursor"],
                             args["ulAction"], args["ulTimeout"], args["dwRequestId"], args["dwMaxBodySize"],
                             args["dwMaxCompoundMessageSize"], args["pTransactionId"])

    def _receive(self, method: str, *arguments):
        """The outputs of a Start*Receive, or a Pending settled when its wait ends (no thread waits for it)."""
        pending = Pending()
        out = getattr(self.target, method + "_later")(lambda done: pending.settle(lambda: _receive_out(done)),
                                                      *arguments)
        return pending if out is None else _receive_out(out)

    def _r_cancelreceive(self, association, owned, args):
        return {"ReturnValue": self.target.cancel_receive(args["phContext"], args["dwRequestId"])}

    def _r_endreceive(self, association, owned, args):
        return {"ReturnValue": self.target.end_receive(args["phContext"], args["dwAck"], args["dwRequestId"])}

    def _r_endtransactionalreceive(self, association, owned, args):
        return {"ReturnValue": self.target.end_transactional_receive(args["phContext"], args["dwAck"],
                                                                       args["dwRequestId"])}

    def _r_movemessage(self, association, owned, args):
        return {"ReturnValue": self.target.move_message(args["phContextFrom"], args["ullContextTo"],
                                                          args["LookupId"], args["pTransactionId"])}

    def _r_qmenlistremotetransaction(self, association, owned, args):
        uow = args["pTransactionId"]
        with self._lock:
            enlisted = self._enlisted.setdefault(association.id, {})
            known = uow in enlisted
        if not known and len(enlisted) >= ENLISTMENTS:
            self._prune(enlisted)
            if len(enlisted) >= ENLISTMENTS:   # D-79: the association's bound
                return {"ReturnValue": HRESULT.MQ_ERROR_INSUFFICIENT_RESOURCES}
        status = self.target.qm_enlist_remote_transaction(
            uow, args["cbPropagationToken"], args["pbPropagationToken"], args["pQueueFormat"])
        if status == HRESULT.MQ_OK and not known:
            with self._lock:
                enlisted[uow] = time.monotonic()
        return {"ReturnValue": status}

    def _prune(self, enlisted: dict) -> None:
        """Forget the association's enlistments that are over (committed, aborted or released): at the bound,
        only those that still exist count."""
        for uow in list(enlisted):
            if not self.target.transaction_exists(uow):
                with self._lock:
                    enlisted.pop(uow, None)

    def _r_setuseracknowledgementclass(self, association, owned, args):
        return {"ReturnValue": self.target.set_user_acknowledgement_class(args["phContext"], args["LookupId"],
                                                                            args["usClass"])}


def _receive_out(out) -> dict:
    return {"pdwArriveTime": out.pdw_arrive_time, "pSequenceId": out.p_sequence_id,
            "pdwNumberOfSections": out.pdw_number_of_sections, "ppPacketSections": out.pp_packet_sections,
            "ReturnValue": out.hresult}
