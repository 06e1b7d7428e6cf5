"""MS-MQRR opnums 0, 2-6 and 11 and the rundown (3.1.6): ports, queue handles, cursors, purge.

Each test is named after the clause (MS-MQRR:<section>:<nn>, spec/clauses/ms-mqrr.toml) or
the decision (D-NN, spec/decisions.md) it checks; the docstring's first line repeats it.
Everything runs on the reference RemoteReadServer in virtual time.
"""

from __future__ import annotations

import uuid

import pytest

from mqspec.protocol.constants import (
    INFINITE,
    Access,
    Ack,
    AcknowledgementsRequested as Acks,
    Action,
    MessageClass,
    QueueFormatType as T,
    ShareMode,
)
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import QueueFormat, from_format_name as describe
from mqspec.reference.enumerations import MessagePositionState as State
from mqspec.reference.remote_read import RemoteReadServer
from tests.test_mqrr_support import (
    CLIENT_ID,
    COMPUTER,
    entries,
    gone,
    labels_of,
    make_queue,
    open_for_move,
    open_handle,
    send,
    start,
    state,
    tick,
)

NULL = bytes(20)
RECEIVE, PEEK = Action.MQ_ACTION_RECEIVE, Action.MQ_ACTION_PEEK_CURRENT


def open_status(server, queue_format, access=Access.RECEIVE_ACCESS, share=ShareMode.MQ_DENY_NONE,
                client_id=CLIENT_ID):
    return server.r_open_queue(queue_format, access, share, client_id)


# -- R_GetServerPort (opnum 0) ---------------------------------------------------------------

def test_mqrr_3_1_4_1_01_default_port_is_2103(qm):
    """MS-MQRR:3.1.4.1:01 R_GetServerPort reports the RemoteRead port, 2103 by default."""
    assert RemoteReadServer(qm).r_get_server_port() == 2103


def test_mqrr_3_1_4_1_04_configured_port_is_reported_nonzero(qm):
    """MS-MQRR:3.1.4.1:04 a nonzero port on success (here the configured 2103 + 11)."""
    port = RemoteReadServer(qm, port=2114).r_get_server_port()
    assert port == 2114 and port != 0


# -- R_OpenQueue (opnum 2) -------------------------------------------------------------------

def _formats(qm):
    """One QUEUE_FORMAT per accepted m_qft, each naming a queue of the reference QM."""
    _, orders = qm.create_queue(f"{COMPUTER}\\private$\\orders")
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    _, public = qm.create_queue(f"{COMPUTER}\\pubq")
    qm_guid = uuid.UUID(bytes_le=qm.identifier)
    return {
        "PUBLIC": QueueFormat(T.QUEUE_FORMAT_TYPE_PUBLIC, guid=uuid.UUID(bytes_le=public.identifier)),
        "PRIVATE": QueueFormat(T.QUEUE_FORMAT_TYPE_PRIVATE, guid=qm_guid, uniquifier=orders.private_queue_number),
        "DIRECT=OS": describe(f"DIRECT=OS:{COMPUTER}\\private$\\orders"),
        "DIRECT=TCP": describe("DIRECT=TCP:127.0.0.1\\private$\\orders"),
        "MACHINE;JOURNAL": describe(f"MACHINE={qm_guid};JOURNAL"),
        "MACHINE;DEADLETTER": describe(f"MACHINE={qm_guid};DEADLETTER"),
        "MACHINE;DEADXACT": describe(f"MACHINE={qm_guid};DEADXACT"),
        "SUBQUEUE": describe(f"DIRECT=OS:{COMPUTER}\\private$\\orders;sub"),
    }


@pytest.mark.parametrize("kind", ["PUBLIC", "PRIVATE", "DIRECT=OS", "DIRECT=TCP", "MACHINE;JOURNAL",
                                  "MACHINE;DEADLETTER", "MACHINE;DEADXACT", "SUBQUEUE"])
def test_mqrr_3_1_4_2_15_every_accepted_format_type_opens(qm, server, kind):
    """MS-MQRR:3.1.4.2:15 on MQ_OK pphContext is a live 20-byte handle (PUBLIC, PRIVATE, DIRECT, MACHINE, SUBQUEUE)."""
    out = open_status(server, _formats(qm)[kind])
    assert out.hresult == HRESULT.MQ_OK
    assert len(out.pph_context) == 20 and out.pph_context != NULL
    status, cursor = server.r_create_cursor(out.pph_context)  # the handle works
    assert status == HRESULT.MQ_OK and cursor


def test_mqrr_3_1_4_2_10_each_open_gets_its_own_handle(qm, server):
    """MS-MQRR:3.1.4.2:10 every R_OpenQueue returns a new context handle."""
    _, fn = make_queue(qm)
    handles = {open_handle(server, fn) for _ in range(5)}
    assert len(handles) == 5 and NULL not in handles


def _guid():
    return uuid.UUID("0badc0de-0000-4000-8000-000000000001")


BAD_FORMATS = {
    "NULL pQueueFormat": None,
    "UNKNOWN": QueueFormat(T.QUEUE_FORMAT_TYPE_UNKNOWN),
    "CONNECTOR": QueueFormat(T.QUEUE_FORMAT_TYPE_CONNECTOR, guid=_guid()),
    "DL": QueueFormat(T.QUEUE_FORMAT_TYPE_DL, guid=_guid()),
    "MULTICAST": QueueFormat(T.QUEUE_FORMAT_TYPE_MULTICAST, multicast_address=0xE0000001, multicast_port=1801),
    "m_qft 9": QueueFormat(9, direct_id=f"OS:{COMPUTER}\\private$\\orders"),
    "m_qft 255": QueueFormat(255),
    "PUBLIC;DEADLETTER": QueueFormat(T.QUEUE_FORMAT_TYPE_PUBLIC, 0x82, guid=_guid()),
    "PRIVATE;DEADXACT": QueueFormat(T.QUEUE_FORMAT_TYPE_PRIVATE, 0x83, guid=_guid(), uniquifier=1),
    "DIRECT;JOURNAL without the system flag": QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, 0x01,
                                                          direct_id=f"OS:{COMPUTER}\\private$\\orders"),
    "DIRECT with the SUBQUEUE suffix": QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, 0x05,
                                                   direct_id=f"OS:{COMPUTER}\\private$\\orders"),
    "SUBQUEUE;JOURNAL": QueueFormat(T.QUEUE_FORMAT_TYPE_SUBQUEUE, 0x81,
                                    direct_id=f"OS:{COMPUTER}\\private$\\orders;sub"),
    "MACHINE without a suffix": QueueFormat(T.QUEUE_FORMAT_TYPE_MACHINE, 0x00, guid=_guid()),
    "PUBLIC without a GUID": QueueFormat(T.QUEUE_FORMAT_TYPE_PUBLIC),
    "DIRECT without a name": QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, direct_id=""),
    "DIRECT=HTTP": QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, direct_id=f"HTTP://{COMPUTER}/msmq/private$/orders"),
    "DIRECT=HTTPS": QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, direct_id=f"HTTPS://{COMPUTER}/msmq/private$/orders"),
    "DIRECT with a garbage name": QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, direct_id="%%%"),
}


@pytest.mark.parametrize("case", list(BAD_FORMATS))
@pytest.mark.parametrize("opnum", ["R_OpenQueue", "R_OpenQueueForMove"])
def test_mqrr_3_1_4_2_12_invalid_queue_format_is_invalid_parameter(qm, server, case, opnum):
    """MS-MQRR:3.1.4.2:12 (and 3.1.4.11:02) NULL, a type outside PUBLIC/PRIVATE/DIRECT/MACHINE/SUBQUEUE, a bad
    suffix combination or a DIRECT name with a protocol other than TCP/OS: MQ_ERROR_INVALID_PARAMETER."""
    make_queue(qm)
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    method = server.r_open_queue if opnum == "R_OpenQueue" else server.r_open_queue_for_move
    access = Access.RECEIVE_ACCESS if opnum == "R_OpenQueue" else Access.MQ_MOVE_ACCESS
    out = method(BAD_FORMATS[case], access, ShareMode.MQ_DENY_NONE, CLIENT_ID)
    assert out.hresult == HRESULT.MQ_ERROR_INVALID_PARAMETER
    assert out.pph_context == NULL and not server.context_handles


@pytest.mark.parametrize("opnum", ["R_OpenQueue", "R_OpenQueueForMove"])
def test_mqrr_3_1_4_2_12_null_client_id_is_invalid_parameter(qm, server, opnum):
    """MS-MQRR:3.1.4.2:12 pClientId must not be NULL: MQ_ERROR_INVALID_PARAMETER."""
    _, fn = make_queue(qm)
    method = server.r_open_queue if opnum == "R_OpenQueue" else server.r_open_queue_for_move
    out = method(describe(fn), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE, None)
    assert out.hresult == HRESULT.MQ_ERROR_INVALID_PARAMETER and out.pph_context == NULL


@pytest.mark.parametrize("name", [
    f"DIRECT=OS:{COMPUTER}\\private$\\nosuch",
    f"DIRECT=OS:{COMPUTER}\\nosuch",
    "DIRECT=OS:elsewhere\\private$\\orders",
    "DIRECT=TCP:10.9.9.9\\private$\\orders",
    f"DIRECT=OS:{COMPUTER}\\private$\\orders;nosub",
    "PUBLIC=0badc0de-0000-4000-8000-000000000001",
    "MACHINE=0badc0de-0000-4000-8000-000000000001;JOURNAL",
])
@pytest.mark.parametrize("opnum", ["R_OpenQueue", "R_OpenQueueForMove"])
def test_mqrr_3_1_4_2_13_unknown_queue_is_queue_not_found(qm, server, name, opnum):
    """MS-MQRR:3.1.4.2:13 (and 3.1.4.11:10) a queue not in QueueCollection: MQ_ERROR_QUEUE_NOT_FOUND."""
    make_queue(qm)
    method = server.r_open_queue if opnum == "R_OpenQueue" else server.r_open_queue_for_move
    out = method(describe(name), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE, CLIENT_ID)
    assert out.hresult == HRESULT.MQ_ERROR_QUEUE_NOT_FOUND and out.pph_context == NULL


def test_mqrr_3_1_4_2_13_private_number_of_no_queue_is_queue_not_found(qm, server):
    """MS-MQRR:3.1.4.2:13 PRIVATE=<this QM>\\<unused number>: MQ_ERROR_QUEUE_NOT_FOUND."""
    make_queue(qm)
    queue_format = QueueFormat(T.QUEUE_FORMAT_TYPE_PRIVATE, guid=uuid.UUID(bytes_le=qm.identifier), uniquifier=99)
    assert open_status(server, queue_format).hresult == HRESULT.MQ_ERROR_QUEUE_NOT_FOUND


def test_mqrr_3_1_4_2_04_client_id_and_version_numbers_are_ignored(qm, server):
    """MS-MQRR:3.1.4.2:04 / 3.1.4.2:06 / 3.1.4.2:16 pClientId, fNonRoutingServer, Major, Minor, BuildNumber and
    fWorkgroup do not change the outcome."""
    _, fn = make_queue(qm)
    for client_id, routing, major, minor, build, workgroup in [
            (CLIENT_ID, 1, 6, 0, 0, 0), (bytes(16), 0, 5, 2, 9999, 1), (b"\xff" * 16, 0, 255, 255, 65535, 7)]:
        out = server.r_open_queue(describe(fn), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE, client_id,
                                  routing, major, minor, build, workgroup)
        assert out.hresult == HRESULT.MQ_OK


@pytest.mark.parametrize("dw_access", [Access.PEEK_ACCESS, Access.SEND_ACCESS, Access.MQ_MOVE_ACCESS, 0,
                                       Access.RECEIVE_ACCESS | Access.PEEK_ACCESS, 0xFFFFFFFF])
def test_d42_any_access_but_receive_access_gives_peek_access(qm, server, dw_access):
    """D-42 (MS-MQRR:3.1.4.2:14) dwAccess other than RECEIVE_ACCESS opens with PeekAccess: peeks work,
    receives are MQ_ERROR_ACCESS_DENIED, purge is STATUS_ACCESS_DENIED; no value is refused."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    out = open_status(server, describe(fn), dw_access)
    assert out.hresult == HRESULT.MQ_OK
    handle = out.pph_context
    assert start(server, handle, PEEK).hresult == HRESULT.MQ_OK
    assert start(server, handle, RECEIVE).hresult == HRESULT.MQ_ERROR_ACCESS_DENIED
    assert server.r_purge_queue(handle) == HRESULT.STATUS_ACCESS_DENIED
    assert state(message) == State.Available


def test_mqrr_3_1_4_2_14_receive_access_allows_receive(qm, server):
    """MS-MQRR:3.1.4.2:14 RECEIVE_ACCESS opens with ReceiveAccess: peek and receive both work."""
    _, fn = make_queue(qm)
    send(qm, fn, b"x")
    handle = open_handle(server, fn, Access.RECEIVE_ACCESS)
    assert start(server, handle, PEEK).hresult == HRESULT.MQ_OK
    assert start(server, handle, RECEIVE).hresult == HRESULT.MQ_OK


@pytest.mark.parametrize("first, second, expected", [
    # MS-MQDMPR 3.1.7.1.5: (ReceiveAccess, DenyReceive) already open refuses DenyReceive and ReceiveAccess
    ((Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_SHARE), (Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE),
     HRESULT.MQ_ERROR_SHARING_VIOLATION),
    ((Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_SHARE), (Access.PEEK_ACCESS, ShareMode.MQ_DENY_SHARE),
     HRESULT.MQ_ERROR_SHARING_VIOLATION),
    ((Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_SHARE), (Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE),
     HRESULT.MQ_OK),
    # (PeekAccess, DenyReceive) refuses a new ReceiveAccess
    ((Access.PEEK_ACCESS, ShareMode.MQ_DENY_SHARE), (Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE),
     HRESULT.MQ_ERROR_SHARING_VIOLATION),
    ((Access.PEEK_ACCESS, ShareMode.MQ_DENY_SHARE), (Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE),
     HRESULT.MQ_OK),
    # (ReceiveAccess, DenyNone) refuses a new DenyReceive
    ((Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE), (Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_SHARE),
     HRESULT.MQ_ERROR_SHARING_VIOLATION),
    ((Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE), (Access.PEEK_ACCESS, 7),  # any nonzero mode = DenyReceive
     HRESULT.MQ_ERROR_SHARING_VIOLATION),
    ((Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE), (Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE),
     HRESULT.MQ_OK),
])
def test_d43_open_queue_status_is_thrown_sharing_violation(qm, server, first, second, expected):
    """D-43 (MS-MQRR:3.1.4.2:14) the Open Queue status is what R_OpenQueue throws: MQ_ERROR_SHARING_VIOLATION
    by the sharing rules of MS-MQDMPR 3.1.7.1.5, dwShareMode other than MQ_DENY_NONE meaning DenyReceive."""
    _, fn = make_queue(qm)
    assert open_status(server, describe(fn), *first).hresult == HRESULT.MQ_OK
    out = open_status(server, describe(fn), *second)
    assert out.hresult == expected
    if expected != HRESULT.MQ_OK:
        assert out.pph_context == NULL


def test_mqrr_3_1_4_3_05_closing_an_exclusive_handle_lifts_the_sharing_violation(qm, server):
    """MS-MQRR:3.1.4.3:05 Close Queue detaches the descriptor: a DENY_SHARE handle closed no longer blocks."""
    _, fn = make_queue(qm)
    exclusive = open_handle(server, fn, Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_SHARE)
    assert open_status(server, describe(fn)).hresult == HRESULT.MQ_ERROR_SHARING_VIOLATION
    assert server.r_close_queue(exclusive)[0] == HRESULT.MQ_OK
    assert open_status(server, describe(fn)).hresult == HRESULT.MQ_OK


# -- R_OpenQueueForMove (opnum 11) -------------------------------------------------------------

def test_mqrr_3_1_4_11_08_move_context_is_random_nonzero_and_not_the_handle(qm, server):
    """MS-MQRR:3.1.4.11:08 pMoveContext is a nonzero random value per open, distinct from the handle, and
    pphContext is a live handle."""
    _, orders = qm.create_queue(f"{COMPUTER}\\private$\\orders")
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    seen = set()
    for _ in range(16):
        context, handle = open_for_move(server, f"DIRECT=OS:{COMPUTER}\\private$\\orders;sub")
        assert context != 0 and context not in seen
        assert context not in (int.from_bytes(handle, "little"), int.from_bytes(handle, "big"),
                               int.from_bytes(handle[4:12], "little"), int.from_bytes(handle[-8:], "little"))
        assert len(handle) == 20 and handle != NULL
        seen.add(context)


def test_mqrr_3_1_4_11_10_move_access_whatever_dw_access(qm, server):
    """MS-MQRR:3.1.4.11:10 Open Queue is raised with MoveAccess whatever dwAccess says: the handle can neither
    receive nor peek (D-49) nor purge, but names a move destination."""
    _, fn = make_queue(qm)
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    message = send(qm, fn, b"x")
    out = server.r_open_queue_for_move(describe(f"{fn};sub"), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE,
                                       CLIENT_ID)
    assert out.hresult == HRESULT.MQ_OK
    assert start(server, out.pph_context, RECEIVE).hresult == HRESULT.MQ_ERROR_ACCESS_DENIED
    assert start(server, out.pph_context, PEEK).hresult == HRESULT.MQ_ERROR_ACCESS_DENIED
    assert server.r_purge_queue(out.pph_context) == HRESULT.STATUS_ACCESS_DENIED
    source = open_handle(server, fn)
    assert server.r_move_message(source, out.p_move_context, message.lookup_identifier, bytes(16)) == HRESULT.MQ_OK


def test_mqrr_3_1_4_3_05_closing_a_move_handle_retires_its_move_context(qm, server):
    """MS-MQRR:3.1.4.3:05 / 3.1.4.10:07 a move handle closed with R_CloseQueue: its pMoveContext is no longer a
    destination (MQ_ERROR_INVALID_HANDLE)."""
    _, fn = make_queue(qm)
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    message = send(qm, fn, b"x")
    context, handle = open_for_move(server, f"{fn};sub")
    assert server.r_close_queue(handle) == (HRESULT.MQ_OK, NULL)
    source = open_handle(server, fn)
    assert server.r_move_message(source, context, message.lookup_identifier, bytes(16)) == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert state(message) == State.Available


# -- R_CloseQueue (opnum 3) --------------------------------------------------------------------

def test_mqrr_3_1_4_3_02_close_sets_the_handle_to_null(qm, server):
    """MS-MQRR:3.1.4.3:02 MQ_OK and *pphContext = NULL; the handle is dead afterwards."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    assert server.r_close_queue(handle) == (HRESULT.MQ_OK, NULL)
    assert start(server, handle, PEEK).hresult == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert server.r_create_cursor(handle)[0] == HRESULT.MQ_ERROR_INVALID_HANDLE


@pytest.mark.parametrize("handle", [NULL, b"\x01" * 20, b"short", b""])
def test_mqrr_3_1_4_3_04_unknown_handle_fails(qm, server, handle):
    """MS-MQRR:3.1.4.3:04 (D-44) an unknown handle: MQ_ERROR_INVALID_HANDLE."""
    make_queue(qm)
    assert server.r_close_queue(handle)[0] == HRESULT.MQ_ERROR_INVALID_HANDLE


def test_mqrr_3_1_4_3_04_closing_twice_fails(qm, server):
    """MS-MQRR:3.1.4.3:04 a handle already closed is unknown: MQ_ERROR_INVALID_HANDLE."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    server.r_close_queue(handle)
    assert server.r_close_queue(handle)[0] == HRESULT.MQ_ERROR_INVALID_HANDLE


def test_d45_close_releases_two_phase_locks_and_drops_the_entries(qm, server):
    """D-45 (MS-MQRR:3.1.4.3:05) R_CloseQueue removes the handle's PendingRequestTable entries and makes their
    Locked messages Available again, as the rundown does; other handles' entries stay."""
    queue, fn = make_queue(qm)
    first, second, third = (send(qm, fn, bytes([n]), label=f"m{n}") for n in range(3))
    handle, other = open_handle(server, fn), open_handle(server, fn)
    assert start(server, handle, RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    assert start(server, handle, Action.MQ_LOOKUP_RECEIVE_CURRENT, lookup_id=second.lookup_identifier,
                 request_id=2).hresult == HRESULT.MQ_OK
    assert start(server, other, RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    assert (state(first), state(second), state(third)) == (State.Locked, State.Locked, State.Locked)
    assert server.r_close_queue(handle) == (HRESULT.MQ_OK, NULL)
    assert not entries(server, handle) and len(entries(server, other)) == 1
    assert (state(first), state(second), state(third)) == (State.Available, State.Available, State.Locked)
    assert labels_of(queue) == ["m0", "m1", "m2"]


@pytest.mark.parametrize("action, with_cursor", [(RECEIVE, False), (PEEK, False), (RECEIVE, True), (PEEK, True)])
def test_mqrr_3_1_4_3_05_close_cancels_waiting_reads(qm, server, action, with_cursor):
    """MS-MQRR:3.1.4.3:05 (D-31) Close Queue ends every waiting read of the handle with
    MQ_ERROR_OPERATION_CANCELLED and leaves no entry behind."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1] if with_cursor else 0
    call = start(server, handle, action, cursor=cursor, timeout=INFINITE, request_id=9)
    assert not call.done
    assert server.r_close_queue(handle)[0] == HRESULT.MQ_OK
    assert call.done and call.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED
    assert not entries(server) and call.pdw_number_of_sections == 0


def test_mqrr_3_1_4_3_05_close_cancels_a_waiting_receive_even_when_it_releases_a_message(qm, server):
    """MS-MQRR:3.1.4.3:05 (D-31, D-45) a receive waiting on the handle ends cancelled, even though closing the
    handle releases another receive's message; the message ends up Available."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn)
    assert start(server, handle, RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    waiting = start(server, handle, RECEIVE, timeout=INFINITE, request_id=2)
    assert not waiting.done
    server.r_close_queue(handle)
    assert waiting.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED
    assert state(message) == State.Available


def test_d45_close_leaves_no_message_locked_behind(qm, server, clock):
    """D-45 (MS-MQRR:3.1.4.3:05) after R_CloseQueue no message stays Locked by the closed handle."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    parked = start(server, handle, RECEIVE, cursor=cursor, timeout=10, request_id=1)
    tick(clock, qm, 10)
    assert parked.hresult == HRESULT.MQ_ERROR_IO_TIMEOUT  # MS-MQDMPR 3.2.7.6: the cursor now rests on End
    message = send(qm, fn, b"x")
    waiting = start(server, handle, RECEIVE, cursor=cursor, timeout=INFINITE, request_id=2)
    assert not waiting.done  # D-11: nothing lies after End
    assert start(server, handle, Action.MQ_LOOKUP_RECEIVE_CURRENT, lookup_id=message.lookup_identifier,
                 request_id=3).hresult == HRESULT.MQ_OK
    server.r_close_queue(handle)
    tick(clock, qm, 10 * server.pending_request_cleanup_ms)
    assert state(message) == State.Available


# -- R_CreateCursor (opnum 4) and R_CloseCursor (opnum 5) ----------------------------------------

def test_mqrr_3_1_4_4_02_create_cursor_returns_distinct_nonzero_handles(qm, server):
    """MS-MQRR:3.1.4.4:02 Open Cursor; phCursor = rCursor.Handle, nonzero, one per call (any number per handle)."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursors = [server.r_create_cursor(handle) for _ in range(4)]
    assert all(status == HRESULT.MQ_OK and cursor for status, cursor in cursors)
    assert len({cursor for _, cursor in cursors}) == 4


@pytest.mark.parametrize("handle", [NULL, b"\x07" * 20, b""])
def test_mqrr_3_1_4_4_02_create_cursor_unknown_handle_fails(qm, server, handle):
    """MS-MQRR:3.1.4.4:02 (D-44) unknown handle: MQ_ERROR_INVALID_HANDLE."""
    assert server.r_create_cursor(handle)[0] == HRESULT.MQ_ERROR_INVALID_HANDLE


def test_d46_create_cursor_on_a_deleted_queue_is_queue_not_available(qm, server):
    """D-46 R_CreateCursor on a handle whose queue was deleted: MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn = make_queue(qm)
    handle = open_handle(server, fn)
    qm.delete_queue(queue)
    assert server.r_create_cursor(handle) == (HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE, 0)


def test_mqrr_3_1_4_5_02_close_cursor(qm, server):
    """MS-MQRR:3.1.4.5:02 R_CloseCursor finds the cursor in the handle's CursorCollection and closes it: MQ_OK,
    and the cursor is unknown afterwards (MS-MQRR:3.1.4.7:18)."""
    _, fn = make_queue(qm)
    send(qm, fn, b"x")
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    assert server.r_close_cursor(handle, cursor) == HRESULT.MQ_OK
    assert start(server, handle, PEEK, cursor=cursor).hresult == HRESULT.STATUS_INVALID_HANDLE


def test_d47_close_cursor_twice_or_unknown_is_status_invalid_handle(qm, server):
    """D-47 (MS-MQRR:3.1.4.5:02) a closed or never-created cursor: STATUS_INVALID_HANDLE."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    server.r_close_cursor(handle, cursor)
    assert server.r_close_cursor(handle, cursor) == HRESULT.STATUS_INVALID_HANDLE
    assert server.r_close_cursor(handle, 0) == HRESULT.STATUS_INVALID_HANDLE
    assert server.r_close_cursor(handle, 0xFFFFFFFF) == HRESULT.STATUS_INVALID_HANDLE


def test_mqrr_3_1_4_5_02_close_cursor_unknown_handle_is_invalid_handle(qm, server):
    """MS-MQRR:3.1.4.5:02 (D-44) the descriptor lookup fails first: MQ_ERROR_INVALID_HANDLE."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor = server.r_create_cursor(handle)[1]
    assert server.r_close_cursor(b"\x09" * 20, cursor) == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert server.r_close_cursor(handle, cursor) == HRESULT.MQ_OK


def test_d48_close_cursor_of_another_handle_is_status_invalid_handle(qm, server):
    """D-48 a cursor belongs to its handle: closing it through another handle (same queue) fails with
    STATUS_INVALID_HANDLE and leaves it working."""
    _, fn = make_queue(qm)
    send(qm, fn, b"x")
    owner, other = open_handle(server, fn), open_handle(server, fn)
    cursor = server.r_create_cursor(owner)[1]
    assert server.r_close_cursor(other, cursor) == HRESULT.STATUS_INVALID_HANDLE
    assert start(server, owner, PEEK, cursor=cursor).hresult == HRESULT.MQ_OK


@pytest.mark.parametrize("action", [RECEIVE, PEEK])
def test_d14_close_cursor_cancels_its_waiting_read(qm, server, action):
    """D-14 (MS-MQRR:3.1.4.5:02) a read waiting on the closed cursor ends MQ_ERROR_OPERATION_CANCELLED; its
    entry goes (D-52); reads of other cursors keep waiting."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn)
    cursor, kept = server.r_create_cursor(handle)[1], server.r_create_cursor(handle)[1]
    call = start(server, handle, action, cursor=cursor, timeout=INFINITE, request_id=1)
    other = start(server, handle, action, cursor=kept, timeout=INFINITE, request_id=2)
    assert server.r_close_cursor(handle, cursor) == HRESULT.MQ_OK
    assert call.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED
    assert (1, handle) not in server.pending_request_table
    assert not other.done


# -- R_PurgeQueue (opnum 6) ----------------------------------------------------------------------

def test_mqrr_3_1_4_6_03_purge_deletes_available_messages(qm, server):
    """MS-MQRR:3.1.4.6:03 with ReceiveAccess, Purge Queue deletes every Available message; MQ_OK."""
    queue, fn = make_queue(qm)
    messages = [send(qm, fn, bytes([n])) for n in range(3)]
    handle = open_handle(server, fn)
    assert server.r_purge_queue(handle) == HRESULT.MQ_OK
    assert all(gone(m) for m in messages) and len(queue.message_position_list) == 0
    assert start(server, handle, PEEK).hresult == HRESULT.MQ_ERROR_IO_TIMEOUT


def test_mqrr_3_1_4_6_03_purge_sends_nack_q_purged(qm, server):
    """MS-MQRR:3.1.4.6:03 the purged message leaves with reason NackQueuePurged (MS-MQDMPR 3.1.7.1.7): a
    MQMSG_CLASS_NACK_Q_PURGED acknowledgment when negative receive acks were requested."""
    _, fn = make_queue(qm)
    admin, admin_fn = make_queue(qm, "admin")
    send(qm, fn, b"x", acknowledgements_requested=Acks.ACK_NACK_RECEIVE, administration_queue_format_name=admin_fn)
    assert server.r_purge_queue(open_handle(server, fn)) == HRESULT.MQ_OK
    classes = [p.message_reference.message_class for p in admin.message_position_list.positions()]
    assert classes == [MessageClass.MQMSG_CLASS_NACK_Q_PURGED]


@pytest.mark.parametrize("dw_access", [Access.PEEK_ACCESS, 0x2])
def test_mqrr_3_1_4_6_04_purge_without_receive_access_is_status_access_denied(qm, server, dw_access):
    """MS-MQRR:3.1.4.6:04 a handle without ReceiveAccess: STATUS_ACCESS_DENIED (an NTSTATUS); nothing purged."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    handle = open_handle(server, fn, dw_access)
    assert server.r_purge_queue(handle) == HRESULT.STATUS_ACCESS_DENIED
    assert state(message) == State.Available


def test_mqrr_3_1_4_6_04_purge_through_a_move_handle_is_status_access_denied(qm, server):
    """MS-MQRR:3.1.4.6:04 a MoveAccess handle is not ReceiveAccess: STATUS_ACCESS_DENIED."""
    _, fn = make_queue(qm)
    message = send(qm, fn, b"x")
    _, handle = open_for_move(server, fn)
    assert server.r_purge_queue(handle) == HRESULT.STATUS_ACCESS_DENIED
    assert state(message) == State.Available


def test_mqrr_3_1_4_6_02_purge_unknown_handle_fails(qm, server):
    """MS-MQRR:3.1.4.6:02 (D-44) unknown handle: MQ_ERROR_INVALID_HANDLE."""
    assert server.r_purge_queue(b"\x05" * 20) == HRESULT.MQ_ERROR_INVALID_HANDLE


def test_d46_purge_of_a_deleted_queue_is_queue_not_available(qm, server):
    """D-46 R_PurgeQueue on a handle whose queue was deleted: MQ_ERROR_QUEUE_NOT_AVAILABLE."""
    queue, fn = make_queue(qm)
    handle = open_handle(server, fn)
    qm.delete_queue(queue)
    assert server.r_purge_queue(handle) == HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE


@pytest.mark.parametrize("finish", ["RR_ACK", "RR_NACK", "cleanup timer"])
def test_mqrr_3_1_4_6_03_locked_messages_become_purge_pending(qm, server, clock, finish):
    """MS-MQRR:3.1.4.6:03 (MS-MQDMPR 3.1.7.1.7, 3.1.7.1.12) a message Locked by a two-phase receive becomes
    PurgePending and is deleted as purged when its receive ends, even by RR_NACK or the cleanup timer."""
    queue, fn = make_queue(qm)
    admin, admin_fn = make_queue(qm, "admin")
    locked = send(qm, fn, b"locked", acknowledgements_requested=Acks.ACK_FULL_RECEIVE,
                  administration_queue_format_name=admin_fn)
    available = send(qm, fn, b"available")
    handle = open_handle(server, fn)
    assert start(server, handle, RECEIVE, request_id=5).hresult == HRESULT.MQ_OK
    assert server.r_purge_queue(handle) == HRESULT.MQ_OK
    assert gone(available) and state(locked) == State.PurgePending
    assert start(server, handle, PEEK).hresult == HRESULT.MQ_ERROR_IO_TIMEOUT  # not readable any more
    if finish == "cleanup timer":
        tick(clock, qm, server.pending_request_cleanup_ms)
    else:
        assert server.r_end_receive(handle, getattr(Ack, finish), 5) == HRESULT.MQ_OK
    assert gone(locked) and len(queue.message_position_list) == 0
    classes = [p.message_reference.message_class for p in admin.message_position_list.positions()]
    assert classes == [MessageClass.MQMSG_CLASS_NACK_Q_PURGED]


# -- Rundown (MS-MQRR 3.1.6.1, 3.1.6.2) ----------------------------------------------------------

def test_mqrr_3_1_6_2_01_rundown_releases_locks_and_forgets_the_handle(qm, server):
    """MS-MQRR:3.1.6.2:01 rundown: Close Queue, release each pending entry's message (Available again), remove the
    entries, forget the handle; MQ_OK."""
    queue, fn = make_queue(qm)
    first, second = send(qm, fn, b"1", label="a"), send(qm, fn, b"2", label="b")
    handle, other = open_handle(server, fn), open_handle(server, fn)
    assert start(server, handle, RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    assert start(server, other, RECEIVE, request_id=1).hresult == HRESULT.MQ_OK
    assert server.rundown(handle) == HRESULT.MQ_OK
    assert state(first) == State.Available and state(second) == State.Locked
    assert not entries(server, handle) and entries(server, other)
    assert server.r_close_queue(handle)[0] == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert start(server, handle, PEEK).hresult == HRESULT.MQ_ERROR_INVALID_HANDLE
    assert labels_of(queue) == ["a", "b"]


def test_mqrr_3_1_6_1_01_rundown_closes_cursors_and_cancels_waiting_reads(qm, server):
    """MS-MQRR:3.1.6.1:01 / 3.1.6.2:01 the handle's cursors are closed and its waiting reads end
    MQ_ERROR_OPERATION_CANCELLED; the sharing it held is released."""
    _, fn = make_queue(qm)
    handle = open_handle(server, fn, Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_SHARE)
    cursor = server.r_create_cursor(handle)[1]
    on_cursor = start(server, handle, RECEIVE, cursor=cursor, timeout=INFINITE, request_id=1)
    plain = start(server, handle, RECEIVE, timeout=INFINITE, request_id=2)
    peek = start(server, handle, PEEK, timeout=INFINITE, request_id=3)
    assert server.rundown(handle) == HRESULT.MQ_OK
    for call in (on_cursor, plain, peek):
        assert call.hresult == HRESULT.MQ_ERROR_OPERATION_CANCELLED
    assert cursor not in qm.cursors and not entries(server)
    message = send(qm, fn, b"x")
    assert state(message) == State.Available  # nobody is waiting for it any more
    assert open_handle(server, fn, Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_SHARE)


def test_mqrr_3_1_6_2_01_rundown_of_an_unknown_handle_fails(qm, server):
    """MS-MQRR:3.1.6.2:01 the descriptor is not found: a failure."""
    assert server.rundown(b"\x03" * 20) == HRESULT.MQ_ERROR_INVALID_HANDLE


def test_mqrr_3_1_6_2_01_rundown_of_a_move_handle_retires_the_move_context(qm, server):
    """MS-MQRR:3.1.6.2:01 a run-down move handle is forgotten with its pMoveContext."""
    _, fn = make_queue(qm)
    qm.create_queue(f"{COMPUTER}\\private$\\orders;sub")
    message = send(qm, fn, b"x")
    context, handle = open_for_move(server, f"{fn};sub")
    assert server.rundown(handle) == HRESULT.MQ_OK
    source = open_handle(server, fn)
    assert server.r_move_message(source, context, message.lookup_identifier, bytes(16)) == HRESULT.MQ_ERROR_INVALID_HANDLE
