"""Every status a queue manager or its RPC runtime can answer, defined once.

HRESULT holds the values of [MS-MQMQ] 2.4 (MQ_*) and the few NTSTATUS codes that
[MS-MQRR] and [MS-MQDMPR] name explicitly (STATUS_*).  RpcStatus holds the fault
statuses of the DCE/RPC runtime ([C706] Appendix E, [MS-RPCE] 2.2.2.6/2.2.2.7, and
the Win32 codes [MS-ERREF] 2.2 gives the stub's own faults), which a server answers
instead of running the method.  Nothing else in the project spells a status number.
"""

from enum import IntEnum


class HRESULT(IntEnum):
    MQ_OK = 0x00000000
    MQ_ERROR = 0xC00E0001
    MQ_ERROR_QUEUE_NOT_FOUND = 0xC00E0003
    MQ_ERROR_QUEUE_EXISTS = 0xC00E0005
    MQ_ERROR_INVALID_PARAMETER = 0xC00E0006
    MQ_ERROR_INVALID_HANDLE = 0xC00E0007
    MQ_ERROR_OPERATION_CANCELLED = 0xC00E0008
    MQ_ERROR_SHARING_VIOLATION = 0xC00E0009
    MQ_ERROR_ILLEGAL_QUEUE_PATHNAME = 0xC00E0014
    MQ_ERROR_ILLEGAL_PROPERTY_VALUE = 0xC00E0018
    MQ_ERROR_IO_TIMEOUT = 0xC00E001B
    MQ_ERROR_ILLEGAL_CURSOR_ACTION = 0xC00E001C
    MQ_ERROR_MESSAGE_ALREADY_RECEIVED = 0xC00E001D
    MQ_ERROR_ILLEGAL_FORMATNAME = 0xC00E001E
    MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION = 0xC00E0020
    MQ_ERROR_ACCESS_DENIED = 0xC00E0025
    MQ_ERROR_INSUFFICIENT_RESOURCES = 0xC00E0027
    MQ_ERROR_UNSUPPORTED_ACCESS_MODE = 0xC00E0045
    MQ_ERROR_QUEUE_NOT_AVAILABLE = 0xC00E004B
    MQ_ERROR_TRANSACTION_USAGE = 0xC00E0050
    MQ_ERROR_TRANSACTION_SEQUENCE = 0xC00E0051
    MQ_ERROR_QUEUE_DELETED = 0xC00E005A
    MQ_ERROR_MESSAGE_NOT_FOUND = 0xC00E0088
    MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION = 0xC00E009C
    STATUS_INVALID_HANDLE = 0xC0000008
    STATUS_INVALID_PARAMETER = 0xC000000D
    STATUS_ACCESS_DENIED = 0xC0000022
    STATUS_NOT_FOUND = 0xC0000225

    @property
    def failed(self) -> bool:
        # [MS-ERREF] 2.1: the severity bit marks a failure.
        return bool(self & 0x80000000)


class RpcStatus(IntEnum):
    """Fault statuses of the RPC runtime, carried in a fault PDU instead of a response."""
    RPC_S_ACCESS_DENIED = 0x00000005          # [MS-ERREF] 2.2 ERROR_ACCESS_DENIED
    RPC_S_PROCNUM_OUT_OF_RANGE = 0x000006D1   # [MS-ERREF] 2.2, the Win32 form of nca_s_op_rng_error
    EPT_S_NOT_REGISTERED = 0x000006D9         # [MS-ERREF] 2.2; MS-MQRR 3.2.4.1 falls back on it
    RPC_S_CALL_FAILED = 0x000006BE            # [MS-ERREF] 2.2: the connection broke during the call
    RPC_S_INVALID_TAG = 0x000006C5            # [MS-ERREF] 2.2: a union discriminant with no arm
    RPC_X_INVALID_BOUND = 0x000006C6          # [MS-ERREF] 2.2: a value outside an IDL range()
    RPC_X_NULL_REF_POINTER = 0x000006F4       # [MS-ERREF] 2.2: a NULL [ref] pointer; no stub can send one
    RPC_X_ENUM_VALUE_OUT_OF_RANGE = 0x000006F5  # [MS-ERREF] 2.2: an enum value NDR cannot carry
    RPC_X_SS_IN_NULL_CONTEXT = 0x000006EF     # [MS-ERREF] 2.2: a NULL [in] context handle
    RPC_X_BAD_STUB_DATA = 0x000006F7          # [MS-ERREF] 2.2: stub data that does not decode
    NCA_S_FAULT_UNSPEC = 0x1C000012           # [C706] E.1: the manager failed in an unspecified way
    NCA_S_FAULT_CONTEXT_MISMATCH = 0x1C00001A  # [C706] E.1: an unknown or foreign context handle
    NCA_S_FAULT_REMOTE_NO_MEMORY = 0x1C00001B  # [C706] E.1: the server ran out of memory
    NCA_S_OP_RNG_ERROR = 0x1C010002           # [C706] E.1: an operation number the interface lacks
    NCA_S_UNK_IF = 0x1C010003                 # [C706] E.1: an interface the presentation context lacks
    NCA_S_PROTO_ERROR = 0x1C01000B            # [C706] E.1: a PDU the protocol does not allow here
    NCA_S_SERVER_TOO_BUSY = 0x1C010014        # [C706] E.1: the server cannot take the call now
    NCA_S_UNSUPPORTED_TYPE = 0x1C010017       # [C706] E.1: a data representation the server lacks


def describe(value: int) -> str:
    """Name and hex of a status, for messages people read."""
    for enum in (HRESULT, RpcStatus):
        try:
            return f"{enum(value).name} (0x{value:08X})"
        except ValueError:
            continue
    return f"0x{value:08X}"
