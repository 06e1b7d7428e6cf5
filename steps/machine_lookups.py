"""The lookup-id machine: the six MQ_LOOKUP_* actions over a queue in every state.

Theory of operation
-------------------
One non-transactional queue holds messages of random priorities; some are
Available, some Locked by a two-phase receive that was started and not ended
(from the front, as request "r1"..., or by a lookup receive that is never
ended), some removed.  Rules name any message ever sent, by its label: its
LookupId is the pSequenceId the machine saw when the message was peeked or
returned (MS-MQRR 3.1.4.7), so the same scenario finds the same messages on any
target.  Expected answers come from steps.model: SeekCurrent, SeekNext and
SeekPrevious over Available messages (MS-MQDMPR 3.1.7.3.2/3.1.7.3.3), nothing
before or after → MQ_ERROR_MESSAGE_NOT_FOUND (D-04), a peek of a Locked message
→ MQ_ERROR_TRANSACTION_USAGE, a receive of one or a removed message →
MQ_ERROR_MESSAGE_NOT_FOUND (D-05, D-06), lookup receives two-phase (D-51).
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import Bundle, initialize, multiple, rule

from mqspec.protocol.constants import Ack, Action
from mqspec.protocol.hresult import HRESULT

from .machines import HANDLE, MAX_SIZE, PRIORITY, MachineBase, hresult_name, step

PEEKS = ["MQ_LOOKUP_PEEK_CURRENT", "MQ_LOOKUP_PEEK_NEXT", "MQ_LOOKUP_PEEK_PREV"]
RECEIVES = ["MQ_LOOKUP_RECEIVE_CURRENT", "MQ_LOOKUP_RECEIVE_NEXT", "MQ_LOOKUP_RECEIVE_PREV"]
SEEK_CLAUSES = {"CURRENT": "MS-MQDMPR:3.1.7.3.3:02", "NEXT": "MS-MQDMPR:3.1.7.3.2:01",
                "PREV": "MS-MQDMPR:3.1.7.3.2:02"}


class LookupMachine(MachineBase):
    machine = "lookups"
    labels = Bundle("labels")
    requests = Bundle("requests")
    clauses = {"start_receive": "MS-MQDMPR:3.1.7.1.10:07", "end_receive": "MS-MQRR:3.1.4.9:04"}

    def __init__(self) -> None:
        super().__init__()
        self.holding: dict[str, str] = {}   # request alias -> the label its start returned

    def by_lookup_id(self, label: str, action: str, request_id: int = 0):
        return self.target.start_receive(self.handle, self.lookup_id(label), 0, Action[action], 0,
                                         request_id or self.request_number(), MAX_SIZE, MAX_SIZE)

    @staticmethod
    def clause_of(action: str, label_state: str) -> str:
        if label_state == "Gone":
            return "MS-MQDMPR:3.1.7.3.3:01"
        return SEEK_CLAUSES[action.rsplit("_", 1)[1]]

    # -- rules ---------------------------------------------------------------------------------
    @initialize(target=labels, priorities=st.lists(PRIORITY, min_size=1, max_size=6))
    @step
    def start_with(self, priorities):
        return self.send(priorities)

    @rule(target=labels, priorities=st.lists(PRIORITY, min_size=1, max_size=3))
    @step
    def send(self, priorities):
        return multiple(*[self.send_message(priority) for priority in priorities])

    @rule(label=labels, action=st.sampled_from(PEEKS))
    @step
    def peek_by_lookup_id(self, label, action):
        clause = self.clause_of(action, self.model.state_of(label))
        out = self.by_lookup_id(label, action)
        self.compare("peek_by_lookup_id", {"label": label, "action": action},
                     [("When", f'the client peeks "{label}" by lookup id with {action} on "{HANDLE}"')],
                     self.model.lookup(action, label), out, clause=clause, refers=(label,))

    @rule(label=labels, action=st.sampled_from(RECEIVES))
    @step
    def receive_by_lookup_id(self, label, action):
        """A whole lookup receive: start, then R_EndReceive RR_ACK."""
        clause = self.clause_of(action, self.model.state_of(label))
        request_id = self.request_number()
        out = self.by_lookup_id(label, action, request_id)
        # The step ends the receive before a Then can look at the message, so the label is a comment.
        got = self.compare("receive_by_lookup_id", {"label": label, "action": action},
                           [("When", f'the client receives "{label}" by lookup id with {action} on "{HANDLE}"')],
                           self.model.lookup_receive(action, label), out, clause=clause, refers=(label,),
                           label_line=False)
        if got is not None:
            self.handed_out(got, "a lookup receive")
            ended = self.target.end_receive(self.handle, Ack.RR_ACK, request_id)
            if ended != HRESULT.MQ_OK:
                raise AssertionError(self.failure(f'R_EndReceive RR_ACK of "{got}" returned {hresult_name(ended)}',
                                                  "MS-MQRR:3.1.4.9:04"))
            self.ledger.release(got, deleted=True)

    @rule(label=labels, action=st.sampled_from(RECEIVES))
    @step
    def lock_by_lookup_id(self, label, action):
        """A lookup receive that is started and never ended: its message stays Locked."""
        clause = self.clause_of(action, self.model.state_of(label))
        alias, request_id = self.new_request("lock")
        out = self.by_lookup_id(label, action, request_id)
        got = self.compare("lock_by_lookup_id", {"label": label, "action": action},
                           [("When", f'the client locks "{label}" by lookup id with {action} on "{HANDLE}"')],
                           self.model.lookup(action, label, alias), out, clause=clause, refers=(label,))
        self.handed_out(got, alias)

    @rule(target=requests)
    @step
    def start_receive(self):
        return self.begin_receive()

    @rule(request=requests, ack=st.sampled_from(["RR_ACK", "RR_NACK"]))
    @step
    def end_receive(self, request, ack):
        status = self.target.end_receive(self.handle, Ack[ack], self.request_ids[request])
        self.compare("end_receive", {"request": request, "ack": ack},
                     [("When", f'the client ends "{request}" with {ack}')],
                     self.model.end_receive(request, ack), status)
        if status == HRESULT.MQ_OK and request in self.holding:
            self.ledger.release(self.holding.pop(request), deleted=ack == "RR_ACK")
