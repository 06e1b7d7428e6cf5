"""What must survive a restart, described as change records (MS-MQDMPR 3.1.1, 3.1.3).

Theory of operation
-------------------
The core does no I/O.  Each event that touches persistent state appends a change
record to `Persistence.pending`; the owner of the queue manager takes them with
`take()` after every call and gives them to a store (sqlite_store.py), which
applies one batch atomically.  Persistent state is: queues (their attributes are
Persistent, MS-MQDMPR 3.1.1.2), recoverable messages with their position and
state (MS-MQDMPR:3.1.1.11:02, 3.1.1.12:03), open transactions and their
operations (MS-MQDMPR:3.1.1.1:03) and SequentialID (MS-MQDMPR:3.1.1.1:02).

SequentialID is written in blocks: the store holds a value no lookup identifier
has reached yet, and a restarted queue manager continues from there, so lookup
identifiers never repeat across restarts without a write per express message
(D-33).

Change records are tuples whose first item names them:

    ("queue_manager", identifier)             ("sequence", reserved_up_to)
    ("ordinal", reserved_up_to)
    ("queue", key, attributes)                ("queue_deleted", key)
    ("message", lookup_id, queue_key, seq, state, record)
    ("state", lookup_id, state)               ("removed", lookup_id)
    ("attributes", lookup_id, record)
    ("transaction", uow, single_phase, prepared)
    ("operation", uow, index, kind, lookup_id, target_key, reason)
    ("transaction_ended", uow)

`restore` rebuilds a queue manager from a Snapshot (what a store loads).  A record
it cannot read, or a message of a queue the store does not hold, is a StoreError
naming it (D-132): the queue manager does not start, rather than start with
messages gone and nobody told.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field

from mqspec.protocol.constants import INFINITE, MessageClass

from .adm import Queue
from .enumerations import (
    DeliveryGuarantee,
    MessagePositionState,
    QueuePrivacyLevel,
    QueueType,
)
from .message import Message
from .packet import packet_size
from .position_list import MessagePosition
from .security import QueueSecurity

SEQUENCE_BLOCK = 4096
LOCKED = MessagePositionState.Locked
PURGE_PENDING = MessagePositionState.PurgePending
RECOVERABLE = DeliveryGuarantee.Recoverable
_BYTES_FIELDS = ("identifier", "body", "extension", "correlation_identifier",
                 "transactional_message_sequence_identifier")
_PLAIN_FIELDS = ("priority", "delivery_guarantee", "message_class", "acknowledgements_requested",
                 "administration_queue_format_name", "response_queue_format_name",
                 "destination_queue_format_name", "time_to_reach_queue", "time_to_be_received",
                 "sent_time", "arrival_time", "label", "application_tag", "body_type", "privacy_level",
                 "allow_peek_when_locked", "positive_journaling_requested", "negative_journaling_requested")
_QUEUE_FIELDS = ("pathname", "label", "journaling", "quota", "journal_quota", "authentication",
                 "transactional", "base_priority", "create_time", "private_queue_number")


class StoreError(ValueError):
    """A store that cannot be restored as it is (D-132); the message is one line naming the record."""


_UNREADABLE = (KeyError, ValueError, TypeError, AttributeError)   # what a damaged record raises as it is read


@dataclass
class Snapshot:
    identifier: bytes
    sequential_id: int = 0
    ordinal: int = 0
    queues: list = field(default_factory=list)        # (key, attributes)
    messages: list = field(default_factory=list)      # (lookup_id, queue_key, seq, state, record)
    transactions: list = field(default_factory=list)  # (uow, single_phase, prepared, [(kind, lookup_id, target_key, reason)])


def message_record(message: Message) -> str:
    record = {name: getattr(message, name) for name in _PLAIN_FIELDS}
    for name in _BYTES_FIELDS:
        value = getattr(message, name)
        record[name] = None if value is None else base64.b64encode(value).decode("ascii")
    if message.extra:
        record["extra"] = {k: (base64.b64encode(v).decode("ascii") if isinstance(v, bytes) else v)
                           for k, v in message.extra.items()}
        record["extra_bytes"] = [k for k, v in message.extra.items() if isinstance(v, bytes)]
    return json.dumps(record, separators=(",", ":"))


def message_from_record(lookup_id: int, text: str) -> Message:
    record = json.loads(text)
    message = Message()
    for name in _PLAIN_FIELDS:
        setattr(message, name, record[name])
    message.delivery_guarantee = DeliveryGuarantee(message.delivery_guarantee)
    for name in _BYTES_FIELDS:
        value = record[name]
        setattr(message, name, None if value is None else base64.b64decode(value))
    if "extra" in record:
        binary = set(record["extra_bytes"])
        message.extra = {k: (base64.b64decode(v) if k in binary else v) for k, v in record["extra"].items()}
    message.lookup_identifier = lookup_id
    return message


def queue_attributes(queue, parent_key: str | None) -> dict:
    attributes = {name: getattr(queue, name) for name in _QUEUE_FIELDS}
    attributes.update(identifier=queue.identifier.hex(), queue_type=queue.queue_type.value,
                      privacy_level=queue.privacy_level.value, parent=parent_key,
                      security=queue.security.plain(),   # MS-MQDMPR:3.1.1.2:09 a Persistent attribute
                      subqueue_name=queue.subqueue_name,
                      journal_identifier=queue.journal_queue_reference.identifier.hex()
                      if queue.journal_queue_reference else None)
    return attributes


class Persistence:
    def __init__(self) -> None:
        self.pending: list[tuple] = []
        self.reserved = 0  # SequentialID values below this are already promised by the store
        self.reserved_ordinal = 0  # the same for the ordinals of message identifiers
        self.insertions = 0  # orders positions across a restart

    def take(self) -> list[tuple]:
        changes, self.pending = self.pending, []
        return changes

    def record_queue_manager(self, qm) -> None:
        self.pending.append(("queue_manager", qm.identifier))

    def record_queue(self, queue) -> None:
        parent_key = queue.parent.key if queue.parent is not None else None
        self.pending.append(("queue", queue.key, queue_attributes(queue, parent_key)))

    def record_queue_deleted(self, key: str) -> None:
        self.pending.append(("queue_deleted", key))

    def reserve_ordinal(self, ordinal: int) -> None:
        """Message identifiers' ordinals never repeat across restarts either (MS-MQMQ:2.2.18.1.3:01)."""
        self.reserved_ordinal = ordinal + SEQUENCE_BLOCK
        self.pending.append(("ordinal", self.reserved_ordinal))

    def reserve(self, sequential_id: int) -> None:
        """D-33 promise the next block of SequentialID values before using them."""
        self.reserved = sequential_id + SEQUENCE_BLOCK
        self.pending.append(("sequence", self.reserved))

    def record_message(self, queue, position: MessagePosition) -> None:
        """A recoverable message entered a queue (MS-MQDMPR:3.1.1.12:03)."""
        self.insertions += 1
        message = position.message_reference
        self.pending.append(("message", message.lookup_identifier, queue.key, self.insertions,
                             int(position.state), message_record(message)))

    def record_attributes(self, message: Message) -> None:
        """A recoverable message's attributes changed while it stays where it is."""
        self.pending.append(("attributes", message.lookup_identifier, message_record(message)))

    def record_state(self, position: MessagePosition) -> None:
        message = position.message_reference
        if message.delivery_guarantee == RECOVERABLE:
            self.pending.append(("state", message.lookup_identifier, int(position.state)))

    def record_removed(self, message: Message) -> None:
        self.pending.append(("removed", message.lookup_identifier))

    def record_transaction(self, transaction) -> None:
        self.pending.append(("transaction", transaction.identifier, transaction.single_phase,
                             transaction.prepared))

    def record_operation(self, transaction, operation, index: int) -> None:
        """A new operation, or a changed DequeueReason (the store replaces it by index)."""
        position = operation.message_position_reference
        target = operation.target_queue_reference
        self.pending.append((
            "operation", transaction.identifier, index, operation.operation_type.value,
            position.message_reference.lookup_identifier,
            target.key if target is not None else None, operation.dequeue_reason))

    def record_transaction_ended(self, transaction) -> None:
        self.pending.append(("transaction_ended", transaction.identifier))

    # -- restart (MS-MQDMPR 3.1.3) ---------------------------------------------------------

    def restore(self, qm, snapshot: Snapshot) -> None:
        queues = {queue.key: queue for queue in (qm.system_deadletter_queue, qm.system_journal_queue,
                                                 qm.system_transactional_deadletter_queue)}
        # D-132: each record is read whole or the start stops, naming it
        for key, attributes in sorted(snapshot.queues, key=lambda item: _is_subqueue(item[1])):
            try:
                queues[key] = self._restore_queue(qm, key, attributes, queues)
            except _UNREADABLE as error:
                raise StoreError(f"queue {key!r}: its record cannot be read ({_reason(error)})") from None
        qm.sequential_id = self.reserved = snapshot.sequential_id
        qm._message_ordinal = self.reserved_ordinal = snapshot.ordinal
        positions = {}
        for lookup_id, queue_key, seq, state, record in sorted(snapshot.messages, key=lambda m: m[2]):
            queue = queues.get(queue_key)
            if queue is None:
                raise StoreError(f"message {lookup_id} is in queue {queue_key!r}, which the store does not hold")
            try:
                positions[lookup_id] = self._restore_message(qm, queue, lookup_id, state, record)
            except _UNREADABLE as error:
                raise StoreError(f"message {lookup_id} of queue {queue_key!r}: its record cannot be read "
                                 f"({_reason(error)})") from None
            self.insertions = max(self.insertions, seq)
        for uow, single_phase, prepared, operations in snapshot.transactions:
            try:
                self._restore_transaction(qm, uow, single_phase, prepared, operations, positions, queues)
            except _UNREADABLE as error:
                raise StoreError(f"transaction {uow.hex()}: its records cannot be read ({_reason(error)})") from None
        qm.abort_unprepared_transactions()  # MS-MQDMPR:3.1.3:02
        held = {op.message_position_reference for t in qm.transaction_collection.values()
                for op in t.transactional_operation_collection}
        for position in positions.values():
            # D-34 no two-phase reader survives a restart: its read ends as a NACK would end it
            if position.state == PURGE_PENDING and position not in held:
                qm.message_position_deleted(position.queue_reference, position, MessageClass.MQMSG_CLASS_NACK_Q_PURGED)
            elif position.state == LOCKED and position not in held:
                qm.message_position_available(position.queue_reference, position)
        for position in positions.values():
            message = position.message_reference
            if message.message_position_reference is position and message.time_to_be_received != INFINITE:
                qm.start_time_to_be_received_timer(message)

    @staticmethod
    def _restore_transaction(qm, uow: bytes, single_phase, prepared, operations, positions: dict, queues: dict):
        transaction = qm.create_transaction(uow)
        transaction.single_phase, transaction.prepared = single_phase, prepared
        for kind, lookup_id, target_key, reason in operations:
            position = positions.get(lookup_id)   # None: an express message, gone with the restart
            if position is not None:
                position.message_reference.transaction_identifier = uow
                qm.add_operation(transaction, kind, position, target=queues.get(target_key), reason=reason)

    def _restore_queue(self, qm, key: str, attributes: dict, queues: dict):
        if not isinstance(attributes, dict):
            raise TypeError("not a table of attributes")
        parent = queues.get(attributes["parent"]) if attributes["parent"] else None
        queue = Queue(attributes["pathname"], identifier=bytes.fromhex(attributes["identifier"]),
                      queue_type=QueueType(attributes["queue_type"]),
                      privacy_level=QueuePrivacyLevel(attributes["privacy_level"]),
                      security=QueueSecurity.from_plain(attributes.get("security")),
                      **{name: attributes[name] for name in _QUEUE_FIELDS if name != "pathname"})
        if parent is not None:
            queue.parent, queue.subqueue_name = parent, attributes["subqueue_name"]
            parent.subqueue_collection[queue.subqueue_name.lower()] = queue
        elif attributes["journal_identifier"]:
            journal = Queue(attributes["pathname"] + ";journal",
                            identifier=bytes.fromhex(attributes["journal_identifier"]),
                            queue_type=queue.queue_type, create_time=queue.create_time, quota=queue.journal_quota)
            journal.is_journal = True
            queue.journal_queue_reference = journal
            journal.key = key + ";journal"
            queues[key + ";journal"] = journal
        qm.queue_collection[key] = queue
        qm._next_private_number = max(qm._next_private_number, queue.private_queue_number + 1)
        queue.key = key
        return queue

    def _restore_message(self, qm, queue, lookup_id: int, state: int, record: str) -> MessagePosition:
        message = message_from_record(lookup_id, record)
        if not isinstance(message.body, bytes) or not isinstance(message.label, str):
            raise TypeError("body or label of the wrong type")
        message.size = packet_size(message, qm.readings)  # D-63: the encoding decides the size
        position = MessagePosition(message, queue, message.priority, MessagePositionState(state))
        message.message_position_reference = position
        queue.message_position_list.insert(position)
        queue.total_bytes += message.size
        qm.total_bytes += message.size
        return position


def _is_subqueue(attributes) -> bool:
    """Subqueues are restored after their parents; a record that cannot say is read first, and refused there."""
    return isinstance(attributes, dict) and attributes.get("parent") is not None


def _reason(error: Exception) -> str:
    """An exception in a few words: a missing field is named as one."""
    if isinstance(error, KeyError):
        return f"no field {error.args[0]!r}" if error.args else "a field is missing"
    return str(error).splitlines()[0][:120] if str(error) else type(error).__name__
