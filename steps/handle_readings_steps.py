"""Checks for open decisions about queue handles that hold under one reading only (spec/decisions.md).

Where R_OpenQueue may refuse a value one reading accepts (D-42 refuse-unknown, D-73
refuse-unknown), a scenario records the reading from the open's status and checks what
the handle does only where it was opened, through `where` (steps/wait_readings_steps.py):

    Then by D-42 the call returns MQ_OK (any-is-peek) or MQ_ERROR_INVALID_PARAMETER (refuse-unknown)
    And where D-42 is any-is-peek, a purge through "h" is refused with STATUS_ACCESS_DENIED
"""

from __future__ import annotations

from mqspec.protocol.hresult import describe as describe_hresult

from .values import hresult
from .world import World


def purge_refused(world: World, handle: str, status: str) -> None:
    """R_PurgeQueue through `handle` returns `status` (MS-MQRR 3.1.4.6:04: only a ReceiveAccess handle purges)."""
    world.record(world.target.purge_queue(world.handle(handle)))
    assert world.status_is(hresult(status)), \
        f"a purge through {handle!r} returned {describe_hresult(world.status)}, expected {status}"
