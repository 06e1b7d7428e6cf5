"""The gate: does the current certification regress against a baseline, or leave a MUST clause uncovered?

Both sides are verdicts per (target, clause), read from a certification record
(certification-<target>.json) or a report's summary.json; the current side may
also be given as a report directory or a results directory holding report/.
Targets are matched by name (mqspec.identity.target_name: the `name` option, else
the URL without user or port), so a baseline made on one port or host gates a run
on another.  Two JSON files of a few hundred verdicts each need no Spark: the rules
are the report's own (history.changes for a regression: passed in the baseline,
failed now; coverage.never_exercised for a testable MUST clause no current target
passed or failed), in plain Python; tests/test_reports_pipeline.py holds the
coverage rule to the Spark stage's answer on the same report.  A MUST clause that was waived is a recorded decision, not a gap.

What fails the gate, one line each: a clause at fault that regressed (its collateral
counted on its line, reports/faults.py), a failing target the baseline does not
know, and an uncovered MUST clause.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from mqspec.identity import target_name

from .errors import ReportError
from .faults import clause_order, ranked
from .record import FORMAT as RECORD_FORMAT, verifies

REPORT_FORMAT = "mqspec report 1"   # model.FORMAT, without importing Spark
MUST_LEVELS = ("MUST", "MUST NOT")
REASON_LIMIT = 60


@dataclass
class Verdicts:
    source: Path
    runs: dict[str, str]                     # target name -> the run its verdicts come from
    verdicts: dict[str, dict[str, dict]]     # target name -> clause -> {verdict, reason, fault, cause, level, testable}


@dataclass
class GateResult:
    regressions: list[dict]
    uncovered: list[dict]
    compared: int
    new_failing: list[dict] = field(default_factory=list)   # failing targets the baseline does not know

    @property
    def passed(self) -> bool:
        return not self.regressions and not self.uncovered and not self.new_failing


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
        name = document.get("name") or target_name(document["target"])
        return Verdicts(path, {name: document["run_id"]}, {name: {clause: _entry(entry) for clause, entry
                                                                   in document["verdicts"].items()}})
    if kind == REPORT_FORMAT:
        return model_verdicts(document, path)
    raise ReportError(f"{role} {path}: neither a certification record nor a report summary (format {kind!r})")


def model_verdicts(model: dict, source: Path) -> Verdicts:
    """The verdicts of a report model (or its summary.json), or of a run's tally (no clause list: the level and
    testability are then read from the catalogue)."""
    if "clauses" in model:
        clauses = {clause["clause_id"]: clause for clause in model["clauses"]}
    else:
        from mqspec.catalogue import load_catalogue
        clauses = {c.id: {"level": c.level, "testable": c.testable} for c in load_catalogue().clauses.values()}
    runs, verdicts = {}, {}
    for target in model["targets"]:
        name = target_name(target)
        if name in runs:
            raise ReportError(f"{source}: two targets go by the name {name}; give each its own (?name=NAME in its "
                              "URL, or certify's --name)")
        runs[name] = model["latest"][target]
        verdicts[name] = {clause: _entry({**entry, "level": clauses[clause]["level"],
                                          "testable": clauses[clause]["testable"]})
                          for clause, entry in model["matrix"][target].items()}
    return Verdicts(Path(source), runs, verdicts)


def _entry(entry: dict) -> dict:
    return {"verdict": entry["verdict"], "reason": entry.get("reason") or "", "fault": entry.get("fault") or "",
            "cause": entry.get("cause") or "", "level": entry.get("level", ""),
            "testable": bool(entry.get("testable", True))}


def newest_report(results: Path) -> Path:
    """The summary.json of the newest run under `results` that has a report."""
    found = sorted(results.glob("*/report/summary.json"), key=lambda path: path.parent.parent.name)
    if not found:
        raise ReportError(f"no report under {results}/*/report/; give the current summary.json, certification "
                          "record, or report directory")
    return found[-1]


def evaluate(baseline: Verdicts, current: Verdicts) -> GateResult:
    missing = [name for name in baseline.verdicts if name not in current.verdicts]
    if missing:
        raise ReportError(f"the baseline {baseline.source} certifies {missing[0]}, which {current.source} does "
                          f"not (it has {', '.join(current.verdicts)})")
    regressions, new_failing, compared = [], [], 0
    for name, now in current.verdicts.items():
        base = baseline.verdicts.get(name)
        if base is None:
            failed = [clause for clause, row in now.items() if row["verdict"] == "failed"]
            if failed:
                at_fault, _ = ranked(now)
                new_failing.append({"target": name, "run": current.runs[name], "failed": len(failed),
                                    "first": at_fault[0][0] if at_fault else failed[0]})
            continue
        compared += sum(1 for clause in now if clause in base)
        regressed = {clause: row for clause, row in now.items()
                     if row["verdict"] == "failed" and base.get(clause, {}).get("verdict") == "passed"}
        at_fault, collateral = ranked(regressed)
        for clause, row, _ in at_fault:
            regressions.append({"target": name, "clause_id": clause, "reason": row["reason"],
                                "baseline_run": baseline.runs[name], "current_run": current.runs[name],
                                "collateral": sorted((other for other, crow in collateral
                                                      if crow["cause"] == clause), key=clause_order)})
        orphans = [other for other, crow in collateral if crow["cause"] not in {c for c, _, _ in at_fault}]
        if orphans:   # collateral of a clause that did not regress (it failed in the baseline too)
            regressions.append({"target": name, "clause_id": "", "reason": "", "baseline_run": baseline.runs[name],
                                "current_run": current.runs[name], "collateral": sorted(orphans, key=clause_order),
                                "causes": sorted({now[other]["cause"] for other in orphans}, key=clause_order)})
    return GateResult(regressions, uncovered(current), compared, new_failing)


def uncovered(current: Verdicts) -> list[dict]:
    """Testable MUST / MUST NOT clauses no current target passed or failed (waived by every target: not a gap)."""
    found: dict[str, list[dict]] = {}
    for verdicts in current.verdicts.values():
        for clause, row in verdicts.items():
            if row["testable"] and row["level"] in MUST_LEVELS:
                found.setdefault(clause, []).append(row)
    gaps = []
    for clause, rows in found.items():
        if any(row["verdict"] in ("passed", "failed") for row in rows) or all(row["verdict"] == "waived"
                                                                                for row in rows):
            continue
        gaps.append({"clause_id": clause, "level": rows[0]["level"],
                     "verdicts": sorted({row["verdict"] for row in rows}),
                     "reasons": sorted({row["reason"] for row in rows if row["reason"]})[:3]})
    return sorted(gaps, key=lambda gap: clause_order(gap["clause_id"]))


def _cut(text: str) -> str:
    text = (text or "").split("\n", 1)[0]
    return text if len(text) <= REASON_LIMIT else text[:REASON_LIMIT - 3] + "..."


def gate_lines(result: GateResult) -> list[str]:
    """One line per regressed clause at fault (its collateral counted), per failing target the baseline does not
    know, and per uncovered MUST clause."""
    lines = []
    for r in result.regressions:
        more = f" (+{len(r['collateral'])} collateral)" if r["collateral"] else ""
        if r["clause_id"]:
            lines.append(f"regression: {r['clause_id']} on {r['target']}{more}: {_cut(r['reason'])}")
        else:
            lines.append(f"regression: {len(r['collateral'])} collateral clause(s) on {r['target']} of "
                         f"{', '.join(r['causes'])}, which failed in the baseline too")
    lines += [f"new target: {n['target']} fails {n['failed']} clause(s), first {n['first']}; the baseline does not "
              "certify it" for n in result.new_failing]
    lines += [f"uncovered MUST clause: {u['clause_id']} ({u['level']}): never exercised "
              f"({', '.join(u['verdicts'])}{': ' + _cut(u['reasons'][0]) if u['reasons'] else ''})"
              for u in result.uncovered]
    return lines
