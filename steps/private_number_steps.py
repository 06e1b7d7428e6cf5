"""Steps that probe the private queue numbers a target hands out (MS-MQMQ 2.1.4, MS-MQDMPR 3.1.1.2)."""

from __future__ import annotations

import re
import uuid

import pytest
from pytest_bdd import then

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult
from mqspec.protocol.queue_format import from_format_name as queue_format

from .packet_reader import read_sections
from .blame import clause_failure
from .phrases import named, phrase
from .values import number
from .world import MAX_SIZE, World

PRIVATE_NAME = re.compile(r"PRIVATE=[0-9A-Fa-f-]{36}\\([0-9A-Fa-f]{1,8})", re.IGNORECASE)
MOST_PROBES = 64  # more numbers than this between two queues created in a row: the target numbers sparsely


def _private_number(world: World, alias: str) -> int:
    match = PRIVATE_NAME.fullmatch(world.queue(alias))
    if match is None:
        pytest.skip(f"not run: {world.target.name} named {alias!r} {world.queue(alias)!r}, not with a PRIVATE= name")
    return int(match.group(1), 16)


@then(named(r"no private format name numbered from that of {first} to that of {last} opens the queue holding "
            r"{label}"))
def no_private_name_opens(world: World, first, last, label):
    """Peeks (never receives: other queues may hold those numbers) through every PRIVATE= name whose number lies
    between the two private queues'; none may show `label`, the message of a public queue created between them,
    since PrivateQueueNumber belongs to private queues only (MS-MQDMPR 3.1.1.2, MS-MQMQ:2.1.4:01)."""
    low, high = sorted((_private_number(world, first), _private_number(world, last)))
    if high - low > MOST_PROBES:
        pytest.skip(f"not run: {high - low} queue numbers lie between {first!r} and {last!r} (at most {MOST_PROBES})")
    host = uuid.UUID(bytes_le=world.target.queue_manager_identifier)
    for queue_number in range(low, high + 1):
        name = f"PRIVATE={host}\\{queue_number:08x}"
        opened = world.target.open_queue(queue_format(name), number("PEEK_ACCESS"), number("MQ_DENY_NONE"))
        if opened.hresult != HRESULT.MQ_OK:
            continue
        try:
            out = world.target.start_receive(opened.pph_context, 0, 0, number("MQ_ACTION_PEEK_CURRENT"), 0,
                                             world.request_id(), MAX_SIZE, MAX_SIZE)
            shown = (read_sections(out.pp_packet_sections, MAX_SIZE, MAX_SIZE).label
                     if out.hresult == HRESULT.MQ_OK and out.pp_packet_sections else describe_hresult(out.hresult))
        finally:
            world.target.close_queue(opened.pph_context)
        assert shown != label, f"{name} opens the public queue holding {label!r}"


ORDER_QUEUE_NUMBER = "MS-MQQB:2.2.4:02"


@then(phrase("no private queue of the scenario has the number 4, the order queue's"))
def no_queue_numbered_4(world: World):
    """MS-MQQB 2.2.4 / 2.2.5 address a queue manager's order queue as private queue 4 (D-100): an application queue
    with that number would take the peers' acknowledgments' address.  Judged on the queues a target names by
    PRIVATE= format names; one that names them otherwise is not run."""
    numbered = {alias: PRIVATE_NAME.fullmatch(name) for alias, name in world.queues.items()}
    numbered = {alias: int(match.group(1), 16) for alias, match in numbered.items() if match}
    if not numbered:
        pytest.skip(f"not run: {world.target.name} names none of the scenario's queues with a PRIVATE= name")
    four = [alias for alias, queue_number in numbered.items() if queue_number == 4]
    if four:
        raise clause_failure(f"{four[0]!r} is private queue 4, the order queue's number ({ORDER_QUEUE_NUMBER})",
                             ORDER_QUEUE_NUMBER)
