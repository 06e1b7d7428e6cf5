"""The gate: does the current certification regress against a baseline, or leave a MUST clause uncovered?

Both sides are verdicts per (target, clause), read from a certification record
(certification-<target>.json) or a report's summary.json; the current side may
also be given as a report directory or a results directory holding report/.  The
comparison runs the report's own stages on them (history.changes for the
regressions, coverage.never_exercised for the MUST clauses no current target
exercised), so the gate and the report cannot disagree.  A MUST clause that was
waived is a recorded decision, not a gap, and does not fail the gate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pyspark.sql import SparkSession, functions as F

from .coverage import never_exercised
from .errors import ReportError
from .history import changes
from .model import FORMAT as REPORT_FORMAT
from .record import FORMAT as RECORD_FORMAT, verifies

COLUMNS = ("target", "clause_id", "verdict", "reason", "run_id", "document", "section", "section_title", "level",
           "testable")
SCHEMA = ("target string, clause_id string, verdict string, reason string, run_id string, document string, "
          "section string, section_title string, level string, testable boolean")


@dataclass
class Verdicts:
    source: Path
    rows: list[tuple]
    targets: list[str]


@dataclass
class GateResult:
    regressions: list[dict]
    uncovered: list[dict]
    compared: int

    @property
    def passed(self) -> bool:
        return not self.regressions and not self.uncovered


def read_verdicts(path: Path, role: str) -> Verdicts:
    """The verdicts of a certification record, a summary.json, or a report or results directory holding one."""
    path = Path(path)
    if path.is_dir():
        for candidate in (path / "summary.json", path / "report" / "summary.json"):
            if candidate.is_file():
                path = candidate
                break
        else:
            raise ReportError(f"{role} {path}: no summary.json in it or in its report/ folder")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ReportError(f"{role} {path}: cannot read it ({error.strerror or error})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReportError(f"{role} {path}: not JSON ({error})") from None
    kind = document.get("format") if isinstance(document, dict) else None
    if kind == RECORD_FORMAT:
        if not verifies(document):
            raise ReportError(f"{role} {path}: its sha256 does not match its content; the record was altered")
        rows = [_row(document["target"], clause_id, entry["verdict"], entry.get("reason", ""), document["run_id"],
                     entry.get("level", ""), entry.get("testable", True), None)
                for clause_id, entry in document["verdicts"].items()]
        return Verdicts(path, rows, [document["target"]])
    if kind == REPORT_FORMAT:
        clauses = {clause["clause_id"]: clause for clause in document["clauses"]}
        rows = [_row(target, clause_id, entry["verdict"], entry.get("reason", ""), document["latest"][target],
                     clauses[clause_id]["level"], clauses[clause_id]["testable"], clauses[clause_id])
                for target in document["targets"] for clause_id, entry in document["matrix"][target].items()]
        return Verdicts(path, rows, list(document["targets"]))
    raise ReportError(f"{role} {path}: neither a certification record nor a report summary (format {kind!r})")


def _row(target, clause_id, verdict, reason, run_id, level, testable, clause) -> tuple:
    document, section, _ = clause_id.split(":")
    title = clause["section_title"] if clause else ""
    return (target, clause_id, verdict, reason or "", run_id, document, section, title, level, bool(testable))


def newest_report(results: Path) -> Path:
    """The summary.json of the newest run under `results` that has a report."""
    found = sorted(results.glob("*/report/summary.json"), key=lambda path: path.parent.parent.name)
    if not found:
        raise ReportError(f"no report under {results}/*/report/; give the current summary.json, certification "
                          "record, or report directory")
    return found[-1]


def evaluate(spark: SparkSession, baseline: Verdicts, current: Verdicts) -> GateResult:
    missing = [target for target in baseline.targets if target not in current.targets]
    if missing:
        raise ReportError(f"the baseline {baseline.source} certifies {missing[0]}, which {current.source} does "
                          f"not (it has {', '.join(current.targets)})")
    base = spark.createDataFrame(baseline.rows, SCHEMA)
    now = spark.createDataFrame(current.rows, SCHEMA)
    compared = now.join(base, ["target", "clause_id"], "left_semi").count()
    regressions = [row.asDict() for row in
                   changes(base, now).where(F.col("change") == "regression").orderBy("target", "clause_id").collect()]
    uncovered = [row.asDict(recursive=True) for row in
                 never_exercised(now).where(~F.col("waived_only")).orderBy("clause_id").collect()]
    return GateResult(regressions, uncovered, compared)


def gate_lines(result: GateResult) -> list[str]:
    """One line per regression and per uncovered MUST clause."""
    lines = [f"regression: {r['clause_id']} on {r['target']}: passed in {r['baseline_run']}, failed in "
             f"{r['current_run']}: {r['reason']}" for r in result.regressions]
    lines += [f"uncovered MUST clause: {u['clause_id']} ({u['level']}): never exercised "
              f"({', '.join(u['verdicts'])}{': ' + u['reasons'][0] if u['reasons'] else ''})"
              for u in result.uncovered]
    return lines
