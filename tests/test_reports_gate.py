"""The gate without Spark: regressions by clause at fault, targets matched by name, new failing targets, speed."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from mqspec.identity import target_name
from mqspec.reports.faults import bearing, ranked
from mqspec.reports.gate import Verdicts, evaluate, gate_lines, read_verdicts
from mqspec.reports.record import seal, verdict_of

ROOT = Path(__file__).resolve().parent.parent
ORDER, A, B, C = "MS-MQDMPR:3.1.1.2:04", "MS-MQDMPR:3.2.7.2:01", "MS-MQRR:3.1.4.7:29", "MSDN-CURSOR:PRIO:01"


def verdicts(rows: dict, target="t", run="r", source="x") -> Verdicts:
    """rows: clause -> (verdict, fault, cause)."""
    return Verdicts(Path(source), {target: run}, {target: {
        clause: {"verdict": verdict, "reason": "why" if verdict != "passed" else "", "fault": fault, "cause": cause,
                 "level": "MUST", "testable": True} for clause, (verdict, fault, cause) in rows.items()}})


def test_a_machine_fails_only_the_broken_rule_and_a_scenario_fails_its_clauses_as_collateral():
    assert bearing("failed", "x", ORDER, ORDER, "step 3 of the cursors machine") == ("failed", "x", "")
    assert bearing("failed", "x", A, ORDER, "step 3 of the cursors machine") == (
        "not run", f"not judged (the machine stopped at step 3 of the cursors machine, on {ORDER})", "")
    assert bearing("failed", "x", C, ORDER, "") == ("failed", "x", ORDER)
    assert bearing("failed", "x", C, "", "") == ("failed", "x", "")
    assert bearing("passed", "", C, ORDER, "") == ("passed", "", "")


def test_the_clause_that_explains_most_comes_first():
    matrix = {B: {"verdict": "failed", "fault": "at fault", "cause": ""},
              ORDER: {"verdict": "failed", "fault": "at fault", "cause": ""},
              A: {"verdict": "failed", "fault": "collateral", "cause": ORDER},
              C: {"verdict": "failed", "fault": "collateral", "cause": ORDER}}
    at_fault, collateral = ranked(matrix)
    assert [(clause, explains) for clause, _, explains in at_fault] == [(ORDER, 3), (B, 1)]
    assert [clause for clause, _ in collateral] == [A, C]


def test_a_record_says_conformant_only_when_every_clause_was_judged_and_none_failed():
    assert verdict_of({A: {"verdict": "passed"}, B: {"verdict": "waived"}, C: {"verdict": "untestable"}}) == \
        "conformant"
    assert verdict_of({A: {"verdict": "passed"}, B: {"verdict": "not run"}}) == "incomplete"
    assert verdict_of({A: {"verdict": "failed"}, B: {"verdict": "not run"}}) == "not conformant"


def test_one_line_per_clause_at_fault_with_its_collateral_counted():
    baseline = verdicts({ORDER: ("passed", "", ""), A: ("passed", "", ""), B: ("passed", "", ""),
                         C: ("passed", "", "")}, run="r1")
    current = verdicts({ORDER: ("failed", "at fault", ""), A: ("failed", "collateral", ORDER),
                        B: ("failed", "at fault", ""), C: ("failed", "collateral", ORDER)}, run="r2")
    result = evaluate(baseline, current)
    assert not result.passed and result.compared == 4
    assert gate_lines(result) == [f"regression: {ORDER} on t (+2 collateral): why", f"regression: {B} on t: why"]
    assert all(len(line) <= 120 for line in gate_lines(result))


def test_a_baseline_made_on_one_port_gates_a_run_on_another():
    assert target_name("mqrr://u:secret@127.0.0.1:2103?password=x&auth=CONNECT") == "mqrr://127.0.0.1?auth=CONNECT"
    assert target_name("mqrr://10.0.0.9:4000?name=acme") == target_name("mqrr://127.0.0.1:2114?name=acme") == "acme"
    baseline = verdicts({A: ("passed", "", "")}, target=target_name("mqrr://127.0.0.1:2103"))
    current = verdicts({A: ("failed", "at fault", "")}, target=target_name("mqrr://127.0.0.1:2114"))
    assert gate_lines(evaluate(baseline, current)) == [f"regression: {A} on mqrr://127.0.0.1: why"]


def test_a_failing_target_the_baseline_does_not_know_fails_the_gate_in_one_line():
    baseline = verdicts({A: ("passed", "", "")}, target="reference")
    current = Verdicts(Path("x"), {"reference": "r", "acme": "r"},
                       {**verdicts({A: ("passed", "", "")}, target="reference").verdicts,
                        **verdicts({A: ("failed", "at fault", ""), B: ("passed", "", "")}, target="acme").verdicts})
    result = evaluate(baseline, current)
    assert not result.passed
    assert gate_lines(result) == [f"new target: acme fails 1 clause(s), first {A}; the baseline does not certify it"]


def test_the_gate_reads_a_record_by_its_name_and_needs_no_spark(tmp_path):
    record = seal({"format": "mqspec certification record 1", "target": "mqrr://127.0.0.1:2103?name=acme",
                   "name": "acme", "run_id": "r1", "verdicts": {A: {"verdict": "passed", "reason": "",
                                                                    "level": "MUST", "testable": True}}})
    (tmp_path / "base.json").write_text(json.dumps(record))
    summary = {"format": "mqspec report 1", "targets": ["mqrr://127.0.0.1:2114?name=acme"],
               "latest": {"mqrr://127.0.0.1:2114?name=acme": "r2"},
               "clauses": [{"clause_id": A, "level": "MUST", "testable": True}],
               "matrix": {"mqrr://127.0.0.1:2114?name=acme": {A: {"verdict": "failed", "reason": "boom",
                                                                  "fault": "at fault", "cause": ""}}}}
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    assert list(read_verdicts(tmp_path / "base.json", "--baseline").verdicts) == ["acme"]
    script = ("import sys; from mqspec.cli import main; status = main(sys.argv[1:]); "
              "assert 'pyspark' not in sys.modules, 'the gate loaded Spark'; sys.exit(status)")
    began = time.monotonic()
    process = subprocess.run([sys.executable, "-c", script, "gate", "--baseline", str(tmp_path / "base.json"),
                              str(tmp_path / "summary.json")], cwd=ROOT, capture_output=True, text=True, timeout=60)
    took = time.monotonic() - began
    assert process.returncode == 1, process.stdout + process.stderr
    assert process.stdout.splitlines()[0] == f"mqspec: regression: {A} on acme: boom"
    assert took < 10, f"the gate took {took:.1f} s"   # it measures about 1 s; Spark alone needed 28-34 s


def test_two_targets_of_one_name_are_refused_in_one_line(tmp_path):
    import pytest

    from mqspec.reports.errors import ReportError
    from mqspec.reports.gate import model_verdicts
    targets = ["mqrr://127.0.0.1:2103", "mqrr://127.0.0.1:2114"]   # one host, two ports, no names
    model = {"targets": targets, "latest": dict.fromkeys(targets, "r"),
             "clauses": [{"clause_id": A, "level": "MUST", "testable": True}],
             "matrix": {target: {A: {"verdict": "passed", "reason": ""}} for target in targets}}
    with pytest.raises(ReportError, match="two targets go by the name mqrr://127.0.0.1; give each its own"):
        model_verdicts(model, tmp_path / "summary.json")
