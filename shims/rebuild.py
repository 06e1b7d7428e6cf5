"""A client's rebuild of a message from the packet sections of a Start*Receive (MS-MQRR 3.2.4.3, 2.2.6).

The sections are laid out again as the packet they came from: the second section
starts SectionSizeAlloc bytes after the first one (the body bytes between them
were not sent, MS-MQRR 2.2.6).  The packet is then read header by header (MS-MQMQ
2.2.19, 2.2.20) as far as the MessagePropertiesHeader, which holds what an
application asks for.  A packet that cannot be read raises RebuildError: the
caller NACKs it (MS-MQRR 3.2.4.4.1).  Reserved fields, flag bits nobody defined
and an empty SubqueueHeader are not looked at (MS-MQRR 2.2.5.x: readers ignore
them).
"""

from __future__ import annotations

import base64
import struct

SIGNATURE = 0x524F494C      # MS-MQMQ 2.2.19.1 BaseHeader.Signature, "LIOR"
TRANSACTIONAL_HIGH_BYTE = 0x07 << 56   # MS-MQDMPR 3.1.7.1.9: 7 - priority 0, for a transactional message
FULL, BINARY_FIRST, BINARY_SECOND = 0, 1, 2


class RebuildError(ValueError):
    """The sections do not make a message."""


def _align4(n: int) -> int:
    return (n + 3) & ~3


def lay_out(sections) -> tuple[bytes, int]:
    """(the packet with the unsent body bytes as zeros, how many bytes of it were sent before the gap)."""
    if not sections or len(sections) > 2:
        raise RebuildError(f"{len(sections)} packet sections; a message comes in 1 or 2")
    first = sections[0]
    if first.section_buffer_type not in (FULL, BINARY_FIRST):
        raise RebuildError(f"a first section of type {first.section_buffer_type}: this client reads binary "
                           "messages only")
    if len(first.p_section_buffer) != first.section_size or first.section_size > first.section_size_alloc:
        raise RebuildError("the first section's sizes do not agree with its bytes")
    if len(sections) == 1:
        return first.p_section_buffer, len(first.p_section_buffer)
    second = sections[1]
    if second.section_buffer_type != BINARY_SECOND:
        raise RebuildError(f"a second section of type {second.section_buffer_type}")
    gap = first.section_size_alloc - first.section_size
    return first.p_section_buffer + bytes(gap) + second.p_section_buffer, first.section_size


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def take(self, offset: int, size: int) -> bytes:
        if offset < 0 or offset + size > len(self.data):
            raise RebuildError(f"the packet ends before byte {offset + size}")
        return self.data[offset:offset + size]

    def unpack(self, fmt: str, offset: int) -> tuple:
        return struct.unpack(fmt, self.take(offset, struct.calcsize(fmt)))


def rebuild(sections, sequence_id: int) -> dict:
    """The message as the shim protocol reports it (docs/client-shim.md)."""
    data, sent = lay_out(sections)
    read = _Reader(data)
    version, _, flags, signature, _, _ = read.unpack("<BBHIII", 0)
    if signature != SIGNATURE or version != 0x10:
        raise RebuildError("no BaseHeader at the start of the packet")
    priority = flags & 7
    source = read.take(16, 16)
    _, _, message_number, user_flags = read.unpack("<4I", 48)
    offset = 64
    for shift in (10, 13, 16):      # DQ, AQ, RQ (MS-MQMQ 2.2.19.2)
        offset = _skip_queue((user_flags >> shift) & 7, offset, read)
    if user_flags >> 22 & 1:        # CQ: ConnectorType
        offset += 16
    transactional = bool(user_flags >> 20 & 1)
    if transactional:               # TH: TransactionHeader (MS-MQMQ 2.2.20.5)
        offset += 36 if read.unpack("<I", offset)[0] & 1 else 20
    if user_flags >> 19 & 1:        # SH: SecurityHeader (MS-MQMQ 2.2.20.6)
        sizes = read.unpack("<HHHHII", offset)[1:]
        offset += 16 + sum(_align4(size) for size in sizes)
    if not user_flags >> 21 & 1:
        raise RebuildError("no MessagePropertiesHeader (MP is clear)")
    _, label_length, message_class = read.unpack("<BBH", offset)
    correlation_id = read.take(offset + 4, 20)
    _, app_specific, body_size, _, _, _, _, extension_size = read.unpack("<8I", offset + 24)
    label_bytes = read.take(offset + 56, 2 * label_length)
    label = label_bytes.decode("utf-16-le", errors="replace").split("\0", 1)[0]
    body_start = offset + 56 + 2 * label_length + extension_size
    body_end = min(body_start + body_size, sent)   # what the gap left of the body
    if body_end < body_start:
        raise RebuildError("the body starts inside the unsent part of the packet")
    body = read.take(body_start, body_end - body_start)
    return {"body": base64.b64encode(body).decode("ascii"), "label": label, "priority": priority,
            "class": message_class, "message_id": (source + struct.pack("<I", message_number)).hex(),
            "correlation_id": correlation_id.hex(), "app_specific": app_specific, "body_size": body_size,
            "lookup_id": sequence_id | (TRANSACTIONAL_HIGH_BYTE if transactional else 0)}


def _skip_queue(code: int, offset: int, read: _Reader) -> int:
    """The offset after one DQ/AQ/RQ field of the UserHeader (MS-MQMQ 2.2.19.2)."""
    if code in (0, 1):
        return offset
    if code in (2, 3, 4):
        return offset + 4
    if code == 5:
        return offset + 16
    if code == 6:
        return _align4(offset) + 20
    count = read.unpack("<H", offset)[0]
    return _align4(offset + 2 + count)
