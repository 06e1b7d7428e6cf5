"""Real time for an in-process queue manager: a thread that fires its timers when they are due.

In virtual time nothing fires a timer but a call or `elapse`.  When the target runs in real
time (capability real_time: its WallClock released) one `TimerDriver` per core sleeps on the
core's Condition until the queue manager's next timer deadline (TimerQueue.next_deadline) or
FALLBACK_S, whichever is sooner.  Every call ends with notify_all, so a call that scheduled an
earlier timer wakes the driver, which looks again; nothing polls.  When timers fire the driver
does what a call does after its work: the store gets the changes, waiting callers are woken (an
R_StartReceive that times out returns in real time) and the output hooks hear that MS-MQQB
sessions may have bytes to send (the listener writes them at once).
"""

from __future__ import annotations

import threading

FALLBACK_S = 60.0   # longest sleep without a deadline: a clock advanced by elapse() is noticed at the latest then


class TimerDriver:
    def __init__(self, core) -> None:
        self.core = core
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="mqspec-timers", daemon=True)

    def start(self) -> TimerDriver:
        self._thread.start()
        return self

    def _run(self) -> None:
        core = self.core
        with core.lock:
            while not self._stopping:
                if core.qm.run_timers():
                    core.flush()
                    core.lock.notify_all()
                    core.output_ready()
                deadline = core.qm.timers.next_deadline()
                wait = FALLBACK_S if deadline is None else max(0, deadline - core.clock.now_ms()) / 1000
                core.lock.wait(min(wait, FALLBACK_S))

    def stop(self) -> None:
        """Ends the thread; called without the core's lock held (the thread needs it to see the flag)."""
        with self.core.lock:
            self._stopping = True
            self.core.lock.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
