"""A message arriving for a local queue: the set-up "send" a test needs.

Theory of operation
-------------------
MS-MQRR only reads; tests also need to put messages in.  `send_message` plays
the part of a message that reaches this queue manager (MS-MQQB 3.1.5.8): the
message's properties are checked, the destination is opened for sending
(MS-MQDMPR 3.1.7.1.5), the transactional mismatch rules of MS-MQQB apply, the
message is enqueued through Enqueue Message To An Open Queue (3.1.7.1.27), and
the arrival acknowledgments follow from the Enqueue Message status:

    0  enqueued                 -> ACK_REACH_QUEUE if PA was asked for
    1  queue quota              -> NACK_Q_EXCEED_QUOTA if NA; dead letter if JN
    2  queue-manager quota      -> nothing (MS-MQQB closes the session instead)
    3  TimeToReachQueue passed  -> NACK_REACH_QUEUE_TIMEOUT if NA; dead letter if JN
"""

from __future__ import annotations

from mqspec.protocol.constants import AcknowledgementsRequested as Acks, MessageClass as C
from mqspec.protocol.hresult import HRESULT

from .enumerations import DeliveryGuarantee, QueueAccessType, QueueShareMode
from .format_name import FormatNameError, parse_format_name
from .message import LABEL_MAX_CHARS, Message

CUSTOM_CLASS_MASK = 0xE1FF  # MS-MQMQ 2.2.18.1.6 application classes use only these bits


def property_error(message: Message, readings) -> int:
    """MQ_OK, or the status that refuses a message with a property out of range."""
    if not 0 <= message.priority <= 7:
        return HRESULT.MQ_ERROR_ILLEGAL_PROPERTY_VALUE  # MS-MQDMPR:3.1.1.12:02
    if len(message.label) > LABEL_MAX_CHARS:
        return HRESULT.MQ_ERROR_ILLEGAL_PROPERTY_VALUE  # MS-MQDMPR:3.1.1.12:06
    if message.acknowledgements_requested & ~0xF:
        return HRESULT.MQ_ERROR_ILLEGAL_PROPERTY_VALUE
    if message.message_class & ~CUSTOM_CLASS_MASK and message.message_class not in C._value2member_map_:
        return HRESULT.MQ_ERROR_ILLEGAL_PROPERTY_VALUE  # MS-MQMQ:2.2.19.3:03
    for name in (message.administration_queue_format_name, message.response_queue_format_name):
        if name:
            try:
                parse_format_name(name)
            except FormatNameError:
                return HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME
    if (message.acknowledgements_requested and not message.administration_queue_format_name
            and readings["D-59"] == "refuse"):
        # D-59 refuse: MS-MQMQ:2.2.19.2:10; accept: MS-MQQB:3.1.7.15:01 sends nothing (send_message keeps no bits)
        return HRESULT.MQ_ERROR_ILLEGAL_PROPERTY_VALUE
    return HRESULT.MQ_OK


class ArrivalEvents:
    def send_message(self, format_name: str, message: Message, transaction=None) -> tuple[int, int | None]:
        """Deliver `message` to a local queue; returns (HRESULT, Enqueue Message status)."""
        status = property_error(message, self.readings)
        if status != HRESULT.MQ_OK:
            return status, None
        if not message.administration_queue_format_name:
            # D-59 accept: MS-MQMQ:2.2.19.2:10 the packet carries no acknowledgment bits without an AdminQueue
            message.acknowledgements_requested = 0
        status, descriptor = self.open_queue(format_name, QueueAccessType.SendAccess, QueueShareMode.DenyNone)
        if status == HRESULT.MQ_ERROR_QUEUE_NOT_FOUND and self.readings["D-68"] == "refuse+nack":
            # D-68 refuse+nack: MS-MQQB:3.1.5.8.2:03 an unknown destination queue is answered with
            # NACK_BAD_DST_Q (refuse-only: no packet arrived, so nothing requires it)
            message.identifier = self.new_message_identifier()
            message.sent_time = message.sent_time or self.now_seconds()
            message.destination_queue_format_name = format_name
            self._arrival_nack(message, C.MQMSG_CLASS_NACK_BAD_DST_Q)
        if status != HRESULT.MQ_OK:
            return status, None
        try:
            return self._arrive(descriptor, message, transaction)
        finally:
            self.close_queue(descriptor)

    def _arrive(self, descriptor, message: Message, transaction) -> tuple[int, int | None]:
        message.identifier = self.new_message_identifier()
        if not message.sent_time:
            message.sent_time = self.now_seconds()
        message.destination_queue_format_name = descriptor.format_name
        if transaction is not None:
            self._mark_transactional(message, transaction)
        targets = descriptor.open_queue_descriptor_collection if descriptor.multiple else [descriptor]
        for target in targets:
            queue = target.queue_reference
            if queue is not None and queue.transactional != message.is_transactional:
                # MS-MQQB 3.1.5.8: a message and its queue must agree on transactions (D-35)
                reason = (C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q if message.is_transactional
                          else C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG)
                self._arrival_nack(message, reason)
                if self.readings["D-35"] == "accept-then-nack":
                    return HRESULT.MQ_OK, None  # D-35 accept-then-nack: the sender learns it from the NACK
                return HRESULT.MQ_ERROR_TRANSACTION_USAGE, None
        result = self.enqueue_message_to_an_open_queue(descriptor, message, transaction)
        requested = message.acknowledgements_requested
        if (result == 0 and message.positive_journaling_requested and not message.is_transactional
                and self.readings["D-26"] == "on-delivery"):
            # D-26 on-delivery: a non-transactional message is journaled once it is in its queue
            # (MS-MQDMPR 3.1.1.12, MS-MQQB 3.1.5.5.4)
            self.journal_copy(self.system_journal_queue, message, None)
        if result == 0 and requested & Acks.ACK_POS_ARRIVAL:
            self.send_administration_acknowledgment(C.MQMSG_CLASS_ACK_REACH_QUEUE, message)
        elif result == 1:
            self._arrival_nack(message, C.MQMSG_CLASS_NACK_Q_EXCEED_QUOTA)
        elif result == 3:
            self._arrival_nack(message, C.MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT)
        elif result == 2:
            # D-131: the queue manager keeps nothing and tells the sender so (no NACK, MS-MQQB:3.1.5.8.8:01)
            return HRESULT.MQ_ERROR_INSUFFICIENT_RESOURCES, result
        return HRESULT.MQ_OK, result

    def _arrival_nack(self, message: Message, reason: int) -> None:
        if message.acknowledgements_requested & Acks.ACK_NEG_ARRIVAL:
            self.send_administration_acknowledgment(reason, message)
        if message.negative_journaling_requested:
            self.dead_letter(message, reason)

    def _mark_transactional(self, message: Message, transaction) -> None:
        # MS-MQMQ:2.2.19.1:02 priority 0; MS-MQMQ:2.2.19.2:07 TH needs a recoverable message (D-65)
        message.priority = 0
        message.delivery_guarantee = DeliveryGuarantee.Recoverable
        # MS-MQMQ:2.2.20.5:01 one TxSequenceID per transaction; its messages are numbered 1, 2, ...
        if transaction.sequence_identifier is None:
            transaction.sequence_identifier = (transaction.header_id.to_bytes(4, "little")
                                               + (self.now_seconds() & 0xFFFFFFFF).to_bytes(4, "little"))
        transaction.sends += 1
        message.transactional_message_sequence_identifier = transaction.sequence_identifier
        message.set("transaction_sequence_number", transaction.sends)
        message.set("transaction_previous_sequence_number", transaction.sends - 1)
        message.set("transaction_header_id", transaction.header_id)
