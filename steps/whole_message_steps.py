"""Steps that compare a message read back over MS-MQRR with the UserMessage packet another queue manager sent
it in (MS-MQQB 3.1.7.10, MS-MQDMPR 3.1.7.1.31 / 3.1.7.1.32, MS-MQRR 2.2.5.1).

    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | SID | S-1-5-21-3181267629-1039849782-3663045219-1000 |
    And every message in "orders" is peeked
    Then the packet of "m1" reads back as "remote" sent it
    And by D-96 the packet of "m1" carries the SID "remote" sent (kept) or none (dropped)

The packet "remote" wrote is its Outgoing record (mqqb_steps.py keeps it under "mqqb sent").
`reads back as ... sent it` compares every field (a TransactionHeader's too) but three, each of which a clause changes:
BaseHeader.PacketSize (MS-MQRR 2.2.5 adds the trailers), BaseHeader.TimeToReachQueue (absolute,
MS-MQRR 3.1.4.7: checked as SentTime plus the sent value when that sum is finite) and the 16 bytes
of QueueManagerAddress (MS-MQRR 2.2.5.1: the sender's address for a direct destination).  The
queue codes DQ/AQ/RQ are judged by the names they give, which may be encoded another way (D-63).
The two fields whose fate is an open decision have steps of their own: acknowledgments asked with
no administration queue (D-95) and the sender's SID (D-96).
"""

from __future__ import annotations

import uuid

from pytest_bdd import then

from ..adapters.mqqb.packets import Outgoing, compound_message, encryption_algorithm, privacy_level, transaction_flags
from .packet_steps import _packet
from .phrases import phrase
from .values import number
from .world import World

INFINITE = 0xFFFFFFFF


def _sent(world: World, label: str, remote: str) -> Outgoing:
    sent = world.notes.get("mqqb sent", {})
    assert label in sent, f"{remote!r} sent no message {label!r} over MS-MQQB"
    assert sent[label].source == world.notes["mqqb peers"][remote].guid, f"{label!r} was not sent by {remote!r}"
    return sent[label]


def _same_name(read: str, sent: str) -> bool:
    return read.lower() == sent.lower()  # MS-MQMQ 2.1 format names compare without case


@then(phrase('the packet of "{label}" reads back as "{remote}" sent it'))
def reads_back_as_sent(world, label, remote):
    out = _sent(world, label, remote)
    read, _, _ = _packet(world, label)
    transactional = out.transaction is not None
    expected = {
        "BaseHeader.Flags.PR": (read.priority, 0 if transactional else out.priority),
        "UserHeader.SourceQueueManager": (read.source_queue_manager, uuid.UUID(bytes_le=out.source)),
        "UserHeader.TimeToBeReceived": (read.time_to_be_received, out.time_to_be_received),
        "UserHeader.SentTime": (read.sent_time, out.sent_time),
        "UserHeader.MessageID": (read.message_id, out.message_id),
        "UserHeader.Flags.DM": (read.delivery_mode, 1 if transactional else out.delivery),
        "UserHeader.Flags.JN": (read.flags["JN"], int(out.negative_journaling)),
        "UserHeader.Flags.JP": (read.flags["JP"], int(out.positive_journaling)),
        "UserHeader.Flags.TH": (read.flags["TH"], int(transactional)),
        "MessagePropertiesHeader.LabelLength and Label": (read.label, out.label),
        "MessagePropertiesHeader.MessageClass": (read.message_class, out.message_class),
        "MessagePropertiesHeader.CorrelationID": (read.correlation_id, out.correlation_id),
        "MessagePropertiesHeader.BodyType": (read.body_type, out.body_type),
        "MessagePropertiesHeader.ApplicationTag": (read.application_tag, out.application_tag),
        "MessagePropertiesHeader.ExtensionData": (read.extension, out.extension),
        # MS-MQRR 2.2.5.1.2 an SRMP message's body is in its compound message, none in the MessagePropertiesHeader
        "MessagePropertiesHeader.MessageBody": ((read.body_size, read.body),
                                                (0, b"") if out.srmp_envelope else (len(out.body), out.body)),
        "MessagePropertiesHeader.PrivacyLevel": (read.privacy_level, privacy_level(out)),
        "MessagePropertiesHeader.HashAlgorithm": (read.hash_algorithm, out.hash_algorithm),
        "MessagePropertiesHeader.EncryptionAlgorithm": (read.encryption_algorithm, encryption_algorithm(out)),
    }
    if out.srmp_envelope is not None:  # D-90 read: the two headers behind AH come back as they were sent
        expected["UserHeader.Flags.AH"] = (read.flags["AH"], 1)
        expected["SRMPEnvelopeHeader.Data"] = (read.srmp_envelope, out.srmp_envelope)
        data, offset = compound_message(out.body, out.forced)
        expected["CompoundMessageHeader.Data"] = (read.compound_message, data)
        # MS-MQRR 2.2.5.1.2.2 where the body lies in it, as the sender said
        expected["CompoundMessageHeader.MsgBodyOffset and MsgBodySize"] = (
            read.compound_body, (offset, len(out.body)))
    if out.admin:  # without one, the acknowledgments are D-95's
        expected["MessagePropertiesHeader.Flags"] = (read.acknowledgements, out.acknowledgements & 0x0F)
    if out.sender_certificate:  # the SecurityHeader but its SecurityID (D-96) and ST
        header = read.security_header or {}
        expected["UserHeader.Flags.SH"] = (read.flags["SH"], 1)
        expected["SecurityHeader.Flags but ST"] = (header.get("Flags", 0) & ~0xF, 0)
        for item, sent in (("EncryptionKey", b""), ("Signature", b""), ("SenderCert", out.sender_certificate),
                           ("ProviderInfo", b"")):
            expected[f"SecurityHeader.{item}"] = (header.get(item), sent)
    elif not (out.sender_id or out.encrypted_body):
        expected["UserHeader.Flags.SH"] = (read.flags["SH"], 0)
    if transactional:   # MS-MQDMPR 3.1.7.1.31 / 3.1.7.1.32: the TransactionHeader comes back as it was sent
        _, sequence_id, number, previous = out.transaction
        expected["TransactionHeader"] = (read.transaction_header, (transaction_flags(out), sequence_id, number,
                                                                   previous, out.connector_guid))
    if out.time_to_reach_queue != INFINITE and out.sent_time + out.time_to_reach_queue < INFINITE:
        # MS-MQRR:3.1.4.7:14 the absolute expiry time
        expected["BaseHeader.TimeToReachQueue"] = (read.time_to_reach_queue, out.sent_time + out.time_to_reach_queue)
    changed = [f"{name}: sent {sent!r}, read back {got!r}" for name, (got, sent) in expected.items() if got != sent]
    for name, got, sent in (("DestinationQueue", read.destination_queue, out.destination),
                            ("AdminQueue", read.admin_queue, out.admin),
                            ("ResponseQueue", read.response_queue, out.response)):
        if not _same_name(got, sent):
            changed.append(f"UserHeader.{name}: sent {sent!r}, read back {got!r}")
    assert not changed, f"{label!r} read back changed:\n  " + "\n  ".join(changed)


@then(phrase('the packet of "{label}" reads back with TransactionHeader FM {fm:d}, LM {lm:d} and XactIndex {index}'))
def transaction_bits_read_back(world, label, fm, lm, index):
    """MS-MQMQ 2.2.20.5 Flags: FM bit 2, LM bit 3, the transaction's 20-bit index in bits 4 - 23, as the sender
    wrote them (MS-MQQB 3.1.7.10), whatever else its TransactionHeader carried."""
    read, _, _ = _packet(world, label)
    assert read.transaction_header is not None, f"the packet of {label!r} has no TransactionHeader"
    flags = read.transaction_header[0]
    got = (flags >> 2 & 1, flags >> 3 & 1, flags >> 4 & 0xFFFFF)
    assert got == (fm, lm, int(index, 0)), f"the TransactionHeader reads back FM {got[0]}, LM {got[1]}, XactIndex {got[2]}"


@then(phrase('by D-95 the packet of "{label}" asks for the acknowledgments "{remote}" sent (kept) or for none '
             '(cleared)'))
def acknowledgments_without_admin_queue(world, label, remote):
    """Acknowledgments asked with no administration queue: kept as the sender wrote them, or cleared."""
    out = _sent(world, label, remote)
    assert not out.admin and out.acknowledgements & 0x0F, f"{label!r} was not sent asking for acknowledgments " \
                                                         "without an administration queue"
    read, _, _ = _packet(world, label)
    assert read.admin_queue == "" and not read.flags["AQ"], f"{label!r} reads back with AdminQueue {read.admin_queue!r}"
    if read.acknowledgements == out.acknowledgements & 0x0F:
        world.observe("D-95", "kept")
    else:
        assert read.acknowledgements == 0, \
            f"{label!r} reads back asking for 0x{read.acknowledgements:02X}, neither what was sent " \
            f"(0x{out.acknowledgements & 0x0F:02X}, kept) nor 0 (cleared)"
        world.observe("D-95", "cleared")


@then(phrase('by D-96 the packet of "{label}" carries the SID "{remote}" sent (kept) or none (dropped)'))
def sender_identifier(world, label, remote):
    """The unsigned SecurityHeader with the sender's SID: kept (ST, SenderIdSize and SecurityID as sent, SH set)
    or dropped (no SecurityID and ST 0; no SecurityHeader at all when the SID was its only item)."""
    out = _sent(world, label, remote)
    assert out.sender_id and not out.encrypted_body, f"{label!r} was not sent with a SID in an unsigned SecurityHeader"
    read, _, _ = _packet(world, label)
    header = read.security_header
    if header is not None and header["SecurityID"]:
        assert read.flags["SH"] == 1, "a SecurityHeader was read but UserHeader.Flags.SH is clear"
        got = (header["Flags"] & 0xF, header["SenderIdSize"], header["SecurityID"])
        assert got == (0x0001, len(out.sender_id), out.sender_id), \
            f"the SecurityHeader reads back as ST {got[0]}, SenderIdSize {got[1]}, SecurityID " \
            f"{got[2].hex()}; sent ST 1, SenderIdSize {len(out.sender_id)}, SecurityID {out.sender_id.hex()}"
        world.observe("D-96", "kept")
        return
    if out.sender_certificate:  # the rest of the header stays, with ST 0 (MS-MQMQ 2.2.20.6)
        assert header is not None and header["Flags"] & 0xF == 0 and header["SenderIdSize"] == 0, \
            f"the SID is gone but the SecurityHeader reads back as {header}"
    else:
        assert header is None and not read.flags["SH"], \
            f"a SecurityHeader with no SecurityID is left: {header}"  # MS-MQMQ 2.2.20.6 one nonzero item at least
    world.observe("D-96", "dropped")


@then(phrase('the packet of "{label}" has HashAlgorithm {hash_algorithm} and EncryptionAlgorithm '
             '{encryption_algorithm}', hash_algorithm=r"\w+", encryption_algorithm=r"\w+"))
def algorithms(world, label, hash_algorithm, encryption_algorithm):
    if label not in world.notes.get("mqqb sent", {}):
        world.require("local_send")   # the algorithms a local send leaves to the queue manager (not a peer's)
    read, _, _ = _packet(world, label)
    got = (read.hash_algorithm, read.encryption_algorithm)
    wanted = (number(hash_algorithm), number(encryption_algorithm))
    assert got == wanted, f"HashAlgorithm 0x{got[0]:04X} and EncryptionAlgorithm 0x{got[1]:04X}, expected " \
                          f"0x{wanted[0]:04X} and 0x{wanted[1]:04X}"


@then(phrase('by D-90 the packet of "{label}" reads back as "{remote}" sent it, its SRMP headers included ({read}), '
             'or the target closed the session and "{alias}" holds nothing ({refuse})',
             read=r"[a-z-]+", refuse=r"[a-z-]+"))
def srmp_reads_back_by_decision(world, label, remote, read, alias, refuse):
    """D-90: an SRMP message a target delivers keeps the envelope and compound message it came with; one that
    refuses AH closes the session and stores nothing."""
    peer = world.notes["mqqb peers"][remote]
    peer.collect(0, move_clock=False)
    if peer.connection.closed:
        held = [message.label for message in world.messages(alias)]
        assert not held, f"the target closed the session of {remote!r}, yet {alias!r} holds {held}"
        world.observe("D-90", refuse)
        return
    world.observe("D-90", read)
    reads_back_as_sent(world, label, remote)
