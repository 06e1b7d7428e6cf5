"""MS-MQQB 3.1.7.15 Send Administration Acknowledgment (seed 003), the acknowledgments an arrival
and a removal set off (MS-MQQB 3.1.5.8, 3.1.7.2.1), and journals / dead letters (D-26, D-28)."""

from __future__ import annotations

import uuid

import pytest

from mqspec.protocol.constants import INFINITE, AcknowledgementsRequested as Acks, MessageClass as C
from mqspec.reference.enumerations import DeliveryGuarantee, PrivacyLevel
from mqspec.reference.message import Message
from mqspec.reference.queue_manager import QueueManager
from tests.conftest import COMPUTER, TX, H, labels, make_queue, open_descriptor, send

# The MS-MQQB 3.1.7.15 mapping table: every class it lists.
TABLE = [
    C.MQMSG_CLASS_ACK_REACH_QUEUE, C.MQMSG_CLASS_ACK_RECEIVE, C.MQMSG_CLASS_NACK_BAD_DST_Q,
    C.MQMSG_CLASS_NACK_DELETED, C.MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT, C.MQMSG_CLASS_NACK_Q_EXCEED_QUOTA,
    C.MQMSG_CLASS_NACK_ACCESS_DENIED, C.MQMSG_CLASS_NACK_BAD_SIGNATURE, C.MQMSG_CLASS_NACK_BAD_ENCRYPTION,
    C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q, C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG,
    C.MQMSG_CLASS_NACK_UNSUPPORTED_CRYPTO_PROVIDER, C.MQMSG_CLASS_NACK_Q_DELETED, C.MQMSG_CLASS_NACK_Q_PURGED,
    C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT, C.MQMSG_CLASS_NACK_RECEIVE_REJECTED,
]
INSECURE = [C.MQMSG_CLASS_NACK_BAD_DST_Q, C.MQMSG_CLASS_NACK_BAD_ENCRYPTION, C.MQMSG_CLASS_NACK_BAD_SIGNATURE,
            C.MQMSG_CLASS_NACK_ACCESS_DENIED, C.MQMSG_CLASS_NACK_UNSUPPORTED_CRYPTO_PROVIDER]
NOT_IN_TABLE = [C.MQMSG_CLASS_NORMAL, C.MQMSG_CLASS_REPORT, C.MQMSG_CLASS_ORDER_ACK,
                C.MQMSG_CLASS_NACK_HOP_COUNT_EXCEEDED, C.MQMSG_CLASS_NACK_COULD_NOT_ENCRYPT,
                C.MQMSG_CLASS_NACK_SOURCE_COMPUTER_GUID_CHANGED, C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT_AT_SENDER]
NO_BODY = {C.MQMSG_CLASS_ACK_REACH_QUEUE, C.MQMSG_CLASS_ACK_RECEIVE}


@pytest.fixture
def lenient(clock):
    """A queue manager that sends insecure NACKs (SendInsecureNacks TRUE)."""
    return QueueManager(clock, computer_name=COMPUTER, queue_manager_quota=1 << 40, send_insecure_nacks=True)


def messages(queue):
    return [p.message_reference for p in queue.message_position_list.positions()]


def original(qm, admin_fn, **kw):
    """A message that reached queue "orders" and names admin_fn as its administration queue."""
    queue, fn = make_queue(qm)
    return send(qm, fn, b"the body", label="orig", administration_queue_format_name=admin_fn, **kw)


# -- Send Administration Acknowledgment, class by class --------------------------------------

@pytest.mark.parametrize("recoverable", [False, True])
@pytest.mark.parametrize("message_class", TABLE, ids=lambda c: c.name)
def test_every_class_of_the_mapping_table(lenient, message_class, recoverable):
    """MS-MQQB:3.1.7.15:06 / 3.1.7.15:07 / 3.1.7.15:05 / 3.1.7.15:08 / 3.1.7.15:03 / 3.1.7.15:09
    (clause numbering of spec/clauses/ms-mqqb.toml): for every class of the table an
    acknowledgment of that class (:06) is enqueued in the admin queue (:07), correlated to the
    original Identifier with the original destination as response queue (:05), with the delivery
    guarantee copied (:08), no acknowledgment request, TTRQ and TTBR 0xFFFFFFFF, no journaling, no
    privacy or authentication (:03), and the body copied except for ACK_REACH_QUEUE / ACK_RECEIVE
    (:09)."""
    qm = lenient
    admin, admin_fn = make_queue(qm, "admin")
    guarantee = DeliveryGuarantee.Recoverable if recoverable else DeliveryGuarantee.Express
    received = original(qm, admin_fn, delivery_guarantee=guarantee, time_to_be_received=300,
                        time_to_reach_queue=200, positive_journaling_requested=True)
    qm.send_administration_acknowledgment(message_class, received)
    [ack] = messages(admin)
    assert ack.message_class == message_class
    assert ack.correlation_identifier == received.identifier
    assert ack.response_queue_format_name == received.destination_queue_format_name
    assert ack.destination_queue_format_name == admin_fn
    assert ack.delivery_guarantee == guarantee
    assert ack.acknowledgements_requested == Acks.NONE
    assert ack.time_to_reach_queue == INFINITE and ack.time_to_be_received == INFINITE
    assert not ack.positive_journaling_requested and not ack.negative_journaling_requested
    assert ack.privacy_level == PrivacyLevel.None_ and ack.get("authentication_level") == 0
    assert ack.body == (b"" if message_class in NO_BODY else b"the body")
    assert ack.identifier != received.identifier


@pytest.mark.parametrize("message_class", TABLE, ids=lambda c: c.name)
def test_no_body_when_original_was_private(lenient, message_class):
    """MS-MQQB:3.1.7.15:09 the body is copied only when the original's PrivacyLevel is None."""
    admin, admin_fn = make_queue(lenient, "admin")
    received = original(lenient, admin_fn, privacy_level=PrivacyLevel.Enhanced)
    lenient.send_administration_acknowledgment(message_class, received)
    [ack] = messages(admin)
    assert ack.body == b"" and ack.privacy_level == PrivacyLevel.None_


@pytest.mark.parametrize("message_class", NOT_IN_TABLE, ids=lambda c: c.name)
def test_class_outside_the_table_sends_nothing(lenient, message_class):
    """D-29: a class the mapping table does not list produces no acknowledgment."""
    admin, admin_fn = make_queue(lenient, "admin")
    lenient.send_administration_acknowledgment(message_class, original(lenient, admin_fn))
    assert messages(admin) == []


@pytest.mark.parametrize("message_class", INSECURE, ids=lambda c: c.name)
def test_insecure_nacks_need_send_insecure_nacks(qm, message_class):
    """MS-MQQB:3.1.7.15:02 the five insecure NACK classes are not sent while SendInsecureNacks is
    FALSE (the default)."""
    admin, admin_fn = make_queue(qm, "admin")
    qm.send_administration_acknowledgment(message_class, original(qm, admin_fn))
    assert messages(admin) == []


@pytest.mark.parametrize("message_class", sorted(set(TABLE) - set(INSECURE)), ids=lambda c: c.name)
def test_other_classes_sent_without_send_insecure_nacks(qm, message_class):
    """MS-MQQB:3.1.7.15:02 only the insecure classes are filtered."""
    admin, admin_fn = make_queue(qm, "admin")
    qm.send_administration_acknowledgment(message_class, original(qm, admin_fn))
    assert [m.message_class for m in messages(admin)] == [message_class]


def test_no_administration_queue_no_acknowledgment(lenient):
    """MS-MQQB:3.1.7.15:01 an empty AdministrationQueueFormatName: nothing happens at all."""
    queue, fn = make_queue(lenient)
    received = send(lenient, fn, label="a")
    before = lenient.sequential_id
    for message_class in TABLE:
        lenient.send_administration_acknowledgment(message_class, received)
    assert lenient.sequential_id == before
    assert all(len(q.message_position_list) == int(q is queue) for q in lenient.queue_collection.values())


@pytest.mark.parametrize("admin_fn", [
    f"DIRECT=OS:{COMPUTER}\\private$\\missing",          # no such queue
    f"DIRECT=OS:{COMPUTER}\\private$\\admin;JOURNAL",     # D-30 read-only
    f"DIRECT=OS:{COMPUTER}\\SYSTEM$;DEADLETTER",          # D-30 read-only
    "DIRECT=OS:elsewhere\\private$\\admin",               # D-19 not here
    "DL=11111111-2222-3333-4444-555555555555",            # D-19 no directory
])
def test_admin_queue_that_cannot_be_opened_drops_the_ack(qm, admin_fn):
    """MS-MQQB:3.1.7.15:04 if Open Queue fails the acknowledgment is discarded, silently."""
    admin, _ = make_queue(qm, "admin")
    received = Message(b"x", label="a", administration_queue_format_name=admin_fn, identifier=b"\x01" * 20,
                       destination_queue_format_name=f"DIRECT=OS:{COMPUTER}\\private$\\orders")
    before = qm.sequential_id
    qm.send_administration_acknowledgment(C.MQMSG_CLASS_NACK_Q_PURGED, received)
    assert qm.sequential_id == before  # nothing was enqueued anywhere
    assert messages(admin) == [] and messages(admin.journal_queue_reference) == []


def test_admin_queue_by_private_format_name(qm):
    """MS-MQQB:3.1.7.15:07 the admin queue is opened from its format name, any form."""
    admin, _ = make_queue(qm, "admin")
    admin_fn = qm.queue_format_name(admin)
    assert admin_fn.startswith("PRIVATE=")
    received = original(qm, admin_fn)
    qm.send_administration_acknowledgment(C.MQMSG_CLASS_NACK_Q_PURGED, received)
    [ack] = messages(admin)
    assert ack.destination_queue_format_name == admin_fn


def test_admin_queue_multiple_elements(qm):
    """MS-MQDMPR:3.1.7.1.27:01 / MS-MQQB:3.1.7.15:04 a multiple-element admin queue gets a copy
    in every element."""
    a, fa = make_queue(qm, "adm1")
    b, fb = make_queue(qm, "adm2")
    qm.send_administration_acknowledgment(C.MQMSG_CLASS_NACK_Q_PURGED, original(qm, f"{fa},{fb}"))
    assert [m.message_class for m in messages(a)] == [C.MQMSG_CLASS_NACK_Q_PURGED]
    assert [m.message_class for m in messages(b)] == [C.MQMSG_CLASS_NACK_Q_PURGED]


def test_full_admin_queue_drops_the_ack(qm):
    """MS-MQQB:3.1.7.15:04 the ack goes through Enqueue Message: a full admin queue refuses it."""
    admin, admin_fn = make_queue(qm, "admin", quota=0)
    qm.send_administration_acknowledgment(C.MQMSG_CLASS_NACK_Q_PURGED, original(qm, admin_fn))
    assert messages(admin) == []


# -- arrival acknowledgments (send_message, MS-MQQB 3.1.5.8) ---------------------------------

@pytest.fixture
def admin(qm):
    return make_queue(qm, "admin")


def ack_classes(queue):
    return [m.message_class for m in messages(queue)]


def test_arrival_positive_ack(qm, admin):
    """MS-MQMQ:2.2.19.3:01 / MS-MQQB 3.1.5.8.10: a message inserted in its queue with PA set gets ACK_REACH_QUEUE
    (no body); without PA nothing."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm)
    pa = send(qm, fn, b"b", label="pa", acknowledgements_requested=Acks.ACK_POS_ARRIVAL,
              administration_queue_format_name=admin_fn)
    send(qm, fn, label="none", acknowledgements_requested=Acks.ACK_POS_RECEIVE, administration_queue_format_name=admin_fn)
    [ack] = messages(admin_q)
    assert ack.message_class == C.MQMSG_CLASS_ACK_REACH_QUEUE
    assert ack.correlation_identifier == pa.identifier and ack.body == b""
    assert ack.response_queue_format_name == fn


def test_arrival_quota_nack(qm, admin):
    """MS-MQQB:3.1.5.8.8:01 queue quota refusal (Enqueue status 1) sends NACK_Q_EXCEED_QUOTA with
    the body when NA is set; no NACK without NA."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm, quota=0)
    message = Message(b"b", acknowledgements_requested=Acks.ACK_NEG_ARRIVAL, administration_queue_format_name=admin_fn)
    assert qm.send_message(fn, message) == (H.MQ_OK, 1)
    plain = Message(b"b", acknowledgements_requested=Acks.ACK_POS_ARRIVAL, administration_queue_format_name=admin_fn)
    assert qm.send_message(fn, plain) == (H.MQ_OK, 1)
    [ack] = messages(admin_q)
    assert ack.message_class == C.MQMSG_CLASS_NACK_Q_EXCEED_QUOTA
    assert ack.correlation_identifier == message.identifier and ack.body == b"b"


def test_arrival_quota_nack_dead_letters_with_jn(qm, admin):
    """MS-MQQB:3.1.5.8.8:01 / D-26 a refused message with negative journaling goes to the DLQ,
    re-classed NACK_Q_EXCEED_QUOTA."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm, quota=0)
    assert qm.send_message(fn, Message(b"b", label="jn", negative_journaling_requested=True)) == (H.MQ_OK, 1)
    assert ack_classes(qm.system_deadletter_queue) == [C.MQMSG_CLASS_NACK_Q_EXCEED_QUOTA]


def test_queue_manager_quota_refusal_sends_no_nack(clock):
    """MS-MQQB:3.1.5.8.8:01 Enqueue status 2 (QM quota / throttled): no NACK, the message is just
    dropped."""
    qm = QueueManager(clock, computer_name=COMPUTER, queue_manager_quota=1 << 40)
    admin_q, admin_fn = make_queue(qm, "admin")
    queue, fn = make_queue(qm)
    qm.begin_flow_control()
    message = Message(b"b", acknowledgements_requested=Acks.ACK_NEG_ARRIVAL, administration_queue_format_name=admin_fn,
                      negative_journaling_requested=True)
    assert qm.send_message(fn, message) == (H.MQ_ERROR_INSUFFICIENT_RESOURCES, 2)   # D-131
    qm.end_flow_control()
    assert messages(admin_q) == [] and messages(qm.system_deadletter_queue) == []


def test_arrival_expired_nack(qm, admin, clock):
    """MS-MQQB:3.1.7.1.2:01 / D-08: Enqueue status 3 sends NACK_REACH_QUEUE_TIMEOUT when NA is set;
    without NA nothing."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm)
    sent = clock.now_ms() // 1000 - 100
    late = Message(b"b", label="late", sent_time=sent, time_to_reach_queue=10,
                   acknowledgements_requested=Acks.ACK_NEG_ARRIVAL, administration_queue_format_name=admin_fn)
    assert qm.send_message(fn, late) == (H.MQ_OK, 3)
    quiet = Message(b"b", label="quiet", sent_time=sent, time_to_reach_queue=10,
                    acknowledgements_requested=Acks.ACK_POS_ARRIVAL, administration_queue_format_name=admin_fn)
    assert qm.send_message(fn, quiet) == (H.MQ_OK, 3)
    [ack] = messages(admin_q)
    assert ack.message_class == C.MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT
    assert ack.correlation_identifier == late.identifier and ack.body == b"b"
    assert labels(queue) == []


def test_arrival_expired_dead_letters_with_jn(qm, clock):
    """D-26 / D-28 / MS-MQQB:3.1.7.1.2:01: a message refused because its TimeToReachQueue passed, with
    negative journaling requested, is kept in the dead-letter queue re-classed
    NACK_REACH_QUEUE_TIMEOUT; the copy itself cannot time out in transit."""
    queue, fn = make_queue(qm)
    late = Message(b"b", label="late", sent_time=clock.now_ms() // 1000 - 100, time_to_reach_queue=10,
                   negative_journaling_requested=True)
    assert qm.send_message(fn, late) == (H.MQ_OK, 3)
    assert ack_classes(qm.system_deadletter_queue) == [C.MQMSG_CLASS_NACK_REACH_QUEUE_TIMEOUT]


def test_transactional_message_to_non_transactional_queue(qm, admin):
    """D-35 / MS-MQQB:3.1.5.8.2:01: refused with MQ_ERROR_TRANSACTION_USAGE and
    NACK_NOT_TRANSACTIONAL_Q when NA is set."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm)
    message = Message(b"b", acknowledgements_requested=Acks.ACK_NEG_ARRIVAL, administration_queue_format_name=admin_fn)
    assert qm.send_message(fn, message, qm.create_transaction(TX)) == (H.MQ_ERROR_TRANSACTION_USAGE, None)
    assert ack_classes(admin_q) == [C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_Q]
    assert labels(queue) == []


def test_non_transactional_message_to_transactional_queue(qm, admin):
    """D-35 / MS-MQQB:3.1.5.8.2:02: refused with MQ_ERROR_TRANSACTION_USAGE and NACK_NOT_TRANSACTIONAL_MSG when NA is set;
    without NA no acknowledgment."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm, transactional=True)
    message = Message(b"b", acknowledgements_requested=Acks.ACK_NEG_ARRIVAL, administration_queue_format_name=admin_fn)
    assert qm.send_message(fn, message) == (H.MQ_ERROR_TRANSACTION_USAGE, None)
    assert qm.send_message(fn, Message(b"c")) == (H.MQ_ERROR_TRANSACTION_USAGE, None)
    assert ack_classes(admin_q) == [C.MQMSG_CLASS_NACK_NOT_TRANSACTIONAL_MSG]
    assert labels(queue) == []


@pytest.mark.parametrize("insecure", [False, True])
def test_unknown_destination_nack_bad_dst_q(clock, insecure):
    """D-68 / MS-MQQB:3.1.7.15:02: a send to a queue that does not exist is refused with
    MQ_ERROR_QUEUE_NOT_FOUND and, with NA set, NACK_BAD_DST_Q goes to the admin queue, but only when
    SendInsecureNacks is TRUE."""
    qm = QueueManager(clock, computer_name=COMPUTER, queue_manager_quota=1 << 40, send_insecure_nacks=insecure)
    admin_q, admin_fn = make_queue(qm, "admin")
    missing = f"DIRECT=OS:{COMPUTER}\\private$\\missing"
    message = Message(b"b", acknowledgements_requested=Acks.ACK_NEG_ARRIVAL, administration_queue_format_name=admin_fn)
    assert qm.send_message(missing, message) == (H.MQ_ERROR_QUEUE_NOT_FOUND, None)
    if insecure:
        [ack] = messages(admin_q)
        assert ack.message_class == C.MQMSG_CLASS_NACK_BAD_DST_Q
        assert ack.correlation_identifier == message.identifier and ack.response_queue_format_name == missing
    else:
        assert messages(admin_q) == []


def test_acks_without_admin_queue_are_refused(qm):
    """D-59: asking for acknowledgments without an administration queue is refused with
    MQ_ERROR_ILLEGAL_PROPERTY_VALUE."""
    queue, fn = make_queue(qm)
    assert qm.send_message(fn, Message(b"", acknowledgements_requested=Acks.ACK_POS_ARRIVAL)) == (
        H.MQ_ERROR_ILLEGAL_PROPERTY_VALUE, None)
    assert labels(queue) == []


# -- receive acknowledgments (MS-MQQB 3.1.7.2.1 on Message Position Deleted) -----------------

@pytest.mark.parametrize("requested, expected", [
    (Acks.ACK_POS_RECEIVE, [C.MQMSG_CLASS_ACK_RECEIVE]),
    (Acks.ACK_NEG_RECEIVE, []),
    (Acks.ACK_FULL_RECEIVE, [C.MQMSG_CLASS_ACK_RECEIVE]),
    (Acks.ACK_POS_ARRIVAL, [C.MQMSG_CLASS_ACK_REACH_QUEUE]),
])
def test_receive_ack(qm, admin, requested, expected):
    """MS-MQQB:3.1.7.2.1:01 a receive (reason AckReceive) sends ACK_RECEIVE only when PR is set."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm)
    send(qm, fn, b"b", label="a", acknowledgements_requested=requested, administration_queue_format_name=admin_fn)
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    assert ack_classes(admin_q) == expected


@pytest.mark.parametrize("how, reason", [
    ("purge", C.MQMSG_CLASS_NACK_Q_PURGED),
    ("delete", C.MQMSG_CLASS_NACK_Q_DELETED),
    ("timeout", C.MQMSG_CLASS_NACK_RECEIVE_TIMEOUT),
    ("reject", C.MQMSG_CLASS_NACK_RECEIVE_REJECTED),
])
@pytest.mark.parametrize("requested", [Acks.ACK_NEG_RECEIVE, Acks.ACK_POS_RECEIVE, Acks.ACK_NACK_RECEIVE])
def test_negative_receive_acks(qm, admin, clock, how, reason, requested):
    """MS-MQQB:3.1.7.2.1:01 removals for a negative reason send that NACK class when NR is set (and
    only then): purge, queue deletion, TTBR expiry, rejected receive."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm)
    original_message = send(qm, fn, b"b", label="a", time_to_be_received=5, acknowledgements_requested=requested,
                            administration_queue_format_name=admin_fn)
    if how == "purge":
        qm.purge_queue(queue)
    elif how == "delete":
        qm.delete_queue(queue)
    elif how == "timeout":
        clock.advance(5_000)
        qm.run_timers()
    else:
        transaction = qm.create_transaction(TX)
        qm.dequeue_message(open_descriptor(qm, fn), timeout=0, transaction=transaction)
        transaction.transactional_operation_collection[0].dequeue_reason = reason
        qm.transaction_commit(TX)
    expected = [reason] if requested & Acks.ACK_NEG_RECEIVE else []
    assert ack_classes(admin_q) == expected
    if expected:
        [ack] = messages(admin_q)
        assert ack.correlation_identifier == original_message.identifier and ack.body == b"b"


@pytest.mark.parametrize("guarantee", [DeliveryGuarantee.Express, DeliveryGuarantee.Recoverable])
def test_receive_ack_recoverability(qm, admin, guarantee):
    """MS-MQQB:3.1.7.2.1:02 the acknowledgment is recoverable exactly when the original was."""
    admin_q, admin_fn = admin
    queue, fn = make_queue(qm)
    send(qm, fn, label="a", delivery_guarantee=guarantee, acknowledgements_requested=Acks.ACK_FULL_RECEIVE,
         administration_queue_format_name=admin_fn)
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    [ack] = messages(admin_q)
    assert ack.delivery_guarantee == guarantee


# -- journals and dead letters (D-26, D-28) ------------------------------------------------

def test_target_journal_on_receive(qm):
    """D-26: a received message is copied to its queue's journal when Queue.Journaling is set; a
    purged one is not."""
    queue, fn = make_queue(qm, journaling=True)
    send(qm, fn, b"b", label="received")
    send(qm, fn, b"b", label="purged")
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    qm.purge_queue(queue)
    assert labels(queue.journal_queue_reference) == ["received"]
    [copy] = messages(queue.journal_queue_reference)
    assert copy.message_class == C.MQMSG_CLASS_NORMAL and copy.body == b"b"


def test_no_target_journal_without_journaling(qm):
    """D-26: Journaling False keeps no copy."""
    queue, fn = make_queue(qm)
    send(qm, fn, label="a")
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    assert labels(queue.journal_queue_reference) == [] and labels(qm.system_journal_queue) == []


def test_positive_journaling_copies_to_system_journal(qm):
    """MS-MQDMPR:3.1.1.12:10 / D-26: PositiveJournalingRequested copies a received message to the
    system journal; the copy requests nothing (D-28)."""
    queue, fn = make_queue(qm)
    admin_q, admin_fn = make_queue(qm, "admin")
    send(qm, fn, label="purged", positive_journaling_requested=True)
    qm.purge_queue(queue)  # a negative removal does not journal positively
    assert labels(qm.system_journal_queue) == []
    send(qm, fn, label="c", positive_journaling_requested=True, time_to_be_received=60,
         acknowledgements_requested=Acks.ACK_FULL_RECEIVE, administration_queue_format_name=admin_fn)
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    [copy] = messages(qm.system_journal_queue)
    assert copy.label == "c"
    assert copy.acknowledgements_requested == Acks.NONE and copy.time_to_be_received == INFINITE
    assert not copy.positive_journaling_requested and not copy.negative_journaling_requested


@pytest.mark.parametrize("how, reason", [("purge", C.MQMSG_CLASS_NACK_Q_PURGED),
                                         ("delete", C.MQMSG_CLASS_NACK_Q_DELETED)])
def test_negative_journaling_dead_letters(qm, how, reason):
    """MS-MQDMPR:3.1.1.12:11 / D-26: a negative removal with NegativeJournalingRequested puts a
    re-classed copy in the dead-letter queue; a receive does not."""
    queue, fn = make_queue(qm)
    send(qm, fn, label="received", negative_journaling_requested=True)
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    send(qm, fn, label="lost", negative_journaling_requested=True)
    send(qm, fn, label="plain")
    qm.purge_queue(queue) if how == "purge" else qm.delete_queue(queue)
    assert labels(qm.system_deadletter_queue) == ["lost"]
    assert ack_classes(qm.system_deadletter_queue) == [reason]


def test_journal_copies_of_a_message_older_than_its_ttrq(qm, clock):
    """D-26 / D-28 / MS-MQDMPR:3.1.1.12:10 / MS-MQDMPR:3.1.1.12:11: a message received (or purged) after its TimeToReachQueue has elapsed is still
    copied to the queue journal, the system journal and the dead-letter queue; only a copy that
    does not fit is dropped."""
    queue, fn = make_queue(qm, journaling=True)
    send(qm, fn, label="a", time_to_reach_queue=5, positive_journaling_requested=True)
    send(qm, fn, label="b", time_to_reach_queue=5, negative_journaling_requested=True)
    clock.advance(10_000)
    qm.run_timers()
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    qm.purge_queue(queue)
    assert labels(queue.journal_queue_reference) == ["a"]
    assert labels(qm.system_journal_queue) == ["a"]
    assert labels(qm.system_deadletter_queue) == ["b"]


def test_dead_letter_copy_dropped_when_it_does_not_fit(qm):
    """MS-MQDMPR:3.1.1.12:11 / D-26: a copy that does not fit the dead-letter queue is dropped."""
    qm.system_deadletter_queue.quota = 0
    queue, fn = make_queue(qm)
    send(qm, fn, label="lost", negative_journaling_requested=True)
    qm.purge_queue(queue)
    assert labels(qm.system_deadletter_queue) == [] and labels(queue) == []


def test_queue_journal_quota_drops_copies(qm):
    """MS-MQDMPR:3.1.1.2 JournalQuota / D-26 ("a copy that does not fit is dropped"): a queue whose
    JournalQuota (KB) is 0 keeps no journal copy of a received message."""
    queue, fn = make_queue(qm, journaling=True, journal_quota=0)
    send(qm, fn, label="a")
    assert qm.dequeue_message(open_descriptor(qm, fn), timeout=0).status == H.MQ_OK
    assert labels(queue.journal_queue_reference) == []


def test_queue_manager_journal_quota_drops_copies(qm):
    """MS-MQDMPR:3.1.1.12:10 / MS-MQDMPR:3.1.1.1 JournalQuota: positive-journaling copies are
    discarded when the journal quota would be exceeded."""
    qm.journal_quota = 0
    queue, fn = make_queue(qm)
    send(qm, fn, label="a", positive_journaling_requested=True)
    assert qm.dequeue_message(open_descriptor(qm, fn), timeout=0).status == H.MQ_OK
    assert labels(qm.system_journal_queue) == []


def test_journal_and_dead_letter_copies_are_readable(qm):
    """MS-MQMQ 2.1.7 / D-30: journal and system queues are read through MACHINE= and ;JOURNAL names."""
    queue, fn = make_queue(qm, journaling=True)
    send(qm, fn, label="a", negative_journaling_requested=True, positive_journaling_requested=True)
    send(qm, fn, label="b", negative_journaling_requested=True)
    qm.dequeue_message(open_descriptor(qm, fn), timeout=0)
    qm.purge_queue(queue)
    guid = uuid.UUID(bytes_le=qm.identifier)
    reads = {}
    for name in (fn + ";JOURNAL", f"MACHINE={guid};JOURNAL", f"MACHINE={guid};DEADLETTER"):
        descriptor = open_descriptor(qm, name)
        reads[name] = qm.dequeue_message(descriptor, timeout=0).message.label
    assert list(reads.values()) == ["a", "a", "b"]
