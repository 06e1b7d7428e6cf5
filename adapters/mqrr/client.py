"""The MS-MQRR client Target: every RemoteRead method by its RPC call, set-up by the control channel.

Theory of operation
-------------------
`MqrrTarget` is one client of a server reached over ncacn_ip_tcp.  Each Target
method that is an MS-MQRR method encodes its request (ndr), sends it on a
connection of the RemoteRead pool (connections; all in one association group,
so a blocking receive waits on its own connection while a cancel goes out on
another), and decodes the response.  A call the RPC runtime refused comes back
as its fault status in the result's hresult, never as an exception: the void
methods R_OpenQueue / R_OpenQueueForMove throw their HRESULT this way too.  A
NULL for a [ref] pointer cannot be marshalled; a real client stub refuses it
without sending anything, and so does this one (RPC_X_NULL_REF_POINTER).

Set-up and the capabilities (create queues, send, transactions, elapse,
restart, list messages) go through the control channel (control.py), a second
interface on the same port, through a pool of its own.  `connection()` is a
second client with its own association; `drop()` resets its connections, so
the server runs its context handles down.
"""

from __future__ import annotations

import dataclasses
import socket
import time
from collections.abc import Callable

from mqspec.protocol.constants import INFINITE
from mqspec.protocol.hresult import HRESULT, RpcStatus
from mqspec.protocol.idl import OPNUMS, REMOTE_READ_UUID

from ..target import (
    CLIENT_ID,
    CloseQueueOut,
    CreateCursorOut,
    CreateQueueOut,
    ListedMessage,
    ListMessagesOut,
    MessageProperties,
    OpenQueueForMoveOut,
    OpenQueueOut,
    SET_UP,
    SendOut,
    StartReceiveOut,
    Target,
    TargetCapabilityError,
)
from ..wire.capture import WireCapture
from ..wire.dcerpc_client import ConnectError, Credentials, Pool
from .control import CALL_TIMEOUT, CONTROL_UUID, CONTROL_VERSION, ControlClient, ControlError
from ..wire.dcerpc_offending import Offender
from .judging import plain
from .ndr import NullReference, StubError, decode_request, decode_response, encode_request
from ..wire.dcerpc_probe import probe_bind


_METHODS = {number: name for name, number in OPNUMS.items()}
DENIED = (RpcStatus.RPC_S_ACCESS_DENIED, 0x721)   # access denied; RPC_S_SEC_PKG_ERROR (an NTLM check failed)


def _denied(host: str, port: int, credentials: Credentials, status: int = RpcStatus.RPC_S_ACCESS_DENIED) -> str:
    """One line for a server that refuses who the client is or how it authenticates."""
    if status == DENIED[1]:
        return (f"{host}:{port} at auth level {credentials.auth_level}: a signature did not verify "
                "(RPC_S_SEC_PKG_ERROR): the server refused this client's, or its response failed this client's "
                "check (a server that signs or seals its responses wrongly)")
    if not credentials.user:
        return (f"{host}:{port} refuses unauthenticated calls (access denied); give a user: "
                "mqrr://HOST:PORT?user=NAME&password=...&auth=privacy")
    return (f"{host}:{port} refused user {credentials.user!r} at auth level {credentials.auth_level} (access "
            "denied): a wrong password or hash, a user it does not know, or a level below the one it requires")


class MqrrTarget(Target):

    def __init__(self, host: str, port: int, *, credentials: Credentials = Credentials(), ndr64: bool = False,
                 connect_timeout: float = 5.0, second: Credentials | None = None, _control: ControlClient | None = None,
                 _identity: dict | None = None) -> None:
        self.host, self.port = host, port
        self._options = dict(credentials=credentials, ndr64=ndr64, connect_timeout=connect_timeout)
        self._accounts = {c.user: c for c in (credentials, second) if c is not None and c.user}   # identities
        self.ndr64 = ndr64
        self.name = f"mqrr://{host}:{port}"
        self.capture = WireCapture("RemoteRead")   # this client's latest PDUs, for a failing scenario's evidence
        self._rr = Pool(host, port, (REMOTE_READ_UUID, "1.0"), **self._options, capture=self.capture)
        began = time.monotonic()
        self._rr.release(self._rr.acquire())   # fail now, in one line, if the server is not there
        # a call started on another thread reaches the server within a few round trips (connect and bind: 2)
        self.settle_seconds = max(0.05, 10 * (time.monotonic() - began))
        self._control = _control or ControlClient(
            Pool(host, port, (CONTROL_UUID, "%d.%d" % CONTROL_VERSION), **self._options), self.name)
        self._owns_control = _control is None
        try:
            identity = _identity or self._control.invoke("identity")
        except ConnectError:
            self._rr.close()
            raise ConnectError(f"{host}:{port} serves MS-MQRR but not the mqspec control interface that sets "
                               "scenes up (queues, sending, time); see docs/control.md") from None
        except ControlError as error:
            self._rr.close()
            if error.status not in DENIED:
                raise
            if self._control is not None and self._owns_control:
                self._control.close()
            raise ConnectError(_denied(host, port, credentials, error.status)) from None
        self._identity = identity
        self._first_port, self._moved = port, False   # restart_holding_ports() moves the server; close() undoes it
        self.name = f"mqrr://{host}:{port} ({identity['name']})"
        # the control interface sets every scene up (SET_UP): create, delete, send with its status, transactions
        self.capabilities = frozenset(identity["capabilities"]) | {"rpc", "drop_connection"} | SET_UP | (
            {"identities"} if len(self._accounts) == 2 else set()) | ({"authentication"} if credentials.user else set())
        self.send_insecure_nacks = identity["send_insecure_nacks"]

    # -- plumbing ---------------------------------------------------------------------------------
    def _rpc(self, method: str, args: dict, timeout: float | None = CALL_TIMEOUT) -> tuple[int | None, dict]:
        """(fault status or None, decoded outputs) of one RemoteRead call."""
        return self._start(method, args, timeout)()

    def _start(self, method: str, args: dict, timeout: float | None) -> Callable[[], tuple[int | None, dict]]:
        """Send one RemoteRead call now; the function returned waits for (fault status or None, decoded outputs)."""
        opnum = OPNUMS[method]
        try:
            stub = encode_request(opnum, args, self.ndr64)
        except NullReference:
            return lambda: (RpcStatus.RPC_X_NULL_REF_POINTER, {})   # the client stub refuses before sending
        answered = self._rr.start(opnum, stub, timeout)

        def outputs() -> tuple[int | None, dict]:
            status, answer = answered()
            self.last_fault = status
            if status is not None:
                return status, {}
            try:
                return None, decode_response(opnum, answer, self.ndr64)
            except StubError as error:
                return error.status, {}
        return outputs

    def _status(self, method: str, args: dict) -> int:
        fault, out = self._rpc(method, args)
        return fault if fault is not None else out["ReturnValue"]

    def _invoke(self, op: str, **args):
        return self._control.invoke(op, **args)

    # -- identity ---------------------------------------------------------------------------------
    @property
    def computer_name(self) -> str:
        return self._identity["computer_name"]

    @property
    def queue_manager_identifier(self) -> bytes:
        return self._identity["queue_manager_identifier"]

    @property
    def address(self) -> str:
        return socket.gethostbyname(self.host)   # the address this client reaches the server's computer at

    # -- MS-MQRR ----------------------------------------------------------------------------------
    def get_server_port(self) -> int:
        fault, out = self._rpc("R_GetServerPort", {})
        return 0 if fault is not None else out["ReturnValue"]   # MS-MQRR 3.1.4.1: 0 means failure

    def _open_args(self, p_queue_format, dw_access, dw_share_mode, p_client_id, f_non_routing_server, major, minor,
                   build_number, f_workgroup) -> dict:
        return {"pQueueFormat": p_queue_format, "dwAccess": dw_access, "dwShareMode": dw_share_mode,
                "pClientId": p_client_id, "fNonRoutingServer": f_non_routing_server, "Major": major, "Minor": minor,
                "BuildNumber": build_number, "fWorkgroup": f_workgroup}

    def open_queue(self, p_queue_format, dw_access, dw_share_mode, p_client_id=CLIENT_ID, f_non_routing_server=1,
                   major=6, minor=0, build_number=0, f_workgroup=0) -> OpenQueueOut:
        fault, out = self._rpc("R_OpenQueue", self._open_args(
            p_queue_format, dw_access, dw_share_mode, p_client_id, f_non_routing_server, major, minor, build_number,
            f_workgroup))
        return OpenQueueOut(fault) if fault is not None else OpenQueueOut(HRESULT.MQ_OK, out["pphContext"])

    def open_queue_for_move(self, p_queue_format, dw_access, dw_share_mode, p_client_id=CLIENT_ID,
                            f_non_routing_server=1, major=6, minor=0, build_number=0,
                            f_workgroup=0) -> OpenQueueForMoveOut:
        fault, out = self._rpc("R_OpenQueueForMove", self._open_args(
            p_queue_format, dw_access, dw_share_mode, p_client_id, f_non_routing_server, major, minor, build_number,
            f_workgroup))
        if fault is not None:
            return OpenQueueForMoveOut(fault)
        return OpenQueueForMoveOut(HRESULT.MQ_OK, out["pMoveContext"], out["pphContext"])

    def close_queue(self, pph_context: bytes) -> CloseQueueOut:
        fault, out = self._rpc("R_CloseQueue", {"pphContext": pph_context})
        return CloseQueueOut(fault, pph_context) if fault is not None else \
            CloseQueueOut(out["ReturnValue"], out["pphContext"])

    def create_cursor(self, ph_context: bytes) -> CreateCursorOut:
        fault, out = self._rpc("R_CreateCursor", {"phContext": ph_context})
        return CreateCursorOut(fault) if fault is not None else CreateCursorOut(out["ReturnValue"], out["phCursor"])

    def close_cursor(self, ph_context: bytes, h_cursor: int) -> int:
        return self._status("R_CloseCursor", {"phContext": ph_context, "hCursor": h_cursor})

    def purge_queue(self, ph_context: bytes) -> int:
        return self._status("R_PurgeQueue", {"phContext": ph_context})

    def _receive(self, method: str, args: dict) -> Callable[[], StartReceiveOut]:
        # a receive that may wait holds its connection as long as the server lets it wait
        answered = self._start(method, args, timeout=None if args["ulTimeout"] else CALL_TIMEOUT)

        def out() -> StartReceiveOut:
            fault, outputs = answered()
            if fault is not None:
                return StartReceiveOut(fault)
            return StartReceiveOut(outputs["ReturnValue"], outputs["pdwArriveTime"], outputs["pSequenceId"],
                                   outputs["pdwNumberOfSections"], outputs["ppPacketSections"])
        return out

    def enter_receive(self, method: str, *args) -> Callable[[], StartReceiveOut]:
        """The request is sent before this returns (Target.enter_receive); `mqspec serve` takes calls in the order
        they arrive, so a close or a cancel sent after it finds it waiting."""
        if method not in self.RECEIVES:
            raise ValueError(f"enter_receive: {method!r} is not one of {', '.join(self.RECEIVES)}")
        return self._receive_call(method, *args)

    def _receive_call(self, method, ph_context, lookup_id, h_cursor, ul_action, ul_timeout, dw_request_id,
                      dw_max_body_size, dw_max_compound_message_size, *transaction) -> Callable[[], StartReceiveOut]:
        args = {"phContext": ph_context, "LookupId": lookup_id, "hCursor": h_cursor, "ulAction": ul_action,
                "ulTimeout": ul_timeout, "dwRequestId": dw_request_id, "dwMaxBodySize": dw_max_body_size,
                "dwMaxCompoundMessageSize": dw_max_compound_message_size}
        if method == "start_transactional_receive":
            (args["pTransactionId"],) = transaction
            return self._receive("R_StartTransactionalReceive", args)
        return self._receive("R_StartReceive", args)

    def start_receive(self, ph_context, lookup_id, h_cursor, ul_action, ul_timeout, dw_request_id, dw_max_body_size,
                      dw_max_compound_message_size) -> StartReceiveOut:
        return self._receive_call("start_receive", ph_context, lookup_id, h_cursor, ul_action, ul_timeout,
                                  dw_request_id, dw_max_body_size, dw_max_compound_message_size)()

    def start_transactional_receive(self, ph_context, lookup_id, h_cursor, ul_action, ul_timeout, dw_request_id,
                                    dw_max_body_size, dw_max_compound_message_size,
                                    p_transaction_id) -> StartReceiveOut:
        return self._receive_call("start_transactional_receive", ph_context, lookup_id, h_cursor, ul_action,
                                  ul_timeout, dw_request_id, dw_max_body_size, dw_max_compound_message_size,
                                  p_transaction_id)()

    def cancel_receive(self, ph_context: bytes, dw_request_id: int) -> int:
        return self._status("R_CancelReceive", {"phContext": ph_context, "dwRequestId": dw_request_id})

    def end_receive(self, ph_context: bytes, dw_ack: int, dw_request_id: int) -> int:
        return self._status("R_EndReceive", {"phContext": ph_context, "dwAck": dw_ack, "dwRequestId": dw_request_id})

    def end_transactional_receive(self, ph_context: bytes, dw_ack: int, dw_request_id: int) -> int:
        return self._status("R_EndTransactionalReceive",
                            {"phContext": ph_context, "dwAck": dw_ack, "dwRequestId": dw_request_id})

    def move_message(self, ph_context_from, ull_context_to, lookup_id, p_transaction_id) -> int:
        return self._status("R_MoveMessage", {"phContextFrom": ph_context_from, "ullContextTo": ull_context_to,
                                              "LookupId": lookup_id, "pTransactionId": p_transaction_id})

    def qm_enlist_remote_transaction(self, p_transaction_id, cb_propagation_token, pb_propagation_token,
                                     p_queue_format) -> int:
        return self._status("R_QMEnlistRemoteTransaction", {
            "pTransactionId": p_transaction_id, "cbPropagationToken": cb_propagation_token,
            "pbPropagationToken": pb_propagation_token, "pQueueFormat": p_queue_format})

    def set_user_acknowledgement_class(self, ph_context: bytes, lookup_id: int, us_class: int) -> int:
        return self._status("R_SetUserAcknowledgementClass",
                            {"phContext": ph_context, "LookupId": lookup_id, "usClass": us_class})

    # -- set-up, through the control channel ------------------------------------------------------
    def create_queue(self, pathname: str, *, transactional: bool = False, quota: int = INFINITE,
                     journaling: bool = False, label: str = "", security: dict | None = None) -> CreateQueueOut:
        extra = {} if security is None else {"security": security}   # a server without identities is asked as before
        return CreateQueueOut(**self._invoke("create_queue", pathname=pathname, transactional=transactional,
                                             quota=quota, journaling=journaling, label=label, **extra))

    def delete_queue(self, format_name: str) -> int:
        return self._invoke("delete_queue", format_name=format_name)

    def send(self, format_name: str, properties: MessageProperties, transaction: bytes | None = None) -> SendOut:
        return SendOut(**self._invoke("send", format_name=format_name, properties=properties,
                                      transaction=transaction))

    def begin_transaction(self) -> bytes:
        return self._invoke("begin_transaction")

    def prepare_transaction(self, uow: bytes) -> int:
        return self._invoke("prepare_transaction", uow=uow)

    def commit_transaction(self, uow: bytes) -> int:
        return self._invoke("commit_transaction", uow=uow)

    def abort_transaction(self, uow: bytes) -> int:
        return self._invoke("abort_transaction", uow=uow)

    def elapse(self, ms: int) -> None:
        self._invoke("elapse", ms=ms)

    def run_in_real_time(self) -> None:
        self._invoke("run_in_real_time")

    def restart(self) -> None:
        self._invoke("restart")
        self._identity = self._invoke("identity")   # MS-MQDMPR:3.1.1:02 read again, never assumed to survive

    def configure(self, **settings: int) -> None:
        self._invoke("configure", **settings)

    def set_queue_manager_quota(self, quota: int) -> None:
        self._invoke("set_queue_manager_quota", quota=quota)

    def judge_calls(self) -> list[dict]:
        calls: list[dict] = []
        while page := self._invoke("judge_calls", since=len(calls)):   # the judge answers in pages
            calls += page
        return calls

    def judge_inject(self, method: str, kind: str, value: int = 0, skip: int = 0, times: int = 1) -> None:
        self._invoke("judge_inject", method=method, kind=kind, value=value, skip=skip, times=times)

    def judge_forget(self) -> None:
        self._invoke("judge_forget")

    def mqqb_connect(self):
        """A TCP connection to the MS-MQQB port the server announced (capability mqqb_peer)."""
        if "mqqb_peer" not in self.capabilities or not self._identity.get("mqqb_port"):
            return super().mqqb_connect()  # TargetCapabilityError: the server offers no MS-MQQB port
        from ..mqqb.tcp import TcpMqqbConnection
        return TcpMqqbConnection(self.host, self._identity["mqqb_port"])

    def restart_holding_ports(self, count: int) -> None:
        port = self._invoke("restart_holding_ports", count=count)   # the port RemoteRead is served on now
        self._move_to(port)
        self._moved = port != self._first_port
        self._identity = self._invoke("identity")

    def _move_to(self, port: int) -> None:
        """New connections go to `port`: this client's, and the control channel's of every client sharing it."""
        old_rr, old_control = self._rr, self._control.pool
        self._rr = Pool(self.host, port, (REMOTE_READ_UUID, "1.0"), **self._options, capture=self.capture)
        self._control.pool = Pool(self.host, port, (CONTROL_UUID, "%d.%d" % CONTROL_VERSION), **self._options)
        self.port = port
        old_rr.close()
        old_control.close()

    def reset(self) -> None:
        self._invoke("reset")
        self._identity = self._invoke("identity")   # a first start: a queue manager of its own identifier

    def list_messages(self, format_name: str) -> ListMessagesOut:
        out = self._invoke("list_messages", format_name=format_name)
        return ListMessagesOut(out["hresult"], tuple(ListedMessage(**message) for message in out["messages"]))

    # -- the RPC layer ------------------------------------------------------------------------------
    def rpc_call(self, opnum: int, stub: bytes) -> tuple[int | None, bytes]:
        status, answer = self._rr.call(opnum, stub, CALL_TIMEOUT)
        self.last_fault = status
        return status, answer

    def wire_evidence(self) -> list[dict]:
        """The RemoteRead PDUs of this client's latest calls, decoded (capture.py)."""
        def decode(opnum: int, kind: str, stub: bytes) -> dict:
            decoded = (decode_request if kind == "request" else decode_response)(opnum, stub, self.ndr64)
            return plain(decoded)
        pdus = self.capture.pdus(decode)
        for pdu in pdus:
            pdu["method"] = _METHODS.get(pdu.get("opnum"))
        return pdus

    def probe_bind(self, contexts, port: int | None = None):
        credentials = self._options["credentials"]
        return probe_bind(self.host, port or self.port, (REMOTE_READ_UUID, 1, 0), contexts,
                          credentials=credentials if credentials.user and credentials.auth_level != "none" else None)

    # -- clients ----------------------------------------------------------------------------------
    def connection(self, *, ndr64: bool | None = None) -> "MqrrTarget":
        options = dict(self._options, ndr64=self.ndr64 if ndr64 is None else ndr64)
        return MqrrTarget(self.host, self.port, **options, _control=self._control, _identity=self._identity)

    @property
    def identities(self) -> tuple[str, ...]:
        return tuple(self._accounts) if len(self._accounts) == 2 else ()

    def _identity_credentials(self, name: str, auth_level: str) -> Credentials:
        """The credentials of the account `name` at `auth_level` (as_identity, here and in msmq://)."""
        if "identities" not in self.capabilities:
            raise TargetCapabilityError(self.name, "identities")
        if name not in self._accounts or auth_level not in ("connect", "integrity", "privacy"):
            raise ValueError(f"an identity of {', '.join(self._accounts)} at connect, integrity or privacy, not "
                             f"{name!r} at {auth_level!r}")
        return dataclasses.replace(self._accounts[name], auth_level=auth_level)

    def as_identity(self, name: str, auth_level: str = "privacy") -> "MqrrTarget":
        options = dict(self._options, credentials=self._identity_credentials(name, auth_level))
        return MqrrTarget(self.host, self.port, **options, _control=self._control, _identity=self._identity)

    def offender(self, auth_level: str):
        account = self._options["credentials"]
        if "authentication" not in self.capabilities:
            raise TargetCapabilityError(self.name, "authentication")
        if auth_level not in ("none", "connect", "integrity", "privacy"):
            raise ValueError(f"an RPC level of none, connect, integrity or privacy, not {auth_level!r}")
        chosen = Credentials() if auth_level == "none" else dataclasses.replace(account, auth_level=auth_level)
        return Offender(self.host, self.port, (REMOTE_READ_UUID, "1.0"), chosen)

    def as_anonymous(self) -> "MqrrTarget":
        if "anonymous" not in self.capabilities:
            raise TargetCapabilityError(self.name, "anonymous")
        options = dict(self._options, credentials=Credentials())   # binds with no authentication at all
        return MqrrTarget(self.host, self.port, **options, _control=self._control, _identity=self._identity)

    def drop(self) -> None:
        self._rr.close(abrupt=True)
        self._await_rundown()

    def close(self) -> None:
        self._rr.close()
        self._await_rundown()
        if self._owns_control and self._moved:
            self._invoke("restart_holding_ports", count=0)   # back to the first port, where the next client looks
        if self._owns_control:
            self._control.close()

    def _await_rundown(self) -> None:
        """The server learns of a lost connection on its own time; wait until it has run this client down."""
        if self._rr.assoc_group:
            self._control.invoke("await_rundown", association=self._rr.assoc_group, timeout_ms=10_000)
