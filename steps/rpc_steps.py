"""Steps of the RPC layer itself: binds, transfer syntaxes, stubs the IDL does not allow.

They need a target whose calls travel over DCE/RPC (capability `rpc`); anywhere else
the scenario is not run.  Malformed stubs are made from a well-formed one (the
client's codec encodes it) by changing one thing; where that thing sits is found
by encoding the call twice with one field changed and comparing, so no offset is
written down here.
"""

from __future__ import annotations

import uuid

import pytest
from pytest_bdd import given, then, when

from mqspec.adapters.mqrr.ndr import encode_request
from mqspec.adapters.wire.dcerpc_probe import BIND_TIME_FEATURES, NDR20, NDR64, UNKNOWN_SYNTAX
from mqspec.protocol.constants import Access, Action, QueueFormatType, ShareMode
from mqspec.protocol.hresult import HRESULT, RpcStatus, describe as describe_hresult
from mqspec.protocol.idl import OPNUMS
from mqspec.protocol.queue_format import QueueFormat

from .phrases import phrase
from .world import World

OFFERS = {   # the presentation contexts of a bind, each a list of transfer syntaxes
    "NDR 2.0": [[NDR20]],
    "NDR64": [[NDR64]],
    "NDR 2.0 and NDR64 in one presentation context": [[NDR20, NDR64]],
    "NDR64 and NDR 2.0 in one presentation context": [[NDR64, NDR20]],
    "an unknown transfer syntax and NDR 2.0 in one presentation context": [[UNKNOWN_SYNTAX, NDR20]],
    "an unknown transfer syntax and NDR64 in one presentation context": [[UNKNOWN_SYNTAX, NDR64]],
    "NDR 2.0 and NDR64 in two presentation contexts": [[NDR20], [NDR64]],
    "NDR 2.0, NDR64 and bind-time feature negotiation in three presentation contexts":
        [[NDR20], [NDR64], [BIND_TIME_FEATURES]],
    "an unknown transfer syntax": [[UNKNOWN_SYNTAX]],
}
NAMES = {"NDR 2.0": NDR20, "NDR64": NDR64}
ACCEPTANCE, PROVIDER_REJECTION, NEGOTIATE_ACK = 0, 2, 3          # [C706] 12.6.3.1 p_cont_def_result_t
PROPOSED_TRANSFER_SYNTAXES_NOT_SUPPORTED = 2                      # [C706] 12.6.3.1 p_provider_reason_t
MALFORMED = {RpcStatus.RPC_X_BAD_STUB_DATA, RpcStatus.RPC_S_INVALID_TAG, RpcStatus.RPC_X_INVALID_BOUND}


@given("the calls travel over DCE/RPC")
def over_rpc(world: World):
    world.require("rpc")


# -- binds ---------------------------------------------------------------------------------------

@when(phrase("a new TCP connection to {where} binds RemoteRead 1.0 offering {offer}",
             where="the target|the port returned", offer="|".join(OFFERS)))
def bind(world: World, where, offer):
    world.require("rpc")
    port = world.notes["port"] if where == "the port returned" else None
    world.notes["bind"] = (OFFERS[offer], world.target.probe_bind(OFFERS[offer], port))


@then(phrase("the bind accepts {syntax}", syntax="NDR 2.0|NDR64"))
def bind_accepts(world: World, syntax):
    contexts, probe = world.notes["bind"]
    accepted = [r.transfer_syntax for r in probe.results if r.result == ACCEPTANCE]
    assert accepted == [NAMES[syntax]], f"the bind_ack accepted {accepted} (nak reason {probe.nak_reason})"


@then("the bind accepts at least one presentation context, each with a transfer syntax offered for it")
def bind_accepts_an_offer(world: World):
    """MS-MQRR 2.2: a server negotiates; it may pick either syntax, but only one that was offered for that
    context, and it answers every other context as [C706] 12.6.3.1 allows (a provider rejection, or the
    negotiate_ack of bind-time feature negotiation)."""
    contexts, probe = world.notes["bind"]
    assert probe.nak_reason is None, f"the whole bind was refused (reason {probe.nak_reason})"
    assert len(probe.results) == len(contexts), f"{len(probe.results)} results for {len(contexts)} contexts"
    for offered, result in zip(contexts, probe.results):
        if result.result == ACCEPTANCE:
            assert result.transfer_syntax in offered, f"accepted {result.transfer_syntax}, offered {offered}"
        elif offered == [BIND_TIME_FEATURES]:
            assert result.result == NEGOTIATE_ACK, f"bind-time feature negotiation answered {result}"
        else:
            assert result.result == PROVIDER_REJECTION, f"a context answered {result}"
    assert any(r.result == ACCEPTANCE for r in probe.results), "no presentation context was accepted"


@then("the bind rejects that presentation context as proposed_transfer_syntaxes_not_supported")
def bind_rejects(world: World):
    _, probe = world.notes["bind"]
    assert [(r.result, r.reason) for r in probe.results] == \
        [(PROVIDER_REJECTION, PROPOSED_TRANSFER_SYNTAXES_NOT_SUPPORTED)], f"got {probe}"


@then(phrase("R_GetServerPort called on that connection returns {what}",
             what="a nonzero port|the same port|the port of the connection"))
def port_on_that_connection(world: World, what):
    _, probe = world.notes["bind"]
    port = probe.server_port
    assert port and 0 < port <= 0xFFFF, f"R_GetServerPort answered {port!r} on the new connection"
    if what == "the same port":
        assert port == world.notes["port"], f"{port} on the new connection, {world.notes['port']} before"
    elif what == "the port of the connection":
        assert port == world.target.port, f"R_GetServerPort answered {port}, the connection is to {world.target.port}"


# -- what the runtime did with a call --------------------------------------------------------------

@then("the RPC runtime accepted the handle")
def runtime_accepted_handle(world: World):
    """[C706] 5.1.6: the handle reached the method; whatever the method answered, it was not refused as an
    unknown context handle."""
    assert world.status not in (RpcStatus.NCA_S_FAULT_CONTEXT_MISMATCH, RpcStatus.RPC_X_SS_IN_NULL_CONTEXT), \
        f"the RPC runtime refused the handle: {describe_hresult(world.status)}"


@then("the status came back as the method's return value, not as an RPC fault")
def returned_not_faulted(world: World):
    """MS-MQRR 3.1.4.7: R_StartReceive reports its errors as its return value; only the RPC layer faults."""
    assert world.target.last_fault is None, f"the call ended in a fault PDU: {describe_hresult(world.target.last_fault)}"


# -- stubs the IDL does not allow ---------------------------------------------------------------------

def _open_arguments(direct_id: str = "OS:host\\private$\\q", client_id: bytes = bytes(16)) -> dict:
    return {"pQueueFormat": QueueFormat(QueueFormatType.QUEUE_FORMAT_TYPE_DIRECT, direct_id=direct_id),
            "dwAccess": Access.RECEIVE_ACCESS, "dwShareMode": ShareMode.MQ_DENY_NONE, "pClientId": client_id,
            "fNonRoutingServer": 1, "Major": 6, "Minor": 0, "BuildNumber": 0, "fWorkgroup": 0}


UOW = uuid.UUID("6d717370-6563-2d65-6e6c-6973742d7577").bytes   # one XACTUOW for every enlist stub


def _enlist_arguments(token: bytes = bytes(16)) -> dict:
    return {"pTransactionId": UOW, "cbPropagationToken": len(token), "pbPropagationToken": token,
            "pQueueFormat": QueueFormat(QueueFormatType.QUEUE_FORMAT_TYPE_DIRECT, direct_id="OS:host\\q")}


def _receive_arguments(handle: bytes, h_cursor: int = 0) -> dict:
    return {"phContext": handle, "LookupId": 0, "hCursor": h_cursor, "ulAction": Action.MQ_ACTION_PEEK_CURRENT,
            "ulTimeout": 0, "dwRequestId": 1, "dwMaxBodySize": 0x400000, "dwMaxCompoundMessageSize": 0x400000}


def _where(opnum: int, first: dict, second: dict) -> int:
    """The offset of the first octet in which the stubs of two calls differ."""
    a, b = encode_request(opnum, first), encode_request(opnum, second)
    return next(index for index, (x, y) in enumerate(zip(a, b)) if x != y)


def _patched(stub: bytes, offset: int, value: int, size: int = 4) -> bytes:
    return stub[:offset] + value.to_bytes(size, "little") + stub[offset + size:]


def _defective(world: World, method: str, defect: str) -> bytes:
    opnum = OPNUMS[method]
    if method == "R_QMEnlistRemoteTransaction":
        stub = encode_request(opnum, _enlist_arguments())
        count = _where(opnum, _enlist_arguments(bytes(16)), _enlist_arguments(bytes(17))) + 4  # after cb
        if defect == "pbPropagationToken max count differs from cbPropagationToken":
            return _patched(stub, count, 17)
        if defect == "pbPropagationToken runs past the end of the stub":
            return stub[:count + 4 + 8]
        if defect == "cbPropagationToken is 131073":
            return encode_request(opnum, _enlist_arguments(bytes(131073)))
    if method == "R_OpenQueue":
        stub = encode_request(opnum, _open_arguments())
        counts = _where(opnum, _open_arguments("OS:a"), _open_arguments("OS:ab"))   # max_count, offset, actual
        characters = counts + 12
        if defect == "DIRECT format name has a nonzero offset":
            return _patched(stub, counts + 4, 1)
        if defect == "DIRECT format name has an actual count above its max count":
            return _patched(stub, counts + 8, int.from_bytes(stub[counts:counts + 4], "little") + 1)
        if defect == "DIRECT format name lacks its terminating NUL":
            actual = int.from_bytes(stub[counts + 8:counts + 12], "little")
            return _patched(stub, characters + 2 * (actual - 1), ord("x"), 2)
        if defect == "QUEUE_FORMAT union tag is not its m_qft":
            tag = stub.index(bytes([QueueFormatType.QUEUE_FORMAT_TYPE_DIRECT]), 1)   # m_qft at 0, the tag next
            return _patched(stub, tag, QueueFormatType.QUEUE_FORMAT_TYPE_PUBLIC, 1)
        if defect == "stub is cut short inside pClientId":
            return stub[:_where(opnum, _open_arguments(), _open_arguments(client_id=b"\x01" * 16)) + 8]
    if method == "R_StartReceive":
        handle = world.handle("h")   # a handle the client holds, so only the stub's form is at fault
        stub = encode_request(opnum, _receive_arguments(handle))
        if defect == "stub is cut short after hCursor":
            return stub[:_where(opnum, _receive_arguments(handle), _receive_arguments(handle, 1)) + 4]
    raise KeyError(f"no defect {defect!r} for {method}")


@when(phrase("the client sends {method} with a stub whose {defect}",
             method="R_QMEnlistRemoteTransaction|R_OpenQueue|R_StartReceive"))
def send_defective_stub(world: World, method, defect):
    """MS-MQRR 3.1.4: a stub that breaks an NDR consistency rule (built for NDR 2.0)."""
    world.require("rpc")
    if world.target.ndr64:
        pytest.skip("not run: the malformed stubs are written in NDR 2.0 and this client binds NDR64")
    status, _ = world.target.rpc_call(OPNUMS[method], _defective(world, method, defect))
    world.record(status if status is not None else HRESULT.MQ_OK)


@then("the RPC runtime refused the stub as malformed")
def refused_as_malformed(world: World):
    assert world.target.last_fault in MALFORMED, \
        f"the malformed stub was answered {describe_hresult(world.status)}, not refused by the RPC runtime"
