"""Steps that put a message exactly on a boundary: a quota it fills to the byte, a deadline it meets to the
second, an arrival time that differs from its SentTime.

The target's own numbers are learnt from the target, never assumed: a message's size is its packet's
BaseHeader.PacketSize as the target returns it (D-07: quotas count the packet size), and the target's
clock is read from the SentTime it stamps on a message sent without one.  Both are learnt through a
queue of the scenario's own, `<alias>-probe` with a name as long as the real one, so that the probe's
packet has the same layout and the queue being tested holds only what the scenario sends to it.
"""

from __future__ import annotations

from pytest_bdd import given, then, when

from mqspec.adapters import MessageProperties
from mqspec.protocol.hresult import HRESULT, describe as describe_hresult

from .packet_reader import read_sections
from .phrases import phrase
from .setup_steps import make_queue, send
from .world import MAX_SIZE, World

PROBE_BODY = 100  # bytes: any length whose MessagePropertiesHeader needs no padding (see _exact_body)


def _probe_queue(world: World, alias: str) -> str:
    """A helper queue whose format name has the same length as `alias`'s, created once per scenario."""
    probe = world.notes.get(("probe queue", alias))
    if probe is None:
        probe = alias[:-1] + ("y" if alias.endswith("x") else "x")   # same length, so the same packet layout
        make_queue(world, probe)
        world.notes[("probe queue", alias)] = probe
    return probe


def _sent_and_read_back(world: World, alias: str, props: MessageProperties):
    """Send `props` to the helper queue of `alias`; the decoded packet of what it holds last, and the probe gone."""
    probe = _probe_queue(world, alias)
    out = world.target.send(world.queue(probe), props)
    assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0), \
        f"the probe message could not be sent: {describe_hresult(out.hresult)}, status {out.r_status}"
    listed = world.target.read_queue(world.queue(probe))
    assert listed.hresult == HRESULT.MQ_OK and listed.messages, "the probe message cannot be read back"
    decoded = read_sections(listed.messages[-1].pp_packet_sections, MAX_SIZE, MAX_SIZE)
    status = world.target.delete_queue(world.queue(probe))   # the probe counts against no quota after this
    assert status == HRESULT.MQ_OK, f"deleting the probe queue: {describe_hresult(status)}"
    world.notes.pop(("probe queue", alias))
    return decoded


def _exact_body(world: World, alias: str, label: str, size: int) -> bytes:
    """A body that should give a message labelled `label`, sent to `alias`, a packet of exactly `size` bytes:
    a probe's packet size plus what is missing, byte for byte (the body's padding is the same for both when
    `size` is a multiple of 4).  Only one probe: a second of the exact size could itself be refused by the
    quota under test; `send_exact_size` checks the packet the real message got instead."""
    decoded = _sent_and_read_back(world, alias, MessageProperties(label=label, body=bytes(PROBE_BODY)))
    body = PROBE_BODY + size - decoded.packet_size
    assert body >= 0, f"a message labelled {label!r} takes {decoded.packet_size} bytes even with a short body"
    return bytes(body)


@given(phrase('message "{label}" whose packet is exactly {size:d} bytes is sent to "{alias}"'))
@when(phrase('message "{label}" whose packet is exactly {size:d} bytes is sent to "{alias}"'))
def send_exact_size(world, label, size, alias):
    """D-07 a message's size is its packet size: the packet the target itself returns for it."""
    out = send(world, alias, MessageProperties(label=label, body=_exact_body(world, alias, label, size)))
    if out.hresult == HRESULT.MQ_OK and out.r_status == 0:
        listed = world.target.read_queue(world.queue(alias))
        got = [decoded.packet_size for decoded in
               (read_sections(m.pp_packet_sections, MAX_SIZE, MAX_SIZE) for m in listed.messages)
               if decoded.label == label]
        assert got == [size], f"{label!r} was meant to take exactly {size} bytes; its packet has {got}"


def _target_now(world: World, alias: str) -> int:
    """The target's current time in seconds since 1970: the SentTime it stamps on a message sent without one.

    Needs virtual time: on a real clock the second could turn between this probe and the send that uses it."""
    world.require("virtual_time")
    return _sent_and_read_back(world, alias, MessageProperties(label="clock probe")).sent_time


@given(phrase('message "{label}" reaches "{alias}" at the very second its time to reach the queue of '
              '{seconds:d} seconds runs out'))
@when(phrase('message "{label}" reaches "{alias}" at the very second its time to reach the queue of '
             '{seconds:d} seconds runs out'))
def send_at_deadline(world, label, alias, seconds):
    """SentTime + TimeToReachQueue equals the target's current time: the deadline is reached, not passed."""
    now = _target_now(world, alias)
    send(world, alias, MessageProperties(label=label, sent_time=now - seconds, time_to_reach_queue=seconds))


@then(phrase('the arrival time returned is {seconds:d} seconds after the SentTime of "{label}"'))
def arrival_after_sent_time(world, seconds, label):
    """MS-MQRR:3.1.4.7:08 pdwArriveTime is when the message entered the queue, whatever SentTime says."""
    assert world.status == HRESULT.MQ_OK and world.decoded is not None, \
        f"the call returned {describe_hresult(world.status)}, not a message"
    assert world.decoded.label == label, f"the call returned {world.decoded.label!r}, not {label!r}"
    gap = world.last.pdw_arrive_time - world.decoded.sent_time
    # "N seconds ago" is read on the suite's clock, the arrival on the target's: they may differ by seconds
    assert seconds - 10 <= gap <= seconds + 10, \
        f"pdwArriveTime is {gap} s after the SentTime of {label!r}, expected {seconds} s (when it arrived)"
