"""Steps that read: R_StartReceive in its forms, End/Cancel, and what came back."""

from __future__ import annotations

from pytest_bdd import then, when

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .phrases import phrase
from .values import hresult, number
from .world import MAX_SIZE, World

PEEK_CURRENT, PEEK_NEXT, RECEIVE = (number("MQ_ACTION_PEEK_CURRENT"), number("MQ_ACTION_PEEK_NEXT"),
                                    number("MQ_ACTION_RECEIVE"))
RR_ACK = number("RR_ACK")


def _argument(world: World, name: str, text: str) -> int:
    """A cell of a call table: numbers, constants, cursor names, or `id of "label"`."""
    text = text.strip()
    if text.startswith("id of "):
        return world.lookup_id(text[len("id of "):].strip('"'))
    if name == "hCursor" and text in world.cursors:
        return world.cursors[text][1]
    return number(text)


def start_receive(world: World, handle: str, lookup_id=0, h_cursor=0, ul_action=RECEIVE, ul_timeout=0,
                  dw_request_id=None, dw_max_body_size=MAX_SIZE, dw_max_compound_message_size=MAX_SIZE,
                  transaction: str | None = None):
    request_id = world.request_id() if dw_request_id is None else dw_request_id
    world.max_body = min(dw_max_body_size, dw_max_compound_message_size)
    if transaction is None:
        out = world.target.start_receive(world.handle(handle), lookup_id, h_cursor, ul_action, ul_timeout,
                                         request_id, dw_max_body_size, dw_max_compound_message_size)
    else:
        out = world.target.start_transactional_receive(
            world.handle(handle), lookup_id, h_cursor, ul_action, ul_timeout, request_id, dw_max_body_size,
            dw_max_compound_message_size, world.transactions.get(transaction))
    world.record(out)
    world.max_body = MAX_SIZE
    return out, request_id


@when(phrase('R_StartReceive is called on "{handle}" with:'))
def start_receive_table(world, handle, datatable):
    header, row = datatable[0], datatable[1]
    arguments = {name: _argument(world, name, value) for name, value in zip(header, row)}
    mapping = {"LookupId": "lookup_id", "hCursor": "h_cursor", "ulAction": "ul_action", "ulTimeout": "ul_timeout",
               "dwRequestId": "dw_request_id", "dwMaxBodySize": "dw_max_body_size",
               "dwMaxCompoundMessageSize": "dw_max_compound_message_size"}
    start_receive(world, handle, **{mapping[name]: value for name, value in arguments.items()})


@when(phrase('R_StartTransactionalReceive is called on "{handle}" in transaction "{tx}" with:'))
def start_transactional_receive_table(world, handle, tx, datatable):
    header, row = datatable[0], datatable[1]
    arguments = {name: _argument(world, name, value) for name, value in zip(header, row)}
    mapping = {"LookupId": "lookup_id", "hCursor": "h_cursor", "ulAction": "ul_action", "ulTimeout": "ul_timeout",
               "dwRequestId": "dw_request_id"}
    start_receive(world, handle, transaction=tx, **{mapping[name]: value for name, value in arguments.items()})


@when(phrase('the client peeks at "{handle}"'))
def peek_front(world, handle):
    start_receive(world, handle, ul_action=PEEK_CURRENT)


@when(phrase('the client receives from "{handle}"'))
def receive_front(world, handle):
    """A whole receive: R_StartReceive, then R_EndReceive with RR_ACK (MS-MQRR 3.2.4.4.1)."""
    out, request_id = start_receive(world, handle)
    if out.hresult == HRESULT.MQ_OK:
        end = world.target.end_receive(world.handle(handle), RR_ACK, request_id)
        assert end == HRESULT.MQ_OK, f"R_EndReceive: {describe_hresult(end)}"


@when(phrase('the client receives and acknowledges {count:d} messages from "{handle}"'))
def receive_many(world, handle, count):
    """Whole receives, one after the other, each ended with RR_ACK: every one must succeed."""
    for done in range(count):
        out, request_id = start_receive(world, handle)
        assert out.hresult == HRESULT.MQ_OK, f"receive {done + 1} of {count}: {describe_hresult(out.hresult)}"
        end = world.target.end_receive(world.handle(handle), RR_ACK, request_id)
        assert end == HRESULT.MQ_OK, f"R_EndReceive {done + 1} of {count}: {describe_hresult(end)}"


@when(phrase('the client starts a receive on "{handle}" as "{request}"'))
def start_receive_as(world, handle, request):
    out, request_id = start_receive(world, handle)
    world.requests[request] = (handle, request_id)


@when(phrase('the client starts a receive on "{handle}" in transaction "{tx}" as "{request}"'))
def start_transactional_receive_as(world, handle, tx, request):
    out, request_id = start_receive(world, handle, transaction=tx)
    world.requests[request] = (handle, request_id)


@when(phrase('the client ends "{request}" with {ack}', ack=r"\w+"))
def end_request(world, request, ack):
    handle, request_id = world.requests[request]
    world.record(world.target.end_receive(world.handle(handle), number(ack), request_id))


@when(phrase('the client ends transactional "{request}" with {ack}', ack=r"\w+"))
def end_transactional_request(world, request, ack):
    handle, request_id = world.requests[request]
    world.record(world.target.end_transactional_receive(world.handle(handle), number(ack), request_id))


@when(phrase('the client cancels "{request}"'))
def cancel_request(world, request):
    handle, request_id = world.requests[request]
    world.record(world.target.cancel_receive(world.handle(handle), request_id))


@when(phrase('cursor "{cursor}" peeks the current message'))
def cursor_peek_current(world, cursor):
    handle, h_cursor = world.cursors[cursor]
    start_receive(world, handle, h_cursor=h_cursor, ul_action=PEEK_CURRENT)


@when(phrase('cursor "{cursor}" peeks the next message'))
def cursor_peek_next(world, cursor):
    handle, h_cursor = world.cursors[cursor]
    start_receive(world, handle, h_cursor=h_cursor, ul_action=PEEK_NEXT)


@when(phrase('cursor "{cursor}" receives'))
def cursor_receive(world, cursor):
    handle, h_cursor = world.cursors[cursor]
    out, request_id = start_receive(world, handle, h_cursor=h_cursor, ul_action=RECEIVE)
    if out.hresult == HRESULT.MQ_OK:
        end = world.target.end_receive(world.handle(handle), RR_ACK, request_id)
        assert end == HRESULT.MQ_OK, f"R_EndReceive: {describe_hresult(end)}"


@when(phrase('the client {verb} "{label}" by lookup id with {action} on "{handle}"', verb="peeks|receives|locks", action=r"\w+"))
def by_lookup_id(world, verb, label, action, handle):
    out, request_id = start_receive(world, handle, lookup_id=world.lookup_id(label), ul_action=number(action))
    if verb == "receives" and out.hresult == HRESULT.MQ_OK:
        end = world.target.end_receive(world.handle(handle), RR_ACK, request_id)
        assert end == HRESULT.MQ_OK, f"R_EndReceive: {describe_hresult(end)}"
    elif verb == "locks":
        world.requests[label] = (handle, request_id)


@when(phrase('the client waits on "{handle}" for up to {timeout} ms in the background as "{request}"', timeout=r"\w+"))
def receive_in_background(world, handle, timeout, request):
    request_id, context = world.request_id(), world.handle(handle)
    world.in_background(request, handle, request_id, "start_receive",
                        context, 0, 0, RECEIVE, number(timeout), request_id, MAX_SIZE, MAX_SIZE)


@when(phrase('the background call "{request}" completes'))
def background_completes(world, request):
    job = world.background[request]
    job.thread.join(timeout=10)
    assert not job.thread.is_alive(), f"{request!r} did not complete within 10 s"
    world.record(job.result)


@then(phrase("the call returns {status}", status=r"\w+"))
def call_returns(world, status):
    assert world.status_is(hresult(status)), f"got {describe_hresult(world.status)}, expected {status}"


@then(phrase('the message returned is "{label}"'))
def message_returned(world, label):
    assert world.status == HRESULT.MQ_OK, f"the call failed: {describe_hresult(world.status)}"
    assert world.decoded is not None, "no message came back"
    assert world.decoded.label == label, f"got {world.decoded.label!r}, expected {label!r}"


