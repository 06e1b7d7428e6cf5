"""What a terminal shows at the end of a certify run or a report: a few lines, in clauses.

Per target: the clauses passed, failed, not run and waived (untestable apart),
then each failing clause with the first line of its failure, cut at LIMIT with
the number left out said, and where the report and the full tracebacks are.
"""

from __future__ import annotations

LIMIT = 25


def summary_lines(model: dict) -> list[str]:
    lines = []
    for target in model["targets"]:
        counts = model["counts"][target]
        tested = counts["passed"] + counts["failed"] + counts["not run"] + counts["waived"]
        lines.append(f"{target}: clauses {counts['passed']} passed, {counts['failed']} failed, "
                     f"{counts['not run']} not run, {counts['waived']} waived (of {tested} testable; "
                     f"{counts['untestable']} untestable) in run {model['latest'][target]}")
        failing = [(clause, row["reason"]) for clause, row in model["matrix"][target].items()
                   if row["verdict"] == "failed"]
        for clause, reason in sorted(failing)[:LIMIT]:
            lines.append(f"  FAILED {clause}: {reason or '(no message)'}")
        if len(failing) > LIMIT:
            lines.append(f"  ... and {len(failing) - LIMIT} more failing clauses (see the report)")
    regressions = [c for c in model["changes"] if c["change"] == "regression"]
    if regressions:
        lines.append(f"{len(regressions)} regression(s) against the run before: "
                     + ", ".join(f"{c['clause_id']} on {c['target']}" for c in regressions[:10])
                     + (" ..." if len(regressions) > 10 else ""))
    return lines
