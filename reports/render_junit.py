"""The clause verdicts as JUnit XML: a test suite per target, a test case per clause.

CI systems that show JUnit results then list clauses, not pytest functions, grouped by the target's name
(mqspec.identity.target_name) in the suite and the classname:
failed clauses as failures (message: the first failing scenario's reason), and
clauses not run, waived or untestable as skipped, the message saying which and why.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from mqspec.identity import target_name


def render_junit(model: dict) -> bytes:
    clauses = {clause["clause_id"]: clause for clause in model["clauses"]}
    root = ElementTree.Element("testsuites", name="mqspec clauses")
    for target in model["targets"]:
        verdicts, name = model["matrix"][target], target_name(target)
        counts = model["counts"][target]
        suite = ElementTree.SubElement(root, "testsuite", name=name, tests=str(len(verdicts)),
                                       failures=str(counts["failed"]), errors="0",
                                       skipped=str(len(verdicts) - counts["passed"] - counts["failed"]))
        ElementTree.SubElement(ElementTree.SubElement(suite, "properties"), "property", name="run_id",
                               value=model["latest"][target])
        for clause_id in sorted(verdicts):
            row, clause = verdicts[clause_id], clauses[clause_id]
            # the target in the classname too: (classname, name) is unique across the file
            case = ElementTree.SubElement(suite, "testcase", classname=f"{clause['document']} [{name}]",
                                          name=clause_id)
            ElementTree.SubElement(ElementTree.SubElement(case, "properties"), "property", name="level",
                                   value=clause["level"])
            if row["verdict"] == "failed":
                failure = ElementTree.SubElement(case, "failure", message=row["reason"])
                failure.text = f"{clause['level']}: {clause['text']}\n{row['reason']}"
            elif row["verdict"] != "passed":
                ElementTree.SubElement(case, "skipped", message=f"{row['verdict']}: {row['reason']}".rstrip(": "))
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
