"""Steps that send messages of any shape and check the packets reads return.

Checks go through the suite's own packet reader (packet_reader.py).  A few need
fields the reader does not keep (BaseHeader flags, reserved bits, the
TransactionHeader id, TargetSubqueueName, the MultiQueueFormatHeader list); a small
subclass of the reader notes them while it walks the packet (`_Probe`).
"""

from __future__ import annotations

import re
import struct
import uuid

from pytest_bdd import given, parsers, then, when

from mqspec.adapters import MessageProperties
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .names import expand, value
from .packet_checks import (
    Spliced,
    align4,
    check_records,
    direct_name,
    judge_split,
    private_name,
    public_name,
)
from .packet_reader import DecodedMessage, _Decoder, read_sections
from .phrases import named
from .setup_steps import properties, send
from .values import acknowledgements, labels
from .world import MAX_SIZE, Sent, World

# -- sending messages of any shape ------------------------------------------------------------

EXTRA_PROPERTIES = {
    "correlation id": lambda world, text: ("correlation_id", text.encode().ljust(20, b"\0")[:20]),
    "application tag": lambda world, text: ("application_tag", value(text)),
    "body type": lambda world, text: ("body_type", value(text)),
    "extension": lambda world, text: ("extension", text.encode()),
    "admin format name": lambda world, text: ("admin_queue", expand(world, text)),
    "response format name": lambda world, text: ("response_queue", expand(world, text)),
    "tracing": lambda world, text: ("extra:tracing_requested", text == "yes"),
    "dead-letter path": lambda world, text: ("extra:deadletter_path_name", expand(world, text)),
}


@when(named(r"^message {label} is sent to {alias} carrying:$"))
@given(named(r"^message {label} is sent to {alias} carrying:$"))
def send_carrying(world, label, alias, datatable):
    """Like `... is sent to ... with:` plus the properties of EXTRA_PROPERTIES, a `label` row that
    may hold template tokens (long labels), and a `transaction` row.  The queue may also be a
    format-name template (anything with '=')."""
    rows = {key.strip(): text.strip() for key, text in datatable}
    transaction = rows.pop("transaction", "") or None
    extra = {key: rows.pop(key) for key in list(rows) if key in EXTRA_PROPERTIES}
    actual_label = expand(world, rows.pop("label", label))
    props = properties(world, {"label": actual_label, **rows})
    for key, text in extra.items():
        if text == "":
            continue
        name, converted = EXTRA_PROPERTIES[key](world, text)
        if name.startswith("extra:"):
            props.extra[name[len("extra:"):]] = converted
        else:
            setattr(props, name, converted)
    if "=" in alias:  # a format-name template instead of a queue of the scenario
        format_name = expand(world, alias)
        uow = world.transactions[transaction] if transaction else None
        out = world.target.send(format_name, props, uow)
        world.record(out)
    else:
        format_name = world.queue(alias)
        out = send(world, alias, props, transaction)
    sent = Sent(actual_label, format_name, out.message_id, transaction is not None)
    world.sent[actual_label] = world.sent[label] = sent
    world.notes.setdefault("labels", {})[label] = actual_label


@when(named(r"^a message is sent to the format name {name}$"))
def send_to_format_name(world, name):
    """The set-up send to a format-name template; the send steps of setup_steps check the result."""
    text = expand(world, name)
    out = world.target.send(text, MessageProperties(label="by format name"))
    world.record(out)
    world.sent["by format name"] = Sent("by format name", text, out.message_id)


# -- reading packets --------------------------------------------------------------------------

@when(named(r"^every message in {alias} is peeked$"))
def peek_every(world, alias):
    """Keep the packet of each message of the queue, by label, for `the packet of "x" ...`."""
    out = world.target.read_queue(world.queue(alias))
    assert out.hresult == HRESULT.MQ_OK, f"reading {alias!r}: {describe_hresult(out.hresult)}"
    packets = world.notes.setdefault("packets", {})
    for message in out.messages:
        sections = tuple(message.pp_packet_sections)
        decoded = read_sections(sections, MAX_SIZE, MAX_SIZE)
        packets[decoded.label] = (decoded, sections, MAX_SIZE)
        world.sequence_ids.setdefault(decoded.label, message.p_sequence_id)


def _packet(world: World, label: str | None) -> tuple[DecodedMessage, tuple, int]:
    """(decoded message, sections, the body limit it was read with) of the last read or of a label."""
    if label is None:
        assert world.status == HRESULT.MQ_OK, f"the read failed: {describe_hresult(world.status)}"
        assert world.decoded is not None, "no message came back"
        sections = tuple(world.last.pp_packet_sections)
        read, limit = world.notes.get("read limit", (None, MAX_SIZE))
        limit = limit if read is world.last else MAX_SIZE
        return world.decoded, sections, limit
    label = world.notes.get("labels", {}).get(label, label)
    packets = world.notes.get("packets", {})
    assert label in packets, f"no packet of {label!r} was read; peek its queue first ('every message in ...')"
    return packets[label]


PACKET = r'(?:the returned packet|the packet of "(?P<label>[^"]*)")'


@then(parsers.re(rf"^{PACKET} follows every layout rule$"))
def follows_layout(world, label=None):
    decoded, _, _ = _packet(world, label)
    assert not decoded.violations, "the packet breaks layout rules:\n  " + "\n  ".join(decoded.violations)


def _yes(text: str) -> bool:
    assert text in ("yes", "no", "set", "clear"), f"write yes/no (or set/clear), not {text!r}"
    return text in ("yes", "set")


def _text_bytes(text: str) -> bytes:
    return b"" if text in ("", "empty", "none") else text.encode()


def _same_queue(actual: str, expected: str) -> bool:
    def normal(name: str) -> str:
        match = re.fullmatch(r"PRIVATE=([0-9a-f-]{36})\\([0-9a-f]{1,8})", name.lower())
        return f"private={match.group(1)}\\{int(match.group(2), 16)}" if match else name.lower()
    return normal(actual) == normal(expected)


def _expected_queue(world: World, text: str) -> str:
    if text in ("none", ""):
        return ""
    return expand(world, text) if "=" in text else world.queue(text)


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _check_field(world: World, decoded: DecodedMessage, field: str, text: str) -> None:
    """One row of `... shows:`; every branch says what was expected and what came back."""
    def same(actual, expected):
        assert actual == expected, f"{field}: the packet has {actual!r}, expected {expected!r}"

    if field == "label":
        same(decoded.label, expand(world, text))
    elif field == "LabelLength":
        same(_utf16_units(decoded.label) + 1 if decoded.label else 0, int(text))
    elif field == "body":
        same(decoded.body, _text_bytes(text))
    elif field == "MessageSize":
        same(decoded.body_size, int(text))
    elif field == "body bytes returned":
        same(len(decoded.body), int(text))
    elif field == "priority":
        same(decoded.priority, int(text))
    elif field == "delivery mode":
        same(decoded.delivery_mode, {"express": 0, "recoverable": 1}.get(text, None) if not text.isdigit()
             else int(text))
    elif field == "message class":
        same(decoded.message_class, value(text))
    elif field == "acknowledgements":
        same(decoded.acknowledgements & 0x0F, acknowledgements(text))
    elif field in ("destination queue", "admin queue", "response queue"):
        actual = getattr(decoded, field.replace(" ", "_"))
        expected = _expected_queue(world, text)
        assert _same_queue(actual, expected), f"{field}: the packet names {actual!r}, expected {expected!r}"
    elif field == "correlation id":
        same(bytes(decoded.correlation_id), text.encode().ljust(20, b"\0")[:20])
    elif field == "application tag":
        same(decoded.application_tag, value(text))
    elif field == "body type":
        same(decoded.body_type, value(text))
    elif field == "extension":
        same(bytes(decoded.extension), _text_bytes(text))
    elif field == "srmp":
        same(decoded.is_srmp, _yes(text))
    elif field == "srmp envelope":
        same(decoded.srmp_envelope, None if text == "none" else text)
    elif field == "compound message":
        same(decoded.compound_message, None if text == "none" else text.encode())
    elif field == "transactional":
        same(decoded.transactional, _yes(text))
    elif field == "subqueue name":
        same(decoded.subqueue_name, "" if text == "none" else text)
    elif field == "dead-letter path":
        same(decoded.deadletter_path_name, None if text == "none" else expand(world, text))
    elif field == "AcknowledgementClass":
        same(decoded.acknowledgement_class, value(text))
    elif field == "TimeToBeReceived":  # MS-MQMQ 2.2.19.2 UserHeader, seconds from SentTime; 0xFFFFFFFF: never
        same(decoded.time_to_be_received, value(text))
    elif field == "PrivacyLevel":  # MS-MQMQ 2.2.19.3
        same(decoded.privacy_level, value(text))
    elif field.startswith("UserHeader flag "):
        same(decoded.flags[field[len("UserHeader flag "):]], int(text))
    elif field.startswith("ExtensionHeader flag "):
        assert decoded.extension_header is not None, "the packet has no ExtensionHeader"
        same(decoded.extension_header[field[len("ExtensionHeader flag "):]], int(text))
    elif field == "source queue manager":
        assert text == "this queue manager", "write: source queue manager | this queue manager"
        world.require("local_send")   # a message a peer sent (msmq://) names the peer as its source
        same(decoded.source_queue_manager.bytes_le, world.target.queue_manager_identifier)
    else:
        raise KeyError(f"unknown packet field {field!r}")


@then(parsers.re(rf"^{PACKET} shows:$"))
def packet_shows(world, datatable, label=None):
    decoded, _, _ = _packet(world, label)
    for field, text in datatable:
        _check_field(world, decoded, field.strip(), text.strip())


# -- what the reader does not keep: a probe that notes raw fields while it walks --------------

class _Probe(_Decoder):
    """The suite's decoder, noting raw fields the DecodedMessage leaves out."""

    def __init__(self, data, gap):
        super().__init__(data, DecodedMessage(), gap)
        self.raw: dict = {}

    def base(self) -> int:
        self.raw["base flags"] = struct.unpack("<H", self.need(2, 2, "BaseHeader.Flags"))[0]
        return super().base()

    def user(self, o: int) -> int:
        self.raw["user flags"] = struct.unpack("<I", self.need(o + 44, 4, "UserHeader.Flags"))[0]
        self.raw["queue manager address"] = bytes(self.need(o + 16, 16, "UserHeader.QueueManagerAddress"))
        return super().user(o)

    def xact(self, o: int) -> int:
        self.raw["transaction flags"], self.raw["tx sequence id"], self.raw["tx number"], self.raw["tx previous"] = \
            struct.unpack("<I8sII", self.need(o, 20, "TransactionHeader"))
        return super().xact(o)

    def props(self, o: int) -> int:
        self.raw["properties flags"] = self.need(o, 1, "MessagePropertiesHeader.Flags")[0]
        return super().props(o)

    def mqf(self, o: int) -> int:
        self.raw["mqf destinations"] = self._mqf_list(o)
        return super().mqf(o)

    def subqueue(self, p: int) -> int:
        self.raw["subqueue header"] = bytes(self.need(p, 148, "SubqueueHeader"))
        return super().subqueue(p)

    def _mqf_list(self, o: int) -> list[str]:
        """The format names of an MQFAddressHeader's FormatNameList (MS-MQMQ 2.2.20.2, 2.2.18.1.4)."""
        size, _, count = struct.unpack("<IHxxI", self.need(o, 12, "MQFAddressHeader"))
        names, p, end = [], o + 12, o + size
        for _ in range(count):
            kind = struct.unpack("<H", self.need(p, 2, "MQFFormatNameElement"))[0]
            p += 2
            if kind in (1, 6):        # public, distribution list: a GUID on a 4-byte boundary
                p = o + align4(p - o)
                guid = uuid.UUID(bytes_le=bytes(self.need(p, 16, "MQFFormatNameElement GUID")))
                names.append(public_name(guid) if kind == 1 else f"DL={guid}")
                p += 16
            elif kind == 2:           # private: GUID and queue number, on a 4-byte boundary
                p = o + align4(p - o)
                raw = bytes(self.need(p, 20, "MQFFormatNameElement private name"))
                names.append(private_name(uuid.UUID(bytes_le=raw[:16]), struct.unpack("<I", raw[16:])[0]))
                p += 20
            elif kind == 3:           # direct: NUL-terminated UTF-16 on a 2-byte boundary
                p += p % 2
                chars = []
                while p + 2 <= end:
                    unit = bytes(self.need(p, 2, "MQFDirectQueueFormatName"))
                    p += 2
                    if unit == b"\0\0":
                        break
                    chars.append(unit)
                names.append(direct_name(b"".join(chars).decode("utf-16-le", "replace")))
            else:
                names.append(f"<FormatType {kind}>")
                break
        return names


def _raw(world: World, label: str | None) -> dict:
    decoded, sections, limit = _packet(world, label)
    pieces = check_records(list(sections), [])
    assert pieces, "no sections came back"
    first = pieces[0].data
    layout = _Decoder(first, DecodedMessage(), None).run()
    place = judge_split(pieces, layout, limit, limit, [])
    place = len(first) if place is None else max(place, len(first))
    tail = pieces[1].data if len(pieces) == 2 else b""
    gap = (len(first), place) if place > len(first) else None
    probe = _Probe(Spliced(first, place, tail), gap)
    probe.run()
    return probe.raw


BASE_BITS = {"IN": 0x0008, "SH": 0x0010, "DH": 0x0020, "TR": 0x0100}
RESERVED = {  # bits the senders leave clear (MS-MQMQ 2.2.19.1, 2.2.19.2, 2.2.19.3)
    "base flags": 0xFEC0,
    "user flags": (1 << 7) | (1 << 24) | (3 << 26) | (7 << 29),
    "properties flags": 0xF0,
}


@then(parsers.re(rf"^{PACKET} has BaseHeader flag (?P<bit>IN|SH|DH|TR) (?P<state>set|clear)$"))
def base_flag(world, bit, state, label=None):
    flags = _raw(world, label).get("base flags")
    assert flags is not None, "the packet has no BaseHeader"
    actual = bool(flags & BASE_BITS[bit])
    assert actual == (state == "set"), f"BaseHeader.Flags is 0x{flags:04X}: {bit} is {'set' if actual else 'clear'}"


@then(parsers.re(rf"^{PACKET} sets no reserved flag bit$"))
def no_reserved_bits(world, label=None):
    raw = _raw(world, label)
    for name, mask in RESERVED.items():
        assert name in raw, f"the packet has no {name}"
        assert not raw[name] & mask, f"{name} 0x{raw[name]:X} sets reserved bits 0x{raw[name] & mask:X}"


@then(parsers.re(rf"^{PACKET} has QueueManagerAddress (?P<what>.+)$"))
def queue_manager_address(world, what, label=None):
    decoded, _, _ = _packet(world, label)
    raw = _raw(world, label)["queue manager address"]
    if what == "equal to this queue manager's identifier":
        assert raw == world.target.queue_manager_identifier, \
            f"QueueManagerAddress is {uuid.UUID(bytes_le=raw)}, expected the queue manager " \
            f"{uuid.UUID(bytes_le=world.target.queue_manager_identifier)}"
        return
    assert what == "holding the sender's address", f"unknown QueueManagerAddress check {what!r}"
    length, kind, scope = struct.unpack_from("<HHI", raw)
    address = raw[8:16]
    assert kind in (1, 6), f"overlay AddressType is {kind}, not IP_ADDRESS_TYPE (1) or IPV6_ADDRESS_TYPE (6)"
    if kind == 1:
        assert scope == 0, f"overlay AddressScope is {scope} on an IPv4 address"
    full = {1: 4, 6: 16}[kind]
    assert length == min(full, 8), f"overlay AddressLength is {length}, expected {min(full, 8)} for type {kind}"
    extended = decoded.extended_address
    assert extended and extended["address_type"] == kind, \
        f"the ExtendedAddressHeader does not name the same kind of address ({extended})"
    assert address[:length] == bytes(extended["address"][:length]), \
        f"overlay Address {address[:length].hex()} is not the start of the sender's address " \
        f"{bytes(extended['address']).hex()}"


@then(parsers.re(rf"^{PACKET} has an ExtendedAddressHeader in the format of its AddressType$"))
def extended_address_format(world, label=None):
    decoded, _, _ = _packet(world, label)
    header = decoded.extended_address
    assert header is not None, "the packet has no ExtendedAddressHeader"
    kind, length, scope, address = (header["address_type"], header["address_length"], header["address_scope"],
                                    bytes(header["address"]))
    assert kind in (0, 1, 6), f"AddressType is {kind}"
    if kind == 1:
        assert length == 4 and scope == 0, f"an IPv4 address with AddressLength {length} and scope {scope}"
        assert not any(address[4:]), f"an IPv4 address has bytes after its 4: {address.hex()}"
    elif kind == 6:
        assert length == 16, f"an IPv6 address with AddressLength {length}"


@then(parsers.re(rf"^{PACKET} has TargetSubqueueName (?P<name>.+)$"))
def target_subqueue(world, name, label=None):
    header = _raw(world, label).get("subqueue header")
    assert header is not None, "the packet has no SubqueueHeader"
    field = header[84:148]
    if name == "all zeros":
        assert not any(field), f"TargetSubqueueName is {field!r}, expected all zeros"
        return
    expected = name.strip('"').encode("utf-16-le")
    assert field == expected.ljust(64, b"\0"), \
        f"TargetSubqueueName is {field.rstrip(bytes(1))!r}, expected {name} followed by zeros"


@then(parsers.re(rf"^{PACKET} has a TransactionHeader with:$"))
def transaction_header(world, datatable, label=None):
    raw = _raw(world, label)
    assert "transaction flags" in raw, "the packet has no TransactionHeader"
    flags = raw["transaction flags"]
    actual = {"FM": flags >> 2 & 1, "LM": flags >> 3 & 1, "CG": flags & 1,
              "TxSequenceNumber": raw["tx number"], "PreviousTxSequenceNumber": raw["tx previous"]}
    for field, text in datatable:
        field = field.strip()
        assert field in actual, f"unknown TransactionHeader field {field!r}; known: {', '.join(actual)}"
        assert actual[field] == value(text), f"TransactionHeader.{field} is {actual[field]}, expected {text.strip()}"


@then(named(r"^the packets of {first} and {second} carry different TransactionHeader ids$"))
def transaction_ids_differ(world, first, second):
    ids = []
    for label in (first, second):
        raw = _raw(world, label)
        assert "transaction flags" in raw, f"the packet of {label!r} has no TransactionHeader"
        ids.append(raw["transaction flags"] >> 4 & 0xFFFFF)
    assert ids[0] != ids[1], f"both transactions carry the TransactionHeader id 0x{ids[0]:05X}"


@then(parsers.re(r"^the packets of (?P<names>.+) carry one TxSequenceID$"))
def one_sequence(world, names):
    found = {}
    for label in labels(names):
        raw = _raw(world, label)
        assert "tx sequence id" in raw, f"the packet of {label!r} has no TransactionHeader"
        found[label] = raw["tx sequence id"].hex()
    assert len(set(found.values())) == 1, f"the TxSequenceIDs differ: {found}"


@then(parsers.re(r"^the packets of (?P<names>.+) come from this queue manager with distinct MessageIDs$"))
def message_identifiers(world, names):
    world.require("local_send")   # over MS-MQQB the suite's queue manager is the source
    seen = {}
    for label in labels(names):
        decoded, _, _ = _packet(world, label)
        assert decoded.source_queue_manager.bytes_le == world.target.queue_manager_identifier, \
            f"{label!r} names {decoded.source_queue_manager} as its source, not this queue manager"
        assert decoded.message_id not in seen, \
            f"{label!r} and {seen.get(decoded.message_id)!r} share the MessageID {decoded.message_id}"
        seen[decoded.message_id] = label
        sent = world.sent.get(label)
        if sent is not None:
            expected = decoded.source_queue_manager.bytes_le + decoded.message_id.to_bytes(4, "little")
            assert bytes(sent.message_id) == expected, \
                f"the send of {label!r} reported identifier {bytes(sent.message_id).hex()}, " \
                f"its packet says {expected.hex()}"


@then(parsers.re(rf"^{PACKET} lists (?P<names>.+) as its destinations, if it has a MultiQueueFormatHeader$"))
def mqf_destinations(world, names, label=None):
    decoded, _, _ = _packet(world, label)
    if not decoded.flags.get("MQ"):
        return  # a copy may travel as a single-destination message (D-67)
    listed = _raw(world, label).get("mqf destinations", [])
    expected = [world.queue(alias) for alias in labels(names)]
    for name in expected:
        assert any(_same_queue(entry, name) for entry in listed), \
            f"the MultiQueueFormatHeader lists {listed}, without {name!r}"


@then(parsers.re(rf'^by (?P<decision>D-\d\d) {PACKET} has no MultiQueueFormatHeader \((?P<single>[a-z0-9+-]+)\) '
                 rf'or one listing (?P<names>"[^"]*"(?:(?:, | and )"[^"]*")*) \((?P<listed>[a-z0-9+-]+)\)$'))
def mqf_by_decision(world, decision, single, names, listed, label=None):
    """D-67: a copy sent through a multiple-element name is a single-destination message, or carries the
    MultiQueueFormatHeader that MS-MQDMPR 3.1.7.1.27 and 3.1.7.1.30 give it, listing every queue."""
    decoded, _, _ = _packet(world, label)
    if not decoded.flags.get("MQ"):
        world.observe(decision, single)
        return
    mqf_destinations(world, names, label)
    world.observe(decision, listed)


@then(parsers.re(rf"^{PACKET} was sent about now$"))
def sent_about_now(world, label=None):
    import time
    decoded, _, _ = _packet(world, label)
    assert abs(decoded.sent_time - time.time()) < 15 * 60, \
        f"SentTime is {decoded.sent_time}, the test's clock says {int(time.time())}"
