"""Section-level rules for what R_StartReceive returns, plus the reader's building blocks.

Theory of operation
-------------------
A server hands a message back as one or two SectionBuffer records (MS-MQRR 2.2.6).
This module judges those records *as records*: how many there are, their types,
whether SectionSize / SectionSizeAlloc agree with the bytes, and whether the split
into a first and second section matches the body limit the client asked for
(MS-MQRR 3.1.4.7).  It never decodes headers itself: the reader first decodes the
first section on its own and hands over a `Layout` (where the truncatable unit sits),
and `judge_split` answers with the offset at which the second section belongs in the
rebuilt packet.  The gap between the end of the first section and that offset is the
part of the body the server did not send.

Two readings of the split are accepted because the specification allows both (see
MS-MQRR 2.2.6 vs MS-MQMQ 2.2.19.3): the first SectionSizeAlloc may stop at the end of
the body, or at the end of the MessagePropertiesHeader including its padding.  For
SRMP messages the "size of the CompoundMessageHeader" may be read with or without its
16-byte fixed part.  Anything outside those readings is reported.

The second half of the module holds the pieces the packet reader is built from: a
bounded byte reader that raises `Short` instead of reading past the data (or into the
unsent gap), and the decoder for the MS-MQRR 2.2.5 trailers (ExtensionHeader,
SubqueueHeader, DeadLetterHeader, ExtendedAddressHeader) that close every packet.
"""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass
from typing import NamedTuple, Sequence

ST_FULL, ST_BIN_FIRST, ST_BIN_SECOND, ST_SRMP_FIRST, ST_SRMP_SECOND = range(5)
TYPE_NAMES = {0: "stFullPacket", 1: "stBinaryFirstSection", 2: "stBinarySecondSection",
              3: "stSrmpFirstSection", 4: "stSrmpSecondSection"}
NIL_GUID = uuid.UUID(int=0)
CMH_FIXED = 16  # HeaderId, Reserved, HTTPBodySize, MsgBodySize, MsgBodyOffset


def align4(n: int) -> int:
    return (n + 3) & ~3


def type_name(t: object) -> str:
    return f"{t} ({TYPE_NAMES[t]})" if t in TYPE_NAMES else str(t)


def private_name(host: uuid.UUID, qid: int) -> str:
    """PRIVATE=<guid>\\<8 hex digits> (MS-MQMQ 2.1.4)."""
    return f"PRIVATE={host}\\{qid:08x}"


def public_name(guid: uuid.UUID) -> str:
    return f"PUBLIC={guid}"  # MS-MQMQ 2.1.3


def direct_name(text: str) -> str:
    """The wire string may or may not carry the DIRECT= prefix; render it with one."""
    return text if text[:7].upper() == "DIRECT=" else "DIRECT=" + text  # MS-MQMQ 2.1.2


def utf16(raw: bytes) -> str:
    return raw.decode("utf-16-le", errors="replace")


@dataclass
class Layout:
    """Where the part that a server may truncate lives inside the packet."""
    srmp: bool | None = None      # UserHeader.Flags.AH, None until the UserHeader was read
    hdr_off: int | None = None    # start of the MessagePropertiesHeader / CompoundMessageHeader
    unit_off: int | None = None   # start of MessageBody / CompoundMessageHeader.Data
    unit_size: int | None = None  # MessageSize / HTTPBodySize

    @property
    def known(self) -> bool:
        return None not in (self.srmp, self.hdr_off, self.unit_off, self.unit_size)

    @property
    def unpadded_end(self) -> int:
        return self.unit_off + self.unit_size

    @property
    def padded_end(self) -> int:
        return self.hdr_off + align4(self.unpadded_end - self.hdr_off)


class Piece(NamedTuple):
    type: object
    alloc: int
    size: int
    data: bytes


def check_records(sections: Sequence[object], out: list[str]) -> list[Piece]:
    """Per-record rules; returns at most two usable pieces (empty when nothing came)."""
    n = len(sections)
    if n not in (1, 2):  # MS-MQRR 3.1.4.7
        out.append(f"MS-MQRR 3.1.4.7: {n} sections returned, expected 1 or 2")
    pieces: list[Piece] = []
    for i, s in enumerate(sections[:2]):
        t = getattr(s, "section_buffer_type", None)
        alloc = getattr(s, "section_size_alloc", 0)
        size = getattr(s, "section_size", 0)
        data = bytes(getattr(s, "p_section_buffer", None) or b"")
        if t not in TYPE_NAMES:  # MS-MQRR 2.2.7
            out.append(f"MS-MQRR 2.2.7: section {i} has type {t!r}, not a SectionType value")
        if size != len(data):  # MS-MQRR 2.2.6
            out.append(f"MS-MQRR 2.2.6: section {i} SectionSize is {size} "
                       f"but pSectionBuffer holds {len(data)} bytes")
        if t in (ST_FULL, ST_BIN_SECOND, ST_SRMP_SECOND) and alloc != size:  # MS-MQRR 2.2.6
            out.append(f"MS-MQRR 2.2.6: section {i} of type {type_name(t)} has "
                       f"SectionSizeAlloc {alloc} != SectionSize {size}")
        if t in (ST_BIN_FIRST, ST_SRMP_FIRST) and alloc < size:  # MS-MQRR 2.2.6
            out.append(f"MS-MQRR 2.2.6: section {i} of type {type_name(t)} has "
                       f"SectionSizeAlloc {alloc} < SectionSize {size}")
        pieces.append(Piece(t, alloc, size, data))
    types = tuple(p.type for p in pieces)
    if n == 2 and types not in ((ST_BIN_FIRST, ST_BIN_SECOND), (ST_SRMP_FIRST, ST_SRMP_SECOND)):
        # MS-MQRR 3.1.4.7
        out.append("MS-MQRR 3.1.4.7: two sections must be types (1, 2) or (3, 4), got "
                   + ", ".join(type_name(t) for t in types))
    if n == 1 and types[0] in (ST_BIN_FIRST, ST_SRMP_FIRST):
        # MS-MQRR 3.1.4.7 (the MS-MQRR 2.2.5 trailers are never empty)
        out.append(f"MS-MQRR 3.1.4.7: a {type_name(types[0])} came without the second "
                   "section that must carry the packet trailers")
    if n == 1 and types[0] in (ST_BIN_SECOND, ST_SRMP_SECOND):  # MS-MQRR 3.1.4.7
        out.append(f"MS-MQRR 3.1.4.7: a lone section of type {type_name(types[0])}")
    return pieces


def check_kinds(pieces: Sequence[Piece], srmp: bool | None, out: list[str]) -> None:
    """Binary section types need AH clear, SRMP section types need AH set."""
    if srmp is None:
        return
    for i, p in enumerate(pieces):
        if p.type in (ST_BIN_FIRST, ST_BIN_SECOND) and srmp:  # MS-MQRR 2.2.7, 2.2.5.1.2
            out.append(f"MS-MQRR 2.2.7: section {i} is {type_name(p.type)} but "
                       "UserHeader.Flags.AH is set (SRMP message)")
        if p.type in (ST_SRMP_FIRST, ST_SRMP_SECOND) and not srmp:  # MS-MQRR 2.2.7, 2.2.5.1.1
            out.append(f"MS-MQRR 2.2.7: section {i} is {type_name(p.type)} but "
                       "UserHeader.Flags.AH is clear (binary message)")


def judge_split(pieces: Sequence[Piece], lay: Layout, max_body: int, max_cmh: int,
                out: list[str]) -> int | None:
    """Check the 3.1.4.7 split; return where the second section starts (None: no split)."""
    first = pieces[0]
    split = first.type in (ST_BIN_FIRST, ST_SRMP_FIRST)
    got = len(first.data)
    if split and lay.srmp and lay.hdr_off is not None and lay.unit_size is None:
        # D-62 header: a limit under 16 cuts the CompoundMessageHeader inside its fixed part
        if got != lay.hdr_off + max_cmh:  # MS-MQRR 3.1.4.7
            out.append(f"MS-MQRR 3.1.4.7: first section holds {got} bytes, cut inside the CompoundMessageHeader "
                       f"(at {lay.hdr_off}) but not {max_cmh} bytes into it (dwMaxCompoundMessageSize)")
        if first.alloc < lay.hdr_off + CMH_FIXED:  # MS-MQRR 3.1.4.7
            out.append(f"MS-MQRR 3.1.4.7: first SectionSizeAlloc {first.alloc} ends inside the "
                       f"CompoundMessageHeader's fixed part")
        return max(first.alloc, got)
    if not lay.known:
        return first.alloc if split and first.alloc >= got else None
    size = lay.unit_size
    if lay.srmp:
        limit, what, knob = max_cmh, "CompoundMessageHeader", "dwMaxCompoundMessageSize"
        must, may = limit < size, limit < size + CMH_FIXED
    else:
        limit, what, knob = max_body, "message body", "dwMaxBodySize"
        must = may = limit < size
    if not split and must:  # MS-MQRR 3.1.4.7
        out.append(f"MS-MQRR 3.1.4.7: {what} of {size} bytes exceeds {knob} {limit} but the "
                   f"packet came as {type_name(first.type)}")
    if split and not may:  # MS-MQRR 3.1.4.7
        out.append(f"MS-MQRR 3.1.4.7: {what} of {size} bytes fits {knob} {limit} but the "
                   f"packet was split ({type_name(first.type)})")
    if not split:
        return None
    cuts = {lay.unit_off + min(limit, size)}
    if lay.srmp:
        cuts.add(lay.hdr_off + min(limit, size + CMH_FIXED))
    if got not in cuts:  # MS-MQRR 3.1.4.7
        out.append(f"MS-MQRR 3.1.4.7: first section holds {got} bytes, expected "
                   f"{' or '.join(map(str, sorted(cuts)))} (headers plus the first "
                   f"{min(limit, size)} bytes of the {what})")
    ends = (lay.unpadded_end, lay.padded_end)
    if first.alloc not in ends:  # MS-MQRR 3.1.4.7, 2.2.6
        want = " or ".join(str(e) for e in sorted(set(ends)))
        out.append(f"MS-MQRR 3.1.4.7: first SectionSizeAlloc is {first.alloc}, expected {want} "
                   f"(header size plus the full {size}-byte {what})")
    if first.alloc in ends and first.alloc >= got:
        # D-61 literal: SectionSizeAlloc stops before the 0-3 padding bytes; the second section then holds the
        # trailers alone (an ExtensionHeader, HeaderSize 12, first: they go after the padding) or the padding too
        if (first.alloc != lay.padded_end and len(pieces) == 2
                and pieces[1].data[:4] == (12).to_bytes(4, "little")):
            return lay.padded_end
        return first.alloc
    return max(lay.padded_end, got)


class Short(Exception):
    """The packet ends (or reaches the unsent gap) before a field the layout needs."""


def nul_at(raw: bytes) -> int:
    """Byte offset of the first UTF-16 NUL, or -1."""
    for i in range(0, len(raw) - 1, 2):
        if raw[i] == 0 and raw[i + 1] == 0:
            return i
    return -1


def wstring(raw: bytes) -> tuple[str, bool, bytes]:
    """Split UTF-16LE bytes at the first NUL: (text, found_nul, bytes after the NUL)."""
    i = nul_at(raw)
    return (utf16(raw[:i]), True, raw[i + 2:]) if i >= 0 else (utf16(raw), False, b"")


class Spliced:
    """first + gap + second as one read-only byte string, without storing the gap.

    A server may claim a body of gigabytes; the gap must never be materialised.
    """

    def __init__(self, first: bytes, gap_end: int, second: bytes):
        self.first, self.second, self.at = first, second, gap_end

    def __len__(self) -> int:
        return self.at + len(self.second)

    def __getitem__(self, s: slice) -> bytes:
        a, b, _ = s.indices(len(self))
        if b <= a:
            return b""
        out = self.first[a:b]
        if b > len(self.first) and a < self.at:  # only reached for tiny spans: need() guards
            out += bytes(min(b, self.at) - max(a, len(self.first)))
        if b > self.at:
            out += self.second[max(a - self.at, 0):b - self.at]
        return out


class ByteReader:
    """Bounded little-endian reads over the rebuilt packet; `gap` marks unsent bytes."""

    def __init__(self, data: bytes, msg, gap: tuple[int, int] | None):
        self.d, self.m, self.gap = data, msg, gap

    def bad(self, text: str) -> None:
        self.m.violations.append(text)

    def need(self, off: int, n: int, what: str) -> bytes:
        if off + n > len(self.d):
            raise Short(f"{what} needs {n} bytes at offset {off} but the packet ends at "
                        f"{len(self.d)}")
        if self.gap and n and off < self.gap[1] and off + n > self.gap[0]:
            raise Short(f"{what} at offset {off} falls in bytes {self.gap[0]}-{self.gap[1]} "
                        "that the sections did not carry (MS-MQRR 3.1.4.7)")
        return self.d[off:off + n]

    def u16(self, off: int, what: str) -> int:
        return int.from_bytes(self.need(off, 2, what), "little")

    def u32(self, off: int, what: str) -> int:
        return int.from_bytes(self.need(off, 4, what), "little")


class TrailerReader(ByteReader):
    """The MS-MQRR 2.2.5 headers that follow the UserMessage."""

    def trailers(self, o: int) -> None:
        m, w = self.m, "MS-MQRR 2.2.5.2"
        size, rem, fl = struct.unpack("<IIB", self.need(o, 12, w + ": ExtensionHeader")[:9])
        bits = {"DL": fl & 1, "SQ": fl >> 1 & 1, "DI": fl >> 3 & 1, "EA": fl >> 4 & 1}
        m.extension_header = {"header_size": size, "remaining_headers_size": rem, "flags": fl, **bits}
        if size != 12:  # MS-MQRR 2.2.5.2
            self.bad(f"{w}: HeaderSize is {size} not 12")
        for bit in ("SQ", "EA"):
            if not bits[bit]:  # MS-MQRR 2.2.5.2
                self.bad(f"{w}: Flags.{bit} is clear but must be set")
        start = p = o + 12
        if bits["SQ"]:
            p = self.subqueue(p)
        if bits["DL"]:
            p = self.deadletter(p)
        if bits["EA"]:
            p = self.ext_address(p)
        if rem != p - start:  # MS-MQRR 2.2.5.2
            self.bad(f"{w}: RemainingHeadersSize is {rem} but the headers after it take {p - start} bytes")
        if p != len(self.d):  # MS-MQRR 2.2.5
            self.bad(f"MS-MQRR 2.2.5: {len(self.d) - p} bytes follow the last header")

    def fixed_name(self, raw: bytes, what: str) -> str:
        text, nul, rest = wstring(raw)
        if not nul or any(rest):  # MS-MQRR 2.2.5.3
            self.bad(f"MS-MQRR 2.2.5.3: {what} is not a NUL-terminated string padded with zeros")
        return text

    def subqueue(self, p: int) -> int:
        m, w = self.m, "MS-MQRR 2.2.5.3"
        raw = self.need(p, 148, w + ": SubqueueHeader")
        size, word, m.abort_counter, m.move_counter, m.last_move_time = struct.unpack_from("<5I", raw)
        m.acknowledgement_class = word >> 1 & 0xFFFF
        if size != 148:  # MS-MQRR 2.2.5.3
            self.bad(f"{w}: HeaderSize is {size} not 148")
        if word & 1:  # MS-MQRR 2.2.5.3
            self.bad(f"{w}: TM is set")
        m.subqueue_name = self.fixed_name(raw[20:84], "SubqueueName")
        self.fixed_name(raw[84:148], "TargetSubqueueName")
        return p + 148

    def deadletter(self, p: int) -> int:
        w = "MS-MQRR 2.2.5.4"
        size = self.u32(p, w + ": DeadLetterHeader")
        if size < 8 or size % 4:  # MS-MQRR 2.2.5.4
            self.bad(f"{w}: HeaderSize is {size}, not a multiple of 4 holding a NUL-terminated name")
            nul = nul_at(self.d[p + 4:])
            if nul < 0:
                raise Short(f"{w}: no NUL ends DeadLetterPathName")
            size = align4(4 + nul + 2)
        text, nul, rest = wstring(self.need(p + 4, size - 4, w + ": DeadLetterPathName"))
        if not nul or any(rest):  # MS-MQRR 2.2.5.4
            self.bad(f"{w}: DeadLetterPathName is not NUL-terminated and zero-padded to 4")
        self.m.deadletter_path_name = text
        return p + size

    def ext_address(self, p: int) -> int:
        w = "MS-MQRR 2.2.5.5"
        raw = self.need(p, 28, w + ": ExtendedAddressHeader")
        size, alen, atype, scope = struct.unpack_from("<IHHI", raw)
        self.m.extended_address = {"header_size": size, "address_length": alen,
                                   "address_type": atype, "address_scope": scope, "address": raw[12:28]}
        if size != 28:  # MS-MQRR 2.2.5.5
            self.bad(f"{w}: HeaderSize is {size} not 28")
        if atype not in (0, 1, 6):  # MS-MQRR 2.2.5.5
            self.bad(f"{w}: AddressType is {atype}, not 0, 1 or 6")
        if atype == 1 and scope:  # MS-MQRR 2.2.5.5
            self.bad(f"{w}: AddressScope is {scope} on an IPv4 address")
        if alen > 16:  # MS-MQRR 2.2.5.5
            self.bad(f"{w}: AddressLength {alen} is larger than the 16-byte Address")
        return p + 28

