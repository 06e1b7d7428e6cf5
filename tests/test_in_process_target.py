"""The in-process Target (adapters.in_process) as the suite sees it: real threads, virtual time.

A blocking Start*Receive must really wait and return when another thread sends or cancels, or
when `elapse` carries the target's clock past its time-out, and never before that however long it
waits in real time; no call may raise for bad input; `connect` must refuse a bad URL with a
one-line TargetError.  The waits are a few hundred milliseconds each.
"""

from __future__ import annotations

import threading
import time

import pytest

import mqspec.adapters as adapters
from mqspec.adapters import MessageProperties, TargetError, connect
from mqspec.protocol.constants import INFINITE, Access, Ack, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import QueueFormat, from_format_name as queue_format
from mqspec.steps.packet_reader import read_sections

URL = "reference?queue_manager_quota=100000000&pending_request_cleanup_ms=500"
BIG = 1 << 20
RECEIVE, PEEK = Action.MQ_ACTION_RECEIVE, Action.MQ_ACTION_PEEK_CURRENT
KNOWN_STATUSES = set(HRESULT._value2member_map_)


@pytest.fixture
def target():
    with connect(URL) as t:
        yield t


@pytest.fixture
def queue(target):
    out = target.create_queue(f"{target.computer_name}\\private$\\orders")
    assert out.hresult == HRESULT.MQ_OK
    return out.format_name


def open_handle(target, format_name, access=Access.RECEIVE_ACCESS, share=ShareMode.MQ_DENY_NONE) -> bytes:
    out = target.open_queue(queue_format(format_name), access, share)
    assert out.hresult == HRESULT.MQ_OK
    return out.pph_context


class Blocked:
    """A call run in another thread; records its result and how long it took."""

    def __init__(self, call):
        self.result = None
        self.elapsed = None
        self.error = None

        def run():
            begin = time.monotonic()
            try:
                self.result = call()
            except BaseException as error:  # reported by join()
                self.error = error
            self.elapsed = time.monotonic() - begin

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def join(self, timeout: float = 5.0):
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the blocked call never returned"
        if self.error is not None:
            raise self.error
        return self.result


def label(out) -> str:
    return read_sections(out.pp_packet_sections, BIG, BIG).label


# -- a blocking Start*Receive really waits (MS-MQRR 3.1.4.7, 3.1.4.8, 3.1.2.1) ------------------

def test_mqrr_3_1_4_7_blocking_receive_returns_when_another_thread_sends(target, queue):
    """MS-MQRR:3.1.4.7:19 a receive with a time-out and no message blocks in real time until another thread's send
    arrives, then returns MQ_OK with that message (and the receive ends with R_EndReceive)."""
    handle = open_handle(target, queue)
    blocked = Blocked(lambda: target.start_receive(handle, 0, 0, RECEIVE, 10_000, 1, BIG, BIG))
    time.sleep(0.3)
    assert blocked.thread.is_alive()
    assert target.get_server_port() == 2103  # other callers are not blocked meanwhile
    assert target.send(queue, MessageProperties(body=b"hello", label="late")).hresult == HRESULT.MQ_OK
    out = blocked.join()
    assert out.hresult == HRESULT.MQ_OK and label(out) == "late"
    assert 0.25 <= blocked.elapsed < 3.0
    assert target.end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    assert target.read_queue(queue).messages == ()


@pytest.mark.parametrize("action", [RECEIVE, PEEK])
def test_mqrr_3_1_4_8_04_cancel_from_another_thread(target, queue, action):
    """MS-MQRR:3.1.4.8:04 / D-18 R_CancelReceive from another thread ends the blocked call (receive or peek) with
    MQ_ERROR_OPERATION_CANCELLED; the cancel itself returns MQ_OK."""
    handle = open_handle(target, queue)
    blocked = Blocked(lambda: target.start_receive(handle, 0, 0, action, INFINITE, 42, BIG, BIG))
    time.sleep(0.2)
    assert blocked.thread.is_alive()
    assert target.cancel_receive(handle, 42) == HRESULT.MQ_OK
    out = blocked.join()
    assert out.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED and out.pp_packet_sections == ()
    assert 0.15 <= blocked.elapsed < 3.0
    assert target.cancel_receive(handle, 42) == HRESULT.STATUS_NOT_FOUND  # D-54 nothing waits any more


def test_mqrr_3_1_2_1_01_blocking_receive_times_out_in_virtual_time(target, queue):
    """MS-MQRR:3.1.2.1:01 / D-02 with nothing arriving the call waits however long real time runs, and returns
    MQ_ERROR_IO_TIMEOUT once elapse() has carried the clock to ulTimeout, not a millisecond earlier."""
    handle = open_handle(target, queue)
    blocked = Blocked(lambda: target.start_receive(handle, 0, 0, RECEIVE, 300, 1, BIG, BIG))
    time.sleep(0.4)  # more real time than the time-out: a real clock would have ended the wait
    assert blocked.thread.is_alive()
    target.elapse(299)
    time.sleep(0.05)
    assert blocked.thread.is_alive()
    target.elapse(1)
    assert blocked.join().hresult == HRESULT.MQ_ERROR_IO_TIMEOUT
    assert target.end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_INVALID_HANDLE  # D-52 no entry left


def test_a_second_client_that_drops_releases_what_it_held(target, queue):
    """MS-MQRR:3.1.6.2:01 a client's connection lost in the middle of a two-phase receive: its handle is run
    down, the message is Available again for the first client, and the handle no longer works."""
    assert target.send(queue, MessageProperties(body=b"x", label="m")).hresult == HRESULT.MQ_OK
    other = target.connection()
    handle = open_handle(other, queue)
    assert label(other.start_receive(handle, 0, 0, RECEIVE, 0, 5, BIG, BIG)) == "m"
    assert [m.state for m in target.list_messages(queue).messages] == ["Locked"]
    other.drop()
    assert [m.state for m in target.list_messages(queue).messages] == ["Available"]
    assert target.end_receive(handle, Ack.RR_ACK, 5) == HRESULT.MQ_ERROR_INVALID_HANDLE
    mine = open_handle(target, queue)
    assert label(target.start_receive(mine, 0, 0, RECEIVE, 0, 6, BIG, BIG)) == "m"


def test_a_drop_cancels_the_clients_blocked_receive(target, queue):
    """MS-MQRR:3.1.6.2:01 / MS-MQDMPR 3.1.7.1.6 a client lost while its receive waits: Close Queue ends the wait
    with MQ_ERROR_OPERATION_CANCELLED."""
    other = target.connection()
    handle = open_handle(other, queue)
    blocked = Blocked(lambda: other.start_receive(handle, 0, 0, RECEIVE, INFINITE, 9, BIG, BIG))
    time.sleep(0.1)
    other.drop()
    assert blocked.join().hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED


def test_d03_zero_timeout_returns_at_once(target, queue):
    """D-03 ulTimeout 0 on an empty queue: MQ_ERROR_IO_TIMEOUT without waiting."""
    handle = open_handle(target, queue)
    begin = time.monotonic()
    assert target.start_receive(handle, 0, 0, PEEK, 0, 1, BIG, BIG).hresult == HRESULT.MQ_ERROR_IO_TIMEOUT
    assert time.monotonic() - begin < 0.2


# -- elapse() moves the target's clock at once ------------------------------------------------

def test_target_elapse_fires_time_to_be_received_at_once(target, queue):
    """Target.elapse (MS-MQDMPR 3.1.2.4) an hour of Time To Be Received passes in a moment: the message is gone."""
    assert target.send(queue, MessageProperties(body=b"x", time_to_be_received=3600)).hresult == HRESULT.MQ_OK
    assert target.send(queue, MessageProperties(body=b"y", label="stays")).hresult == HRESULT.MQ_OK
    target.elapse(3_599_000)
    assert len(target.read_queue(queue).messages) == 2
    begin = time.monotonic()
    target.elapse(1_000)
    assert time.monotonic() - begin < 0.5
    assert [label(m) for m in target.read_queue(queue).messages] == ["stays"]


def test_target_elapse_ends_a_blocked_wait(target, queue):
    """Target.elapse past a blocked receive's ulTimeout ends it with MQ_ERROR_IO_TIMEOUT long before the real
    time-out."""
    handle = open_handle(target, queue)
    blocked = Blocked(lambda: target.start_receive(handle, 0, 0, RECEIVE, 600_000, 1, BIG, BIG))
    time.sleep(0.1)
    target.elapse(600_001)
    out = blocked.join(timeout=3.0)
    assert out.hresult == HRESULT.MQ_ERROR_IO_TIMEOUT and blocked.elapsed < 2.0


def test_mqrr_3_1_5_1_01_cleanup_timer_through_elapse(target, queue):
    """MS-MQRR:3.1.5.1:01 / 3.1.2.2:02 with pending_request_cleanup_ms=500, an unfinished receive's message is
    Available again once 500 ms have passed (here by elapse)."""
    target.send(queue, MessageProperties(body=b"x", label="m"))
    handle = open_handle(target, queue)
    assert target.start_receive(handle, 0, 0, RECEIVE, 0, 1, BIG, BIG).hresult == HRESULT.MQ_OK
    peeker = open_handle(target, queue, Access.PEEK_ACCESS)
    assert target.start_receive(peeker, 0, 0, PEEK, 0, 1, BIG, BIG).hresult == HRESULT.MQ_ERROR_IO_TIMEOUT
    target.elapse(500)
    assert label(target.start_receive(peeker, 0, 0, PEEK, 0, 1, BIG, BIG)) == "m"
    assert target.end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_INVALID_HANDLE


# -- read_queue ---------------------------------------------------------------------------------

def test_target_read_queue_lists_messages_front_to_back(target, queue):
    """Target.read_queue lists every message of a queue in queue order (priority 7..0, then arrival), with the
    sequence ids a lookup peek gives, and leaves the queue as it was (no handle left open)."""
    for name, priority in [("a", 3), ("b", 5), ("c", 3), ("d", 0), ("e", 5)]:
        assert target.send(queue, MessageProperties(body=name.encode(), label=name, priority=priority)).hresult == 0
    out = target.read_queue(queue)
    assert out.hresult == HRESULT.MQ_OK
    assert [label(m) for m in out.messages] == ["b", "e", "a", "c", "d"]
    handle = open_handle(target, queue, Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_SHARE)  # nothing else open
    for message in out.messages:
        peek = target.start_receive(handle, message.p_sequence_id, 0, Action.MQ_LOOKUP_PEEK_CURRENT, 0, 1, BIG, BIG)
        assert peek.pp_packet_sections == message.pp_packet_sections
    assert len(target.read_queue(queue).messages) == 5


def test_target_read_queue_of_an_empty_or_missing_queue(target, queue):
    """Target.read_queue: an empty queue gives MQ_OK and no messages; a missing one its open status."""
    assert target.read_queue(queue) == adapters.target.ReadQueueOut(HRESULT.MQ_OK, ())
    assert target.read_queue(f"DIRECT=OS:{target.computer_name}\\private$\\nosuch").hresult == \
        HRESULT.MQ_ERROR_QUEUE_NOT_FOUND
    assert target.read_queue("not a format name").hresult == HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME


def test_target_read_queue_reads_the_journal(target, queue):
    """Target.read_queue reads system queues too: a received message of a journaling queue is in its journal."""
    out = target.create_queue(f"{target.computer_name}\\private$\\kept", journaling=True)
    target.send(out.format_name, MessageProperties(body=b"x", label="journaled"))
    handle = open_handle(target, out.format_name)
    assert target.start_receive(handle, 0, 0, RECEIVE, 0, 1, BIG, BIG).hresult == HRESULT.MQ_OK
    assert target.end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    assert [label(m) for m in target.read_queue(out.format_name + ";JOURNAL").messages] == ["journaled"]


# -- bad input never raises ---------------------------------------------------------------------

GARBAGE_HANDLES = [bytes(20), b"\xff" * 20, b"", b"short", None]
ABSURD = [0, 0xFFFFFFFF, (1 << 64) - 1]


def _status(result) -> int:
    return result if isinstance(result, int) else result.hresult


def _calls(target, queue):
    h_ok = open_handle(target, queue)
    calls = []
    for h in GARBAGE_HANDLES:
        calls += [
            ("close_queue", lambda h=h: target.close_queue(h)),
            ("create_cursor", lambda h=h: target.create_cursor(h)),
            ("close_cursor", lambda h=h: target.close_cursor(h, 1)),
            ("purge_queue", lambda h=h: target.purge_queue(h)),
            ("start_receive", lambda h=h: target.start_receive(h, 0, 0, RECEIVE, 0, 1, BIG, BIG)),
            ("start_transactional_receive",
             lambda h=h: target.start_transactional_receive(h, 0, 0, RECEIVE, 0, 1, BIG, BIG, bytes(range(16)))),
            ("cancel_receive", lambda h=h: target.cancel_receive(h, 1)),
            ("end_receive", lambda h=h: target.end_receive(h, Ack.RR_ACK, 1)),
            ("end_transactional_receive", lambda h=h: target.end_transactional_receive(h, Ack.RR_ACK, 1)),
            ("move_message", lambda h=h: target.move_message(h, 1, 1, bytes(16))),
            ("set_user_acknowledgement_class", lambda h=h: target.set_user_acknowledgement_class(h, 1, 0xC004)),
        ]
    for n in ABSURD:
        calls += [
            ("start_receive", lambda n=n: target.start_receive(h_ok, n, n, n, n, n, n, n)),
            ("start_receive lookup", lambda n=n: target.start_receive(h_ok, n, 0, Action.MQ_LOOKUP_PEEK_CURRENT, 0,
                                                                        n, n, n)),
            ("start_transactional_receive",
             lambda n=n: target.start_transactional_receive(h_ok, n, n, n, n, n, n, n, b"\xee" * 16)),
            ("close_cursor", lambda n=n: target.close_cursor(h_ok, n)),
            ("cancel_receive", lambda n=n: target.cancel_receive(h_ok, n)),
            ("end_receive", lambda n=n: target.end_receive(h_ok, n, n)),
            ("end_transactional_receive", lambda n=n: target.end_transactional_receive(h_ok, n, n)),
            ("move_message", lambda n=n: target.move_message(h_ok, n, n, b"\x01" * 16)),
            ("qm_enlist_remote_transaction", lambda n=n: target.qm_enlist_remote_transaction(b"\x01" * 16, n, b"t",
                                                                                            None)),
            ("set_user_acknowledgement_class", lambda n=n: target.set_user_acknowledgement_class(h_ok, n, n)),
            ("open_queue", lambda n=n: target.open_queue(QueueFormat(n & 0xFF, n & 0xFF), n, n)),
        ]
    calls += [
        ("open_queue None", lambda: target.open_queue(None, Access.RECEIVE_ACCESS, 0)),
        ("open_queue None client", lambda: target.open_queue(queue_format(queue), Access.RECEIVE_ACCESS, 0, None)),
        ("open_queue_for_move None", lambda: target.open_queue_for_move(None, Access.MQ_MOVE_ACCESS, 0)),
        ("open_queue garbage name", lambda: target.open_queue(QueueFormat(3, direct_id="%%%"), 1, 0)),
        ("enlist None", lambda: target.qm_enlist_remote_transaction(None, 0, None, None)),
        ("move None transaction", lambda: target.move_message(h_ok, 0, 0, None)),
        ("commit unknown", lambda: target.commit_transaction(b"\x02" * 16)),
        ("abort unknown", lambda: target.abort_transaction(b"\x02" * 16)),
        ("prepare unknown", lambda: target.prepare_transaction(b"\x02" * 16)),
        ("delete_queue garbage", lambda: target.delete_queue("garbage")),
        ("delete_queue missing", lambda: target.delete_queue(f"DIRECT=OS:{target.computer_name}\\private$\\no")),
        ("create_queue garbage", lambda: target.create_queue("???")),
        ("send garbage", lambda: target.send("garbage", MessageProperties())),
        ("send priority 99", lambda: target.send(queue, MessageProperties(priority=99))),
        ("send unknown transaction", lambda: target.send(queue, MessageProperties(), b"\x03" * 16)),
        ("send unknown extra", lambda: target.send(queue, MessageProperties(extra={"no_such": 1}))),
        ("read_queue garbage", lambda: target.read_queue("garbage")),
    ]
    return calls


def test_target_bad_input_never_raises(target, queue):
    """Target contract (adapters/target.py): garbage handles, a None format, absurd numbers: every method returns
    a known failure HRESULT instead of raising."""
    failures = []
    for name, call in _calls(target, queue):
        try:
            status = _status(call())
        except Exception as error:  # the contract says this never happens
            failures.append(f"{name}: raised {error!r}")
            continue
        if not isinstance(status, int) or status not in KNOWN_STATUSES or status == HRESULT.MQ_OK:
            failures.append(f"{name}: returned {status!r}")
    assert failures == []


def test_target_negative_max_body_size_does_not_raise(target, queue):
    """Target contract: a DWORD argument outside 0..0xFFFFFFFF (here dwMaxBodySize = -1e9) still returns an
    HRESULT (MQ_ERROR_INVALID_PARAMETER) instead of raising."""
    target.send(queue, MessageProperties(body=b"x"))
    handle = open_handle(target, queue)
    assert target.start_receive(handle, 0, 0, PEEK, 0, 1, -1_000_000_000, 0).hresult != HRESULT.MQ_OK


# -- connect() ----------------------------------------------------------------------------------

@pytest.mark.parametrize("url", ["", "nonsense", "http://example/", "referencex", "reference?bogus=1",
                                 "reference?seed=abc", "reference?queue_manager_quota=lots",
                                 "reference?synchronous=MAYBE", "reference?port=", "reference?seed=1&x=2"])
def test_connect_bad_url_raises_target_error_with_one_line(url):
    """adapters.connect: a URL it cannot use raises TargetError (a ValueError) with a one-line message."""
    with pytest.raises(TargetError) as raised:
        connect(url)
    message = str(raised.value)
    assert message and "\n" not in message
    assert isinstance(raised.value, ValueError)


def test_connect_reference_options_are_applied():
    """adapters.connect: the reference options reach the target (port, computer name)."""
    with connect("reference?port=2114&computer_name=elsewhere&seed=7") as t:
        assert t.get_server_port() == 2114
        assert t.computer_name == "elsewhere"


def test_a_reset_forgets_a_set_quota_a_restart_keeps_it():
    """The queue_manager_quota capability: the quota lasts until the next reset, and a restart
    (the same queue manager started again) keeps them."""
    with connect("reference") as target:
        fmt = target.create_queue(f"{target.computer_name}\\private$\\q").format_name
        target.set_queue_manager_quota(10)
        assert target.send(fmt, MessageProperties(body=b"x" * 100)).r_status == 2  # the queue manager's quota
        target.restart()
        assert target.send(fmt, MessageProperties(body=b"x" * 100)).r_status == 2
        target.reset()
        fmt = target.create_queue(f"{target.computer_name}\\private$\\q").format_name
        out = target.send(fmt, MessageProperties(body=b"x" * 100))
        assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0)
