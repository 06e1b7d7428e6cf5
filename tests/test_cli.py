"""The `mqspec` command line and the suite's pytest plugin, run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mqspec.cli import main

ROOT = Path(__file__).resolve().parent.parent
ONE_CLAUSE = "MS-MQRR:3.1.4.7:16"  # a lookup action needs a lookup identifier: 6 quick scenarios


def test_unknown_target_is_one_line_and_status_2(capsys):
    assert main(["certify", "--target", "mqrr://nowhere:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mqspec: unknown target 'mqrr://nowhere:1'") and "\n" not in err


@pytest.mark.parametrize("argv, fragment", [
    (["certify", "--target", "reference?colour=blue"], "unknown option 'colour'"),
    (["certify", "--target", "reference?seed=many"], "needs a int"),
    (["certify", "--skip-level", "OFTEN"], "--skip-level 'OFTEN'"),
    (["certify", "--waivers", "/no/such/file.toml"], "no such file"),
])
def test_bad_arguments_are_named(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


def test_clauses_summary(capsys):
    assert main(["clauses"]) == 0
    out = capsys.readouterr().out
    assert "testable" in out and "covered by scenarios" in out


def _certify(tmp_path, *extra) -> tuple[subprocess.CompletedProcess, Path]:
    results = tmp_path / "results"
    process = subprocess.run([sys.executable, "-m", "mqspec.cli", "certify", "--clause", ONE_CLAUSE,
                              "--results", str(results), *extra], cwd=ROOT, capture_output=True, text=True,
                             timeout=300)
    return process, results


def test_certify_writes_every_result_file(tmp_path):
    process, results = _certify(tmp_path)
    assert process.returncode == 0, process.stdout + process.stderr
    assert f"conformant; results in {results}" in process.stdout
    record = json.loads((results / "run.json").read_text())
    assert record["targets"] == ["reference"] and len(record["suite_version"]) == 16
    assert record["spec_revisions"]["MS-MQRR"] == "29.0"
    cases = list(ElementTree.parse(results / "junit.xml").iter("testcase"))
    assert len(cases) >= 6  # the six lookup actions, at least
    for case in cases:
        properties = {(p.get("name"), p.get("value")) for p in case.iter("property")}
        assert ("clause", ONE_CLAUSE) in properties and ("target", "reference") in properties
    features = json.loads((results / "cucumber.json").read_text())
    tags = {tag["name"] for feature in features for element in feature["elements"] for tag in element["tags"]}
    assert f"clause:{ONE_CLAUSE}" in tags


def test_waived_clauses_are_reported_not_hidden(tmp_path):
    waivers = tmp_path / "waivers.toml"
    waivers.write_text(f'[waive]\n"{ONE_CLAUSE}" = "the target answers otherwise on purpose"\n')
    process, results = _certify(tmp_path, "--waivers", str(waivers))
    assert process.returncode == 0, process.stdout + process.stderr
    skipped = [case.find("skipped") for case in ElementTree.parse(results / "junit.xml").iter("testcase")]
    assert len(skipped) >= 6 and all(s is not None and "waived:" in s.get("message") for s in skipped)
    assert json.loads((results / "run.json").read_text())["waived_clauses"] == {
        ONE_CLAUSE: "the target answers otherwise on purpose"}


def test_skipping_a_level_waives_its_scenarios(tmp_path):
    process, results = _certify(tmp_path, "--skip-level", "MUST")
    assert process.returncode == 0, process.stdout + process.stderr
    skipped = [case.find("skipped") for case in ElementTree.parse(results / "junit.xml").iter("testcase")]
    assert skipped and all(s is not None and "level MUST skipped" in s.get("message") for s in skipped)


def test_every_target_is_checked_before_the_run(tmp_path):
    """Two targets where one cannot even be built: nothing runs, and the bad one is named."""
    process, _ = _certify(tmp_path, "--target", "reference", "--target", "reference?synchronous=SOMETIMES")
    assert process.returncode == 2
    assert "synchronous" in process.stderr


def test_pytest_exit_code_5_is_not_success(tmp_path):
    """No test selected must not pass silently (the CI gate relies on it)."""
    process = subprocess.run([sys.executable, "-m", "pytest", "features", "-q", "--clause", "MS-MQRR:9.9.9:99",
                              "--results", str(tmp_path / "r")], cwd=ROOT, capture_output=True, text=True,
                             timeout=300)
    assert process.returncode == 5


def test_certify_with_nothing_selected_fails(tmp_path, capsys):
    assert main(["certify", "--clause", "MS-MQRR:9.9.9:99", "--results", str(tmp_path / "r")]) == 1
    assert "no scenario matched" in capsys.readouterr().err
