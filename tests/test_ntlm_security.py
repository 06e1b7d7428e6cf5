"""NTLM session security (adapters/wire/ntlm_security.py) and the suite's client on it (dcerpc_client.Pool).

The signatures and sealing agree byte for byte with two implementations we did not write (impacket's ntlm.SEAL
and pyspnego's wrap_iov); the suite's client authenticates at each level with a password, an NT hash or a
domain, its requests many fragments long and its responses too; a wrong password is access denied; a response
altered on the way is refused (RPC_S_SEC_PKG_ERROR) and its connection dropped, never handed up.
"""

from __future__ import annotations

import os
import socket
import struct
import threading

import pytest
import spnego
from Cryptodome.Cipher import ARC4
from impacket import ntlm
from spnego.iov import BufferType

from mqspec.adapters.wire.dcerpc_auth import PRIVACY, Ntlm
from mqspec.adapters.wire.dcerpc_client import SEC_PKG_ERROR, Credentials, Pool
from mqspec.adapters.wire.ntlm_security import Direction, ntlm_secret
from tests.test_dcerpc_auth import BIG, LEVELS, PASSWORD, UUID, serving, users  # noqa: F401 - users: a fixture

ACCESS_DENIED = 5
BOB_HASH = "8846f7eaee8fb117ad06bdd830b7586c"


@pytest.fixture
def lines():
    return []


def _pool(port: int, **credentials) -> Pool:
    return Pool("127.0.0.1", port, (UUID, "1.0"), credentials=Credentials(**credentials))


def test_direction_signs_and_seals_as_impacket_and_pyspnego_do(users):  # noqa: F811
    client = spnego.client("alice", ntlm_secret(PASSWORD), protocol="ntlm", options=spnego.NegotiateOptions.use_ntlm,
                           context_req=spnego.ContextReq.integrity | spnego.ContextReq.confidentiality)
    server = Ntlm(users, "MQSPEC")
    server.authenticate(client.step(server.challenge(client.step())), PRIVACY)
    ours = Direction(server.flags, client.session_key, "Client")
    impacket_rc4 = ARC4.new(ours.seal_key).encrypt
    for seq in range(3):   # the RC4 streams and the numbers move on together
        header, body, trailer = os.urandom(24), os.urandom(32 + 16 * seq), os.urandom(8)
        sealed, token = ours.rc4(body), ours.token(header + body + trailer)
        wrapped = client.wrap_iov([(BufferType.sign_only, header), body, (BufferType.sign_only, trailer),
                                   BufferType.header])
        assert (sealed, token) == (wrapped.buffers[1].data, wrapped.buffers[3].data)
        theirs_sealed, theirs_token = ntlm.SEAL(server.flags, ours.sign_key, ours.seal_key, header + body + trailer,
                                                body, seq, impacket_rc4)
        assert (sealed, token) == (theirs_sealed, theirs_token.getData())


@pytest.mark.parametrize("level", LEVELS)
def test_the_suite_client_at_each_level_with_a_password_a_hash_or_a_domain(users, lines, level):  # noqa: F811
    with serving(users, lines) as srv:
        for credentials, who in (({"user": "alice", "password": PASSWORD}, "alice|"),
                                 ({"user": "bob", "nt_hash": BOB_HASH, "domain": "WG"}, "bob|WG"),
                                 ({"user": "Bob", "lm_hash": "0" * 32, "nt_hash": BOB_HASH.upper()}, "Bob|")):
            pool = _pool(srv.port, auth_level=level, **credentials)
            for stub in (b"one", BIG, b"three"):   # many fragments each way; the numbers move on
                status, out = pool.call(0, stub, 10)
                assert status is None and out == stub[::-1] + f"|{who}|10|{LEVELS[level]}".encode()
            pool.close()


def test_a_wrong_password_is_access_denied(users, lines):  # noqa: F811
    with serving(users, lines) as srv:
        pool = _pool(srv.port, user="alice", password="wrong", auth_level="privacy")
        assert pool.call(0, b"x", 10) == (ACCESS_DENIED, b"")
        pool.close()
    assert any("wrong password for 'alice'" in line for line in lines)


class Tamperer:
    """A loopback relay that flips one bit of the first response stub byte it carries back, once."""

    def __init__(self, port: int) -> None:
        self.port, self.flipped = port, False
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
            for source, sink, alter in ((client, upstream, False), (upstream, client, True)):
                threading.Thread(target=self._pipe, args=(source, sink, alter), daemon=True).start()

    def _pipe(self, source, sink, alter) -> None:
        buffer = b""
        try:
            while data := source.recv(65536):
                buffer += data
                while len(buffer) >= 10 and len(buffer) >= struct.unpack_from("<H", buffer, 8)[0]:
                    length = struct.unpack_from("<H", buffer, 8)[0]
                    pdu, buffer = bytearray(buffer[:length]), buffer[length:]
                    if alter and pdu[2] == 2 and not self.flipped:   # a response: its first stub byte
                        pdu[24] ^= 0x01
                        self.flipped = True
                    sink.sendall(pdu)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


@pytest.mark.parametrize("level", ["integrity", "privacy"])
def test_a_response_altered_on_the_way_is_refused_and_its_connection_dropped(users, lines, level):  # noqa: F811
    with serving(users, lines) as srv:
        relay = Tamperer(srv.port)
        pool = _pool(relay.address, user="alice", password=PASSWORD, auth_level=level)
        assert pool.call(0, b"altered", 10) == (SEC_PKG_ERROR, b"")
        assert relay.flipped and not pool._open   # the connection's streams are spent: it is gone
        status, out = pool.call(0, b"next", 10)    # a new connection, a new context
        assert status is None and out == f"txen|alice||10|{LEVELS[level]}".encode()
        pool.close()
        relay.listener.close()


def test_a_hash_that_is_not_one_is_said_in_one_line(users, lines):  # noqa: F811
    with serving(users, lines) as srv:
        pool = _pool(srv.port, user="bob", nt_hash="not-a-hash", auth_level="privacy")
        with pytest.raises(OSError, match="^cannot authenticate to 127.0.0.1:[0-9]+: an LM or NT hash is 32 "
                                          "hexadecimal digits$"):
            pool.call(0, b"x", 10)
