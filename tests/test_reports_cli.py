"""`mqspec certify`, `mqspec report` and `mqspec gate` as a user runs them: what the terminal shows, the exit
status, and the files left behind.  Each command runs in its own process (each starts and stops its own Spark)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mqspec.catalogue import load_catalogue
from mqspec.reports.summary import LIMIT
from tests.test_reports_fixtures import SUITE, Case, history, write_run

pytestmark = pytest.mark.spark
ROOT = Path(__file__).resolve().parent.parent


# the command line, with this checkout's suite version fixed to the one the fixtures' runs carry (the real one
# is a hash of features/, steps/ and spec/, which change under a test while the checkout is being edited)
AS_SUITE = """
import sys
import mqspec.reports.suite
version = sys.argv.pop(1)
mqspec.reports.suite.current_suite_version = lambda: version
from mqspec.cli import main
sys.exit(main(sys.argv[1:]))
"""


def mqspec(*argv, cwd: Path = ROOT, suite_version: str | None = None) -> subprocess.CompletedProcess:
    command = ["-m", "mqspec.cli"] if suite_version is None else ["-c", AS_SUITE, suite_version]
    return subprocess.run([sys.executable, *command, *map(str, argv)], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})


def no_traceback(process: subprocess.CompletedProcess) -> None:
    for text in (process.stdout, process.stderr):
        assert "Traceback" not in text and "INTERNALERROR" not in text, text[-3000:]


def test_a_failing_certify_run_ends_with_its_clauses_not_a_traceback(tmp_path):
    """The profile demands a reading the reference does not take, so one clause fails: the terminal names it
    with its first failure line, counts the clauses, gives the report's path; the traceback is in pytest.log."""
    clause = "MS-MQDMPR:3.2.7.4:01"
    results = tmp_path / "results"
    process = mqspec("certify", "--clause", clause, "--profile", "D-03=msdn", "--results", results)
    assert process.returncode == 1, process.stdout + process.stderr
    no_traceback(process)
    lines = process.stdout.splitlines()
    run_id = json.loads((results / "run.json").read_text())["run_id"]
    assert lines[0] == f"mqspec: run {run_id} on reference: NOT conformant; results in {results}", lines
    [counts] = [line for line in lines if line.startswith("  reference: NOT conformant: clauses ")]
    failed = int(re.search(r" (\d+) failed[ ,]", counts).group(1))
    failing = [line for line in lines if line.startswith("    AT FAULT ")]
    # the scenarios may check more clauses than this one; the terminal lists LIMIT of them and counts the rest
    assert failed >= 1 and 1 <= len(failing) <= min(failed, LIMIT), lines
    assert f"    AT FAULT {clause}: D-03: the target took the reading 'dmpr'; the profile demands 'msdn'" in lines
    # the one-clause run names what it left out, and whether the gate will pass
    assert any(line.startswith("    not run (not selected in this run): ") for line in lines), lines
    assert any(line.startswith("  gate: will FAIL: ") for line in lines), lines
    assert f"  report: {results / 'report' / 'report.html'}" in lines
    assert (results / "report" / "report.html").is_file()
    record = json.loads((results / "report" / "certification-reference.json").read_text())
    assert record["verdicts"][clause]["verdict"] == "failed" and record["demanded_profile"] == {"D-03": "msdn"}
    assert (record["verdict"], record["conformant"]) == ("not conformant", False) and clause in record["at_fault"]
    assert record["profile"]["D-03"] == ["dmpr"]
    assert "the profile demands 'msdn'" in (results / "pytest.log").read_text()
    assert "certify [" in process.stderr and "report [" in process.stderr   # the progress display


def test_report_names_each_bad_input_in_one_line_and_reports_the_rest(tmp_path):
    roles = history(tmp_path / "results")
    broken = write_run(tmp_path / "broken", "r-broken", "2026-03-01T00:00:00+00:00",
                       [Case(f"t{i}[reference]", [roles["passing"]]) for i in range(20)])
    data = (broken / "junit.xml").read_bytes()
    (broken / "junit.xml").write_bytes(data[:len(data) // 2])
    other = write_run(tmp_path / "other", "r-other", "2026-03-02T00:00:00+00:00",
                      [Case("t[reference]", [roles["passing"]])], suite_version="some-other-suite")
    (tmp_path / "empty").mkdir()
    output = tmp_path / "report"
    process = mqspec("report", tmp_path / "results", broken, other, tmp_path / "empty", "--output", output,
                     suite_version=SUITE)
    assert process.returncode == 1, process.stdout + process.stderr
    no_traceback(process)
    errors = [line for line in process.stderr.splitlines() if line.startswith("mqspec: ")]
    assert len(errors) == 3, process.stderr
    for path, fragment in ((broken / "junit.xml", "cut short or not XML"),
                           (other / "run.json", "made by suite version some-other-suite"),
                           (tmp_path / "empty", "empty directory")):
        assert any(line.startswith(f"mqspec: {path}: ") and fragment in line for line in errors), errors
    assert process.stdout.startswith("mqspec: 2 run(s) reported, 3 input(s) left out or in part")
    summary = json.loads((output / "summary.json").read_text())
    assert len(summary["errors"]) == 3 and summary["counts"]["reference"]["failed"] == 1


def test_report_and_gate_refuse_what_they_cannot_use_in_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    roles = history(tmp_path / "results")
    cases = [
        (("report", tmp_path / "empty"), "mqspec: nothing to report: all 1 input(s) left out"),
        (("report", tmp_path / "results", "--master", "yarn"), "--master yarn: use local[*], local[N] or spark://"),
        (("report", roles["runs"][0], "--master", "spark://127.0.0.1:9"), "no Spark master answers there"),
        (("report", roles["runs"][0], "--any-suite-version", "--output", "/proc/version/report"),
         "cannot write there"),
        (("gate", "--baseline", tmp_path / "nowhere.json", tmp_path), "--baseline"),
        (("gate", "--baseline", roles["runs"][0] / "run.json", tmp_path), "neither a certification record nor"),
        (("certify", "--master", "local[many]"), "--master local[many]: use local[*]"),
    ]
    for argv, fragment in cases:
        process = mqspec(*argv, cwd=tmp_path)
        assert process.returncode == 2, (argv, process.stdout, process.stderr)
        no_traceback(process)
        last = process.stderr.strip().splitlines()[-1]
        assert fragment in last and last.startswith("mqspec: "), (argv, process.stderr)


def every_must_clause_passing(root: Path, run_id: str, started: str, failing: str | None = None) -> Path:
    """A run in which every testable MUST and MUST NOT clause has a scenario, all passing but `failing`."""
    clauses = [c.id for c in load_catalogue().testable() if c.level in ("MUST", "MUST NOT")]
    cases = [Case(f"test_{n}[reference]", [clause], "failed" if clause == failing else "passed",
                  "AssertionError: expected MQ_OK" if clause == failing else "") for n, clause in enumerate(clauses)]
    return write_run(root / run_id, run_id, started, cases, suite_version="v-gate")


def test_gate_exits_non_zero_on_a_regression_and_an_uncovered_must_clause(tmp_path):
    must = sorted(c.id for c in load_catalogue().testable() if c.level == "MUST")
    before = every_must_clause_passing(tmp_path / "results", "20260101T000000Z-aaaaaa", "2026-01-01T00:00:00+00:00")
    baseline = tmp_path / "baseline"
    made = mqspec("report", before, "--output", baseline, "--any-suite-version")
    assert made.returncode == 0, made.stderr
    record = baseline / "certification-reference.json"

    steady = mqspec("gate", "--baseline", record, baseline)
    assert steady.returncode == 0, steady.stdout + steady.stderr
    assert steady.stdout.startswith("mqspec: gate passed:")

    every_must_clause_passing(tmp_path / "results", "20260102T000000Z-bbbbbb", "2026-01-02T00:00:00+00:00",
                              failing=must[0])
    later = tmp_path / "results" / "20260103T000000Z-cccccc"
    write_run(later, later.name, "2026-01-03T00:00:00+00:00", [Case("test_x[reference]", must[1:2], "failed",
                                                                   "AssertionError: no")], suite_version="v-gate")
    current = mqspec("report", tmp_path / "results" / "20260102T000000Z-bbbbbb", "--output", tmp_path / "current",
                     "--any-suite-version")
    assert current.returncode == 0, current.stderr
    regressed = mqspec("gate", "--baseline", record, tmp_path / "current")
    assert regressed.returncode == 1
    no_traceback(regressed)
    assert regressed.stdout.splitlines() == [
        f"mqspec: regression: {must[0]} on reference: AssertionError: expected MQ_OK",
        f"mqspec: gate FAILED: 1 regression(s), 0 failing new target(s), 0 uncovered MUST clause(s); "
        f"{tmp_path / 'current' / 'summary.json'} against {record}"]

    # the newest run exercised one clause only: every other MUST clause is uncovered, each named in a line
    latest = mqspec("report", later, "--output", later / "report", "--any-suite-version")
    assert latest.returncode == 0, latest.stderr
    uncovered = mqspec("gate", "--baseline", record, cwd=tmp_path)   # the newest ./results/*/report
    assert uncovered.returncode == 1
    lines = uncovered.stdout.splitlines()
    regressions = [line for line in lines if line.startswith("mqspec: regression: ")]
    assert regressions == [f"mqspec: regression: {must[1]} on reference: AssertionError: no"]
    missing = [line for line in lines if line.startswith("mqspec: uncovered MUST clause: ")]
    clauses = json.loads((later / "report" / "summary.json").read_text())["clauses"]
    # a server's gate names server clauses only: the client's are no server's to exercise
    assert len(missing) == sum(c["testable"] and c["level"] in ("MUST", "MUST NOT") and c["side"] == "server"
                               for c in clauses) - 1
    assert all("never exercised (not run: " in line for line in missing), missing[:3]
