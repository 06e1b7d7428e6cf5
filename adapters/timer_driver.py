"""Real time for an in-process queue manager: a thread that fires its timers when they are due.

In virtual time nothing fires a timer but a call or `elapse`.  When the target runs in real
time (capability real_time: its WallClock released) one `TimerDriver` per core sleeps on the
core's Condition until the queue manager's next timer deadline (TimerQueue.next_deadline) or
FALLBACK_S, whichever is sooner.  It is the only thread that waits on that Condition, and a call
that scheduled a timer due before the driver would look again notifies it (needs_waking), so it
looks again; nothing polls.  When timers fire the driver does what a call does after its work: the store
gets the changes, a read whose time-out fired hands its outputs to its own caller (an R_StartReceive
that times out returns in real time) and the output hooks hear that MS-MQQB sessions may have bytes
to send (the listener writes them at once).
"""

from __future__ import annotations

import threading

FALLBACK_S = 60.0   # longest sleep without a deadline: a clock advanced by elapse() is noticed at the latest then


class TimerDriver:
    def __init__(self, core) -> None:
        self.core = core
        self._stopping = False
        self._wakes_at: float | None = None   # the clock's ms at which the sleeping driver looks again
        self._thread = threading.Thread(target=self._run, name="mqspec-timers", daemon=True)

    def start(self) -> TimerDriver:
        self._thread.start()
        return self

    def _run(self) -> None:
        core = self.core
        with core.lock:
            while not self._stopping:
                if core.qm.run_timers():   # a read that times out hands its outputs on as it ends
                    core.flush()
                    core.output_ready()
                deadline = core.qm.timers.next_deadline()
                now = core.clock.now_ms()
                wait = min(FALLBACK_S, FALLBACK_S if deadline is None else max(0, deadline - now) / 1000)
                self._wakes_at = now + wait * 1000
                core.lock.wait(wait)
                self._wakes_at = None

    def needs_waking(self) -> bool:
        """With the core's lock held: whether a timer is now due before the driver would look again (only then
        does a call wake it, so a flood of calls does not keep waking a thread that has nothing to do)."""
        deadline = self.core.qm.timers.next_deadline()
        return deadline is not None and (self._wakes_at is None or deadline < self._wakes_at)

    def stop(self) -> None:
        """Ends the thread; called without the core's lock held (the thread needs it to see the flag)."""
        with self.core.lock:
            self._stopping = True
            self.core.lock.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
