"""Messages another queue manager sends over MS-MQQB sessions, and what this one answers.

Theory of operation
-------------------
One MqqbReceiver per queue manager holds what MS-MQQB keeps for the whole queue manager
(3.1.1.3: MessageIDHistoryTable) and the sessions peers opened (mqqb_session.py).  A
UserMessage a session receives goes through the steps of MS-MQQB 3.1.5.8 in order:

    3.1.5.8.1   a non-transactional packet seen before is dropped
    3.1.5.8.2   counted (the session's SessionAck counters); refused when its destination is
                no queue here (NACK_BAD_DST_Q) or does not match it in being transactional
                (NACK_NOT_TRANSACTIONAL_Q / _MSG); a transactional refusal also answers a
                negative FinalAck
    3.1.5.8.3   refused when signed or encrypted: the reference holds no certificates or keys,
                so no signature can match and no body can be decrypted
    3.1.5.8.4   a SessionHeader it carries is checked as a SessionAck would be
    3.1.5.8.6   a transactional packet out of its sequence is dropped; an OrderAck is scheduled
    3.1.5.8.8   deserialized into a Message (3.1.7.10) and enqueued (MS-MQDMPR 3.1.7.1.9):
                status 1 refuses it (NACK_Q_EXCEED_QUOTA, the dead-letter queue for JN, a
                negative FinalAck for a transactional one), status 2 closes the session
    3.1.5.8.10  ACK_REACH_QUEUE when PA asked for it

Acknowledgments raised here come from the packet (MS-MQQB 3.1.7.15 with
iReceivedUserMessagePacket): their queues, correlation, delivery and body are rebuilt from
its fields.  OrderAck and FinalAck packets (3.1.7.17) go back on the session of the queue
manager they answer (D-76; under its new-session reading, on a session this queue manager
opens to that one, which the owner finds in `initiated`); a FinalAck follows a transactional message that asked for one
when it leaves its queue (3.1.7.2.2, D-75), through `message_position_deleted`, which the
queue manager calls for every message it deletes once a receiver exists.

A packet addressed by a direct name (QueueManagerAddress NULL) is treated as addressed to
this queue manager wherever 3.1.5.8.2 - 3.1.5.8.10 test for its identifier (D-77); one for
another queue manager is dropped, since the reference forwards nothing (D-19).
"""

from __future__ import annotations

import struct

from mqspec.protocol.constants import INFINITE, AcknowledgementsRequested as Acks, MessageClass as C
from mqspec.protocol.hresult import HRESULT

from . import mqqb_packets as wire
from . import security_header
from .acknowledgment import ACKNOWLEDGMENT_CLASSES, INSECURE_NACKS, NO_BODY_CLASSES
from .enumerations import DeliveryGuarantee, PrivacyLevel, QueueAccessType, QueueShareMode
from .format_name import FormatNameError, parse_format_name
from .message import Message
from .mqqb_session import MqqbSession

_FINAL_ACK_BODY = struct.Struct("<8sII16sI")  # MS-MQQB 2.2.5.1, 36 bytes
_ORDER_ACK_BODY = struct.Struct("<8sII20s")   # MS-MQQB 2.2.4.1, 36 bytes
_FA = 0x2                                     # MS-MQMQ 2.2.20.5 TransactionHeader.Flags.FA


class MqqbReceiver:
    def __init__(self, qm) -> None:
        self.qm = qm
        self.sessions: list[MqqbSession] = []            # open sessions peers opened, oldest first
        self.initiated: list[MqqbSession] = []           # sessions this queue manager opened (D-76 new-session)
        self.message_id_history: dict[tuple[bytes, int], int] = {}  # MS-MQQB 3.1.1.3 MessageIDHistoryTable
        qm.mqqb = self  # MS-MQQB 3.1.7.2 subscribes to Message Position Deleted

    def accept(self, remote_address: str) -> MqqbSession:
        """MS-MQQB 3.1.5.10 a transport connection arrived: a new session waits for EstablishConnection."""
        session = MqqbSession(self, remote_address)
        self.sessions.append(session)
        return session

    def session_closed(self, session: MqqbSession) -> None:
        for sessions in (self.sessions, self.initiated):
            if session in sessions:
                sessions.remove(session)

    def _is_here(self, address: bytes) -> bool:
        # D-77 a direct name carries the NULL GUID; 3.1.5.8.5 delivers it here like this queue manager's own
        return address in (self.qm.identifier, bytes(16))

    # -- MS-MQQB 3.1.5.8 Receiving a UserMessage Packet --------------------------------------------

    def user_message(self, session: MqqbSession, packet: wire.UserMessagePacket) -> None:
        qm = self.qm
        key = (packet.source_queue_manager, packet.message_id)
        if not packet.transactional and key in self.message_id_history:
            self.message_id_history[key] = qm.now_seconds()  # MS-MQQB:3.1.5.8.1:01 a duplicate: dropped
            return
        if not self._is_here(packet.queue_manager_address):
            return  # MS-MQQB 3.1.5.8.2 not for here and cannot be kept for forwarding (D-19)
        session.count_received(packet.code("DM") == 1)       # MS-MQQB 3.1.5.8.2 / 3.1.5.8.7, D-78
        if packet.code("DQ") == 7:
            session.direct_format_session = True
        self.message_id_history[key] = qm.now_seconds()
        queue = self._destination(packet)
        if queue is None:
            self._refuse(session, packet, C.MQMSG_CLASS_NACK_BAD_DST_Q, final_ack=packet.transactional)
            return
        if packet.transactional and not queue.transactional:
            self._refuse(session, packet, C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q, final_ack=True)
            return
        if not packet.transactional and queue.transactional:
            self._refuse(session, packet, C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG, final_ack=False)
            return
        if packet.security_flags is not None:
            # MS-MQQB 3.1.5.8.3: no certificate to check a signature with, no key to decrypt a body with
            reason = C.MQMSG_CLASS_NACK_BAD_ENCRYPTION if packet.encrypted_body else C.MQMSG_CLASS_NACK_BAD_SIGNATURE
            if packet.encrypted_body or packet.signed:
                self._refuse(session, packet, reason, final_ack=packet.transactional)
                return
        if packet.session_header is not None:
            session.session_header(packet.session_header)  # MS-MQQB 3.1.5.8.4
            if session.closed:
                return
        if packet.transactional and not session.transactional_arrival(*packet.transaction[1:]):
            return  # MS-MQQB 3.1.5.8.6 out of its sequence, or seen before
        message = self._message(packet)
        status = qm.enqueue_message(queue, message)  # MS-MQQB 3.1.5.8.8
        if status == 1:
            self._refuse(session, packet, C.MQMSG_CLASS_NACK_Q_EXCEED_QUOTA, final_ack=packet.transactional,
                         dead_letter=message)
            return
        if status == 2:
            session.close()  # MS-MQQB 3.1.5.8.8 the queue manager's quota: the session closes
            return
        if status == 3:
            # TimeToReachQueue passed on the way (MS-MQMQ 2.2.19.1), answered as arrival.py answers it
            self._refuse(session, packet, C.MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT, final_ack=packet.transactional,
                         dead_letter=message)
            return
        if packet.acknowledgements & Acks.ACK_POS_ARRIVAL:
            self.send_administration_acknowledgment(C.MQMSG_CLASS_ACK_REACH_QUEUE, packet)  # MS-MQQB 3.1.5.8.10

    def _destination(self, packet: wire.UserMessagePacket):
        """MS-MQQB 3.1.5.8.5 the queue of QueueCollection the DestinationQueue names (journals and system
        queues are not in it), or None."""
        try:
            queue = self.qm.resolve_format_name(parse_format_name(packet.destination))
        except FormatNameError:
            return None
        if queue is None or queue.is_journal or queue.queue_type.name == "System":
            return None
        return queue

    def _refuse(self, session, packet, reason: int, final_ack: bool, dead_letter: Message | None = None) -> None:
        """The rejection logic of MS-MQQB 3.1.5.8.2 / 3.1.5.8.8: NA acknowledgment, dead letter, negative FinalAck."""
        if packet.acknowledgements & Acks.ACK_NEG_ARRIVAL:
            self.send_administration_acknowledgment(reason, packet)
        if dead_letter is not None and packet.flags & wire.JN and not packet.transactional:
            # MS-MQQB 3.1.5.8.8 JN without a TransactionHeader: into the local dead-letter queue
            self.qm.journal_copy(self.qm.system_deadletter_queue, dead_letter, reason)
        if final_ack:
            self.send_transactional_acknowledgment(session, reason, packet=packet)

    def _message(self, packet: wire.UserMessagePacket) -> Message:
        """MS-MQQB 3.1.7.10 Get Message Data Element From Buffer: the Message a packet carries."""
        flags = packet.flags
        message = Message(
            packet.body, label=packet.label, priority=0 if packet.transactional else packet.base_flags & 7,
            delivery_guarantee=DeliveryGuarantee(packet.code("DM")), message_class=packet.message_class,
            acknowledgements_requested=self._acknowledgements(packet),
            administration_queue_format_name=packet.admin, response_queue_format_name=packet.response,
            destination_queue_format_name=packet.destination, time_to_reach_queue=packet.time_to_reach_queue,
            time_to_be_received=packet.time_to_be_received, sent_time=packet.sent_time,
            # MS-MQMQ 2.2.18.1.3 the Identifier is the source queue manager's GUID and its MessageID
            identifier=packet.source_queue_manager + struct.pack("<I", packet.message_id),
            extension=packet.extension, correlation_identifier=packet.correlation_id,
            application_tag=packet.application_tag, body_type=packet.body_type,
            privacy_level=PrivacyLevel(packet.privacy_level),
            positive_journaling_requested=bool(flags & wire.JP), negative_journaling_requested=bool(flags & wire.JN),
            transactional_message_sequence_identifier=packet.transaction[1] if packet.transactional else None)
        # MS-MQDMPR 3.1.7.1.31 HashAlgorithm and EncryptionAlgorithm from the MessagePropertiesHeader
        message.set("hash_algorithm", packet.hash_algorithm)
        message.set("encryption_algorithm", packet.encryption_algorithm)
        if packet.security_flags is not None:
            # MS-MQDMPR 3.1.7.1.31 the SecurityHeader's fields; D-96 whether a SecurityID nobody checked stays
            security_header.keep(message, packet.security_flags, packet.security_data,
                                 keep_sender=self.qm.readings["D-96"] == "kept")
        if packet.srmp_envelope is not None:
            # D-90 read: an SRMP packet keeps its envelope and compound message; its body lies inside the latter
            offset, size = packet.compound_message_body
            message.body = packet.compound_message[offset:offset + size]
            message.set("soap_envelope", packet.srmp_envelope)
            message.set("soap_compound_message", packet.compound_message)
            message.set("soap_body_offset", offset)
        if packet.transactional:
            xflags, _, number, previous = packet.transaction
            message.set("transaction_sequence_number", number)
            message.set("transaction_previous_sequence_number", previous)
            message.set("final_ack_required", bool(xflags & _FA))  # MS-MQMQ 2.2.20.5 FA
            message.set("first_in_transaction", bool(xflags & 0x4))
            message.set("last_in_transaction", bool(xflags & 0x8))
            message.set("transaction_header_id", xflags >> 4 & 0xFFFFF)
        return message

    def _acknowledgements(self, packet: wire.UserMessagePacket) -> int:
        """MS-MQDMPR 3.1.7.1.31 AcknowledgementsRequested from MessagePropertiesHeader.Flags; D-95 whether they stay
        when the packet names no administration queue (MS-MQMQ 2.2.19.2 asks a sender for one)."""
        if packet.code("AQ") == 0 and self.qm.readings["D-95"] == "cleared":
            return Acks.NONE
        return packet.acknowledgements & 0x0F

    # -- MS-MQQB 3.1.7.15 Send Administration Acknowledgment, from a packet ------------------------

    def send_administration_acknowledgment(self, message_class: int, packet: wire.UserMessagePacket) -> None:
        qm = self.qm
        if packet.code("AQ") == 0:
            return  # MS-MQQB:3.1.7.15:10 the packet names no administration queue
        if message_class in INSECURE_NACKS and not qm.send_insecure_nacks:
            return  # MS-MQQB:3.1.7.15:02
        if message_class not in ACKNOWLEDGMENT_CLASSES:
            return  # D-29
        acknowledgment = Message(
            message_class=message_class,
            # MS-MQQB:3.1.7.15:12 an OBJECTID of the packet's SourceQueueManager and MessageID
            correlation_identifier=packet.source_queue_manager + struct.pack("<I", packet.message_id),
            # MS-MQQB:3.1.7.15:13 the response queue rebuilt from DQ and DestinationQueue
            response_queue_format_name=packet.destination,
            # MS-MQQB:3.1.7.15:11 the destination rebuilt from AQ and AdminQueue
            destination_queue_format_name=packet.admin,
            # MS-MQQB:3.1.7.15:14 the delivery DM asked for
            delivery_guarantee=DeliveryGuarantee.Recoverable if packet.code("DM") else DeliveryGuarantee.Express,
            acknowledgements_requested=Acks.NONE, time_to_reach_queue=INFINITE,  # MS-MQQB:3.1.7.15:03
            time_to_be_received=INFINITE, privacy_level=PrivacyLevel.None_,
            identifier=qm.new_message_identifier(), sent_time=qm.now_seconds())
        if message_class not in NO_BODY_CLASSES and not packet.encrypted_body:
            acknowledgment.body = packet.body  # MS-MQQB:3.1.7.15:14 unless SecurityHeader.Flags.EB
        status, descriptor = qm.open_queue(packet.admin, QueueAccessType.SendAccess, QueueShareMode.DenyNone)
        if status != HRESULT.MQ_OK:
            return  # MS-MQQB:3.1.7.15:04 discarded
        qm.enqueue_message_to_an_open_queue(descriptor, acknowledgment)
        qm.close_queue(descriptor)

    # -- MS-MQQB 3.1.7.17 Send Transactional Acknowledgment ------------------------------------------

    def send_transactional_acknowledgment(self, session: MqqbSession, message_class: int,
                                          packet: wire.UserMessagePacket | None = None,
                                          message: Message | None = None) -> None:
        """A FinalAck for a packet or a Message (2.2.5.1), on the session of the queue manager it answers."""
        if message is not None:
            body = _FINAL_ACK_BODY.pack(bytes(message.transactional_message_sequence_identifier or bytes(8))[:8],
                                        message.get("transaction_sequence_number"),
                                        message.get("transaction_previous_sequence_number"),
                                        message.source_machine_identifier, struct.unpack("<I", message.identifier[16:20])[0])
        else:
            _, sequence_id, number, previous = packet.transaction
            body = _FINAL_ACK_BODY.pack(sequence_id, number, previous, packet.source_queue_manager, packet.message_id)
        self._send_to_order_queue(session, message_class, body)

    def send_order_ack(self, session: MqqbSession) -> None:
        """MS-MQQB 3.1.6.9 / 3.1.7.17 an OrderAck for the last transactional message of the session (D-77,
        MS-MQQB:2.2.4.1:01)."""
        number = session.incoming_tx_sequence_number
        body = _ORDER_ACK_BODY.pack(session.incoming_tx_sequence_id, number, max(number - 1, 0), bytes(20))
        self._send_to_order_queue(session, C.MQMSG_CLASS_ORDER_ACK, body)

    def _send_to_order_queue(self, session: MqqbSession, message_class: int, body: bytes) -> None:
        qm = self.qm
        if qm.readings["D-76"] == "new-session":
            # D-76 new-session: the order queue's outgoing queue opens a session of its own (MS-MQQB 3.1.7.12)
            session = self._initiated_session(session)
        ordinal = struct.unpack("<I", qm.new_message_identifier()[16:20])[0]
        # MS-MQQB:3.1.7.17:01 the order queue of RemoteQMGuid, or by address for a direct session; D-76 on this session
        packet = wire.transactional_ack(qm.identifier, session.remote_qm_guid,
                                        session.remote_address if session.direct_format_session else None,
                                        ordinal, qm.now_seconds(), message_class, body)
        session.send(packet, user_message=True, recoverable=message_class != C.MQMSG_CLASS_ORDER_ACK)

    def _initiated_session(self, accepted: MqqbSession) -> MqqbSession:
        """An open session this queue manager initiated to the peer of `accepted`, made when there is none; its
        owner finds it in `initiated` and opens the transport for it."""
        for session in self.initiated:
            if session.remote_qm_guid == accepted.remote_qm_guid:
                return session
        session = MqqbSession(self, accepted.remote_address, initiate_to=accepted.remote_qm_guid)
        session.direct_format_session = accepted.direct_format_session
        self.initiated.append(session)
        return session

    # -- MS-MQQB 3.1.7.2.2 Final Acknowledgment ------------------------------------------------------

    def message_position_deleted(self, queue, message: Message, reason: int) -> None:
        """A message left a queue: a transactional one from a peer that asked is final-acknowledged (D-75)."""
        if queue.is_journal or queue.queue_type.name == "System" or not message.is_transactional:
            return  # a record copy is not in its destination queue; D-75 FinalAck answers transactional messages
        source = message.source_machine_identifier
        if source == self.qm.identifier:
            return  # sent here, not by a peer: nobody to acknowledge to
        if not (message.positive_journaling_requested or message.negative_journaling_requested
                or message.get("final_ack_required")):
            return  # MS-MQQB:3.1.7.2.2:01 / MS-MQDMPR:3.1.1.12:13 nothing asked for one
        session = next((s for s in reversed(self.sessions) if s.remote_qm_guid == source and s.state == "OPEN"), None)
        if session is not None:
            self.send_transactional_acknowledgment(session, reason, message=message)  # D-76 no session, no FinalAck
