"""cucumber.json -> the scenarios a run executed, and each one's steps.

pytest-bdd writes a list of features, each with its `elements` (scenarios, one per
target: the element id is the test's name, as in junit.xml) and their `steps`
(keyword, text, line, result status, duration in ns, error message).  The rows
here join the junit results on (run_id, name) to give the drill-down from a
clause to its scenarios and their steps.  A file that is cut short or not of that
shape is left out with one line; the run's verdicts (from junit.xml) still stand.
"""

from __future__ import annotations

import json
from pathlib import Path

from .errors import InputError

ERROR_LIMIT = 4_000


def read_cucumber(path: Path, run_id: str) -> tuple[list[dict], list[dict]]:
    """(scenarios, steps) of one cucumber.json; InputError if it cannot be used."""
    try:
        features = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputError(path, "not UTF-8 text; drill-down to steps left out") from None
    except json.JSONDecodeError as error:
        raise InputError(path, f"cut short or not JSON ({error.msg} at line {error.lineno} column {error.colno}); "
                               "drill-down to steps left out") from None
    except OSError as error:
        raise InputError(path, f"cannot read it ({error.strerror or error})") from None
    if not isinstance(features, list):
        raise InputError(path, "not a Cucumber JSON report (a list of features); drill-down to steps left out")
    scenarios: list[dict] = []
    steps: list[dict] = []
    try:
        for feature in features:
            for element in feature.get("elements") or []:
                if element.get("type", "scenario") != "scenario":
                    continue
                name = element["id"]
                scenarios.append({
                    "run_id": run_id, "name": name, "feature_uri": feature.get("uri", ""),
                    "feature_name": feature.get("name", ""), "scenario_name": element.get("name", ""),
                    "scenario_line": int(element.get("line") or 0),
                    "tags": [tag["name"].removeprefix("@") for tag in element.get("tags") or []]})
                for index, step in enumerate(element.get("steps") or []):
                    result = step.get("result") or {}
                    steps.append({
                        "run_id": run_id, "name": name, "step_index": index,
                        "keyword": step.get("keyword", "").strip(), "text": step.get("name", ""),
                        "line": int(step.get("line") or 0), "status": result.get("status", "skipped"),
                        "duration_ns": int(result.get("duration") or 0),
                        "error_message": (result.get("error_message") or "")[:ERROR_LIMIT]})
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise InputError(path, f"not a Cucumber JSON report ({type(error).__name__}: {error}); drill-down to steps "
                               "left out") from None
    return scenarios, steps
