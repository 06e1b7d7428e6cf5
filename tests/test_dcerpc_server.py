"""The DCE/RPC server runtime (adapters/wire/dcerpc_server.py) with a toy interface.

Driven by impacket's own client where it can express the case, and by PDUs built
here by hand (independently of the server's PDU module) where it cannot.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
import uuid
from dataclasses import dataclass

import pytest
from impacket.dcerpc.v5 import transport
from impacket.dcerpc.v5.rpcrt import DCERPCException
from impacket.uuid import uuidtup_to_bin

from mqspec.adapters.wire.dcerpc_server import DceRpcServer, Fault
from mqspec.protocol.hresult import HRESULT, RpcStatus

TOY_UUID = "6d5f3c1e-0a7b-4c2d-9e8f-112233445566"
OTHER_UUID = "0f0e0d0c-0b0a-4908-8706-050403020100"
NDR20 = uuid.UUID("8a885d04-1ceb-11c9-9fe8-08002b104860").bytes_le + struct.pack("<HH", 2, 0)
NDR64 = uuid.UUID("71710533-beba-4937-8319-b5dbef9ccc36").bytes_le + struct.pack("<HH", 1, 0)
UNKNOWN_SYNTAX = uuid.UUID("11111111-2222-3333-4444-555555555555").bytes_le + struct.pack("<HH", 1, 0)
ZERO_SYNTAX = bytes(20)
HANG = 10.0                      # generous guard for anything that should happen "at once"
NCA_S_FAULT_UNSPEC = 0x1C000012
NCA_S_UNSUPPORTED_TYPE = 0x1C010017
PFC_FIRST, PFC_LAST, PFC_DID_NOT_EXECUTE, PFC_OBJECT_UUID = 0x01, 0x02, 0x20, 0x80
BIND, BIND_ACK, BIND_NAK, ALTER, ALTER_RESP = 11, 12, 13, 14, 15
REQUEST, RESPONSE, FAULT, CO_CANCEL, ORPHANED = 0, 2, 3, 18, 19


def feature_syntax(bitmask: int) -> bytes:
    """The bind time feature negotiation transfer syntax ([MS-RPCE] 2.2.2.14)."""
    return (uuid.UUID("6cb71c2c-9812-4540-0000-000000000000").bytes_le[:8] + bytes([bitmask]) + bytes(7)
            + struct.pack("<HH", 1, 0))


def abstract(text: str = TOY_UUID, major: int = 1, minor: int = 0) -> bytes:
    return uuid.UUID(text).bytes_le + struct.pack("<HH", major, minor)


# -- the toy interface ----------------------------------------------------------------------------
class Toy:
    """opnum 0 echo; 1 blocks until released or cancelled; 2 faults with the status in the stub;
    3 has a bug; 4 answers N bytes; 5 tells ndr64/association/connection; 6/7 put/get association state."""

    uuid = TOY_UUID
    version = (1, 2)

    def __init__(self):
        self.release = threading.Event()
        self.entered = threading.Event()
        self.abandoned = []              # (call, monotonic time)
        self.abandoned_event = threading.Event()
        self.ended = []                  # association ids, in order
        self.ended_event = threading.Event()
        self.stubs = []

    def call(self, call):
        self.stubs.append(len(call.stub))
        if call.opnum == 0:
            return call.stub
        if call.opnum == 1:
            self.entered.set()
            deadline = time.monotonic() + HANG
            while not (self.release.is_set() or call.cancelled.is_set()) and time.monotonic() < deadline:
                call.cancelled.wait(0.01)
            return b"cancelled" if call.cancelled.is_set() else b"released"
        if call.opnum == 2:
            raise Fault(struct.unpack("<I", call.stub[:4])[0])
        if call.opnum == 3:
            raise RuntimeError("toy bug")
        if call.opnum == 4:
            size = struct.unpack("<I", call.stub[:4])[0]
            return bytes(i % 251 for i in range(size))
        if call.opnum == 5:
            return struct.pack("<?II", call.ndr64, call.association.id, call.connection_id)
        if call.opnum == 6:
            with call.association.lock:
                call.association.state["handle"] = call.stub
            return b""
        if call.opnum == 7:
            with call.association.lock:
                return call.association.state.get("handle", b"none")
        raise Fault(RpcStatus.NCA_S_OP_RNG_ERROR)

    def may_block(self, opnum, stub):
        return opnum == 1

    def call_abandoned(self, call):
        self.abandoned.append((call, time.monotonic()))
        self.abandoned_event.set()

    def association_ended(self, association):
        self.ended.append(association.id)
        self.ended_event.set()


class Other(Toy):
    uuid = OTHER_UUID
    version = (2, 0)


@pytest.fixture
def toy():
    return Toy()


@pytest.fixture
def lines():
    return []


@pytest.fixture
def server(toy, lines):
    before = threading.active_count()
    srv = DceRpcServer([toy, Other()], log=lines.append).start()
    yield srv
    srv.stop()
    assert srv.stats()["threads"] == 0
    assert threading.active_count() == before


def settle(srv, **expected):
    """Wait (hang guard only) until stats() shows `expected`: readers finish asynchronously."""
    deadline = time.monotonic() + HANG
    while True:
        stats = srv.stats()
        if all(stats[k] == v for k, v in expected.items()) or time.monotonic() > deadline:
            return stats
        time.sleep(0.01)


# -- a raw client -----------------------------------------------------------------------------------
@dataclass
class Pdu:
    ptype: int
    flags: int
    call_id: int
    raw: bytes

    @property
    def status(self) -> int:          # of a fault, [C706] 12.6.4.7
        return struct.unpack_from("<I", self.raw, 24)[0]

    @property
    def stub(self) -> bytes:          # of a response
        return self.raw[24:]

    @property
    def alloc_hint(self) -> int:
        return struct.unpack_from("<I", self.raw, 16)[0]

    @property
    def cancel_count(self) -> int:
        return self.raw[22]


def header(ptype, flags, frag_length, call_id, auth_length=0, drep=b"\x10\0\0\0", vers=(5, 0)):
    return bytes(vers) + bytes([ptype, flags]) + drep + struct.pack("<HHI", frag_length, auth_length, call_id)


def bind_pdu(elements, call_id=1, assoc=0, max_xmit=5840, max_recv=5840, ptype=BIND, auth=b""):
    """elements: (p_cont_id, abstract syntax, [transfer syntaxes]) as 20-byte p_syntax_id_t."""
    body = struct.pack("<HHIBBH", max_xmit, max_recv, assoc, len(elements), 0, 0)
    for p_cont_id, abstract_syntax, transfers in elements:
        body += struct.pack("<HBB", p_cont_id, len(transfers), 0) + abstract_syntax + b"".join(transfers)
    trailer = b""
    if auth:
        trailer = struct.pack("<BBBBI", 10, 2, 0, 0, 79231) + auth      # sec_trailer: NTLM, connect level
    return header(ptype, PFC_FIRST | PFC_LAST, 16 + len(body) + len(trailer), call_id, len(auth)) + body + trailer


def request_pdus(stub, call_id=2, p_cont_id=0, opnum=0, chunk=None, drep=b"\x10\0\0\0", flags=0):
    """The request fragments of one call, `chunk` stub bytes each (None: one fragment)."""
    chunk = chunk or max(len(stub), 1)
    pieces = [stub[i:i + chunk] for i in range(0, len(stub), chunk)] or [b""]
    fmt = "<IHH" if drep[0] & 0x10 else ">IHH"
    out = []
    for i, piece in enumerate(pieces):
        f = flags | (PFC_FIRST if i == 0 else 0) | (PFC_LAST if i == len(pieces) - 1 else 0)
        hdr = bytes([5, 0, REQUEST, f]) + drep + struct.pack(fmt[0] + "HHI", 24 + len(piece), 0, call_id)
        out.append(hdr + struct.pack(fmt, len(stub) - i * chunk, p_cont_id, opnum) + piece)
    return out


def cancel_pdu(call_id, ptype=CO_CANCEL):
    return header(ptype, PFC_FIRST | PFC_LAST, 16, call_id)


class Raw:
    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=HANG)

    def send(self, *pdus: bytes) -> None:
        self.sock.sendall(b"".join(pdus))

    def _exactly(self, n: int) -> bytes | None:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def pdu(self) -> Pdu | None:
        """The next PDU, or None at EOF."""
        head = self._exactly(16)
        if head is None:
            return None
        frag_length = struct.unpack_from("<H", head, 8)[0]
        rest = self._exactly(frag_length - 16)
        assert rest is not None, "EOF inside a PDU"
        return Pdu(head[2], head[3], struct.unpack_from("<I", head, 12)[0], head + rest)

    def closed(self) -> bool:
        """True when the server closed (EOF or reset) with nothing more to read."""
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True

    def bind(self, elements=None, **kw) -> dict:
        self.send(bind_pdu(elements or [(0, abstract(), [NDR20])], **kw))
        return parse_ack(self.pdu())

    def call(self, stub=b"", call_id=2, p_cont_id=0, opnum=0, chunk=None):
        """(stub of the whole response, its fragments) or the fault Pdu."""
        self.send(*request_pdus(stub, call_id, p_cont_id, opnum, chunk))
        fragments = []
        while True:
            reply = self.pdu()
            assert reply is not None, "EOF instead of a reply"
            if reply.ptype == FAULT:
                return reply
            assert reply.ptype == RESPONSE and reply.call_id == call_id
            fragments.append(reply)
            if reply.flags & PFC_LAST:
                return b"".join(f.stub for f in fragments), fragments

    def close(self) -> None:
        self.sock.close()


def parse_ack(pdu: Pdu) -> dict:
    """bind_ack / alter_context_resp ([C706] 12.6.4.4) or bind_nak ([C706] 12.6.4.5)."""
    raw = pdu.raw
    if pdu.ptype == BIND_NAK:
        return {"ptype": BIND_NAK, "reason": struct.unpack_from("<H", raw, 16)[0], "versions": raw[19:19 + 2 * raw[18]]}
    assert pdu.ptype in (BIND_ACK, ALTER_RESP), pdu
    max_xmit, max_recv, assoc, sec_len = struct.unpack_from("<HHIH", raw, 16)
    secondary = raw[26:26 + sec_len]
    offset = 26 + sec_len
    offset += -offset % 4
    results = [struct.unpack_from("<HH", raw, offset + 4 + 24 * i) + (raw[offset + 8 + 24 * i:offset + 28 + 24 * i],)
               for i in range(raw[offset])]
    return {"ptype": pdu.ptype, "max_xmit": max_xmit, "max_recv": max_recv, "assoc": assoc,
            "secondary": secondary, "results": results, "call_id": pdu.call_id}


def impacket_client(port: int, iface=TOY_UUID, version="1.0", transfer=("8a885d04-1ceb-11c9-9fe8-08002b104860", "2.0")):
    dce = transport.DCERPCTransportFactory(f"ncacn_ip_tcp:127.0.0.1[{port}]").get_dce_rpc()
    dce.connect()
    dce.bind(uuidtup_to_bin((iface, version)), transfer_syntax=transfer)
    return dce


# -- calls through impacket ------------------------------------------------------------------------------
def test_impacket_client_binds_and_calls(server):
    dce = impacket_client(server.port)
    dce.call(0, b"ping" * 10)
    assert dce.recv() == b"ping" * 10
    dce.call(0, b"")
    assert dce.recv() == b""
    dce.disconnect()


def test_multi_fragment_request_and_response_arrive_intact(server, toy):
    dce = impacket_client(server.port)
    dce.set_max_fragment_size(1000)            # the 100 KB request goes out as ~100 fragments
    stub = bytes(range(256)) * 400
    dce.call(0, stub)
    assert dce.recv() == stub                  # and comes back in max_xmit_frag (4280) pieces
    assert toy.stubs[-1] == len(stub)
    dce.disconnect()


def test_response_fragments_follow_the_clients_max_recv_frag(server):
    raw = Raw(server.port)
    ack = raw.bind(max_recv=1432)
    assert ack["max_xmit"] == 1432
    stub, fragments = raw.call(struct.pack("<I", 100_000), opnum=4)
    assert stub == bytes(i % 251 for i in range(100_000))
    assert len(fragments) > 70
    remaining = 100_000
    for i, fragment in enumerate(fragments):
        assert len(fragment.raw) <= 1432
        assert fragment.call_id == 2
        assert bool(fragment.flags & PFC_FIRST) == (i == 0)
        assert bool(fragment.flags & PFC_LAST) == (i == len(fragments) - 1)
        assert fragment.alloc_hint == remaining          # what remains, this fragment included
        if i < len(fragments) - 1:
            assert len(fragment.stub) % 8 == 0           # NDR alignment survives the split
        remaining -= len(fragment.stub)
    raw.close()


def test_max_recv_frag_below_must_recv_frag_size_is_raised_to_it(server):
    raw = Raw(server.port)
    ack = raw.bind(max_xmit=100, max_recv=100)           # [C706] Table K-2: everyone receives 1432
    assert (ack["max_xmit"], ack["max_recv"]) == (1432, 1432)
    ack_big = Raw(server.port).bind(max_xmit=65535, max_recv=65535)
    assert (ack_big["max_xmit"], ack_big["max_recv"]) == (5840, 5840)


# -- presentation context negotiation -------------------------------------------------------------------
def test_bind_offering_ndr20_ndr64_and_feature_negotiation(server):
    raw = Raw(server.port)
    ack = raw.bind([(0, abstract(), [NDR20]), (1, abstract(), [NDR64]), (2, abstract(), [feature_syntax(0x03)])])
    assert ack["ptype"] == BIND_ACK
    assert ack["secondary"] == f"{server.port}\0".encode()
    assert ack["assoc"] != 0
    assert ack["results"] == [
        (0, 0, NDR20),                 # acceptance, on NDR 2.0
        (2, 2, ZERO_SYNTAX),           # provider_rejection, proposed_transfer_syntaxes_not_supported
        (3, 0x02, ZERO_SYNTAX),        # negotiate_ack: KeepConnectionOnOrphanSupported only
    ]
    stub, _ = raw.call(b"", opnum=5, p_cont_id=0)
    assert stub[0] == 0                                  # ndr64 False
    fault = raw.call(b"", p_cont_id=1, call_id=3)
    assert fault.ptype == FAULT and fault.status == RpcStatus.NCA_S_UNK_IF


def test_ndr64_only_bind_is_accepted(server):
    raw = Raw(server.port)
    assert raw.bind([(5, abstract(), [NDR64])])["results"] == [(0, 0, NDR64)]
    stub, _ = raw.call(b"", opnum=5, p_cont_id=5)
    assert stub[0] == 1                                  # call.ndr64 True


def test_ndr64_only_bind_through_impacket(server):
    dce = impacket_client(server.port, transfer=("71710533-beba-4937-8319-b5dbef9ccc36", "1.0"))
    dce.call(5, b"")
    assert dce.recv()[0] == 1
    dce.disconnect()


def test_each_element_is_judged_on_its_own(server):
    raw = Raw(server.port)
    ack = raw.bind([
        (0, abstract(), [UNKNOWN_SYNTAX, NDR64, NDR20]),     # several transfer syntaxes: NDR 2.0 wins
        (1, abstract(), [UNKNOWN_SYNTAX]),                   # no syntax we speak
        (2, abstract(OTHER_UUID, 7), [NDR20]),               # major version nobody registered
        (3, abstract(minor=3), [NDR20]),                     # minor above ours (1.2)
        (4, abstract(minor=1), [NDR20]),                     # minor below ours
        (5, abstract(OTHER_UUID, 2), [NDR20]),               # the second interface
    ])
    assert ack["results"] == [(0, 0, NDR20), (2, 2, ZERO_SYNTAX), (2, 1, ZERO_SYNTAX), (2, 1, ZERO_SYNTAX),
                              (0, 0, NDR20), (0, 0, NDR20)]
    assert raw.call(b"a", p_cont_id=5)[0] == b"a"


def test_alter_context_through_impacket(server):
    dce = impacket_client(server.port)
    other = dce.alter_ctx(uuidtup_to_bin((OTHER_UUID, "2.0")))
    other.call(0, b"via alter_context")
    assert other.recv() == b"via alter_context"
    dce.call(0, b"first context still there")
    assert dce.recv() == b"first context still there"
    dce.disconnect()


def test_alter_context_adds_and_rejects_contexts(server):
    raw = Raw(server.port)
    ack = raw.bind()
    unknown = abstract("99999999-0000-0000-0000-000000000000")
    raw.send(bind_pdu([(7, abstract(OTHER_UUID, 2), [NDR20]), (8, unknown, [NDR20])], call_id=5, ptype=ALTER))
    resp = parse_ack(raw.pdu())
    assert resp["ptype"] == ALTER_RESP and resp["call_id"] == 5 and resp["assoc"] == ack["assoc"]
    assert resp["results"] == [(0, 0, NDR20), (2, 1, ZERO_SYNTAX)]
    assert raw.call(b"x", p_cont_id=7, call_id=6)[0] == b"x"
    assert raw.call(b"y", p_cont_id=0, call_id=7)[0] == b"y"


def test_request_on_a_context_never_accepted_faults_unk_if(server):
    raw = Raw(server.port)
    raw.bind()
    fault = raw.call(b"", p_cont_id=9)
    assert (fault.ptype, fault.status, fault.call_id) == (FAULT, RpcStatus.NCA_S_UNK_IF, 2)
    assert fault.flags & PFC_DID_NOT_EXECUTE
    assert raw.call(b"still served", call_id=3)[0] == b"still served"


# -- faults ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("status", [RpcStatus.NCA_S_OP_RNG_ERROR, RpcStatus.RPC_X_BAD_STUB_DATA,
                                    HRESULT.MQ_ERROR_INVALID_PARAMETER, HRESULT.STATUS_INVALID_HANDLE, 0x12345678])
def test_fault_status_reaches_the_wire(server, status):
    raw = Raw(server.port)
    raw.bind()
    fault = raw.call(struct.pack("<I", status), opnum=2)
    assert (fault.ptype, fault.status) == (FAULT, status)
    assert bool(fault.flags & PFC_DID_NOT_EXECUTE) == (status == RpcStatus.NCA_S_OP_RNG_ERROR)


def test_fault_through_impacket(server):
    dce = impacket_client(server.port)
    dce.call(99, b"")                                    # the toy raises Fault(NCA_S_OP_RNG_ERROR)
    with pytest.raises(DCERPCException, match="nca_s_op_rng_error"):
        dce.recv()
    dce.call(0, b"after the fault")
    assert dce.recv() == b"after the fault"


def test_status_forbidden_on_the_wire_becomes_fault_unspec(server, lines):
    raw = Raw(server.port)
    raw.bind()
    assert raw.call(struct.pack("<I", 0), opnum=2).status == NCA_S_FAULT_UNSPEC   # [MS-RPCE] 3.3.3.5.1
    assert any("3.3.3.5.1" in line for line in lines)


def test_interface_bug_is_a_fault_logged_once(server, lines):
    raw = Raw(server.port)
    raw.bind()
    fault = raw.call(opnum=3)
    assert (fault.ptype, fault.status) == (FAULT, NCA_S_FAULT_UNSPEC)
    tracebacks = [line for line in lines if "Traceback" in line]
    assert len(tracebacks) == 1 and "RuntimeError: toy bug" in tracebacks[0]
    assert raw.call(b"served on", call_id=3)[0] == b"served on"


def test_stub_above_max_stub_is_refused_and_the_connection_lives(toy):
    with DceRpcServer([toy], max_stub=10_000) as srv:
        raw = Raw(srv.port)
        raw.bind()
        fault = raw.call(bytes(20_000), chunk=2_000)         # refused at the 6th of 10 fragments
        assert (fault.ptype, fault.status) == (FAULT, RpcStatus.RPC_S_ACCESS_DENIED)
        assert raw.call(b"ok", call_id=3)[0] == b"ok"        # the tail of the refused call was skipped
        assert toy.stubs == [2]


def test_big_endian_request_is_refused_cleanly(server):
    raw = Raw(server.port)
    raw.bind()
    raw.send(*request_pdus(b"abc", call_id=0x01020304, drep=b"\x00\0\0\0"))
    fault = raw.pdu()                                        # framed in its byte order, answered in ours
    assert (fault.ptype, fault.call_id, fault.status) == (FAULT, 0x01020304, NCA_S_UNSUPPORTED_TYPE)
    assert raw.call(b"le", call_id=5)[0] == b"le"


def test_big_endian_bind_is_understood(server):
    raw = Raw(server.port)
    body = struct.pack(">HHIBBH", 5840, 5840, 0, 1, 0, 0) + struct.pack(">HBB", 0, 1, 0)
    body += uuid.UUID(TOY_UUID).bytes + struct.pack(">I", 1)        # if_version: u32, major in the low half
    body += uuid.UUID("8a885d04-1ceb-11c9-9fe8-08002b104860").bytes + struct.pack(">I", 2)
    raw.send(bytes([5, 0, BIND, 3, 0, 0, 0, 0]) + struct.pack(">HHI", 16 + len(body), 0, 1) + body)
    assert parse_ack(raw.pdu())["results"] == [(0, 0, NDR20)]
    assert raw.call(b"x")[0] == b"x"


# -- blocking calls, cancellation, connection loss -------------------------------------------------------------
def test_a_blocked_call_does_not_stop_another_connection(server, toy):
    blocked = Raw(server.port)
    blocked.bind()
    blocked.send(*request_pdus(b"", opnum=1))
    assert toy.entered.wait(HANG)
    dce = impacket_client(server.port)
    for i in range(20):
        dce.call(0, b"%d" % i)
        assert dce.recv() == b"%d" % i
    assert server.stats()["calls_in_progress"] == 1
    toy.release.set()
    reply = blocked.pdu()
    assert (reply.ptype, reply.stub) == (RESPONSE, b"released")
    dce.disconnect()


@pytest.mark.parametrize("how", ["fin", "rst"])
def test_connection_lost_mid_blocking_call_abandons_it_at_once(server, toy, lines, how):
    raw = Raw(server.port)
    raw.bind()
    raw.send(*request_pdus(b"", opnum=1))
    assert toy.entered.wait(HANG)
    if how == "rst":
        raw.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    closed_at = time.monotonic()
    raw.close()
    assert toy.abandoned_event.wait(HANG)
    call, when = toy.abandoned[0]
    assert call.opnum == 1 and call.cancelled.is_set()
    assert when - closed_at < 1.0
    assert settle(server, connections=0, calls_in_progress=0, associations=0)["connections"] == 0
    assert len(toy.abandoned) == 1
    assert toy.ended == [call.association.id]


def test_co_cancel_cancels_and_still_answers(server, toy):
    raw = Raw(server.port)
    raw.bind()
    raw.send(*request_pdus(b"", call_id=4, opnum=1))
    assert toy.entered.wait(HANG)
    raw.send(cancel_pdu(4))
    reply = raw.pdu()
    assert (reply.ptype, reply.call_id, reply.stub, reply.cancel_count) == (RESPONSE, 4, b"cancelled", 1)
    assert len(toy.abandoned) == 1
    assert raw.call(b"next", call_id=5)[0] == b"next"


def test_orphaned_call_gets_no_reply_and_the_connection_goes_on(server, toy):
    raw = Raw(server.port)
    raw.bind()
    raw.send(*request_pdus(b"", call_id=4, opnum=1))
    assert toy.entered.wait(HANG)
    raw.send(cancel_pdu(4, ORPHANED))
    assert toy.abandoned_event.wait(HANG)
    reply = raw.call(b"after orphan", call_id=5)           # the first PDU back is this call's
    assert reply[0] == b"after orphan"


def test_cancel_for_no_call_is_ignored(server):
    raw = Raw(server.port)
    raw.bind()
    raw.send(cancel_pdu(77), cancel_pdu(78, ORPHANED))
    assert raw.call(b"fine", call_id=79)[0] == b"fine"


# -- association groups --------------------------------------------------------------------------------------------
def test_second_connection_joins_the_association_group(server, toy):
    first = Raw(server.port)
    group = first.bind()["assoc"]
    first.call(b"handle-1", opnum=6)
    second = Raw(server.port)
    ack = second.bind(assoc=group)
    assert ack["ptype"] == BIND_ACK and ack["assoc"] == group
    assert second.call(opnum=7)[0] == b"handle-1"           # the group's state is visible here
    assert server.stats()["associations"] == 1
    first.close()
    settle(server, connections=1)
    assert toy.ended == []                                  # one connection of the group remains
    second.close()
    assert toy.ended_event.wait(HANG)
    settle(server, connections=0, associations=0)
    assert toy.ended == [group]


def test_another_host_cannot_join_the_group(server):
    first = Raw(server.port)
    group = first.bind()["assoc"]
    stranger = socket.socket()
    stranger.settimeout(HANG)
    stranger.bind(("127.0.0.2", 0))                        # [MS-RPCE]: join only from the same IP address
    stranger.connect(("127.0.0.1", server.port))
    raw = Raw.__new__(Raw)
    raw.sock = stranger
    nak = raw.bind(assoc=group)
    assert (nak["ptype"], nak["reason"]) == (BIND_NAK, 0)
    assert raw.closed()
    assert first.call(b"the group lives on")[0] == b"the group lives on"


def test_each_fresh_bind_gets_its_own_nonzero_group(server):
    groups = {Raw(server.port).bind()["assoc"] for _ in range(20)}
    assert len(groups) == 20 and 0 not in groups


def test_bind_naming_an_unknown_group_is_naked(server):
    raw = Raw(server.port)
    nak = raw.bind(assoc=0x0BADF00D)
    assert (nak["ptype"], nak["reason"]) == (BIND_NAK, 0)   # reason_not_specified
    assert raw.closed()


def test_bind_with_auth_verifier_is_naked(server):
    raw = Raw(server.port)
    raw.send(bind_pdu([(0, abstract(), [NDR20])], auth=b"NTLMSSP\0" + bytes(32)))
    nak = parse_ack(raw.pdu())
    assert (nak["ptype"], nak["reason"], nak["versions"]) == (BIND_NAK, 8, b"\x05\x00")
    assert raw.closed()


def test_bind_with_auth_through_impacket_is_refused(server):
    t = transport.DCERPCTransportFactory(f"ncacn_ip_tcp:127.0.0.1[{server.port}]")
    t.set_credentials("user", "password", "DOMAIN")
    dce = t.get_dce_rpc()
    dce.set_auth_level(2)                                   # RPC_C_AUTHN_LEVEL_CONNECT
    dce.connect()
    with pytest.raises(DCERPCException, match="(?i)authentication type not recognized"):
        dce.bind(uuidtup_to_bin((TOY_UUID, "1.0")))


# -- limits, time-outs, logging, stop ---------------------------------------------------------------------------------
def test_connections_above_max_connections_are_closed_at_once(toy, lines):
    with DceRpcServer([toy], max_connections=2, log=lines.append, evict_after=60) as srv:
        kept = [Raw(srv.port) for _ in range(2)]
        for raw in kept:
            raw.bind()
        extra = Raw(srv.port)
        assert extra.closed()
        assert srv.stats()["connections_refused"] == 1
        assert any("refused: max_connections (2)" in line for line in lines)
        kept[0].close()
        settle(srv, connections=1)
        assert Raw(srv.port).bind()["ptype"] == BIND_ACK     # a slot is free again


def test_at_the_cap_the_connection_quiet_the_longest_makes_way_and_a_busy_one_never_does(toy, lines):
    """D-122: at max_connections a new connection closes the one quiet the longest (here the bound, silent one),
    never one whose call runs; with none quiet long enough the new one is refused."""
    with DceRpcServer([toy], max_connections=2, log=lines.append, evict_after=0.3) as srv:
        quiet, busy = Raw(srv.port), Raw(srv.port)
        quiet.bind()
        busy.bind()
        busy.send(*request_pdus(b"", opnum=1))               # blocks in the toy until released
        assert toy.entered.wait(HANG)
        assert Raw(srv.port).closed()                        # nobody quiet for 0.3 s yet: refused
        time.sleep(0.5)
        newcomer = Raw(srv.port)
        assert newcomer.bind()["ptype"] == BIND_ACK and quiet.closed()
        assert srv.stats()["connections_evicted"] == 1
        assert any("made way for a new one" in line for line in lines)
        assert Raw(srv.port).closed()                        # the newcomer is quiet < 0.3 s, the other is busy
        toy.release.set()


def test_silent_or_stalled_connections_time_out_only_before_bind_or_mid_pdu(toy, lines):
    with DceRpcServer([toy], io_timeout=0.3, log=lines.append) as srv:
        silent = Raw(srv.port)
        stalled = Raw(srv.port)
        stalled.bind()
        stalled.send(request_pdus(b"abcdef")[0][:20])       # a PDU that never finishes
        idle = Raw(srv.port)
        idle.bind()
        assert silent.closed() and stalled.closed()
        time.sleep(0.6)
        assert idle.call(b"still here")[0] == b"still here"  # bound and idle: no time-out
        assert sum("no bind within 0.3 s" in line for line in lines) == 1
        assert sum("a PDU did not arrive whole within 0.3 s" in line for line in lines) == 1


def test_a_pdu_trickled_in_is_closed_when_it_is_not_whole_in_time(toy, lines):
    """The deadline runs from a PDU's first byte: a byte every 0.1 s (never silent for io_timeout) is not enough,
    nor is a bind sent the same way."""
    with DceRpcServer([toy], io_timeout=0.5, log=lines.append) as srv:
        bound, unbound = Raw(srv.port), Raw(srv.port)
        bound.bind()
        done = threading.Event()

        def trickle(raw, data):
            for byte in data:
                if done.wait(0.1):
                    return
                try:
                    raw.send(bytes([byte]))
                except OSError:
                    return

        senders = [threading.Thread(target=trickle, args=(bound, request_pdus(b"x" * 64)[0])),
                   threading.Thread(target=trickle, args=(unbound, bind_pdu([(0, abstract(), [NDR20])])))]
        began = time.monotonic()
        for sender in senders:
            sender.start()
        try:
            assert bound.closed() and unbound.closed()
            assert time.monotonic() - began < 2          # the whole PDUs would need 8.8 s and 7.2 s
        finally:
            done.set()
            for sender in senders:
                sender.join()
    assert any("a PDU did not arrive whole within 0.5 s" in line for line in lines)
    assert any("no bind within 0.5 s" in line for line in lines)


def test_an_idle_association_that_owns_nothing_is_closed_and_one_that_owns_something_is_kept(lines):
    class Keeper(Toy):
        def holds_state(self, association):
            return "handle" in association.state

    keeper = Keeper()
    with DceRpcServer([keeper], idle_timeout=0.4, log=lines.append) as srv:
        empty, owner = Raw(srv.port), Raw(srv.port)
        empty.bind()
        owner.bind()
        assert owner.call(b"h", opnum=6)[0] == b""             # the association now owns a handle
        time.sleep(1.0)
        assert empty.closed()
        assert owner.call(b"x")[0] == b"x"
    assert any("idle for 0.4 s, owning nothing" in line for line in lines)


def test_one_log_line_per_open_and_per_close(server, lines):
    raw = Raw(server.port)
    local_port = raw.sock.getsockname()[1]
    group = raw.bind()["assoc"]
    raw.call(b"1")
    raw.close()
    settle(server, connections=0)
    opened = [line for line in lines if "opened" in line]
    closed = [line for line in lines if "closed:" in line]
    assert len(opened) == 1 and len(closed) == 1
    assert f"127.0.0.1:{local_port}" in opened[0] and f"127.0.0.1:{local_port}" in closed[0]
    assert f"{group:#010x}" in closed[0] and "closed by the client" in closed[0] and "2 PDUs" in closed[0]


def test_stop_ends_every_thread_and_closes_every_socket(toy):
    before = threading.active_count()
    srv = DceRpcServer([toy]).start()
    idle, bound, blocked = Raw(srv.port), Raw(srv.port), Raw(srv.port)
    groups = {bound.bind()["assoc"], blocked.bind()["assoc"]}
    blocked.send(*request_pdus(b"", opnum=1))
    assert toy.entered.wait(HANG)
    assert threading.active_count() > before
    srv.stop()
    assert threading.active_count() == before
    assert srv.stats() == {"connections": 0, "associations": 0, "threads": 0, "calls_in_progress": 0,
                           "connections_accepted": 3, "connections_refused": 0, "connections_evicted": 0, "pdus": 3,
                           "reassembling": 0, "unsent": 0}
    for raw in (idle, bound, blocked):
        assert raw.closed()
    assert len(toy.abandoned) == 1 and toy.abandoned[0][0].cancelled.is_set()
    assert sorted(toy.ended) == sorted(groups)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", srv.port), timeout=HANG)
