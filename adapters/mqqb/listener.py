"""The served side of MS-MQQB: a listening port whose sessions go into a hosted target (capability mqqb_peer).

`MqqbListener` is a second loopback port of `mqspec serve` (MS-MQQB 2.1.1 names TCP 1801;
the port is ephemeral here and announced by the control interface's identity as
`mqqb_port`).  Each connection it accepts gets a connection into the hosted target
(`Target.mqqb_connect()`) and a thread that copies bytes both ways: what arrives goes to
the session, and what the session writes, at once or later when a timer fires on the
target's clock, goes back.  When the session closes, so does the socket (MS-MQQB 3.1.5.9).
"""

from __future__ import annotations

import select
import socket
import threading

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
