"""Each transformation of reports/ on small DataFrames, in the one session-scoped SparkSession."""

from __future__ import annotations

import pytest

from mqspec.reports import schemas
from mqspec.reports.coverage import coverage, never_exercised
from mqspec.reports.history import changes, flaky, verdict_history
from mqspec.reports.ingest import machine_steps
from mqspec.reports.machines import machine_pairs, machine_rules
from mqspec.reports.verdicts import clause_results, clause_verdicts, latest_runs, scenario_verdicts
from tests.test_reports_fixtures import spark  # noqa: F401  (the session fixture)

pytestmark = pytest.mark.spark

A, B, C = "MS-MQRR:3.1.4.7:01", "MS-MQRR:3.1.4.7:02", "MS-MQRR:3.1.4.8:01"


def frame(spark, schema, rows):
    return spark.createDataFrame(rows, schema)


def results_frame(spark, rows, tags=None):
    """rows: (name, outcome, message, detail); tags: name -> (clauses, decisions, readings)."""
    tags = tags or {}
    return frame(spark, schemas.RESULTS, [("r1", "reference", name, "features.test_conformance", 0.01, outcome,
                                           message, detail, *tags.get(name, ([], [], [])), None, None)
                                          for name, outcome, message, detail in rows])


def by_name(rows, key="name"):
    return {row[key]: row for row in rows}


def test_scenario_verdicts_read_pytest_outcomes_and_the_suites_reasons(spark):
    results = results_frame(spark, tags={"ok": ([A, B], ["D-03"], ["D-03=msdn"]), "bad": ([A], [], [])}, rows=[
        ("ok", "passed", "", ""),
        ("bad", "failed", "AssertionError: expected MQ_OK\n  got MQ_ERROR", "Traceback...\nE AssertionError"),
        ("broken", "error", "", "fixture 'target' failed\nmore"),
        ("known", "xfailed", "known defect of the reference, see the scenario", ""),
        ("waived", "skipped", f"waived: {A}: answers otherwise on purpose", ""),
        ("level", "skipped", "waived: level MAY skipped", ""),
        ("rpc", "skipped", "not run: needs rpc (calls travel over DCE/RPC)", ""),
        ("other", "skipped", "some other skip", "")])
    got = by_name([row.asDict() for row in scenario_verdicts(results).collect()])
    assert {name: (row["verdict"], row["reason"]) for name, row in got.items()} == {
        "ok": ("passed", ""),
        "bad": ("failed", "AssertionError: expected MQ_OK"),
        "broken": ("failed", "fixture 'target' failed"),
        "known": ("failed", "known defect: known defect of the reference, see the scenario"),
        "waived": ("waived", f"{A}: answers otherwise on purpose"),
        "level": ("waived", "level MAY skipped"),
        "rpc": ("not run", "needs rpc (calls travel over DCE/RPC)"),
        "other": ("not run", "some other skip")}
    assert got["waived"]["waived_clause"] == A and got["level"]["waived_clause"] == ""
    assert got["ok"]["clauses"] == [A, B] and got["ok"]["decisions"] == ["D-03"]
    assert got["ok"]["readings"] == ["D-03=msdn"] and got["other"]["clauses"] == []


def test_a_waiver_of_one_clause_leaves_the_scenarios_other_clauses_not_run(spark):
    scenarios = frame(spark, "run_id string, target string, name string, verdict string, reason string, "
                             "waived_clause string, cause string, stopped string, clauses array<string>",
                      [("r1", "reference", "s", "waived", f"{A}: why", A, "", "", [A, B]),
                       ("r1", "reference", "m", "waived", "level MAY skipped", "", "", "", [A, B])])
    got = {(row.name, row.clause_id): (row.verdict, row.reason) for row in clause_results(scenarios).collect()}
    assert got == {("s", A): ("waived", f"{A}: why"), ("s", B): ("not run", f"waived with {A}"),
                   ("m", A): ("waived", "level MAY skipped"), ("m", B): ("waived", "level MAY skipped")}


def clauses_frame(spark, rows):
    """rows: (clause_id, level, testable, reason[, side]); the side is the server's unless given."""
    return frame(spark, schemas.CLAUSES, [(clause_id, clause_id.split(":")[0], "29.0", clause_id.split(":")[1],
                                           "Section", level, testable, "text", reason, [], (side or ["server"])[0])
                                          for clause_id, level, testable, reason, *side in rows])


def runs_frame(spark, rows):
    """rows: (run_id, started, targets, waived_clauses, skipped_levels, suite_version)."""
    return frame(spark, schemas.RUNS, [(run_id, "/r", suite, started, started, 0, targets, {}, waived, levels,
                                        None, None, None) for run_id, started, targets, waived, levels, suite in rows])


CLIENT_CLAUSE = "MS-MQRR:3.2.4.4.1:01"


def test_clause_verdicts_fill_the_whole_matrix_with_the_first_verdict_that_applies(spark):
    clauses = clauses_frame(spark, [
        (A, "MUST", True, ""), (B, "MUST", True, ""), (C, "MUST", True, ""), ("MS-MQRR:3.1.4.9:01", "MUST", True, ""),
        ("MS-MQRR:3.1.4.9:02", "MUST", True, ""), ("MS-MQRR:3.1.4.9:03", "MAY", True, ""),
        ("MS-MQRR:3.1.4.9:04", "MUST", True, ""), ("MS-MQRR:2.1:01", "MUST", False, "a client-side rule"),
        (CLIENT_CLAUSE, "MUST", True, "", "client")])
    runs = runs_frame(spark, [("r1", "2026-01-01", ["reference", "client acme 1"],
                               {"MS-MQRR:3.1.4.9:02": "by choice"}, ["MAY"], "v1")])
    results = frame(spark, "run_id string, target string, clause_id string, name string, verdict string, "
                           "reason string, collateral_of string",
                    [("r1", "reference", A, "s2", "failed", "second", ""),
                     ("r1", "reference", A, "s1", "failed", "first", ""),
                     ("r1", "reference", A, "s3", "passed", "", ""), ("r1", "reference", B, "s4", "passed", "", ""),
                     ("r1", "reference", B, "s5", "not run", "needs rpc", ""),
                     ("r1", "reference", C, "s6", "not run", "needs rpc", ""),
                     ("r1", "reference", C, "s7", "waived", "w", ""),
                     ("r1", "client acme 1", CLIENT_CLAUSE, "s8", "failed", "no End", "")])
    suite = frame(spark, schemas.SUITE_SCENARIOS, [("f", "F", "s", 1, [A, B, C, "MS-MQRR:3.1.4.9:01"], [], [])])
    rows = [row.asDict() for row in clause_verdicts(results, clauses, runs, suite).collect()]
    # each target is judged by its own side's clauses: the client by the one client clause, the server by the rest
    assert [(row["clause_id"], row["verdict"], row["reason"]) for row in rows if row["target"] != "reference"] == [
        (CLIENT_CLAUSE, "failed", "no End")]
    got = {row["clause_id"]: row for row in rows if row["target"] == "reference"}
    assert CLIENT_CLAUSE not in got
    assert {k: (v["verdict"], v["reason"]) for k, v in got.items()} == {
        A: ("failed", "first"),                       # the first failing scenario by name gives the reason
        B: ("passed", ""),                            # passed beats not run
        C: ("not run", "needs rpc"),                  # not run beats waived
        "MS-MQRR:3.1.4.9:01": ("not run", "not selected in this run"),
        "MS-MQRR:3.1.4.9:02": ("waived", "by choice"),
        "MS-MQRR:3.1.4.9:03": ("waived", "level MAY skipped"),
        "MS-MQRR:3.1.4.9:04": ("not run", "no scenario checks it"),
        "MS-MQRR:2.1:01": ("untestable", "a client-side rule")}
    assert (got[A]["scenarios"], got[A]["failed"], got[A]["passed"]) == (3, 2, 1)
    assert got[A]["suite_version"] == "v1" and got[A]["has_scenario"] and not got["MS-MQRR:3.1.4.9:04"]["has_scenario"]


def test_latest_and_previous_runs_per_target(spark):
    runs = runs_frame(spark, [("r1", "2026-01-01", ["a", "b"], {}, [], "v"), ("r2", "2026-01-03", ["a"], {}, [], "v"),
                              ("r3", "2026-01-02", ["b"], {}, [], "v")])
    assert {tuple(row) for row in latest_runs(runs).collect()} == {("a", "r2"), ("b", "r3")}
    assert {tuple(row) for row in latest_runs(runs, rank=2).collect()} == {("a", "r1"), ("b", "r1")}


def verdicts_frame(spark, rows):
    """rows: (run_id, target, clause_id, level, testable, verdict, reason, has_scenario, suite, started)."""
    return frame(spark, "run_id string, target string, suite_version string, started string, clause_id string, "
                        "document string, section string, section_title string, level string, testable boolean, "
                        "verdict string, reason string, has_scenario boolean",
                 [(run, target, suite, started, clause, clause.split(":")[0], clause.split(":")[1], "T", level,
                   testable, verdict, reason, has) for run, target, clause, level, testable, verdict, reason, has,
                  suite, started in rows])


def test_coverage_counts_per_document_section_and_level(spark):
    verdicts = verdicts_frame(spark, [
        ("r1", "t", "MS-MQRR:3.1:01", "MUST", True, "passed", "", True, "v", "1"),
        ("r1", "t", "MS-MQRR:3.1:02", "MUST", True, "failed", "x", True, "v", "1"),
        ("r1", "t", "MS-MQRR:3.2:01", "MAY", False, "untestable", "why", False, "v", "1"),
        ("r1", "t", "MS-MQMQ:2.2:01", "MUST", True, "not run", "needs rpc", True, "v", "1"),
        ("r1", "t", "MS-MQMQ:2.2:02", "MUST", True, "waived", "w", True, "v", "1")])
    got = {(row.grouping, row.key): row.asDict() for row in coverage(verdicts).collect()}
    assert set(got) == {("document", "MS-MQRR"), ("document", "MS-MQMQ"), ("section", "3.1"), ("section", "3.2"),
                        ("section", "2.2"), ("level", "MUST"), ("level", "MAY")}
    rr = got[("document", "MS-MQRR")]
    assert (rr["clauses"], rr["testable"], rr["with_scenario"], rr["exercised"], rr["passed"], rr["failed"],
            rr["untestable"]) == (3, 2, 2, 2, 1, 1, 1)
    must = got[("level", "MUST")]   # a level counts every document's clauses
    assert (must["clauses"], must["exercised"], must["not_run"], must["waived"], must["document"]) == (4, 2, 1, 1, "")


def test_never_exercised_lists_testable_must_clauses_no_run_reached(spark):
    verdicts = verdicts_frame(spark, [
        ("r1", "a", "MS-MQRR:1:01", "MUST", True, "not run", "needs rpc", True, "v", "1"),
        ("r1", "b", "MS-MQRR:1:01", "MUST", True, "passed", "", True, "v", "1"),        # exercised elsewhere
        ("r1", "a", "MS-MQRR:1:02", "MUST NOT", True, "not run", "needs rpc", True, "v", "1"),
        ("r2", "a", "MS-MQRR:1:02", "MUST NOT", True, "not run", "needs clock", True, "v", "2"),
        ("r1", "a", "MS-MQRR:1:03", "MUST", True, "waived", "by choice", True, "v", "1"),
        ("r1", "a", "MS-MQRR:1:04", "SHOULD", True, "not run", "x", True, "v", "1"),     # not a MUST
        ("r1", "a", "MS-MQRR:1:05", "MUST", False, "untestable", "x", False, "v", "1")])  # not testable
    got = {row.clause_id: row.asDict() for row in never_exercised(verdicts).collect()}
    assert set(got) == {"MS-MQRR:1:02", "MS-MQRR:1:03"}
    assert got["MS-MQRR:1:02"]["reasons"] == ["needs clock", "needs rpc"] and not got["MS-MQRR:1:02"]["waived_only"]
    assert got["MS-MQRR:1:03"]["waived_only"]


def side(spark, rows):
    return frame(spark, "target string, clause_id string, verdict string, reason string, run_id string", rows)


def test_changes_are_regressions_and_fixes_per_target(spark):
    baseline = side(spark, [("t", A, "passed", "", "r1"), ("t", B, "failed", "x", "r1"), ("t", C, "passed", "", "r1"),
                            ("u", A, "passed", "", "r1")])
    current = side(spark, [("t", A, "failed", "boom", "r2"), ("t", B, "passed", "", "r2"),
                           ("t", C, "not run", "needs rpc", "r2"), ("u", A, "passed", "", "r2")])
    got = {(row.target, row.clause_id): row.asDict() for row in changes(baseline, current).collect()}
    assert {key: row["change"] for key, row in got.items()} == {("t", A): "regression", ("t", B): "fix"}
    assert (got[("t", A)]["baseline_run"], got[("t", A)]["current_run"], got[("t", A)]["reason"]) == ("r1", "r2",
                                                                                                        "boom")


def test_flaky_means_both_verdicts_for_one_target_and_suite_version(spark):
    verdicts = verdicts_frame(spark, [
        ("r1", "t", A, "MUST", True, "passed", "", True, "v1", "1"),
        ("r2", "t", A, "MUST", True, "failed", "x", True, "v1", "2"),
        ("r3", "t", A, "MUST", True, "passed", "", True, "v1", "3"),
        ("r1", "t", B, "MUST", True, "passed", "", True, "v1", "1"),           # steady
        ("r4", "t", B, "MUST", True, "failed", "x", True, "v2", "4"),           # another suite version
        ("r1", "u", C, "MUST", True, "passed", "", True, "v1", "1"),
        ("r2", "u", C, "MUST", True, "not run", "needs rpc", True, "v1", "2")])  # not run is no verdict flip
    got = [row.asDict() for row in flaky(verdicts).collect()]
    assert got == [{"target": "t", "suite_version": "v1", "clause_id": A, "runs": 3, "passed": 2, "failed": 1,
                    "last_failed_run": "r2"}]


def test_verdict_history_counts_every_verdict_per_run(spark):
    verdicts = verdicts_frame(spark, [
        ("r1", "t", A, "MUST", True, "passed", "", True, "v", "1"),
        ("r1", "t", B, "MUST", True, "failed", "", True, "v", "1"),
        ("r2", "t", A, "MUST", True, "not run", "", True, "v", "2")])
    got = {row.run_id: row.asDict() for row in verdict_history(verdicts).collect()}
    assert (got["r1"]["passed"], got["r1"]["failed"], got["r1"]["not_run"], got["r1"]["untestable"]) == (1, 1, 0, 0)
    assert (got["r2"]["passed"], got["r2"]["not_run"]) == (0, 1)


def steps_frame(spark, rows):
    """rows: (example, step, action, hresult, expected, state)."""
    return frame(spark, schemas.MACHINE_STEPS, [("r1", "t", example, "cursors", step, action, "{}", hresult, None,
                                                 expected, None, state)
                                                for example, step, action, hresult, expected, state in rows])


def test_machine_rules_and_the_state_each_rule_was_tried_in(spark):
    steps = steps_frame(spark, [
        ("e1", 2, "receive", "MQ_ERROR_IO_TIMEOUT", "MQ_ERROR_IO_TIMEOUT", None),
        ("e1", 1, "create", "MQ_OK", "MQ_OK", None),
        ("e1", 3, "receive", "MQ_OK", "MQ_ERROR_IO_TIMEOUT", None),       # differs from the model
        ("e2", 1, "receive", "MQ_OK", None, None),
        ("e3", 1, "receive", "MQ_OK", None, "queue empty")])              # a machine that logs its state
    rules = {row.action: row.asDict() for row in machine_rules(steps).collect()}
    assert (rules["receive"]["steps"], rules["receive"]["examples"], rules["receive"]["mismatches"]) == (4, 3, 1)
    assert (rules["create"]["steps"], rules["create"]["mismatches"]) == (1, 0)
    pairs = {(row.state, row.action): row.steps for row in machine_pairs(steps).collect()}
    assert pairs == {("start", "create"): 1, ("create -> MQ_OK", "receive"): 1,
                     ("receive -> MQ_ERROR_IO_TIMEOUT", "receive"): 1, ("start", "receive"): 1,
                     ("queue empty", "receive"): 1}


def test_machine_steps_name_targets_without_their_secrets(spark):
    lines = frame(spark, "file string, run string, machine string, step long, action string, arguments string, "
                         "result struct<hresult:string,label:string,expected:struct<hresult:string,label:string>>, "
                         "target string, state string",
                  [("/r/m.ndjson", "x-1", "reads", 1, "send", "{}", ("MQ_OK", None, ("MQ_OK", None)),
                    "mqrr://h:1?password=s&auth=privacy", None),
                   ("/r/m.ndjson", "x-1", "reads", 2, "send", "{}", ("MQ_OK", None, None), "mqrr://other?password=s",
                    None)])
    files = frame(spark, schemas.MACHINE_FILES, [("run1", "/r/m.ndjson", "m.ndjson",
                                                  {"mqrr://h:1?password=s&auth=privacy": "mqrr://h:1?auth=privacy"})])
    got = sorted((row.step, row.run_id, row.target, row.expected_hresult) for row in
                 machine_steps(lines, files).collect())
    assert got == [(1, "run1", "mqrr://h:1?auth=privacy", "MQ_OK"), (2, "run1", "mqrr://other", None)]
