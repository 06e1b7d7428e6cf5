"""Steps of RPC security: what a server that authenticates its callers must refuse (MS-MQRR 2.1, [MS-RPCE] 3.3.1.5.2).

They need a target served over DCE/RPC with accounts (capabilities `rpc` and
`authentication`: the suite holds an account's credentials); anywhere else the
scenario is not run.  Each sends the offending packet itself through one
connection of its own (adapters/wire/dcerpc_offending.py): a request whose
verifier was changed after signing, a request sent again with its sequence
number, a call with no security context, and reads a response as it came on the
wire.  The call is R_GetServerPort, which changes nothing, so a refusal is the
whole of what is judged.
"""

from __future__ import annotations

import pytest
from pytest_bdd import given, then, when

from mqspec.adapters.mqrr.ndr import encode_request
from mqspec.adapters.wire.dcerpc_offending import CLOSED
from mqspec.protocol.hresult import RpcStatus, describe as describe_hresult
from mqspec.protocol.idl import OPNUMS

from .phrases import phrase
from .world import World

GET_SERVER_PORT = OPNUMS["R_GetServerPort"]
LEVELS = "none|connect|integrity|privacy"


@given("the target authenticates its callers over DCE/RPC")
def authenticates(world: World):
    world.require("rpc")
    world.require("authentication")


@given("the target refuses calls that carry no security context")
def refuses_anonymous(world: World):
    if "anonymous" in world.target.capabilities:   # it takes them beside its accounts' (D-81): nothing to refuse
        pytest.skip("not run: needs a target that demands an authentication level; "
                    f"{world.target.name} takes calls with no security context (anonymous)")


def _offender(world: World, level: str):
    name = f"offender at {level}"
    if name not in world.clients:
        world.clients[name] = world.target.offender(level)
    world.notes["offender"] = world.clients[name]
    return world.clients[name]


def _answer(world: World, status) -> None:
    world.notes["rpc security answer"] = status


@when(phrase("a caller at {level} calls R_GetServerPort", level=LEVELS))
def caller_calls(world: World, level):
    status, stub = _offender(world, level).call(GET_SERVER_PORT, encode_request(GET_SERVER_PORT, {}))
    if status == RpcStatus.RPC_S_ACCESS_DENIED and level in ("connect", "integrity"):
        _needs_level(world, level)
    _answer(world, status)
    world.notes["rpc security stub"] = stub


def _needs_level(world: World, level: str) -> None:
    """A server whose lowest level is above `level` refuses every call made at it (as Windows, MS-MQRR note <19>):
    if it answers the same call at privacy, what the scenario checks at `level` cannot be shown there."""
    asked = world.notes["offender"]
    status, _ = _offender(world, "privacy").call(GET_SERVER_PORT, encode_request(GET_SERVER_PORT, {}))
    world.notes["offender"] = asked   # the scenario goes on with the caller at its own level
    if status is None:
        pytest.skip(f"not run: needs a server that accepts {level} calls; {world.target.name} refuses R_GetServerPort "
                    f"at {level} (access denied) and answers it at privacy")


@when("the caller calls R_GetServerPort with its request's verifier changed after signing")
def caller_alters(world: World):
    status, _ = world.notes["offender"].call(GET_SERVER_PORT, encode_request(GET_SERVER_PORT, {}), alter=True)
    _answer(world, status)


@when("the caller calls R_GetServerPort signed at the sequence number after the next")
def caller_skips(world: World):
    status, _ = world.notes["offender"].call(GET_SERVER_PORT, encode_request(GET_SERVER_PORT, {}), skip=True)
    _answer(world, status)


@when("the caller sends its last request again, octet for octet")
def caller_replays(world: World):
    _answer(world, world.notes["offender"].replay())


@then("the call is answered")
def call_answered(world: World):
    status = world.notes["rpc security answer"]
    assert status is None, f"the call was refused: {_refusal(status)}"


@then("the call is refused")
def call_refused(world: World):
    """[MS-RPCE] 3.3.1.5.2.2: a PDU whose verifier does not check is not processed: a fault, or the connection
    closed."""
    status = world.notes["rpc security answer"]
    assert status is not None, "the server answered the call as if nothing were wrong with it"


@then("the call is refused with the RPC runtime's access denied")
def call_refused_access_denied(world: World):
    """MS-MQRR 2.1, [MS-RPCE] 3.3.1.5.2: a call below the level the server demands faults with access denied
    (5), as an RPC runtime refuses it."""
    status = world.notes["rpc security answer"]
    assert status == RpcStatus.RPC_S_ACCESS_DENIED, f"the call was answered with {_refusal(status)}, not " \
                                                    "a fault of access denied (5)"


@then("the response came sealed: a verifier, and on the wire a stub that is not the plain one")
def response_sealed(world: World):
    """[MS-RPCE] 2.2.2.11, 3.3.1.5.2.2: at packet privacy the response's stub is encrypted: on the wire it is not
    R_GetServerPort's answer (the port), and unsealed it is."""
    pdu, auth_length = world.notes["offender"].last_response()
    plain, port = world.notes["rpc security stub"], world.target.port.to_bytes(4, "little")
    assert auth_length, "the response carried no verifier (auth_length 0)"
    assert plain[:4] == port, f"unsealed, the response's stub is {plain.hex()}, not the port {port.hex()} " \
                              "R_GetServerPort returns (MS-MQRR 3.1.4.1)"
    assert pdu[24:28] != port, f"the response's stub went on the wire in the clear: {pdu[24:28].hex()}"


def _refusal(status) -> str:
    if status is None:
        return "an answer"
    return "the connection closed" if status == CLOSED else f"the fault {describe_hresult(status)}"
