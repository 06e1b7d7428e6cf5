"""Steps for queue handles, queue names and the layout of returned packets.

What lives here
---------------
* The handle methods of MS-MQRR: R_GetServerPort, R_OpenQueue, R_OpenQueueForMove,
  R_CloseQueue, R_CreateCursor, R_CloseCursor, R_PurgeQueue, each called with the
  arguments a scenario gives and recorded with `world.record`, so that
  `the call returns ...` (receive_steps) checks the status.
* Queue names (MS-MQMQ 2.1, 2.2.7): a format-name *template* is a format name with
  `{...}` tokens that the scenario cannot know in advance (see TEMPLATE_TOKENS), and a
  raw QUEUE_FORMAT can be spelled field by field for the cases no format name gives.
* Messages of any shape (`message "m1" is sent to "q" carrying:`) and checks on the
  packet a read returned, through the suite's own packet reader (packet_reader.py).
  A few checks need fields the reader does not keep (BaseHeader flags, reserved bits,
  the TransactionHeader id, TargetSubqueueName, the MultiQueueFormatHeader list); a
  small subclass of the reader notes them while it walks the packet (`_Probe`).

Sentences use regular expressions whose quoted arguments never contain a quote, so
that no sentence of this module can swallow a longer one.
"""

from __future__ import annotations

import re
import struct
import uuid

import pytest
from pytest_bdd import given, parsers, then, when

from adapters import HRESULT, MessageProperties, QueueFormat, describe_hresult, queue_format

from .packet_checks import Spliced, align4, check_records, direct_name, judge_split, private_name, public_name
from .packet_reader import DecodedMessage, _Decoder, read_sections
from .setup_steps import properties, send
from .values import acknowledgements, labels, number
from .world import MAX_SIZE, Sent, World

NULL_HANDLE = bytes(20)
Q = r'"(?P<{}>[^"]*)"'  # a quoted argument that cannot run past its closing quote


def _re(pattern: str, **quoted: str):
    """parsers.re with `{name}` standing for a quoted argument called name."""
    return parsers.re(pattern.format(**{name: Q.format(name) for name in quoted}))


def _quoted(*names: str) -> dict:
    return {name: name for name in names}


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
    if token == "queue manager":
        return str(uuid.UUID(bytes_le=world.target.queue_manager_identifier))
    if token == "unknown guid":
        return world.notes.setdefault("unknown guid", str(uuid.uuid4()))
    if token.startswith("name of "):
        return f"{world.prefix}-{token[len('name of '):]}"
    if token.startswith("format name of "):
        return world.queue(token[len("format name of "):])
    if token.startswith("private number of ") or token.startswith("short private number of "):
        alias = token.split("private number of ", 1)[1]
        match = re.fullmatch(r"PRIVATE=[0-9A-Fa-f-]{36}\\([0-9A-Fa-f]{1,8})", world.queue(alias), re.I)
        if match is None:
            pytest.skip(f"waived: {world.target.name} named {alias!r} {world.queue(alias)!r}, "
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


def _queue_format_from_text(text: str) -> QueueFormat:
    """The QUEUE_FORMAT of a format name; a DIRECT= name the client cannot parse is passed through
    as it is, so the server is the one that judges it."""
    try:
        return queue_format(text)
    except ValueError:
        if text[:7].upper() == "DIRECT=":
            return QueueFormat(QUEUE_FORMAT_TYPES["QUEUE_FORMAT_TYPE_DIRECT"], 0, direct_id=text[7:])
        raise AssertionError(f"{text!r} has no QUEUE_FORMAT form; spell it with 'a QUEUE_FORMAT ... with:'")


def _queue_argument(world: World, text: str) -> QueueFormat | None:
    """A pQueueFormat cell: NULL, a QUEUE_FORMAT the scenario spelled out, a queue alias, or a
    format-name template (anything with '=')."""
    text = text.strip()
    if text == "NULL":
        return None
    spelled = world.notes.get("queue formats", {})
    if text in spelled:
        return spelled[text]
    if "=" in text:
        return _queue_format_from_text(expand(world, text))
    return queue_format(world.queue(text))


def _guid(text: str) -> uuid.UUID:
    return uuid.UUID(text)


@given(_re(r"^a QUEUE_FORMAT {name} with:$", **_quoted("name")))
def spelled_queue_format(world, name, datatable):
    """A QUEUE_FORMAT built field by field (MS-MQMQ 2.2.7); `identifier` is read by m_qft."""
    fields = {key.strip(): expand(world, text.strip()) for key, text in datatable}
    qft = value(fields.get("m_qft", "0"))
    arguments = dict(m_qft=qft, m_suffix_and_flags=value(fields.get("m_SuffixAndFlags", "0")),
                     m_reserved=value(fields.get("m_reserved", "0")))
    identifier = fields.get("identifier", "")
    if qft in (1, 4, 5):            # PUBLIC, MACHINE, CONNECTOR: a GUID
        arguments["guid"] = _guid(identifier)
    elif qft == 2:                  # PRIVATE: OBJECTID, written GUID\number
        guid, _, number_text = identifier.partition("\\")
        arguments.update(guid=_guid(guid), uniquifier=int(number_text, 16))
    elif qft in (3, 8):             # DIRECT, SUBQUEUE: the direct name without DIRECT=
        arguments["direct_id"] = identifier
    elif qft == 6:                  # DL: GUID and an optional domain
        guid, _, domain = identifier.partition("@")
        arguments.update(guid=_guid(guid), domain=domain or None)
    elif qft == 7:                  # MULTICAST: address:port
        address, _, port = identifier.partition(":")
        arguments.update(multicast_address=int.from_bytes(bytes(int(b) for b in address.split(".")), "big"),
                         multicast_port=int(port))
    world.notes.setdefault("queue formats", {})[name] = QueueFormat(**arguments)


# -- R_OpenQueue and R_OpenQueueForMove -------------------------------------------------------

OPEN_ARGUMENTS = {"pQueueFormat": "p_queue_format", "dwAccess": "dw_access", "dwShareMode": "dw_share_mode",
                  "pClientId": "p_client_id", "fNonRoutingServer": "f_non_routing_server", "Major": "major",
                  "Minor": "minor", "BuildNumber": "build_number", "fWorkgroup": "f_workgroup"}


def _client_id(world: World, text: str) -> bytes | None:
    text = text.strip()
    if text == "NULL":
        return None
    if text == "zero":
        return bytes(16)
    if text == "the queue manager's identifier":
        return world.target.queue_manager_identifier
    if text.startswith("random"):
        return world.notes.setdefault("client ids", {}).setdefault(text, uuid.uuid4().bytes_le)
    return uuid.UUID(text).bytes_le


def _open_arguments(world: World, datatable, move: bool) -> dict:
    header, row = datatable[0], datatable[1]
    arguments = {"dw_access": value("MQ_MOVE_ACCESS" if move else "RECEIVE_ACCESS"),
                 "dw_share_mode": value("MQ_DENY_NONE")}
    for name, text in zip(header, row):
        name = name.strip()
        assert name in OPEN_ARGUMENTS, f"unknown argument {name!r}; known: {', '.join(OPEN_ARGUMENTS)}"
        if name == "pQueueFormat":
            arguments["p_queue_format"] = _queue_argument(world, text)
        elif name == "pClientId":
            arguments["p_client_id"] = _client_id(world, text)
        else:
            arguments[OPEN_ARGUMENTS[name]] = value(text)
    assert "p_queue_format" in arguments, "the call table needs a pQueueFormat column"
    return arguments


def _keep_handle(world: World, handle: str, out, queue_text: str | None) -> None:
    if out.hresult == HRESULT.MQ_OK:
        world.handles[handle] = out.pph_context
        if queue_text and queue_text in world.queues:
            world.handle_queue[handle] = queue_text


@when(_re(r"^R_OpenQueue is called as {handle} with:$", **_quoted("handle")))
@given(_re(r"^R_OpenQueue is called as {handle} with:$", **_quoted("handle")))
def r_open_queue(world, handle, datatable):
    out = world.target.open_queue(**_open_arguments(world, datatable, move=False))
    world.record(out)
    _keep_handle(world, handle, out, dict(zip(datatable[0], datatable[1])).get("pQueueFormat"))


@when(_re(r"^R_OpenQueueForMove is called as {handle} with:$", **_quoted("handle")))
@given(_re(r"^R_OpenQueueForMove is called as {handle} with:$", **_quoted("handle")))
def r_open_queue_for_move(world, handle, datatable):
    out = world.target.open_queue_for_move(**_open_arguments(world, datatable, move=True))
    world.record(out)
    _keep_handle(world, handle, out, dict(zip(datatable[0], datatable[1])).get("pQueueFormat"))
    if out.hresult == HRESULT.MQ_OK:
        world.move_contexts[handle] = out.p_move_context


@when(_re(r"^the format name {name} is opened with (?P<access>\S+) as {handle}$", **_quoted("name", "handle")))
def open_format_name(world, name, access, handle):
    """R_OpenQueue for a format-name template, MQ_DENY_NONE, default client arguments."""
    out = world.target.open_queue(_queue_format_from_text(expand(world, name)), value(access),
                                  value("MQ_DENY_NONE"))
    world.record(out)
    _keep_handle(world, handle, out, None)


@then(_re(r"^{handle} is a usable queue handle$", **_quoted("handle")))
def usable_handle(world, handle):
    """Not NULL, and the server accepts it: a cursor can be created on it and closed again."""
    context = world.handle(handle)
    assert context != NULL_HANDLE, f"{handle!r} is the NULL context handle"
    cursor = world.target.create_cursor(context)
    assert cursor.hresult == HRESULT.MQ_OK, \
        f"R_CreateCursor on {handle!r} returned {describe_hresult(cursor.hresult)}, so the handle is not usable"
    closed = world.target.close_cursor(context, cursor.ph_cursor)
    assert closed == HRESULT.MQ_OK, f"R_CloseCursor on {handle!r}: {describe_hresult(closed)}"


@then(_re(r"^the handles {first} and {second} are not the same$", **_quoted("first", "second")))
def handles_differ(world, first, second):
    assert world.handle(first) != world.handle(second), f"{first!r} and {second!r} are the same context handle"


@then(_re(r"^the move context of {handle} is not zero$", **_quoted("handle")))
def move_context_nonzero(world, handle):
    assert world.move_contexts.get(handle), f"pMoveContext of {handle!r} is {world.move_contexts.get(handle)!r}"


@when(_re(r"^the client moves {label} from {source} through the move context of {target}$",
          **_quoted("label", "source", "target")))
def move_through_context(world, label, source, target):
    """R_MoveMessage without a transaction, addressing the destination by its pMoveContext."""
    world.record(world.target.move_message(world.handle(source), world.move_contexts[target],
                                           world.lookup_id(label), None))


@when(_re(r"^the client moves {label} from {source} through the move context of {target} "
          r"inside transaction {tx}$", **_quoted("label", "source", "target", "tx")))
def move_through_context_in_transaction(world, label, source, target, tx):
    world.record(world.target.move_message(world.handle(source), world.move_contexts[target],
                                           world.lookup_id(label), world.transactions[tx]))


# -- R_CloseQueue, R_CreateCursor, R_CloseCursor, R_PurgeQueue, R_GetServerPort ---------------

@when(_re(r"^R_CloseQueue is called on {handle}$", **_quoted("handle")))
@given(_re(r"^R_CloseQueue is called on {handle}$", **_quoted("handle")))
def r_close_queue(world, handle):
    world.record(world.target.close_queue(world.handle(handle)))


@then(r"the context handle given back is NULL")
def context_handle_null(world):
    returned = getattr(world.last, "pph_context", None)
    assert returned == NULL_HANDLE, f"pphContext came back as {returned!r}, expected NULL (20 zero bytes)"


@when(_re(r"^R_CreateCursor is called on {handle} as {cursor}$", **_quoted("handle", "cursor")))
def r_create_cursor(world, handle, cursor):
    out = world.target.create_cursor(world.handle(handle))
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.cursors[cursor] = (handle, out.ph_cursor)


@then(_re(r"^cursor {cursor} has a nonzero handle$", **_quoted("cursor")))
def cursor_nonzero(world, cursor):
    assert cursor in world.cursors, f"no cursor {cursor!r} was created"
    assert world.cursors[cursor][1] != 0, f"phCursor of {cursor!r} is 0"


@then(_re(r"^cursors {first} and {second} have different handles$", **_quoted("first", "second")))
def cursors_differ(world, first, second):
    assert world.cursors[first][1] != world.cursors[second][1], \
        f"{first!r} and {second!r} share the cursor handle {world.cursors[first][1]}"


@given(_re(r"^{cursor} is a cursor handle the server never issued on {handle}$", **_quoted("cursor", "handle")))
def forged_cursor(world, cursor, handle):
    taken = {h for _, h in world.cursors.values()}
    forged = 0x0BAD_C0DE
    while forged in taken:
        forged += 1
    world.cursors[cursor] = (handle, forged)


@when(_re(r"^R_CloseCursor is called on {handle} for {cursor}$", **_quoted("handle", "cursor")))
def r_close_cursor(world, handle, cursor):
    world.record(world.target.close_cursor(world.handle(handle), world.cursors[cursor][1]))


@when(_re(r"^R_PurgeQueue is called on {handle}$", **_quoted("handle")))
def r_purge_queue(world, handle):
    world.record(world.target.purge_queue(world.handle(handle)))


@when(r"R_GetServerPort is called")
def r_get_server_port(world):
    world.notes["port"] = world.target.get_server_port()


@then(r"the port returned is a nonzero TCP port number")
def port_nonzero(world):
    port = world.notes.get("port")
    assert isinstance(port, int) and 0 < port <= 0xFFFF, f"R_GetServerPort returned {port!r}"


@then(r"the status is one the specifications define or carries the customer bit")
def documented_or_customer(world):
    status = world.status
    assert status is not None, "no call was made"
    known = {int(member) for member in HRESULT}
    assert status in known or status & CUSTOMER_BIT, \
        f"status 0x{status:08X} is neither defined by MS-MQMQ/MS-MQRR nor marked with the customer bit 0x20000000"


# -- queue creation by path name --------------------------------------------------------------

@when(parsers.re(r"^a queue is created with the path name (?P<path>.*)$"))
def create_by_path(world, path):
    out = world.target.create_queue(expand(world, path))
    world.record(out)
    if out.hresult == HRESULT.MQ_OK:
        world.notes["created"] = out.format_name


@then(r"the format name was not refused as illegal")
def not_illegal(world):
    """The name passed the grammar: whatever became of the call, it was not MQ_ERROR_ILLEGAL_FORMATNAME."""
    assert world.status is not None, "no call was made"
    assert world.status != HRESULT.MQ_ERROR_ILLEGAL_FORMATNAME, "the format name was refused as illegal"


@then(r"the new queue can be opened for receiving")
def new_queue_opens(world):
    created = world.notes.get("created")
    assert created, "no queue was created by the last step"
    out = world.target.open_queue(queue_format(created), value("RECEIVE_ACCESS"), value("MQ_DENY_NONE"))
    assert out.hresult == HRESULT.MQ_OK, f"opening {created!r}: {describe_hresult(out.hresult)}"
    world.target.close_queue(out.pph_context)


# -- sending messages of any shape ------------------------------------------------------------

EXTRA_PROPERTIES = {
    "correlation id": lambda world, text: ("correlation_id", text.encode().ljust(20, b"\0")[:20]),
    "application tag": lambda world, text: ("application_tag", value(text)),
    "body type": lambda world, text: ("body_type", value(text)),
    "extension": lambda world, text: ("extension", text.encode()),
    "admin format name": lambda world, text: ("admin_queue", expand(world, text)),
    "response format name": lambda world, text: ("response_queue", expand(world, text)),
    "tracing": lambda world, text: ("extra:tracing_requested", text == "yes"),
    "dead-letter path": lambda world, text: ("extra:deadletter_path_name", expand(world, text)),
}


@when(_re(r"^message {label} is sent to {alias} carrying:$", **_quoted("label", "alias")))
@given(_re(r"^message {label} is sent to {alias} carrying:$", **_quoted("label", "alias")))
def send_carrying(world, label, alias, datatable):
    """Like `... is sent to ... with:` plus the properties of EXTRA_PROPERTIES, a `label` row that
    may hold template tokens (long labels), and a `transaction` row.  The queue may also be a
    format-name template (anything with '=')."""
    rows = {key.strip(): text.strip() for key, text in datatable}
    transaction = rows.pop("transaction", "") or None
    extra = {key: rows.pop(key) for key in list(rows) if key in EXTRA_PROPERTIES}
    actual_label = expand(world, rows.pop("label", label))
    props = properties(world, {"label": actual_label, **rows})
    for key, text in extra.items():
        if text == "":
            continue
        name, converted = EXTRA_PROPERTIES[key](world, text)
        if name.startswith("extra:"):
            props.extra[name[len("extra:"):]] = converted
        else:
            setattr(props, name, converted)
    if "=" in alias:  # a format-name template instead of a queue of the scenario
        format_name = expand(world, alias)
        uow = world.transactions[transaction] if transaction else None
        out = world.target.send(format_name, props, uow)
        world.record(out)
    else:
        format_name = world.queue(alias)
        out = send(world, alias, props, transaction)
    sent = Sent(actual_label, format_name, out.message_id, transaction is not None)
    world.sent[actual_label] = world.sent[label] = sent
    world.notes.setdefault("labels", {})[label] = actual_label


@when(_re(r"^a message is sent to the format name {name}$", **_quoted("name")))
def send_to_format_name(world, name):
    """The set-up send to a format-name template; the send steps of setup_steps check the result."""
    text = expand(world, name)
    out = world.target.send(text, MessageProperties(label="by format name"))
    world.record(out)
    world.sent["by format name"] = Sent("by format name", text, out.message_id)


# -- reading packets --------------------------------------------------------------------------

@when(_re(r"^every message in {alias} is peeked$", **_quoted("alias")))
def peek_every(world, alias):
    """Keep the packet of each message of the queue, by label, for `the packet of "x" ...`."""
    out = world.target.read_queue(world.queue(alias))
    assert out.hresult == HRESULT.MQ_OK, f"reading {alias!r}: {describe_hresult(out.hresult)}"
    packets = world.notes.setdefault("packets", {})
    for message in out.messages:
        sections = tuple(message.pp_packet_sections)
        decoded = read_sections(sections, MAX_SIZE, MAX_SIZE)
        packets[decoded.label] = (decoded, sections, MAX_SIZE)
        world.sequence_ids.setdefault(decoded.label, message.p_sequence_id)


def _packet(world: World, label: str | None) -> tuple[DecodedMessage, tuple, int]:
    """(decoded message, sections, the body limit it was read with) of the last read or of a label."""
    if label is None:
        assert world.status == HRESULT.MQ_OK, f"the read failed: {describe_hresult(world.status)}"
        assert world.decoded is not None, "no message came back"
        sections = tuple(world.last.pp_packet_sections)
        read, limit = world.notes.get("read limit", (None, MAX_SIZE))
        limit = limit if read is world.last else MAX_SIZE
        return world.decoded, sections, limit
    label = world.notes.get("labels", {}).get(label, label)
    packets = world.notes.get("packets", {})
    assert label in packets, f"no packet of {label!r} was read; peek its queue first ('every message in ...')"
    return packets[label]


PACKET = r'(?:the returned packet|the packet of "(?P<label>[^"]*)")'


@then(parsers.re(rf"^{PACKET} follows every layout rule$"))
def follows_layout(world, label=None):
    decoded, _, _ = _packet(world, label)
    assert not decoded.violations, "the packet breaks layout rules:\n  " + "\n  ".join(decoded.violations)


def _yes(text: str) -> bool:
    assert text in ("yes", "no", "set", "clear"), f"write yes/no (or set/clear), not {text!r}"
    return text in ("yes", "set")


def _text_bytes(text: str) -> bytes:
    return b"" if text in ("", "empty", "none") else text.encode()


def _same_queue(actual: str, expected: str) -> bool:
    def normal(name: str) -> str:
        match = re.fullmatch(r"PRIVATE=([0-9a-f-]{36})\\([0-9a-f]{1,8})", name.lower())
        return f"private={match.group(1)}\\{int(match.group(2), 16)}" if match else name.lower()
    return normal(actual) == normal(expected)


def _expected_queue(world: World, text: str) -> str:
    if text in ("none", ""):
        return ""
    return expand(world, text) if "=" in text else world.queue(text)


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _check_field(world: World, decoded: DecodedMessage, field: str, text: str) -> None:
    """One row of `... shows:`; every branch says what was expected and what came back."""
    def same(actual, expected):
        assert actual == expected, f"{field}: the packet has {actual!r}, expected {expected!r}"

    if field == "label":
        same(decoded.label, expand(world, text))
    elif field == "LabelLength":
        same(_utf16_units(decoded.label) + 1 if decoded.label else 0, int(text))
    elif field == "body":
        same(decoded.body, _text_bytes(text))
    elif field == "MessageSize":
        same(decoded.body_size, int(text))
    elif field == "body bytes returned":
        same(len(decoded.body), int(text))
    elif field == "priority":
        same(decoded.priority, int(text))
    elif field == "delivery mode":
        same(decoded.delivery_mode, {"express": 0, "recoverable": 1}.get(text, None) if not text.isdigit()
             else int(text))
    elif field == "message class":
        same(decoded.message_class, value(text))
    elif field == "acknowledgements":
        same(decoded.acknowledgements & 0x0F, acknowledgements(text))
    elif field in ("destination queue", "admin queue", "response queue"):
        actual = getattr(decoded, field.replace(" ", "_"))
        expected = _expected_queue(world, text)
        assert _same_queue(actual, expected), f"{field}: the packet names {actual!r}, expected {expected!r}"
    elif field == "correlation id":
        same(bytes(decoded.correlation_id), text.encode().ljust(20, b"\0")[:20])
    elif field == "application tag":
        same(decoded.application_tag, value(text))
    elif field == "body type":
        same(decoded.body_type, value(text))
    elif field == "extension":
        same(bytes(decoded.extension), _text_bytes(text))
    elif field == "srmp":
        same(decoded.is_srmp, _yes(text))
    elif field == "srmp envelope":
        same(decoded.srmp_envelope, None if text == "none" else text)
    elif field == "compound message":
        same(decoded.compound_message, None if text == "none" else text.encode())
    elif field == "transactional":
        same(decoded.transactional, _yes(text))
    elif field == "subqueue name":
        same(decoded.subqueue_name, "" if text == "none" else text)
    elif field == "dead-letter path":
        same(decoded.deadletter_path_name, None if text == "none" else expand(world, text))
    elif field == "AcknowledgementClass":
        same(decoded.acknowledgement_class, value(text))
    elif field.startswith("UserHeader flag "):
        same(decoded.flags[field[len("UserHeader flag "):]], int(text))
    elif field.startswith("ExtensionHeader flag "):
        assert decoded.extension_header is not None, "the packet has no ExtensionHeader"
        same(decoded.extension_header[field[len("ExtensionHeader flag "):]], int(text))
    elif field == "source queue manager":
        assert text == "this queue manager", "write: source queue manager | this queue manager"
        same(decoded.source_queue_manager.bytes_le, world.target.queue_manager_identifier)
    else:
        raise KeyError(f"unknown packet field {field!r}")


@then(parsers.re(rf"^{PACKET} shows:$"))
def packet_shows(world, datatable, label=None):
    decoded, _, _ = _packet(world, label)
    for field, text in datatable:
        _check_field(world, decoded, field.strip(), text.strip())


# -- what the reader does not keep: a probe that notes raw fields while it walks --------------

class _Probe(_Decoder):
    """The suite's decoder, noting raw fields the DecodedMessage leaves out."""

    def __init__(self, data, gap):
        super().__init__(data, DecodedMessage(), gap)
        self.raw: dict = {}

    def base(self) -> int:
        self.raw["base flags"] = struct.unpack("<H", self.need(2, 2, "BaseHeader.Flags"))[0]
        return super().base()

    def user(self, o: int) -> int:
        self.raw["user flags"] = struct.unpack("<I", self.need(o + 44, 4, "UserHeader.Flags"))[0]
        self.raw["queue manager address"] = bytes(self.need(o + 16, 16, "UserHeader.QueueManagerAddress"))
        return super().user(o)

    def xact(self, o: int) -> int:
        self.raw["transaction flags"], self.raw["tx sequence id"], self.raw["tx number"], self.raw["tx previous"] = \
            struct.unpack("<I8sII", self.need(o, 20, "TransactionHeader"))
        return super().xact(o)

    def props(self, o: int) -> int:
        self.raw["properties flags"] = self.need(o, 1, "MessagePropertiesHeader.Flags")[0]
        return super().props(o)

    def mqf(self, o: int) -> int:
        self.raw["mqf destinations"] = self._mqf_list(o)
        return super().mqf(o)

    def subqueue(self, p: int) -> int:
        self.raw["subqueue header"] = bytes(self.need(p, 148, "SubqueueHeader"))
        return super().subqueue(p)

    def _mqf_list(self, o: int) -> list[str]:
        """The format names of an MQFAddressHeader's FormatNameList (MS-MQMQ 2.2.20.2, 2.2.18.1.4)."""
        size, _, count = struct.unpack("<IHxxI", self.need(o, 12, "MQFAddressHeader"))
        names, p, end = [], o + 12, o + size
        for _ in range(count):
            kind = struct.unpack("<H", self.need(p, 2, "MQFFormatNameElement"))[0]
            p += 2
            if kind in (1, 6):        # public, distribution list: a GUID on a 4-byte boundary
                p = o + align4(p - o)
                guid = uuid.UUID(bytes_le=bytes(self.need(p, 16, "MQFFormatNameElement GUID")))
                names.append(public_name(guid) if kind == 1 else f"DL={guid}")
                p += 16
            elif kind == 2:           # private: GUID and queue number, on a 4-byte boundary
                p = o + align4(p - o)
                raw = bytes(self.need(p, 20, "MQFFormatNameElement private name"))
                names.append(private_name(uuid.UUID(bytes_le=raw[:16]), struct.unpack("<I", raw[16:])[0]))
                p += 20
            elif kind == 3:           # direct: NUL-terminated UTF-16 on a 2-byte boundary
                p += p % 2
                chars = []
                while p + 2 <= end:
                    unit = bytes(self.need(p, 2, "MQFDirectQueueFormatName"))
                    p += 2
                    if unit == b"\0\0":
                        break
                    chars.append(unit)
                names.append(direct_name(b"".join(chars).decode("utf-16-le", "replace")))
            else:
                names.append(f"<FormatType {kind}>")
                break
        return names


def _raw(world: World, label: str | None) -> dict:
    decoded, sections, limit = _packet(world, label)
    pieces = check_records(list(sections), [])
    assert pieces, "no sections came back"
    first = pieces[0].data
    layout = _Decoder(first, DecodedMessage(), None).run()
    place = judge_split(pieces, layout, limit, limit, [])
    place = len(first) if place is None else max(place, len(first))
    tail = pieces[1].data if len(pieces) == 2 else b""
    gap = (len(first), place) if place > len(first) else None
    probe = _Probe(Spliced(first, place, tail), gap)
    probe.run()
    return probe.raw


BASE_BITS = {"IN": 0x0008, "SH": 0x0010, "DH": 0x0020, "TR": 0x0100}
RESERVED = {  # bits the senders leave clear (MS-MQMQ 2.2.19.1, 2.2.19.2, 2.2.19.3)
    "base flags": 0xFEC0,
    "user flags": (1 << 7) | (1 << 24) | (3 << 26) | (7 << 29),
    "properties flags": 0xF0,
}


@then(parsers.re(rf"^{PACKET} has BaseHeader flag (?P<bit>IN|SH|DH|TR) (?P<state>set|clear)$"))
def base_flag(world, bit, state, label=None):
    flags = _raw(world, label).get("base flags")
    assert flags is not None, "the packet has no BaseHeader"
    actual = bool(flags & BASE_BITS[bit])
    assert actual == (state == "set"), f"BaseHeader.Flags is 0x{flags:04X}: {bit} is {'set' if actual else 'clear'}"


@then(parsers.re(rf"^{PACKET} sets no reserved flag bit$"))
def no_reserved_bits(world, label=None):
    raw = _raw(world, label)
    for name, mask in RESERVED.items():
        assert name in raw, f"the packet has no {name}"
        assert not raw[name] & mask, f"{name} 0x{raw[name]:X} sets reserved bits 0x{raw[name] & mask:X}"


@then(parsers.re(rf"^{PACKET} has QueueManagerAddress (?P<what>.+)$"))
def queue_manager_address(world, what, label=None):
    decoded, _, _ = _packet(world, label)
    raw = _raw(world, label)["queue manager address"]
    if what == "equal to this queue manager's identifier":
        assert raw == world.target.queue_manager_identifier, \
            f"QueueManagerAddress is {uuid.UUID(bytes_le=raw)}, expected the queue manager " \
            f"{uuid.UUID(bytes_le=world.target.queue_manager_identifier)}"
        return
    assert what == "holding the sender's address", f"unknown QueueManagerAddress check {what!r}"
    length, kind, scope = struct.unpack_from("<HHI", raw)
    address = raw[8:16]
    assert kind in (1, 6), f"overlay AddressType is {kind}, not IP_ADDRESS_TYPE (1) or IPV6_ADDRESS_TYPE (6)"
    if kind == 1:
        assert scope == 0, f"overlay AddressScope is {scope} on an IPv4 address"
    full = {1: 4, 6: 16}[kind]
    assert length == min(full, 8), f"overlay AddressLength is {length}, expected {min(full, 8)} for type {kind}"
    extended = decoded.extended_address
    assert extended and extended["address_type"] == kind, \
        f"the ExtendedAddressHeader does not name the same kind of address ({extended})"
    assert address[:length] == bytes(extended["address"][:length]), \
        f"overlay Address {address[:length].hex()} is not the start of the sender's address " \
        f"{bytes(extended['address']).hex()}"


@then(parsers.re(rf"^{PACKET} has an ExtendedAddressHeader in the format of its AddressType$"))
def extended_address_format(world, label=None):
    decoded, _, _ = _packet(world, label)
    header = decoded.extended_address
    assert header is not None, "the packet has no ExtendedAddressHeader"
    kind, length, scope, address = (header["address_type"], header["address_length"], header["address_scope"],
                                    bytes(header["address"]))
    assert kind in (0, 1, 6), f"AddressType is {kind}"
    if kind == 1:
        assert length == 4 and scope == 0, f"an IPv4 address with AddressLength {length} and scope {scope}"
        assert not any(address[4:]), f"an IPv4 address has bytes after its 4: {address.hex()}"
    elif kind == 6:
        assert length == 16, f"an IPv6 address with AddressLength {length}"


@then(parsers.re(rf"^{PACKET} has TargetSubqueueName (?P<name>.+)$"))
def target_subqueue(world, name, label=None):
    header = _raw(world, label).get("subqueue header")
    assert header is not None, "the packet has no SubqueueHeader"
    field = header[84:148]
    if name == "all zeros":
        assert not any(field), f"TargetSubqueueName is {field!r}, expected all zeros"
        return
    expected = name.strip('"').encode("utf-16-le")
    assert field == expected.ljust(64, b"\0"), \
        f"TargetSubqueueName is {field.rstrip(bytes(1))!r}, expected {name} followed by zeros"


@then(parsers.re(rf"^{PACKET} has a TransactionHeader with:$"))
def transaction_header(world, datatable, label=None):
    raw = _raw(world, label)
    assert "transaction flags" in raw, "the packet has no TransactionHeader"
    flags = raw["transaction flags"]
    actual = {"FM": flags >> 2 & 1, "LM": flags >> 3 & 1, "CG": flags & 1,
              "TxSequenceNumber": raw["tx number"], "PreviousTxSequenceNumber": raw["tx previous"]}
    for field, text in datatable:
        field = field.strip()
        assert field in actual, f"unknown TransactionHeader field {field!r}; known: {', '.join(actual)}"
        assert actual[field] == value(text), f"TransactionHeader.{field} is {actual[field]}, expected {text.strip()}"


@then(_re(r"^the packets of {first} and {second} carry different TransactionHeader ids$",
          **_quoted("first", "second")))
def transaction_ids_differ(world, first, second):
    ids = []
    for label in (first, second):
        raw = _raw(world, label)
        assert "transaction flags" in raw, f"the packet of {label!r} has no TransactionHeader"
        ids.append(raw["transaction flags"] >> 4 & 0xFFFFF)
    assert ids[0] != ids[1], f"both transactions carry the TransactionHeader id 0x{ids[0]:05X}"


@then(parsers.re(r"^the packets of (?P<names>.+) carry one TxSequenceID$"))
def one_sequence(world, names):
    found = {}
    for label in labels(names):
        raw = _raw(world, label)
        assert "tx sequence id" in raw, f"the packet of {label!r} has no TransactionHeader"
        found[label] = raw["tx sequence id"].hex()
    assert len(set(found.values())) == 1, f"the TxSequenceIDs differ: {found}"


@then(parsers.re(r"^the packets of (?P<names>.+) come from this queue manager with distinct MessageIDs$"))
def message_identifiers(world, names):
    seen = {}
    for label in labels(names):
        decoded, _, _ = _packet(world, label)
        assert decoded.source_queue_manager.bytes_le == world.target.queue_manager_identifier, \
            f"{label!r} names {decoded.source_queue_manager} as its source, not this queue manager"
        assert decoded.message_id not in seen, \
            f"{label!r} and {seen.get(decoded.message_id)!r} share the MessageID {decoded.message_id}"
        seen[decoded.message_id] = label
        sent = world.sent.get(label)
        if sent is not None:
            expected = decoded.source_queue_manager.bytes_le + decoded.message_id.to_bytes(4, "little")
            assert bytes(sent.message_id) == expected, \
                f"the send of {label!r} reported identifier {bytes(sent.message_id).hex()}, " \
                f"its packet says {expected.hex()}"


@then(parsers.re(rf"^{PACKET} lists (?P<names>.+) as its destinations, if it has a MultiQueueFormatHeader$"))
def mqf_destinations(world, names, label=None):
    decoded, _, _ = _packet(world, label)
    if not decoded.flags.get("MQ"):
        return  # a copy may travel as a single-destination message (D-67)
    listed = _raw(world, label).get("mqf destinations", [])
    expected = [world.queue(alias) for alias in labels(names)]
    for name in expected:
        assert any(_same_queue(entry, name) for entry in listed), \
            f"the MultiQueueFormatHeader lists {listed}, without {name!r}"


@then(parsers.re(rf"^{PACKET} was sent about now$"))
def sent_about_now(world, label=None):
    import time
    decoded, _, _ = _packet(world, label)
    assert abs(decoded.sent_time - time.time()) < 15 * 60, \
        f"SentTime is {decoded.sent_time}, the test's clock says {int(time.time())}"


# -- acknowledgments ---------------------------------------------------------------------------

@then(_re(r"^an acknowledgment of class (?P<cls>\S+) for {label} is in {alias}$", **_quoted("label", "alias")))
def acknowledgment_present(world, cls, label, alias):
    """Some message of that class in the admin queue whose CorrelationID is the MessageIdentifier
    of the message (MS-MQMQ 2.2.19.3)."""
    expected = bytes(world.sent[label].message_id)
    found = world.messages(alias)
    classes = [(f"0x{m.message_class:04X}", bytes(m.correlation_id).hex()) for m in found]
    matching = [m for m in found if m.message_class == value(cls)]
    assert matching, f"{alias!r} holds no message of class {cls}; it holds (class, correlation id) {classes}"
    assert any(bytes(m.correlation_id) == expected for m in matching), \
        f"no {cls} in {alias!r} has the CorrelationID {expected.hex()} of {label!r}: {classes}"
    for message in matching:
        assert not message.violations, f"the acknowledgment breaks layout rules: {message.violations}"


@then(_re(r"^no acknowledgment for {label} is in {alias}$", **_quoted("label", "alias")))
def acknowledgment_absent(world, label, alias):
    expected = bytes(world.sent[label].message_id)
    found = [f"0x{m.message_class:04X}" for m in world.messages(alias) if bytes(m.correlation_id) == expected]
    assert not found, f"{alias!r} holds acknowledgments {found} for {label!r}"


# -- section buffers (MS-MQRR 2.2.6) -----------------------------------------------------------

@when(_re(r"^the client peeks at {handle} with at most (?P<limit>\d+) body bytes$", **_quoted("handle")))
def peek_with_limit(world, handle, limit):
    """R_StartReceive (peek current) with dwMaxBodySize = dwMaxCompoundMessageSize = limit."""
    limit = int(limit)
    world.max_body = limit
    out = world.target.start_receive(world.handle(handle), 0, 0, value("MQ_ACTION_PEEK_CURRENT"), 0,
                                     world.request_id(), limit, limit)
    world.record(out)
    world.max_body = MAX_SIZE
    world.notes["read limit"] = (out, limit)


def _sections(world: World) -> tuple:
    assert world.status == HRESULT.MQ_OK, f"the read failed: {describe_hresult(world.status)}"
    return tuple(world.last.pp_packet_sections)


@then(parsers.re(r"^the message came back in (?P<count>\d+) sections?$"))
def section_count(world, count):
    sections = _sections(world)
    assert len(sections) == int(count), \
        f"{len(sections)} sections came back ({[s.section_buffer_type for s in sections]}), expected {count}"


@then(parsers.re(r"^section (?P<index>\d+) is an? (?P<kind>st\w+)$"))
def section_type(world, index, kind):
    section = _sections(world)[int(index) - 1]
    assert section.section_buffer_type == SECTION_TYPES[kind], \
        f"section {index} has SectionBufferType {section.section_buffer_type}, expected {kind}"


@then(parsers.re(r"^section (?P<index>\d+) has SectionSizeAlloc (?P<relation>equal to|at least) its SectionSize$"))
def section_alloc(world, index, relation):
    section = _sections(world)[int(index) - 1]
    alloc, size = section.section_size_alloc, section.section_size
    ok = alloc == size if relation == "equal to" else alloc >= size
    assert ok, f"section {index}: SectionSizeAlloc {alloc}, SectionSize {size}; expected alloc {relation} size"


@then(r"every section's SectionSize is the length of its buffer")
def section_sizes(world):
    for index, section in enumerate(_sections(world), 1):
        data = section.p_section_buffer or b""
        assert section.section_size == len(data), \
            f"section {index}: SectionSize {section.section_size}, buffer of {len(data)} bytes"


@then(r"the single section holds the whole packet")
def whole_packet(world):
    sections = _sections(world)
    assert len(sections) == 1, f"{len(sections)} sections came back"
    section = sections[0]
    packet_size = struct.unpack_from("<I", section.p_section_buffer, 8)[0]
    assert section.section_size_alloc == section.section_size == len(section.p_section_buffer) == packet_size, \
        f"SectionSizeAlloc {section.section_size_alloc}, SectionSize {section.section_size}, " \
        f"buffer {len(section.p_section_buffer)} bytes, BaseHeader.PacketSize {packet_size}"


@then(r"the first section's SectionSizeAlloc counts the part of the body that was not sent")
def first_alloc_counts_unsent(world):
    """SectionSizeAlloc - SectionSize is the unsent body (compound message for SRMP), give or take
    the 0-3 bytes that pad the header it ends (MS-MQRR 2.2.6, D-61)."""
    first = _sections(world)[0]
    decoded = world.decoded
    if decoded.is_srmp:
        total, sent = _compound_size(world), len(decoded.compound_message or b"")
    else:
        total, sent = decoded.body_size, len(decoded.body)
    unsent = total - sent
    extra = first.section_size_alloc - first.section_size - unsent
    assert 0 <= extra <= 3, \
        f"SectionSizeAlloc {first.section_size_alloc} - SectionSize {first.section_size} = " \
        f"{first.section_size_alloc - first.section_size}, but {unsent} bytes of the body were not sent"


def _compound_size(world: World) -> int:
    """HTTPBodySize of the CompoundMessageHeader: the full size, even when only part came back."""
    sent = world.sent.get(world.decoded.label)
    assert sent is not None, "the message was not sent by this scenario"
    out = world.target.read_queue(sent.format_name)
    for message in out.messages:
        whole = read_sections(message.pp_packet_sections, MAX_SIZE, MAX_SIZE)
        if whole.label == world.decoded.label:
            return len(whole.compound_message or b"")
    raise AssertionError(f"{world.decoded.label!r} is no longer in its queue")
