"""The log of `mqspec serve`: a summary line a minute by default, a line per connection when asked.

Theory of operation
-------------------
The servers of `mqspec serve` (the DCE/RPC server, the MS-MQQB listener) write two
kinds of line: one per connection opened or closed (`connection`), and the ones
worth reading whatever the load (refusals, which they already sum up every few
seconds, and an Interface's tracebacks: `__call__`).  A certification run opens
thousands of connections (issue 20: 9,038 lines for one run), so by default the
first kind is not written; instead, every SUMMARY_EVERY seconds in which anything
happened, one line sums up what the servers did (connections opened, closed and
refused, PDUs, what is open now), read from their stats().

========  ==============================  ===========  ===============================
level     a line per connection           summary      refusals, failures, tracebacks
========  ==============================  ===========  ===============================
debug     yes                             yes          yes
info      no                              yes          yes      (the default)
warning   no                              no           yes      (--quiet)
========  ==============================  ===========  ===============================
"""

from __future__ import annotations

import threading
import time

LEVELS = ("debug", "info", "warning")
SUMMARY_EVERY = 60.0   # seconds between summary lines


class ServeLog:
    def __init__(self, write, level: str = "info", summary_every: float = SUMMARY_EVERY) -> None:
        if level not in LEVELS:
            raise ValueError(f"a log level is one of {', '.join(LEVELS)}, not {level!r}")
        if not summary_every > 0:
            raise ValueError(f"the summary's period is a number of seconds above 0, not {summary_every!r}")
        self.write, self.level, self.summary_every = write, level, summary_every
        self._lock = threading.Lock()     # lines come from the servers' loops and workers at once
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last: dict = {}             # the servers' counts at the last summary
        self._since = 0.0                 # and when it was written

    def __call__(self, line: str) -> None:
        """A line worth reading whatever the load: a refusal, a failure, a traceback."""
        self._out(line)

    def connection(self, line: str) -> None:
        """A connection opened or closed: written at debug only."""
        if self.level == "debug":
            self._out(line)

    def _out(self, line: str) -> None:
        with self._lock:
            self.write(line)

    # -- the summary ----------------------------------------------------------------------------
    def watch(self, served) -> "ServeLog":
        """Write a summary of `served` (adapters.serve.Served) every summary_every seconds, until stop()."""
        if self.level == "warning":
            return self
        self._last, self._since = self._counts(served), time.monotonic()
        self._thread = threading.Thread(target=self._run, args=(served,), name="mqspec-serve-summary", daemon=True)
        self._thread.start()
        return self

    def stop(self, served=None) -> None:
        """No more summaries; with `served`, one last line of what happened since the last one."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            if served is not None:
                line = self.summary(served, final=True)
                if line is not None:
                    self._out(line)

    def _run(self, served) -> None:
        while not self._stop.wait(self.summary_every):
            line = self.summary(served)
            if line is not None:
                self._out(line)

    def summary(self, served, final: bool = False) -> str | None:
        """One line of what happened since the last one; None when nothing did and nothing is open."""
        now = self._counts(served)
        since, self._since = self._since, time.monotonic()
        last, self._last = self._last, now
        moved = {key: now[key] - last.get(key, 0) for key in ("opened", "closed", "refused", "pdus",
                                                                  "mqqb_opened", "mqqb_closed", "mqqb_refused")}
        if not any(moved.values()) and not now["open"] and not now["mqqb_open"]:
            return None
        period = f"{round(self._since - since, 1):g} s" + (" before stopping" if final else "")
        text = (f"summary of the past {period}: MS-MQRR {moved['opened']} connection(s) opened, "
                f"{moved['closed']} closed, {moved['refused']} refused, {moved['pdus']} PDUs; {now['open']} open in "
                f"{now['associations']} association(s)")
        if now["mqqb_open"] or moved["mqqb_opened"] or moved["mqqb_closed"] or moved["mqqb_refused"]:
            text += (f"; MS-MQQB {moved['mqqb_opened']} session(s) opened, {moved['mqqb_closed']} closed, "
                     f"{moved['mqqb_refused']} refused, {now['mqqb_open']} open")
        return text

    @staticmethod
    def _counts(served) -> dict:
        stats = served.server.stats()
        counts = {"opened": stats["connections_accepted"], "open": stats["connections"],
                  "closed": stats["connections_accepted"] - stats["connections"],
                  "refused": stats["connections_refused"], "pdus": stats["pdus"],
                  "associations": stats["associations"],
                  "mqqb_opened": 0, "mqqb_closed": 0, "mqqb_refused": 0, "mqqb_open": 0}
        mqqb = served.mqqb.stats() if served.mqqb is not None else {}
        if mqqb:
            counts.update(mqqb_opened=mqqb["accepted"], mqqb_open=mqqb["connections"],
                          mqqb_closed=sum(mqqb["closed"].values()), mqqb_refused=mqqb["refused"])
        return counts
