"""Checks that the outputs of a call, failed or not, are something its reply can carry.

MS-MQRR lets the client ignore the outputs of a failed call (3.1.4.4:03, 3.1.4.7:15), but the
reply still carries them: ppPacketSections is sized by pdwNumberOfSections (3.1.4.7:10, the
IDL's size_is) and every value has its IDL type.  A server whose outputs break that cannot
return its failure as the method's value (3.1.4.7:32): the RPC layer faults instead.
"""

from __future__ import annotations

import re

from pytest_bdd import then

from .phrases import named
from .world import World


@then("the outputs fit the reply: pdwNumberOfSections counts ppPacketSections, pdwArriveTime is a DWORD "
      "and pSequenceId a ULONGLONG")
def outputs_fit_the_reply(world: World):
    out = world.last
    sections = getattr(out, "pp_packet_sections", None)
    assert sections is not None, "the last call was not a Start*Receive"
    assert out.pdw_number_of_sections == len(sections), \
        f"pdwNumberOfSections is {out.pdw_number_of_sections} but {len(sections)} sections came back"
    assert 0 <= out.pdw_arrive_time < 1 << 32, f"pdwArriveTime {out.pdw_arrive_time} is not a DWORD"
    assert 0 <= out.p_sequence_id < 1 << 64, f"pSequenceId {out.p_sequence_id} is not a ULONGLONG"


@then("the phCursor returned fits a DWORD")
def cursor_output_fits(world: World):
    out = world.last
    assert hasattr(out, "ph_cursor"), "the last call was not R_CreateCursor"
    assert 0 <= out.ph_cursor < 1 << 32, f"phCursor {out.ph_cursor} is not a DWORD"


@then(named(r"^the move contexts? of (?P<names>.+) fits? a ULONGLONG$"))
def move_contexts_fit(world: World, names):
    for handle in re.findall(r'"([^"]+)"', names):
        value = world.move_contexts[handle]
        assert 0 <= value < 1 << 64, f"pMoveContext {value:#x} of {handle!r} is not a ULONGLONG"


@then(named(r"^{handle} is a 20-byte context handle$"))
def twenty_byte_handle(world: World, handle):
    """An RPC context handle travels as 20 bytes: 4 of attributes and a 16-byte UUID ([C706] 14.3.3)."""
    context = world.handle(handle)
    assert len(context) == 20, f"{handle!r} is {len(context)} bytes long, not the 20 of a context handle"
