"""What a served protocol's event loop is made of: one selector thread, a wake-up socket, deadlines, caps.

Theory of operation
-------------------
`EventLoop` is one thread that owns a `selectors` selector (epoll on Linux: no descriptor
limit, unlike select()).  Handlers register sockets with a callback; the loop sleeps in
select() until a socket is ready, the earliest deadline (`call_at`) is due, or another thread
wakes it (`post`, `wake`): with nothing ready and nothing due it sleeps for ever, so idle
connections cost no CPU.  Each turn it runs, in order: socket callbacks, posted jobs, due
deadlines, then `after_turn` (where a handler writes what other threads made ready).  A turn
handles at most TURN_EVENTS socket events and as many posted jobs, newly ready events first; the
rest wait for the next turns (a backlog), which follow at once: a burst of thousands of events
(every waiting read's connection dropped at once) is served in short turns, and a new client's
events are not queued behind it.
Deadlines are a heap; a cancelled one is only marked and dropped when it surfaces, and the
heap is emptied once no live deadline is left, so closed connections leave nothing behind.

`PeerCaps` admits a connection when fewer than `per_peer` are open from its address and fewer
than `total` in all; the refused are counted (the caller accepts and closes them at once).

`raise_file_limit` lifts the soft RLIMIT_NOFILE towards the hard one, so a server can hold more
than 1,024 sockets.  The DCE/RPC server (dcerpc_server.py) and the MS-MQQB listener
(adapters/mqqb/listener.py) both run on an EventLoop; the listener also counts with PeerCaps.
"""

from __future__ import annotations

import collections
import ctypes
import heapq
import itertools
import resource
import selectors
import socket
import threading
import time
import traceback

_WAKE = object()
M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
COMPACT_AT = 64        # cancelled deadlines the heap keeps before dropping them all at once
TURN_EVENTS = 128      # socket events, and posted jobs, handled in one turn at most: the turn stays short


def raise_file_limit(wanted: int) -> None:
    """Let the process hold `wanted` descriptors if the hard limit allows (the soft one is often 1024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass                               # the accept loop then says so when it runs out


def return_freed_memory() -> None:
    """glibc: serve every allocation of 128 KiB or more by mmap, always (a fixed M_MMAP_THRESHOLD; glibc otherwise
    raises it after each large free, up to 32 MiB), so the large buffers a flood made go back to the system once
    freed instead of staying in the heap (D-121).  Elsewhere: nothing."""
    try:
        ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    except (OSError, AttributeError):
        pass                                   # not glibc: its allocator decides


class Deadline:
    __slots__ = ("when", "callback", "cancelled")

    def __init__(self, when: float, callback) -> None:
        self.when, self.callback, self.cancelled = when, callback, False


class EventLoop:
    """Start with start(), stop with stop() (from any thread but the loop).  `log_error` gets the traceback of a
    callback that raised (the loop goes on)."""

    def __init__(self, name: str, log_error) -> None:
        self.name, self.log_error = name, log_error
        self.selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self.selector.register(self._wake_r, selectors.EVENT_READ, _WAKE)
        self._posted = collections.deque()     # callables other threads hand to the loop
        self._backlog: dict = {}               # fd -> (key, mask): ready events left for later turns (TURN_EVENTS)
        self.priority: set[int] = {self._wake_r.fileno()}   # fds never left for later: wake-ups, listening sockets
        self._heap: list[tuple[float, int, Deadline]] = []
        self._order = itertools.count()
        self._marked = 0                       # cancelled deadlines still in the heap
        self.after_turn = None                 # callable run at the end of every turn
        self.on_exit = None                    # callable run on the loop as it ends, before the selector closes
        self.stopping = False
        self.now = time.monotonic()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)

    # -- from any thread -----------------------------------------------------------------
    def start(self) -> EventLoop:
        self.thread.start()
        return self

    def on_loop(self) -> bool:
        return threading.current_thread() is self.thread

    def wake(self) -> None:
        try:
            self._wake_w.send(b"w")
        except (BlockingIOError, InterruptedError):
            pass                               # wake-ups are pending already: the loop will turn
        except OSError:
            pass                               # stopped: nothing listens for wake-ups any more

    def post(self, job) -> None:
        self._posted.append(job)
        self.wake()

    def stop(self, timeout: float | None = None) -> None:
        """End the loop after its current turn (on_exit then runs on it) and wait for it, unless called on it."""
        self.stopping = True
        self.wake()
        if not self.on_loop() and self.thread.is_alive():
            self.thread.join(timeout)

    # -- on the loop -------------------------------------------------------------------------
    def call_at(self, when: float, callback) -> Deadline:
        deadline = Deadline(when, callback)
        heapq.heappush(self._heap, (when, next(self._order), deadline))
        return deadline

    def cancel(self, deadline: Deadline | None) -> None:
        if deadline is not None and not deadline.cancelled:
            deadline.cancelled = True
            self._marked += 1
            if self._marked == len(self._heap):
                self._heap.clear()             # nothing live: a closed connection leaves no entry behind
                self._marked = 0
            elif self._marked > COMPACT_AT and 2 * self._marked > len(self._heap):
                self._heap = [entry for entry in self._heap if not entry[2].cancelled]
                heapq.heapify(self._heap)
                self._marked = 0

    def live_deadlines(self) -> int:
        return len(self._heap) - self._marked

    def _timeout(self) -> float | None:
        heap = self._heap
        while heap and heap[0][2].cancelled:
            heapq.heappop(heap)
            self._marked -= 1
        return None if not heap else max(0.0, heap[0][0] - time.monotonic())

    def _run(self) -> None:
        try:
            while not self.stopping:
                busy = self._backlog or len(self._posted) > TURN_EVENTS
                for key, mask in self._turn_events(self.selector.select(0 if busy else self._timeout())):
                    self.now = time.monotonic()
                    if key.data is _WAKE:
                        self._drain_wake()
                    else:
                        self._guarded(key.data, mask)
                key = None                     # a closed connection must not live on in this frame
                self.now = time.monotonic()
                for _ in range(min(len(self._posted), TURN_EVENTS)):   # the rest run next turn
                    self._guarded(self._posted.popleft())
                while self._heap and self._heap[0][0] <= self.now:   # a callback may compact: no local alias
                    _, _, deadline = heapq.heappop(self._heap)
                    if deadline.cancelled:
                        self._marked -= 1
                    else:
                        deadline.cancelled = True
                        self._guarded(deadline.callback)
                if self.after_turn is not None:
                    self._guarded(self.after_turn)
        finally:
            if self.on_exit is not None:
                self._guarded(self.on_exit)
            self.selector.close()
            self._wake_r.close()
            self._wake_w.close()

    def _turn_events(self, ready) -> list:
        """At most TURN_EVENTS of the ready events, those newly ready first: the others wait in the backlog (in
        the order they came), so a burst of thousands (a mass disconnect) neither holds one turn for seconds nor
        makes a new client wait behind it.  Events of `priority` fds (a listening socket: new clients) never wait.  Level-triggered events of the backlog are reported again each turn;
        one whose socket has gone or changed since is dropped when its turn comes."""
        backlog, fresh, chosen, priority = self._backlog, [], [], self.priority
        for key, mask in ready:
            if key.fd in priority:
                chosen.append((key, mask))
            elif key.fd in backlog:
                backlog[key.fd] = (key, mask)
            else:
                fresh.append((key, mask))
        if not backlog and len(fresh) <= TURN_EVENTS:
            return chosen + fresh
        chosen += fresh[:TURN_EVENTS]
        for key, mask in fresh[TURN_EVENTS:]:
            backlog[key.fd] = (key, mask)
        registered = self.selector.get_map()
        for fd in list(itertools.islice(backlog, max(TURN_EVENTS - len(chosen), TURN_EVENTS // 4))):
            key, mask = backlog.pop(fd)
            if registered.get(fd) is key:
                chosen.append((key, mask))
        return chosen

    def pump(self, timeout: float) -> None:
        """Wait up to `timeout` for a wake-up, then run what was posted: for an on_exit that waits for other threads'
        jobs (the DCE/RPC server's last calls) while no socket is served any more."""
        for key, _ in self.selector.select(timeout):
            if key.data is _WAKE:
                self._drain_wake()
        self.now = time.monotonic()
        while self._posted:
            self._guarded(self._posted.popleft())

    def _guarded(self, callback, *args) -> None:
        try:
            callback(*args)
        except Exception:  # noqa: BLE001 - a handler's bug: logged, the loop and the other connections go on
            self.log_error(f"{self.name}: a callback failed\n{traceback.format_exc()}")

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except (BlockingIOError, InterruptedError):
            pass


class PeerCaps:
    """Open connections per client address and in all, against their caps."""

    def __init__(self, per_peer: int, total: int) -> None:
        if per_peer < 1 or total < 1:
            raise ValueError("connection caps are 1 or more")
        self.per_peer, self.total = per_peer, total
        self.open = collections.Counter()     # client address -> open connections (no entry at 0)
        self.count = self.accepted = self.refused = 0

    def admit(self, host: str) -> str | None:
        """None and the connection counted, or why it is refused (naming no address: a log line's kind)."""
        if self.count >= self.total:
            self.refused += 1
            return f"{self.total} connections in all"
        if self.open[host] >= self.per_peer:
            self.refused += 1
            return f"{self.per_peer} connections from one address"
        self.open[host] += 1
        self.count += 1
        self.accepted += 1
        return None

    def release(self, host: str) -> None:
        self.count -= 1
        self.open[host] -= 1
        if self.open[host] <= 0:
            del self.open[host]
