"""The report model: the pipeline's bounded outputs read back into one JSON-able dict.

Everything the renderers show comes from here, and everything here is bounded by
the catalogue (a row per clause and target), one run's size (the drill-down of
each target's latest run: its scenarios and their steps) or the number of runs
(verdicts per run); the big tables stay in Parquet.  Lists are sorted, so the
model of the same inputs is the same wherever Spark ran.
"""

from __future__ import annotations

import datetime as _dt
import json
from concurrent.futures import ThreadPoolExecutor

from pyspark.sql import SparkSession, functions as F

from .faults import clause_order
from .strength import strength_model
from .verdicts import scenario_verdicts

FORMAT = "mqspec report 1"
WORKERS = 3


def _rows(frame, *order) -> list[dict]:
    rows = [row.asDict(recursive=True) for row in frame.collect()]
    return sorted(rows, key=lambda row: tuple("" if row.get(key) is None else row.get(key) for key in order))


def build_model(spark: SparkSession, paths: dict[str, str], errors, *, master: str, suite_version: str | None) -> dict:
    def table(name):
        return spark.read.parquet(paths[name])

    latest = F.broadcast(table("latest_runs"))   # one row per target
    current = table("clause_verdicts").join(latest, ["target", "run_id"], "left_semi")
    # the latest runs' ids as a filter Parquet can push down: row groups of older runs are never read
    in_latest = F.col("run_id").isin(sorted({row.run_id for row in table("latest_runs").collect()}))
    frames = {   # name -> (frame, sort keys); each bounded (see the module's docstring)
        "latest": (latest, ("target",)),
        "previous": (table("previous_runs"), ("target",)),
        "runs": (table("runs").drop("results_dir"), ("started", "run_id")),
        "clauses": (table("clauses"), ("clause_id",)),
        "decisions": (table("decisions"), ("decision_id",)),
        "verdicts": (current.select("target", "clause_id", "verdict", "reason", "fault", "cause", "scenarios",
                                    "passed", "failed", "not_run", "waived"), ("target", "clause_id")),
        "scenarios": (scenario_verdicts(table("results").where(in_latest))
                      .join(latest, ["target", "run_id"], "left_semi")
                      .join(table("scenario_runs").drop("tags").where(in_latest), ["run_id", "name"], "left")
                      .select("target", "run_id", "name", "feature_uri", "scenario_name", "scenario_line", "verdict",
                              "reason", "outcome", "duration", "clauses", "decisions", "readings", "cause", "stopped",
                              "message",
                              F.when(F.col("verdict") == "failed", F.col("detail")).alias("detail")),
                      ("target", "feature_uri", "scenario_line", "name")),
        "steps": (table("steps").where(in_latest)
                  .select("run_id", "name", "step_index", "keyword", "text", "status", "duration_ns",
                          "error_message"), ("run_id", "name", "step_index")),
        "evidence": (table("evidence").where(in_latest), ("run_id", "name")),
        "coverage": (table("coverage").drop("run_id"), ("target", "grouping", "document", "key")),
        "never_exercised": (table("never_exercised"), ("clause_id",)),
        "changes": (table("changes"), ("target", "clause_id")),
        "flaky": (table("flaky"), ("target", "suite_version", "clause_id")),
        "history": (table("verdict_history"), ("started", "run_id", "target")),
        "rules": (table("machine_rules"), ("target", "machine", "action")),
        "pairs": (table("machine_pairs"), ("target", "machine", "state", "action")),
    }
    with ThreadPoolExecutor(WORKERS, thread_name_prefix="model") as pool:
        got = dict(zip(frames, pool.map(lambda item: _rows(item[0], *item[1]), frames.values())))
    latest_by_target = {row["target"]: row["run_id"] for row in got["latest"]}
    runs = got["runs"]
    targets = [target for run in runs for target in run["targets"]]
    targets = sorted(dict.fromkeys(target for target in targets if target in latest_by_target),
                     key=targets.index)
    matrix: dict[str, dict] = {target: {} for target in targets}
    for row in got["verdicts"]:
        matrix[row.pop("target")][row.pop("clause_id")] = row
    run_by_id = {run["run_id"]: run for run in runs}
    return {
        "format": FORMAT,
        "generated": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "master": master,
        "suite_version": suite_version,   # the version runs were filtered on (None: any)
        "suite_versions": sorted({run["suite_version"] for run in runs}),
        "errors": [str(error) for error in errors],
        "runs": [_run(run) for run in runs],
        "targets": targets,
        "latest": latest_by_target,
        "profiles": {target: _profile(run_by_id[latest_by_target[target]], target) for target in targets},
        "clauses": sorted(got["clauses"], key=lambda row: clause_order(row["clause_id"])),
        "decisions": {row.pop("decision_id"): row for row in got["decisions"]},
        "matrix": matrix,
        "counts": {target: _counts(matrix[target]) for target in targets},
        "scenarios": _scenarios(got["scenarios"], got["steps"], targets, got["evidence"]),
        "coverage": got["coverage"],
        "never_exercised": got["never_exercised"],
        "changes": got["changes"],
        "baseline": {row["target"]: row["run_id"] for row in got["previous"]},
        "flaky": got["flaky"],
        "history": got["history"],
        "machines": {"rules": got["rules"], "pairs": got["pairs"]},
        "strength": strength_model(spark, paths),   # None without a strength input
    }


def _run(run: dict) -> dict:
    run = dict(run)
    for key in ("profile_json", "demanded_profile_json"):
        value = run.pop(key)
        run[key[:-len("_json")]] = json.loads(value) if value else None
    return run


def _profile(run: dict, target: str) -> dict:
    """The readings the run record says the target showed, and the profile that was demanded (when present)."""
    profile = json.loads(run["profile_json"]) if run.get("profile_json") else None
    demanded = json.loads(run["demanded_profile_json"]) if run.get("demanded_profile_json") else None
    shown = profile.get(target) if isinstance(profile, dict) else None
    if isinstance(demanded, dict) and target in demanded and isinstance(demanded[target], dict):
        demanded = demanded[target]
    return {"profile": shown, "demanded_profile": demanded}


def _counts(verdicts: dict) -> dict:
    counts = {"passed": 0, "failed": 0, "not run": 0, "waived": 0, "untestable": 0}
    for row in verdicts.values():
        counts[row["verdict"]] += 1
    return counts


def _scenarios(scenario_rows: list[dict], step_rows: list[dict], targets: list[str],
               evidence_rows: list[dict] = ()) -> dict:
    """Each target's latest run: its scenarios (verdict, reason, failure) and their steps; a failed one also its
    evidence (reports/evidence.py)."""
    evidence = {(row["run_id"], row["name"]): row["evidence_json"] for row in evidence_rows}
    steps: dict[tuple, list] = {}
    for row in step_rows:
        steps.setdefault((row["run_id"], row["name"]), []).append(
            [row["keyword"], row["text"], row["status"], round((row["duration_ns"] or 0) / 1e6, 3),
             row["error_message"] or ""])
    result: dict[str, list] = {target: [] for target in targets}
    for row in scenario_rows:
        target, run_id = row.pop("target"), row.pop("run_id")
        row["steps"] = steps.get((run_id, row["name"]), [])
        found = evidence.get((run_id, row["name"])) if row["verdict"] == "failed" else None
        row["evidence"] = json.loads(found) if found else None
        result.setdefault(target, []).append(row)
    return result
