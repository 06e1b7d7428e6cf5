"""Queue names in scenarios: QUEUE_FORMAT constants and format-name templates.

A format-name *template* is a format name with `{...}` tokens for what a scenario
cannot know in advance (the target's computer name, its queue manager GUID, the
names it gave to the scenario's queues); see TEMPLATE_TOKENS.  `value` reads the
QUEUE_FORMAT constants of MS-MQMQ 2.2.7 besides those of values.py.
"""

from __future__ import annotations

import re
import uuid

import pytest

from mqspec.protocol.queue_format import QueueFormat, from_format_name as queue_format

from .values import number
from .world import World

# -- constants of MS-MQMQ 2.2.6, 2.2.7 and 2.2.11 that values.py does not know ---------------

QUEUE_FORMAT_TYPES = {
    "QUEUE_FORMAT_TYPE_UNKNOWN": 0, "QUEUE_FORMAT_TYPE_PUBLIC": 1, "QUEUE_FORMAT_TYPE_PRIVATE": 2,
    "QUEUE_FORMAT_TYPE_DIRECT": 3, "QUEUE_FORMAT_TYPE_MACHINE": 4, "QUEUE_FORMAT_TYPE_CONNECTOR": 5,
    "QUEUE_FORMAT_TYPE_DL": 6, "QUEUE_FORMAT_TYPE_MULTICAST": 7, "QUEUE_FORMAT_TYPE_SUBQUEUE": 8,
}
SUFFIXES = {
    "QUEUE_SUFFIX_TYPE_NONE": 0, "QUEUE_SUFFIX_TYPE_JOURNAL": 1, "QUEUE_SUFFIX_TYPE_DEADLETTER": 2,
    "QUEUE_SUFFIX_TYPE_DEADXACT": 3, "QUEUE_SUFFIX_TYPE_XACTONLY": 4, "QUEUE_SUFFIX_TYPE_SUBQUEUE": 5,
}
FLAGS = {"QUEUE_FORMAT_FLAG_NOT_SYSTEM": 0x00, "QUEUE_FORMAT_FLAG_SYSTEM": 0x80, "TRUE": 1, "FALSE": 0}
LOCAL = {**QUEUE_FORMAT_TYPES, **SUFFIXES, **FLAGS}
SECTION_TYPES = {"stFullPacket": 0, "stBinaryFirstSection": 1, "stBinarySecondSection": 2,
                 "stSrmpFirstSection": 3, "stSrmpSecondSection": 4}
CUSTOMER_BIT = 0x20000000  # MS-MQRR 1.8, [MS-ERREF] 2.1: the C bit of a vendor-defined HRESULT


def value(text: str) -> int:
    """A number, a constant of values.py, or one of the QUEUE_FORMAT constants; `A | B` ors them."""
    total = 0
    for part in text.split("|"):
        part = part.strip()
        total |= LOCAL[part] if part in LOCAL else number(part)
    return total


# -- format-name templates --------------------------------------------------------------------

TEMPLATE_TOKENS = """
{computer}                  the target's computer name
{address}                   an IPv4 address of the target's computer (the one the client reaches it at)
{queue manager}             the target's queue manager GUID
{unknown guid}              a GUID that names nothing on the target (the same one all scenario long)
{name of X}                 the queue name (without computer and private$) of the scenario's queue X
{format name of X}          the format name the target gave for queue X
{private number of X}       the hex queue number of X's PRIVATE= format name
{short private number of X} the same number without leading zeros
{N characters}              a queue name of exactly N characters, unique to the scenario
{N × c}                     the character c, N times
"""
_TOKEN = re.compile(r"\{([^{}]+)\}")


def expand(world: World, text: str) -> str:
    """A format-name (or path-name) template with its tokens filled in; see TEMPLATE_TOKENS."""
    return _TOKEN.sub(lambda match: _token(world, match.group(1).strip()), text)


def _token(world: World, token: str) -> str:
    if token == "computer":
        return world.target.computer_name
    if token == "address":
        return world.target.address
    if token == "queue manager":
        return str(uuid.UUID(bytes_le=world.target.queue_manager_identifier))
    if token == "unknown guid":
        return world.notes.setdefault("unknown guid", str(uuid.uuid4()))
    if token.startswith("name of "):
        alias = token[len("name of "):]
        pathname = world.notes.get("pathnames", {}).get(alias)
        return pathname.rpartition("\\")[2] if pathname else f"{world.prefix}-{alias}"
    if token.startswith("format name of "):
        return world.queue(token[len("format name of "):])
    if token.startswith("private number of ") or token.startswith("short private number of "):
        alias = token.split("private number of ", 1)[1]
        match = re.fullmatch(r"PRIVATE=[0-9A-Fa-f-]{36}\\([0-9A-Fa-f]{1,8})", world.queue(alias), re.I)
        if match is None:
            pytest.skip(f"not run: {world.target.name} named {alias!r} {world.queue(alias)!r}, "
                        "not with a PRIVATE= format name")
        return f"{int(match.group(1), 16):x}" if token.startswith("short ") else match.group(1)
    match = re.fullmatch(r"(\d+) characters", token)
    if match:
        count = int(match.group(1))
        return (world.prefix + "-" + "n" * count)[:count]
    match = re.fullmatch(r"(\d+) × (.)", token)
    if match:
        return match.group(2) * int(match.group(1))
    raise KeyError(f"unknown token {{{token}}} in a format-name template; known:{TEMPLATE_TOKENS}")


def queue_format_from_text(text: str) -> QueueFormat:
    """The QUEUE_FORMAT of a format name; a DIRECT= name the client cannot parse is passed through
    as it is, so the server is the one that judges it."""
    try:
        return queue_format(text)
    except ValueError:
        if text[:7].upper() == "DIRECT=":
            return QueueFormat(QUEUE_FORMAT_TYPES["QUEUE_FORMAT_TYPE_DIRECT"], 0, direct_id=text[7:])
        raise AssertionError(f"{text!r} has no QUEUE_FORMAT form; spell it with 'a QUEUE_FORMAT ... with:'")


def queue_argument(world: World, text: str) -> QueueFormat | None:
    """A pQueueFormat cell: NULL, a QUEUE_FORMAT the scenario spelled out, a queue alias, or a
    format-name template (anything with '=')."""
    text = text.strip()
    if text == "NULL":
        world.require("null_references")  # pQueueFormat is a [ref] pointer (MS-MQRR 6)
        return None
    spelled = world.notes.get("queue formats", {})
    if text in spelled:
        return spelled[text]
    if "=" in text:
        return queue_format_from_text(expand(world, text))
    return queue_format(world.queue(text))


def guid(text: str) -> uuid.UUID:
    return uuid.UUID(text)
