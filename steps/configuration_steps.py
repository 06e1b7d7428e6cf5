"""Steps that change how the target is configured or started: the clean-up period, a restart
that finds its port taken, and what must stay the same across a restart.

Each needs a capability (`configure`, `port_conflict`, `restart`); a target without it
reports the scenario as not run, never as passed.
"""

from __future__ import annotations

import uuid

from pytest_bdd import given, then, when

from mqspec.protocol.constants import Access, ShareMode
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult
from mqspec.protocol.queue_format import from_format_name

from .packet_steps import _packet
from .phrases import phrase
from .world import World

_UNIT_MS = {"second": 1000, "seconds": 1000, "minute": 60_000, "minutes": 60_000}


@given(phrase("the target's pending-request clean-up period is configured to {amount:d} {unit}",
              unit="seconds?|minutes?"))
def configure_cleanup_period(world: World, amount, unit):
    """MS-MQRR 3.1.2.2: the period comes from the system's configuration (Windows: RpcCancelTimeout, minutes)."""
    world.require("configure")
    world.target.configure(pending_request_cleanup_ms=amount * _UNIT_MS[unit])


@when(phrase("the queue manager restarts while {count:d} {ports} of its sequence {are} held by another program",
             ports="ports?", are="is|are"))
def restart_holding_ports(world: World, count, ports, are):
    """The port RemoteRead is served on before the restart is noted as the first port of the sequence."""
    world.require("port_conflict")
    first = world.target.get_server_port()
    assert 0 < first <= 0xFFFF, f"R_GetServerPort answered {first!r} before the restart"
    world.notes["first port"] = first
    world.target.restart_holding_ports(count)
    world.handles.clear()
    world.cursors.clear()


@then(phrase("the port returned is the first port plus {step:d}"))
def port_is_first_plus(world: World, step):
    first, port = world.notes["first port"], world.notes["port"]
    assert port == first + step, f"R_GetServerPort answered {port}, expected {first} + {step} = {first + step}"


@given("the queue manager's identifier is noted")
def note_identifier(world: World):
    world.notes["queue manager identifier"] = world.target.queue_manager_identifier


@then("the queue manager's identifier is the noted one")
def same_identifier(world: World):
    """MS-MQDMPR 3.1.1: a DirectoryObject's Identifier never changes.  Checked as the target reports it and
    through MS-MQRR: the system journal still opens by MACHINE=<the noted GUID>;JOURNAL."""
    noted = world.notes["queue manager identifier"]
    now = world.target.queue_manager_identifier
    assert now == noted, f"the queue manager is {uuid.UUID(bytes_le=now)} now, {uuid.UUID(bytes_le=noted)} before"
    name = f"MACHINE={uuid.UUID(bytes_le=noted)};JOURNAL"
    opened = world.target.open_queue(from_format_name(name), Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE)
    assert opened.hresult == HRESULT.MQ_OK, f"opening {name}: {describe_hresult(opened.hresult)}"
    world.target.close_queue(opened.pph_context)


@then(phrase('the packets of "{first}" and "{second}" name the same source queue manager'))
def same_source_queue_manager(world: World, first, second):
    """UserHeader.SourceQueueManager is the sending queue manager's Identifier (MS-MQMQ 2.2.19.2), which a
    restart must not change (MS-MQDMPR 3.1.1)."""
    before, after = (_packet(world, label)[0].source_queue_manager for label in (first, second))
    assert before == after, f"{first!r} names {before} as its source queue manager, {second!r} names {after}"
