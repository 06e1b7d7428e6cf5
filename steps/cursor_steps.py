"""Steps for the MSDN cursor pages and for MS-MQQB administration acknowledgments.

Cursors
    Reads through a cursor that have to wait use the shared background sentences
    (`in the background, cursor "c" peeks at the next message with a time-out of ...`,
    then `the background call "r" completes`).  A cursor receive inside a transaction
    is `cursor "c" receives in transaction "t"` (start and end, RR_ACK).

Acknowledgments
    An acknowledgment is a message in an administration queue whose correlation
    identifier is the Identifier of the message behind it (MS-MQQB 3.1.7.15), the
    `message_id` that `Target.send` returned and `World.sent[label]` keeps.  The
    suite reads it with its own packet reader; `the acknowledgments of "m1" in
    "admin" are ...` lists them, and `the acknowledgment's <field> is <value>`
    checks one field of the one found last.

Prepared messages
    `message "m1" is prepared with:` keeps the properties of a message that is not
    sent yet; `the prepared message "m1" <event>` then sends it and makes one thing
    happen to it, so that an Outline can go through every way an acknowledgment is
    raised.  The events are listed in EVENTS below.
"""

from __future__ import annotations

import re
import time

from pytest_bdd import given, then, when

from mqspec.adapters import MessageProperties
from mqspec.protocol.constants import MessageClass
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult
from mqspec.protocol.queue_format import from_format_name as queue_format

from .phrases import phrase
from .receive_steps import RECEIVE, RR_ACK, start_receive
from .setup_steps import properties, send
from .values import acknowledgements, labels, number
from .world import World

REJECTED = number("MQMSG_CLASS_NACK_RECEIVE_REJECTED")


# -- queues and cursors ---------------------------------------------------------------------

@given(phrase('no queue "{alias}" exists'))
def no_such_queue(world, alias):
    """A name for a queue of this queue manager that was never created."""
    world.queues[alias] = f"DIRECT=OS:{world.pathname(alias)}"


@given(phrase('"{alias}" is also known by its direct format name as "{other}"'))
def direct_alias(world, alias, other):
    """A second name for the same queue: DIRECT=OS:<computer>\\private$\\<name>."""
    world.queue(alias)
    pathname = world.notes.get("pathnames", {}).get(alias) or world.pathname(alias)
    world.queues[other] = f"DIRECT=OS:{pathname}"


@when(phrase('cursor "{cursor}" receives in transaction "{tx}"'))
def cursor_receive_in_transaction(world, cursor, tx):
    """R_StartTransactionalReceive through the cursor, then R_EndTransactionalReceive with RR_ACK."""
    handle, h_cursor = world.cursors[cursor]
    out, request_id = start_receive(world, handle, h_cursor=h_cursor, ul_action=RECEIVE, transaction=tx)
    if out.hresult == HRESULT.MQ_OK:
        end = world.target.end_transactional_receive(world.handle(handle), RR_ACK, request_id)
        assert end == HRESULT.MQ_OK, f"R_EndTransactionalReceive: {describe_hresult(end)}"


# -- prepared messages ---------------------------------------------------------------------

def _prepared(world: World, label: str) -> MessageProperties:
    prepared = world.notes.setdefault("prepared", {})
    if label not in prepared:
        raise KeyError(f"no prepared message {label!r}; use 'message \"{label}\" is prepared with:'")
    return prepared[label]


@given(phrase('message "{label}" is prepared with:'))
def prepare(world, label, datatable):
    row = {"label": label, **{key: value for key, value in datatable}}
    world.notes.setdefault("prepared", {})[label] = properties(world, row)


def _send_prepared(world: World, alias: str, props: MessageProperties, tx: str | None = None):
    world.notes.setdefault("bodies", {})[props.label] = props.body
    return send(world, alias, props, tx)


def _send_prepared_ok(world: World, alias: str, props: MessageProperties, tx: str | None = None) -> None:
    out = _send_prepared(world, alias, props, tx)
    assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0), \
        f"sending {props.label!r} to {alias!r}: {describe_hresult(out.hresult)}, status {out.r_status}"


def _open(world: World, alias: str) -> str:
    handle = f"{alias} (reader)"
    if handle not in world.handles:
        out = world.target.open_queue(queue_format(world.queue(alias)), number("RECEIVE_ACCESS"),
                                      number("MQ_DENY_NONE"))
        assert out.hresult == HRESULT.MQ_OK, f"opening {alias!r}: {describe_hresult(out.hresult)}"
        world.handles[handle] = out.pph_context
        world.handle_queue[handle] = alias
    return handle


def _reaches(world, props, alias):
    _send_prepared(world, alias, props)


def _reaches_late(world, props, alias):
    """Sent 100 seconds ago with 10 seconds to reach its queue."""
    props.sent_time = int(time.time()) - 100
    props.time_to_reach_queue = 10
    _send_prepared(world, alias, props)


def _reaches_late_in_transaction(world, props, alias, tx):
    props.sent_time = int(time.time()) - 100
    props.time_to_reach_queue = 10
    _reaches_in_transaction(world, props, alias, tx)


def _overflows(world, props, alias):
    """The body grows to 2048 bytes: more than a 1 KB queue quota can hold."""
    if len(props.body) < 2048:
        props.body = props.body + bytes(i % 251 for i in range(2048 - len(props.body)))
    _send_prepared(world, alias, props)


def _reaches_in_transaction(world, props, alias, tx):
    if tx not in world.transactions:
        world.transactions[tx] = world.target.begin_transaction()
    _send_prepared(world, alias, props, tx)


def _received(world, props, alias):
    """Sent, then received from the front of the queue (R_StartReceive and R_EndReceive with RR_ACK)."""
    _send_prepared_ok(world, alias, props)
    handle = _open(world, alias)
    out, request_id = start_receive(world, handle)
    assert out.hresult == HRESULT.MQ_OK, f"receiving from {alias!r}: {describe_hresult(out.hresult)}"
    end = world.target.end_receive(world.handle(handle), RR_ACK, request_id)
    assert end == HRESULT.MQ_OK, f"R_EndReceive: {describe_hresult(end)}"


def _purged(world, props, alias):
    _send_prepared_ok(world, alias, props)
    status = world.target.purge_queue(world.handle(_open(world, alias)))
    assert status == HRESULT.MQ_OK, f"R_PurgeQueue on {alias!r}: {describe_hresult(status)}"


def _deleted(world, props, alias):
    _send_prepared_ok(world, alias, props)
    status = world.target.delete_queue(world.queue(alias))
    assert status == HRESULT.MQ_OK, f"deleting {alias!r}: {describe_hresult(status)}"


def _expires(world, props, alias):
    """One second to be received, then two seconds pass on the target (Target.elapse)."""
    props.time_to_be_received = 1
    _send_prepared_ok(world, alias, props)
    world.require("virtual_time")
    world.target.elapse(2000)


def _rejected(world, props, alias):
    """Sent in a committed transaction, received in another, rejected, and that one committed."""
    load = world.target.begin_transaction()
    world.transactions[f"{props.label} (load)"] = load
    _send_prepared_ok(world, alias, props, f"{props.label} (load)")
    status = world.target.commit_transaction(load)
    assert status == HRESULT.MQ_OK, f"committing the send: {describe_hresult(status)}"
    handle = _open(world, alias)
    tx = f"{props.label} (reject)"
    world.transactions[tx] = world.target.begin_transaction()
    out, request_id = start_receive(world, handle, transaction=tx)
    assert out.hresult == HRESULT.MQ_OK, f"transactional receive: {describe_hresult(out.hresult)}"
    end = world.target.end_transactional_receive(world.handle(handle), RR_ACK, request_id)
    assert end == HRESULT.MQ_OK, f"R_EndTransactionalReceive: {describe_hresult(end)}"
    status = world.target.set_user_acknowledgement_class(world.handle(handle), world.lookup_id(props.label),
                                                         REJECTED)
    assert status == HRESULT.MQ_OK, f"R_SetUserAcknowledgementClass: {describe_hresult(status)}"
    status = world.target.commit_transaction(world.transactions[tx])
    assert status == HRESULT.MQ_OK, f"committing the rejection: {describe_hresult(status)}"


# What `the prepared message "m1" <event>` can say; "{q}" is a queue name, "{t}" a transaction name.
EVENTS = [
    ('reaches "{q}"', _reaches),
    ('reaches "{q}" outside a transaction', _reaches),
    ('reaches "{q}" too late', _reaches_late),
    ('reaches "{q}" in transaction "{t}"', _reaches_in_transaction),
    ('reaches "{q}" too late in transaction "{t}"', _reaches_late_in_transaction),
    ('overflows the quota of "{q}"', _overflows),
    ('is received from "{q}"', _received),
    ('is purged from "{q}"', _purged),
    ('is in "{q}" when that queue is deleted', _deleted),
    ('expires in "{q}"', _expires),
    ('is rejected from "{q}"', _rejected),
]
_EVENT_PATTERNS = [(re.compile("^" + re.escape(text).replace(r'\{q\}', '([^"]+)').replace(r'\{t\}', '([^"]+)') + "$"),
                    action) for text, action in EVENTS]


@given(phrase('the prepared message "{label}" {event}'))
@when(phrase('the prepared message "{label}" {event}'))
def prepared_event(world, label, event):
    props = _prepared(world, label)
    for pattern, action in _EVENT_PATTERNS:
        match = pattern.match(event)
        if match:
            action(world, props, *match.groups())
            return
    raise KeyError(f"unknown event {event!r}; known: {'; '.join(text for text, _ in EVENTS)}")


# -- acknowledgments -----------------------------------------------------------------------

def _class_name(value: int) -> str:
    try:
        return MessageClass(value).name
    except ValueError:
        return f"0x{value:04X}"


def _correlated(world: World, label: str, alias: str):
    if label not in world.sent:
        raise KeyError(f"no message {label!r} was sent in this scenario")
    identifier = bytes(world.sent[label].message_id)
    return [m for m in world.messages(alias) if bytes(m.correlation_id) == identifier]


def _classes(text: str) -> list[int]:
    text = text.strip()
    if text == "none":
        return []
    return [number(part) for part in labels(text)]


@then(phrase('the acknowledgments of "{label}" in "{alias}" are {classes}'))
def acknowledgments_are(world, label, alias, classes):
    found = _correlated(world, label, alias)
    actual = [_class_name(m.message_class) for m in found]
    expected = [_class_name(c) for c in _classes(classes)]
    assert actual == expected, f"{alias!r} holds acknowledgments {actual} of {label!r}, expected {expected}"
    for message in found:
        assert not message.violations, f"an acknowledgment of {label!r} breaks packet rules: {message.violations}"
    world.notes["acknowledgment"] = found[-1] if found else None


@then(phrase('the only message in "{alias}" has class {cls}'))
def only_message(world, alias, cls):
    messages = world.messages(alias)
    assert len(messages) == 1, f"{alias!r} holds {len(messages)} messages, expected exactly one"
    assert messages[0].message_class == number(cls), \
        f"its class is {_class_name(messages[0].message_class)}, expected {cls}"
    assert not messages[0].violations, f"it breaks packet rules: {messages[0].violations}"
    world.notes["acknowledgment"] = messages[0]


@then(phrase('the message returned is an acknowledgment of "{label}" with class {cls}'))
def returned_acknowledgment(world, label, cls):
    assert world.status == HRESULT.MQ_OK, f"the call failed: {describe_hresult(world.status)}"
    assert world.decoded is not None, "no message came back"
    message = world.decoded
    assert bytes(message.correlation_id) == bytes(world.sent[label].message_id), \
        f"the message returned answers {bytes(message.correlation_id).hex()}, not {label!r}"
    assert message.message_class == number(cls), \
        f"the message returned has class {_class_name(message.message_class)}, expected {cls}"
    world.notes["acknowledgment"] = message


@then(phrase('message "{label}" in "{alias}" has class {cls}'))
def message_class(world, label, alias, cls):
    found = [m for m in world.messages(alias) if m.label == label]
    assert found, f"{alias!r} holds no message {label!r}"
    actual = [_class_name(m.message_class) for m in found]
    assert actual == [_class_name(number(cls))], f"{label!r} in {alias!r} has class {actual}, expected {cls}"


def _same_queue(actual: str, expected: str) -> bool:
    return actual.casefold() == expected.casefold()


def _check_queue(world, actual, value, what):
    expected = "" if value == "empty" else world.queue(value.strip('"'))
    assert _same_queue(actual, expected), f"the acknowledgment's {what} is {actual!r}, expected {expected!r}"


def _check_body(world, message, value):
    if value == "empty":
        expected = b""
    elif value.startswith("the body of "):
        label = value[len("the body of "):].strip('"')
        expected = world.notes.get("bodies", {}).get(label)
        assert expected is not None, f"the body of {label!r} is not known (send it as a prepared message)"
    else:
        expected = value.strip('"').encode()
    assert message.body_size == len(expected) and message.body == expected, \
        f"the acknowledgment's body is {message.body[:40]!r} ({message.body_size} bytes), " \
        f"expected {expected[:40]!r} ({len(expected)} bytes)"


def _check(world: World, message, field: str, value: str) -> None:
    value = value.strip()
    if field == "class":
        assert message.message_class == number(value), \
            f"the acknowledgment's class is {_class_name(message.message_class)}, expected {value}"
    elif field == "correlation id":
        assert value.startswith("the identifier of "), "write: the identifier of \"<label>\""
        label = value[len("the identifier of "):].strip('"')
        expected = bytes(world.sent[label].message_id)
        assert bytes(message.correlation_id) == expected, \
            f"the correlation id is {bytes(message.correlation_id).hex()}, expected {expected.hex()} ({label!r})"
    elif field == "response queue":
        _check_queue(world, message.response_queue, value, field)
    elif field == "destination queue":
        _check_queue(world, message.destination_queue, value, field)
    elif field == "admin queue":
        _check_queue(world, message.admin_queue, value, field)
    elif field == "delivery":
        expected = {"express": 0, "recoverable": 1}[value]
        assert message.delivery_mode == expected, \
            f"the acknowledgment's delivery mode is {message.delivery_mode}, expected {value} ({expected})"
    elif field == "acknowledgements":
        assert message.acknowledgements & 0x0F == acknowledgements(value), \
            f"the acknowledgment asks for acknowledgements 0x{message.acknowledgements:02X}, expected {value}"
    elif field == "time to reach queue":
        assert message.time_to_reach_queue == number(value), \
            f"the acknowledgment's TimeToReachQueue is 0x{message.time_to_reach_queue:08X}, expected {value}"
    elif field == "time to be received":
        assert message.time_to_be_received == number(value), \
            f"the acknowledgment's TimeToBeReceived is 0x{message.time_to_be_received:08X}, expected {value}"
    elif field == "journaling":
        assert value == "none", "write: the acknowledgment's journaling is none"
        assert (message.flags["JN"], message.flags["JP"]) == (0, 0), \
            f"the acknowledgment asks for journaling: JN {message.flags['JN']}, JP {message.flags['JP']}"
    elif field == "privacy level":
        assert message.privacy_level == (0 if value == "none" else number(value)), \
            f"the acknowledgment's privacy level is {message.privacy_level}, expected {value}"
    elif field == "body":
        _check_body(world, message, value)
    else:
        raise KeyError(f"unknown acknowledgment field {field!r}")


@then(phrase("the acknowledgment's {field} is {value}"))
def acknowledgment_field(world, field, value):
    message = world.notes.get("acknowledgment")
    assert message is not None, "no acknowledgment was found by an earlier step"
    _check(world, message, field, value)
