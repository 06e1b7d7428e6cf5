"""evidence/*.json of a run -> one row per failing scenario: its evidence, as the JSON document it is.

mqspec/evidence.py writes one file per failing scenario (its steps with their data
tables, what the target answered, the PDUs, the judge's transcript); the report
shows it in the scenario's drill-down and nowhere else, so it is staged whole,
joined to the scenario by (run_id, name) and parsed only by the report model.  A
file that is not JSON, or names no test, is left out with one line; a file larger
than SIZE_LIMIT keeps its failure and steps and loses the rest, which is said.
"""

from __future__ import annotations

import json
from pathlib import Path

from .errors import InputError

SIZE_LIMIT = 2 << 20   # octets of one scenario's evidence the report carries whole


def read_evidence(directory: Path, run_id: str) -> tuple[list[dict], list[InputError]]:
    """(rows, errors) of one run's evidence folder."""
    rows, errors = [], []
    for path in sorted(directory.glob("*.json")):
        try:
            evidence = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            errors.append(InputError(path, f"cannot be read as JSON ({type(error).__name__}); the scenario's "
                                           "evidence is left out"))
            continue
        if not isinstance(evidence, dict) or not isinstance(evidence.get("name"), str):
            errors.append(InputError(path, "not a scenario's evidence (no test name); left out"))
            continue
        text = json.dumps(evidence, ensure_ascii=False, separators=(",", ":"))
        if len(text) > SIZE_LIMIT:
            kept = {key: evidence.get(key) for key in ("name", "nodeid", "target", "failure", "steps")}
            kept["note"] = f"{len(text)} octets of evidence; the calls, PDUs and transcript are left out of the report"
            text = json.dumps(kept, ensure_ascii=False, separators=(",", ":"))
        rows.append({"run_id": run_id, "name": evidence["name"], "evidence_json": text})
    return rows, errors
