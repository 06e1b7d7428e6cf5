"""Timers of the reference core, in the injected clock's time.

Theory of operation
-------------------
A timer is a deadline plus a callback.  `schedule` pushes it on a heap;
`cancel` only marks it, and marked entries are skipped when they surface; once
marked entries are most of the heap they are dropped all at once, so a queue
manager that ends every receive it starts (each one schedules a clean-up timer,
MS-MQRR 3.1.2.2) keeps a heap the size of its live timers, not of its history.  The
owner of the core calls `run_due(now)` whenever it wants time to pass (before
every operation, and when a blocked caller wakes up); callbacks run in deadline
order, then in scheduling order.  `next_deadline` tells an adapter how long it
may sleep.  Nothing here sleeps or spawns threads.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Callable


COMPACT_AT = 64                # marked entries a heap keeps before it is worth dropping them


class Timer:
    __slots__ = ("deadline_ms", "callback", "cancelled")

    def __init__(self, deadline_ms: int, callback: Callable[[], None]) -> None:
        self.deadline_ms = deadline_ms
        self.callback = callback
        self.cancelled = False


class TimerQueue:
    def __init__(self) -> None:
        self._heap: list[tuple[int, int, Timer]] = []
        self._order = itertools.count()
        self._marked = 0              # cancelled entries still in the heap

    def schedule(self, deadline_ms: int, callback: Callable[[], None]) -> Timer:
        timer = Timer(deadline_ms, callback)
        heapq.heappush(self._heap, (deadline_ms, next(self._order), timer))
        return timer

    def cancel(self, timer: Timer | None) -> None:
        if timer is not None and not timer.cancelled:
            timer.cancelled = True
            self._marked += 1
            if self._marked > COMPACT_AT and 2 * self._marked > len(self._heap):
                self._heap = [entry for entry in self._heap if not entry[2].cancelled]
                heapq.heapify(self._heap)
                self._marked = 0

    def run_due(self, now_ms: int) -> int:
        """Fire every timer whose deadline has passed; return how many fired."""
        heap = self._heap
        fired = 0
        while heap and heap[0][0] <= now_ms:
            _, _, timer = heapq.heappop(heap)
            if not timer.cancelled:
                timer.cancelled = True
                timer.callback()
                fired += 1
            else:
                self._marked -= 1
        return fired

    def next_deadline(self) -> int | None:
        heap = self._heap
        while heap and heap[0][2].cancelled:
            heapq.heappop(heap)
            self._marked -= 1
        return heap[0][0] if heap else None

    def __len__(self) -> int:
        return sum(1 for _, _, t in self._heap if not t.cancelled)
