"""Queue path names and format names (MS-MQMQ 2.1).

`parse_path_name` checks a path name against the 2.1.1 grammar; `parse_format_name`
turns a format-name string (2.1.2 - 2.1.7) into a FormatName record, refusing
anything the grammar does not allow with FormatNameError.  Keywords are
case-insensitive, as ABNF quoted strings are.  Nothing here knows which queues
exist; the queue manager resolves a FormatName against its own queues.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

# MS-MQMQ:2.1.1:01 queue and subqueue names: printable ASCII except space " + , ; \
_NAME_CHARS = r"[\x21\x23-\x2A\x2D-\x3A\x3C-\x5B\x5D-\x7F]"
_QUEUE_NAME = re.compile(rf"{_NAME_CHARS}{{1,124}}")
_SUBQUEUE_NAME = re.compile(rf"{_NAME_CHARS}{{1,32}}")
_COMPUTER = re.compile(r"[\x21-\x5B\x5D-\x7E]{1,256}")
_GUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
_HEX_ID = re.compile(r"[0-9A-Fa-f]{1,8}")
_IPV4 = re.compile(r"(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})")
_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
# MS-MQMQ:2.1.6:01 MULTICAST=a.b.c.d:port, first octet 224-239, no leading zeros
_MULTICAST = re.compile(rf"(?:22[4-9]|23[0-9])(?:\.{_DEC_OCTET}){{3}}:(?:0|[1-9][0-9]{{0,4}})")
_DOMAIN = re.compile(r"[\x21-\x7E]{1,255}")  # MS-MQMQ:2.1.5:01 1*255 VCHAR

SYSTEM_SUFFIXES = ("JOURNAL", "DEADLETTER", "DEADXACT")


class FormatNameError(ValueError):
    """The text is not a format name or path name the grammar allows."""


@dataclass(frozen=True)
class PathName:
    computer: str
    queue_name: str
    private: bool
    subqueue: str | None = None

    @property
    def local_key(self) -> str:
        """The queue's name on its computer, lower-cased: how a queue manager files it."""
        key = ("private$\\" if self.private else "") + self.queue_name
        if self.subqueue:
            key += ";" + self.subqueue
        return key.lower()


@dataclass(frozen=True)
class FormatName:
    kind: str                       # PUBLIC PRIVATE DIRECT MACHINE CONNECTOR DL MULTICAST MULTIPLE
    text: str
    guid: uuid.UUID | None = None   # queue (PUBLIC), computer (PRIVATE, MACHINE), connector, DL
    private_queue_number: int | None = None
    protocol: str | None = None     # DIRECT: TCP OS HTTP HTTPS IPX
    address: str | None = None      # DIRECT: host part; MULTICAST: address:port
    queue_name: str | None = None   # DIRECT: the queue's name without PRIVATE$
    private: bool = False           # DIRECT: a PRIVATE$ queue
    suffix: str | None = None       # JOURNAL DEADLETTER DEADXACT XACTONLY
    subqueue: str | None = None
    elements: tuple["FormatName", ...] = ()


def parse_path_name(text: str) -> PathName:
    """MS-MQMQ:2.1.1:01 Computer\\QueueName, Computer\\PRIVATE$\\QueueName, optional ;Subqueue."""
    if not isinstance(text, str) or "\\" not in text:
        raise FormatNameError(f"path name {text!r} has no computer part")
    computer, rest = text.split("\\", 1)
    if not _COMPUTER.fullmatch(computer):
        raise FormatNameError(f"path name {text!r}: bad computer name")
    private = False
    if rest.lower().startswith("private$\\"):
        private, rest = True, rest[len("private$\\"):]
    name, subqueue = _split_subqueue(rest, text)
    if not _QUEUE_NAME.fullmatch(name) or name.lower() in ("private$", "system$"):
        raise FormatNameError(f"path name {text!r}: bad queue name")
    return PathName(computer, name, private, subqueue)


def _split_subqueue(rest: str, text: str) -> tuple[str, str | None]:
    if ";" not in rest:
        return rest, None
    name, subqueue = rest.split(";", 1)
    if not _SUBQUEUE_NAME.fullmatch(subqueue):
        raise FormatNameError(f"{text!r}: bad subqueue name")
    return name, subqueue


def parse_format_name(text: str) -> FormatName:
    if not isinstance(text, str) or not text:
        raise FormatNameError("empty format name")
    if "," in text:
        # MS-MQMQ:2.1.7:01 a multiple-element name lists format names separated by commas
        elements = tuple(_parse_single(part, text) for part in text.split(","))
        return FormatName("MULTIPLE", text, elements=elements)
    return _parse_single(text, text)


def _parse_single(part: str, whole: str) -> FormatName:
    if "=" not in part:
        raise FormatNameError(f"{whole!r}: {part!r} is not a format name")
    keyword, value = part.split("=", 1)
    parser = _PARSERS.get(keyword.upper())
    if parser is None:
        raise FormatNameError(f"{whole!r}: unknown format name type {keyword!r}")
    return parser(value, part)


def _suffix(value: str, part: str, allowed: tuple[str, ...]) -> tuple[str, str | None, str | None]:
    """Split 'X;SUFFIX': a reserved suffix, or (where allowed) a subqueue name."""
    if ";" not in value:
        return value, None, None
    head, tail = value.split(";", 1)
    if tail.upper() in allowed:
        return head, tail.upper(), None
    if "SUBQUEUE" in allowed and _SUBQUEUE_NAME.fullmatch(tail) and tail.upper() not in SYSTEM_SUFFIXES:
        return head, None, tail
    raise FormatNameError(f"{part!r}: suffix {tail!r} is not allowed here")


def _guid(text: str, part: str) -> uuid.UUID:
    if not _GUID.fullmatch(text):
        raise FormatNameError(f"{part!r}: {text!r} is not a GUID")
    return uuid.UUID(text)


def _public(value: str, part: str) -> FormatName:
    # MS-MQMQ:2.1.3:01
    head, suffix, subqueue = _suffix(value, part, ("JOURNAL", "SUBQUEUE"))
    return FormatName("PUBLIC", part, guid=_guid(head, part), suffix=suffix, subqueue=subqueue)


def _private(value: str, part: str) -> FormatName:
    # MS-MQMQ:2.1.4:01 PRIVATE=ComputerGuid\1-8 hex digits [;JOURNAL]
    head, suffix, subqueue = _suffix(value, part, ("JOURNAL", "SUBQUEUE"))
    if "\\" not in head:
        raise FormatNameError(f"{part!r}: a private format name needs GUID\\number")
    computer, number = head.split("\\", 1)
    if not _HEX_ID.fullmatch(number):
        raise FormatNameError(f"{part!r}: {number!r} is not 1-8 hexadecimal digits")
    return FormatName("PRIVATE", part, guid=_guid(computer, part), private_queue_number=int(number, 16),
                      suffix=suffix, subqueue=subqueue)


def _direct(value: str, part: str) -> FormatName:
    # MS-MQMQ:2.1.2:01 DIRECT=Protocol:Address\[PRIVATE$\]Queue or \SYSTEM$;suffix
    if ":" not in value:
        raise FormatNameError(f"{part!r}: a direct format name needs Protocol:Address")
    protocol, rest = value.split(":", 1)
    protocol = protocol.upper()
    if protocol not in ("TCP", "OS", "HTTP", "HTTPS", "IPX"):
        raise FormatNameError(f"{part!r}: unknown protocol {protocol!r}")
    if protocol in ("HTTP", "HTTPS"):
        if not rest.startswith("//") or len(rest) <= 2:
            raise FormatNameError(f"{part!r}: an HTTP address starts with //host")
        return FormatName("DIRECT", part, protocol=protocol, address=rest[2:])
    if "\\" not in rest:
        raise FormatNameError(f"{part!r}: no queue after the address")
    address, path = rest.split("\\", 1)
    if protocol == "TCP" and not _valid_ipv4(address):
        raise FormatNameError(f"{part!r}: {address!r} is not a dotted IPv4 address")
    if not address or not _COMPUTER.fullmatch(address):
        raise FormatNameError(f"{part!r}: bad address {address!r}")
    if path.lower().startswith("system$;"):
        suffix = path.split(";", 1)[1].upper()
        if suffix not in SYSTEM_SUFFIXES:
            raise FormatNameError(f"{part!r}: SYSTEM$ takes JOURNAL, DEADLETTER or DEADXACT")
        return FormatName("DIRECT", part, protocol=protocol, address=address, suffix=suffix)
    private = path.lower().startswith("private$\\")
    if private:
        path = path[len("private$\\"):]
    name, suffix, subqueue = _suffix(path, part, ("JOURNAL", "SUBQUEUE"))
    if not _QUEUE_NAME.fullmatch(name):
        raise FormatNameError(f"{part!r}: bad queue name {name!r}")
    return FormatName("DIRECT", part, protocol=protocol, address=address, queue_name=name,
                      private=private, suffix=suffix, subqueue=subqueue)


def _valid_ipv4(text: str) -> bool:
    match = _IPV4.fullmatch(text)
    return bool(match) and all(int(octet) <= 255 for octet in match.groups())


def _machine(value: str, part: str) -> FormatName:
    # MS-MQMQ:2.1.6:01 MACHINE=Guid[;JOURNAL|DEADLETTER|DEADXACT]
    head, suffix, _ = _suffix(value, part, SYSTEM_SUFFIXES)
    return FormatName("MACHINE", part, guid=_guid(head, part), suffix=suffix)


def _connector(value: str, part: str) -> FormatName:
    head, suffix, _ = _suffix(value, part, ("XACTONLY",))
    return FormatName("CONNECTOR", part, guid=_guid(head, part), suffix=suffix)


def _dl(value: str, part: str) -> FormatName:
    # MS-MQMQ:2.1.5:01 DL=Guid[@domain]
    guid, at, domain = value.partition("@")
    if at and not _DOMAIN.fullmatch(domain):
        raise FormatNameError(f"{part!r}: the domain after @ must be 1-255 visible characters")
    return FormatName("DL", part, guid=_guid(guid, part), address=domain or None)


def _multicast(value: str, part: str) -> FormatName:
    # MS-MQMQ:2.1.6:01 MULTICAST=a.b.c.d:port with a class D address
    if not _MULTICAST.fullmatch(value) or int(value.rsplit(":", 1)[1]) > 65535:
        raise FormatNameError(f"{part!r}: not a class D address a.b.c.d (224-239) with a port 0-65535")
    return FormatName("MULTICAST", part, address=value)


_PARSERS = {
    "PUBLIC": _public, "PRIVATE": _private, "DIRECT": _direct, "MACHINE": _machine,
    "CONNECTOR": _connector, "DL": _dl, "MULTICAST": _multicast,
}


def private_format_name(computer_guid: bytes, number: int) -> str:
    """PRIVATE=<guid>\\<8 hex digits> for a queue manager GUID in wire (bytes_le) order."""
    return f"PRIVATE={uuid.UUID(bytes_le=computer_guid)}\\{number:08x}"
