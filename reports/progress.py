"""A progress display for long work: certify runs and the report's Spark stages.

On a terminal it is one line redrawn in place (a bar, done/total, a note); in a
log (CI, a pipe) it is a line now and then (every tenth of the way, and at the
end), so a log shows progress without thousands of lines.  `quiet` shows nothing.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

WIDTH = 24


class Progress:
    def __init__(self, label: str, total: int, stream: TextIO | None = None, *, quiet: bool = False):
        self.label = label
        self.total = max(total, 0)
        self.done = 0
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.monotonic()
        self._last_draw = 0.0
        self._last_tenth = -1
        self._width = 0
        self._lock = threading.Lock()   # stages may finish in several threads at once

    def advance(self, note: str = "", by: int = 1) -> None:
        with self._lock:
            self.done += by
            self.show(note)

    def show(self, note: str = "") -> None:
        if self.quiet:
            return
        if self.tty:
            now = time.monotonic()
            if now - self._last_draw < 0.1 and self.done < self.total:
                return
            self._last_draw = now
            self._draw(self._line(note))
            return
        tenth = (10 * self.done // self.total) if self.total else 10
        if tenth != self._last_tenth:
            self._last_tenth = tenth
            self.stream.write(self._line(note) + "\n")
            self.stream.flush()

    def finish(self, note: str = "") -> float:
        """Close the display; returns the seconds since it started."""
        elapsed = time.monotonic() - self.started
        if not self.quiet and self.tty:
            self._draw(self._line(note))
            self.stream.write("\n")
            self.stream.flush()
        elif not self.quiet and self._last_tenth != 10:
            self.done = self.total
            self.show(note)
        return elapsed

    def _line(self, note: str) -> str:
        fraction = self.done / self.total if self.total else 1.0
        filled = int(WIDTH * min(fraction, 1.0))
        bar = "#" * filled + "-" * (WIDTH - filled)
        seconds = time.monotonic() - self.started
        text = f"{self.label} [{bar}] {self.done}/{self.total} {seconds:5.1f}s"
        return f"{text}  {note}" if note else text

    def _draw(self, line: str) -> None:
        pad = max(self._width - len(line), 0)
        self._width = len(line)
        self.stream.write("\r" + line + " " * pad)
        self.stream.flush()
