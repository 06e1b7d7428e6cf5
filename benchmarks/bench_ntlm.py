"""NTLM on DCE/RPC, each choice of library side by side in one run: per PDU, per handshake, per call.

1. Seal and sign one request PDU at packet privacy (a 24-byte header, the stub with its
   padding, the sec_trailer; [MS-NLMP] 3.4.3, [MS-RPCE] 2.2.2.11): impacket's ntlm.SEAL (what its
   client and, before, this server used), pyspnego's wrap_iov (its public API for exactly this:
   the header and trailer signed only, the stub sealed), and ntlm_security.Direction (hmac's
   HMAC-MD5 and cryptography's ARC4, what the server and the client use now).  Two stub sizes: a
   typical R_StartReceive reply (288 bytes) and a full fragment (5,792).
2. The client's NTLM handshake (NEGOTIATE, then AUTHENTICATE from the server's CHALLENGE):
   impacket's getNTLMSSPType1/3 against pyspnego's, the password given and its NT hash given (the
   client makes the hash once per pool), the server's side (dcerpc_auth.Ntlm) answering both.
3. Whole calls over loopback to an in-process DCE/RPC server that echoes the stub: impacket's
   client at privacy, the suite's client (dcerpc_client.Pool) at privacy, and the suite's client
   unauthenticated, the baseline of the ratios.

Every figure is printed with its ratio to the baseline of its group, measured in the same run: each the
best of seven short windows, the choices of a group taking turns (the machine is shared).
Run: python benchmarks/bench_ntlm.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import spnego  # noqa: E402
from Cryptodome.Cipher import ARC4  # noqa: E402  (impacket's own RC4)
from impacket import ntlm  # noqa: E402
from impacket.dcerpc.v5 import transport  # noqa: E402
from impacket.uuid import uuidtup_to_bin  # noqa: E402
from spnego.iov import BufferType  # noqa: E402

from mqspec.adapters.wire.dcerpc_auth import PRIVACY, Ntlm, Users  # noqa: E402
from mqspec.adapters.wire.dcerpc_client import Credentials, Pool  # noqa: E402
from mqspec.adapters.wire.dcerpc_server import DceRpcServer  # noqa: E402
from mqspec.adapters.wire.ntlm_security import Direction, ntlm_secret  # noqa: E402

PASSWORD = "Passw0rd!"
UUID = "1a9134dd-7b39-45ba-ad88-44d01ca47f28"
CONTEXT_REQ = (spnego.ContextReq.integrity | spnego.ContextReq.confidentiality | spnego.ContextReq.replay_detect
               | spnego.ContextReq.sequence_detect)


def per_second(function, seconds: float) -> float:
    """How many times a second `function` runs, over about `seconds`."""
    done, began = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        for _ in range(20):
            function()
        done += 20
    return done / elapsed


def rates(functions, seconds: float, rounds: int = 7) -> list[float]:
    """Each function's best rate over `rounds` short windows, the functions taking turns: on a shared machine
    the load shifts from second to second, and turns give every one the same chances."""
    best = [0.0] * len(functions)
    for _ in range(rounds):
        for index, function in enumerate(functions):
            best[index] = max(best[index], per_second(function, seconds / rounds))
    return best


def _pyspnego(secret: str):
    return spnego.client("alice", secret, hostname="mqspec", service="host", protocol="ntlm",
                         options=spnego.NegotiateOptions.use_ntlm, context_req=CONTEXT_REQ)


def _handshake(client) -> tuple[int, bytes]:
    """(flags, ExportedSessionKey) of a pyspnego client context completed against the server's NTLM."""
    server = Ntlm(Users({"alice": ntlm.compute_nthash(PASSWORD)}), "MQSPEC")
    authenticate = client.step(server.challenge(client.step()))
    server.authenticate(authenticate, PRIVACY)
    return server.flags, client.session_key


def sealing(seconds: float) -> None:
    client = _pyspnego(ntlm_secret(PASSWORD))
    flags, key = _handshake(client)
    direction = Direction(flags, key, "Client")
    impacket_rc4 = ARC4.new(direction.seal_key).encrypt
    print("1. seal + sign one request PDU at packet privacy (per second; ratio to ntlm_security.Direction)")
    for size in (288, 5792):
        header, body, trailer = os.urandom(24), os.urandom(size), os.urandom(8)

        def direct(header=header, body=body, trailer=trailer):
            return direction.rc4(body), direction.token(header + body + trailer)

        def impacket_seal(header=header, body=body, trailer=trailer):
            return ntlm.SEAL(flags, direction.sign_key, direction.seal_key, header + body + trailer, body, 5,
                             impacket_rc4)

        def pyspnego_iov(header=header, body=body, trailer=trailer):
            return client.wrap_iov([(BufferType.sign_only, header), body, (BufferType.sign_only, trailer),
                                    BufferType.header])

        base, theirs, iov = rates([direct, impacket_seal, pyspnego_iov], seconds)
        print(f"   stub {size:5d} B: Direction {base:9.0f}   impacket SEAL {theirs:9.0f} ({theirs / base:4.2f} x)"
              f"   pyspnego wrap_iov {iov:9.0f} ({iov / base:4.2f} x)")


def handshakes(seconds: float) -> None:
    users = Users({"alice": ntlm.compute_nthash(PASSWORD)})
    hashed = ntlm_secret(PASSWORD)

    def server_only():
        Ntlm(users, "MQSPEC").challenge(ntlm.getNTLMSSPType1("", "", signingRequired=True, use_ntlmv2=True)
                                        .getData())

    def with_impacket():
        server = Ntlm(users, "MQSPEC")
        negotiate = ntlm.getNTLMSSPType1("", "", signingRequired=True, use_ntlmv2=True)
        authenticate, _ = ntlm.getNTLMSSPType3(negotiate, server.challenge(negotiate.getData()), "alice", PASSWORD,
                                               "", "", "", use_ntlmv2=True)
        server.authenticate(authenticate.getData(), PRIVACY)

    def with_pyspnego(secret):
        return lambda: _handshake(_pyspnego(secret))

    base, password, theirs, alone = rates([with_pyspnego(hashed), with_pyspnego(PASSWORD), with_impacket,
                                           server_only], seconds)
    print("2. NTLM handshakes, client and server (per second; ratio to pyspnego with the hash made once)")
    print(f"   pyspnego, NT hash given {base:7.0f}   pyspnego, password {password:7.0f} ({password / base:4.2f} x)"
          f"   impacket {theirs:7.0f} ({theirs / base:4.2f} x)   (the server's challenge alone: {alone:7.0f})")


class Echo:
    uuid, version = UUID, (1, 0)

    def call(self, call):
        return call.stub

    def may_block(self, opnum, stub):
        return False

    def call_abandoned(self, call):
        pass

    def association_ended(self, association):
        pass


def calls(seconds: float) -> None:
    stub = os.urandom(200)
    with DceRpcServer([Echo()], users=Users({"alice": ntlm.compute_nthash(PASSWORD)}), min_auth_level=1,
                      log=lambda line: None, computer_name="MQSPEC") as server:
        pools = {level: Pool("127.0.0.1", server.port, (UUID, "1.0"), credentials=Credentials(
            user="alice" if level != "none" else "", password=PASSWORD, auth_level=level))
            for level in ("none", "privacy")}
        t = transport.DCERPCTransportFactory(f"ncacn_ip_tcp:127.0.0.1[{server.port}]")
        t.set_credentials("alice", PASSWORD)
        dce = t.get_dce_rpc()
        dce.set_auth_level(PRIVACY)
        dce.connect()
        dce.bind(uuidtup_to_bin((UUID, "1.0")))

        def impacket_call():
            dce.call(0, stub)
            return dce.recv()

        plain, sealed, theirs = rates([lambda: pools["none"].call(0, stub, 10),
                                       lambda: pools["privacy"].call(0, stub, 10), impacket_call], seconds)
        dce.disconnect()
        for pool in pools.values():
            pool.close()
    print("3. echo calls of 200 bytes over loopback, one connection (per second; ratio to the plain wire)")
    print(f"   suite's client, no authentication {plain:7.0f}   suite's client at privacy {sealed:7.0f}"
          f" ({sealed / plain:4.2f} x)   impacket's client at privacy {theirs:7.0f} ({theirs / plain:4.2f} x)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    seconds = 0.3 if parser.parse_args().quick else 1.0
    sealing(seconds)
    handshakes(seconds)
    calls(seconds * 2)


if __name__ == "__main__":
    main()
