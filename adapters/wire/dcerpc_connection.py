"""One TCP connection of the DCE/RPC server: its state machine, driven by the server's event loop.

The theory of operation (states, what each PDU does in each, the deadlines) is in
dcerpc_server's module docstring.  Everything here runs on the loop thread except
a call whose Interface says ``may_block``: that one runs on a worker, which hands
its reply back through ``server.post`` (``worker_done`` then runs on the loop).
Nothing here blocks: sends go into an output buffer the loop flushes, and a
connection that is closed while its worker still runs is finished when the worker
returns (or when it overstays its deadline), so that its association is run down
after its last call.
"""

from __future__ import annotations

import socket
import struct
import traceback

from mqspec.protocol.hresult import RpcStatus, describe

from . import dcerpc_pdu as pdu_
from .dcerpc_auth import AuthFailure, SecurityContext, parse_trailer
from .dcerpc_negotiation import frag_size, negotiate
from .dcerpc_pdu import (
    ALTER_CONTEXT,
    AUTH3,
    BIND,
    CO_CANCEL,
    FRAME,
    MAX_FRAG,
    ORPHANED,
    PFC_DID_NOT_EXECUTE,
    PFC_FIRST_FRAG,
    PFC_LAST_FRAG,
    PFC_OBJECT_UUID,
    PFC_PENDING_CANCEL,
    PFC_SUPPORT_HEADER_SIGN,
    REQUEST,
    REQUEST_FIELDS,
    PduError,
)
from .dcerpc_types import (
    FORBIDDEN_FAULT_STATUSES,
    NCA_S_FAULT_REMOTE_NO_MEMORY,
    NCA_S_FAULT_UNSPEC,
    NCA_S_UNSUPPORTED_TYPE,
    NOT_EXECUTED_STATUSES,
    Call,
    Drop,
    Fault,
)

RECV_SIZE = 65536              # one recv can hold a whole frag_length (u16) PDU
OUTPUT_HIGH = 1 << 20          # replies waiting for a client that does not read: stop reading its requests
LINGER_SECONDS = 2.0           # after a last fault/bind_nak: how long to drain input so close() sends FIN, not RST
LINGER_BYTES = 1 << 20
NCA_S_SERVER_TOO_BUSY = RpcStatus.NCA_S_SERVER_TOO_BUSY
PROTO_ERROR = RpcStatus.NCA_S_PROTO_ERROR
SEC_PKG_ERROR = 0x721          # RPC_S_SEC_PKG_ERROR: what Windows faults an authentication failure with


class _Running:
    """A call on a worker thread."""
    __slots__ = ("call", "call_id", "cancel_count", "iface", "notified", "orphaned", "p_cont_id")

    def __init__(self, call, iface, call_id, p_cont_id):
        self.call, self.iface, self.call_id, self.p_cont_id = call, iface, call_id, p_cont_id
        self.cancel_count, self.orphaned, self.notified = 0, False, False


class _Reassembly:
    """A request whose PFC_LAST_FRAG has not arrived yet ([C706] 12.6.4.9)."""
    __slots__ = ("call_id", "cancelled", "drep_ok", "opnum", "p_cont_id", "started", "stub")

    def __init__(self, call_id, p_cont_id, opnum, drep_ok, stub, cancelled, started):
        self.call_id, self.p_cont_id, self.opnum, self.drep_ok = call_id, p_cont_id, opnum, drep_ok
        self.stub, self.cancelled, self.started = bytearray(stub), cancelled, started


class Connection:
    def __init__(self, server, sock: socket.socket, peer, connection_id: int, now: float):
        self.server, self.sock, self.peer, self.id = server, sock, peer, connection_id
        self.group = None                     # the server's _Group once bound
        self.contexts = {}                    # p_cont_id -> (Interface, ndr64)
        self.security = None                  # dcerpc_auth.SecurityContext of an authenticated bind
        self.bound = False
        self.max_xmit_frag = pdu_.MUST_RECV_FRAG_SIZE
        self.max_recv_frag = MAX_FRAG
        self.buf, self.pos = b"", 0           # bytes received and not yet framed
        self.reassembly = None
        self.discard_call_id = None           # a refused multi-fragment call whose tail is skipped
        self.active = None                    # _Running on a worker
        self.current = None                   # the inline Call in progress (for stats)
        self.output = bytearray()             # replies not yet written
        self.events = 0                       # what the loop's selector watches for (selectors.EVENT_*)
        self.closing = False                  # no more PDUs are read or answered
        self.closed = False                   # socket closed; waiting (perhaps) for a worker to return
        self.finished = False                 # the server has forgotten it
        self.linger = False                   # a last fault/bind_nak was sent: drain before close
        self.lingering_since = None
        self.lingered = 0
        self.reason = ""
        self.pdus = 0
        # deadlines (monotonic seconds, or None)
        self.accepted = now
        self.pdu_started = None               # the first byte of a PDU not yet whole
        self.held_since = None                # a request waits for an orphaned call to end
        self.output_since = None              # replies pending without progress since
        self.idle_since = now                 # no call, no input, no output since
        self.closed_at = None

    # -- reading -------------------------------------------------------------------------------
    def readable(self, now: float) -> None:
        try:
            chunk = self.sock.recv(RECV_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            self.close(self._lost(f"connection lost ({exc.strerror or exc})"))
            return
        if self.linger:
            self.lingered += len(chunk)
            if not chunk or self.lingered >= LINGER_BYTES:
                self.finish()
            return
        if not chunk:
            self.close(self._lost("closed by the client" + (" mid-PDU" if len(self.buf) > self.pos else "")))
            return
        self.idle_since = now
        self.buf = self.buf[self.pos:] + chunk if self.pos < len(self.buf) else chunk
        self.pos = 0
        self.process(now)

    def process(self, now: float) -> None:
        """Frame and handle every whole PDU in the buffer (until the connection closes or must wait)."""
        buf = self.buf
        while not self.closing:
            pos = self.pos
            avail = len(buf) - pos
            if avail < 16:
                break
            int_rep = buf[pos + 4] >> 4
            if buf[pos] != pdu_.RPC_VERS or buf[pos + 1] not in pdu_.RPC_VERS_MINORS or int_rep > 1:
                self.close(self._bad_version(buf, pos))
                return
            little = int_rep == 1
            frag_length, auth_length, call_id = FRAME[little].unpack_from(buf, pos + 8)
            ptype = buf[pos + 2]
            if frag_length < 16:          # the stream cannot be framed any further
                self.close(f"frag_length {frag_length} below the common header")
                return
            if frag_length > MAX_FRAG and ptype != BIND and ptype != ALTER_CONTEXT:
                # Samba (tested against Windows) answers this proto_error and disconnects.
                self.close(self._fatal(call_id, 0, PROTO_ERROR, f"frag_length {frag_length} above max_recv_frag"))
                return
            if avail < frag_length:
                break
            if ptype == REQUEST and buf[pos + 3] & PFC_FIRST_FRAG and self.active is not None \
                    and self.active.orphaned:
                self.held_since = self.held_since or now
                return                    # wait: the orphaned call was told to stop; worker_done resumes here
            self.held_since = None
            pdu = buf if (pos == 0 and avail == frag_length) else buf[pos:pos + frag_length]
            self.pos = pos + frag_length
            self.pdus += 1
            if ptype == REQUEST:
                reason = self._on_request(pdu, little, frag_length, auth_length, call_id, now)
            else:
                reason = self._on_other(pdu, ptype, little, frag_length, auth_length, call_id)
            if reason is not None:
                self.close(reason)
                return
        self.pdu_started = (self.pdu_started or now) if len(buf) > self.pos else None
        if self.pos == len(buf):
            self.buf, self.pos = b"", 0

    def _lost(self, reason: str) -> str:
        if self.server.stopping:
            return "server stopped"
        return reason

    def _bad_version(self, buf: bytes, pos: int) -> str:
        # [C706] 12.6.4.5: a bind in a version we lack gets bind_nak listing the versions we serve;
        # anything else cannot be framed (frag_length is only defined for 5.x), so we just close.
        if buf[pos + 2] == BIND:
            call_id = FRAME[True].unpack_from(buf, pos + 8)[2]
            self._final(pdu_.bind_nak(call_id, pdu_.NAK_PROTOCOL_VERSION_NOT_SUPPORTED))
        return f"rpc_vers {buf[pos]}.{buf[pos + 1]}, packed_drep {buf[pos + 4]:#04x}: not a 5.0/5.1 PDU"

    # -- writing -------------------------------------------------------------------------------
    def send(self, data: bytes) -> None:
        """Write `data` now as far as the socket takes it; the loop writes the rest."""
        if self.closed or (self.closing and not self.linger):
            return
        if not self.output:
            try:
                sent = self.sock.send(data)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError as exc:   # reset: the reader sees it next
                self.close(f"send failed ({exc.strerror or exc})")
                return
            if sent == len(data):
                return
            data = data[sent:]
            self.output_since = self.server.now()
        self.output += data
        self.server.watch(self)

    def writable(self, now: float) -> None:
        try:
            sent = self.sock.send(self.output)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            self.output.clear()
            self.close(f"send failed ({exc.strerror or exc})")
            return
        del self.output[:sent]
        self.output_since = now if self.output else None
        if not self.output and self.linger and self.lingering_since is None:
            self._start_linger(now)
        self.server.watch(self)

    def wants_read(self) -> bool:
        return not self.closed and len(self.output) < OUTPUT_HIGH and (not self.closing or self.linger)

    def wants_write(self) -> bool:
        return not self.closed and bool(self.output)

    def _final(self, data: bytes) -> None:
        self.send(data)
        self.linger = True

    def _fatal(self, call_id: int, p_cont_id: int, status: int, why: str, flags: int = PFC_DID_NOT_EXECUTE) -> str:
        """Answer a fault, then close: the protocol errors after which the stream is not trusted."""
        self._final(pdu_.fault(call_id, p_cont_id, status, flags))
        return f"{why} -> fault {describe(status)}"

    def _nak(self, call_id: int, reason: int, why: str) -> str:
        # bind_nak ends the connection (as Samba, tested against Windows, does after every nak).
        self._final(pdu_.bind_nak(call_id, reason))
        return f"{why} -> bind_nak reason {reason}"

    # -- requests ------------------------------------------------------------------------
    def _on_request(self, pdu, little, frag_length, auth_length, call_id, now) -> str | None:
        flags = pdu[3]
        stub_start = pdu_.REQUEST_HEADER + (16 if flags & PFC_OBJECT_UUID else 0)
        if not self.bound:
            return self._fatal(call_id, 0, PROTO_ERROR, "request before bind")
        if frag_length < stub_start:
            return self._fatal(call_id, 0, PROTO_ERROR, "request shorter than its header")
        _alloc_hint, p_cont_id, opnum = REQUEST_FIELDS[little].unpack_from(pdu, 16)   # the hint: unused
        if self.security is not None:
            try:
                stub = self.security.open_request(pdu, little, frag_length, auth_length, stub_start)
            except AuthFailure as failure:
                return self._refuse_auth(call_id, p_cont_id, failure)
        elif auth_length:             # no security context was ever negotiated on this connection
            return self._fatal(call_id, p_cont_id, RpcStatus.RPC_S_ACCESS_DENIED, "request with an auth_verifier", 0)
        else:
            stub = pdu[stub_start:]
        drep_ok = pdu[4] == pdu_.DREP_LE and pdu[5] == 0     # little-endian, ASCII, IEEE
        if flags & PFC_FIRST_FRAG:
            if self.reassembly is not None:   # no interleaved calls without PFC_CONC_MPX (Samba: fatal)
                return self._fatal(self.reassembly.call_id, self.reassembly.p_cont_id, PROTO_ERROR,
                                   "a new call inside a fragmented request")
            self.discard_call_id = None
            if self.active is not None:       # an orphaned one has ended (process() waited for it)
                return self._fatal(call_id, p_cont_id, PROTO_ERROR, "a second call while one runs")
            cancelled = bool(flags & PFC_PENDING_CANCEL)
            if flags & PFC_LAST_FRAG:
                if len(stub) > self.server.max_stub:
                    self._refuse_size(call_id, p_cont_id, last=True)
                    return None
                self._dispatch(call_id, p_cont_id, opnum, stub, drep_ok, cancelled)
                return None
            if len(stub) > self.server.max_stub:
                self._refuse_size(call_id, p_cont_id, last=False)
                return None
            self.reassembly = _Reassembly(call_id, p_cont_id, opnum, drep_ok, stub, cancelled, now)
            return None
        if self.discard_call_id == call_id:
            if flags & PFC_LAST_FRAG:
                self.discard_call_id = None
            return None
        assembly = self.reassembly
        if assembly is None or assembly.call_id != call_id:
            return self._fatal(call_id, p_cont_id, PROTO_ERROR, "a fragment of no call in progress")
        if assembly.drep_ok != drep_ok:    # Samba: every fragment of a call has one packed_drep
            return self._fatal(call_id, assembly.p_cont_id, PROTO_ERROR, "packed_drep changed between fragments")
        if len(assembly.stub) + len(stub) > self.server.max_stub:
            self.reassembly = None
            self._refuse_size(call_id, assembly.p_cont_id, last=bool(flags & PFC_LAST_FRAG))
            return None
        assembly.stub += stub
        if flags & PFC_LAST_FRAG:
            self.reassembly = None
            self._dispatch(call_id, assembly.p_cont_id, assembly.opnum, bytes(assembly.stub), assembly.drep_ok,
                           assembly.cancelled)
        return None

    def _refuse_size(self, call_id: int, p_cont_id: int, last: bool) -> None:
        # Above max_stub: fault RPC_S_ACCESS_DENIED, Samba's answer past its 4 MiB request limit;
        # the partial call is dropped and its remaining fragments skipped; the connection lives on.
        self.send(pdu_.fault(call_id, p_cont_id, RpcStatus.RPC_S_ACCESS_DENIED, PFC_DID_NOT_EXECUTE))
        self.discard_call_id = None if last else call_id

    def _dispatch(self, call_id, p_cont_id, opnum, stub, drep_ok, cancelled) -> None:
        context = self.contexts.get(p_cont_id)
        if context is None:
            self.send(pdu_.fault(call_id, p_cont_id, RpcStatus.NCA_S_UNK_IF, PFC_DID_NOT_EXECUTE))
            return
        if not drep_ok:                 # the Interface decodes little-endian NDR only
            self.send(pdu_.fault(call_id, p_cont_id, NCA_S_UNSUPPORTED_TYPE, PFC_DID_NOT_EXECUTE))
            return
        iface, ndr64 = context
        security = self.security
        level = security.auth_level if security is not None else 1
        if level < self.server.min_auth_level:   # [MS-RPCE] 3.1.1.1.3: below the level the server demands
            self.send(pdu_.fault(call_id, p_cont_id, RpcStatus.RPC_S_ACCESS_DENIED, PFC_DID_NOT_EXECUTE))
            return
        call = Call(opnum, stub, ndr64, self.group.association, self.id,
                    security.identity if security is not None else None)
        if cancelled:
            call.cancelled.set()
        try:
            blocking = iface.may_block(opnum, stub)
        except Exception:  # noqa: BLE001 - an Interface bug: logged once, answered as a fault
            self.send(self._reply(self._bug(iface, call, "may_block"), call_id, p_cont_id, 0))
            return
        if blocking:
            call.cancelled.is_set()     # the event made here, on the loop, before the worker can ask for it
            admitted = self._admit(iface, call)
            if admitted[0] != "rest":   # it ended while being entered (a fault, a refused handle)
                self._answer_inline(iface, admitted, call_id, p_cont_id, opnum)
                return
            running = _Running(call, iface, call_id, p_cont_id)
            self.active = running
            if not self.server.run_on_worker(lambda: self._work(running, admitted[1])):
                self.active = None      # no thread to be had: refuse this call, keep the connection
                if admitted[1] is not None:
                    self._abandon(running)   # what was entered is cancelled, as if the client had gone
                self.send(pdu_.fault(call_id, p_cont_id, NCA_S_SERVER_TOO_BUSY, PFC_DID_NOT_EXECUTE))
            return
        self.current = call
        outcome = self._execute(iface, call)
        self.current = None
        self._answer_inline(iface, outcome, call_id, p_cont_id, opnum)

    def _answer_inline(self, iface, outcome: tuple, call_id: int, p_cont_id: int, opnum: int) -> None:
        if outcome[0] == "drop":
            self.close(f"dropped by {type(iface).__name__} at opnum {opnum}")
            return
        self.send(self._reply(outcome, call_id, p_cont_id, 0))

    def _admit(self, iface, call) -> tuple:
        """On the loop, so calls are entered in the order they arrive: Interface.admit (when it has one) starts a
        call that may block, and the worker only waits for its end (a close or a cancel that arrives after it
        finds it waiting).  ("rest", what the worker runs), or the outcome of a call that ended there."""
        admit = getattr(iface, "admit", None)
        if admit is None:
            return "rest", None
        outcome = self._guarded(iface, call, lambda: admit(call), "admit")
        return ("rest", outcome[1]) if outcome[0] == "value" else outcome

    def _execute(self, iface, call, run=None) -> tuple:
        """Run Interface.call (or `run`, the rest of an admitted call): ("stub", bytes) or ("fault", status,
        flags)."""
        outcome = self._guarded(iface, call, run or (lambda: iface.call(call)), "call")
        if outcome[0] != "value":
            return outcome
        out = outcome[1]
        if type(out) is not bytes:
            if not isinstance(out, (bytearray, memoryview)):
                self.server.log_error(f"dcerpc: connection #{self.id}: {type(iface).__name__}.call opnum "
                                      f"{call.opnum} returned {type(out).__name__}, not bytes")
                return "fault", NCA_S_FAULT_UNSPEC, 0
            out = bytes(out)
        return "stub", out

    def _guarded(self, iface, call, run, what: str) -> tuple:
        """("value", what `run()` returned), or the outcome of the Fault, Drop or bug it raised."""
        try:
            out = run()
        except Fault as exc:
            status = exc.status
            if status in FORBIDDEN_FAULT_STATUSES:
                self.server.log_error(f"dcerpc: connection #{self.id}: {type(iface).__name__} opnum {call.opnum} "
                                      f"raised Fault({describe(status)}), which [MS-RPCE] 3.3.3.5.1 forbids "
                                      f"on the wire; sent nca_s_fault_unspec")
                status = NCA_S_FAULT_UNSPEC
            return "fault", status, PFC_DID_NOT_EXECUTE if status in NOT_EXECUTED_STATUSES else 0
        except Drop:
            return ("drop",)
        except MemoryError:
            return "fault", NCA_S_FAULT_REMOTE_NO_MEMORY, 0
        except Exception:  # noqa: BLE001 - an Interface bug: logged once, answered as a fault
            return self._bug(iface, call, what)
        return "value", out

    def _reply(self, outcome: tuple, call_id: int, p_cont_id: int, cancel_count: int) -> bytes:
        """The PDUs answering a call: its fault (never signed), or its response fragments, signed or sealed at the
        security context's level (on the loop: each direction's sequence numbers go in order)."""
        if outcome[0] == "fault":
            return pdu_.fault(call_id, p_cont_id, outcome[1], outcome[2], cancel_count)
        if self.security is not None and self.security.signs:
            return self.security.seal_response(call_id, p_cont_id, outcome[1], self.max_xmit_frag, cancel_count)
        return pdu_.response(call_id, p_cont_id, outcome[1], self.max_xmit_frag, cancel_count)

    def _bug(self, iface, call, what) -> tuple:
        # [C706] E.1 nca_s_fault_unspec: the manager failed and no status says more (not the client's fault).
        self.server.log_error(f"dcerpc: connection #{self.id}: {type(iface).__name__}.{what} opnum {call.opnum} "
                              f"raised -> fault nca_s_fault_unspec\n{traceback.format_exc()}")
        return "fault", NCA_S_FAULT_UNSPEC, 0

    def _refuse_auth(self, call_id: int, p_cont_id: int, failure: AuthFailure) -> str | None:
        """A request the security context refuses: its fault, then (mostly) the end of the connection."""
        flags = PFC_DID_NOT_EXECUTE if failure.not_executed else 0
        if failure.close:
            return self._fatal(call_id, p_cont_id, failure.status, str(failure), flags)
        self.send(pdu_.fault(call_id, p_cont_id, failure.status, flags))
        return None

    # -- calls that may block -------------------------------------------------------------
    def _work(self, running: _Running, rest=None) -> None:
        """On a worker: run the call (or the rest of an admitted one), then hand its outcome to the loop."""
        try:
            outcome = self._execute(running.iface, running.call, rest)
        except BaseException:  # noqa: BLE001 - SystemExit and friends: the loop still hears the call is over
            self.server.post(lambda: self.worker_done(running, None))
            raise
        self.server.post(lambda: self.worker_done(running, outcome))

    def worker_done(self, running: _Running, outcome: tuple | None) -> None:
        """On the loop: the worker's call returned; answer it unless orphaned, then go on."""
        if self.active is not running:
            return
        self.active = None
        self.idle_since = self.server.now()
        if self.closed:               # the connection went while the call ran: now its group may end
            self.finish()
            return
        if outcome is not None and outcome[0] == "drop":
            self.close(f"dropped by {type(running.iface).__name__} at opnum {running.call.opnum}")
            return
        if outcome is not None and not running.orphaned and not self.closing:   # [C706] 12.6.4.8
            self.send(self._reply(outcome, running.call_id, running.p_cont_id, running.cancel_count))
        if not self.closing:
            self.process(self.server.now())   # a request held back behind an orphaned call

    def _abandon(self, running: _Running) -> None:
        running.call.cancelled.set()
        try:
            running.iface.call_abandoned(running.call)
        except Exception:  # noqa: BLE001 - an Interface bug: logged, the connection carries on
            self.server.log_error(f"dcerpc: connection #{self.id}: {type(running.iface).__name__}.call_abandoned "
                                  f"raised\n{traceback.format_exc()}")

    def _on_cancel(self, call_id: int, orphaned: bool) -> None:
        assembly = self.reassembly
        if assembly is not None and assembly.call_id == call_id:
            if orphaned:                 # the client gave the call up before sending all of it
                self.reassembly = None
            else:
                assembly.cancelled = True
            return
        if orphaned and self.discard_call_id == call_id:
            self.discard_call_id = None
            return
        running = self.active
        if running is None or running.call_id != call_id:
            return                       # a cancel for no call in progress: ignored, as Windows (Samba)
        running.cancel_count += 0 if orphaned else 1
        running.orphaned = running.orphaned or orphaned
        notify, running.notified = not running.notified, True
        if notify:
            self._abandon(running)
        else:
            running.call.cancelled.set()

    # -- bind, alter_context, the rest ------------------------------------------------------------
    def _on_other(self, pdu, ptype, little, frag_length, auth_length, call_id):
        if ptype == BIND:
            return self._on_bind(pdu, little, frag_length, auth_length, call_id)
        if not self.bound:
            return self._fatal(call_id, 0, PROTO_ERROR, f"PTYPE {ptype} before bind")
        if ptype == ALTER_CONTEXT:
            return self._on_alter(pdu, little, frag_length, auth_length, call_id)
        if ptype == CO_CANCEL or ptype == ORPHANED:
            self._on_cancel(call_id, ptype == ORPHANED)
            return None
        if ptype == AUTH3 and self.security is not None and auth_length:
            return self._on_auth3(pdu, little, frag_length, auth_length, call_id)
        # auth3 (no security context was started), PTYPEs a server sends, unknown PTYPEs: as Samba does.
        return self._fatal(call_id, 0, PROTO_ERROR, f"PTYPE {ptype} not accepted from a client")

    def _on_bind(self, pdu, little, frag_length, auth_length, call_id):
        if self.bound:                   # a connection binds once; Samba naks a second bind
            return self._nak(call_id, pdu_.NAK_REASON_NOT_SPECIFIED, "bind on a bound connection")
        body_end, security, token = frag_length, None, b""
        if auth_length:
            if self.server.users is None:   # [MS-RPCE] 2.2.2.5: this server recognises no authentication type
                return self._nak(call_id, pdu_.NAK_AUTHENTICATION_TYPE_NOT_RECOGNIZED, "bind with an auth_verifier")
            try:
                auth_type, auth_level, pad, context_id, token = parse_trailer(pdu, little, frag_length, auth_length,
                                                                              pdu_.COMMON_HEADER + 12)
                body_end = frag_length - auth_length - 8 - pad
                security = SecurityContext(auth_type, auth_level, context_id, self.server.users,
                                           self.server.computer_name)
            except (ValueError, struct.error) as exc:
                return self._nak(call_id, pdu_.NAK_PROTOCOL_VERSION_NOT_SUPPORTED, f"malformed sec_trailer ({exc})")
            except AuthFailure as failure:
                return self._nak(call_id, failure.nak or 0, f"bind refused: {failure}")
        try:
            max_xmit, max_recv, assoc_group_id, elements = pdu_.parse_bind(pdu, little, body_end)
        except PduError as exc:          # [MS-RPCE] 2.2.2.5: protocol error in a bind
            return self._nak(call_id, pdu_.NAK_PROTOCOL_VERSION_NOT_SUPPORTED, f"malformed bind ({exc})")
        if not elements:
            return self._nak(call_id, pdu_.NAK_PROTOCOL_VERSION_NOT_SUPPORTED, "bind with an empty p_cont_list")
        contexts = {}
        results, accepted, _features, error = negotiate(self.server.registry, elements, contexts, True)
        if error is not None:
            return self._nak(call_id, pdu_.NAK_REASON_NOT_SPECIFIED, f"bind refused: {error}")
        if security is not None:
            try:
                token = security.bind_leg(token)
            except AuthFailure as failure:
                return self._nak(call_id, failure.nak or 0, f"bind refused: {failure}")
        group = self.server.join_group(assoc_group_id, self.peer[0], accepted)
        if group is None:                # [MS-RPCE] assoc_group_id: join a live group, from its client IP
            return self._nak(call_id, pdu_.NAK_REASON_NOT_SPECIFIED, f"unknown assoc_group_id {assoc_group_id:#010x}")
        self.group, self.contexts, self.bound, self.security = group, contexts, True, security
        # [C706] 12.6.4.3: we transmit at most the client's max_recv_frag and receive its max_xmit_frag.
        self.max_xmit_frag, self.max_recv_frag = frag_size(max_recv), frag_size(max_xmit)
        ack = pdu_.bind_ack(pdu_.BIND_ACK, call_id, self.max_xmit_frag, self.max_recv_frag,
                            group.association.id, self.server.secondary_address, results)
        if security is not None:
            ack = self._with_auth(ack, pdu[3] & PFC_SUPPORT_HEADER_SIGN, security, token)
        self.send(ack)
        return None

    @staticmethod
    def _with_auth(ack: bytes, header_sign: int, security, token: bytes) -> bytes:
        """bind_ack or alter_context_resp with the context's sec_trailer and token ([MS-RPCE] 2.2.2.11: no pad, the
        body ends 4-aligned); PFC_SUPPORT_HEADER_SIGN echoed (NTLM signs the header anyway)."""
        data = bytearray(ack + security.trailer(0) + token)
        data[3] |= header_sign
        struct.pack_into("<HH", data, 8, len(data), len(token))
        return bytes(data)

    def _on_auth3(self, pdu, little, frag_length, auth_length, call_id):
        """WINNT's third leg ([MS-RPCE] 2.2.2.10): never answered; a failure faults the first request."""
        try:
            auth_type, auth_level, _pad, context_id, token = parse_trailer(pdu, little, frag_length, auth_length,
                                                                           pdu_.COMMON_HEADER + 4)
        except (ValueError, struct.error) as exc:
            return self._fatal(call_id, 0, NCA_S_FAULT_REMOTE_NO_MEMORY, f"malformed auth3 ({exc})")
        security = self.security
        if (auth_type, auth_level, context_id) != (security.auth_type, security.auth_level, security.context_id):
            security.failure = AuthFailure("auth3 for another context", status=RpcStatus.RPC_S_ACCESS_DENIED)
            return None
        security.auth3_leg(token)
        return None

    def _on_alter(self, pdu, little, frag_length, auth_length, call_id):
        body_end, token, security = frag_length, b"", self.security
        if auth_length:
            if security is None:         # no security context to alter (Samba: fault and disconnect)
                return self._fatal(call_id, 0, RpcStatus.RPC_S_ACCESS_DENIED, "alter_context with an auth_verifier")
            try:
                auth_type, auth_level, pad, context_id, token = parse_trailer(pdu, little, frag_length, auth_length,
                                                                              pdu_.COMMON_HEADER + 12)
            except (ValueError, struct.error) as exc:
                return self._fatal(call_id, 0, PROTO_ERROR, f"malformed alter_context sec_trailer ({exc})")
            if auth_type != security.auth_type:
                return self._fatal(call_id, 0, SEC_PKG_ERROR, "alter_context changes the auth_type")
            if (auth_level, context_id) != (security.auth_level, security.context_id):
                return self._fatal(call_id, 0, RpcStatus.RPC_S_ACCESS_DENIED,
                                   "alter_context changes the auth_level or context")
            body_end = frag_length - auth_length - 8 - pad
        try:
            _x, _r, _g, elements = pdu_.parse_bind(pdu, little, body_end)
        except PduError as exc:
            return self._fatal(call_id, 0, PROTO_ERROR, f"malformed alter_context ({exc})")
        if not elements:
            return self._fatal(call_id, 0, PROTO_ERROR, "alter_context with an empty p_cont_list")
        results, accepted, _features, error = negotiate(self.server.registry, elements, self.contexts, False)
        if error is not None:
            return self._fatal(call_id, 0, PROTO_ERROR, f"alter_context refused: {error}")
        if auth_length:
            try:
                token = security.alter_leg(token)
            except AuthFailure as failure:
                return self._fatal(call_id, 0, failure.status or SEC_PKG_ERROR, f"alter_context refused: {failure}")
        self.server.add_interfaces(self.group, accepted)
        # alter_context_resp ([C706] 12.6.4.2) carries the sizes negotiated at bind, no secondary address.
        resp = pdu_.bind_ack(pdu_.ALTER_CONTEXT_RESP, call_id, self.max_xmit_frag, self.max_recv_frag,
                             self.group.association.id, b"", results)
        if auth_length:
            resp = self._with_auth(resp, pdu[3] & PFC_SUPPORT_HEADER_SIGN, security, token)
        self.send(resp)
        return None

    # -- deadlines ---------------------------------------------------------------------------------
    def overdue(self, now: float) -> str | None:
        """Why this connection must close now (a deadline of dcerpc_server's docstring passed), or None."""
        server = self.server
        timeout = server.io_timeout
        if self.closed:
            if now - self.closed_at > timeout:
                return "its call ignored call_abandoned and still runs"
            return None
        if self.linger:
            started = self.lingering_since if self.lingering_since is not None else self.output_since
            if started is not None and now - started > LINGER_SECONDS:
                return "linger over"
            return None
        if self.output and self.output_since is not None and now - self.output_since > timeout:
            return f"the client read nothing of a reply for {timeout:g} s"
        if self.held_since is not None and now - self.held_since > timeout:
            return "an orphaned call did not end after call_abandoned"
        if not self.bound and now - self.accepted > timeout:
            return f"no bind within {timeout:g} s"
        if self.pdu_started is not None and now - self.pdu_started > timeout:
            return f"a PDU did not arrive whole within {timeout:g} s"
        if self.reassembly is not None and now - self.reassembly.started > timeout:
            return f"a fragmented request did not arrive whole within {timeout:g} s"
        if (server.idle_timeout is not None and self.bound and self.active is None and self.reassembly is None
                and not self.output and len(self.buf) == self.pos and now - self.idle_since > server.idle_timeout
                and not server.holds_state(self.group)):
            return f"idle for {server.idle_timeout:g} s, owning nothing"
        return None

    # -- closing -------------------------------------------------------------------------------
    def close(self, reason: str) -> None:
        """Stop serving: tell a running call's Interface, write what remains (and linger after a last fault),
        then finish."""
        if self.closing:             # a second reason (a deadline, EOF while lingering): no more waiting
            self.finish()
            return
        self.closing, self.reason = True, reason
        running = self.active
        if running is not None and not running.notified:   # EOF/reset/stop while the call ran: tell it at once
            running.notified = True
            self._abandon(running)
        if self.linger and not self.server.stopping:
            if not self.output:
                self._start_linger(self.server.now())
            self.server.watch(self)
            return
        self.finish()

    def _start_linger(self, now: float) -> None:
        """Read and drop what the client still sends, so close() ends with FIN and our last PDU arrives."""
        self.lingering_since = now
        try:
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self.finish()

    def finish(self) -> None:
        """Close the socket; once no worker runs for this connection, the server forgets it (and may end its
        association)."""
        if not self.closed:
            self.closed, self.closed_at = True, self.server.now()
            self.closing = True
            self.output.clear()
            self.server.unwatch(self)
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:          # already reset or shut down: nothing left to shut
                pass
            self.sock.close()
        if self.active is not None or self.finished:
            return                   # worker_done (or the deadline) finishes it
        self.finished = True
        self.server.connection_closed(self, self.reason)

    def give_up_on_worker(self) -> None:
        """The worker overstayed its deadline after the connection closed: finish without it."""
        self.reason += "; its call ignored call_abandoned and still runs"
        self.active = None
        self.finish()


def timeval(seconds: float) -> bytes:
    whole = int(seconds)
    return struct.pack("@ll", whole, int((seconds - whole) * 1_000_000))
