"""Serving an in-process Target on the wire: RemoteRead and the control interface on one port.

`serve(target, host, port)` starts a DceRpcServer with both interfaces and returns
the running `Served`.  MS-MQRR 3.1.4.1: when the port asked for is busy the
server tries that port plus 11, plus 22, and so on; `Served.port` is the one it
got, and what R_GetServerPort answers.  Port 0 asks for any free sequence: one whose ports
all lie below the kernel's ephemeral range, so that a client connection's local port
cannot take one of them while the server is restarted.
"""

from __future__ import annotations

import errno
import random
import socket
from dataclasses import dataclass, field
from pathlib import Path

from mqspec.protocol.idl import PORT_STEP

from .target import Target
from .mqrr.control import ControlService
from .wire.dcerpc_server import DceRpcServer
from .mqrr.judging import JudgingService
from .mqrr.service import RemoteReadService

EPHEMERAL_RANGE = "/proc/sys/net/ipv4/ip_local_port_range"
# passed on by control
ANNOUNCED = frozenset({"virtual_time", "real_time", "restart", "list_messages", "reset", "configure",
                       "queue_manager_quota"})
PORT_TRIES = 16


@dataclass
class Served:
    server: DceRpcServer
    remote_read: RemoteReadService
    control: ControlService
    first_port: int = 0                 # where the port sequence starts: the port asked for, else the one drawn
    holders: list = field(default_factory=list)   # sockets of "another program" holding ports of the sequence
    mqqb: object = None                           # the MS-MQQB listener on a second port (mqqb/listener.py, mqqb_peer)

    @property
    def port(self) -> int:
        return self.server.port

    def restart_holding_ports(self, count: int) -> int:
        """Restart the queue manager while the first `count` ports of the sequence are held, and return the
        port RemoteRead is then served on (control operation restart_holding_ports, capability port_conflict).
        Connections stay open, as after `restart`, but their context handles mean nothing any more."""
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count < PORT_TRIES:
            raise ValueError(f"count must be a whole number from 0 to {PORT_TRIES - 1}, not {count!r}")
        self.release_ports()
        sequence = [self.first_port + attempt * PORT_STEP for attempt in range(PORT_TRIES)]

        def hold_and_restart() -> None:
            for port in sequence[:count]:
                try:
                    self.holders.append(socket.create_server((self.server.host, port)))
                except OSError:
                    pass  # someone else holds it already: taken either way
            self.control.target.restart()
            self.remote_read.forget_all()

        try:
            port = self.server.relisten(sequence, before=hold_and_restart)  # MS-MQRR:3.1.4.1:02 +11 until free
        except OSError as error:
            raise ValueError(f"no port from {sequence[0]} in steps of {PORT_STEP} is free ({error}); "
                             "the server now listens nowhere") from None
        self.remote_read.port = port  # MS-MQRR:3.1.4.1:01 R_GetServerPort answers the port in use
        return port

    def release_ports(self) -> None:
        while self.holders:
            self.holders.pop().close()

    def stop(self) -> None:
        if self.mqqb is not None:
            self.mqqb.stop()
        self.server.stop()
        self.release_ports()

    def __enter__(self) -> "Served":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def serve(target: Target, host: str = "127.0.0.1", port: int = 0, *, log=None, connection_log=None,
          tries: int = PORT_TRIES,
          users=None, auth_level: int = 1, idle_timeout: float | None = 300.0, judge: bool = False,
          real_time: bool = True, mqqb_options: dict | None = None, operators=None, max_connections: int = 4096,
          max_connections_per_peer: int = 256, with_control: bool = True) -> Served:
    """Start serving `target`; OSError when no port of the sequence can be bound.  `log` takes what the servers
    say (refusals, failures), `connection_log` a line per connection opened or closed (default: `log`; see
    serve_log.py).  With `users` (dcerpc_auth.Users)
    binds may authenticate (NTLM, SPNEGO) and calls below `auth_level` are refused.  With `judge` every RemoteRead
    call is recorded and faults can be injected (judging.py; capability judge).  With `real_time` (the default) the
    queue manager's clock follows the wall clock from now, so a real peer's timers are served with no control call;
    the suite's `reset` holds it again (virtual time).  `mqqb_options` go to the MqqbListener (its port, caps and
    deadlines); `max_connections` and `max_connections_per_peer` are the DCE/RPC server's caps (D-122).  With
    `users`, only the accounts named by `operators` (default: the first of `users`) may use the control interface
    beyond `identity` (D-130).  Without `with_control` the control interface is not served: only what a Windows
    host offers (mqspec serve --as-windows)."""
    service = JudgingService if judge else RemoteReadService
    remote_read = service(target, authenticated=users is not None)
    # anonymous: a server with accounts that also takes calls with no security context (D-81's Anonymous Logon)
    control = ControlService(target, (target.capabilities & ANNOUNCED) | ({"judge"} if judge else set())
                             | ({"anonymous"} if users is not None and auth_level <= 1 else set()), remote_read,
                             operators=operators_of(users, operators))
    port = port or free_sequence(host, tries)
    candidates = [port + attempt * PORT_STEP for attempt in range(tries)]
    for candidate in candidates:
        server = DceRpcServer([remote_read, control] if with_control else [remote_read], host, candidate, log=log,
                              connection_log=connection_log, users=users, min_auth_level=auth_level,
                              computer_name=target.computer_name, idle_timeout=idle_timeout,
                              max_connections=max_connections, max_connections_per_peer=max_connections_per_peer)
        try:
            server.start()
        except OSError as error:
            if error.errno != errno.EADDRINUSE or candidate == candidates[-1]:
                raise
            continue  # MS-MQRR:3.1.4.1:02 a busy port: try 11 higher
        remote_read.port = server.port  # MS-MQRR:3.1.4.1:01 R_GetServerPort answers the port in use
        served = Served(server, remote_read, control, first_port=port)
        control.restart_holding_ports = served.restart_holding_ports
        control.capabilities = control.capabilities | {"port_conflict", "calls_in_order"}   # D-150: admit()
        if "mqqb_peer" in target.capabilities:
            from .mqqb.listener import MqqbListener  # MS-MQQB sessions on a second port, announced by identity
            served.mqqb = MqqbListener(target, host, log=log, connection_log=connection_log,
                                       **(mqqb_options or {}))
            control.mqqb_port = served.mqqb.port
            control.capabilities = control.capabilities | {"mqqb_peer"}
        if real_time:
            target.run_in_real_time()
        return served
    raise AssertionError("every candidate port either served or raised")


def operators_of(users, operators) -> frozenset[str] | None:
    """D-130: the accounts (lower case) that may set scenes up; None on a server that authenticates nobody (every
    caller, as every caller is the same there).  ValueError for an operator who is not one of `users`."""
    if users is None:
        if operators:
            raise ValueError("operators are accounts: they need users")
        return None
    if operators is None:
        return frozenset(list(users.accounts)[:1])   # the first account of the users file
    names = frozenset(name.lower() for name in operators)
    unknown = sorted(name for name in names if users.nt_hash(name) is None)
    if unknown or not names:
        raise ValueError(f"an operator must be an account of the users file, not {', '.join(unknown) or 'nobody'}")
    return names


def free_sequence(host: str, tries: int) -> int:
    """A first port whose `tries` ports in steps of PORT_STEP are all free now and all below the ephemeral
    range (where connect() picks local ports); OSError when 200 draws find none."""
    try:
        low = int(Path(EPHEMERAL_RANGE).read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768   # the Linux default, and close to what other systems use
    top = min(low, 65536) - tries * PORT_STEP
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for _ in range(200):
        first = random.randrange(1024, max(top, 1025))
        held = []
        try:
            for attempt in range(tries):
                held.append(socket.create_server((host, first + attempt * PORT_STEP), family=family))
            return first
        except OSError:
            continue
        finally:
            for holder in held:
                holder.close()
    raise OSError(errno.EADDRINUSE, f"no free sequence of {tries} ports in steps of {PORT_STEP} below {low}")
