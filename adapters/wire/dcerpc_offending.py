"""Offending requests on an authenticated connection: what MS-RPCE makes a server refuse, as the suite sends it.

Theory of operation
-------------------
An `Offender` is one connection of a Pool (dcerpc_client.py binds it, then signs and seals
its requests at the credentials' level) whose socket is watched: every PDU sent and
received is kept as it went on the wire.  So a request can go out with one octet
of its verifier's checksum altered after it was signed ([MS-RPCE] 3.3.1.5.2.2, [MS-NLMP]
3.4.4: the signature no longer matches), the last request can be sent again byte for byte
(its sequence number replayed, [MS-NLMP] 3.4.4) or a request be signed at a number skipped
ahead, and a response's octets on the wire can be
compared with the stub the client unsealed and verified from them ([MS-RPCE] 2.2.2.11 at
packet privacy).  A refusal is a fault PDU's status or the connection closed (CLOSED).
"""

from __future__ import annotations

import struct

from .dcerpc_client import Credentials, Pool, read_pdu

CLOSED = -1                       # the server closed the connection instead of answering
_REQUEST, _FAULT = 0, 3           # [C706] 12.6.4 PTYPE
_AUTH_LENGTH = struct.Struct("<H")
_STATUS = struct.Struct("<I")
_CHECKSUM_OCTET = -12             # [MS-NLMP] 2.2.2.9.1: version (4), checksum (8), seqnum (4): a checksum octet


class Offender:
    """One authenticated connection to `interface` whose requests can be altered or replayed."""

    def __init__(self, host: str, port: int, interface: tuple[str, str], credentials: Credentials) -> None:
        self.pool = Pool(host, port, interface, credentials=credentials)
        self.connection = self.pool.acquire()
        self.sent: list[bytes] = []
        self.received: list[bytes] = []
        self._alter = False
        self.connection.sock = _Watched(self.connection.sock, self)
        self.connection.tap = lambda direction, data: self.received.append(data) if direction == "in" else None

    def call(self, opnum: int, stub: bytes, *, alter: bool = False, skip: bool = False) -> tuple[int | None, bytes]:
        """(None, the response stub), (fault status, b"") or (CLOSED, b""); `alter`: the request's verifier
        is changed after signing; `skip`: the request is signed, rightly, at the sequence number after the one
        it should carry (the session's own counter moved on by one)."""
        self._alter = alter
        session = self.connection.session
        if skip and session is not None and session.out is not None:
            session.out.seq += 1   # [MS-NLMP] 3.4.4: signed with this number, which the server has not reached
        try:
            return self.connection.call(opnum, stub)
        except OSError:
            return CLOSED, b""

    def replay(self) -> int | None:
        """The last request sent again as it went: None if the server answered it, its fault status, or CLOSED."""
        request = next(pdu for pdu in reversed(self.sent) if pdu[2] == _REQUEST)
        try:
            self.connection.sock.sendall(request)
            answer = read_pdu(self.connection.sock)
        except OSError:
            return CLOSED
        self.received.append(answer)
        return _STATUS.unpack_from(answer, 24)[0] if answer[2] == _FAULT else None

    def last_response(self) -> tuple[bytes, int]:
        """The last PDU received as it came (header, body, verifier), and its auth_length."""
        pdu = self.received[-1]
        return pdu, _AUTH_LENGTH.unpack_from(pdu, 10)[0]

    def close(self) -> None:
        self.pool.close(abrupt=True)


class _Watched:
    """A connection's socket whose requests are kept as they go, one altered after signing when asked."""

    def __init__(self, sock, offender: Offender) -> None:
        self._sock, self._offender = sock, offender

    def sendall(self, data: bytes) -> None:
        data = bytes(data)
        if self._offender._alter and data[2] == _REQUEST:
            self._offender._alter = False
            at = len(data) + _CHECKSUM_OCTET
            data = data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]
        self._offender.sent.append(data)
        self._sock.sendall(data)

    def __getattr__(self, name: str):
        return getattr(self._sock, name)   # recv, settimeout, close, fileno ...: the socket's own
