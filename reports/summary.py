"""What a terminal shows at the end of a certify run or a report: a few lines, in clauses.

Per target: the clauses passed, failed, not run and waived (untestable apart),
then each failing clause with the first line of its failure, cut at LIMIT with
the number left out said, the clauses not run counted by what they need (the
capability or server their reason names: "not run: needs X"), and where the
report and the full tracebacks are.
With strength results: the kill rate and the survivors, the mutation score.
"""

from __future__ import annotations

import collections
import re

LIMIT = 25
_NEEDS = re.compile(r"^(?:not run: )?needs (a server that accepts \w+ calls|[\w-]+)")   # as tally keeps it


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
        needs = collections.Counter(_need(row["reason"]) for row in model["matrix"][target].values()
                                    if row["verdict"] == "not run")
        if needs:
            lines.append("  not run, by what they need: " + ", ".join(f"{need} {count}"
                                                                     for need, count in needs.most_common()))
    regressions = [c for c in model["changes"] if c["change"] == "regression"]
    if regressions:
        lines.append(f"{len(regressions)} regression(s) against the run before: "
                     + ", ".join(f"{c['clause_id']} on {c['target']}" for c in regressions[:10])
                     + (" ..." if len(regressions) > 10 else ""))
    return lines + strength_lines(model.get("strength"))


def strength_lines(strength: dict | None) -> list[str]:
    """The kill rate and each surviving variant; the mutation score and each unexplained surviving mutant."""
    if not strength:
        return []
    lines = []
    overall = strength["kill_rate"]["overall"]
    if overall:
        lines.append(f"strength: kill rate {overall['killed']}/{overall['variants']} variants "
                     f"({'-' if overall['rate'] is None else str(overall['rate']) + '%'}), "
                     f"{overall['survived']} survived, {overall['errors']} did not complete")
        lines += [f"  SURVIVED {row['name']} ({row['clause']}): {row['text']}"
                  for row in strength["variants"] if row["status"] == "survived"][:LIMIT]
    mutants = strength["mutants"]
    if mutants:
        unexplained = [row for row in mutants["survivors"] if not row["equivalent"]]
        lines.append(f"mutants: score {'-' if mutants['score'] is None else str(mutants['score']) + '%'} "
                     f"({mutants['killed']} killed, {mutants['survived']} survived of {mutants['tested']} tested), "
                     f"{len(unexplained)} survivor(s) not explained")
        lines += [f"  SURVIVED {row['module']}:{row['line']} {row['operator']}: {row['source_line']}"
                  for row in unexplained][:LIMIT]
    return lines


def _need(reason: str | None) -> str:
    """What a clause not run needs, as its reason names it: a capability, a kind of server, or "other"."""
    match = _NEEDS.search(reason or "")
    return match.group(1) if match else "other"
