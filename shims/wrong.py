"""Wrong clients the client suite must catch: `python -m mqspec.shims.wrong NAME`.

Each variant is mqspec's own client (shims/mqrr.py) with one plausible misreading
of one client clause of MS-MQRR, made at one of the client's seams: `clause` is the
clause it misreads, `breaks` the conditions of the client rules it breaks
(steps/client_conditions.py).  The first ones here were written one per clause; those
of shims/wrong_conditions.py and shims/wrong_sequences.py break the other conditions of
the rules, one each.  The
suite must fail at least one scenario for every variant (tests/test_client_suite.py
proves it, names the scenarios that caught each, and checks that every condition of
every rule has a variant); a variant it passes shows a client clause the scenarios
do not really check.
"""

from __future__ import annotations

import sys
import uuid

from mqspec.protocol.constants import Ack, MessageClass
from mqspec.protocol.hresult import HRESULT

from .mqrr import VERSION, OpenQueue, Refused, RemoteReadClient, main
from .wrong_conditions import VARIANTS as CONDITION_VARIANTS
from .wrong_sequences import VARIANTS as SEQUENCE_VARIANTS


class ReceiveNeverEnded(RemoteReadClient):
    """Takes R_StartReceive's answer for the whole receive and never ends it (MS-MQRR 3.1.4.7:01)."""
    clause = "MS-MQRR:3.1.4.7:01"   # the clause it misreads: its scenarios must catch it
    breaks = ("paired_every_receive:ended",)

    def end(self, opened, transactional, ack, request_id):
        return HRESULT.MQ_OK


class RequestIdReused(RemoteReadClient):
    """Numbers every request 1, as if dwRequestId only had to differ between handles (MS-MQRR 3.1.4.7:05)."""
    clause = "MS-MQRR:3.1.4.7:05"
    breaks = ("request_ids_unique:running",)

    def new_request_id(self):
        return 1


class AckZero(RemoteReadClient):
    """Takes dwAck for a boolean and sends 0 for 'yes, remove it' (MS-MQRR 3.1.4.9:03)."""
    clause = "MS-MQRR:3.1.4.9:03"
    breaks = ("end_acks:ack",)

    def end(self, opened, transactional, ack, request_id):
        return super().end(opened, transactional, 0 if ack == Ack.RR_ACK else ack, request_id)


class AckDespiteBadPacket(RemoteReadClient):
    """Acknowledges a packet it could not rebuild, so the message is lost (MS-MQRR 3.2.4.4.1:01)."""
    clause = "MS-MQRR:3.2.4.4.1:01"
    breaks = ("operation_sequences:ack",)

    def rebuild_message(self, out):
        return super().rebuild_message(out)[0], Ack.RR_ACK


class StrictReader(RemoteReadClient):
    """Refuses a packet whose ignored trailer fields are not zero (MS-MQRR 2.2.5.2:06)."""
    clause = "MS-MQRR:2.2.5.2:06"
    breaks = ()   # no rule: the scenario's "the application gets" catches it

    def rebuild_message(self, out):
        message, ack = super().rebuild_message(out)
        last = out["ppPacketSections"][-1].p_section_buffer if out["ppPacketSections"] else b""
        if len(last) >= 188 and last[-188 + 9:-188 + 12] != bytes(3):   # ExtensionHeader.Reserved
            return None, Ack.RR_NACK
        return message, ack


class ClosesWithReadsPending(RemoteReadClient):
    """Leaves it to the server to cancel what waits on a queue or cursor it closes (MS-MQRR 3.2.4.13:01)."""
    clause = "MS-MQRR:3.2.4.13:01"
    breaks = ("closed_waits_first:waits",)

    def cancel_waits(self, queue, cursor=None):
        pass


class ClosedHandleReused(RemoteReadClient):
    """Keeps the handle of a queue it closed and opens the same queue again with it (MS-MQRR 2.2.4:01)."""
    clause = "MS-MQRR:2.2.4:01"
    breaks = ("only_handles_from_opening:not-closed",)

    def __init__(self, *args):
        super().__init__(*args)
        self.closed: dict[str, OpenQueue] = {}

    def close(self, queue):
        self.closed[self.queues[queue].format_name] = self.queues[queue]
        return super().close(queue)

    def open(self, queue, format_name, access, share):
        if format_name in self.closed:
            self.queues[queue] = self.closed.pop(format_name)
            self.queues[queue].cursors = {}
            return {"status": HRESULT.MQ_OK}
        return super().open(queue, format_name, access, share)


class NoEnlist(RemoteReadClient):
    """Receives in a transaction without enlisting it, as if R_StartTransactionalReceive did that (MS-MQRR
    3.1.4.12:02)."""
    clause = "MS-MQRR:3.1.4.12:02"
    breaks = ("enlisted_before_use:receive",)

    def read(self, queue, timeout, **more):
        self.reading = True
        try:
            return super().read(queue, timeout, **more)
        finally:
            self.reading = False

    def enlist(self, transaction, format_name):
        if not getattr(self, "reading", False):
            return super().enlist(transaction, format_name)   # a move's transaction is enlisted
        if transaction not in self.transactions:
            raise Refused(HRESULT.MQ_ERROR_TRANSACTION_USAGE)
        return self.transactions[transaction]


class MoveWithoutOpenForMove(RemoteReadClient):
    """Opens a move's destination with R_OpenQueue and passes its handle as the move context (MS-MQRR
    3.1.4.11:01)."""
    clause = "MS-MQRR:3.1.4.11:01"
    breaks = ("moves_through_move_contexts:for-move", "operation_sequences:move-open-for-move")

    def move_context(self, to):
        status, out = self.call("R_OpenQueue", **self.open_args(to, 0x4, 0))
        if status != HRESULT.MQ_OK:
            raise Refused(status)
        return int.from_bytes(out["pphContext"][4:12], "little"), out["pphContext"]


class CallsOpnumOne(RemoteReadClient):
    """Sends opnum 1 before opening a queue, as an older interface did (MS-MQRR 3.1.4:03)."""
    clause = "MS-MQRR:3.1.4:03"
    breaks = ("never_opnum_1:opnum-1",)

    def open(self, queue, format_name, access, share):
        self.pool.call(1, bytes(20), 30.0)
        return super().open(queue, format_name, access, share)


class ConstantTransactionId(RemoteReadClient):
    """Makes every internal transaction with the same XACTUOW (MS-MQRR 2.2.8:02)."""
    clause = "MS-MQRR:2.2.8:02"
    breaks = ("fresh_transaction_ids:unique",)

    def new_transaction_id(self):
        return bytes(range(1, 17))


class VersionsInTheWrongFields(RemoteReadClient):
    """Puts its build number in Major and its major version in BuildNumber (MS-MQRR 3.1.4.2:07)."""
    clause = "MS-MQRR:3.1.4.2:07"
    breaks = ("versions:version",)

    def open_args(self, format_name, access, share):
        args = super().open_args(format_name, access, share)
        args.update(Major=VERSION[2] & 0xFF, BuildNumber=VERSION[0] + 1)
        return args


class NewClientIdPerOpen(RemoteReadClient):
    """Makes a new pClientId for every open, as if it identified the call (MS-MQRR 3.1.4.2:03, D-84)."""
    clause = "MS-MQRR:3.1.4.2:03"
    breaks = ("client_id:one",)

    def open_args(self, format_name, access, share):
        return dict(super().open_args(format_name, access, share), pClientId=uuid.uuid4().bytes_le)


class WorkgroupInverted(RemoteReadClient):
    """Says it is in a domain while it is in a workgroup (MS-MQRR 3.1.4.2:08)."""
    clause = "MS-MQRR:3.1.4.2:08"
    breaks = ("workgroup:workgroup",)

    def open_args(self, format_name, access, share):
        return dict(super().open_args(format_name, access, share), fWorkgroup=0)


class FailedCursorKept(RemoteReadClient):
    """Keeps the hCursor of an R_CreateCursor that failed (MS-MQRR 3.1.4.4:03)."""
    clause = "MS-MQRR:3.1.4.4:03"
    breaks = ("ignored_failed_outputs:failed-cursor",)

    def cursor(self, queue, cursor):
        opened = self.queue(queue)
        status, out = self.call("R_CreateCursor", phContext=opened.handle)
        if "phCursor" in out:
            opened.cursors[cursor] = out["phCursor"]
        return {"status": status}


class NoAccessCheck(RemoteReadClient):
    """Leaves the access check to the server: purges and receives through a handle opened to peek (MS-MQRR
    3.1.4.6:01, D-83)."""
    clause = "MS-MQRR:3.1.4.6:01"
    breaks = ("access_allows:receive-access",)

    def permits(self, opened):
        return True


class WrongAcknowledgementClass(RemoteReadClient):
    """Rejects with MQMSG_CLASS_NACK_Q_DELETED, a neighbouring NACK class (MS-MQRR 3.1.4.14:03)."""
    clause = "MS-MQRR:3.1.4.14:03"
    breaks = ("acknowledgement_class:class", "operation_sequences:reject-class")

    reject_class = MessageClass.MQMSG_CLASS_NACK_Q_DELETED


class NonTransactionalEnd(RemoteReadClient):
    """Ends a transactional receive with R_EndReceive, the End of its opnum-7 twin (MS-MQRR 3.1.4.13:01)."""
    clause = "MS-MQRR:3.1.4.13:01"
    breaks = ("paired_every_receive:kind", "ends_match_their_start:end-kind")

    def end(self, opened, transactional, ack, request_id):
        return super().end(opened, False, ack, request_id)


VARIANTS = {
    "receive-never-ended": ReceiveNeverEnded, "request-id-reused": RequestIdReused, "ack-zero": AckZero,
    "ack-despite-bad-packet": AckDespiteBadPacket, "strict-reader": StrictReader,
    "closes-with-reads-pending": ClosesWithReadsPending, "closed-handle-reused": ClosedHandleReused,
    "no-enlist": NoEnlist, "move-without-open-for-move": MoveWithoutOpenForMove, "calls-opnum-1": CallsOpnumOne,
    "constant-transaction-id": ConstantTransactionId, "versions-in-the-wrong-fields": VersionsInTheWrongFields,
    "new-client-id-per-open": NewClientIdPerOpen, "workgroup-inverted": WorkgroupInverted,
    "failed-cursor-kept": FailedCursorKept, "no-access-check": NoAccessCheck,
    "wrong-acknowledgement-class": WrongAcknowledgementClass, "non-transactional-end": NonTransactionalEnd,
    **CONDITION_VARIANTS, **SEQUENCE_VARIANTS,   # one condition of one rule each (steps/client_conditions.py)
}


def listing() -> str:
    """Each wrong client: its name, the clause it misreads, and how (its docstring's first sentence)."""
    return "\n".join(f"{name:<28} {variant.clause:<22} {' '.join(variant.__doc__.split())}"
                     for name, variant in VARIANTS.items())


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print(listing())
        sys.exit(0)
    if len(sys.argv) != 2 or sys.argv[1] not in VARIANTS:
        print(f"usage: python -m mqspec.shims.wrong NAME|--list; NAME is one of {', '.join(VARIANTS)}",
              file=sys.stderr)
        sys.exit(2)
    sys.exit(main(VARIANTS[sys.argv[1]], f"mqspec-wrong-{sys.argv[1]}"))
