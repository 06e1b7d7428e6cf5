"""Steps of the R_StartReceive / R_CancelReceive / R_EndReceive scenarios and their timers.

What the rest of the vocabulary lacks for MS-MQRR 3.1.2, 3.1.4.7-3.1.4.9 and
3.1.5.1: a handle the server never issued, R_EndReceive with a dwRequestId the
scenario chose, request ids used again or through another handle, a blocking
transactional receive and a blocking peek with a chosen dwRequestId, peeks with
chosen size limits, and checks of the outputs (pdwArriveTime, pSequenceId,
pdwNumberOfSections, the SectionBuffers and the TimeToReachQueue rewrite).
The other background reads, `is still waiting`, closes, purges and transactions
come from the modules that define them (receive_steps, event_steps, handle_steps,
transaction_steps).
"""

from __future__ import annotations

import struct
import time
import uuid

from pytest_bdd import given, parsers, then, when

from mqspec.protocol.constants import SectionType
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .packet_reader import read_sections
from .receive_steps import start_receive
from .values import number
from .world import MAX_SIZE, World

PEEK_CURRENT = number("MQ_ACTION_PEEK_CURRENT")
RECEIVE = number("MQ_ACTION_RECEIVE")
TTRQ_OFFSET = 12  # MS-MQMQ 2.2.19.1: BaseHeader.TimeToReachQueue


# -- set-up ---------------------------------------------------------------------------------

@given(parsers.parse('a queue handle "{handle}" that the server never issued'))
def forged_handle(world, handle):
    """20 bytes like a QUEUE_CONTEXT_HANDLE_NOSERIALIZE (MS-MQRR 2.2.4.1) that no R_OpenQueue returned."""
    world.handles[handle] = bytes(4) + uuid.uuid4().bytes


# -- R_EndReceive for a request id the scenario chose ------------------------------------------

@when(parsers.parse('the client ends request id {request_id:d} on "{handle}" with {ack}'))
def end_request_id(world, request_id, handle, ack):
    """R_EndReceive with a dwRequestId given in an R_StartReceive table (`dwRequestId` column)."""
    world.record(world.target.end_receive(world.handle(handle), number(ack), request_id))


# -- requests named earlier, used through another handle or again ---------------------------------

@when(parsers.re(r'the client cancels the wait of "(?P<request>[^"]+)" through "(?P<handle>[^"]+)"'))
def cancel_through(world, request, handle):
    """R_CancelReceive with the dwRequestId of `request` but the queue handle `handle`."""
    world.record(world.target.cancel_receive(world.handle(handle), world.requests[request][1]))


@when(parsers.re(r'a receive is started on "(?P<handle>[^"]+)" reusing the request id of "(?P<request>[^"]+)"'))
def receive_reusing_request_id(world, handle, request):
    """R_StartReceive (MQ_ACTION_RECEIVE, front of the queue) with the dwRequestId of an earlier request;
    the request keeps its name, now on `handle`."""
    request_id = world.requests[request][1]
    start_receive(world, handle, dw_request_id=request_id)
    world.requests[request] = (handle, request_id)


# -- reads that block, on a background thread --------------------------------------------------------

@when(parsers.re(r'the client waits in transaction "(?P<tx>[^"]+)" on "(?P<handle>[^"]+)" for up to '
                 r'(?P<timeout>\S+) ms in the background as "(?P<request>[^"]+)"'))
def wait_in_transaction(world, tx, handle, timeout, request):
    """R_StartTransactionalReceive (MQ_ACTION_RECEIVE, front of the queue) that may block."""
    request_id = world.request_id()
    context, uow, ul_timeout = world.handle(handle), world.transactions[tx], number(timeout)
    world.in_background(request, handle, request_id, "start_transactional_receive",
                        context, 0, 0, RECEIVE, ul_timeout, request_id, MAX_SIZE, MAX_SIZE, uow)


@when(parsers.re(r'in the background, the client peeks at "(?P<handle>[^"]+)" with request id (?P<request_id>\d+) '
                 r'and a time-out of (?P<timeout>\S+) ms as "(?P<request>[^"]+)"'))
def peek_with_request_id_in_background(world, handle, request_id, timeout, request):
    """R_StartReceive (MQ_ACTION_PEEK_CURRENT) with a dwRequestId the scenario chose, on a thread."""
    request_id, context, ul_timeout = int(request_id), world.handle(handle), number(timeout)
    world.in_background(request, handle, request_id, "start_receive",
                        context, 0, 0, PEEK_CURRENT, ul_timeout, request_id, MAX_SIZE, MAX_SIZE)



# -- peeks with chosen size limits ----------------------------------------------------------------

@when(parsers.parse('the client peeks at "{handle}" allowing {body:d} body bytes and {compound:d} compound '
                    'message bytes'))
def peek_with_limits(world, handle, body, compound):
    out, _ = start_receive(world, handle, ul_action=PEEK_CURRENT, dw_max_body_size=body,
                           dw_max_compound_message_size=compound)
    if out.hresult == HRESULT.MQ_OK:
        # judge the sections against the limits really asked for (record() uses the smaller for both)
        world.decoded = read_sections(out.pp_packet_sections, body, compound)
    world.notes.setdefault("peeks", []).append(out)


# -- checks of the outputs ----------------------------------------------------------------------

def _succeeded(world: World):
    assert world.status == HRESULT.MQ_OK, f"the call failed: {describe_hresult(world.status)}"
    assert world.last is not None and getattr(world.last, "pp_packet_sections", None), "no sections came back"
    return world.last


@then('the status has the failure bit set')
@then(r"the HRESULT is a failure code")
def failure_bit(world):
    """[MS-ERREF] 2.1: the severity bit; over DCE/RPC the runtime's refusal of the call is a failure too."""
    assert world.status is not None and world.failed(), \
        f"{describe_hresult(world.status)} is not a failure HRESULT (severity bit clear)"


@then(parsers.parse('pdwNumberOfSections is {count:d}, the number of sections returned'))
def number_of_sections(world, count):
    out = _succeeded(world)
    sections = len(out.pp_packet_sections)
    assert out.pdw_number_of_sections == sections, \
        f"pdwNumberOfSections is {out.pdw_number_of_sections} but {sections} sections came back"
    assert sections == count, f"{sections} sections came back, expected {count}"


def _no_violations(world: World) -> None:
    assert world.decoded is not None, "no message came back"
    assert not world.decoded.violations, \
        "the packet breaks layout rules:\n  " + "\n  ".join(world.decoded.violations)


@then('the message comes back whole in one stFullPacket section')
def whole_packet(world):
    out = _succeeded(world)
    kinds = [s.section_buffer_type for s in out.pp_packet_sections]
    assert kinds == [SectionType.stFullPacket], f"section types {kinds}, expected one stFullPacket (0)"
    section = out.pp_packet_sections[0]
    data = bytes(section.p_section_buffer)
    packet_size = struct.unpack_from("<I", data, 8)[0] if len(data) >= 12 else None
    assert section.section_size == section.section_size_alloc == len(data) == packet_size, \
        (f"SectionSize {section.section_size}, SectionSizeAlloc {section.section_size_alloc}, buffer "
         f"{len(data)} bytes, BaseHeader.PacketSize {packet_size}: all four must be the packet size")
    _no_violations(world)


@then(parsers.parse('the message comes back as {first} with the first {count:d} bytes of its {unit} and '
                    '{second} with the trailers'))
def split_packet(world, first, count, unit, second):
    out = _succeeded(world)
    sections = out.pp_packet_sections
    kinds = [s.section_buffer_type for s in sections]
    expected = [SectionType[first], SectionType[second]]
    assert kinds == expected, f"section types {kinds}, expected {[int(k) for k in expected]}"
    head, tail = sections
    assert head.section_size == len(head.p_section_buffer), \
        f"first SectionSize {head.section_size} but its buffer holds {len(head.p_section_buffer)} bytes"
    assert tail.section_size == tail.section_size_alloc == len(tail.p_section_buffer), \
        (f"second section: SectionSize {tail.section_size}, SectionSizeAlloc {tail.section_size_alloc}, "
         f"buffer {len(tail.p_section_buffer)} bytes: all three must be the trailer size")
    _no_violations(world)
    decoded = world.decoded
    if unit == "body":
        actual = decoded.body_size
        assert len(decoded.body) == count, f"the first section carries {len(decoded.body)} body bytes, not {count}"
        missing = head.section_size_alloc - head.section_size - (actual - count)
        assert 0 <= missing <= 3, \
            (f"first SectionSizeAlloc {head.section_size_alloc} is not the headers plus the whole "
             f"{actual}-byte body (SectionSize {head.section_size} carries {count} of them)")
    else:
        got = len(decoded.compound_message or b"")
        # D-62: the limit counts the CompoundMessageHeader data (data), or the header with its 16 fixed bytes
        assert got in (count, max(0, count - 16)), \
            f"the first section carries {got} bytes of the compound message, not {count} (D-62 data) " \
            f"or {max(0, count - 16)} (header)"
        if count:
            world.observe("D-62", "data" if got == count else "header")
    packet_size = decoded.packet_size
    room = head.section_size_alloc + tail.section_size_alloc
    assert 0 <= packet_size - room <= 3, \
        f"the SectionSizeAllocs add up to {room} but BaseHeader.PacketSize is {packet_size}"


@then('the sections placed at their SectionSizeAlloc offsets rebuild the packet of the whole peek')
def sections_rebuild(world):
    peeks = [p for p in world.notes.get("peeks", []) if p.hresult == HRESULT.MQ_OK]
    wholes = [p for p in peeks if len(p.pp_packet_sections) == 1]
    assert wholes and len(peeks) >= 2, "the scenario needs a whole peek and a later split peek"
    whole = bytes(wholes[0].pp_packet_sections[0].p_section_buffer)
    split = peeks[-1].pp_packet_sections
    offset = 0
    for index, section in enumerate(split):
        data = bytes(section.p_section_buffer)
        if index == len(split) - 1 and index > 0:
            # the last section carries the trailers: the packet's tail, at the running SectionSizeAlloc offset
            assert 0 <= len(whole) - (offset + len(data)) <= 3, \
                f"section {index} placed at {offset} ends at {offset + len(data)}, the packet at {len(whole)}"
            assert whole.endswith(data), f"section {index} is not the tail of the packet"
        else:
            assert whole[offset:offset + len(data)] == data, \
                f"section {index} placed at offset {offset} differs from the whole packet there"
        offset += section.section_size_alloc
    assert 0 <= len(whole) - offset <= 3, f"the SectionSizeAllocs add up to {offset}, the packet is {len(whole)}"


@then(parsers.parse('the returned BaseHeader.TimeToReachQueue is {expected}'))
def time_to_reach_queue(world, expected):
    out = _succeeded(world)
    data = bytes(out.pp_packet_sections[0].p_section_buffer)
    got = struct.unpack_from("<I", data, TTRQ_OFFSET)[0]
    expected = expected.strip()
    if expected.startswith("SentTime + "):
        want = world.decoded.sent_time + number(expected[len("SentTime + "):])
    else:
        want = number(expected)
    assert got == want, (f"BaseHeader.TimeToReachQueue is 0x{got:08X}, expected {expected} = 0x{want:08X} "
                         f"(SentTime {world.decoded.sent_time})")


@then(parsers.parse('the arrival time returned is when "{label}" was sent, in epoch seconds'))
def arrival_time_is_send_time(world, label):
    world.require("local_send")   # a SentTime of another queue manager's clock need not agree with the target's
    out = _succeeded(world)
    assert world.decoded.label == label, f"the call returned {world.decoded.label!r}, not {label!r}"
    sent, arrived = world.decoded.sent_time, out.pdw_arrive_time
    assert 0 <= arrived - sent <= 2, f"pdwArriveTime {arrived} is not the time {label!r} was sent ({sent})"
    assert abs(arrived - time.time()) < 86400, \
        f"pdwArriveTime {arrived} is not seconds since 1970 (now {time.time():.0f})"


@then(parsers.parse('"{later}" arrived {seconds:d} seconds after "{earlier}"'))
def arrived_after(world, later, seconds, earlier):
    arrivals = {}
    for format_name in world.queues.values():
        for message in world.target.read_queue(format_name).messages:
            arrivals[read_sections(message.pp_packet_sections, MAX_SIZE, MAX_SIZE).label] = message.pdw_arrive_time
    for label in (later, earlier):
        assert label in arrivals, f"{label!r} is not visible in any queue of the scenario"
    gap = arrivals[later] - arrivals[earlier]
    assert seconds <= gap <= seconds + 2, f"{later!r} arrived {gap} s after {earlier!r}, expected {seconds} s"


@then('the pSequenceId returned fits in 7 bytes')
def sequence_id_fits(world):
    out = _succeeded(world)
    assert 0 < out.p_sequence_id < 1 << 56, f"pSequenceId 0x{out.p_sequence_id:016X} does not fit in 7 bytes"

