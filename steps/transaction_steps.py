"""Steps for transactions, moves and what must survive a restart.

MS-MQRR 3.1.4.10 (R_MoveMessage), 3.1.4.12 - 3.1.4.15 (enlist, transactional
receive, acknowledgement class, end), MS-MQDMPR 3.1.1 (what is persistent), 3.1.3
(initialization) and 3.1.4.3 - 3.1.4.5 (prepare, commit, abort).

Transactions
    A scenario names its transactions; `World.transactions` maps the name to the
    XACTUOW.  `the client begins transaction "t"` asks the target for one of its own;
    `the client enlists transaction "t" with R_QMEnlistRemoteTransaction` makes up a
    random XACTUOW and enlists it, as a remote client would; `an XACTUOW "x" that the
    queue manager has never seen` only names random bytes.  Commit, abort and prepare
    are setup_steps' `transaction "t" is committed` and its siblings.  (Setup's
    `transaction "t" is begun` is taken by the outcome step next to it and fails,
    hence the sentence here.)

Messages in transactional queues
    A transactional queue accepts only transactional messages (D-35), so
    `messages "m1" and "m2" were committed to "q"` and the table form
    `these messages were committed to "q":` send inside one transaction of the target
    and commit it.  Tables take setup's message columns plus the properties the server
    must never touch (EXTRA_COLUMNS).

Every pattern is a full-match regular expression whose quoted names cannot run past
a quote, so no sentence here swallows a longer sentence of another module.
"""

from __future__ import annotations

import os
import time

from pytest_bdd import given, then, when

from mqspec.adapters import MessageProperties
from mqspec.protocol.constants import SectionType
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult
from mqspec.protocol.queue_format import from_format_name as queue_format

from .packet_reader import read_sections
from .phrases import named
from .receive_steps import _argument, start_receive
from .setup_steps import MESSAGE_COLUMNS, properties as table_properties, send
from .values import labels, number
from .world import MAX_SIZE, Sent, World

ZERO_UOW = bytes(16)
# MS-MQRR 3.1.4.12: the suite chooses the propagation token; nothing here parses it (MS-DTCO 2.2.5.4).
PROPAGATION_TOKEN = b"mqspec-propagation-token".ljust(32, b"\x00")
NEVER_ISSUED_MOVE_CONTEXT = 0x5EED_0000_0000_0001

# Message properties MESSAGE_COLUMNS lacks: those the server never interprets (MS-MQDMPR 3.1.1.12).
EXTRA_COLUMNS = {
    "application tag": ("application_tag", number),
    "body type": ("body_type", number),
    "correlation id": ("correlation_id", lambda text: text.encode().ljust(20, b"\x00")[:20]),
    "extension": ("extension", lambda text: text.encode()),
}

# `the returned message's <field> is <value>`: the DecodedMessage attribute and how the value is written.
FIELDS = {
    "label": ("label", str),
    "body": ("body", lambda text: text.encode()),
    "priority": ("priority", int),
    "application tag": ("application_tag", number),
    "body type": ("body_type", number),
    "correlation id": ("correlation_id", lambda text: text.encode().ljust(20, b"\x00")[:20]),
    "extension": ("extension", lambda text: text.encode()),
    "first-in-transaction flag": ("first_in_transaction", lambda text: text == "set"),
    "last-in-transaction flag": ("last_in_transaction", lambda text: text == "set"),
}



def _ok(status: int, what: str) -> None:
    assert status == HRESULT.MQ_OK, f"{what}: {describe_hresult(status)}"


def _uow(world: World, tx: str) -> bytes:
    """The XACTUOW a scenario calls `tx`; new random bytes the first time it is named."""
    if tx not in world.transactions:
        world.transactions[tx] = os.urandom(16)
    return world.transactions[tx]


def _props(world: World, row: dict[str, str]) -> MessageProperties:
    """A message table row: setup's columns plus EXTRA_COLUMNS."""
    extra = {column: text for column, text in row.items() if column in EXTRA_COLUMNS or column == "body size"}
    props = table_properties(world, {column: text for column, text in row.items() if column not in extra})
    if extra.pop("body size", ""):
        size = int(row["body size"])  # the bytes setup's column makes (i % 251), built without a Python loop
        props.body = (bytes(range(251)) * (size // 251 + 1))[:size]
    for column, text in extra.items():
        if text != "":
            name, convert = EXTRA_COLUMNS[column]
            setattr(props, name, convert(text))
    return props


def _rows(world: World, datatable) -> list[MessageProperties]:
    header, *rows = datatable
    known = set(MESSAGE_COLUMNS) | set(EXTRA_COLUMNS)
    unknown = [column for column in header if column not in known]
    assert not unknown, f"unknown message columns {unknown}; known: {', '.join(sorted(known))}"
    return [_props(world, dict(zip(header, row))) for row in rows]


def _send_ok(world: World, alias: str, props: MessageProperties, tx: str | None = None) -> None:
    out = send(world, alias, props, tx)
    assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0), \
        f"sending {props.label!r} to {alias!r}: {describe_hresult(out.hresult)}, status {out.r_status}"


def _commit_all(world: World, alias: str, messages: list[MessageProperties]) -> None:
    """Send every message inside one transaction of the target, then commit it; a target without transactions of
    its own takes each as a transaction of its own (over MS-MQQB, a sending queue manager's)."""
    if "internal_transactions" not in world.target.capabilities:
        for props in messages:
            out = world.target.send_in_own_transaction(world.queue(alias), props)
            world.record(out)
            world.sent[props.label] = Sent(props.label, world.queue(alias), out.message_id, transactional=True)
            assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0), \
                f"sending {props.label!r} to {alias!r}: {describe_hresult(out.hresult)}, status {out.r_status}"
        return
    name = f"set-up of {alias!r}"
    world.transactions[name] = uow = world.target.begin_transaction()
    for props in messages:
        _send_ok(world, alias, props, name)
    _ok(world.target.commit_transaction(uow), f"committing the messages sent to {alias!r}")
    del world.transactions[name]


# -- transactions ----------------------------------------------------------------------------

@given(named(r"the client begins transaction {tx}"))
@when(named(r"the client begins transaction {tx}"))
def begin_transaction(world, tx):
    world.transactions[tx] = world.target.begin_transaction()


@given(named(r"an XACTUOW {tx} that the queue manager has never seen"))
def unknown_uow(world, tx):
    world.transactions[tx] = os.urandom(16)


def _any_queue(world: World):
    """A QUEUE_FORMAT for an enlistment whose queue the scenario does not care about (MS-MQRR 3.1.4.12: the
    server does not use it, but the client must pass one)."""
    return queue_format(world.target.machine_format_name("JOURNAL"))


def _enlist(world: World, uow: bytes, p_queue_format) -> None:
    world.record(world.target.qm_enlist_remote_transaction(uow, len(PROPAGATION_TOKEN), PROPAGATION_TOKEN,
                                                           p_queue_format))


@given(named(r"the client enlists transaction {tx} with R_QMEnlistRemoteTransaction"))
@when(named(r"the client enlists transaction {tx} with R_QMEnlistRemoteTransaction"))
def enlist(world, tx):
    _enlist(world, _uow(world, tx), _any_queue(world))


@when(named(r"the client enlists transaction {tx} with R_QMEnlistRemoteTransaction and pQueueFormat "
          r'(?P<queue>NULL|"[^"]+"|of a queue that does not exist)'))
def enlist_with_format(world, tx, queue):
    """pQueueFormat is NULL, the QUEUE_FORMAT of a queue alias, or one that names no queue."""
    if queue == "NULL":
        world.require("null_references")  # pQueueFormat is a [ref] pointer (MS-MQRR 6)
        p_queue_format = None
    elif queue == "of a queue that does not exist":
        p_queue_format = queue_format(f"DIRECT=OS:{world.pathname('never-created')}")
    else:
        p_queue_format = queue_format(world.queue(queue.strip('"')))
    _enlist(world, _uow(world, tx), p_queue_format)


@when(r"the client enlists the all-zero XACTUOW with R_QMEnlistRemoteTransaction")
def enlist_zero(world):
    _enlist(world, ZERO_UOW, _any_queue(world))


@given(named(r"the client sends (?P<names>.+) to {alias} in transaction {tx}"))
@when(named(r"the client sends (?P<names>.+) to {alias} in transaction {tx}"))
def send_in_transaction(world, names, alias, tx):
    for label in labels(names):
        _send_ok(world, alias, MessageProperties(label=label), tx)


@given(named(r"the client sends these messages to {alias} in transaction {tx}:"))
@when(named(r"the client sends these messages to {alias} in transaction {tx}:"))
def send_table_in_transaction(world, alias, tx, datatable):
    for props in _rows(world, datatable):
        _send_ok(world, alias, props, tx)


@given(named(r"messages (?P<names>.+) were committed to {alias}"))
def committed_messages(world, names, alias):
    _commit_all(world, alias, [MessageProperties(label=label) for label in labels(names)])


@given(named(r"these messages were committed to {alias}:"))
def committed_table(world, alias, datatable):
    _commit_all(world, alias, _rows(world, datatable))


@given(named(r"these messages were sent to {alias}:"))
def sent_table(world, alias, datatable):
    for props in _rows(world, datatable):
        _send_ok(world, alias, props)


@when(named(r"a message labelled with (?P<count>\d+) characters is sent to {alias}"))
def send_long_label(world, count, alias):
    send(world, alias, MessageProperties(label="L" * int(count)))


# -- queues and handles ------------------------------------------------------------------------

def _public(world: World, alias: str, **attributes) -> None:
    created = world.target.create_queue(f"{world.target.computer_name}\\{world.prefix}-{alias}", **attributes)
    _ok(created.hresult, f"creating the public queue {alias!r}")
    world.queues[alias] = created.format_name


@given(named(r"a public transactional queue {alias}"))
def public_transactional_queue(world, alias):
    _public(world, alias, transactional=True)


@given(named(r"a public queue {alias} with a quota of (?P<kilobytes>\d+) KB"))
def public_queue_with_quota(world, alias, kilobytes):
    _public(world, alias, quota=int(kilobytes))


@given(named(r"the handle {handle} has been closed with R_CloseQueue"))
@when(named(r"the handle {handle} has been closed with R_CloseQueue"))
def close_handle(world, handle):
    """Close it but keep its value, so that later calls can present the stale handle."""
    _ok(world.target.close_queue(world.handle(handle)).hresult, f"R_CloseQueue of {handle!r}")


@given(named(r"a queue handle {handle} that no R_OpenQueue returned"))
def forged_handle(world, handle):
    """20 bytes shaped like a QUEUE_CONTEXT_HANDLE_NOSERIALIZE (MS-MQRR 2.2.4.1) that the server never issued."""
    world.handles[handle] = bytes(4) + os.urandom(16)


@given(named(r"the client keeps a copy of handle {handle}"))
def keep_handle(world, handle):
    world.notes.setdefault("kept handles", {})[handle] = world.handle(handle)


@when(named(r"the client uses the handle {handle} from before the restart"))
def reuse_handle(world, handle):
    world.handles[handle] = world.notes["kept handles"][handle]


@when(named(r"the client purges the queue behind {handle}"))
def purge(world, handle):
    world.record(world.target.purge_queue(world.handle(handle)))
    _ok(world.status, f"R_PurgeQueue on {handle!r}")


# -- R_MoveMessage -----------------------------------------------------------------------------

def _move(world: World, label: str, source: str, destination: int, uow: bytes) -> None:
    world.record(world.target.move_message(world.handle(source), destination, world.lookup_id(label), uow))


def _move_context(world: World, handle: str) -> int:
    assert handle in world.move_contexts, f"{handle!r} was not opened with R_OpenQueueForMove"
    return world.move_contexts[handle]


@given(named(r"the client moves {label} from {source} to {destination} without a transaction"))
@when(named(r"the client moves {label} from {source} to {destination} without a transaction"))
def move_plain(world, label, source, destination):
    """pTransactionId points to an all-zero XACTUOW (MS-MQRR 3.1.4.10)."""
    _move(world, label, source, _move_context(world, destination), ZERO_UOW)


@given(named(r"the client moves {label} from {source} to {destination} in transaction {tx}"))
@when(named(r"the client moves {label} from {source} to {destination} in transaction {tx}"))
def move_in_transaction(world, label, source, destination, tx):
    _move(world, label, source, _move_context(world, destination), _uow(world, tx))


@when(named(r"the client moves {label} from {source} to a move context that was never issued"))
def move_to_unknown(world, label, source):
    value = NEVER_ISSUED_MOVE_CONTEXT
    while value in world.move_contexts.values():
        value += 1
    _move(world, label, source, value, ZERO_UOW)


# -- R_StartTransactionalReceive ---------------------------------------------------------------

CALL_COLUMNS = {"LookupId": "lookup_id", "hCursor": "h_cursor", "ulAction": "ul_action", "ulTimeout": "ul_timeout",
                "dwMaxBodySize": "dw_max_body_size", "dwMaxCompoundMessageSize": "dw_max_compound_message_size"}


@when(named(r"the client starts R_StartTransactionalReceive on {handle} in transaction {tx} as {request} with:"))
def start_transactional_as(world, handle, tx, request, datatable):
    """One call whose omitted arguments are 0 (MQ_ACTION_RECEIVE) and the largest sizes; named for the End."""
    header, row = datatable[0], datatable[1]
    unknown = [name for name in header if name not in CALL_COLUMNS]
    assert not unknown, f"unknown columns {unknown}; known: {', '.join(CALL_COLUMNS)}"
    arguments = {CALL_COLUMNS[name]: _argument(world, name, value) for name, value in zip(header, row)}
    _uow(world, tx)
    out, request_id = start_receive(world, handle, transaction=tx, **arguments)
    world.requests[request] = (handle, request_id)
    if out.hresult == HRESULT.MQ_OK:
        # judge the sections against the limits really asked for (record() uses the smaller for both)
        world.decoded = read_sections(out.pp_packet_sections, arguments.get("dw_max_body_size", MAX_SIZE),
                                      arguments.get("dw_max_compound_message_size", MAX_SIZE))


@when(named(r"the client takes the front message of {handle} in transaction {tx} as {request}"))
def take_front(world, handle, tx, request):
    """R_StartTransactionalReceive with MQ_ACTION_RECEIVE, no cursor and no time-out."""
    _uow(world, tx)
    out, request_id = start_receive(world, handle, transaction=tx)
    world.requests[request] = (handle, request_id)


@when(named(r"the client calls R_StartTransactionalReceive on {handle} with (?P<action>\w+) and no transaction "
          r"as {request}"))
def start_without_transaction(world, handle, action, request):
    world.require("null_references")  # pTransactionId is a [ref] pointer (MS-MQRR 6)
    request_id = world.request_id()
    world.record(world.target.start_transactional_receive(world.handle(handle), 0, 0, number(action), 0,
                                                          request_id, MAX_SIZE, MAX_SIZE, None))
    world.requests[request] = (handle, request_id)


@when(named(r"the client starts a transactional receive on {handle} in transaction {tx} that waits up to "
          r"(?P<timeout>\w+) ms in the background as {request}"))
def wait_in_transaction(world, handle, tx, timeout, request):
    uow, ul_timeout, context = _uow(world, tx), number(timeout), world.handle(handle)
    request_id = world.request_id()
    job = world.in_background(request, handle, request_id, "start_transactional_receive",
                              context, 0, 0, number("MQ_ACTION_RECEIVE"), ul_timeout, request_id, MAX_SIZE, MAX_SIZE,
                              uow)
    job.thread.join(world.target.settle_seconds)   # a read that does not wait is back by then
    assert job.thread.is_alive(), f"{request!r} did not wait: {describe_hresult(getattr(job.result, 'hresult', 0))}"


@when(named(r"the client ends transactional request id (?P<request_id>\d+) on {handle} with (?P<ack>\w+)"))
def end_transactional_raw(world, request_id, handle, ack):
    """R_EndTransactionalReceive with a dwRequestId the scenario picks."""
    world.record(world.target.end_transactional_receive(world.handle(handle), number(ack), int(request_id)))


# -- R_SetUserAcknowledgementClass ---------------------------------------------------------------

@when(named(r"the client sets the acknowledgement class of {label} on {handle} to (?P<us_class>\w+)"))
def set_class(world, label, handle, us_class):
    world.record(world.target.set_user_acknowledgement_class(world.handle(handle), world.lookup_id(label),
                                                              number(us_class)))


# -- what a scenario notes down ----------------------------------------------------------------

@given(named(r"the sequence ids of the messages in {alias} are noted"))
@when(named(r"the sequence ids of the messages in {alias} are noted"))
def note_sequence_ids(world, alias):
    """pSequenceId of every message a peek walk sees, by label (World.sequence_ids keeps only the first)."""
    out = world.target.read_queue(world.queue(alias))
    _ok(out.hresult, f"reading {alias!r}")
    noted = world.notes.setdefault("noted sequence ids", {})
    arrivals = world.notes.setdefault("noted arrival times", {})
    for message in out.messages:
        label = read_sections(message.pp_packet_sections, MAX_SIZE, MAX_SIZE).label
        noted[label], arrivals[label] = message.p_sequence_id, message.pdw_arrive_time
        world.sequence_ids.setdefault(label, message.p_sequence_id)


def _noted(world: World, names: str) -> list[int]:
    noted = world.notes.get("noted sequence ids", {})
    missing = [label for label in labels(names) if label not in noted]
    assert not missing, f"no sequence id of {missing} was noted (noted: {sorted(noted)})"
    return [noted[label] for label in labels(names)]


@then(named(r"the noted sequence ids of (?P<names>.+) increase in that order"))
def noted_increase(world, names):
    ids = _noted(world, names)
    assert all(a < b for a, b in zip(ids, ids[1:])), \
        f"the sequence ids of {labels(names)} are {[hex(i) for i in ids]}, expected them to increase"


@then(named(r"the noted sequence ids of (?P<names>.+) are all different"))
def noted_distinct(world, names):
    ids = _noted(world, names)
    assert len(set(ids)) == len(ids), f"the sequence ids of {labels(names)} repeat: {[hex(i) for i in ids]}"


@then(named(r"pSequenceId is the noted sequence id of {label}"))
def sequence_id_is_noted(world, label):
    assert world.status == HRESULT.MQ_OK, f"the call failed: {describe_hresult(world.status)}"
    [expected] = _noted(world, f'"{label}"')
    actual = world.last.p_sequence_id
    assert actual < 1 << 56, f"pSequenceId 0x{actual:016X} does not fit in the low 7 bytes"
    assert actual == expected, f"pSequenceId is 0x{actual:X}, a peek reported 0x{expected:X} for {label!r}"


@then(named(r"pdwArriveTime is the arrival time a peek reported for {label}"))
def arrive_time_is_noted(world, label):
    assert world.status == HRESULT.MQ_OK, f"the call failed: {describe_hresult(world.status)}"
    expected = world.notes.get("noted arrival times", {}).get(label)
    assert expected is not None, f"no arrival time of {label!r} was noted"
    actual = world.last.pdw_arrive_time
    assert actual == expected, f"pdwArriveTime is {actual}, a peek reported {expected} for {label!r}"
    assert abs(actual - time.time()) < 86400, f"pdwArriveTime {actual} is not seconds since 1970 (now {time.time():.0f})"


# -- checks ------------------------------------------------------------------------------------



def _sections(world: World):
    out = world.last
    assert out is not None and out.hresult == HRESULT.MQ_OK, f"the call failed: {describe_hresult(world.status)}"
    return out.pp_packet_sections


@then(r"the packet came back whole in one stFullPacket section that breaks no layout rule")
def whole_packet(world):
    sections = _sections(world)
    kinds = [s.section_buffer_type for s in sections]
    assert kinds == [SectionType.stFullPacket], f"section types {kinds}, expected one stFullPacket (0)"
    assert not world.decoded.violations, "the packet breaks layout rules:\n  " + "\n  ".join(world.decoded.violations)


@then(named(r"the packet came back split after (?P<count>\d+) body bytes into (?P<first>\w+) and (?P<second>\w+)"))
def split_packet(world, count, first, second):
    sections = _sections(world)
    kinds = [s.section_buffer_type for s in sections]
    assert kinds == [SectionType[first], SectionType[second]], f"section types {kinds}, expected {first}, {second}"
    assert not world.decoded.violations, "the packet breaks layout rules:\n  " + "\n  ".join(world.decoded.violations)
    assert len(world.decoded.body) == int(count), \
        f"the first section carries {len(world.decoded.body)} body bytes, expected {count}"


@then(named(r"pdwNumberOfSections counts the (?P<count>\d+) sections? returned"))
def section_count(world, count):
    out = world.last
    sections = len(_sections(world))
    assert out.pdw_number_of_sections == sections, \
        f"pdwNumberOfSections is {out.pdw_number_of_sections} but {sections} sections came back"
    assert sections == int(count), f"{sections} sections came back, expected {count}"


@then(named(r"the returned TimeToReachQueue is the SentTime plus (?P<seconds>\d+) seconds"))
def time_to_reach_queue(world, seconds):
    _sections(world)
    decoded = world.decoded
    assert decoded.time_to_reach_queue == decoded.sent_time + int(seconds), \
        (f"BaseHeader.TimeToReachQueue is {decoded.time_to_reach_queue}, expected SentTime {decoded.sent_time} "
         f"+ {seconds}")


@then(r"the send is not accepted")
def send_not_accepted(world):
    world.judging_a_send()
    out = world.last
    assert not (out.hresult == HRESULT.MQ_OK and out.r_status == 0), \
        "the send was accepted and the message enqueued; expected a refusal"


@then(named(r"the messages in {alias} are (?P<names>.+) in any order"))
def messages_any_order(world, alias, names):
    actual, expected = sorted(world.labels(alias)), sorted(labels(names))
    assert actual == expected, f"{alias!r} holds {actual}, expected {expected} (in any order)"


@then(named(r"the label of the only message in {alias} has (?P<count>\d+) characters"))
def only_label_length(world, alias, count):
    found = world.labels(alias)
    assert len(found) == 1, f"{alias!r} holds {len(found)} messages, expected exactly one"
    assert len(found[0]) == int(count), f"the label has {len(found[0])} characters, expected {count}"


def _copies(world: World, alias: str, label: str) -> list:
    """Messages of `alias` that carry the Identifier of the message the scenario sent as `label`."""
    assert label in world.sent, f"no message {label!r} was sent in this scenario"
    ordinal = int.from_bytes(world.sent[label].message_id[16:20], "little")
    return [m for m in world.messages(alias) if m.label == label and m.message_id == ordinal]


@then(named(r"{alias} keeps a copy of {label} of class (?P<cls>\w+)"))
def keeps_copy(world, alias, label, cls):
    found = _copies(world, alias, label)
    assert len(found) == 1, f"{alias!r} holds {len(found)} copies of {label!r}, expected one"
    assert found[0].message_class == number(cls), \
        f"the copy of {label!r} in {alias!r} has class 0x{found[0].message_class:04X}, expected {cls}"


@then(named(r"{alias} has no copy of {label}"))
def has_no_copy(world, alias, label):
    found = _copies(world, alias, label)
    assert not found, f"{alias!r} holds {len(found)} copies of {label!r}, expected none"


@then(named(r"the acknowledgment classes for {label} in {alias} are (?P<classes>.+)"))
def acknowledgment_classes(world, label, alias, classes):
    """The classes of the messages in `alias` whose CorrelationId is the Identifier of `label`, in queue order."""
    assert label in world.sent, f"no message {label!r} was sent in this scenario"
    identifier = bytes(world.sent[label].message_id)
    actual = [m.message_class for m in world.messages(alias) if bytes(m.correlation_id) == identifier]
    expected = [] if classes == "none" else [number(name) for name in labels(classes)]
    assert actual == expected, (f"acknowledgments of {label!r} in {alias!r}: {[hex(c) for c in actual]}, "
                                f"expected {classes}")


@then(named(r"the acknowledgments in {alias} answer (?P<names>.+) in that order"))
def acknowledgment_order(world, alias, names):
    """The messages of `alias`, front to back, named by the label whose Identifier their CorrelationId carries."""
    by_identifier = {bytes(sent.message_id): label for label, sent in world.sent.items()}
    actual = [by_identifier.get(bytes(m.correlation_id), f"<correlation id {bytes(m.correlation_id).hex()}>")
              for m in world.messages(alias)]
    assert actual == labels(names), f"the acknowledgments in {alias!r} answer {actual}, expected {labels(names)}"


@then(named(r"the returned message's (?P<field>[a-z -]+) is (?P<value>.+)"))
def returned_field(world, field, value):
    assert world.status == HRESULT.MQ_OK, f"the call failed: {describe_hresult(world.status)}"
    assert world.decoded is not None, "no message came back"
    assert field in FIELDS, f"unknown field {field!r}; known: {', '.join(FIELDS)}"
    attribute, convert = FIELDS[field]
    actual, expected = getattr(world.decoded, attribute), convert(value.strip('"'))
    if isinstance(expected, bool):
        assert actual is not None, "the packet has no TransactionHeader to carry the flag"
    assert actual == expected, f"the returned message's {field} is {actual!r}, expected {expected!r}"


@then(named(r"the queue handles (?P<names>.+) are all different"))
def handles_distinct(world, names):
    values = [world.handle(name) for name in labels(names)]
    assert len(set(values)) == len(values), f"the handles of {labels(names)} repeat: {[v.hex() for v in values]}"


@then(named(r"the move contexts of (?P<names>.+) are all different and nonzero"))
def move_contexts_distinct(world, names):
    values = [world.move_contexts[name] for name in labels(names)]
    assert 0 not in values and len(set(values)) == len(values), \
        f"the pMoveContext values of {labels(names)} are {[hex(v) for v in values]}"
