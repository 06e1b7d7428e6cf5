"""The certification record of one target: what was certified, against what, with what verdict.

A record names the suite version and the specification revisions it certifies
against, the target (a server's URL without secrets, or "client NAME" for a
client, named by its shim) and the side of MS-MQRR it plays, the run, the
verdict of every clause of that side (with the reason for any that did not pass), the
waivers with their reasons, the levels skipped, and, where the run recorded
them, the readings the target showed of the open decisions (its profile) and
the profile that was demanded.  `sha256` is the SHA-256 of the record's
canonical JSON (sorted keys, no spaces) without the sha256 field itself, so a
record that was altered after the fact no longer verifies.
"""

from __future__ import annotations

import hashlib
import json
import re

from mqspec.identity import target_name, target_side

from .faults import ranked

FORMAT = "mqspec certification record 1"
COMPLETE = (0, 1)   # pytest's exit statuses of a run that went to its end (2: interrupted, 3-4: broken, 5: empty)


def verdict_of(verdicts: dict[str, dict]) -> str:
    """conformant only when every testable clause of the target's side was judged (passed, or waived by a recorded
    decision) and none failed (D-140); a failure makes it "not conformant", a clause not run "incomplete"."""
    if any(row["verdict"] == "failed" for row in verdicts.values()):
        return "not conformant"
    if any(row["verdict"] == "not run" for row in verdicts.values()):
        return "incomplete"
    return "conformant"


def not_run(verdicts: dict[str, dict]) -> dict[str, list[str]]:
    """why -> the clauses not run for that reason, in catalogue order."""
    from .faults import clause_order
    found: dict[str, list[str]] = {}
    for clause, row in verdicts.items():
        if row["verdict"] == "not run":
            found.setdefault(row["reason"] or "no reason given", []).append(clause)
    return {why: sorted(clauses, key=clause_order) for why, clauses in sorted(found.items())}


def canonical(document: dict) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def seal(record: dict) -> dict:
    body = {key: value for key, value in record.items() if key != "sha256"}
    return {**body, "sha256": hashlib.sha256(canonical(body)).hexdigest()}


def verifies(record: dict) -> bool:
    return isinstance(record.get("sha256"), str) and seal(record)["sha256"] == record["sha256"]


def certification_record(model: dict, target: str) -> dict:
    run = next(run for run in model["runs"] if run["run_id"] == model["latest"][target])
    clauses = {clause["clause_id"]: clause for clause in model["clauses"]}
    verdicts = {}
    for clause_id, row in sorted(model["matrix"][target].items()):
        clause = clauses[clause_id]
        verdicts[clause_id] = {"verdict": row["verdict"], "reason": row["reason"], "level": clause["level"],
                               "testable": clause["testable"]}
        if row.get("fault"):   # a failed clause: at fault, or collateral of its cause (faults.py)
            verdicts[clause_id].update(fault=row["fault"], cause=row.get("cause") or "")
    counts = model["counts"][target]
    verdict = verdict_of(verdicts)
    at_fault, collateral = ranked(verdicts)
    record = {
        "format": FORMAT,
        "target": target,
        "name": target_name(target),   # what the gate matches a baseline's target with
        "side": target_side(target),   # a client is certified by the client's clauses, a server by the server's
        "run_id": run["run_id"],
        "started": run["started"],
        "finished": run["finished"],
        "suite_version": run["suite_version"],
        "spec_revisions": dict(sorted((run["spec_revisions"] or {}).items())),
        "conformant": verdict == "conformant",
        "verdict": verdict,
        "counts": counts,
        "at_fault": [clause for clause, _, _ in at_fault],   # the clauses at fault, the misread first
        "collateral": [clause for clause, _ in collateral],
        "not_run": not_run(verdicts),
        "verdicts": verdicts,
        "waivers": dict(sorted((run["waived_clauses"] or {}).items())),
        "skipped_levels": sorted(run["skipped_levels"] or []),
    }
    profile = model["profiles"].get(target) or {}
    if profile.get("profile") is not None:
        record["profile"] = profile["profile"]
    if profile.get("demanded_profile") is not None:
        record["demanded_profile"] = profile["demanded_profile"]
    return seal(record)


def record_file_name(target: str) -> str:
    return "certification-" + re.sub(r"[^A-Za-z0-9._-]+", "_", target).strip("_") + ".json"
