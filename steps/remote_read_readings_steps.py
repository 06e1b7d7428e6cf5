"""Steps for open decisions of the MS-MQRR methods whose readings one status cannot tell apart.

`Then by D-NN the call returns ...` (steps/decision_steps.py) records a reading from
one status.  Some readings of spec/decisions.md show the same status and differ only
later: D-69's `as-started` and `literal` both accept an R_EndReceive of a
transactional receive, and only the abort shows whether the message came back.  The
steps here narrow a set of candidates instead: each alternative names the readings
it fits, and the target's reading is recorded (`World.observe`) once one is left.

    Then by D-69 the call returns MQ_ERROR_TRANSACTION_USAGE (refuse) or MQ_OK (as-started, literal)
    Then by D-69 "ledger" holds "m1", "m2" and "m3" (refuse, as-started) or "m2" and "m3" (literal)

A scenario fails when nothing the target did fits any reading, or when its steps
leave no reading standing.  `world.status_is` keeps the RPC runtime's refusals of the
wire (steps/observed.py) counting as the status they stand for.
"""

from __future__ import annotations

import re

from pytest_bdd import then

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .phrases import LABELS, phrase
from .values import hresult, labels
from .world import World

READINGS = r"[a-z0-9+-]+(?:, [a-z0-9+-]+)*"
STATUS_ALTERNATIVE = re.compile(rf"(?P<status>\w+|any other failure) \((?P<readings>{READINGS})\)")
# at least one alternative names two readings: single-reading lists are decision_steps' sentence
STATUS_ALTERNATIVES = (rf"(?=.*\([a-z0-9+-]+, )(?:\w+|any other failure) \({READINGS}\)"
                       rf"(?: or (?:\w+|any other failure) \({READINGS}\))+")
HOLDS_ALTERNATIVE = re.compile(rf"(?P<names>{LABELS}) \((?P<readings>{READINGS})\)")
HOLDS_ALTERNATIVES = rf"(?:{LABELS}) \({READINGS}\)(?: or (?:{LABELS}) \({READINGS}\))+"
LABEL_ALTERNATIVE = re.compile(rf'"(?P<label>[^"]*)" \((?P<readings>{READINGS})\)')
LABEL_ALTERNATIVES = rf'"[^"]*" \({READINGS}\)(?: or "[^"]*" \({READINGS}\))+'


def narrow(world: World, decision: str, readings: set[str]) -> None:
    """What the target did fits only `readings` of `decision`: keep those that every step so far allows, and
    record the reading once one is left (spec/decisions.md, `World.observe`)."""
    candidates = world.notes.setdefault("candidate readings", {})
    left = candidates.get(decision, set(readings)) & readings
    seen = world.readings.get(decision)
    if seen is not None:
        left &= {seen}
    assert left, (f"{decision}: what the target did fits {sorted(readings)}, but its earlier steps allowed only "
                  f"{sorted(candidates.get(decision, {seen}))}")
    candidates[decision] = left
    if len(left) == 1 and seen is None:
        world.observe(decision, next(iter(left)))


def _readings(text: str) -> set[str]:
    return set(text.split(", "))


@then(phrase("by {decision} the call returns {alternatives}", decision=r"D-\d\d", alternatives=STATUS_ALTERNATIVES))
def by_decision_narrowing(world: World, decision, alternatives):
    options = [(match.group("status"), _readings(match.group("readings")))
               for match in STATUS_ALTERNATIVE.finditer(alternatives)]
    for status, readings in options:
        if status != "any other failure" and world.status_is(hresult(status)):
            narrow(world, decision, readings)
            return
    for status, readings in options:
        if status == "any other failure" and world.failed():
            narrow(world, decision, readings)
            return
    raise AssertionError(f"got {describe_hresult(world.status)}; {decision} allows {alternatives}")


@then(phrase("by {decision} the message returned is {alternatives}", decision=r"D-\d\d",
             alternatives=LABEL_ALTERNATIVES))
def by_decision_message(world: World, decision, alternatives):
    assert world.status == HRESULT.MQ_OK and world.decoded is not None, \
        f"no message came back: {describe_hresult(world.status)}"
    fitting: set[str] = set()
    for match in LABEL_ALTERNATIVE.finditer(alternatives):
        if match.group("label") == world.decoded.label:
            fitting |= _readings(match.group("readings"))
    assert fitting, f"got {world.decoded.label!r}; {decision} allows {alternatives}"
    narrow(world, decision, fitting)


@then(phrase('by {decision} "{alias}" holds {alternatives}', decision=r"D-\d\d", alternatives=HOLDS_ALTERNATIVES))
def by_decision_holds(world: World, decision, alias, alternatives):
    actual = world.labels(alias)
    fitting: set[str] = set()
    for match in HOLDS_ALTERNATIVE.finditer(alternatives):
        if labels(match.group("names")) == actual:
            fitting |= _readings(match.group("readings"))
    assert fitting, f"{alias!r} holds {actual}; {decision} allows {alternatives}"
    narrow(world, decision, fitting)
