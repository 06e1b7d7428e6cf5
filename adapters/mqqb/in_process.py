"""The in-process side of capability `mqqb_peer`: a connection straight into the reference's MS-MQQB session.

The reference's session (reference/mqqb_session.py) does no I/O: this connection hands it
the suite's bytes and hands back what it wrote, under the core's lock like every other
call, so its timers fire when the clock moves: by `elapse` in virtual time, or on their own when the
target runs in real time (capability real_time: the core's TimerDriver).
A restart or reset of the queue manager ends the connection, as it would end a TCP one.

The served listener (listener.py) uses `take_output` instead of `receive`: one pass under the
lock over all its connections, which neither runs timers nor tells the output hooks (it is what
they asked for), and also says which sessions are OPEN and how many bytes of an unfinished
packet each holds (for its handshake and whole-packet deadlines).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


from .connection import MqqbConnection

PEER_ADDRESS = "127.0.0.1"  # RemoteQMAddress of the suite's queue manager (MS-MQQB 3.1.1.3.1)


def _receiver(qm):
    """The queue manager's MS-MQQB receiver, made on first use from the same package as the queue manager
    (the reference or a variant of it)."""
    if qm.mqqb is None:
        package = type(qm).__module__.rpartition(".")[0]
        importlib.import_module(f"{package}.mqqb_arrival").MqqbReceiver(qm)
    return qm.mqqb


@dataclass(frozen=True)
class SessionState:
    output: bytes         # what the session wrote since the last look
    closed: bool
    established: bool     # SessionState OPEN: EstablishConnection and ConnectionParameters are done
    unread: int           # bytes of a packet not yet whole, held by the session


class InProcessMqqbConnection(MqqbConnection):
    def __init__(self, core, session=None) -> None:
        self._core = core
        self._handed: list = []      # sessions the queue manager initiated that this connection handed out
        with core.lock:
            self._qm = core.qm
            # MS-MQQB 3.1.5.10 a connection the suite opens, or one the queue manager opened (D-76 new-session)
            self._session = session or _receiver(core.qm).accept(PEER_ADDRESS)

    def _current(self) -> bool:
        return self._qm is self._core.qm  # a restarted queue manager has forgotten the session

    def send(self, data: bytes) -> None:
        self._core.call(lambda: self._session.receive_data(bytes(data)) if self._current() else None)

    def receive(self, wait_ms: int = 0) -> bytes:
        # What timers wrote since the last call is here too: they fire on the core's clock, not on this call.
        return self._core.call(lambda: self._session.data_to_send() if self._current() else b"")

    @property
    def closed(self) -> bool:
        return not self._current() or self._session.closed

    def opened_by_target(self) -> list[MqqbConnection]:
        def pick():
            if not self._current():
                return []
            fresh = [s for s in self._qm.mqqb.initiated if s.remote_qm_guid == self._session.remote_qm_guid
                     and s not in self._handed]
            self._handed += fresh
            return fresh
        return [InProcessMqqbConnection(self._core, session) for session in self._core.call(pick)]

    def close(self) -> None:
        self._core.call(lambda: self._session.close() if self._current() else None)  # MS-MQQB 3.1.7.3

    def exchange(self, data: bytes) -> SessionState:
        """send(data), then the session's SessionState, under the lock once (the listener's feed)."""
        def feed() -> SessionState:
            if self._current():
                self._session.receive_data(bytes(data))
            return self._state()
        return self._core.call(feed)

    @staticmethod
    def take_output(connections: list[InProcessMqqbConnection]) -> list[SessionState]:
        """Every connection's SessionState, under the core's lock once (all share one core)."""
        if not connections:
            return []
        with connections[0]._core.lock:
            return [connection._state() for connection in connections]

    def _state(self) -> SessionState:
        if not self._current():
            return SessionState(b"", True, False, 0)
        session = self._session
        # the session's input buffer (sans-I/O: it keeps a partial packet until it is whole)
        return SessionState(session.data_to_send(), session.closed, session.established, session.unread_bytes)
