"""A transport connection to a queue manager's MS-MQQB port, for the suite playing another queue manager.

Target capability `mqqb_peer`: `Target.mqqb_connect()` opens the connection an initiator
opens to start a session (MS-MQQB 2.1.1: TCP port 1801 on a real server).  The connection
carries bytes and nothing else; the suite writes every packet itself (adapters/mqqb/packets.py)
and reads what comes back, so the same steps judge any queue manager.

    send(data)        the bytes go to the queue manager, as written
    receive(wait_ms)  the bytes it sent since the last call; waits up to `wait_ms` for the
                      first of them (0: what is there now)
    closed            the queue manager closed the connection (MS-MQQB 3.1.5.9: a session
                      closes with its transport, no packet says so)
    close()           the suite lets go of the connection
    opened_by_target()  connections the queue manager opened since the last call to the queue
                      manager on the other end of this one, to deliver to it on a session of
                      its own (spec/decisions.md D-76, new-session); the suite answers them as
                      an acceptor
"""

from __future__ import annotations

from abc import ABC, abstractmethod


class MqqbConnection(ABC):
    @abstractmethod
    def send(self, data: bytes) -> None: ...

    @abstractmethod
    def receive(self, wait_ms: int = 0) -> bytes: ...

    @property
    @abstractmethod
    def closed(self) -> bool: ...

    @abstractmethod
    def close(self) -> None: ...

    def opened_by_target(self) -> list[MqqbConnection]:
        return []
