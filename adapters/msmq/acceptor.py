"""The suite's own MS-MQQB port: where a host opens sessions back to the queue manager the suite plays.

A Windows host sends to another queue manager on a session it opens itself, to that queue
manager's MS-MQQB port (MS-MQQB 2.1.1, 3.1.7.12): the OrderAcks and FinalAcks of the
transactional messages the suite sent (D-76 new-session), and administration acknowledgments
whose administration queue is the suite's (3.1.7.15).  `Acceptor` listens on the address the
target URL names (`acceptor=HOST:PORT`; the host must be able to reach it) on a thread of its
own that only accepts; each accepted connection is handed, once, to whoever asks
`take_new()` (the suite's Peer answers its EstablishConnection and ConnectionParameters as an
acceptor, steps/mqqb_steps.py).
"""

from __future__ import annotations

import socket
import threading

from ..mqqb.tcp import TcpMqqbConnection

ACCEPT_POLL_S = 0.2      # how often the accepting thread looks whether it was stopped
MAX_WAITING = 64         # connections accepted and not yet taken; more are closed at once


class Acceptor:
    def __init__(self, host: str, port: int) -> None:
        self._socket = socket.create_server((host, port))
        self._socket.settimeout(ACCEPT_POLL_S)
        self.host, self.port = host, self._socket.getsockname()[1]
        self._new: list[TcpMqqbConnection] = []
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._accept, name=f"msmq-acceptor-{self.port}", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stopped.is_set():
            try:
                sock, _ = self._socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return          # the listening socket was closed
            with self._lock:
                if len(self._new) >= MAX_WAITING:
                    sock.close()
                    continue
                self._new.append(TcpMqqbConnection.accepted(sock))

    def take_new(self) -> list[TcpMqqbConnection]:
        """The connections accepted since the last call."""
        with self._lock:
            new, self._new = self._new, []
        return new

    def stop(self) -> None:
        self._stopped.set()
        self._socket.close()
        self._thread.join(5)
        for connection in self.take_new():
            connection.close()
