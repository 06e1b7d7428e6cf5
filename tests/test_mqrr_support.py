"""Helpers shared by the tests/test_mqrr_*.py modules (this module holds no tests).

The MS-MQRR tests drive `reference.remote_read.RemoteReadServer` in virtual time
through the `server`, `qm` and `clock` fixtures of conftest.py.  These helpers keep
the calls short: they pass the method's parameters by their specification names and
check only what every test would otherwise repeat (an open that must succeed).
"""

from __future__ import annotations

import itertools
import uuid

from mqspec.protocol.constants import Access, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name as describe
from mqspec.reference.message import Message
from tests.conftest import COMPUTER, make_queue, send

__all__ = ["COMPUTER", "CLIENT_ID", "BIG", "make_queue", "send", "open_handle", "open_for_move", "start",
           "start_tx", "tick", "state", "gone", "entries", "uow", "send_tx", "queue_of", "labels_of"]

CLIENT_ID = uuid.UUID("6d717370-6563-4000-8000-746573747321").bytes_le
BIG = 1 << 20  # a dwMaxBodySize / dwMaxCompoundMessageSize that never truncates


def open_handle(server, format_name: str, access: int = Access.RECEIVE_ACCESS,
                share: int = ShareMode.MQ_DENY_NONE) -> bytes:
    """R_OpenQueue that must succeed; returns pphContext."""
    out = server.r_open_queue(describe(format_name), access, share, CLIENT_ID)
    assert out.hresult == HRESULT.MQ_OK, hex(out.hresult)
    return out.pph_context


def open_for_move(server, format_name: str) -> tuple[int, bytes]:
    """R_OpenQueueForMove that must succeed; returns (pMoveContext, pphContext)."""
    out = server.r_open_queue_for_move(describe(format_name), Access.MQ_MOVE_ACCESS, ShareMode.MQ_DENY_NONE,
                                       CLIENT_ID)
    assert out.hresult == HRESULT.MQ_OK, hex(out.hresult)
    return out.p_move_context, out.pph_context


_PEEK_IDS = itertools.count(1000)


def start(server, handle: bytes, action: int = Action.MQ_ACTION_RECEIVE, *, lookup_id: int = 0, cursor: int = 0,
          timeout: int = 0, request_id: int | None = None, max_body: int = BIG, max_compound: int = BIG):
    """R_StartReceive; returns the ReceiveCall (done now, or later in virtual time).

    Without a request id a receive uses 1 and a peek a fresh id (D-36: a peek may not reuse the id of a
    pending receive)."""
    if request_id is None:
        request_id = next(_PEEK_IDS) if action & 0x80000000 or action in _LOOKUP_PEEKS else 1
    return server.r_start_receive(handle, lookup_id, cursor, action, timeout, request_id, max_body, max_compound)


_LOOKUP_PEEKS = {Action.MQ_LOOKUP_PEEK_CURRENT, Action.MQ_LOOKUP_PEEK_NEXT, Action.MQ_LOOKUP_PEEK_PREV}


def start_tx(server, handle: bytes, transaction_id: bytes | None, action: int = Action.MQ_ACTION_RECEIVE, *,
             lookup_id: int = 0, cursor: int = 0, timeout: int = 0, request_id: int = 1, max_body: int = BIG,
             max_compound: int = BIG, enlisted: bool = True):
    """R_StartTransactionalReceive; returns the ReceiveCall.  The client enlists a transaction it has not used
    before, as MS-MQRR 3.1.4.13 expects (D-50: a transaction the server never saw is refused), unless the test
    says it did not."""
    if enlisted and transaction_id is not None and transaction_id not in server.qm.transaction_collection:
        token = b"\x01\x02\x03"
        assert server.r_qm_enlist_remote_transaction(transaction_id, len(token), token, None) == HRESULT.MQ_OK
    return server.r_start_transactional_receive(handle, lookup_id, cursor, action, timeout, request_id, max_body,
                                                max_compound, transaction_id)


def tick(clock, qm, ms: int) -> None:
    """Let `ms` milliseconds of virtual time pass and fire the timers that fall due."""
    clock.advance(ms)
    qm.run_timers()


def state(message: Message):
    """The MessagePosition state of a message, or None once it has left every queue."""
    position = message.message_position_reference
    return None if position is None else position.state


def gone(message: Message) -> bool:
    return message.message_position_reference is None


def entries(server, handle: bytes | None = None) -> dict:
    """The PendingRequestTable, keyed {dwRequestId, handle}, optionally for one handle only."""
    return {key: entry for key, entry in server.pending_request_table.items()
            if handle is None or key[1] == handle}


def uow(n: int) -> bytes:
    """A nonzero XACTUOW (16 bytes)."""
    return uuid.UUID(int=0x7000 + n).bytes_le


def send_tx(qm, format_name: str, body: bytes = b"", **properties) -> Message:
    """Send a message to a transactional queue inside a committed internal transaction."""
    transaction = qm.create_transaction(uuid.uuid4().bytes_le)
    message = Message(body, **properties)
    status, result = qm.send_message(format_name, message, transaction)
    assert (status, result) == (0, 0), (hex(status), result)
    assert qm.transaction_commit(transaction.identifier) == HRESULT.MQ_OK
    return message


def queue_of(message: Message):
    position = message.message_position_reference
    return None if position is None else position.queue_reference


def labels_of(queue) -> list[str]:
    return [position.message_reference.label for position in queue.message_position_list.positions()]
