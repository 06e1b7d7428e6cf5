"""The HTML report: one self-contained file that opens from disk.

Styles, scripts and charts are inline (assets/report.css, assets/evidence.js,
assets/report.js, charts.py); the report model travels in a <script type="application/json"> block
with "<" escaped, and a Content-Security-Policy forbids every load from elsewhere,
so the page cannot reach the network even by mistake.

The header (the verdict of each target, the inputs left out) sits above a list of
pages, PAGES: each is an id, a title and a function from the report model to its
HTML ("" leaves it out), so a new page is one entry more and nothing else
changes.  The script shows one page at a time (the one the URL's #fragment
names); without scripts every page shows, one after the other.  The clause x
target matrix, its drill-down (scenarios, steps, failure messages, and for a failed
scenario its evidence: data tables, the target's answers, PDUs, the judge's
transcript) and the failures-first list above it are built by the script from the
model (a clause of the other side of MS-MQRR, judged on no target shown, appears
only on demand); summaries, charts and lists are plain HTML.  The
strength page (only with `mqspec strength` results among the inputs) links each
clause to its row of the matrix as #clause=ID, which the script opens.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path

from .charts import STRENGTH, STRENGTH_COLORS, STRENGTH_KEYS, VERDICTS, history_bars, horizontal_bars, legend
from .faults import ranked
from .record import verdict_of

ASSETS = Path(__file__).resolve().parent / "assets"
HISTORY_RUNS = 40
SCRIPTS = ("evidence.js", "report.js")   # inline, in this order: report.js draws a failure's evidence with evidence.js
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
        verdict = verdict_of(model["matrix"][target])
        badge = {"conformant": '<span class="badge ok">conformant</span>',
                 "incomplete": f'<span class="badge bad">incomplete: {counts["not run"]} not run</span>',
                 "not conformant": '<span class="badge bad">NOT conformant</span>'}[verdict]
        at_fault, collateral = ranked(model["matrix"][target])
        fault = ", ".join(f"{clause}" + (f" (+{explains - 1} collateral)" if explains > 1 else "")
                          for clause, _, explains in at_fault[:5]) + (" ..." if len(at_fault) > 5 else "")
        rows.append(f"<tr><td><code>{_e(target)}</code></td><td>{_e(model['latest'][target])}</td><td>{badge}</td>"
                    + "".join(f'<td class="n">{counts[v]}</td>' for v in VERDICTS)
                    + f'<td class="at-fault">{_e(fault)}</td></tr>')
    head = "".join(f"<th>{v}</th>" for v in ["target", "run", "verdict", *VERDICTS, "clauses at fault, first"])
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
    return f"""<h2>Failures first</h2>
<div id="failures"></div>
<h2>Clauses &times; targets</h2>
<div class="filters"><input id="filter-text" type="search" placeholder="clause id, text or section">
<select id="filter-verdict"><option value="">any verdict</option>{verdict_options}</select>
<select id="filter-document"><option value="">every document</option></select>
<label><input id="show-other-side" type="checkbox"> the other side's clauses (&mdash;)</label>
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


CAUGHT_SHOWN = 6   # clauses named inline per variant; the rest fold away


def _clause_link(clause: str, known: set[str], text: str | None = None) -> str:
    """A clause id that opens its row of the matrix (report.js reads #clause=ID), when the catalogue holds it."""
    shown = _e(text if text is not None else clause)
    return f'<a href="#clause={_e(clause)}">{shown}</a>' if clause in known else shown


def _percent(value) -> str:
    return "-" if value is None else f"{value}%"


def _rate_table(headers: list[str], rows: list[dict], *labels: Callable[[dict], str], css: str = "") -> str:
    """One row per group: its labels, then variants, killed, survived, errors and the kill rate."""
    return _table([*headers, "variants", "killed", "survived", "errors", "kill rate"],
                  [[*(label(row) for label in labels), row["variants"], row["killed"], row["survived"], row["errors"],
                    _percent(row["rate"])] for row in rows], numeric=set(range(len(headers), len(headers) + 5)),
                  css=css)


def _rate_chart(rows: list[tuple[str, str, dict]]) -> str:
    """rows: (label, what it names in full, counts); the figure after a bar is killed / variants."""
    return horizontal_bars([(label, f"{name}: {row['killed']} of {row['variants']} killed", row)
                            for label, name, row in rows],
                           series=STRENGTH, colors=STRENGTH_COLORS, keys=STRENGTH_KEYS, counted=("killed",))


def _duration(seconds) -> str:
    if seconds is None:
        return "-"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _caught(row: dict, known: set[str]) -> str:
    """The clauses whose tests caught a variant, with the number of tests; its own clause in bold, first."""
    cells = [(f"<strong>{_clause_link(c, known)}</strong>" if c == row["clause"] else _clause_link(c, known))
             + f' <span class="muted" title="{s} scenarios, {m} machines">({n})</span>'
             for c, n, s, m in row["caught_by"]]
    if not cells:
        return _e(row["error"]) or "-"
    more = (f"<details><summary>{len(cells) - CAUGHT_SHOWN} more</summary>{', '.join(cells[CAUGHT_SHOWN:])}</details>"
            if len(cells) > CAUGHT_SHOWN else "")
    return ", ".join(cells[:CAUGHT_SHOWN]) + more


def _strength_variants(strength: dict, known: set[str]) -> str:
    run, rates = strength["run"], strength["kill_rate"]
    overall = rates["overall"]
    control = (f"the control (the unchanged reference) {_e(run['control_status'])}, {run['control_tests']} tests in "
               f"{run['control_seconds']} s" + (f", its {run['control_failures']} failing tests not counted as kills"
                                                 if run["control_failures"] else ""))
    quick = " (quick: one catching test per variant)" if run["quick"] else ""
    only = ", only the clauses " + _e(", ".join(run["clauses"])) if run["clauses"] else ""
    parts = [(f'<p id="kill-rate">Kill rate: <strong>{overall["killed"]} of {overall["variants"]} variants '
              f'({_percent(overall["rate"])})</strong>; {overall["survived"]} survived, {overall["errors"]} did not '
              "complete.</p>"),
             (f'<p class="meta">From <code>{_e(run["file"])}</code>, started {_e(run["started"][:19])}: '
              f'{_duration(run["seconds"])} with {run["jobs"]} jobs{quick}{only}; {control}.</p>'),
             legend(STRENGTH, STRENGTH_COLORS), "<h3>Kill rate by area</h3>",
             _rate_chart([(row["key"], row["key"], row) for row in rates["by_area"]]),
             _rate_table(["area"], rates["by_area"], lambda row: row["key"]),
             "<h3>Kill rate by section of the misread clause</h3>",
             _rate_chart([(f"{row['document']} {row['key']}", f"{row['document']} {row['key']} {row['title']}", row)
                          for row in rates["by_section"]]),
             _rate_table(["document", "section", "title"], rates["by_section"], lambda row: row["document"],
                         lambda row: row["key"], lambda row: row["title"], css="strength-sections"),
             "<details><summary>By document</summary>"
             + _rate_table(["document"], rates["by_document"], lambda row: row["key"]) + "</details>",
             "<h3>Survivors</h3>"]
    survivors = [row for row in strength["variants"] if row["status"] == "survived"]
    parts.append('<ul id="strength-survivors">' + "".join(
        f"<li><strong>{_e(row['name'])}</strong> ({_clause_link(row['clause'], known)}): {_e(row['text'])}</li>"
        for row in survivors) + "</ul>" if survivors
        else '<p id="strength-survivors" class="muted">None: the suite catches every variant.</p>')
    failed = [row for row in strength["variants"] if row["status"] == "error"]
    if failed:
        parts.append("<h3>Runs that did not complete</h3><ul>" + "".join(
            f"<li>{_e(row['name'])}: {_e(row['error'])}</li>" for row in failed) + "</ul>")
    css = {"killed": "v-passed", "survived": "v-failed"}
    rows = "".join(
        f'<tr><td class="id">{_e(row["name"])}</td><td class="id">{_clause_link(row["clause"], known)}</td>'
        f'<td>{_e(row["area"])}</td><td>{_e(row["text"])}</td>'
        f'<td class="verdict {css.get(row["status"], "v-not-run")}">{_e(row["status"])}</td>'
        f'<td class="n">{row["scenarios_failed"]} / {row["machines_failed"]}</td>'
        f"<td>{_caught(row, known)}</td></tr>" for row in strength["variants"])
    parts.append("<h3>Variants &times; clauses</h3><p class=\"muted\">Each variant, the clause it misreads, and the "
                 "clauses under which the tests that caught it are tagged (tests; its own clause in bold).</p>"
                 '<table id="strength-variants"><thead><tr><th>variant</th><th>misreads</th><th>area</th>'
                 "<th>what it gets wrong</th><th>verdict</th><th>scenarios / machines failed</th>"
                 f"<th>caught under clauses</th></tr></thead><tbody>{rows}</tbody></table>")
    parts.append("<h3>Removed as equivalent to the reference</h3>"
                 + _table(["variant", "why it behaves as the reference"],
                          [[row["name"], row["reason"]] for row in strength["equivalent"]]))
    return "".join(parts)


def _strength_mutants(mutants: dict) -> str:
    score = _percent
    parts = [(f'<h3 id="mutation-score">Mutation score: {_e(mutants["tool"] or "mutation tool")} over the '
              "reference's core</h3>"),
             (f'<p>Score <strong>{score(mutants["score"])}</strong>: {mutants["killed"]} killed, '
              f'{mutants["survived"]} survived of {mutants["tested"]} mutants tested ({mutants["timed_out"]} killed by '
              f'the time-out); {mutants["pending"]} not yet tested, {mutants["skipped"]} left out of a sample, '
              f'{mutants["mutants"]} in all.  Survivors explained as equivalent: {mutants["equivalent"]}, not '
              f'explained: {mutants["unexplained"]}; score without the equivalent ones: '
              f'{score(mutants["score_without_equivalent"])}.</p>'),
             f'<p class="meta">From <code>{_e(mutants["file"])}</code>, finished {_e(mutants["finished"][:19])}.</p>']
    if mutants["modules"]:
        parts.append("<details><summary>By module</summary>" + _table(
            ["module", "tested", "killed", "survived", "other", "score"],
            [[m["module"], m["tested"], m["killed"], m["survived"], m["other"], score(m["score"])]
             for m in mutants["modules"]], numeric={1, 2, 3, 4, 5}) + "</details>")
    parts.append("<h4>Surviving mutants</h4>")
    if not mutants["survivors"]:
        parts.append('<p id="mutant-survivors" class="muted">None.</p>')
        return "".join(parts)
    rows = "".join(
        f'<tr><td class="id">{_e(row["module"])}:{row["line"]}</td><td>{_e(row["operator"])}</td>'
        f'<td><code>{_e(row["source_line"])}</code></td><td>'
        + (f"equivalent: {_e(row['equivalent'])}" if row["equivalent"] else "<strong>not explained</strong>")
        + (f"<details><summary>diff</summary><pre>{_e(row['diff'])}</pre></details>" if row["diff"] else "")
        + "</td></tr>" for row in mutants["survivors"])
    parts.append('<table id="mutant-survivors"><thead><tr><th>where</th><th>operator</th><th>line</th><th>why it '
                 f"survives</th></tr></thead><tbody>{rows}</tbody></table>")
    return "".join(parts)


def _strength_page(model: dict) -> str:
    strength = model.get("strength")
    if not strength:
        return ""
    known = {clause["clause_id"] for clause in model["clauses"]}
    parts = ["<h2>Suite strength: wrong queue managers the suite must reject</h2>"]
    if strength["run"]:
        parts.append(_strength_variants(strength, known))
    if strength["mutants"]:
        parts.append(_strength_mutants(strength["mutants"]))
    return "".join(parts)


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
    Page("strength", "Strength", _strength_page),
    Page("runs", "Runs", _runs_page),
]
RUN_PAGES = ("coverage", "history", "machines", "runs")   # pages with nothing to show in a report without runs


def render_html(model: dict, pages: list[Page] | None = None) -> str:
    css = (ASSETS / "report.css").read_text(encoding="utf-8")
    script = "\n".join((ASSETS / name).read_text(encoding="utf-8") for name in SCRIPTS)
    data = json.dumps(model, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    runs = model["runs"]
    errors = "".join(f"<li>{_e(error)}</li>" for error in model["errors"])
    shown = [(page, page.render(model)) for page in (PAGES if pages is None else pages)
             if runs or page.id not in RUN_PAGES]
    shown = [(page, body) for page, body in shown if body]
    if not runs:   # strength results alone: their page first; the clauses page stays, the target of its links
        shown.sort(key=lambda item: item[0].id != "strength")
    nav = "".join(f'<a href="#{_e(page.id)}" data-page="{_e(page.id)}">{_e(page.title)}</a>' for page, _ in shown)
    sections = "".join(f'<section class="page" id="{_e(page.id)}">{body}</section>' for page, body in shown)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mqspec report: {_e(", ".join(model["targets"]) or "suite strength")}</title>
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
