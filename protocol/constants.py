"""Wire-level constants: the numbers clients put in calls and packets.

Sources: [MS-MQRR] 2.2 and 3.1.4 (access, share mode, ulAction, dwAck,
SectionType), [MS-MQMQ] 2.2.18.1.6 (message classes), 2.2.19.3 (acknowledgment
flags), 2.2.7 (QUEUE_FORMAT types and suffixes).  ADM enumerations that never
travel on the wire belong to the reference (reference/enumerations.py).
"""

from enum import IntEnum, IntFlag

INFINITE = 0xFFFFFFFF  # time-outs and TimeToReachQueue/TimeToBeReceived: never expires


class Access(IntFlag):
    """dwAccess of R_OpenQueue / R_OpenQueueForMove (MS-MQRR 3.1.4.2, 3.1.4.11)."""
    RECEIVE_ACCESS = 0x00000001
    SEND_ACCESS = 0x00000002
    MQ_MOVE_ACCESS = 0x00000004
    PEEK_ACCESS = 0x00000020


class ShareMode(IntEnum):
    """dwShareMode (MS-MQRR 3.1.4.2)."""
    MQ_DENY_NONE = 0x00000000
    MQ_DENY_SHARE = 0x00000001


class Action(IntEnum):
    """ulAction of R_StartReceive / R_StartTransactionalReceive (MS-MQRR 3.1.4.7)."""
    MQ_ACTION_RECEIVE = 0x00000000
    MQ_ACTION_PEEK_CURRENT = 0x80000000
    MQ_ACTION_PEEK_NEXT = 0x80000001
    MQ_LOOKUP_PEEK_CURRENT = 0x40000010
    MQ_LOOKUP_PEEK_NEXT = 0x40000011
    MQ_LOOKUP_PEEK_PREV = 0x40000012
    MQ_LOOKUP_RECEIVE_CURRENT = 0x40000020
    MQ_LOOKUP_RECEIVE_NEXT = 0x40000021
    MQ_LOOKUP_RECEIVE_PREV = 0x40000022


# Win32 header values that MS-MQRR does not accept (kept for negative tests only).
UNLISTED_LOOKUP_ACTIONS = {
    "MQ_LOOKUP_PEEK_FIRST": 0x40000014,
    "MQ_LOOKUP_PEEK_LAST": 0x40000018,
    "MQ_LOOKUP_RECEIVE_FIRST": 0x40000024,
    "MQ_LOOKUP_RECEIVE_LAST": 0x40000028,
    "MQ_LOOKUP_RECEIVE_ALLOW_PEEK": 0x40000120,
}


class Ack(IntEnum):
    """dwAck of R_EndReceive / R_EndTransactionalReceive (MS-MQRR 3.1.4.9)."""
    RR_NACK = 0x00000001
    RR_ACK = 0x00000002


class SectionType(IntEnum):
    """SectionBuffer.SectionBufferType (MS-MQRR 2.2.7)."""
    stFullPacket = 0
    stBinaryFirstSection = 1
    stBinarySecondSection = 2
    stSrmpFirstSection = 3
    stSrmpSecondSection = 4


class MessageClass(IntEnum):
    """MESSAGE_CLASS_VALUES (MS-MQMQ 2.2.18.1.6); Message.Class of MS-MQDMPR 3.1.1.12."""
    MQMSG_CLASS_NORMAL = 0x0000
    MQMSG_CLASS_REPORT = 0x0001
    MQMSG_CLASS_ACK_REACH_QUEUE = 0x0002
    MQMSG_CLASS_ORDER_ACK = 0x00FF
    MQMSG_CLASS_ACK_RECEIVE = 0x4000
    MQMSG_CLASS_NACK_BAD_DST_Q = 0x8000
    MQMSG_CLASS_NACK_DELETED = 0x8001
    MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT = 0x8002
    MQMSG_CLASS_NACK_Q_EXCEED_QUOTA = 0x8003
    MQMSG_CLASS_NACK_ACCESS_DENIED = 0x8004
    MQMSG_CLASS_NACK_HOP_COUNT_EXCEEDED = 0x8005
    MQMSG_CLASS_NACK_BAD_SIGNATURE = 0x8006
    MQMSG_CLASS_NACK_BAD_ENCRYPTION = 0x8007
    MQMSG_CLASS_NACK_COULD_NOT_ENCRYPT = 0x8008
    MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q = 0x8009
    MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG = 0x800A
    MQMSG_CLASS_NACK_UNSUPPORTED_CRYPTO_PROVIDER = 0x800B
    MQMSG_CLASS_NACK_SOURCE_COMPUTER_GUID_CHANGED = 0x800C
    MQMSG_CLASS_NACK_Q_DELETED = 0xC000
    MQMSG_CLASS_NACK_Q_PURGED = 0xC001
    MQMSG_CLASS_NACK_RECEIVE_TIMEOUT = 0xC002
    MQMSG_CLASS_NACK_RECEIVE_TIMEOUT_AT_SENDER = 0xC003
    MQMSG_CLASS_NACK_RECEIVE_REJECTED = 0xC004


class AcknowledgementsRequested(IntFlag):
    """Message.AcknowledgementsRequested (MS-MQDMPR 3.1.1.12) as the PA/PR/NA/NR bits
    of MessagePropertiesHeader.Flags (MS-MQMQ 2.2.19.3); the named DMPR values are unions."""
    NONE = 0x0
    ACK_POS_ARRIVAL = 0x1
    ACK_POS_RECEIVE = 0x2
    ACK_NEG_ARRIVAL = 0x4
    ACK_NEG_RECEIVE = 0x8
    ACK_FULL_REACH_QUEUE = 0x5
    ACK_NACK_RECEIVE = 0xC
    ACK_FULL_RECEIVE = 0xE


class QueueFormatType(IntEnum):
    """QUEUE_FORMAT_TYPE, the m_qft discriminant (MS-MQMQ 2.2.7)."""
    QUEUE_FORMAT_TYPE_UNKNOWN = 0
    QUEUE_FORMAT_TYPE_PUBLIC = 1
    QUEUE_FORMAT_TYPE_PRIVATE = 2
    QUEUE_FORMAT_TYPE_DIRECT = 3
    QUEUE_FORMAT_TYPE_MACHINE = 4
    QUEUE_FORMAT_TYPE_CONNECTOR = 5
    QUEUE_FORMAT_TYPE_DL = 6
    QUEUE_FORMAT_TYPE_MULTICAST = 7
    QUEUE_FORMAT_TYPE_SUBQUEUE = 8


class QueueSuffixType(IntEnum):
    """Low nibble of QUEUE_FORMAT.m_SuffixAndFlags (MS-MQMQ 2.2.7)."""
    QUEUE_SUFFIX_TYPE_NONE = 0
    QUEUE_SUFFIX_TYPE_JOURNAL = 1
    QUEUE_SUFFIX_TYPE_DEADLETTER = 2
    QUEUE_SUFFIX_TYPE_DEADXACT = 3
    QUEUE_SUFFIX_TYPE_XACTONLY = 4
    QUEUE_SUFFIX_TYPE_SUBQUEUE = 5


QUEUE_FORMAT_FLAG_SYSTEM = 0x80  # high nibble of m_SuffixAndFlags (MS-MQMQ 2.2.7)
