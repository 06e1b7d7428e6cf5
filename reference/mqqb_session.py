"""One MS-MQQB session that another queue manager opened to this one (MS-MQQB 3.1.5), sans I/O.

Theory of operation
-------------------
The queue manager is the acceptor.  Its owner (an adapter) asks `MqqbReceiver.accept` for a
session when a transport connection arrives (3.1.5.10), feeds it every byte the connection
brings (`receive_data`), writes whatever `data_to_send()` returns, and drops the connection
once `closed` is true: MS-MQQB closes a session by closing the transport, with no packet
(3.1.5.9).  Nothing here blocks or reads a clock of its own; the session's timers are
timers of the queue manager, so they fire when its owner lets time pass.

Packets are cut from the byte stream by their BaseHeader (mqqb_packets.frame_length), named
by 3.1.5.1.1 and handled through one table keyed by the session state and the packet:

    state            packet                 handler                  next state   rule
    WAITING_EC_MSG   EstablishConnection    _establish_connection    WAITING_CP_MSG  3.1.5.3.1
    WAITING_CP_MSG   ConnectionParameters   _connection_parameters   OPEN            3.1.5.4.1
    OPEN             UserMessage            receiver.user_message    OPEN            3.1.5.8
    OPEN             SessionAck             _session_ack             OPEN            3.1.5.5
    OPEN             OrderAck, FinalAck     (nothing to settle)      OPEN            3.1.5.6, 3.1.5.7
    WAITING_ECR_MSG  EstablishConnection    _establish_response      WAITING_CPR_MSG 3.1.5.3.2
    WAITING_CPR_MSG  ConnectionParameters   _parameters_response     OPEN            3.1.5.4.2

The last two rows are the initiator's: under D-76's new-session reading the queue manager
opens a session of its own to deliver OrderAcks and FinalAcks, and holds them until it is OPEN.
Any other pair closes the session (3.1.5.3, 3.1.5.4, 3.1.5.5 - 3.1.5.8: "if SessionState is
not ..., close the session"), and so does a packet that breaks the structures of section 2
(3.1.5.1.2, 3.1.5.1.3), among them a DQ or AQ value outside its set (MS-MQMQ 2.2.19.2).  A
UserMessage before any EstablishConnection closes it too (3.1.5.8), answered first with a
refused EstablishConnection under D-88's `answer` reading, as Windows answers one.

Session acknowledgments follow the counters of 3.1.1.3.1: a UserMessage counts
(3.1.5.8.2), a recoverable one also sets its bit in RecoverableMsgAckFlags (3.1.5.8.7,
D-78), and the Session Ack Send Timer (3.1.2.5, 3.1.6.4) sends a SessionAck that reports
them.  The reference sends no UserMessages of its own to a peer (D-19), only OrderAck and
FinalAck packets (mqqb_arrival.py), and keeps no copy of them to resend: a SessionAck from
the peer is only checked against what was received (3.1.5.5.5).
"""

from __future__ import annotations

from . import mqqb_packets as wire
from .mqqb_packets import PacketFormatError

WAITING_EC_MSG, WAITING_CP_MSG, OPEN, CLOSED = "WAITING_EC_MSG", "WAITING_CP_MSG", "OPEN", "CLOSED"
WAITING_ECR_MSG, WAITING_CPR_MSG = "WAITING_ECR_MSG", "WAITING_CPR_MSG"  # the initiator's (D-76 new-session)
WINDOW_SIZE = 64                 # MS-MQQB:3.1.3.2 WindowSize SHOULD be 64
RECOVERABLE_FLAG_BITS = 32       # MS-MQQB 3.1.1.3.1 RecoverableMsgAckFlags holds 32 messages
DEFAULT_ACK_WAIT_TIMEOUT = 120_000  # MS-MQQB 3.1.3.2 implementation-dependent until the peer's AckTimeout
ORDER_ACK_TIMEOUT_MS = 500       # MS-MQQB:3.1.3.2:02 OrderAckTimeout
MAXIMUM_ORDER_ACK_DELAY_S = 10   # MS-MQQB:3.1.3.2:03 MaximumOrderAckDelay SHOULD be 10 seconds


# (SessionState, packet kind) -> (handler method, next state); every other pair closes (see module notes)
TRANSITIONS = {
    (WAITING_EC_MSG, "EstablishConnection"): ("_establish_connection", WAITING_CP_MSG),  # MS-MQQB 3.1.5.3.1
    (WAITING_CP_MSG, "ConnectionParameters"): ("_connection_parameters", OPEN),        # MS-MQQB 3.1.5.4.1
    (OPEN, "UserMessage"): ("_user_message", OPEN),                                    # MS-MQQB 3.1.5.8
    (OPEN, "SessionAck"): ("_session_ack", OPEN),                                      # MS-MQQB 3.1.5.5
    (OPEN, "OrderAck"): ("_nothing_to_settle", OPEN),                                  # MS-MQQB 3.1.5.6
    (OPEN, "FinalAck"): ("_nothing_to_settle", OPEN),                                  # MS-MQQB 3.1.5.7
    (WAITING_ECR_MSG, "EstablishConnection"): ("_establish_response", WAITING_CPR_MSG),  # MS-MQQB 3.1.5.3.2
    (WAITING_CPR_MSG, "ConnectionParameters"): ("_parameters_response", OPEN),          # MS-MQQB 3.1.5.4.2
}


class MqqbSession:
    def __init__(self, receiver, remote_address: str, initiate_to: bytes | None = None) -> None:
        self.receiver = receiver
        self.qm = receiver.qm
        self.remote_address = remote_address            # RemoteQMAddress
        self.remote_qm_guid = bytes(16)                 # RemoteQMGuid, from the EstablishConnection request
        # MS-MQQB 3.1.3.2 Session Initialization
        self.message_sent_count = self.recoverable_message_sent_count = 0
        self.message_received_count = self.recoverable_message_received_count = 0
        self.recoverable_msg_ack_flags = 0
        self.last_acked_recoverable_msg_seq_number = 0
        self.unacked_received_msg_count = 0
        self.window_size = WINDOW_SIZE
        self.received_window_size = 0
        self.ack_wait_timeout = DEFAULT_ACK_WAIT_TIMEOUT
        self.recoverable_ack_send_timeout = 0xFFFFFFFF
        self.direct_format_session = False
        self.session_active = self.received_ack = False
        self.incoming_tx_sequence_id = bytes(8)         # MS-MQQB 3.1.1.3.1 Ordinal and Timestamp 0
        self.incoming_tx_sequence_number = 0
        self.tx_message_reject_count = 0
        self.last_order_ack_send_time = self.qm.now_seconds()
        self.state = WAITING_EC_MSG                     # MS-MQQB 3.1.5.10
        self._ack_send_timer = self._order_ack_timer = None
        self._incoming = bytearray()
        self._outgoing = bytearray()
        self._held: list[tuple] = []                    # what an initiator sends once the session is OPEN
        if initiate_to is not None:
            self._initiate(initiate_to)

    # -- the owner's side ----------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self.state == CLOSED

    @property
    def established(self) -> bool:
        """MS-MQQB 3.1.5.4.1 SessionState OPEN: EstablishConnection and ConnectionParameters are done."""
        return self.state == OPEN

    @property
    def unread_bytes(self) -> int:
        """Bytes of a packet that has begun to arrive and is not yet whole (what the transport bounds)."""
        return len(self._incoming)

    def receive_data(self, data: bytes) -> None:
        """Bytes the transport brought; every whole packet among them is handled at once."""
        if self.closed:
            return
        self._incoming += data
        while not self.closed:
            try:
                length = wire.frame_length(self._incoming)
            except PacketFormatError:
                self.close()  # MS-MQQB 3.1.5.1.2, 3.1.5.1.3
                return
            if length is None or len(self._incoming) < length:
                return
            packet = bytes(self._incoming[:length])
            del self._incoming[:length]
            self._dispatch(packet)

    def data_to_send(self) -> bytes:
        """What the session has written since the last call, for the transport."""
        out, self._outgoing = bytes(self._outgoing), bytearray()
        return out

    def close(self) -> None:
        """MS-MQQB 3.1.5.9 Closing a Session (also 3.1.7.3, a transport that went away): stop every timer."""
        if self.closed:
            return
        self.state = CLOSED
        self.qm.timers.cancel(self._ack_send_timer)
        self.qm.timers.cancel(self._order_ack_timer)
        self.receiver.session_closed(self)

    def send(self, packet: bytes, user_message: bool = False, recoverable: bool = False) -> None:
        if self.closed:
            return
        if user_message and self.state != OPEN:
            self._held.append((packet, recoverable))  # an initiator's session is not initialized yet
            return
        self._outgoing += packet
        if user_message:  # MS-MQQB 3.1.1.3.1 MessageSentCount, RecoverableMessageSentCount
            self.message_sent_count = (self.message_sent_count + 1) & 0xFFFF
            if recoverable:
                self.recoverable_message_sent_count = (self.recoverable_message_sent_count + 1) & 0xFFFF

    # -- dispatch ------------------------------------------------------------------------------

    def _dispatch(self, packet: bytes) -> None:
        self.received_ack = True  # MS-MQQB 3.1.5.1 on receipt of any packet
        try:
            kind = wire.packet_kind(packet)
            handler, next_state = TRANSITIONS.get((self.state, kind), (None, CLOSED))
            if handler is None:
                if (self.state, kind) == (WAITING_EC_MSG, "UserMessage"):
                    self._sessionless_user_message(packet)
                self.close()  # MS-MQQB 3.1.5.3 - 3.1.5.8: not expected in this state
                return
            getattr(self, handler)(packet)
        except PacketFormatError:
            self.close()  # MS-MQQB 3.1.5.1.3 (and MS-MQMQ:2.2.19.2:12 for DQ / AQ)
            return
        if not self.closed:
            self.state = next_state

    def _priority(self) -> int:
        """D-86: the BaseHeader priority of the internal packets this queue manager writes (0, or Windows' 3)."""
        return 3 if self.qm.readings["D-86"] == "nonzero" else 0

    def _server_class(self) -> bool:
        """D-87: whether its EstablishConnection packets set OperatingSystem.OS (Windows' servers do)."""
        return self.qm.readings["D-87"] == "set"

    def _sessionless_user_message(self, packet: bytes) -> None:
        """D-88 answer: a UserMessage before any EstablishConnection gets a refused EstablishConnection
        (MS-MQQB 2.2.1 CS) naming its sender, then the session closes as MS-MQQB:3.1.5.8:01 says."""
        if self.qm.readings["D-88"] == "answer":
            source = wire.read_user_message(packet).source_queue_manager
            self.send(wire.establish_connection_response(source, self.qm.identifier, 0, 1, True, self._priority(),
                                                         self._server_class()))

    def _establish_connection(self, packet: bytes) -> None:
        """MS-MQQB 3.1.5.3.1 a connection request: answer it, refusing a ServerGuid that is not ours."""
        (client, server, timestamp, operating_system, _), _ = wire.read_internal(packet, "EstablishConnection")
        self.remote_qm_guid = bytes(client)
        refused = bytes(server) not in (self.qm.identifier, bytes(16))  # MS-MQQB 2.2.1 CS
        # MS-MQQB:3.1.5.3.1:04 the request's TimeStamp goes back unchanged
        self.send(wire.establish_connection_response(client, self.qm.identifier, timestamp,
                                                     operating_system >> 8 & 1, refused, self._priority(),
                                                     self._server_class()))
        if refused:
            self.close()  # MS-MQQB 2.2.1: CS says the connection is refused

    def _connection_parameters(self, packet: bytes) -> None:
        """MS-MQQB 3.1.5.4.1: take the peer's window and time-outs, answer with ours; the session is OPEN."""
        (recoverable_ack_timeout, ack_timeout, _, window), _ = wire.read_internal(packet, "ConnectionParameters")
        self.received_window_size = window
        self.ack_wait_timeout = ack_timeout
        self.recoverable_ack_send_timeout = recoverable_ack_timeout
        self.send(wire.connection_parameters_response(recoverable_ack_timeout, ack_timeout, self.window_size,
                                                      self._priority()))

    def _user_message(self, packet: bytes) -> None:
        message = wire.read_user_message(packet)
        if message.srmp_envelope is not None and self.qm.readings["D-90"] == "refuse":
            self.close()  # D-90 refuse: MS-MQMQ:2.2.19.2:09 no sender sets AH on an MS-MQQB session
            return
        self.receiver.user_message(self, message)

    def _session_ack(self, packet: bytes) -> None:
        header, _ = wire.read_internal(packet, "SessionAck")
        self.session_header(header)

    def _nothing_to_settle(self, packet: bytes) -> None:
        """MS-MQQB 3.1.5.6 / 3.1.5.7 settle the messages this queue manager sent; it sends none to a peer (D-19)."""
        message = wire.read_user_message(packet)
        # MS-MQQB:3.1.5.1.1:03 a UserMessage Packet all the same (3.1.1.3.1): counted, a FinalAck (DM) as recoverable
        self.count_received(message.code("DM") == 1)

    def session_header(self, header: tuple) -> None:
        """MS-MQQB 3.1.5.5.5 a SessionHeader (alone or in a UserMessage) must count what we received."""
        _, _, _, user_msg_sequence_number, recoverable_msg_seq_number, _, _ = header
        if (user_msg_sequence_number != self.message_received_count
                or recoverable_msg_seq_number != self.recoverable_message_received_count):
            self.close()

    # -- the initiator's side (D-76 new-session) ---------------------------------------------------

    def _initiate(self, remote_qm_guid: bytes) -> None:
        """MS-MQQB 3.1.5.2.3: an EstablishConnection request to the queue manager the session is for."""
        self.remote_qm_guid = remote_qm_guid
        self.state = WAITING_ECR_MSG
        self._outgoing += wire.establish_connection_request(self.qm.identifier, remote_qm_guid,
                                                            self.qm.clock.now_ms() & 0xFFFFFFFF, self._priority(),
                                                            self._server_class())

    def _establish_response(self, packet: bytes) -> None:
        """MS-MQQB:3.1.5.3.2:01: a valid response (our GUID, theirs, CS clear) is followed by ConnectionParameters."""
        (client, server, _, _, _), internal_flags = wire.read_internal(packet, "EstablishConnection")
        if bytes(client) != self.qm.identifier or bytes(server) != self.remote_qm_guid or internal_flags & wire.CS:
            self.close()
            return
        # MS-MQQB 3.1.5.3.2 RecoverableAckTimeout is eight round trips, at least 0x1F4: a round trip here takes no time
        self._outgoing += wire.connection_parameters_request(0x1F4, self.ack_wait_timeout, self.window_size,
                                                             self._priority())

    def _parameters_response(self, packet: bytes) -> None:
        """MS-MQQB 3.1.5.4.2: the session is OPEN; what waited for it goes out."""
        (_, _, _, window), _ = wire.read_internal(packet, "ConnectionParameters")
        self.received_window_size = window
        self.state = OPEN
        held, self._held = self._held, []
        for queued, recoverable in held:
            self.send(queued, user_message=True, recoverable=recoverable)

    # -- counting what arrives (MS-MQQB 3.1.5.8.2, 3.1.5.8.7) -----------------------------------

    def count_received(self, recoverable: bool) -> None:
        """A UserMessage the session received, refused or not (D-78)."""
        self.message_received_count = (self.message_received_count + 1) & 0xFFFF
        self.unacked_received_msg_count = (self.unacked_received_msg_count + 1) & 0xFFFF
        self.session_active = True
        if self._ack_send_timer is None:
            # MS-MQQB:3.1.5.8.2:04 started with AckWaitTimeout / 2 when it is not running
            self._start_ack_send_timer(self.ack_wait_timeout // 2)
        if recoverable:
            self._recoverable_received()

    def _recoverable_received(self) -> None:
        """MS-MQQB 3.1.5.8.7 Recoverable Message Processing."""
        if self._recoverable_since_ack() >= RECOVERABLE_FLAG_BITS:
            self.unacked_received_msg_count = 0
            self._send_session_ack()  # the 32 flag bits are full: acknowledge at once (and start afresh, D-78)
        self.recoverable_message_received_count = (self.recoverable_message_received_count + 1) & 0xFFFF
        if self.recoverable_msg_ack_flags == 0:
            # MS-MQQB:3.1.5.8.7:01 the first recoverable message since the last SessionAck: its own, shorter, time-out
            self._start_ack_send_timer(self.recoverable_ack_send_timeout)
        self.recoverable_msg_ack_flags |= 1 << (self._recoverable_since_ack() - 1)

    def _recoverable_since_ack(self) -> int:
        """The recoverable packets received since the last SessionAck; the 16-bit counters wrap
        (MS-MQMQ:2.2.20.4:01)."""
        return (self.recoverable_message_received_count - self.last_acked_recoverable_msg_seq_number) & 0xFFFF

    def _start_ack_send_timer(self, duration_ms: int) -> None:
        self.qm.timers.cancel(self._ack_send_timer)
        self._ack_send_timer = self.qm.timers.schedule(self.qm.clock.now_ms() + duration_ms,
                                                       self._session_ack_send_timer_event)

    def _session_ack_send_timer_event(self) -> None:
        """MS-MQQB 3.1.6.4: a SessionAck if and only if something is unacknowledged."""
        self._ack_send_timer = None
        # D-98 timer: the packet that brought an immediate SessionAck is flagged, and the timer names it
        flagged = self.recoverable_msg_ack_flags != 0 and self.qm.readings["D-98"] == "timer"
        if self.closed or self.unacked_received_msg_count == 0 and not flagged:
            return  # MS-MQQB 3.1.2.5 the timer runs again only while something is unacknowledged
        self._send_session_ack()
        self.unacked_received_msg_count = 0

    def _send_session_ack(self) -> None:
        """A SessionAck with the counters of MS-MQQB 3.1.6.4, which then start afresh."""
        flags = self.recoverable_msg_ack_flags
        # MS-MQMQ:2.2.20.4:01 the first recoverable number the flags cover, 0 when none arrived since the last ack
        first = self.last_acked_recoverable_msg_seq_number + 1 if flags else 0
        self.send(wire.session_ack((self.message_received_count, first & 0xFFFF, flags, self.message_sent_count,
                                    self.recoverable_message_sent_count, self.window_size, 0), self._priority(),
                                   self.qm.readings["D-85"] == "windows"))  # D-85 PacketSize 36 or 20
        self.recoverable_msg_ack_flags = 0
        self.last_acked_recoverable_msg_seq_number = self.recoverable_message_received_count

    # -- transactional sequences (MS-MQQB 3.1.5.8.6, 3.1.6.9) ------------------------------------

    def transactional_arrival(self, sequence_id: bytes, number: int, previous: int) -> bool:
        """MS-MQQB:3.1.5.8.6:02 schedule an OrderAck; True when the packet is the next of its sequence."""
        now = self.qm.now_seconds()
        if self._order_ack_timer is None or now - self.last_order_ack_send_time < MAXIMUM_ORDER_ACK_DELAY_S:
            self.qm.timers.cancel(self._order_ack_timer)
            self._order_ack_timer = self.qm.timers.schedule(self.qm.clock.now_ms() + ORDER_ACK_TIMEOUT_MS,
                                                            self._order_ack_send_timer_event)
        incoming = int.from_bytes(self.incoming_tx_sequence_id, "little")
        arriving = int.from_bytes(sequence_id, "little")
        # MS-MQQB:3.1.5.8.6:03 in order only: the same sequence onward, or the first of a later one
        accepted = ((arriving == incoming and number > self.incoming_tx_sequence_number
                     and previous <= self.incoming_tx_sequence_number)
                    or (arriving > incoming and previous == 0))
        if not accepted:
            self.tx_message_reject_count += 1
            return False
        self.tx_message_reject_count = 0
        # D-78: the sequence moves on with the packets it accepts (a refused duplicate must not take it back)
        self.incoming_tx_sequence_id, self.incoming_tx_sequence_number = bytes(sequence_id), number
        return True

    def _order_ack_send_timer_event(self) -> None:
        """MS-MQQB 3.1.6.9: an OrderAck for the last transactional message received, unless the session closed."""
        self._order_ack_timer = None
        if self.closed:
            return
        self.receiver.send_order_ack(self)
        self.last_order_ack_send_time = self.qm.now_seconds()
