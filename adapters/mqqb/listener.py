"""The served side of MS-MQQB: a listening port whose sessions go into a hosted target (capability mqqb_peer).

`MqqbListener` is a second loopback port of `mqspec serve` (MS-MQQB 2.1.1 names TCP 1801;
the port is ephemeral here and announced by the control interface's identity as
`mqqb_port`).  Each connection it accepts gets a connection into the hosted target
(`Target.mqqb_connect()`): what arrives goes to the session, and what the session writes, at
once or later when a timer fires on the target's clock, goes back.  When the session closes,
so does the socket (MS-MQQB 3.1.5.9).

Theory of operation
-------------------
One thread, an EventLoop (adapters/wire/event_loop.py: epoll through `selectors`, no
descriptor limit), owns every socket, all non-blocking; there is no thread per connection.
The loop sleeps until a socket is ready, a connection's deadline is due, or the hosted
target's output hook wakes it: after every call, `elapse` and timer run of the target (its
TimerDriver in real time) the hook writes to the loop's wake-up socket, and the loop then takes
what every session has to send (InProcessMqqbConnection.take_output, one pass under the
core's lock) and writes it.  Nothing polls: an idle session costs a socket and a few hundred
bytes.  A connection is in one of three states:

===============  ===================================  ============================  ===========================
event            HANDSHAKE (accepted, session not     OPEN (SessionState OPEN)      CLOSING (the session
                 yet OPEN)                                                          closed)
===============  ===================================  ============================  ===========================
bytes arrive     to the session; its answer written;  to the session; its answer    not read
                 OPEN once it says so                 written
session closed   CLOSING                              CLOSING                       -
output ready     written                              written                       written; closed when sent
EOF / reset      closed (MS-MQQB 3.1.7.3)             closed (3.1.7.3)              closed
deadline         closed: no handshake in              closed: packet, output or     closed: LINGER_S passed
                 handshake_timeout                    idle deadline                 with bytes unsent
===============  ===================================  ============================  ===========================

Deadlines (each connection has one alarm, its earliest; an alarm that fires early re-arms):
- handshake: EstablishConnection and ConnectionParameters done within `handshake_timeout` of the
  accept (default 30 s);
- whole packet: once a packet's first byte is in, all of it within `packet_timeout` (30 s): a
  declared 4 MiB packet trickled or never finished is closed;
- output: bytes the peer does not read must make progress within `packet_timeout`;
- idle: an OPEN session with no byte either way for `idle_timeout` (300 s, the DCE/RPC server's
  default; a peer queue manager opens a new session when it has something to send) is closed.

Where a packet starts the session knows (the reference's framing, mqqb_session.receive_data);
the listener learns from it how many bytes of an unfinished packet it holds, and reads only
that packet's 16-byte BaseHeader (PacketSize at offset 8, little-endian) for its bounds.
Bounds: one packet per connection in the session's buffer (PacketSize at most MAX_PACKET,
MS-MQMQ 2.2.19.1, plus a SessionHeader); in all, `max_input_total` bytes (64 MiB) of declared
packet sizes may be on their way at once: a connection whose packet does not fit waits, unread,
with its deadline running; unsent output at most `max_output` (1 MiB) per connection, else
closed.  Caps: `max_connections_per_peer` (256) from one address and `max_connections` (4,096) in
all; a connection above them is accepted and closed at once, and counted.  Nothing is kept of a
closed connection but the counters in stats().
"""

from __future__ import annotations

import collections
import functools
import selectors
import socket
import struct
import threading
import time

from ..wire.event_loop import EventLoop, PeerCaps, raise_file_limit

MAX_PACKET = 0x00400000       # MS-MQMQ 2.2.19.1 the largest PacketSize
BASE_HEADER = 16               # MS-MQMQ 2.2.19.1 BaseHeader: PacketSize is its uint32 at offset 8
SESSION_HEADER = 16            # MS-MQMQ 2.2.20.4 SessionHeader: a packet may carry one beyond PacketSize
UNREMARKABLE = ("peer closed", "session closed", "listener stopped")   # closes not worth a log line each
READ_CHUNK = 65536
READS_PER_TURN = 4             # recv() calls per ready connection per turn, so one peer cannot starve the rest
ACCEPT_BATCH = 64              # connections accepted per turn
ACCEPT_RETRY_S = 0.1           # after accept() failed (EMFILE): the listening socket is left alone this long
LINGER_S = 1.0                 # how long a closed session's last bytes may take to leave
REFUSAL_LOG_EVERY = 5.0        # seconds between log lines of one kind of refusal
HANDSHAKE, OPEN, CLOSING = "HANDSHAKE", "OPEN", "CLOSING"


class _Connection:
    __slots__ = ("sock", "peer", "session", "state", "accepted_at", "last_activity", "packet_started", "head",
                 "unread", "reserved", "paused", "out", "out_since", "closing_at", "events", "alarm", "ready")

    def __init__(self, sock, peer, session, now: float) -> None:
        self.sock, self.peer, self.session = sock, peer, session
        self.state = HANDSHAKE
        self.accepted_at = self.last_activity = now
        self.packet_started: float | None = None   # when the first byte of the unfinished packet came
        self.head = b""                            # that packet's first bytes, up to its BaseHeader
        self.unread = 0                            # bytes of it the session holds
        self.reserved = 0                          # its declared size, counted against max_input_total
        self.paused = False                        # waiting for room in max_input_total
        self.out = bytearray()                     # written by the session, not yet by the socket
        self.out_since = now                       # when the unsent output last moved
        self.closing_at = 0.0
        self.events = 0
        self.alarm = None
        self.ready = None                          # its selector callback


class MqqbListener:
    """stats(): connections (by state), per_peer, accepted, refused, closed (reason -> count), input_reserved,
    paused, deadlines (live alarms); {} once stopped."""

    def __init__(self, target, host: str = "127.0.0.1", port: int = 0, log=None, *, connection_log=None,
                 max_connections: int = 4096, max_connections_per_peer: int = 256,
                 handshake_timeout: float = 30.0, packet_timeout: float = 30.0, idle_timeout: float = 300.0,
                 max_input_total: int = 64 * 1024 * 1024, max_output: int = 1024 * 1024) -> None:
        if min(handshake_timeout, packet_timeout, idle_timeout) <= 0 or max_input_total < MAX_PACKET or \
                max_output < 1:
            raise ValueError("timeouts above 0, max_input_total of one packet (4 MiB) or more, max_output >= 1")
        self.target, self.log = target, log or (lambda line: None)
        self.connection_log = connection_log or self.log   # a session closed for a reason worth a line
        self.caps = PeerCaps(max_connections_per_peer, max_connections)
        self.handshake_timeout, self.packet_timeout, self.idle_timeout = handshake_timeout, packet_timeout, idle_timeout
        self.max_input_total, self.max_output = max_input_total, max_output
        raise_file_limit(max_connections + 64)
        self._socket = socket.create_server((host, port), backlog=1024)
        self._socket.setblocking(False)
        self.port = self._socket.getsockname()[1]
        self._connections: dict[int, _Connection] = {}   # socket fileno -> connection
        self._paused: set[_Connection] = set()
        self._input_reserved = 0
        self._closed = collections.Counter()   # reason -> connections closed for it
        self._refusals_logged: dict[str, float] = {}
        self._output_ready = False              # set by the target's hook, from any thread
        self.loop = EventLoop(f"mqqb-loop-{self.port}", self.log)
        self.loop.after_turn = self._after_turn
        self.loop.on_exit = self._finish
        self.loop.selector.register(self._socket, selectors.EVENT_READ, self._accept)
        target.watch_output(self._hook)
        self.loop.start()

    # -- other threads -------------------------------------------------------------------------
    def _hook(self) -> None:
        """The target may have given sessions bytes to send (called under its lock: only signal)."""
        if self._output_ready or not self._connections:
            return                 # the loop has not looked yet (it will see these bytes too), or nobody to write to
        self._output_ready = True
        if not self.loop.on_loop():
            self.loop.wake()

    def stats(self) -> dict:
        done, answer = threading.Event(), {}

        def read() -> None:
            states = collections.Counter(c.state for c in self._connections.values())
            answer.update(connections=len(self._connections), handshaking=states[HANDSHAKE], open=states[OPEN],
                          closing=states[CLOSING], per_peer=dict(self.caps.open), accepted=self.caps.accepted,
                          refused=self.caps.refused, closed=dict(self._closed), input_reserved=self._input_reserved,
                          paused=len(self._paused), deadlines=self.loop.live_deadlines())
            done.set()
        if self.loop.on_loop():
            read()
        elif self.loop.thread.is_alive():
            self.loop.post(read)
            done.wait(5)
        return answer

    def stop(self) -> None:
        self.target.unwatch_output(self._hook)
        self.loop.stop(timeout=5)

    def _finish(self) -> None:
        """On the loop as it ends: every connection closed, and the port."""
        self._socket.close()
        for connection in list(self._connections.values()):
            self._close(connection, "listener stopped")

    # -- accepting -----------------------------------------------------------------------------
    def _accept(self, mask: int) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                sock, peer = self._socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:   # EMFILE and friends: the backlog waits, and the loop does not spin on it
                self._refused_line(f"accept failed ({error.strerror or error})")
                self.loop.selector.unregister(self._socket)
                self.loop.call_at(self.loop.now + ACCEPT_RETRY_S, lambda: self.loop.selector.register(
                    self._socket, selectors.EVENT_READ, self._accept))
                return
            refusal = self.caps.admit(peer[0])
            if refusal is not None:
                sock.close()           # accepted and closed at once: the peer sees a close, not a hang
                self._refused_line(refusal, peer)
                continue
            try:
                sock.setblocking(False)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)   # acks are small single writes
            except OSError:
                sock.close()           # reset between accept() and its set-up
                self.caps.release(peer[0])
                continue
            connection = _Connection(sock, peer, self.target.mqqb_connect(), self.loop.now)  # MS-MQQB 3.1.5.10
            connection.ready = functools.partial(self._ready, connection)
            self._connections[sock.fileno()] = connection
            self._watch(connection)
            self._arm(connection)

    def _refused_line(self, reason: str, peer=None) -> None:
        """One line per kind of refusal every REFUSAL_LOG_EVERY seconds (a flood must not flood the log)."""
        now = time.monotonic()
        if now - self._refusals_logged.get(reason, -REFUSAL_LOG_EVERY) >= REFUSAL_LOG_EVERY:
            self._refusals_logged[reason] = now
            where = f" from {peer[0]}:{peer[1]}" if peer is not None else ""
            self.log(f"mqqb: connection{where} refused: {reason} ({self.caps.refused} refused so far)")

    # -- socket events ------------------------------------------------------------------------
    def _watch(self, connection: _Connection) -> None:
        reading = connection.state != CLOSING and not connection.paused
        events = (selectors.EVENT_READ if reading else 0) | (selectors.EVENT_WRITE if connection.out else 0)
        if events == connection.events:
            return
        selector = self.loop.selector
        if not connection.events:
            selector.register(connection.sock, events, connection.ready)
        elif not events:
            selector.unregister(connection.sock)
        else:
            selector.modify(connection.sock, events, connection.ready)
        connection.events = events

    def _ready(self, connection: _Connection, mask: int) -> None:
        if mask & selectors.EVENT_WRITE and connection.events:
            self._write(connection)
        if mask & selectors.EVENT_READ and connection.events:
            self._read(connection)
        self._settle(connection)

    def _read(self, connection: _Connection) -> None:
        for _ in range(READS_PER_TURN):
            try:
                data = connection.sock.recv(READ_CHUNK)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data = b""
            if not data:
                self._close(connection, "peer closed")   # MS-MQQB 3.1.7.3 the transport went away
                return
            connection.last_activity = self.loop.now
            self._feed(connection, data)
            if connection.state == CLOSING or connection.paused or connection.sock.fileno() < 0:
                return

    def _feed(self, connection: _Connection, data: bytes) -> None:
        before = connection.unread
        state = connection.session.exchange(data)
        self._apply(connection, state)
        if connection.sock.fileno() < 0 or state.closed:
            return
        if state.unread == 0:                                  # every packet whole
            self._packet_done(connection)
        elif before == 0 or state.unread < before + len(data):  # a new packet began in `data`
            self._packet_done(connection)
            connection.packet_started = self.loop.now
            connection.head = data[len(data) - state.unread:][:BASE_HEADER]
        elif len(connection.head) < BASE_HEADER:
            connection.head += data[:BASE_HEADER - len(connection.head)]
        connection.unread = state.unread
        if state.unread > MAX_PACKET + SESSION_HEADER:
            self._close(connection, "packet longer than MS-MQMQ 2.2.19.1 allows")
        elif state.unread and not connection.reserved and len(connection.head) >= BASE_HEADER:
            self._reserve(connection)

    def _reserve(self, connection: _Connection) -> None:
        declared = min(struct.unpack_from("<I", connection.head, 8)[0], MAX_PACKET) + SESSION_HEADER
        if self._input_reserved + declared > self.max_input_total:
            connection.paused = True           # read on when another packet is whole; its deadline runs meanwhile
            self._paused.add(connection)
            return
        connection.reserved = declared
        self._input_reserved += declared
        if connection.paused:
            connection.paused = False
            self._paused.discard(connection)

    def _packet_done(self, connection: _Connection) -> None:
        connection.packet_started, connection.head, connection.unread = None, b"", 0
        if connection.reserved:
            self._input_reserved -= connection.reserved
            connection.reserved = 0
            for waiting in list(self._paused):   # room again: the waiting may read on
                self._reserve(waiting)
                self._watch(waiting)
        if connection.paused:
            connection.paused = False
            self._paused.discard(connection)

    def _apply(self, connection: _Connection, state) -> None:
        """What the session said: its output to write, OPEN, closed."""
        if state.output:
            if not connection.out:
                connection.out_since = self.loop.now
            connection.out += state.output
            connection.last_activity = self.loop.now
            if len(connection.out) > self.max_output:
                self._close(connection, f"more than {self.max_output} bytes unread by the peer")
                return
            self._write(connection)
        if state.established and connection.state == HANDSHAKE:
            connection.state = OPEN
        if state.closed and connection.state != CLOSING and connection.sock.fileno() >= 0:
            connection.state = CLOSING         # MS-MQQB 3.1.5.9 no packet says so: the transport closes
            connection.closing_at = self.loop.now
            if not connection.out:
                self._close(connection, "session closed")

    def _write(self, connection: _Connection) -> None:
        if not connection.out or connection.sock.fileno() < 0:
            return
        try:
            sent = connection.sock.send(connection.out)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._close(connection, "peer reset")
            return
        if sent:
            del connection.out[:sent]
            connection.out_since = self.loop.now
        if not connection.out and connection.state == CLOSING:
            self._close(connection, "session closed")

    def _settle(self, connection: _Connection) -> None:
        if connection.sock.fileno() >= 0:
            self._watch(connection)
            self._arm(connection)

    def _after_turn(self) -> None:
        if not self._output_ready:
            return
        self._output_ready = False
        connections = list(self._connections.values())
        states = type(connections[0].session).take_output([c.session for c in connections]) if connections else []
        for connection, state in zip(connections, states):
            if connection.sock.fileno() >= 0:
                self._apply(connection, state)
                self._settle(connection)

    # -- deadlines ------------------------------------------------------------------------------
    def _due(self, connection: _Connection) -> tuple[float, str]:
        dues = []
        if connection.state == HANDSHAKE:
            dues.append((connection.accepted_at + self.handshake_timeout, "no handshake in time"))
        if connection.state == CLOSING:
            dues.append((connection.closing_at + LINGER_S, "session closed, last bytes unread"))
        if connection.packet_started is not None:
            dues.append((connection.packet_started + self.packet_timeout, "packet not whole in time"))
        if connection.out:
            dues.append((connection.out_since + self.packet_timeout, "output not read in time"))
        if connection.state == OPEN and connection.packet_started is None and not connection.out:
            dues.append((connection.last_activity + self.idle_timeout, "idle"))
        return min(dues)

    def _arm(self, connection: _Connection) -> None:
        when, _ = self._due(connection)
        alarm = connection.alarm
        if alarm is not None and not alarm.cancelled and alarm.when <= when:
            return                             # an earlier alarm will look again and re-arm
        self.loop.cancel(alarm)
        connection.alarm = self.loop.call_at(when, lambda c=connection: self._alarm(c))

    def _alarm(self, connection: _Connection) -> None:
        if connection.sock.fileno() < 0:
            return
        when, reason = self._due(connection)
        if when <= self.loop.now:
            self._close(connection, reason)
        else:
            connection.alarm = None
            self._arm(connection)

    # -- closing -------------------------------------------------------------------------------
    def _close(self, connection: _Connection, reason: str) -> None:
        sock = connection.sock
        if sock.fileno() < 0:
            return
        if connection.events:
            self.loop.selector.unregister(sock)
            connection.events = 0
        self._connections.pop(sock.fileno(), None)
        sock.close()
        self.loop.cancel(connection.alarm)
        connection.alarm = None
        connection.session.close()             # MS-MQQB 3.1.7.3 the session ends with its transport
        self._packet_done(connection)
        self.caps.release(connection.peer[0])
        self._closed[reason] += 1
        if reason not in UNREMARKABLE:
            self.connection_log(f"mqqb: connection from {connection.peer[0]}:{connection.peer[1]} closed: {reason}")
