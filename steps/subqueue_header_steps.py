"""Steps that read the SubqueueHeader of the message a call returned (MS-MQRR 2.2.5.3), decoded by the suite's
own packet reader: how often the message was moved and aborted, and when it was last moved."""

from __future__ import annotations

from pytest_bdd import then

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .phrases import phrase

COUNTERS = {"MoveCount": "move_counter", "AbortCount": "abort_counter", "LastMoveTime": "last_move_time"}


@then(phrase("the returned message's SubqueueHeader has {counter} {count:d}", counter="|".join(COUNTERS)))
def subqueue_counter(world, counter, count):
    actual = getattr(_returned(world), COUNTERS[counter])
    assert actual == count, f"SubqueueHeader.{counter} of {world.decoded.label!r} is {actual}, expected {count}"


@then(phrase("the returned message's SubqueueHeader has a LastMoveTime other than 0"))
def moved_at_some_time(world):
    decoded = _returned(world)
    assert decoded.last_move_time != 0, f"SubqueueHeader.LastMoveTime of {decoded.label!r} is 0"


def _returned(world):
    """The message the last call returned, decoded; fails the step if it returned none."""
    assert world.status == HRESULT.MQ_OK and world.decoded is not None, \
        f"the call returned {describe_hresult(world.status)}, not a message"
    return world.decoded
