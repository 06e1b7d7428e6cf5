"""A short Markdown summary of a report, small enough for a CI comment.

Per target: the verdict and the clause counts; then the failing clauses with the
first line of their failure, regressions and fixes against the baseline, MUST
clauses never exercised, flaky clauses and the inputs left out, each list cut
at LIMIT lines with the number left out said.
"""

from __future__ import annotations

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
            "|---|---|---|" + "---:|" * len(VERDICTS)]
    for target in model["targets"]:
        counts = model["counts"][target]
        verdict = "conformant" if counts["failed"] == 0 else "**NOT conformant**"
        out.append(f"| `{_cell(target)}` | {model['latest'][target]} | {verdict} | "
                   + " | ".join(str(counts[v]) for v in VERDICTS) + " |")
    out.append("")
    failing = [f"- `{clause}` on `{_cell(target)}`: {_cell(row['reason'])}"
               for target in model["targets"] for clause, row in sorted(model["matrix"][target].items())
               if row["verdict"] == "failed"]
    out += _listing("Failing clauses", failing)
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
    out += _listing("Inputs left out", [f"- {_cell(error)}" for error in model["errors"]])
    return "\n".join(out).rstrip() + "\n"
