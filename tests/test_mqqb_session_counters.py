"""The reference's session counters past 16 bits (MS-MQMQ 2.2.20.4: SessionHeader sequence numbers are 16-bit and
wrap): the recoverable packets since the last SessionAck are counted across the wrap, so the 65,537th recoverable
packet of a session is flagged like the first (it raised ValueError: a negative shift)."""

from __future__ import annotations

from mqspec.reference.mqqb_arrival import MqqbReceiver


def test_recoverable_flags_are_set_across_the_16_bit_wrap(qm):
    session = MqqbReceiver(qm).accept("127.0.0.1")
    session.recoverable_message_received_count = session.last_acked_recoverable_msg_seq_number = 0xFFFE
    for expected in (0b1, 0b11, 0b111):   # the counter goes 0xFFFF, 0x0000, 0x0001
        session._recoverable_received()
        assert session.recoverable_msg_ack_flags == expected
    assert session.recoverable_message_received_count == 1


def test_the_32_flags_fill_across_the_wrap(qm):
    session = MqqbReceiver(qm).accept("127.0.0.1")
    session.recoverable_message_received_count = session.last_acked_recoverable_msg_seq_number = 0xFFF0
    for _ in range(32):
        session._recoverable_received()
    assert session.recoverable_msg_ack_flags == 0xFFFFFFFF
    session._recoverable_received()   # the 33rd: a SessionAck at once names the 32, the flags start afresh (D-78)
    assert (session.recoverable_msg_ack_flags, session.last_acked_recoverable_msg_seq_number) == (1, 0x0010)
