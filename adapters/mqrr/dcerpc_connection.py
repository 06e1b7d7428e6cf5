"""One TCP connection of the DCE/RPC server: its reader thread and state machine.

The theory of operation (states, and what each PDU does in each) is in
dcerpc_server's module docstring.  One reader thread per connection reads PDUs
and runs ordinary calls inline; a call whose Interface says ``may_block`` runs on
a worker thread so the reader keeps reading (co_cancel, orphaned, EOF).
"""

from __future__ import annotations

import socket
import struct
import threading
import time
import traceback

from mqspec.protocol.hresult import RpcStatus, describe

from . import dcerpc_pdu as pdu_
from .dcerpc_negotiation import frag_size, negotiate
from .dcerpc_pdu import (
    ALTER_CONTEXT,
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
    Fault,
)

RECV_SIZE = 65536              # one recv can hold a whole frag_length (u16) PDU
LINGER_SECONDS = 2.0           # after a last fault/bind_nak: how long to drain input so close() sends FIN, not RST
LINGER_BYTES = 1 << 20
NCA_S_SERVER_TOO_BUSY = RpcStatus.NCA_S_SERVER_TOO_BUSY
PROTO_ERROR = RpcStatus.NCA_S_PROTO_ERROR


def timeval(seconds: float) -> bytes:
    whole = int(seconds)
    return struct.pack("@ll", whole, int((seconds - whole) * 1_000_000))


class _Running:
    """A call on a worker thread; fields other than `call` are guarded by Connection.lock."""
    __slots__ = ("call", "call_id", "cancel_count", "iface", "notified", "orphaned", "p_cont_id")

    def __init__(self, call, iface, call_id, p_cont_id):
        self.call, self.iface, self.call_id, self.p_cont_id = call, iface, call_id, p_cont_id
        self.cancel_count, self.orphaned, self.notified = 0, False, False


class _Reassembly:
    """A request whose PFC_LAST_FRAG has not arrived yet ([C706] 12.6.4.9)."""
    __slots__ = ("call_id", "cancelled", "drep_ok", "opnum", "p_cont_id", "stub")

    def __init__(self, call_id, p_cont_id, opnum, drep_ok, stub, cancelled):
        self.call_id, self.p_cont_id, self.opnum, self.drep_ok = call_id, p_cont_id, opnum, drep_ok
        self.stub, self.cancelled = bytearray(stub), cancelled


class Connection:
    def __init__(self, server, sock: socket.socket, peer, connection_id: int):
        self.server, self.sock, self.peer, self.id = server, sock, peer, connection_id
        self.lock = threading.Lock()          # active/closing, between the reader and the worker
        self.send_lock = threading.Lock()     # one PDU sequence on the wire at a time
        self.group = None                     # the server's _Group once bound
        self.contexts = {}                    # p_cont_id -> (Interface, ndr64)
        self.bound = False
        self.max_xmit_frag = pdu_.MUST_RECV_FRAG_SIZE
        self.max_recv_frag = MAX_FRAG
        self.reassembly = None
        self.discard_call_id = None           # a refused multi-fragment call whose tail is skipped
        self.active = None                    # _Running on the worker thread
        self.worker = None
        self.current = None                   # the inline Call in progress (for stats)
        self.closing = False
        self.linger = False                   # a last fault/bind_nak was sent: drain before close
        self.timed = None                     # whether SO_RCVTIMEO is armed
        self.pdus = 0
        self.send_error = None

    # -- the reader thread -------------------------------------------------------------
    def run(self) -> None:
        reason = "internal error"
        try:
            reason = self._serve()
        except Exception:  # noqa: BLE001 - a bug of this runtime: logged, this connection closed, the others served
            self.server.log_error(f"dcerpc: connection #{self.id}: internal error\n{traceback.format_exc()}")
            reason = "internal error (traceback logged)"
        finally:
            self._teardown(reason)

    def _arm(self, timed: bool) -> None:
        # SO_RCVTIMEO, not settimeout(): the worker thread may be sending on this socket meanwhile.
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeval(self.server.io_timeout if timed else 0))
        self.timed = timed

    def _serve(self) -> str:
        recv, buf, pos = self.sock.recv, b"", 0
        while True:
            avail = len(buf) - pos
            if avail >= 16:
                int_rep = buf[pos + 4] >> 4
                if buf[pos] != pdu_.RPC_VERS or buf[pos + 1] not in pdu_.RPC_VERS_MINORS or int_rep > 1:
                    return self._bad_version(buf, pos)
                little = int_rep == 1
                frag_length, auth_length, call_id = FRAME[little].unpack_from(buf, pos + 8)
                ptype = buf[pos + 2]
                if frag_length < 16:          # the stream cannot be framed any further
                    return f"frag_length {frag_length} below the common header"
                if frag_length > MAX_FRAG and ptype != BIND and ptype != ALTER_CONTEXT:
                    # Samba (tested against Windows) answers this proto_error and disconnects.
                    return self._fatal(call_id, 0, PROTO_ERROR, f"frag_length {frag_length} above max_recv_frag")
                if avail >= frag_length:
                    pdu = buf if (pos == 0 and avail == frag_length) else buf[pos:pos + frag_length]
                    pos += frag_length
                    self.pdus += 1
                    if ptype == REQUEST:
                        reason = self._on_request(pdu, little, frag_length, auth_length, call_id)
                    else:
                        reason = self._on_other(pdu, ptype, little, frag_length, auth_length, call_id)
                    if reason is not None:
                        return reason
                    continue
            if pos:
                buf, pos = buf[pos:], 0
            # A deadline while unbound, mid-PDU or mid-call reassembly; none while a call runs or idle.
            timed = (not self.bound or bool(buf) or self.reassembly is not None) and self.active is None
            if timed is not self.timed:
                self._arm(timed)
            try:
                chunk = recv(RECV_SIZE)
            except BlockingIOError:
                return f"no progress for {self.server.io_timeout:g} s " + (
                    "before bind" if not self.bound else "inside a PDU or a fragmented request")
            except OSError as exc:
                return self._lost(f"connection lost ({exc.strerror or exc})")
            if not chunk:
                return self._lost("closed by the client" + (" mid-PDU" if buf else ""))
            buf = buf + chunk if buf else chunk

    def _lost(self, reason: str) -> str:
        if self.server.stopping:
            return "server stopped"
        return self.send_error or reason

    def _bad_version(self, buf: bytes, pos: int) -> str:
        # [C706] 12.6.4.5: a bind in a version we lack gets bind_nak listing the versions we serve;
        # anything else cannot be framed (frag_length is only defined for 5.x), so we just close.
        if buf[pos + 2] == BIND:
            call_id = FRAME[True].unpack_from(buf, pos + 8)[2]
            self._final(pdu_.bind_nak(call_id, pdu_.NAK_PROTOCOL_VERSION_NOT_SUPPORTED))
        return f"rpc_vers {buf[pos]}.{buf[pos + 1]}, packed_drep {buf[pos + 4]:#04x}: not a 5.0/5.1 PDU"

    # -- sending -----------------------------------------------------------------------------
    def _send(self, data: bytes) -> bool:
        with self.send_lock:
            if self.closing:
                return False
            try:
                self.sock.sendall(data)
                return True
            except OSError as exc:     # reset, or SO_SNDTIMEO passed: the peer stopped reading
                self.send_error = f"send failed ({exc.strerror or exc})"
                self._shutdown()       # wakes the reader, which closes the connection
                return False

    def _final(self, data: bytes) -> None:
        self._send(data)
        self.linger = True

    def _fatal(self, call_id: int, p_cont_id: int, status: int, why: str, flags: int = PFC_DID_NOT_EXECUTE) -> str:
        """Answer a fault, then close: the protocol errors after which the stream is not trusted."""
        self._final(pdu_.fault(call_id, p_cont_id, status, flags))
        return f"{why} -> fault {describe(status)}"

    def _nak(self, call_id: int, reason: int, why: str) -> str:
        # bind_nak ends the connection (as Samba, tested against Windows, does after every nak).
        self._final(pdu_.bind_nak(call_id, reason))
        return f"{why} -> bind_nak reason {reason}"

    def _shutdown(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:                # already reset or shut down: nothing left to shut
            return

    # -- requests ------------------------------------------------------------------------
    def _on_request(self, pdu: bytes, little: bool, frag_length: int, auth_length: int, call_id: int) -> str | None:
        flags = pdu[3]
        stub_start = pdu_.REQUEST_HEADER + (16 if flags & PFC_OBJECT_UUID else 0)
        if not self.bound:
            return self._fatal(call_id, 0, PROTO_ERROR, "request before bind")
        if frag_length < stub_start:
            return self._fatal(call_id, 0, PROTO_ERROR, "request shorter than its header")
        _alloc_hint, p_cont_id, opnum = REQUEST_FIELDS[little].unpack_from(pdu, 16)   # the hint: unused
        if auth_length:               # no security context was ever negotiated on this connection
            return self._fatal(call_id, p_cont_id, RpcStatus.RPC_S_ACCESS_DENIED, "request with an auth_verifier", 0)
        stub = pdu[stub_start:]
        drep_ok = pdu[4] == pdu_.DREP_LE and pdu[5] == 0     # little-endian, ASCII, IEEE
        if flags & PFC_FIRST_FRAG:
            if self.reassembly is not None:   # no interleaved calls without PFC_CONC_MPX (Samba: fatal)
                return self._fatal(self.reassembly.call_id, self.reassembly.p_cont_id, PROTO_ERROR,
                                   "a new call inside a fragmented request")
            self.discard_call_id = None
            running = self.active
            if running is not None:
                if not running.orphaned:
                    return self._fatal(call_id, p_cont_id, PROTO_ERROR, "a second call while one runs")
                self.worker.join(self.server.io_timeout)   # the orphaned call was told to stop
                if self.active is not None:
                    return "an orphaned call did not end after call_abandoned"
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
            self.reassembly = _Reassembly(call_id, p_cont_id, opnum, drep_ok, stub, cancelled)
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
        self._send(pdu_.fault(call_id, p_cont_id, RpcStatus.RPC_S_ACCESS_DENIED, PFC_DID_NOT_EXECUTE))
        self.discard_call_id = None if last else call_id

    def _dispatch(self, call_id, p_cont_id, opnum, stub, drep_ok, cancelled) -> None:
        context = self.contexts.get(p_cont_id)
        if context is None:
            self._send(pdu_.fault(call_id, p_cont_id, RpcStatus.NCA_S_UNK_IF, PFC_DID_NOT_EXECUTE))
            return
        if not drep_ok:                 # the Interface decodes little-endian NDR only
            self._send(pdu_.fault(call_id, p_cont_id, NCA_S_UNSUPPORTED_TYPE, PFC_DID_NOT_EXECUTE))
            return
        iface, ndr64 = context
        call = Call(opnum, stub, ndr64, self.group.association, self.id)
        if cancelled:
            call.cancelled.set()
        try:
            blocking = iface.may_block(opnum, stub)
        except Exception:  # noqa: BLE001 - an Interface bug: logged once, answered as a fault
            self._send(self._bug(iface, call, call_id, p_cont_id, "may_block"))
            return
        if blocking:
            self._start_worker(_Running(call, iface, call_id, p_cont_id))
            return
        self.current = call
        data = self._execute(iface, call, call_id, p_cont_id, None)
        self.current = None
        self._send(data)

    def _execute(self, iface, call, call_id, p_cont_id, running) -> bytes:
        """Run Interface.call; returns the response or fault PDUs to send."""
        try:
            out = iface.call(call)
        except Fault as exc:
            status = exc.status
            if status in FORBIDDEN_FAULT_STATUSES:
                self.server.log_error(f"dcerpc: connection #{self.id}: {type(iface).__name__} opnum {call.opnum} "
                                      f"raised Fault({describe(status)}), which [MS-RPCE] 3.3.3.5.1 forbids "
                                      f"on the wire; sent nca_s_fault_unspec")
                status = NCA_S_FAULT_UNSPEC
            flags = PFC_DID_NOT_EXECUTE if status in NOT_EXECUTED_STATUSES else 0
            return pdu_.fault(call_id, p_cont_id, status, flags, running.cancel_count if running else 0)
        except MemoryError:
            return pdu_.fault(call_id, p_cont_id, NCA_S_FAULT_REMOTE_NO_MEMORY)
        except Exception:  # noqa: BLE001 - an Interface bug: logged once, answered as a fault
            return self._bug(iface, call, call_id, p_cont_id, "call")
        if type(out) is not bytes:
            if not isinstance(out, (bytearray, memoryview)):
                self.server.log_error(f"dcerpc: connection #{self.id}: {type(iface).__name__}.call opnum "
                                      f"{call.opnum} returned {type(out).__name__}, not bytes")
                return pdu_.fault(call_id, p_cont_id, NCA_S_FAULT_UNSPEC)
            out = bytes(out)
        return pdu_.response(call_id, p_cont_id, out, self.max_xmit_frag, running.cancel_count if running else 0)

    def _bug(self, iface, call, call_id, p_cont_id, what) -> bytes:
        # [C706] E.1 nca_s_fault_unspec: the manager failed and no status says more (not the client's fault).
        self.server.log_error(f"dcerpc: connection #{self.id}: {type(iface).__name__}.{what} opnum {call.opnum} "
                              f"raised -> fault nca_s_fault_unspec\n{traceback.format_exc()}")
        return pdu_.fault(call_id, p_cont_id, NCA_S_FAULT_UNSPEC)

    # -- calls that may block -------------------------------------------------------------
    def _start_worker(self, running: _Running) -> None:
        if self.worker is not None:
            self.worker.join()          # the previous blocking call has already cleared `active`
        thread = threading.Thread(target=self._work, args=(running,), name=f"dcerpc-call-{self.id}", daemon=True)
        with self.lock:
            self.active = running
        self.worker = thread
        self.server.thread_started(thread)
        try:
            thread.start()
        except RuntimeError:            # no thread to be had: refuse this call, keep the connection
            self.server.thread_ended(thread)
            self.worker = None
            with self.lock:
                self.active = None
            self._send(pdu_.fault(running.call_id, running.p_cont_id, NCA_S_SERVER_TOO_BUSY, PFC_DID_NOT_EXECUTE))

    def _work(self, running: _Running) -> None:
        try:
            data = self._execute(running.iface, running.call, running.call_id, running.p_cont_id, running)
            with self.lock:
                self.active = None       # before the reply: the client may answer it at once
                silent = running.orphaned or self.closing
            if not silent:               # [C706] 12.6.4.8: an orphaned call gets no response
                self._send(data)
        finally:
            with self.lock:              # even if the call raised past Exception (SystemExit...)
                if self.active is running:
                    self.active = None
            self.server.thread_ended(threading.current_thread())

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
        with self.lock:
            running = self.active
            if running is None or running.call_id != call_id:
                return                   # a cancel for no call in progress: ignored, as Windows (Samba)
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
        # auth3 (no security context was started), PTYPEs a server sends, unknown PTYPEs: as Samba does.
        return self._fatal(call_id, 0, PROTO_ERROR, f"PTYPE {ptype} not accepted from a client")

    def _on_bind(self, pdu, little, frag_length, auth_length, call_id):
        if self.bound:                   # a connection binds once; Samba naks a second bind
            return self._nak(call_id, pdu_.NAK_REASON_NOT_SPECIFIED, "bind on a bound connection")
        if auth_length:                  # [MS-RPCE] 2.2.2.5: we recognise no authentication type
            return self._nak(call_id, pdu_.NAK_AUTHENTICATION_TYPE_NOT_RECOGNIZED, "bind with an auth_verifier")
        try:
            max_xmit, max_recv, assoc_group_id, elements = pdu_.parse_bind(pdu, little, frag_length)
        except PduError as exc:          # [MS-RPCE] 2.2.2.5: protocol error in a bind
            return self._nak(call_id, pdu_.NAK_PROTOCOL_VERSION_NOT_SUPPORTED, f"malformed bind ({exc})")
        if not elements:
            return self._nak(call_id, pdu_.NAK_PROTOCOL_VERSION_NOT_SUPPORTED, "bind with an empty p_cont_list")
        contexts = {}
        results, accepted, _features, error = negotiate(self.server.registry, elements, contexts, True)
        if error is not None:
            return self._nak(call_id, pdu_.NAK_REASON_NOT_SPECIFIED, f"bind refused: {error}")
        group = self.server.join_group(assoc_group_id, self.peer[0], accepted)
        if group is None:                # [MS-RPCE] assoc_group_id: join a live group, from its client IP
            return self._nak(call_id, pdu_.NAK_REASON_NOT_SPECIFIED, f"unknown assoc_group_id {assoc_group_id:#010x}")
        self.group, self.contexts, self.bound = group, contexts, True
        # [C706] 12.6.4.3: we transmit at most the client's max_recv_frag and receive its max_xmit_frag.
        self.max_xmit_frag, self.max_recv_frag = frag_size(max_recv), frag_size(max_xmit)
        self._send(pdu_.bind_ack(pdu_.BIND_ACK, call_id, self.max_xmit_frag, self.max_recv_frag,
                                 group.association.id, self.server.secondary_address, results))
        return None

    def _on_alter(self, pdu, little, frag_length, auth_length, call_id):
        if auth_length:                  # no security context to alter (Samba: fault and disconnect)
            return self._fatal(call_id, 0, RpcStatus.RPC_S_ACCESS_DENIED, "alter_context with an auth_verifier")
        try:
            _x, _r, _g, elements = pdu_.parse_bind(pdu, little, frag_length)
        except PduError as exc:
            return self._fatal(call_id, 0, PROTO_ERROR, f"malformed alter_context ({exc})")
        if not elements:
            return self._fatal(call_id, 0, PROTO_ERROR, "alter_context with an empty p_cont_list")
        results, accepted, _features, error = negotiate(self.server.registry, elements, self.contexts, False)
        if error is not None:
            return self._fatal(call_id, 0, PROTO_ERROR, f"alter_context refused: {error}")
        self.server.add_interfaces(self.group, accepted)
        # alter_context_resp ([C706] 12.6.4.2) carries the sizes negotiated at bind, no secondary address.
        self._send(pdu_.bind_ack(pdu_.ALTER_CONTEXT_RESP, call_id, self.max_xmit_frag, self.max_recv_frag,
                                 self.group.association.id, b"", results))
        return None

    # -- closing -------------------------------------------------------------------------------
    def _teardown(self, reason: str) -> None:
        with self.lock:
            self.closing = True
            running = self.active
            notify = running is not None and not running.notified
            if running is not None:
                running.notified = True
        if notify:                       # EOF/reset/stop while the call ran: tell its Interface at once
            self._abandon(running)
        if self.linger and not self.server.stopping:
            self._drain()
        self._shutdown()
        with self.send_lock:             # a worker mid-send has finished (it fails fast after shutdown)
            pass
        worker = self.worker
        if worker is not None and worker.is_alive():
            worker.join(self.server.io_timeout)
            if worker.is_alive():
                reason += "; its call ignored call_abandoned and still runs"
        self.sock.close()
        self.server.connection_closed(self, reason)

    def _drain(self) -> None:
        """Read and drop what the client still sends, so close() ends with FIN and our last PDU arrives."""
        try:
            self.sock.shutdown(socket.SHUT_WR)
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeval(0.25))
            deadline, total = time.monotonic() + LINGER_SECONDS, 0
            while total < LINGER_BYTES and time.monotonic() < deadline:
                data = self.sock.recv(RECV_SIZE)
                if not data:
                    return
                total += len(data)
        except OSError:                  # the time-out or a reset ends the drain: either way we close now
            return
