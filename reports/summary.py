"""What a terminal shows at the end of a certify run or a report: a few lines, in clauses.

Per target: its verdict (conformant, incomplete or NOT conformant: reports/record.py),
the clauses passed, failed, not run and waived (untestable apart), then the clauses
at fault with the first line of their failure, the likeliest cause first (cut at
LIMIT with the number left out said), the collateral of each, and the clauses not
run, grouped by why; `gate_forecast` says whether the gate will pass, and
counted by what they need (the capability or server their reason names: "not run: needs X").
With strength results: the kill rate and the survivors, the mutation score.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path

from .errors import ReportError
from .faults import ranked
from .gate import model_verdicts, uncovered
from .record import not_run, verdict_of

LIMIT = 25
_NEEDS = re.compile(r"^(?:not run: )?needs (a server that accepts \w+ calls|[\w-]+)")   # as tally keeps it


def summary_lines(model: dict) -> list[str]:
    lines = []
    for target in model["targets"]:
        counts, verdicts = model["counts"][target], model["matrix"][target]
        tested = counts["passed"] + counts["failed"] + counts["not run"] + counts["waived"]
        at_fault, collateral = ranked(verdicts)
        split = f" ({len(at_fault)} at fault, {len(collateral)} collateral)" if collateral else ""
        verdict = verdict_of(verdicts)
        lines.append(f"{target}: {verdict if verdict != 'not conformant' else 'NOT conformant'}: clauses "
                     f"{counts['passed']} passed, {counts['failed']} failed{split}, {counts['not run']} not run, "
                     f"{counts['waived']} waived (of {tested} testable; {counts['untestable']} untestable) in run "
                     f"{model['latest'][target]}")
        for clause, row, explains in at_fault[:LIMIT]:
            more = f" (+{explains - 1} collateral)" if explains > 1 else ""
            lines.append(f"  AT FAULT {clause}{more}: {row['reason'] or '(no message)'}")
        if len(at_fault) > LIMIT:
            lines.append(f"  ... and {len(at_fault) - LIMIT} more clauses at fault (see the report)")
        causes: dict[str, list[str]] = {}
        for clause, row in collateral:
            causes.setdefault(row["cause"], []).append(clause)
        for cause, clauses in causes.items():
            lines.append(f"  collateral of {cause}: {len(clauses)} clause(s) failed because of it: "
                         + _listed(clauses))
        for why, clauses in not_run(verdicts).items():
            lines.append(f"  not run ({why}): {len(clauses)} clause(s): " + _listed(clauses))
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


def _listed(clauses: list[str], limit: int = 8) -> str:
    return ", ".join(clauses[:limit]) + (f", ... ({len(clauses) - limit} more)" if len(clauses) > limit else "")


def gate_forecast(model: dict) -> str:
    """Whether `mqspec gate` will pass these verdicts on coverage (regressions need a baseline to tell)."""
    try:
        gaps = uncovered(model_verdicts(model, Path("this run")))
    except ReportError as error:   # two targets of one name: the gate cannot tell them apart
        return f"gate: cannot judge it: {error}"
    if not gaps:
        return "gate: every testable MUST clause was exercised; `mqspec gate --baseline FILE` will fail only on a " \
               "regression"
    return (f"gate: will FAIL: {len(gaps)} testable MUST clause(s) exercised by no target: "
            + _listed([gap["clause_id"] for gap in gaps], 5))


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
