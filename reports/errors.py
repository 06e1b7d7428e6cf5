"""The two ways a report can go wrong, each said in one line.

`InputError` is one bad input (a file cut short, an unknown clause id, an empty
directory, a run of another suite version): it names the file, and the inputs
that remain are still reported.  `ReportError` stops the report as a whole (no
usable input at all, Spark that cannot start, an output directory that cannot be
written): the command line prints it and exits non-zero.
"""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """One input that cannot be used, or only in part; `str()` is one line naming the file."""

    def __init__(self, path: Path | str, what: str):
        self.path = str(path)
        self.what = " ".join(str(what).split())  # one line, whatever the cause said
        super().__init__(f"{self.path}: {self.what}")


class ReportError(Exception):
    """The report as a whole cannot be made; `str()` is one line."""

    def __init__(self, what: str):
        super().__init__(" ".join(str(what).split()))
