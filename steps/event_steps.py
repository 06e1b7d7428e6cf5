"""Steps for the MS-MQDMPR event scenarios (features/ms-mqdmpr/3.1.2* - 3.2*).

The events of MS-MQDMPR 3.1.7 and the cursor machine of 3.2 are raised through the
MS-MQRR methods and the set-up operations of the Target.  This module adds to the
shared vocabulary: deleting and re-creating queues, odd path names, public queues,
sends inside a transaction with properties, sends through raw and multiple-element
format names, opening with a share mode, cursors that may be refused or are closed,
purges and cancels whose status is recorded, reads that wait on a background thread
(`in the background, ...`) and `the background call "r" is still waiting`, lookup
reads left pending, lookups with a chosen high byte or an unused id, request-id
reuse, and checks on what a queue holds (classes, acknowledged messages, order).

Every pattern is a full-match regular expression whose quoted names cannot span a
quote, so no sentence here can swallow a longer sentence of another module.
"""

from __future__ import annotations

import uuid

from pytest_bdd import given, then, when

from mqspec.adapters import MessageProperties
from mqspec.protocol.constants import MessageClass
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult
from mqspec.protocol.queue_format import from_format_name as queue_format

from .phrases import named
from .receive_steps import PEEK_CURRENT, PEEK_NEXT, RECEIVE, start_receive
from .setup_steps import properties, send
from .values import labels, number
from .world import MAX_SIZE, Sent, World

LOOKUP_PEEK_CURRENT = number("MQ_LOOKUP_PEEK_CURRENT")
UNUSED_LOOKUP_ID = 0x0000FFFFFFFFFFF0  # a sequence number no scenario comes near
CURSOR_READS = {"receives": RECEIVE, "peeks at the current message": PEEK_CURRENT,
                "peeks at the next message": PEEK_NEXT}
OTHER_GUID = "7ed43fba-9ad5-4ad3-9e30-27f5bb5eae10"  # the identifier of no queue manager of the suite


# -- set-up: transactional sends with properties, queues -----------------------------------

@given(named(r"in transaction {tx}, message {label} is sent to {alias} with:"))
@when(named(r"in transaction {tx}, message {label} is sent to {alias} with:"))
def send_in_transaction_with(world: World, tx, label, alias, datatable):
    """A two-column table of message properties, as for `message "m" is sent to "q" with:`."""
    row = {"label": label, **{key: value for key, value in datatable}}
    send(world, alias, properties(world, row), tx)


@given(named(r"in transaction {tx}, message {label} is sent to {alias}"))
@when(named(r"in transaction {tx}, message {label} is sent to {alias}"))
def send_in_transaction(world: World, tx, label, alias):
    """The send's status is recorded, not required."""
    send(world, alias, MessageProperties(label=label), tx)


@given(named(r"a public queue {alias}"))
def a_public_queue(world: World, alias):
    created = world.target.create_queue(f"{world.target.computer_name}\\{world.prefix}-{alias}")
    assert created.hresult == HRESULT.MQ_OK, f"creating public queue {alias!r}: {describe_hresult(created.hresult)}"
    world.queues[alias] = created.format_name


@given(named(r"a queue name {alias} that no queue has"))
def a_missing_queue(world: World, alias):
    """A direct format name of this queue manager under which no queue was created."""
    world.queues[alias] = f"DIRECT=OS:{world.pathname(alias)}"


@when(named(r"queue {alias} is created again(?: as it was| (?P<caps>with its name in capitals))?"
          r"(?: with a quota of (?P<kilobytes>\d+) KB)?"))
def create_again(world: World, alias, caps, kilobytes):
    """Create Queue with the path name `alias` was created with (or that name in capitals)."""
    pathname = world.pathname(alias)
    if caps:
        pathname = pathname.upper()
    attributes = {"quota": int(kilobytes)} if kilobytes else {}
    out = world.target.create_queue(pathname, **attributes)
    world.record(out)
    if out.hresult == HRESULT.MQ_OK and not caps:
        world.queues[alias] = out.format_name


@given(named(r"queue {alias} is deleted"))
@when(named(r"queue {alias} is deleted"))
def delete_queue(world: World, alias):
    """Delete Queue (MS-MQDMPR 3.1.7.1.4) through the target's set-up; the status is recorded."""
    world.record(world.target.delete_queue(world.queue(alias)))


@when(named(r'the client creates a queue with the path name "(?P<pathname>[^"]*)"'))
def create_with_pathname(world: World, pathname):
    """`$COMPUTER` stands for the target's computer name, `$PREFIX` for the scenario's queue prefix."""
    pathname = pathname.replace("$COMPUTER", world.target.computer_name).replace("$PREFIX", world.prefix)
    world.record(world.target.create_queue(pathname))


# -- sending through format names ---------------------------------------------------------------

def _format_name(world: World, text: str) -> str:
    """$COMPUTER, $GUID (this queue manager) and $OTHER_GUID (no queue manager of the suite) filled in."""
    return (text.replace("$COMPUTER", world.target.computer_name)
            .replace("$OTHER_GUID", OTHER_GUID)
            .replace("$GUID", str(uuid.UUID(bytes_le=world.target.queue_manager_identifier))))


@when(named(r"message {label} is sent to the format name {text}"))
def send_to_format_name(world: World, label, text):
    format_name = _format_name(world, text)
    out = world.target.send(format_name, MessageProperties(label=label))
    world.record(out)
    world.sent[label] = Sent(label, format_name, out.message_id)


@when(named(r"one message {label}(?: with a body of (?P<size>\d+) bytes)? is sent through a multiple-element "
          r"format name made of:"))
def send_to_multiple(world: World, label, size, datatable):
    """A table with a `queue` column (direct names of the scenario's queues, in that order)
    and optionally `written in`: `as created` or `capitals`."""
    header, *rows = datatable
    elements = []
    for row in rows:
        cells = dict(zip(header, row))
        name = f"DIRECT=OS:{world.pathname(cells['queue'])}"
        if cells.get("written in", "as created") == "capitals":
            name = name.upper()
        elements.append(name)
    format_name = ",".join(elements)
    body = bytes(i % 251 for i in range(int(size))) if size else b""
    out = world.target.send(format_name, MessageProperties(label=label, body=body))
    world.record(out)
    world.sent[label] = Sent(label, format_name, out.message_id)


# -- handles and cursors -------------------------------------------------------------------

@given(named(r"the client opens {alias} with (?P<access>\S+) and (?P<share>\S+) as {handle}"))
@when(named(r"the client opens {alias} with (?P<access>\S+) and (?P<share>\S+) as {handle}"))
def open_with_share_mode(world: World, alias, access, share, handle):
    """R_OpenQueue with a dwAccess and a dwShareMode; the status is recorded."""
    out = world.target.open_queue(queue_format(world.queue(alias)), number(access), number(share))
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.handles[handle] = out.pph_context
        world.handle_queue[handle] = alias


@when(named(r"the client asks for a cursor on {handle} as {cursor}"))
def ask_for_cursor(world: World, handle, cursor):
    """R_CreateCursor whose status is recorded rather than required."""
    out = world.target.create_cursor(world.handle(handle))
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.cursors[cursor] = (handle, out.ph_cursor)


@when(named(r"the client closes its cursor {cursor}"))
def close_cursor(world: World, cursor):
    handle, h_cursor = world.cursors[cursor]
    world.record(world.target.close_cursor(world.handle(handle), h_cursor))


@when(named(r"the client purges the queue through {handle}"))
def purge(world: World, handle):
    """R_PurgeQueue; the status is recorded."""
    world.record(world.target.purge_queue(world.handle(handle)))


# -- reads that wait, on a background thread -------------------------------------------------

@when(named(r"in the background, the client peeks at {handle} with a time-out of (?P<timeout>\S+) ms as {request}"))
def peek_in_background(world: World, handle, timeout, request):
    context, ul_timeout, request_id = world.handle(handle), number(timeout), world.request_id()
    world.in_background(request, handle, request_id, "start_receive",
                        context, 0, 0, PEEK_CURRENT, ul_timeout, request_id, MAX_SIZE, MAX_SIZE)


@when(named(r"in the background, cursor {cursor} (?P<read>receives|peeks at the current message|"
          r"peeks at the next message) with a time-out of (?P<timeout>\S+) ms as {request}"))
def cursor_read_in_background(world: World, cursor, read, timeout, request):
    """A receive through the cursor stays two-phase until the scenario ends it."""
    handle, h_cursor = world.cursors[cursor]
    context, ul_action, ul_timeout = world.handle(handle), CURSOR_READS[read], number(timeout)
    request_id = world.request_id()
    world.in_background(request, handle, request_id, "start_receive",
                        context, 0, h_cursor, ul_action, ul_timeout, request_id, MAX_SIZE, MAX_SIZE)


# -- reads left pending, lookups, request ids ---------------------------------------------------

@when(named(r"the client starts a lookup receive of {label} with (?P<action>\S+) on {handle}"
          r"(?: in transaction {tx})? as {request}"))
def start_lookup_receive(world: World, label, action, handle, tx, request):
    """A lookup receive that stays pending until the scenario ends it."""
    out, request_id = start_receive(world, handle, lookup_id=world.lookup_id(label), ul_action=number(action),
                                    transaction=tx)
    world.requests[request] = (handle, request_id)


@when(named(r"in transaction {tx}, the client starts a receive on {handle} as {request}"))
def start_transactional_receive(world: World, tx, handle, request):
    """R_StartTransactionalReceive of the first message, left for R_EndTransactionalReceive."""
    out, request_id = start_receive(world, handle, transaction=tx)
    world.requests[request] = (handle, request_id)


@when(named(r"the client peeks at the lookup id of {label} with high byte (?P<byte>\S+) on {handle}"))
def peek_with_high_byte(world: World, label, byte, handle):
    """MQ_LOOKUP_PEEK_CURRENT with the message's sequence number under a chosen high byte."""
    low = world.lookup_id(label) & 0x00FFFFFFFFFFFFFF
    start_receive(world, handle, lookup_id=(number(byte) << 56) | low, ul_action=LOOKUP_PEEK_CURRENT)


@when(named(r"the client calls (?P<action>\S+) with a lookup id no message has on {handle}"))
def lookup_unknown(world: World, action, handle):
    start_receive(world, handle, lookup_id=UNUSED_LOOKUP_ID, ul_action=number(action))


@when(named(r"a peek is made on {handle} under the request id of {request}"))
def peek_reusing_request_id(world: World, handle, request):
    """A peek without time-out that presents the dwRequestId of an earlier request."""
    start_receive(world, handle, ul_action=PEEK_CURRENT, dw_request_id=world.requests[request][1])


@when(named(r"the client cancels request id (?P<request_id>\d+) on {handle}"))
def cancel_request_id(world: World, request_id, handle):
    """R_CancelReceive with a dwRequestId the scenario chose."""
    world.record(world.target.cancel_receive(world.handle(handle), int(request_id)))


# -- checks ------------------------------------------------------------------------------------

@then(named(r"the background call {request} is still waiting"))
def still_waiting(world: World, request):
    if world.notes.get("waited in real time"):
        world.require("virtual_time")   # a wait of the wall clock cannot be held just short of a deadline
    job = world.background[request]
    job.thread.join(timeout=0.02)
    assert job.thread.is_alive(), \
        f"{request!r} should still be waiting but returned {describe_hresult(job.result.hresult)}"


@then(r"the send is not refused as an unsupported format name operation")
def not_unsupported(world: World):
    assert world.status != HRESULT.MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION, \
        "the send was refused with MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION: the access check refused it"


@then("no message is returned")
def no_message(world: World):
    sections = getattr(world.last, "pp_packet_sections", ())
    assert not sections, f"a failed call ({describe_hresult(world.status)}) still returned {len(sections)} sections"


def _class_name(value: int) -> str:
    try:
        return MessageClass(value).name
    except ValueError:
        return f"0x{value:04X}"


@then(named(r"the messages in {alias} are, front to back:"))
def messages_are(world: World, alias, datatable):
    """Columns (any of): label; class (a MQMSG_CLASS_ name); for (the label of the message an
    acknowledgment answers, found through its correlation identifier)."""
    header, *rows = datatable
    by_id = {bytes(sent.message_id): label for label, sent in world.sent.items()}
    actual = []
    for message in world.messages(alias):
        cells = {"label": message.label, "class": _class_name(message.message_class),
                 "for": by_id.get(bytes(message.correlation_id), bytes(message.correlation_id).hex())}
        actual.append([cells[column] for column in header])
    expected = [[_class_name(number(cell)) if column == "class" else cell for column, cell in zip(header, row)]
                for row in rows]
    assert actual == expected, f"{alias!r} holds {actual}, expected {expected} (columns {header})"


@then(named(r"the sequence ids of (?P<names>.+) follow one another"))
def consecutive_sequence_ids(world: World, names):
    wanted = labels(names)
    world.learn_sequence_ids()
    missing = [label for label in wanted if label not in world.sequence_ids]
    assert not missing, f"no sequence id seen for {missing}"
    ids = [world.sequence_ids[label] for label in wanted]
    assert all(b == a + 1 for a, b in zip(ids, ids[1:])), f"sequence ids of {wanted} are {ids}, expected n, n+1, ..."


@then(named(r"the cursors (?P<names>.+) all have different handles"))
def distinct_cursor_handles(world: World, names):
    handles = [world.cursors[name][1] for name in labels(names)]
    assert all(handles), f"a cursor handle is zero: {handles}"
    assert len(set(handles)) == len(handles), f"cursor handles {handles} repeat"
