"""The QueueManager ADM element (MS-MQDMPR 3.1.1.1) and its queue-level events.

Theory of operation
-------------------
One QueueManager object is the LocalQueueManager.  Its methods are the events of
MS-MQDMPR 3.1.7 named in snake_case; they change the ADM synchronously and never
block.  The events are grouped by concept in mixins:

    queue_manager.py   initialization, queues, descriptors, cursors, enqueue,
                       Message Position Available / Deleted, purge, move, TTBR timer
    open_queue.py      Open Queue: format-name resolution and sharing rules
    reads.py           Dequeue / Peek / Peek Next / Read By Lookup Id, waiting reads
    transactions.py    Create Transaction, Prepare, Commit, Abort
    acknowledgment.py  Send Administration Acknowledgment, journals, dead letters
    arrival.py         a message arriving for a local queue (the set-up "send")

Time comes from an injected clock; the owner calls `run_timers()` to let time
pass.  Persistence is described, not performed: every change to recoverable
state is appended to `changes` (see persistence.py) and the owner hands them to
a store.  A QueueManager built from a Snapshot resumes where the store left off
(MS-MQDMPR 3.1.3).
"""

from __future__ import annotations

import random
import uuid

from mqspec.protocol.constants import INFINITE, MessageClass
from mqspec.protocol.hresult import HRESULT

from .acknowledgment import AcknowledgmentEvents
from .adm import OpenQueueDescriptor, Queue
from .arrival import ArrivalEvents
from .clock import Clock
from .cursor import Cursor
from .enumerations import MessagePositionState, QueueType
from .format_name import FormatNameError, PathName, parse_path_name, private_format_name
from .message import Message
from .open_queue import OpenQueueEvents
from .packet import packet_size
from .persistence import Persistence, Snapshot
from .position_list import MessagePosition
from .readings import Readings
from .reads import ReadEvents
from .timers import TimerQueue
from .transactions import TransactionEvents

AVAILABLE = MessagePositionState.Available
LOCKED = MessagePositionState.Locked
DELETED = MessagePositionState.Deleted
PURGE_PENDING = MessagePositionState.PurgePending
FIRST_USER_PRIVATE_QUEUE_NUMBER = 0x10  # D-100 after the system queues (MS-MQQB 2.2.4: order_queue$ is 4)
DEFAULT_QUEUE_MANAGER_QUOTA = 0x00100000  # MS-MQDMPR:3.1.1.1:01 bytes (D-20)
WINDOWS_QUEUE_MANAGER_QUOTA = 4 << 30     # D-20 windows: MS-MQMQ <24>, 4 GB from Vista / Server 2008 on
LOOKUP_ID_LOW_BITS = 0x00FFFFFFFFFFFFFF


class EnqueueStatus:
    """rStatus of Enqueue Message (MS-MQDMPR 3.1.7.1.9)."""
    OK = 0
    QUEUE_QUOTA = 1
    QUEUE_MANAGER_QUOTA = 2
    TIMED_OUT_IN_TRANSIT = 3


class QueueManager(OpenQueueEvents, ReadEvents, TransactionEvents, AcknowledgmentEvents, ArrivalEvents):
    def __init__(self, clock: Clock, *, computer_name: str = "mqspec", seed: int | None = 0,
                 queue_manager_quota: int | None = None,
                 send_insecure_nacks: bool = False, addresses: tuple[str, ...] = ("127.0.0.1",),
                 snapshot: Snapshot | None = None, readings: Readings | None = None) -> None:
        self.clock = clock
        self.readings = readings or Readings()  # the reading of each open decision (spec/decisions.md)
        # identifiers, handles and cursor numbers: repeatable from a seed, or (seed None) unpredictable
        self.random = random.Random(seed) if seed is not None else random.SystemRandom()
        self.timers = TimerQueue()
        self.persistence = Persistence()
        self.identifier = snapshot.identifier if snapshot else self.new_guid()
        self.computer_name = computer_name
        self.addresses = addresses
        if queue_manager_quota is None:
            # D-20 bytes: the SHOULD default of 3.1.1.1; windows: MS-MQMQ <24>'s computer quota
            queue_manager_quota = (WINDOWS_QUEUE_MANAGER_QUOTA if self.readings["D-20"] == "windows"
                                   else DEFAULT_QUEUE_MANAGER_QUOTA)
        self.queue_manager_quota = queue_manager_quota
        self.send_insecure_nacks = send_insecure_nacks  # MS-MQQB 3.1.1.3, SHOULD default FALSE
        self.mqqb = None  # the MS-MQQB receiver (mqqb_arrival.py), once another queue manager opened a session
        self.throttled = False
        self.total_bytes = 0
        self.uncounted_positions: set[MessagePosition] = set()  # D-07 count-when-available: not yet counted
        self.sequential_id = 0
        self.queue_collection: dict[str, Queue] = {}
        self.transaction_collection: dict[bytes, object] = {}
        self.open_queue_descriptors: dict[int, OpenQueueDescriptor] = {}
        self.cursors: dict[int, Cursor] = {}
        self._message_ordinal = 0
        self._transaction_ids = 0
        self._next_private_number = FIRST_USER_PRIVATE_QUEUE_NUMBER
        # MS-MQDMPR:3.1.3:01 the system queues exist from the start
        self.system_deadletter_queue = self._system_queue("deadletter")
        self.system_transactional_deadletter_queue = self._system_queue("deadxact")
        self.system_journal_queue = self._system_queue("journal")
        self.system_transactional_deadletter_queue.transactional = True
        if snapshot is not None:
            self.persistence.restore(self, snapshot)
        else:
            self.persistence.record_queue_manager(self)

    @property
    def journal_quota(self) -> int:
        """QueueManager.JournalQuota (KB): the system journal queue's quota is where it applies."""
        return self.system_journal_queue.quota

    @journal_quota.setter
    def journal_quota(self, kilobytes: int) -> None:
        self.system_journal_queue.quota = kilobytes

    # -- identifiers -----------------------------------------------------------------------

    def new_guid(self) -> bytes:
        return uuid.UUID(int=self.random.getrandbits(128), version=4).bytes_le

    def new_handle(self, taken: dict) -> int:
        """A QM-unique nonzero 32-bit handle (MS-MQDMPR:3.1.1.16:01, 3.2.1.2:01)."""
        while True:
            value = self.random.getrandbits(32)
            if value and value not in taken:
                return value

    def new_message_identifier(self) -> bytes:
        # OBJECTID: this QM's GUID and an ordinal unique for it (MS-MQMQ:2.2.18.1.3:01)
        self._message_ordinal += 1
        if self._message_ordinal >= self.persistence.reserved_ordinal:
            self.persistence.reserve_ordinal(self._message_ordinal)  # D-33, as for SequentialID
        return self.identifier + (self._message_ordinal & 0xFFFFFFFF).to_bytes(4, "little")

    def now_seconds(self) -> int:
        return self.clock.now_ms() // 1000

    def run_timers(self) -> int:
        """Let the clock's time pass: fire every timer that is due."""
        return self.timers.run_due(self.clock.now_ms())

    def take_changes(self) -> list:
        return self.persistence.take()

    # -- queues ----------------------------------------------------------------------------

    def _system_queue(self, name: str) -> Queue:
        queue = Queue(f"{self.computer_name}\\system$;{name}", identifier=self.new_guid(),
                      queue_type=QueueType.System, create_time=self.now_seconds())
        queue.is_journal = name == "journal"
        queue.key = "@" + name  # system queues are filed by their role
        return queue

    def local_key(self, path: PathName) -> str | None:
        """The key of a path name on this computer, or None if it names another computer."""
        if path.computer != "." and path.computer.lower() != self.computer_name.lower():
            return None
        return path.local_key

    def create_queue(self, pathname: str, **attributes) -> tuple[int, Queue | None]:
        """MS-MQDMPR 3.1.7.1.3 Create Queue; `attributes` override Set Queue Defaults."""
        try:
            path = parse_path_name(pathname)
        except FormatNameError:
            return HRESULT.MQ_ERROR_ILLEGAL_QUEUE_PATHNAME, None  # MS-MQDMPR:3.1.7.1.3:01
        key = self.local_key(path)
        if key is None:
            return HRESULT.MQ_ERROR_ILLEGAL_QUEUE_PATHNAME, None
        if key in self.queue_collection:
            return HRESULT.MQ_ERROR_QUEUE_EXISTS, None  # D-21 ([MS-MQMP] 3.1.4.5)
        parent = None
        if path.subqueue is not None:
            parent = self.queue_collection.get(key.split(";", 1)[0])
            if parent is None:
                return HRESULT.MQ_ERROR_QUEUE_NOT_FOUND, None  # D-22 a subqueue needs its queue
            attributes = {"transactional": parent.transactional}  # D-22 subqueues share the parent's
        number = 0
        if path.private and parent is None:
            number = self._next_private_number
            self._next_private_number += 1
        queue = Queue(pathname, identifier=self.new_guid(),
                      queue_type=QueueType.Private if path.private else QueueType.Public,
                      create_time=self.now_seconds(), private_queue_number=number, **attributes)
        if parent is not None:
            queue.parent = parent
            queue.subqueue_name = path.subqueue
            queue.private_queue_number = parent.private_queue_number
            parent.subqueue_collection[path.subqueue.lower()] = queue
        else:
            # MS-MQDMPR:3.1.7.1.3:02 every queue that is not a subqueue has a journal queue
            journal = Queue(pathname + ";journal", identifier=self.new_guid(), queue_type=queue.queue_type,
                            create_time=queue.create_time, quota=queue.journal_quota)  # Queue.JournalQuota
            journal.is_journal = True
            journal.key = key + ";journal"
            queue.journal_queue_reference = journal
        queue.key = key
        self.queue_collection[key] = queue
        self.persistence.record_queue(queue)
        return HRESULT.MQ_OK, queue

    def delete_queue(self, queue: Queue) -> int:
        """MS-MQDMPR 3.1.7.1.4 Delete Queue (subqueues and the journal go with it)."""
        for subqueue in list(queue.subqueue_collection.values()):
            self.delete_queue(subqueue)
        # MS-MQDMPR:3.1.7.1.4:01 every message goes, whatever its state
        for position in list(queue.message_position_list.positions()):
            self.message_position_deleted(queue, position, MessageClass.MQMSG_CLASS_NACK_Q_DELETED)
        self._detach_descriptors(queue)
        queue.deleted = True
        journal = queue.journal_queue_reference
        if journal is not None:
            self.purge_silently(journal)
            self._detach_descriptors(journal)
            journal.deleted = True
        if queue.parent is not None:
            queue.parent.subqueue_collection.pop(queue.subqueue_name.lower(), None)
        self.queue_collection.pop(queue.key, None)
        self.persistence.record_queue_deleted(queue.key)
        return HRESULT.MQ_OK

    def _detach_descriptors(self, queue: Queue) -> None:
        reading = self.readings["D-13"]
        for descriptor in list(queue.open_queue_descriptor_collection):
            # D-13 queue-deleted / not-available: blocked readers learn that the queue is gone;
            # times-out: 3.1.7.1.4 leaves them to their timers (MS-MQDMPR:3.1.6.3:01)
            if reading != "times-out":
                status = (HRESULT.MQ_ERROR_QUEUE_DELETED if reading == "queue-deleted"
                          else HRESULT.MQ_ERROR_QUEUE_NOT_AVAILABLE)
                for waiter in list(descriptor.waiting_message_read_operation_collection):
                    self.waiting_message_read_timer_stop(waiter, status)
            descriptor.queue_reference = None  # MS-MQDMPR:3.1.7.1.4:02
        queue.detach_all()

    def purge_silently(self, queue: Queue) -> None:
        """Drop every message of a system or journal queue without acknowledgments."""
        for position in list(queue.message_position_list.positions()):
            self._unlink_deleted(queue, position)

    def queue_format_name(self, queue: Queue) -> str:
        if queue.private_queue_number and queue.parent is None:
            return private_format_name(self.identifier, queue.private_queue_number)
        return f"DIRECT=OS:{queue.pathname}"

    # -- cursors (MS-MQDMPR 3.1.7.1.1, 3.1.7.1.2) ------------------------------------------

    def open_cursor(self, queue_desc: OpenQueueDescriptor) -> Cursor | None:
        queue = queue_desc.queue_reference
        if queue is None:
            return None  # MS-MQDMPR:3.1.7.1.1:01
        cursor = Cursor(self.new_handle(self.cursors), queue_desc, queue.message_position_list)
        queue_desc.cursor_collection[cursor.handle] = cursor  # MS-MQDMPR:3.1.7.1.1:02
        self.cursors[cursor.handle] = cursor
        return cursor

    def close_cursor(self, cursor: Cursor) -> None:
        descriptor = cursor.open_queue_descriptor_reference
        # MS-MQDMPR:3.1.7.1.2:01 the cursor's waiting reads go with it
        for waiter in list(descriptor.waiting_message_read_operation_collection):
            if waiter.cursor_reference is not cursor:
                continue
            if self.readings["D-14"] == "times-out":
                # D-14 times-out: dropped from the descriptor, its timer still ends it (MS-MQDMPR:3.1.6.3:01)
                descriptor.waiting_message_read_operation_collection.remove(waiter)
            else:
                self.waiting_message_read_timer_stop(waiter, HRESULT.MQ_ERROR_OPERATION_CANCELLED)  # D-14
        descriptor.cursor_collection.pop(cursor.handle, None)
        self.cursors.pop(cursor.handle, None)
        cursor.release()

    # -- messages in and out of lists ------------------------------------------------------

    def enqueue_message(self, queue: Queue, message: Message, transaction=None) -> int:
        """MS-MQDMPR 3.1.7.1.9 Enqueue Message; returns rStatus 0-3."""
        size = message.size = packet_size(message, self.readings)
        # MS-MQDMPR:3.1.7.1.9:01 throttled, or the QM quota would be exceeded
        if self.throttled or self.total_bytes + size > self.queue_manager_quota:
            return EnqueueStatus.QUEUE_MANAGER_QUOTA
        # MS-MQDMPR:3.1.7.1.9:02 the queue's own quota (kilobytes)
        quota = queue.quota
        if quota != INFINITE and queue.total_bytes + size > quota * 1024:
            return EnqueueStatus.QUEUE_QUOTA
        now = self.clock.now_ms() // 1000
        # D-08 an arrival after its TimeToReachQueue is "timed out in transit"
        ttrq = message.time_to_reach_queue
        if ttrq != INFINITE and message.sent_time and now > message.sent_time + ttrq:
            return EnqueueStatus.TIMED_OUT_IN_TRANSIT
        priority = message.priority
        position = MessagePosition(message, queue, priority)
        # MS-MQDMPR:3.1.7.1.9:03 a new SequentialID gives the lookup identifier
        sequential_id = self.sequential_id = self.sequential_id + 1
        persistence = self.persistence
        if sequential_id >= persistence.reserved:
            persistence.reserve(sequential_id)  # D-33
        if message.transactional_message_sequence_identifier is not None:
            message.lookup_identifier = ((7 - priority) << 56) | (sequential_id & LOOKUP_ID_LOW_BITS)
        else:
            message.lookup_identifier = sequential_id & LOOKUP_ID_LOW_BITS
        message.arrival_time = now
        message.message_position_reference = position
        # MS-MQDMPR:3.1.7.1.9:04 insert by the ordering rules, start the TTBR timer
        queue.message_position_list.insert(position)
        if transaction is not None and self.readings["D-07"] == "count-when-available":
            self.uncounted_positions.add(position)  # D-07 count-when-available: counted once Available
        else:
            queue.total_bytes += size  # D-07 count-in-list: bytes count once per position in the list
            self.total_bytes += size
        if message.time_to_be_received != INFINITE:
            self.start_time_to_be_received_timer(message)
        if transaction is not None:
            # MS-MQDMPR:3.1.7.1.9:05 an uncommitted enqueue stays Locked
            message.transaction_identifier = transaction.identifier
            self.add_operation(transaction, "Enqueue", position)
            if message.delivery_guarantee:
                persistence.record_message(queue, position)
            return EnqueueStatus.OK
        # MS-MQDMPR:3.1.7.1.9:06 Message Position Available: the state, then waiting readers
        position.state = AVAILABLE
        if message.delivery_guarantee:
            persistence.record_message(queue, position)
        if queue.open_queue_descriptor_collection:
            self.message_position_available(queue, position)
        return EnqueueStatus.OK

    def message_position_available(self, queue: Queue, position: MessagePosition) -> None:
        """MS-MQDMPR 3.1.7.2.2: the message can be read; offer it to waiting readers."""
        if position.state != AVAILABLE:
            position.state = AVAILABLE
            self.persistence.record_state(position)
        if position in self.uncounted_positions:
            self._count_in(queue, position)  # D-07 count-when-available: a committed enqueue counts now
        descriptors = queue.open_queue_descriptor_collection
        if not descriptors:
            return
        # MS-MQDMPR:3.1.7.2.2:02 FIFO per descriptor; stop after the first destructive reader
        for descriptor in list(descriptors):
            for waiter in list(descriptor.waiting_message_read_operation_collection):
                if position.state != AVAILABLE:
                    return
                self.waiting_message_read_satisfied(waiter, position)
                if waiter.destructive_read:
                    return

    def message_position_deleted(self, queue: Queue, position: MessagePosition, reason: int) -> None:
        """MS-MQDMPR 3.1.7.2.1; subscribers (MS-MQQB 3.1.7.2) send acknowledgments."""
        if position.state == DELETED:
            return
        self._unlink_deleted(queue, position)
        message = position.message_reference
        if (message.acknowledgements_requested or queue.journaling or message.positive_journaling_requested
                or message.negative_journaling_requested):
            self.message_removed(queue, message, reason)
        if self.mqqb is not None:
            self.mqqb.message_position_deleted(queue, message, reason)  # MS-MQQB 3.1.7.2.2 final acknowledgments

    def _unlink_deleted(self, queue: Queue, position: MessagePosition) -> None:
        # MS-MQDMPR:3.1.7.2.1:01 size out of TotalBytes, state Deleted, out of the list
        message = position.message_reference
        self._count_out(queue, position)
        position.state = DELETED
        queue.message_position_list.remove(position)
        if message.message_position_reference is position:
            message.message_position_reference = None
        if message.delivery_guarantee:
            self.persistence.record_removed(message)

    def discard_uncommitted(self, queue: Queue, position: MessagePosition) -> None:
        """Abort of an Enqueue: the message never became visible (MS-MQDMPR:3.1.4.5:02)."""
        message = position.message_reference
        self._count_out(queue, position)
        queue.message_position_list.discard_uncommitted(position)
        if message.delivery_guarantee:
            self.persistence.record_removed(message)

    def _count_in(self, queue: Queue, position: MessagePosition) -> None:
        self.uncounted_positions.discard(position)
        queue.total_bytes += position.message_reference.size
        self.total_bytes += position.message_reference.size

    def _count_out(self, queue: Queue, position: MessagePosition) -> None:
        """MS-MQDMPR:3.1.7.2.1:01 the size leaves TotalBytes (D-07: once, and only if it was counted)."""
        if position in self.uncounted_positions:
            self.uncounted_positions.discard(position)
            return
        queue.total_bytes -= position.message_reference.size
        self.total_bytes -= position.message_reference.size

    def purge_queue(self, queue: Queue) -> None:
        """MS-MQDMPR 3.1.7.1.7 Purge Queue."""
        for position in list(queue.message_position_list.positions()):
            if position.state == AVAILABLE:
                # MS-MQDMPR:3.1.7.1.7:01
                self.message_position_deleted(queue, position, MessageClass.MQMSG_CLASS_NACK_Q_PURGED)
            else:
                # MS-MQDMPR:3.1.7.1.7:02 a Locked message is purged when its owner is done
                position.state = PURGE_PENDING
                self.persistence.record_state(position)

    def move_message(self, position: MessagePosition, target: Queue, transaction=None) -> None:
        """MS-MQDMPR 3.1.7.1.16 Move Message."""
        if transaction is not None:
            # MS-MQDMPR:3.1.7.1.16:03 provisional until the transaction ends
            position.state = LOCKED
            message = position.message_reference
            message.transaction_identifier = transaction.identifier
            message.set("target_subqueue_name", target.subqueue_name)
            self.add_operation(transaction, "Move", position, target=target)
            self.persistence.record_state(position)
            return
        if self.readings["D-05"] == "already-received":
            # D-05 already-received: 3.1.7.1.16 sets the source position Deleted without taking it out of the list
            position.queue_reference.message_position_list.moved.add(position.message_reference.lookup_identifier)
        self.complete_move(position, target)

    def complete_move(self, position: MessagePosition, target: Queue) -> None:
        """Source position Deleted, new Available position in the target (MS-MQDMPR:3.1.7.1.16:02)."""
        source = position.queue_reference
        message = position.message_reference
        self._unlink_deleted(source, position)  # D-07 no acknowledgment for a move
        message.set("move_counter", message.get("move_counter") + 1)
        message.set("last_move_time", self.clock.now_ms())
        message.set("subqueue_name", target.subqueue_name)
        message.set("target_subqueue_name", "")
        new_position = MessagePosition(message, target, message.priority, AVAILABLE)
        message.message_position_reference = new_position
        target.message_position_list.insert(new_position)
        target.total_bytes += message.size
        self.total_bytes += message.size
        if message.delivery_guarantee:
            self.persistence.record_message(target, new_position)
        if target.queue_type != QueueType.System:
            self.message_position_available(target, new_position)

    # -- Time To Be Received (MS-MQDMPR 3.1.2.4, 3.1.7.2.7) -------------------------------

    def start_time_to_be_received_timer(self, message: Message) -> None:
        # MS-MQDMPR:3.1.2.4:01 relative to SentTime (D-09); 0 fires at once
        base_ms = message.sent_time * 1000 if message.sent_time else self.clock.now_ms()
        if self.readings["D-09"] == "enqueue-time":
            base_ms = self.clock.now_ms()  # D-09 enqueue-time: the timer of 3.1.2.4 starts at Enqueue Message
        deadline = base_ms + message.time_to_be_received * 1000
        self.timers.schedule(deadline, lambda: self.time_to_be_received_timer_expired(message))

    def time_to_be_received_timer_expired(self, message: Message) -> None:
        position = message.message_position_reference
        if position is None or position.state == DELETED:
            return  # MS-MQDMPR:3.1.2.4:01 only a message still queued expires
        queue = position.queue_reference
        transaction = self.transaction_collection.get(message.transaction_identifier)
        if transaction is not None:
            # MS-MQDMPR:3.1.7.2.7:01 removal waits for the capturing transaction
            position.state = LOCKED if position.state == AVAILABLE else position.state
            self.add_operation(transaction, "Dequeue", position,
                               reason=MessageClass.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)
            return
        # MS-MQDMPR:3.1.7.2.7:02
        self.message_position_deleted(queue, position, MessageClass.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)

    # -- flow control (MS-MQDMPR 3.1.7.2.5, 3.1.7.2.6) ------------------------------------

    def begin_flow_control(self) -> None:
        self.throttled = True  # MS-MQDMPR:3.1.7.2.5:01

    def end_flow_control(self) -> None:
        self.throttled = False

