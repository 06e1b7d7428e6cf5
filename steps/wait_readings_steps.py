"""Steps for open decisions about reads that wait and reads through cursors (spec/decisions.md).

Several readings leave a waiting read to its own time-out where the reference ends it at
once (D-13 times-out, D-14 times-out, D-18 untagged, D-31 tagged-only).  Such a
scenario gives the read a finite time-out and accepts both endings, moving the
target's clock (virtual time) when the read is still waiting, so it never hangs:

    Then by D-14 the background call "r" ends with MQ_ERROR_OPERATION_CANCELLED (cancelled) at once,
        or with MQ_ERROR_IO_TIMEOUT when its 3000 ms have passed (times-out)

A read that finds a message under one reading and nothing under another:

    Then by D-11 the message returned is "later" (end-sees-arrivals) or the call fails (parked-end)

and a check that holds only under one reading, once the target has shown it:

    And where D-11 is parked-end, by D-03 the call returns MQ_ERROR_MESSAGE_NOT_FOUND (dmpr) or ...
    And where D-17 is own-handle, the background call "w" is still waiting

A scenario still fails when the target does what no reading allows.
"""

from __future__ import annotations

import re

from pytest_bdd import then

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .decision_steps import ALTERNATIVES, by_decision
from .event_steps import still_waiting
from .handle_readings_steps import purge_refused
from .handle_steps import usable_handle
from .phrases import phrase
from .receive_steps import call_returns
from .values import hresult
from .world import World

READING = r"[a-z0-9+-]+"
STATUSES = rf"\w+ \({READING}\)(?: or \w+ \({READING}\))*"
STATUS_READING = re.compile(rf"(?P<status>\w+) \((?P<reading>{READING})\)")
AT_ONCE_SECONDS = 2.0  # how long a read ended "at once" may take to come back, on any target


@then(phrase('by {decision} the background call "{request}" ends with {alternatives} at once, or with {status} '
             'when its {ms:d} ms have passed ({reading})',
             decision=r"D-\d\d", alternatives=STATUSES, status=r"\w+", reading=READING))
def ends_at_once_or_at_its_time_out(world: World, decision, request, alternatives, status, ms, reading):
    """The read ends at once with one of `alternatives`, or keeps waiting until its own time-out (`ms`, which
    the scenario gave it) and then ends with `status`; the target's clock is moved on to get there."""
    job = world.background[request]
    job.thread.join(timeout=max(AT_ONCE_SECONDS, 20 * world.target.settle_seconds))
    if not job.thread.is_alive():
        world.record(job.result)
        for match in STATUS_READING.finditer(alternatives):
            if world.status_is(hresult(match.group("status"))):
                world.observe(decision, match.group("reading"))
                return
        raise AssertionError(f"{request!r} ended at once with {describe_hresult(world.status)}; {decision} allows "
                             f"{alternatives} at once, or {status} after {ms} ms")
    if "virtual_time" in world.target.capabilities:
        world.target.elapse(ms)
        job.thread.join(timeout=10)
    else:
        job.thread.join(timeout=ms / 1000 + 10)
    assert not job.thread.is_alive(), f"{request!r} still waits after its time-out of {ms} ms"
    world.record(job.result)
    assert world.status_is(hresult(status)), \
        f"{request!r} ended at its time-out with {describe_hresult(world.status)}; {decision} ({reading}) says {status}"
    world.observe(decision, reading)


@then(phrase('by {decision} the message returned is "{label}" ({reading}) or the call fails ({other})',
             decision=r"D-\d\d", reading=READING, other=READING))
def message_or_failure(world: World, decision, label, reading, other):
    """A message under one reading, a failure (no message) under the other; a `where` step can then say which."""
    if world.status == HRESULT.MQ_OK:
        assert world.decoded is not None and world.decoded.label == label, \
            f"got {world.decoded.label if world.decoded else 'no message'!r}; {decision} ({reading}) says {label!r}"
        world.observe(decision, reading)
        return
    assert world.failed(), f"got {describe_hresult(world.status)}; {decision} allows {label!r} or a failure"
    assert not getattr(world.last, "pp_packet_sections", None), "a failed call still returned a message"
    world.observe(decision, other)


# what may follow `where D-NN is reading, `: a check that holds under that reading only
WHERE = [
    (re.compile(rf"by (?P<decision>D-\d\d) the call returns (?P<alternatives>{ALTERNATIVES})"), by_decision),
    (re.compile(r"the call returns (?P<status>\w+)"), call_returns),
    (re.compile(r'the background call "(?P<request>[^"]*)" is still waiting'), still_waiting),
    (re.compile(r'"(?P<handle>[^"]*)" is a usable queue handle'), usable_handle),
    (re.compile(r'a purge through "(?P<handle>[^"]*)" is refused with (?P<status>\w+)'), purge_refused),
]


@then(phrase("where {decision} is {reading}, {check}", decision=r"D-\d\d", reading=READING))
def where(world: World, decision, reading, check):
    """`check` applies when the target showed `reading` of `decision`; it must have shown one by now."""
    seen = world.readings.get(decision)
    assert seen is not None, f"no earlier step showed the target's reading of {decision}"
    for pattern, step in WHERE:
        match = pattern.fullmatch(check)
        if match:
            if seen == reading:
                step(world, **match.groupdict())
            return
    raise KeyError(f"'where {decision} is ...' cannot check {check!r}")
