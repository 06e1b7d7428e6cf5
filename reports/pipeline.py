"""The report pipeline: inputs -> Parquet tables -> stages -> report model -> renderings.

Theory of operation
-------------------
`make_report` is the whole job.  It finds the runs among its inputs (one line per
input left out), starts Spark (or uses the session it is given), ingests the
runs and the suite's definition as Parquet tables, and runs the stages of
STAGES in order.  Each stage is a function of DataFrames (verdicts.py,
coverage.py, history.py, machines.py); its output is written as Parquet under
<output>/tables/<name> and read back by the stages after it, so nothing is
recomputed and the job is the same on one machine and on a cluster.  The
bounded outputs are then read back into the report model (model.py) and rendered.
Results of `mqspec strength` among the inputs go the same way through strength.py
(its tables and its STAGES, one wave more); they alone, without a run, make a report.

`compute` is the part after ingest: the benchmark feeds it synthetic tables.
"""

from __future__ import annotations

import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from pyspark.sql import DataFrame, SparkSession, functions as F

from mqspec.catalogue import CatalogueError, load_catalogue

from . import ingest, strength, strength_files, suite
from .coverage import coverage, never_exercised
from .errors import InputError, ReportError
from .history import changes, flaky, verdict_history
from .inputs import find_runs, find_strength
from .machines import machine_pairs, machine_rules
from .progress import Progress
from .session import start_session
from .verdicts import clause_results, clause_verdicts, latest_runs, scenario_verdicts


def _current(t):
    return t("clause_verdicts").join(F.broadcast(t("latest_runs")), ["target", "run_id"], "left_semi")


def _baseline(t, baseline_run):
    verdicts = t("clause_verdicts")
    if baseline_run:
        return verdicts.where(F.col("run_id") == baseline_run)
    return verdicts.join(F.broadcast(t("previous_runs")), ["target", "run_id"], "left_semi")


# name -> function of (table reader, options); each output is written as Parquet before a later stage reads it.
# Scenario verdicts are a row-by-row projection of the results: computed inside clause_results rather than
# written for every run (the model computes them again for the latest runs only, which it shows)
STAGES = {
    "latest_runs": lambda t, o: latest_runs(t("runs")),
    "previous_runs": lambda t, o: latest_runs(t("runs"), rank=2),
    "machine_rules": lambda t, o: machine_rules(t("machine_steps")),
    "machine_pairs": lambda t, o: machine_pairs(t("machine_steps")),
    "clause_results": lambda t, o: clause_results(scenario_verdicts(t("results"))),
    "clause_verdicts": lambda t, o: clause_verdicts(t("clause_results"), t("clauses"), t("runs"),
                                                    t("suite_scenarios")),
    "coverage": lambda t, o: coverage(_current(t)),
    "never_exercised": lambda t, o: never_exercised(t("clause_verdicts")),
    "changes": lambda t, o: changes(_baseline(t, o.get("baseline_run")), _current(t)),
    "flaky": lambda t, o: flaky(t("clause_verdicts")),
    "verdict_history": lambda t, o: verdict_history(t("clause_verdicts")),
}
# stages of a wave read only what earlier waves wrote, so a wave's stages run side by side (Spark takes jobs
# from several threads); the result is the same as one after the other
WAVES = (("clause_results", "latest_runs", "previous_runs", "machine_rules", "machine_pairs"),
         ("clause_verdicts",),
         ("coverage", "never_exercised", "changes", "flaky", "verdict_history"))
WORKERS = 3


QUICK_JVM_BYTES = 200 << 20   # inputs smaller than this run faster on a JVM that compiles less (C1 only)
ROWS_PER_PARTITION = 2_000_000
BYTES_PER_RESULT = 6_000      # result files per test case (a certify run of the reference: 8 MB, 1,332 cases)


def shuffle_partitions_for(results: int) -> int:
    """Shuffle partitions for a history of `results` rows: few for small inputs, more as they grow."""
    return max(2, -(-results // ROWS_PER_PARTITION))


class NothingToReport(ReportError):
    """No input could be used; `errors` says why for each."""

    def __init__(self, errors: list[InputError]):
        self.errors = errors
        super().__init__("nothing to report: " + (f"all {len(errors)} input(s) left out" if errors else "no input"))


@dataclass
class Report:
    output: Path
    errors: list[InputError]
    model: dict
    files: dict[str, Path] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)


def compute(spark: SparkSession, tables: dict[str, str], directory: Path, progress: Progress | None = None,
            **options) -> dict[str, str]:
    """Run every stage over the ingested tables; returns {table: Parquet path}, inputs and outputs alike."""
    paths = dict(tables)

    def table(name: str) -> DataFrame:
        return spark.read.parquet(paths[name])

    def run(name: str) -> str:
        path = ingest.write({**STAGES, **strength.STAGES}[name](table, options), directory / name)
        if progress:
            progress.advance(name)
        return path

    with ThreadPoolExecutor(WORKERS, thread_name_prefix="stage") as pool:
        # strength results, when ingested, are one wave more: its stages read only ingested tables
        for wave in WAVES + ((tuple(strength.STAGES),) if strength_files.TABLES[0] in paths else ()):
            paths.update(zip(wave, pool.map(run, wave)))
    return paths


def make_report(inputs: list, output: Path, *, master: str = "local[*]", spark: SparkSession | None = None,
                any_suite_version: bool = False, suite_version: str | None = None, baseline_run: str | None = None,
                progress_stream=None, quiet: bool = False, features: Path | None = None) -> Report:
    """The whole job; ReportError when nothing can be reported.

    Runs of another suite version than `suite_version` (default: this checkout's) are left out, unless
    `any_suite_version`.
    """
    from .model import build_model
    from .render import render_all
    timings: dict[str, float] = {}
    begin = time.monotonic()
    try:
        catalogue = load_catalogue()
    except CatalogueError as error:
        raise ReportError(f"clause catalogue: {error}") from None
    version = None if any_suite_version else (suite_version or suite.current_suite_version())
    runs, errors = find_runs(inputs, version)
    strength_inputs = find_strength(inputs)   # `mqspec strength` results: a report of them alone is a report too
    if not runs and not strength_inputs:
        raise NothingToReport(errors)
    if baseline_run and baseline_run not in {run.run_id for run in runs}:
        raise ReportError(f"--baseline {baseline_run}: no such run among the inputs")
    _prepare(output)
    own_session = spark is None
    if own_session:
        size = sum(path.stat().st_size for run in runs for path in (run.junit, run.cucumber, run.machines) if path)
        spark, timings["spark_start"] = start_session(master, output / "spark.log",
                                                      shuffle_partitions=shuffle_partitions_for(
                                                          size // BYTES_PER_RESULT),
                                                      quick_jvm=size < QUICK_JVM_BYTES)
    try:
        progress = Progress("report", len(runs) + 4 + len(STAGES)
                            + (1 + len(strength.STAGES) if strength_inputs else 0), progress_stream, quiet=quiet)
        staging = ingest.Staging(output / "staging")
        try:
            runs, problems = ingest.stage_runs(staging, runs, catalogue.clauses, progress)
            errors += problems
            scenarios, problems = suite.scenario_rows(features or suite.FEATURES)
            errors += problems
            staging.add("clauses", suite.clause_rows(catalogue))
            staging.add("decisions", suite.decision_rows(catalogue))
            staging.add("suite_scenarios", scenarios)
        finally:
            staging.close()
        strength_read, problems = strength_files.stage(staging.directory / "strength", strength_inputs)
        errors += problems
        if not runs and not strength_read:
            raise NothingToReport(errors)
        progress.advance("staged")
        tables = ingest.load_staged(spark, staging, output / "tables")
        progress.advance("tables")
        tables["machine_steps"], problems = ingest.load_machines(spark, staging, output / "tables")
        errors += problems
        progress.advance("machine steps")
        if strength_read:
            tables.update(strength_files.load(spark, staging.directory / "strength", output / "tables"))
            progress.advance("strength")
        shutil.rmtree(staging.directory)
        timings["ingest"] = time.monotonic() - begin - timings.get("spark_start", 0.0)
        mark = time.monotonic()
        paths = compute(spark, tables, output / "tables", progress, baseline_run=baseline_run)
        timings["stages"] = time.monotonic() - mark
        mark = time.monotonic()
        model = build_model(spark, paths, errors, master=master, suite_version=version)
        files = render_all(model, output)
        progress.advance("rendered")
        timings["model_and_render"] = time.monotonic() - mark
        progress.finish(f"report in {output}")
    finally:
        if own_session:
            spark.stop()
    timings["total"] = time.monotonic() - begin
    return Report(output, errors, model, files, timings)


def _prepare(output: Path) -> None:
    try:
        output.mkdir(parents=True, exist_ok=True)
        probe = output / ".writable"
        probe.touch()
        probe.unlink()
    except OSError as error:
        raise ReportError(f"--output {output}: cannot write there ({error.strerror or error})") from None
