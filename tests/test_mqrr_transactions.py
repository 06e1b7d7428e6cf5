"""MS-MQRR R_MoveMessage (opnum 10), R_QMEnlistRemoteTransaction (12), R_StartTransactionalReceive (13),
R_SetUserAcknowledgementClass (14) and R_EndTransactionalReceive (15), on the reference RemoteReadServer.

Subqueues are created as `computer\\private$\\queue;sub` (D-22).  Transactions end through the
queue manager's own events (qm.transaction_commit / qm.transaction_abort), as the coordinator
would drive them.  Tests are named after the clause (MS-MQRR:<section>:<nn>) or decision (D-NN)
they check.
"""

from __future__ import annotations

import pytest

from mqspec.protocol.constants import INFINITE, Access, Ack, AcknowledgementsRequested as Acks, Action, MessageClass
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name as describe
from mqspec.reference.enumerations import MessagePositionState as State
from mqspec.reference.readings import Readings
from mqspec.steps.packet_reader import read_sections
from tests.test_mqrr_support import (
    BIG,
    COMPUTER,
    entries,
    gone,
    labels_of,
    make_queue,
    open_for_move,
    open_handle,
    queue_of,
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
NO_TRANSACTION = bytes(16)
REJECTED = MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED


def enlist(server, transaction_id: bytes, token: bytes = b"\x01\x02\x03") -> int:
    return server.r_qm_enlist_remote_transaction(transaction_id, len(token), token, None)


def with_subqueues(qm, name="orders", *subqueues, transactional=False):
    queue, fn = make_queue(qm, name, transactional=transactional)
    subs = {}
    for sub in subqueues:
        status, subqueue = qm.create_queue(f"{COMPUTER}\\private$\\{name};{sub}")
        assert status == HRESULT.MQ_OK
        subs[sub] = subqueue
    return queue, fn, subs


def admin_classes(queue) -> list[int]:
    return [p.message_reference.message_class for p in queue.message_position_list.positions()]


# -- R_MoveMessage (opnum 10) ------------------------------------------------------------------

@pytest.mark.parametrize("source, target", [("", ";sub"), (";sub", ""), (";sub", ";other")])
def test_mqrr_3_1_4_10_13_move_without_transaction(qm, server, source, target):
    """MS-MQRR:3.1.4.10:13 / :01 a queue to its subqueue, a subqueue to its queue, a subqueue to a sibling, with an
    all-zero XACTUOW: MQ_OK and the message is at once Available in the target (SubqueueName and MoveCounter in
    the packet say so)."""
    queue, fn, subs = with_subqueues(qm, "orders", "sub", "other")
    queues = {"": queue, ";sub": subs["sub"], ";other": subs["other"]}
    message = send(qm, fn, b"x", label="moving")
    if source:
        context, _ = open_for_move(server, fn + source)
        assert server.r_move_message(open_handle(server, fn), context, message.lookup_identifier,
                                     NO_TRANSACTION) == HRESULT.MQ_OK
    context, _ = open_for_move(server, fn + target)
    handle = open_handle(server, fn + source)
    assert server.r_move_message(handle, context, message.lookup_identifier, NO_TRANSACTION) == HRESULT.MQ_OK
    assert queue_of(message) is queues[target] and state(message) == State.Available
    assert labels_of(queues[target]) == ["moving"] and labels_of(queues[source]) == []
    peek = start(server, open_handle(server, fn + target), PEEK)
    decoded = read_sections(peek.pp_packet_sections, BIG, BIG)
    assert decoded.violations == []
    assert decoded.subqueue_name == target.lstrip(";") and decoded.move_counter == (2 if source else 1)


def test_mqrr_3_1_4_10_13_move_wakes_a_reader_of_the_target(qm, server):
    """MS-MQRR:3.1.4.10:13 (MS-MQDMPR 3.1.7.1.16) the moved message is offered to a receive waiting on the target."""
    _, fn, _ = with_subqueues(qm, "orders", "sub")
    message = send(qm, fn, b"x")
    call = start(server, open_handle(server, fn + ";sub"), RECEIVE, timeout=INFINITE)
    context, _ = open_for_move(server, fn + ";sub")
    assert server.r_move_message(open_handle(server, fn), context, message.lookup_identifier,
                                 NO_TRANSACTION) == HRESULT.MQ_OK
    assert call.hresult == HRESULT.MQ_OK and state(message) == State.Locked


@pytest.mark.parametrize("outcome", ["commit", "abort"])
def test_mqrr_3_1_4_10_13_move_inside_a_transaction(qm, server, outcome):
    """MS-MQRR:3.1.4.10:13 with an enlisted transaction the move is provisional (source Locked, TargetSubqueueName
    set): the commit moves the message, the abort leaves it Available where it was."""
    queue, fn, subs = with_subqueues(qm, "orders", "sub", transactional=True)
    message = send_tx(qm, fn, b"x", label="moving")
    assert enlist(server, uow(1)) == HRESULT.MQ_OK
    context, _ = open_for_move(server, fn + ";sub")
    handle = open_handle(server, fn)
    assert server.r_move_message(handle, context, message.lookup_identifier, uow(1)) == HRESULT.MQ_OK
    assert queue_of(message) is queue and state(message) == State.Locked
    assert labels_of(subs["sub"]) == []
    if outcome == "commit":
        assert qm.transaction_commit(uow(1)) == HRESULT.MQ_OK
        assert queue_of(message) is subs["sub"] and state(message) == State.Available
    else:
        assert qm.transaction_abort(uow(1)) == HRESULT.MQ_OK
        assert queue_of(message) is queue and state(message) == State.Available
        assert labels_of(subs["sub"]) == []


@pytest.mark.parametrize("handle_case", ["unknown", "closed"])
def test_mqrr_3_1_4_10_06_unknown_source_handle_fails(qm, server, handle_case):
    """MS-MQRR:3.1.4.10:06 (D-44) the source descriptor is not found: MQ_ERROR_INVALID_HANDLE; nothing moves."""
    queue, fn, _ = with_subqueues(qm, "orders", "sub")
    message = send(qm, fn, b"x")
    context, _ = open_for_move(server, fn + ";sub")
    source = b"\x21" * 20
    if handle_case == "closed":
        source = open_handle(server, fn)
        server.r_close_queue(source)
    assert server.r_move_message(source, context, message.lookup_identifier, NO_TRANSACTION) == \
        HRESULT.MQ_ERROR_INVALID_HANDLE
    assert queue_of(message) is queue


def test_d49_move_source_needs_receive_access(qm, server):
    """D-49 R_MoveMessage's source handle needs ReceiveAccess: a PEEK_ACCESS source is MQ_ERROR_ACCESS_DENIED."""
    queue, fn, _ = with_subqueues(qm, "orders", "sub")
    message = send(qm, fn, b"x")
    context, _ = open_for_move(server, fn + ";sub")
    source = open_handle(server, fn, Access.PEEK_ACCESS)
    assert server.r_move_message(source, context, message.lookup_identifier, NO_TRANSACTION) == \
        HRESULT.MQ_ERROR_ACCESS_DENIED
    assert queue_of(message) is queue


@pytest.mark.parametrize("target", ["unknown value", "zero", "the R_OpenQueue handle as a number",
                                    "the move handle as a number", "closed move context"])
def test_mqrr_3_1_4_10_07_destination_missing_or_not_move_access_is_invalid_handle(qm, server, target):
    """MS-MQRR:3.1.4.10:07 ullContextTo that is no live pMoveContext (including handles of R_OpenQueue, which are
    not MoveAccess): MQ_ERROR_INVALID_HANDLE."""
    queue, fn, _ = with_subqueues(qm, "orders", "sub")
    message = send(qm, fn, b"x")
    source = open_handle(server, fn)
    receive_handle = open_handle(server, fn + ";sub")
    context, move_handle = open_for_move(server, fn + ";sub")
    value = {"unknown value": 0x1234_5678_9ABC_DEF0, "zero": 0,
             "the R_OpenQueue handle as a number": int.from_bytes(receive_handle, "little"),
             "the move handle as a number": int.from_bytes(move_handle, "little"),
             "closed move context": context}[target]
    if target == "closed move context":
        server.r_close_queue(move_handle)
    assert server.r_move_message(source, value, message.lookup_identifier, NO_TRANSACTION) == \
        HRESULT.MQ_ERROR_INVALID_HANDLE
    assert queue_of(message) is queue


@pytest.mark.parametrize("source, target", [("orders", "stock"), ("orders", "stock;sub"), ("orders;sub", "stock"),
                                            ("orders;sub", "stock;sub"), ("orders", "orders")])
def test_mqrr_3_1_4_10_08_unrelated_queues_are_status_invalid_parameter(qm, server, source, target):
    """MS-MQRR:3.1.4.10:08 source and destination not a queue and its subqueue nor two subqueues of one queue
    (the same queue included): STATUS_INVALID_PARAMETER (0xC000000D), checked before the message."""
    with_subqueues(qm, "orders", "sub")
    with_subqueues(qm, "stock", "sub")
    base = f"DIRECT=OS:{COMPUTER}\\private$\\"
    message = send(qm, base + source, b"x")
    context, _ = open_for_move(server, base + target)
    handle = open_handle(server, base + source)
    assert server.r_move_message(handle, context, message.lookup_identifier, NO_TRANSACTION) == \
        HRESULT.STATUS_INVALID_PARAMETER
    assert server.r_move_message(handle, context, 0xDEAD, NO_TRANSACTION) == HRESULT.STATUS_INVALID_PARAMETER
    assert state(message) == State.Available


def test_mqrr_3_1_4_10_09_transaction_with_a_non_transactional_destination(qm, server):
    """MS-MQRR:3.1.4.10:09 a nonzero XACTUOW for a non-transactional destination: MQ_ERROR_TRANSACTION_USAGE,
    before the message is looked up."""
    queue, fn, _ = with_subqueues(qm, "orders", "sub")
    message = send(qm, fn, b"x")
    enlist(server, uow(1))
    context, _ = open_for_move(server, fn + ";sub")
    handle = open_handle(server, fn)
    assert server.r_move_message(handle, context, message.lookup_identifier, uow(1)) == \
        HRESULT.MQ_ERROR_TRANSACTION_USAGE
    assert server.r_move_message(handle, context, 0xDEAD, uow(1)) == HRESULT.MQ_ERROR_TRANSACTION_USAGE
    assert queue_of(message) is queue and state(message) == State.Available


@pytest.mark.parametrize("where", ["no such lookup id", "a message of the destination"])
def test_mqrr_3_1_4_10_10_message_missing_is_message_not_found(qm, server, where):
    """MS-MQRR:3.1.4.10:10 (D-56) LookupId names no message of the source queue: MQ_ERROR_MESSAGE_NOT_FOUND,
    before the transaction is looked up."""
    _, fn, subs = with_subqueues(qm, "orders", "sub", transactional=True)
    elsewhere = send_tx(qm, fn + ";sub", b"x")
    lookup_id = 0xDEAD if where == "no such lookup id" else elsewhere.lookup_identifier
    context, _ = open_for_move(server, fn + ";sub")
    handle = open_handle(server, fn)
    assert server.r_move_message(handle, context, lookup_id, NO_TRANSACTION) == HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND
    assert server.r_move_message(handle, context, lookup_id, uow(9)) == HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND
    assert queue_of(elsewhere) is subs["sub"]


@pytest.mark.parametrize("lock", ["two-phase receive", "transactional receive", "pending transacted move",
                                  "purge pending"])
def test_d39_moving_a_message_that_is_not_available(qm, server, lock):
    """D-39 (MS-MQRR:3.1.4.10:11) a message that is not Available (locked by a read or a transaction, or
    purge-pending): MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION, checked before the transaction."""
    queue, fn, subs = with_subqueues(qm, "orders", "sub", transactional=True)
    message = send_tx(qm, fn, b"x")
    reader = open_handle(server, fn)
    context, _ = open_for_move(server, fn + ";sub")
    if lock == "two-phase receive":
        assert start(server, reader, RECEIVE).hresult == HRESULT.MQ_OK
    elif lock == "transactional receive":
        assert start_tx(server, reader, uow(1), RECEIVE).hresult == HRESULT.MQ_OK
    elif lock == "pending transacted move":
        enlist(server, uow(1))
        assert server.r_move_message(reader, context, message.lookup_identifier, uow(1)) == HRESULT.MQ_OK
    else:
        start(server, reader, RECEIVE)
        server.r_purge_queue(reader)
    expected_state = state(message)
    handle = open_handle(server, fn)
    enlist(server, uow(2))
    for transaction_id in (NO_TRANSACTION, uow(2), uow(3)):
        assert server.r_move_message(handle, context, message.lookup_identifier, transaction_id) == \
            HRESULT.MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION
    assert queue_of(message) is queue and state(message) == expected_state


def test_mqrr_3_1_4_10_12_unknown_transaction_is_transaction_sequence(qm, server):
    """MS-MQRR:3.1.4.10:12 a nonzero XACTUOW that was never enlisted: MQ_ERROR_TRANSACTION_SEQUENCE; nothing
    moves and no transaction is created."""
    queue, fn, _ = with_subqueues(qm, "orders", "sub", transactional=True)
    message = send_tx(qm, fn, b"x")
    context, _ = open_for_move(server, fn + ";sub")
    handle = open_handle(server, fn)
    assert server.r_move_message(handle, context, message.lookup_identifier, uow(5)) == \
        HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE
    assert queue_of(message) is queue and state(message) == State.Available
    assert uow(5) not in qm.transaction_collection


def test_mqrr_3_1_4_10_05_move_on_a_deleted_queue_is_queue_not_available(qm, server):
    """MS-MQRR:3.1.4.10:05 a failure HRESULT when the queues were deleted: MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn, _ = with_subqueues(qm, "orders", "sub")
    message = send(qm, fn, b"x")
    context, _ = open_for_move(server, fn + ";sub")
    handle = open_handle(server, fn)
    qm.delete_queue(queue)
    assert server.r_move_message(handle, context, message.lookup_identifier, NO_TRANSACTION) == \
        HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE


# -- R_QMEnlistRemoteTransaction (opnum 12) -----------------------------------------------------

@pytest.mark.parametrize("token", [b"", b"\x00" * 131072, b"token"])
def test_mqrr_3_1_4_12_05_enlist_creates_the_transaction(qm, server, token):
    """MS-MQRR:3.1.4.12:05 Create Transaction with iTransactionIdentifier = pTransactionId; MQ_OK (token sizes 0
    to 131072; pQueueFormat ignored)."""
    assert server.r_qm_enlist_remote_transaction(uow(1), len(token), token, None) == HRESULT.MQ_OK
    assert uow(1) in qm.transaction_collection
    assert qm.transaction_collection[uow(1)].identifier == uow(1)


def test_d40_enlisting_twice_keeps_one_transaction(qm, server):
    """D-40 a second enlistment of a known transaction: MQ_OK, the same Transaction (its operations kept)."""
    _, fn = make_queue(qm, transactional=True)
    send_tx(qm, fn, b"x")
    assert enlist(server, uow(1)) == HRESULT.MQ_OK
    transaction = qm.transaction_collection[uow(1)]
    start_tx(server, open_handle(server, fn), uow(1), RECEIVE)
    assert enlist(server, uow(1)) == HRESULT.MQ_OK
    assert qm.transaction_collection[uow(1)] is transaction
    assert len(transaction.transactional_operation_collection) == 1


@pytest.mark.parametrize("transaction_id, cb, token", [
    (None, 3, b"abc"),                     # NULL pTransactionId
    (bytes(16), 3, b"abc"),                # D-40 an all-zero XACTUOW
    (b"\x01" * 15, 3, b"abc"),             # not an XACTUOW
    (uow(1), 3, None),                     # NULL pbPropagationToken
    (uow(1), 4, b"abc"),                   # cbPropagationToken is not the token's size
    (uow(1), 2, b"abc"),
    (uow(1), 131073, b"\x00" * 131073),    # beyond range(0, 131072)
    (uow(1), -1, b""),
], ids=["NULL id", "zero id", "short id", "NULL token", "size too big", "size too small", "token > 131072",
        "negative size"])
def test_mqrr_3_1_4_12_03_bad_enlist_parameters(qm, server, transaction_id, cb, token):
    """MS-MQRR:3.1.4.12:03 / :05 a NULL or zero id, a NULL token, a size that is not the token's or beyond 131072:
    a failure HRESULT (MQ_ERROR_INVALID_PARAMETER); no transaction is created."""
    assert server.r_qm_enlist_remote_transaction(transaction_id, cb, token, None) == HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert not qm.transaction_collection


def test_mqrr_3_1_4_12_04_queue_format_is_ignored(qm, server):
    """MS-MQRR:3.1.4.12:04 the server ignores pQueueFormat, even one that names no queue."""
    assert server.r_qm_enlist_remote_transaction(uow(1), 1, b"t", describe("DIRECT=OS:elsewhere\\q")) == HRESULT.MQ_OK
    assert uow(1) in qm.transaction_collection


# -- R_StartTransactionalReceive (opnum 13) -----------------------------------------------------

@pytest.mark.parametrize("action", [RECEIVE, PEEK, A.MQ_LOOKUP_RECEIVE_CURRENT])
def test_mqrr_3_1_4_13_09_null_transaction_is_r_start_receive(qm, server, action):
    """MS-MQRR:3.1.4.13:09 pTransactionId NULL: the call is R_StartReceive (a non-transactional queue works, the
    receive is two-phase and ended with R_EndReceive)."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x", label="plain")
    handle = open_handle(server, fn)
    call = start_tx(server, handle, None, action, lookup_id=message.lookup_identifier
                    if action == A.MQ_LOOKUP_RECEIVE_CURRENT else 0)
    assert call.hresult == HRESULT.MQ_OK
    assert read_sections(call.pp_packet_sections, BIG, BIG).label == "plain"
    if action == PEEK:
        assert state(message) == State.Available and not entries(server)
        return
    assert state(message) == State.Locked and message.transaction_identifier is None
    assert server.r_end_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK and gone(message)


@pytest.mark.parametrize("action, lookup", [(RECEIVE, False), (A.MQ_LOOKUP_RECEIVE_CURRENT, True),
                                            (PEEK, False)])
def test_mqrr_3_1_4_13_11_non_transactional_queue_is_transaction_usage(qm, server, action, lookup):
    """MS-MQRR:3.1.4.13:11 a transaction on a non-transactional queue: MQ_ERROR_TRANSACTION_USAGE; nothing read,
    no entry."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    call = start_tx(server, open_handle(server, fn), uow(1), action,
                    lookup_id=message.lookup_identifier if lookup else 0)
    assert call.hresult == HRESULT.MQ_ERROR_TRANSACTION_USAGE
    assert state(message) == State.Available and not entries(server)


@pytest.mark.parametrize("action, lookup, cursor", [(PEEK, False, False), (PEEK, False, True),
                                                    (A.MQ_ACTION_PEEK_NEXT, False, True),
                                                    (A.MQ_LOOKUP_PEEK_CURRENT, True, False),
                                                    (A.MQ_LOOKUP_PEEK_NEXT, True, False),
                                                    (A.MQ_LOOKUP_PEEK_PREV, True, False)])
def test_d41_peek_with_a_transaction_is_transaction_usage(qm, server, action, lookup, cursor):
    """D-41 (MS-MQRR:3.1.4.13:12) any peek action with a transaction: MQ_ERROR_TRANSACTION_USAGE."""
    _, fn = make_queue(qm, transactional=True)
    messages = [send_tx(qm, fn, bytes([n])) for n in range(3)]
    handle = open_handle(server, fn)
    h_cursor = server.r_create_cursor(handle)[1] if cursor else 0
    if cursor:
        start(server, handle, PEEK, cursor=h_cursor)
    call = start_tx(server, handle, uow(1), action, cursor=h_cursor,
                    lookup_id=messages[1].lookup_identifier if lookup else 0)
    assert call.hresult == HRESULT.MQ_ERROR_TRANSACTION_USAGE


def test_mqrr_3_1_4_13_10_unknown_handle_and_bad_cursor(qm, server):
    """MS-MQRR:3.1.4.13:10 unknown handle: MQ_ERROR_INVALID_HANDLE; a bad cursor: STATUS_INVALID_HANDLE, checked
    before the queue's Transactional attribute."""
    _, fn = make_queue(qm)
    send(qm, fn, b"x")
    assert start_tx(server, b"\x31" * 20, uow(1), RECEIVE).hresult == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert start_tx(server, open_handle(server, fn), uow(1), RECEIVE, cursor=0x5555).hresult == \
        HRESULT.STATUS_INVALID_HANDLE


@pytest.mark.parametrize("enlisted", [True, False])
@pytest.mark.parametrize("outcome", ["commit", "abort"])
def test_mqrr_3_1_4_13_14_receive_inside_a_transaction(qm, server, enlisted, outcome):
    """MS-MQRR:3.1.4.13:14 / :13 / D-50 a receive in an enlisted transaction locks the message in it: the commit
    deletes it, the abort makes it Available again.  A transaction never enlisted is refused (D-50 sequence)."""
    queue, fn = make_queue(qm, transactional=True)
    message = send_tx(qm, fn, b"x", label="m")
    handle = open_handle(server, fn)
    if not enlisted:
        call = start_tx(server, handle, uow(1), RECEIVE, request_id=1, enlisted=False)
        assert call.hresult == HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE  # D-50 sequence
        assert uow(1) not in qm.transaction_collection and state(message) == State.Available
        assert not entries(server, handle)
        return
    assert start_tx(server, handle, uow(1), RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    assert state(message) == State.Locked and message.transaction_identifier == uow(1)
    assert server.pending_request_table[(1, handle)].lookup_identifier == message.lookup_identifier
    if outcome == "commit":
        assert qm.transaction_commit(uow(1)) == HRESULT.MQ_OK
        assert gone(message)
    else:
        assert qm.transaction_abort(uow(1)) == HRESULT.MQ_OK
        assert state(message) == State.Available and labels_of(queue) == ["m"]


@pytest.mark.parametrize("action", [A.MQ_LOOKUP_RECEIVE_CURRENT, A.MQ_LOOKUP_RECEIVE_NEXT,
                                    A.MQ_LOOKUP_RECEIVE_PREV])
def test_mqrr_3_1_4_13_14_lookup_receive_inside_a_transaction(qm, server, action):
    """MS-MQRR:3.1.4.13:14 MQ_LOOKUP_RECEIVE_* with a transaction: the message read is Locked in it, an entry is
    filed (D-51), and the commit deletes exactly that message."""
    _, fn = make_queue(qm, transactional=True)
    messages = [send_tx(qm, fn, bytes([n]), label=f"m{n}") for n in range(3)]
    handle = open_handle(server, fn)
    call = start_tx(server, handle, uow(1), action, lookup_id=messages[1].lookup_identifier, request_id=2)
    taken = next(m for m in messages if m.label == read_sections(call.pp_packet_sections, BIG, BIG).label)
    assert state(taken) == State.Locked and (2, handle) in server.pending_request_table
    qm.transaction_commit(uow(1))
    assert [gone(m) for m in messages] == [m is taken for m in messages]


def test_mqrr_3_1_4_13_06_outputs_as_in_r_start_receive(qm, server, clock):
    """MS-MQRR:3.1.4.13:06 / :15 outputs as in 3.1.4.7: arrival time in epoch seconds, low 7 bytes of the lookup id,
    the sections split by dwMaxBodySize."""
    _, fn = make_queue(qm, transactional=True)
    tick(clock, qm, 3_000)
    message = send_tx(qm, fn, b"0123456789")
    call = start_tx(server, open_handle(server, fn), uow(1), RECEIVE, max_body=4)
    assert call.hresult == HRESULT.MQ_OK
    assert call.pdw_arrive_time == 1_700_000_003
    assert call.p_sequence_id == message.lookup_identifier & 0x00FFFFFFFFFFFFFF != message.lookup_identifier
    assert [s.section_buffer_type for s in call.pp_packet_sections] == [1, 2]
    decoded = read_sections(call.pp_packet_sections, 4, BIG)
    assert decoded.violations == [] and decoded.body == b"0123" and decoded.transactional


def test_mqrr_3_1_4_13_14_waiting_transactional_receive(qm, server, clock):
    """MS-MQRR:3.1.4.13:14 a transactional receive waits (ulTimeout) like R_StartReceive: the arriving message is
    locked in the transaction; with nothing arriving it ends MQ_ERROR_IO_TIMEOUT and leaves no entry."""
    _, fn = make_queue(qm, transactional=True)
    handle = open_handle(server, fn)
    call = start_tx(server, handle, uow(1), RECEIVE, timeout=5_000, request_id=1)
    message = send_tx(qm, fn, b"x")
    assert call.hresult == HRESULT.MQ_OK and message.transaction_identifier == uow(1)
    late = start_tx(server, handle, uow(1), RECEIVE, timeout=5_000, request_id=2)
    tick(clock, qm, 5_000)
    assert late.hresult == HRESULT.MQ_ERROR_IO_TIMEOUT and (2, handle) not in server.pending_request_table


def test_d57_close_and_rundown_leave_transactional_locks_to_the_transaction(qm, server):
    """D-57 / D-45 closing or running down a handle drops its transactional entries but leaves their messages to
    the transaction: still Locked, deleted by the commit."""
    _, fn = make_queue(qm, transactional=True)
    first, second = send_tx(qm, fn, b"1"), send_tx(qm, fn, b"2")
    closed, run_down = open_handle(server, fn), open_handle(server, fn)
    start_tx(server, closed, uow(1), RECEIVE)
    start_tx(server, run_down, uow(1), RECEIVE)
    assert server.r_close_queue(closed)[0] == HRESULT.MQ_OK
    assert server.rundown(run_down) == HRESULT.MQ_OK
    assert not entries(server) and state(first) == state(second) == State.Locked
    qm.transaction_commit(uow(1))
    assert gone(first) and gone(second)


# -- R_SetUserAcknowledgementClass (opnum 14) ----------------------------------------------------

def _received_in_transaction(qm, server, **properties):
    _, fn = make_queue(qm, transactional=True)
    admin, admin_fn = make_queue(qm, "admin")
    message = send_tx(qm, fn, b"body", administration_queue_format_name=admin_fn, **properties)
    handle = open_handle(server, fn)
    assert start_tx(server, handle, uow(1), RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    assert server.r_end_transactional_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    return message, handle, admin, fn


def test_mqrr_3_1_4_14_05_rejected_message_is_deleted_with_nack_receive_rejected(qm, server):
    """MS-MQRR:3.1.4.14:05 usClass = MQMSG_CLASS_NACK_RECEIVE_REJECTED: MQ_OK, and the commit removes the message
    with reason NackReceiveRejected: a NACK_RECEIVE_REJECTED acknowledgment instead of ACK_RECEIVE."""
    message, handle, admin, _ = _received_in_transaction(qm, server,
                                                         acknowledgements_requested=Acks.ACK_FULL_RECEIVE)
    assert server.r_set_user_acknowledgement_class(handle, message.lookup_identifier, REJECTED) == HRESULT.MQ_OK
    assert admin_classes(admin) == []
    assert qm.transaction_commit(uow(1)) == HRESULT.MQ_OK
    assert gone(message) and admin_classes(admin) == [REJECTED]


def test_mqrr_3_1_4_14_05_class_zero_changes_nothing(qm, server):
    """MS-MQRR:3.1.4.14:05 usClass 0: MQ_OK and no change: the commit sends the ordinary ACK_RECEIVE."""
    message, handle, admin, _ = _received_in_transaction(qm, server,
                                                         acknowledgements_requested=Acks.ACK_FULL_RECEIVE)
    assert server.r_set_user_acknowledgement_class(handle, message.lookup_identifier, 0) == HRESULT.MQ_OK
    qm.transaction_commit(uow(1))
    assert admin_classes(admin) == [MessageClass.MQMSG_CLASS_ACK_RECEIVE]


def test_mqrr_3_1_4_14_05_rejected_then_aborted_is_available_without_acknowledgment(qm, server):
    """MS-MQRR:3.1.4.14:05 the rejection only takes effect at commit: an abort makes the message Available again and
    sends nothing."""
    message, handle, admin, _ = _received_in_transaction(qm, server,
                                                         acknowledgements_requested=Acks.ACK_FULL_RECEIVE)
    server.r_set_user_acknowledgement_class(handle, message.lookup_identifier, REJECTED)
    qm.transaction_abort(uow(1))
    assert state(message) == State.Available and admin_classes(admin) == []


@pytest.mark.parametrize("us_class", [0x0001, MessageClass.MQMSG_CLASS_ACK_RECEIVE,
                                      MessageClass.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT, 0xFFFF])
@pytest.mark.parametrize("reading", ["any-nonzero-rejects", "refuse"])
def test_d58_other_classes(qm, server, us_class, reading):
    """D-58 (MS-MQRR:3.1.4.14:03 / :05) usClass other than 0 and 0xC004: a rejection like 0xC004 (the processing,
    the reference's reading), or MQ_ERROR_INVALID_PARAMETER and nothing changes (`refuse`)."""
    qm.readings = Readings({"D-58": reading})
    message, handle, admin, _ = _received_in_transaction(qm, server,
                                                         acknowledgements_requested=Acks.ACK_FULL_RECEIVE)
    status = server.r_set_user_acknowledgement_class(handle, message.lookup_identifier, us_class)
    qm.transaction_commit(uow(1))
    if reading == "refuse":
        assert status == HRESULT.MQ_ERROR_INVALID_PARAMETER
        assert admin_classes(admin) == [MessageClass.MQMSG_CLASS_ACK_RECEIVE]
    else:
        assert status == HRESULT.MQ_OK and admin_classes(admin) == [REJECTED]


def test_mqrr_3_1_4_14_04_unknown_handle_is_invalid_handle(qm, server):
    """MS-MQRR:3.1.4.14:04 (D-44) the handle is not found: MQ_ERROR_INVALID_HANDLE."""
    message, _, _, _ = _received_in_transaction(qm, server)
    assert server.r_set_user_acknowledgement_class(b"\x41" * 20, message.lookup_identifier, REJECTED) == \
        HRESULT.MQ_ERROR_INVALID_HANDLE


def test_d49_set_class_needs_receive_access(qm, server):
    """D-49 R_SetUserAcknowledgementClass through a PEEK_ACCESS handle: MQ_ERROR_ACCESS_DENIED."""
    message, _, _, fn = _received_in_transaction(qm, server)
    peeker = open_handle(server, fn, Access.PEEK_ACCESS)
    assert server.r_set_user_acknowledgement_class(peeker, message.lookup_identifier, REJECTED) == \
        HRESULT.MQ_ERROR_ACCESS_DENIED


def test_mqrr_3_1_4_14_04_unknown_message_is_message_not_found(qm, server):
    """MS-MQRR:3.1.4.14:04 no message with that LookupId in the queue: MQ_ERROR_MESSAGE_NOT_FOUND."""
    message, handle, _, _ = _received_in_transaction(qm, server)
    assert server.r_set_user_acknowledgement_class(handle, message.lookup_identifier + 1, REJECTED) == \
        HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND


@pytest.mark.parametrize("how", ["available", "two-phase receive"])
def test_mqrr_3_1_4_14_04_message_not_received_in_a_transaction_is_transaction_usage(qm, server, how):
    """MS-MQRR:3.1.4.14:04 no TransactionalOperation references the message (Available, or locked by a plain
    two-phase receive): MQ_ERROR_TRANSACTION_USAGE."""
    _, fn = make_queue(qm, transactional=True)
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    if how == "two-phase receive":
        assert start(server, handle, RECEIVE).hresult == HRESULT.MQ_OK
    assert server.r_set_user_acknowledgement_class(handle, message.lookup_identifier, REJECTED) == \
        HRESULT.MQ_ERROR_TRANSACTION_USAGE


def test_mqrr_3_1_4_14_04_a_transacted_move_is_a_transactional_operation(qm, server):
    """MS-MQRR:3.1.4.14:04 any TransactionalOperation on the message counts, a Move included: MQ_OK."""
    _, fn = make_queue(qm, transactional=True)
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    enlist(server, uow(1))
    context, _ = open_for_move(server, fn + ";sub")
    assert server.r_move_message(handle, context, message.lookup_identifier, uow(1)) == HRESULT.MQ_OK
    assert server.r_set_user_acknowledgement_class(handle, message.lookup_identifier, REJECTED) == HRESULT.MQ_OK


# -- R_EndTransactionalReceive (opnum 15) --------------------------------------------------------

@pytest.mark.parametrize("outcome", ["commit", "abort"])
def test_mqrr_3_1_4_15_03_rr_ack_does_not_remove_before_commit(qm, server, outcome):
    """MS-MQRR:3.1.4.15:03 RR_ACK: MQ_OK, the entry goes but the message stays Locked until the transaction ends:
    the commit removes it, the abort makes it Available."""
    _, fn = make_queue(qm, transactional=True)
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    start_tx(server, handle, uow(1), RECEIVE, request_id=1)
    assert server.r_end_transactional_receive(handle, Ack.RR_ACK, 1) == HRESULT.MQ_OK
    assert state(message) == State.Locked and not entries(server)
    (qm.transaction_commit if outcome == "commit" else qm.transaction_abort)(uow(1))
    assert gone(message) if outcome == "commit" else state(message) == State.Available


@pytest.mark.parametrize("outcome", ["commit", "abort"])
def test_mqrr_3_1_4_15_04_rr_nack_releases_the_message_from_its_transaction(qm, server, outcome):
    """MS-MQRR:3.1.4.15:04 / :05 (D-66 released) RR_NACK takes the Dequeue out of the transaction and makes the
    message Available at once; the transaction's outcome no longer touches it."""
    _, fn = make_queue(qm, transactional=True)
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    start_tx(server, handle, uow(1), RECEIVE, request_id=1)
    assert server.r_end_transactional_receive(handle, Ack.RR_NACK, 1) == HRESULT.MQ_OK
    assert state(message) == State.Available and not entries(server)
    assert message.transaction_identifier is None
    assert not qm.transaction_collection[uow(1)].transactional_operation_collection
    finish = qm.transaction_commit if outcome == "commit" else qm.transaction_abort
    assert finish(uow(1)) == HRESULT.MQ_OK
    assert state(message) == State.Available


def test_d66_stays_locked_leaves_the_message_to_the_transaction(qm, server):
    """MS-MQRR:3.1.4.15:05 (A8, D-66 stays-locked) Dequeue Message End with iTransactional = True changes nothing
    on RR_NACK: the message is not deleted, stays in the transaction, and the abort makes it Available."""
    qm.readings = Readings({"D-66": "stays-locked"})
    _, fn = make_queue(qm, transactional=True)
    message = send_tx(qm, fn, b"x")
    handle = open_handle(server, fn)
    start_tx(server, handle, uow(1), RECEIVE, request_id=1)
    assert server.r_end_transactional_receive(handle, Ack.RR_NACK, 1) == HRESULT.MQ_OK
    assert not gone(message) and not entries(server)
    assert state(message) == State.Locked and message.transaction_identifier == uow(1)
    qm.transaction_abort(uow(1))
    assert state(message) == State.Available


@pytest.mark.parametrize("case, expected", [
    ("no entry for the handle", HRESULT.MQ_ERROR_INVALID_HANDLE),
    ("unknown request id", HRESULT.MQ_ERROR_INVALID_PARAMETER),
    ("still waiting", HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND),
    ("committed before End", HRESULT.MQ_ERROR_MESSAGE_NOT_FOUND),
    ("aborted before End", HRESULT.MQ_ERROR_TRANSACTION_SEQUENCE),
    ("queue deleted", HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE),
])
def test_mqrr_3_1_4_15_05_statuses_as_r_end_receive(qm, server, case, expected):
    """MS-MQRR:3.1.4.15:05 the steps of 3.1.4.9: no entry for the handle MQ_ERROR_INVALID_HANDLE, unknown key
    MQ_ERROR_INVALID_PARAMETER, message missing MQ_ERROR_MESSAGE_NOT_FOUND (D-38 while waiting), then Dequeue Message
    End's MQ_ERROR_TRANSACTION_SEQUENCE (Available again) or MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn = make_queue(qm, transactional=True)
    handle = open_handle(server, fn)
    if case == "still waiting":
        call = start_tx(server, handle, uow(1), RECEIVE, timeout=INFINITE, request_id=1)
        assert server.r_end_transactional_receive(handle, Ack.RR_ACK, 1) == expected
        assert not call.done and (1, handle) in server.pending_request_table  # D-38 the entry stays
        return
    message = send_tx(qm, fn, b"x")
    if case != "no entry for the handle":
        start_tx(server, handle, uow(1), RECEIVE, request_id=1)
    if case == "committed before End":
        qm.transaction_commit(uow(1))
    elif case == "aborted before End":
        qm.transaction_abort(uow(1))
    elif case == "queue deleted":
        qm.delete_queue(queue)
    request_id = 2 if case == "unknown request id" else 1
    assert server.r_end_transactional_receive(handle, Ack.RR_ACK, request_id) == expected
    if case == "unknown request id":
        assert state(message) == State.Locked and (1, handle) in server.pending_request_table
    elif case == "aborted before End":
        assert state(message) == State.Available and not entries(server)
