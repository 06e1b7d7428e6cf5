"""Load over the wire: 16 clients x 2,000 messages, every operation in a history, nothing lost or doubled.

`mqspec serve` runs in its own process on a free loopback port.  Sixteen client
threads, each its own MS-MQRR client (its own association), share four queues (two
transactional).  Each sends its 2,000 messages and, between sends, takes one of:
a two-phase receive ended with RR_ACK, one ended with RR_NACK (the message goes
back), a peek, a cursor walk of a few peeks, a transactional receive committed or
aborted, and a receive that waits on its own connection, on a queue of the
client's own, until another connection cancels it (half of the time a message is
sent to that queue meanwhile, so the cancel races an arrival).  Every call and its
outcome goes into a history.  At the end the queues are drained, and the history must show each
message sent once and received exactly once: none lost, none duplicated.
"""

from __future__ import annotations

import collections
import random
import threading
import time
from pathlib import Path

import pytest

from mqspec.adapters import MessageProperties, connect
from mqspec.protocol.constants import INFINITE, Access, Ack, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name
from mqspec.steps.packet_reader import read_sections
from tests.serving import served

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = 16
MESSAGES = 2000
QUEUES = 4          # queues 0 and 1 plain, 2 and 3 transactional
BIG = 1 << 20
RECEIVE = Action.MQ_ACTION_RECEIVE
PEEK, PEEK_NEXT = Action.MQ_ACTION_PEEK_CURRENT, Action.MQ_ACTION_PEEK_NEXT


@pytest.fixture(scope="module")
def server():
    with served("reference?queue_manager_quota=0xFFFFFFFF") as url:
        yield url


class History:
    """Every operation of every client, in the order they were recorded."""

    def __init__(self) -> None:
        self.events: list[tuple[int, str, str, int]] = []   # (client, operation, label, status)
        self._lock = threading.Lock()

    def record(self, client: int, operation: str, label: str = "", status: int = 0) -> None:
        with self._lock:
            self.events.append((client, operation, label, status))

    def count(self, operation: str) -> collections.Counter:
        return collections.Counter(label for _, op, label, _ in self.events if op == operation)


def _label(out) -> str:
    return read_sections(out.pp_packet_sections, BIG, BIG).label


def _client(number: int, url: str, queues: list[str], history: History, errors: list) -> None:
    rng = random.Random(number)
    try:
        with connect(url) as target:
            handles = [target.open_queue(from_format_name(q), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE)
                       .pph_context for q in queues]
            solo = (queues[QUEUES + number], handles[QUEUES + number])   # this client's own queue
            request = iter(range(1, 10**9))
            for n in range(MESSAGES):
                index = rng.randrange(QUEUES)
                label = f"c{number}-{n}"
                _send(target, queues[index], index >= 2, label, history, number)
                action = rng.choice(("ack", "ack", "nack", "peek", "walk", "commit", "abort", "cancel"))
                if index >= 2 and action in ("ack", "nack", "cancel"):
                    action = "commit"   # a transactional queue is read inside transactions here
                if index < 2 and action in ("commit", "abort"):
                    action = "ack"
                if action == "cancel":
                    _wait_and_cancel(target, solo, next(request), f"{label}-w" if rng.random() < 0.5 else None,
                                     history, number)
                else:
                    _act(target, action, handles[index], next(request), history, number, rng)
    except BaseException as error:  # reported by the test, with the client's number
        errors.append((number, repr(error)))


def _send(target, format_name: str, transactional: bool, label: str, history: History, number: int) -> None:
    props = MessageProperties(body=label.encode(), label=label)
    if transactional:
        uow = target.begin_transaction()
        out = target.send(format_name, props, uow)
        assert target.commit_transaction(uow) == HRESULT.MQ_OK
    else:
        out = target.send(format_name, props)
    assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0), (label, out)
    history.record(number, "sent", label)


def _act(target, action: str, handle: bytes, request_id: int, history: History, number: int, rng) -> None:
    if action in ("ack", "nack"):
        out = target.start_receive(handle, 0, 0, RECEIVE, 0, request_id, BIG, BIG)
        history.record(number, "start", _label(out) if out.hresult == HRESULT.MQ_OK else "", out.hresult)
        if out.hresult == HRESULT.MQ_OK:
            ack = Ack.RR_ACK if action == "ack" else Ack.RR_NACK
            status = target.end_receive(handle, ack, request_id)
            assert status == HRESULT.MQ_OK, hex(status)
            history.record(number, "received" if action == "ack" else "returned", _label(out), status)
    elif action == "peek":
        out = target.start_receive(handle, 0, 0, PEEK, 0, request_id, BIG, BIG)
        history.record(number, "peeked", _label(out) if out.hresult == HRESULT.MQ_OK else "", out.hresult)
    elif action == "walk":
        cursor = target.create_cursor(handle).ph_cursor
        out = target.start_receive(handle, 0, cursor, PEEK, 0, request_id, BIG, BIG)
        seen = []
        for _ in range(rng.randrange(1, 5)):
            if out.hresult != HRESULT.MQ_OK:
                break
            seen.append(_label(out))
            out = target.start_receive(handle, 0, cursor, PEEK_NEXT, 0, request_id, BIG, BIG)
        assert len(seen) == len(set(seen)), f"a cursor walk saw a message twice: {seen}"
        history.record(number, "walked", ",".join(seen))
        assert target.close_cursor(handle, cursor) == HRESULT.MQ_OK
    else:   # commit or abort
        uow = target.begin_transaction()
        out = target.start_transactional_receive(handle, 0, 0, RECEIVE, 0, request_id, BIG, BIG, uow)
        if out.hresult == HRESULT.MQ_OK:
            assert target.end_transactional_receive(handle, Ack.RR_ACK, request_id) == HRESULT.MQ_OK
        finish = target.commit_transaction if action == "commit" else target.abort_transaction
        assert finish(uow) == HRESULT.MQ_OK
        if out.hresult == HRESULT.MQ_OK:
            history.record(number, "received" if action == "commit" else "returned", _label(out))


def _wait_and_cancel(target, solo: tuple[str, bytes], request_id: int, racer: str | None, history: History,
                     number: int) -> None:
    """A receive waits on its own connection; this connection cancels it; a message sent meanwhile may win."""
    format_name, handle = solo
    result = {}
    waiter = threading.Thread(target=lambda: result.update(
        out=target.start_receive(handle, 0, 0, RECEIVE, INFINITE, request_id, BIG, BIG)))
    waiter.start()
    if racer:
        _send(target, format_name, False, racer, history, number)
    deadline = time.monotonic() + 30
    while waiter.is_alive() and time.monotonic() < deadline:
        status = target.cancel_receive(handle, request_id)   # STATUS_NOT_FOUND until the wait has begun
        waiter.join(0.05)
    assert not waiter.is_alive(), "a cancelled receive never returned"
    out = result["out"]
    if out.hresult == HRESULT.MQ_OK:   # it got a message before the cancel: finish it
        assert target.end_receive(handle, Ack.RR_ACK, request_id) == HRESULT.MQ_OK
        history.record(number, "received", _label(out))
    else:
        assert out.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED, hex(out.hresult)
        history.record(number, "cancelled", "", status)


def _drain(url: str, queues: list[str], history: History) -> None:
    with connect(url) as target:
        for index, format_name in enumerate(queues):
            handle = target.open_queue(from_format_name(format_name), Access.RECEIVE_ACCESS, 0).pph_context
            request = 1
            while True:
                uow = target.begin_transaction() if 2 <= index < QUEUES else None
                if uow:
                    out = target.start_transactional_receive(handle, 0, 0, RECEIVE, 0, request, BIG, BIG, uow)
                else:
                    out = target.start_receive(handle, 0, 0, RECEIVE, 0, request, BIG, BIG)
                if out.hresult != HRESULT.MQ_OK:
                    assert out.hresult == HRESULT.MQ_ERROR_IO_TIMEOUT, hex(out.hresult)
                    if uow:
                        target.abort_transaction(uow)
                    break
                if uow:
                    assert target.end_transactional_receive(handle, Ack.RR_ACK, request) == HRESULT.MQ_OK
                    assert target.commit_transaction(uow) == HRESULT.MQ_OK
                else:
                    assert target.end_receive(handle, Ack.RR_ACK, request) == HRESULT.MQ_OK
                history.record(-1, "received", _label(out))
                request += 1


def test_sixteen_clients_lose_and_duplicate_nothing(server):
    setup = connect(server)
    queues = [setup.create_queue(f"{setup.computer_name}\\private$\\load{i}", transactional=i >= 2).format_name
              for i in range(QUEUES)]
    queues += [setup.create_queue(f"{setup.computer_name}\\private$\\solo{n}").format_name for n in range(CLIENTS)]
    setup.close()
    history, errors = History(), []
    clients = [threading.Thread(target=_client, args=(n, server, queues, history, errors)) for n in range(CLIENTS)]
    for client in clients:
        client.start()
    for client in clients:
        client.join(1800)
    assert not errors, errors[:3]
    _drain(server, queues, history)
    sent, received = history.count("sent"), history.count("received")
    assert len(sent) >= CLIENTS * MESSAGES and set(sent.values()) == {1}
    doubled = [label for label, times in received.items() if times > 1]
    lost = sorted(set(sent) - set(received))
    assert not doubled, f"{len(doubled)} messages received more than once, e.g. {doubled[:5]}"
    assert not lost, f"{len(lost)} messages lost, e.g. {lost[:5]}"
    assert set(received) == set(sent)
    operations = collections.Counter(op for _, op, _, _ in history.events)
    assert operations["cancelled"] > 0 and operations["returned"] > 0 and operations["walked"] > 0
