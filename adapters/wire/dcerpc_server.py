"""A connection-oriented DCE/RPC server runtime ([C706] chapter 12, [MS-RPCE] 2.2.2 and 3.3).

Knows nothing about MSMQ: it hosts Interfaces (uuid, version, call, may_block,
call_abandoned, association_ended, and optionally holds_state and tick) on ncacn_ip_tcp.
No PFC_CONC_MPX (one call at a time per connection), NDR 2.0 and NDR64.  With
``users`` it authenticates binds by NTLM or SPNEGO at connect, integrity or
privacy (dcerpc_auth) and refuses calls below ``min_auth_level`` (fault access
denied); each Call carries its caller's identity.

Theory of operation
-------------------
One thread, the loop (event_loop.EventLoop, shared with the MS-MQQB listener),
owns every socket: it accepts, reads and frames PDUs, runs ordinary calls inline
and writes their replies, all without blocking (epoll through `selectors`).  A
call whose Interface says ``may_block`` runs on a worker (a pool that grows on
demand and lets idle threads go), so the loop still sees
co_cancel, orphaned and EOF and can tell the Interface at once (``call.cancelled``
+ ``call_abandoned``); the worker hands its reply back through a queue and a
wake-up socket.  A call that waits without blocking (Interface.call returns a
``Pending``: a read waiting for a message) holds no thread at all: the
connection stays in CALL until the Interface settles it, then replies on the
loop.  There is no thread per connection: a silent connection costs a
socket and a few KiB, so a flood of them cannot starve the loop of threads.  A
connection (dcerpc_connection) is in one of four states:

===============  ==========================  ===============================  ==========================
PDU received      UNBOUND (just accepted)     BOUND (no call running)          CALL (worker or Pending)
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
fragments) gets fault rpc_s_access_denied and its remaining fragments are skipped;
a fragment that would take the partial requests of all connections past
``max_reassembly`` gets fault nca_s_server_too_busy (not executed), likewise.
A connection frames no request while OUTPUT_HIGH of its replies is unsent
(replies are made as the client reads them), and at most PDUS_PER_TURN PDUs
before the loop serves the others; unsent replies of all connections above
``max_unsent`` close the connections whose replies waited unread the longest (D-121).
After a closing fault or bind_nak the server drains input briefly so the PDU
arrives before the FIN.

Deadlines (checked a few times a second, ``io_timeout`` each, default 30 s): a
connection must bind within io_timeout of its accept; a PDU that has begun must
arrive whole within io_timeout, and a fragmented request within io_timeout of its
first fragment (a trickle of bytes does not hold a connection open); a reply the
client does not read must make progress within io_timeout.  None while a call
runs; a bound connection of an association that owns something in an Interface
(``holds_state``: context handles live there) is closed after ``owner_idle_timeout``
(its handles then run down), any other after ``idle_timeout``.  A connection above
``max_connections``, or above ``max_connections_per_peer`` from one client address,
closes the connection (of anyone, or of that address) quiet the longest if it has
been quiet ``evict_after``, else it is accepted and closed at once (D-122).  A connection belongs to one association group;
when the group's last connection closes, every Interface bound on it hears
``association_ended`` once (on the loop, after the group's last call returned).
"""

from __future__ import annotations

import collections
import errno
import functools
import itertools
import logging
import queue
import secrets
import selectors
import signal
import socket
import threading
import time
import traceback
import uuid as uuid_
from dataclasses import dataclass, field
from typing import Self

from .dcerpc_connection import Connection
from .dcerpc_types import Association, Call, Drop, Fault, Interface, Pending
from .event_loop import EventLoop, raise_file_limit, return_freed_memory

__all__ = ["Association", "Call", "DceRpcServer", "Drop", "Fault", "Interface", "Pending"]

_logger = logging.getLogger(__name__)
_GROUP_STRIDE = 0x9E3779B1     # odd: n -> base + n*stride is a bijection mod 2**32, so ids never repeat
TICK = 0.1                     # seconds between deadline checks
ACCEPT_BATCH = 64              # connections accepted per loop turn, so the served ones are not starved
WORKER_IDLE = 10.0             # seconds an idle worker thread waits for another call before it ends
REFUSAL_LOG_EVERY = 5.0        # seconds between summary lines of refused connections
INTERFACE_TICK = 1.0           # seconds between calls of an Interface's tick(now)
EVICT_AFTER = 1.0              # D-122: seconds a connection must have been quiet to make way for a new one at a cap


@dataclass(eq=False)
class _Group:
    association: Association
    host: str                                  # [MS-RPCE] assoc_group_id: only this client IP may join
    connections: int = 0
    interfaces: dict = field(default_factory=dict)   # id(iface) -> iface bound on this group


class _Workers:
    """Threads for the calls that may block: one is started when none is idle, an idle one ends after
    WORKER_IDLE seconds, and at most ``limit`` run at once."""

    def __init__(self, server: DceRpcServer, limit: int) -> None:
        self.server, self.limit = server, limit
        self.jobs = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.idle = self.count = 0
        self.stopping = False

    def submit(self, job) -> bool:
        with self.lock:
            if self.stopping:
                return False
            if self.idle:
                self.idle -= 1
                self.jobs.put(job)
                return True
            if self.count >= self.limit:
                return False
            self.count += 1
        thread = threading.Thread(target=self._run, args=(job,), name="dcerpc-worker", daemon=True)
        self.server.thread_started(thread)
        try:
            thread.start()
        except RuntimeError:            # no thread to be had
            self.server.thread_ended(thread)
            with self.lock:
                self.count -= 1
            return False
        return True

    def _run(self, job) -> None:
        try:
            while job is not None:
                job()
                with self.lock:
                    if self.stopping:
                        break
                    self.idle += 1
                try:
                    job = self.jobs.get(timeout=WORKER_IDLE)
                except queue.Empty:
                    with self.lock:        # submit() hands a job to an idle worker under this lock
                        try:
                            job = self.jobs.get_nowait()
                        except queue.Empty:
                            self.idle -= 1
                            job = None
        finally:
            with self.lock:
                self.count -= 1
            self.server.thread_ended(threading.current_thread())

    def stop(self) -> None:
        with self.lock:
            self.stopping = True
            idle, self.idle = self.idle, 0
        for _ in range(idle):
            self.jobs.put(None)


class DceRpcServer:
    """Serves ``interfaces`` on ncacn_ip_tcp at host:port (port 0: any; ``port`` holds the bound one
    after start()).  ``log`` takes refusals and tracebacks of Interface bugs, ``connection_log`` one line
    per connection opened or closed (default: ``log``); default: the logging module.  ``max_stub`` bounds a
    request's reassembled stub, ``io_timeout`` and ``idle_timeout`` the waits listed in the module docstring.
    stats(): connections, associations, threads, calls_in_progress, connections_accepted, connections_refused,
    pdus (framed, in all)."""

    def __init__(self, interfaces, host: str = "127.0.0.1", port: int = 0, *, log=None,
                 connection_log=None, max_connections: int = 4096, max_connections_per_peer: int = 256,
                 max_stub: int = 16 * 1024 * 1024, max_reassembly: int = 64 * 1024 * 1024,
                 max_unsent: int = 256 * 1024 * 1024, io_timeout: float = 30.0, idle_timeout: float | None = 300.0,
                 owner_idle_timeout: float | None = 1800.0, evict_after: float = EVICT_AFTER,
                 users=None, min_auth_level: int = 1, computer_name: str = "mqspec"):
        self.registry = {}                     # abstract syntax uuid (bytes_le) + major (u16 LE) -> (iface, minor)
        for iface in interfaces:
            major, minor = iface.version
            key = uuid_.UUID(iface.uuid).bytes_le + int(major).to_bytes(2, "little")
            if key in self.registry:
                raise ValueError(f"two interfaces registered as {iface.uuid} v{major}")
            self.registry[key] = (iface, int(minor))
        if max_connections < 1 or max_connections_per_peer < 1 or max_stub < 0 or io_timeout <= 0 or (
                idle_timeout is not None and idle_timeout <= 0):
            raise ValueError("max_connections and max_connections_per_peer >= 1, max_stub >= 0, io_timeout > 0 "
                             "and idle_timeout > 0 (or None), please")
        self.host, self.port = host, port
        self.max_connections, self.max_connections_per_peer = max_connections, max_connections_per_peer
        self.max_stub, self.io_timeout, self.idle_timeout = max_stub, io_timeout, idle_timeout
        self.max_reassembly, self.max_unsent = max_reassembly, max_unsent   # D-121: bounds over all connections
        self.owner_idle_timeout = owner_idle_timeout   # D-122: quiet this long, even an owner's connection closes
        self.evict_after = evict_after         # D-122: quiet this long, a connection makes way for a new one at a cap
        self.reassembling = 0                  # stub bytes of every partial (fragmented) request, on the loop
        self.unsent = 0                        # reply bytes of every connection not yet taken by its socket
        if min_auth_level > 1 and users is None:
            raise ValueError("an authentication level needs users to authenticate")
        self.users = users                     # dcerpc_auth.Users, or None: binds with an auth_verifier are naked
        self.min_auth_level = min_auth_level   # calls below it fault access denied ([MS-RPCE] 3.1.1.1.3)
        self.computer_name = computer_name     # NTLM's target information names it
        self.secondary_address = b""
        self.stopping = False
        self._log = log
        self._connection_log = connection_log
        self._lock = threading.Lock()          # what stats() and other threads read
        self._connections = {}                 # connection id -> Connection
        self._per_peer = collections.Counter()  # client address -> open connections
        self._groups = {}                      # assoc_group_id -> _Group
        self._threads = set()                  # started and not yet ended
        self._exited = []                      # ended but perhaps still unwinding: stop() joins them too
        self._connection_ids = itertools.count(1)
        self._group_numbers = itertools.count(1)
        self._group_base = secrets.randbits(32)
        self._workers = _Workers(self, max_connections)
        self._listener = self._events = None   # the listening socket, the EventLoop (after start)
        self._stopped = threading.Event()
        self._accepted = self._refused = self._closed_pdus = self._evicted = 0
        self._refusals = collections.Counter()  # reason -> connections refused since the last summary line
        self._refusal_logged = 0.0
        self._next_interface_tick = 0.0

    # -- logging ------------------------------------------------------------------------
    def log(self, line: str) -> None:
        if self._log is not None:
            self._log(line)
        else:
            _logger.info(line)

    def log_connection(self, line: str) -> None:
        """A connection opened or closed (mqspec serve writes these at --log-level debug only)."""
        if self._connection_log is not None:
            self._connection_log(line)
        else:
            self.log(line)

    def log_error(self, text: str) -> None:
        if self._log is not None:
            self._log(text)
        else:
            _logger.error(text)

    # -- life cycle ---------------------------------------------------------------------
    def start(self) -> Self:
        if self._listener is not None or self.stopping:
            raise RuntimeError("a DceRpcServer starts once")
        raise_file_limit(self.max_connections + 64)
        return_freed_memory()
        self._listener = self._listen(self.port)
        self._events = EventLoop(f"dcerpc-loop-{self.port}", self.log_error)
        self._events.selector.register(self._listener, selectors.EVENT_READ, self._accept)
        self._events.priority.add(self._listener.fileno())   # new clients are accepted whatever else is ready
        self._events.on_exit = self._shut_down
        self._events.call_at(self._events.now, self._tick)
        self.thread_started(self._events.thread)
        self._events.start()
        return self

    def _listen(self, port: int) -> socket.socket:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        listener = socket.create_server((self.host, port), family=family, backlog=1024)
        listener.setblocking(False)
        self.port = listener.getsockname()[1]
        self.secondary_address = str(self.port).encode("ascii") + b"\0"   # [C706] 12.6.4.4 port_any_t
        return listener

    def relisten(self, ports, before=None) -> int:
        """Stop listening, run `before()`, then listen on the first of `ports` that is free and return it;
        open connections stay.  A server restarting while its port is taken moves this way (MS-MQRR
        3.1.4.1).  OSError (EADDRINUSE) when none is free: the server then listens nowhere until stop().
        Called from any thread but the loop (a worker's call, a test)."""
        if self._listener is None or self.stopping or not ports:
            raise RuntimeError("relisten() needs a started server and at least one port")
        outcome = {}

        def move() -> None:
            try:
                if self._listener is not None:
                    self._events.selector.unregister(self._listener)
                    self._events.priority.discard(self._listener.fileno())
                    self._listener.close()
                    self._listener = None
                if before is not None:
                    before()
                for port in ports:
                    try:
                        self._listener = self._listen(port)
                        break
                    except OSError as error:
                        if error.errno != errno.EADDRINUSE or port == ports[-1]:
                            raise
                self._events.selector.register(self._listener, selectors.EVENT_READ, self._accept)
                self._events.priority.add(self._listener.fileno())
                outcome["port"] = self.port
            except BaseException as error:   # noqa: BLE001 - handed to the caller, who raises it
                outcome["error"] = error
            finally:
                done.set()

        done = threading.Event()
        if self._events.on_loop():
            move()
        else:
            self.post(move)
            done.wait()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["port"]

    def stop(self) -> None:
        if self._events is None or self.stopping:
            return
        self.stopping = True
        self._events.stop()                    # its on_exit, _shut_down, closes every connection
        self._workers.stop()
        deadline = time.monotonic() + 5
        for thread in self._thread_list():
            if thread is not threading.current_thread() and thread.is_alive():
                thread.join(max(0.0, deadline - time.monotonic()))
        for thread in self._thread_list():
            if thread.is_alive() and thread is not threading.current_thread():
                self.log_error(f"dcerpc: stop: thread {thread.name} still running (an Interface ignored "
                               f"call_abandoned)")
        self._stopped.set()

    def _thread_list(self) -> list:
        with self._lock:
            return list(self._threads) + list(self._exited)

    def serve_forever(self, ready=None) -> None:
        """Serve until stopped or until SIGINT or SIGTERM (from the main thread), calling `ready()` once the signals
        are caught.  The signals only raise a flag: an exception raised inside Event.wait can leave the event's lock
        held, and stop() would then hang on it."""
        if self._listener is None:
            self.start()
        asked: list[int] = []
        previous = {number: signal.signal(number, lambda number, frame: asked.append(number))
                    for number in (signal.SIGINT, signal.SIGTERM)}
        try:
            if ready is not None:
                ready()
            while not asked and not self._stopped.is_set():
                time.sleep(0.2)
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
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
                "connections_evicted": self._evicted,   # D-122: closed at a cap to let a new one in
                "pdus": self._closed_pdus + sum(c.pdus for c in connections),   # PDUs framed, all connections
                "reassembling": self.reassembling,   # bytes of partial requests (D-121: at most max_reassembly)
                "unsent": self.unsent,               # bytes of replies not yet taken by the sockets (D-121)
            }

    # -- what connections and workers ask of the loop -------------------------------------------
    def now(self) -> float:
        return self._events.now

    def post(self, job) -> None:
        """Run `job` on the loop soon (from any thread)."""
        self._events.post(job)

    def run_on_worker(self, job) -> bool:
        return self._workers.submit(job)

    def watch(self, connection: Connection) -> None:
        """Register the events the connection waits for now (reading, writing, both, none)."""
        if connection.closed:
            return
        events = (selectors.EVENT_READ if connection.wants_read() else 0) | (
            selectors.EVENT_WRITE if connection.wants_write() else 0)
        if events == connection.events:
            return
        selector = self._events.selector
        if not connection.events:
            selector.register(connection.sock, events, functools.partial(self._ready, connection))
        elif not events:
            selector.unregister(connection.sock)
        else:
            selector.modify(connection.sock, events, functools.partial(self._ready, connection))
        connection.events = events

    def unwatch(self, connection: Connection) -> None:
        self._settled_in(connection)
        if connection.events:
            self._events.selector.unregister(connection.sock)
            connection.events = 0

    def holds_state(self, group: _Group) -> bool:
        """Whether any Interface bound on the group keeps something of it (an Interface that cannot say is
        taken to keep something)."""
        for iface in list(group.interfaces.values()):
            holds = getattr(iface, "holds_state", None)
            try:
                if holds is None or holds(group.association):
                    return True
            except Exception:  # noqa: BLE001 - an Interface bug: logged, the association kept
                self.log_error(f"dcerpc: {type(iface).__name__}.holds_state raised\n{traceback.format_exc()}")
                return True
        return False

    # -- the loop ---------------------------------------------------------------------------------
    def _settled_in(self, connection: Connection) -> None:
        """A new connection's first read is done (or it closed): its events may wait their turn like any other."""
        if connection.newcomer:
            connection.newcomer = False
            self._events.priority.discard(connection.fd)

    def _ready(self, connection: Connection, mask: int) -> None:
        now = self._events.now
        if mask & selectors.EVENT_READ:
            self._settled_in(connection)
        if mask & selectors.EVENT_WRITE and not connection.closed:
            connection.writable(now)
        if mask & selectors.EVENT_READ and not connection.closed:
            connection.readable(now)
        if not connection.closed:
            self.watch(connection)

    def _tick(self) -> None:
        """The deadlines of the module docstring, checked every TICK seconds."""
        self._check_deadlines()
        self._events.call_at(self._events.now + TICK, self._tick)

    def _check_deadlines(self) -> None:
        now = self._events.now
        for connection in list(self._connections.values()):
            reason = connection.overdue(now)
            if reason is None:
                continue
            if connection.closed:
                connection.give_up_on_worker()
            else:
                connection.close(reason)
        if self.unsent > self.max_unsent:
            self._shed_output()
        if now >= self._next_interface_tick:   # an Interface's own housekeeping (its tick, when it has one)
            self._next_interface_tick = now + INTERFACE_TICK
            for iface, _minor in list(self.registry.values()):
                tick = getattr(iface, "tick", None)
                if tick is None:
                    continue
                try:
                    tick(now)
                except Exception:  # noqa: BLE001 - an Interface bug: logged, the loop goes on
                    self.log_error(f"dcerpc: {type(iface).__name__}.tick raised\n{traceback.format_exc()}")
        if now - self._refusal_logged >= REFUSAL_LOG_EVERY:
            for reason, count in sorted(self._refusals.items()):
                if count:
                    self.log(f"dcerpc: {count} more connection(s) refused: {reason}")
            self._refusals.clear()
            self._refusal_logged = now

    def _shed_output(self) -> None:
        """D-121: the replies no client has taken exceed max_unsent: close the connections whose replies have waited
        unread the longest until the rest fit (a client that reads is never the longest waiting)."""
        writers = sorted((c for c in self._connections.values() if c.output and not c.closed),
                         key=lambda c: c.output_since or 0.0)
        for connection in writers:
            if self.unsent <= self.max_unsent:
                break
            connection.close(f"unsent replies of all clients above {self.max_unsent} bytes: this one's waited "
                             f"unread the longest")

    def _shut_down(self) -> None:
        """stop(): no more accepting; every connection closed (a running call told at once); the workers'
        calls waited for (io_timeout + 5 s at most); every association ended."""
        self.stopping = True
        if self._listener is not None:
            self._listener.close()
        for connection in list(self._connections.values()):
            connection.close("server stopped")
        deadline = time.monotonic() + self.io_timeout + 5
        while any(c.active is not None for c in self._connections.values()) and time.monotonic() < deadline:
            self._events.pump(0.05)
        for connection in list(self._connections.values()):
            if connection.active is not None:
                connection.give_up_on_worker()
            else:
                connection.finish()
        for group in list(self._groups.values()):   # only if a call is stuck: its group still ends once
            self._end_group(group)
        self.thread_ended(threading.current_thread())

    # -- accepting ----------------------------------------------------------------------
    def _accept(self, mask: int = selectors.EVENT_READ) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                sock, peer = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:     # EMFILE and friends: say so; the backlog waits for the next turn
                self._refuse(f"accept failed ({exc.strerror or exc})", None)
                return
            try:
                self._admit(sock, peer)
            except OSError as exc:     # reset between accept() and its set-up: only that one is lost
                sock.close()
                self.log_connection(f"dcerpc: connection from {peer[0]}:{peer[1]} lost while set up ({exc})")

    def _admit(self, sock: socket.socket, peer) -> None:
        host = peer[0]
        if len(self._connections) >= self.max_connections and not self._evict(
                None, f"max_connections ({self.max_connections}) reached"):
            self._refuse(f"max_connections ({self.max_connections}) reached", peer)
            sock.close()           # after counting: a peer that sees the close sees the count
            return
        if self._per_peer[host] >= self.max_connections_per_peer and not self._evict(
                host, f"max_connections_per_peer ({self.max_connections_per_peer}) reached by {host}"):
            self._refuse(f"max_connections_per_peer ({self.max_connections_per_peer}) reached by {host}", peer)
            sock.close()
            return
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)       # replies are single sends
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)       # finds peers that vanished
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 60)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 10)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 6)
        connection = Connection(self, sock, peer, next(self._connection_ids), self._events.now)
        with self._lock:
            self._accepted += 1
            self._connections[connection.id] = connection
            self._per_peer[host] += 1
        self._events.selector.register(sock, selectors.EVENT_READ, functools.partial(self._ready, connection))
        connection.events = selectors.EVENT_READ
        self._events.priority.add(connection.fd)   # its first PDUs (bind, a call) are not queued behind a burst
        self.log_connection(f"dcerpc: connection #{connection.id} from {peer[0]}:{peer[1]} opened")

    def _evict(self, host: str | None, why: str) -> bool:
        """D-122: at a cap, close the connection (of `host`, or of anyone) that has been quiet the longest, if one has
        been quiet `evict_after` seconds (no call, no partial request, no unsent reply), to let a new one in; its
        association's context handles are run down when it was their last connection (MS-MQRR 3.1.6.2).  True if
        one was closed."""
        now, victim = self._events.now, None
        for connection in self._connections.values():
            if (host is None or connection.peer[0] == host) and connection.quiet_since(now) is not None and (
                    victim is None or connection.idle_since < victim.idle_since):
                victim = connection
        if victim is None or now - victim.idle_since < self.evict_after:
            return False
        self._evicted += 1
        victim.close(f"{why}: the connection quiet the longest ({now - victim.idle_since:.0f} s) made way for a new "
                     "one")
        return True

    def _refuse(self, reason: str, peer) -> None:
        """One line for the first refusal of a kind; later ones are counted and summed up every few seconds
        (a flood must not become a flood of log lines)."""
        if peer is not None:
            with self._lock:
                self._refused += 1
        if reason in self._refusals:
            self._refusals[reason] += 1
            return
        where = f" from {peer[0]}:{peer[1]}" if peer is not None else ""
        self.log(f"dcerpc: connection{where} refused: {reason}")
        self._refusals[reason] = 0

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
        self.log_connection(f"dcerpc: connection #{connection.id} from {connection.peer[0]}:{connection.peer[1]} "
                            f"closed: {reason}; assoc_group {group_text}, {connection.pdus} PDUs")
        with self._lock:
            self._connections.pop(connection.id, None)
            self._per_peer[connection.peer[0]] -= 1
            if self._per_peer[connection.peer[0]] <= 0:
                del self._per_peer[connection.peer[0]]
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

