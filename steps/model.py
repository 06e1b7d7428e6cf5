"""A small, independent model of one MSMQ queue, for the stateful machines.

Theory of operation
-------------------
The model is written from the specification digests (MS-MQDMPR 3.1.1.2, 3.1.1.11,
3.1.4.4/5, 3.1.7.1.7-15, 3.1.7.3.2/3, 3.2.7; MS-MQRR 3.1.4.7-9, 3.1.4.13, 3.1.4.15)
and from spec/decisions.md; it shares nothing with reference/.  It predicts, for
every operation, the status a conformant queue manager returns and the label of
the message it hands back.  Status codes are HRESULT *names* (strings), so the
model needs no table of numbers and reads like the specification.

* A message has a label, a priority, an arrival number and a state: Available,
  Locked, PurgePending, or Gone (removed from the list).  Its place in the queue
  is its key (-priority, arrival): higher priority first, then arrival order
  (MS-MQDMPR 3.1.1.2).  Gone messages keep their key, so a cursor can rest on
  one and move on from its place (decision D-06; MSDN "multiple cursors").
* Seeking forward from a key gives the first Available message with a larger key;
  backwards, the last Available one with a smaller key.  Peeks see nothing more
  than receives do: no message here sets AllowPeekWhenLocked (3.1.7.3.2).
* A cursor is (position, state).  The position is START (before the first
  message, D-01), or the key of a message.  The state is Unread or Read; the Wait
  states never last, because every call uses a zero time-out: a read that would
  wait fails at once (MQ_ERROR_IO_TIMEOUT; a cursor receive with nothing to take:
  by D-03 MQ_ERROR_MESSAGE_NOT_FOUND or MQ_ERROR_IO_TIMEOUT) and Wait Time Expired
  leaves the cursor Unread at its place (3.2.7.6).
* Where an open decision of spec/decisions.md lets a server choose, the model
  predicts every reading's outcome (`Outcome.options`) until the target has shown
  one, and from then on holds the target to it (`readings`): a server may take any
  reading, but only one.
* Receives are two-phase (MS-MQRR 3.1.4.7, D-51): a start locks the message and
  files a pending entry under the request's name; R_EndReceive ACK removes it,
  NACK makes it Available again (3.1.7.1.12).  A failed receive start leaves no
  entry, or (D-52 keep) an entry with no message that an End removes with
  MQ_ERROR_MESSAGE_NOT_FOUND; the model keeps such requests in `failed`.
* Transactions (3.1.4.4, 3.1.4.5): a receive in a transaction (through a cursor or
  not) locks the message and records a Dequeue operation; a send in a transaction
  inserts the message Locked, with priority 0 (D-65), and records an Enqueue.
  Cursors are never moved back by an abort (MSDN multiple cursors).  Commit
  removes received messages and makes sent ones Available; abort does the reverse.
  Purge (3.1.7.1.7) removes the Available messages and marks Locked ones
  PurgePending: they go when released, whatever the outcome (3.1.7.1.12, D-16,
  D-24).
"""

from __future__ import annotations

from dataclasses import dataclass, field

AVAILABLE, LOCKED, PURGE_PENDING, GONE = "Available", "Locked", "PurgePending", "Gone"
UNREAD, READ = "Unread", "Read"
START = (-99, -1)  # before every key: (-priority, arrival) with priority <= 7

OK = "MQ_OK"
IO_TIMEOUT = "MQ_ERROR_IO_TIMEOUT"
NOT_FOUND = "MQ_ERROR_MESSAGE_NOT_FOUND"
ALREADY_RECEIVED = "MQ_ERROR_MESSAGE_ALREADY_RECEIVED"
ILLEGAL_CURSOR_ACTION = "MQ_ERROR_ILLEGAL_CURSOR_ACTION"
TRANSACTION_USAGE = "MQ_ERROR_TRANSACTION_USAGE"
TRANSACTION_SEQUENCE = "MQ_ERROR_TRANSACTION_SEQUENCE"
INVALID_HANDLE = "MQ_ERROR_INVALID_HANDLE"
INVALID_PARAMETER = "MQ_ERROR_INVALID_PARAMETER"
STATUS_NOT_FOUND = "STATUS_NOT_FOUND"
STATUS_INVALID_HANDLE = "STATUS_INVALID_HANDLE"
ANY_FAILURE = "any other failure"  # a reading that names no status: any failing HRESULT, no message

LOOKUP_ACTIONS = {  # MS-MQRR 3.1.4.7 ulAction -> (peek?, seek direction)
    "MQ_LOOKUP_PEEK_CURRENT": (True, "current"), "MQ_LOOKUP_PEEK_NEXT": (True, "next"),
    "MQ_LOOKUP_PEEK_PREV": (True, "previous"), "MQ_LOOKUP_RECEIVE_CURRENT": (False, "current"),
    "MQ_LOOKUP_RECEIVE_NEXT": (False, "next"), "MQ_LOOKUP_RECEIVE_PREV": (False, "previous"),
}


@dataclass(frozen=True)
class Outcome:
    """What an operation returns: a status name and, on success, the message's label.

    While the target has not shown its reading of `decision`, `options` holds the outcome of
    each reading (the first is this outcome)."""
    hresult: str
    label: str | None = None
    decision: str | None = None
    options: tuple[tuple[str, "Outcome"], ...] = ()

    def plain(self) -> "Outcome":
        return Outcome(self.hresult, self.label)

    def matches(self, actual: "Outcome") -> bool:
        """`actual` is this outcome; ANY_FAILURE stands for every failing status ([MS-ERREF] 2.1)."""
        if self.hresult != ANY_FAILURE:
            return actual == self.plain()
        name = actual.hresult
        return actual.label is None and name != OK and (not name.startswith("0x") or int(name, 16) >= 0x80000000)


@dataclass
class Message:
    label: str
    priority: int
    arrival: int
    state: str = AVAILABLE
    holder: tuple[str, str] | None = None  # ("request", name), ("tx-receive", tx) or ("tx-send", tx)
    fate: str | None = None                # once Gone: "received", "purged" or "aborted"

    @property
    def key(self) -> tuple[int, int]:
        return (-self.priority, self.arrival)


@dataclass
class Cursor:
    position: tuple[int, int] = START
    state: str = UNREAD


@dataclass
class QueueModel:
    transactional: bool = False
    messages: dict[str, Message] = field(default_factory=dict)
    cursors: dict[str, Cursor] = field(default_factory=dict)
    entries: dict[str, tuple[str, bool]] = field(default_factory=dict)  # request -> (label, transactional)
    failed: set[str] = field(default_factory=set)  # receive starts that failed: entries only under D-52 keep
    transactions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # tx -> [(op, label)]
    arrivals: int = 0
    anonymous: int = 0
    readings: dict[str, str] = field(default_factory=dict)   # open decision -> the reading the target showed

    def by(self, decision: str, outcomes: dict[str, Outcome]) -> Outcome:
        """The outcome of the target's reading of `decision`, or every reading's while it has shown none."""
        if decision in self.readings:
            return outcomes[self.readings[decision]]
        first = next(iter(outcomes.values()))
        return Outcome(first.hresult, first.label, decision, tuple(outcomes.items()))

    # -- what the queue holds --------------------------------------------------------------
    def in_list(self) -> list[Message]:
        """Every message still in the MessagePositionList, front to back."""
        return sorted((m for m in self.messages.values() if m.state != GONE), key=lambda m: m.key)

    def available(self) -> list[str]:
        """Labels a peek walk sees (Target.read_queue), front to back."""
        return [m.label for m in self.in_list() if m.state == AVAILABLE]

    def hidden(self) -> list[str]:
        """Labels in the list that no peek sees: Locked or PurgePending."""
        return [m.label for m in self.in_list() if m.state != AVAILABLE]

    def gone(self, fate: str | None = None) -> list[str]:
        return [m.label for m in self.messages.values() if m.state == GONE and fate in (None, m.fate)]

    def state_of(self, label: str) -> str:
        return self.messages[label].state

    # -- seeking (MS-MQDMPR 3.1.7.3.2) -------------------------------------------------------
    def _forward(self, after: tuple[int, int]) -> Message | None:
        return next((m for m in self.in_list() if m.key > after and m.state == AVAILABLE), None)

    def _backward(self, before: tuple[int, int]) -> Message | None:
        return next((m for m in reversed(self.in_list()) if m.key < before and m.state == AVAILABLE), None)

    def _at(self, key: tuple[int, int]) -> Message | None:
        return next((m for m in self.messages.values() if m.key == key), None)

    # -- sending (MS-MQDMPR 3.1.7.1.9) -------------------------------------------------------
    def send(self, label: str, priority: int = 3, transaction: str | None = None) -> Outcome:
        if label in self.messages:
            raise ValueError(f"label {label!r} used twice")
        if (transaction is not None) != self.transactional:
            return Outcome(TRANSACTION_USAGE)  # D-35: the transactional kinds must match
        if transaction is not None and transaction not in self.transactions:
            raise ValueError(f"transaction {transaction!r} is not open")
        self.arrivals += 1
        if transaction is None:
            self.messages[label] = Message(label, priority, self.arrivals)
        else:  # D-65: a message sent in a transaction has priority 0; it stays Locked until commit
            self.messages[label] = Message(label, 0, self.arrivals, LOCKED, ("tx-send", transaction))
            self.transactions[transaction].append(("enqueue", label))
        return Outcome(OK)

    # -- cursors (MS-MQDMPR 3.2.7) -----------------------------------------------------------
    def create_cursor(self, name: str) -> Outcome:
        self.cursors[name] = Cursor()  # 3.2.7.1: at Start, Unread
        return Outcome(OK)

    def close_cursor(self, name: str) -> Outcome:
        del self.cursors[name]
        return Outcome(OK)

    def peek(self, cursor: str | None = None) -> Outcome:
        """MQ_ACTION_PEEK_CURRENT (Peek Message, 3.1.7.1.15; Get Message For Peek, 3.2.7.2)."""
        if cursor is None:
            found = self._forward(START)
            return Outcome(OK, found.label) if found else Outcome(IO_TIMEOUT)
        c = self.cursors[cursor]
        if c.state == UNREAD:
            found = self._forward(c.position)
            if found is None:
                return Outcome(IO_TIMEOUT)  # WaitPeek, the wait fails, Wait Time Expired: Unread, same place
            c.position, c.state = found.key, READ
            return Outcome(OK, found.label)
        here = self._at(c.position)
        if here is not None and here.state == AVAILABLE:
            return Outcome(OK, here.label)
        return Outcome(ALREADY_RECEIVED)

    def peek_next(self, cursor: str) -> Outcome:
        """MQ_ACTION_PEEK_NEXT (Peek Next Message, 3.1.7.1.14; Get Next Message For Peek, 3.2.7.3)."""
        c = self.cursors[cursor]
        if c.state == UNREAD:
            return Outcome(ILLEGAL_CURSOR_ACTION)
        found = self._forward(c.position)
        if found is None:
            c.state = UNREAD  # the failed wait's Wait Time Expired (3.2.7.6): Unread, position kept
            return Outcome(IO_TIMEOUT)
        c.position = found.key
        return Outcome(OK, found.label)

    def start_receive(self, request: str | None = None, cursor: str | None = None) -> Outcome:
        """MQ_ACTION_RECEIVE: Dequeue Message Begin (3.1.7.1.10-11), two-phase.

        The pending entry is filed under `request` (a fresh name when None)."""
        out, found = self._dequeue(cursor)
        if found is not None:
            self._file(found, request)
        else:
            self._failed_start(request)
        return out

    def _dequeue(self, cursor: str | None) -> tuple[Outcome, Message | None]:
        """The message a receive takes (3.1.7.1.10 steps 2-3, 3.2.7.4), moving the cursor; not locked yet."""
        if cursor is None:
            found = self._forward(START)
            return (Outcome(OK, found.label), found) if found else (Outcome(IO_TIMEOUT), None)  # D-03
        c = self.cursors[cursor]
        if c.state == UNREAD:
            found = self._forward(c.position)
            if found is None:
                # D-03: 3.2.7.4 with iNoWait (dmpr) or an elapsed zero time-out (msdn)
                return self.by("D-03", {"dmpr": Outcome(NOT_FOUND), "msdn": Outcome(IO_TIMEOUT)}), None
            c.position = found.key
            return Outcome(OK, found.label), found
        found = self._at(c.position)
        if found is None or found.state != AVAILABLE:
            return Outcome(ALREADY_RECEIVED), None
        c.state = UNREAD
        return Outcome(OK, found.label), found

    def receive(self, cursor: str | None = None) -> Outcome:
        """A whole receive: start, then R_EndReceive with RR_ACK."""
        request = self._anonymous()
        out = self.start_receive(request, cursor)
        if out.hresult == OK:
            self.end_receive(request, "RR_ACK")
        return out

    # -- lookup identifiers (3.1.7.1.13, 3.1.7.3.3, D-04, D-05, D-06) ------------------------
    def lookup(self, action: str, label: str, request: str | None = None) -> Outcome:
        peek = LOOKUP_ACTIONS[action][0]
        out = self._lookup(action, label, request)
        if not peek and out.hresult != OK:
            self._failed_start(request)  # its entry was filed before the read (MS-MQRR 3.1.4.7, D-51, D-52)
        return out

    def _lookup(self, action: str, label: str, request: str | None) -> Outcome:
        peek, direction = LOOKUP_ACTIONS[action]
        named = self.messages.get(label)
        if named is None or named.state == GONE:
            return Outcome(NOT_FOUND)  # not in the list: no position has that id
        if direction == "current":
            if named.state == AVAILABLE:
                found = named
            elif peek and named.state == LOCKED:
                return Outcome(TRANSACTION_USAGE)  # no AllowPeekWhenLocked
            else:
                return Outcome(NOT_FOUND)
        elif direction == "next":
            found = self._forward(named.key)
        else:
            found = self._backward(named.key)
        if found is None:
            # D-04: the seek ends at Start or End, for which 3.1.7.1.13 names no status
            return self.by("D-04", {"not-found": Outcome(NOT_FOUND), "other-failure": Outcome(ANY_FAILURE)})
        if not peek:
            self._file(found, request)  # D-51: lookup receives are two-phase too
        return Outcome(OK, found.label)

    def lookup_receive(self, action: str, label: str) -> Outcome:
        """A whole lookup receive: start, then R_EndReceive with RR_ACK."""
        request = self._anonymous()
        out = self.lookup(action, label, request)
        if out.hresult == OK and not LOOKUP_ACTIONS[action][0]:
            self.end_receive(request, "RR_ACK")
        return out

    # -- ending two-phase reads (MS-MQRR 3.1.4.8, 3.1.4.9, 3.1.4.15) -------------------------
    def end_receive(self, request: str, ack: str, transactional: bool = False) -> Outcome:
        no_entry = Outcome(INVALID_PARAMETER if self.entries else INVALID_HANDLE)  # 3.1.4.9 steps 1-2
        if request in self.failed:
            # D-52: the failed start filed no entry (remove), or one with no message that this End removes
            self.failed.discard(request)
            return self._by_d52(remove=no_entry, keep=Outcome(NOT_FOUND))
        if not self.entries:
            # D-52 keep: the entries of failed starts are still the handle's entries
            return self._by_d52(remove=no_entry, keep=Outcome(INVALID_PARAMETER if self.failed else INVALID_HANDLE))
        if request not in self.entries:
            return no_entry
        label, _ = self.entries.pop(request)
        message = self.messages[label]
        if message.state == GONE:
            return Outcome(NOT_FOUND)
        status = self._dequeue_message_end(message, ack == "RR_ACK", transactional)
        if transactional and ack == "RR_NACK" and status == OK and self.readings.get("D-66") == "released":
            self.release_from_transaction(label)
        return Outcome(status)

    def release_from_transaction(self, label: str) -> None:
        """D-66 released: RR_NACK takes the Dequeue out of its transaction, then ends it as a plain NACK."""
        for operations in self.transactions.values():
            if ("dequeue", label) in operations:
                operations.remove(("dequeue", label))
        self._dequeue_message_end(self.messages[label], delete=False, transactional=False)

    def end_transactional_receive(self, request: str, ack: str) -> Outcome:
        return self.end_receive(request, ack, transactional=True)

    def _dequeue_message_end(self, message: Message, delete: bool, transactional: bool) -> str:
        """MS-MQDMPR 3.1.7.1.12."""
        if message.state == AVAILABLE:
            return TRANSACTION_SEQUENCE
        if transactional:
            return OK  # the transaction decides (A8: RR_NACK changes nothing either)
        if message.state == PURGE_PENDING:
            self._remove(message, "purged")
        elif delete:
            self._remove(message, "received")
        else:
            self._release(message)
        return OK

    def cancel_receive(self, request: str) -> Outcome:
        """Nothing ever waits (time-out 0), so there is no waiting read to cancel, and nothing changes (D-54:
        the Cancel event's STATUS_NOT_FOUND, or any failure HRESULT, 3.1.4.8)."""
        return self.by("D-54", {"status-not-found": Outcome(STATUS_NOT_FOUND), "other-failure": Outcome(ANY_FAILURE)})

    # -- purge (3.1.7.1.7) ---------------------------------------------------------------------
    def purge(self) -> Outcome:
        for message in self.in_list():
            if message.state == AVAILABLE:
                self._remove(message, "purged")
            else:
                message.state = PURGE_PENDING
        return Outcome(OK)

    # -- transactions (3.1.4.4, 3.1.4.5, MS-MQRR 3.1.4.13) -------------------------------------
    def begin(self, tx: str) -> Outcome:
        self.transactions[tx] = []
        return Outcome(OK)

    def start_transactional_receive(self, tx: str, request: str | None = None, cursor: str | None = None) -> Outcome:
        """MS-MQRR 3.1.4.13 with MQ_ACTION_RECEIVE in an open transaction, through a cursor or not.

        An abort puts the message back but does not move the cursor back (MSDN multiple cursors)."""
        if not self.transactional:
            return Outcome(TRANSACTION_USAGE)
        out, found = self._dequeue(cursor)
        if found is None:
            self._failed_start(request)
            return out
        request = request if request is not None else self._anonymous()
        self._lock(found, ("tx-receive", tx))
        self.transactions[tx].append(("dequeue", found.label))
        self.entries[request] = (found.label, True)
        return Outcome(OK, found.label)

    def commit(self, tx: str) -> Outcome:
        if tx not in self.transactions:
            return Outcome(TRANSACTION_SEQUENCE)
        for op, label in self.transactions.pop(tx):
            message = self.messages[label]
            if message.state == GONE:
                continue
            if op == "dequeue":
                self._remove(message, "purged" if message.state == PURGE_PENDING else "received")
            elif message.state == PURGE_PENDING and self.readings.get("D-24") != "survives":
                self._remove(message, "purged")  # D-24 purged (or not yet known: the machine looks)
            else:
                self._release(message)  # D-24 survives: the commit makes a purged enqueue Available
        return Outcome(OK)

    def purged_enqueues(self, tx: str) -> list[str]:
        """Messages sent in `tx` that a purge caught before its commit (D-24)."""
        return [label for op, label in self.transactions.get(tx, [])
                if op == "enqueue" and self.messages[label].state == PURGE_PENDING]

    def revive(self, label: str) -> None:
        """D-24 survives, learnt after the commit: the message the model removed as purged is Available."""
        self._release(self.messages[label])
        self.messages[label].fate = None

    def abort(self, tx: str) -> Outcome:
        if tx not in self.transactions:
            return Outcome(TRANSACTION_SEQUENCE)
        for op, label in self.transactions.pop(tx):
            message = self.messages[label]
            if message.state == GONE:
                continue
            if op == "enqueue":
                self._remove(message, "aborted")
            elif message.state == PURGE_PENDING:
                self._remove(message, "purged")  # D-16
            else:
                self._release(message)
        return Outcome(OK)

    # -- state changes -----------------------------------------------------------------------
    def _anonymous(self) -> str:
        self.anonymous += 1
        return f"(request {self.anonymous})"

    def _failed_start(self, request: str | None) -> None:
        """A receive start whose read failed after its entry was filed (MS-MQRR 3.1.4.7; D-52)."""
        self.failed.add(request if request is not None else self._anonymous())

    def _by_d52(self, remove: Outcome, keep: Outcome) -> Outcome:
        """D-52's outcome; while both readings agree, the target shows nothing about it."""
        return remove if remove == keep else self.by("D-52", {"remove": remove, "keep": keep})

    def _file(self, message: Message, request: str | None) -> None:
        request = request if request is not None else self._anonymous()
        self._lock(message, ("request", request))
        self.entries[request] = (message.label, False)

    @staticmethod
    def _lock(message: Message, holder: tuple[str, str]) -> None:
        message.state, message.holder = LOCKED, holder

    @staticmethod
    def _release(message: Message) -> None:
        message.state, message.holder = AVAILABLE, None

    @staticmethod
    def _remove(message: Message, fate: str) -> None:
        message.state, message.holder, message.fate = GONE, None, fate
