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
  MQ_ERROR_INVALID_PARAMETER;
* R_StartTransactionalReceive receives "rN" in an open transaction "tN", finished
  by R_EndTransactionalReceive, which leaves the outcome to the transaction
  (MS-MQRR 3.1.4.13, 3.1.4.15); commit removes, abort puts back (3.1.4.4, 3.1.4.5);
  finishing a transaction twice gives MQ_ERROR_TRANSACTION_SEQUENCE;
* R_CancelReceive of a request: nothing ever waits, so there is nothing to cancel
  (STATUS_NOT_FOUND, D-54) and nothing changes;
* R_PurgeQueue removes what is Available; Locked messages go when they are
  released, whatever the outcome (3.1.7.1.7, D-16, D-24).
No threads: a receive that waits and is cancelled needs a second connection and
belongs to a scenario, not to this machine.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, consumes, initialize, precondition, rule

from adapters import Ack, Action, HRESULT

from .machines import HANDLE, MAX_SIZE, QUEUE, MachineBase


class ReadMachine(MachineBase):
    machine = "reads"
    transactional = True
    transactions = Bundle("transactions")
    finished_transactions = Bundle("finished_transactions")
    requests = Bundle("requests")
    clauses = {"start_receive": "MS-MQDMPR:3.1.7.1.10:07", "start_transactional_receive": "MS-MQRR:3.1.4.13:14",
               "end_receive": "MS-MQRR:3.1.4.9:04", "end_transactional_receive": "MS-MQRR:3.1.4.15:05",
               "cancel_receive": "MS-MQRR:3.1.4.8:03", "purge": "MS-MQDMPR:3.1.7.1.7:02",
               "commit": "MS-MQDMPR:3.1.4.4:02", "abort": "MS-MQDMPR:3.1.4.5:01",
               "finish_again": "MS-MQDMPR:3.1.4.4:01", "peek_front": "MS-MQDMPR:3.1.7.1.15:02"}

    def __init__(self) -> None:
        super().__init__()
        self.holding: dict[str, str] = {}          # request alias -> label its start returned
        self.transactional_requests: set[str] = set()
        self.finished_again = 0
        self.purges = 0  # a purge empties the queue: two per example leave the other rules work

    # -- transactions --------------------------------------------------------------------------
    def begin_transaction(self) -> str:
        tx = self.fresh("t")
        self.uows[tx] = self.target.begin_transaction()
        self.model.begin(tx)
        self.note("begin", {"transaction": tx}, [("When", f'transaction "{tx}" is begun')])
        return tx

    def finish(self, tx: str, commit: bool, action: str | None = None) -> None:
        uow = self.uows[tx]
        status = self.target.commit_transaction(uow) if commit else self.target.abort_transaction(uow)
        expected = self.model.commit(tx) if commit else self.model.abort(tx)
        outcome = "committed" if commit else "aborted"
        self.compare(action or ("commit" if commit else "abort"), {"transaction": tx},
                     [("When", f'transaction "{tx}" is {outcome}')], expected, status)
        if status == HRESULT.MQ_OK:
            self.ledger.finish(tx, committed=commit)

    # -- rules ---------------------------------------------------------------------------------
    @initialize(count=st.integers(0, 4))
    def start_with(self, count):
        """A few committed messages, so that reads have work from the first step."""
        if count:
            self.send(count)

    @rule(count=st.integers(1, 3))
    def send(self, count=1):
        """Messages sent in a transaction that commits at once."""
        tx = self.begin_transaction()
        for _ in range(count):
            self.send_message(tx=tx)
        self.finish(tx, commit=True)

    @precondition(lambda self: len(self.model.transactions) < 3)
    @rule(target=transactions)
    def begin(self):
        return self.begin_transaction()

    @rule(tx=transactions)
    def send_in_transaction(self, tx):
        self.send_message(tx=tx)

    @rule(target=requests)
    def start_receive(self):
        alias, request_id = self.new_request()
        out = self.target.start_receive(self.handle, 0, 0, Action.MQ_ACTION_RECEIVE, 0, request_id, MAX_SIZE,
                                        MAX_SIZE)
        got = self.compare("start_receive", {"request": alias},
                           [("When", f'the client starts a receive on "{HANDLE}" as "{alias}"')],
                           self.model.start_receive(alias), out)
        self.handed_out(got, alias)
        if got is not None:
            self.holding[alias] = got
        return alias

    @rule(target=requests, tx=transactions)
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

    @rule(request=requests, ack=st.sampled_from(["RR_ACK", "RR_NACK"]))
    def end(self, request, ack):
        request_id = self.request_ids[request]
        if request in self.transactional_requests:
            status = self.target.end_transactional_receive(self.handle, Ack[ack], request_id)
            self.compare("end_transactional_receive", {"request": request, "ack": ack},
                         [("When", f'the client ends transactional "{request}" with {ack}')],
                         self.model.end_transactional_receive(request, ack), status)
            return
        status = self.target.end_receive(self.handle, Ack[ack], request_id)
        self.compare("end_receive", {"request": request, "ack": ack},
                     [("When", f'the client ends "{request}" with {ack}')], self.model.end_receive(request, ack),
                     status)
        if status == HRESULT.MQ_OK and request in self.holding:
            self.ledger.release(self.holding.pop(request), deleted=ack == "RR_ACK")

    @rule(request=requests)
    def cancel(self, request):
        status = self.target.cancel_receive(self.handle, self.request_ids[request])
        self.compare("cancel_receive", {"request": request}, [("When", f'the client cancels "{request}"')],
                     self.model.cancel_receive(request), status)

    @precondition(lambda self: self.purges < 2)
    @rule()
    def purge(self):
        self.purges += 1
        status = self.target.purge_queue(self.handle)
        self.compare("purge", {}, [("When", f'the client purges "{HANDLE}"')], self.model.purge(), status)
        if status == HRESULT.MQ_OK:
            self.ledger.purge()

    @rule(target=finished_transactions, tx=consumes(transactions))
    def commit(self, tx):
        self.finish(tx, commit=True)
        return tx

    @rule(target=finished_transactions, tx=consumes(transactions))
    def abort(self, tx):
        self.finish(tx, commit=False)
        return tx

    @precondition(lambda self: self.finished_again < 2)
    @rule(tx=finished_transactions, commit=st.booleans())
    def finish_again(self, tx, commit):
        self.finished_again += 1
        self.finish(tx, commit, action="finish_again")


__all__ = ["ReadMachine", "QUEUE"]
