"""Serving an in-process Target on the wire: RemoteRead and the control interface on one port.

`serve(target, host, port)` starts a DceRpcServer with both interfaces and returns
the running `Served`.  MS-MQRR 3.1.4.1: when the port asked for is busy the
server tries that port plus 11, plus 22, and so on; `Served.port` is the one it
got, and what R_GetServerPort answers.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass

from protocol.idl import PORT_STEP

from ..target import Target
from .control import ControlService
from .dcerpc_server import DceRpcServer
from .service import RemoteReadService

ANNOUNCED = frozenset({"virtual_time", "restart", "list_messages", "reset"})  # what the control channel passes on
PORT_TRIES = 16


@dataclass
class Served:
    server: DceRpcServer
    remote_read: RemoteReadService
    control: ControlService

    @property
    def port(self) -> int:
        return self.server.port

    def stop(self) -> None:
        self.server.stop()

    def __enter__(self) -> "Served":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def serve(target: Target, host: str = "127.0.0.1", port: int = 0, *, log=None, tries: int = PORT_TRIES) -> Served:
    """Start serving `target`; OSError when no port of the sequence can be bound."""
    remote_read = RemoteReadService(target)
    control = ControlService(target, target.capabilities & ANNOUNCED, remote_read)
    candidates = [port + attempt * PORT_STEP for attempt in range(tries)] if port else [0]
    for candidate in candidates:
        server = DceRpcServer([remote_read, control], host, candidate, log=log)
        try:
            server.start()
        except OSError as error:
            if error.errno != errno.EADDRINUSE or candidate == candidates[-1]:
                raise
            continue  # MS-MQRR:3.1.4.1:02 a busy port: try 11 higher
        remote_read.port = server.port  # MS-MQRR:3.1.4.1:01 R_GetServerPort answers the port in use
        return Served(server, remote_read, control)
    raise AssertionError("every candidate port either served or raised")
