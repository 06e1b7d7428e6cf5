"""Mutated authentication PDUs against the server: it refuses them and goes on serving, its memory, threads and
file descriptors flat.

Two sources of PDUs.  Recorded handshakes (a bind with an NTLM NEGOTIATE or a SPNEGO NegTokenInit, an auth3 with
an AUTHENTICATE, an alter_context with a NegTokenResp and its mechListMIC, signed and sealed requests), each
replayed on a fresh connection with one PDU mutated: in its sec_trailer, in the NTLMSSP message, in the SPNEGO DER,
in a signature.  And live sessions: a client (impacket's NTLM functions) completes a real handshake, so the
context is good, and then sends one mutated signed or sealed request: the server's verifier check meets it.
"""

from __future__ import annotations

import gc
import os
import random
import socket
import struct
import threading
import time

import pytest
from impacket import ntlm

from mqspec.adapters.wire.dcerpc_client import Credentials, read_pdu
from mqspec.adapters.wire.dcerpc_auth import Users
from mqspec.adapters.wire.dcerpc_server import DceRpcServer
from mqspec.adapters.wire.ntlm_security import NtlmSession
from tests.scapy_rpc import call as scapy_call
from tests.test_dcerpc_auth import PASSWORD, UUID, Echo, impacket_dce
from tests.test_dcerpc_server import NDR20, abstract

pytestmark = pytest.mark.slow
REPLAYED, LIVE = 17_000, 3_500          # mutated PDUs of each kind: 20,500 in all


class Recorder:
    """A loopback relay that keeps what each client connection sent, as whole PDUs."""

    def __init__(self, port: int) -> None:
        self.port, self.flows = port, []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.port))
            flow = bytearray()
            self.flows.append(flow)
            threading.Thread(target=self._pipe, args=(client, upstream, flow), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, None), daemon=True).start()

    @staticmethod
    def _pipe(source, sink, record) -> None:
        try:
            while data := source.recv(65536):
                if record is not None:
                    record += data
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def pdus(self) -> list[list[bytes]]:
        out = []
        for flow in self.flows:
            data, pdus = bytes(flow), []
            while len(data) >= 16:
                length = struct.unpack_from("<H", data, 8)[0]
                pdus.append(data[:length])
                data = data[length:]
            out.append(pdus)
        return out

    def close(self) -> None:
        self.listener.close()


def mutate(rng: random.Random, pdu: bytes) -> bytes:
    """Damage aimed at authentication: the sec_trailer, the token, its lengths, the signature."""
    data = bytearray(pdu)
    auth_length = struct.unpack_from("<H", data, 10)[0]
    start = len(data) - auth_length - 8 if auth_length and len(data) >= auth_length + 24 else 16
    how = rng.random()
    if how < 0.35 and auth_length:                           # bits of the token (NTLMSSP, SPNEGO DER, signature)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(start + 8, len(data))] ^= 1 << rng.randrange(8)
    elif how < 0.55:                                         # a sec_trailer field rewritten
        field = rng.randrange(8)
        data[min(start + field, len(data) - 1)] = rng.choice((0, 1, 2, 5, 6, 9, 10, 16, 0x7F, 0xFF))
    elif how < 0.65:                                         # auth_length lies
        struct.pack_into("<H", data, 10, rng.choice((0, 1, 8, 16, auth_length + 1, max(auth_length - 1, 0),
                                                     0xFFFF)))
    elif how < 0.75 and auth_length > 16:                    # the token cut or padded, frag_length kept true
        cut = rng.randrange(1, auth_length)
        data = data[:len(data) - cut] if rng.random() < 0.5 else data + bytes(cut)
        struct.pack_into("<HH", data, 8, len(data), max(0, auth_length - cut))
    elif how < 0.85:                                         # a byte anywhere past the header
        data[rng.randrange(16, len(data))] = rng.randrange(256)
    else:                                                    # an interesting length inside the NTLMSSP message
        at = data.find(b"NTLMSSP\0")
        spot = at + rng.randrange(12, 60) if at >= 0 and at + 60 < len(data) else rng.randrange(16, len(data))
        data[spot] = rng.choice((0, 0xFF, 0x80, 0x7F))
    return bytes(data)


def replay(port: int, pdus: list[bytes]) -> None:
    """Send `pdus`, say no more, and read until the server closes (it answers what it can, then sees EOF)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            sock.sendall(b"".join(pdus))
            sock.shutdown(socket.SHUT_WR)
            while sock.recv(65536):
                pass
        except OSError:
            pass


class LiveSession:
    """A real NTLM handshake on a raw socket (the suite client's NtlmSession), then signed or sealed requests."""

    def __init__(self, port: int, level: str) -> None:
        self.session = NtlmSession(Credentials(user="alice", password=PASSWORD, auth_level=level))
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)   # the auth3 gets no answer
        body = struct.pack("<HHIBBH", 5840, 5840, 0, 1, 0, 0) + struct.pack("<HBB", 0, 1, 0) + abstract(UUID) + NDR20
        self.sock.sendall(self.session.bind(body))
        self.sock.sendall(self.session.auth3(read_pdu(self.sock)))

    def request(self, call_id: int, stub: bytes) -> bytes:
        return self.session.request(call_id, 0, 0, stub)

    def send(self, pdu: bytes) -> bytes | None:
        """The server's answer to one request, or None when it closed."""
        try:
            self.sock.sendall(pdu)
            return read_pdu(self.sock)
        except OSError:
            return None

    def close(self) -> None:
        self.sock.close()


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def test_mutated_authentication_leaves_the_server_serving_flat():
    users = Users({"alice": ntlm.compute_nthash(PASSWORD)})
    lines = []
    with DceRpcServer([Echo()], users=users, log=lines.append) as srv:
        recorder = Recorder(srv.port)
        for level in ("connect", "integrity", "privacy"):        # what impacket's NTLM client sends
            dce = impacket_dce(recorder.address, level=level)
            dce.call(0, b"a recorded call" * 40)
            dce.recv()
            dce.disconnect()
            for ssp in ("ntlm", "spnego"):                       # what scapy's clients send
                scapy_call("127.0.0.1", recorder.address, UUID, "1.0", 0, b"another" * 30, user="alice",
                           domain="WG", password=PASSWORD, ssp=ssp, level=level)
        time.sleep(0.5)
        recorder.close()
        flows = [flow for flow in recorder.pdus() if len(flow) >= 2]
        assert len(flows) == 9 and all(any(pdu[10:12] != b"\0\0" for pdu in flow) for flow in flows)
        for flow in flows[:3]:                                    # the recordings were served in full
            assert sum(1 for pdu in flow if pdu[2] == 0) >= 1
        rng = random.Random(20261129)
        for _ in range(200):                                      # warm-up: what the server keeps for good
            flow = rng.choice(flows)
            index = rng.randrange(len(flow))
            replay(srv.port, flow[:index] + [mutate(rng, flow[index])])
        gc.collect()
        rss_before, fds_before = rss_kib(), len(os.listdir("/proc/self/fd"))
        begun = time.monotonic()
        for _ in range(REPLAYED):
            flow = rng.choice(flows)
            index = rng.randrange(len(flow))
            replay(srv.port, flow[:index] + [mutate(rng, flow[index])])
        refused = 0
        for number in range(LIVE):
            session = LiveSession(srv.port, rng.choice(("integrity", "privacy")))
            good = session.request(10, b"live" * 8)
            if number % 2:
                damaged = mutate(rng, good)
            else:                                                 # one bit of the signature itself
                spot = len(good) - 1 - rng.randrange(12)          # the checksum or the sequence number
                damaged = good[:spot] + bytes([good[spot] ^ 1 << rng.randrange(8)]) + good[spot + 1:]
            answer = session.send(damaged)
            refused += answer is None or answer[2] == 3
            session.close()
        elapsed = time.monotonic() - begun
        deadline = time.monotonic() + 30
        while srv.stats()["connections"] and time.monotonic() < deadline:
            time.sleep(0.05)
        gc.collect()
        stats = srv.stats()
        rss_after, fds_after = rss_kib(), len(os.listdir("/proc/self/fd"))
        dce = impacket_dce(srv.port, level="privacy")             # and a good client is still served
        dce.call(0, b"still here")
        assert dce.recv().startswith(b"ereh llits")
        dce.disconnect()
    print(f"\nauth fuzz: {REPLAYED} replayed handshakes with a mutated PDU and {LIVE} live sessions with a mutated "
          f"signed or sealed request in {elapsed:.1f} s; {refused} of the live ones refused; RSS {rss_before} -> "
          f"{rss_after} KiB, descriptors {fds_before} -> {fds_after}, server threads {stats['threads']}")
    assert stats["connections"] == 0 and stats["associations"] == 0
    assert stats["threads"] == 1                       # the event loop only
    assert fds_after <= fds_before + 2
    assert rss_after - rss_before < 16 * 1024, (rss_before, rss_after)
    assert refused >= LIVE * 0.9                       # a damaged verifier is refused, not served
    assert not [line for line in lines if "Traceback" in line or "internal error" in line]
