"""Unit tests of steps/model.py against expectations written by hand from the specification.

Each test cites the rule it encodes; none consults the reference queue manager.
"""

from __future__ import annotations

import pytest

from mqspec.steps.model import (
    ALREADY_RECEIVED,
    GONE,
    ILLEGAL_CURSOR_ACTION,
    INVALID_HANDLE,
    INVALID_PARAMETER,
    IO_TIMEOUT,
    LOCKED,
    NOT_FOUND,
    OK,
    PURGE_PENDING,
    STATUS_NOT_FOUND,
    TRANSACTION_SEQUENCE,
    TRANSACTION_USAGE,
    Outcome,
    QueueModel,
)

ANY_FAILURE_D04 = {"not-found": Outcome(NOT_FOUND), "other-failure": Outcome("any other failure")}


def by(decision: str, readings: dict[str, Outcome]) -> Outcome:
    """What the model predicts for an open decision before the target has shown its reading: every reading's
    outcome, the first one's in front (steps/model.py `QueueModel.by`)."""
    first = next(iter(readings.values()))
    return Outcome(first.hresult, first.label, decision, tuple(readings.items()))


def queue(*messages: tuple[str, int]) -> QueueModel:
    model = QueueModel()
    for label, priority in messages:
        assert model.send(label, priority) == Outcome(OK)
    return model


def found(label: str) -> Outcome:
    return Outcome(OK, label)


# -- ordering (MS-MQDMPR 3.1.1.2, MSDN priority page) --------------------------------------------
def test_higher_priority_first_then_arrival():
    model = queue(("a", 3), ("b", 5), ("c", 3), ("d", 7), ("e", 0), ("f", 5))
    assert model.available() == ["d", "b", "f", "a", "c", "e"]


def test_a_label_is_sent_once():
    model = queue(("a", 3))
    with pytest.raises(ValueError):
        model.send("a", 3)


# -- reads without a cursor (3.1.7.1.10, 3.1.7.1.15, D-03) ---------------------------------------
def test_front_reads_on_an_empty_queue_time_out():
    model = QueueModel()
    assert model.peek() == Outcome(IO_TIMEOUT)
    assert model.receive() == Outcome(IO_TIMEOUT)


def test_front_peek_leaves_the_message_and_receive_takes_it():
    model = queue(("a", 3), ("b", 4))
    assert model.peek() == found("b")
    assert model.receive() == found("b")
    assert model.available() == ["a"]
    assert model.gone("received") == ["b"]


# -- cursors (3.2.7, MSDN cursor pages) ----------------------------------------------------------
def test_new_cursor_needs_a_peek_current_before_peek_next():
    model = queue(("a", 3), ("b", 3))
    model.create_cursor("c1")
    assert model.peek_next("c1") == Outcome(ILLEGAL_CURSOR_ACTION)          # 3.2.7.3: Unread
    assert model.peek("c1") == found("a")                                   # 3.2.7.2: moves onto the first
    assert model.peek("c1") == found("a")                                   # Read: does not move
    assert model.peek_next("c1") == found("b")
    assert model.peek_next("c1") == Outcome(IO_TIMEOUT)                     # nothing after b, no wait


def test_peek_next_that_found_nothing_leaves_the_cursor_unread_in_place():
    """3.2.7.6 (A-11): the failed wait sets Unread; peek-next is then illegal, peek-current finds new arrivals."""
    model = queue(("a", 3))
    model.create_cursor("c1")
    assert model.peek("c1") == found("a")
    assert model.peek_next("c1") == Outcome(IO_TIMEOUT)
    assert model.peek_next("c1") == Outcome(ILLEGAL_CURSOR_ACTION)
    assert model.peek("c1") == Outcome(IO_TIMEOUT)                          # seeks after a: nothing
    model.send("b", 3)
    assert model.peek("c1") == found("b")


def test_receive_through_a_cursor_moves_it_implicitly():
    """MSDN retrieving messages (seed 002): receive A, peek-current returns B, peek-next is an error."""
    model = queue(("a", 3), ("b", 3), ("c", 3))
    model.create_cursor("c1")
    assert model.peek("c1") == found("a")
    assert model.receive("c1") == found("a")
    assert model.peek_next("c1") == Outcome(ILLEGAL_CURSOR_ACTION)
    assert model.peek("c1") == found("b")
    assert model.available() == ["b", "c"]


def test_receive_through_a_fresh_cursor_takes_the_first_and_stays_unread():
    model = queue(("a", 3), ("b", 3))
    model.create_cursor("c1")
    assert model.receive("c1") == found("a")                                # 3.2.7.4 Unread: seek from Start
    assert model.receive("c1") == found("b")                                # Unread again: the next one
    assert model.receive("c1") == by("D-03", {"dmpr": Outcome(NOT_FOUND), "msdn": Outcome(IO_TIMEOUT)})
    assert model.peek("c1") == Outcome(IO_TIMEOUT)


def test_a_message_removed_under_a_cursor():
    """MSDN multiple cursors / not available: reading fails, peek-next still moves on (D-06)."""
    model = queue(("a", 3), ("b", 3), ("c", 3), ("d", 3))
    model.create_cursor("c1")
    model.create_cursor("c2")
    assert model.peek("c2") == found("a")
    assert model.peek_next("c2") == found("b")
    assert model.peek_next("c2") == found("c")
    for expected in ("a", "b", "c"):
        assert model.receive("c1") == found(expected)
    assert model.peek("c2") == Outcome(ALREADY_RECEIVED)
    assert model.receive("c2") == Outcome(ALREADY_RECEIVED)
    assert model.peek_next("c2") == found("d")


def test_a_tombstone_keeps_its_place_for_later_arrivals():
    """A cursor resting on a removed message moves on to arrivals that sort after that message."""
    model = queue(("a", 3), ("b", 3))
    model.create_cursor("c1")
    assert model.peek("c1") == found("a")
    assert model.receive() == found("a")
    model.send("x", 5)                                                      # in front of a's place: missed
    model.send("y", 3)                                                      # after b
    assert model.peek_next("c1") == found("b")
    assert model.peek_next("c1") == found("y")


def test_higher_priority_arrivals_are_not_seen_by_a_cursor_past_them():
    """MSDN priority page."""
    model = queue(("a", 3), ("b", 3))
    model.create_cursor("c1")
    assert model.peek("c1") == found("a")
    model.send("h", 7)
    model.send("l", 1)
    assert model.peek_next("c1") == found("b")
    assert model.peek_next("c1") == found("l")
    assert model.available() == ["h", "a", "b", "l"]


def test_cursor_on_a_locked_message():
    """3.2.7.2/3.2.7.4: the message under a Read cursor is not Available -> AlreadyReceived."""
    model = queue(("a", 3), ("b", 3))
    model.create_cursor("c1")
    assert model.peek("c1") == found("a")
    assert model.start_receive("r1") == found("a")
    assert model.peek("c1") == Outcome(ALREADY_RECEIVED)
    assert model.receive("c1") == Outcome(ALREADY_RECEIVED)
    assert model.peek_next("c1") == found("b")


def test_closed_cursor_is_forgotten():
    model = queue(("a", 3))
    model.create_cursor("c1")
    assert model.close_cursor("c1") == Outcome(OK)
    with pytest.raises(KeyError):
        model.peek("c1")


# -- lookup identifiers (3.1.7.1.13, 3.1.7.3.3, D-04, D-05, D-06) --------------------------------
def test_lookup_current_next_previous():
    model = queue(("a", 3), ("b", 3), ("c", 3))
    assert model.lookup("MQ_LOOKUP_PEEK_CURRENT", "b") == found("b")
    assert model.lookup("MQ_LOOKUP_PEEK_NEXT", "b") == found("c")
    assert model.lookup("MQ_LOOKUP_PEEK_PREV", "b") == found("a")
    assert model.lookup("MQ_LOOKUP_PEEK_NEXT", "c") == by("D-04", ANY_FAILURE_D04)
    assert model.lookup("MQ_LOOKUP_PEEK_PREV", "a") == by("D-04", ANY_FAILURE_D04)


def test_lookup_follows_list_order_not_arrival():
    """A-3: next/previous follow the list (priority), not the lookup id's numeric order."""
    model = queue(("a", 3), ("b", 6), ("c", 3))
    assert model.lookup("MQ_LOOKUP_PEEK_NEXT", "b") == found("a")
    assert model.lookup("MQ_LOOKUP_PEEK_PREV", "a") == found("b")


def test_lookup_of_a_locked_message():
    model = queue(("a", 3), ("b", 3), ("c", 3))
    assert model.start_receive("r1") == found("a")
    assert model.lookup("MQ_LOOKUP_PEEK_CURRENT", "a") == Outcome(TRANSACTION_USAGE)
    assert model.lookup("MQ_LOOKUP_RECEIVE_CURRENT", "a") == Outcome(NOT_FOUND)
    assert model.lookup("MQ_LOOKUP_PEEK_NEXT", "a") == found("b")            # a locked message anchors a seek
    assert model.lookup("MQ_LOOKUP_PEEK_PREV", "b") == by("D-04", ANY_FAILURE_D04)  # and is skipped by one


def test_lookup_of_a_removed_message():
    model = queue(("a", 3), ("b", 3))
    assert model.receive() == found("a")
    for action in ("MQ_LOOKUP_PEEK_CURRENT", "MQ_LOOKUP_PEEK_NEXT", "MQ_LOOKUP_RECEIVE_PREV"):
        assert model.lookup(action, "a") == Outcome(NOT_FOUND)


def test_lookup_receive_is_two_phase():
    """D-51: a lookup receive locks and files an entry; the ACK removes the message."""
    model = queue(("a", 3), ("b", 3))
    assert model.lookup("MQ_LOOKUP_RECEIVE_NEXT", "a", "r1") == found("b")
    assert model.state_of("b") == LOCKED
    assert model.available() == ["a"]
    assert model.end_receive("r1", "RR_ACK") == Outcome(OK)
    assert model.state_of("b") == GONE
    assert model.lookup_receive("MQ_LOOKUP_RECEIVE_CURRENT", "a") == found("a")
    assert model.available() == []


# -- two-phase receives (MS-MQRR 3.1.4.8, 3.1.4.9; MS-MQDMPR 3.1.7.1.12) ---------------------------
def test_nack_puts_the_message_back_in_its_place():
    model = queue(("a", 3), ("b", 3))
    assert model.start_receive("r1") == found("a")
    assert model.available() == ["b"]
    assert model.end_receive("r1", "RR_NACK") == Outcome(OK)
    assert model.available() == ["a", "b"]


def test_ending_twice_and_ending_nothing():
    model = queue(("a", 3), ("b", 3))
    assert model.end_receive("r1", "RR_ACK") == Outcome(INVALID_HANDLE)     # no entry at all on the handle
    assert model.start_receive("r1") == found("a")
    assert model.start_receive("r2") == found("b")
    assert model.end_receive("r1", "RR_ACK") == Outcome(OK)
    assert model.end_receive("r1", "RR_ACK") == Outcome(INVALID_PARAMETER)  # r2 still pending
    assert model.end_receive("r2", "RR_NACK") == Outcome(OK)
    assert model.end_receive("r2", "RR_NACK") == Outcome(INVALID_HANDLE)


def test_a_failed_start_files_no_entry():
    model = QueueModel()
    assert model.start_receive("r1") == Outcome(IO_TIMEOUT)
    assert model.end_receive("r1", "RR_ACK") == by("D-52", {"remove": Outcome(INVALID_HANDLE),
                                                            "keep": Outcome(NOT_FOUND)})

def test_cancel_finds_nothing_waiting():
    model = queue(("a", 3))
    assert model.start_receive("r1") == found("a")
    assert model.cancel_receive("r1") == by("D-54", {"status-not-found": Outcome(STATUS_NOT_FOUND),
                                                     "other-failure": Outcome("any other failure")})
    assert model.state_of("a") == LOCKED


# -- purge (3.1.7.1.7) ---------------------------------------------------------------------------
def test_purge_spares_locked_messages_until_they_are_released():
    model = queue(("a", 3), ("b", 3), ("c", 3))
    assert model.start_receive("r1") == found("a")
    assert model.purge() == Outcome(OK)
    assert model.available() == []
    assert model.state_of("a") == PURGE_PENDING
    assert model.lookup("MQ_LOOKUP_PEEK_CURRENT", "a") == Outcome(NOT_FOUND)  # D-05
    assert model.end_receive("r1", "RR_NACK") == Outcome(OK)                # gone all the same
    assert model.gone("purged") == ["a", "b", "c"]


# -- transactions (3.1.4.4, 3.1.4.5, MS-MQRR 3.1.4.13, 3.1.4.15) -----------------------------------
def transactional(*labels: str) -> QueueModel:
    model = QueueModel(transactional=True)
    model.begin("t0")
    for label in labels:
        model.send(label, 3, "t0")
    assert model.commit("t0") == Outcome(OK)
    return model


def test_kinds_must_match():
    assert QueueModel(transactional=True).send("a", 3) == Outcome(TRANSACTION_USAGE)
    plain = QueueModel()
    plain.begin("t1")
    assert plain.send("a", 3, "t1") == Outcome(TRANSACTION_USAGE)
    assert QueueModel().start_transactional_receive("t1", "r1") == Outcome(TRANSACTION_USAGE)


def test_sends_in_a_transaction_appear_at_commit_in_arrival_order():
    model = transactional("a")
    model.begin("t1")
    model.send("b", 5, "t1")                                                # D-65: priority 0
    assert model.available() == ["a"]
    model.begin("t2")
    model.send("c", 3, "t2")
    assert model.commit("t2") == Outcome(OK)
    assert model.commit("t1") == Outcome(OK)
    assert model.available() == ["a", "b", "c"]                             # placed at enqueue


def test_abort_of_a_send_removes_it():
    model = transactional()
    model.begin("t1")
    model.send("a", 3, "t1")
    assert model.abort("t1") == Outcome(OK)
    assert model.available() == [] and model.gone("aborted") == ["a"]


def test_receive_in_a_transaction_commit_and_abort():
    model = transactional("a", "b")
    model.begin("t1")
    assert model.start_transactional_receive("t1", "r1") == found("a")
    assert model.end_transactional_receive("r1", "RR_NACK") == Outcome(OK)  # A8: the transaction decides
    assert model.available() == ["b"]
    assert model.commit("t1") == Outcome(OK)
    assert model.gone("received") == ["a"]
    model.begin("t2")
    assert model.start_transactional_receive("t2", "r2") == found("b")
    assert model.abort("t2") == Outcome(OK)
    assert model.available() == ["b"]
    assert model.commit("t2") == Outcome(TRANSACTION_SEQUENCE)             # 3.1.4.4: unknown transaction
    assert model.abort("t1") == Outcome(TRANSACTION_SEQUENCE)


def test_ending_a_transactional_receive_after_the_outcome():
    model = transactional("a", "b")
    model.begin("t1")
    model.begin("t2")
    assert model.start_transactional_receive("t1", "r1") == found("a")
    assert model.start_transactional_receive("t2", "r2") == found("b")
    model.commit("t1")
    model.abort("t2")
    assert model.end_transactional_receive("r1", "RR_ACK") == Outcome(NOT_FOUND)          # a is gone
    assert model.end_transactional_receive("r2", "RR_ACK") == Outcome(TRANSACTION_SEQUENCE)  # b Available


def test_purge_during_transactions():
    """3.1.7.1.7 with D-16 (abort of a purged receive) and D-24 (commit of a purged send)."""
    model = transactional("a", "b")
    model.begin("t1")
    model.begin("t2")
    assert model.start_transactional_receive("t1", "r1") == found("a")
    model.send("c", 3, "t2")
    assert model.purge() == Outcome(OK)
    assert model.hidden() == ["a", "c"]
    model.abort("t1")
    model.commit("t2")
    assert model.available() == [] and sorted(model.gone("purged")) == ["a", "b", "c"]


def test_abort_does_not_move_a_cursor_back():
    """MSDN multiple cursors (C-7): receive A through a cursor in a transaction, abort: the cursor skips A."""
    model = transactional("a", "b")
    model.create_cursor("c1")
    model.begin("t1")
    assert model.peek("c1") == found("a")
    assert model.start_transactional_receive("t1", "r1", cursor="c1") == found("a")
    assert model.abort("t1") == Outcome(OK)
    assert model.available() == ["a", "b"]
    assert model.peek_next("c1") == Outcome(ILLEGAL_CURSOR_ACTION)          # Unread after the receive
    assert model.peek("c1") == found("b")
