"""junit.xml and cucumber.json of a real run in the shapes CI tools expect: a published validator checks them."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "tests" / "schemas" / "cucumber-js.schema.json").read_text(encoding="utf-8"))
# two scenarios of MS-MQDMPR 3.1.1.2 that fail against a FIFO queue manager, the second with steps after the failure
SCENARIOS = "messages_are_listed_by_priority or receives_take_messages_in_the_order"


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("files") / "r"
    process = subprocess.run([sys.executable, "-m", "pytest", "features/test_conformance.py", "-q", "-p",
                              "no:cacheprovider", "--results", str(where), "-k", SCENARIOS,
                              "--target", "reference?name=ref", "--target",
                              "reference?variant=fifo-ignores-priority&name=fifo"],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert process.returncode == 1, process.stdout + process.stderr
    return where


def test_cucumber_json_is_valid_against_the_standard_schema(results):
    features = json.loads((results / "cucumber.json").read_text(encoding="utf-8"))
    jsonschema.validate(features, SCHEMA)
    steps = [step for feature in features for element in feature["elements"] for step in element["steps"]]
    statuses = [step["result"]["status"] for step in steps]
    assert "failed" in statuses and "skipped" in statuses, sorted(set(statuses))   # steps after a failure: skipped
    receive = next(element for feature in features for element in feature["elements"]
                   if element["id"].startswith("test_receives_take_messages") and "[fifo]" in element["id"])
    assert [step["result"]["status"] for step in receive["steps"]] == ["passed"] * 4 + ["failed"] + ["skipped"] * 4


def test_the_validator_refuses_what_pytest_bdd_writes_unchanged():
    feature = {"keyword": "Feature", "uri": "a.feature", "name": "a", "id": "a", "line": 1, "description": "",
               "language": "en", "tags": [], "elements": []}
    with pytest.raises(jsonschema.ValidationError, match="language"):
        jsonschema.validate([feature], SCHEMA)


def test_junit_groups_test_cases_by_target_and_names_them_by_it(results):
    root = ElementTree.parse(results / "junit.xml").getroot()
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert sorted(suites) == ["fifo", "ref"]
    for name, suite in suites.items():
        cases = suite.findall("testcase")
        assert cases and all(f"[{name}" in case.get("name") for case in cases)
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(case.find("failure") is not None for case in cases)
    assert int(suites["fifo"].get("failures")) >= 1 and int(suites["ref"].get("failures")) == 0
