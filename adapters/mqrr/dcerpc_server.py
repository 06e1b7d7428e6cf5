"""A connection-oriented DCE/RPC server runtime ([C706] chapter 12, [MS-RPCE] 2.2.2 and 3.3).

Knows nothing about MSMQ: it hosts Interfaces (uuid, version, call, may_block,
call_abandoned, association_ended) on ncacn_ip_tcp.  No authentication, no
PFC_CONC_MPX (one call at a time per connection), NDR 2.0 and NDR64.

Theory of operation
-------------------
One thread accepts; each connection gets one reader thread (dcerpc_connection)
that reads whole PDUs, reassembles request fragments and runs calls inline.  A
call whose Interface says ``may_block`` runs on a worker thread instead, so the
reader still sees co_cancel, orphaned and EOF and can tell the Interface at once
(``call.cancelled`` + ``call_abandoned``).  A connection is in one of four states:

===============  ==========================  ===============================  ==========================
PDU received      UNBOUND (just accepted)     BOUND (no call running)          CALL (worker running)
===============  ==========================  ===============================  ==========================
bind              bind_ack -> BOUND, or       bind_nak, close                  bind_nak, close
                  bind_nak and close
alter_context     fault proto_error, close    alter_context_resp               alter_context_resp
request, first    fault proto_error, close    unknown p_cont_id: fault unk_if; fault proto_error, close
frag                                          else dispatch (inline, or        (after an orphaned call:
                                              worker -> CALL) or reassemble    wait for it, then as BOUND)
request, next     fault proto_error, close    append (same call_id) or fault   as BOUND
frag                                          proto_error and close
co_cancel         fault proto_error, close    reassembling: noted; else        cancelled + call_abandoned;
                                              ignored                          reply still sent
orphaned          fault proto_error, close    reassembling: dropped; else      cancelled + call_abandoned;
                                              ignored                          no reply
other PTYPE       fault proto_error, close    fault proto_error, close         fault proto_error, close
EOF / reset       close                       close                            call_abandoned, close
===============  ==========================  ===============================  ==========================

Before any state applies the 16-byte header is checked: rpc_vers other than 5.0/5.1
(a bind gets bind_nak protocol_version_not_supported first) or frag_length < 16:
close; frag_length above max_recv_frag (5840) on anything but bind/alter_context:
fault proto_error, close.  A request stub over ``max_stub`` (total of its
fragments) gets fault rpc_s_access_denied and its remaining fragments are skipped.
After a closing fault or bind_nak the server drains input briefly so the PDU
arrives before the FIN.  Time limits: ``io_timeout`` (default 30 s) to bind, to
finish a started PDU or fragmented request, and per blocked send; none while a
call runs or a bound connection idles (context handles live there; TCP keepalive
finds dead peers).  Connections above ``max_connections`` are accepted and closed
at once.  A connection belongs to one association group; when the group's last
connection closes, every Interface bound on it hears ``association_ended`` once.
"""

from __future__ import annotations

import errno
import itertools
import logging
import secrets
import select
import socket
import threading
import time
import traceback
import uuid as uuid_
from dataclasses import dataclass, field
from typing import Self

from .dcerpc_connection import Connection, timeval
from .dcerpc_types import Association, Call, Fault, Interface

__all__ = ["Association", "Call", "DceRpcServer", "Fault", "Interface"]

_logger = logging.getLogger(__name__)
_GROUP_STRIDE = 0x9E3779B1     # odd: n -> base + n*stride is a bijection mod 2**32, so ids never repeat


@dataclass(eq=False)
class _Group:
    association: Association
    host: str                                  # [MS-RPCE] assoc_group_id: only this client IP may join
    connections: int = 0
    interfaces: dict = field(default_factory=dict)   # id(iface) -> iface bound on this group


class DceRpcServer:
    """Serves ``interfaces`` on ncacn_ip_tcp at host:port (port 0: any; ``port`` holds the bound one
    after start()).  ``log`` takes one line per connection opened or closed, and tracebacks of
    Interface bugs; default: the logging module.  ``max_stub`` bounds a request's reassembled stub,
    ``io_timeout`` the waits listed in the module docstring.  stats(): connections, associations,
    threads, calls_in_progress, connections_accepted, connections_refused, pdus (framed, in all)."""

    def __init__(self, interfaces, host: str = "127.0.0.1", port: int = 0, *, log=None,
                 max_connections: int = 256, max_stub: int = 16 * 1024 * 1024, io_timeout: float = 30.0):
        self.registry = {}                     # abstract syntax uuid (bytes_le) + major (u16 LE) -> (iface, minor)
        for iface in interfaces:
            major, minor = iface.version
            key = uuid_.UUID(iface.uuid).bytes_le + int(major).to_bytes(2, "little")
            if key in self.registry:
                raise ValueError(f"two interfaces registered as {iface.uuid} v{major}")
            self.registry[key] = (iface, int(minor))
        if max_connections < 1 or max_stub < 0 or io_timeout <= 0:
            raise ValueError("max_connections >= 1, max_stub >= 0 and io_timeout > 0, please")
        self.host, self.port = host, port
        self.max_connections, self.max_stub, self.io_timeout = max_connections, max_stub, io_timeout
        self.secondary_address = b""
        self.stopping = False
        self._pausing = False                  # relisten(): the accept thread ends, connections stay
        self._log = log
        self._lock = threading.Lock()
        self._connections = {}                 # connection id -> Connection
        self._groups = {}                      # assoc_group_id -> _Group
        self._threads = set()                  # started and not yet ended
        self._exited = []                      # ended but perhaps still unwinding: stop() joins them too
        self._connection_ids = itertools.count(1)
        self._group_numbers = itertools.count(1)
        self._group_base = secrets.randbits(32)
        self._listener = self._wake_r = self._wake_w = self._accept_thread = None
        self._stopped = threading.Event()
        self._accepted = self._refused = self._closed_pdus = 0

    # -- logging ------------------------------------------------------------------------
    def log(self, line: str) -> None:
        if self._log is not None:
            self._log(line)
        else:
            _logger.info(line)

    def log_error(self, text: str) -> None:
        if self._log is not None:
            self._log(text)
        else:
            _logger.error(text)

    # -- life cycle ---------------------------------------------------------------------
    def start(self) -> Self:
        if self._listener is not None or self.stopping:
            raise RuntimeError("a DceRpcServer starts once")
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        listener = socket.create_server((self.host, self.port), family=family, backlog=128)
        listener.setblocking(False)
        self._listener = listener
        self.port = listener.getsockname()[1]
        self.secondary_address = str(self.port).encode("ascii") + b"\0"   # [C706] 12.6.4.4 port_any_t
        self._wake_r, self._wake_w = socket.socketpair()
        self._accept_thread = threading.Thread(target=self._accept_loop, name=f"dcerpc-accept-{self.port}",
                                               daemon=True)
        self.thread_started(self._accept_thread)
        self._accept_thread.start()
        return self

    def relisten(self, ports, before=None) -> int:
        """Stop listening, run `before()`, then listen on the first of `ports` that is free and return it;
        open connections stay.  A server restarting while its port is taken moves this way (MS-MQRR
        3.1.4.1).  OSError (EADDRINUSE) when none is free: the server then listens nowhere until stop()."""
        if self._listener is None or self.stopping or not ports:
            raise RuntimeError("relisten() needs a started server and at least one port")
        self._pausing = True
        self._wake_w.send(b"p")
        if self._accept_thread is not threading.current_thread():
            self._accept_thread.join()
        self._pausing = False
        self._wake_r.recv(4096)                # the wake-up byte, so that the next poll waits again
        self._listener.close()
        if before is not None:
            before()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        for port in ports:
            try:
                listener = socket.create_server((self.host, port), family=family, backlog=128)
                break
            except OSError as error:
                if error.errno != errno.EADDRINUSE or port == ports[-1]:
                    raise
        listener.setblocking(False)
        self._listener = listener
        self.port = listener.getsockname()[1]
        self.secondary_address = str(self.port).encode("ascii") + b"\0"   # [C706] 12.6.4.4 port_any_t
        self._accept_thread = threading.Thread(target=self._accept_loop, name=f"dcerpc-accept-{self.port}",
                                               daemon=True)
        self.thread_started(self._accept_thread)
        self._accept_thread.start()
        return self.port

    def stop(self) -> None:
        if self._listener is None or self.stopping:
            return
        self.stopping = True
        self._wake_w.send(b"x")
        if self._accept_thread is not threading.current_thread():
            self._accept_thread.join()
        self._listener.close()
        with self._lock:
            connections = list(self._connections.values())
        for connection in connections:
            connection._shutdown()             # each reader sees EOF and tears its connection down
        deadline = time.monotonic() + self.io_timeout + 5
        while True:
            with self._lock:
                threads = [t for t in self._threads if t is not threading.current_thread()]
            if not threads or time.monotonic() >= deadline:
                break
            alive = [t for t in threads if t.is_alive()]
            if alive:
                alive[0].join(max(0.0, deadline - time.monotonic()))
            else:                              # registered, about to start (or to deregister)
                time.sleep(0.01)
        with self._lock:
            stuck, groups, exited = list(self._threads), list(self._groups.values()), list(self._exited)
        for thread in exited:                  # past their last statement: gone in a moment
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))
        for thread in stuck:
            if thread is not threading.current_thread():
                self.log_error(f"dcerpc: stop: thread {thread.name} still running (an Interface ignored "
                               f"call_abandoned)")
        for group in groups:                   # only if a reader is stuck: its group still ends once
            self._end_group(group)
        self._wake_r.close()
        self._wake_w.close()
        self._stopped.set()

    def serve_forever(self) -> None:
        if self._listener is None:
            self.start()
        try:
            while not self._stopped.wait(0.5):
                continue
        except KeyboardInterrupt:
            self.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def stats(self) -> dict:
        with self._lock:
            connections = list(self._connections.values())
            return {
                "connections": len(connections),
                "associations": len(self._groups),
                "threads": sum(1 for t in itertools.chain(self._threads, self._exited) if t.is_alive()),
                "calls_in_progress": sum(1 for c in connections if c.current is not None or c.active is not None),
                "connections_accepted": self._accepted,
                "connections_refused": self._refused,
                "pdus": self._closed_pdus + sum(c.pdus for c in connections),   # PDUs framed, all connections
            }

    # -- accepting ----------------------------------------------------------------------
    def _accept_loop(self) -> None:
        try:
            poller = select.poll()
            poller.register(self._listener, select.POLLIN)
            poller.register(self._wake_r, select.POLLIN)
            while not (self.stopping or self._pausing):
                poller.poll()
                while not (self.stopping or self._pausing):
                    try:
                        sock, peer = self._listener.accept()
                    except BlockingIOError:
                        break
                    except OSError as exc:     # EMFILE and friends: say so, let the backlog wait a moment
                        self.log_error(f"dcerpc: accept failed ({exc}); retrying in 0.1 s")
                        select.select([self._wake_r], [], [], 0.1)
                        break
                    try:
                        self._admit(sock, peer)
                    except OSError as exc:     # reset between accept() and its set-up: only that one is lost
                        sock.close()
                        self.log(f"dcerpc: connection from {peer[0]}:{peer[1]} lost while set up ({exc})")
        finally:
            self.thread_ended(threading.current_thread())

    def _admit(self, sock: socket.socket, peer) -> None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)       # replies are single sends
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)       # finds peers that vanished
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 60)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 10)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 6)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeval(self.io_timeout))   # a client not reading
        with self._lock:
            full = len(self._connections) >= self.max_connections
            if full:
                self._refused += 1
            else:
                self._accepted += 1
                connection = Connection(self, sock, peer, next(self._connection_ids))
                self._connections[connection.id] = connection
        if full:
            self.log(f"dcerpc: connection from {peer[0]}:{peer[1]} refused: max_connections "
                     f"({self.max_connections}) reached")
            sock.close()
            return
        thread = threading.Thread(target=self._run_connection, args=(connection,),
                                  name=f"dcerpc-conn-{connection.id}", daemon=True)
        self.thread_started(thread)
        self.log(f"dcerpc: connection #{connection.id} from {peer[0]}:{peer[1]} opened")
        try:
            thread.start()
        except RuntimeError as exc:                 # no thread to be had: this connection cannot be served
            self.thread_ended(thread)
            connection.sock.close()
            self.connection_closed(connection, f"no thread for it ({exc})")

    def _run_connection(self, connection: Connection) -> None:
        try:
            connection.run()
        finally:
            self.thread_ended(threading.current_thread())

    # -- bookkeeping used by Connection ---------------------------------------------------
    def thread_started(self, thread: threading.Thread) -> None:
        with self._lock:
            self._exited = [t for t in self._exited if t.is_alive()]
            self._threads.add(thread)

    def thread_ended(self, thread: threading.Thread) -> None:
        with self._lock:
            self._threads.discard(thread)
            self._exited.append(thread)

    def join_group(self, assoc_group_id: int, host: str, interfaces) -> _Group | None:
        """The group a bind names (0: a new one); None when it is unknown or another host's."""
        with self._lock:
            if assoc_group_id == 0:
                while True:
                    group_id = (self._group_base + next(self._group_numbers) * _GROUP_STRIDE) & 0xFFFFFFFF
                    if group_id and group_id not in self._groups:
                        break
                group = self._groups[group_id] = _Group(Association(group_id), host)
            else:
                group = self._groups.get(assoc_group_id)
                if group is None or group.host != host:
                    return None
            group.connections += 1
            for iface in interfaces:
                group.interfaces.setdefault(id(iface), iface)
            return group

    def add_interfaces(self, group: _Group, interfaces) -> None:
        with self._lock:
            for iface in interfaces:
                group.interfaces.setdefault(id(iface), iface)

    def connection_closed(self, connection: Connection, reason: str) -> None:
        # The connection leaves stats() last: once it is gone, its group ended and its line is logged.
        group, ended = connection.group, False
        if group is not None:
            with self._lock:
                group.connections -= 1
                ended = group.connections == 0
        if ended:
            self._end_group(group)
        group_text = f"{group.association.id:#010x}" if group is not None else "none"
        self.log(f"dcerpc: connection #{connection.id} from {connection.peer[0]}:{connection.peer[1]} closed: "
                 f"{reason}; assoc_group {group_text}, {connection.pdus} PDUs")
        with self._lock:
            self._connections.pop(connection.id, None)
            self._closed_pdus += connection.pdus

    def _end_group(self, group: _Group) -> None:
        with self._lock:                       # whoever removes the group runs it down: exactly once
            if self._groups.get(group.association.id) is not group:
                return
            del self._groups[group.association.id]
            interfaces = list(group.interfaces.values())
        for iface in interfaces:
            try:
                iface.association_ended(group.association)
            except Exception:  # noqa: BLE001 - an Interface bug: logged, the other interfaces still hear it
                self.log_error(f"dcerpc: {type(iface).__name__}.association_ended raised\n{traceback.format_exc()}")

