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
its outputs are encoded.  A Start*Receive is entered in the hosted queue manager
by `admit`, on the server's loop in the order calls arrive, and only its wait
runs on a worker: a close or a cancel that arrives after it finds it waiting
(MS-MQDMPR 3.1.7.1.6), however late the worker starts.  The two `void` methods
(R_OpenQueue, R_OpenQueueForMove) report a failure as an RPC exception whose
status is the HRESULT (MS-MQRR 3.1.4.2, 3.1.4.11).

When an association's last connection goes, each handle it still owns is run
down (MS-MQRR 3.1.6.1, 3.1.6.2: cursors and queue closed, waiting reads
cancelled, two-phase-read messages made available again).  A waiting
Start*Receive whose connection is lost is cancelled as R_CancelReceive would.

Transactions an association enlists (R_QMEnlistRemoteTransaction) are bounded
(D-79): at most ENLISTMENTS of them per association; the ones no operation used
are released when the association ends, or once ``enlistment_timeout`` seconds
(of real time) have passed, so a client that enlists without end cannot make the
server keep without end.
"""

from __future__ import annotations

import struct
import threading
import time
from collections.abc import Callable

from mqspec.protocol.hresult import HRESULT, RpcStatus
from mqspec.protocol.idl import NULL_CONTEXT_HANDLE, OPNUMS, REMOTE_READ_UUID, REMOTE_READ_VERSION

from ..target import Target
from ..wire.dcerpc_server import Association, Call, Fault
from .ndr import StubError, decode_request, encode_response

_METHODS = {number: name for name, number in OPNUMS.items()}
_HANDLE_PARAMETERS = ("phContext", "phContextFrom")  # [in] QUEUE_CONTEXT_HANDLE_NOSERIALIZE
_UL_TIMEOUT = struct.Struct("<I")
_UL_TIMEOUT_OFFSET = 40  # MS-MQRR 6: phContext (20), LookupId (at 24, aligned 8), hCursor, ulAction, ulTimeout
_RECEIVE_ARGUMENTS = ("phContext", "LookupId", "hCursor", "ulAction", "ulTimeout", "dwRequestId", "dwMaxBodySize",
                      "dwMaxCompoundMessageSize")
_RECEIVES = {"R_StartReceive": ("start_receive", _RECEIVE_ARGUMENTS),   # method -> Target method, its arguments
             "R_StartTransactionalReceive": ("start_transactional_receive", (*_RECEIVE_ARGUMENTS, "pTransactionId"))}
ENLISTMENTS = 1024       # D-79: transactions one association may have enlisted and not yet seen released
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
        self._lock = threading.Condition()

    # -- the Interface of dcerpc_server ---------------------------------------------------------
    def call(self, call: Call) -> bytes:
        return self.admit(call)()

    def admit(self, call: Call) -> Callable[[], bytes]:
        """Decode the call, check its handles and start its method now (the server's loop calls this in the order
        calls arrive); the function returned waits for a Start*Receive's end and gives the response stub."""
        name = _METHODS.get(call.opnum)
        if name is None:
            raise Fault(RpcStatus.NCA_S_OP_RNG_ERROR)  # opnum 1 and anything past 15
        try:
            args = decode_request(call.opnum, call.stub, call.ndr64)
        except StubError as error:
            raise Fault(error.status) from None
        outputs = self.begin(call, name, args)
        return lambda: encode_response(call.opnum, outputs(), call.ndr64)

    def begin(self, call: Call, name: str, args: dict) -> Callable[[], dict]:
        """Start the method `name` on its decoded arguments (Fault for an RPC exception); the function returned
        gives its outputs, once a Start*Receive has ended."""
        owned = self._owned(call.association)   # also marks the association live until it ends
        for parameter in _HANDLE_PARAMETERS:
            if parameter in args and args[parameter] not in owned:
                raise Fault(RpcStatus.NCA_S_FAULT_CONTEXT_MISMATCH)  # [C706] 5.1.6 strict context handles
        if name in _RECEIVES:   # entered now, in arrival order: MS-MQDMPR 3.1.7.1.6 a later close cancels it
            method, names = _RECEIVES[name]
            wait = self.target.enter_receive(method, *(args[key] for key in names))
            return lambda: _receive_out(wait())
        method = getattr(self, "_" + name.lower())
        if name in ("R_OpenQueue", "R_OpenQueueForMove"):   # MS-MQRR:2.1:03 where the caller's identity is used
            out = method(call.association, owned, args, self._caller(call))
        else:
            out = method(call.association, owned, args)
        return lambda: out

    def may_block(self, opnum: int, stub: bytes) -> bool:
        """A Start*Receive with a non-zero ulTimeout may wait (MS-MQRR 3.1.4.7)."""
        if opnum not in (OPNUMS["R_StartReceive"], OPNUMS["R_StartTransactionalReceive"]):
            return False
        return len(stub) >= _UL_TIMEOUT_OFFSET + 4 and _UL_TIMEOUT.unpack_from(stub, _UL_TIMEOUT_OFFSET)[0] != 0

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
        out = self.target.calling_as(caller).open_queue(args["pQueueFormat"], args["dwAccess"], args["dwShareMode"],
                                     args["pClientId"], args["fNonRoutingServer"], args["Major"], args["Minor"],
                                     args["BuildNumber"], args["fWorkgroup"])
        if out.hresult != HRESULT.MQ_OK:
            raise Fault(out.hresult)  # MS-MQRR 3.1.4.2: a void method throws its status
        self._own(association, out.pph_context)
        return {"pphContext": out.pph_context}

    def _r_openqueueformove(self, association, owned, args, caller=None):
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
        return {"pphContext": out.pph_context, "ReturnValue": out.hresult}

    def _r_createcursor(self, association, owned, args):
        out = self.target.create_cursor(args["phContext"])
        return {"phCursor": out.ph_cursor, "ReturnValue": out.hresult}

    def _r_closecursor(self, association, owned, args):
        return {"ReturnValue": self.target.close_cursor(args["phContext"], args["hCursor"])}

    def _r_purgequeue(self, association, owned, args):
        return {"ReturnValue": self.target.purge_queue(args["phContext"])}

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
