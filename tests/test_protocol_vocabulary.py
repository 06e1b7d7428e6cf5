"""The protocol vocabulary (protocol/) against the specifications' own tables.

Every value below is typed from the table it cites, not computed from protocol/, so a
wrong number in the shared vocabulary fails here instead of being agreed with by the
reference and the suite alike.  The last tests hold the import boundary: the suite
(steps/, features/) and the adapters other than the in-process one never import the
reference.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mqspec.protocol import constants, idl
from mqspec.protocol.hresult import HRESULT, RpcStatus, describe

ROOT = Path(__file__).resolve().parent.parent

# [MS-MQMQ] 2.4 and the NTSTATUS values [MS-MQRR] / [MS-MQDMPR] name ([MS-ERREF] 2.3).
SPEC_HRESULTS = {
    "MQ_OK": 0x00000000, "MQ_ERROR": 0xC00E0001, "MQ_ERROR_QUEUE_NOT_FOUND": 0xC00E0003,
    "MQ_ERROR_QUEUE_EXISTS": 0xC00E0005, "MQ_ERROR_INVALID_PARAMETER": 0xC00E0006,
    "MQ_ERROR_INVALID_HANDLE": 0xC00E0007, "MQ_ERROR_OPERATION_CANCELLED": 0xC00E0008,
    "MQ_ERROR_SHARING_VIOLATION": 0xC00E0009, "MQ_ERROR_ILLEGAL_QUEUE_PATHNAME": 0xC00E0014,
    "MQ_ERROR_ILLEGAL_PROPERTY_VALUE": 0xC00E0018, "MQ_ERROR_IO_TIMEOUT": 0xC00E001B,
    "MQ_ERROR_ILLEGAL_CURSOR_ACTION": 0xC00E001C, "MQ_ERROR_MESSAGE_ALREADY_RECEIVED": 0xC00E001D,
    "MQ_ERROR_ILLEGAL_FORMATNAME": 0xC00E001E, "MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION": 0xC00E0020,
    "MQ_ERROR_ACCESS_DENIED": 0xC00E0025, "MQ_ERROR_INSUFFICIENT_RESOURCES": 0xC00E0027,
    "MQ_ERROR_UNSUPPORTED_ACCESS_MODE": 0xC00E0045, "MQ_ERROR_QUEUE_NOT_AVAILABLE": 0xC00E004B,
    "MQ_ERROR_TRANSACTION_USAGE": 0xC00E0050, "MQ_ERROR_TRANSACTION_SEQUENCE": 0xC00E0051,
    "MQ_ERROR_QUEUE_DELETED": 0xC00E005A, "MQ_ERROR_MESSAGE_NOT_FOUND": 0xC00E0088,
    "MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION": 0xC00E009C,
    "STATUS_INVALID_HANDLE": 0xC0000008, "STATUS_INVALID_PARAMETER": 0xC000000D,
    "STATUS_ACCESS_DENIED": 0xC0000022, "STATUS_NOT_FOUND": 0xC0000225,
}

# [C706] Appendix E (nca_s_*) and [MS-ERREF] 2.2 (Win32 codes the RPC runtime faults with).
SPEC_RPC_STATUSES = {
    "RPC_S_ACCESS_DENIED": 5, "RPC_S_PROCNUM_OUT_OF_RANGE": 1745, "EPT_S_NOT_REGISTERED": 1753,
    "RPC_S_CALL_FAILED": 1726, "RPC_S_INVALID_TAG": 1733, "RPC_X_INVALID_BOUND": 1734, "RPC_X_NULL_REF_POINTER": 1780,
    "RPC_X_ENUM_VALUE_OUT_OF_RANGE": 1781, "RPC_X_SS_IN_NULL_CONTEXT": 1775, "RPC_X_BAD_STUB_DATA": 1783,
    "NCA_S_FAULT_UNSPEC": 0x1C000012, "NCA_S_FAULT_CONTEXT_MISMATCH": 0x1C00001A,
    "NCA_S_FAULT_REMOTE_NO_MEMORY": 0x1C00001B, "NCA_S_SERVER_TOO_BUSY": 0x1C010014, "NCA_S_UNSUPPORTED_TYPE": 0x1C010017, "NCA_S_OP_RNG_ERROR": 0x1C010002, "NCA_S_UNK_IF": 0x1C010003,
    "NCA_S_PROTO_ERROR": 0x1C01000B,
}

# [MS-MQMQ] 2.2.18.1.6 MESSAGE_CLASS_VALUES.
SPEC_MESSAGE_CLASSES = {
    "MQMSG_CLASS_NORMAL": 0x0000, "MQMSG_CLASS_REPORT": 0x0001, "MQMSG_CLASS_ACK_REACH_QUEUE": 0x0002,
    "MQMSG_CLASS_ORDER_ACK": 0x00FF, "MQMSG_CLASS_ACK_RECEIVE": 0x4000, "MQMSG_CLASS_NACK_BAD_DST_Q": 0x8000,
    "MQMSG_CLASS_NACK_DELETED": 0x8001, "MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT": 0x8002,
    "MQMSG_CLASS_NACK_Q_EXCEED_QUOTA": 0x8003, "MQMSG_CLASS_NACK_ACCESS_DENIED": 0x8004,
    "MQMSG_CLASS_NACK_HOP_COUNT_EXCEEDED": 0x8005, "MQMSG_CLASS_NACK_BAD_SIGNATURE": 0x8006,
    "MQMSG_CLASS_NACK_BAD_ENCRYPTION": 0x8007, "MQMSG_CLASS_NACK_COULD_NOT_ENCRYPT": 0x8008,
    "MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q": 0x8009, "MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG": 0x800A,
    "MQMSG_CLASS_NACK_UNSUPPORTED_CRYPTO_PROVIDER": 0x800B,
    "MQMSG_CLASS_NACK_SOURCE_COMPUTER_GUID_CHANGED": 0x800C, "MQMSG_CLASS_NACK_Q_DELETED": 0xC000,
    "MQMSG_CLASS_NACK_Q_PURGED": 0xC001, "MQMSG_CLASS_NACK_RECEIVE_TIMEOUT": 0xC002,
    "MQMSG_CLASS_NACK_RECEIVE_TIMEOUT_AT_SENDER": 0xC003, "MQMSG_CLASS_NACK_RECEIVE_REJECTED": 0xC004,
}

# [MS-MQRR] 3.1.4.2, 3.1.4.7, 3.1.4.9, 3.1.4.11 and 2.2.7; [MS-MQMQ] 2.2.7 and 2.2.19.3.
SPEC_TABLES = {
    constants.Access: {"RECEIVE_ACCESS": 0x1, "SEND_ACCESS": 0x2, "MQ_MOVE_ACCESS": 0x4, "PEEK_ACCESS": 0x20},
    constants.ShareMode: {"MQ_DENY_NONE": 0, "MQ_DENY_SHARE": 1},
    constants.Action: {
        "MQ_ACTION_RECEIVE": 0x00000000, "MQ_ACTION_PEEK_CURRENT": 0x80000000, "MQ_ACTION_PEEK_NEXT": 0x80000001,
        "MQ_LOOKUP_PEEK_CURRENT": 0x40000010, "MQ_LOOKUP_PEEK_NEXT": 0x40000011, "MQ_LOOKUP_PEEK_PREV": 0x40000012,
        "MQ_LOOKUP_RECEIVE_CURRENT": 0x40000020, "MQ_LOOKUP_RECEIVE_NEXT": 0x40000021,
        "MQ_LOOKUP_RECEIVE_PREV": 0x40000022},
    constants.Ack: {"RR_NACK": 1, "RR_ACK": 2},
    constants.SectionType: {"stFullPacket": 0, "stBinaryFirstSection": 1, "stBinarySecondSection": 2,
                            "stSrmpFirstSection": 3, "stSrmpSecondSection": 4},
    constants.QueueFormatType: {
        "QUEUE_FORMAT_TYPE_UNKNOWN": 0, "QUEUE_FORMAT_TYPE_PUBLIC": 1, "QUEUE_FORMAT_TYPE_PRIVATE": 2,
        "QUEUE_FORMAT_TYPE_DIRECT": 3, "QUEUE_FORMAT_TYPE_MACHINE": 4, "QUEUE_FORMAT_TYPE_CONNECTOR": 5,
        "QUEUE_FORMAT_TYPE_DL": 6, "QUEUE_FORMAT_TYPE_MULTICAST": 7, "QUEUE_FORMAT_TYPE_SUBQUEUE": 8},
    constants.QueueSuffixType: {
        "QUEUE_SUFFIX_TYPE_NONE": 0, "QUEUE_SUFFIX_TYPE_JOURNAL": 1, "QUEUE_SUFFIX_TYPE_DEADLETTER": 2,
        "QUEUE_SUFFIX_TYPE_DEADXACT": 3, "QUEUE_SUFFIX_TYPE_XACTONLY": 4, "QUEUE_SUFFIX_TYPE_SUBQUEUE": 5},
    constants.AcknowledgementsRequested: {
        "NONE": 0, "ACK_POS_ARRIVAL": 0x1, "ACK_POS_RECEIVE": 0x2, "ACK_NEG_ARRIVAL": 0x4, "ACK_NEG_RECEIVE": 0x8,
        "ACK_FULL_REACH_QUEUE": 0x5, "ACK_NACK_RECEIVE": 0xC, "ACK_FULL_RECEIVE": 0xE},
    constants.MessageClass: SPEC_MESSAGE_CLASSES,
    # [MS-MQMQ] 2.2.24 (the composites: the sums its table spells out); [MS-RPCE] 2.2.1.1.8
    constants.QueueRights: {
        "MQSEC_DELETE_MESSAGE": 0x1, "MQSEC_PEEK_MESSAGE": 0x2, "MQSEC_WRITE_MESSAGE": 0x4,
        "MQSEC_DELETE_JOURNAL_MESSAGE": 0x8, "MQSEC_SET_QUEUE_PROPERTIES": 0x10, "MQSEC_GET_QUEUE_PROPERTIES": 0x20,
        "MQSEC_DELETE_QUEUE": 0x10000, "MQSEC_GET_QUEUE_PERMISSIONS": 0x20000,
        "MQSEC_CHANGE_QUEUE_PERMISSIONS": 0x40000, "MQSEC_TAKE_QUEUE_OWNERSHIP": 0x80000,
        "MQSEC_RECEIVE_MESSAGE": 0x1 | 0x2, "MQSEC_RECEIVE_JOURNAL_MESSAGE": 0x8 | 0x2,
        "MQSEC_QUEUE_GENERIC_READ": 0x20 | 0x20000 | 0x3 | 0xA,
        "MQSEC_QUEUE_GENERIC_WRITE": 0x20 | 0x20000 | 0x4,
        "MQSEC_QUEUE_GENERIC_ALL": 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x10000 | 0x20000 | 0x40000 | 0x80000},
    constants.AuthnLevel: {
        "RPC_C_AUTHN_LEVEL_DEFAULT": 0, "RPC_C_AUTHN_LEVEL_NONE": 1, "RPC_C_AUTHN_LEVEL_CONNECT": 2,
        "RPC_C_AUTHN_LEVEL_CALL": 3, "RPC_C_AUTHN_LEVEL_PKT": 4, "RPC_C_AUTHN_LEVEL_PKT_INTEGRITY": 5,
        "RPC_C_AUTHN_LEVEL_PKT_PRIVACY": 6},
    HRESULT: SPEC_HRESULTS,
    RpcStatus: SPEC_RPC_STATUSES,
}

# [MS-MQRR] 3.1.4 and 6: the opnum of each method.
SPEC_OPNUMS = {"R_GetServerPort": 0, "R_OpenQueue": 2, "R_CloseQueue": 3, "R_CreateCursor": 4, "R_CloseCursor": 5,
               "R_PurgeQueue": 6, "R_StartReceive": 7, "R_CancelReceive": 8, "R_EndReceive": 9,
               "R_MoveMessage": 10, "R_OpenQueueForMove": 11, "R_QMEnlistRemoteTransaction": 12,
               "R_StartTransactionalReceive": 13, "R_SetUserAcknowledgementClass": 14,
               "R_EndTransactionalReceive": 15}


@pytest.mark.parametrize("enum", list(SPEC_TABLES), ids=lambda enum: enum.__name__)
def test_every_member_has_the_value_of_the_specification_table(enum):
    """Each member of the vocabulary's enumerations, and no other, is in the cited table with that value."""
    assert {name: int(member.value) for name, member in enum.__members__.items()} == SPEC_TABLES[enum]


def test_plain_constants():
    """[MS-MQRR] 1.9, 2.1, 3.1.4.1, 6; [MS-MQMQ] 2.2.7, 2.2.18.1.8: identity, ports, sizes, ranges, flags."""
    assert idl.REMOTE_READ_UUID == "1a9134dd-7b39-45ba-ad88-44d01ca47f28" and idl.REMOTE_READ_VERSION == (1, 0)
    assert (idl.DEFAULT_PORT, idl.PORT_STEP) == (2103, 11)
    assert idl.OPNUMS == SPEC_OPNUMS and idl.UNUSED_OPNUM == 1
    assert idl.DW_ACK_RANGE == (1, 2) and idl.CB_PROPAGATION_TOKEN_RANGE == (0, 131072)
    assert (idl.CONTEXT_HANDLE_SIZE, idl.XACTUOW_SIZE, idl.NULL_CONTEXT_HANDLE) == (20, 16, bytes(20))
    assert constants.INFINITE == 0xFFFFFFFF and constants.QUEUE_FORMAT_FLAG_SYSTEM == 0x80
    assert constants.UNLISTED_LOOKUP_ACTIONS == {  # Win32 values MS-MQRR does not list
        "MQ_LOOKUP_PEEK_FIRST": 0x40000014, "MQ_LOOKUP_PEEK_LAST": 0x40000018,
        "MQ_LOOKUP_RECEIVE_FIRST": 0x40000024, "MQ_LOOKUP_RECEIVE_LAST": 0x40000028,
        "MQ_LOOKUP_RECEIVE_ALLOW_PEEK": 0x40000120}


def test_describe_names_both_kinds_of_status():
    assert describe(0xC00E001B) == "MQ_ERROR_IO_TIMEOUT (0xC00E001B)"
    assert describe(0x1C010002) == "NCA_S_OP_RNG_ERROR (0x1C010002)"
    assert describe(0x12345678) == "0x12345678"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


HOSTS_THE_REFERENCE = {"adapters/in_process.py"}
SUITE_SIDE = sorted(path for path in [*ROOT.glob("steps/*.py"), *ROOT.glob("features/*.py"),
                                      *ROOT.glob("adapters/**/*.py"), *ROOT.glob("protocol/*.py")]
                    if path.relative_to(ROOT).as_posix() not in HOSTS_THE_REFERENCE)


@pytest.mark.parametrize("path", SUITE_SIDE, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_suite_side_never_imports_the_reference(path):
    """The judge does not borrow the defendant's dictionary: only the in-process adapter (which hosts the
    reference) imports reference/; protocol/ imports neither side."""
    imported = _imports(path)
    assert not {name for name in imported if name == "mqspec.reference" or name.startswith("mqspec.reference.")}
    if path.parent.name == "protocol":
        assert not {name for name in imported if name.split(".")[0] == "mqspec" and not name.startswith("mqspec.protocol")}
