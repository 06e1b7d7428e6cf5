"""The RemoteRead IDL of [MS-MQRR] 6 as impacket NDR types: the definition of the wire format.

Theory of operation
-------------------
Every type and every request/response of opnums 0 and 2-15 is written here as an
impacket class (NDRSTRUCT, NDRUNION, NDRPOINTER, NDRUniConformantArray, NDRCALL),
field for field in IDL order, for NDR 2.0 and NDR64 alike.  A request class is
named after its method and its response class adds "Response", as impacket's
``DCERPC.request`` expects; this module defines ``DCERPCSessionError`` for the
same reason.  The HRESULT/DWORD return value is the field ``ErrorCode`` (impacket's
convention, read by ``DCERPCException``).

Pointer parameters follow MIDL: a top-level pointer without an attribute is
[ref] (pointer_default governs only the pointers that are not top-level, C706
4.2.20), and a [ref] pointer has no wire representation, so an NDRCALL field of
a [ref] pointer is the pointee itself.  Embedded pointers take the interface's
pointer_default(unique) (MS-MQRR 6; MS-RPCE 2.2.4.9).

impacket's generic machinery departs from NDR in a few places that this IDL
reaches; the classes below override exactly those, each with its reason:
the alignment of the 20-byte context handle and of XACTUOW, the alignment of
QUEUE_FORMAT and its non-encapsulated union (C706 14.3.8, MS-RPCE 2.2.5.3.4.4),
the empty union arm, and the NDR64 trailing gap of QUEUE_FORMAT (MS-RPCE
2.2.5.3.4.1).  The fast codec (ndr_wire) is proven against these classes byte
for byte by tests/test_mqrr_ndr.py.
"""

from __future__ import annotations

from struct import pack, unpack_from
from typing import ClassVar

from impacket.dcerpc.v5.dtypes import (
    DWORD,
    GUID,
    LONG,
    LPWSTR,
    UCHAR,
    ULONG,
    ULONGLONG,
    USHORT,
)
from impacket.dcerpc.v5.enum import Enum
from impacket.dcerpc.v5.ndr import (
    NDRCALL,
    NDRENUM,
    NDRPOINTER,
    NDRSTRUCT,
    NDRUNION,
    NDRUniConformantArray,
)
from impacket.dcerpc.v5.rpcrt import DCERPCException

from mqspec.protocol.hresult import describe


class DCERPCSessionError(DCERPCException):
    """A RemoteRead call answered with a failure status; impacket's DCERPC.request looks this name up."""

    def __str__(self) -> str:
        return f"MS-MQRR call failed: {describe(self.error_code)}"


# -- MS-MQRR 2.2.4: both context handle types are the same 20-byte NDR context handle -------------
class QUEUE_CONTEXT_HANDLE(NDRSTRUCT):
    structure = (("Data", "20s=b''"),)

    def getAlignment(self) -> int:
        return 4  # [C706] ndr_context_handle {unsigned long; uuid_t}: aligned as its ULONG, not by its size


QUEUE_CONTEXT_HANDLE_NOSERIALIZE = QUEUE_CONTEXT_HANDLE
QUEUE_CONTEXT_HANDLE_SERIALIZE = QUEUE_CONTEXT_HANDLE


class XACTUOW(NDRSTRUCT):
    structure = (("rgb", "16s=b''"),)  # MS-MQMQ 2.2.18.1.8: unsigned char rgb[16]

    def getAlignment(self) -> int:
        return 1  # an array of bytes is byte aligned


# -- MS-MQMQ 2.2.7 - 2.2.10: QUEUE_FORMAT and the structures of its union arms ---------------------
class OBJECTID(NDRSTRUCT):
    structure = (("Lineage", GUID), ("Uniquifier", DWORD))  # MS-MQMQ 2.2.8


class DL_ID(NDRSTRUCT):
    structure = (("m_DlGuid", GUID), ("m_pwzDomain", LPWSTR))  # MS-MQMQ 2.2.9: [string] wchar_t* (unique)


class MULTICAST_ID(NDRSTRUCT):
    structure = (("m_address", ULONG), ("m_port", ULONG))  # MS-MQMQ 2.2.10


class QUEUE_FORMAT_UNION(NDRUNION):
    """[switch_is(m_qft)] union: non-encapsulated, so m_qft travels again as the union's tag (MS-RPCE 2.2.4.8)."""

    commonHdr = (("tag", UCHAR),)    # MS-MQMQ 2.2.7: the switch type is m_qft's, unsigned char
    commonHdr64 = (("tag", UCHAR),)
    union: ClassVar[dict] = {
        0: ("m_unknown", "0s=b''"),  # [case(QUEUE_FORMAT_TYPE_UNKNOWN)] ;  -- an empty arm
        1: ("m_gPublicID", GUID),
        2: ("m_oPrivateID", OBJECTID),
        3: ("m_pDirectID", LPWSTR),  # [string] wchar_t*, embedded: unique
        4: ("m_gMachineID", GUID),
        5: ("m_GConnectorID", GUID),
        6: ("m_DlID", DL_ID),
        7: ("m_MulticastID", MULTICAST_ID),
        8: ("m_pDirectSubqueueID", LPWSTR),  # [string] wchar_t*, embedded: unique
    }

    def getAlignment(self) -> int:
        # MS-RPCE 2.2.5.3.4.4: an NDR64 union is aligned to its largest arm (pointers: 8);
        # C706 14.3.8: in NDR 2.0 the tag is aligned as its own type and each arm as its own.
        return 8 if self._isNDR64 else 1

    def _arm_alignment(self) -> int:
        if not self.structure or self.structure[0][0] == "m_unknown":
            return 1  # nothing follows the tag of the empty arm
        if self._isNDR64:
            return 8  # MS-RPCE 2.2.5.3.4.4: the arm is aligned to the largest alignment of all arms
        return self.fields[self.structure[0][0]].getAlignment()

    def getData(self, soFar: int = 0) -> bytes:
        # impacket pads after the tag to 4/8 even for an empty arm; NDR pads only before an arm.
        data = b"\x00" * ((-soFar) % self.getAlignment())
        data += pack("<B", self.fields["tag"]["Data"])
        if self.structure and self.structure[0][0] != "m_unknown":
            data += b"\x00" * ((-(soFar + len(data))) % self._arm_alignment())
            name, kind = self.structure[0]
            data += self.pack(name, kind, soFar + len(data))
        return data

    def fromString(self, data: bytes, offset: int = 0) -> int:
        start = offset
        offset += (-offset) % self.getAlignment()
        tag = unpack_from("<B", data, offset)[0]
        if tag not in self.union:
            raise ValueError(f"QUEUE_FORMAT: no union arm for m_qft {tag}")
        self["tag"] = tag  # NDRUNION.__setitem__ selects the arm
        offset += 1
        if self.structure[0][0] != "m_unknown":
            offset += (-offset) % self._arm_alignment()
            name, kind = self.structure[0]
            offset += self.unpack(name, kind, data, offset)
        return offset - start


class QUEUE_FORMAT(NDRSTRUCT):
    structure = (
        ("m_qft", UCHAR),
        ("m_SuffixAndFlags", UCHAR),
        ("m_reserved", USHORT),
        ("u", QUEUE_FORMAT_UNION),
    )

    def getAlignment(self) -> int:
        # the largest alignment of its members, the union's arms included (pointers: 8 in NDR64)
        return 8 if self._isNDR64 else 4

    def getData(self, soFar: int = 0) -> bytes:
        data = NDRSTRUCT.getData(self, soFar)
        if self._isNDR64:
            data += b"\x00" * ((-(soFar + len(data))) % 8)  # MS-RPCE 2.2.5.3.4.1: trailing gap
        return data

    def fromString(self, data: bytes, offset: int = 0) -> int:
        size = NDRSTRUCT.fromString(self, data, offset)
        if self._isNDR64:
            size += (-(offset + size)) % 8  # MS-RPCE 2.2.5.3.4.1: trailing gap
        return size


# -- MS-MQRR 2.2.6, 2.2.7: SectionBuffer -----------------------------------------------------------
class SectionType(NDRENUM):  # 2 bytes in NDR 2.0, 4 in NDR64 (MS-RPCE 2.2.5.2)
    class enumItems(Enum):
        stFullPacket = 0
        stBinaryFirstSection = 1
        stBinarySecondSection = 2
        stSrmpFirstSection = 3
        stSrmpSecondSection = 4


class BYTE_ARRAY(NDRUniConformantArray):
    item = "c"


class PBYTE_ARRAY(NDRPOINTER):
    referent = (("Data", BYTE_ARRAY),)


class SectionBuffer(NDRSTRUCT):
    structure = (
        ("SectionBufferType", SectionType),
        ("SectionSizeAlloc", DWORD),
        ("SectionSize", DWORD),
        ("pSectionBuffer", PBYTE_ARRAY),  # MS-MQRR 6: [unique, size_is(SectionSize)] byte*
    )


class SectionBuffer_ARRAY(NDRUniConformantArray):
    item = SectionBuffer


class PSectionBuffer_ARRAY(NDRPOINTER):
    referent = (("Data", SectionBuffer_ARRAY),)  # the inner pointer of SectionBuffer**: unique


# -- MS-MQRR 3.1.4, 6: the methods ---------------------------------------------------------------
class R_GetServerPort(NDRCALL):
    opnum = 0
    structure = ()


class R_GetServerPortResponse(NDRCALL):
    structure = (("ErrorCode", DWORD),)  # DWORD: the port, not an HRESULT


_OPEN_QUEUE_IN = (
    ("pQueueFormat", QUEUE_FORMAT),  # [in] QUEUE_FORMAT*: top-level, ref
    ("dwAccess", DWORD),
    ("dwShareMode", DWORD),
    ("pClientId", GUID),  # [in] GUID*: top-level, ref
    ("fNonRoutingServer", LONG),
    ("Major", UCHAR),
    ("Minor", UCHAR),
    ("BuildNumber", USHORT),
    ("fWorkgroup", LONG),
)


class R_OpenQueue(NDRCALL):
    opnum = 2
    structure = _OPEN_QUEUE_IN


class R_OpenQueueResponse(NDRCALL):
    structure = (("pphContext", QUEUE_CONTEXT_HANDLE_SERIALIZE),)  # [out] handle*: ref; void method


class R_CloseQueue(NDRCALL):
    opnum = 3
    structure = (("pphContext", QUEUE_CONTEXT_HANDLE_SERIALIZE),)  # [in, out] handle*: ref


class R_CloseQueueResponse(NDRCALL):
    structure = (("pphContext", QUEUE_CONTEXT_HANDLE_SERIALIZE), ("ErrorCode", ULONG))


class R_CreateCursor(NDRCALL):
    opnum = 4
    structure = (("phContext", QUEUE_CONTEXT_HANDLE_NOSERIALIZE),)


class R_CreateCursorResponse(NDRCALL):
    structure = (("phCursor", DWORD), ("ErrorCode", ULONG))  # [out] DWORD*: ref


class R_CloseCursor(NDRCALL):
    opnum = 5
    structure = (("phContext", QUEUE_CONTEXT_HANDLE_NOSERIALIZE), ("hCursor", DWORD))


class R_CloseCursorResponse(NDRCALL):
    structure = (("ErrorCode", ULONG),)


class R_PurgeQueue(NDRCALL):
    opnum = 6
    structure = (("phContext", QUEUE_CONTEXT_HANDLE_NOSERIALIZE),)


class R_PurgeQueueResponse(NDRCALL):
    structure = (("ErrorCode", ULONG),)


_START_RECEIVE_IN = (
    ("phContext", QUEUE_CONTEXT_HANDLE_NOSERIALIZE),
    ("LookupId", ULONGLONG),
    ("hCursor", DWORD),
    ("ulAction", DWORD),
    ("ulTimeout", DWORD),
    ("dwRequestId", DWORD),
    ("dwMaxBodySize", DWORD),
    ("dwMaxCompoundMessageSize", DWORD),
)
_START_RECEIVE_OUT = (
    ("pdwArriveTime", DWORD),  # [out] DWORD*: ref
    ("pSequenceId", ULONGLONG),  # [out] ULONGLONG*: ref
    ("pdwNumberOfSections", DWORD),  # [out] DWORD*: ref
    ("ppPacketSections", PSectionBuffer_ARRAY),  # [out, size_is(, *pdwNumberOfSections)] SectionBuffer**: ref to unique
    ("ErrorCode", ULONG),
)


class R_StartReceive(NDRCALL):
    opnum = 7
    structure = _START_RECEIVE_IN


class R_StartReceiveResponse(NDRCALL):
    structure = _START_RECEIVE_OUT


class R_CancelReceive(NDRCALL):
    opnum = 8
    structure = (("phContext", QUEUE_CONTEXT_HANDLE_NOSERIALIZE), ("dwRequestId", DWORD))


class R_CancelReceiveResponse(NDRCALL):
    structure = (("ErrorCode", ULONG),)


class R_EndReceive(NDRCALL):
    opnum = 9
    structure = (("phContext", QUEUE_CONTEXT_HANDLE_NOSERIALIZE), ("dwAck", DWORD), ("dwRequestId", DWORD))


class R_EndReceiveResponse(NDRCALL):
    structure = (("ErrorCode", ULONG),)


class R_MoveMessage(NDRCALL):
    opnum = 10
    structure = (
        ("phContextFrom", QUEUE_CONTEXT_HANDLE_NOSERIALIZE),
        ("ullContextTo", ULONGLONG),
        ("LookupId", ULONGLONG),
        ("pTransactionId", XACTUOW),  # [in] XACTUOW*: top-level, ref
    )


class R_MoveMessageResponse(NDRCALL):
    structure = (("ErrorCode", ULONG),)


class R_OpenQueueForMove(NDRCALL):
    opnum = 11
    structure = _OPEN_QUEUE_IN


class R_OpenQueueForMoveResponse(NDRCALL):
    structure = (
        ("pMoveContext", ULONGLONG),  # [out] ULONGLONG*: ref
        ("pphContext", QUEUE_CONTEXT_HANDLE_SERIALIZE),  # [out] handle*: ref; void method
    )


class R_QMEnlistRemoteTransaction(NDRCALL):
    opnum = 12
    structure = (
        ("pTransactionId", XACTUOW),  # [in] XACTUOW*: top-level, ref
        ("cbPropagationToken", DWORD),  # [in, range(0, 131072)]
        ("pbPropagationToken", BYTE_ARRAY),  # [in, size_is(cbPropagationToken)] unsigned char*: ref
        ("pQueueFormat", QUEUE_FORMAT),  # [in] QUEUE_FORMAT*: top-level, ref
    )


class R_QMEnlistRemoteTransactionResponse(NDRCALL):
    structure = (("ErrorCode", ULONG),)


class R_StartTransactionalReceive(NDRCALL):
    opnum = 13
    structure = _START_RECEIVE_IN + (("pTransactionId", XACTUOW),)  # [in] XACTUOW*: top-level, ref


class R_StartTransactionalReceiveResponse(NDRCALL):
    structure = _START_RECEIVE_OUT


class R_SetUserAcknowledgementClass(NDRCALL):
    opnum = 14
    structure = (("phContext", QUEUE_CONTEXT_HANDLE_NOSERIALIZE), ("LookupId", ULONGLONG), ("usClass", USHORT))


class R_SetUserAcknowledgementClassResponse(NDRCALL):
    structure = (("ErrorCode", ULONG),)


class R_EndTransactionalReceive(NDRCALL):
    opnum = 15
    structure = (("phContext", QUEUE_CONTEXT_HANDLE_NOSERIALIZE), ("dwAck", DWORD), ("dwRequestId", DWORD))


class R_EndTransactionalReceiveResponse(NDRCALL):
    structure = (("ErrorCode", ULONG),)


# opnum -> (request class, response class); opnum 1 (Opnum1NotUsedOnWire) has none
CALLS: dict[int, tuple[type[NDRCALL], type[NDRCALL]]] = {
    cls.opnum: (cls, globals()[cls.__name__ + "Response"])
    for cls in (R_GetServerPort, R_OpenQueue, R_CloseQueue, R_CreateCursor, R_CloseCursor, R_PurgeQueue,
                R_StartReceive, R_CancelReceive, R_EndReceive, R_MoveMessage, R_OpenQueueForMove,
                R_QMEnlistRemoteTransaction, R_StartTransactionalReceive, R_SetUserAcknowledgementClass,
                R_EndTransactionalReceive)
}
