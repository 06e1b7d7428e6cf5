"""Steps for the handle methods of MS-MQRR and for queue names (MS-MQMQ 2.1, 2.2.7).

R_GetServerPort, R_OpenQueue, R_OpenQueueForMove, R_CloseQueue, R_CreateCursor,
R_CloseCursor and R_PurgeQueue are called with the arguments a scenario gives and
recorded with `world.record`, so that `the call returns ...` checks the status.  A
raw QUEUE_FORMAT can be spelled field by field for the cases no format name gives.
"""

from __future__ import annotations

import uuid

from pytest_bdd import given, parsers, then, when

from mqspec.protocol.hresult import HRESULT, RpcStatus, describe as describe_hresult
from mqspec.protocol.queue_format import QueueFormat, from_format_name as queue_format

from .names import (
    CUSTOMER_BIT,
    expand,
    guid,
    queue_argument,
    queue_format_from_text,
    value,
)
from .phrases import named
from .world import World

NULL_HANDLE = bytes(20)


# -- R_OpenQueue and R_OpenQueueForMove -------------------------------------------------------

OPEN_ARGUMENTS = {"pQueueFormat": "p_queue_format", "dwAccess": "dw_access", "dwShareMode": "dw_share_mode",
                  "pClientId": "p_client_id", "fNonRoutingServer": "f_non_routing_server", "Major": "major",
                  "Minor": "minor", "BuildNumber": "build_number", "fWorkgroup": "f_workgroup"}


def _client_id(world: World, text: str) -> bytes | None:
    text = text.strip()
    if text == "NULL":
        world.require("null_references")  # pClientId is a [ref] pointer (MS-MQRR 6)
        return None
    if text == "zero":
        return bytes(16)
    if text == "the queue manager's identifier":
        return world.target.queue_manager_identifier
    if text.startswith("random"):
        return world.notes.setdefault("client ids", {}).setdefault(text, uuid.uuid4().bytes_le)
    return uuid.UUID(text).bytes_le


def _open_arguments(world: World, datatable, move: bool) -> dict:
    header, row = datatable[0], datatable[1]
    arguments = {"dw_access": value("MQ_MOVE_ACCESS" if move else "RECEIVE_ACCESS"),
                 "dw_share_mode": value("MQ_DENY_NONE")}
    for name, text in zip(header, row):
        name = name.strip()
        assert name in OPEN_ARGUMENTS, f"unknown argument {name!r}; known: {', '.join(OPEN_ARGUMENTS)}"
        if name == "pQueueFormat":
            arguments["p_queue_format"] = queue_argument(world, text)
        elif name == "pClientId":
            arguments["p_client_id"] = _client_id(world, text)
        else:
            arguments[OPEN_ARGUMENTS[name]] = value(text)
    assert "p_queue_format" in arguments, "the call table needs a pQueueFormat column"
    return arguments


def _keep_handle(world: World, handle: str, out, queue_text: str | None) -> None:
    if out.hresult == HRESULT.MQ_OK:
        world.handles[handle] = out.pph_context
        if queue_text and queue_text in world.queues:
            world.handle_queue[handle] = queue_text


@when(named(r"^R_OpenQueue is called as {handle} with:$"))
@given(named(r"^R_OpenQueue is called as {handle} with:$"))
def r_open_queue(world, handle, datatable):
    out = world.target.open_queue(**_open_arguments(world, datatable, move=False))
    world.record(out)
    _keep_handle(world, handle, out, dict(zip(datatable[0], datatable[1])).get("pQueueFormat"))


@when(named(r"^R_OpenQueueForMove is called as {handle} with:$"))
@given(named(r"^R_OpenQueueForMove is called as {handle} with:$"))
def r_open_queue_for_move(world, handle, datatable):
    out = world.target.open_queue_for_move(**_open_arguments(world, datatable, move=True))
    world.record(out)
    _keep_handle(world, handle, out, dict(zip(datatable[0], datatable[1])).get("pQueueFormat"))
    if out.hresult == HRESULT.MQ_OK:
        world.move_contexts[handle] = out.p_move_context


@when(named(r"^the format name {name} is opened with (?P<access>\S+) as {handle}$"))
def open_format_name(world, name, access, handle):
    """R_OpenQueue for a format-name template, MQ_DENY_NONE, default client arguments."""
    out = world.target.open_queue(queue_format_from_text(expand(world, name)), value(access),
                                  value("MQ_DENY_NONE"))
    world.record(out)
    _keep_handle(world, handle, out, None)


@then(named(r"^{handle} is a usable queue handle$"))
def usable_handle(world, handle):
    """Not NULL, and the server accepts it: a cursor can be created on it and closed again."""
    context = world.handle(handle)
    assert context != NULL_HANDLE, f"{handle!r} is the NULL context handle"
    cursor = world.target.create_cursor(context)
    assert cursor.hresult == HRESULT.MQ_OK, \
        f"R_CreateCursor on {handle!r} returned {describe_hresult(cursor.hresult)}, so the handle is not usable"
    closed = world.target.close_cursor(context, cursor.ph_cursor)
    assert closed == HRESULT.MQ_OK, f"R_CloseCursor on {handle!r}: {describe_hresult(closed)}"


@then(named(r"^the handles {first} and {second} are not the same$"))
def handles_differ(world, first, second):
    assert world.handle(first) != world.handle(second), f"{first!r} and {second!r} are the same context handle"


@then(named(r"^the move context of {handle} is not zero$"))
def move_context_nonzero(world, handle):
    assert world.move_contexts.get(handle), f"pMoveContext of {handle!r} is {world.move_contexts.get(handle)!r}"


@when(named(r"^the client moves {label} from {source} through the move context of {target}$"))
def move_through_context(world, label, source, target):
    """R_MoveMessage without a transaction (an all-zero XACTUOW, MS-MQRR 3.1.4.10), addressing the destination
    by its pMoveContext."""
    world.record(world.target.move_message(world.handle(source), world.move_contexts[target],
                                           world.lookup_id(label), bytes(16)))


@when(named(r"^the client moves {label} from {source} through the move context of {target} "
            r"inside transaction {tx}$"))
def move_through_context_in_transaction(world, label, source, target, tx):
    world.record(world.target.move_message(world.handle(source), world.move_contexts[target],
                                           world.lookup_id(label), world.transactions[tx]))


# -- R_CloseQueue, R_CreateCursor, R_CloseCursor, R_PurgeQueue, R_GetServerPort ---------------

@when(named(r"^R_CloseQueue is called on {handle}$"))
@given(named(r"^R_CloseQueue is called on {handle}$"))
def r_close_queue(world, handle):
    world.record(world.target.close_queue(world.handle(handle)))


@then(r"the context handle given back is NULL")
def context_handle_null(world):
    returned = getattr(world.last, "pph_context", None)
    assert returned == NULL_HANDLE, f"pphContext came back as {returned!r}, expected NULL (20 zero bytes)"


@when(named(r"^R_CreateCursor is called on {handle} as {cursor}$"))
def r_create_cursor(world, handle, cursor):
    out = world.target.create_cursor(world.handle(handle))
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.cursors[cursor] = (handle, out.ph_cursor)


@then(named(r"^cursor {cursor} has a nonzero handle$"))
def cursor_nonzero(world, cursor):
    assert cursor in world.cursors, f"no cursor {cursor!r} was created"
    assert world.cursors[cursor][1] != 0, f"phCursor of {cursor!r} is 0"


@then(named(r"^cursors {first} and {second} have different handles$"))
def cursors_differ(world, first, second):
    assert world.cursors[first][1] != world.cursors[second][1], \
        f"{first!r} and {second!r} share the cursor handle {world.cursors[first][1]}"


@given(named(r"^{cursor} is a cursor handle the server never issued on {handle}$"))
def forged_cursor(world, cursor, handle):
    taken = {h for _, h in world.cursors.values()}
    forged = 0x0BAD_C0DE
    while forged in taken:
        forged += 1
    world.cursors[cursor] = (handle, forged)


@when(named(r"^R_CloseCursor is called on {handle} for {cursor}$"))
def r_close_cursor(world, handle, cursor):
    world.record(world.target.close_cursor(world.handle(handle), world.cursors[cursor][1]))


@when(named(r"^R_PurgeQueue is called on {handle}$"))
def r_purge_queue(world, handle):
    world.record(world.target.purge_queue(world.handle(handle)))


@when(r"R_GetServerPort is called")
def r_get_server_port(world):
    world.notes["port"] = world.target.get_server_port()


@then(r"the port returned is a nonzero TCP port number")
def port_nonzero(world):
    port = world.notes.get("port")
    assert isinstance(port, int) and 0 < port <= 0xFFFF, f"R_GetServerPort returned {port!r}"


@then(r"the status is one the specifications define or carries the customer bit")
def documented_or_customer(world):
    status = world.status
    assert status is not None, "no call was made"
    known = {int(member) for member in HRESULT} | {int(member) for member in RpcStatus}
    assert status in known or status & CUSTOMER_BIT, \
        f"status 0x{status:08X} is neither defined by MS-MQMQ/MS-MQRR (or the RPC runtime) nor marked with the " \
        "customer bit 0x20000000"


# -- queue creation by path name --------------------------------------------------------------

@when(parsers.re(r"^a queue is created with the path name (?P<path>.*)$"))
def create_by_path(world, path):
    out = world.target.create_queue(expand(world, path))
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.notes["created"] = out.format_name


@then(r"the format name was not refused as illegal")
def not_illegal(world):
    """The name passed the grammar: whatever became of the call, it was not MQ_ERROR_ILLEGAL_FORMATNAME."""
    assert world.status is not None, "no call was made"
    assert world.status != HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME, "the format name was refused as illegal"


@then(r"the new queue can be opened for receiving")
def new_queue_opens(world):
    created = world.notes.get("created")
    assert created, "no queue was created by the last step"
    out = world.target.open_queue(queue_format(created), value("RECEIVE_ACCESS"), value("MQ_DENY_NONE"))
    assert out.hresult == HRESULT.MQ_OK, f"opening {created!r}: {describe_hresult(out.hresult)}"
    world.target.close_queue(out.pph_context)



@given(named(r"^a QUEUE_FORMAT {name} with:$"))
def spelled_queue_format(world, name, datatable):
    """A QUEUE_FORMAT built field by field (MS-MQMQ 2.2.7); `identifier` is read by m_qft."""
    fields = {key.strip(): expand(world, text.strip()) for key, text in datatable}
    qft = value(fields.get("m_qft", "0"))
    arguments = dict(m_qft=qft, m_suffix_and_flags=value(fields.get("m_SuffixAndFlags", "0")),
                     m_reserved=value(fields.get("m_reserved", "0")))
    identifier = fields.get("identifier", "")
    if qft in (1, 4, 5):            # PUBLIC, MACHINE, CONNECTOR: a GUID
        arguments["guid"] = guid(identifier)
    elif qft == 2:                  # PRIVATE: OBJECTID, written GUID\number
        lineage, _, number_text = identifier.partition("\\")
        arguments.update(guid=guid(lineage), uniquifier=int(number_text, 16))
    elif qft in (3, 8):             # DIRECT, SUBQUEUE: the direct name without DIRECT=
        arguments["direct_id"] = identifier
    elif qft == 6:                  # DL: GUID and an optional domain
        list_guid, _, domain = identifier.partition("@")
        arguments.update(guid=guid(list_guid), domain=domain or None)
    elif qft == 7:                  # MULTICAST: address:port
        address, _, port = identifier.partition(":")
        arguments.update(multicast_address=int.from_bytes(bytes(int(b) for b in address.split(".")), "big"),
                         multicast_port=int(port))
    world.notes.setdefault("queue formats", {})[name] = QueueFormat(**arguments)

