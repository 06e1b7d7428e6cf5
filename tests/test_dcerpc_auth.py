"""Authentication on the DCE/RPC server (adapters/wire/dcerpc_auth.py), proven with two clients we did not write.

impacket's client speaks NTLM (auth_type 10: bind, bind_ack, auth3) and does not check the server's signatures;
scapy's speaks NTLM and SPNEGO carrying NTLM (auth_type 9: bind, bind_ack, alter_context, alter_context_resp)
and checks every signature it gets.  Both at connect, packet integrity and packet privacy, with requests and
responses of many fragments, several calls on one connection (the sequence numbers move on), a password or an NT
hash.  Then the refusals, each answered as Windows answers it, after which the server still serves.
"""

from __future__ import annotations

import struct

import pytest
from impacket import ntlm
from impacket.dcerpc.v5 import transport
from impacket.dcerpc.v5.rpcrt import DCERPCException
from impacket.uuid import uuidtup_to_bin

from mqspec.adapters.wire.dcerpc_auth import Users
from mqspec.adapters.wire.dcerpc_server import DceRpcServer
from tests.scapy_rpc import DceRpcBindError, call as scapy_call
from tests.test_dcerpc_server import NDR20, Raw, abstract, bind_pdu

UUID = "1a9134dd-7b39-45ba-ad88-44d01ca47f28"   # an interface uuid scapy registers raw
PASSWORD = "Passw0rd!"
LEVELS = {"connect": 2, "integrity": 5, "privacy": 6}
ACCESS_DENIED, SEC_PKG_ERROR = 5, 0x721
BIG = bytes(range(256)) * 160                    # 40 KiB: many fragments each way


class Echo:
    """Answers the stub reversed, then who called."""
    uuid, version = UUID, (1, 0)

    def call(self, call):
        who = call.identity
        return call.stub[::-1] + (f"|{who.user}|{who.domain}|{who.auth_type}|{who.auth_level}".encode()
                                  if who else b"|anonymous")

    def may_block(self, opnum, stub):
        return False

    def call_abandoned(self, call):
        pass

    def association_ended(self, association):
        pass


@pytest.fixture
def lines():
    return []


@pytest.fixture
def users():
    return Users({"alice": ntlm.compute_nthash(PASSWORD), "Bob": bytes.fromhex("8846f7eaee8fb117ad06bdd830b7586c")})


def serving(users, lines, level="none"):
    return DceRpcServer([Echo()], users=users, min_auth_level={"none": 1, **LEVELS}[level], log=lines.append,
                        computer_name="MQSPEC")


def impacket_dce(port, user="alice", password=PASSWORD, level="privacy", nt_hash=""):
    t = transport.DCERPCTransportFactory(f"ncacn_ip_tcp:127.0.0.1[{port}]")
    t.set_credentials(user, password, "WORKGROUP", "", nt_hash)
    dce = t.get_dce_rpc()
    dce.set_auth_level(LEVELS[level])
    dce.connect()
    dce.bind(uuidtup_to_bin((UUID, "1.0")))
    return dce


def echo(dce, stub: bytes) -> bytes:
    dce.call(0, stub)
    return dce.recv()


@pytest.mark.parametrize("level", LEVELS)
def test_impacket_ntlm_at_each_level(users, lines, level):
    with serving(users, lines) as srv:
        dce = impacket_dce(srv.port, level=level)
        for stub in (b"one", BIG, b"three"):
            assert echo(dce, stub) == stub[::-1] + f"|alice|WORKGROUP|10|{LEVELS[level]}".encode()
        dce.disconnect()


def test_impacket_ntlm_with_an_nt_hash(users, lines):
    with serving(users, lines) as srv:
        dce = impacket_dce(srv.port, user="bob", password="", nt_hash="8846f7eaee8fb117ad06bdd830b7586c")
        assert echo(dce, b"hashed") == b"dehsah|bob|WORKGROUP|10|6"
        dce.disconnect()


@pytest.mark.parametrize("ssp", ["ntlm", "spnego"])
@pytest.mark.parametrize("level", LEVELS)
def test_scapy_ntlm_and_spnego_at_each_level_with_every_signature_checked(users, lines, ssp, level):
    auth_type = 10 if ssp == "ntlm" else 9
    with serving(users, lines) as srv:
        status, out = scapy_call("127.0.0.1", srv.port, UUID, "1.0", 0, BIG, user="alice", domain="WG",
                                 password=PASSWORD, ssp=ssp, level=level)
        assert status is None and out == BIG[::-1] + f"|alice|WG|{auth_type}|{LEVELS[level]}".encode()
        status, out = scapy_call("127.0.0.1", srv.port, UUID, "1.0", 0, b"x", user="BOB", domain="WG",
                                 nt_hash=bytes.fromhex("8846f7eaee8fb117ad06bdd830b7586c"), ssp=ssp, level=level)
        assert status is None and out == f"x|BOB|WG|{auth_type}|{LEVELS[level]}".encode()


def test_a_wrong_password_or_an_unknown_user_is_refused_and_the_server_goes_on(users, lines):
    with serving(users, lines) as srv:
        for user, password in (("alice", "wrong"), ("mallory", PASSWORD)):
            dce = impacket_dce(srv.port, user=user, password=password)   # NTLM: auth3 is not answered ...
            with pytest.raises(DCERPCException, match="rpc_s_access_denied"):
                echo(dce, b"x")                                           # ... the first call is refused
            with pytest.raises(DceRpcBindError) as refused:               # SPNEGO: refused in the alter leg
                scapy_call("127.0.0.1", srv.port, UUID, "1.0", 0, b"x", user=user, domain="WG",
                           password=password, ssp="spnego", level="privacy")
            assert (refused.value.kind, refused.value.reason) == ("fault", SEC_PKG_ERROR)
        assert echo(impacket_dce(srv.port), b"ok") == b"ko|alice|WORKGROUP|10|6"
    assert any("wrong password for 'alice'" in line for line in lines)
    assert any("unknown user 'mallory'" in line for line in lines)


@pytest.mark.parametrize("level", ["connect", "integrity"])
def test_a_call_below_the_servers_level_is_access_denied(users, lines, level):
    with serving(users, lines, level="privacy") as srv:
        dce = impacket_dce(srv.port, level=level)
        with pytest.raises(DCERPCException, match="rpc_s_access_denied"):
            echo(dce, b"low")
        status, _ = scapy_call("127.0.0.1", srv.port, UUID, "1.0", 0, b"low", user="alice", domain="WG",
                               password=PASSWORD, ssp="spnego", level=level)
        assert status == ACCESS_DENIED
        assert echo(impacket_dce(srv.port, level="privacy"), b"hi") == b"ih|alice|WORKGROUP|10|6"


def test_an_unauthenticated_call_is_access_denied_when_a_level_is_required(users, lines):
    with serving(users, lines, level="connect") as srv:
        raw = Raw(srv.port)
        assert raw.bind([(0, abstract(UUID), [NDR20])])["ptype"] == 12
        assert raw.call(b"anonymous").status == ACCESS_DENIED
        assert raw.call(b"again", call_id=3).status == ACCESS_DENIED   # refused, not cut off


def test_without_users_the_server_recognises_no_authentication(lines):
    with DceRpcServer([Echo()], log=lines.append) as srv:
        with pytest.raises(DCERPCException, match="(?i)authentication type not recognized"):
            impacket_dce(srv.port)
        assert echo(_plain(srv.port), b"open") == b"nepo|anonymous"


def test_an_unknown_authentication_type_is_naked_with_reason_8(users, lines):
    with serving(users, lines) as srv:
        raw = Raw(srv.port)
        bind = bytearray(bind_pdu([(0, abstract(UUID), [NDR20])], auth=b"\x60\x00"))
        bind[-10] = 16                                                    # sec_trailer.auth_type: Kerberos
        raw.send(bytes(bind))
        answer = raw.pdu()
        assert answer.ptype == 13 and struct.unpack_from("<H", answer.raw, 16)[0] == 8
        assert raw.closed()


@pytest.mark.parametrize("level", ["integrity", "privacy"])
def test_an_altered_request_is_refused_and_the_connection_closed(users, lines, level):
    with serving(users, lines) as srv:
        dce = impacket_dce(srv.port, level=level)
        assert echo(dce, b"first")[:5] == b"tsrif"
        wire = dce.get_rpc_transport()
        real_send = wire.send

        def flip(data, *args, **kwargs):   # the byte after the request header: a stub byte, plain or sealed
            if len(data) > 24 and data[2] == 0:
                data = data[:24] + bytes([data[24] ^ 0x01]) + data[25:]
            return real_send(data, *args, **kwargs)

        wire.send = flip
        with pytest.raises(DCERPCException, match="00000721"):
            echo(dce, b"second")
        assert echo(impacket_dce(srv.port, level=level), b"third")[:5] == b"driht"
    assert any("verifier does not verify" in line for line in lines)


@pytest.mark.parametrize("change", ["altered", "stripped"])
def test_a_spnego_mech_list_mic_altered_or_stripped_is_refused(users, lines, monkeypatch, change):
    # NTLM sends its own MIC, so [MS-SPNG] makes the client's mechListMIC mandatory and the server checks it
    import scapy.layers.ntlm
    import scapy.layers.spnego
    if change == "altered":
        real = scapy.layers.ntlm.NTLMSSP.GetMechListMIC

        def flipped(self, *args):
            mic = bytes(real(self, *args))
            return mic[:4] + bytes([mic[4] ^ 1]) + mic[5:]   # a byte of the checksum (after the version)
        monkeypatch.setattr(scapy.layers.ntlm.NTLMSSP, "GetMechListMIC", flipped)
    else:
        monkeypatch.setattr(scapy.layers.spnego, "SPNEGO_MechListMIC", lambda **fields: None)
    with serving(users, lines) as srv:
        with pytest.raises(DceRpcBindError) as refused:
            scapy_call("127.0.0.1", srv.port, UUID, "1.0", 0, b"x", user="alice", domain="WG",
                       password=PASSWORD, ssp="spnego", level="privacy")
        assert (refused.value.kind, refused.value.reason) == ("fault", SEC_PKG_ERROR)
        monkeypatch.undo()
        status, out = scapy_call("127.0.0.1", srv.port, UUID, "1.0", 0, b"x", user="alice", domain="WG",
                                 password=PASSWORD, ssp="spnego", level="privacy")
        assert status is None and out == b"x|alice|WG|9|6"
    assert any(f"mechListMIC {'does not verify' if change == 'altered' else 'is missing'}" in line
               for line in lines)


def test_the_users_file(tmp_path):
    path = tmp_path / "users"
    path.write_text("# who may read\nalice:Passw0rd!\n\nbob::8846F7EAEE8FB117AD06BDD830B7586C\ncolon:pass:word\n")
    users = Users.from_file(path)
    assert users.nt_hash("ALICE") == ntlm.compute_nthash("Passw0rd!")
    assert users.nt_hash("bob") == bytes.fromhex("8846f7eaee8fb117ad06bdd830b7586c")
    assert users.nt_hash("colon") == ntlm.compute_nthash("pass:word")   # the password is all after the first :
    for text, fragment in (("justaname\n", "line 1: write name:password"), ("x::abc\n", "line 1: an NT hash"),
                           ("# nobody\n", "no account")):
        path.write_text(text)
        with pytest.raises(ValueError, match=fragment):
            Users.from_file(path)


def _plain(port):
    dce = transport.DCERPCTransportFactory(f"ncacn_ip_tcp:127.0.0.1[{port}]").get_dce_rpc()
    dce.connect()
    dce.bind(uuidtup_to_bin((UUID, "1.0")))
    return dce

