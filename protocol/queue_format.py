"""QUEUE_FORMAT (MS-MQMQ 2.2.7 - 2.2.11), the binary queue name of RPC calls.

`QueueFormat` is the plain form of the IDL structure: m_qft says which of the
value fields means something.  `from_format_name` builds one from a
single-element format-name string (MS-MQMQ 2.1) for a client; it splits the
text into the structure's fields and judges nothing else (whether the name is
well formed, and what it names, is for the server to say).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from .constants import QUEUE_FORMAT_FLAG_SYSTEM, QueueFormatType as T, QueueSuffixType as S


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


_SUFFIXES = {"JOURNAL": S.QUEUE_SUFFIX_TYPE_JOURNAL, "DEADLETTER": S.QUEUE_SUFFIX_TYPE_DEADLETTER,
             "DEADXACT": S.QUEUE_SUFFIX_TYPE_DEADXACT, "XACTONLY": S.QUEUE_SUFFIX_TYPE_XACTONLY}
_SYSTEM_QUEUE = "\\SYSTEM$"   # MS-MQMQ 2.1.2: DIRECT=...\SYSTEM$;DEADLETTER names a system queue


def from_format_name(text: str) -> QueueFormat:
    """The QUEUE_FORMAT of a single-element format name; ValueError when it has no such form."""
    kind, sep, body = text.partition("=")
    kind = kind.upper()
    if not sep or not body:
        raise ValueError(f"{text!r} is not a format name (TYPE=...)")
    if kind == "DIRECT":
        return _direct(body, text)
    if kind == "DL":
        guid, _, domain = body.partition("@")
        return QueueFormat(T.QUEUE_FORMAT_TYPE_DL, guid=_guid(guid, text), domain=domain or None)
    if kind == "MULTICAST":
        address, _, port = body.rpartition(":")
        try:
            packed = bytes(int(octet) for octet in address.split("."))
            if len(packed) != 4:
                raise ValueError
            return QueueFormat(T.QUEUE_FORMAT_TYPE_MULTICAST, multicast_address=int.from_bytes(packed, "big"),
                               multicast_port=int(port))
        except ValueError:
            raise ValueError(f"{text!r}: MULTICAST needs a.b.c.d:port") from None
    name, suffix = _split_suffix(body)
    code = _suffix_code(suffix, text)
    if kind == "PUBLIC":
        return QueueFormat(T.QUEUE_FORMAT_TYPE_PUBLIC, code, guid=_guid(name, text))
    if kind == "PRIVATE":
        lineage, slash, number = name.partition("\\")
        try:
            uniquifier = int(number, 16)
        except ValueError:
            raise ValueError(f"{text!r}: PRIVATE needs GUID\\hex-number") from None
        if not slash or not 0 <= uniquifier <= 0xFFFFFFFF:
            raise ValueError(f"{text!r}: PRIVATE needs GUID\\hex-number")
        return QueueFormat(T.QUEUE_FORMAT_TYPE_PRIVATE, code, guid=_guid(lineage, text), uniquifier=uniquifier)
    if kind == "MACHINE":
        return QueueFormat(T.QUEUE_FORMAT_TYPE_MACHINE, code, guid=_guid(name, text))
    if kind == "CONNECTOR":
        return QueueFormat(T.QUEUE_FORMAT_TYPE_CONNECTOR, code, guid=_guid(name, text))
    raise ValueError(f"{text!r}: no QUEUE_FORMAT form for {kind} names")


def _direct(body: str, text: str) -> QueueFormat:
    name, suffix = _split_suffix(body)
    if suffix is not None and suffix.upper() not in _SUFFIXES:
        # MS-MQMQ 2.2.7: a direct name with ";subqueue" is a SUBQUEUE format, its whole text the id
        return QueueFormat(T.QUEUE_FORMAT_TYPE_SUBQUEUE, S.QUEUE_SUFFIX_TYPE_SUBQUEUE, direct_id=body)
    code = _suffix_code(suffix, text)
    if suffix is not None and suffix.upper() in ("DEADLETTER", "DEADXACT") \
            and name.upper().endswith(_SYSTEM_QUEUE):
        name = name[: -len(_SYSTEM_QUEUE)]  # MS-MQMQ 2.2.7: m_pDirectID names the computer only
    return QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, code, direct_id=name)


def _split_suffix(body: str) -> tuple[str, str | None]:
    name, sep, suffix = body.rpartition(";")
    return (name, suffix) if sep else (body, None)


def _suffix_code(suffix: str | None, text: str) -> int:
    if suffix is None:
        return S.QUEUE_SUFFIX_TYPE_NONE
    code = _SUFFIXES.get(suffix.upper())
    if code is None:
        raise ValueError(f"{text!r}: unknown suffix {suffix!r}")
    # MS-MQMQ 2.2.7: the system suffixes carry QUEUE_FORMAT_FLAG_SYSTEM in the high nibble
    flags = QUEUE_FORMAT_FLAG_SYSTEM if code != S.QUEUE_SUFFIX_TYPE_XACTONLY else 0
    return code | flags


def _guid(text: str, whole: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise ValueError(f"{whole!r}: {text!r} is not a GUID") from None
