"""The run's junit.xml and cucumber.json in the shapes CI tools and validators expect.

pytest writes one <testsuite> for the whole run; `regroup_junit` gives each target a
<testsuite> of its own, named by the target's name (mqspec.identity.target_name), with
its counts, so CI views group the test cases by target (the test case names end in
[<target name>], from features/conftest.py's ids).  pytest-bdd's cucumber.json carries a
`language` key the standard Cucumber JSON schema (cucumber/cucumber-json-schema,
schemas/cucumber-js.json) does not allow, tags without their "@", steps without
`arguments`, and leaves out the steps a failure or a skip kept from running (the plugin
adds them; here they are marked skipped); `standard_cucumber` fixes those in place.  Both run after the writers
(mqspec.pytest_plugin's ResultFiles, trylast), on the controller only.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from .identity import target_name

COUNTED = (("failures", "failure"), ("errors", "error"), ("skipped", "skipped"))


def regroup_junit(path: Path) -> None:
    """One <testsuite> per target (test cases naming no target stay in a suite of their own)."""
    tree = ElementTree.parse(path)
    root = tree.getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    if not suites:
        return
    first = suites[0]
    groups: dict[str, list] = {}
    for suite in suites:
        for case in suite.findall("testcase"):
            target = next((p.get("value") for p in case.iter("property") if p.get("name") == "target"), None)
            groups.setdefault(target_name(target) if target else first.get("name", "pytest"), []).append(case)
    regrouped = ElementTree.Element("testsuites")
    for name, cases in groups.items():
        suite = ElementTree.SubElement(regrouped, "testsuite", {**first.attrib, "name": name})
        suite.set("tests", str(len(cases)))
        for attribute, tag in COUNTED:
            suite.set(attribute, str(sum(1 for case in cases if case.find(tag) is not None)))
        suite.set("time", f"{sum(float(case.get('time') or 0) for case in cases):.3f}")
        suite.extend(cases)
    ElementTree.ElementTree(regrouped).write(path, encoding="utf-8", xml_declaration=True)


def standard_cucumber(path: Path) -> None:
    """cucumber.json valid against the standard schema: no `language`, tags with "@", every step with its
    `arguments` and a result status (a step that did not run: skipped)."""
    features = json.loads(path.read_text(encoding="utf-8"))
    for feature in features:
        feature.pop("language", None)
        _tags(feature)
        for element in feature.get("elements") or []:
            _tags(element)
            stopped = False   # a step after one that failed or skipped did not run
            for step in element.get("steps") or []:
                step.setdefault("arguments", [])
                result = step.setdefault("result", {})
                if stopped:
                    step["result"] = {"status": "skipped", "duration": 0}
                result = step["result"]
                result.setdefault("status", "skipped")
                stopped = stopped or result["status"] != "passed"
    path.write_text(json.dumps(features, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _tags(node: dict) -> None:
    node["tags"] = [{**tag, "name": tag["name"] if tag["name"].startswith("@") else "@" + tag["name"]}
                    for tag in node.get("tags") or []]
