"""The MS-MQRR NDR codec (adapters/mqrr/ndr*.py) against the NDR rules and against impacket.

For every opnum on the wire (0, 2-15), request and response, NDR 2.0 and NDR64:
  - round trip: decode(encode(v)) == v over strategies that reach every QUEUE_FORMAT arm,
    NULL and non-NULL unique pointers, empty and large SectionBuffer arrays, extreme integers;
  - agreement: the fast codec and the impacket classes of ndr_types (the definition) write the
    same octets, pads and referent ids aside, and each decodes what the other wrote;
  - refusal: every truncation, random octets and mutated stubs give StubError and nothing else;
  - the runtime's strictness (range(), conformance and union correlation, a NULL unique pointer
    with a nonzero size, the form of a [string]), NullReference, unknown opnums;
  - stubs written out by hand from the NDR rules (golden), NDR 2.0 and NDR64.
"""

from __future__ import annotations

import itertools
import re
import struct
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings, strategies as st
from impacket.dcerpc.v5.dtypes import GUID
from impacket.dcerpc.v5.ndr import NDRCALL

from mqspec.adapters.mqrr import ndr, ndr_impacket
from mqspec.adapters.mqrr.ndr import NullReference, StubError
from mqspec.adapters.mqrr.ndr_types import (
    QUEUE_CONTEXT_HANDLE,
    QUEUE_FORMAT,
    XACTUOW,
    SectionBuffer as NdrSectionBuffer,
    SectionType,
)
from mqspec.adapters.mqrr.ndr_wire import (
    RPC_X_ENUM_VALUE_OUT_OF_RANGE,
    get_queue_format,
    put_queue_format,
)
from mqspec.protocol.hresult import RpcStatus
from mqspec.protocol.idl import OPNUMS, SectionBuffer
from mqspec.protocol.queue_format import QueueFormat

BAD = RpcStatus.RPC_X_BAD_STUB_DATA
BOUND = RpcStatus.RPC_X_INVALID_BOUND
WIRE_OPNUMS = sorted(OPNUMS.values())          # 0 and 2-15
SYNTAXES = pytest.mark.parametrize("ndr64", [False, True], ids=["ndr20", "ndr64"])
FAST = settings(max_examples=60, deadline=None)
SLOW = settings(max_examples=20, deadline=None)   # impacket is in the loop

# -- strategies ---------------------------------------------------------------------------------------
def unsigned(bits: int):
    return st.integers(0, 2 ** bits - 1) | st.sampled_from([0, 1, 2 ** bits - 1])   # the extremes, always tried


U8, U16, U32, U64 = (unsigned(bits) for bits in (8, 16, 32, 64))
I32 = st.integers(-2 ** 31, 2 ** 31 - 1) | st.sampled_from([-2 ** 31, -1, 2 ** 31 - 1])
HANDLE = st.binary(min_size=20, max_size=20)
BYTES16 = st.binary(min_size=16, max_size=16)


def _utf16_stable(text: str) -> bool:
    # a high+low surrogate pair given as two str characters comes back as one: not a codec property
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass") == text


ANY_TEXT = st.text(st.one_of(st.characters(), st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)),
                   max_size=30).filter(_utf16_stable)   # lone surrogates too: a wchar_t string is any UTF-16
PLAIN_TEXT = st.text(max_size=30)                       # impacket encodes strictly: no lone surrogates


def queue_formats(text=ANY_TEXT, arms=range(9)):
    """QUEUE_FORMATs of the given union arms (m_qft), NULL and non-NULL strings alike (MS-MQMQ 2.2.7)."""
    optional = st.none() | text
    by_arm = {
        0: lambda qft: st.builds(QueueFormat, st.just(qft), U8, U16),
        1: lambda qft: st.builds(QueueFormat, st.just(qft), U8, U16, guid=st.uuids()),
        2: lambda qft: st.builds(QueueFormat, st.just(qft), U8, U16, guid=st.uuids(), uniquifier=U32),
        3: lambda qft: st.builds(QueueFormat, st.just(qft), U8, U16, direct_id=optional),
        6: lambda qft: st.builds(QueueFormat, st.just(qft), U8, U16, guid=st.uuids(), domain=optional),
        7: lambda qft: st.builds(QueueFormat, st.just(qft), U8, U16, multicast_address=U32, multicast_port=U32),
    }
    shape = {0: 0, 1: 1, 2: 2, 3: 3, 4: 1, 5: 1, 6: 6, 7: 7, 8: 3}   # arms 4, 5 are GUIDs, 8 a string
    return st.one_of([by_arm[shape[qft]](qft) for qft in arms])


ARMS = pytest.mark.parametrize("arm", range(9))


SECTION_BYTES = st.binary(max_size=40)


def section_buffers(data=SECTION_BYTES):
    return st.builds(lambda kind, alloc, body: SectionBuffer(kind, alloc, len(body), body),
                     st.integers(0, 4) | st.integers(0, 0x7FFF), U32, data)


SMALL_SECTIONS = st.lists(section_buffers(), max_size=4).map(tuple)
PATTERN = st.builds(lambda size, byte: bytes([byte]) * size, st.integers(0, 300_000), U8)
LARGE_SECTIONS = st.one_of(st.lists(section_buffers(st.binary(max_size=8)), min_size=50, max_size=400),
                           st.lists(section_buffers(PATTERN), min_size=1, max_size=3)).map(tuple)


def requests(text=ANY_TEXT) -> dict:
    fd = st.fixed_dictionaries
    open_args = fd({"pQueueFormat": queue_formats(text), "dwAccess": U32, "dwShareMode": U32,
                    "pClientId": BYTES16, "fNonRoutingServer": I32, "Major": U8, "Minor": U8,
                    "BuildNumber": U16, "fWorkgroup": I32})
    receive = {"phContext": HANDLE, "LookupId": U64, "hCursor": U32, "ulAction": U32, "ulTimeout": U32,
               "dwRequestId": U32, "dwMaxBodySize": U32, "dwMaxCompoundMessageSize": U32}
    end = fd({"phContext": HANDLE, "dwAck": st.sampled_from([1, 2]), "dwRequestId": U32})
    enlist = st.builds(lambda uow, token, qf: {"pTransactionId": uow, "cbPropagationToken": len(token),
                                               "pbPropagationToken": token, "pQueueFormat": qf},
                       BYTES16, st.binary(max_size=64), queue_formats(text))
    return {0: st.just({}), 2: open_args, 3: fd({"pphContext": HANDLE}), 4: fd({"phContext": HANDLE}),
            5: fd({"phContext": HANDLE, "hCursor": U32}), 6: fd({"phContext": HANDLE}), 7: fd(receive),
            8: fd({"phContext": HANDLE, "dwRequestId": U32}), 9: end,
            10: fd({"phContextFrom": HANDLE, "ullContextTo": U64, "LookupId": U64, "pTransactionId": BYTES16}),
            11: open_args, 12: enlist, 13: fd({**receive, "pTransactionId": BYTES16}),
            14: fd({"phContext": HANDLE, "LookupId": U64, "usClass": U16}), 15: end}


def responses(sections=SMALL_SECTIONS) -> dict:
    fd = st.fixed_dictionaries
    returns = fd({"ReturnValue": U32})
    receive = st.builds(lambda arrive, sequence, found, result: {
        "pdwArriveTime": arrive, "pSequenceId": sequence, "pdwNumberOfSections": len(found),
        "ppPacketSections": found, "ReturnValue": result}, U32, U64, sections, U32)
    return {0: returns, 2: fd({"pphContext": HANDLE}), 3: fd({"pphContext": HANDLE, "ReturnValue": U32}),
            4: fd({"phCursor": U32, "ReturnValue": U32}), 5: returns, 6: returns, 7: receive, 8: returns,
            9: returns, 10: returns, 11: fd({"pMoveContext": U64, "pphContext": HANDLE}), 12: returns,
            13: receive, 14: returns, 15: returns}


@dataclass(frozen=True)
class Direction:
    encode: Callable
    decode: Callable
    impacket_encode: Callable
    impacket_decode: Callable
    values: dict          # opnum -> strategy for the fast codec
    plain_values: dict    # opnum -> strategy impacket can encode too


DIRECTIONS = {
    "request": Direction(ndr.encode_request, ndr.decode_request, ndr_impacket.encode_request,
                         ndr_impacket.decode_request, requests(), requests(PLAIN_TEXT)),
    "response": Direction(ndr.encode_response, ndr.decode_response, ndr_impacket.encode_response,
                          ndr_impacket.decode_response, responses(), responses()),
}
EACH_CALL = pytest.mark.parametrize("direction,opnum", [(d, n) for d in DIRECTIONS for n in WIRE_OPNUMS])


def referent_ids():
    return itertools.count(0x00020000, 4)   # the fast codec's, so that the two outputs line up


def ignored_offsets(stub: bytes, decode: Callable[[bytes], dict]) -> set[int]:
    """Offsets whose octet the decoder does not look at: pads, and referent ids (any non-zero value)."""
    expected, ignored = decode(stub), set()
    for offset in range(len(stub)):
        flipped = stub[:offset] + bytes([stub[offset] ^ 0xFF]) + stub[offset + 1:]
        try:
            if decode(flipped) == expected:
                ignored.add(offset)
        except StubError:
            pass   # a flip the decoder refuses is a flip it looked at
    return ignored


def assert_same_octets(fast: bytes, other: bytes, ignored: set[int]) -> None:
    assert len(fast) == len(other), f"{len(fast)} octets against {len(other)}\n{fast.hex()}\n{other.hex()}"
    for offset, (mine, theirs) in enumerate(zip(fast, other)):
        if offset not in ignored:
            assert mine == theirs, f"octet {offset:#x}: {mine:#04x} against {theirs:#04x}\n{fast.hex()}\n{other.hex()}"


# -- round trip --------------------------------------------------------------------------------------
@EACH_CALL
@SYNTAXES
@FAST
@given(data=st.data())
def test_round_trip(direction, opnum, ndr64, data):
    codec = DIRECTIONS[direction]
    values = data.draw(codec.values[opnum])
    stub = codec.encode(opnum, values, ndr64)
    assert codec.decode(opnum, stub, ndr64) == values
    assert codec.decode(opnum, stub + b"\xa5" * 9, ndr64) == values   # MS-RPCE 2.2.2.13: stub padding is ignored


@pytest.mark.parametrize("opnum", [7, 13])
@SYNTAXES
@settings(max_examples=8, deadline=None)
@given(values=responses(LARGE_SECTIONS)[7])
def test_round_trip_of_large_section_arrays(opnum, ndr64, values):
    stub = ndr.encode_response(opnum, values, ndr64)
    assert ndr.decode_response(opnum, stub, ndr64) == values


@ARMS
@SYNTAXES
@FAST
@given(data=st.data(), lead=st.integers(0, 15))
def test_queue_format_round_trip_at_every_alignment(arm, ndr64, data, lead):
    queue_format = data.draw(queue_formats(arms=[arm]))
    out = bytearray(b"\xee" * lead)
    put_queue_format(out, queue_format, ndr64)
    assert get_queue_format(bytes(out), lead, ndr64) == (queue_format, len(out))


# -- agreement with the impacket definition ---------------------------------------------------------
@EACH_CALL
@SYNTAXES
@SLOW
@given(data=st.data())
def test_fast_path_agrees_with_impacket(direction, opnum, ndr64, data):
    codec = DIRECTIONS[direction]
    values = data.draw(codec.plain_values[opnum])
    fast = codec.encode(opnum, values, ndr64)
    aligned = codec.impacket_encode(opnum, values, ndr64, referent_ids())
    stock = codec.impacket_encode(opnum, values, ndr64)   # impacket's random referent ids
    assert codec.impacket_decode(opnum, fast, ndr64) == values
    assert codec.decode(opnum, aligned, ndr64) == values
    assert codec.decode(opnum, stock, ndr64) == values
    ignored = ignored_offsets(fast, lambda stub: codec.decode(opnum, stub, ndr64))
    assert_same_octets(fast, aligned, ignored)
    assert_same_octets(fast, stock, ignored)


@ARMS
@SYNTAXES
@SLOW
@given(data=st.data(), lead=st.integers(0, 15))
def test_queue_format_type_agrees_with_impacket_at_every_alignment(arm, ndr64, data, lead):
    queue_format = data.draw(queue_formats(PLAIN_TEXT, arms=[arm]))
    probe = type("Probe", (NDRCALL,), {"structure": (("Lead", f"{lead}s=b''"), ("Value", QUEUE_FORMAT))})
    values = {"Lead": b"\xee" * lead, "Value": queue_format}
    theirs = ndr_impacket.to_call(probe, values, ndr64, referent_ids()).getData()
    assert ndr_impacket.from_call(probe(theirs, isNDR64=ndr64)) == values
    out = bytearray(values["Lead"])
    put_queue_format(out, queue_format, ndr64)
    mine = bytes(out)
    assert ndr_impacket.from_call(probe(mine, isNDR64=ndr64)) == values
    ignored = ignored_offsets(mine, lambda stub: get_queue_format(stub, lead, ndr64))
    assert_same_octets(mine, theirs, ignored)


# NDR type, plain value strategy, field holding it, alignment and size in NDR 2.0 and NDR64
SIMPLE_TYPES = {
    "context handle": (QUEUE_CONTEXT_HANDLE, HANDLE, "Data", (4, 20), (4, 20)),
    "GUID": (GUID, BYTES16, "Data", (4, 16), (4, 16)),
    "XACTUOW": (XACTUOW, BYTES16, "rgb", (1, 16), (1, 16)),
    "SectionType": (SectionType, st.integers(0, 4), "Data", (2, 2), (4, 4)),
}


@pytest.mark.parametrize("name", SIMPLE_TYPES)
@SYNTAXES
@FAST
@given(data=st.data(), lead=st.integers(0, 15))
def test_simple_type_layout(name, ndr64, data, lead):
    kind, values, field, ndr20_form, ndr64_form = SIMPLE_TYPES[name]
    alignment, size = ndr64_form if ndr64 else ndr20_form
    value = data.draw(values)
    probe = type("Probe", (NDRCALL,), {"structure": (("Lead", f"{lead}s=b''"), ("Value", kind))})
    call = probe(isNDR64=ndr64)
    call["Lead"] = b"\xee" * lead
    call.fields["Value"][field] = value
    stub = call.getData()
    start = lead + (-lead) % alignment
    wire = value if isinstance(value, bytes) else value.to_bytes(size, "little")
    assert len(stub) == start + size and stub[:lead] == b"\xee" * lead and stub[start:] == wire
    assert probe(stub, isNDR64=ndr64).fields["Value"][field] == value


@SYNTAXES
@FAST
@given(section=section_buffers())
def test_section_buffer_type_round_trip(ndr64, section):
    item = NdrSectionBuffer(isNDR64=ndr64)
    item["SectionBufferType"], item["SectionSizeAlloc"] = section.section_buffer_type, section.section_size_alloc
    item["SectionSize"], item["pSectionBuffer"] = section.section_size, section.p_section_buffer
    probe = type("Probe", (NDRCALL,), {"structure": (("Value", NdrSectionBuffer),)})
    call = probe(isNDR64=ndr64)
    call.fields["Value"] = item
    decoded = probe(call.getData(), isNDR64=ndr64).fields["Value"]
    assert (decoded["SectionBufferType"], decoded["SectionSizeAlloc"], decoded["SectionSize"]) == \
        (section.section_buffer_type, section.section_size_alloc, section.section_size)
    assert b"".join(decoded["pSectionBuffer"]) == section.p_section_buffer


# -- refusal: truncations, random and mutated octets -------------------------------------------------
@EACH_CALL
@SYNTAXES
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_every_truncation_is_refused(direction, opnum, ndr64, data):
    codec = DIRECTIONS[direction]
    stub = codec.encode(opnum, data.draw(codec.values[opnum]), ndr64)
    for end in range(len(stub)):
        with pytest.raises(StubError) as refused:
            codec.decode(opnum, stub[:end], ndr64)
        assert refused.value.status == BAD


def _decodes_or_is_refused(codec: Direction, opnum: int, stub: bytes, ndr64: bool) -> None:
    try:
        values = codec.decode(opnum, stub, ndr64)
    except StubError as refused:
        assert refused.status in (BAD, BOUND, RpcStatus.NCA_S_OP_RNG_ERROR, RPC_X_ENUM_VALUE_OUT_OF_RANGE,
                                  RpcStatus.RPC_S_INVALID_TAG)
        return
    # whatever decodes is a value the encoder can send again
    assert codec.decode(opnum, codec.encode(opnum, values, ndr64), ndr64) == values


@pytest.mark.parametrize("direction", DIRECTIONS)
@SYNTAXES
@settings(max_examples=500, deadline=None)
@given(opnum=st.integers(-1, 17), stub=st.binary(max_size=160))
def test_random_octets_decode_or_are_refused(direction, ndr64, opnum, stub):
    _decodes_or_is_refused(DIRECTIONS[direction], opnum, stub, ndr64)


@EACH_CALL
@SYNTAXES
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_mutated_stubs_decode_or_are_refused(direction, opnum, ndr64, data):
    codec = DIRECTIONS[direction]
    stub = bytearray(codec.encode(opnum, data.draw(codec.values[opnum]), ndr64))
    if stub:
        for _ in range(data.draw(st.integers(1, 4))):
            stub[data.draw(st.integers(0, len(stub) - 1))] = data.draw(U8)
    _decodes_or_is_refused(codec, opnum, bytes(stub), ndr64)


def test_non_bytes_stub_is_a_type_error():
    with pytest.raises(TypeError):
        ndr.decode_request(7, "not octets")


# -- what the runtime refuses ----------------------------------------------------------------------
CONTEXT = bytes(range(1, 21))
CLIENT_ID = uuid.UUID("6f3a6b2e-0b8b-4d8e-9b1e-5a3c2d1e0f40").bytes_le
OPEN = {"pQueueFormat": QueueFormat(3, direct_id="OS:a\\q"), "dwAccess": 1, "dwShareMode": 0,
        "pClientId": CLIENT_ID, "fNonRoutingServer": 1, "Major": 6, "Minor": 1, "BuildNumber": 0x1234,
        "fWorkgroup": 0}
RECEIVE_OUT = {"pdwArriveTime": 0x5F5E1000, "pSequenceId": 0x0001020304050607, "pdwNumberOfSections": 2,
               "ppPacketSections": (SectionBuffer(1, 0x30, 5, b"\x10\x00\x03\x00\x4c"),
                                    SectionBuffer(2, 3, 3, b"abc")), "ReturnValue": 0}
RECEIVE_IN = {"phContext": CONTEXT, "LookupId": 0, "hCursor": 0, "ulAction": 0, "ulTimeout": 0, "dwRequestId": 9,
              "dwMaxBodySize": 100, "dwMaxCompoundMessageSize": 100}
ENLIST = {"pTransactionId": b"T" * 16, "cbPropagationToken": 3, "pbPropagationToken": b"tok",
          "pQueueFormat": QueueFormat(2, guid=uuid.UUID(int=7), uniquifier=5)}
EXAMPLES = {  # one valid request and response per opnum
    0: ({}, {"ReturnValue": 2103}),
    2: (OPEN, {"pphContext": CONTEXT}),
    3: ({"pphContext": CONTEXT}, {"pphContext": bytes(20), "ReturnValue": 0}),
    4: ({"phContext": CONTEXT}, {"phCursor": 3, "ReturnValue": 0}),
    5: ({"phContext": CONTEXT, "hCursor": 3}, {"ReturnValue": 0}),
    6: ({"phContext": CONTEXT}, {"ReturnValue": 0}),
    7: (RECEIVE_IN, RECEIVE_OUT),
    8: ({"phContext": CONTEXT, "dwRequestId": 9}, {"ReturnValue": 0}),
    9: ({"phContext": CONTEXT, "dwAck": 2, "dwRequestId": 9}, {"ReturnValue": 0}),
    10: ({"phContextFrom": CONTEXT, "ullContextTo": 5, "LookupId": 6, "pTransactionId": bytes(16)},
         {"ReturnValue": 0}),
    11: (OPEN, {"pMoveContext": 77, "pphContext": CONTEXT}),
    12: (ENLIST, {"ReturnValue": 0}),
    13: ({**RECEIVE_IN, "pTransactionId": b"T" * 16}, RECEIVE_OUT),
    14: ({"phContext": CONTEXT, "LookupId": 6, "usClass": 0xC004}, {"ReturnValue": 0}),
    15: ({"phContext": CONTEXT, "dwAck": 1, "dwRequestId": 9}, {"ReturnValue": 0}),
}


def example(direction: str, opnum: int, **changes) -> dict:
    return {**EXAMPLES[opnum][0 if direction == "request" else 1], **changes}


@pytest.mark.parametrize("opnum", [9, 15])
@SYNTAXES
@FAST
@given(ack=U32)
def test_dw_ack_outside_range_is_an_invalid_bound(opnum, ndr64, ack):
    stub = ndr.encode_request(opnum, example("request", opnum, dwAck=ack), ndr64)  # a client may send it
    if ack in (1, 2):   # MS-MQRR 6: [in, range(1,2)] DWORD dwAck
        assert ndr.decode_request(opnum, stub, ndr64)["dwAck"] == ack
    else:
        with pytest.raises(StubError) as refused:
            ndr.decode_request(opnum, stub, ndr64)
        assert refused.value.status == BOUND


@SYNTAXES
def test_cb_propagation_token_range_bounds(ndr64):
    token = bytes(131072)   # MS-MQRR 6: [in, range(0, 131072)] DWORD cbPropagationToken
    for size in (0, 131072):
        values = example("request", 12, cbPropagationToken=size, pbPropagationToken=token[:size])
        assert ndr.decode_request(12, ndr.encode_request(12, values, ndr64), ndr64) == values
    stub = ndr.encode_request(12, example("request", 12, cbPropagationToken=131073,
                                          pbPropagationToken=token + b"x"), ndr64)
    with pytest.raises(StubError) as refused:
        ndr.decode_request(12, stub, ndr64)
    assert refused.value.status == BOUND


@SYNTAXES
@FAST
@given(size=st.integers(131073, 2 ** 32 - 1))
def test_cb_propagation_token_above_range_is_refused_before_the_token(ndr64, size):
    with pytest.raises(StubError) as refused:
        ndr.decode_request(12, b"T" * 16 + struct.pack("<L", size) + bytes(12), ndr64)
    assert refused.value.status == BOUND


# (direction, opnum, parameter): each [ref] pointer parameter of the IDL (MS-MQRR 6)
REF_POINTERS = [
    ("request", 2, "pQueueFormat"), ("request", 2, "pClientId"), ("response", 2, "pphContext"),
    ("request", 3, "pphContext"), ("response", 3, "pphContext"), ("response", 4, "phCursor"),
    ("request", 10, "pTransactionId"),
    ("request", 11, "pQueueFormat"), ("request", 11, "pClientId"),
    ("response", 11, "pMoveContext"), ("response", 11, "pphContext"),
    ("request", 12, "pTransactionId"), ("request", 12, "pbPropagationToken"), ("request", 12, "pQueueFormat"),
    ("request", 13, "pTransactionId"),
] + [("response", opnum, name) for opnum in (7, 13)
     for name in ("pdwArriveTime", "pSequenceId", "pdwNumberOfSections", "ppPacketSections")]


@pytest.mark.parametrize("direction,opnum,parameter", REF_POINTERS)
@SYNTAXES
def test_null_ref_pointer_is_a_null_reference(direction, opnum, parameter, ndr64):
    with pytest.raises(NullReference) as refused:
        DIRECTIONS[direction].encode(opnum, example(direction, opnum, **{parameter: None}), ndr64)
    assert refused.value.parameter == parameter and isinstance(refused.value, ValueError)


@pytest.mark.parametrize("opnum,parameter", [(7, "phContext"), (10, "phContextFrom"), (14, "phContext")])
def test_null_by_value_context_handle_is_a_plain_value_error(opnum, parameter):
    with pytest.raises(ValueError) as refused:
        ndr.encode_request(opnum, example("request", opnum, **{parameter: None}))
    assert not isinstance(refused.value, NullReference)


@pytest.mark.parametrize("opnum", [1, 16, -1, 255])
def test_unknown_opnum(opnum):
    for decode in (ndr.decode_request, ndr.decode_response):
        with pytest.raises(StubError) as refused:
            decode(opnum, b"\x00" * 64)
        assert refused.value.status == RpcStatus.NCA_S_OP_RNG_ERROR
    for encode in (ndr.encode_request, ndr.encode_response):
        with pytest.raises(ValueError):
            encode(opnum, {})


def _refused(decode, stub: bytes, status=BAD) -> None:
    with pytest.raises(StubError) as refused:
        decode(stub)
    assert refused.value.status == status, refused.value


@SYNTAXES
def test_union_tag_must_be_m_qft_and_select_an_arm(ndr64):
    stub = bytearray(ndr.encode_request(2, OPEN, ndr64))
    tag = 8 if ndr64 else 4   # MS-RPCE 2.2.5.3.4.4: the NDR64 union (its tag) is aligned to 8
    assert stub[0] == stub[tag] == 3
    decode = lambda octets: ndr.decode_request(2, octets, ndr64)
    stub[tag] = 1
    _refused(decode, bytes(stub))   # union correlation, MS-RPCE 3.1.1.5.3.2.1.11
    for qft in (9, 0x80, 0xFF):     # MS-MQMQ 2.2.7: no arm beyond QUEUE_FORMAT_TYPE_SUBQUEUE
        stub[0] = stub[tag] = qft
        _refused(decode, bytes(stub), RpcStatus.RPC_S_INVALID_TAG)


@SYNTAXES
@pytest.mark.parametrize("qft", [9, 0x80, 0xFF])
def test_a_client_can_send_a_discriminant_with_no_arm(ndr64, qft):
    """A client under test may send any m_qft; the tag goes out with no arm and the server refuses it."""
    stub = ndr.encode_request(2, {**OPEN, "pQueueFormat": QueueFormat(qft)}, ndr64)
    _refused(lambda octets: ndr.decode_request(2, octets, ndr64), stub, RpcStatus.RPC_S_INVALID_TAG)


@SYNTAXES
def test_string_form_is_checked(ndr64):
    stub = ndr.encode_request(2, OPEN, ndr64)
    counts = 0x18 if ndr64 else 0x0C              # max_count, offset, actual_count of m_pDirectID
    unit, form = (8, "<QQQ") if ndr64 else (4, "<LLL")
    decode = lambda octets: ndr.decode_request(2, octets, ndr64)
    assert struct.unpack_from(form, stub, counts) == (7, 0, 7)
    for maximum, offset, actual in ((8, 1, 7), (6, 0, 7), (0, 0, 0)):   # offset, actual > max, no terminator
        _refused(decode, stub[:counts] + struct.pack(form, maximum, offset, actual) + stub[counts + 3 * unit:])
    terminator = counts + 3 * unit + 12
    _refused(decode, stub[:terminator] + b"A\x00" + stub[terminator + 2:])
    longer = stub[:counts] + struct.pack(form, 9, 0, 7) + stub[counts + 3 * unit:]   # max > actual is fine
    assert decode(longer) == OPEN


def _patched(stub: bytes, offset: int, form: str, value: int) -> bytes:
    return stub[:offset] + struct.pack(form, value) + stub[offset + struct.calcsize(form):]


@SYNTAXES
def test_section_pointers_and_sizes_are_correlated(ndr64):
    # each stub below is well formed but for the one correlation it breaks, so only that check can refuse it
    decode = lambda octets: ndr.decode_response(7, octets, ndr64)
    form, count = ("<Q" if ndr64 else "<L"), 0x10
    first, element, deferred = (0x28, 24, 0x40) if ndr64 else (0x1C, 16, 0x2C)
    first_section, second_section = RECEIVE_OUT["ppPacketSections"]
    empty = {**RECEIVE_OUT, "pdwNumberOfSections": 0, "ppPacketSections": ()}
    one = {**RECEIVE_OUT, "pdwNumberOfSections": 1, "ppPacketSections": (first_section,)}
    null_second = replace(second_section, section_size=0, p_section_buffer=b"")
    two = {**RECEIVE_OUT, "ppPacketSections": (first_section, null_second)}
    # MS-RPCE 3.1.1.5.3.3.1.2: a NULL *ppPacketSections with pdwNumberOfSections 2
    _refused(decode, _patched(ndr.encode_response(7, empty, ndr64), count, "<L", 2))
    # MS-RPCE 3.1.1.5.3.2.1.1: the array's max_count (1) is not *pdwNumberOfSections (2)
    _refused(decode, _patched(ndr.encode_response(7, one, ndr64), count, "<L", 2))
    # MS-MQRR 3.1.4: a NULL pSectionBuffer with SectionSize 3
    _refused(decode, _patched(ndr.encode_response(7, two, ndr64), first + element + 8, "<L", 3))
    # the deferred byte array's max_count (4) is not its SectionSize (5)
    _refused(decode, _patched(ndr.encode_response(7, one, ndr64), deferred, form, 4))
    stub = ndr.encode_response(7, RECEIVE_OUT, ndr64)
    _refused(decode, _patched(stub, first, "<H", 0x8000), RPC_X_ENUM_VALUE_OUT_OF_RANGE)
    _refused(decode, _patched(stub, first + element, "<H", 0xFFFF), RPC_X_ENUM_VALUE_OUT_OF_RANGE)
    for values in (empty, one, two):   # and the same stubs unbroken decode (a NULL pSectionBuffer of size 0 is b"")
        assert decode(ndr.encode_response(7, values, ndr64)) == values


@SYNTAXES
def test_empty_non_null_section_array_is_no_sections(ndr64):
    empty = {**RECEIVE_OUT, "pdwNumberOfSections": 0, "ppPacketSections": ()}
    stub = ndr.encode_response(7, empty, ndr64)
    head = 0x18 if ndr64 else 0x14
    form = "<QQ" if ndr64 else "<LL"
    non_null = stub[:head] + struct.pack(form, 0x20000, 0) + stub[head + struct.calcsize(form) // 2:]
    assert ndr.decode_response(7, non_null, ndr64) == empty


# -- what the encoder refuses ----------------------------------------------------------------------
BAD_VALUES = [
    ("request", 7, {"phContext": b"short"}),
    ("request", 7, {"LookupId": 2 ** 64}),
    ("request", 7, {"hCursor": -1}),
    ("request", 7, {"extra": 1}),
    ("request", 2, {"fNonRoutingServer": 2 ** 31}),
    ("request", 2, {"pClientId": b"x" * 15}),
    ("request", 2, {"pQueueFormat": QueueFormat(256)}),                               # m_qft is a UCHAR
    ("request", 2, {"pQueueFormat": QueueFormat(1)}),                                 # GUID arm without a GUID
    ("request", 2, {"pQueueFormat": QueueFormat(3, direct_id="a", guid=uuid.UUID(int=1))}),   # not its arm
    ("request", 2, {"pQueueFormat": QueueFormat(0, m_suffix_and_flags=256)}),
    ("request", 2, {"pQueueFormat": "DIRECT=OS:a\\q"}),
    ("request", 12, {"cbPropagationToken": 4}),                                       # size_is mismatch
    ("response", 7, {"pdwNumberOfSections": 3}),
    ("response", 7, {"pdwNumberOfSections": 1, "ppPacketSections": (SectionBuffer(0, 1, 2, b"x"),)}),
    ("response", 7, {"pdwNumberOfSections": 1, "ppPacketSections": (SectionBuffer(0x8000, 1, 1, b"x"),)}),
    ("response", 7, {"pdwNumberOfSections": 1, "ppPacketSections": (SectionBuffer(0, -1, 1, b"x"),)}),
    ("response", 7, {"ReturnValue": 2 ** 32}),
    ("response", 3, {"ReturnValue": -1}),
]


@pytest.mark.parametrize("direction,opnum,changes", BAD_VALUES)
@SYNTAXES
def test_encoder_refuses_what_it_cannot_marshal(direction, opnum, changes, ndr64):
    with pytest.raises(ValueError) as refused:
        DIRECTIONS[direction].encode(opnum, example(direction, opnum, **changes), ndr64)
    assert not isinstance(refused.value, NullReference)


def test_encoder_takes_a_dict():
    with pytest.raises(ValueError):
        ndr.encode_request(4, [("phContext", CONTEXT)])


# -- golden stubs, written out by hand ------------------------------------------------------------
GOLDEN = {
    # R_StartReceive response, NDR 2.0 (C706 14): scalars aligned to their size, a unique pointer's
    # referent id, the conformant array's max_count before its elements, each element inline, the
    # [size_is] byte arrays deferred after the whole array, each max_count + bytes, the HRESULT last
    (7, "response", False): RECEIVE_OUT, (7, "response", True): RECEIVE_OUT,
    (2, "request", False): OPEN,
    (2, "request", True): {**OPEN, "pQueueFormat": QueueFormat(
        2, guid=uuid.UUID("00010203-0405-0607-0809-0a0b0c0d0e0f"), uniquifier=0x2A)},
}
GOLDEN_HEX = {
    (7, "response", False): """
        00105e5f                  pdwArriveTime
        00000000                  pad: a ULONGLONG is 8-aligned
        0706050403020100          pSequenceId
        02000000                  pdwNumberOfSections
        00000200                  *ppPacketSections: unique, referent id 0x00020000
        02000000                  max_count of the conformant array = 2
        0100 0000                 [0].SectionBufferType stBinaryFirstSection (enum: 2 octets), pad
        30000000 05000000         [0].SectionSizeAlloc, [0].SectionSize
        04000200                  [0].pSectionBuffer: referent id 0x00020004
        0200 0000                 [1].SectionBufferType stBinarySecondSection, pad
        03000000 03000000         [1].SectionSizeAlloc, [1].SectionSize
        08000200                  [1].pSectionBuffer: referent id 0x00020008
        05000000 100003004c       deferred [0]: max_count 5, the bytes
        000000                    pad: a max_count is 4-aligned
        03000000 616263           deferred [1]: max_count 3, the bytes
        00                        pad
        00000000                  HRESULT MQ_OK""",
    (7, "response", True): """
        00105e5f 00000000         pdwArriveTime, pad
        0706050403020100          pSequenceId
        02000000 00000000         pdwNumberOfSections, pad: an NDR64 pointer is 8 octets, 8-aligned
        0000020000000000          *ppPacketSections
        0200000000000000          max_count: 8 octets (MS-RPCE 2.2.5.3.2.1)
        01000000 30000000 05000000 00000000 0400020000000000   [0]: enum as 4 octets, 24-octet element
        02000000 03000000 03000000 00000000 0800020000000000   [1]
        0500000000000000 100003004c 000000                     deferred [0], pad to 8
        0300000000000000 616263 00                             deferred [1], pad to 4
        00000000                  HRESULT""",
    (2, "request", False): """
        03 00 0000                m_qft DIRECT, m_SuffixAndFlags, m_reserved
        03 000000                 union tag = m_qft (UCHAR), pad: the pointer arm is 4-aligned
        00000200                  m_pDirectID: unique, referent id 0x00020000
        07000000 00000000 07000000   deferred [string]: max_count, offset, actual_count (terminator counted)
        4f0053003a0061005c0071000000  "OS:a\\q" and its terminator, UTF-16LE
        0000                      pad
        01000000 00000000         dwAccess RECEIVE_ACCESS, dwShareMode MQ_DENY_NONE
        2e6b3a6f8b0b8e4d9b1e5a3c2d1e0f40   pClientId (GUID, wire order)
        01000000 06 01 3412       fNonRoutingServer, Major, Minor, BuildNumber
        00000000                  fWorkgroup""",
    (2, "request", True): """
        02 00 0000 00000000       m_qft PRIVATE, m_SuffixAndFlags, m_reserved, pad: the union is 8-aligned
        02 00000000000000         union tag, pad: the arm is aligned to the largest arm, 8 (MS-RPCE 2.2.5.3.4.4)
        0302010005040706 08090a0b0c0d0e0f   m_oPrivateID.Lineage (GUID, wire order)
        2a000000                  m_oPrivateID.Uniquifier
        00000000                  trailing gap: QUEUE_FORMAT's size is a multiple of 8 (MS-RPCE 2.2.5.3.4.1)
        01000000 00000000         dwAccess, dwShareMode
        2e6b3a6f8b0b8e4d9b1e5a3c2d1e0f40   pClientId
        01000000 06 01 3412 00000000""",
}


def _hex(text: str) -> bytes:
    """The octets of a golden listing: on each line, the hex groups before the comment (2+ spaces)."""
    return bytes.fromhex("".join(re.split(r"\s{2,}", line.strip())[0] for line in text.strip().splitlines()))


@pytest.mark.parametrize("key", GOLDEN_HEX, ids=lambda key: f"opnum{key[0]}-{key[1]}-{'ndr64' if key[2] else 'ndr20'}")
def test_golden_stub(key):
    opnum, direction, ndr64 = key
    codec, values, golden = DIRECTIONS[direction], GOLDEN[key], _hex(GOLDEN_HEX[key])
    assert codec.encode(opnum, values, ndr64) == golden
    assert codec.decode(opnum, golden, ndr64) == values
    assert codec.impacket_decode(opnum, golden, ndr64) == values
    ignored = ignored_offsets(golden, lambda stub: codec.decode(opnum, stub, ndr64))
    assert_same_octets(golden, codec.impacket_encode(opnum, values, ndr64, referent_ids()), ignored)
