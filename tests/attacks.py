"""The attacks of issue 20 on `mqspec serve`, as lean raw-socket clients (tests/test_attacks.py, benchmarks/).

Each attack opens many loopback connections from spread source addresses (127.0.0.0/8 is all loopback, so
the per-peer cap does not stop them unless an attack means it to), does its few PDUs per connection in
batches (every send of a batch first, then every read) and keeps the sockets for the caller to drop.
`probe` is the new client whose wait is the measure: connect from a fresh address, bind, R_GetServerPort.
"""

from __future__ import annotations

import socket
import struct
import time

from mqspec.adapters.mqrr.ndr import decode_response, encode_request
from mqspec.adapters.wire.dcerpc_client import read_pdu
from mqspec.protocol.constants import INFINITE, Access, Action, ShareMode
from mqspec.protocol.idl import OPNUMS
from mqspec.protocol.queue_format import from_format_name

from benchmarks.wire_load import bind_pdu, request_pdu

OPEN, START, PORT = OPNUMS["R_OpenQueue"], OPNUMS["R_StartReceive"], OPNUMS["R_GetServerPort"]
RESPONSE, FAULT = 2, 3
BATCH = 256
_fresh = iter(range(1, 1 << 20))


def source(n: int, base: int = 1) -> str:
    """The n-th loopback source address of block `base` (127.base.x.y)."""
    return f"127.{base + n // 62500}.{1 + n // 250 % 250}.{1 + n % 250}"


def connect_from(host: str, port: int, timeout: float = 30.0) -> socket.socket:
    sock = socket.socket()
    sock.bind((host, 0))
    sock.settimeout(timeout)
    sock.connect(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def probe(port: int, timeout: float = 30.0) -> float:
    """Seconds a new client from an address never used before takes to connect, bind and be answered."""
    began = time.monotonic()
    sock = connect_from(source(next(_fresh), base=200), port, timeout)
    try:
        sock.sendall(bind_pdu() + request_pdu(2, PORT, b""))
        assert read_pdu(sock)[2] == 12, "the bind was not acknowledged"
        reply = read_pdu(sock)
        assert reply[2] == RESPONSE and struct.unpack_from("<I", reply, 24)[0] == port, reply[:32]
    finally:
        sock.close()
    return time.monotonic() - began


def open_request(format_name: str, call_id: int = 2, access: int = Access.RECEIVE_ACCESS) -> bytes:
    return bytes(request_pdu(call_id, OPEN, encode_request(OPEN, {
        "pQueueFormat": from_format_name(format_name), "dwAccess": access, "dwShareMode": ShareMode.MQ_DENY_NONE,
        "pClientId": bytes(16), "fNonRoutingServer": 1, "Major": 6, "Minor": 1, "BuildNumber": 7601,
        "fWorkgroup": 0})))


def receive_request(handle: bytes, call_id: int, action: int = Action.MQ_ACTION_RECEIVE,
                    timeout: int = INFINITE, request_id: int = 1, max_body: int = 1 << 24) -> bytes:
    return bytes(request_pdu(call_id, START, encode_request(START, {
        "phContext": handle, "LookupId": 0, "hCursor": 0, "ulAction": action, "ulTimeout": timeout,
        "dwRequestId": request_id, "dwMaxBodySize": max_body, "dwMaxCompoundMessageSize": max_body})))


def holders(port: int, count: int, format_name: str, *, per_source: int = 200, base: int = 1) -> list:
    """`count` connections that bound and opened `format_name`: [(socket, context handle)]."""
    held = []
    for start in range(0, count, BATCH):
        batch = [connect_from(source((start + n) // per_source, base), port)
                 for n in range(min(BATCH, count - start))]
        for sock in batch:
            sock.sendall(bind_pdu() + open_request(format_name))
        for sock in batch:
            assert read_pdu(sock)[2] == 12, "the bind was not acknowledged"
            reply = read_pdu(sock)
            assert reply[2] == RESPONSE, f"R_OpenQueue was answered with fault {reply[24:28].hex()}"
            held.append((sock, decode_response(OPEN, reply[24:])["pphContext"]))
    return held


def pending_reads(port: int, count: int, format_name: str, **where) -> list:
    """`count` connections, each with one R_StartReceive (ulTimeout INFINITE) waiting on an empty queue."""
    held = holders(port, count, format_name, **where)
    for sock, handle in held:
        sock.sendall(receive_request(handle, 3))
    return held


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def drop(held) -> None:
    for item in held:
        (item[0] if isinstance(item, tuple) else item).close()


def fragment(call_id: int, stub: bytes, flags: int) -> bytes:
    """A request fragment of a call to opnum 0 (PFC_FIRST_FRAG 1, PFC_LAST_FRAG 2 in `flags`)."""
    header = struct.pack("<BBBB4sHHI", 5, 0, 0, flags, b"\x10\0\0\0", 24 + len(stub), 0, call_id)
    return header + struct.pack("<IHH", len(stub), 0, OPEN) + stub


def fragment_flood(port: int, connections: int, size: int, *, base: int = 1) -> list:
    """`connections` bound connections, each sending `size` bytes of one request whose last fragment never
    comes: what every partial request together holds is the server's (MAX_FRAG 5840: 5816 stub bytes a PDU)."""
    piece = bytes(5816)
    body = fragment(2, piece, 1) + fragment(2, piece, 0) * (size // len(piece) - 1)
    held = []
    for n in range(connections):
        sock = connect_from(source(n // 100, base), port)
        sock.sendall(bind_pdu())
        assert read_pdu(sock)[2] == 12, "the bind was not acknowledged"
        held.append(sock)
    for sock in held:
        sock.sendall(body)
    return held


def peek_flood(port: int, format_name: str, count: int, *, base: int = 1) -> socket.socket:
    """One connection that opens `format_name` to peek and sends `count` R_StartReceive(PEEK_CURRENT) at once,
    reading none of the replies."""
    (sock, handle), = holders(port, 1, format_name, base=base)
    sock.setblocking(False)
    data = b"".join(receive_request(handle, 3 + n, Action.MQ_ACTION_PEEK_CURRENT, 0, 0) for n in range(count))
    sent, deadline = 0, time.monotonic() + 30
    while sent < len(data) and time.monotonic() < deadline:   # the server stops reading once replies wait
        try:
            sent += sock.send(data[sent:])
        except BlockingIOError:
            time.sleep(0.01)
    return sock
