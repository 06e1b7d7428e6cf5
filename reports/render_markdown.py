"""A short Markdown summary of a report, small enough for a CI comment.

Per target: the verdict and the clause counts; then the failing clauses, those at
fault first (the likeliest cause first) with the first line of their failure, then
their collateral, regressions and fixes against the baseline, MUST
clauses never exercised, flaky clauses, the suite's strength (kill rate by area,
survivors, mutation score) when given, and the inputs left out, each list cut
at LIMIT lines with the number left out said.
"""

from __future__ import annotations

from .faults import ranked
from .record import verdict_of

LIMIT = 20
VERDICTS = ("passed", "failed", "not run", "waived", "untestable")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _listing(title: str, lines: list[str]) -> list[str]:
    if not lines:
        return []
    out = [f"### {title} ({len(lines)})", ""]
    out += lines[:LIMIT]
    if len(lines) > LIMIT:
        out.append(f"- ... and {len(lines) - LIMIT} more (see summary.json)")
    return out + [""]


def render_markdown(model: dict) -> str:
    out = ["## mqspec clause verdicts", ""]
    out.append(f"Suite version `{', '.join(model['suite_versions'])}`, {len(model['runs'])} run(s) read, "
               f"report made {model['generated']}.")
    out += ["", "| target | run | verdict | " + " | ".join(VERDICTS) + " |",
            "|---|---|---|" + "---:|" * len(VERDICTS)] if model["targets"] else []   # none: strength results alone
    for target in model["targets"]:
        counts = model["counts"][target]
        verdict = {"conformant": "conformant", "incomplete": f"**incomplete: {counts['not run']} not run**",
                   "not conformant": "**NOT conformant**"}[verdict_of(model["matrix"][target])]
        out.append(f"| `{_cell(target)}` | {model['latest'][target]} | {verdict} | "
                   + " | ".join(str(counts[v]) for v in VERDICTS) + " |")
    out.append("")
    ranking = {target: ranked(model["matrix"][target]) for target in model["targets"]}
    out += _listing("Clauses at fault, the likeliest cause first", [
        f"- `{clause}` on `{_cell(target)}`{f' (explains {explains - 1} more)' if explains > 1 else ''}: "
        f"{_cell(row['reason'])}" for target in model["targets"] for clause, row, explains in ranking[target][0]])
    out += _listing("Collateral: failed because of a clause at fault", [
        f"- `{clause}` on `{_cell(target)}`, because of `{row['cause']}`"
        for target in model["targets"] for clause, row in ranking[target][1]])
    out += _listing("Regressions", [f"- `{c['clause_id']}` on `{_cell(c['target'])}`: passed in {c['baseline_run']}, "
                                    f"failed in {c['current_run']}: {_cell(c['reason'])}"
                                    for c in model["changes"] if c["change"] == "regression"])
    out += _listing("Fixes", [f"- `{c['clause_id']}` on `{_cell(c['target'])}`: failed in {c['baseline_run']}, "
                              f"passed in {c['current_run']}" for c in model["changes"] if c["change"] == "fix"])
    out += _listing("MUST clauses never exercised", [
        f"- `{c['clause_id']}` ({c['level']}{', waived' if c['waived_only'] else ''}): "
        f"{_cell('; '.join(c['reasons']) or ', '.join(c['verdicts']))}" for c in model["never_exercised"]])
    out += _listing("Flaky clauses", [f"- `{c['clause_id']}` on `{_cell(c['target'])}` (suite {c['suite_version']}): "
                                      f"{c['passed']} passed, {c['failed']} failed" for c in model["flaky"]])
    out += _strength(model.get("strength"))
    out += _listing("Inputs left out", [f"- {_cell(error)}" for error in model["errors"]])
    return "\n".join(out).rstrip() + "\n"


def _percent(value) -> str:
    return "-" if value is None else f"{value}%"


def _strength(strength: dict | None) -> list[str]:
    """Kill rate overall and by area, the survivors; the mutation score and its unexplained survivors."""
    if not strength:
        return []
    out = ["### Suite strength", ""]
    overall = strength["kill_rate"]["overall"]
    if overall:
        out += [(f"Kill rate: **{overall['killed']} of {overall['variants']} variants "
                 f"({_percent(overall['rate'])})**, {overall['survived']} survived, {overall['errors']} did not "
                 f"complete (run started {strength['run']['started']})."),
                "", "| area | variants | killed | kill rate |", "|---|---:|---:|---:|"]
        out += [f"| {_cell(row['key'])} | {row['variants']} | {row['killed']} | {_percent(row['rate'])} |"
                for row in strength["kill_rate"]["by_area"]]
        out.append("")
        out += _listing("Surviving variants", [f"- `{row['name']}` ({row['clause']}): {_cell(row['text'])}"
                                               for row in strength["variants"] if row["status"] == "survived"]) \
            or ["No variant survives.", ""]
    mutants = strength["mutants"]
    if mutants:
        out += [(f"Mutation score: **{_percent(mutants['score'])}** ({mutants['killed']} killed, "
                 f"{mutants['survived']} survived of {mutants['tested']} tested, {mutants['pending']} pending; "
                 f"{mutants['equivalent']} survivors explained as equivalent)."), ""]
        out += _listing("Unexplained surviving mutants", [
            f"- `{row['module']}:{row['line']}` {row['operator']}: `{_cell(row['source_line'])}`"
            for row in mutants["survivors"] if not row["equivalent"]])
    return out
