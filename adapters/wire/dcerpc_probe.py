"""Bind probes: a fresh TCP connection, a bind PDU with the presentation contexts a test chooses.

The suite's client proposes one context with one transfer syntax; MS-MQRR 2.2 asks a
server to offer NDR 2.0 and NDR64 and to negotiate between them, which only a bind
that proposes several can show.  `probe_bind` writes that bind itself ([C706]
12.6.4.3, p_cont_list), reads the bind_ack's p_result_list (or a bind_nak), and,
when a context was accepted, calls R_GetServerPort (opnum 0) on it: its stub is
empty and its answer one DWORD in both transfer syntaxes.  A server that requires
authentication gets an authenticated probe (NtlmSession), at the client's level.
"""

from __future__ import annotations

import socket
import struct
import uuid
from dataclasses import dataclass

from .dcerpc_client import read_pdu
from .ntlm_security import NtlmSession

NDR20 = ("8a885d04-1ceb-11c9-9fe8-08002b104860", 2, 0)
NDR64 = ("71710533-beba-4937-8319-b5dbef9ccc36", 1, 0)
# [MS-RPCE] 2.2.2.14: bind-time feature negotiation; the last 8 octets carry the bitmask (here: keep the
# connection on orphan, 0x02)
BIND_TIME_FEATURES = ("6cb71c2c-9812-4540-0200-000000000000", 1, 0)
UNKNOWN_SYNTAX = ("6d717370-6563-2d6e-6f2d-73796e746178", 1, 0)   # "mqspec-no-syntax": offered by nobody

_HEADER = struct.Struct("<BBBB4sHHI")   # [C706] 12.6.3.1 common header
_DREP = b"\x10\x00\x00\x00"
_BIND, _BIND_ACK, _BIND_NAK, _REQUEST, _RESPONSE, _FAULT = 11, 12, 13, 0, 2, 3


@dataclass(frozen=True)
class ContextResult:
    """One p_result of a bind_ack ([C706] 12.6.3.1): 0 acceptance, 2 provider_rejection, 3 negotiate_ack."""
    result: int
    reason: int
    transfer_syntax: tuple[str, int, int]


@dataclass(frozen=True)
class BindProbe:
    results: tuple[ContextResult, ...]   # one per context proposed, in order; () for a bind_nak
    nak_reason: int | None = None        # the bind_nak's reject reason
    server_port: int | None = None       # what R_GetServerPort answered on the first accepted context


def _syntax(syntax: tuple[str, int, int]) -> bytes:
    name, major, minor = syntax
    return uuid.UUID(name).bytes_le + struct.pack("<HH", major, minor)


def probe_bind(host: str, port: int, interface: tuple[str, int, int], contexts, timeout: float = 5.0,
               credentials=None) -> BindProbe:
    """Bind `interface` offering `contexts` (each a list of transfer syntaxes); OSError if the server is gone.
    With `credentials` (connections.Credentials naming a user) the bind authenticates by NTLM at their level and
    the call is signed or sealed as that level asks, as a server that requires authentication wants it."""
    body = struct.pack("<HHI", 5840, 5840, 0) + struct.pack("<BBH", len(contexts), 0, 0)
    for context_id, syntaxes in enumerate(contexts):
        body += struct.pack("<HBB", context_id, len(syntaxes), 0) + _syntax(interface)
        body += b"".join(_syntax(syntax) for syntax in syntaxes)
    session = NtlmSession(credentials) if credentials is not None and credentials.user else None
    with socket.create_connection((host, port), timeout) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)   # auth3, unanswered, then the request at once
        sock.sendall(session.bind(body) if session else _HEADER.pack(5, 0, _BIND, 0x03, _DREP, 16 + len(body), 0,
                                                                       1) + body)
        answer = read_pdu(sock)
        if answer[2] == _BIND_NAK:
            return BindProbe((), nak_reason=struct.unpack_from("<H", answer, 16)[0])
        if answer[2] != _BIND_ACK:
            raise OSError(f"the bind was answered with a PDU of type {answer[2]}")
        if session:
            sock.sendall(session.auth3(answer))
        (address_length,) = struct.unpack_from("<H", answer, 24)
        position = 26 + address_length
        position += -position % 4                     # [C706] 12.6.4.4: the result list is 4-aligned
        (count,) = struct.unpack_from("<B", answer, position)
        results = []
        for index in range(count):
            at = position + 4 + index * 24
            result, reason = struct.unpack_from("<HH", answer, at)
            name = str(uuid.UUID(bytes_le=answer[at + 4:at + 20]))
            major, minor = struct.unpack_from("<HH", answer, at + 20)
            results.append(ContextResult(result, reason, (name, major, minor)))
        accepted = next((index for index, r in enumerate(results) if r.result == 0), None)
        server_port = None
        if accepted is not None:
            sock.sendall(session.request(2, accepted, 0, b"") if session else
                         _HEADER.pack(5, 0, _REQUEST, 0x03, _DREP, 24, 0, 2) + struct.pack("<IHH", 0, accepted, 0))
            reply = read_pdu(sock)
            stub = session.stub(reply) if session and reply[2] == _RESPONSE else reply[24:]
            if reply[2] == _RESPONSE and len(stub) >= 4:
                server_port = struct.unpack_from("<I", stub, 0)[0]
        return BindProbe(tuple(results), server_port=server_port)

