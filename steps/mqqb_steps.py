"""Steps in which the suite plays another queue manager with an MS-MQQB session to the target.

    Given another queue manager "remote" with an MS-MQQB session to the target
    When "remote" sends the prepared message "m1" to "orders" with packet fields:
      | AQ | 6 |
    And "remote" waits 1000 ms for the target's packets
    Then "remote" received a FinalAck of class MQMSG_CLASS_ACK_RECEIVE for "t1"

The session is opened the way an initiator opens one (MS-MQQB 3.1.5.2.3, 3.1.5.3.2): an
EstablishConnection naming the target's GUID, then ConnectionParameters asking for the
shortest time-outs 2.2.2.1 allows (RecoverableAckTimeout 500 ms, AckTimeout 20 s) and a
window of 64.  A message prepared with `message "m1" is prepared with:` is then written as a
UserMessage packet by the suite's own writer (mqqb_packets.py); `World.sent` records it as
the target will name it, an OBJECTID of the peer's GUID and the packet's MessageID (MS-MQMQ
2.2.18.1.3), so the acknowledgment steps of cursor_steps.py judge what the target answers.

Packet fields a scenario may set: DQ, AQ, RQ (a code to write: one the name allows, or one no
sender may use), TH 1 (a TransactionHeader, each message a transaction of its own), FA 1
(its FinalAck bit), EB 1 (an encrypted body: a SecurityHeader with EB and a key), SID (S-1-...:
an unsigned SecurityHeader with that SID, as Windows sends one), SenderCert (text: one in that
header), Signature item (hex: a SecurityData Signature that no certificate verifies), HashAlgorithm,
EncryptionAlgorithm, BodyType, ApplicationTag (numbers) and Extension
(text), AH 1 (an SRMP envelope and a compound message carrying the body, MS-MQRR 2.2.5.1.2),
and values to write instead of the right ones (decimal or 0x...): DM, LabelLength, MessageSize,
ExtensionSize, EncryptionKeySize (with EB 1), DQ Count / AQ Count / RQ Count (a direct name's),
DataLength, HTTPBodySize, MsgBodyOffset (of the SRMP headers), QT (a DebugHeader, with BaseHeader
DH; QT 1 with its QueueIdentifier, of which `QueueIdentifier bytes` writes fewer), SoapHeader and
SoapBody (texts: a SoapHeader, HH, with HeaderSectionID, HeaderDataLength, BodySectionID and
BodyDataLength to write instead), MQF 1 (a MultiQueueFormatHeader, MQ, with MQF HeaderID and MQF
HeaderSize of its Destination, MQFSignatureHeader ID and Size, and MQF Signature bytes to write
instead), HH 1 and MQ 1 (a SoapHeader or MultiQueueFormatHeader announced and not written), trailing
bytes (that many zero bytes after the last header, counted in PacketSize), padded to PacketSize (zero bytes
after the last header up to that PacketSize), Label characters (a label that long, the name first), DQ name (the
text after DIRECT= to write as the destination, with DQ 7, whether it names a queue or not), DQ keyword (kept: the
DIRECT= keyword written inside a direct name's field, dropped by default), CQ 1 (UserHeader.Flags.CQ
and a 16-byte ConnectorType), MP 0 (MessagePropertiesHeader announced absent), UserFlags, BaseFlags and SecurityFlags
(bits ORed into those flags: reserved ones a receiver ignores), the BaseHeader's VersionNumber and
Signature (MS-MQQB 3.1.5.1.2), and with TH 1 a TransactionHeader's TxSequenceNumber and TxPreviousSequenceNumber
(numbers), SessionHeader (counting or miscounting: one carried by the packet), its FM, LM and XactIndex (each message is otherwise a transaction of its own: FM 1, LM 1, XactIndex its
number) and TxSequenceID (next or previous: the sequence after or before the peer's, numbered afresh).  `World.notes` keeps
each packet's Outgoing record under "mqqb sent", for the steps that compare what reads back.

Waiting: the target's timers (Session Ack Send, Order Ack Send) run on its clock, so a wait
moves a target with virtual time that far, and otherwise (or once the scenario said the target's
clock runs in real time) waits that long in real time.
"""

from __future__ import annotations

import re
import struct
import time
import uuid

import pytest
from pytest_bdd import given, then, when

from mqspec.protocol.constants import MessageClass

from ..adapters.mqqb.packets import (
    FIRST_FINAL_ACK,
    ORDER_ACK,
    ORDER_ACK_LABEL,
    ORDER_QUEUE_TAIL,
    Outgoing,
    Received,
    Stream,
    connection_parameters,
    connection_parameters_response,
    decode,
    session_ack,
    establish_connection,
    establish_connection_response,
    user_message,
)
from .blame import clause_failure
from .phrases import phrase
from .values import number
from .world import Sent, World

RECOVERABLE_ACK_TIMEOUT, ACK_TIMEOUT, WINDOW = 500, 20_000, 64  # MS-MQQB 2.2.2.1 the smallest time-outs allowed
HANDSHAKE_WAIT_MS = 5000
SETTLE_MS = 200  # after the target's clock moved, how long what its timers sent may take to arrive
OS_SERVER_CLASS = 0x0200  # MS-MQQB 2.2.3.1 OperatingSystem.OS
FORCED_FIELDS = ("DM", "LabelLength", "MessageSize", "ExtensionSize", "EncryptionKeySize", "DQ Count", "AQ Count",
                 "RQ Count", "DataLength", "HTTPBodySize", "MsgBodyOffset", "QT", "HH", "MQ", "trailing bytes",
                 "QueueIdentifier bytes", "HeaderSectionID", "HeaderDataLength", "BodySectionID", "BodyDataLength",
                 "MQF HeaderID", "MQF HeaderSize", "MQFSignatureHeader ID", "MQFSignatureHeader Size",
                 "MQF Signature bytes", "padded to PacketSize", "CQ", "MP", "UserFlags", "BaseFlags", "SecurityFlags",
                 "compound trailer bytes")
BASE_FIELDS = ("VersionNumber", "Signature")   # MS-MQQB 3.1.5.1.2: written over the BaseHeader's right values
SESSION_FIELDS = ("SessionHeader",)   # counting or miscounting: a SessionHeader carried by the packet (3.1.5.8.4)
SEQUENCE_FIELDS = ("TxSequenceID", "TxSequenceNumber", "TxPreviousSequenceNumber", "FM", "LM",
                   "XactIndex")   # with TH 1 (MS-MQQB 3.1.5.8.6, MS-MQMQ 2.2.20.5)
PACKET_FIELDS = ("DQ", "AQ", "RQ", "TH", "FA", "CG", "EB", "AH", "SID", "SenderCert", "Signature item", "HashAlgorithm",
                 "EncryptionAlgorithm", "BodyType", "ApplicationTag",
                 "Extension", "SoapHeader", "SoapBody", "MQF", "Label characters", "DQ name", "DQ keyword") \
    + FORCED_FIELDS + BASE_FIELDS + SEQUENCE_FIELDS + SESSION_FIELDS
SRMP_ENVELOPE = '<se:Envelope xmlns:se="http://schemas.xmlsoap.org/soap/envelope/"><se:Body/></se:Envelope>'


class Peer:
    """The queue manager the suite plays: its GUID, its connection and every packet the target sent it."""

    def __init__(self, world: World, name: str) -> None:
        self.world, self.name = world, name
        self.guid = uuid.uuid4().bytes_le
        self.connection = world.target.mqqb_connect()
        self.stream = Stream()
        self.received: list[Received] = []
        self.latest: list[Received] = []          # what the last wait brought
        self.ordinal = 0                           # MessageID of the packets it sends (MS-MQQB 3.1.1.3)
        self.recoverable_sent = 0                  # MS-MQQB 3.1.1.3.1 RecoverableMessageSentCount
        self.tx_sequence_id = struct.pack("<II", 1, int(time.time()) & 0xFFFFFFFF)  # MS-MQMQ 2.2.18.1.2
        self.tx_number = 0
        self.transactions: dict[str, tuple] = {}   # label -> the TransactionHeader it was sent with
        self.direct_session = False                # it sent a UserMessage by a direct name (MS-MQQB 3.1.5.8.2 DQ 7)
        self.set_up_by_target: list[Received] = []  # the EstablishConnection and ConnectionParameters requests
        self.answer_fault: str | None = None        # how it answers a session the target opens (MS-MQQB 3.1.5.3.2)
        self.opened_by_target: list[tuple] = []    # (connection, Stream) of sessions the target opened (D-76)
        self.session_names: dict[object, str] = {}  # connection -> "opened by the target #N", N from 1

    def send(self, packet: bytes, session: str = "own") -> None:
        self.connection_of(session).send(packet)
        # over a network the server reads it on its own time: give it the target's settling time before the
        # scenario looks at the queues
        time.sleep(self.world.target.settle_seconds if "rpc" in self.world.target.capabilities else 0)

    def collect(self, wait_ms: int, move_clock: bool) -> list[Received]:
        """What the target sent since the last look; `move_clock`: let `wait_ms` pass on its clock first."""
        if move_clock and "virtual_time" in self.world.target.capabilities and not self.world.notes.get("real time"):
            self.world.target.elapse(wait_ms)
            data = self.connection.receive(SETTLE_MS)  # what the timers wrote may still be on its way
        else:
            data = self.connection.receive(wait_ms)
        self.latest = [decode(packet) for packet in self.stream.feed(data)]
        assert self.stream.broken is None, self.stream.broken
        self.latest += self._accept_sessions_opened_by_target()
        self.received += self.latest
        self._record_readings(self.latest)
        return self.latest

    def _record_readings(self, packets: list[Received]) -> None:
        """What the target's packets show of the readings its internal packets may take (D-85, D-86, D-87)."""
        for packet in packets:
            if packet.internal and packet.kind != "unreadable":
                self.world.observe("D-86", "zero" if packet.priority == 0 else "nonzero")
            if packet.kind == "SessionAck":
                self.world.observe("D-85", packet.session_ack_framing)
            if packet.kind == "EstablishConnection" and packet.session == "own":
                self.world.observe("D-87", "set" if packet.fields[3] & OS_SERVER_CLASS else "clear")

    def _accept_sessions_opened_by_target(self) -> list[Received]:
        """A target may deliver to this queue manager on a session it opens itself (D-76 new-session): answer its
        set-up as an acceptor (MS-MQQB 3.1.5.3.1, 3.1.5.4.1) and read what comes on it."""
        for connection in self.connection.opened_by_target():
            self.opened_by_target.append((connection, Stream()))
            self.session_names[connection] = f"opened by the target #{len(self.session_names) + 1}"
        got = []
        for connection, stream in self.opened_by_target:
            while True:
                packets = [decode(packet) for packet in stream.feed(connection.receive(0))]
                assert stream.broken is None, stream.broken
                if not packets:
                    break
                for packet in packets:
                    packet.session = self.session_names[connection]
                    if packet.kind == "EstablishConnection":
                        connection.send(_faulty(establish_connection_response(packet, self.guid), self.answer_fault))
                    elif packet.kind == "ConnectionParameters":
                        connection.send(connection_parameters_response(packet, WINDOW))
                    if packet.internal and packet.kind != "SessionAck":
                        self.set_up_by_target.append(packet)
                    got.append(packet)
        return got

    def connection_of(self, session: str):
        """The connection of a session by the name its packets carry: "own", or one the target opened."""
        if session == "own":
            return self.connection
        return next(connection for connection, name in self.session_names.items() if name == session)

    def expect(self, kind: str) -> Received:
        """The next packet, which must be `kind` (session set-up)."""
        deadline = time.monotonic() + HANDSHAKE_WAIT_MS / 1000
        while time.monotonic() < deadline:
            got = self.collect(HANDSHAKE_WAIT_MS, move_clock=False)
            if got:
                assert got[0].kind == kind, f"{self.name!r} expected {kind}, got {got[0].kind}"
                return got[0]
            if self.connection.closed:
                break
        raise AssertionError(f"the target sent no {kind} to {self.name!r}"
                             + (" and closed the connection" if self.connection.closed else ""))

    def close(self) -> None:
        self.connection.close()
        for connection, _ in self.opened_by_target:
            connection.close()


def sid_bytes(text: str) -> bytes:
    """MS-DTYP 2.4.2.2 the SID structure of 'S-1-<authority>-<sub>-...': revision, count, a big-endian
    6-byte IdentifierAuthority, then the little-endian SubAuthority values."""
    _, revision, authority, *subs = text.split("-")
    return struct.pack("<BB", int(revision), len(subs)) + int(authority).to_bytes(6, "big") + \
        b"".join(struct.pack("<I", int(sub)) for sub in subs)


def _peer(world: World, name: str) -> Peer:
    peers = world.notes.get("mqqb peers", {})
    if name not in peers:
        raise KeyError(f"no queue manager {name!r} with a session in this scenario")
    return peers[name]


@given(phrase('a queue name "{alias}" for the format name "{name}"'))
def named_format_name(world, alias, name):
    """A queue the scenario names by a format name of its own (a public queue's PUBLIC=<GUID>, MS-MQMQ 2.1.3), which
    the target need not hold; "{target}" stands for the target's queue manager GUID, "{queue manager of NAME}" for
    the GUID of the queue manager the suite plays as NAME."""
    name = name.replace("{target}", str(uuid.UUID(bytes_le=world.target.queue_manager_identifier)))
    world.queues[alias] = re.sub(r"\{queue manager of (\w+)\}",
                                 lambda found: str(uuid.UUID(bytes_le=_peer(world, found[1]).guid)), name)


@given(phrase('another queue manager "{remote}" with an MS-MQQB session to the target'))
def peer_with_session(world, remote, request):
    open_session(world, remote, request)


@given(phrase('another queue manager "{remote}" connected to the target with no session'))
def peer_without_session(world, remote, request):
    """A transport connection and nothing else: no EstablishConnection (what the public 1801 scanners do)."""
    world.require("mqqb_peer")
    peer = Peer(world, remote)
    request.addfinalizer(peer.close)
    world.notes.setdefault("mqqb peers", {})[remote] = peer


@given(phrase('another queue manager "{twin}" with the GUID of "{remote}" connected to the target with no session'))
def twin_without_session(world, twin, remote, request):
    """A second transport connection from the same queue manager (its GUID), and nothing on it yet."""
    peer_without_session(world, twin, request)
    _peer(world, twin).guid = _peer(world, remote).guid


def open_session(world, remote: str, request, guid: bytes | None = None) -> Peer:
    """A peer named `remote` (with the GUID `guid`, else a random one) whose session the target has accepted."""
    world.require("mqqb_peer")
    peer = Peer(world, remote)
    request.addfinalizer(peer.close)
    if guid is not None:
        peer.guid = guid
        assert peer.guid != world.target.queue_manager_identifier, "the chosen GUID is the target's own"
    world.notes.setdefault("mqqb peers", {})[remote] = peer
    peer.send(establish_connection(peer.guid, world.target.queue_manager_identifier,
                                   int(time.monotonic() * 1000)))
    answer = peer.expect("EstablishConnection")
    assert not answer.internal_flags & 0x10, "the target refused the session (InternalHeader.Flags.CS)"
    peer.send(connection_parameters(RECOVERABLE_ACK_TIMEOUT, ACK_TIMEOUT, WINDOW))
    peer.expect("ConnectionParameters")
    return peer


SYSTEM_QUEUES = {"the dead-letter queue": "DEADLETTER", "the transactional dead-letter queue": "DEADXACT"}


def _direct_name(world: World, alias: str) -> str:
    """MS-MQMQ 2.1.2 the queue's direct format name; "<queue> journal" names its journal (2.1.8 ;JOURNAL), a
    dead-letter queue is SYSTEM$ with its suffix (2.1.8)."""
    if alias in SYSTEM_QUEUES:
        return f"DIRECT=OS:{world.target.computer_name}\\SYSTEM$;{SYSTEM_QUEUES[alias]}"
    if alias.endswith(" journal"):
        return "DIRECT=OS:" + world.pathname(alias[:-len(" journal")]) + ";JOURNAL"
    return "DIRECT=OS:" + world.pathname(alias)


def _named_directly(world: World, alias: str) -> bool:
    """A target whose own name for the queue is already a direct format name (a Windows host's, msmq://)."""
    return world.queue(alias).upper().startswith("DIRECT=")


def _destination(world: World, alias: str, packet_fields: dict[str, str], direct: bool) -> str:
    """The destination format name the packet carries; `DQ keyword` kept writes a direct name's field with its
    DIRECT= keyword (MS-MQMQ 2.1.2's whole format name, D-99) instead of the text after it."""
    name = ("DIRECT=" + packet_fields["DQ name"]) if "DQ name" in packet_fields else \
        _direct_name(world, alias) if direct and not _named_directly(world, alias) else world.queue(alias)
    keyword = packet_fields.get("DQ keyword", "dropped")
    assert keyword in ("kept", "dropped"), f"DQ keyword is kept or dropped, not {keyword!r}"
    if keyword == "kept":
        assert name.upper().startswith("DIRECT="), f"DQ keyword kept needs a direct name, not {name!r}"
        return "DIRECT=" + name
    return name


def _an_acknowledgment(packet: bytes, out: Outgoing) -> bool:
    """MS-MQQB 3.1.5.1.1: BaseHeader.Flags 0, the Label 'QM Ordering Ack', the order queue (order_queue$ by a direct
    name) and MQMSG_CLASS_ORDER_ACK or a class not less than 0x4000 make an OrderAck or FinalAck, which 3.1.5.6 and
    3.1.5.7 take and 3.1.5.8.2 never sees."""
    return (struct.unpack_from("<H", packet, 2)[0] == 0 and out.label == ORDER_ACK_LABEL
            and out.destination.lower().endswith(ORDER_QUEUE_TAIL)
            and (out.message_class == ORDER_ACK or out.message_class >= FIRST_FINAL_ACK))


def _send(world: World, remote: str, label: str, alias: str, packet_fields: dict[str, str],
          direct: bool = False, write: bool = True, session: str = "own") -> bytes:
    """`direct`: name the queue by its direct format name (MS-MQMQ 2.1.2, DQ 7) instead of the target's name for it;
    `session`: the session to write it on, the peer's own or one the target opened (D-76), whose counts it joins."""
    peer = _peer(world, remote)
    prepared = world.notes.get("prepared", {})
    if label not in prepared:
        raise KeyError(f"no prepared message {label!r}; use 'message \"{label}\" is prepared with:'")
    props = prepared[label]
    unknown = [name for name in packet_fields if name not in PACKET_FIELDS]
    assert not unknown, f"unknown packet fields {unknown}; known: {', '.join(PACKET_FIELDS)}"
    peer.ordinal += 1
    transaction = None
    if packet_fields.get("TH") == "1":
        _move_sequence(peer, packet_fields.get("TxSequenceID"))
        peer.tx_number = int(packet_fields.get("TxSequenceNumber", str(peer.tx_number + 1)), 0)
        previous = int(packet_fields.get("TxPreviousSequenceNumber", str(peer.tx_number - 1)), 0)
        transaction = (packet_fields.get("FA") == "1", peer.tx_sequence_id, peer.tx_number, previous)
        peer.transactions[label] = transaction
    now = int(time.time())
    out = Outgoing(
        source=peer.guid, destination_qm=world.target.queue_manager_identifier, message_id=peer.ordinal,
        destination=_destination(world, alias, packet_fields, direct),
        admin=props.admin_queue, response=props.response_queue,
        codes={key: int(packet_fields[key]) for key in ("DQ", "AQ", "RQ") if key in packet_fields},
        priority=3 if props.priority is None else props.priority,
        delivery=1 if props.delivery == "recoverable" else 0,
        positive_journaling=props.positive_journaling, negative_journaling=props.negative_journaling,
        time_to_reach_queue=0x54600 if props.time_to_reach_queue is None else props.time_to_reach_queue,
        time_to_be_received=0xFFFFFFFF if props.time_to_be_received is None else props.time_to_be_received,
        sent_time=props.sent_time or now, transaction=transaction, encrypted_body=packet_fields.get("EB") == "1",
        acknowledgements=props.acknowledgements, message_class=props.message_class,
        # a label of that many characters, the name first (MS-MQMQ 2.2.19.3: LabelLength counts them and the NUL)
        label=label.ljust(int(packet_fields.get("Label characters", len(label))), "x"),
        correlation_id=props.correlation_id, body=props.body, privacy_level=props.privacy_level,
        srmp_envelope=(props.srmp_envelope or SRMP_ENVELOPE) if packet_fields.get("AH") == "1" else None,
        soap=(packet_fields.get("SoapHeader", ""), packet_fields.get("SoapBody", ""))
        if {"SoapHeader", "SoapBody"} & set(packet_fields) else None,
        multi_queue_format=packet_fields.get("MQF") == "1",
        forced={key: int(packet_fields[key], 0) for key in FORCED_FIELDS if key in packet_fields},
        sender_id=sid_bytes(packet_fields["SID"]) if "SID" in packet_fields else b"",
        sender_certificate=packet_fields.get("SenderCert", "").encode(),
        signature=bytes.fromhex(packet_fields.get("Signature item", "")),
        body_type=number(packet_fields.get("BodyType", "0")),
        application_tag=number(packet_fields.get("ApplicationTag", "0")),
        extension=packet_fields.get("Extension", "").encode(),
        connector_guid=bytes(range(0xC0, 0xD0)) if packet_fields.get("CG") == "1" else b"",
        transaction_bits={key: int(packet_fields[key], 0) for key in ("FM", "LM", "XactIndex") if key in packet_fields})
    if "SessionHeader" in packet_fields:
        out.session_header = _carried_session_header(peer, out, packet_fields["SessionHeader"])
    if "HashAlgorithm" in packet_fields:
        out.hash_algorithm = number(packet_fields["HashAlgorithm"])
    if "EncryptionAlgorithm" in packet_fields:
        out.encryption_algorithm = number(packet_fields["EncryptionAlgorithm"])
    try:
        packet = user_message(out)
    except ValueError as error:   # DQ 2-6 need a PRIVATE= name; a target may name its queues directly (msmq://)
        pytest.skip(f"not run: {world.target.name} named {alias!r} {world.queue(alias)!r}, and a packet field of "
                    f"the scenario cannot carry that name ({error})")
    packet = with_base_fields(packet, packet_fields)
    if write:
        peer.send(packet, session)
    if session == "own":   # MS-MQQB 3.1.1.3.1: each session counts its own packets
        # MS-MQQB:3.1.5.8.2:05 DirectFormatSession: a UserMessage whose DQ is 7, never an OrderAck or FinalAck
        peer.direct_session = peer.direct_session or (struct.unpack_from("<I", packet, 60)[0] >> 10 & 7 == 7
                                                      and not _an_acknowledgment(packet, out))
        peer.recoverable_sent += 1 if out.delivery or transaction is not None else 0
    world.notes.setdefault("mqqb sent", {})[label] = out
    world.notes.setdefault("mqqb packets", {})[label] = packet
    # MS-MQMQ 2.2.18.1.3 the receiver knows the message by the sender's GUID and the MessageID
    world.sent[label] = Sent(label, world.queue(alias), peer.guid + struct.pack("<I", peer.ordinal),
                             transactional=transaction is not None)
    world.notes.setdefault("bodies", {})[label] = props.body
    return packet


@when(phrase('"{remote}" sends the prepared messages "{first}" and "{second}" to "{alias}" in one write'))
def peer_sends_two_at_once(world, remote, first, second, alias):
    """MS-MQQB 2.1.1 a TCP stream: two whole packets may come in one segment; the receiver frames both."""
    _peer(world, remote).send(_send(world, remote, first, alias, {}, write=False)
                              + _send(world, remote, second, alias, {}, write=False))


# a GUID written at its offset (MS-MQQB 2.2.3.1), below or above any other, or an InternalHeader.Flags bit (2.2.1):
# CS, or the reserved X5 a receiver ignores
ANSWER_FAULTS = {"another ServerGuid": (36, bytes(range(16))), "another ClientGuid": (20, bytes(range(16, 32))),
                 "a ServerGuid above the asked one": (36, b"\xff" * 16),
                 "a ClientGuid above the target's": (20, b"\xff" * 16), "CS set": 0x0010,
                 "the reserved InternalHeader flag X5 set": 0x0020}


def _faulty(response: bytes, fault: str | None) -> bytes:
    """An EstablishConnection response with one field made wrong: an InternalHeader flag set (CS, or a reserved
    one), or a GUID that is not the one the initiator named or its own."""
    if fault is None:
        return response
    if isinstance(ANSWER_FAULTS[fault], int):
        flags = struct.unpack_from("<H", response, 18)[0] | ANSWER_FAULTS[fault]
        return response[:18] + struct.pack("<H", flags) + response[20:]
    offset, guid = ANSWER_FAULTS[fault]
    return response[:offset] + guid + response[offset + len(guid):]


def _carried_session_header(peer: Peer, out: Outgoing, how: str) -> bytes:
    """MS-MQMQ 2.2.20.4 a SessionHeader in this UserMessage: what the peer received from the target, and what it has
    sent, this packet counted (MS-MQQB 3.1.5.8.2 counts it before 3.1.5.8.4 reads the header); "miscounting" claims
    five more."""
    assert how in ("counting", "miscounting"), f"SessionHeader is counting or miscounting, not {how!r}"
    received = sum(1 for packet in peer.received if not packet.internal and packet.session == "own")
    recoverable = peer.recoverable_sent + (1 if out.delivery or out.transaction is not None else 0)
    extra = 5 if how == "miscounting" else 0
    return struct.pack("<HHIHHHH", received, 0, 0, (peer.ordinal + extra) & 0xFFFF, recoverable & 0xFFFF, WINDOW, 0)


def _move_sequence(peer: Peer, which: str | None) -> None:
    """TxSequenceID "next" or "previous": the sequence after or before the peer's (MS-MQMQ 2.2.18.1.2: Ordinal, then
    Timestamp), or "zero" (Ordinal 0, Timestamp 0: a receiver's IncomingTxSequenceID before any, MS-MQQB 3.1.3.2),
    numbered afresh."""
    if which is None:
        return
    assert which in ("next", "previous", "zero"), f"TxSequenceID is next, previous or zero, not {which!r}"
    ordinal, stamp = struct.unpack("<II", peer.tx_sequence_id)
    peer.tx_sequence_id = bytes(8) if which == "zero" else \
        struct.pack("<II", ordinal + (1 if which == "next" else -1), stamp)
    peer.tx_number = 0


def with_base_fields(packet: bytes, fields: dict[str, str]) -> bytes:
    """The packet with a BaseHeader VersionNumber (byte 0) or Signature (bytes 4-7) of the scenario's
    (MS-MQMQ 2.2.19.1)."""
    packet = bytearray(packet)
    if "VersionNumber" in fields:
        packet[0] = int(fields["VersionNumber"], 0)
    if "Signature" in fields:
        struct.pack_into("<I", packet, 4, int(fields["Signature"], 0))
    return bytes(packet)


@given(phrase('"{remote}" sends the prepared message "{label}" to "{alias}"'))
@when(phrase('"{remote}" sends the prepared message "{label}" to "{alias}"'))
def peer_sends(world, remote, label, alias):
    _send(world, remote, label, alias, {})


@when(phrase('"{remote}" sends the packet of "{label}" again, octet for octet'))
def peer_sends_again(world, remote, label):
    """The same UserMessage again, as a sender that saw no OrderAck for it resends it (MS-MQQB 3.1.5.8.6): its
    TxSequenceID and TxSequenceNumber are those of a packet the target already took."""
    peer = _peer(world, remote)
    peer.send(world.notes["mqqb packets"][label])
    peer.recoverable_sent += 1


@when(phrase('"{remote}" closes the sessions the target opened to it'))
def peer_closes_target_sessions(world, remote):
    """MS-MQQB 3.1.7.3: the transports of the sessions the target opened (D-76 new-session) go away; under D-76
    same-session there are none."""
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)
    for connection, _ in peer.opened_by_target:
        connection.close()
    peer.opened_by_target = []


@when(phrase('"{remote}" sends the prepared message "{label}" to "{alias}" {count:d} times'))
def peer_sends_repeatedly(world, remote, label, alias, count):
    for _ in range(min(count, 1000)):   # bounded: a scenario's own figure
        _send(world, remote, label, alias, {})


@given(phrase('"{remote}" sends the prepared message "{label}" to "{alias}" with packet fields:'))
@when(phrase('"{remote}" sends the prepared message "{label}" to "{alias}" with packet fields:'))
def peer_sends_with(world, remote, label, alias, datatable):
    _send(world, remote, label, alias, {key.strip(): value.strip() for key, value in datatable})


@when(phrase('"{remote}" acknowledges the session with a SessionAck of PacketSize {size:d}'))
def peer_acknowledges(world, remote, size):
    """MS-MQQB 2.2.6 a SessionAck counting what "remote" received and sent; PacketSize 20 is MS-MQMQ 2.2.19.1's
    framing, 36 Windows' (MS-MQQB 4.1.8, D-85)."""
    assert size in (20, 36), f"a SessionAck has PacketSize 20 or 36, not {size}"
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)
    received = sum(1 for packet in peer.received if not packet.internal and packet.session == "own")
    peer.send(session_ack(received, 0, 0, peer.ordinal, peer.recoverable_sent, WINDOW, session_counted=size == 36))
@when(phrase('"{remote}" sends the prepared message "{label}" to "{alias}" by its direct name with packet fields:'))
def peer_sends_direct_with(world, remote, label, alias, datatable):
    _send(world, remote, label, alias, {key.strip(): value.strip() for key, value in datatable}, direct=True)


@when(phrase('"{remote}" waits {ms:d} ms for the target\'s packets'))
def peer_waits(world, remote, ms):
    _peer(world, remote).collect(ms, move_clock=True)


# -- the session ------------------------------------------------------------------------------

@then(phrase('the target closed the session of "{remote}"'))
def session_closed(world, remote):
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)
    assert peer.connection.closed, f"the session of {remote!r} is still open"


@then(phrase('the session of "{remote}" is still open'))
def session_open(world, remote):
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)
    assert not peer.connection.closed, f"the target closed the session of {remote!r}"


@then(phrase('by D-88 the target closes the connection of "{remote}" unanswered (close) or answers it first (answer)'))
def sessionless_answer(world, remote):
    """MS-MQQB 3.1.5.8 closes a session that sends a UserMessage before it is OPEN; Windows answers one sent before
    any EstablishConnection (D-88).  An answer is packets of the protocol: the stream checks each BaseHeader."""
    peer = _peer(world, remote)
    got = peer.collect(1000, move_clock=False)
    if got:
        world.observe("D-88", "answer")
        return
    assert peer.connection.closed, f"the target neither answered {remote!r} nor closed its connection"
    world.observe("D-88", "close")


@then(phrase('the EstablishConnection "{remote}" received has OperatingSystem.RE 0x10, the SE bit it sent, '
             'either OS bit and 512 bytes of padding 0x5A'))
def establish_response_fields(world, remote):
    peer = _peer(world, remote)
    answers = [packet for packet in peer.received if packet.kind == "EstablishConnection" and packet.session == "own"]
    assert answers, f"{remote!r} received no EstablishConnection"
    operating_system = answers[0].fields[3]
    # MS-MQQB 2.2.3.1 RE 0x10; SE echoed (the suite's request sends SE 1); OS left to the acceptor (D-87)
    assert operating_system & 0xFF == 0x10, f"OperatingSystem.RE is 0x{operating_system & 0xFF:02X}"
    assert operating_system & 0x100, f"OperatingSystem 0x{operating_system:04X}: SE is not the 1 the request sent"
    assert answers[0].padding == b"\x5A" * 512, "the response's padding is not 512 bytes of 0x5A"
    assert not answers[0].problems, f"the response: {answers[0].problems}"   # Reserved 0, 572 bytes (decode)


@then(phrase('the ConnectionParameters "{remote}" received has Reserved 0 and PacketSize 32'))
def parameters_response_fields(world, remote):
    """MS-MQQB 2.2.2.1: Reserved MUST be 0x0000 when sent; 2.2.2: BaseHeader, InternalHeader and the 12-byte header."""
    answers = [p for p in _peer(world, remote).received if p.kind == "ConnectionParameters" and p.session == "own"]
    assert answers, f"{remote!r} received no ConnectionParameters"
    assert not answers[0].problems, f"the ConnectionParameters: {answers[0].problems}"   # Reserved 0, 32 bytes


@then(phrase('"{remote}" received an EstablishConnection, a ConnectionParameters and a SessionAck packet'))
def received_internal_kinds(world, remote):
    kinds = {packet.kind for packet in _peer(world, remote).received}
    missing = {"EstablishConnection", "ConnectionParameters", "SessionAck"} - kinds
    assert not missing, f"{remote!r} received no {', '.join(sorted(missing))} (it received {sorted(kinds)})"


RESERVED_BASE_FLAGS = 0xFEC0   # MS-MQMQ 2.2.19.1 BaseHeader.Flags X9, X8 and X6 - X0 (bits 6, 7, 9 - 15)


@then(phrase('every packet "{remote}" received sets no reserved BaseHeader flag'))
def no_reserved_base_flags(world, remote):
    """MS-MQMQ 2.2.19.1: the reserved flag bits SHOULD NOT be set when sent."""
    received = _peer(world, remote).received
    assert received, f"{remote!r} received nothing"
    for packet in received:
        assert not packet.base_flags & RESERVED_BASE_FLAGS, \
            f"a {packet.kind} packet has BaseHeader.Flags 0x{packet.base_flags:04X}: reserved bits set"


@then(phrase('every packet "{remote}" received that is not a UserMessage has TimeToReachQueue 0xFFFFFFFF'))
def internal_packets_never_expire(world, remote):
    internal = [packet for packet in _peer(world, remote).received if packet.internal]
    assert internal, f"{remote!r} received no packet that is not a UserMessage"
    for packet in internal:  # MS-MQMQ 2.2.19.1 TimeToReachQueue of a packet that is not a UserMessage
        assert packet.time_to_reach_queue == 0xFFFFFFFF, \
            f"a {packet.kind} packet has TimeToReachQueue 0x{packet.time_to_reach_queue:08X}, not 0xFFFFFFFF"


# -- session acknowledgments (MS-MQMQ 2.2.20.4) ---------------------------------------------------

def _recoverable_numbers(text: str) -> set[int]:
    text = text.strip()
    return set() if text == "none" else {int(part) for part in text.replace(" and ", ",").split(",")}


@then(phrase('the session acknowledgments of "{remote}"\'s last wait acknowledge {count:d} messages and the '
             'recoverable messages {numbers}', numbers=r"none|\d+(?:(?:, | and )\d+)*"))
def session_acknowledgments(world, remote, count, numbers):
    """The SessionAcks the last wait brought: the last one counts every packet received (AckSequenceNumber), and
    together they name the recoverable packets stored since the wait before, each by RecoverableMsgAckSeqNumber
    plus the position of its bit in RecoverableMsgAckFlags."""
    acks = [packet for packet in _peer(world, remote).latest if packet.kind == "SessionAck" and packet.session == "own"]
    assert acks, f"{remote!r} received no SessionAck in its last wait"
    assert acks[-1].fields[0] == count, f"AckSequenceNumber is {acks[-1].fields[0]}, expected {count}"
    assert not acks[-1].problems, f"the SessionAck: {acks[-1].problems}"   # MS-MQQB:2.2.1:02
    named = set()
    for ack in acks:
        first, flags = ack.fields[1], ack.fields[2]
        # MS-MQMQ 2.2.20.4: RecoverableMsgAckSeqNumber is 0 exactly when no recoverable packet is acknowledged
        assert (first == 0) == (flags == 0), \
            f"RecoverableMsgAckSeqNumber is {first} and RecoverableMsgAckFlags 0x{flags:08X}"
        named |= {first + bit for bit in range(32) if flags >> bit & 1}
    expected = _recoverable_numbers(numbers)
    assert named == expected, f"the SessionAcks name the recoverable messages {sorted(named)}, expected {sorted(expected)}"


@then(phrase('"{remote}" received no SessionAck in its last wait'))
def no_session_ack(world, remote):
    world.require("virtual_time")   # "not yet" is judged just short of the timer's expiry, which a wall clock passes
    acks = [packet for packet in _peer(world, remote).latest if packet.kind == "SessionAck" and packet.session == "own"]
    assert not acks, f"{remote!r} received {len(acks)} SessionAck(s) already, AckSequenceNumber {acks[-1].fields[0]}"


@then(phrase('"{remote}" received at once a SessionAck naming the recoverable messages {first:d} to {last:d}'))
def immediate_session_ack(world, remote, first, last):
    """MS-MQQB 3.1.5.8.7 (D-78): once RecoverableMsgAckFlags' 32 bits are all unacknowledged, the next recoverable
    packet brings a SessionAck at once, before any timer: read without letting the target's clock move, the first
    SessionAck since the scenario last waited."""
    world.require("virtual_time")   # a clock that runs may fire the Session Ack timer while the 33 packets go out
    acks = [packet for packet in _peer(world, remote).collect(SETTLE_MS, move_clock=False)
            if packet.kind == "SessionAck" and packet.session == "own"]
    assert acks, f"{remote!r} received no SessionAck before any time passed"
    named = [acks[0].fields[1] + bit for bit in range(32) if acks[0].fields[2] >> bit & 1]
    assert named == list(range(first, last + 1)), f"the first SessionAck names the recoverable messages {named}"


@then(phrase('by D-98 a SessionAck in "{remote}"\'s last wait named the recoverable message {number:d} (timer), or '
             'none came (literal)'))
def flagged_packet_acknowledged(world, remote, number):
    """D-98: after an immediate SessionAck, the restarted Session Ack Send timer names the packet that brought it,
    or sends nothing until another packet comes (MS-MQQB 3.1.6.4 read literally)."""
    world.require("virtual_time")   # which timer fired is told by the virtual clock's wait
    acks = [packet for packet in _peer(world, remote).latest if packet.kind == "SessionAck" and packet.session == "own"]
    if not acks:
        world.observe("D-98", "literal")
        return
    named = {ack.fields[1] + bit for ack in acks for bit in range(32) if ack.fields[2] >> bit & 1}
    assert named == {number}, f"the SessionAcks of the last wait name the recoverable messages {sorted(named)}, " \
                              f"expected only {number} (D-98 timer) or no SessionAck (literal)"
    world.observe("D-98", "timer")


@then(phrase('every session acknowledgment "{remote}" received counts the packets the target sent it and has a '
             'WindowSize from 0x0001 to 0xFFFF'))
def session_acknowledgments_count_what_was_sent(world, remote):
    peer = _peer(world, remote)
    sent = recoverable = 0
    seen = False
    for packet in [p for p in peer.received if p.session == "own"]:  # each SessionAck counts the packets before it
        if packet.kind == "SessionAck":
            seen = True
            _, _, _, user_count, recoverable_count, window, _ = packet.fields
            assert (user_count, recoverable_count) == (sent, recoverable), \
                f"a SessionAck counts {user_count} UserMessage packets ({recoverable_count} recoverable) sent, " \
                f"but {remote!r} had received {sent} ({recoverable} recoverable)"
            assert 1 <= window <= 0xFFFF, f"WindowSize is {window}"  # MS-MQMQ 2.2.20.4 valid range
        elif not packet.internal:
            sent += 1
            recoverable += 1 if packet.user_flags >> 5 & 3 else 0
    assert seen, f"{remote!r} received no SessionAck"


# -- final acknowledgments (MS-MQQB 2.2.5, 3.1.7.2.2) ---------------------------------------------
FINAL_ACK_FLAGS = "MS-MQQB:2.2.5:01"
_MP = 1 << 21   # MS-MQMQ 2.2.19.2 UserHeader.Flags.MP: a MessagePropertiesHeader follows

def _final_acks(world: World, remote: str, label: str) -> list[Received]:
    peer = _peer(world, remote)
    peer.collect(2000, move_clock=True)
    sent = world.sent.get(label)
    assert sent is not None and label in peer.transactions, f"{remote!r} sent no transactional message {label!r}"
    message_id = struct.unpack("<I", sent.message_id[16:20])[0]
    found = []
    for packet in peer.received:
        if packet.kind != "FinalAck" or len(packet.body) != 36:
            continue
        sequence_id, number, previous, source, acknowledged = struct.unpack("<8sII16sI", packet.body)  # 2.2.5.1
        if source == peer.guid and acknowledged == message_id:
            dq = packet.user_flags >> 10 & 7
            if packet.user_flags != (_MP | 1 << 5 | dq << 10) or dq not in (3, 7) or packet.properties_flags \
                    or packet.privacy_level or packet.problems:   # MS-MQQB 2.2.5 Flags 0; 2.2.5.1 a clear body
                raise clause_failure(f"the FinalAck of {label!r} has UserHeader.Flags {packet.user_flags:#010x}, "
                                     f"MessagePropertiesHeader.Flags {packet.properties_flags:#04x}, PrivacyLevel "
                                     f"{packet.privacy_level} "
                                     f"{packet.problems or ''}: MP, DM 1 (recoverable) and DQ 3 or 7 alone, Flags 0 "
                                     f"({FINAL_ACK_FLAGS})", FINAL_ACK_FLAGS)
            check_order_queue(peer, packet, f"the FinalAck of {label!r}")
            assert (sequence_id, number, previous) == peer.transactions[label][1:], \
                f"the FinalAck of {label!r} names TxSequence {sequence_id.hex()}/{number}/{previous}, not the " \
                f"TransactionHeader it was sent with"
            found.append(packet)
    return found


ORDER_QUEUE = "MS-MQQB:3.1.7.17:01"


def check_order_queue(peer: Peer, packet: Received, what: str) -> None:
    """MS-MQQB 3.1.7.17 (2.2.4, 2.2.5): a transactional acknowledgment goes to the sender's order queue, named by
    PrivateQueueIdentifier 4 of the sender's GUID (DQ 3), or by TCP:<address>\\PRIVATE$\\order_queue$ (DQ 7) on a
    session that carried a packet addressed by a direct name (DirectFormatSession)."""
    dq = packet.user_flags >> 10 & 7
    if peer.direct_session:
        name = packet.destination if isinstance(packet.destination, str) else ""
        if dq != 7 or not name.upper().startswith("TCP:") or not name.lower().endswith(ORDER_QUEUE_TAIL):
            raise clause_failure(f"{what} names DQ {dq} {packet.destination!r}; on a session that carried a direct "
                                 f"name it is TCP:<address>\\PRIVATE$\\order_queue$ (DQ 7, {ORDER_QUEUE})",
                                 ORDER_QUEUE)
    elif dq != 3 or packet.destination != 4 or packet.queue_manager_address != peer.guid:
        raise clause_failure(f"{what} names DQ {dq} {packet.destination!r} of "
                             f"{uuid.UUID(bytes_le=packet.queue_manager_address or bytes(16))}; the sender's order queue "
                             f"is its private queue 4 (DQ 3, {ORDER_QUEUE})", ORDER_QUEUE)


@then(phrase('"{remote}" received a FinalAck of class {cls} for "{label}"', cls=r"\w+"))
def final_ack_received(world, remote, cls, label):
    """The FinalAck comes on the session "remote" opened (D-76 same-session) or on one the target opened to it
    (new-session); the step takes either and records which."""
    found = _final_acks(world, remote, label)
    classes = [_class_name(packet.message_class) for packet in found]
    assert classes == [cls], f"{remote!r} received FinalAcks {classes or 'none'} for {label!r}, expected [{cls}]"
    world.observe("D-76", "same-session" if found[0].session == "own" else "new-session")


@then(phrase('"{remote}" received no FinalAck for "{label}"'))
def no_final_ack(world, remote, label):
    found = _final_acks(world, remote, label)
    assert not found, f"{remote!r} received FinalAcks {[_class_name(p.message_class) for p in found]} for {label!r}"


@then(phrase('"{remote}" received no FinalAck at all'))
def no_final_ack_at_all(world, remote):
    peer = _peer(world, remote)
    peer.collect(2000, move_clock=True)
    found = [packet for packet in peer.received if packet.kind == "FinalAck"]
    assert not found, f"{remote!r} received FinalAcks {[_class_name(p.message_class) for p in found]}"


def _class_name(value: int) -> str:
    try:
        return MessageClass(value).name
    except ValueError:
        return f"0x{value:04X}"



# -- D-90: a UserMessage with AH on an MS-MQQB session -------------------------------------------

@then(phrase('by D-90 the session of "{remote}" stays open and "{alias}" holds "{label}" ({read}), or the target '
             'closed the session and "{alias2}" holds nothing ({refuse})', read=r"[a-z-]+", refuse=r"[a-z-]+"))
def srmp_message_by_decision(world, remote, alias, label, read, alias2, refuse):
    """MS-MQMQ 2.2.19.2 forbids a sender AH and says nothing of a receiver: a well-formed SRMP message is delivered
    (the first reading) or its session closed (the second), never stored with the session closed."""
    peer = _peer(world, remote)
    peer.collect(0, move_clock=False)
    held = [message.label for message in world.messages(alias)]
    if peer.connection.closed:
        assert not held, f"the target closed the session of {remote!r}, yet {alias2!r} holds {held}"
        world.observe("D-90", refuse)
        return
    assert held == [label], f"the session of {remote!r} is open and {alias!r} holds {held}, not [{label!r}]"
    world.observe("D-90", read)
