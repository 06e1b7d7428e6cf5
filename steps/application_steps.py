"""Steps of the client scenarios: the judge's scene, the application's operations, what it was told.

The client under test is driven as an application would drive its library (the
shim protocol, docs/client-shim.md); the judging server holds the queues and
messages, injects faults and plays the transaction coordinator.  Every step here
starts "the judge", "the application", "the coordinator" or "the client", words
no server scenario uses.
"""

from __future__ import annotations

import re

from pytest_bdd import given, then, when

from mqspec.adapters import MessageProperties
from mqspec.protocol.hresult import HRESULT, describe

from .blame import clause_failure
from .client_rules import RULES, judge
from .client_world import ClientWorld, SentMessage, body_of
from .packet_reader import read_sections
from .phrases import LABELS, phrase
from .values import hresult, labels

METHOD = r"R_\w+"
STATUS = r"[A-Z][A-Z0-9_]+|0x[0-9A-Fa-f]+|\d+"
WHOLE = 0x00400000


# -- the judge's scene --------------------------------------------------------------------------------
@given(phrase('the judge holds the {kind}queue "{queue}"', kind="|transactional "))
def judge_queue(world: ClientWorld, kind, queue):
    target = world.judge.target
    created = target.create_queue(f"{target.computer_name}\\private$\\{queue}", transactional=bool(kind))
    assert created.hresult == HRESULT.MQ_OK, f"the judge could not create {queue!r}: {describe(created.hresult)}"
    world.queues[queue] = created.pathname
    if created.format_name.upper().startswith("PRIVATE="):
        world.private_names[queue] = created.format_name
    if kind:
        world.transactional.add(queue)


@given(phrase('the judge holds the subqueue "{subqueue}" of "{queue}"'))
def judge_subqueue(world: ClientWorld, subqueue, queue):
    target = world.judge.target
    created = target.create_queue(f"{world.queues[queue]};{subqueue}")
    assert created.hresult == HRESULT.MQ_OK, f"the judge could not create {queue};{subqueue}: " \
                                             f"{describe(created.hresult)}"
    world.queues[f"{queue};{subqueue}"] = created.pathname


@given(phrase('the judge holds {names} in "{queue}"', names=LABELS))
def judge_messages(world: ClientWorld, names, queue):
    for number, label in enumerate(labels(names), start=1):
        _send(world, queue, label, MessageProperties(
            body=f"the body of {label}".encode(), label=label, priority=None if queue in world.transactional else 4,
            correlation_id=bytes([number]) * 20, application_tag=0x1000 + number,
            delivery="recoverable" if queue in world.transactional else "express"))


@given(phrase('the judge holds "{label}" of {size:d} bytes in "{queue}"'))
def judge_large_message(world: ClientWorld, label, size, queue):
    _send(world, queue, label, MessageProperties(body=bytes(range(256)) * (size // 256) + bytes(size % 256),
                                                 label=label))


def _send(world: ClientWorld, queue: str, label: str, properties: MessageProperties) -> None:
    target = world.judge.target
    format_name = world.judge_format_name(queue)
    uow = target.begin_transaction() if queue in world.transactional else None
    out = target.send(format_name, properties, uow)
    assert out.hresult == HRESULT.MQ_OK, f"the judge could not take {label!r}: {describe(out.hresult)}"
    if uow is not None:
        assert target.commit_transaction(uow) == HRESULT.MQ_OK
    world.sent[label] = SentMessage(properties, out.message_id)


@given(phrase("the judge will {answer} the next {method}", method=METHOD,
              answer=rf"throw (?:{STATUS}) at|answer (?:{STATUS}) to|answer the RPC fault (?:{STATUS}) to|"
                     "damage the packet sections of|drop the connection at|fill the ignored fields of the packet "
                     "of"))
def judge_injects(world: ClientWorld, answer, method):
    words = answer.split()
    if words[0] == "throw":
        kind, value = "hresult", hresult(words[1])
    elif words[:3] == ["answer", "the", "RPC"]:
        kind, value = "fault", hresult(words[4])
    elif words[0] == "answer":
        kind, value = "hresult", hresult(words[1])
    else:
        kind, value = {"damage": "damage", "drop": "drop", "fill": "noise"}[words[0]], 0
    world.judge.inject(method, kind, value)


# -- the application ----------------------------------------------------------------------------------
@given(phrase('the application opens "{queue}" to {access}', access="receive|peek"))
@when(phrase('the application opens "{queue}" to {access}', access="receive|peek"))
def application_opens(world: ClientWorld, queue, access):
    world.ask("open", queue=queue, format_name=world.format_name(queue), access=access, share="deny_none")


@when(phrase('the application opens "{queue}" by its PRIVATE= format name to {access}', access="receive|peek"))
def application_opens_by_private_name(world: ClientWorld, queue, access):
    """MS-MQMQ 2.1.4: QUEUE_FORMAT's OBJECTID arm (in NDR64 a structure with a trailing pad, MS-RPCE 2.2.5.3.4.1)."""
    world.ask("open", queue=queue, format_name=_private_name(world, queue), access=access, share="deny_none")


def _private_name(world: ClientWorld, queue: str) -> str:
    if queue not in world.private_names:
        raise AssertionError(f"the judge gave {queue!r} no PRIVATE= format name")
    return world.private_names[queue]


@given(phrase('the application opens "{queue}" to receive, denying others receive'))
@when(phrase('the application opens "{queue}" to receive, denying others receive'))
def application_opens_exclusive(world: ClientWorld, queue):
    world.ask("open", queue=queue, format_name=world.format_name(queue), access="receive", share="deny_receive")


@given(phrase('the application closes "{queue}"'))
@when(phrase('the application closes "{queue}"'))
def application_closes(world: ClientWorld, queue):
    world.ask("close", queue=queue)


READ_HOW = r'(?: in the transaction "[^"]*")?(?: wanting at most \d+ bytes of (?:body|compound message))?'


@given(phrase('the application {verb} "{queue}"{how}', verb="peeks at|receives from", how=READ_HOW))
@when(phrase('the application {verb} "{queue}"{how}', verb="peeks at|receives from", how=READ_HOW))
def application_reads(world: ClientWorld, verb, queue, how):
    world.ask("peek" if verb == "peeks at" else "receive", queue=queue, timeout=0, **_read_options(how))


def _read_options(how: str) -> dict:
    """' in the transaction "t" wanting at most 10 bytes of body' -> transaction, max_body / max_compound."""
    options = {}
    if '"' in how:
        options["transaction"] = how.split('"')[1]
    if "wanting at most" in how:
        size = int(how.split("wanting at most ")[1].split()[0])
        options["max_compound" if how.endswith("compound message") else "max_body"] = size
    return options


@given(phrase('the application {verb} "{label}" in "{queue}" by its lookup id{how}', verb="peeks at|receives",
             how=r"| in the transaction \"[^\"]*\""))
@when(phrase('the application {verb} "{label}" in "{queue}" by its lookup id{how}', verb="peeks at|receives",
             how=r"| in the transaction \"[^\"]*\""))
def application_reads_by_lookup_id(world: ClientWorld, verb, label, queue, how):
    args = {"queue": queue, "timeout": 0, "lookup_id": world.lookup_id(label), "seek": "current"}
    if how:
        args["transaction"] = how.split('"')[1]
    world.ask("peek" if verb == "peeks at" else "receive", **args)


@given(phrase('the application starts receiving from "{queue}" as "{request}", waiting up to {seconds:d} seconds'))
@when(phrase('the application starts receiving from "{queue}" as "{request}", waiting up to {seconds:d} seconds'))
def application_waits(world: ClientWorld, queue, request, seconds):
    world.begin("receive", queue=queue, timeout=seconds * 1000, wait=request)


@given(phrase('the application starts receiving with the cursor "{cursor}" as "{request}", waiting up to '
             '{seconds:d} seconds'))
@when(phrase('the application starts receiving with the cursor "{cursor}" as "{request}", waiting up to '
             '{seconds:d} seconds'))
def application_waits_with_cursor(world: ClientWorld, cursor, request, seconds):
    world.begin("cursor_receive", cursor=cursor, timeout=seconds * 1000, wait=request)


@given(phrase('the application cancels "{request}"'))
@when(phrase('the application cancels "{request}"'))
def application_cancels(world: ClientWorld, request):
    world.ask("cancel", request=request)


@given(phrase('the application waits for "{request}"'))
@when(phrase('the application waits for "{request}"'))
def application_waits_for(world: ClientWorld, request):
    assert request in world.waiting, f"no read called {request!r} was started in the background"
    world.finish(world.waiting[request])


@given(phrase('the application creates the cursor "{cursor}" on "{queue}"'))
@when(phrase('the application creates the cursor "{cursor}" on "{queue}"'))
def application_creates_cursor(world: ClientWorld, cursor, queue):
    world.ask("cursor", queue=queue, cursor=cursor)


@given(phrase('the application {verb} with the cursor "{cursor}"{how}',
             verb="peeks|peeks at the next message|receives", how=r"| in the transaction \"[^\"]*\""))
@when(phrase('the application {verb} with the cursor "{cursor}"{how}',
             verb="peeks|peeks at the next message|receives", how=r"| in the transaction \"[^\"]*\""))
def application_reads_with_cursor(world: ClientWorld, verb, cursor, how):
    if verb == "receives":
        args = {"cursor": cursor, "timeout": 0}
        if how:
            args["transaction"] = how.split('"')[1]
        world.ask("cursor_receive", **args)
    else:
        world.ask("cursor_peek", cursor=cursor, next=verb != "peeks", timeout=0)


@given(phrase('the application closes the cursor "{cursor}"'))
@when(phrase('the application closes the cursor "{cursor}"'))
def application_closes_cursor(world: ClientWorld, cursor):
    world.ask("close_cursor", cursor=cursor)


@given(phrase('the application purges "{queue}"'))
@when(phrase('the application purges "{queue}"'))
def application_purges(world: ClientWorld, queue):
    world.ask("purge", queue=queue)


@given(phrase('the application begins the transaction "{transaction}"'))
@when(phrase('the application begins the transaction "{transaction}"'))
def application_begins(world: ClientWorld, transaction):
    asked = world.ask("begin", transaction=transaction)
    made = asked.reply.get("transaction_id")
    assert asked.status == HRESULT.MQ_OK and isinstance(made, str) and len(made) == 32, \
        f"begin: the client answered {asked.reply}, not a status 0 and a transaction_id of 32 hex digits"
    world.transactions[transaction] = made.lower()


@given(phrase('the application rejects "{label}" in "{queue}"'))
@when(phrase('the application rejects "{label}" in "{queue}"'))
def application_rejects(world: ClientWorld, label, queue):
    world.ask("reject", queue=queue, lookup_id=world.lookup_id(label))


@given(phrase('the application moves "{label}" from "{queue}" to "{to}"{how}',
             how=r"| in the transaction \"[^\"]*\""))
@when(phrase('the application moves "{label}" from "{queue}" to "{to}"{how}',
             how=r"| in the transaction \"[^\"]*\""))
def application_moves(world: ClientWorld, label, queue, to, how):
    args = {"queue": queue, "lookup_id": world.lookup_id(label), "to": world.format_name(to)}
    if how:
        args["transaction"] = how.split('"')[1]
    world.ask("move", **args)


@when(phrase('the coordinator {outcome} "{transaction}"', outcome="commits|aborts"))
def coordinator_ends(world: ClientWorld, outcome, transaction):
    """MS-MQRR 2.2.8, 3.1.4.12: the transaction's outcome comes from its coordinator, here the suite."""
    uow = bytes.fromhex(world.transactions[transaction])
    target = world.judge.target
    status = target.commit_transaction(uow) if outcome == "commits" else target.abort_transaction(uow)
    assert status == HRESULT.MQ_OK, f"the judge could not {outcome[:-1]} {transaction!r}: {describe(status)}"
    world.ended[transaction] = len(world.records())


# -- what the application was told --------------------------------------------------------------------
@then(phrase('the application gets "{label}"'))
def application_gets(world: ClientWorld, label):
    message = world.message_of(world.last)
    _same_message(world, message, label, None)


@then(phrase('the application gets the first {size:d} bytes of "{label}"'))
def application_gets_part(world: ClientWorld, size, label):
    _same_message(world, world.message_of(world.last), label, size)


def _same_message(world: ClientWorld, message: dict, label: str, size: int | None) -> None:
    """MS-MQRR 3.2.4.3: the message the client rebuilt from the sections is the one the judge was given."""
    sent = world.sent[label]
    properties = sent.properties
    body = properties.body if size is None else properties.body[:size]
    wrong = []
    if message.get("label") != properties.label:
        wrong.append(f"label {message.get('label')!r}, not {properties.label!r}")
    if body_of(message) != body:
        wrong.append(f"a body of {len(body_of(message))} bytes that is not the {len(body)} sent")
    expected = {"class": properties.message_class, "correlation_id": properties.correlation_id.hex(),
                "app_specific": properties.application_tag, "message_id": sent.message_id.hex(),
                "body_size": len(properties.body)}
    if properties.priority is not None:
        expected["priority"] = properties.priority
    for name, value in expected.items():
        if name in message and (message[name].lower() if isinstance(message[name], str) else message[name]) != value:
            wrong.append(f"{name} {message[name]!r}, not {value!r}")
    if not isinstance(message.get("lookup_id"), int):
        wrong.append("no lookup_id")
    assert not wrong, f"the client rebuilt {label!r} wrong: " + "; ".join(wrong)


@then(phrase('the application gets "{label}" or is told {status}', status=STATUS))
def application_gets_or_is_told(world: ClientWorld, label, status):
    """MS-MQRR 3.2.4.4.1 MAY: a client may report success when R_EndReceive failed; either way is recorded."""
    told = world.last.status
    if told == HRESULT.MQ_OK:
        _same_message(world, world.message_of(world.last), label, None)
        world.node.user_properties.append(("observed", "success reported though R_EndReceive failed"))
        return
    assert told == hresult(status), f"{world.last.op}: the client told the application {describe(told)}, " \
                                    f"neither success nor {status}"
    world.node.user_properties.append(("observed", "R_EndReceive's failure reported"))


@then(phrase("the application is told {status}", status=rf"{STATUS}"))
def application_is_told(world: ClientWorld, status):
    wanted = hresult(status)
    assert world.last.status == wanted, \
        f"{world.last.op}: the client told the application {describe(world.last.status)}, not {describe(wanted)}"


@then(phrase("the application is told of {outcome}", outcome="success|a failure"))
def application_is_told_outcome(world: ClientWorld, outcome):
    told = world.last.status
    if outcome == "success":
        assert told == HRESULT.MQ_OK, f"{world.last.op}: the client told the application {describe(told)}"
    else:
        assert told != HRESULT.MQ_OK, f"{world.last.op}: the client told the application it succeeded"


@then(phrase('"{request}" ends with {status}', status=STATUS))
def waiting_read_ends(world: ClientWorld, request, status):
    asked = world.waiting[request]
    if asked.reply is None:
        world.finish(asked)
    wanted = hresult(status)
    assert asked.status == wanted, f"{request}: the client told the application {describe(asked.status)}, " \
                                   f"not {describe(wanted)}"


@then(phrase('the judge\'s "{queue}" holds {names}', names=LABELS))
def judge_holds(world: ClientWorld, queue, names):
    out = world.judge.target.read_queue(world.judge_format_name(queue))
    assert out.hresult == HRESULT.MQ_OK, f"the judge could not read {queue!r}: {describe(out.hresult)}"
    held = [read_sections(message.pp_packet_sections, WHOLE, WHOLE).label for message in out.messages]
    assert held == labels(names), f"the judge's {queue!r} holds {held}, not {labels(names)}"


# -- the client's calls -------------------------------------------------------------------------------
@then(phrase("the client {rule}", rule="|".join(re.escape(sentence) for sentence in RULES)))
def client_keeps(world: ClientWorld, rule):
    problems = judge(world, rule)
    if not problems:
        return
    message = f"the client broke the rule that it {rule} ({', '.join(RULES[rule].clauses)}):\n  " + \
        "\n  ".join(problems)
    only = RULES[rule].clauses[0] if len(RULES[rule].clauses) == 1 else None
    cause = next((problem.clause for problem in problems if getattr(problem, "clause", None)), only)
    if cause:   # the one clause the broken promise names: the cause (steps/blame.py)
        raise clause_failure(message, cause)
    raise AssertionError(message)
