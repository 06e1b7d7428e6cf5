"""Ingest: result files and the suite's own definition -> Parquet tables.

Theory of operation
-------------------
Python reads what needs a parser that says exactly where a file goes wrong
(junit.xml with ElementTree, cucumber.json with json, features with Gherkin, the
catalogue with tomllib) and stages the rows as NDJSON, one file per table.  Spark
then reads every staged table with its fixed schema (schemas.py) and writes it as
Parquet under <work>/tables/<table>.  machines.ndjson is already JSON lines, so
Spark reads those files directly: a line cut short becomes a corrupt record,
which is named (file, count) and left out, while the good lines stay.

The evidence of the failing scenarios (evidence/*.json) is staged as it is, one
JSON document per scenario (evidence.py); a file that cannot be read is named and
left out.

`ingest` returns the paths of the tables and the InputErrors met on the way; a
run whose junit.xml cannot be read is left out whole, a bad cucumber.json only
costs the run its drill-down.
"""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pyspark.sql import DataFrame, SparkSession, functions as F

from mqspec.identity import target_identity

from . import schemas
from .cucumber import read_cucumber
from .errors import InputError
from .evidence import read_evidence
from .inputs import Run
from .junit import read_junit

WORKERS = 3
TABLES = ("runs", "results", "properties", "scenario_runs", "steps", "clauses", "decisions", "suite_scenarios",
          "evidence", "machine_steps")


class Staging:
    """NDJSON files of rows, one per table, under one directory."""

    def __init__(self, directory: Path):
        if directory.exists():
            shutil.rmtree(directory)
        directory.mkdir(parents=True)
        self.directory = directory
        self.files = {name: open(directory / f"{name}.ndjson", "w", encoding="utf-8") for name in schemas.STAGED}

    def add(self, table: str, rows: list[dict]) -> None:
        write = self.files[table].write
        for row in rows:
            write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")

    def close(self) -> None:
        for handle in self.files.values():
            handle.close()

    def path(self, table: str) -> str:
        return str(self.directory / f"{table}.ndjson")


def stage_runs(staging: Staging, runs: list[Run], known_clauses, progress=None) -> tuple[list[Run], list[InputError]]:
    """Parse each run's files into the staging tables; returns the runs kept and the errors."""
    kept: list[Run] = []
    errors: list[InputError] = []
    for run in runs:
        targets = [target_identity(target) for target in run.targets]
        try:
            results, properties, problems = read_junit(run.junit, run.run_id, targets, known_clauses)
        except InputError as error:
            errors.append(error)
            if progress:
                progress.advance(run.run_id)
            continue
        errors += problems
        staging.add("results", results)
        staging.add("properties", properties)
        if run.cucumber is not None:
            try:
                scenarios, steps = read_cucumber(run.cucumber, run.run_id)
                staging.add("scenario_runs", scenarios)
                staging.add("steps", steps)
            except InputError as error:
                errors.append(error)
        if run.evidence is not None:
            rows, problems = read_evidence(run.evidence, run.run_id)
            staging.add("evidence", rows)
            errors += problems
        if run.machines is not None:
            staging.add("machine_files", [{"run_id": run.run_id, "file": str(run.machines.resolve()),
                                           "path": str(run.machines),
                                           "targets": dict(zip(run.targets, targets))}])
        staging.add("runs", [run_row(run, targets)])
        kept.append(run)
        if progress:
            progress.advance(run.run_id)
    return kept, errors


def run_row(run: Run, targets: list[str]) -> dict:
    record = run.record
    profile = record.get("profile")
    if isinstance(profile, dict):
        profile = {target_identity(target): readings for target, readings in profile.items()}
    demanded = record.get("demanded_profile")
    return {"run_id": run.run_id, "results_dir": str(run.directory), "suite_version": record["suite_version"],
            "started": record["started"], "finished": record.get("finished"),
            "exit_status": record.get("exit_status"), "targets": targets,
            "spec_revisions": {str(k): str(v) for k, v in (record.get("spec_revisions") or {}).items()},
            "waived_clauses": {str(k): str(v) for k, v in (record.get("waived_clauses") or {}).items()},
            "skipped_levels": [str(level) for level in record.get("skipped_levels") or []],
            "profile_json": json.dumps(profile) if profile is not None else None,
            "demanded_profile_json": json.dumps(demanded) if demanded is not None else None,
            "selection": [str(part) for part in record.get("selection") or []]}


def load_staged(spark: SparkSession, staging: Staging, tables: Path) -> dict[str, str]:
    """Every staged table, read with its schema and written as Parquet; {table: path}."""
    names = [name for name in schemas.STAGED if name != "machine_files"]

    def load(name: str) -> str:
        return write(spark.read.schema(schemas.STAGED[name]).json(staging.path(name)), tables / name)

    with ThreadPoolExecutor(WORKERS, thread_name_prefix="ingest") as pool:   # independent tables, side by side
        return dict(zip(names, pool.map(load, names)))


def load_machines(spark: SparkSession, staging: Staging, tables: Path) -> tuple[str, list[InputError]]:
    """machines.ndjson of every run -> the machine_steps table; corrupt lines named and left out."""
    files = spark.read.schema(schemas.MACHINE_FILES).json(staging.path("machine_files"))
    listed = [(row.file, row.path) for row in files.select("file", "path").collect()]  # one per run
    if not listed:
        return write(spark.createDataFrame([], schemas.MACHINE_STEPS), tables / "machine_steps"), []
    lines = (spark.read.schema(schemas.MACHINE_LINES).option("mode", "PERMISSIVE")
             .option("columnNameOfCorruptRecord", "_corrupt_record").json([path for _, path in listed])
             .withColumn("file", F.url_decode(F.parse_url(F.col("_metadata.file_path"), F.lit("PATH"))))
             .cache())
    errors = []
    bad = (lines.where(F.col("_corrupt_record").isNotNull()).groupBy("file")
           .agg(F.count(F.lit(1)).alias("lines"), F.min("_corrupt_record").alias("first")).collect())
    names = dict(listed)
    for row in bad:
        shown = row.first.strip()[:40]
        errors.append(InputError(names.get(row.file, row.file),
                                 f"{row.lines} line(s) cut short or not JSON (first: {shown!r}); those lines "
                                 "left out"))
    steps = machine_steps(lines.where(F.col("_corrupt_record").isNull()), files)
    path = write(steps, tables / "machine_steps")
    lines.unpersist()
    return path, errors


def machine_steps(lines: DataFrame, files: DataFrame) -> DataFrame:
    """Raw machine lines (with the file they came from) -> one row per machine step, tagged with the run."""
    # the target as the run record names it, without secrets; a URL the record does not know loses its options
    target = F.coalesce(F.element_at("targets", F.col("target")), F.regexp_replace("target", r"\?.*$", ""))
    return (lines.join(F.broadcast(files.select("run_id", "file", "targets")), "file")
            .select("run_id", target.alias("target"), F.col("run").alias("example"), "machine", "step", "action",
                    "arguments", F.col("result.hresult").alias("hresult"), F.col("result.label").alias("label"),
                    F.col("result.expected.hresult").alias("expected_hresult"),
                    F.col("result.expected.label").alias("expected_label"), "state"))


def write(frame: DataFrame, path: Path) -> str:
    frame.write.mode("overwrite").parquet(str(path))
    return str(path)
