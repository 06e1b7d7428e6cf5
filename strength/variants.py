"""The wrong queue managers: each a small, named change modelling a misreading of one clause.

A variant names the clause it misreads, says in one line what it gets wrong, and
lists its changes to the reference's sources (module, old text, new text; see
loader.py).  `load_variant(name)` builds it; the target `reference?variant=NAME`
hosts it.  The suite must fail every variant (`mqspec strength`); a variant it
cannot fail is a gap in the suite, and one that turns out to behave exactly as the
reference is removed, with the reason written down in EQUIVALENT.

Every old text is a whole line or more of the reference that occurs exactly once
in its module, and none contains `readings[` (the open decisions' branches move
while their readings are edited); tests/test_strength.py checks both, so an edit of
reference/ that breaks an anchor is reported at once.  AREAS groups the variants by
what a server can get wrong, for the report.
"""

from __future__ import annotations

from dataclasses import dataclass

from .loader import load


@dataclass(frozen=True)
class Variant:
    name: str
    clause: str                                       # the clause it misreads
    text: str                                         # what it gets wrong, in one line
    changes: tuple[tuple[str, str, str], ...]         # (module, old, new)
    area: str = ""                                    # one of AREAS


AREAS = ("cursor", "ordering", "lookup", "parameters", "two-phase", "transactions", "quotas",
         "acknowledgments", "sections", "time", "purge-move-delete", "access-control", "rpc-security", "mqqb")


def _v(area: str, name: str, clause: str, text: str, *changes: tuple[str, str, str]) -> Variant:
    return Variant(name, clause, text, tuple(changes), area)


_ALL = (
    # -- cursor movement and cursor states (MS-MQDMPR 3.2, MSDN cursor pages) ---------------------------
    _v("cursor", "peek-next-on-unread-cursor", "MS-MQDMPR:3.2.7.3:01",
       "treats peek-next through a cursor that has read nothing as a first peek instead of refusing it",
       ("cursor", "    (Unread, E.GET_NEXT_MESSAGE_FOR_PEEK): _illegal,\n",
        "    (Unread, E.GET_NEXT_MESSAGE_FOR_PEEK): _seek_for_peek,\n")),
    _v("cursor", "peek-leaves-cursor-unread", "MS-MQDMPR:3.2.7.2:01",
       "a peek that moves the cursor leaves it Unread, so the next peek-current moves on again",
       ("cursor", "    cursor.move_to(found)\n    cursor.cursor_state = Read\n    return SUCCEEDED, found\n",
        "    cursor.move_to(found)\n    return SUCCEEDED, found\n")),
    _v("cursor", "receive-current-leaves-cursor-read", "MS-MQDMPR:3.2.7.4:02",
       "receiving the peeked message leaves the cursor Read, so the next receive finds the removed message",
       ("cursor", ("        cursor.cursor_state = Unread\n        return SUCCEEDED, position\n"
                   "    return ALREADY_RECEIVED, None\n"),
        "        return SUCCEEDED, position\n    return ALREADY_RECEIVED, None\n")),
    _v("cursor", "timed-out-receive-keeps-cursor-place", "MS-MQDMPR:3.2.7.6:01",
       "a cursor receive that times out leaves the cursor where it was instead of parking it at End",
       ("cursor", "    cursor.move_to(cursor.position_list.end)\n    cursor.cursor_state = Unread\n",
        "    cursor.cursor_state = Unread\n")),
    _v("cursor", "arrival-leaves-receiving-cursor-read", "MS-MQDMPR:3.2.7.5:01",
       "a receive that waited and got a new message leaves its cursor Read instead of Unread",
       ("cursor", "    cursor.move_to(position)\n    cursor.cursor_state = Unread\n    return SUCCEEDED, position\n",
        "    cursor.move_to(position)\n    cursor.cursor_state = Read\n    return SUCCEEDED, position\n")),

    # -- ordering by priority and arrival (MS-MQDMPR 3.1.1.2, MS-MQMQ 2.2.19.1) -------------------------
    _v("ordering", "fifo-ignores-priority", "MS-MQDMPR:3.1.1.2:04",
       "orders messages by arrival alone, as if every message had the same priority",
       ("position_list", "        p = position.priority\n        after = tails[p]\n",
        "        p = position.priority\n        after = self.end.previous  # misreading: arrival order only\n")),
    _v("ordering", "newest-first-within-priority", "MS-MQDMPR:3.1.1.2:04",
       "puts a new message in front of the earlier messages of its own priority instead of after them",
       ("position_list", "        p = position.priority\n        after = tails[p]\n",
        "        p = position.priority\n        after = None  # misreading: newest first within a priority\n"),
       ("position_list", "        tails[p] = position\n",
        "        if tails[p] is None:\n            tails[p] = position\n")),
    _v("ordering", "transactional-message-keeps-priority", "MS-MQMQ:2.2.19.1:02",
       "keeps the priority the sender gave a transactional message instead of making it 0",
       ("arrival", "        message.priority = 0\n", "        pass  # misreading: the sender's priority stays\n")),
    _v("ordering", "waiting-readers-served-newest-first", "MS-MQDMPR:3.1.7.2.2:02",
       "offers a new message to the most recent waiting reader first instead of the oldest",
       ("queue_manager", ("            for waiter in list(descriptor.waiting_message_read_operation_collection):\n"
                         "                if position.state != AVAILABLE:\n"),
        ("            for waiter in reversed(descriptor.waiting_message_read_operation_collection):\n"
        "                if position.state != AVAILABLE:\n"))),

    # -- lookup identifiers and every seek direction (MS-MQDMPR 3.1.7.3.2-3, MS-MQRR 3.1.4.7) ----------
    _v("lookup", "lookup-prev-seeks-forward", "MS-MQRR:3.1.4.7:25",
       "a PREV lookup action returns the message after the given one instead of the one before",
       ("reads", "            result = position_list.seek_backward(found, peek)\n",
        "            result = position_list.seek_forward(found, peek)\n")),
    _v("lookup", "lookup-next-from-front", "MS-MQRR:3.1.4.7:25",
       "a NEXT lookup action returns the first message of the queue instead of the one after the given one",
       ("reads", "            result = position_list.seek_forward(found, peek)\n",
        "            result = position_list.seek_forward(position_list.start, peek)\n")),
    _v("lookup", "backward-seek-includes-its-start", "MS-MQDMPR:3.1.7.3.2:02",
       "a backward seek from a message may stop on that message itself instead of the one before it",
       ("position_list", "        position = initial.previous\n        while position is not start:\n",
        ("        position = initial if initial is not self.end else initial.previous\n"
        "        while position is not start:\n"))),
    _v("lookup", "seek-ignores-peek-when-locked", "MS-MQDMPR:3.1.7.3.2:01",
       "a seek for a peek skips a locked message even when the message allows peeks while locked",
       ("position_list",
        ("            if peek and state == LOCKED and position.message_reference.allow_peek_when_locked:\n"
        "                return position\n            position = position.next\n"),
        "            position = position.next\n")),
    _v("lookup", "transactional-lookup-id-without-priority-byte", "MS-MQDMPR:3.1.7.1.9:03",
       "gives a transactional message a lookup identifier without the 7 - Priority high byte",
       ("queue_manager", "((7 - priority) << 56)", "(0 << 56)")),
    _v("lookup", "sequence-id-keeps-high-byte", "MS-MQRR:3.1.4.7:09",
       "returns the whole lookup identifier as pSequenceId instead of its low 7 bytes",
       ("remote_read", "message.lookup_identifier & 0x00FFFFFFFFFFFFFF, sections)",
        "message.lookup_identifier, sections)")),

    # -- R_StartReceive's parameter table and access rights (MS-MQRR 3.1.4.6, 3.1.4.7, 3.1.4.13) -------
    _v("parameters", "lookup-with-time-out-accepted", "MS-MQRR:3.1.4.7:04",
       "accepts a lookup action with a nonzero ulTimeout instead of refusing the combination",
       ("remote_read_rules", "h_cursor == 0 and ul_timeout == 0", "h_cursor == 0")),
    _v("parameters", "peek-handle-may-receive", "MS-MQRR:3.1.4.7:33",
       "lets a handle opened with PEEK_ACCESS receive messages",
       ("remote_read", "        allowed = (QueueAccessType.ReceiveAccess,) if receive else",
        "        allowed = (QueueAccessType.ReceiveAccess, QueueAccessType.PeekAccess) if receive else")),
    _v("parameters", "purge-without-receive-access", "MS-MQRR:3.1.4.6:04",
       "purges through a handle opened only for peeking instead of answering STATUS_ACCESS_DENIED",
       ("remote_read", ("        if descriptor.access_type != QueueAccessType.ReceiveAccess:\n"
                       "            return HRESULT.STATUS_ACCESS_DENIED  # MS-MQRR:3.1.4.6:04\n"), "")),
    _v("parameters", "bad-cursor-is-invalid-handle", "MS-MQRR:3.1.4.7:18",
       "answers an unknown hCursor with MQ_ERROR_INVALID_HANDLE instead of STATUS_INVALID_HANDLE",
       ("remote_read", "                return call.fail(HRESULT.STATUS_INVALID_HANDLE)\n",
        "                return call.fail(HRESULT.MQ_ERROR_INVALID_HANDLE)\n")),
    _v("parameters", "transactional-peek-accepted", "MS-MQRR:3.1.4.13:12",
       "carries out a peek given to R_StartTransactionalReceive with a transaction instead of refusing it",
       ("remote_read", ("            if ul_action in PEEK_ACTIONS:\n"
                       "                return call.fail(HRESULT.MQ_ERROR_TRANSACTION_USAGE)  # MS-MQRR:3.1.4.13:12, "
                       "D-41 usage\n"), "")),

    # -- two-phase reads: ACK, NACK, cancel, the clean-up timer (MS-MQRR 3.1.4.7-9, 3.1.5.1, 3.1.6) -----
    _v("two-phase", "nack-removes-message", "MS-MQRR:3.1.4.9:04",
       "R_EndReceive with RR_NACK removes the message as RR_ACK does instead of making it available again",
       ("remote_read", ("status = self.qm.dequeue_message_end(descriptor, position, dw_ack == Ack.RR_ACK, "
                        "transactional)"),
        "status = self.qm.dequeue_message_end(descriptor, position, True, transactional)")),
    _v("two-phase", "lookup-receive-removes-at-once", "MS-MQRR:3.1.4.7:20",
       "a lookup receive removes its message at once instead of locking it until R_EndReceive",
       ("remote_read", "two_phase_read=not peek)", "two_phase_read=False)")),
    _v("two-phase", "cancel-reports-time-out", "MS-MQRR:3.1.4.8:04",
       "R_CancelReceive ends the waiting call with MQ_ERROR_IO_TIMEOUT instead of MQ_ERROR_OPERATION_CANCELLED",
       ("remote_read", "queue, dw_request_id, HRESULT.MQ_ERROR_OPERATION_CANCELLED, scope)",
        "queue, dw_request_id, HRESULT.MQ_ERROR_IO_TIMEOUT, scope)")),
    _v("two-phase", "cancel-ignores-request-id", "MS-MQDMPR:3.1.7.1.17:01",
       "R_CancelReceive ends the first waiting read of the handle, whatever its request id",
       ("reads", "                if waiter.tag is not None and waiter.tag == tag:\n",
        "                if waiter.tag is not None:  # misreading: any tagged read answers the cancel\n")),
    _v("two-phase", "cleanup-timer-removes-message", "MS-MQRR:3.1.5.1:01",
       "the Pending Request Cleanup Timer deletes an unfinished receive's message instead of releasing it",
       ("remote_read", ("            # MS-MQRR:3.1.5.1:01 a receive nobody finished: the message becomes "
                        "available again\n"
                       "            self.qm.dequeue_message_end(descriptor, position, delete_message=False)\n"),
        "            self.qm.dequeue_message_end(descriptor, position, delete_message=True)\n")),
    _v("two-phase", "rundown-keeps-locked-messages", "MS-MQRR:3.1.6.2:01",
       "a context-handle rundown closes the queue but leaves the messages of its unfinished receives locked",
       ("remote_read", ("        self.qm.close_queue(descriptor)  # MS-MQRR:3.1.6.2:01\n"
                       "        self._release_pending(ph_context, descriptor)\n"),
        "        self.qm.close_queue(descriptor)  # MS-MQRR:3.1.6.2:01\n")),

    # -- transactions: commit, abort, positions after abort (MS-MQDMPR 3.1.4.3-5, MS-MQRR 3.1.4.15) ------
    _v("transactions", "commit-in-reverse-order", "MS-MQDMPR:3.1.4.4:02",
       "commits a transaction's operations last to first instead of in FIFO order",
       ("transactions", ("        for operation in operations:\n"
                         "            position = operation.message_position_reference\n"
                        "            if position.state == DELETED:\n                continue\n"
                        "            queue = position.queue_reference\n"
                        "            position.message_reference.transaction_identifier = None\n"),
        ("        for operation in reversed(operations):\n            position = operation.message_position_reference\n"
        "            if position.state == DELETED:\n                continue\n"
        "            queue = position.queue_reference\n"
        "            position.message_reference.transaction_identifier = None\n"))),
    _v("transactions", "abort-removes-received-message", "MS-MQDMPR:3.1.4.5:01",
       "an abort removes the messages the transaction received instead of making them available again",
       ("transactions", "                self.message_position_available(queue, position)  # MS-MQDMPR:3.1.4.5:01\n",
        "                self.message_position_deleted(queue, position, MessageClass.MQMSG_CLASS_ACK_RECEIVE)\n")),
    _v("transactions", "abort-keeps-sent-message", "MS-MQDMPR:3.1.4.5:02",
       "an abort makes the messages the transaction sent available instead of removing them",
       ("transactions", "                self.discard_uncommitted(queue, position)  # MS-MQDMPR:3.1.4.5:02\n",
        "                self.message_position_available(queue, position)\n")),
    _v("transactions", "abort-requeues-at-the-back", "MS-MQDMPR:3.1.4.5:01",
       "an abort puts a received message back behind the others of its priority instead of at its old place",
       ("transactions", "                self.message_position_available(queue, position)  # MS-MQDMPR:3.1.4.5:01\n",
        ("                position_list = queue.message_position_list  # misreading: re-enqueued at the back\n"
        "                position_list._unlink(position)\n                position_list.count -= 1\n"
        "                position_list.insert(position)\n"
        "                self.message_position_available(queue, position)\n"))),
    _v("transactions", "transactional-ack-removes-at-once", "MS-MQRR:3.1.4.15:03",
       "R_EndTransactionalReceive with RR_ACK removes the message at once instead of at the commit",
       ("reads", ("        if transactional:\n"
                  "            return MQ_OK  # MS-MQDMPR:3.1.7.1.12:02 the transaction decides\n"),
        "")),
    _v("transactions", "expiry-ignores-transaction", "MS-MQDMPR:3.1.7.2.7:01",
       "a message that expires while a transaction holds it is removed at once instead of by that transaction",
       ("queue_manager", ("        transaction = self.transaction_collection.get(message.transaction_identifier)\n"
                         "        if transaction is not None:\n"),
        ("        transaction = None  # misreading: expiry does not wait for the transaction\n"
        "        if transaction is not None:\n"))),

    # -- quotas at their exact boundaries (MS-MQDMPR 3.1.7.1.9, 3.1.7.2.1) -------------------------------
    _v("quotas", "queue-quota-refuses-exact-fit", "MS-MQDMPR:3.1.7.1.9:02",
       "refuses a message that exactly fills the queue's quota, as if the quota had to stay above the total",
       ("queue_manager", "queue.total_bytes + size > quota * 1024", "queue.total_bytes + size >= quota * 1024")),
    _v("quotas", "queue-manager-quota-refuses-exact-fit", "MS-MQDMPR:3.1.7.1.9:01",
       "refuses a message that exactly fills the queue manager's quota",
       ("queue_manager", "self.total_bytes + size > self.queue_manager_quota",
        "self.total_bytes + size >= self.queue_manager_quota")),
    _v("quotas", "queue-quota-checked-first", "MS-MQDMPR:3.1.7.1.9:01",
       "checks the queue's quota before the queue manager's, so a message over both reports status 1, not 2",
       ("queue_manager", ("        if self.throttled or self.total_bytes + size > self.queue_manager_quota:\n"
                         "            return EnqueueStatus.QUEUE_MANAGER_QUOTA\n"),
        ""),
       ("queue_manager", "            return EnqueueStatus.QUEUE_QUOTA\n",
        ("            return EnqueueStatus.QUEUE_QUOTA\n"
        "        if self.throttled or self.total_bytes + size > self.queue_manager_quota:\n"
        "            return EnqueueStatus.QUEUE_MANAGER_QUOTA\n"))),
    _v("quotas", "removal-keeps-queue-bytes", "MS-MQDMPR:3.1.7.2.1:01",
       "a message leaving a queue is taken off the queue manager's TotalBytes but not off the queue's",
       ("queue_manager", ("        queue.total_bytes -= position.message_reference.size\n"
                         "        self.total_bytes -= position.message_reference.size\n"),
        "        self.total_bytes -= position.message_reference.size\n")),

    # -- administration acknowledgments (MS-MQQB 3.1.7.2.1, 3.1.7.15, MS-MQDMPR 3.1.1.12) -----------------
    _v("acknowledgments", "purge-nacks-as-queue-deleted", "MS-MQDMPR:3.1.7.1.7:01",
       "removes purged messages with reason NackQueueDeleted instead of NackQueuePurged",
       ("queue_manager", ("                self.message_position_deleted(queue, position, "
                         "MessageClass.MQMSG_CLASS_NACK_Q_PURGED)\n            else:\n"),
        ("                self.message_position_deleted(queue, position, "
        "MessageClass.MQMSG_CLASS_NACK_Q_DELETED)\n            else:\n"))),
    _v("acknowledgments", "expiry-nacks-as-reach-queue-timeout", "MS-MQDMPR:3.1.7.2.7:02",
       "removes an expired message with NACK_REACH_QUEUE_TIMEOUT instead of NACK_RECEIVE_TIMEOUT",
       ("queue_manager", ("        # MS-MQDMPR:3.1.7.2.7:02\n        self.message_position_deleted(queue, position, "
                         "MessageClass.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT)\n"),
        "        self.message_position_deleted(queue, position, MessageClass.MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT)\n")),
    _v("acknowledgments", "negative-ack-on-positive-request", "MS-MQQB:3.1.7.2.1:01",
       "sends negative receive acknowledgments to senders who asked for positive ones, and not to those who asked",
       ("acknowledgment", "(not positive and requested & Acks.ACK_NEG_RECEIVE)",
        "(not positive and requested & Acks.ACK_POS_RECEIVE)")),
    _v("acknowledgments", "acknowledgment-always-express", "MS-MQQB:3.1.7.15:08",
       "sends every acknowledgment express, even for a recoverable message",
       ("acknowledgment", "delivery_guarantee=received_message.delivery_guarantee,  # MS-MQQB:3.1.7.15:08",
        "delivery_guarantee=type(received_message.delivery_guarantee)(0),")),
    _v("acknowledgments", "rejection-class-ignored", "MS-MQRR:3.1.4.14:05",
       "accepts R_SetUserAcknowledgementClass but removes the message at commit as received, not rejected",
       ("remote_read", ("                        operation.dequeue_reason = "
                       "MessageClass.MQMSG_CLASS_NACK_RECEIVE_REJECTED\n"), "")),
    _v("acknowledgments", "quota-refusal-without-nack", "MS-MQQB:3.1.5.8.8:01",
       "refuses a message over the queue's quota without the NACK_Q_EXCEED_QUOTA acknowledgment",
       ("arrival", "            self._arrival_nack(message, C.MQMSG_CLASS_NACK_Q_EXCEED_QUOTA)\n",
        "            pass  # misreading: a quota refusal is silent\n")),

    # -- packet sections and truncation (MS-MQRR 2.2.6, 3.1.4.7) ------------------------------------------
    _v("sections", "exact-limit-truncates", "MS-MQRR:3.1.4.7:11",
       "splits the packet when the body exactly fits the client's limit, as if the limit had to exceed it",
       ("packet_sections", "    if limit >= actual:\n", "    if limit > actual:\n")),
    _v("sections", "first-section-alloc-is-its-size", "MS-MQRR:2.2.6:02",
       "gives a cut first section a SectionSizeAlloc equal to what was sent instead of the whole size",
       ("packet_sections", "    sections = [SectionBuffer(first_type, size_alloc, len(first), first)]\n",
        "    sections = [SectionBuffer(first_type, len(first), len(first), first)]\n")),
    _v("sections", "trailers-dropped", "MS-MQRR:3.1.4.7:13",
       "returns only the first section of a cut packet, without the trailers' second section",
       ("packet_sections", ("        sections.append(SectionBuffer(second_type, len(trailers), len(trailers), "
                            "trailers))\n"),
        "        pass  # misreading: the trailers are not sent\n")),
    _v("sections", "time-to-reach-queue-stays-relative", "MS-MQRR:3.1.4.7:14",
       "returns BaseHeader.TimeToReachQueue as stored (relative) instead of SentTime plus it",
       ("packet_sections", ("    struct.pack_into(\"<I\", head, TTRQ_OFFSET, "
                           "absolute_time_to_reach_queue(sent, relative, wrap))\n"), "")),
    _v("sections", "arrive-time-is-sent-time", "MS-MQRR:3.1.4.7:08",
       "returns the message's SentTime as pdwArriveTime instead of when it entered the queue",
       ("remote_read", "call.succeed(message.arrival_time,", "call.succeed(message.sent_time,")),

    # -- time-outs and time-to-be-received at their exact boundaries (MS-MQDMPR 3.1.2) ---------------------
    _v("time", "timer-fires-after-its-deadline", "MS-MQDMPR:3.1.2.3:01",
       "fires a timer only once its deadline has passed, not when it is reached",
       ("timers", "        while heap and heap[0][0] <= now_ms:\n", "        while heap and heap[0][0] < now_ms:\n")),
    _v("time", "zero-time-to-be-received-never-expires", "MS-MQDMPR:3.1.2.4:01",
       "reads a TimeToBeReceived of 0 as no limit instead of expiring the message at once",
       ("queue_manager", ("        if message.time_to_be_received != INFINITE:\n"
                         "            self.start_time_to_be_received_timer(message)\n"),
        ("        if message.time_to_be_received not in (INFINITE, 0):\n"
        "            self.start_time_to_be_received_timer(message)\n"))),
    _v("time", "time-to-be-received-in-milliseconds", "MS-MQDMPR:3.1.2.4:01",
       "counts TimeToBeReceived in milliseconds instead of seconds",
       ("queue_manager", "        deadline = base_ms + message.time_to_be_received * 1000\n",
        "        deadline = base_ms + message.time_to_be_received\n")),
    _v("time", "time-to-reach-queue-refuses-at-deadline", "MS-MQDMPR:3.1.7.1.9:08",
       "refuses a message arriving exactly at SentTime + TimeToReachQueue, before that time has passed",
       ("queue_manager", "now > message.sent_time + ttrq", "now >= message.sent_time + ttrq")),
    _v("time", "infinite-wait-expires", "MS-MQDMPR:3.1.2.3:01",
       "reads a 0xFFFFFFFF receive time-out as about 49.7 days instead of no time-out at all",
       ("reads", "        if timeout != INFINITE:\n            waiter.timer = self.timers.schedule(",
        ("        if True:  # misreading: INFINITE is a number of milliseconds\n"
        "            waiter.timer = self.timers.schedule("))),

    # -- purge, move and delete (MS-MQDMPR 3.1.7.1.4, 3.1.7.1.7, 3.1.7.1.16, MS-MQRR 3.1.4.10) ------------
    _v("purge-move-delete", "purge-removes-locked-messages", "MS-MQDMPR:3.1.7.1.7:02",
       "a purge removes locked messages at once instead of marking them PurgePending",
       ("queue_manager", "            if position.state == AVAILABLE:\n                # MS-MQDMPR:3.1.7.1.7:01\n",
        "            if position.state != DELETED:  # misreading: locked messages go too\n")),
    _v("purge-move-delete", "nack-restores-purged-message", "MS-MQDMPR:3.1.7.1.12:03",
       "an RR_NACK of a message purged while it was locked makes it available again instead of removing it",
       ("reads", "        if position.state == PURGE_PENDING:\n",
        "        if False:  # misreading: PurgePending ignored\n")),
    _v("purge-move-delete", "move-between-unrelated-queues", "MS-MQRR:3.1.4.10:08",
       "moves a message between two queues that are not a queue and its subqueue",
       ("remote_read", "    return (source.parent is target or target.parent is source\n",
        "    return True or (source.parent is target or target.parent is source\n")),
    _v("purge-move-delete", "transactional-move-at-once", "MS-MQDMPR:3.1.7.1.16:03",
       "a move inside a transaction happens at once instead of when the transaction commits",
       ("queue_manager", ("        if transaction is not None:\n"
                         "            # MS-MQDMPR:3.1.7.1.16:03 provisional until the transaction ends\n"),
        "        if False:  # misreading: a transactional move is final at once\n")),
    _v("purge-move-delete", "deleted-queue-keeps-handles", "MS-MQDMPR:3.1.7.1.4:02",
       "deleting a queue leaves its open handles pointing at it, so reads through them still find the queue",
       ("queue_manager", "            descriptor.queue_reference = None  # MS-MQDMPR:3.1.7.1.4:02\n",
        "            pass  # misreading: handles keep the deleted queue\n")),

    # -- queue security: the access list, the rights each access needs (MS-MQRR 2.1, MS-MQDMPR 3.1.1.2, D-81) ---
    _v("access-control", "deny-refuses-rights-already-allowed", "MS-MQRR:2.1:03",
       "a deny entry refuses a right that an earlier allow entry already granted, as if deny entries came first",
       ("security", "        if kind == DENY and rights & wanted & ~allowed:\n",
        "        if kind == DENY and rights & wanted:\n")),
    _v("access-control", "everyone-includes-anonymous", "MS-MQRR:2.1:03",
       "lets Everyone's entries admit a caller with no security context, as if Everyone took in Anonymous Logon",
       ("security", "        return trustee == ANONYMOUS    # D-81 anonymous-apart:",
        "        return trustee in (ANONYMOUS, EVERYONE)  #")),
    _v("access-control", "peek-open-needs-receive-right", "MS-MQRR:2.1:03",
       "asks MQSEC_RECEIVE_MESSAGE of an open for peeking, so the right to peek alone opens nothing",
       ("remote_read", "            wanted = QueueRights.MQSEC_PEEK_MESSAGE\n",
        "            wanted = QueueRights.MQSEC_RECEIVE_MESSAGE\n")),
    _v("access-control", "journal-judged-by-receive-right", "MS-MQRR:2.1:03",
       "opens a queue's journal for receiving with MQSEC_RECEIVE_MESSAGE instead of MQSEC_RECEIVE_JOURNAL_MESSAGE",
       ("remote_read", "wanted = QueueRights.MQSEC_RECEIVE_JOURNAL_MESSAGE  #",
        "wanted = QueueRights.MQSEC_RECEIVE_MESSAGE  #")),
    _v("access-control", "move-open-skips-access-list", "MS-MQRR:2.1:03",
       "checks the access list in R_OpenQueue only, so R_OpenQueueForMove opens any queue for any caller",
       ("remote_read", "        if caller is not None and not self._admits(queue, access, caller):\n",
        "        if caller is not None and not move and not self._admits(queue, access, caller):\n")),
    _v("access-control", "move-open-needs-peek-right-only", "MS-MQRR:2.1:03",
       "asks only MQSEC_PEEK_MESSAGE of R_OpenQueueForMove, as if a move read without removing",
       ("remote_read", "        if access is QueueAccessType.PeekAccess:\n",
        "        if access is not QueueAccessType.ReceiveAccess:\n")),
    _v("access-control", "subqueue-judged-by-its-own-list", "MS-MQRR:2.1:03",
       "judges a subqueue by a default access list of its own instead of its queue's",
       ("remote_read", "        family = queue.parent or (", "        family = (")),
    _v("access-control", "default-security-for-anonymous-only", "MS-MQDMPR:3.1.7.1.3.1:02",
       "gives a queue created without an access list full control for Anonymous Logon only, not Everyone",
       ("security", "DEFAULT = QueueSecurity(ANONYMOUS, ((ALLOW, EVERYONE,",
        "DEFAULT = QueueSecurity(ANONYMOUS, ((ALLOW, ANONYMOUS,")),
    _v("access-control", "owner-without-list-gets-empty-list", "MS-MQDMPR:3.1.7.1.3.1:01",
       "a queue created with an owner and no access list gets an empty list instead of the default one",
       ("security", "            return cls(owner, DEFAULT.dacl)   #", "            return cls(owner, ())   #")),

    # -- the RPC authentication level an open needs (MS-MQRR 3.1.4.2, 3.1.4.11, D-82) ----------------------------
    _v("rpc-security", "workgroup-client-needs-privacy", "MS-MQRR:3.1.4.2:09",
       "with the fWorkgroup policy on, asks packet privacy of a client in a workgroup as of one in a domain",
       ("remote_read", "        needed = AuthnLevel.RPC_C_AUTHN_LEVEL_NONE if f_workgroup == 1 else",
        "        needed = AuthnLevel.RPC_C_AUTHN_LEVEL_PKT_PRIVACY if f_workgroup == 1 else")),
    _v("rpc-security", "domain-client-at-integrity-admitted", "MS-MQRR:3.1.4.2:09",
       "with the fWorkgroup policy on, admits a client in a domain at packet integrity instead of privacy",
       ("remote_read", "else AuthnLevel.RPC_C_AUTHN_LEVEL_PKT_PRIVACY\n",
        "else AuthnLevel.RPC_C_AUTHN_LEVEL_PKT_INTEGRITY\n")),
    _v("rpc-security", "move-open-level-unchecked", "MS-MQRR:3.1.4.2:09",
       "applies the fWorkgroup policy to R_OpenQueue only, so R_OpenQueueForMove opens below the level",
       ("remote_read", "            return OpenQueueResult(RPC_S_ACCESS_DENIED)  # MS-MQRR:3.1.4.11:07 D-82\n",
        "            pass  # misreading: the policy is R_OpenQueue's alone\n")),
    _v("rpc-security", "level-refusal-as-access-denied-hresult", "MS-MQRR:3.1.4.2:09",
       "refuses an open below the level with MQ_ERROR_ACCESS_DENIED instead of the RPC runtime's access denied (5)",
       ("remote_read", "            return OpenQueueResult(RPC_S_ACCESS_DENIED)  # MS-MQRR:3.1.4.2:09",
        "            return OpenQueueResult(HRESULT.MQ_ERROR_ACCESS_DENIED)  #")),

    # -- MS-MQQB sessions: establishment, session acknowledgments, structure rules (MS-MQQB 3.1.5, MS-MQMQ 2.2) ---
    _v("mqqb", "foreign-server-guid-accepted", "MS-MQQB:3.1.5.3.1:01",
       "accepts an EstablishConnection naming another queue manager's GUID as ServerGuid",
       ("mqqb_session", "        refused = bytes(server) not in (self.qm.identifier, bytes(16))  # MS-MQQB 2.2.1 CS\n",
        "        refused = False\n")),
    _v("mqqb", "refused-session-left-open", "MS-MQQB:3.1.5.3.1:01",
       "answers a foreign ServerGuid with CS set but keeps the session, which then takes ConnectionParameters",
       ("mqqb_session", "            self.close()  # MS-MQQB 2.2.1: CS says the connection is refused\n",
        "            pass  # misreading: the refusal is the answer alone\n")),
    _v("mqqb", "direct-server-guid-refused", "MS-MQQB:3.1.5.3.1:02",
       "refuses an EstablishConnection whose ServerGuid is zero, as an initiator sends it for a direct format name",
       ("mqqb_session", "        refused = bytes(server) not in (self.qm.identifier, bytes(16))  # MS-MQQB 2.2.1 CS\n",
        "        refused = bytes(server) != self.qm.identifier\n")),
    _v("mqqb", "second-establish-connection-restarts", "MS-MQQB:3.1.5.3.1:03",
       "takes an EstablishConnection on an OPEN session as a new request instead of closing the session",
       ("mqqb_session", '    (OPEN, "UserMessage"): ("_user_message", OPEN),  ',
        '    (OPEN, "EstablishConnection"): ("_establish_connection", WAITING_CP_MSG),\n'
        '    (OPEN, "UserMessage"): ("_user_message", OPEN),  ')),
    _v("mqqb", "user-message-before-parameters-taken", "MS-MQQB:3.1.5.8:01",
       "processes a UserMessage that arrives after EstablishConnection but before ConnectionParameters",
       ("mqqb_session", '    (OPEN, "UserMessage"): ("_user_message", OPEN),  ',
        '    (WAITING_CP_MSG, "UserMessage"): ("_user_message", WAITING_CP_MSG),\n'
        '    (OPEN, "UserMessage"): ("_user_message", OPEN),  ')),
    _v("mqqb", "session-ack-before-open-taken", "MS-MQQB:3.1.5.5:01",
       "takes a SessionAck on a session that is not OPEN yet instead of closing it",
       ("mqqb_session", '    (OPEN, "SessionAck"): ("_session_ack", OPEN),  ',
        '    (WAITING_CP_MSG, "SessionAck"): ("_session_ack", WAITING_CP_MSG),\n'
        '    (OPEN, "SessionAck"): ("_session_ack", OPEN),  ')),
    _v("mqqb", "session-header-unchecked", "MS-MQQB:3.1.5.5:02",
       "keeps a session whose peer's SessionHeader counts messages this queue manager never received",
       ("mqqb_session", ("                or recoverable_msg_seq_number != self.recoverable_message_received_count):\n"
                         "            self.close()\n"),
        ("                or recoverable_msg_seq_number != self.recoverable_message_received_count):\n"
         "            pass  # misreading: the peer's counts are information only\n"))),
    _v("mqqb", "session-header-recoverable-count-unchecked", "MS-MQQB:3.1.5.5:02",
       "checks a SessionHeader's UserMsgSequenceNumber but not its RecoverableMsgSeqNumber",
       ("mqqb_session", "                or recoverable_msg_seq_number != self.recoverable_message_received_count):\n",
        "                or False):\n")),
    _v("mqqb", "express-messages-not-counted", "MS-MQMQ:2.2.20.4:01",
       "counts only recoverable UserMessages in MessageReceivedCount, so a SessionAck acknowledges too few",
       ("mqqb_session", "        self.message_received_count = (self.message_received_count + 1) & 0xFFFF\n",
        "        self.message_received_count = (self.message_received_count + int(recoverable)) & 0xFFFF\n")),
    _v("mqqb", "recoverable-ack-flags-shifted", "MS-MQMQ:2.2.20.4:01",
       "sets the RecoverableMsgAckFlags bit one place too high, so bit 0 never acknowledges the first message",
       ("mqqb_session", "self.recoverable_msg_ack_flags |= 1 << (self._recoverable_since_ack() - 1)\n",
        "self.recoverable_msg_ack_flags |= 1 << self._recoverable_since_ack()\n")),
    _v("mqqb", "session-ack-framing-text-only", "MS-MQQB:2.2.6:01",
       "frames a peer's SessionAck by PacketSize 20 only, closing a session whose peer counts the header in (36)",
       ("mqqb_packets", "        if size not in SESSION_ACK_SIZES:\n", "        if size != SESSION_ACK_SIZES[0]:\n")),
    _v("mqqb", "destination-code-unchecked", "MS-MQMQ:2.2.19.2:12",
       "checks a UserMessage's AQ code against its set but not its DQ code",
       ("mqqb_packets", "    if dq not in ALLOWED_DQ or aq not in ALLOWED_AQ:\n", "    if aq not in ALLOWED_AQ:\n")),
    _v("mqqb", "unaligned-packet-size-accepted", "MS-MQMQ:2.2.19.1:12",
       "takes a UserMessage whose PacketSize is not a multiple of 4",
       ("mqqb_packets", "    if size % 4 or size < FIXED_HEADERS:\n", "    if size < FIXED_HEADERS:\n")),
    _v("mqqb", "journal-is-a-destination", "MS-MQQB:3.1.5.8.2:03",
       "delivers a UserMessage addressed to a queue's journal into that journal instead of refusing it",
       ("mqqb_arrival", '        if queue is None or queue.is_journal or queue.queue_type.name == "System":\n',
        "        if queue is None:\n")),

    # -- one reading per open decision: a server that takes one reading here and the other there (issue 22) -----
    _v("parameters", "request-id-busy-for-pending-entries-only", "MS-MQRR:3.1.4.7:34",
       "refuses a request id in use by a pending entry (D-36 refuse) but takes one of a read still waiting (accept)",
       ("remote_read", "                or any(w.request.request_id == dw_request_id\n",
        "                or False and any(w.request.request_id == dw_request_id\n")),
    _v("parameters", "move-source-access-unchecked", "MS-MQRR:3.1.4.10:05",
       "checks a handle's access for receiving (D-49 check) but not for R_MoveMessage's source (no-check)",
       ("remote_read", ("            return HRESULT.MQ_ERROR_ACCESS_DENIED  # D-49 check\n"
                        "        target = self.context_handles.get("),
        "            pass  # misreading: a move only needs its destination's MoveAccess\n"
        "        target = self.context_handles.get(")),
)

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in _ALL}

# name -> why a variant was removed as equivalent to the reference (its change and the proof).
EQUIVALENT: dict[str, str] = {
    "cancel-keeps-pending-entry": (
        "remote_read.py r_cancel_receive without its removal of the {dwRequestId, handle} entry "
        "(MS-MQRR:3.1.4.8:04): the cancel ends the read with MQ_ERROR_OPERATION_CANCELLED, and the reference's "
        "reading of D-52 (remove) already takes the entry of a failed Start out of the table in _finish, before "
        "the cancel's own removal runs; under D-52 keep it would differ, but a variant takes the reference's "
        "readings"),
    "lookup-last-from-front": (
        "reads.py SEEK_LAST seeking forward from Start (the first message instead of the last): MS-MQRR's "
        "ulAction table (3.1.4.7) has no FIRST or LAST lookup action, and remote_read_rules.LOOKUP_SEEK maps "
        "only CURRENT, NEXT and PREV, so no call through the Target interface reaches SeekFirst or SeekLast"),
    "every-waiting-receiver-offered": (
        "queue_manager.py message_position_available without `if waiter.destructive_read: return` "
        "(MS-MQDMPR:3.1.7.2.2:02): every destructive read locks or deletes the position it takes, and the loop "
        "checks `position.state != AVAILABLE` before each later waiter, so the loop stops at the same place"),
}


def load_variant(name: str):
    """The package of the variant's modules (strength.loader); ValueError for an unknown name."""
    if name not in VARIANTS:
        hint = f" (removed as equivalent: {EQUIVALENT[name]})" if name in EQUIVALENT else ""
        raise ValueError(f"no variant {name!r}{hint}; `mqspec strength --list` names them")
    changes: dict[str, list[tuple[str, str]]] = {}
    for module, old, new in VARIANTS[name].changes:
        changes.setdefault(module, []).append((old, new))
    return load(f"_mqspec_variant_{name.replace('-', '_')}", changes)
