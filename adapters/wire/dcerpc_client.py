"""Client connections to one RPC interface, all in one association group (impacket underneath).

Theory of operation
-------------------
An MS-MQRR client needs several calls in flight: a Start*Receive may wait for
minutes while R_CancelReceive, for the same context handle, has to reach the
server.  A connection-oriented RPC connection carries one call at a time, so a
`Pool` keeps as many connections as there are calls in flight, and binds every
one of them into the association group of the first ([C706] 12.4: context
handles belong to the association group, so a handle opened on one connection
is good on all of them).  impacket's client offers no way to name the group in
its bind; `_Transport` writes the group id into the bind PDU it sends
(assoc_group_id, [C706] 12.6.4.3) and reads the one the bind_ack hands back.
It also keeps the status of a fault PDU, which impacket turns into an exception
text, so a refused call comes back as its status.

impacket binds every connection and carries every call of an authenticated
one (signing, sealing).  A connection without authentication carries its calls
on a lean path of its own (`_Connection.call`): request PDUs built with struct,
fragmented to the server's max_recv_frag, response fragments read back whole;
impacket's per-PDU structure objects cost more than the server's whole call.

`Pool.call(opnum, stub, timeout)` returns (status, stub): status None and the
response stub, or the fault status and b"" (`Pool.start` sends now and waits
later).  A pool given a WireCapture taps every PDU its connections send and
receive into it (capture.py).  `Pool.close(abrupt=True)` resets
every connection at once, as a client that dies does.
"""

from __future__ import annotations

import contextlib
import functools
import select
import socket
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass

from impacket.dcerpc.v5 import rpcrt, transport as impacket_transport
from impacket.dcerpc.v5.rpcrt import DCERPCException

from mqspec.protocol.hresult import RpcStatus

from .capture import WireCapture

NDR20 = ("8a885d04-1ceb-11c9-9fe8-08002b104860", "2.0")
NDR64 = ("71710533-beba-4937-8319-b5dbef9ccc36", "1.0")
AUTH_LEVELS = {"none": rpcrt.RPC_C_AUTHN_LEVEL_NONE, "connect": rpcrt.RPC_C_AUTHN_LEVEL_CONNECT,
               "integrity": rpcrt.RPC_C_AUTHN_LEVEL_PKT_INTEGRITY, "privacy": rpcrt.RPC_C_AUTHN_LEVEL_PKT_PRIVACY}
_REQUEST, _RESPONSE, _FAULT, _BIND, _BIND_ACK, _ALTER_CONTEXT = 0, 2, 3, 11, 12, 14   # [C706] 12.6.4 PTYPE
_FIRST, _LAST = 0x01, 0x02                    # [C706] 12.6.3.1 PFC_FIRST_FRAG, PFC_LAST_FRAG
_ASSOC_GROUP = struct.Struct("<I")
_FRAG_LENGTH = struct.Struct("<H")
_MAX_XMIT = struct.Struct("<H")
_REQUEST_HEADER = struct.Struct("<BBBB4sHHIIHH")   # [C706] 12.6.4.9 request PDU, little-endian NDR
_DREP = b"\x10\x00\x00\x00"
_HEADER = 16
_BODY = 24                                    # header plus alloc_hint, p_cont_id, opnum / cancel_count


class ConnectError(OSError):
    """The server cannot be reached or refuses the bind; the message says why in one line."""


@dataclass(frozen=True)
class Credentials:
    user: str = ""
    domain: str = ""
    password: str = ""
    lm_hash: str = ""
    nt_hash: str = ""
    auth_level: str = "none"   # a key of AUTH_LEVELS


class _Transport(impacket_transport.TCPTransport):
    """ncacn_ip_tcp that binds into a chosen association group and remembers fault statuses."""

    def __init__(self, host: str, port: int, assoc_group: int, tap=None) -> None:
        super().__init__(host, port)
        self.assoc_group = assoc_group
        self.tap = tap   # tap(direction, data): what goes out and comes in, for a WireCapture
        self.fault: int | None = None
        self.max_xmit_frag = 4280   # [C706] 12.6.4.3: what the server's bind_ack says it can receive
        self._pending = b""   # bytes of the fragment being received

    def send(self, data, forceWriteAndx=0, forceRecv=0):
        if len(data) >= 24 and data[2] in (_BIND, _ALTER_CONTEXT) and self.assoc_group:
            data = data[:20] + _ASSOC_GROUP.pack(self.assoc_group) + data[24:]  # [C706] 12.6.4.3 assoc_group_id
        self.fault = None
        if self.tap is not None:
            self.tap("out", data)
        return super().send(data, forceWriteAndx, forceRecv)

    def recv(self, forceRecv=0, count=0):
        data = super().recv(forceRecv, count)
        self._pending += data
        while len(self._pending) >= 10:
            length = _FRAG_LENGTH.unpack_from(self._pending, 8)[0]
            if length < 16 or len(self._pending) < length:
                break
            fragment, self._pending = self._pending[:length], self._pending[length:]
            if self.tap is not None:
                self.tap("in", fragment)
            if fragment[2] == _BIND_ACK and length >= 24:
                self.assoc_group = _ASSOC_GROUP.unpack_from(fragment, 20)[0]
                self.max_xmit_frag = _MAX_XMIT.unpack_from(fragment, 18)[0]   # the server's max_recv_frag
            elif fragment[2] == _FAULT and length >= 28:
                self.fault = _ASSOC_GROUP.unpack_from(fragment, 24)[0]   # [C706] 12.6.4.7 status
        return data


class _Connection:
    def __init__(self, transport: _Transport, dce, lean: bool) -> None:
        self.transport, self.dce, self.lean = transport, dce, lean
        self.call_id = 1000

    def socket(self) -> socket.socket:
        return self.transport.get_socket()

    def call(self, opnum: int, stub: bytes) -> tuple[int | None, bytes]:
        """One call: (None, response stub) or (fault status, b""); OSError when the connection breaks."""
        self.send(opnum, stub)
        return self.answer()

    def send(self, opnum: int, stub: bytes) -> None:
        """The request of one call, written whole; OSError when the connection breaks."""
        if not self.lean:
            try:
                self.dce.call(opnum, stub)
            except DCERPCException:
                raise OSError("the connection broke while sending the call") from None
            return
        sock, self.call_id = self.socket(), self.call_id + 1
        room = max(8, (self.transport.max_xmit_frag - _BODY) & ~7)
        chunks = [stub[at:at + room] for at in range(0, len(stub), room)] or [b""]
        parts = []
        for index, chunk in enumerate(chunks):
            flags = (_FIRST if index == 0 else 0) | (_LAST if index == len(chunks) - 1 else 0)
            parts.append(_REQUEST_HEADER.pack(5, 0, _REQUEST, flags, _DREP, _BODY + len(chunk), 0, self.call_id,
                                              len(stub) - index * room, 0, opnum) + chunk)
        data = b"".join(parts)
        if self.transport.tap is not None:
            self.transport.tap("out", data)
        sock.sendall(data)

    def answer(self) -> tuple[int | None, bytes]:
        """The answer to the call sent: (None, response stub) or (fault status, b""); OSError when the connection
        breaks."""
        if not self.lean:
            try:
                return None, self.dce.recv()
            except DCERPCException:
                if self.transport.fault is None:
                    raise OSError("the connection broke during the call") from None
                return self.transport.fault, b""
        sock = self.socket()
        answer = []
        while True:
            fragment = read_pdu(sock)
            if self.transport.tap is not None:
                self.transport.tap("in", fragment)
            if fragment[2] == _FAULT:
                return _ASSOC_GROUP.unpack_from(fragment, 24)[0], b""   # [C706] 12.6.4.7 status
            if fragment[2] != _RESPONSE:
                raise OSError(f"the server answered with a PDU of type {fragment[2]}")
            answer.append(fragment[_BODY:])
            if fragment[3] & _LAST:
                return None, b"".join(answer)


def read_pdu(sock: socket.socket) -> bytes:
    """One whole PDU from a raw connection: its 16-byte header, then the rest frag_length says."""
    header = receive_exactly(sock, _HEADER)
    return header + receive_exactly(sock, _FRAG_LENGTH.unpack_from(header, 8)[0] - _HEADER)


def receive_exactly(sock: socket.socket, count: int) -> bytes:
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise OSError("the server closed the connection")
        data += chunk
    return bytes(data)


class Pool:
    """Connections to one interface of one server, sharing one association group."""

    def __init__(self, host: str, port: int, interface: tuple[str, str], *, credentials: Credentials,
                 ndr64: bool = False, connect_timeout: float = 5.0, capture: WireCapture | None = None) -> None:
        self.host, self.port, self.interface = host, port, interface
        self.capture = capture   # where this pool's PDUs are kept (evidence of a failing scenario), or None
        self.credentials, self.ndr64, self.connect_timeout = credentials, ndr64, connect_timeout
        self.assoc_group = 0
        self._idle: list[_Connection] = []
        self._open: set[_Connection] = set()
        self._lock = threading.Lock()
        self._closed = False

    def _connect(self) -> _Connection:
        tap = None
        if self.capture is not None:
            tap = functools.partial(self.capture.tap, self.capture.connection())
        transport = _Transport(self.host, self.port, self.assoc_group, tap)
        transport.set_connect_timeout(self.connect_timeout)
        creds = self.credentials
        if creds.user:
            transport.set_credentials(creds.user, creds.password, creds.domain, creds.lm_hash, creds.nt_hash)
        dce = transport.get_dce_rpc()
        if creds.user:
            dce.set_auth_level(AUTH_LEVELS[creds.auth_level])
        where = f"{self.host}:{self.port}"
        try:
            dce.connect()
        except (DCERPCException, OSError) as error:
            raise ConnectError(f"cannot connect to {where}: {_reason(error)}") from None
        # an auth3 is never answered: without this the first request waits for its ACK (Nagle, delayed ACK: 40 ms)
        transport.get_socket().setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            dce.bind(rpcrt.uuidtup_to_bin((self.interface[0], self.interface[1])),
                     transfer_syntax=NDR64 if self.ndr64 else NDR20)
        except (DCERPCException, OSError) as error:
            transport.disconnect()
            raise ConnectError(f"{where} refused a bind to interface {self.interface[0]} "
                               f"v{self.interface[1]}: {_reason(error)}") from None
        if not self.assoc_group:
            self.assoc_group = transport.assoc_group
        return _Connection(transport, dce, lean=not creds.user)

    def acquire(self) -> _Connection:
        with self._lock:
            if self._closed:
                raise ConnectError("this client's connections were closed")
            while self._idle:
                connection = self._idle.pop()
                if not _dropped(connection):
                    return connection
                self._forget(connection)   # the server closed it while idle (an idle association owning nothing)
        connection = self._connect()
        with self._lock:
            self._open.add(connection)
        return connection

    def release(self, connection: _Connection, broken: bool = False) -> None:
        with self._lock:
            if broken or self._closed:
                self._forget(connection)
            else:
                self._idle.append(connection)

    def _forget(self, connection: _Connection) -> None:
        """Close a connection that is done (the lock held)."""
        self._open.discard(connection)
        _close(connection, abrupt=False)
        if not self._open:
            self.assoc_group = 0   # the group ended with its last connection: the next one starts anew

    def call(self, opnum: int, stub: bytes, timeout: float | None) -> tuple[int | None, bytes]:
        """One request and its response: (None, response stub) or (fault status, b"")."""
        return self.start(opnum, stub, timeout)()

    def start(self, opnum: int, stub: bytes, timeout: float | None) -> Callable[[], tuple[int | None, bytes]]:
        """Send one request now; the function returned waits for its response: (None, response stub) or (fault
        status, b"")."""
        connection = self.acquire()
        connection.socket().settimeout(timeout)
        try:
            connection.send(opnum, stub)
        except OSError:
            self.release(connection, broken=True)
            return lambda: (RpcStatus.RPC_S_CALL_FAILED, b"")   # the connection broke under the call

        def answer() -> tuple[int | None, bytes]:
            try:
                result = connection.answer()
            except OSError:
                self.release(connection, broken=True)
                return RpcStatus.RPC_S_CALL_FAILED, b""   # the connection broke during the call
            self.release(connection)                      # a response or a fault: the connection is fine
            return result
        return answer

    def close(self, abrupt: bool = False) -> None:
        with self._lock:
            self._closed = True
            connections, self._open, self._idle = list(self._open), set(), []
        for connection in connections:
            _close(connection, abrupt)


def _dropped(connection: _Connection) -> bool:
    """Whether an idle connection is done: with no call in flight the server has nothing to send, so a readable
    socket is one the server closed (or one that carries a stray PDU, as useless)."""
    sock = connection.socket()
    try:
        return not sock or bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):   # closed here already
        return True


def _close(connection: _Connection, abrupt: bool) -> None:
    sock = connection.socket()
    if not sock:
        return
    with contextlib.suppress(OSError):  # a socket the peer already closed has nothing left to shut down
        if abrupt:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # reset, not FIN
        sock.shutdown(socket.SHUT_RDWR)   # wakes a thread blocked in recv on it
    sock.close()


def _reason(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.replace("Could not connect: ", "").splitlines()[0]
