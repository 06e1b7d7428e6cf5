"""MS-MQQB sessions over TCP for `mqspec serve` and the mqrr:// client (capability mqqb_peer).

`MqqbListener` is the served side: a second loopback port (MS-MQQB 2.1.1 names TCP 1801;
the port is ephemeral here and announced by the control interface's identity as
`mqqb_port`).  Each connection it accepts gets a connection into the hosted target
(`Target.mqqb_connect()`) and a thread that copies bytes both ways: what arrives goes to
the session, and what the session writes, at once or later when a timer fires on the
target's clock, goes back.  When the session closes, so does the socket (MS-MQQB 3.1.5.9).

`TcpMqqbConnection` is the client side: a plain TCP connection to such a port, or to a
real queue manager's 1801.
"""

from __future__ import annotations

import select
import socket
import threading

from ..mqqb_connection import MqqbConnection

POLL_SECONDS = 0.02  # how soon what a timer made the session write reaches the socket


class MqqbListener:
    def __init__(self, target, host: str = "127.0.0.1", port: int = 0, log=None) -> None:
        self.target, self.log = target, log or (lambda line: None)
        self._socket = socket.create_server((host, port))
        self.port = self._socket.getsockname()[1]
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._clients: list[socket.socket] = []
        self._lock = threading.Lock()
        accept = threading.Thread(target=self._accept_loop, name="mqqb-accept", daemon=True)
        accept.start()
        self._threads.append(accept)

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                client, address = self._socket.accept()
            except OSError:
                return  # the listening socket was closed by stop()
            with self._lock:
                self._clients.append(client)
            worker = threading.Thread(target=self._serve, args=(client, address), name="mqqb-session", daemon=True)
            worker.start()
            self._threads.append(worker)

    def _serve(self, client: socket.socket, address) -> None:
        self.log(f"MS-MQQB session from {address[0]}:{address[1]}")
        session = self.target.mqqb_connect()  # MS-MQQB 3.1.5.10 a transport connection arrived
        try:
            while not self._stopping.is_set():
                readable, _, _ = select.select([client], [], [], POLL_SECONDS)
                if readable:
                    data = client.recv(65536)
                    if not data:
                        break  # MS-MQQB 3.1.7.3 the peer went away
                    session.send(data)
                out = session.receive(0)
                if out:
                    client.sendall(out)
                if session.closed:
                    break  # MS-MQQB 3.1.5.9 no packet says so: the transport closes
        except OSError:
            pass  # the peer reset the connection: the session closes below, as 3.1.7.3 says
        finally:
            session.close()
            client.close()
            with self._lock:
                if client in self._clients:
                    self._clients.remove(client)

    def stop(self) -> None:
        self._stopping.set()
        self._socket.close()
        with self._lock:
            for client in self._clients:
                try:
                    client.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        for thread in self._threads:
            thread.join(timeout=2)


class TcpMqqbConnection(MqqbConnection):
    def __init__(self, host: str, port: int, timeout: float = 5.0) -> None:
        self._socket = socket.create_connection((host, port), timeout=timeout)
        self._closed = False

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
