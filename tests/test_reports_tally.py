"""The verdicts certify gives without Spark (reports/tally.py) are the report's, clause by clause.

One real run of the suite, against the reference and a wrong queue manager, and mqspec's own client and a wrong
client, with a waiver: clauses pass, fail, are not run for want of a capability, are waived, not selected, or
untestable.  The Spark pipeline and the plain tally read the same results directory and must give every clause
of the target's side of MS-MQRR (a server's, a client's), for each target, the same verdict and the same reason.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mqspec.catalogue import load_catalogue
from mqspec.reports.pipeline import make_report
from mqspec.reports.record import record_file_name
from mqspec.reports.tally import tally
from tests.test_reports_fixtures import spark  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
VARIANT = "reference?variant=peek-leaves-cursor-unread"
CLAUSES = ("MS-MQRR:3.1.4.7:16", "MS-MQDMPR:3.2.7.2:01", "MS-MQRR:2.1:01", "MS-MQRR:3.1.4.1:01",
           "MS-MQRR:3.1.4.9:03")   # the last, a client's: dwAck is RR_ACK or RR_NACK
CLIENTS = (f"{sys.executable} -m mqspec.shims.mqrr", f"{sys.executable} -m mqspec.shims.wrong ack-zero")
WRONG_CLIENT = "client mqspec-wrong-ack-zero"
WAIVED = "MS-MQRR:3.1.4.1:01"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("tally")
    waivers = where / "waivers.toml"
    waivers.write_text(f'[waive]\n"{WAIVED}" = "the tally must show waivers too"\n', encoding="utf-8")
    command = [sys.executable, "-m", "mqspec.cli", "certify", "--no-report", "--results", str(where / "results"),
               "--target", "reference", "--target", VARIANT, "--waivers", str(waivers)]
    for client in CLIENTS:
        command += ["--client", client]
    for clause in CLAUSES:
        command += ["--clause", clause]
    process = subprocess.run(command, cwd=where, capture_output=True, text=True, timeout=600)
    assert process.returncode == 1, process.stdout + process.stderr   # the variant fails its clause
    return where / "results"


@pytest.mark.spark
def test_the_tally_gives_each_clause_the_reports_verdict_and_reason(run, spark):  # noqa: F811
    catalogue = load_catalogue()
    plain = tally(run, catalogue)
    report = make_report([run], run / "report", spark=spark, any_suite_version=True, quiet=True)
    assert plain["targets"] == report.model["targets"]
    assert len(plain["targets"]) == 4
    for target in plain["targets"]:
        spark_matrix = {clause: (row["verdict"], row["reason"], row["fault"], row["cause"])
                        for clause, row in report.model["matrix"][target].items()}
        plain_matrix = {clause: (row["verdict"], row["reason"], row["fault"], row["cause"])
                        for clause, row in plain["matrix"][target].items()}
        assert plain_matrix == spark_matrix
        assert plain["counts"][target] == report.model["counts"][target]
    # the run shows every kind of verdict, so the comparison above covers each rule
    shown = {row["verdict"] for matrix in plain["matrix"].values() for row in matrix.values()}
    assert shown == {"passed", "failed", "not run", "waived", "untestable"}
    assert plain["matrix"][VARIANT]["MS-MQDMPR:3.2.7.2:01"]["verdict"] == "failed"
    assert plain["matrix"][WRONG_CLIENT]["MS-MQRR:3.1.4.9:03"]["verdict"] == "failed"
    # each target is judged by its own side's clauses only: no client clause is "not run" for a server
    for target in plain["targets"]:
        side = "client" if target.startswith("client ") else "server"
        assert set(plain["matrix"][target]) == {c.id for c in catalogue.clauses.values() if c.side == side}
    # the certification record names the client as its shim did, and its side
    record = json.loads((run / "report" / record_file_name(WRONG_CLIENT)).read_text(encoding="utf-8"))
    assert (record["target"], record["side"], record["conformant"]) == (WRONG_CLIENT, "client", False)
    assert record["verdicts"]["MS-MQRR:3.1.4.9:03"]["verdict"] == "failed"
    assert not any(clause.startswith("MS-MQDMPR") for clause in record["verdicts"])
    assert plain["matrix"]["reference"][WAIVED] == {"verdict": "waived",
                                                    "reason": f"{WAIVED}: the tally must show waivers too",
                                                    "fault": "", "cause": ""}
    # the cursor machine stops on the variant's clause: its other tags are not judged, in both tallies alike
    assert any(row["reason"].startswith("not judged (the machine stopped at ")
               for row in plain["matrix"][VARIANT].values())


def test_certify_without_java_still_prints_the_verdicts(tmp_path):
    """No Java: the run goes on, the verdicts per clause are printed, and one line says what the report needs."""
    command = [sys.executable, "-m", "mqspec.cli", "certify", "--clause", CLAUSES[0], "--results",
               str(tmp_path / "results")]
    environment = {**__import__("os").environ, "JAVA_HOME": str(tmp_path / "no-java")}
    process = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600, env=environment)
    assert process.returncode == 0, process.stdout + process.stderr
    lines = process.stdout.splitlines()
    assert any(re.match(r"reference: incomplete: clauses [1-9][0-9]* passed, 0 failed", line.strip())
               for line in lines), \
        process.stdout
    [missing] = [line for line in lines if "no report:" in line]
    assert "needs Java 17 or 21" in missing and "apt-get install openjdk-17-jre-headless" in missing
    assert {"junit.xml", "cucumber.json", "run.json"} <= {path.name for path in (tmp_path / "results").iterdir()}
    assert "Traceback" not in process.stdout + process.stderr


def test_a_java_too_old_is_named_with_its_version(tmp_path):
    home = tmp_path / "jdk11"
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text('#!/bin/sh\necho \'openjdk version "11.0.21" 2023-10-17\' >&2\n', encoding="utf-8")
    java.chmod(0o755)
    process = subprocess.run([sys.executable, "-m", "mqspec.cli", "report", str(tmp_path)], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120,
                             env={**__import__("os").environ, "JAVA_HOME": str(home)})
    assert process.returncode == 2
    assert process.stderr.startswith("mqspec: the report needs Java 17 or 21 and finds Java 11")
    assert process.stderr.count("\n") == 1
