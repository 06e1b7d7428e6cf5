"""QUEUE_FORMAT, the binary queue name of RPC calls (MS-MQMQ 2.2.7 - 2.2.11).

A QueueFormat is checked against the suffix table of 2.2.7 and rendered as the
format-name string of 2.1, which the queue manager then resolves.  `describe`
is the reverse, for building calls from format-name strings.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from .constants import QUEUE_FORMAT_FLAG_SYSTEM, QueueFormatType as T, QueueSuffixType as S
from .format_name import FormatName, FormatNameError, parse_format_name

# MS-MQMQ:2.2.7:02 which suffix may go with which type, and the flags nibble it needs
_SUFFIX_RULES = {
    S.QUEUE_SUFFIX_TYPE_NONE: (0x00, {T.QUEUE_FORMAT_TYPE_UNKNOWN, T.QUEUE_FORMAT_TYPE_PUBLIC,
                                      T.QUEUE_FORMAT_TYPE_PRIVATE, T.QUEUE_FORMAT_TYPE_DIRECT,
                                      T.QUEUE_FORMAT_TYPE_CONNECTOR, T.QUEUE_FORMAT_TYPE_DL,
                                      T.QUEUE_FORMAT_TYPE_MULTICAST, T.QUEUE_FORMAT_TYPE_SUBQUEUE}),
    S.QUEUE_SUFFIX_TYPE_JOURNAL: (QUEUE_FORMAT_FLAG_SYSTEM, {T.QUEUE_FORMAT_TYPE_PUBLIC,
                                                             T.QUEUE_FORMAT_TYPE_PRIVATE,
                                                             T.QUEUE_FORMAT_TYPE_DIRECT,
                                                             T.QUEUE_FORMAT_TYPE_MACHINE}),
    S.QUEUE_SUFFIX_TYPE_DEADLETTER: (QUEUE_FORMAT_FLAG_SYSTEM, {T.QUEUE_FORMAT_TYPE_DIRECT,
                                                                T.QUEUE_FORMAT_TYPE_MACHINE}),
    S.QUEUE_SUFFIX_TYPE_DEADXACT: (QUEUE_FORMAT_FLAG_SYSTEM, {T.QUEUE_FORMAT_TYPE_DIRECT,
                                                              T.QUEUE_FORMAT_TYPE_MACHINE}),
    S.QUEUE_SUFFIX_TYPE_XACTONLY: (None, {T.QUEUE_FORMAT_TYPE_CONNECTOR}),
    S.QUEUE_SUFFIX_TYPE_SUBQUEUE: (0x00, {T.QUEUE_FORMAT_TYPE_SUBQUEUE}),
}
_SUFFIX_TEXT = {S.QUEUE_SUFFIX_TYPE_JOURNAL: "JOURNAL", S.QUEUE_SUFFIX_TYPE_DEADLETTER: "DEADLETTER",
                S.QUEUE_SUFFIX_TYPE_DEADXACT: "DEADXACT", S.QUEUE_SUFFIX_TYPE_XACTONLY: "XACTONLY"}


@dataclass(frozen=True)
class QueueFormat:
    """QUEUE_FORMAT: m_qft selects which of the value fields is meaningful."""
    m_qft: int
    m_suffix_and_flags: int = 0
    m_reserved: int = 0
    guid: uuid.UUID | None = None       # PUBLIC, MACHINE, CONNECTOR, PRIVATE lineage, DL
    uniquifier: int = 0                 # PRIVATE (OBJECTID.Uniquifier)
    direct_id: str | None = None        # DIRECT, SUBQUEUE: the name without "DIRECT="
    domain: str | None = None           # DL
    multicast_address: int = 0          # MULTICAST (network order IPv4 as ULONG)
    multicast_port: int = 0


def validate(queue_format: QueueFormat) -> None:
    """Raise FormatNameError when type, suffix and flags do not go together."""
    try:
        qft = T(queue_format.m_qft)
        suffix = S(queue_format.m_suffix_and_flags & 0x0F)
    except ValueError as error:
        raise FormatNameError(f"QUEUE_FORMAT: {error}") from None
    flags = queue_format.m_suffix_and_flags & 0xF0
    required_flags, types = _SUFFIX_RULES[suffix]
    if qft not in types or (required_flags is not None and flags != required_flags):
        raise FormatNameError(f"QUEUE_FORMAT: suffix {suffix.name} with flags 0x{flags:02X} "
                              f"is not allowed for {qft.name}")
    if qft == T.QUEUE_FORMAT_TYPE_MACHINE and suffix == S.QUEUE_SUFFIX_TYPE_NONE:
        raise FormatNameError("QUEUE_FORMAT: a MACHINE name needs a suffix")
    needs_guid = qft in (T.QUEUE_FORMAT_TYPE_PUBLIC, T.QUEUE_FORMAT_TYPE_PRIVATE,
                         T.QUEUE_FORMAT_TYPE_MACHINE, T.QUEUE_FORMAT_TYPE_CONNECTOR, T.QUEUE_FORMAT_TYPE_DL)
    if needs_guid and queue_format.guid is None:
        raise FormatNameError(f"QUEUE_FORMAT: {qft.name} needs a GUID")
    if qft in (T.QUEUE_FORMAT_TYPE_DIRECT, T.QUEUE_FORMAT_TYPE_SUBQUEUE) and not queue_format.direct_id:
        raise FormatNameError(f"QUEUE_FORMAT: {qft.name} needs a name")
    if qft == T.QUEUE_FORMAT_TYPE_SUBQUEUE and ";" not in queue_format.direct_id:
        raise FormatNameError("QUEUE_FORMAT: a SUBQUEUE name must name a subqueue")  # MS-MQMQ:2.2.7:04


def to_format_name(queue_format: QueueFormat) -> str:
    """The format-name string (MS-MQMQ 2.1) a valid QUEUE_FORMAT stands for."""
    validate(queue_format)
    qft = T(queue_format.m_qft)
    suffix = _SUFFIX_TEXT.get(S(queue_format.m_suffix_and_flags & 0x0F))
    tail = f";{suffix}" if suffix else ""
    if qft == T.QUEUE_FORMAT_TYPE_PUBLIC:
        return f"PUBLIC={queue_format.guid}{tail}"
    if qft == T.QUEUE_FORMAT_TYPE_PRIVATE:
        return f"PRIVATE={queue_format.guid}\\{queue_format.uniquifier:08x}{tail}"
    if qft == T.QUEUE_FORMAT_TYPE_MACHINE:
        return f"MACHINE={queue_format.guid}{tail}"
    if qft == T.QUEUE_FORMAT_TYPE_CONNECTOR:
        return f"CONNECTOR={queue_format.guid}{tail}"
    if qft == T.QUEUE_FORMAT_TYPE_DL:
        return f"DL={queue_format.guid}" + (f"@{queue_format.domain}" if queue_format.domain else "")
    if qft == T.QUEUE_FORMAT_TYPE_MULTICAST:
        address = ".".join(str(b) for b in queue_format.multicast_address.to_bytes(4, "big"))
        return f"MULTICAST={address}:{queue_format.multicast_port}"
    if qft == T.QUEUE_FORMAT_TYPE_DIRECT and suffix in ("DEADLETTER", "DEADXACT"):
        name = queue_format.direct_id
        if not name.lower().endswith("\\system$"):
            name += "\\SYSTEM$"
        return f"DIRECT={name}{tail}"
    if qft in (T.QUEUE_FORMAT_TYPE_DIRECT, T.QUEUE_FORMAT_TYPE_SUBQUEUE):
        return f"DIRECT={queue_format.direct_id}{tail}"
    raise FormatNameError("QUEUE_FORMAT: an UNKNOWN name has no format name")


def describe(format_name: str) -> QueueFormat:
    """The QUEUE_FORMAT for a single-element format-name string."""
    name: FormatName = parse_format_name(format_name)
    suffix_code = {v: k for k, v in _SUFFIX_TEXT.items()}
    suffix = suffix_code.get(name.suffix, S.QUEUE_SUFFIX_TYPE_NONE)
    flags = QUEUE_FORMAT_FLAG_SYSTEM if suffix in (S.QUEUE_SUFFIX_TYPE_JOURNAL, S.QUEUE_SUFFIX_TYPE_DEADLETTER,
                                                   S.QUEUE_SUFFIX_TYPE_DEADXACT) else 0
    if name.kind == "PUBLIC":
        return QueueFormat(T.QUEUE_FORMAT_TYPE_PUBLIC, suffix | flags, guid=name.guid)
    if name.kind == "PRIVATE":
        return QueueFormat(T.QUEUE_FORMAT_TYPE_PRIVATE, suffix | flags, guid=name.guid,
                           uniquifier=name.private_queue_number)
    if name.kind == "MACHINE":
        return QueueFormat(T.QUEUE_FORMAT_TYPE_MACHINE, suffix | flags, guid=name.guid)
    if name.kind == "DIRECT":
        body = format_name.split("=", 1)[1]
        if name.subqueue:
            return QueueFormat(T.QUEUE_FORMAT_TYPE_SUBQUEUE, S.QUEUE_SUFFIX_TYPE_SUBQUEUE, direct_id=body)
        if name.suffix:
            body = body.rsplit(";", 1)[0]
            if name.suffix in ("DEADLETTER", "DEADXACT"):
                body = body[: -len("\\SYSTEM$")]
        return QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, suffix | flags, direct_id=body)
    raise FormatNameError(f"{format_name!r}: no QUEUE_FORMAT form for {name.kind} names here")
