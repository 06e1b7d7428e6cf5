"""junit.xml -> one row per conformance test case, and every property it carries.

pytest writes one <testcase> per scenario (or stateful machine) and target, with
<property name="clause" value="..."/> per clause it checks, "target", and whatever
else the suite's plugin adds ("decision", "reading", "cause", "stopped", ...).  Properties are kept
generically, one (name, value) row each; the clauses, decisions and readings are
also kept on the result row itself (sorted, distinct), which is what the verdicts
use.  A test case without a clause property is a unit test of the project, not a
conformance check, and is not a result.

outcome is what pytest saw: passed, failed, error, skipped (its message says why:
"waived: ...", "not run: ...") or xfailed (a known defect that failed as expected).

A file that is cut short or not XML rules out the whole run (a run judged on half
its results would be misjudged); a clause id the catalogue does not know is
dropped from its test case and named in one line.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

from mqspec.identity import target_identity

from .errors import InputError

MESSAGE_LIMIT = 2_000
DETAIL_LIMIT = 20_000


def read_junit(path: Path, run_id: str, targets: list[str], known_clauses) -> tuple[list[dict], list[dict],
                                                                                     list[InputError]]:
    """(results, properties, errors) of one junit.xml; InputError if the file cannot be read at all."""
    results: list[dict] = []
    properties: list[dict] = []
    unknown: dict[str, int] = {}
    untargeted = 0
    count = 0
    try:
        for _, element in ElementTree.iterparse(path, events=("end",)):
            if element.tag != "testcase":
                continue
            count += 1
            row, pairs = _testcase(element, run_id)
            element.clear()
            clauses = [value for name, value in pairs if name == "clause"]
            if not clauses:
                continue  # a unit test of the project itself
            for clause in clauses:
                if clause not in known_clauses:
                    unknown[clause] = unknown.get(clause, 0) + 1
            pairs = [(name, value) for name, value in pairs if name != "clause" or value in known_clauses]
            if not any(name == "clause" for name, _ in pairs):
                continue
            target = next((value for name, value in pairs if name == "target"), None)
            if target is None and len(targets) == 1:
                target = targets[0]
            if target is None:
                untargeted += 1
                continue
            row["target"] = target_identity(target)
            # the verdict stages need these three with every result: kept on the row, so no join brings them
            for key, name in (("clauses", "clause"), ("decisions", "decision"), ("readings", "reading")):
                row[key] = sorted({value for kind, value in pairs if kind == name})
            # a failure's cause (reports/faults.py) is one of the clauses it bears on, tagged or not
            row["cause"] = next((value for kind, value in pairs if kind == "cause" and value in known_clauses), "")
            row["stopped"] = next((value for kind, value in pairs if kind == "stopped"), "")
            if row["cause"] and row["cause"] not in row["clauses"]:
                row["clauses"] = sorted(row["clauses"] + [row["cause"]])
            results.append(row)
            properties += [{"run_id": run_id, "target": row["target"], "name": row["name"], "property": name,
                            "value": target_identity(value) if name == "target" else value}
                           for name, value in pairs]
    except ElementTree.ParseError as error:
        line, column = error.position
        raise InputError(path, f"cut short or not XML (line {line}, column {column}, after {count} test cases); "
                               "run left out") from None
    except OSError as error:
        raise InputError(path, f"cannot read it ({error.strerror or error})") from None
    errors = []
    if unknown:
        listed = ", ".join(f"{clause} ({n})" for clause, n in sorted(unknown.items()))
        errors.append(InputError(path, f"unknown clause id{'s' if len(unknown) > 1 else ''} {listed}: not in the "
                                       "catalogue, left out of the report"))
    if untargeted:
        errors.append(InputError(path, f"{untargeted} test case(s) name no target and the run has several; "
                                       "left out"))
    return results, properties, errors


def _testcase(element, run_id: str) -> tuple[dict, list[tuple[str, str]]]:
    pairs = [(p.get("name", ""), p.get("value", "")) for p in element.iter("property")]
    outcome, message, detail = "passed", "", ""
    for tag in ("failure", "error", "skipped"):
        child = element.find(tag)
        if child is None:
            continue
        if tag == "skipped":
            outcome = "xfailed" if child.get("type") == "pytest.xfail" else "skipped"
        else:
            outcome = "failed" if tag == "failure" else "error"
        message = (child.get("message") or "")[:MESSAGE_LIMIT]
        detail = (child.text or "")[:DETAIL_LIMIT]
        break
    try:
        duration = float(element.get("time") or 0.0)
    except ValueError:
        duration = 0.0
    row = {"run_id": run_id, "name": element.get("name", ""), "classname": element.get("classname", ""),
           "duration": duration, "outcome": outcome, "message": message, "detail": detail}
    return row, pairs
