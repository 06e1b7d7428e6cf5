"""Steps that set a scene: queues, messages, handles, cursors, transactions, time."""

from __future__ import annotations

import time

import pytest
from pytest_bdd import given, then, when

from mqspec.adapters import MessageProperties
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult
from mqspec.protocol.queue_format import from_format_name as queue_format

from .blame import check_holds
from .phrases import LABELS, phrase
from .values import acknowledgements, hresult, labels, number
from .world import Sent, World

# Columns of a message table, and how each sets a MessageProperties field.
MESSAGE_COLUMNS = {
    "label": ("label", str),
    "priority": ("priority", int),
    "body": ("body", lambda text: text.encode()),
    "body size": ("body", lambda text: bytes(i % 251 for i in range(int(text)))),
    "delivery": ("delivery", str),
    "class": ("message_class", number),
    "acknowledgements": ("acknowledgements", acknowledgements),
    "admin queue": ("admin_queue", None),
    "response queue": ("response_queue", None),
    "time to reach queue": ("time_to_reach_queue", number),
    "time to be received": ("time_to_be_received", number),
    "sent": ("sent_time", None),
    "journal": ("positive_journaling", lambda text: text == "yes"),
    "dead letter": ("negative_journaling", lambda text: text == "yes"),
    "peek when locked": ("allow_peek_when_locked", lambda text: text == "yes"),
    "srmp envelope": ("srmp_envelope", str),
    "srmp compound message": ("srmp_compound_message", lambda text: text.encode()),
    "privacy level": ("privacy_level", int),
}
REAL_TIME_WAIT_MS = 3000  # the longest wait a target without virtual time waits out in real time (README)
UNSETTABLE = {"priority", "time_to_reach_queue", "time_to_be_received"}  # "not set" leaves these to the target


def make_queue(world: World, alias: str, **attributes) -> None:
    created = world.target.create_queue(world.pathname(alias), **attributes)
    assert created.hresult == HRESULT.MQ_OK, f"creating {alias!r}: {describe_hresult(created.hresult)}"
    world.queues[alias] = created.format_name
    world.notes.setdefault("pathnames", {})[alias] = created.pathname   # a target may name it otherwise (msmq://)


@given(phrase('a queue "{alias}"'))
def a_queue(world, alias):
    make_queue(world, alias)


@given(phrase('a transactional queue "{alias}"'))
def a_transactional_queue(world, alias):
    make_queue(world, alias, transactional=True)


@given(phrase('a queue "{alias}" with a quota of {kilobytes:d} KB'))
def a_queue_with_quota(world, alias, kilobytes):
    make_queue(world, alias, quota=kilobytes)


@given(phrase('a transactional queue "{alias}" with a quota of {kilobytes:d} KB'))
def a_transactional_queue_with_quota(world, alias, kilobytes):
    make_queue(world, alias, transactional=True, quota=kilobytes)


@given(phrase('a queue "{alias}" with journaling'))
def a_journaled_queue(world, alias):
    make_queue(world, alias, journaling=True)


@given(phrase('a transactional queue "{alias}" with journaling'))
def a_journaled_transactional_queue(world, alias):
    make_queue(world, alias, transactional=True, journaling=True)


@given(phrase('a subqueue "{sub}" of "{alias}"'))
def a_subqueue(world, sub, alias):
    created = world.target.create_queue(f"{world.pathname(alias)};{sub}")
    assert created.hresult == HRESULT.MQ_OK, f"creating subqueue {sub!r}: {describe_hresult(created.hresult)}"
    world.queues[f"{alias};{sub}"] = created.format_name


def properties(world: World, row: dict[str, str]) -> MessageProperties:
    props = MessageProperties()
    for column, text in row.items():
        if column not in MESSAGE_COLUMNS:
            raise KeyError(f"unknown message column {column!r}; known: {', '.join(MESSAGE_COLUMNS)}")
        if text == "":
            continue
        name, convert = MESSAGE_COLUMNS[column]
        if text == "not set" and name in UNSETTABLE:
            world.require("local_send")   # over MS-MQQB the sending queue manager, the suite, writes every value
            setattr(props, name, None)  # MS-MQDMPR:3.1.1.12:07/:08 the sender leaves it to the target's default
            continue
        if column in ("admin queue", "response queue"):
            value = world.queue(text)
        elif column == "sent":
            value = _sent_time(world, text)
        else:
            value = convert(text)
        setattr(props, name, value)
    return props


def _sent_time(world: World, text: str) -> int:
    """'now', or 'N seconds ago' (the target's clock is near the test's)."""
    if text == "now":
        return int(time.time())
    amount, unit, ago = text.split()
    assert unit == "seconds" and ago == "ago", f"sent time {text!r}: write 'now' or 'N seconds ago'"
    return int(time.time()) - int(amount)


def send(world: World, alias: str, props: MessageProperties, transaction: str | None = None):
    uow = world.transactions[transaction] if transaction else None
    out = world.target.send(world.queue(alias), props, uow)
    world.record(out)
    world.sent[props.label] = Sent(props.label, world.queue(alias), out.message_id,
                                   transactional=uow is not None)
    return out


def send_ok(world: World, alias: str, props: MessageProperties, transaction: str | None = None) -> None:
    out = send(world, alias, props, transaction)
    assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0), \
        f"sending {props.label!r}: {describe_hresult(out.hresult)}, status {out.r_status}"


@given(phrase('"{alias}" holds {names}', names=LABELS))
def queue_holds(world, alias, names):
    for label in labels(names):
        send_ok(world, alias, MessageProperties(label=label))


@given(phrase('"{alias}" also holds {count:d} messages "{first}" to "{last}"'))
def queue_holds_numbered(world, alias, count, first, last):
    prefix = first[:-1]
    assert first == f"{prefix}1" and last == f"{prefix}{count}", f"{count} messages run from {prefix}1 to " \
        f"{prefix}{count}, not from {first} to {last}"
    for index in range(1, count + 1):
        send_ok(world, alias, MessageProperties(label=f"{prefix}{index}"))


@given(phrase('"{alias}" holds messages:'))
def queue_holds_table(world, alias, datatable):
    header, *rows = datatable
    for row in rows:
        send_ok(world, alias, properties(world, dict(zip(header, row))))


@given(phrase('message "{label}" is sent to "{alias}" with:'))
@when(phrase('message "{label}" is sent to "{alias}" with:'))
def send_with(world, label, alias, datatable):
    row = {"label": label, **{key: value for key, value in datatable}}
    send(world, alias, properties(world, row))


@given(phrase('message "{label}" is sent to "{alias}"'))
@when(phrase('message "{label}" is sent to "{alias}"'))
def send_plain(world, label, alias):
    send(world, alias, MessageProperties(label=label))


@given(phrase('message "{label}" is sent to "{alias}" in transaction "{tx}"'))
@when(phrase('message "{label}" is sent to "{alias}" in transaction "{tx}"'))
def send_in_transaction(world, label, alias, tx):
    send(world, alias, MessageProperties(label=label), tx)


@given(phrase('message "{label}" is sent to "{alias}" in transaction "{tx}" with:'))
@when(phrase('message "{label}" is sent to "{alias}" in transaction "{tx}" with:'))
def send_in_transaction_with(world, label, alias, tx, datatable):
    row = {"label": label, **{key: value for key, value in datatable}}
    send(world, alias, properties(world, row), tx)


@then(phrase("the send is accepted with status {status:d}"))
def send_status(world, status):
    assert world.status == HRESULT.MQ_OK, describe_hresult(world.status)
    assert world.last.r_status == status, f"Enqueue Message status {world.last.r_status}, expected {status}"


QUEUE_MANAGER_QUOTA = 2   # MS-MQDMPR 3.1.7.1.9: Enqueue Message's status when the queue manager's quota is full


@then(phrase("the send ends with status {status:d}"))
def send_ended(world, status):
    """Enqueue Message's status (MS-MQDMPR 3.1.7.1.9), whichever it is, with the HRESULT that goes with it."""
    _ended_with(world, status)


@then(phrase("the send is refused for the queue manager's quota (status 2)"))
def send_refused_for_quota(world):
    """D-131: a message the queue manager keeps nowhere (Enqueue Message status 2, MS-MQDMPR 3.1.7.1.9) is a send
    that failed, so its sender hears an error HRESULT (which one the specification does not say)."""
    _ended_with(world, QUEUE_MANAGER_QUOTA)


def _ended_with(world, status: int) -> None:
    """The send came back with Enqueue Message status `status`, and an HRESULT that agrees: an error for status 2
    (D-131), MQ_OK for the others (the message was taken, or NACKed)."""
    if status == QUEUE_MANAGER_QUOTA:
        assert world.status != HRESULT.MQ_OK, \
            f"Enqueue Message status {world.last.r_status} came back MQ_OK: a message kept nowhere is a failed send"
    else:
        assert world.status == HRESULT.MQ_OK, describe_hresult(world.status)
    assert world.last.r_status == status, f"Enqueue Message status {world.last.r_status}, expected {status}"


@then(phrase("by {decision} the send ends with status {first:d} ({one}) or {second:d} ({other})",
             decision=r"D-\d\d", one=r"[a-z0-9+-]+", other=r"[a-z0-9+-]+"))
def send_status_by_decision(world, decision, first, one, second, other):
    """The Enqueue Message status each reading of an open decision gives; the one seen is recorded (when the
    two readings agree on this send, nothing is learnt)."""
    status = world.last.r_status
    assert status in (first, second), \
        f"Enqueue Message status {status}; {decision} allows {first} ({one}) or {second} ({other})"
    _ended_with(world, status)
    if first != second:
        world.observe(decision, one if status == first else other)


@given(phrase("the queue manager's quota is {quota:d} bytes"))
def queue_manager_quota(world, quota):
    """QueueManagerQuota (MS-MQDMPR 3.1.1.1) set for the scenario, so that it does not rest on the default, which
    is a SHOULD (D-20).  A target that cannot set it runs the scenario only if a probe shows that its own quota
    is near that value: the first of two sends of 60% of it fits, the second does not (status 2)."""
    if "queue_manager_quota" in world.target.capabilities:
        world.target.set_queue_manager_quota(quota)
        return
    probe = world.pathname("quota-probe")
    created = world.target.create_queue(probe)
    assert created.hresult == HRESULT.MQ_OK, f"creating the probe queue: {describe_hresult(created.hresult)}"
    body = bytes(quota * 6 // 10)
    statuses = [world.target.send(created.format_name, MessageProperties(label=f"probe {n}", body=body)).r_status
                for n in (1, 2)]
    world.target.delete_queue(created.format_name)
    if statuses != [0, 2]:
        pytest.skip(f"not run: needs a QueueManagerQuota of {quota} bytes; the target's own is not near it "
                    f"(probe statuses {statuses}) and it cannot set one (queue_manager_quota)")


@then(phrase("the send is refused with {status}", status=r"\w+"))
def send_refused(world, status):
    world.judging_a_send()
    assert world.status_is(hresult(status)), f"got {describe_hresult(world.status)}, expected {status}"


@then("the call fails")
@then("the send fails")
def call_fails(world):
    """Any failure status: for a name the specifications give no status for, only that the call is refused."""
    world.judging_a_send()
    assert world.failed(), f"the send returned {describe_hresult(world.status)}, not a failure"


@given(phrase('"{alias}" is opened with {access} as "{handle}"', access=r"\w+"))
@when(phrase('"{alias}" is opened with {access} as "{handle}"', access=r"\w+"))
def open_handle(world, alias, access, handle):
    open_with_share(world, alias, access, "MQ_DENY_NONE", handle)


@given(phrase('"{alias}" is opened with {access} and {share} as "{handle}"', access=r"\w+", share=r"\w+"))
@when(phrase('"{alias}" is opened with {access} and {share} as "{handle}"', access=r"\w+", share=r"\w+"))
def open_with_share(world, alias, access, share, handle):
    out = world.target.open_queue(queue_format(world.queue(alias)), number(access), number(share))
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.handles[handle] = out.pph_context
        world.handle_queue[handle] = alias


@given(phrase('"{alias}" is opened for move as "{handle}"'))
def open_for_move(world, alias, handle):
    out = world.target.open_queue_for_move(queue_format(world.queue(alias)), number("MQ_MOVE_ACCESS"),
                                           number("MQ_DENY_NONE"))
    assert out.hresult == HRESULT.MQ_OK, describe_hresult(out.hresult)
    world.handles[handle] = out.pph_context
    world.handle_queue[handle] = alias
    world.move_contexts[handle] = out.p_move_context


@given(phrase('cursor "{cursor}" is created on "{handle}"'))
@when(phrase('cursor "{cursor}" is created on "{handle}"'))
def create_cursor(world, cursor, handle):
    out = world.target.create_cursor(world.handle(handle))
    world.record(out)
    assert out.hresult == HRESULT.MQ_OK, describe_hresult(out.hresult)
    world.cursors[cursor] = (handle, out.ph_cursor)


@given(phrase('transaction "{tx}" is begun'))
@when(phrase('transaction "{tx}" is begun'))
def begin(world, tx):
    world.transactions[tx] = world.target.begin_transaction()


@given(phrase('transaction "{tx}" is {outcome}', outcome="committed|aborted|prepared"))
@when(phrase('transaction "{tx}" is {outcome}', outcome="committed|aborted|prepared"))
def end_transaction(world, tx, outcome):
    action = {"committed": world.target.commit_transaction, "aborted": world.target.abort_transaction,
              "prepared": world.target.prepare_transaction}[outcome]
    world.record(action(world.transactions[tx]))


@given(phrase("the target {does} send insecure acknowledgments", does="does not|does"))
def insecure_acknowledgments(world, does):
    """A scenario that depends on the target's SendInsecureNacks setting (MS-MQQB 3.1.1.3)."""
    wanted = does == "does"
    if world.target.send_insecure_nacks is not wanted:
        pytest.skip(f"not run: the target's SendInsecureNacks is {world.target.send_insecure_nacks}, "
                    f"the scenario needs {wanted}")


@when("the queue manager restarts")
def restart(world):
    world.require("restart")
    world.target.restart()
    world.handles.clear()
    world.cursors.clear()


@when(phrase("{amount:d} {unit} {verb}", unit="milliseconds?|seconds?|minutes?|hours?|days?", verb="pass|passes"))
@given(phrase("{amount:d} {unit} {verb}", unit="milliseconds?|seconds?|minutes?|hours?|days?", verb="pass|passes"))
def time_passes(world, amount, unit, verb):
    """The target's clock moves on (virtual time); nothing in the scenario depends on real time."""
    scale = {"millisecond": 1, "second": 1000, "minute": 60_000, "hour": 3_600_000, "day": 86_400_000}[unit.rstrip("s")]
    if "virtual_time" not in world.target.capabilities and "real_time" in world.target.capabilities and \
            amount * scale <= REAL_TIME_WAIT_MS:
        time.sleep(amount * scale / 1000)   # a clock that only follows the wall clock: a short wait is waited
        world.notes["waited in real time"] = True
        return
    world.require("virtual_time")
    world.target.elapse(amount * scale)


@given("the target's clock runs in real time")
def clock_runs_in_real_time(world):
    """From here to the scenario's end the target's timers fire on their own, as a real peer meets them; waits for
    the target's packets then wait in real time (mqqb_steps.Peer.collect)."""
    world.require("real_time")
    world.target.run_in_real_time()
    world.notes["real time"] = True


@then(phrase('"{alias}" holds {names}', names=LABELS))
def queue_contents(world, alias, names):
    expected = labels(names)
    actual = world.labels(alias)
    check_holds(actual, expected, f"{alias!r} holds {actual}, expected {expected}")


@then(phrase('"{alias}" holds {count:d} messages'))
def queue_count(world, alias, count):
    actual = world.labels(alias)
    assert len(actual) == count, f"{alias!r} holds {len(actual)} messages: {actual}"

