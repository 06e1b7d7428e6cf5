"""Steps on acknowledgments found in admin queues and on SectionBuffers (MS-MQRR 2.2.6)."""

from __future__ import annotations

import struct

from pytest_bdd import parsers, then, when

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .names import SECTION_TYPES, value
from .packet_reader import read_sections
from .phrases import named
from .world import MAX_SIZE, World

# -- acknowledgments ---------------------------------------------------------------------------

@then(named(r"^an acknowledgment of class (?P<cls>\S+) for {label} is in {alias}$"))
def acknowledgment_present(world, cls, label, alias):
    """Some message of that class in the admin queue whose CorrelationID is the MessageIdentifier
    of the message (MS-MQMQ 2.2.19.3)."""
    expected = bytes(world.sent[label].message_id)
    found = world.messages(alias)
    classes = [(f"0x{m.message_class:04X}", bytes(m.correlation_id).hex()) for m in found]
    matching = [m for m in found if m.message_class == value(cls)]
    assert matching, f"{alias!r} holds no message of class {cls}; it holds (class, correlation id) {classes}"
    assert any(bytes(m.correlation_id) == expected for m in matching), \
        f"no {cls} in {alias!r} has the CorrelationID {expected.hex()} of {label!r}: {classes}"
    for message in matching:
        assert not message.violations, f"the acknowledgment breaks layout rules: {message.violations}"


@then(named(r"^no acknowledgment for {label} is in {alias}$"))
def acknowledgment_absent(world, label, alias):
    expected = bytes(world.sent[label].message_id)
    found = [f"0x{m.message_class:04X}" for m in world.messages(alias) if bytes(m.correlation_id) == expected]
    assert not found, f"{alias!r} holds acknowledgments {found} for {label!r}"


# -- section buffers (MS-MQRR 2.2.6) -----------------------------------------------------------

@when(named(r"^the client peeks at {handle} with at most (?P<limit>\d+) body bytes$"))
def peek_with_limit(world, handle, limit):
    """R_StartReceive (peek current) with dwMaxBodySize = dwMaxCompoundMessageSize = limit."""
    limit = int(limit)
    world.max_body = limit
    out = world.target.start_receive(world.handle(handle), 0, 0, value("MQ_ACTION_PEEK_CURRENT"), 0,
                                     world.request_id(), limit, limit)
    world.record(out)
    world.max_body = MAX_SIZE
    world.notes["read limit"] = (out, limit)


def _sections(world: World) -> tuple:
    assert world.status == HRESULT.MQ_OK, f"the read failed: {describe_hresult(world.status)}"
    return tuple(world.last.pp_packet_sections)


@then(parsers.re(r"^the message came back in (?P<count>\d+) sections?$"))
def section_count(world, count):
    sections = _sections(world)
    assert len(sections) == int(count), \
        f"{len(sections)} sections came back ({[s.section_buffer_type for s in sections]}), expected {count}"


@then(parsers.re(r"^section (?P<index>\d+) is an? (?P<kind>st\w+)$"))
def section_type(world, index, kind):
    section = _sections(world)[int(index) - 1]
    assert section.section_buffer_type == SECTION_TYPES[kind], \
        f"section {index} has SectionBufferType {section.section_buffer_type}, expected {kind}"


@then(parsers.re(r"^section (?P<index>\d+) has SectionSizeAlloc (?P<relation>equal to|at least) its SectionSize$"))
def section_alloc(world, index, relation):
    section = _sections(world)[int(index) - 1]
    alloc, size = section.section_size_alloc, section.section_size
    ok = alloc == size if relation == "equal to" else alloc >= size
    assert ok, f"section {index}: SectionSizeAlloc {alloc}, SectionSize {size}; expected alloc {relation} size"


@then(r"every section's SectionSize is the length of its buffer")
def section_sizes(world):
    for index, section in enumerate(_sections(world), 1):
        data = section.p_section_buffer or b""
        assert section.section_size == len(data), \
            f"section {index}: SectionSize {section.section_size}, buffer of {len(data)} bytes"


@then(r"the single section holds the whole packet")
def whole_packet(world):
    sections = _sections(world)
    assert len(sections) == 1, f"{len(sections)} sections came back"
    section = sections[0]
    packet_size = struct.unpack_from("<I", section.p_section_buffer, 8)[0]
    assert section.section_size_alloc == section.section_size == len(section.p_section_buffer) == packet_size, \
        f"SectionSizeAlloc {section.section_size_alloc}, SectionSize {section.section_size}, " \
        f"buffer {len(section.p_section_buffer)} bytes, BaseHeader.PacketSize {packet_size}"


@then(r"by D-62 the message came back whole (data) or cut in two (header)")
def srmp_cut_by_d62(world):
    """A limit between HTTPBodySize and the CompoundMessageHeader's whole size (16 bytes more): the Data fits
    (D-62 data: one stFullPacket section) but the header does not (header: stSrmpFirstSection and
    stSrmpSecondSection)."""
    sections = _sections(world)
    kinds = [section.section_buffer_type for section in sections]
    if kinds == [SECTION_TYPES["stFullPacket"]]:
        world.observe("D-62", "data")
    elif kinds == [SECTION_TYPES["stSrmpFirstSection"], SECTION_TYPES["stSrmpSecondSection"]]:
        world.observe("D-62", "header")
    else:
        raise AssertionError(f"section types {kinds}: D-62 allows one stFullPacket (data) or an "
                             f"stSrmpFirstSection and an stSrmpSecondSection (header)")


@then(r"the first section's SectionSizeAlloc counts the part of the body that was not sent")
def first_alloc_counts_unsent(world):
    """SectionSizeAlloc - SectionSize is the unsent body (compound message for SRMP), plus, by D-61, the 0-3
    bytes that pad the header it ends (padded) or nothing (literal) (MS-MQRR 2.2.6, 3.1.4.7).  For SRMP the
    cut is counted from the CompoundMessageHeader's Data (D-62 data) or from its start (header)."""
    first = _sections(world)[0]
    decoded = world.decoded
    if decoded.is_srmp:
        unsent = _srmp_unsent(world, first)
    else:
        unsent = decoded.body_size - len(decoded.body)
    end = first.section_size + unsent  # where the body ends: 3.1.4.7's header size plus actualMessageSize
    extra = first.section_size_alloc - end
    assert extra in (0, -end % 4), \
        f"SectionSizeAlloc {first.section_size_alloc} - SectionSize {first.section_size} = " \
        f"{first.section_size_alloc - first.section_size}, but {unsent} bytes of the body were not sent " \
        f"(D-61 allows the body's end, {end}, or that end padded to 4 bytes)"
    if end % 4:
        world.observe("D-61", "padded" if extra else "literal")


def _srmp_unsent(world: World, first) -> int:
    """The bytes of the CompoundMessageHeader that the first section left out, by D-62's reading, which this
    observes: the cut at the limit counted from the header's Data (data) or from its start (header)."""
    data, decoded = _whole_packet(world)
    compound = decoded.compound_message or b""
    assert compound, "the whole message carries no compound message to compare with"
    data_offset = data.index(compound)  # the ASCII compound message cannot occur in the headers before it
    limit = world.notes["read limit"][1]
    if first.section_size == data_offset + limit:
        world.observe("D-62", "data")
        return len(compound) - limit
    assert first.section_size == data_offset - 16 + limit, \
        f"the first section ends at {first.section_size}: neither {limit} bytes into the CompoundMessageHeader's " \
        f"Data (at {data_offset}, D-62 data) nor {limit} bytes into the header (at {data_offset - 16}, header)"
    world.observe("D-62", "header")
    return 16 + len(compound) - limit


def _whole_packet(world: World) -> tuple[bytes, object]:
    """The message the scenario peeked, read again whole (peeks leave it in its queue): its bytes, decoded."""
    sent = world.sent.get(world.decoded.label)
    assert sent is not None, "the message was not sent by this scenario"
    out = world.target.read_queue(sent.format_name)
    for message in out.messages:
        whole = read_sections(message.pp_packet_sections, MAX_SIZE, MAX_SIZE)
        if whole.label == world.decoded.label:
            return bytes(message.pp_packet_sections[0].p_section_buffer), whole
    raise AssertionError(f"{world.decoded.label!r} is no longer in its queue")
