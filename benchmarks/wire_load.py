"""A lean load generator for RemoteRead, and a threaded echo server of the same PDUs: the floor of the wire.

`LoadClient` is a plain socket that binds RemoteRead, opens one queue (R_OpenQueue) and then sends
R_StartReceive(MQ_ACTION_RECEIVE) + R_EndReceive(RR_ACK) pairs, each request built by patching dwRequestId
and call_id into PDUs encoded once: almost nothing of its time is its own, so what it measures is the server.
`EchoServer` answers the same PDUs, thread per connection, with the very response PDUs a server gave the
generator once (call_id patched in): what Python sockets and threads alone cost for the same traffic.
"""

from __future__ import annotations

import socket
import struct
import threading
import uuid

from mqspec.adapters.wire.dcerpc_client import read_pdu
from mqspec.adapters.mqrr.ndr import decode_response, encode_request
from mqspec.protocol.constants import Access, Ack, Action, ShareMode
from mqspec.protocol.idl import OPNUMS, REMOTE_READ_UUID, REMOTE_READ_VERSION
from mqspec.protocol.queue_format import from_format_name

_HEADER = struct.Struct("<BBBB4sHHI")
_DREP = b"\x10\x00\x00\x00"
_BIND, _BIND_ACK, _REQUEST, _RESPONSE = 11, 12, 0, 2
NDR20 = uuid.UUID("8a885d04-1ceb-11c9-9fe8-08002b104860").bytes_le + struct.pack("<HH", 2, 0)
BIG = 1 << 20
START, END, OPEN = OPNUMS["R_StartReceive"], OPNUMS["R_EndReceive"], OPNUMS["R_OpenQueue"]


def bind_pdu() -> bytes:
    major, minor = REMOTE_READ_VERSION
    body = struct.pack("<HHIBBH", 5840, 5840, 0, 1, 0, 0) + struct.pack("<HBB", 0, 1, 0)
    body += uuid.UUID(REMOTE_READ_UUID).bytes_le + struct.pack("<HH", major, minor) + NDR20
    return _HEADER.pack(5, 0, _BIND, 3, _DREP, 16 + len(body), 0, 1) + body


def request_pdu(call_id: int, opnum: int, stub: bytes) -> bytearray:
    return bytearray(_HEADER.pack(5, 0, _REQUEST, 3, _DREP, 24 + len(stub), 0, call_id)
                     + struct.pack("<IHH", len(stub), 0, opnum) + stub)


def _offset_of(encode, field: str) -> int:
    """Where `field` (a DWORD) sits in the stub `encode(value)` gives: found by encoding two values."""
    one, two = encode(0x11111111), encode(0x22222222)
    at = next(i for i in range(len(one)) if one[i:i + 4] == b"\x11" * 4 and two[i:i + 4] == b"\x22" * 4)
    assert struct.unpack_from("<I", one, at)[0] == 0x11111111, field
    return at


class LoadClient:
    """One connection, one open queue, R_StartReceive + R_EndReceive pairs; `responses` keeps the first reply
    to each opnum (what the echo server answers)."""

    def __init__(self, host: str, port: int, format_name: str) -> None:
        self.sock = socket.create_connection((host, port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.responses: dict = {}
        self.sock.sendall(bind_pdu())
        self.responses["bind"] = read_pdu(self.sock)
        assert self.responses["bind"][2] == _BIND_ACK, "the bind was refused"
        opened = self._call(2, OPEN, encode_request(OPEN, {
            "pQueueFormat": from_format_name(format_name), "dwAccess": Access.RECEIVE_ACCESS,
            "dwShareMode": ShareMode.MQ_DENY_NONE, "pClientId": bytes(16), "fNonRoutingServer": 1, "Major": 6,
            "Minor": 1, "BuildNumber": 7601, "fWorkgroup": 0}))
        handle = decode_response(OPEN, opened[24:])["pphContext"]

        def start(request_id):
            return encode_request(START, {"phContext": handle, "LookupId": 0, "hCursor": 0,
                                          "ulAction": Action.MQ_ACTION_RECEIVE, "ulTimeout": 0,
                                          "dwRequestId": request_id, "dwMaxBodySize": BIG,
                                          "dwMaxCompoundMessageSize": BIG})

        def end(request_id):
            return encode_request(END, {"phContext": handle, "dwAck": Ack.RR_ACK, "dwRequestId": request_id})

        self.start, self.end = request_pdu(0, START, start(1)), request_pdu(0, END, end(1))
        self.start_at, self.end_at = 24 + _offset_of(start, "dwRequestId"), 24 + _offset_of(end, "dwRequestId")
        self.call_id = 10

    def _call(self, call_id: int, opnum: int, stub: bytes) -> bytes:
        self.sock.sendall(request_pdu(call_id, opnum, stub))
        reply = read_pdu(self.sock)
        self.responses.setdefault(opnum, reply)
        if reply[2] != _RESPONSE:
            raise OSError(f"opnum {opnum} was answered with PDU type {reply[2]}")
        return reply

    def pair(self, request_id: int) -> None:
        """One R_StartReceive + R_EndReceive; AssertionError unless both return MQ_OK."""
        for pdu, at in ((self.start, self.start_at), (self.end, self.end_at)):
            self.call_id += 1
            struct.pack_into("<I", pdu, 12, self.call_id)
            struct.pack_into("<I", pdu, at, request_id)
            self.sock.sendall(pdu)
            reply = read_pdu(self.sock)
            assert reply[2] == _RESPONSE and reply[-4:] == b"\0\0\0\0", f"the pair {request_id} failed"
            self.responses.setdefault(pdu[22] | pdu[23] << 8, reply)

    def close(self) -> None:
        self.sock.close()


class EchoServer:
    """Thread per connection; each PDU is answered with the canned reply for its kind (bind, or the request's
    opnum), call_id patched: the cost of the same traffic without any RPC or queue manager behind it."""

    def __init__(self, replies: dict) -> None:
        self.replies = replies
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.threads: list[threading.Thread] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            thread = threading.Thread(target=self._serve, args=(sock,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _serve(self, sock: socket.socket) -> None:
        with sock:
            try:
                while True:
                    pdu = read_pdu(sock)
                    key = "bind" if pdu[2] == _BIND else pdu[22] | pdu[23] << 8
                    reply = bytearray(self.replies[key])
                    reply[12:16] = pdu[12:16]
                    sock.sendall(reply)
            except OSError:
                return

    def close(self) -> None:
        self.listener.close()
