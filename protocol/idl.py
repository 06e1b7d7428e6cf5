"""The RemoteRead interface of [MS-MQRR] 6 (Appendix A: Full IDL), in Python terms.

The interface identity, the operation numbers, the IDL's range() attributes and
the plain forms of its types.  How they are marshalled (NDR) is the wire
adapter's business (adapters/mqrr/ndr.py); this module is what both ends agree on.
"""

from __future__ import annotations

from dataclasses import dataclass

REMOTE_READ_UUID = "1a9134dd-7b39-45ba-ad88-44d01ca47f28"  # MS-MQRR 1.9
REMOTE_READ_VERSION = (1, 0)
DEFAULT_PORT = 2103          # MS-MQRR 2.1, 3.1.4.1: the port R_GetServerPort answers by default
PORT_STEP = 11               # MS-MQRR 3.1.4.1: the next port to try when one is busy

CONTEXT_HANDLE_SIZE = 20     # [C706] NDR context handle: 4 bytes of attributes and a UUID
NULL_CONTEXT_HANDLE = bytes(CONTEXT_HANDLE_SIZE)
XACTUOW_SIZE = 16            # MS-MQMQ 2.2.18.1.8

# MS-MQRR 3.1.4: the operations by number; opnum 1 (Opnum1NotUsedOnWire) is never sent.
OPNUMS = {
    "R_GetServerPort": 0,
    "R_OpenQueue": 2,
    "R_CloseQueue": 3,
    "R_CreateCursor": 4,
    "R_CloseCursor": 5,
    "R_PurgeQueue": 6,
    "R_StartReceive": 7,
    "R_CancelReceive": 8,
    "R_EndReceive": 9,
    "R_MoveMessage": 10,
    "R_OpenQueueForMove": 11,
    "R_QMEnlistRemoteTransaction": 12,
    "R_StartTransactionalReceive": 13,
    "R_SetUserAcknowledgementClass": 14,
    "R_EndTransactionalReceive": 15,
}
UNUSED_OPNUM = 1

# MS-MQRR 6: the range() attributes; a value outside is refused by the RPC layer.
DW_ACK_RANGE = (1, 2)                        # dwAck of opnums 9 and 15
CB_PROPAGATION_TOKEN_RANGE = (0, 131072)     # cbPropagationToken of opnum 12


@dataclass(frozen=True)
class SectionBuffer:
    """SectionBuffer (MS-MQRR 2.2.6): one part of a message packet returned by Start*Receive."""
    section_buffer_type: int   # SectionType (MS-MQRR 2.2.7)
    section_size_alloc: int
    section_size: int
    p_section_buffer: bytes
