"""Which scenarios a run selects: clauses by id or section, and the failures of an earlier run.

`--clause` takes a clause id (MS-MQRR:3.1.4.7:16), a section (MS-MQRR:3.1.4.7: every
clause of that section and of its subsections) or a document (MS-MQRR); it may be
repeated and a value may list several, comma-separated.  A value that selects no
clause of the catalogue is one line naming it.

Every run writes failed.json beside run.json: the pytest node ids of the tests that
failed (in any phase).  `--rerun-failed DIR` selects those of the run in DIR;
`mqspec certify --last-failed` gives it the newest earlier run under the results
folder.
"""

from __future__ import annotations

import json
from pathlib import Path

FAILED_FILE = "failed.json"


class SelectionError(ValueError):
    """A selection that cannot be used; one line says why."""


def clause_values(values: list[str]) -> list[str]:
    """The --clause values, with comma-separated lists split."""
    return [value.strip() for given in values for value in given.split(",") if value.strip()]


def expand_clauses(values: list[str], catalogue) -> set[str]:
    """The clause ids --clause selects: each id as it is, each section or document with all it holds."""
    chosen: set[str] = set()
    for value in clause_values(values):
        if value in catalogue.clauses:
            chosen.add(value)
            continue
        document, _, section = value.partition(":")
        matched = {clause.id for clause in catalogue.clauses.values() if clause.document == document
                   and (not section or clause.section == section or clause.section.startswith(section + "."))}
        if not matched:
            raise SelectionError(f"--clause {value}: no such clause, section or document in the catalogue "
                                 "(mqspec clauses --list lists them)")
        chosen |= matched
    return chosen


class FailureRecorder:
    """Writes failed.json at the end of a run: every test that failed, by node id, in the order they failed."""

    def __init__(self, results: Path) -> None:
        self.results = results
        self.failed: list[str] = []

    def pytest_runtest_logreport(self, report) -> None:
        if report.failed and report.nodeid not in self.failed:
            self.failed.append(report.nodeid)

    def pytest_sessionfinish(self, session) -> None:
        (self.results / FAILED_FILE).write_text(json.dumps({"failed": self.failed}, indent=1) + "\n",
                                                encoding="utf-8")


def failed_in(results: Path) -> list[str]:
    """The node ids that failed in the run of `results` (SelectionError when it has no failed.json)."""
    try:
        return json.loads((results / FAILED_FILE).read_text(encoding="utf-8"))["failed"]
    except (OSError, ValueError, KeyError, TypeError):
        raise SelectionError(f"--rerun-failed {results}: no readable {FAILED_FILE} there (a run of this version "
                             "of mqspec writes one)") from None


def last_run(folder: Path, besides: Path | None = None) -> Path:
    """The newest run under `folder` that recorded its failures (other than `besides`)."""
    runs = [path.parent for path in folder.glob(f"*/{FAILED_FILE}") if path.parent != besides]
    if not runs:
        raise SelectionError(f"--last-failed: no earlier run in {folder} recorded its failures")
    return max(runs, key=lambda run: (run / FAILED_FILE).stat().st_mtime)
