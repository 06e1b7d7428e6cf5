"""SectionBuffers of R_StartReceive / R_StartTransactionalReceive (MS-MQRR 2.2.6, 3.1.4.7).

Theory of operation
-------------------
A PacketLayout (built by packet.py) says where the body-like part of the packet starts
(header_size), how long it is (actual_message_size) and where the trailers start
(trailer_offset, the end of the padded MessagePropertiesHeader for a binary message
or of the padded CompoundMessageHeader for an SRMP message).

When the client's limit covers the whole body-like part, one stFullPacket section
carries the packet.  Otherwise the first section carries the headers plus the first
`limit` bytes, and its SectionSizeAlloc is trailer_offset: the size the section would
have with everything, including the 0-3 alignment bytes that end the header.  A client
rebuilds the packet by copying each section at the running sum of SectionSizeAlloc,
which puts the trailers (second section) back on their aligned offset.

In the first section only, BaseHeader.TimeToReachQueue becomes absolute:
UserHeader.SentTime + the stored relative value.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from mqspec.protocol.constants import INFINITE, SectionType
from mqspec.protocol.idl import SectionBuffer

from .readings import Readings

TTRQ_OFFSET = 12        # MS-MQMQ:2.2.19.1 BaseHeader.TimeToReachQueue
SENT_TIME_OFFSET = 52   # MS-MQMQ:2.2.19.2 UserHeader.SentTime (16 + 36)
LATEST_FINITE = 0xFFFFFFFE
REFERENCE_READINGS = Readings()


@dataclass(frozen=True)
class PacketLayout:
    data: bytes               # the whole Message Packet Structure
    header_size: int          # binary: offset of the first body byte; SRMP: of the CompoundMessageHeader
                              # (D-62 data: of its Data field)
    actual_message_size: int  # binary: MessageSize; SRMP: 16 + HTTPBodySize (D-62 data: HTTPBodySize)
    trailer_offset: int       # end of the (padded) MessagePropertiesHeader / CompoundMessageHeader
    is_srmp: bool
    readings: Readings = REFERENCE_READINGS


def absolute_time_to_reach_queue(sent_time: int, relative: int, wrap: bool = False) -> int:
    """MS-MQRR:3.1.4.7 SentTime + TimeToReachQueue, with INFINITE kept and overflow saturated (D-64 saturate),
    or the plain 4-byte sum (D-64 wrap)."""
    if wrap:
        return (sent_time + relative) & 0xFFFFFFFF  # D-64 wrap: the sum in the 4-byte field, as written
    if relative == INFINITE:
        return INFINITE  # MS-MQMQ:2.2.19.1 0xFFFFFFFF means never; adding to it would wrap
    return min(sent_time + relative, LATEST_FINITE)  # a finite sum never reads as INFINITE


def _first_bytes(data: bytes, end: int, wrap: bool) -> bytes:
    head = bytearray(data[:end])
    sent, relative = struct.unpack_from("<I", data, SENT_TIME_OFFSET)[0], \
        struct.unpack_from("<I", data, TTRQ_OFFSET)[0]
    # MS-MQRR:3.1.4.7:14 the first section carries the absolute expiry time
    struct.pack_into("<I", head, TTRQ_OFFSET, absolute_time_to_reach_queue(sent, relative, wrap))
    return bytes(head)


def packet_sections(layout: PacketLayout, dw_max_body_size: int,
                    dw_max_compound_message_size: int) -> tuple[SectionBuffer, ...]:
    data = layout.data
    # MS-MQRR:3.1.4.7 the limit is dwMaxCompoundMessageSize for SRMP, dwMaxBodySize otherwise
    limit = dw_max_compound_message_size if layout.is_srmp else dw_max_body_size
    actual = layout.actual_message_size
    wrap = layout.readings["D-64"] == "wrap"
    if limit >= actual:
        # MS-MQRR:3.1.4.7 one stFullPacket section, SectionSize = SectionSizeAlloc = packet size
        return (SectionBuffer(SectionType.stFullPacket, len(data), len(data),
                              _first_bytes(data, len(data), wrap)),)
    first_type, second_type = ((SectionType.stSrmpFirstSection, SectionType.stSrmpSecondSection)
                               if layout.is_srmp else
                               (SectionType.stBinaryFirstSection, SectionType.stBinarySecondSection))
    # MS-MQRR:3.1.4.7 headers followed by the first `limit` bytes of the body
    first = _first_bytes(data, layout.header_size + limit, wrap)
    # MS-MQRR:2.2.6 SectionSizeAlloc = size with the whole body: D-61 padded includes the 0-3 bytes that
    # align the header; literal is 3.1.4.7's header size plus actualMessageSize
    size_alloc = (layout.header_size + actual if layout.readings["D-61"] == "literal"
                  else layout.trailer_offset)
    sections = [SectionBuffer(first_type, size_alloc, len(first), first)]
    trailers = data[layout.trailer_offset:]
    if trailers:
        # MS-MQRR:3.1.4.7 the trailers, SectionSize = SectionSizeAlloc
        sections.append(SectionBuffer(second_type, len(trailers), len(trailers), trailers))
    return tuple(sections)
