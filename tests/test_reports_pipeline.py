"""The whole report job on results directories: verdicts, history, records, renderings, bad inputs, the gate."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mqspec.identity import target_name
from mqspec.reports.errors import InputError
from mqspec.reports.gate import model_verdicts, read_verdicts, uncovered
from mqspec.reports.pipeline import make_report
from mqspec.reports.record import verifies
from mqspec.reports.render_html import PAGES, Page, render_html
from mqspec.reports.summary import summary_lines
from tests.test_reports_fixtures import SHOWN_TARGET, SUITE, Case, history, machine_lines, spark, write_run  # noqa: F401

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def made(spark, tmp_path_factory):
    root = tmp_path_factory.mktemp("history")
    roles = history(root / "results")
    report = make_report([root / "results"], root / "report", spark=spark, suite_version=SUITE, quiet=True)
    return roles, report


def test_the_matrix_has_a_verdict_for_every_clause_and_target(made):
    roles, report = made
    model = report.model
    assert report.errors == []
    assert model["targets"] == ["reference", SHOWN_TARGET]
    assert model["latest"] == {"reference": "20260102T000000Z-bbbbbb", SHOWN_TARGET: "20260102T000000Z-bbbbbb"}
    reference = model["matrix"]["reference"]
    # a server is judged by every server clause, and by no client clause (verdicts.py)
    servers = [clause["clause_id"] for clause in model["clauses"] if clause["side"] == "server"]
    assert sorted(reference) == sorted(model["matrix"][SHOWN_TARGET]) == sorted(servers)
    assert 0 < len(servers) < len(model["clauses"])
    assert reference[roles["regressed"]]["verdict"] == "failed"
    assert reference[roles["regressed"]]["reason"] == "AssertionError: expected MQ_OK, got MQ_ERROR_IO_TIMEOUT"
    assert reference[roles["fixed"]]["verdict"] == "passed"
    assert reference[roles["passing"]]["verdict"] == reference[roles["should"]]["verdict"] == "passed"
    assert (reference[roles["rpc"]]["verdict"], reference[roles["rpc"]]["reason"]) == (
        "not run", "needs rpc (calls travel over DCE/RPC); reference does not offer it")
    assert reference[roles["waived"]]["verdict"] == "waived"
    assert reference[roles["untestable"]]["verdict"] == "untestable"
    assert model["matrix"][SHOWN_TARGET][roles["regressed"]]["verdict"] == "passed"
    assert model["counts"]["reference"]["failed"] == 1


def test_history_regressions_fixes_and_flaky_clauses(made):
    roles, report = made
    model = report.model
    assert {(c["target"], c["clause_id"], c["change"]) for c in model["changes"]} == {
        ("reference", roles["regressed"], "regression"), ("reference", roles["fixed"], "fix")}
    assert {(f["target"], f["clause_id"]) for f in model["flaky"]} == {("reference", roles["regressed"]),
                                                                       ("reference", roles["fixed"])}
    assert [(h["run_id"], h["target"], h["failed"]) for h in model["history"] if h["target"] == "reference"] == [
        ("20260101T000000Z-aaaaaa", "reference", 1), ("20260102T000000Z-bbbbbb", "reference", 1)]
    never = {row["clause_id"] for row in model["never_exercised"]}
    assert roles["rpc"] not in never   # not run in process, but exercised over the wire
    assert roles["regressed"] not in never and roles["waived"] in never
    assert [row["waived_only"] for row in model["never_exercised"] if row["clause_id"] == roles["waived"]] == [True]
    rules = {(r["target"], r["action"]): (r["steps"], r["mismatches"]) for r in model["machines"]["rules"]}
    assert rules == {("reference", "create_cursor"): (1, 0), ("reference", "receive_front"): (2, 1),
                     (SHOWN_TARGET, "create_cursor"): (1, 0)}


def test_the_drill_down_has_scenarios_steps_and_failures(made):
    _, report = made
    scenarios = {s["name"]: s for s in report.model["scenarios"]["reference"]}
    failing = scenarios["test_a[reference]"]
    assert failing["verdict"] == "failed" and "Traceback line 1" in failing["detail"]
    assert [step[:3] for step in failing["steps"]] == [["Given", 'a queue "orders"', "passed"],
                                                       ["Then", "the call returns MQ_OK", "failed"]]
    assert scenarios["test_c[reference]"]["readings"] == ["D-03=dmpr"]
    assert scenarios["test_c[reference]"]["detail"] is None   # tracebacks only where something failed


def test_certification_records_are_sealed_and_carry_the_profile(made):
    roles, report = made
    record = json.loads(report.files["record:reference"].read_text())
    assert verifies(record) and record["target"] == "reference" and not record["conformant"]
    assert record["suite_version"] == SUITE and record["spec_revisions"]["MS-MQRR"] == "29.0"
    assert record["verdicts"][roles["regressed"]]["verdict"] == "failed"
    assert record["waivers"] == {roles["waived"]: "the target answers otherwise on purpose"}
    assert record["profile"] == {"D-03": ["dmpr"]} and record["demanded_profile"] == {"D-03": "dmpr"}
    altered = dict(record, conformant=True)
    assert not verifies(altered)
    other = json.loads(report.files[f"record:{SHOWN_TARGET}"].read_text())
    # nothing failed, but the history exercised a few clauses only: incomplete, never conformant (D-140)
    assert (other["verdict"], other["conformant"], other["at_fault"]) == ("incomplete", False, [])
    assert "no scenario checks it" in other["not_run"] or "not selected in this run" in other["not_run"]
    assert "profile" not in other
    assert record["verdict"] == "not conformant" and record["at_fault"] == [roles["regressed"]]


def test_no_output_repeats_a_targets_password(made):
    _, report = made
    for path in report.output.rglob("*"):
        if path.is_file():
            assert b"hunter2" not in path.read_bytes(), path


def test_the_renderings(made):
    roles, report = made
    summary = json.loads(report.files["json"].read_text())
    assert summary["format"] == "mqspec report 1" and "scenarios" not in summary
    assert summary["records"]["reference"] == "certification-reference.json"
    markdown = report.files["markdown"].read_text()
    assert "**NOT conformant**" in markdown and "### Regressions (1)" in markdown and roles["regressed"] in markdown
    suites = ElementTree.parse(report.files["junit"]).getroot()
    reference = suites.find("testsuite[@name='reference']")
    failures = [case.get("name") for case in reference.iter("testcase") if case.find("failure") is not None]
    assert failures == [roles["regressed"]] and int(reference.get("tests")) == sum(
        clause["side"] == "server" for clause in summary["clauses"])
    # two targets, each clause once per target: (classname, name) never repeats, so CI views keep them apart
    pairs = [(case.get("classname"), case.get("name")) for case in suites.iter("testcase")]
    assert len(pairs) == len(set(pairs)) == 2 * int(reference.get("tests"))
    html = report.files["html"].read_text()
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    assert "<script src" not in html and "<link" not in html
    shown = [page for page in PAGES if page.id != "strength"]   # no `mqspec strength` results among the inputs
    assert html.count('<section class="page"') == len(shown) and html.count("data-page=") == len(shown)
    assert report.model["strength"] is None and 'id="strength"' not in html
    extended = render_html(report.model, [*PAGES, Page("extra", "Extra", lambda model: '<p id="x">more</p>'),
                                          Page("empty", "Empty", lambda model: "")])
    assert '<a href="#extra" data-page="extra">Extra</a>' in extended and '<p id="x">more</p>' in extended
    assert 'data-page="empty"' not in extended   # a page with nothing to show is left out
    lines = summary_lines(report.model)
    assert lines[0].startswith("reference: NOT conformant: clauses ")
    assert f"  AT FAULT {roles['regressed']}: AssertionError" in lines[1]


def test_bad_inputs_are_named_in_one_line_each_and_the_rest_is_reported(spark, tmp_path):
    roles = history(tmp_path / "results")
    good = roles["runs"]
    cases = [Case("test_x[reference]", [roles["passing"]])]

    def run(name, started, **options):
        return write_run(tmp_path / "bad" / name, name, started, cases, **options)

    cut_junit = run("r-junit", "2026-02-01T00:00:00+00:00")
    data = (cut_junit / "junit.xml").read_bytes()
    (cut_junit / "junit.xml").write_bytes(data[:len(data) // 2])
    cut_cucumber = run("r-cucumber", "2026-02-02T00:00:00+00:00")
    (cut_cucumber / "cucumber.json").write_text((cut_cucumber / "cucumber.json").read_text()[:100])
    unknown = write_run(tmp_path / "bad" / "r-unknown", "r-unknown", "2026-02-03T00:00:00+00:00",
                        [Case("test_u[reference]", ["MS-MQRR:9.9.9:99"]), Case("test_x[reference]",
                                                                              [roles["passing"]])])
    other = run("r-other", "2026-02-04T00:00:00+00:00", suite_version="another-suite")
    machines = run("r-machines", "2026-02-05T00:00:00+00:00",
                   machines=machine_lines("r-machines", "reference", 1, [("send", "MQ_OK", None)] * 3))
    with open(machines / "machines.ndjson", "a") as handle:
        handle.write('{"run": "r-machines-1", "machine": "cursors", "st')
    (tmp_path / "empty").mkdir()
    inputs = [*good, cut_junit, cut_cucumber, unknown, other, machines, tmp_path / "empty"]
    report = make_report(inputs, tmp_path / "report", spark=spark, suite_version=SUITE, quiet=True)
    errors = [str(error) for error in report.errors]
    assert all("\n" not in error for error in errors) and len(errors) == 6, errors
    expected = {cut_junit / "junit.xml": "cut short or not XML",
                cut_cucumber / "cucumber.json": "cut short or not JSON",
                unknown / "junit.xml": "unknown clause id MS-MQRR:9.9.9:99 (1)",
                other / "run.json": "made by suite version another-suite",
                machines / "machines.ndjson": "1 line(s) cut short or not JSON",
                tmp_path / "empty": "empty directory"}
    for path, fragment in expected.items():
        assert any(error.startswith(f"{path}: ") and fragment in error for error in errors), (path, errors)
    reported = {run["run_id"] for run in report.model["runs"]}
    assert reported == {"20260101T000000Z-aaaaaa", "20260102T000000Z-bbbbbb", "r-cucumber", "r-unknown",
                        "r-machines"}
    assert report.model["latest"]["reference"] == "r-machines"
    assert report.model["matrix"]["reference"][roles["passing"]]["verdict"] == "passed"
    assert [r["steps"] for r in report.model["machines"]["rules"] if r["action"] == "send"] == [3]
    assert report.model["errors"] == errors


def test_the_gate_agrees_with_the_report_on_the_must_clauses_never_exercised(made):
    """The gate's plain-Python coverage rule (gate.uncovered) is the report's Spark stage (never_exercised)."""
    _, report = made
    plain = [gap["clause_id"] for gap in uncovered(model_verdicts(report.model, report.output))]
    assert sorted(plain) == sorted(row["clause_id"] for row in report.model["never_exercised"]
                                   if not row["waived_only"])
    assert plain   # the history leaves some uncovered, so the comparison means something


def test_the_gate_reads_records_and_summaries(made, tmp_path):
    _, report = made
    record = read_verdicts(report.files["record:reference"], "--baseline")
    assert list(record.verdicts) == ["reference"]
    assert len(record.verdicts["reference"]) == len(report.model["matrix"]["reference"])
    summary = read_verdicts(report.output, "current")
    assert list(summary.verdicts) == ["reference", target_name(SHOWN_TARGET)]   # matched by name, not port
    altered = json.loads(report.files["record:reference"].read_text())
    altered["verdicts"][next(iter(altered["verdicts"]))]["verdict"] = "passed"
    (tmp_path / "altered.json").write_text(json.dumps(altered))
    with pytest.raises(Exception, match="sha256 does not match"):
        read_verdicts(tmp_path / "altered.json", "--baseline")


def test_an_empty_input_list_and_an_unknown_baseline_run(spark, tmp_path):
    from mqspec.reports.errors import ReportError
    from mqspec.reports.pipeline import NothingToReport
    (tmp_path / "empty").mkdir()
    with pytest.raises(NothingToReport) as caught:
        make_report([tmp_path / "empty"], tmp_path / "out", spark=spark, suite_version=SUITE, quiet=True)
    assert [type(e) for e in caught.value.errors] == [InputError]
    roles = history(tmp_path / "results")
    with pytest.raises(ReportError, match="--baseline nope: no such run"):
        make_report(roles["runs"], tmp_path / "out", spark=spark, suite_version=SUITE, baseline_run="nope",
                    quiet=True)
    shutil.rmtree(tmp_path / "out", ignore_errors=True)


def test_a_target_is_headlined_by_its_complete_run_and_a_cut_run_certifies_nothing(spark, tmp_path):
    """A full run, then a one-clause run and an interrupted one: the report headlines the full run; a target seen
    only in an interrupted run gets no certification record."""
    clause = "MS-MQRR:3.1.4.7:16"
    write_run(tmp_path / "r" / "a", "20260101T000000Z-aaaaaa", "2026-01-01T00:00:00+00:00",
              [Case("test_a[reference]", [clause]), Case("test_b[reference]", ["MS-MQRR:3.1.4.7:17"])])
    write_run(tmp_path / "r" / "b", "20260102T000000Z-bbbbbb", "2026-01-02T00:00:00+00:00",
              [Case("test_a[reference]", [clause])], selection=[f"--clause {clause}"])
    write_run(tmp_path / "r" / "c", "20260103T000000Z-cccccc", "2026-01-03T00:00:00+00:00",
              [Case("test_a[other]", [clause])], targets=("other",), exit_status=2)
    report = make_report([tmp_path / "r"], tmp_path / "out", spark=spark, suite_version=SUITE, quiet=True)
    assert report.model["latest"]["reference"] == "20260101T000000Z-aaaaaa"
    assert "record:reference" in report.files and "record:other" not in report.files
    record = json.loads(report.files["record:reference"].read_text())
    assert record["verdict"] == "incomplete" and not record["conformant"]   # the catalogue is not all run
    assert record["not_run"] and all(isinstance(clauses, list) for clauses in record["not_run"].values())
    assert "incomplete" in summary_lines(report.model)[0]
