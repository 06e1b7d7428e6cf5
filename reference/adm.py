"""ADM elements other than Message, MessagePosition and Cursor (MS-MQDMPR 3.1.1).

Plain records: Queue (3.1.1.2), OpenQueueDescriptor (3.1.1.16),
WaitingMessageReadOperation (3.1.1.10), Transaction (3.1.1.14) and
TransactionalOperation (3.1.1.13), plus ReadRequest, the sans-I/O stand-in for
a blocked caller: a read that must wait hands back a ReadRequest that a later
event completes.  The rules that change these records live in the event modules.
"""

from __future__ import annotations

import collections
from typing import Callable

from mqspec.protocol.constants import INFINITE
from mqspec.protocol.hresult import HRESULT

from .enumerations import (
    OperationType,
    QueueAccessType,
    QueuePrivacyLevel,
    QueueShareMode,
    QueueType,
)
from .position_list import MessagePositionList
from .security import DEFAULT, QueueSecurity


class Queue:
    __slots__ = (
        "identifier", "pathname", "label", "type", "journaling", "quota", "journal_quota",
        "authentication", "privacy_level", "transactional", "base_priority", "create_time",
        "modify_time", "private_queue_number", "queue_type", "total_bytes",
        "message_position_list", "open_queue_descriptor_collection", "journal_queue_reference",
        "subqueue_collection", "parent", "subqueue_name", "deleted", "is_journal", "key", "security",
        "open_modes",
    )

    def __init__(self, pathname: str, *, identifier: bytes, queue_type: QueueType,
                 label: str = "", journaling: bool = False, quota: int = INFINITE,
                 journal_quota: int = INFINITE, authentication: bool = False,
                 privacy_level: QueuePrivacyLevel = QueuePrivacyLevel.Optional,
                 transactional: bool = False, base_priority: int = 0,
                 create_time: int = 0, private_queue_number: int = 0, security: QueueSecurity = DEFAULT) -> None:
        # MS-MQDMPR:3.1.7.1.33:01 the keyword defaults are the Set Queue Defaults values
        self.identifier = identifier
        self.pathname = pathname
        self.label = label
        self.type = bytes(16)
        self.journaling = journaling
        self.quota = quota  # kilobytes (MS-MQDMPR 3.1.1.2)
        self.journal_quota = journal_quota
        self.authentication = authentication
        self.privacy_level = privacy_level
        self.transactional = transactional
        self.base_priority = base_priority
        self.create_time = create_time
        self.modify_time = create_time
        self.private_queue_number = private_queue_number
        self.queue_type = queue_type
        self.security = security  # MS-MQDMPR:3.1.1.2:08 owner and access list; 3.1.7.1.3.1's default
        # MS-MQDMPR:3.1.7.1.3:03 a new queue is empty
        self.total_bytes = 0
        self.message_position_list = MessagePositionList()
        self.open_queue_descriptor_collection: list[OpenQueueDescriptor] = []
        # (AccessType, ShareMode) -> how many of the open descriptors have it: MS-MQDMPR 3.1.7.1.5's sharing
        # checks ask only whether one exists, so Open Queue answers in O(1) however many handles are open
        self.open_modes: collections.Counter = collections.Counter()
        self.journal_queue_reference: Queue | None = None
        self.subqueue_collection: dict[str, Queue] = {}
        self.parent: Queue | None = None
        self.subqueue_name = ""
        self.deleted = False
        self.is_journal = False
        self.key = ""  # how the queue manager files it: the lower-cased local name, or "@role"

    def attach(self, descriptor: OpenQueueDescriptor) -> None:
        """MS-MQDMPR 3.1.7.1.5: the descriptor joins OpenQueueDescriptorCollection."""
        self.open_queue_descriptor_collection.append(descriptor)
        self.open_modes[descriptor.access_type, descriptor.share_mode] += 1

    def detach(self, descriptor: OpenQueueDescriptor) -> None:
        """MS-MQDMPR 3.1.7.1.6:02 the descriptor leaves OpenQueueDescriptorCollection (if it is there)."""
        if descriptor in self.open_queue_descriptor_collection:
            self.open_queue_descriptor_collection.remove(descriptor)
            self.open_modes[descriptor.access_type, descriptor.share_mode] -= 1

    def detach_all(self) -> None:
        """MS-MQDMPR 3.1.7.1.4:02 a deleted queue keeps no descriptor."""
        self.open_queue_descriptor_collection.clear()
        self.open_modes.clear()

    @property
    def active(self) -> bool:
        # MS-MQDMPR:3.1.1.2:03 a local queue is Active while it has open descriptors
        return bool(self.open_queue_descriptor_collection)

    def quota_bytes(self) -> int:
        return INFINITE if self.quota == INFINITE else self.quota * 1024

    def __repr__(self) -> str:
        return f"Queue({self.pathname!r}, {len(self.message_position_list)} messages)"


class OpenQueueDescriptor:
    __slots__ = ("handle", "context_value", "access_type", "share_mode", "queue_reference",
                 "format_name", "multiple", "remote_read_state", "cursor_collection",
                 "waiting_message_read_operation_collection", "open_queue_descriptor_collection")

    def __init__(self, handle: int, context_value: int, access_type: QueueAccessType,
                 share_mode: QueueShareMode, queue: Queue | None, format_name: str,
                 multiple: bool = False) -> None:
        self.handle = handle
        self.context_value = context_value
        self.access_type = access_type
        self.share_mode = share_mode  # D-15: stored, or the sharing rules could never apply
        self.queue_reference = queue
        self.format_name = format_name
        self.multiple = multiple
        self.remote_read_state = "None"
        self.cursor_collection: dict[int, object] = {}
        self.waiting_message_read_operation_collection: list[WaitingMessageReadOperation] = []
        self.open_queue_descriptor_collection: list[OpenQueueDescriptor] = []


class ReadRequest:
    """The outcome of a read event: finished now, or later by a new message, a time-out or a cancel."""
    # Class-level defaults keep the hot path (a read that finishes at once) to a few stores.
    status = HRESULT.MQ_OK
    message = None
    position = None
    done = False
    on_complete: Callable[["ReadRequest"], None] | None = None
    waiter = None
    request_id = None  # the MS-MQRR dwRequestId it serves, tagged or not (D-18)

    def finish(self, status: int, position=None) -> "ReadRequest":
        self.status = status
        self.position = position
        self.message = position.message_reference if position is not None else None
        self.done = True
        if self.waiter is not None:
            self.waiter = None
        if self.on_complete is not None:
            self.on_complete(self)
        return self


class WaitingMessageReadOperation:
    __slots__ = ("destructive_read", "tag", "cursor_reference", "queue_desc", "timer",
                 "request", "on_satisfied")

    def __init__(self, destructive_read: bool, tag, cursor, queue_desc: OpenQueueDescriptor,
                 request: ReadRequest, on_satisfied: Callable) -> None:
        self.destructive_read = destructive_read
        self.tag = tag
        self.cursor_reference = cursor
        self.queue_desc = queue_desc
        self.timer = None
        self.request = request
        self.on_satisfied = on_satisfied  # the rest of the event that started the wait


class TransactionalOperation:
    __slots__ = ("operation_type", "message_position_reference", "target_queue_reference",
                 "dequeue_reason")

    def __init__(self, operation_type: OperationType, position, target_queue=None,
                 dequeue_reason: int | None = None) -> None:
        self.operation_type = operation_type
        self.message_position_reference = position
        self.target_queue_reference = target_queue  # MS-MQDMPR:3.1.1.13:01 present for Move
        self.dequeue_reason = dequeue_reason        # MS-MQDMPR:3.1.1.13:01 present for Dequeue


class Transaction:
    __slots__ = ("identifier", "transactional_operation_collection", "single_phase", "prepared",
                 "header_id", "sequence_identifier", "sends")

    def __init__(self, identifier: bytes | None, header_id: int = 0) -> None:
        self.identifier = identifier
        self.transactional_operation_collection: list[TransactionalOperation] = []
        self.single_phase = True
        self.prepared = False
        self.header_id = header_id              # MS-MQMQ 2.2.20.5 the 20-bit ID its messages carry
        self.sequence_identifier: bytes | None = None  # TxSequenceID shared by the messages it sends
        self.sends = 0
