"""Shared by the tests of reports/: one SparkSession, and results directories as a certify run writes them.

The test modules import what they use from here (`spark` is session-scoped: one JVM for the whole test
session).  `write_run` writes junit.xml, cucumber.json, run.json and machines.ndjson in the shapes pytest,
pytest-bdd and the suite's plugin give them (checked against real runs in test_reports_ingest.py), so the
pipeline is tested on files, as it meets them.
"""

from __future__ import annotations

import json
import os
import tempfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mqspec.catalogue import load_catalogue

SUITE = "v-test-suite"
SECRET_TARGET = "mqrr://127.0.0.1:2103?user=tester&password=hunter2&auth=privacy"
SHOWN_TARGET = "mqrr://127.0.0.1:2103?user=tester&auth=privacy"
_spark_session = None


@pytest.fixture(scope="session")
def spark():
    """One local SparkSession for every Spark test (SPARK_LOCAL_IP=127.0.0.1, UI off, 512m driver)."""
    # each test module imports this fixture (so pytest sees one definition per module); the global keeps the
    # session one, and the first teardown at the session's end stops it (the JVM with it)
    global _spark_session
    if _spark_session is None:
        from mqspec.reports.session import start_session
        log = Path(os.environ.get("MQSPEC_RESULTS") or tempfile.gettempdir()) / "tests-spark.log"
        _spark_session, _ = start_session("local[2]", log, app="mqspec-tests", shuffle_partitions=2,
                                          quick_jvm=True)
    yield _spark_session
    if _spark_session is not None:
        _spark_session.stop()
        _spark_session = None


def clause_ids() -> dict[str, list[str]]:
    """Clause ids of the live catalogue by kind, so the tests follow the catalogue as it grows."""
    clauses = list(load_catalogue().clauses.values())
    return {"must": [c.id for c in clauses if c.testable and c.level == "MUST"],
            "should": [c.id for c in clauses if c.testable and c.level == "SHOULD"],
            "untestable": [c.id for c in clauses if not c.testable]}


@dataclass
class Case:
    """One test case of a run: a scenario (or machine) against one target."""
    name: str
    clauses: list[str]
    outcome: str = "passed"            # passed, failed, error, skipped, xfailed
    message: str = ""
    detail: str = ""
    target: str = "reference"
    decisions: list[str] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)
    feature_uri: str = "ms-mqrr/3.1.4.7-r_start_receive.feature"
    scenario: str = ""
    steps: list[tuple[str, str, str]] = field(default_factory=lambda: [
        ("Given", 'a queue "orders"', "passed"), ("When", 'the client receives from "orders"', "passed"),
        ("Then", "the call returns MQ_OK", "passed")])
    extra: list[tuple[str, str]] = field(default_factory=list)   # more junit properties


def junit_xml(cases: list[Case]) -> bytes:
    root = ElementTree.Element("testsuites", name="pytest tests")
    suite = ElementTree.SubElement(root, "testsuite", name="pytest", tests=str(len(cases)))
    ElementTree.SubElement(suite, "testcase", classname="tests.test_unit", name="test_a_unit_test", time="0.001")
    for case in cases:
        element = ElementTree.SubElement(suite, "testcase", classname="features.test_conformance", name=case.name,
                                         time="0.012")
        properties = ElementTree.SubElement(element, "properties")
        pairs = [("clause", c) for c in case.clauses] + [("decision", d) for d in case.decisions]
        pairs += [("target", case.target)] + [("reading", r) for r in case.readings] + case.extra
        for name, value in pairs:
            ElementTree.SubElement(properties, "property", name=name, value=value)
        if case.outcome in ("failed", "error"):
            child = ElementTree.SubElement(element, "failure" if case.outcome == "failed" else "error",
                                           message=case.message)
            child.text = case.detail or case.message
        elif case.outcome == "skipped":
            child = ElementTree.SubElement(element, "skipped", type="pytest.skip", message=case.message)
            child.text = f"/work/main/steps/world.py:82: {case.message}"
        elif case.outcome == "xfailed":
            ElementTree.SubElement(element, "skipped", type="pytest.xfail", message=case.message)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)


def cucumber(cases: list[Case]) -> list[dict]:
    features: dict[str, dict] = {}
    for line, case in enumerate(cases, start=10):
        feature = features.setdefault(case.feature_uri, {
            "keyword": "Feature", "uri": case.feature_uri, "name": case.feature_uri, "id": case.feature_uri,
            "line": 1, "description": "", "language": "en", "tags": [], "elements": []})
        status = {"passed": "passed", "failed": "failed", "error": "failed"}.get(case.outcome, "skipped")
        steps = [{"keyword": keyword, "name": text, "line": line + i, "match": {"location": ""},
                  "result": {"status": step_status if status != "skipped" else "skipped", "duration": 125000,
                             **({"error_message": case.message} if step_status == "failed" else {})}}
                 for i, (keyword, text, step_status) in enumerate(case.steps)]
        feature["elements"].append({
            "keyword": "Scenario", "id": case.name, "name": case.scenario or case.name, "line": line,
            "description": "", "type": "scenario", "steps": steps,
            "tags": [{"name": f"clause:{c}", "line": line - 1} for c in case.clauses]})
    return list(features.values())


def write_run(directory: Path, run_id: str, started: str, cases: list[Case], *, targets=("reference",),
              suite_version: str = SUITE, machines: list[dict] | None = None, profile: dict | None = None,
              demanded: dict | None = None, waived: dict | None = None, skipped_levels=(), selection=(),
              exit_status: int | None = None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "junit.xml").write_bytes(junit_xml(cases))
    (directory / "cucumber.json").write_text(json.dumps(cucumber(cases), indent=1))
    record = {"run_id": run_id, "targets": list(targets), "suite_version": suite_version,
              "spec_revisions": {"MS-MQRR": "29.0", "MS-MQDMPR": "32.0"}, "started": started,
              "finished": started,
              "exit_status": exit_status if exit_status is not None else
              0 if all(c.outcome != "failed" for c in cases) else 1,
              "waived_clauses": waived or {}, "skipped_levels": list(skipped_levels), "selection": list(selection)}
    if profile is not None:
        record["profile"] = profile
    if demanded is not None:
        record["demanded_profile"] = demanded
    (directory / "run.json").write_text(json.dumps(record, indent=2))
    if machines is not None:
        (directory / "machines.ndjson").write_text("".join(json.dumps(line) + "\n" for line in machines))
    return directory


def machine_lines(run_id: str, target: str, example: int, actions: list[tuple[str, str, str | None]]) -> list[dict]:
    """(action, hresult, expected hresult or None) per step, as steps/machines.py logs them."""
    lines = []
    for step, (action, hresult, expected) in enumerate(actions, start=1):
        result = {"hresult": hresult, "label": None}
        if expected is not None:
            result["expected"] = {"hresult": expected, "label": None}
        lines.append({"run": f"{run_id}-{example}", "machine": "cursors", "step": step, "action": action,
                      "arguments": {"cursor": "c1"}, "result": result, "target": target})
    return lines


def history(root: Path) -> dict:
    """Two runs of two targets: a regression, a fix, a flaky pair, a waiver, a capability not offered,
    machines and a recorded profile.  Returns the clause ids by role and the run directories."""
    ids = clause_ids()
    a, b, c, d, e = ids["must"][:5]
    should = ids["should"][0]
    rpc = "not run: needs rpc (calls travel over DCE/RPC); reference does not offer it"

    def cases(first: bool) -> list[Case]:
        return [
            Case("test_a[reference]", [a], "passed" if first else "failed",
                 "" if first else "AssertionError: expected MQ_OK, got MQ_ERROR_IO_TIMEOUT\nmore detail",
                 "" if first else "Traceback line 1\nAssertionError: expected MQ_OK, got MQ_ERROR_IO_TIMEOUT",
                 steps=[("Given", 'a queue "orders"', "passed"),
                        ("Then", "the call returns MQ_OK", "passed" if first else "failed")]),
            Case("test_b[reference]", [b], "failed" if first else "passed",
                 "AssertionError: B was wrong" if first else ""),
            Case("test_c[reference]", [c, should], decisions=["D-03"], readings=["D-03=dmpr"]),
            Case("test_d[reference]", [d], "skipped", rpc),
            Case("test_e[reference]", [e, c], "skipped", f"waived: {e}: the target answers otherwise on purpose"),
            # features/conftest.py names a parametrised test by the URL without its options
            Case("test_a[mqrr://127.0.0.1:2103]", [a], target=SECRET_TARGET),
            Case("test_d[mqrr://127.0.0.1:2103]", [d], target=SECRET_TARGET),
        ]

    targets = ("reference", SECRET_TARGET)
    first = write_run(root / "20260101T000000Z-aaaaaa", "20260101T000000Z-aaaaaa", "2026-01-01T00:00:00+00:00",
                      cases(True), targets=targets, waived={e: "the target answers otherwise on purpose"})
    machines = (machine_lines("20260102T000000Z-bbbbbb", "reference", 1,
                              [("create_cursor", "MQ_OK", "MQ_OK"), ("receive_front", "MQ_ERROR_IO_TIMEOUT",
                                                                     "MQ_ERROR_IO_TIMEOUT"),
                               ("receive_front", "MQ_OK", "MQ_ERROR_IO_TIMEOUT")])
                + machine_lines("20260102T000000Z-bbbbbb", SECRET_TARGET, 1, [("create_cursor", "MQ_OK", None)]))
    second = write_run(root / "20260102T000000Z-bbbbbb", "20260102T000000Z-bbbbbb", "2026-01-02T00:00:00+00:00",
                       cases(False), targets=targets, waived={e: "the target answers otherwise on purpose"},
                       machines=machines, profile={"reference": {"D-03": ["dmpr"]}}, demanded={"D-03": "dmpr"})
    return {"regressed": a, "fixed": b, "passing": c, "rpc": d, "waived": e, "should": should,
            "untestable": ids["untestable"][0], "runs": [first, second]}
