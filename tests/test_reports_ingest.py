"""Reading result files and the suite's definition (no Spark): rows, and one line per bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mqspec.reports.cucumber import read_cucumber
from mqspec.reports.errors import InputError
from mqspec.identity import target_identity
from mqspec.reports.inputs import find_runs, read_run
from mqspec.reports.junit import read_junit
from mqspec.reports.suite import scenario_rows
from tests.test_reports_fixtures import SECRET_TARGET, SHOWN_TARGET, SUITE, Case, clause_ids, write_run

ROOT = Path(__file__).resolve().parent.parent
KNOWN = set(clause_ids()["must"])
MUST = sorted(KNOWN)[:3]


def one_line(error: InputError, path) -> str:
    text = str(error)
    assert "\n" not in text and text.startswith(f"{path}: "), text
    return text


def test_junit_rows_keep_every_property_and_leave_unit_tests_out(tmp_path):
    run = write_run(tmp_path / "r", "r1", "2026-01-01T00:00:00+00:00", [
        Case("test_x[reference]", MUST[:2], "failed", "AssertionError: no\nsecond line", "Traceback\nE  no",
             decisions=["D-03"], readings=["D-03=msdn"], extra=[("colour", "blue")]),
        Case("test_y[reference]", MUST[2:], "skipped", "not run: needs rpc (x)")])
    results, properties, errors = read_junit(run / "junit.xml", "r1", ["reference"], KNOWN)
    assert errors == [] and [r["name"] for r in results] == ["test_x[reference]", "test_y[reference]"]
    assert (results[0]["outcome"], results[0]["message"], results[0]["detail"]) == (
        "failed", "AssertionError: no\nsecond line", "Traceback\nE  no")
    assert results[1]["outcome"] == "skipped" and results[1]["message"] == "not run: needs rpc (x)"
    assert (results[0]["clauses"], results[0]["decisions"], results[0]["readings"]) == (
        sorted(MUST[:2]), ["D-03"], ["D-03=msdn"])
    pairs = {(p["name"], p["property"], p["value"]) for p in properties}
    assert {("test_x[reference]", "clause", MUST[0]), ("test_x[reference]", "decision", "D-03"),
            ("test_x[reference]", "reading", "D-03=msdn"), ("test_x[reference]", "colour", "blue"),
            ("test_x[reference]", "target", "reference")} <= pairs


def test_junit_names_targets_without_their_secrets(tmp_path):
    run = write_run(tmp_path / "r", "r1", "2026-01-01T00:00:00+00:00", [Case("t[x]", MUST[:1], target=SECRET_TARGET)],
                    targets=(SECRET_TARGET,))
    results, properties, _ = read_junit(run / "junit.xml", "r1", [SHOWN_TARGET], KNOWN)
    assert results[0]["target"] == SHOWN_TARGET
    assert "hunter2" not in json.dumps(results + properties)
    assert target_identity("mqrr://h?hash=LM:NT&user=u") == "mqrr://h?user=u"
    assert target_identity("reference?store=/tmp/qm.db") == "reference?store=/tmp/qm.db"


def test_an_unknown_clause_id_is_named_and_the_rest_of_the_file_kept(tmp_path):
    run = write_run(tmp_path / "r", "r1", "2026-01-01T00:00:00+00:00", [
        Case("a", ["MS-MQRR:9.9.9:99", MUST[0]]), Case("b", ["MS-MQRR:9.9.9:99"]), Case("c", [MUST[1]])])
    results, properties, errors = read_junit(run / "junit.xml", "r1", ["reference"], KNOWN)
    assert [r["name"] for r in results] == ["a", "c"]
    assert "MS-MQRR:9.9.9:99" not in {p["value"] for p in properties}
    [error] = errors
    assert "unknown clause id MS-MQRR:9.9.9:99 (2)" in one_line(error, run / "junit.xml")


def cut(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def test_a_junit_file_cut_in_half_rules_out_its_run_in_one_line(tmp_path):
    run = write_run(tmp_path / "r", "r1", "2026-01-01T00:00:00+00:00", [Case(f"t{i}", MUST[:1]) for i in range(20)])
    cut(run / "junit.xml")
    with pytest.raises(InputError) as caught:
        read_junit(run / "junit.xml", "r1", ["reference"], KNOWN)
    assert "cut short or not XML" in one_line(caught.value, run / "junit.xml")


def test_cucumber_rows_and_a_cut_file(tmp_path):
    run = write_run(tmp_path / "r", "r1", "2026-01-01T00:00:00+00:00", [
        Case("t1", MUST[:1], "failed", "boom", steps=[("Given", "a", "passed"), ("Then", "b", "failed")])])
    scenarios, steps = read_cucumber(run / "cucumber.json", "r1")
    assert scenarios[0]["name"] == "t1" and scenarios[0]["tags"] == [f"clause:{MUST[0]}"]
    assert [(s["keyword"], s["text"], s["status"], s["error_message"]) for s in steps] == [
        ("Given", "a", "passed", ""), ("Then", "b", "failed", "boom")]
    cut(run / "cucumber.json")
    with pytest.raises(InputError) as caught:
        read_cucumber(run / "cucumber.json", "r1")
    assert "cut short or not JSON" in one_line(caught.value, run / "cucumber.json")


@pytest.mark.parametrize("damage, fragment", [
    (lambda p: cut(p), "cut short or not JSON"),
    (lambda p: p.write_text("[1, 2]"), "not a run record"),
    (lambda p: p.write_text(json.dumps({"run_id": "r", "targets": [], "suite_version": SUITE, "started": "x"})),
     "'targets' is missing or empty"),
    (lambda p: p.write_text(json.dumps({"run_id": "r", "targets": ["reference"], "suite_version": "other",
                                        "started": "x"})), f"made by suite version other, not this suite's {SUITE}"),
    (lambda p: p.unlink(), "missing: the run did not finish"),
])
def test_a_bad_run_record_is_named_in_one_line(tmp_path, damage, fragment):
    run = write_run(tmp_path / "r", "r1", "2026-01-01T00:00:00+00:00", [Case("t", MUST[:1])])
    damage(run / "run.json")
    with pytest.raises(InputError) as caught:
        read_run(run, SUITE)
    assert fragment in one_line(caught.value, run / "run.json")


def test_inputs_folders_of_runs_empty_directories_and_repeats(tmp_path):
    good = write_run(tmp_path / "results" / "r1", "r1", "2026-01-01T00:00:00+00:00", [Case("t", MUST[:1])])
    write_run(tmp_path / "results" / "r2", "r2", "2026-01-02T00:00:00+00:00", [Case("t", MUST[:1])])
    (tmp_path / "results" / "notes").mkdir()          # no result files: not a run, not an error
    (tmp_path / "empty").mkdir()
    runs, errors = find_runs([tmp_path / "results", tmp_path / "empty", tmp_path / "nowhere", good], SUITE)
    assert [run.run_id for run in runs] == ["r1", "r2"]
    assert [str(e).split(": ", 1)[1][:24] for e in errors] == ["empty directory: no run.", "no such directory",
                                                               "run r1 is already read f"]
    assert str(errors[0]).startswith(str(tmp_path / "empty"))


def test_gherkin_scenarios_come_from_the_official_parser(tmp_path):
    (tmp_path / "a.feature").write_text(
        "@clause:MS-MQRR:1.8:01\nFeature: F\n\n  Background:\n    Given a queue \"q\"\n\n"
        "  @clause:MS-MQRR:2.1:01 @decision:D-03\n  Scenario Outline: S <n>\n    When <n> happens\n\n"
        "    Examples:\n      | n |\n      | 1 |\n      | 2 |\n\n  Scenario: T\n    Then done\n")
    (tmp_path / "broken.feature").write_text("Feature: B\n  Scenario: x\n    Given a\n    | a | b |\n    | c |\n")
    rows, errors = scenario_rows(tmp_path)
    assert [(r["scenario_name"], r["clauses"], r["decisions"], r["steps"]) for r in rows] == [
        ("S 1", ["MS-MQRR:1.8:01", "MS-MQRR:2.1:01"], ["D-03"], ['a queue "q"', "1 happens"]),
        ("S 2", ["MS-MQRR:1.8:01", "MS-MQRR:2.1:01"], ["D-03"], ['a queue "q"', "2 happens"]),
        ("T", ["MS-MQRR:1.8:01"], [], ['a queue "q"', "done"])]
    [error] = errors
    assert "not valid Gherkin: (5:5): inconsistent cell count" in one_line(error, tmp_path / "broken.feature")


def test_every_scenario_of_the_suite_is_read(tmp_path):
    from mqspec.coverage import scenario_clauses
    rows, errors = scenario_rows()
    assert errors == []
    from_rows = {clause for row in rows for clause in row["clauses"]}
    assert from_rows == set(scenario_clauses())


def test_the_parsers_read_what_a_real_run_writes(tmp_path):
    """A real (one-clause) run of the suite: every test case is a result with its clause and target, and
    every result has its scenario and steps in cucumber.json."""
    results_dir = tmp_path / "run"
    clause = "MS-MQRR:3.1.4.7:16"
    process = subprocess.run([sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider",
                              "--clause", clause, "--results", str(results_dir)], cwd=ROOT, capture_output=True,
                             text=True, timeout=300)
    assert process.returncode == 0, process.stdout[-2000:]
    run = read_run(results_dir, None)
    results, properties, errors = read_junit(run.junit, run.run_id, run.targets, KNOWN | {clause})
    assert errors == [] and len(results) >= 6
    assert all(r["target"] == "reference" and r["outcome"] == "passed" for r in results)
    assert {(p["property"], p["value"]) for p in properties} >= {("clause", clause), ("target", "reference")}
    scenarios, steps = read_cucumber(run.cucumber, run.run_id)
    assert {r["name"] for r in results} <= {s["name"] for s in scenarios}
    assert steps and all(s["status"] == "passed" for s in steps if s["name"] in {r["name"] for r in results})
