"""The reads machine: two-phase and transactional receives, purges in between.

Theory of operation
-------------------
One transactional queue (so that both kinds of read apply to it) and one handle.
Messages arrive through transactions: a send in a transaction that commits at
once, or a send in a transaction left open, whose message stays Locked and out of
sight until the commit.  Reads take the first Available message, always with a
zero time-out:

* R_StartReceive starts a two-phase receive "rN"; R_EndReceive with RR_ACK removes
  the message, RR_NACK puts it back (MS-MQRR 3.1.4.9, MS-MQDMPR 3.1.7.1.12); ending
  a request that holds nothing gives MQ_ERROR_INVALID_HANDLE or
  MQ_ERROR_INVALID_PARAMETER (or, for a start that failed, MQ_ERROR_MESSAGE_NOT_FOUND
  once: D-52 keep);
* R_StartTransactionalReceive receives "rN" in an open transaction "tN", finished
  by R_EndTransactionalReceive, which leaves the outcome to the transaction (RR_NACK may
  also release the message at once, D-66: the machine learns which by looking)
  (MS-MQRR 3.1.4.13, 3.1.4.15); commit removes, abort puts back (3.1.4.4, 3.1.4.5);
  finishing a transaction twice gives MQ_ERROR_TRANSACTION_SEQUENCE;
* R_CancelReceive of a request: nothing ever waits, so there is nothing to cancel
  (STATUS_NOT_FOUND, or any failure: D-54) and nothing changes;
* R_PurgeQueue removes what is Available; Locked messages go when they are
  released, whatever the outcome (3.1.7.1.7, D-16, D-24: a commit may also keep a purged
  enqueue, and the machine learns which by looking);
* cursors peek and receive in transactions: an abort puts the message back but
  not the cursor, which then skips it (MSDN multiple cursors, C-7);
* lookup peeks name committed messages by pSequenceId with 0x07 in the high byte
  (MS-MQDMPR 3.1.7.1.9, D-65), and see uncommitted or purge-pending ones as
  MQ_ERROR_TRANSACTION_USAGE or MQ_ERROR_MESSAGE_NOT_FOUND (D-05).
No threads: a receive that waits and is cancelled needs a second connection and
belongs to a scenario, not to this machine.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    consumes,
    initialize,
    multiple,
    precondition,
    rule,
)

from mqspec.protocol.constants import Ack, Action
from mqspec.protocol.hresult import HRESULT

from .machine_lookups import SEEK_CLAUSES
from .machine_support import label_and_priority
from .machines import HANDLE, MAX_SIZE, MachineBase, step
from .model import LOCKED


class ReadMachine(MachineBase):
    machine = "reads"
    transactional = True
    transactions = Bundle("transactions")
    finished_transactions = Bundle("finished_transactions")
    requests = Bundle("requests")
    cursors = Bundle("cursors")
    labels = Bundle("labels")
    clauses = {"start_receive": "MS-MQDMPR:3.1.7.1.10:07", "start_transactional_receive": "MS-MQRR:3.1.4.13:14",
               "end_receive": "MS-MQRR:3.1.4.9:04", "end_transactional_receive": "MS-MQRR:3.1.4.15:05",
               "cancel_receive": "MS-MQRR:3.1.4.8:03", "purge": "MS-MQDMPR:3.1.7.1.7:02",
               "commit": "MS-MQDMPR:3.1.4.4:02", "abort": "MS-MQDMPR:3.1.4.5:01",
               "finish_again": "MS-MQDMPR:3.1.4.4:01", "create_cursor": "MS-MQRR:3.1.4.4:02",
               "peek_through_cursor": "MSDN-CURSOR:MULTI:02", "receive_through_cursor": "MSDN-CURSOR:MULTI:02",
               "peek_by_lookup_id": "MS-MQDMPR:3.1.7.1.9:03"}

    def __init__(self) -> None:
        super().__init__()
        self.holding: dict[str, str] = {}          # request alias -> label its start returned
        self.transactional_requests: set[str] = set()
        self.cursor_handles: dict[str, int] = {}
        self.finished_again = 0
        self.purges = 0  # a purge empties the queue: two per example leave the other rules work

    # -- transactions --------------------------------------------------------------------------
    def begin_transaction(self) -> str:
        tx = self.fresh("t")
        self.uows[tx] = self.target.begin_transaction()
        self.model.begin(tx)
        self.note("begin", {"transaction": tx}, [("When", f'the client begins transaction "{tx}"')])
        return tx

    def finish(self, tx: str, commit: bool, action: str | None = None) -> None:
        uow = self.uows[tx]
        caught = self.model.purged_enqueues(tx) if commit else []
        status = self.target.commit_transaction(uow) if commit else self.target.abort_transaction(uow)
        expected = self.model.commit(tx) if commit else self.model.abort(tx)
        outcome = "committed" if commit else "aborted"
        self.compare(action or ("commit" if commit else "abort"), {"transaction": tx},
                     [("When", f'transaction "{tx}" is {outcome}')], expected, status)
        if status == HRESULT.MQ_OK:
            self.ledger.finish(tx, committed=commit)
            if caught:
                self.purged_enqueues_committed(caught)

    def purged_enqueues_committed(self, labels: list[str]) -> None:
        """D-24: a commit removes a purged enqueue (purged) or makes it Available (survives); the status is the
        same, so the machine learns the reading by looking."""
        if "D-24" not in self.model.readings:
            out = self.target.read_queue(self.format_name, MAX_SIZE)
            shown = out.hresult == HRESULT.MQ_OK and any(
                label_and_priority(m.pp_packet_sections)[0] in labels for m in out.messages)
            self.learn_reading("D-24", "survives" if shown else "purged")
            if shown:
                for label in labels:
                    self.model.revive(label)
        if self.model.readings["D-24"] == "survives":
            for label in labels:  # not purged after all: the ledger sees it queued again
                self.ledger.purged.discard(label)
                self.ledger.purge_hit.discard(label)

    # -- rules ---------------------------------------------------------------------------------
    @initialize(target=labels, count=st.integers(0, 4))
    @step
    def start_with(self, count):
        """A few committed messages, so that reads have work from the first step."""
        return self.send(count) if count else multiple()

    @rule(target=labels, count=st.integers(1, 3))
    @step
    def send(self, count=1):
        """Messages sent in a transaction that commits at once."""
        tx = self.begin_transaction()
        sent = [self.send_message(tx=tx) for _ in range(count)]
        self.finish(tx, commit=True)
        return multiple(*sent)

    @precondition(lambda self: len(self.model.transactions) < 3)
    @rule(target=transactions)
    @step
    def begin(self):
        return self.begin_transaction()

    @rule(target=labels, tx=transactions)
    @step
    def send_in_transaction(self, tx):
        return self.send_message(tx=tx)

    @rule(label=labels, action=st.sampled_from(["MQ_LOOKUP_PEEK_CURRENT", "MQ_LOOKUP_PEEK_NEXT",
                                                 "MQ_LOOKUP_PEEK_PREV"]))
    @step
    def peek_by_lookup_id(self, label, action):
        """Lookup ids of transactional messages carry 0x07 in their high byte (MS-MQDMPR 3.1.7.1.9, D-65)."""
        if label not in self.sequence:
            return  # never seen (sent in a transaction not yet committed): no scenario could name it
        out = self.target.start_receive(self.handle, self.lookup_id(label), 0, Action[action], 0,
                                        self.request_number(), MAX_SIZE, MAX_SIZE)
        self.compare("peek_by_lookup_id", {"label": label, "action": action},
                     [("When", f'the client peeks "{label}" by lookup id with {action} on "{HANDLE}"')],
                     self.model.lookup(action, label), out, refers=(label,),
                     clause=SEEK_CLAUSES[action.rsplit("_", 1)[1]])

    @rule(target=requests)
    @step
    def start_receive(self):
        return self.begin_receive()

    @rule(target=requests, tx=transactions)
    @step
    def start_transactional_receive(self, tx):
        alias, request_id = self.new_request()
        self.transactional_requests.add(alias)
        out = self.target.start_transactional_receive(self.handle, 0, 0, Action.MQ_ACTION_RECEIVE, 0, request_id,
                                                      MAX_SIZE, MAX_SIZE, self.uows[tx])
        got = self.compare("start_transactional_receive", {"request": alias, "transaction": tx},
                           [("When", f'the client starts a receive on "{HANDLE}" in transaction "{tx}" as "{alias}"')],
                           self.model.start_transactional_receive(tx, alias), out)
        self.handed_out(got, tx)
        return alias

    @precondition(lambda self: len(self.model.cursors) < 2)
    @rule(target=cursors)
    @step
    def create_cursor(self):
        return self.open_cursor()

    @rule(cursor=cursors, action=st.sampled_from(["current", "next"]))
    @step
    def peek_through_cursor(self, cursor, action):
        code = Action.MQ_ACTION_PEEK_CURRENT if action == "current" else Action.MQ_ACTION_PEEK_NEXT
        out = self.target.start_receive(self.handle, 0, self.cursor_handles[cursor], code, 0, self.request_number(),
                                        MAX_SIZE, MAX_SIZE)
        expected = self.model.peek(cursor) if action == "current" else self.model.peek_next(cursor)
        self.compare("peek_through_cursor", {"cursor": cursor, "action": action},
                     [("When", f'cursor "{cursor}" peeks the {action} message')], expected, out)

    @rule(cursor=cursors, tx=transactions)
    @step
    def receive_through_cursor(self, cursor, tx):
        """A receive through a cursor in a transaction; an abort puts the message back, not the cursor."""
        alias, request_id = self.new_request("x")  # no alias in the scenario: the table form has none
        out = self.target.start_transactional_receive(self.handle, 0, self.cursor_handles[cursor],
                                                      Action.MQ_ACTION_RECEIVE, 0, request_id, MAX_SIZE, MAX_SIZE,
                                                      self.uows[tx])
        got = self.compare("receive_through_cursor", {"cursor": cursor, "transaction": tx},
                           [("When", f'R_StartTransactionalReceive is called on "{HANDLE}" in transaction "{tx}" '
                                     "with:"),
                            ("|", "| hCursor | ulAction          | ulTimeout |"),
                            ("|", f"| {cursor:<7} | MQ_ACTION_RECEIVE | 0         |")],
                           self.model.start_transactional_receive(tx, alias, cursor), out)
        self.handed_out(got, tx)

    @rule(request=requests, ack=st.sampled_from(["RR_ACK", "RR_NACK"]))
    @step
    def end(self, request, ack):
        request_id = self.request_ids[request]
        if request in self.transactional_requests:
            label = self.model.entries.get(request, (None, True))[0]
            status = self.target.end_transactional_receive(self.handle, Ack[ack], request_id)
            self.compare("end_transactional_receive", {"request": request, "ack": ack},
                         [("When", f'the client ends transactional "{request}" with {ack}')],
                         self.model.end_transactional_receive(request, ack), status)
            if status == HRESULT.MQ_OK and ack == "RR_NACK" and label is not None:
                self.nacked_in_transaction(label)
            return
        status = self.target.end_receive(self.handle, Ack[ack], request_id)
        self.compare("end_receive", {"request": request, "ack": ack},
                     [("When", f'the client ends "{request}" with {ack}')], self.model.end_receive(request, ack),
                     status)
        if status == HRESULT.MQ_OK and request in self.holding:
            self.ledger.release(self.holding.pop(request), deleted=ack == "RR_ACK")

    def nacked_in_transaction(self, label: str) -> None:
        """D-66 leaves RR_NACK in a transaction two readings, told apart by whether the message shows again."""
        if "D-66" not in self.model.readings and self.model.state_of(label) == LOCKED:
            out = self.target.read_queue(self.format_name, MAX_SIZE)
            shown = out.hresult == HRESULT.MQ_OK and any(
                label_and_priority(m.pp_packet_sections)[0] == label for m in out.messages)
            self.learn_reading("D-66", "released" if shown else "stays-locked")
            if shown:
                self.model.release_from_transaction(label)
        if self.model.readings.get("D-66") == "released":
            self.ledger.release(label, deleted=False)

    @rule(request=requests)
    @step
    def cancel(self, request):
        status = self.target.cancel_receive(self.handle, self.request_ids[request])
        self.compare("cancel_receive", {"request": request}, [("When", f'the client cancels "{request}"')],
                     self.model.cancel_receive(request), status)

    @precondition(lambda self: self.purges < 2)
    @rule()
    @step
    def purge(self):
        self.purges += 1
        status = self.target.purge_queue(self.handle)
        self.compare("purge", {}, [("When", f'R_PurgeQueue is called on "{HANDLE}"')], self.model.purge(), status)
        if status == HRESULT.MQ_OK:
            self.ledger.purge()

    @rule(target=finished_transactions, tx=consumes(transactions))
    @step
    def commit(self, tx):
        self.finish(tx, commit=True)
        return tx

    @rule(target=finished_transactions, tx=consumes(transactions))
    @step
    def abort(self, tx):
        self.finish(tx, commit=False)
        return tx

    @precondition(lambda self: self.finished_again < 2)
    @rule(tx=finished_transactions, commit=st.booleans())
    @step
    def finish_again(self, tx, commit):
        self.finished_again += 1
        self.finish(tx, commit, action="finish_again")

