"""The control interface refuses what no server could do (issue 20, part 6; adapters/mqrr/control.py, control_args.py).

Each kind of bad argument is refused in one error line and changes nothing; a request too large, too full of
separators or too deep is faulted RPC_X_BAD_STUB_DATA at once, with no traceback; a send the queue manager's
quota refuses is an error HRESULT (D-131); on a server with accounts only operators set scenes up (D-130).
"""

from __future__ import annotations

import base64
import json
import time

import pytest
from impacket import ntlm

from mqspec.adapters import MessageProperties, connect
from mqspec.adapters.in_process import InProcessTarget
from mqspec.adapters.mqrr.control import INVOKE, MAX_REQUEST, ControlError, ControlService, loads
from mqspec.adapters.serve import serve
from mqspec.adapters.wire.dcerpc_auth import Users
from mqspec.protocol.hresult import HRESULT, RpcStatus

B64 = {"$bytes": "aGVsbG8="}   # b"hello"


@pytest.fixture(scope="module")
def served():
    hosted, lines = InProcessTarget(), []
    with serve(hosted, log=lines.append) as running, connect(f"mqrr://127.0.0.1:{running.port}") as client:
        yield hosted, client, lines
    hosted.close()


@pytest.fixture
def scene(served):
    hosted, client, lines = served
    client.reset()
    queue = client.create_queue(".\\private$\\inbox").format_name
    return hosted, client, lines, queue


def raw(client, text: str | bytes) -> tuple[int | None, dict | None]:
    """A request stub as it is: (fault status, reply)."""
    stub = text.encode() if isinstance(text, str) else text
    status, answer = client._control.pool.call(INVOKE, stub, 30)
    return status, (loads(answer) if status is None else None)


def request(op: str, **args) -> str:
    return json.dumps({"op": op, "args": args})


# Each kind of bad argument: the request (as JSON text, so that Infinity and text bodies can be written) and
# what the error line must name.
REFUSED = {
    "clock step Infinity": ('{"op":"elapse","args":{"ms":Infinity}}', "ms"),
    "clock step NaN": ('{"op":"elapse","args":{"ms":NaN}}', "ms"),
    "clock step negative": (request("elapse", ms=-1), "ms"),
    "clock step fractional": (request("elapse", ms=1.5), "ms"),
    "clock step text": (request("elapse", ms="10"), "ms"),
    "clock step past 2**53": (request("elapse", ms=2 ** 53), "ms"),
    "queue manager quota 2**70": (request("set_queue_manager_quota", quota=2 ** 70), "quota"),
    "queue manager quota -1": (request("set_queue_manager_quota", quota=-1), "quota"),
    "queue manager quota true": (request("set_queue_manager_quota", quota=True), "quota"),
    "queue quota -1": (request("create_queue", pathname=".\\private$\\q", quota=-1), "quota"),
    "queue quota 2**70": (request("create_queue", pathname=".\\private$\\q", quota=2 ** 70), "quota"),
    "pathname not text": (request("create_queue", pathname=7), "pathname"),
    "security malformed": (request("create_queue", pathname=".\\private$\\q", security={"dacl": 5}), "security"),
    "unknown argument": (request("reset", everything=True), "everything"),
    "missing argument": (request("elapse"), "ms"),
    "uow of 3 bytes": (request("commit_transaction", uow=B64), "uow"),
    "rundown wait of a day": (request("await_rundown", association=1, timeout_ms=86_400_000), "timeout_ms"),
    "configure with text": (request("configure", pending_request_cleanup_ms="5"), "pending_request_cleanup_ms"),
    "port count as text": (request("restart_holding_ports", count="1"), "count"),
}
SEND_REFUSED = {
    "body as text": ({"body": "hello"}, "body"),
    "body as a number": ({"body": 5}, "body"),
    "label as bytes": ({"label": B64}, "label"),
    "correlation id of 5 bytes": ({"correlation_id": B64}, "correlation_id"),
    "priority fractional": ({"priority": 1.5}, "priority"),
    "delivery unknown": ({"delivery": "by pigeon"}, "delivery"),
    "time to be received 2**40": ({"time_to_be_received": 2 ** 40}, "time_to_be_received"),
    "flag as text": ({"positive_journaling": "yes"}, "positive_journaling"),
    "extra holding a table": ({"extra": {"tracing_requested": {"a": 1}}}, "extra"),
    "unknown property": ({"colour": "blue"}, "colour"),
}


@pytest.mark.parametrize("text, named", REFUSED.values(), ids=REFUSED.keys())
def test_each_kind_of_bad_argument_is_one_error_line_and_changes_nothing(scene, text, named):
    hosted, client, lines, queue = scene
    clock, quota, queues = hosted._core.clock.now_ms(), hosted.qm.queue_manager_quota, len(hosted.qm.queue_collection)
    status, reply = raw(client, text)
    assert status is None and reply.get("capability") is None, (status, reply)
    error = reply["error"]
    assert named in error and "\n" not in error and len(error) < 300, error
    assert (hosted._core.clock.now_ms(), hosted.qm.queue_manager_quota, len(hosted.qm.queue_collection)) == \
        (clock, quota, queues)
    client.elapse(10)   # the server still serves, its clock a whole number
    assert isinstance(hosted._core.clock.now_ms(), int)


@pytest.mark.parametrize("properties, named", SEND_REFUSED.values(), ids=SEND_REFUSED.keys())
def test_a_send_with_a_property_of_the_wrong_kind_is_refused_and_stores_nothing(scene, properties, named):
    hosted, client, lines, queue = scene
    status, reply = raw(client, request("send", format_name=queue, properties=properties))
    assert status is None and named in reply["error"] and "\n" not in reply["error"], (status, reply)
    listed = client.list_messages(queue)
    assert listed.hresult == HRESULT.MQ_OK and listed.messages == ()   # nothing kept that cannot be read


def test_an_extra_property_of_the_wrong_type_is_refused_by_the_queue_manager(scene):
    """What the control interface cannot know (each extra property's type) the in-process target checks."""
    hosted, client, lines, queue = scene
    out = client.send(queue, MessageProperties(label="x", extra={"tracing_requested": "yes"}))
    assert out.hresult == HRESULT.MQ_ERROR_ILLEGAL_PROPERTY_VALUE
    assert client.list_messages(queue).messages == ()


def test_the_sends_the_checks_let_through_can_be_read(scene):
    hosted, client, lines, queue = scene
    out = client.send(queue, MessageProperties(body=b"hello", label="ok", priority=3, correlation_id=bytes(20),
                                               extra={"tracing_requested": True}))
    assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0)
    assert len(client.read_queue(queue).messages) == 1 and len(client.list_messages(queue).messages) == 1


def test_the_elapse_the_clock_takes_is_a_whole_number(scene):
    hosted, client, lines, queue = scene
    before = hosted._core.clock.now_ms()
    client.elapse(400 * 86_400_000)   # 400 days: more than 32 bits of milliseconds, as a scenario asks
    assert hosted._core.clock.now_ms() == before + 400 * 86_400_000


def test_a_send_refused_by_the_queue_manager_quota_is_an_error_hresult(scene):
    """D-131 (issue 20: it was hresult 0 with r_status 2)."""
    hosted, client, lines, queue = scene
    client.set_queue_manager_quota(1000)
    out = client.send(queue, MessageProperties(body=bytes(2000)))
    assert out.hresult == HRESULT.MQ_ERROR_INSUFFICIENT_RESOURCES and out.r_status == 2
    assert client.list_messages(queue).messages == ()


@pytest.mark.parametrize("depth", [20, 900, 100_000])
def test_deep_json_is_bad_stub_data_with_no_traceback(scene, depth):
    hosted, client, lines, queue = scene
    status, _ = raw(client, '{"op":"identity","args":{"x":' + "[" * depth + "]" * depth + "}}")
    assert status == RpcStatus.RPC_X_BAD_STUB_DATA
    assert not [line for line in lines if "Traceback" in line]
    assert client.list_messages(queue).hresult == HRESULT.MQ_OK


@pytest.mark.parametrize("stub", [
    pytest.param('{"op":"identity","args":{' + ",".join(f'"k{n}":0' for n in range(200_000)) + "}}",
                 id="200,000 keys"),
    pytest.param('{"op":"identity","args":{"x":"' + "a" * (MAX_REQUEST + 1) + '"}}', id="above MAX_REQUEST"),
    pytest.param('{"op":"send","args":{"format_name":"x","properties":{"body":{"$bytes":"not base64!"}}}}',
                 id="bytes that are not base64"),
])
def test_a_request_too_large_or_malformed_is_refused_before_it_holds_the_loop(scene, stub):
    hosted, client, lines, queue = scene
    started = time.monotonic()
    status, _ = raw(client, stub)
    assert status == RpcStatus.RPC_X_BAD_STUB_DATA
    assert time.monotonic() - started < 2.0   # sending it takes most of that; parsing would take seconds more


PASSWORDS = {"alice": "Passw0rd!", "bob": "S3cond!"}


@pytest.fixture(scope="module")
def with_accounts():
    hosted = InProcessTarget()
    users = Users({name: ntlm.compute_nthash(password) for name, password in PASSWORDS.items()})
    with serve(hosted, users=users, auth_level=2, log=lambda line: None) as running:
        yield hosted, f"mqrr://127.0.0.1:{running.port}"
    hosted.close()


def as_user(url: str, name: str):
    return connect(f"{url}?user={name}&password={PASSWORDS[name]}&auth=privacy")


def test_only_an_operator_sets_scenes_up_on_a_server_with_accounts(with_accounts):
    """D-130: bob, who cannot open alice's access-listed queue over MS-MQRR, cannot read its bodies through
    list_messages nor delete it through delete_queue either; the first account of the users file (alice) can."""
    hosted, url = with_accounts
    with as_user(url, "alice") as alice, as_user(url, "bob") as bob:
        alice.reset()
        private = {"owner": "alice", "dacl": [["allow", "alice", 0xF003F]]}
        queue = alice.create_queue(".\\private$\\secret", security=private).format_name
        assert alice.send(queue, MessageProperties(body=b"for alice")).hresult == HRESULT.MQ_OK
        assert bob.computer_name == alice.computer_name   # identity: anyone may ask who the server is
        for refused in (lambda: bob.list_messages(queue), lambda: bob.delete_queue(queue), bob.reset,
                        lambda: bob.elapse(1), lambda: bob.send(queue, MessageProperties(body=b"x"))):
            with pytest.raises(ControlError) as error:
                refused()
            assert "'bob' is not an operator" in str(error.value) and "\n" not in str(error.value)
        assert [m.packet.count(b"for alice") for m in alice.list_messages(queue).messages] == [1]
        assert alice.delete_queue(queue) == HRESULT.MQ_OK


def test_operators_are_accounts_of_the_users_file():
    hosted = InProcessTarget()
    users = Users({"alice": bytes(16)})
    try:
        with pytest.raises(ValueError, match="carol"):
            serve(hosted, users=users, auth_level=2, operators=["carol"], log=lambda line: None)
    finally:
        hosted.close()


def test_the_largest_packet_is_sent_through_the_control_interface_off_the_loop(scene):
    """A body of 4 MiB less its headers (MS-MQMQ 2.2.19.1's largest packet) fits under MAX_REQUEST, and a request
    that large is parsed on a worker thread, not on the event loop."""
    hosted, client, lines, queue = scene
    served_control = ControlService(hosted, frozenset(), None)
    body = bytes(range(256)) * (4 * 1024 * 1024 // 256 - 4)
    stub = request("send", format_name=queue, properties={"body": {"$bytes": base64.b64encode(body).decode()}})
    assert len(stub) <= MAX_REQUEST and served_control.may_block(INVOKE, stub.encode())
    assert not served_control.may_block(INVOKE, request("elapse", ms=1).encode())
    client.set_queue_manager_quota(0xFFFFFFFF)
    out = client.send(queue, MessageProperties(body=body))
    assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0)
    assert [m.packet.count(body) for m in client.list_messages(queue).messages] == [1]
