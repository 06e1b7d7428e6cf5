"""Steps with more than one client, and the server's own view of a queue.

A scenario's calls go through one client at a time (`world.target`): the first, the
fixture's, until a step makes another client the caller.  Context handles belong to
the client that opened them, so a scenario switches to a client before it uses that
client's handles.  A client that loses its connection (`drop`) or closes it with its
handles still open is run down by the server (MS-MQRR 3.1.6.1, 3.1.6.2); the step
returns once the target says that has happened.
"""

from __future__ import annotations

from pytest_bdd import given, then, when

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult
from mqspec.protocol.idl import SectionBuffer

from .observed import ObservedTarget
from .packet_reader import read_sections
from .phrases import phrase
from .world import MAX_SIZE, World

SYNTAXES = {"NDR 2.0": False, "NDR64": True}


@given(phrase('a second client "{name}"'))
def second_client(world: World, name):
    world.clients[name] = ObservedTarget(world.clients["first"].target.connection())


@given(phrase('a second client "{name}" bound with {syntax} only', syntax="NDR 2.0|NDR64"))
def second_client_with_syntax(world: World, name, syntax):
    world.require("rpc")
    world.clients[name] = ObservedTarget(world.clients["first"].target.connection(ndr64=SYNTAXES[syntax]))


@when(phrase('client "{name}" makes the calls'))
def switch_client(world: World, name):
    assert name in world.clients, f"no client called {name!r}; give it with 'a second client \"{name}\"'"
    world.target = world.clients[name]


@when("the first client makes the calls again")
def switch_back(world: World):
    world.target = world.clients["first"]


@when(phrase('client "{name}" {goes}', goes="loses its connection|closes its connection without closing its handles"))
def client_goes(world: World, name, goes):
    """MS-MQRR 3.1.6: the connection ends abruptly (drop) or in good order, with its handles still open."""
    world.require("drop_connection")
    client = world.clients.pop(name)
    if goes == "loses its connection":
        client.drop()
    else:
        client.close()
    if world.target is client:
        world.target = world.clients["first"]


def _listing(world: World, alias: str) -> list[tuple[str, str]]:
    world.require("list_messages")
    out = world.target.list_messages(world.queue(alias))
    assert out.hresult == HRESULT.MQ_OK, f"listing {alias!r}: {describe_hresult(out.hresult)}"
    listed = []
    for message in out.messages:
        section = SectionBuffer(0, len(message.packet), len(message.packet), message.packet)
        listed.append((read_sections((section,), MAX_SIZE, MAX_SIZE).label, message.state))
    return listed


@then(phrase('"{alias}" lists these messages:'))
def lists_messages(world: World, alias, datatable):
    """Every message the server keeps in the queue, Locked and PurgePending ones too, in queue order."""
    header, *rows = datatable
    assert header == ["label", "state"], f"the table needs the columns label and state, not {header}"
    expected = [tuple(row) for row in rows]
    actual = _listing(world, alias)
    assert actual == expected, f"{alias!r} lists {actual}, expected {expected}"


@then(phrase('"{alias}" lists no messages'))
def lists_nothing(world: World, alias):
    actual = _listing(world, alias)
    assert actual == [], f"{alias!r} lists {actual}"
