"""Steps for open decisions about how a server writes the packets it returns (spec/decisions.md).

MS-MQMQ 2.2.19.2 says what each queue-type code of the UserHeader means, but not which
one a writer picks when several designate the same queue (D-63): a private queue of this
queue manager may be written by number on the source host (2), on the destination host
(3), on the administration queue's host (RQ 4), or by its full name (6).  A scenario
checks that the field names the right queue (`the returned packet shows:`, which
resolves every code), and this step records the encoding the target chose:

    Then by D-63 the returned packet has UserHeader flag AQ 2 (reference-encoding) or another code (other-encoding)

MS-MQRR 3.1.4.7 rewrites BaseHeader.TimeToReachQueue as SentTime plus the relative value,
in a 4-byte field, with no rule for a sum that overflows or for the infinite value (D-64):
the server keeps it from wrapping (0xFFFFFFFF stays, a larger sum is 0xFFFFFFFE) or lets
the sum wrap modulo 2^32:

    Then by D-64 the returned BaseHeader.TimeToReachQueue is INFINITE (saturate) or SentTime + INFINITE
        modulo 2^32 (wrap)
    Then by D-64 the acknowledgment's time to reach queue is INFINITE (saturate) or SentTime + INFINITE
        modulo 2^32 (wrap)
"""

from __future__ import annotations

from pytest_bdd import then

from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .packet_reader import DecodedMessage
from .phrases import phrase
from .values import number
from .world import World

READING = r"[a-z0-9+-]+"
TTRQ_CHOICES = ("{saturated} ({one}) or SentTime + {relative} modulo 2^32 ({other})",
                {"decision": r"D-\d\d", "saturated": r"\w+", "relative": r"\w+", "one": READING, "other": READING})


def _time_to_reach_queue(world: World, message: DecodedMessage, decision, saturated, one, relative, other) -> None:
    """The absolute TimeToReachQueue of `message` is `saturated` (the first reading) or the wrapped sum."""
    wrapped = (message.sent_time + number(relative)) & 0xFFFFFFFF
    fitting = [reading for reading, value in ((one, number(saturated)), (other, wrapped))
               if value == message.time_to_reach_queue]
    assert fitting, (f"BaseHeader.TimeToReachQueue is 0x{message.time_to_reach_queue:08X} (SentTime "
                     f"{message.sent_time}); {decision} allows {saturated} ({one}) or 0x{wrapped:08X} ({other})")
    if len(fitting) == 1:
        world.observe(decision, fitting[0])


@then(phrase("by {decision} the returned packet has UserHeader flag {field} {code:d} ({reading}) "
             "or another code ({other})", decision=r"D-\d\d", field="DQ|AQ|RQ", reading=READING, other=READING))
def queue_code_by_decision(world: World, decision, field, code, reading, other):
    """The code of one queue field of the last message read: `code` shows the first reading, any other the
    second (whether that code is defined and names the same queue is for `the returned packet shows:`)."""
    assert world.status == HRESULT.MQ_OK and world.decoded is not None, \
        f"no message came back: {describe_hresult(world.status)}"
    world.observe(decision, reading if world.decoded.flags[field] == code else other)


@then(phrase("by {decision} the returned BaseHeader.TimeToReachQueue is " + TTRQ_CHOICES[0], **TTRQ_CHOICES[1]))
def returned_time_to_reach_queue(world: World, decision, saturated, one, relative, other):
    """The first section of the message the last call returned (MS-MQRR 3.1.4.7, D-64)."""
    assert world.status == HRESULT.MQ_OK and world.decoded is not None, \
        f"no message came back: {describe_hresult(world.status)}"
    _time_to_reach_queue(world, world.decoded, decision, saturated, one, relative, other)


@then(phrase("by {decision} the acknowledgment's time to reach queue is " + TTRQ_CHOICES[0], **TTRQ_CHOICES[1]))
def acknowledgment_time_to_reach_queue(world: World, decision, saturated, one, relative, other):
    """An acknowledgment never expires (MS-MQQB 3.1.7.15), but read through MS-MQRR its infinite
    TimeToReachQueue is rewritten as an absolute time like any other (3.1.4.7, D-64)."""
    message = world.notes.get("acknowledgment")
    assert message is not None, "no acknowledgment was found by an earlier step"
    _time_to_reach_queue(world, message, decision, saturated, one, relative, other)
