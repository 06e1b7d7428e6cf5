"""Steps for what the open decisions about arrival, journals and acknowledgments leave to the server.

Each step accepts what every reading of its decision gives and records the reading the
target showed (`World.observe`, spec/decisions.md): the copies a journal or dead-letter
queue keeps (D-26), the acknowledgments a copy raises (D-28), a send the set-up path may
refuse or accept (D-30, D-35, D-59), a purged enqueue that a commit may bring back (D-24),
and the other outcomes written `by D-NN ... (reading) or ... (reading)`.
"""

from __future__ import annotations

from pytest_bdd import then

from mqspec.protocol.constants import MessageClass
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .phrases import phrase
from .values import hresult, labels, number
from .world import World

DECISION, READING = r"D-\d\d", r"[a-z0-9+-]+"
SYSTEM_QUEUES = ("the system journal", "the dead-letter queue", "the transactional dead-letter queue")


def _class_name(value: int) -> str:
    try:
        return MessageClass(value).name
    except ValueError:
        return f"0x{value:04X}"


def _copies(world: World, alias: str, label: str) -> list:
    """Messages of `alias` that carry the Identifier of the message the scenario sent as `label`."""
    assert label in world.sent, f"no message {label!r} was sent in this scenario"
    ordinal = int.from_bytes(world.sent[label].message_id[16:20], "little")
    return [m for m in world.messages(alias) if m.label == label and m.message_id == ordinal]


def _acknowledgments(world: World, label: str, alias: str) -> list[str]:
    assert label in world.sent, f"no message {label!r} was sent in this scenario"
    identifier = bytes(world.sent[label].message_id)
    return [_class_name(m.message_class) for m in world.messages(alias) if bytes(m.correlation_id) == identifier]


def _classes(text: str) -> list[str]:
    return [] if text.strip() == "none" else [_class_name(number(name)) for name in labels(text)]


@then(phrase('by {decision} "{alias}" keeps a copy of "{label}" of class {cls} ({kept}) or none ({none})',
             decision=DECISION, cls=r"\w+", kept=READING, none=READING))
def copy_by_decision(world, decision, alias, label, cls, kept, none):
    """One copy of the message, of that class (the first reading), or none (the second)."""
    found = _copies(world, alias, label)
    if not found:
        world.observe(decision, none)
        return
    assert len(found) == 1, f"{alias!r} holds {len(found)} copies of {label!r}; {decision} allows one or none"
    assert found[0].message_class == number(cls), \
        f"the copy of {label!r} in {alias!r} has class {_class_name(found[0].message_class)}, expected {cls}"
    world.observe(decision, kept)


@then(phrase('by {decision} the messages in "{alias}" are, front to back ({listed}), or none ({none}):',
             decision=DECISION, listed=READING, none=READING))
def messages_by_decision(world, decision, alias, listed, none, datatable):
    """The messages of the table (columns label and class, in queue order), or no message at all."""
    header, *rows = datatable
    actual = []
    for message in world.messages(alias):
        cells = {"label": message.label, "class": _class_name(message.message_class)}
        actual.append([cells[column] for column in header])
    if not actual:
        world.observe(decision, none)
        return
    expected = [[_class_name(number(cell)) if column == "class" else cell for column, cell in zip(header, row)]
                for row in rows]
    assert actual == expected, f"{alias!r} holds {actual}; {decision} allows {expected} ({listed}) or none ({none})"
    world.observe(decision, listed)


@then(phrase('by {decision} the acknowledgments of "{label}" in "{alias}" are {first} ({one}) or {second} ({other})',
             decision=DECISION, one=READING, other=READING))
def acknowledgments_by_decision(world, decision, label, alias, first, one, second, other):
    actual = _acknowledgments(world, label, alias)
    options = [(one, _classes(first)), (other, _classes(second))]
    matching = [reading for reading, expected in options if actual == expected]
    assert matching, f"{alias!r} holds acknowledgments {actual} of {label!r}; {decision} allows {first} ({one}) " \
                     f"or {second} ({other})"
    if len(matching) == 1:
        world.observe(decision, matching[0])


@then(phrase('by {decision} the send is refused with {status} ({refused}) or accepted ({accepted})',
             decision=DECISION, status=r"\w+", refused=READING, accepted=READING))
def send_by_decision(world, decision, status, refused, accepted):
    """A send the set-up path may refuse (with that status) or accept (status 0, or a refusing Enqueue Message
    status is not meant: accepted means MQ_OK)."""
    if world.status == HRESULT.MQ_OK:
        world.observe(decision, accepted)
        return
    assert world.status_is(hresult(status)), \
        f"got {describe_hresult(world.status)}; {decision} allows {status} ({refused}) or MQ_OK ({accepted})"
    world.observe(decision, refused)


@then(phrase('no queue holds an acknowledgment for "{label}"'))
def no_acknowledgment_anywhere(world, label):
    """Neither a queue of the scenario nor a system queue holds a message correlated with `label`."""
    for alias in [*world.queues, *SYSTEM_QUEUES]:
        found = _acknowledgments(world, label, alias)
        assert not found, f"{alias!r} holds acknowledgments {found} of {label!r}"


@then(phrase('by D-59 the client received "{label}", with no acknowledgment bits, (accept) or nothing (refuse)'))
def received_without_acknowledgment_bits(world, label):
    """After a send that asked for acknowledgments without an administration queue: under `accept` the message
    was received, and its packet asks for no acknowledgment (MS-MQMQ 2.2.19.2: the bits need an AdminQueue);
    under `refuse` there was nothing to receive."""
    reading = world.readings.get("D-59")
    assert reading is not None, "the scenario must first learn the target's D-59 reading from the send"
    if reading == "refuse":
        assert world.status != HRESULT.MQ_OK, "the send was refused, yet a message was received"
        return
    assert world.status == HRESULT.MQ_OK and world.decoded is not None, \
        f"the send was accepted, yet the receive gave {describe_hresult(world.status)}"
    assert world.decoded.label == label, f"received {world.decoded.label!r}, expected {label!r}"
    assert not world.decoded.violations, f"the packet breaks layout rules: {world.decoded.violations}"
    assert world.decoded.acknowledgements == 0, \
        f"the packet asks for acknowledgments 0x{world.decoded.acknowledgements:X} without an AdminQueue"
