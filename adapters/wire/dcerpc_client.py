"""Client connections to one RPC interface, all in one association group, at any authentication level.

Theory of operation
-------------------
An MS-MQRR client needs several calls in flight: a Start*Receive may wait for
minutes while R_CancelReceive, for the same context handle, has to reach the
server.  A connection-oriented RPC connection carries one call at a time, so a
`Pool` keeps as many connections as there are calls in flight, and binds every
one of them into the association group of the first ([C706] 12.4: context
handles belong to the association group, so a handle opened on one connection
is good on all of them): the bind names the group (assoc_group_id, [C706]
12.6.4.3) and the bind_ack hands it back.

Every PDU is built with struct and read back whole: a bind of one presentation
context, then requests fragmented to the server's max_recv_frag, response
fragments gathered to the last.  An authenticated connection (a user, and a level
above none) binds with NTLM and signs or seals every fragment through
ntlm_security.NtlmSession (pyspnego's handshake, C crypto per PDU): impacket's
client built a Structure per PDU and per signature, which cost five times the
call itself.  A fault comes back as its status; a response whose verifier does
not verify as RPC_S_SEC_PKG_ERROR, its connection dropped.

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
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from mqspec.protocol.hresult import RpcStatus

from .capture import WireCapture
from .ntlm_security import NtlmSession, VerifierError

NDR20 = ("8a885d04-1ceb-11c9-9fe8-08002b104860", "2.0")
NDR64 = ("71710533-beba-4937-8319-b5dbef9ccc36", "1.0")
SEC_PKG_ERROR = 0x721                         # RPC_S_SEC_PKG_ERROR: a verifier that does not verify
MAX_FRAG = 5840                               # what this client offers to send and receive ([C706] 12.6.4.3)
_REQUEST, _RESPONSE, _FAULT, _BIND, _BIND_ACK, _BIND_NAK = 0, 2, 3, 11, 12, 13   # [C706] 12.6.4 PTYPE
_FIRST, _LAST = 0x01, 0x02                    # [C706] 12.6.3.1 PFC_FIRST_FRAG, PFC_LAST_FRAG
_U32 = struct.Struct("<I")
_U16 = struct.Struct("<H")
_HEADER = struct.Struct("<BBBB4sHHI")         # [C706] 12.6.3.1 common header, little-endian NDR
_DREP = b"\x10\x00\x00\x00"
_HEADER_SIZE = 16
_BODY = 24                                    # header plus alloc_hint, p_cont_id, opnum / cancel_count
NAK_REASONS = {0: "reason not specified", 1: "temporary congestion", 2: "local limit exceeded",
               4: "protocol version not supported", 8: "authentication type not recognized",
               9: "invalid checksum"}         # [C706] 12.6.3.4, [MS-RPCE] 2.2.2.5
CONTEXT_REASONS = {0: "reason not specified", 1: "abstract syntax not supported",
                   2: "proposed transfer syntaxes not supported", 3: "local limit exceeded"}   # [C706] 12.6.3.3


class ConnectError(OSError):
    """The server cannot be reached or refuses the bind; the message says why in one line."""


@dataclass(frozen=True)
class Credentials:
    user: str = ""
    domain: str = ""
    password: str = ""
    lm_hash: str = ""
    nt_hash: str = ""
    auth_level: str = "none"   # none, connect, integrity or privacy

    @property
    def authenticates(self) -> bool:
        return bool(self.user) and self.auth_level != "none"


def _syntax(name: str, version: str) -> bytes:
    major, _, minor = version.partition(".")
    return uuid.UUID(name).bytes_le + struct.pack("<HH", int(major), int(minor or 0))


class _Connection:
    """One bound connection: its socket, its NTLM session (None unauthenticated), what the server receives."""

    def __init__(self, sock: socket.socket, session: NtlmSession | None, max_xmit_frag: int, tap=None) -> None:
        self.sock, self.session, self.max_xmit_frag = sock, session, max_xmit_frag
        self.tap = tap   # tap(direction, data): what goes out and comes in, for a WireCapture
        self.call_id = 1000

    def socket(self) -> socket.socket:
        return self.sock

    def call(self, opnum: int, stub: bytes) -> tuple[int | None, bytes]:
        """One call: (None, response stub) or (fault status, b""); OSError when the connection breaks,
        VerifierError when a response does not verify."""
        self.send(opnum, stub)
        return self.answer()

    def send(self, opnum: int, stub: bytes) -> None:
        """The request of one call, written whole; OSError when the connection breaks."""
        session, self.call_id = self.session, self.call_id + 1
        room = session.room(self.max_xmit_frag) if session else max(8, (self.max_xmit_frag - _BODY) & ~7)
        chunks = [stub[at:at + room] for at in range(0, len(stub), room)] or [b""]
        parts = []
        for index, chunk in enumerate(chunks):
            flags = (_FIRST if index == 0 else 0) | (_LAST if index == len(chunks) - 1 else 0)
            hint = len(stub) - index * room
            if session:
                parts.append(session.request(self.call_id, 0, opnum, chunk, flags, hint))
            else:
                parts.append(_HEADER.pack(5, 0, _REQUEST, flags, _DREP, _BODY + len(chunk), 0, self.call_id)
                             + struct.pack("<IHH", hint, 0, opnum) + chunk)
        data = b"".join(parts)
        if self.tap is not None:
            self.tap("out", data)
        self.sock.sendall(data)

    def answer(self) -> tuple[int | None, bytes]:
        """The answer to the call sent: (None, response stub) or (fault status, b""); OSError when the connection
        breaks, VerifierError when a response does not verify."""
        session, answer = self.session, []
        while True:
            fragment = read_pdu(self.sock)
            if self.tap is not None:
                self.tap("in", fragment)
            if fragment[2] == _FAULT:
                return _U32.unpack_from(fragment, 24)[0], b""   # [C706] 12.6.4.7 status
            if fragment[2] != _RESPONSE:
                raise OSError(f"the server answered with a PDU of type {fragment[2]}")
            answer.append(session.stub(fragment) if session else fragment[_BODY:])
            if fragment[3] & _LAST:
                return None, b"".join(answer)


def read_pdu(sock: socket.socket) -> bytes:
    """One whole PDU from a raw connection: its 16-byte header, then the rest frag_length says."""
    header = receive_exactly(sock, _HEADER_SIZE)
    return header + receive_exactly(sock, _U16.unpack_from(header, 8)[0] - _HEADER_SIZE)


def receive_exactly(sock: socket.socket, count: int) -> bytes:
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise OSError("the server closed the connection")
        data += chunk
    return bytes(data)


def _bind_result(ack: bytes) -> tuple[int, int]:
    """(result, reason) of the one presentation context a bind_ack answers ([C706] 12.6.4.4)."""
    position = 26 + _U16.unpack_from(ack, 24)[0]   # after the secondary address
    position += -position % 4                      # the result list is 4-aligned
    if ack[position] < 1:
        raise OSError("the bind_ack answers no presentation context")
    return struct.unpack_from("<HH", ack, position + 4)


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
        where = f"{self.host}:{self.port}"
        try:
            session = NtlmSession(self.credentials, self.host) if self.credentials.authenticates else None
        except ValueError as error:   # a hash that is not one
            raise ConnectError(f"cannot authenticate to {where}: {error}") from None
        try:
            sock = socket.create_connection((self.host, self.port), timeout=self.connect_timeout)
        except OSError as error:
            raise ConnectError(f"cannot connect to {where}: {error.strerror or error}") from None
        # an auth3 is never answered: without this the first request waits for its ACK (Nagle, delayed ACK: 40 ms)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            return self._bind(sock, session)
        except (OSError, ValueError) as error:
            sock.close()
            raise ConnectError(f"{where} refused a bind to interface {self.interface[0]} v{self.interface[1]}: "
                               f"{error}") from None

    def _bind(self, sock: socket.socket, session: NtlmSession | None) -> _Connection:
        """Bind the interface on `sock` in this pool's association group, authenticating as the credentials say
        ([C706] 12.6.4.3; [MS-RPCE] 3.3.1.5.2.1); OSError or ValueError saying why not."""
        body = struct.pack("<HHIBBH", MAX_FRAG, MAX_FRAG, self.assoc_group, 1, 0, 0) + struct.pack("<HBB", 0, 1, 0)
        body += _syntax(*self.interface) + _syntax(*(NDR64 if self.ndr64 else NDR20))
        tap = None if self.capture is None else functools.partial(self.capture.tap, self.capture.connection())
        bind = (session.bind(body) if session else
                _HEADER.pack(5, 0, _BIND, _FIRST | _LAST, _DREP, _HEADER_SIZE + len(body), 0, 1) + body)
        if tap is not None:
            tap("out", bind)
        sock.sendall(bind)
        ack = read_pdu(sock)
        if tap is not None:
            tap("in", ack)
        if ack[2] == _BIND_NAK:
            reason = _U16.unpack_from(ack, 16)[0]
            raise OSError(f"bind_nak, reason {reason} ({NAK_REASONS.get(reason, 'unknown')})")
        if ack[2] != _BIND_ACK:
            raise OSError(f"the bind was answered with a PDU of type {ack[2]}")
        result, reason = _bind_result(ack)
        if result != 0:
            raise OSError(f"the presentation context was rejected, reason {reason} "
                          f"({CONTEXT_REASONS.get(reason, 'unknown')})")
        if session:
            auth3 = session.auth3(ack)
            if tap is not None:
                tap("out", auth3)
            sock.sendall(auth3)
        if not self.assoc_group:
            self.assoc_group = _U32.unpack_from(ack, 20)[0]
        return _Connection(sock, session, _U16.unpack_from(ack, 18)[0], tap)   # the server's max_recv_frag

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
            except VerifierError:
                self.release(connection, broken=True)
                return SEC_PKG_ERROR, b""         # the response cannot be trusted, nor the connection's stream
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

