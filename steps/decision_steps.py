"""Steps for what an open decision of spec/decisions.md leaves to the server.

Where the specifications allow more than one reading, a scenario accepts each and
records the one the target showed (`World.observe`), so a conforming server is never
failed for a choice the texts leave it, and the run's profile says which it made:

    Then by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or MQ_ERROR_IO_TIMEOUT (msdn)
    Then by D-44 the call returns MQ_ERROR_INVALID_HANDLE (invalid-handle) or any other failure (other-failure)

Each alternative is a status and, in brackets, the reading it shows; "any other
failure" stands for every failing status the others do not name.  The names are
checked against the catalogue by tests/test_catalogue.py.
"""

from __future__ import annotations

import re

from pytest_bdd import then

from mqspec.protocol.hresult import describe as describe_hresult

from .phrases import phrase
from .values import hresult
from .world import World

ALTERNATIVE = re.compile(r"(?P<status>\w+|any other failure) \((?P<reading>[a-z0-9+-]+)\)")
ALTERNATIVES = r"\w+ \([a-z0-9+-]+\)(?: or (?:\w+|any other failure) \([a-z0-9+-]+\))+"


def parse_alternatives(text: str) -> list[tuple[str, str]]:
    return [(match.group("status"), match.group("reading")) for match in ALTERNATIVE.finditer(text)]


@then(phrase("by {decision} the call returns {alternatives}", decision=r"D-\d\d", alternatives=ALTERNATIVES))
def by_decision(world: World, decision, alternatives):
    options = parse_alternatives(alternatives)
    for status, reading in options:
        if status != "any other failure" and world.status_is(hresult(status)):
            world.observe(decision, reading)
            return
    for status, reading in options:
        if status == "any other failure" and world.failed():
            world.observe(decision, reading)
            return
    raise AssertionError(f"got {describe_hresult(world.status)}; {decision} allows {alternatives}")
