"""ADM enumerations of MS-MQDMPR 3.1.1.17 and the state names of 3.1.1.11 / 3.1.1.13.

These never cross the wire as such; wire numbers live in constants.py.
"""

from enum import Enum, IntEnum


class QueueAccessType(Enum):
    ReceiveAccess = "ReceiveAccess"
    SendAccess = "SendAccess"
    PeekAccess = "PeekAccess"
    MoveAccess = "MoveAccess"
    ReceiveAdminAccess = "ReceiveAdminAccess"
    PeekAdminAccess = "PeekAdminAccess"


class QueueShareMode(Enum):
    DenyNone = "DenyNone"
    DenyReceive = "DenyReceive"


class MessagePositionState(IntEnum):
    Available = 0
    Locked = 1
    Deleted = 2
    PurgePending = 3


class MessageSeekAction(Enum):
    SeekFirst = "SeekFirst"
    SeekPrevious = "SeekPrevious"
    SeekCurrent = "SeekCurrent"
    SeekNext = "SeekNext"
    SeekLast = "SeekLast"


class SeekDirection(Enum):
    Forward = "Forward"
    Backward = "Backward"


class DeliveryGuarantee(IntEnum):
    # Values match UserHeader.Flags.DM (MS-MQMQ 2.2.19.2).
    Express = 0
    Recoverable = 1


class QueueType(Enum):
    Private = "Private"
    Public = "Public"
    System = "System"
    Connector = "Connector"


class QueuePrivacyLevel(Enum):
    # Queue.PrivacyLevel (MS-MQDMPR 3.1.1.2).
    None_ = "None"
    Optional = "Optional"
    Body = "Body"


class PrivacyLevel(IntEnum):
    # Message.PrivacyLevel, numbered as MessagePropertiesHeader.PrivacyLevel (MS-MQMQ 2.2.19.3).
    None_ = 0
    Base = 1
    Enhanced = 3
    Advanced = 5


class OperationType(Enum):
    # TransactionalOperation.OperationType (MS-MQDMPR 3.1.1.13).
    Enqueue = "Enqueue"
    Dequeue = "Dequeue"
    Move = "Move"
