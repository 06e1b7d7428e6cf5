"""`mqspec report` over `mqspec strength` results: kill rates, the variant x clause table, survivors, the
mutation score, the strength page, a report of strength results alone, and bad strength inputs (issue 9).

strength.json is written by strength/run.py's own writer (build_record, write_record) from made-up outcomes
of four real variants, so the report reads the format as `mqspec strength` writes it; mutants.json is written
here with the keys strength/mutants.py's report() gives.
"""

from __future__ import annotations

import datetime as _dt
import json
import time
from pathlib import Path

import pytest

from mqspec.reports.errors import InputError
from mqspec.reports.inputs import find_runs, find_strength
from mqspec.reports.pipeline import NothingToReport, make_report
from mqspec.reports.render_html import PAGES, render_html
from mqspec.reports.strength_files import stage
from mqspec.reports.summary import summary_lines
from mqspec.strength.run import Failure, RunOutcome, build_record, write_record
from mqspec.strength.variants import EQUIVALENT, VARIANTS
from tests.test_reports_browser import browser  # noqa: F401
from tests.test_reports_fixtures import SUITE, history, spark  # noqa: F401

FIFO, NEWEST, PEEK, LOOKUP = ("fifo-ignores-priority", "newest-first-within-priority", "peek-next-on-unread-cursor",
                              "lookup-prev-seeks-forward")
OTHER = "MS-MQDMPR:3.2.7.2:01"   # a clause other than the one each variant misreads


def failure(test: str, *clauses: str, kind: str = "scenario") -> Failure:
    module = "test_machines" if kind == "machine" else "test_conformance"
    return Failure(f"features/{module}.py::{test}", kind, list(clauses))


def write_strength(directory: Path, started: str, outcomes: dict[str, tuple[str, list[Failure]]]) -> Path:
    """strength.json and strength.md as `mqspec strength` writes them, for the variants named in `outcomes`."""
    directory.mkdir(parents=True, exist_ok=True)
    variants = [VARIANTS[name] for name in outcomes]
    judged = [RunOutcome(name, status, 12.5, 40, failures) for name, (status, failures) in outcomes.items()]
    control = RunOutcome("reference", "passed", 10.0, 40)
    record = build_record(variants, judged, control, _dt.datetime.fromisoformat(started), 95.0, 2, False)
    write_record(record, directory)
    return directory / "strength.json"


MUTANTS = {
    "format": "mqspec-mutants/1", "tool": "cosmic-ray", "finished": "2026-03-01T00:00:00+00:00", "seconds": 50.0,
    "jobs": 2, "mutants": 10, "tested": 6, "skipped": 4, "pending": 0, "killed": 4, "survived": 2, "timed_out": 1,
    "score": 66.7,
    "survivors": [
        {"module": "reference/cursor.py", "line": 12, "source": "if a == b:", "operator": "core/Eq_NotEq",
         "equivalent": "", "diff": "--- a/reference/cursor.py\n-if a == b:\n+if a != b:"},
        {"module": "reference/reads.py", "line": 40, "source": "limit = 1", "operator": "core/NumberReplacer",
         "equivalent": "the value is never read", "diff": "-limit = 1\n+limit = 2"}],
    "results": [{"module": "reference/cursor.py", "line": n, "operator": "core/X", "outcome": "killed",
                 "killed_by": ["features/test_conformance.py::test_a"]} for n in (1, 2, 3)]
    + [{"module": "reference/cursor.py", "line": 12, "operator": "core/Eq_NotEq", "outcome": "survived"},
       {"module": "reference/reads.py", "line": 7, "operator": "core/X", "outcome": "killed"},
       {"module": "reference/reads.py", "line": 40, "operator": "core/NumberReplacer", "outcome": "survived"}],
}


def strength_results(directory: Path) -> Path:
    """Four variants (one survives, one caught only by untagged and other clauses' tests) and the mutants."""
    write_strength(directory, "2026-03-02T00:00:00+00:00", {
        FIFO: ("killed", [failure("test_priority_order", VARIANTS[FIFO].clause),
                          failure("test_two_priorities", VARIANTS[FIFO].clause, OTHER),
                          failure("test_queue_machine", OTHER, kind="machine")]),
        NEWEST: ("survived", []),
        PEEK: ("killed", [failure("test_peek_next_unread", VARIANTS[PEEK].clause)]),
        LOOKUP: ("killed", [failure("test_lookup_untagged"), failure("test_lookup_other", OTHER)]),
    })
    (directory / "mutants").mkdir()
    (directory / "mutants" / "mutants.json").write_text(json.dumps(MUTANTS, indent=1))
    return directory


@pytest.fixture(scope="module")
def made(spark, tmp_path_factory):  # noqa: F811
    """A report of two runs, the strength results, and an older strength run that must not be the one shown."""
    root = tmp_path_factory.mktemp("strength")
    roles = history(root / "results")
    strength = strength_results(root / "results" / "strength-new")
    write_strength(root / "older", "2026-01-01T00:00:00+00:00", {FIFO: ("survived", [])})
    report = make_report([root / "results", root / "older"], root / "report", spark=spark, suite_version=SUITE,
                         quiet=True)
    return roles, strength, report


@pytest.mark.spark
def test_kill_rate_overall_by_area_and_by_section(made):
    _, strength, report = made
    model = report.model["strength"]
    assert report.errors == [] and len(report.model["runs"]) == 2
    assert model["run"]["file"] == str(strength / "strength.json")   # the latest strength run, not the older one
    rates = model["kill_rate"]
    assert rates["overall"] == {"variants": 4, "killed": 3, "survived": 1, "errors": 0, "rate": 75.0}
    assert [(r["key"], r["variants"], r["killed"], r["rate"]) for r in rates["by_area"]] == [
        ("ordering", 2, 1, 50.0), ("cursor", 1, 1, 100.0), ("lookup", 1, 1, 100.0)]   # the variants' own order
    assert [(r["document"], r["key"], r["title"], r["variants"], r["killed"], r["rate"]) for r in
            rates["by_section"]] == [("MS-MQDMPR", "3.1.1.2", "Queue", 2, 1, 50.0),
                                     ("MS-MQDMPR", "3.2.7.3", "Get Next Message For Peek", 1, 1, 100.0),
                                     ("MS-MQRR", "3.1.4.7", "R_StartReceive (Opnum 7)", 1, 1, 100.0)]
    assert [(r["key"], r["rate"]) for r in rates["by_document"]] == [("MS-MQDMPR", 66.7), ("MS-MQRR", 100.0)]
    # the same figures as the writer's own (strength/run.py), computed here by the Spark stages
    written = json.loads((strength / "strength.json").read_text())["kill_rate"]
    assert {f"{r['document']} {r['key']} {r['title']}": r["rate"] for r in rates["by_section"]} == {
        section: rate["rate"] for section, rate in written["by_section"].items()}
    assert model["survivors"] == [NEWEST] and model["errors"] == []


@pytest.mark.spark
def test_the_variant_x_clause_table(made):
    _, _, report = made
    model = report.model["strength"]
    rows = {row["name"]: row for row in model["variants"]}
    assert list(rows) == [FIFO, NEWEST, PEEK, LOOKUP]
    fifo = rows[FIFO]
    assert fifo["caught_by"] == [[VARIANTS[FIFO].clause, 2, 2, 0], [OTHER, 2, 1, 1]]   # own clause first
    assert (fifo["scenarios_failed"], fifo["machines_failed"], fifo["clauses_caught"], fifo["caught_own_clause"]) == (
        2, 1, 2, True)
    assert rows[NEWEST]["caught_by"] == [] and rows[NEWEST]["status"] == "survived"
    assert sorted(rows[LOOKUP]["caught_by"]) == [["(untagged)", 1, 1, 0], [OTHER, 1, 1, 0]]
    assert rows[LOOKUP]["caught_own_clause"] is False and rows[PEEK]["caught_own_clause"] is True
    assert rows[PEEK]["text"] == VARIANTS[PEEK].text and rows[PEEK]["area"] == "cursor"
    assert model["equivalent"] == [{"name": name, "reason": reason} for name, reason in sorted(EQUIVALENT.items())]


@pytest.mark.spark
def test_the_mutation_score_and_its_survivors(made):
    _, _, report = made
    mutants = report.model["strength"]["mutants"]
    assert (mutants["mutants"], mutants["tested"], mutants["killed"], mutants["survived"]) == (10, 6, 4, 2)
    assert (mutants["score"], mutants["score_without_equivalent"]) == (66.7, 80.0)
    assert (mutants["equivalent"], mutants["unexplained"]) == (1, 1)
    assert [(m["module"], m["tested"], m["killed"], m["survived"], m["score"]) for m in mutants["modules"]] == [
        ("reference/cursor.py", 4, 3, 1, 75.0), ("reference/reads.py", 2, 1, 1, 50.0)]
    assert [(s["module"], s["line"], s["equivalent"]) for s in mutants["survivors"]] == [
        ("reference/cursor.py", 12, ""), ("reference/reads.py", 40, "the value is never read")]


@pytest.mark.spark
def test_the_strength_page_summary_and_markdown(made):
    _, _, report = made
    html = report.files["html"].read_text()
    assert '<a href="#strength" data-page="strength">Strength</a>' in html
    page = html.split('<section class="page" id="strength">', 1)[1].split("</section>", 1)[0]
    survivors = page.split('id="strength-survivors"', 1)[1].split("</ul>", 1)[0]
    assert NEWEST in survivors and FIFO not in survivors
    assert "Kill rate: <strong>3 of 4 variants (75.0%)</strong>" in page
    assert f'<a href="#clause={VARIANTS[FIFO].clause}">' in page and "svg" in page
    assert "Score <strong>66.7%</strong>" in page and "<strong>not explained</strong>" in page
    assert all(name in page for name in EQUIVALENT)
    assert html.count('<section class="page"') == len(PAGES)   # the report of runs keeps every other page
    summary = json.loads(report.files["json"].read_text())
    assert summary["strength"]["kill_rate"]["overall"]["rate"] == 75.0
    markdown = report.files["markdown"].read_text()
    assert "### Suite strength" in markdown and "**3 of 4 variants (75.0%)**" in markdown
    assert f"- `{NEWEST}`" in markdown and "Mutation score: **66.7%**" in markdown
    lines = summary_lines(report.model)
    assert "strength: kill rate 3/4 variants (75.0%), 1 survived, 0 did not complete" in lines
    assert any(line.startswith(f"  SURVIVED {NEWEST} ") for line in lines)
    # without strength input the page is left out and nothing else changes
    plain = render_html({**report.model, "strength": None})
    assert 'data-page="strength"' not in plain and plain.count('<section class="page"') == len(PAGES) - 1


@pytest.fixture(scope="module")
def alone(spark, tmp_path_factory):  # noqa: F811
    """A report of strength results without any run, with three bad strength inputs beside them."""
    root = tmp_path_factory.mktemp("alone")
    path = write_strength(root / "good", "2026-03-02T00:00:00+00:00", {
        NEWEST: ("survived", []), LOOKUP: ("killed", [failure("test_lookup_other", OTHER)])})
    record = json.loads(path.read_text())
    record["variants"][1].update(clause="MS-MQRR:9.9.9:01", section="MS-MQRR 9.9.9 Lost Section")
    path.write_text(json.dumps(record))   # a clause the catalogue no longer holds keeps the record's own label
    cut = write_strength(root / "cut", "2026-03-03T00:00:00+00:00", {NEWEST: ("survived", [])})
    cut.write_text(cut.read_text()[:200])
    other = write_strength(root / "other", "2026-03-04T00:00:00+00:00", {NEWEST: ("survived", [])})
    other.write_text(other.read_text().replace("mqspec-strength/1", "mqspec-strength/9"))
    (root / "mutants" / "mutants").mkdir(parents=True)
    (root / "mutants" / "mutants" / "mutants.json").write_text(json.dumps(
        {key: value for key, value in MUTANTS.items() if key != "killed"}))
    report = make_report([root / "good", root / "cut", root / "other", root / "mutants"], root / "report",
                         spark=spark, suite_version=SUITE, quiet=True)
    return root, report


@pytest.mark.spark
def test_a_report_of_strength_results_alone_names_each_bad_one_in_one_line(alone):
    root, report = alone
    errors = [str(error) for error in report.errors]
    assert all("\n" not in error for error in errors) and len(errors) == 3, errors
    assert errors[0].startswith(f"{root / 'cut' / 'strength.json'}: cut short or not JSON (")
    assert errors[1] == (f"{root / 'other' / 'strength.json'}: format 'mqspec-strength/9' is not mqspec-strength/1, "
                         "the one this report reads")
    assert errors[2] == f"{root / 'mutants' / 'mutants' / 'mutants.json'}: 'killed' is missing or not a number"
    model = report.model
    assert model["runs"] == [] and model["targets"] == [] and model["strength"]["mutants"] is None
    assert model["strength"]["kill_rate"]["overall"]["rate"] == 50.0
    assert [(r["document"], r["key"], r["title"]) for r in model["strength"]["kill_rate"]["by_section"]] == [
        ("MS-MQDMPR", "3.1.1.2", "Queue"), ("MS-MQRR", "9.9.9", "Lost Section")]
    html = report.files["html"].read_text()
    pages = [part.split('"', 1)[0] for part in html.split('data-page="')[1:]]
    assert pages == ["strength", "clauses"]   # strength first; no pages about runs; the matrix its links open
    assert '<a href="#clause=MS-MQRR:9.9.9:01">' not in html   # no link to a clause the catalogue lacks


@pytest.mark.spark
def test_nothing_to_report_when_every_strength_input_is_bad(spark, tmp_path):  # noqa: F811
    path = write_strength(tmp_path / "cut", "2026-03-03T00:00:00+00:00", {NEWEST: ("survived", [])})
    path.write_text("[]")
    with pytest.raises(NothingToReport) as caught:
        make_report([tmp_path / "cut"], tmp_path / "report", spark=spark, suite_version=SUITE, quiet=True)
    assert [str(error) for error in caught.value.errors] == [
        f"{path}: not a mqspec-strength/1 record (a JSON object)"]


def test_strength_directories_are_found_given_or_one_level_down_and_are_no_runs(tmp_path):
    strength_results(tmp_path / "results" / "strength-1")
    (tmp_path / "results" / "notes").mkdir()
    (tmp_path / "mutants-only" / "mutants").mkdir(parents=True)
    (tmp_path / "mutants-only" / "mutants" / "mutants.json").write_text(json.dumps(MUTANTS))
    found = find_strength([tmp_path / "results", tmp_path / "mutants-only", tmp_path / "results" / "strength-1"])
    assert [(f.directory.name, f.strength is not None, f.mutants is not None) for f in found] == [
        ("strength-1", True, True), ("mutants-only", False, True)]
    assert find_runs([tmp_path / "results", tmp_path / "mutants-only"], SUITE) == ([], [])   # no "empty directory"


@pytest.mark.parametrize("damage, fragment", [
    (lambda r: r.pop("variants"), "'variants' is missing or not a list"),
    (lambda r: r.pop("format"), "no 'format' key: not a mqspec-strength/1 record"),
    (lambda r: r["variants"][0].update(status="maybe"), f"variant {FIFO}: status 'maybe' is not one of killed, "),
    (lambda r: r["variants"][0]["failures"][0].update(clauses="MS-MQRR:1:01"), "'clauses' must be a list of str"),
    (lambda r: r["variants"].append(dict(r["variants"][0])), f"variant {FIFO} appears twice"),
])
def test_a_bad_strength_record_is_named_in_one_line(tmp_path, damage, fragment):
    path = write_strength(tmp_path / "s", "2026-03-02T00:00:00+00:00",
                          {FIFO: ("killed", [failure("test_priority_order", VARIANTS[FIFO].clause)])})
    record = json.loads(path.read_text())
    damage(record)
    path.write_text(json.dumps(record))
    read, errors = stage(tmp_path / "staged", find_strength([tmp_path / "s"]))
    assert not read and len(errors) == 1 and isinstance(errors[0], InputError)
    assert str(errors[0]).startswith(f"{path}: ") and fragment in str(errors[0]) and "\n" not in str(errors[0])


@pytest.mark.spark
def test_a_clause_link_of_the_strength_page_opens_its_row_of_the_matrix(alone, browser):  # noqa: F811
    _, report = alone
    browser.call("Page.enable")
    browser.call("Page.navigate", url=report.files["html"].resolve().as_uri())
    browser.wait_for("Page.loadEventFired")
    deadline = time.monotonic() + 20
    while browser.evaluate("document.body.getAttribute('data-ready')") != "true":
        assert time.monotonic() < deadline, "the report's script never finished"
        time.sleep(0.1)
    visible = """Array.prototype.filter.call(document.querySelectorAll('section.page'),
        function (s) { return !s.hidden; }).map(function (s) { return s.id; })"""
    assert browser.evaluate(visible) == ["strength"]
    clause = VARIANTS[NEWEST].clause
    browser.evaluate(f"document.querySelector('#strength-variants a[href=\"#clause={clause}\"]').click()")
    while browser.evaluate(visible) != ["clauses"]:
        assert time.monotonic() < deadline, browser.evaluate(visible)
        time.sleep(0.1)
    opened = browser.evaluate("""[document.getElementById('filter-text').value,
        document.getElementById('shown').textContent,
        (document.querySelector('tr.clause.open') || {}).getAttribute ?
            document.querySelector('tr.clause.open').getAttribute('data-clause') : null,
        document.querySelectorAll('tr.detail').length]""")
    assert opened == [clause, f"1 of {len(report.model['clauses'])} clauses", clause, 1], opened


@pytest.mark.spark
def test_mqspec_report_of_a_strength_directory(tmp_path):
    from tests.test_reports_cli import mqspec, no_traceback
    directory = strength_results(tmp_path / "strength-1")
    process = mqspec("report", directory, suite_version=SUITE)
    no_traceback(process)
    assert process.returncode == 0, process.stdout + process.stderr
    lines = process.stdout.splitlines()
    assert lines[0] == "mqspec: 0 run(s) reported with the suite's strength"
    assert "  strength: kill rate 3/4 variants (75.0%), 1 survived, 0 did not complete" in lines
    assert "  mutants: score 66.7% (4 killed, 2 survived of 6 tested), 1 survivor(s) not explained" in lines
    assert lines[-1] == f"  report: {directory / 'report' / 'report.html'}"   # beside the results, as for a run
    assert 'data-page="strength"' in (directory / "report" / "report.html").read_text()
