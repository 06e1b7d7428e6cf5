"""Queue path names and format names (MS-MQMQ 2.1.1 - 2.1.7) and QUEUE_FORMAT (MS-MQMQ 2.2.7),
as parsed and checked by reference.format_name and reference.queue_format."""

from __future__ import annotations

import uuid

import pytest

from mqspec.protocol.constants import QUEUE_FORMAT_FLAG_SYSTEM as SYS, QueueFormatType as T, QueueSuffixType as X
from mqspec.protocol.queue_format import QueueFormat, from_format_name as describe
from mqspec.reference.format_name import (
    FormatNameError,
    parse_format_name,
    parse_path_name,
    private_format_name,
)
from mqspec.reference.queue_format import to_format_name, validate

G = "11111111-2222-3333-4444-555555555555"
GUID = uuid.UUID(G)


# -- path names (MS-MQMQ 2.1.1) ------------------------------------------------------------

@pytest.mark.parametrize("text, computer, name, private, subqueue", [
    ("host\\queue", "host", "queue", False, None),
    ("host\\private$\\queue", "host", "queue", True, None),
    ("host\\PRIVATE$\\queue", "host", "queue", True, None),
    (".\\private$\\q", ".", "q", True, None),
    ("host\\private$\\queue;poison", "host", "queue", True, "poison"),
    ("host\\" + "q" * 124, "host", "q" * 124, False, None),
    ("h" * 256 + "\\q", "h" * 256, "q", False, None),
    ("host\\private$\\q;" + "s" * 32, "host", "q", True, "s" * 32),
    ("host\\a!#$%&'()*-./09:<=>?@AZ[]^_`az{|}~", "host", "a!#$%&'()*-./09:<=>?@AZ[]^_`az{|}~", False, None),
])
def test_valid_path_names(text, computer, name, private, subqueue):
    """MS-MQMQ:2.1.1:01 Computer\\QueueName, Computer\\PRIVATE$\\QueueName, optional ;Subqueue;
    queue names of 1-124 characters, subqueues of 1-32, computers of 1-256."""
    path = parse_path_name(text)
    assert (path.computer, path.queue_name, path.private, path.subqueue) == (computer, name, private, subqueue)


@pytest.mark.parametrize("text", [
    "", "queue", "\\queue", "host\\", "host\\private$\\", "host\\private$", "host\\system$",
    "host\\q" + "q" * 124, "h" * 257 + "\\q", "host\\private$\\q;" + "s" * 33, "host\\q;",
    "host\\bad name", "host\\a+b", "host\\a,b", 'host\\a"b', "host\\a\\b", "host\\q;s;t",
    "ho st\\q",
])
def test_invalid_path_names(text):
    """MS-MQMQ:2.1.1:01 names outside the grammar are refused (space, + , ; \\ " excluded, limits)."""
    with pytest.raises(FormatNameError):
        parse_path_name(text)


def test_path_name_local_key():
    """MS-MQMQ:2.1.1:01 / MS-MQMQ:2.1.1 a queue is filed by its case-insensitive name on its computer."""
    assert parse_path_name("HOST\\Private$\\Orders;Sub").local_key == "private$\\orders;sub"
    assert parse_path_name("h\\Pub").local_key == "pub"


# -- format names (MS-MQMQ 2.1.2 - 2.1.7) -------------------------------------------------

@pytest.mark.parametrize("text, fields", [
    (f"PUBLIC={G}", dict(kind="PUBLIC", guid=GUID)),
    (f"public={G.lower()};JOURNAL", dict(kind="PUBLIC", suffix="JOURNAL")),
    (f"PRIVATE={G}\\1", dict(kind="PRIVATE", guid=GUID, private_queue_number=1)),
    (f"PRIVATE={G}\\0000abCD", dict(kind="PRIVATE", private_queue_number=0xABCD)),
    (f"PRIVATE={G}\\ffffffff;journal", dict(kind="PRIVATE", private_queue_number=0xFFFFFFFF, suffix="JOURNAL")),
    ("DIRECT=OS:host\\queue", dict(kind="DIRECT", protocol="OS", address="host", queue_name="queue", private=False)),
    ("DIRECT=OS:host\\private$\\q", dict(kind="DIRECT", private=True, queue_name="q")),
    ("DIRECT=TCP:10.1.2.3\\private$\\q;JOURNAL", dict(protocol="TCP", address="10.1.2.3", suffix="JOURNAL")),
    ("DIRECT=OS:host\\private$\\q;poison", dict(subqueue="poison", suffix=None)),
    ("DIRECT=OS:host\\SYSTEM$;DEADLETTER", dict(kind="DIRECT", queue_name=None, suffix="DEADLETTER")),
    ("DIRECT=TCP:1.2.3.4\\system$;deadxact", dict(suffix="DEADXACT")),
    ("DIRECT=OS:host\\SYSTEM$;JOURNAL", dict(suffix="JOURNAL")),
    ("DIRECT=HTTP://host/msmq/private$/q", dict(protocol="HTTP", address="host/msmq/private$/q")),
    ("DIRECT=HTTPS://host:443/msmq/q", dict(protocol="HTTPS")),
    (f"MACHINE={G};JOURNAL", dict(kind="MACHINE", guid=GUID, suffix="JOURNAL")),
    (f"MACHINE={G};DEADLETTER", dict(suffix="DEADLETTER")),
    (f"MACHINE={G};DEADXACT", dict(suffix="DEADXACT")),
    (f"CONNECTOR={G}", dict(kind="CONNECTOR", guid=GUID)),
    (f"CONNECTOR={G};XACTONLY", dict(suffix="XACTONLY")),
    (f"DL={G}", dict(kind="DL", guid=GUID, address=None)),
    (f"DL={G}@example.com", dict(kind="DL", address="example.com")),
    ("MULTICAST=224.0.0.1:80", dict(kind="MULTICAST", address="224.0.0.1:80")),
    ("MULTICAST=239.255.255.255:65535", dict(kind="MULTICAST")),
])
def test_valid_format_names(text, fields):
    """MS-MQMQ:2.1.2:01 .. 2.1.6:01 each single-element form parses to its parts."""
    name = parse_format_name(text)
    assert name.text == text
    for field, value in fields.items():
        assert getattr(name, field) == value, field


@pytest.mark.parametrize("text", [
    "", "orders", "PUBLIC", "PUBLIC=", "PUBLIC=not-a-guid", f"PUBLIC={G};DEADLETTER",
    f"PUBLIC={G}x", "FOO=bar",
    f"PRIVATE={G}", f"PRIVATE={G}\\", f"PRIVATE={G}\\123456789", f"PRIVATE={G}\\xyz", "PRIVATE=xyz\\1",
    f"PRIVATE={G}\\1;DEADXACT",
    "DIRECT=", "DIRECT=OS", "DIRECT=OS:host", "DIRECT=OS:\\q", "DIRECT=FOO:host\\q",
    "DIRECT=TCP:host\\q", "DIRECT=TCP:300.1.1.1\\q", "DIRECT=TCP:1.2.3\\q",
    "DIRECT=OS:host\\SYSTEM$;FOO", "DIRECT=OS:host\\private$\\bad name", "DIRECT=HTTP:host/q", "DIRECT=HTTP://",
    "DIRECT=OS:host\\q;DEADLETTER",
    f"MACHINE={G};FOO", f"MACHINE={G};XACTONLY", "MACHINE=xyz;JOURNAL",
    f"CONNECTOR={G};JOURNAL",
    f"DL={G}@", "DL=xyz",
    "MULTICAST=223.0.0.1:80", "MULTICAST=240.0.0.1:80", "MULTICAST=224.0.0.1", "MULTICAST=224.0.0.01:80", "MULTICAST=224.0.0.1:65536",
    "MULTICAST=224.0.0.1:65536", "MULTICAST=224.0.0:80",
    f"PUBLIC={G},", f"PUBLIC={G},,PUBLIC={G}", f"PUBLIC={G},bogus",
])
def test_invalid_format_names(text):
    """MS-MQMQ:2.1.2:01 .. 2.1.7:01 strings outside the grammars are refused."""
    with pytest.raises(FormatNameError):
        parse_format_name(text)


def test_multiple_element_format_name():
    """MS-MQMQ:2.1.7:01 a multiple-element name is format names separated by commas, any forms."""
    text = f"PUBLIC={G},DIRECT=OS:h\\private$\\q,PRIVATE={G}\\2"
    name = parse_format_name(text)
    assert name.kind == "MULTIPLE" and name.text == text
    assert [e.kind for e in name.elements] == ["PUBLIC", "DIRECT", "PRIVATE"]


def test_private_format_name_rendering():
    """MS-MQMQ:2.1.4:01 PRIVATE=<computer guid>\\<hex number>, parsable again."""
    text = private_format_name(GUID.bytes_le, 0x1A)
    assert text == f"PRIVATE={G.lower()}\\0000001a"
    name = parse_format_name(text)
    assert name.guid == GUID and name.private_queue_number == 0x1A


# -- QUEUE_FORMAT (MS-MQMQ 2.2.7) -----------------------------------------------------------

VALID_QUEUE_FORMATS = [
    (QueueFormat(T.QUEUE_FORMAT_TYPE_PUBLIC, X.QUEUE_SUFFIX_TYPE_NONE, guid=GUID), f"PUBLIC={G.lower()}"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_PUBLIC, X.QUEUE_SUFFIX_TYPE_JOURNAL | SYS, guid=GUID),
     f"PUBLIC={G.lower()};JOURNAL"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_PRIVATE, 0, guid=GUID, uniquifier=0x2A), f"PRIVATE={G.lower()}\\0000002a"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_PRIVATE, X.QUEUE_SUFFIX_TYPE_JOURNAL | SYS, guid=GUID, uniquifier=1),
     f"PRIVATE={G.lower()}\\00000001;JOURNAL"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, 0, direct_id="OS:h\\private$\\q"), "DIRECT=OS:h\\private$\\q"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, X.QUEUE_SUFFIX_TYPE_JOURNAL | SYS, direct_id="OS:h\\q"),
     "DIRECT=OS:h\\q;JOURNAL"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, X.QUEUE_SUFFIX_TYPE_DEADLETTER | SYS, direct_id="OS:h"),
     "DIRECT=OS:h\\SYSTEM$;DEADLETTER"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, X.QUEUE_SUFFIX_TYPE_DEADXACT | SYS, direct_id="TCP:1.2.3.4"),
     "DIRECT=TCP:1.2.3.4\\SYSTEM$;DEADXACT"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_MACHINE, X.QUEUE_SUFFIX_TYPE_JOURNAL | SYS, guid=GUID),
     f"MACHINE={G.lower()};JOURNAL"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_MACHINE, X.QUEUE_SUFFIX_TYPE_DEADLETTER | SYS, guid=GUID),
     f"MACHINE={G.lower()};DEADLETTER"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_MACHINE, X.QUEUE_SUFFIX_TYPE_DEADXACT | SYS, guid=GUID),
     f"MACHINE={G.lower()};DEADXACT"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_CONNECTOR, 0, guid=GUID), f"CONNECTOR={G.lower()}"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_CONNECTOR, X.QUEUE_SUFFIX_TYPE_XACTONLY, guid=GUID),
     f"CONNECTOR={G.lower()};XACTONLY"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_DL, 0, guid=GUID), f"DL={G.lower()}"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_DL, 0, guid=GUID, domain="corp.example"), f"DL={G.lower()}@corp.example"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_MULTICAST, 0, multicast_address=0xE0010203, multicast_port=8001),
     "MULTICAST=224.1.2.3:8001"),
    (QueueFormat(T.QUEUE_FORMAT_TYPE_SUBQUEUE, X.QUEUE_SUFFIX_TYPE_SUBQUEUE, direct_id="OS:h\\private$\\q;s"),
     "DIRECT=OS:h\\private$\\q;s"),
]


@pytest.mark.parametrize("queue_format, text", VALID_QUEUE_FORMATS, ids=[t for _, t in VALID_QUEUE_FORMATS])
def test_valid_queue_formats(queue_format, text):
    """MS-MQMQ:2.2.7:01 / 2.2.7:02 allowed type, suffix and flags combinations validate and render
    as the format name they stand for, which parses again."""
    validate(queue_format)
    assert to_format_name(queue_format) == text
    parse_format_name(text)


# The suffix table of MS-MQMQ 2.2.7 (digest ms-mqrr.md 9.4), as (type, suffix|flags) pairs it forbids.
INVALID_QUEUE_FORMATS = [
    (T.QUEUE_FORMAT_TYPE_MACHINE, X.QUEUE_SUFFIX_TYPE_NONE),           # NONE: not MACHINE
    (T.QUEUE_FORMAT_TYPE_PUBLIC, X.QUEUE_SUFFIX_TYPE_NONE | SYS),      # NONE: flags must be 0
    (T.QUEUE_FORMAT_TYPE_CONNECTOR, X.QUEUE_SUFFIX_TYPE_JOURNAL | SYS),  # JOURNAL: not 5, 6, 7
    (T.QUEUE_FORMAT_TYPE_DL, X.QUEUE_SUFFIX_TYPE_JOURNAL | SYS),
    (T.QUEUE_FORMAT_TYPE_MULTICAST, X.QUEUE_SUFFIX_TYPE_JOURNAL | SYS),
    (T.QUEUE_FORMAT_TYPE_PUBLIC, X.QUEUE_SUFFIX_TYPE_JOURNAL),         # JOURNAL: flags 0x80
    (T.QUEUE_FORMAT_TYPE_PUBLIC, X.QUEUE_SUFFIX_TYPE_DEADLETTER | SYS),  # DEADLETTER: not 1, 2, 5, 6, 7
    (T.QUEUE_FORMAT_TYPE_PRIVATE, X.QUEUE_SUFFIX_TYPE_DEADLETTER | SYS),
    (T.QUEUE_FORMAT_TYPE_CONNECTOR, X.QUEUE_SUFFIX_TYPE_DEADLETTER | SYS),
    (T.QUEUE_FORMAT_TYPE_DL, X.QUEUE_SUFFIX_TYPE_DEADLETTER | SYS),
    (T.QUEUE_FORMAT_TYPE_MULTICAST, X.QUEUE_SUFFIX_TYPE_DEADLETTER | SYS),
    (T.QUEUE_FORMAT_TYPE_DIRECT, X.QUEUE_SUFFIX_TYPE_DEADLETTER),      # DEADLETTER: flags 0x80
    (T.QUEUE_FORMAT_TYPE_PUBLIC, X.QUEUE_SUFFIX_TYPE_DEADXACT | SYS),  # DEADXACT: 3 or 4 only
    (T.QUEUE_FORMAT_TYPE_PRIVATE, X.QUEUE_SUFFIX_TYPE_DEADXACT | SYS),
    (T.QUEUE_FORMAT_TYPE_MACHINE, X.QUEUE_SUFFIX_TYPE_DEADXACT),       # DEADXACT: flags 0x80
    (T.QUEUE_FORMAT_TYPE_PUBLIC, X.QUEUE_SUFFIX_TYPE_XACTONLY),        # XACTONLY: 5 only
    (T.QUEUE_FORMAT_TYPE_DIRECT, X.QUEUE_SUFFIX_TYPE_XACTONLY),
    (T.QUEUE_FORMAT_TYPE_DIRECT, X.QUEUE_SUFFIX_TYPE_SUBQUEUE),        # SUBQUEUE: 8 only
    (T.QUEUE_FORMAT_TYPE_SUBQUEUE, X.QUEUE_SUFFIX_TYPE_SUBQUEUE | SYS),  # SUBQUEUE: flags 0
    (T.QUEUE_FORMAT_TYPE_SUBQUEUE, X.QUEUE_SUFFIX_TYPE_DEADXACT | SYS),
    (9, 0),                                                             # no such type
    (T.QUEUE_FORMAT_TYPE_PUBLIC, 6),                                    # no such suffix
]


@pytest.mark.parametrize("qft, suffix_and_flags", INVALID_QUEUE_FORMATS,
                         ids=[f"{q}-{s:#04x}" for q, s in INVALID_QUEUE_FORMATS])
def test_invalid_queue_formats(qft, suffix_and_flags):
    """MS-MQMQ:2.2.7:02 combinations the suffix table forbids are refused."""
    queue_format = QueueFormat(qft, suffix_and_flags, guid=GUID, direct_id="OS:h\\private$\\q;s")
    with pytest.raises(FormatNameError):
        validate(queue_format)
    with pytest.raises(FormatNameError):
        to_format_name(queue_format)


@pytest.mark.parametrize("queue_format", [
    QueueFormat(T.QUEUE_FORMAT_TYPE_PUBLIC, 0),
    QueueFormat(T.QUEUE_FORMAT_TYPE_PRIVATE, 0, uniquifier=1),
    QueueFormat(T.QUEUE_FORMAT_TYPE_MACHINE, X.QUEUE_SUFFIX_TYPE_JOURNAL | SYS),
    QueueFormat(T.QUEUE_FORMAT_TYPE_DIRECT, 0),
    QueueFormat(T.QUEUE_FORMAT_TYPE_SUBQUEUE, X.QUEUE_SUFFIX_TYPE_SUBQUEUE, direct_id=""),
])
def test_queue_format_missing_value(queue_format):
    """MS-MQMQ:2.2.7:01 the union arm m_qft selects must be present."""
    with pytest.raises(FormatNameError):
        validate(queue_format)


def test_unknown_queue_format_has_no_format_name():
    """MS-MQMQ:2.2.7:01 / MS-MQMQ:2.2.7 QUEUE_FORMAT_TYPE_UNKNOWN validates but names no queue."""
    queue_format = QueueFormat(T.QUEUE_FORMAT_TYPE_UNKNOWN, 0)
    validate(queue_format)
    with pytest.raises(FormatNameError):
        to_format_name(queue_format)


@pytest.mark.parametrize("text", [
    f"PUBLIC={G.lower()}", f"PUBLIC={G.lower()};JOURNAL", f"PRIVATE={G.lower()}\\00000007",
    f"PRIVATE={G.lower()}\\00000007;JOURNAL", f"MACHINE={G.lower()};JOURNAL", f"MACHINE={G.lower()};DEADXACT",
    "DIRECT=OS:h\\private$\\q", "DIRECT=TCP:1.2.3.4\\q;JOURNAL", "DIRECT=OS:h\\SYSTEM$;DEADLETTER",
    "DIRECT=OS:h\\SYSTEM$;DEADXACT", "DIRECT=OS:h\\SYSTEM$;JOURNAL", "DIRECT=OS:h\\private$\\q;sub",
])
def test_describe_round_trip(text):
    """MS-MQMQ:2.2.7:02 / MS-MQMQ:2.2.7 describe() builds the QUEUE_FORMAT of a format name; it validates, carries the
    system flag exactly for the system suffixes, and renders back to the same name."""
    queue_format = describe(text)
    validate(queue_format)
    suffix = queue_format.m_suffix_and_flags & 0x0F
    system = suffix in (X.QUEUE_SUFFIX_TYPE_JOURNAL, X.QUEUE_SUFFIX_TYPE_DEADLETTER, X.QUEUE_SUFFIX_TYPE_DEADXACT)
    assert (queue_format.m_suffix_and_flags & 0xF0) == (SYS if system else 0)
    assert to_format_name(queue_format) == text


def test_describe_subqueue_uses_the_subqueue_type():
    """MS-MQMQ:2.2.7:04 a direct name with a subqueue becomes QUEUE_FORMAT_TYPE_SUBQUEUE with
    suffix SUBQUEUE and the whole direct name."""
    queue_format = describe("DIRECT=OS:h\\private$\\q;sub")
    assert queue_format.m_qft == T.QUEUE_FORMAT_TYPE_SUBQUEUE
    assert queue_format.m_suffix_and_flags == X.QUEUE_SUFFIX_TYPE_SUBQUEUE
    assert queue_format.direct_id == "OS:h\\private$\\q;sub"


@pytest.mark.parametrize("text, qft", [(f"CONNECTOR={G}", T.QUEUE_FORMAT_TYPE_CONNECTOR),
                                       (f"DL={G}", T.QUEUE_FORMAT_TYPE_DL),
                                       ("MULTICAST=224.0.0.1:80", T.QUEUE_FORMAT_TYPE_MULTICAST)])
def test_describe_builds_forms_remote_read_refuses(text, qft):
    """MS-MQMQ:2.2.7 the client-side builder gives connector, DL and multicast names their QUEUE_FORMAT
    (so a scenario can send them and see the server refuse them, MS-MQRR 3.1.4.2), and the server's
    reading renders them back."""
    queue_format = describe(text)
    assert queue_format.m_qft == qft
    assert to_format_name(queue_format).upper() == text.upper()


@pytest.mark.parametrize("text", ["DIRECT", "FOO=bar", f"PUBLIC={G[:-1]}", f"PRIVATE={G}", "MULTICAST=1.2.3:4",
                                  f"PUBLIC={G};NOTASUFFIX", f"PUBLIC={G},PUBLIC={G}"])
def test_describe_refuses_what_has_no_queue_format(text):
    """MS-MQMQ:2.2.7 text that cannot be split into QUEUE_FORMAT fields is refused with a ValueError."""
    with pytest.raises(ValueError):
        describe(text)
