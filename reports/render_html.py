"""The HTML report: one self-contained file that opens from disk.

Styles, script and charts are inline (assets/report.css, assets/report.js,
charts.py); the report model travels in a <script type="application/json"> block
with "<" escaped, and a Content-Security-Policy forbids every load from elsewhere,
so the page cannot reach the network even by mistake.

The header (the verdict of each target, the inputs left out) sits above a list of
pages, PAGES: each is an id, a title and a function from the report model to its
HTML ("" leaves it out), so a new page is one entry more and nothing else
changes.  The script shows one page at a time (the one the URL's #fragment
names); without scripts every page shows, one after the other.  The clause x
target matrix and its drill-down (scenarios, steps, failure messages) are built
by the script from the model; summaries, charts and lists are plain HTML.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path

from .charts import VERDICTS, history_bars, horizontal_bars, legend

ASSETS = Path(__file__).resolve().parent / "assets"
HISTORY_RUNS = 40
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"


def _e(value) -> str:
    return escape("" if value is None else str(value))


def _table(headers: list[str], rows: list[list], numeric: set[int] = frozenset(), css: str = "") -> str:
    if not rows:
        return '<p class="muted">None.</p>'
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f'<td{" class=n" if i in numeric else ""}>{_e(c)}</td>' for i, c in enumerate(row))
                   + "</tr>" for row in rows)
    return f'<table class="{css}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _summary(model: dict) -> str:
    rows = []
    for target in model["targets"]:
        counts = model["counts"][target]
        badge = ('<span class="badge ok">conformant</span>' if counts["failed"] == 0
                 else '<span class="badge bad">NOT conformant</span>')
        rows.append(f"<tr><td><code>{_e(target)}</code></td><td>{_e(model['latest'][target])}</td><td>{badge}</td>"
                    + "".join(f'<td class="n">{counts[v]}</td>' for v in VERDICTS) + "</tr>")
    head = "".join(f"<th>{v}</th>" for v in ["target", "run", "verdict", *VERDICTS])
    return f'<table id="summary-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _coverage(model: dict) -> str:
    parts = [legend()]
    for target in model["targets"]:
        rows = [row for row in model["coverage"] if row["target"] == target]
        documents = [r for r in rows if r["grouping"] == "document"]
        parts.append(f"<h3>Coverage by document and section: <code>{_e(target)}</code></h3>")
        parts.append(horizontal_bars([(r["key"], f"{r['key']}: {r['clauses']} clauses", r) for r in documents]))
        for document in documents:
            sections = [(f"{r['key']} {r['title']}", f"{r['key']} {r['title']}", r) for r in rows
                        if r["grouping"] == "section" and r["document"] == document["key"]]
            sections.sort(key=lambda item: [int(p) if p.isdigit() else p for p in item[2]["key"].split(".")])
            parts.append(f"<details><summary>{_e(document['key'])}: {len(sections)} sections</summary>"
                         f"{horizontal_bars(sections)}</details>")
        levels = [(r["key"], r["key"], r) for r in rows if r["grouping"] == "level"]
        parts.append("<details><summary>By level</summary>" + horizontal_bars(levels) + "</details>")
    return "".join(parts)


def _history(model: dict) -> str:
    parts = [legend()]
    for target in model["targets"]:
        rows = [row for row in model["history"] if row["target"] == target][-HISTORY_RUNS:]
        parts.append(f"<h3>Verdicts across runs: <code>{_e(target)}</code> ({len(rows)} most recent runs)</h3>")
        parts.append(history_bars(rows))
    return "".join(parts)


def _machines(model: dict) -> str:
    rules = model["machines"]["rules"]
    if not rules:
        return '<p class="muted">No stateful machine steps in these runs.</p>'
    parts = [_table(["target", "machine", "rule", "steps", "runs", "examples", "mismatches"],
                    [[r["target"], r["machine"], r["action"], r["steps"], r["runs"], r["examples"], r["mismatches"]]
                     for r in rules], numeric={3, 4, 5, 6})]
    pairs = model["machines"]["pairs"]
    for key in sorted({(p["target"], p["machine"]) for p in pairs}):
        mine = [p for p in pairs if (p["target"], p["machine"]) == key]
        states = sorted({p["state"] for p in mine})
        actions = sorted({p["action"] for p in mine})
        counts = {(p["state"], p["action"]): p["steps"] for p in mine}
        body = "".join("<tr><th>" + _e(state) + "</th>" + "".join(
            f'<td class="n{" hot" if counts.get((state, a)) else ""}">{counts.get((state, a), "")}</td>'
            for a in actions) + "</tr>" for state in states)
        head = "".join(f"<th>{_e(a)}</th>" for a in actions)
        parts.append(f"<details><summary>(state, rule) pairs: {_e(key[1])} on <code>{_e(key[0])}</code>: "
                     f"{len(mine)} of {len(states) * len(actions)} exercised</summary>"
                     f'<table class="pairs"><thead><tr><th>state \\ rule</th>{head}</tr></thead>'
                     f"<tbody>{body}</tbody></table></details>")
    return "".join(parts)


def _readings(model: dict) -> str:
    rows = []
    for target in model["targets"]:
        profile = model["profiles"].get(target) or {}
        if profile.get("profile") is None and profile.get("demanded_profile") is None:
            continue
        rows.append([target, json.dumps(profile.get("profile")), json.dumps(profile.get("demanded_profile"))])
    if not rows:
        return ""
    return "<h2>Readings of the open decisions</h2>" + _table(["target", "profile shown", "profile demanded"], rows)


def _clauses_page(model: dict) -> str:
    verdict_options = "".join(f'<option value="{v}">{v}</option>' for v in VERDICTS)
    return f"""<h2>Clauses &times; targets</h2>
<div class="filters"><input id="filter-text" type="search" placeholder="clause id, text or section">
<select id="filter-verdict"><option value="">any verdict</option>{verdict_options}</select>
<select id="filter-document"><option value="">every document</option></select>
<span id="shown" class="muted"></span><span class="muted">Click a clause for its scenarios and steps.</span></div>
<noscript><p>The matrix needs scripts; summary.json holds the same verdicts.</p></noscript>
<table id="matrix"><thead></thead><tbody></tbody></table>"""


def _coverage_page(model: dict) -> str:
    never = [[c["clause_id"], c["level"], "waived" if c["waived_only"] else ", ".join(c["verdicts"]),
              "; ".join(c["reasons"])] for c in model["never_exercised"]]
    return (f"<h2>Coverage</h2>{_coverage(model)}<h2>MUST clauses never exercised</h2>"
            + _table(["clause", "level", "verdicts", "why"], never))


def _history_page(model: dict) -> str:
    changes = [[c["change"], c["target"], c["clause_id"], c["baseline_run"], c["current_run"], c["reason"]]
               for c in model["changes"]]
    flaky = [[c["target"], c["suite_version"], c["clause_id"], c["passed"], c["failed"], c["last_failed_run"]]
             for c in model["flaky"]]
    return (f"<h2>Verdicts across runs</h2>{_history(model)}<h2>Changes against the baseline</h2>"
            + _table(["change", "target", "clause", "baseline run", "current run", "reason"], changes)
            + "<h2>Flaky clauses</h2>"
            + _table(["target", "suite version", "clause", "passed", "failed", "last failed run"], flaky,
                     numeric={3, 4}))


def _machines_page(model: dict) -> str:
    return f"<h2>Stateful machines</h2>{_machines(model)}"


def _runs_page(model: dict) -> str:
    rows = [[run["run_id"], run["started"][:19], run["suite_version"], ", ".join(run["targets"]),
             run["exit_status"], ", ".join(f"{d} {r}" for d, r in sorted((run["spec_revisions"] or {}).items())),
             ", ".join(sorted(run["waived_clauses"] or {})), ", ".join(run["skipped_levels"] or [])]
            for run in reversed(model["runs"])]
    return ("<h2>Runs read</h2>"
            + _table(["run", "started", "suite version", "targets", "pytest status", "specification revisions",
                      "waived clauses", "skipped levels"], rows, numeric={4})
            + _readings(model))


@dataclass(frozen=True)
class Page:
    """One page of the report: `render(model)` gives its HTML, or "" to leave the page out."""
    id: str
    title: str
    render: Callable[[dict], str]


# the report's pages, in the order of its navigation; a new page is one more entry here
PAGES: list[Page] = [
    Page("clauses", "Clauses", _clauses_page),
    Page("coverage", "Coverage", _coverage_page),
    Page("history", "History", _history_page),
    Page("machines", "Stateful machines", _machines_page),
    Page("runs", "Runs", _runs_page),
]


def render_html(model: dict, pages: list[Page] | None = None) -> str:
    css = (ASSETS / "report.css").read_text(encoding="utf-8")
    script = (ASSETS / "report.js").read_text(encoding="utf-8")
    data = json.dumps(model, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    runs = model["runs"]
    errors = "".join(f"<li>{_e(error)}</li>" for error in model["errors"])
    shown = [(page, page.render(model)) for page in (PAGES if pages is None else pages)]
    shown = [(page, body) for page, body in shown if body]
    nav = "".join(f'<a href="#{_e(page.id)}" data-page="{_e(page.id)}">{_e(page.title)}</a>' for page, _ in shown)
    sections = "".join(f'<section class="page" id="{_e(page.id)}">{body}</section>' for page, body in shown)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mqspec report: {_e(", ".join(model["targets"]))}</title>
<style>{css}</style></head>
<body>
<h1>mqspec clause verdicts</h1>
<p class="meta">Suite version <code>{_e(", ".join(model["suite_versions"]))}</code> &middot; {len(runs)} run(s) from
{_e(runs[0]["started"][:19] if runs else "")} to {_e(runs[-1]["started"][:19] if runs else "")} &middot;
made {_e(model["generated"])} on <code>{_e(model["master"])}</code></p>
{_summary(model)}
{f'<h2>Inputs left out</h2><ul id="input-errors">{errors}</ul>' if errors else ""}
<nav id="pages">{nav}</nav>
{sections}
<script id="report-data" type="application/json">{data}</script>
<script>{script}</script>
</body></html>
"""
