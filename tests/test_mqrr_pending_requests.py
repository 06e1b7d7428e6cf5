"""MS-MQRR PendingRequestTable, Pending Request Cleanup Timer, R_CancelReceive (opnum 8) and
R_EndReceive (opnum 9), on the reference RemoteReadServer in virtual time.

Tests are named after the clause (MS-MQRR:<section>:<nn>) or decision (D-NN) they check.
"""

from __future__ import annotations

import pytest

from mqspec.protocol.constants import INFINITE, Ack, AcknowledgementsRequested as Acks, Action, MessageClass
from mqspec.protocol.hresult import HRESULT
from mqspec.reference.enumerations import MessagePositionState as State
from mqspec.reference.readings import Readings
from mqspec.reference.remote_read import RemoteReadServer
from mqspec.steps.packet_reader import read_sections
from tests.test_mqrr_support import (
    BIG,
    entries,
    gone,
    labels_of,
    make_queue,
    open_handle,
    send,
    send_tx,
    start,
    start_tx,
    state,
    tick,
    uow,
)

A = Action
RECEIVE, PEEK = A.MQ_ACTION_RECEIVE, A.MQ_ACTION_PEEK_CURRENT
LOOKUP_RECEIVES = (A.MQ_LOOKUP_RECEIVE_CURRENT, A.MQ_LOOKUP_RECEIVE_NEXT, A.MQ_LOOKUP_RECEIVE_PREV)
CLEANUP = 60_000  # the conftest server's pending_request_cleanup_ms


def label_of(call) -> str:
    return read_sections(call.pp_packet_sections, BIG, BIG).label


def admin_classes(queue) -> list[int]:
    return [p.message_reference.message_class for p in queue.message_position_list.positions()]


# -- the PendingRequestTable (MS-MQRR 3.1.1.2, 3.1.1.3, 3.1.4.7:19) ---------------------------

def test_mqrr_3_1_4_7_19_receive_files_an_entry(qm, server, clock):
    """MS-MQRR:3.1.4.7:19 MQ_ACTION_RECEIVE adds a PendingRequestEntry keyed {dwRequestId, phContext} with the
    LookupIdentifier of the message and a TimeStamp in milliseconds."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    assert start(server, handle, RECEIVE, request_id=0xABCDEF01).hresult == HRESULT.MQ_OK
    entry = server.pending_request_table[(0xABCDEF01, handle)]
    assert (entry.request_id, entry.queue_context_handle) == (0xABCDEF01, handle)
    assert entry.lookup_identifier == message.lookup_identifier
    assert entry.time_stamp == clock.now_ms() & 0xFFFFFFFF


def test_mqrr_3_1_4_7_19_waiting_entry_has_lookup_id_zero_until_a_message_comes(qm, server):
    """MS-MQRR:3.1.4.7:19 the entry is added before Dequeue Message Begin with LookupIdentifier 0, and gets
    rMessage.LookupIdentifier when the read succeeds."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=2)
    assert server.pending_request_table[(2, handle)].lookup_identifier == 0
    message = send(qm, fn, b"x")
    assert call.hresult == HRESULT.MQ_OK
    assert server.pending_request_table[(2, handle)].lookup_identifier == message.lookup_identifier


@pytest.mark.parametrize("action", LOOKUP_RECEIVES)
def test_d51_lookup_receives_file_an_entry_and_end_with_end_receive(qm, server, action):
    """D-51 (MS-MQRR A3) MQ_LOOKUP_RECEIVE_* also file an entry, with the lookup id of the message read, and are
    finished with R_EndReceive."""
    _, fn = make_queue(qm)
    messages = [send(qm, fn, bytes([n]), label=f"m{n}") for n in range(3)]
    handle = open_handle(server, fn)
    call = start(server, handle, action, lookup_id=messages[1].lookup_identifier, request_id=8)
    taken = next(m for m in messages if m.label == label_of(call))
    assert server.pending_request_table[(8, handle)].lookup_identifier == taken.lookup_identifier
    assert server.r_end_receive(handle, Ack.RR_ACK, 8) == HRESULT.MQ_OK
    assert gone(taken) and not entries(server)


@pytest.mark.parametrize("action, cursor, lookup", [(PEEK, False, False), (PEEK, True, False),
                                                    (A.MQ_ACTION_PEEK_NEXT, True, False),
                                                    (A.MQ_LOOKUP_PEEK_CURRENT, False, True),
                                                    (A.MQ_LOOKUP_PEEK_NEXT, False, True),
                                                    (A.MQ_LOOKUP_PEEK_PREV, False, True)])
def test_mqrr_3_1_4_7_19_peeks_file_no_entry(qm, server, action, cursor, lookup):
    """MS-MQRR:3.1.4.7:19 / :20 only receives file an entry: no peek does."""
    _, fn = make_queue(qm)
    messages = [send(qm, fn, bytes([n])) for n in range(3)]
    handle = open_handle(server, fn)
    h_cursor = 0
    if cursor:
        h_cursor = server.r_create_cursor(handle)[1]
        start(server, handle, PEEK, cursor=h_cursor)
    call = start(server, handle, action, cursor=h_cursor, lookup_id=messages[1].lookup_identifier if lookup else 0)
    assert call.hresult == HRESULT.MQ_OK and not entries(server)


@pytest.mark.parametrize("failure", ["zero timeout", "wait expired", "cancelled", "unknown lookup id",
                                     "nothing after", "queue deleted while waiting", "cursor closed while waiting",
                                     "cursor busy"])
def test_d52_a_failed_receive_leaves_no_entry(qm, server, clock, failure):
    """D-52 (MS-MQRR A4) when the read of a receive fails, its PendingRequestEntry goes too: the request id is free
    and R_EndReceive finds nothing (MQ_ERROR_INVALID_HANDLE)."""
    queue, fn = make_queue(qm)
    handle = open_handle(server, fn)
    if failure == "zero timeout":
        call = start(server, handle, RECEIVE, request_id=5)
    elif failure == "wait expired":
        call = start(server, handle, RECEIVE, timeout=10, request_id=5)
        tick(clock, qm, 10)
    elif failure == "cancelled":
        call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=5)
        assert server.r_cancel_receive(handle, 5) == HRESULT.MQ_OK
    elif failure == "unknown lookup id":
        call = start(server, handle, A.MQ_LOOKUP_RECEIVE_CURRENT, lookup_id=123456, request_id=5)
    elif failure == "nothing after":
        last = send(qm, fn, b"x")
        call = start(server, handle, A.MQ_LOOKUP_RECEIVE_NEXT, lookup_id=last.lookup_identifier, request_id=5)
    elif failure == "queue deleted while waiting":
        call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=5)
        qm.delete_queue(queue)
    elif failure == "cursor closed while waiting":
        cursor = server.r_create_cursor(handle)[1]
        call = start(server, handle, RECEIVE, cursor=cursor, timeout=INFINITE, request_id=5)
        server.r_close_cursor(handle, cursor)
    else:
        cursor = server.r_create_cursor(handle)[1]
        start(server, handle, PEEK, cursor=cursor, timeout=INFINITE, request_id=4)
        call = start(server, handle, RECEIVE, cursor=cursor, timeout=INFINITE, request_id=5)
    assert call.done and call.hresult != HRESULT.MQ_OK
    assert (5, handle) not in server.pending_request_table
    assert server.r_end_receive(handle, Ack.RR_ACK, 5) == HRESULT.MQ_ERROR_INVALID_HANDLE


# -- the Pending Request Cleanup Timer (MS-MQRR 3.1.2.2, 3.1.5.1) -----------------------------

@pytest.mark.parametrize("action", [RECEIVE] + list(LOOKUP_RECEIVES))
def test_mqrr_3_1_5_1_01_cleanup_timer_makes_the_message_available_again(qm, server, clock, action):
    """MS-MQRR:3.1.5.1:01 when the cleanup timer of an unfinished receive expires: Dequeue Message End without
    delete (the message is Available again, in its place), the entry is removed."""
    queue, fn = make_queue(qm)
    messages = [send(qm, fn, bytes([n]), label=f"m{n}") for n in range(3)]
    handle = open_handle(server, fn)
    call = start(server, handle, action, lookup_id=messages[1].lookup_identifier if action != RECEIVE else 0,
                 request_id=3)
    taken = next(m for m in messages if m.label == label_of(call))
    tick(clock, qm, CLEANUP - 1)
    assert state(taken) == State.Locked and (3, handle) in server.pending_request_table
    tick(clock, qm, 1)
    assert state(taken) == State.Available and not entries(server)
    assert labels_of(queue) == ["m0", "m1", "m2"]
    assert server.r_end_receive(handle, Ack.RR_ACK, 3) == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert state(taken) == State.Available


def test_mqrr_3_1_2_2_02_cleanup_period_is_configurable(qm, clock):
    """MS-MQRR:3.1.2.2:02 the cleanup timer's length comes from configuration."""
    server = RemoteReadServer(qm, pending_request_cleanup_ms=1234)
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    start(server, open_handle(server, fn), RECEIVE)
    tick(clock, qm, 1233)
    assert state(message) == State.Locked
    tick(clock, qm, 1)
    assert state(message) == State.Available


def test_mqrr_3_1_2_2_01_default_cleanup_period_is_five_minutes(qm, clock):
    """MS-MQRR:3.1.2.2:01 / :02 without configuration the period is Windows' 5 minutes."""
    server = RemoteReadServer(qm)
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    start(server, open_handle(server, fn), RECEIVE)
    tick(clock, qm, 5 * 60 * 1000 - 1)
    assert state(message) == State.Locked
    tick(clock, qm, 1)
    assert state(message) == State.Available


@pytest.mark.parametrize("dw_ack", [Ack.RR_ACK, Ack.RR_NACK])
def test_mqrr_3_1_4_9_06_end_cancels_the_cleanup_timer(qm, server, clock, dw_ack):
    """MS-MQRR:3.1.4.9:06 R_EndReceive removes the entry and cancels its cleanup timer: the old timer never
    releases a later receive of the same message."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    tick(clock, qm, 1000)
    assert server.r_end_receive(handle, Ack.RR_NACK, 1) == HRESULT.MQ_OK
    tick(clock, qm, CLEANUP // 2)
    assert start(server, handle, RECEIVE, request_id=2).hresult == HRESULT.MQ_OK  # a new lock, new timer
    tick(clock, qm, CLEANUP // 2)  # the first timer's deadline has passed
    assert state(message) == State.Locked and (2, handle) in server.pending_request_table
    assert server.r_end_receive(handle, dw_ack, 2) == HRESULT.MQ_OK


def test_d37_waiting_receive_keeps_its_entry_past_the_cleanup_period(qm, server, clock):
    """D-37 the cleanup timer of a receive still waiting starts again instead of dropping the entry: the receive
    that gets a message later can still be finished with R_EndReceive."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=6)
    tick(clock, qm, 2 * CLEANUP + 10)
    assert not call.done and (6, handle) in server.pending_request_table
    message = send(qm, fn, b"x")
    assert call.hresult == HRESULT.MQ_OK and state(message) == State.Locked
    assert server.r_end_receive(handle, Ack.RR_ACK, 6) == HRESULT.MQ_OK and gone(message)


def test_d37_rearmed_timer_still_releases_an_unfinished_receive(qm, server, clock):
    """D-37 / MS-MQRR:3.1.5.1:01 the re-armed timer still guards the entry: a receive that waited past the cleanup
    period, got its message and was never ended, releases the message within two more periods."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=6)
    for _ in range(3 * CLEANUP // 10_000):
        tick(clock, qm, 10_000)
    message = send(qm, fn, b"x")
    assert call.hresult == HRESULT.MQ_OK
    for _ in range(2 * CLEANUP // 10_000):
        tick(clock, qm, 10_000)
    assert state(message) == State.Available and not entries(server)


@pytest.mark.parametrize("arrives_after", [CLEANUP // 2, CLEANUP + CLEANUP // 2])
def test_d37_cleanup_period_counts_from_the_lock(qm, server, clock, arrives_after):
    """D-37 a receive that waited gets the full clean-up period from the moment its message is locked."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=6)
    for _ in range(arrives_after // 1000):
        tick(clock, qm, 1000)  # timers fire when they fall due, as in real time
    message = send(qm, fn, b"x")
    assert call.hresult == HRESULT.MQ_OK
    for _ in range(CLEANUP // 1000 - 1):
        tick(clock, qm, 1000)
    assert state(message) == State.Locked and (6, handle) in server.pending_request_table


def test_d57_cleanup_of_a_transactional_entry_drops_only_the_entry(qm, server, clock):
    """D-57 (MS-MQRR A25) the cleanup timer of an entry filed by R_StartTransactionalReceive drops the entry; the
    message stays Locked in its transaction, which decides: the commit deletes it."""
    _, fn = make_queue(qm, transactional=True)
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    assert start_tx(server, handle, uow(1), RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    tick(clock, qm, CLEANUP)
    assert not entries(server) and state(message) == State.Locked
    assert qm.transaction_commit(uow(1)) == HRESULT.MQ_OK
    assert gone(message)


def test_mqrr_3_1_5_1_01_cleanup_of_a_message_that_left_meanwhile(qm, server, clock):
    """MS-MQRR:3.1.5.1:01 the message of the entry expired (Time To Be Received) before the cleanup timer: the
    entry is removed, nothing else happens."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x", time_to_be_received=1)
    other = send(qm, fn, b"y")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    tick(clock, qm, 1000)
    assert gone(message)
    tick(clock, qm, CLEANUP)
    assert not entries(server) and state(other) == State.Available


# -- R_CancelReceive (opnum 8) --------------------------------------------------------------------

@pytest.mark.parametrize("action, with_cursor", [(RECEIVE, False), (RECEIVE, True), (PEEK, False), (PEEK, True),
                                                 (A.MQ_ACTION_PEEK_NEXT, True)])
def test_mqrr_3_1_4_8_04_cancel_completes_the_blocked_call_with_operation_cancelled(qm, server, action, with_cursor):
    """MS-MQRR:3.1.4.8:04 / D-18 R_CancelReceive returns MQ_OK, removes the entry and completes the waiting
    Start*Receive (receive or peek) with MQ_ERROR_OPERATION_CANCELLED; a later message stays Available."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor = 0
    if with_cursor:
        cursor = server.r_create_cursor(handle)[1]
        if action == A.MQ_ACTION_PEEK_NEXT:
            send(qm, fn, b"first")
            start(server, handle, PEEK, cursor=cursor)
    call = start(server, handle, action, cursor=cursor, timeout=INFINITE, request_id=0x77)
    assert not call.done
    assert server.r_cancel_receive(handle, 0x77) == HRESULT.MQ_OK
    assert call.done and call.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED
    assert call.pdw_number_of_sections == 0 and not entries(server)
    message = send(qm, fn, b"later")
    assert state(message) == State.Available


def test_mqrr_3_1_4_8_04_cancel_a_waiting_transactional_receive(qm, server):
    """MS-MQRR:3.1.4.8:04 R_CancelReceive also cancels a waiting R_StartTransactionalReceive."""
    _, fn = make_queue(qm, transactional=True)
    handle = open_handle(server, fn)
    call = start_tx(server, handle, uow(1), RECEIVE, timeout=INFINITE, request_id=3)
    assert server.r_cancel_receive(handle, 3) == HRESULT.MQ_OK
    assert call.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED and not entries(server)


def test_d54_cancel_with_nothing_waiting_is_status_not_found(qm, server):
    """D-54 (MS-MQRR:3.1.4.8:03) no waiting read with that dwRequestId: STATUS_NOT_FOUND (0xC0000225)."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    assert server.r_cancel_receive(handle, 1) == HRESULT.STATUS_NOT_FOUND


def test_d54_cancel_of_a_completed_receive_is_status_not_found_and_keeps_the_lock(qm, server):
    """D-54 / MS-MQRR 3.1.4.8 a receive that already has its message is not waiting: STATUS_NOT_FOUND; the message
    stays Locked and the entry stays for R_EndReceive."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    assert start(server, handle, RECEIVE, timeout=INFINITE, request_id=1).hresult == HRESULT.MQ_OK
    assert server.r_cancel_receive(handle, 1) == HRESULT.STATUS_NOT_FOUND
    assert state(message) == State.Locked and (1, handle) in server.pending_request_table
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK


def test_d54_cancel_with_another_request_id_is_status_not_found(qm, server):
    """D-54 a dwRequestId other than the waiting one: STATUS_NOT_FOUND, and the waiting call goes on."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=1)
    assert server.r_cancel_receive(handle, 2) == HRESULT.STATUS_NOT_FOUND
    assert not call.done and (1, handle) in server.pending_request_table


def test_d17_cancel_is_scoped_to_the_callers_handle(qm, server):
    """D-17 (MS-MQRR A17) two handles wait with the same dwRequestId: cancelling through one ends only its own
    read; through a handle with nothing waiting it is STATUS_NOT_FOUND."""
    _, fn = make_queue(qm)
    mine, theirs, idle = open_handle(server, fn), open_handle(server, fn), open_handle(server, fn)
    my_call = start(server, mine, RECEIVE, timeout=INFINITE, request_id=9)
    their_call = start(server, theirs, RECEIVE, timeout=INFINITE, request_id=9)
    assert server.r_cancel_receive(idle, 9) == HRESULT.STATUS_NOT_FOUND
    assert not my_call.done and not their_call.done
    assert server.r_cancel_receive(mine, 9) == HRESULT.MQ_OK
    assert my_call.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED and not their_call.done
    assert list(entries(server)) == [(9, theirs)]
    message = send(qm, fn, b"x")
    assert their_call.hresult == HRESULT.MQ_OK and state(message) == State.Locked


def test_mqrr_3_1_5_1_01_no_lock_outlives_its_entry_when_a_peek_shares_the_request_id(qm, server, clock):
    """MS-MQRR:3.1.5.1:01 / D-36 / D-52 every message a receive locks has an entry whose cleanup timer releases it,
    even when the client reused a waiting peek's dwRequestId for the receive and then cancelled that id."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    peek = start(server, handle, PEEK, timeout=INFINITE, request_id=5)
    start(server, handle, RECEIVE, timeout=INFINITE, request_id=5)
    assert server.r_cancel_receive(handle, 5) == HRESULT.MQ_OK
    assert peek.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED
    message = send(qm, fn, b"x")
    tick(clock, qm, CLEANUP)
    assert state(message) == State.Available


def test_mqrr_3_1_4_8_03_cancel_on_an_unknown_handle_fails(qm, server):
    """MS-MQRR:3.1.4.8:03 (D-44) unknown handle: MQ_ERROR_INVALID_HANDLE."""
    assert server.r_cancel_receive(b"\x11" * 20, 1) == HRESULT.MQ_ERROR_INVALID_HANDLE


def test_mqrr_3_1_4_8_03_cancel_on_a_deleted_queue_is_queue_not_available(qm, server):
    """MS-MQRR:3.1.4.8:03 the queue of the handle was deleted (QueueReference NULL): MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn = make_queue(qm)
    handle = open_handle(server, fn)
    qm.delete_queue(queue)
    assert server.r_cancel_receive(handle, 1) == HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE


# -- R_EndReceive (opnum 9) ---------------------------------------------------------------------

def test_mqrr_3_1_4_9_04_rr_ack_removes_the_message(qm, server):
    """MS-MQRR:3.1.4.9:04 / :08 RR_ACK: Dequeue Message End deletes the message; MQ_OK; the entry is gone."""
    queue, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    assert gone(message) and len(queue.message_position_list) == 0 and not entries(server)


@pytest.mark.parametrize("requested, expected", [(Acks.ACK_POS_RECEIVE, [MessageClass.MQMSG_CLASS_ACK_RECEIVE]),
                                                 (Acks.ACK_NEG_RECEIVE, []), (Acks.NONE, [])])
def test_mqrr_3_1_4_9_04_rr_ack_sends_ack_receive_when_requested(qm, server, requested, expected):
    """MS-MQRR:3.1.4.9:04 the message leaves with reason AckReceive: a MQMSG_CLASS_ACK_RECEIVE acknowledgment to
    the administration queue when positive receive acks were requested (MS-MQQB 3.1.7.15), correlated to it."""
    _, fn = make_queue(qm)
    admin, admin_fn = make_queue(qm, "admin")
    message = send(qm, fn, b"x", acknowledgements_requested=requested,
                   administration_queue_format_name=admin_fn if requested else "")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    assert admin_classes(admin) == expected
    if expected:
        (position,) = admin.message_position_list.positions()
        assert position.message_reference.correlation_identifier == message.identifier


def test_mqrr_3_1_4_9_04_rr_nack_makes_the_message_available_again(qm, server):
    """MS-MQRR:3.1.4.9:04 RR_NACK: the message is kept, Available again in its place, no acknowledgment; the next
    receive gets it again."""
    queue, fn = make_queue(qm)
    admin, admin_fn = make_queue(qm, "admin")
    message = send(qm, fn, b"x", label="first", acknowledgements_requested=Acks.ACK_FULL_RECEIVE,
                   administration_queue_format_name=admin_fn)
    send(qm, fn, b"y", label="second")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    assert server.r_end_receive(handle, Ack.RR_NACK, 1) == HRESULT.MQ_OK
    assert state(message) == State.Available and labels_of(queue) == ["first", "second"]
    assert admin_classes(admin) == [] and not entries(server)
    assert label_of(start(server, handle, RECEIVE, request_id=1)) == "first"


def test_mqrr_3_1_4_9_04_rr_nack_wakes_a_waiting_reader(qm, server):
    """MS-MQRR:3.1.4.9:08 (MS-MQDMPR 3.1.7.1.12) the NACKed message goes to a receive waiting on another handle."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle, waiter = open_handle(server, fn), open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    call = start(server, waiter, RECEIVE, timeout=INFINITE, request_id=1)
    assert not call.done
    assert server.r_end_receive(handle, Ack.RR_NACK, 1) == HRESULT.MQ_OK
    assert call.hresult == HRESULT.MQ_OK and state(message) == State.Locked
    assert list(entries(server)) == [(1, waiter)]


@pytest.mark.parametrize("case", ["unknown handle", "handle without entries", "only another handle has the id"])
def test_mqrr_3_1_4_9_05_no_entry_for_the_handle_is_invalid_handle(qm, server, case):
    """MS-MQRR:3.1.4.9:05 no PendingRequestEntry for phContext at all: MQ_ERROR_INVALID_HANDLE."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle, other = open_handle(server, fn), open_handle(server, fn)
    start(server, other, RECEIVE, request_id=1)
    target = b"\x13" * 20 if case == "unknown handle" else handle
    assert server.r_end_receive(target, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert state(message) == State.Locked and (1, other) in server.pending_request_table


def test_mqrr_3_1_4_9_06_unknown_request_id_is_invalid_parameter(qm, server):
    """MS-MQRR:3.1.4.9:06 the handle has entries but none with that dwRequestId: MQ_ERROR_INVALID_PARAMETER;
    the entry that exists is untouched."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    assert server.r_end_receive(handle, Ack.RR_ACK, 2) == HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert state(message) == State.Locked and (1, handle) in server.pending_request_table


def test_mqrr_3_1_4_9_06_end_twice(qm, server):
    """MS-MQRR:3.1.4.9:06 the entry was removed by the first End: a second End of the same request fails
    (MQ_ERROR_INVALID_PARAMETER while the handle has other entries, MQ_ERROR_INVALID_HANDLE once it has none)."""
    _, fn = make_queue(qm)
    send(qm, fn, b"a")
    send(qm, fn, b"b")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    start(server, handle, RECEIVE, request_id=2)
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert server.r_end_receive(handle, Ack.RR_ACK, 2) == HRESULT.MQ_OK
    assert server.r_end_receive(handle, Ack.RR_ACK, 2) == HRESULT.MQ_ERROR_INVALID_HANDLE


@pytest.mark.parametrize("dw_ack", [0, 3, 0xFFFFFFFF])
@pytest.mark.parametrize("transactional", [False, True])
def test_d55_dw_ack_outside_1_2_is_invalid_parameter(qm, server, dw_ack, transactional):
    """D-55 dwAck outside range(1,2): MQ_ERROR_INVALID_PARAMETER (R_EndReceive and R_EndTransactionalReceive);
    the entry and the lock stay."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    end = server.r_end_transactional_receive if transactional else server.r_end_receive
    assert end(handle, dw_ack, 1) == HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert state(message) == State.Locked and (1, handle) in server.pending_request_table


def test_mqrr_3_1_4_9_07_message_gone_is_message_not_found(qm, server, clock):
    """MS-MQRR:3.1.4.9:07 the locked message left the queue (its Time To Be Received expired): MQ_ERROR_MESSAGE_
    NOT_FOUND, and the entry is removed."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x", time_to_be_received=2)
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    tick(clock, qm, 2000)
    assert gone(message)
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND
    assert not entries(server)


@pytest.mark.parametrize("dw_ack", [Ack.RR_ACK, Ack.RR_NACK])
def test_mqrr_3_1_4_9_08_purge_pending_message_is_deleted_at_end(qm, server, dw_ack):
    """MS-MQRR:3.1.4.9:08 (MS-MQDMPR 3.1.7.1.12) a message purged while locked (PurgePending) is deleted when the
    receive ends, whatever dwAck."""
    queue, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    server.r_purge_queue(handle)
    assert state(message) == State.PurgePending
    assert server.r_end_receive(handle, dw_ack, 1) == HRESULT.MQ_OK
    assert gone(message) and len(queue.message_position_list) == 0


def test_d38_end_while_the_start_still_waits(qm, server):
    """D-38 R_EndReceive before its Start has a message: MQ_ERROR_MESSAGE_NOT_FOUND, the entry stays and the
    receive can still complete and be ended."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=1)
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND
    assert not call.done and (1, handle) in server.pending_request_table
    message = send(qm, fn, b"x")
    assert call.hresult == HRESULT.MQ_OK
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK and gone(message)


def test_mqrr_3_1_4_9_08_queue_deleted_is_queue_not_available(qm, server):
    """MS-MQRR:3.1.4.9:08 (MS-MQDMPR 3.1.7.1.12) the handle's queue was deleted after the receive:
    MQ_ERROR_QUEUE_NOT_AVAILABLE, and the entry is removed."""
    queue, fn = make_queue(qm)
    send(qm, fn, b"x")
    handle = open_handle(server, fn)
    start(server, handle, RECEIVE, request_id=1)
    qm.delete_queue(queue)
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE
    assert not entries(server)


def test_mqrr_3_1_4_9_08_end_of_a_receive_whose_transaction_aborted_is_transaction_sequence(qm, server):
    """MS-MQRR:3.1.4.9:08 Dequeue Message End on a message that is Available again (its transaction aborted):
    MQ_ERROR_TRANSACTION_SEQUENCE (MS-MQDMPR:3.1.7.1.12:01)."""
    _, fn = make_queue(qm, transactional=True)
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    start_tx(server, handle, uow(1), RECEIVE, request_id=1)
    qm.transaction_abort(uow(1))
    assert state(message) == State.Available
    assert server.r_end_transactional_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE
    assert state(message) == State.Available and not entries(server)


@pytest.mark.parametrize("transactional_start", [True, False])
def test_mqrr_3_1_4_15_06_an_end_acts_as_its_start_requires(qm, server, transactional_start):
    """MS-MQRR:3.1.4.15:06 (D-69 as-started) R_EndReceive for a transactional receive, or R_EndTransactionalReceive
    for a plain one (pTransactionId NULL, as 3.1.4.13 has the client pair it): the End does what the start
    requires. RR_ACK then leaves a transactional receive to its transaction and deletes a plain one."""
    _, fn = make_queue(qm, transactional=True)
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    start_tx(server, handle, uow(1) if transactional_start else None, RECEIVE, request_id=1)
    other = server.r_end_receive if transactional_start else server.r_end_transactional_receive
    assert other(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    assert not entries(server)
    if transactional_start:
        assert state(message) == State.Locked and message.transaction_identifier == uow(1)
        assert qm.transaction_commit(uow(1)) == HRESULT.MQ_OK
    assert gone(message)


@pytest.mark.parametrize("transactional_start", [True])
def test_d69_refuse_an_end_that_does_not_match_its_start(qm, server, transactional_start):
    """MS-MQRR:3.1.4.15:06 (D-69 refuse) R_EndReceive of a transactional receive (the client broke 3.1.4.13's
    pairing; a plain receive ended by R_EndTransactionalReceive obeys it and is never refused):
    MQ_ERROR_TRANSACTION_USAGE, and the receive stays pending (the matching End still works)."""
    qm.readings = Readings({"D-69": "refuse"})
    _, fn = make_queue(qm, transactional=True)
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    start_tx(server, handle, uow(1) if transactional_start else None, RECEIVE, request_id=1)
    wrong = server.r_end_receive if transactional_start else server.r_end_transactional_receive
    right = server.r_end_transactional_receive if transactional_start else server.r_end_receive
    assert wrong(handle, Ack.RR_ACK, 1) == HRESULT.MQ_ERROR_TRANSACTION_USAGE
    assert state(message) == State.Locked and len(entries(server)) == 1
    assert right(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    assert not entries(server)
