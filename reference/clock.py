"""Injected time for the reference core.

The core never reads the system clock: every event takes time from a Clock, so
timers (waiting reads, Time To Be Received, pending request clean-up) run in
virtual time in tests.  Times are integers in milliseconds since 1970-01-01 UTC;
MSMQ attributes in seconds (ArrivalTime, SentTime) are derived from them.
"""

from __future__ import annotations

from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds since 1970-01-01 00:00:00 UTC; never goes backwards."""


class VirtualClock:
    """A clock that moves only when told to."""

    def __init__(self, start_ms: int = 1_700_000_000_000) -> None:
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def advance(self, ms: int) -> None:
        if ms < 0:
            raise ValueError("a clock cannot go backwards")
        self._now += ms
