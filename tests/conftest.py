"""Shared fixtures for the unit tests of the reference queue manager."""

from __future__ import annotations

import pytest

from mqspec.protocol.constants import MessageClass
from mqspec.protocol.hresult import HRESULT
from mqspec.reference.clock import VirtualClock
from mqspec.reference.enumerations import MessagePositionState, QueueAccessType, QueueShareMode
from mqspec.reference.message import Message
from mqspec.reference.queue_manager import QueueManager
from mqspec.reference.remote_read import RemoteReadServer

COMPUTER = "mqspec"
H = HRESULT
C = MessageClass
AVAILABLE = MessagePositionState.Available
LOCKED = MessagePositionState.Locked
DELETED = MessagePositionState.Deleted
PURGE_PENDING = MessagePositionState.PurgePending
WAIT = 60_000  # ms: long enough that a waiting read is still waiting when the test looks
TX = b"T" * 16  # an XACTUOW


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
def qm(clock) -> QueueManager:
    """A queue manager in virtual time with a quota large enough to ignore."""
    return QueueManager(clock, computer_name=COMPUTER, queue_manager_quota=1 << 40)


@pytest.fixture
def server(qm) -> RemoteReadServer:
    return RemoteReadServer(qm, pending_request_cleanup_ms=60_000)


def make_queue(qm, name: str = "orders", **attributes):
    """Create a private queue; returns (queue, its direct format name)."""
    status, queue = qm.create_queue(f"{COMPUTER}\\private$\\{name}", **attributes)
    assert status == 0, hex(status)
    return queue, f"DIRECT=OS:{COMPUTER}\\private$\\{name}"


def open_descriptor(qm, format_name: str, access=QueueAccessType.ReceiveAccess, share=QueueShareMode.DenyNone):
    status, descriptor = qm.open_queue(format_name, access, share)
    assert status == 0, hex(status)
    return descriptor


def send(qm, format_name: str, body: bytes = b"", **properties) -> Message:
    message = Message(body, **properties)
    status, result = qm.send_message(format_name, message)
    assert (status, result) == (0, 0), (hex(status), result)
    return message


def labels(queue) -> list[str]:
    return [position.message_reference.label for position in queue.message_position_list.positions()]


@pytest.fixture
def deleted(qm):
    """Every Message Position Deleted event (MS-MQDMPR 3.1.7.2.1) as (label, reason)."""
    log = []
    original = qm.message_position_deleted

    def spy(queue, position, reason):
        if position.state != MessagePositionState.Deleted:
            log.append((position.message_reference.label, reason))
        return original(queue, position, reason)

    qm.message_position_deleted = spy
    return log


@pytest.fixture
def setup(qm):
    """A queue, its format name and a receive descriptor on it."""
    queue, fn = make_queue(qm)
    return queue, fn, open_descriptor(qm, fn)


@pytest.fixture
def served():
    """The reference hosted on the wire by `mqspec serve`'s code, on a free loopback port; stopped after."""
    from mqspec.adapters.in_process import InProcessTarget
    from mqspec.adapters.serve import serve
    hosted = InProcessTarget()
    with serve(hosted) as running:
        yield running
    hosted.close()
