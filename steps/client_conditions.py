"""The conditions of each client rule (client_rules.RULES), each a thing the rule checks apart.

Theory of operation
-------------------
A rule of client_rules.py often checks more than one thing: an End names its Start by
the handle and by the dwRequestId; a handle is non-NULL, came from an open, is not closed
and belongs to the call's association.  A wrong client that breaks one of them proves
that one only, so every condition is listed here under its rule's sentence, named
`rule:condition` (the rule by its function's name), and every one is broken alone by a
wrong client of mqspec.shims.wrong (whose `breaks` names the conditions it breaks):
tests/test_client_suite.py checks that each condition has one and that each is caught.  A
condition no client can break on the wire is in UNBREAKABLE with the reason, as equivalent
mutants are.
"""

from __future__ import annotations

from .client_rules import RULES

CONDITIONS: dict[str, dict[str, str]] = {
    "never called opnum 1": {
        "opnum-1": "no call has opnum 1 (MS-MQRR:3.1.4:03)"},
    "sent only request stubs that decode in the transfer syntax it bound": {
        "decodes": "every request stub decodes as its method's arguments (MS-MQRR:2.1:04)"},
    "used only live handles that opening a queue gave it": {
        "not-null": "the context handle is not NULL",
        "given": "an R_OpenQueue or R_OpenQueueForMove that succeeded gave it",
        "not-closed": "no R_CloseQueue closed it before",
        "association": "it is used on the association group it was given on (MS-MQRR 2.2.4)"},
    "called R_OpenQueue for every handle it read, cursored, purged or ended with": {
        "r-open-queue": "a handle read, cursored, purged, moved from or ended with came from R_OpenQueue, not "
                        "R_OpenQueueForMove (MS-MQRR:3.1.4.2:01, 3.1.4.10:02)"},
    "received, purged, moved and rejected only through handles opened with RECEIVE_ACCESS": {
        "receive-access": "every receiving call goes through a handle opened with RECEIVE_ACCESS"},
    "used only cursors it had created and not closed": {
        "of-its-handle": "R_CreateCursor gave the hCursor on the handle it is used with",
        "not-closed": "no R_CloseCursor closed it before"},
    "never used the outputs of a call that failed": {
        "failed-cursor": "no hCursor a failed R_CreateCursor returned (MS-MQRR:3.1.4.4:03)",
        "failed-sequence-id": "no LookupId from the pSequenceId of a failed Start*Receive (MS-MQRR:3.1.4.7:15)"},
    "ended every receive that returned a message, by its handle and dwRequestId": {
        "ended": "an End follows every receiving Start that returned a message",
        "handle": "the End names the Start's handle",
        "request-id": "the End names the Start's dwRequestId",
        "kind": "the End is the Start's own (R_EndTransactionalReceive for R_StartTransactionalReceive)"},
    "never reused a dwRequestId on a handle while it was outstanding": {
        "running": "not while the Start that used it still waits",
        "not-ended": "not after that Start returned a message and before its End"},
    "sent only RR_ACK or RR_NACK as dwAck": {
        "ack": "dwAck is RR_ACK (2) or RR_NACK (1)"},
    "ended and cancelled with the handle and dwRequestId of a start": {
        "end-handle": "an End names the handle of a Start of its kind",
        "end-request-id": "an End names the dwRequestId of a Start of its kind",
        "end-kind": "an End is of its Start's kind",
        "cancel-handle": "an R_CancelReceive names the handle of a Start",
        "cancel-request-id": "an R_CancelReceive names the dwRequestId of a Start"},
    "moved only to live move contexts R_OpenQueueForMove gave it": {
        "for-move": "ullContextTo is a pMoveContext of R_OpenQueueForMove",
        "live": "its handle was not closed before the move",
        "association": "its handle was given on the association group of the move"},
    "moved with a transaction id of zeros or one it had enlisted": {
        "not-null": "pTransactionId is not NULL",
        "zeros-or-enlisted": "pTransactionId is zeros, or an XACTUOW R_QMEnlistRemoteTransaction enlisted before"},
    "enlisted each transaction before using it": {
        "receive": "before an R_StartTransactionalReceive with it",
        "move": "before an R_MoveMessage with it"},
    "enlisted with a transaction id and a propagation token of the size it gave": {
        "decodes": "the R_QMEnlistRemoteTransaction stub decodes",
        "transaction-id": "pTransactionId is not zeros",
        "token": "pbPropagationToken is not empty",
        "token-size": "cbPropagationToken is the token's size in bytes"},
    "enlisted naming the queue the transaction was used with": {
        "queue": "pQueueFormat names a queue a receive or move of the transaction used"},
    "set acknowledgement classes only as MS-MQRR 3.1.4.14 allows": {
        "class": "usClass is 0 or MQMSG_CLASS_NACK_RECEIVE_REJECTED (MS-MQRR:3.1.4.14:03)",
        "received": "LookupId names a message a transactional receive on that handle returned (3.1.4.14:02)",
        "after-end": "after that receive's R_EndTransactionalReceive (3.1.4.14:01)",
        "before-commit": "before its transaction was committed or aborted (3.1.4.14:01)"},
    "opened queues for moving with MQ_MOVE_ACCESS and MQ_DENY_NONE": {
        "access": "dwAccess is MQ_MOVE_ACCESS",
        "share": "dwShareMode is MQ_DENY_NONE"},
    "identified itself with one non-null GUID": {
        "not-null": "pClientId is not the null GUID",
        "one": "every open sends the same pClientId (D-84)"},
    "sent its own version numbers": {
        "version": "Major, Minor and BuildNumber are the version the shim says"},
    "said whether it is in a workgroup": {
        "workgroup": "fWorkgroup is what the shim says"},
    "said whether it is a routing server": {
        "routing": "fNonRoutingServer is FALSE for a routing server, TRUE otherwise"},
    "made a new XACTUOW for each transaction": {
        "unique": "no two transactions share an XACTUOW",
        "not-zero": "no XACTUOW is all zeros"},
    "opened each queue once, as the application asked": {
        "once": "one R_OpenQueue per open the application asks",
        "name": "with the application's format name",
        "access": "with the application's access",
        "share": "with the application's share mode"},
    "used each queue's own handle for it": {
        "own-handle": "an operation on a queue goes through that queue's handle"},
    "made the calls of each operation as MS-MQRR 3.2.4 gives them": {
        "one-start": "a read makes one Start*Receive",
        "start-method": "R_StartTransactionalReceive for a receive in a transaction, R_StartReceive otherwise",
        "transaction-id": "a transactional receive passes its transaction's XACTUOW",
        "cursor": "hCursor is given for a cursor's read and only then",
        "lookup-id": "LookupId is the application's (0 without a lookup)",
        "action": "a peek's ulAction peeks, a receive's receives",
        "cursor-next": "a cursor's peek at the next message is MQ_ACTION_PEEK_NEXT, at the current one PEEK_CURRENT",
        "timeout": "ulTimeout is the application's",
        "max-body": "dwMaxBodySize is what the application wants (MS-MQRR:3.1.4.7:06, 3.1.4.13:05)",
        "max-compound": "dwMaxCompoundMessageSize is what the application wants (MS-MQRR:3.1.4.7:07)",
        "peek-not-ended": "no End after a peek",
        "end-before-answer": "a receive's End comes before the application is answered",
        "ack": "dwAck is RR_ACK, or RR_NACK when the packet could not be rebuilt (3.2.4.4.1)",
        "one-call": "purge, cursor, close, reject, move and cancel each make their one call",
        "reject-class": "a reject sends usClass MQMSG_CLASS_NACK_RECEIVE_REJECTED",
        "reject-lookup-id": "a reject names the application's LookupId",
        "move-open-for-move": "a move opens its destination with R_OpenQueueForMove first",
        "move-transaction-id": "a move passes its transaction's XACTUOW, zeros without one",
        "move-lookup-id": "a move names the application's LookupId",
        "cancel-request": "a cancel names the waiting read's handle and dwRequestId"},
    "cancelled waiting reads and closed cursors before closing": {
        "waits": "reads waiting on a queue or cursor are cancelled before it is closed",
        "cursors": "a queue's cursors are closed before the queue"},
}

# rule:condition -> why no client can break it on the wire (so no wrong client is owed)
UNBREAKABLE: dict[str, str] = {
    "move_transaction_ids:not-null": (
        "R_MoveMessage's pTransactionId is a top-level [in] XACTUOW*, a [ref] pointer (MS-MQRR 3.1.4.10): NDR gives "
        "it no referent id, so a NULL cannot be sent; a stub that tried would not decode (the stubs rule)"),
    "enlistment_arguments:token-size": (
        "the judge decodes pbPropagationToken as [size_is(cbPropagationToken)] and refuses a stub whose array "
        "max_count is not cbPropagationToken or whose token is shorter (MS-RPCE 2.2.5.3.4.2), so a decoded record's "
        "token is always cbPropagationToken bytes; a client that gets the size wrong sends a stub that does not "
        "decode, which the rule's `decodes` condition (and the stubs rule) catch"),
}


def condition_names() -> dict[str, str]:
    """`rule:condition` (the rule by its function's name) -> the rule's sentence, in the order of RULES."""
    return {f"{RULES[sentence].function.__name__}:{name}": sentence
            for sentence in RULES for name in CONDITIONS[sentence]}
