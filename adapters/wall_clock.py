"""The adapters' clock: a queue manager's time that can follow the wall clock or be held.

The reference never reads time itself (reference/clock.py): whoever hosts it gives it a clock.
`WallClock` is the one the in-process target gives it.  It is in one of two states:

=========  =====================================  ===============================  ==========================
state      now_ms()                               advance(ms)                      hold() / release()
=========  =====================================  ===============================  ==========================
HELD       the value it was held at               moves the held value ms ahead    hold: stays; release:
           (virtual time: nothing else moves it)                                   RUNNING from that value
RUNNING    the wall clock + offset (real time)    adds ms to the offset            hold: HELD at now_ms();
                                                                                   release: stays
=========  =====================================  ===============================  ==========================

It never goes back: RUNNING time is counted on the monotonic clock from the moment the clock was
made (a wall clock set back by NTP does not move it), release() carries on from the held value,
and advance() refuses a negative, non-finite or fractional step.  A clock starts HELD at the wall
clock's time, as the virtual clock did; `mqspec serve` releases it.
"""

from __future__ import annotations

import threading
import time


def whole_ms(ms) -> int:
    """`ms` if it is a whole, finite, non-negative number of milliseconds; ValueError otherwise (issue 20: an
    Infinity or NaN step broke the clock)."""
    if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
        raise ValueError(f"a step of the clock is a whole number of milliseconds from 0 up, not {ms!r}")
    return ms


class WallClock:
    def __init__(self) -> None:
        self._lock = threading.Lock()                          # now_ms() is read by the loop, the driver, calls
        self._base_ms = time.time_ns() // 1_000_000            # wall time when made
        self._base_mono = time.monotonic_ns() // 1_000_000
        self._offset = 0                                       # RUNNING: now = base + monotonic elapsed + offset
        self._held: int | None = self._base_ms                 # HELD: the value; None while RUNNING

    def _running_ms(self) -> int:
        return self._base_ms + time.monotonic_ns() // 1_000_000 - self._base_mono + self._offset

    def now_ms(self) -> int:
        with self._lock:
            return self._held if self._held is not None else self._running_ms()

    @property
    def held(self) -> bool:
        return self._held is not None

    def advance(self, ms: int) -> None:
        ms = whole_ms(ms)
        with self._lock:
            if self._held is not None:
                self._held += ms
            else:
                self._offset += ms

    def hold(self) -> None:
        with self._lock:
            if self._held is None:
                self._held = self._running_ms()

    def release(self) -> None:
        with self._lock:
            if self._held is not None:
                self._offset += self._held - self._running_ms()   # carries on from the held value, never back
                self._held = None
