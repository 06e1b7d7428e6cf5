"""Acknowledgments, journals and dead-letter copies.

Theory of operation
-------------------
MS-MQQB 3.1.7.2.1 subscribes to Message Position Deleted: when a message leaves
its queue the reason (a message class) decides what follows.

    AckReceive + PR requested      -> MQMSG_CLASS_ACK_RECEIVE to the admin queue
    any Nack   + NR requested      -> that NACK class to the admin queue
    AckReceive, queue journaling   -> a copy in the queue's journal (target journaling)
    AckReceive + positive journal  -> a copy in the system journal (D-26)
    any Nack   + negative journal  -> a copy, re-classed, in the dead-letter queue
                                      (transactional DLQ for transactional messages)

`send_administration_acknowledgment` is MS-MQQB 3.1.7.15 for the case where the
triggering Message is at hand (D-27; the packet form is in mqqb_arrival.py).
Copies placed in journal and dead-letter queues ask for nothing themselves, so
removing them never starts another round (D-28).
"""

from __future__ import annotations

from mqspec.protocol.constants import INFINITE, AcknowledgementsRequested as Acks, MessageClass as C
from mqspec.protocol.hresult import HRESULT

from .enumerations import PrivacyLevel, QueueAccessType, QueueShareMode
from .format_name import FormatNameError, parse_path_name
from .message import Message

# MS-MQQB:3.1.7.15:02 classes that reveal security decisions, sent only if SendInsecureNacks
INSECURE_NACKS = frozenset({
    C.MQMSG_CLASS_NACK_BAD_DST_Q, C.MQMSG_CLASS_NACK_BAD_ENCRYPTION, C.MQMSG_CLASS_NACK_BAD_SIGNATURE,
    C.MQMSG_CLASS_NACK_ACCESS_DENIED, C.MQMSG_CLASS_NACK_UNSUPPORTED_CRYPTO_PROVIDER,
})
# MS-MQQB:3.1.7.15:06 the classes of the mapping table, each becoming adminAcknowledgment.Class
ACKNOWLEDGMENT_CLASSES = frozenset({
    C.MQMSG_CLASS_ACK_REACH_QUEUE, C.MQMSG_CLASS_ACK_RECEIVE, C.MQMSG_CLASS_NACK_BAD_DST_Q,
    C.MQMSG_CLASS_NACK_DELETED, C.MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT, C.MQMSG_CLASS_NACK_Q_EXCEED_QUOTA,
    C.MQMSG_CLASS_NACK_ACCESS_DENIED, C.MQMSG_CLASS_NACK_BAD_SIGNATURE, C.MQMSG_CLASS_NACK_BAD_ENCRYPTION,
    C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q, C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG,
    C.MQMSG_CLASS_NACK_UNSUPPORTED_CRYPTO_PROVIDER, C.MQMSG_CLASS_NACK_Q_DELETED,
    C.MQMSG_CLASS_NACK_Q_PURGED, C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT, C.MQMSG_CLASS_NACK_RECEIVE_REJECTED,
})
# MS-MQQB:3.1.7.15:09 positive acknowledgments carry no body
NO_BODY_CLASSES = frozenset({C.MQMSG_CLASS_ACK_REACH_QUEUE, C.MQMSG_CLASS_ACK_RECEIVE})


class AcknowledgmentEvents:
    def message_removed(self, queue, message, reason: int) -> None:
        """MS-MQQB 3.1.7.2.1 / 3.1.7.2.2: what a removal from a queue sets off."""
        requested = message.acknowledgements_requested
        positive = reason == C.MQMSG_CLASS_ACK_RECEIVE
        if requested:
            # MS-MQQB:3.1.7.2.1:01 PR asks for the positive receive ack, NR for negative ones
            if (positive and requested & Acks.ACK_POS_RECEIVE) or (not positive and requested & Acks.ACK_NEG_RECEIVE):
                self.send_administration_acknowledgment(reason, message)
        if queue.is_journal or queue.queue_type.name == "System":
            return  # a record copy leaving a journal or dead-letter queue is not journaled again (D-28)
        # D-26 on-removal: the source journals when the message leaves; on-delivery: a non-transactional
        # message was journaled when it entered its queue (MS-MQQB 3.1.5.5.4); transactional: 3.1.5.7
        source_journals = message.is_transactional or self.readings["D-26"] == "on-removal"
        if message.source_machine_identifier != self.identifier:
            source_journals = False  # MS-MQQB 3.1.5.5.4 / 3.1.5.7 a peer's message is journaled by the peer
        if positive:
            if queue.journaling and queue.journal_queue_reference is not None:
                self.journal_copy(queue.journal_queue_reference, message, None)  # D-26 target journal
            if message.positive_journaling_requested and source_journals:
                self.journal_copy(self.system_journal_queue, message, None)  # MS-MQDMPR:3.1.1.12:10
        elif message.negative_journaling_requested and source_journals:
            self.dead_letter(message, reason)  # MS-MQDMPR:3.1.1.12:11

    def dead_letter(self, message, reason: int) -> None:
        # MS-MQDMPR:3.1.1.12:12 / MS-MQQB 3.1.5.7 the message's own dead-letter queue when it names one here
        target = self.application_deadletter_queue(message)
        if target is None:
            # MS-MQDMPR:3.1.1.12:11 transactional messages go to the transactional dead-letter queue
            target = (self.system_transactional_deadletter_queue if message.is_transactional
                      else self.system_deadletter_queue)
        self.journal_copy(target, message, reason)

    def application_deadletter_queue(self, message):
        """The queue of Message.ApplicationDeadletterQueue (the DeadLetterHeader's path name), if it is a
        valid path name of a queue of this queue manager; None otherwise (MS-MQDMPR 3.1.1.12)."""
        path = message.get("deadletter_path_name")
        if not path:
            return None
        try:
            key = self.local_key(parse_path_name(path))
        except FormatNameError:
            return None
        return self.queue_collection.get(key) if key is not None else None

    def journal_copy(self, target, message, reason: int | None) -> None:
        """A record copy in a journal or dead-letter queue; dropped if it does not fit."""
        copy = message.copy()
        if reason is not None:
            copy.message_class = reason  # re-classed with the reason it failed
        if self.readings["D-28"] == "inert":
            copy.acknowledgements_requested = Acks.NONE  # D-28 inert: a copy asks for nothing
            copy.positive_journaling_requested = False
            copy.negative_journaling_requested = False
        # D-28 (both readings) a record copy does not expire: its original's time limits have passed or will
        copy.time_to_be_received = INFINITE
        copy.time_to_reach_queue = INFINITE  # D-28 a record copy has arrived; it cannot time out in transit
        self.enqueue_message(target, copy)  # a full journal or DLQ drops the copy (MS-MQDMPR:3.1.1.12:10)

    def send_administration_acknowledgment(self, message_class: int, received_message) -> None:
        """MS-MQQB 3.1.7.15 Send Administration Acknowledgment (iReceivedMessage form)."""
        destination = received_message.administration_queue_format_name
        if not destination:
            return  # MS-MQQB:3.1.7.15:01
        if message_class in INSECURE_NACKS and not self.send_insecure_nacks:
            return  # MS-MQQB:3.1.7.15:02
        if message_class not in ACKNOWLEDGMENT_CLASSES:
            return  # D-29 the mapping table gives no acknowledgment Class for it
        acknowledgment = Message(
            message_class=message_class,
            # MS-MQQB:3.1.7.15:05 correlate to the original; reply queue = its destination
            correlation_identifier=received_message.identifier,
            response_queue_format_name=received_message.destination_queue_format_name,
            destination_queue_format_name=destination,
            delivery_guarantee=received_message.delivery_guarantee,  # MS-MQQB:3.1.7.15:08
            # MS-MQQB:3.1.7.15:03 no ack request, never expires, no journaling or privacy
            acknowledgements_requested=Acks.NONE, time_to_reach_queue=INFINITE,
            time_to_be_received=INFINITE, privacy_level=PrivacyLevel.None_,
            identifier=self.new_message_identifier(), sent_time=self.now_seconds())
        if message_class not in NO_BODY_CLASSES and received_message.privacy_level == PrivacyLevel.None_:
            acknowledgment.body = received_message.body  # MS-MQQB:3.1.7.15:09
        # MS-MQQB:3.1.7.15:07 / 3.1.7.15:04 open the admin queue for sending; if that fails the ack is lost
        status, descriptor = self.open_queue(destination, QueueAccessType.SendAccess, QueueShareMode.DenyNone)
        if status != HRESULT.MQ_OK:
            return
        self.enqueue_message_to_an_open_queue(descriptor, acknowledgment)
        self.close_queue(descriptor)
