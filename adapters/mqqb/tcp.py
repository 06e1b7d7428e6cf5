"""The client side of MS-MQQB over TCP: the suite's connection to a queue manager's MS-MQQB port.

`TcpMqqbConnection` is a plain TCP connection to `mqspec serve`'s MS-MQQB port, or to a
real queue manager's 1801 (MS-MQQB 2.1.1), carrying the bytes the suite writes and reads.
"""

from __future__ import annotations

import select
import socket

from .connection import MqqbConnection


class TcpMqqbConnection(MqqbConnection):
    def __init__(self, host: str, port: int, timeout: float = 5.0) -> None:
        self._socket = socket.create_connection((host, port), timeout=timeout)
        self._closed = False

    @classmethod
    def accepted(cls, sock: socket.socket) -> "TcpMqqbConnection":
        """A connection a queue manager opened to the suite's own MS-MQQB port (D-76 new-session)."""
        connection = cls.__new__(cls)
        connection._socket, connection._closed = sock, False
        return connection

    def send(self, data: bytes) -> None:
        if not self._closed:
            try:
                self._socket.sendall(data)
            except OSError:
                self._closed = True

    def receive(self, wait_ms: int = 0) -> bytes:
        """Waits up to wait_ms for the first bytes, then takes whatever else is already there."""
        out = bytearray()
        timeout = wait_ms / 1000
        while not self._closed:
            readable, _, _ = select.select([self._socket], [], [], timeout)
            if not readable:
                break
            try:
                data = self._socket.recv(65536)
            except OSError:
                data = b""
            if not data:
                self._closed = True
                break
            out += data
            timeout = 0.05  # a packet may come in pieces
        return bytes(out)

    @property
    def seen_closed(self) -> bool:
        """Closed, as far as the last send or receive showed (no wait, unlike `closed`)."""
        return self._closed

    @property
    def closed(self) -> bool:
        if not self._closed:
            readable, _, _ = select.select([self._socket], [], [], 0.3)  # the server closes after its last packet
            try:
                self._closed = bool(readable) and not self._socket.recv(1, socket.MSG_PEEK)
            except OSError:
                self._closed = True
        return self._closed

    def close(self) -> None:
        self._closed = True
        self._socket.close()
