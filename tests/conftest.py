"""Shared fixtures for the unit tests of the reference queue manager."""

from __future__ import annotations

import pytest

from reference.clock import VirtualClock
from reference.enumerations import QueueAccessType, QueueShareMode
from reference.message import Message
from reference.queue_manager import QueueManager
from reference.remote_read import RemoteReadServer

COMPUTER = "mqspec"


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
