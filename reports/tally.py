"""The clause verdicts of one run without Spark: what certify prints when the report cannot be made.

A machine without Java still gets its verdicts: this module applies the rules of
verdicts.py (see its theory of operation) to one run's junit.xml in plain Python,
and gives them in the shape summary.py reads (targets, counts, matrix, latest), so
the terminal shows the same lines either way.  The Spark pipeline stays the one
that reads many runs, keeps history and makes the report; tests/test_reports_tally.py
holds the two to the same verdict and reason for every clause of the same run.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mqspec.catalogue import Catalogue
from mqspec.identity import target_identity, target_side

from .errors import InputError
from .faults import bearing
from .junit import read_junit
from .suite import scenario_rows

ORDER = ("failed", "passed", "not run", "waived")   # the first verdict a clause's scenarios show wins
WAIVED_CLAUSE = re.compile(r"^waived: ([A-Za-z-]+:[0-9A-Za-z.]+:[0-9]{2}): ")
FIRST_LINE = re.compile(r"\s*([^\n]*)")


def _first_line(text: str) -> str:
    return FIRST_LINE.match(text or "").group(1).strip(" ")


def scenario_verdict(row: dict) -> tuple[str, str]:
    """(verdict, reason) of one junit result, as verdicts.scenario_verdicts gives them."""
    outcome, message = row["outcome"], row["message"] or ""
    if outcome == "passed":
        return "passed", ""
    if outcome == "xfailed":
        return "failed", "known defect: " + _first_line(message)
    if outcome in ("failed", "error"):
        return "failed", _first_line(message) or _first_line(row["detail"])
    if message.startswith("waived:"):
        return "waived", message[7:].strip(" ")
    if message.startswith("not run:"):
        return "not run", message[8:].strip(" ")
    return "not run", message


def tally(results: Path, catalogue: Catalogue) -> dict:
    """{targets, latest, counts, matrix, changes, strength} of the run in `results`; InputError if its junit.xml
    or run.json cannot be read."""
    try:
        run = json.loads((results / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InputError(results / "run.json", f"cannot read it ({error})") from None
    rows, _, _ = read_junit(results / "junit.xml", run["run_id"], run["targets"], catalogue.clauses)
    covered = {clause for row in scenario_rows()[0] for clause in row["clauses"]}
    # (target, clause) -> [(verdict, name, reason, collateral_of)]
    seen: dict[tuple[str, str], list[tuple[str, str, str, str]]] = {}
    for row in rows:
        verdict, reason = scenario_verdict(row)
        waived = WAIVED_CLAUSE.match(row["message"] or "") if verdict == "waived" else None
        for clause in row["clauses"]:
            if waived and waived.group(1) != clause:   # waived for another of its clauses: not run for this one
                seen.setdefault((row["target"], clause), []).append(("not run", row["name"],
                                                                     "waived with " + waived.group(1), ""))
            else:
                kind, why, collateral_of = bearing(verdict, reason, clause, row["cause"], row["stopped"])
                seen.setdefault((row["target"], clause), []).append((kind, row["name"], why, collateral_of))
    targets = list(dict.fromkeys(target_identity(target) for target in run["targets"]))
    waived_clauses, skipped = run.get("waived_clauses") or {}, set(run.get("skipped_levels") or [])
    matrix = {}
    for target in targets:
        matrix[target] = {}
        for clause in catalogue.clauses.values():
            if clause.side != target_side(target):   # judged only by its own side's clauses (verdicts.py)
                continue
            matrix[target][clause.id] = _clause_verdict(clause, seen.get((target, clause.id), []), covered,
                                                        waived_clauses, skipped)
    counts = {target: {name: sum(1 for row in matrix[target].values() if row["verdict"] == name)
                       for name in ("passed", "failed", "not run", "waived", "untestable")} for target in targets}
    return {"targets": targets, "latest": {target: run["run_id"] for target in targets}, "counts": counts,
            "matrix": matrix, "changes": [], "strength": None}


def _clause_verdict(clause, found, covered, waived_clauses, skipped) -> dict:
    for verdict in ORDER:
        reasons = sorted((name, reason, collateral_of) for kind, name, reason, collateral_of in found
                         if kind == verdict)
        if not reasons:
            continue
        if verdict != "failed":
            return _row(verdict, reasons[0][1])
        at_fault = any(not collateral_of for _, _, collateral_of in reasons)
        return _row(verdict, reasons[0][1], "at fault" if at_fault else "collateral",
                    "" if at_fault else reasons[0][2])
    if not clause.testable:
        return _row("untestable", clause.reason)
    if clause.id in waived_clauses:
        return _row("waived", waived_clauses[clause.id])
    if clause.level in skipped:
        return _row("waived", f"level {clause.level} skipped")
    return _row("not run", "not selected in this run" if clause.id in covered else "no scenario checks it")


def _row(verdict: str, reason: str, fault: str = "", cause: str = "") -> dict:
    return {"verdict": verdict, "reason": reason, "fault": fault, "cause": cause}
