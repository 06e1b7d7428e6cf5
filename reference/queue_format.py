"""The server's reading of a QUEUE_FORMAT (MS-MQMQ 2.2.7 - 2.2.11).

A QueueFormat (protocol.queue_format) is checked against the suffix table of
2.2.7 and rendered as the format-name string of 2.1, which the queue manager
then resolves.
"""

from __future__ import annotations

from mqspec.protocol.constants import QUEUE_FORMAT_FLAG_SYSTEM, QueueFormatType as T, QueueSuffixType as S
from mqspec.protocol.queue_format import QueueFormat

from .format_name import FormatNameError

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
