"""Steps with two identities: access lists on queues, opens as one identity or the other, the fWorkgroup policy.

The target's identities (capability identities) are called "the first identity" (the fixture's client calls as
it) and "the second identity"; a queue's access list names them so, or Everyone and Anonymous Logon, and the
step puts in the target's own account names.  An open as an identity goes through a client of that identity,
kept under the client name "<first|second> identity at <level>" for the scenario's other steps.
"""

from __future__ import annotations

import pytest
from pytest_bdd import given, then, when

from mqspec.protocol.constants import QueueRights
from mqspec.protocol.hresult import HRESULT, RpcStatus, describe as describe_hresult
from mqspec.protocol.queue_format import from_format_name as queue_format

from .observed import ObservedTarget
from .phrases import phrase
from .setup_steps import make_queue
from .values import number
from .world import World

WHICH = {"first": 0, "second": 1}
WELL_KNOWN = ("Everyone", "Anonymous Logon", "Administrators")   # S-1-1-0, S-1-5-7, S-1-5-32-544


def _account(world: World, trustee: str) -> str:
    """A trustee of a scenario's table: an identity, by which, or a well-known group."""
    if trustee in WELL_KNOWN:
        return trustee
    which = trustee.removesuffix(" identity")
    assert which in WHICH, f"a trustee is the first identity, the second identity, {' or '.join(WELL_KNOWN)}"
    return world.clients["first"].target.identities[WHICH[which]]


def _rights(text: str) -> int:
    """MQSEC_* names joined by |, or a number."""
    total = 0
    for part in (piece.strip() for piece in text.split("|")):
        total |= QueueRights[part] if part in QueueRights.__members__ else int(part, 0)
    return total


def client_as(world: World, which: str, level: str = "privacy") -> ObservedTarget:
    """The scenario's client of that identity at that level (made on first use, closed with the scenario)."""
    first = world.clients["first"]
    if "identities" not in first.capabilities:
        world.require("identities")   # not run, naming the capability
    name = f"{which} identity at {level}"
    if name not in world.clients:
        account = first.identities[WHICH[which]]
        client = ObservedTarget(first.target.as_identity(account, level))
        world.clients[name] = client
        if level != "privacy" and "rpc" in first.capabilities:
            _accepts_level(world, client, account, level)
    return world.clients[name]


def anonymous_client(world: World) -> ObservedTarget:
    """The scenario's client whose calls carry no security context (D-81: Anonymous Logon, not Everyone)."""
    first = world.clients["first"]
    for needed in ("identities", "anonymous"):   # no accounts: no list is checked; calls refused below a level
        if needed not in first.capabilities:
            world.require(needed)
    if "no security context" not in world.clients:
        world.clients["no security context"] = ObservedTarget(first.target.as_anonymous())
    return world.clients["no security context"]


def _accepts_level(world: World, client: ObservedTarget, account: str, level: str) -> None:
    """A server whose lowest level is above `level` refuses every call made at it (access denied, as Windows
    refuses one): learnt from R_GetServerPort, which no rule of MS-MQRR refuses, refused at
    `level` and answered at privacy.  Such a server cannot show what a scenario of such calls checks: not run."""
    if client.get_server_port() != 0 or client.last_fault != RpcStatus.RPC_S_ACCESS_DENIED:
        return
    private = world.clients["first"].target.as_identity(account, "privacy")
    try:
        answered = private.get_server_port() != 0
    finally:
        private.close()
    if answered:
        pytest.skip(f"not run: needs a server that accepts {level} calls; {world.clients['first'].name} refuses "
                    f"R_GetServerPort at {level} (access denied) and answers it at privacy")


@given(phrase('a queue "{alias}" owned by the {owner} identity with the access list:', owner="first|second"))
def queue_with_access_list(world: World, alias, owner, datatable):
    """MS-MQDMPR 3.1.1.2: the queue's Security, as the control interface takes it."""
    if "identities" not in world.clients["first"].capabilities:
        world.require("identities")
    header, *rows = datatable
    assert header == ["kind", "trustee", "rights"], f"the table needs kind, trustee, rights, not {header}"
    dacl = [[kind, _account(world, trustee), _rights(rights)] for kind, trustee, rights in rows]
    make_queue(world, alias, security={"owner": _account(world, f"{owner} identity"), "dacl": dacl})


@given(phrase('a queue "{alias}" owned by the {owner} identity, with no access list', owner="first|second"))
def queue_with_owner_only(world: World, alias, owner):
    """MS-MQDMPR 3.1.7.1.3.1: an owner supplied and no access list, which then takes the default."""
    if "identities" not in world.clients["first"].capabilities:
        world.require("identities")
    make_queue(world, alias, security={"owner": _account(world, f"{owner} identity"), "dacl": None})


@when(phrase('the {which} identity at {level} opens "{alias}" for move with fWorkgroup {workgroup:d} as "{handle}"',
             which="first|second", level="connect|integrity|privacy"))
def open_for_move_at_level(world: World, which, level, alias, workgroup, handle):
    _open_for_move(world, client_as(world, which, level), alias, handle, workgroup)


@then("the open is granted")
def open_granted(world: World):
    assert world.status == HRESULT.MQ_OK, f"the open returned {describe_hresult(world.status)}, not MQ_OK"


@when(phrase('the {which} identity opens "{alias}" with {access} as "{handle}"', which="first|second",
             access=r"\w+"))
def open_as(world: World, which, alias, access, handle):
    _open(world, client_as(world, which), alias, access, handle, 0)


@when(phrase('the {which} identity at {level} opens "{alias}" with {access} and fWorkgroup {workgroup:d} as '
             '"{handle}"', which="first|second", level="connect|integrity|privacy", access=r"\w+"))
def open_as_at_level(world: World, which, level, alias, access, workgroup, handle):
    _open(world, client_as(world, which, level), alias, access, handle, workgroup)


@when(phrase('a caller with no security context opens "{alias}" with {access} as "{handle}"', access=r"\w+"))
def open_anonymously(world: World, alias, access, handle):
    _open(world, anonymous_client(world), alias, access, handle, 1)   # fWorkgroup TRUE: it is in no domain


@when(phrase('the {which} identity opens "{alias}" for move as "{handle}"', which="first|second"))
def open_for_move_as(world: World, which, alias, handle):
    _open_for_move(world, client_as(world, which), alias, handle, 0)


def _open_for_move(world: World, client: ObservedTarget, alias: str, handle: str, workgroup: int) -> None:
    out = client.open_queue_for_move(queue_format(world.queue(alias)), number("MQ_MOVE_ACCESS"),
                                     number("MQ_DENY_NONE"), f_workgroup=workgroup)
    world.target = client
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.handles[handle] = out.pph_context
        world.handle_queue[handle] = alias


def _open(world: World, client: ObservedTarget, alias: str, access: str, handle: str, workgroup: int) -> None:
    out = client.open_queue(queue_format(world.queue(alias)), number(access), number("MQ_DENY_NONE"),
                            f_workgroup=workgroup)
    world.target = client      # its handles are its own: the scenario's next calls go through it
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.handles[handle] = out.pph_context
        world.handle_queue[handle] = alias


@then("the open is refused for want of access")
def refused_for_access(world: World):
    """MS-MQRR 2.1 (D-80): MQ_ERROR_ACCESS_DENIED, or MQ_ERROR_QUEUE_NOT_FOUND for a server that does not tell a
    caller about a queue it may not open; the reading seen is recorded."""
    readings = {HRESULT.MQ_ERROR_ACCESS_DENIED: "access-denied", HRESULT.MQ_ERROR_QUEUE_NOT_FOUND: "queue-not-found"}
    assert world.status in readings, (f"the open returned {describe_hresult(world.status)}; D-80 allows "
                                      "MQ_ERROR_ACCESS_DENIED or MQ_ERROR_QUEUE_NOT_FOUND")
    world.observe("D-80", readings[world.status])


@then("the open is refused for its authentication level")
def refused_for_level(world: World):
    """MS-MQRR 3.1.4.2 (D-82): the call is below the level the server requires, refused as an RPC runtime refuses
    it: access denied (5)."""
    assert world.status == RpcStatus.RPC_S_ACCESS_DENIED, \
        f"the open returned {describe_hresult(world.status)}, not access denied (5)"


@given("the target requires packet privacy of a client that says it is in a domain")
def workgroup_policy(world: World):
    """D-82: MS-MQRR 3.1.4.2's MAY, taken as Windows takes it (<19>): a client with fWorkgroup FALSE must come at
    packet privacy, one with fWorkgroup TRUE may come at any level."""
    world.require("configure")
    world.target.configure(workgroup_policy=1)
