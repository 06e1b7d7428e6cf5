"""MS-MQRR R_StartReceive (opnum 7): the parameter table, every status, and the outputs.

The combination table is written here from seed 000 (MS-MQRR 3.1.4.7) alone, not from
reference/remote_read_rules.py.  Packet sections are decoded with the suite's own reader
(steps/packet_reader.py) and, for the fields the clauses name, with struct at the
offsets of MS-MQMQ 2.2.19.  Tests are named after the clause (MS-MQRR:<section>:<nn>) or
decision (D-NN) they check.
"""

from __future__ import annotations

import struct

import pytest

from mqspec.protocol.constants import (
    INFINITE,
    UNLISTED_LOOKUP_ACTIONS,
    Access,
    Ack,
    Action,
    SectionType,
)
from mqspec.protocol.hresult import HRESULT
from mqspec.reference.enumerations import MessagePositionState as State
from mqspec.reference.message import Message
from mqspec.steps.packet_reader import read_sections
from tests.test_mqrr_support import (
    BIG,
    entries,
    gone,
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
RECEIVE, PEEK_CURRENT, PEEK_NEXT = A.MQ_ACTION_RECEIVE, A.MQ_ACTION_PEEK_CURRENT, A.MQ_ACTION_PEEK_NEXT
LOOKUP_PEEKS = (A.MQ_LOOKUP_PEEK_CURRENT, A.MQ_LOOKUP_PEEK_NEXT, A.MQ_LOOKUP_PEEK_PREV)
LOOKUP_RECEIVES = (A.MQ_LOOKUP_RECEIVE_CURRENT, A.MQ_LOOKUP_RECEIVE_NEXT, A.MQ_LOOKUP_RECEIVE_PREV)
LOOKUPS = LOOKUP_PEEKS + LOOKUP_RECEIVES
RECEIVES = (RECEIVE,) + LOOKUP_RECEIVES
TTRQ_OFFSET, PACKET_SIZE_OFFSET, SENT_TIME_OFFSET = 12, 8, 16 + 36  # MS-MQMQ 2.2.19.1 / 2.2.19.2


def u32(data: bytes, offset: int) -> int:
    return struct.unpack_from("<I", data, offset)[0]


def decoded(call, max_body=BIG, max_compound=BIG):
    message = read_sections(call.pp_packet_sections, max_body, max_compound)
    assert message.violations == [], message.violations
    return message


# -- the ulAction / LookupId / hCursor / ulTimeout table (MS-MQRR:3.1.4.7:04, :16) ----------------

ACTIONS = {member.name: int(member) for member in Action}
ACTIONS.update(UNLISTED_LOOKUP_ACTIONS)  # Win32 values MS-MQRR does not list: invalid input
ACTIONS.update({"0x00000001": 0x00000001, "0x80000002": 0x80000002, "0x40000000": 0x40000000,
                "0x40000013": 0x40000013, "0xFFFFFFFF": 0xFFFFFFFF})


def table_allows(action: int, lookup: bool, cursor: bool, timeout: bool) -> bool:
    """Seed 000: which combinations are valid (LOOKUP_RECEIVE_PREV needs a LookupId, D-60)."""
    if action in (RECEIVE, PEEK_CURRENT):
        return not lookup
    if action == PEEK_NEXT:
        return not lookup and cursor
    if action in LOOKUPS:
        return lookup and not cursor and not timeout
    return False


# What a valid call returns from the queue [m0, m1, m2] with LookupId = m1's and a cursor that
# has peeked m0: the label of the message it reads.
EXPECTED_LABEL = {RECEIVE: "m0", PEEK_CURRENT: "m0", PEEK_NEXT: "m1",
                  A.MQ_LOOKUP_PEEK_CURRENT: "m1", A.MQ_LOOKUP_PEEK_NEXT: "m2", A.MQ_LOOKUP_PEEK_PREV: "m0",
                  A.MQ_LOOKUP_RECEIVE_CURRENT: "m1", A.MQ_LOOKUP_RECEIVE_NEXT: "m2",
                  A.MQ_LOOKUP_RECEIVE_PREV: "m0"}
COMBINATIONS = [(lookup, cursor, timeout) for lookup in (False, True) for cursor in (False, True)
                for timeout in (False, True)]


def _combo_id(combo):
    lookup, cursor, timeout = combo
    return f"LookupId={'m1' if lookup else 0}-hCursor={'C' if cursor else 0}-ulTimeout={1000 if timeout else 0}"


def _run_table_case(qm, server, name, combo, transactional):
    action = ACTIONS[name]
    lookup, use_cursor, timeout = combo
    _, fn = make_queue(qm, transactional=transactional)
    sender = send_tx if transactional else send
    messages = [sender(qm, fn, bytes([n]), label=f"m{n}") for n in range(3)]
    handle = open_handle(server, fn)
    cursor = 0
    if use_cursor:
        cursor = server.r_create_cursor(handle)[1]
        assert start(server, handle, PEEK_CURRENT, cursor=cursor).hresult == HRESULT.MQ_OK  # the cursor reads m0
    arguments = (handle, messages[1].lookup_identifier if lookup else 0, cursor, action, 1000 if timeout else 0,
                 7, BIG, BIG)
    if transactional:
        call = start_tx(server, handle, uow(1), action, lookup_id=arguments[1], cursor=cursor, timeout=arguments[4],
                        request_id=7)  # the client enlisted uow(1) first (D-50)
    else:
        call = server.r_start_receive(*arguments)
    return action, messages, handle, call


@pytest.mark.parametrize("combo", COMBINATIONS, ids=_combo_id)
@pytest.mark.parametrize("name", list(ACTIONS))
def test_mqrr_3_1_4_7_16_action_table(qm, server, name, combo):
    """MS-MQRR:3.1.4.7:16 / 3.1.4.7:04 every ulAction against every LookupId / hCursor / ulTimeout combination:
    a combination the table rules out (and every unlisted ulAction) is MQ_ERROR_INVALID_PARAMETER with no effect;
    one it allows reads the message the action names."""
    action, messages, handle, call = _run_table_case(qm, server, name, combo, transactional=False)
    assert call.done
    if not table_allows(action, *combo):
        assert call.hresult == HRESULT.MQ_ERROR_INVALID_PARAMETER
        assert call.pdw_number_of_sections == 0 and call.pp_packet_sections == ()
        assert not entries(server) and all(state(m) == State.Available for m in messages)
        return
    assert call.hresult == HRESULT.MQ_OK
    label = EXPECTED_LABEL[action]
    assert decoded(call).label == label
    taken = next(m for m in messages if m.label == label)
    assert state(taken) == (State.Locked if action in RECEIVES else State.Available)
    assert bool(entries(server)) == (action in RECEIVES)  # D-51 receives file an entry, peeks do not


@pytest.mark.parametrize("combo", COMBINATIONS, ids=_combo_id)
@pytest.mark.parametrize("name", list(ACTIONS))
def test_mqrr_3_1_4_13_08_action_table_with_a_transaction(qm, server, name, combo):
    """MS-MQRR:3.1.4.13:08 / 3.1.4.13:03 the same table for R_StartTransactionalReceive: ruled-out combinations
    are MQ_ERROR_INVALID_PARAMETER before anything else; allowed peeks are MQ_ERROR_TRANSACTION_USAGE (D-41);
    allowed receives take the message inside the transaction."""
    action, messages, handle, call = _run_table_case(qm, server, name, combo, transactional=True)
    if not table_allows(action, *combo):
        assert call.hresult == HRESULT.MQ_ERROR_INVALID_PARAMETER
        assert not entries(server) and all(state(m) == State.Available for m in messages)
        assert not qm.transaction_collection[uow(1)].transactional_operation_collection
        return
    if action not in RECEIVES:
        assert call.hresult == HRESULT.MQ_ERROR_TRANSACTION_USAGE
        return
    assert call.hresult == HRESULT.MQ_OK
    taken = next(m for m in messages if m.label == EXPECTED_LABEL[action])
    assert decoded(call).label == taken.label and state(taken) == State.Locked
    assert taken.transaction_identifier == uow(1)


def test_mqrr_3_1_4_7_16_parameters_are_checked_before_the_handle(qm, server):
    """MS-MQRR:3.1.4.7:16 "If any of the input parameter values is invalid" comes first: an invalid combination on
    an unknown handle is MQ_ERROR_INVALID_PARAMETER, not a handle error."""
    assert start(server, b"\x01" * 20, A.MQ_LOOKUP_PEEK_CURRENT, lookup_id=0).hresult == \
        HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert start(server, b"\x01" * 20, PEEK_NEXT).hresult == HRESULT.MQ_ERROR_INVALID_PARAMETER


@pytest.mark.parametrize("timeout", [0, 1000])
@pytest.mark.parametrize("opnum", [7, 13])
def test_d60_lookup_receive_prev_with_lookup_id_zero_is_invalid(qm, server, timeout, opnum):
    """D-60 (MS-MQRR A1) MQ_LOOKUP_RECEIVE_PREV needs a nonzero LookupId although the 3.1.4.7 action table asks for
    0: with LookupId 0 it is MQ_ERROR_INVALID_PARAMETER, in R_StartReceive and R_StartTransactionalReceive."""
    _, fn = make_queue(qm, transactional=opnum == 13)
    message = (send_tx if opnum == 13 else send)(qm, fn, b"x")
    handle = open_handle(server, fn)
    if opnum == 7:
        call = start(server, handle, A.MQ_LOOKUP_RECEIVE_PREV, lookup_id=0, timeout=timeout)
    else:
        call = start_tx(server, handle, uow(1), A.MQ_LOOKUP_RECEIVE_PREV, lookup_id=0, timeout=timeout)
    assert call.hresult == HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert state(message) == State.Available and not entries(server)


@pytest.mark.parametrize("name", list(UNLISTED_LOOKUP_ACTIONS))
def test_mqrr_3_1_4_7_16_unlisted_win32_lookup_actions_are_invalid(qm, server, name):
    """MS-MQRR:3.1.4.7:16 MQ_LOOKUP_PEEK_FIRST/LAST, MQ_LOOKUP_RECEIVE_FIRST/LAST/ALLOW_PEEK are not MS-MQRR actions:
    MQ_ERROR_INVALID_PARAMETER whatever the LookupId."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    for lookup_id in (0, message.lookup_identifier):
        assert start(server, handle, UNLISTED_LOOKUP_ACTIONS[name], lookup_id=lookup_id).hresult == \
            HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert state(message) == State.Available


# -- the handle, the cursor, the access (MS-MQRR:3.1.4.7:17, :18, D-48, D-49) ----------------------

@pytest.mark.parametrize("action, lookup", [(RECEIVE, False), (PEEK_CURRENT, False),
                                            (A.MQ_LOOKUP_PEEK_CURRENT, True), (A.MQ_LOOKUP_RECEIVE_CURRENT, True)])
@pytest.mark.parametrize("handle", [bytes(20), b"\x42" * 20, b""])
def test_mqrr_3_1_4_7_17_unknown_handle_fails(qm, server, action, lookup, handle):
    """MS-MQRR:3.1.4.7:17 (D-44) an unknown phContext: MQ_ERROR_INVALID_HANDLE; no entry is filed."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    call = start(server, handle, action, lookup_id=message.lookup_identifier if lookup else 0)
    assert call.hresult == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert not entries(server) and state(message) == State.Available


@pytest.mark.parametrize("action", [RECEIVE, PEEK_CURRENT, PEEK_NEXT])
@pytest.mark.parametrize("which", ["never created", "closed", "another handle's, same queue",
                                   "another handle's, other queue"])
def test_mqrr_3_1_4_7_18_bad_cursor_is_status_invalid_handle(qm, server, action, which):
    """MS-MQRR:3.1.4.7:18 / D-48 an hCursor never created, closed, or created on another handle:
    STATUS_INVALID_HANDLE (0xC0000008); no entry, nothing read."""
    _, fn = make_queue(qm)
    _, other_fn = make_queue(qm, "other")
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    if which == "never created":
        cursor = 0x1234567
    elif which == "closed":
        cursor = server.r_create_cursor(handle)[1]
        server.r_close_cursor(handle, cursor)
    else:
        owner = open_handle(server, fn if which.endswith("same queue") else other_fn)
        cursor = server.r_create_cursor(owner)[1]
    call = start(server, handle, action, cursor=cursor)
    assert call.hresult == HRESULT.STATUS_INVALID_HANDLE
    assert not entries(server) and state(message) == State.Available


@pytest.mark.parametrize("action, lookup", [(RECEIVE, False)] + [(a, True) for a in LOOKUP_RECEIVES])
@pytest.mark.parametrize("opnum", [7, 13])
def test_d49_peek_handle_cannot_receive(qm, server, action, lookup, opnum):
    """D-49 (MS-MQRR:3.1.4.7:33) a PEEK_ACCESS handle asking for a receive: MQ_ERROR_ACCESS_DENIED, the message
    untouched, no entry."""
    _, fn = make_queue(qm, transactional=opnum == 13)
    first, target, last = ((send_tx if opnum == 13 else send)(qm, fn, bytes([n])) for n in range(3))
    handle = open_handle(server, fn, Access.PEEK_ACCESS)
    lookup_id = target.lookup_identifier if lookup else 0
    if opnum == 7:
        call = start(server, handle, action, lookup_id=lookup_id)
    else:
        call = start_tx(server, handle, uow(1), action, lookup_id=lookup_id)
    assert call.hresult == HRESULT.MQ_ERROR_ACCESS_DENIED
    assert all(state(m) == State.Available for m in (first, target, last)) and not entries(server)


@pytest.mark.parametrize("action, lookup", [(PEEK_CURRENT, False)] + [(a, True) for a in LOOKUP_PEEKS])
def test_d49_peek_handle_can_peek(qm, server, action, lookup):
    """D-49 peeks need ReceiveAccess or PeekAccess: a PEEK_ACCESS handle peeks (MQ_OK)."""
    _, fn = make_queue(qm)
    messages = [send(qm, fn, bytes([n])) for n in range(3)]
    handle = open_handle(server, fn, Access.PEEK_ACCESS)
    call = start(server, handle, action, lookup_id=messages[1].lookup_identifier if lookup else 0)
    assert call.hresult == HRESULT.MQ_OK


# -- MQ_ERROR_IO_TIMEOUT and the waits (MS-MQRR:3.1.2.1:01, D-02, D-03) ---------------------------

@pytest.mark.parametrize("action", [RECEIVE, PEEK_CURRENT])
def test_d03_zero_timeout_on_an_empty_queue_is_io_timeout(qm, server, action):
    """D-03 a read that would have to wait with ulTimeout 0 ends at once with MQ_ERROR_IO_TIMEOUT; no entry stays
    (D-52)."""
    _, fn = make_queue(qm)
    call = start(server, open_handle(server, fn), action, timeout=0)
    assert call.done and call.hresult == HRESULT.MQ_ERROR_IO_TIMEOUT and not entries(server)


@pytest.mark.parametrize("action, with_cursor", [(RECEIVE, False), (PEEK_CURRENT, False), (RECEIVE, True),
                                                 (PEEK_CURRENT, True)])
def test_mqrr_3_1_2_1_01_wait_lasts_exactly_ul_timeout_milliseconds(qm, server, clock, action, with_cursor):
    """MS-MQRR:3.1.2.1:01 / D-02 a read with a nonzero ulTimeout waits that many milliseconds, then ends
    MQ_ERROR_IO_TIMEOUT with empty outputs."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1] if with_cursor else 0
    call = start(server, handle, action, cursor=cursor, timeout=1500)
    tick(clock, qm, 1499)
    assert not call.done
    tick(clock, qm, 1)
    assert call.hresult == HRESULT.MQ_ERROR_IO_TIMEOUT
    assert call.pdw_number_of_sections == 0 and not entries(server)


def test_mqrr_3_1_4_7_waiting_receive_gets_the_message_that_arrives(qm, server, clock):
    """MS-MQRR:3.1.4.7:19 a receive with a nonzero ulTimeout and no message waits; an arriving message completes it
    with MQ_OK and is Locked for its entry."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    call = start(server, handle, RECEIVE, timeout=INFINITE, request_id=3)
    tick(clock, qm, 3_600_000)
    assert not call.done
    message = send(qm, fn, b"late", label="late")
    assert call.hresult == HRESULT.MQ_OK and decoded(call).label == "late"
    assert state(message) == State.Locked
    assert server.pending_request_table[(3, handle)].lookup_identifier == message.lookup_identifier


def test_mqrr_3_1_4_7_waiting_peek_gets_the_message_that_arrives(qm, server):
    """MS-MQRR:3.1.4.7:20 a waiting Peek Message completes with the arriving message, which stays Available."""
    _, fn = make_queue(qm)
    call = start(server, open_handle(server, fn), PEEK_CURRENT, timeout=INFINITE)
    message = send(qm, fn, b"late", label="late")
    assert call.hresult == HRESULT.MQ_OK and decoded(call).label == "late"
    assert state(message) == State.Available and not entries(server)


# -- MQ_ERROR_MESSAGE_NOT_FOUND (D-03, D-04, D-05, DMPR 3.1.7.3.3) -----------------------------

@pytest.mark.parametrize("action", LOOKUPS)
def test_mqrr_3_1_4_7_20_unknown_lookup_id_is_message_not_found(qm, server, action):
    """MS-MQRR:3.1.4.7:20 (MS-MQDMPR:3.1.7.3.3:01) a LookupId no message has: MQ_ERROR_MESSAGE_NOT_FOUND."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    call = start(server, open_handle(server, fn), action, lookup_id=message.lookup_identifier + 1000)
    assert call.hresult == HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND and not entries(server)


@pytest.mark.parametrize("action, which", [(A.MQ_LOOKUP_PEEK_NEXT, -1), (A.MQ_LOOKUP_RECEIVE_NEXT, -1),
                                           (A.MQ_LOOKUP_PEEK_PREV, 0), (A.MQ_LOOKUP_RECEIVE_PREV, 0)])
def test_d04_nothing_after_or_before_is_message_not_found(qm, server, action, which):
    """D-04 NEXT of the last message or PREV of the first: MQ_ERROR_MESSAGE_NOT_FOUND, and no entry (D-52)."""
    _, fn = make_queue(qm)
    messages = [send(qm, fn, bytes([n])) for n in range(2)]
    call = start(server, open_handle(server, fn), action, lookup_id=messages[which].lookup_identifier)
    assert call.hresult == HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND
    assert not entries(server) and all(state(m) == State.Available for m in messages)


def test_d03_cursor_receive_with_zero_timeout_on_nothing_is_message_not_found(qm, server):
    """D-03 (MS-MQDMPR 3.2.7.4 iNoWait) a cursor receive with ulTimeout 0 that finds nothing:
    MQ_ERROR_MESSAGE_NOT_FOUND."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    assert start(server, handle, RECEIVE, cursor=cursor, timeout=0).hresult == HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND
    assert not entries(server)


def test_d05_lookup_receive_of_a_locked_message_is_message_not_found(qm, server):
    """D-05 SeekCurrent for a receive of a Locked message: MQ_ERROR_MESSAGE_NOT_FOUND; NEXT/PREV skip it."""
    _, fn = make_queue(qm)
    first, locked, last = (send(qm, fn, bytes([n]), label=f"m{n}") for n in range(3))
    handle = open_handle(server, fn)
    assert start(server, handle, A.MQ_LOOKUP_RECEIVE_CURRENT, lookup_id=locked.lookup_identifier,
                 request_id=1).hresult == HRESULT.MQ_OK
    assert start(server, handle, A.MQ_LOOKUP_RECEIVE_CURRENT, lookup_id=locked.lookup_identifier,
                 request_id=2).hresult == HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND
    assert decoded(start(server, handle, A.MQ_LOOKUP_PEEK_NEXT, lookup_id=first.lookup_identifier)).label == "m2"
    assert decoded(start(server, handle, A.MQ_LOOKUP_PEEK_PREV, lookup_id=last.lookup_identifier)).label == "m0"


# -- MQ_ERROR_TRANSACTION_USAGE for a lookup peek of a locked message (D-05) ---------------------

@pytest.mark.parametrize("allow, expected", [(False, HRESULT.MQ_ERROR_TRANSACTION_USAGE), (True, HRESULT.MQ_OK)])
def test_d05_lookup_peek_of_a_locked_message(qm, server, allow, expected):
    """D-05 (MS-MQDMPR:3.1.7.3.3:02) MQ_LOOKUP_PEEK_CURRENT of a Locked message: MQ_ERROR_TRANSACTION_USAGE unless
    the message allows peeking while locked."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x", allow_peek_when_locked=allow)
    handle = open_handle(server, fn)
    assert start(server, handle, RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    assert start(server, handle, A.MQ_LOOKUP_PEEK_CURRENT, lookup_id=message.lookup_identifier).hresult == expected


# -- MQ_ERROR_MESSAGE_ALREADY_RECEIVED and MQ_ERROR_ILLEGAL_CURSOR_ACTION (cursor states) --------

@pytest.mark.parametrize("action", [PEEK_CURRENT, RECEIVE])
def test_mqrr_3_1_4_7_cursor_on_a_message_received_elsewhere_is_already_received(qm, server, action):
    """MS-MQRR 3.1.4.7 return table (MS-MQDMPR 3.2.7.2, 3.2.7.4) a cursor that peeked a message another reader
    then received: PEEK_CURRENT / RECEIVE at the cursor give MQ_ERROR_MESSAGE_ALREADY_RECEIVED."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    send(qm, fn, b"y")
    handle, thief = open_handle(server, fn), open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    assert start(server, handle, PEEK_CURRENT, cursor=cursor).hresult == HRESULT.MQ_OK
    assert start(server, thief, A.MQ_LOOKUP_RECEIVE_CURRENT, lookup_id=message.lookup_identifier).hresult == 0
    assert server.r_end_receive(thief, Ack.RR_ACK, 1) == HRESULT.MQ_OK and gone(message)
    call = start(server, handle, action, cursor=cursor, request_id=2)
    assert call.hresult == HRESULT.MQ_ERROR_MESSAGE_ALREADY_RECEIVED and not entries(server)


def test_mqrr_3_1_4_7_peek_next_on_a_fresh_cursor_is_illegal_cursor_action(qm, server):
    """MS-MQRR 3.1.4.7 (MS-MQDMPR:3.2.7.3:01) MQ_ACTION_PEEK_NEXT before the cursor read anything:
    MQ_ERROR_ILLEGAL_CURSOR_ACTION."""
    _, fn = make_queue(qm)
    send(qm, fn, b"x")
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    assert start(server, handle, PEEK_NEXT, cursor=cursor).hresult == HRESULT.MQ_ERROR_ILLEGAL_CURSOR_ACTION


def test_d12_second_read_on_a_waiting_cursor_is_illegal_cursor_action(qm, server):
    """D-12 a cursor already waiting refuses another read with MQ_ERROR_ILLEGAL_CURSOR_ACTION; the waiting read
    goes on and completes."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    waiting = start(server, handle, PEEK_CURRENT, cursor=cursor, timeout=INFINITE, request_id=1)
    again = start(server, handle, RECEIVE, cursor=cursor, timeout=INFINITE, request_id=2)
    assert again.hresult == HRESULT.MQ_ERROR_ILLEGAL_CURSOR_ACTION and (2, handle) not in server.pending_request_table
    send(qm, fn, b"x", label="x")
    assert waiting.hresult == HRESULT.MQ_OK and decoded(waiting).label == "x"


def test_mqrr_3_1_4_7_20_cursor_actions_walk_the_queue(qm, server):
    """MS-MQRR:3.1.4.7:20 with a cursor: PEEK_CURRENT reads, PEEK_NEXT advances, RECEIVE takes the message at the
    cursor and the cursor moves on; PEEK_NEXT straight after a receive is refused (seed 002)."""
    _, fn = make_queue(qm)
    for n in range(4):
        send(qm, fn, bytes([n]), label=f"m{n}")
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    labels = [decoded(start(server, handle, PEEK_CURRENT, cursor=cursor)).label,
              decoded(start(server, handle, PEEK_NEXT, cursor=cursor)).label,
              decoded(start(server, handle, RECEIVE, cursor=cursor, request_id=1)).label,
              decoded(start(server, handle, RECEIVE, cursor=cursor, request_id=2)).label]
    assert start(server, handle, PEEK_NEXT, cursor=cursor).hresult == HRESULT.MQ_ERROR_ILLEGAL_CURSOR_ACTION
    labels.append(decoded(start(server, handle, PEEK_CURRENT, cursor=cursor)).label)
    assert labels == ["m0", "m1", "m1", "m2", "m3"]


# -- MQ_ERROR_QUEUE_NOT_AVAILABLE / MQ_ERROR_QUEUE_DELETED (D-13) --------------------------------

@pytest.mark.parametrize("action, lookup", [(RECEIVE, False), (PEEK_CURRENT, False),
                                            (A.MQ_LOOKUP_PEEK_CURRENT, True), (A.MQ_LOOKUP_RECEIVE_CURRENT, True)])
def test_d13_reads_on_a_deleted_queue_are_queue_not_available(qm, server, action, lookup):
    """D-13 (MS-MQDMPR 3.1.7.1.10) after Delete Queue, reads on an open handle: MQ_ERROR_QUEUE_NOT_AVAILABLE;
    no entry stays."""
    queue, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    qm.delete_queue(queue)
    call = start(server, handle, action, lookup_id=message.lookup_identifier if lookup else 0)
    assert call.hresult == HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE and not entries(server)


@pytest.mark.parametrize("action", [RECEIVE, PEEK_CURRENT])
def test_d13_waiting_reads_of_a_deleted_queue_end_queue_deleted(qm, server, action):
    """D-13 reads waiting when the queue is deleted end with MQ_ERROR_QUEUE_DELETED; the entry goes (D-52)."""
    queue, fn = make_queue(qm)
    call = start(server, open_handle(server, fn), action, timeout=INFINITE)
    qm.delete_queue(queue)
    assert call.hresult == HRESULT.MQ_ERROR_QUEUE_DELETED and not entries(server)


# -- dwRequestId reuse (D-36) ---------------------------------------------------------------------

@pytest.mark.parametrize("second", [RECEIVE, A.MQ_LOOKUP_RECEIVE_CURRENT])
@pytest.mark.parametrize("first_waits", [False, True])
def test_d36_request_id_in_use_on_the_handle_is_invalid_parameter(qm, server, second, first_waits):
    """D-36 (MS-MQRR:3.1.4.7:34) a receive whose {dwRequestId, handle} already has an entry (locked or still
    waiting): MQ_ERROR_INVALID_PARAMETER; the first request is undisturbed."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    if not first_waits:
        taken = send(qm, fn, b"taken")
    first = start(server, handle, RECEIVE, timeout=INFINITE, request_id=4)
    if first_waits:
        assert not first.done
        taken = send(qm, fn, b"taken")
    assert first.hresult == HRESULT.MQ_OK and state(taken) == State.Locked
    spare = send(qm, fn, b"spare")
    call = start(server, handle, second, lookup_id=spare.lookup_identifier if second != RECEIVE else 0,
                 request_id=4)
    assert call.hresult == HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert state(spare) == State.Available
    assert server.r_end_receive(handle, Ack.RR_ACK, 4) == HRESULT.MQ_OK
    assert gone(taken) and state(spare) == State.Available


def test_d36_request_id_still_waiting_is_invalid_parameter(qm, server):
    """D-36 a second receive with the dwRequestId of a receive still waiting: MQ_ERROR_INVALID_PARAMETER."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    waiting = start(server, handle, RECEIVE, timeout=INFINITE, request_id=4)
    assert start(server, handle, RECEIVE, timeout=INFINITE, request_id=4).hresult == HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert not waiting.done
    send(qm, fn, b"x")
    assert waiting.hresult == HRESULT.MQ_OK


@pytest.mark.parametrize("finish", ["end", "cancel", "other handle"])
def test_d36_request_id_free_again_after_end_or_cancel_and_per_handle(qm, server, finish):
    """D-36 the dwRequestId may be used again once End or Cancel completed; it is scoped to the handle."""
    _, fn = make_queue(qm)
    send(qm, fn, b"a")
    send(qm, fn, b"b")
    handle = open_handle(server, fn)
    if finish == "cancel":
        empty_fn = make_queue(qm, "empty")[1]
        waiting_handle = open_handle(server, empty_fn)
        start(server, waiting_handle, RECEIVE, timeout=INFINITE, request_id=4)
        assert server.r_cancel_receive(waiting_handle, 4) == HRESULT.MQ_OK
        send(qm, empty_fn, b"c")
        assert start(server, waiting_handle, RECEIVE, request_id=4).hresult == HRESULT.MQ_OK
        return
    assert start(server, handle, RECEIVE, request_id=4).hresult == HRESULT.MQ_OK
    if finish == "end":
        assert server.r_end_receive(handle, Ack.RR_ACK, 4) == HRESULT.MQ_OK
        assert start(server, handle, RECEIVE, request_id=4).hresult == HRESULT.MQ_OK
    else:
        assert start(server, open_handle(server, fn), RECEIVE, request_id=4).hresult == HRESULT.MQ_OK


# -- outputs: pdwArriveTime, pSequenceId, the sections (MS-MQRR:3.1.4.7:08 - :14, :21) -----------

@pytest.mark.parametrize("action", [RECEIVE, PEEK_CURRENT, A.MQ_LOOKUP_PEEK_CURRENT, A.MQ_LOOKUP_RECEIVE_CURRENT])
def test_mqrr_3_1_4_7_08_arrive_time_is_enqueue_time_in_epoch_seconds(qm, server, clock, action):
    """MS-MQRR:3.1.4.7:08 / D-53 pdwArriveTime is when the message entered the queue, in seconds since 1970, for
    peeks too; not when it was read."""
    _, fn = make_queue(qm)
    tick(clock, qm, 12_345)
    expected = clock.now_ms() // 1000
    message = send(qm, fn, b"x")
    tick(clock, qm, 7_000)
    call = start(server, open_handle(server, fn), action, lookup_id=message.lookup_identifier
                 if action in LOOKUPS else 0)
    assert call.hresult == HRESULT.MQ_OK
    assert call.pdw_arrive_time == expected == 1_700_000_012


@pytest.mark.parametrize("transactional", [False, True])
def test_mqrr_3_1_4_7_09_sequence_id_is_the_low_seven_bytes_of_the_lookup_id(qm, server, transactional):
    """MS-MQRR:3.1.4.7:09 pSequenceId = Message.LookupIdentifier & 0x00FFFFFFFFFFFFFF (a transactional message's
    high byte 0x07, D-65, is dropped)."""
    _, fn = make_queue(qm, transactional=transactional)
    for n in range(3):
        (send_tx if transactional else send)(qm, fn, bytes([n]))
    message = (send_tx if transactional else send)(qm, fn, b"me")
    lookup_id = message.lookup_identifier
    assert (lookup_id >> 56) == (0x07 if transactional else 0)
    call = start(server, open_handle(server, fn), A.MQ_LOOKUP_PEEK_CURRENT, lookup_id=lookup_id)
    assert call.p_sequence_id == lookup_id & 0x00FFFFFFFFFFFFFF
    assert call.p_sequence_id < 1 << 56


@pytest.mark.parametrize("body, max_body", [(b"0123456789", 10), (b"0123456789", 11), (b"0123456789", BIG),
                                            (b"", 0), (b"x" * 5000, 0xFFFFFFFF)])
def test_mqrr_3_1_4_7_11_one_full_packet_section(qm, server, body, max_body):
    """MS-MQRR:3.1.4.7:11 / :10 dwMaxBodySize >= the body size: one stFullPacket section, SectionSize =
    SectionSizeAlloc = the packet size (BaseHeader.PacketSize), holding the whole packet."""
    _, fn = make_queue(qm)
    send(qm, fn, body, label="full")
    call = start(server, open_handle(server, fn), PEEK_CURRENT, max_body=max_body)
    assert call.pdw_number_of_sections == len(call.pp_packet_sections) == 1
    (section,) = call.pp_packet_sections
    assert section.section_buffer_type == SectionType.stFullPacket
    data = section.p_section_buffer
    assert section.section_size == section.section_size_alloc == len(data) == u32(data, PACKET_SIZE_OFFSET)
    message = decoded(call, max_body)
    assert message.body == body and message.label == "full"


def _full_and_split(qm, server, body, max_body, **properties):
    _, fn = make_queue(qm)
    send(qm, fn, body, **properties)
    handle = open_handle(server, fn)
    full = start(server, handle, PEEK_CURRENT).pp_packet_sections[0].p_section_buffer
    split = start(server, handle, PEEK_CURRENT, max_body=max_body)
    return full, split


@pytest.mark.parametrize("max_body", [0, 1, 7, 15, 16])
@pytest.mark.parametrize("label", ["", "odd", "abcd"])
def test_mqrr_3_1_4_7_12_13_binary_split_sections(qm, server, max_body, label):
    """MS-MQRR:3.1.4.7:12 / :13 / D-61 dwMaxBodySize < body size: a stBinaryFirstSection with the headers and the
    first dwMaxBodySize body bytes, SectionSizeAlloc = offset of the trailers (headers + whole body + padding), then
    a stBinarySecondSection with the trailers, SectionSize = SectionSizeAlloc."""
    body = bytes(range(65, 65 + 17))  # 17 bytes: the padding after it is never 0
    full, call = _full_and_split(qm, server, body, max_body, label=label)
    assert call.hresult == HRESULT.MQ_OK and call.pdw_number_of_sections == 2
    first, second = call.pp_packet_sections
    assert (first.section_buffer_type, second.section_buffer_type) == (SectionType.stBinaryFirstSection,
                                                                       SectionType.stBinarySecondSection)
    header_size = full.index(body)
    assert first.section_size == len(first.p_section_buffer) == header_size + max_body
    assert first.p_section_buffer == full[:first.section_size]
    assert first.section_size_alloc == header_size + len(body) + (-(header_size + len(body)) % 4)  # D-61
    assert first.section_size_alloc % 4 == 0
    assert second.section_size == second.section_size_alloc == len(second.p_section_buffer)
    assert second.p_section_buffer == full[first.section_size_alloc:]
    assert first.section_size_alloc + second.section_size == len(full) == u32(full, PACKET_SIZE_OFFSET)
    message = decoded(call, max_body)
    assert message.body == body[:max_body] and message.body_size == len(body) and message.label == label


@pytest.mark.parametrize("sent_time, ttrq, expected", [
    (1_699_999_000, 3600, 1_700_002_600),
    (1_699_990_000, INFINITE, INFINITE),          # D-64 infinite stays infinite
    (0xFFFF0000, 0x00010000, 0xFFFFFFFE),         # D-64 a finite sum never reads as infinite
])
@pytest.mark.parametrize("max_body", [BIG, 2])
def test_mqrr_3_1_4_7_14_first_section_carries_absolute_time_to_reach_queue(qm, server, sent_time, ttrq, expected,
                                                                            max_body):
    """MS-MQRR:3.1.4.7:14 / D-64 in the first section BaseHeader.TimeToReachQueue = UserHeader.SentTime +
    TimeToReachQueue (0xFFFFFFFF kept), whether the packet is whole or split."""
    _, fn = make_queue(qm)
    send(qm, fn, b"0123456789", sent_time=sent_time, time_to_reach_queue=ttrq)
    call = start(server, open_handle(server, fn), PEEK_CURRENT, max_body=max_body)
    data = call.pp_packet_sections[0].p_section_buffer
    assert u32(data, SENT_TIME_OFFSET) == sent_time
    assert u32(data, TTRQ_OFFSET) == expected
    assert decoded(call, max_body).time_to_reach_queue == expected


def test_mqrr_3_1_4_7_14_received_message_also_gets_absolute_time(qm, server, clock):
    """MS-MQRR:3.1.4.7:14 the rewrite holds for a receive, with the SentTime the queue manager stamped."""
    _, fn = make_queue(qm)
    tick(clock, qm, 5_000)
    send(qm, fn, b"x", time_to_reach_queue=100)
    call = start(server, open_handle(server, fn), RECEIVE)
    data = call.pp_packet_sections[0].p_section_buffer
    assert u32(data, SENT_TIME_OFFSET) == 1_700_000_005
    assert u32(data, TTRQ_OFFSET) == 1_700_000_105


def _srmp(body=b"<b/>", envelope="<se:Envelope/>"):
    message = Message(body, label="srmp")
    compound = b"POST /msmq/private$/orders HTTP/1.1\r\nHost: mqspec\r\n\r\n" + body
    message.set("soap_envelope", envelope)
    message.set("soap_compound_message", compound)
    message.set("soap_body_offset", len(compound) - len(body))
    return message, compound


@pytest.mark.parametrize("delta, max_body", [(0, 0), (0, BIG), (1, 0), (500, 3)])
def test_mqrr_3_1_4_7_11_srmp_whole_when_compound_fits(qm, server, delta, max_body):
    """MS-MQRR:3.1.4.7:11 / :06 / D-62 an SRMP message whose CompoundMessageHeader (16 fixed bytes and its
    data) fits dwMaxCompoundMessageSize: one stFullPacket section, whatever dwMaxBodySize says."""
    _, fn = make_queue(qm)
    message, compound = _srmp()
    assert qm.send_message(fn, message) == (HRESULT.MQ_OK, 0)
    call = start(server, open_handle(server, fn), PEEK_CURRENT, max_body=max_body,
                 max_compound=16 + len(compound) + delta)
    assert [s.section_buffer_type for s in call.pp_packet_sections] == [SectionType.stFullPacket]
    out = decoded(call, max_body, 16 + len(compound) + delta)
    assert out.is_srmp and out.compound_message == compound and out.srmp_envelope == "<se:Envelope/>"


@pytest.mark.parametrize("short_by", [1, 20])
def test_mqrr_3_1_4_7_12_13_srmp_split_sections(qm, server, short_by):
    """MS-MQRR:3.1.4.7:12 / :13 / D-62 dwMaxCompoundMessageSize < the CompoundMessageHeader's size (16 + HTTPBodySize):
    stSrmpFirstSection (headers + the first dwMaxCompoundMessageSize bytes of the CompoundMessageHeader) and
    stSrmpSecondSection (the trailers); dwMaxBodySize does not matter."""
    _, fn = make_queue(qm)
    message, compound = _srmp()
    qm.send_message(fn, message)
    handle = open_handle(server, fn)
    full = start(server, handle, PEEK_CURRENT).pp_packet_sections[0].p_section_buffer
    limit = 16 + len(compound) - short_by
    call = start(server, handle, PEEK_CURRENT, max_body=BIG, max_compound=limit)
    first, second = call.pp_packet_sections
    assert (first.section_buffer_type, second.section_buffer_type) == (SectionType.stSrmpFirstSection,
                                                                       SectionType.stSrmpSecondSection)
    header_offset = full.index(compound) - 16
    assert first.section_size == header_offset + limit and first.p_section_buffer == full[:first.section_size]
    end = header_offset + 16 + len(compound)
    assert first.section_size_alloc == end + (-end % 4)
    assert second.section_size == second.section_size_alloc
    assert second.p_section_buffer == full[first.section_size_alloc:]
    out = decoded(call, BIG, limit)
    assert out.is_srmp and out.compound_message == compound[:limit - 16]


def test_mqrr_3_1_4_7_07_binary_message_ignores_max_compound_size(qm, server):
    """MS-MQRR:3.1.4.7:36 dwMaxCompoundMessageSize is ignored for a binary message: 0 still gives one full packet."""
    _, fn = make_queue(qm)
    send(qm, fn, b"binary body")
    call = start(server, open_handle(server, fn), PEEK_CURRENT, max_body=BIG, max_compound=0)
    assert [s.section_buffer_type for s in call.pp_packet_sections] == [SectionType.stFullPacket]


@pytest.mark.parametrize("action", RECEIVES)
def test_mqrr_3_1_4_7_21_receive_outputs_match_a_peek(qm, server, action):
    """MS-MQRR:3.1.4.7:21 a receive fills the same outputs as a peek of the same message (sections, arrival time,
    sequence id), split the same way."""
    _, fn = make_queue(qm)
    before = send(qm, fn, b"before")
    message = send(qm, fn, b"the message body", label="it")
    after = send(qm, fn, b"after")
    handle = open_handle(server, fn)
    peek = start(server, handle, A.MQ_LOOKUP_PEEK_CURRENT, lookup_id=message.lookup_identifier, max_body=4)
    lookup_id = {RECEIVE: 0, A.MQ_LOOKUP_RECEIVE_CURRENT: message.lookup_identifier,
                 A.MQ_LOOKUP_RECEIVE_NEXT: before.lookup_identifier,
                 A.MQ_LOOKUP_RECEIVE_PREV: after.lookup_identifier}[action]
    if action == RECEIVE:
        start(server, handle, A.MQ_LOOKUP_RECEIVE_CURRENT, lookup_id=before.lookup_identifier, request_id=99)
    call = start(server, handle, action, lookup_id=lookup_id, max_body=4)
    assert call.hresult == HRESULT.MQ_OK
    assert call.pp_packet_sections == peek.pp_packet_sections
    assert (call.pdw_arrive_time, call.p_sequence_id) == (peek.pdw_arrive_time, peek.p_sequence_id)
    assert state(message) == State.Locked


@pytest.mark.parametrize("status_case", ["invalid parameter", "unknown handle", "io timeout", "not found"])
def test_mqrr_3_1_4_7_15_failure_leaves_outputs_empty(qm, server, status_case):
    """MS-MQRR:3.1.4.7:15 on failure the outputs carry nothing (no sections, no arrival time, no sequence id)."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    call = {"invalid parameter": lambda: start(server, handle, PEEK_NEXT),
            "unknown handle": lambda: start(server, bytes(20), PEEK_CURRENT),
            "io timeout": lambda: start(server, handle, RECEIVE),
            "not found": lambda: start(server, handle, A.MQ_LOOKUP_PEEK_CURRENT, lookup_id=77)}[status_case]()
    assert call.hresult != HRESULT.MQ_OK
    assert (call.pdw_number_of_sections, call.pp_packet_sections, call.pdw_arrive_time, call.p_sequence_id) == \
        (0, (), 0, 0)
