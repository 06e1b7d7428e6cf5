"""The report pipeline at 1,000,000 and 10,000,000 result rows on local[2]: time, rows/s, peak memory.

A generator writes a synthetic history (runs x scenarios x targets) as the Parquet
tables the ingest stage writes: runs, results, properties, scenario runs and their
steps, machine steps, and the live clause catalogue with a suite of synthetic
scenarios over its testable clauses.  Verdicts are drawn per (run, target,
scenario) from a hash, so some clauses fail now and then (regressions, fixes,
flaky clauses), some are not run (a capability missing) and some are waived.

The pipeline after ingest (reports.pipeline.compute: every stage, Parquet between
them), the report model and its renderings (HTML, JSON, Markdown, JUnit, records) are timed on each history,
in one SparkSession started as `mqspec report` starts it (local[2], 512m driver),
after a warm-up run of 100,000 rows.  Figures printed per size: seconds, result
rows per second, peak memory (resident set of this process and the JVM, sampled
every 0.2 s), CPU seconds (this process and the JVM: on a shared machine the wall
time grows with the others' load, the CPU time much less), and as ratios: 10M over 1M (linear is 10x; the target is under 12x
and under 3 minutes), and the pipeline's rows/s over a baseline job measured on the
same table in the same run (read the results, count them per run, target and
outcome, write Parquet).  Ingest from files is measured apart, on a smaller
history written as junit.xml / cucumber.json / run.json / machines.ndjson.

Run: python benchmarks/bench_reports.py [--quick]   (--quick: 100,000 and 1,000,000 rows)
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqspec.catalogue import load_catalogue  # noqa: E402
from mqspec.reports import ingest, schemas, suite  # noqa: E402
from mqspec.reports.pipeline import compute, make_report, shuffle_partitions_for  # noqa: E402
from mqspec.reports.session import start_session  # noqa: E402

TARGETS = ("reference", "mqrr://127.0.0.1:2103", "reference?store=/tmp/qm.db", "mqrr://10.0.0.7:2103")
SCENARIOS = 1_000          # per run and target
STEPS = 3                  # per scenario
MACHINE_EXAMPLES = 10      # per run and target
MACHINE_STEPS = 30         # per example
RPC_EVERY = 25             # one scenario in 25 needs rpc, which the in-process targets lack


class PeakMemory:
    """The largest resident set of this process and its descendants (the JVM) seen since `reset`."""

    def __init__(self, every: float = 0.2):
        self.every = every
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def reset(self) -> None:
        self.peak = self.now()

    def now(self) -> int:
        return sum(_rss(pid) for pid in _family(os.getpid()))

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.peak = max(self.peak, self.now())

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _family(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def cpu_seconds() -> float:
    """User and system CPU time of this process and its descendants (the JVM) so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in _family(os.getpid()):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def _rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _div(column, by: int):
    from pyspark.sql import functions as F
    return F.floor(column / by).cast("long")


def generate(spark, rows: int, directory: Path) -> dict[str, str]:
    """A synthetic history of about `rows` result rows, as Parquet tables; {table: path}."""
    from pyspark.sql import functions as F
    runs = max(rows // (SCENARIOS * len(TARGETS)), 1)
    catalogue = load_catalogue()
    testable = sorted(c.id for c in catalogue.testable())
    if directory.exists():
        shutil.rmtree(directory)
    paths: dict[str, str] = {}

    def save(name, frame):
        paths[name] = ingest.write(frame, directory / name)

    save("clauses", spark.createDataFrame(suite.clause_rows(catalogue), schemas.CLAUSES))
    save("decisions", spark.createDataFrame(suite.decision_rows(catalogue), schemas.DECISIONS))
    clause_of = F.array(*[F.lit(c) for c in testable])
    n = len(testable)

    def clauses(s):   # every scenario checks one clause; one in three checks a second one too
        first = F.element_at(clause_of, (s % n + 1).cast("int"))
        second = F.element_at(clause_of, ((s * 7 + 1) % n + 1).cast("int"))
        return F.when(s % 3 == 0, F.array(first, second)).otherwise(F.array(first))

    s = F.col("id")
    save("suite_scenarios", spark.range(SCENARIOS).select(
        F.lit("ms-mqrr/synthetic.feature").alias("feature_uri"), F.lit("Synthetic").alias("feature_name"),
        F.concat(F.lit("scenario "), s).alias("scenario_name"), (s + 3).cast("int").alias("line"),
        clauses(s).alias("clauses"), F.array().cast("array<string>").alias("decisions"),
        F.array(F.lit("a queue"), F.lit("a receive"), F.lit("MQ_OK")).alias("steps")))
    run_id = F.format_string("2026%04dT000000Z-%06d", F.col("run"), F.col("run"))
    started = F.date_format(F.timestamp_seconds(F.lit(1_767_225_600) + F.col("run") * 3600),
                            "yyyy-MM-dd'T'HH:mm:ss+00:00")
    targets = F.array(*[F.lit(t) for t in TARGETS])
    save("runs", spark.range(runs).withColumnRenamed("id", "run").select(
        run_id.alias("run_id"), F.lit("/synthetic").alias("results_dir"),
        F.when(F.col("run") < runs // 2, "suite-a").otherwise("suite-b").alias("suite_version"),
        started.alias("started"), started.alias("finished"), F.lit(1).alias("exit_status"), targets.alias("targets"),
        F.create_map(F.lit("MS-MQRR"), F.lit("29.0")).alias("spec_revisions"),
        F.create_map(F.lit(testable[-1]), F.lit("on purpose")).alias("waived_clauses"),
        F.array().cast("array<string>").alias("skipped_levels"), F.lit(None).cast("string").alias("profile_json"),
        F.lit(None).cast("string").alias("demanded_profile_json")))

    grid = (spark.range(runs * len(TARGETS) * SCENARIOS, numPartitions=max(2, rows // 500_000))
            .select(_div(F.col("id"), SCENARIOS * len(TARGETS)).alias("run"),
                    (_div(F.col("id"), SCENARIOS) % len(TARGETS)).cast("int").alias("t"),
                    (F.col("id") % SCENARIOS).alias("s")))
    target = F.element_at(targets, F.col("t") + 1)
    name = F.concat(F.lit("test_scenario_"), F.col("s"), F.lit("["), target, F.lit("]"))
    draw = F.abs(F.xxhash64("run", "t", "s")) % 1000
    rpc = (F.col("s") % RPC_EVERY == 0) & (F.col("t") % 2 == 0)
    outcome = (F.when(rpc, "skipped").when(F.col("s") % 211 == 5, "skipped")
               .when(draw < 15, "failed").when(draw < 17, "error").otherwise("passed"))
    message = (F.when(rpc, "not run: needs rpc (calls travel over DCE/RPC); the target does not offer it")
               .when(F.col("s") % 211 == 5, F.concat(F.lit("waived: "), F.element_at(clauses(F.col("s")), 1),
                                                    F.lit(": on purpose")))
               .when(draw < 17, F.concat(F.lit("AssertionError: expected MQ_OK, got 0xC00E001B in run "),
                                         F.col("run")))
               .otherwise(""))
    results = grid.select(run_id.alias("run_id"), target.alias("target"), name.alias("name"),
                          F.lit("features.test_conformance").alias("classname"), (draw / 1e4).alias("duration"),
                          outcome.alias("outcome"), message.alias("message"),
                          F.when(draw < 17, F.concat(F.lit("Traceback (most recent call last):\n  ...\n"),
                                                     message)).otherwise("").alias("detail"),
                          clauses(F.col("s")).alias("clauses"), F.array().cast("array<string>").alias("decisions"),
                          F.array().cast("array<string>").alias("readings"))
    save("results", results)
    pairs = F.concat(F.transform("clauses", lambda c: F.struct(F.lit("clause").alias("property"), c.alias("value"))),
                     F.array(F.struct(F.lit("target").alias("property"), F.col("target").alias("value"))))
    save("properties", results.select("run_id", "target", "name", F.explode(pairs).alias("pair"))
         .select("run_id", "target", "name", "pair.property", "pair.value"))
    save("scenario_runs", grid.select(run_id.alias("run_id"), name.alias("name"),
                                      F.lit("ms-mqrr/synthetic.feature").alias("feature_uri"),
                                      F.lit("Synthetic").alias("feature_name"),
                                      F.concat(F.lit("scenario "), F.col("s")).alias("scenario_name"),
                                      (F.col("s") + 3).cast("int").alias("scenario_line"),
                                      F.transform(clauses(F.col("s")), lambda c: F.concat(F.lit("clause:"), c))
                                      .alias("tags")))
    step_status = F.when(outcome.isin("failed", "error") & (F.col("i") == STEPS - 1), "failed") \
        .when(outcome == "skipped", "skipped").otherwise("passed")
    save("steps", grid.select("*", F.explode(F.sequence(F.lit(0), F.lit(STEPS - 1))).alias("i")).select(
        run_id.alias("run_id"), name.alias("name"), F.col("i").cast("int").alias("step_index"),
        F.element_at(F.array(F.lit("Given"), F.lit("When"), F.lit("Then")), F.col("i") + 1).alias("keyword"),
        F.concat(F.lit("step "), F.col("i")).alias("text"), (F.col("s") + 4 + F.col("i")).cast("int").alias("line"),
        step_status.alias("status"), (draw * 1000).alias("duration_ns"),
        F.when(step_status == "failed", message).otherwise("").alias("error_message")))
    actions = F.array(*[F.lit(a) for a in ("create_cursor", "peek_next", "receive_current", "close_cursor",
                                           "send", "receive_front")])
    hresults = F.array(F.lit("MQ_OK"), F.lit("MQ_OK"), F.lit("MQ_ERROR_IO_TIMEOUT"))
    machine = (spark.range(runs * len(TARGETS) * MACHINE_EXAMPLES * MACHINE_STEPS)
               .select(_div(F.col("id"), len(TARGETS) * MACHINE_EXAMPLES * MACHINE_STEPS).alias("run"),
                       (_div(F.col("id"), MACHINE_EXAMPLES * MACHINE_STEPS) % len(TARGETS)).cast("int").alias("t"),
                       (_div(F.col("id"), MACHINE_STEPS) % MACHINE_EXAMPLES).alias("e"),
                       (F.col("id") % MACHINE_STEPS + 1).alias("step")))
    mdraw = F.abs(F.xxhash64("run", "t", "e", "step"))
    hresult = F.element_at(hresults, (mdraw % 3 + 1).cast("int"))
    save("machine_steps", machine.select(
        run_id.alias("run_id"), target.alias("target"), F.concat(F.lit("x"), F.col("run"), F.lit("-"), F.col("e"))
        .alias("example"), F.lit("cursors").alias("machine"), F.col("step"),
        F.element_at(actions, (mdraw % 6 + 1).cast("int")).alias("action"), F.lit("{}").alias("arguments"),
        hresult.alias("hresult"), F.lit(None).cast("string").alias("label"), hresult.alias("expected_hresult"),
        F.lit(None).cast("string").alias("expected_label"), F.lit(None).cast("string").alias("state")))
    return paths


def timed(memory: PeakMemory, work) -> tuple[float, int, object, float]:
    """(wall seconds, peak memory, value, CPU seconds) of work()."""
    memory.reset()
    cpu = cpu_seconds()
    begin = time.perf_counter()
    value = work()
    return time.perf_counter() - begin, memory.peak, value, cpu_seconds() - cpu


def measure(spark, memory, rows: int, scratch: Path) -> dict:
    from pyspark.sql import functions as F

    from mqspec.reports.model import build_model
    from mqspec.reports.render import render_all
    begin = time.perf_counter()
    tables = generate(spark, rows, scratch / f"input-{rows}")
    generated = time.perf_counter() - begin
    actual = spark.read.parquet(tables["results"]).count()
    spark.conf.set("spark.sql.shuffle.partitions", str(shuffle_partitions_for(actual)))

    def baseline():
        path = scratch / f"baseline-{rows}"
        (spark.read.parquet(tables["results"]).groupBy("run_id", "target", "outcome").count()
         .write.mode("overwrite").parquet(str(path)))
        return spark.read.parquet(str(path)).agg(F.sum("count")).first()[0]

    base_seconds, _, counted, _ = timed(memory, baseline)
    assert counted == actual

    def pipeline():
        paths = compute(spark, tables, scratch / f"stages-{rows}")
        model = build_model(spark, paths, [], master="local[2]", suite_version=None)
        (scratch / f"report-{rows}").mkdir(exist_ok=True)
        render_all(model, scratch / f"report-{rows}")
        return model

    seconds, peak, model, cpu = timed(memory, pipeline)
    assert len(model["targets"]) == len(TARGETS) and model["flaky"] and model["changes"]
    return {"rows": actual, "generated": generated, "seconds": seconds, "peak": peak, "baseline": base_seconds,
            "cpu": cpu,
            "failed": sum(counts["failed"] for counts in model["counts"].values())}


def measure_ingest(spark, memory, scratch: Path, runs: int, scenarios: int) -> dict:
    """make_report over results directories written as a certify run writes them (parsers, staging, Spark)."""
    from tests.test_reports_fixtures import Case, clause_ids, machine_lines, write_run
    ids = clause_ids()["must"]
    root = scratch / "files"
    for run in range(runs):
        run_id = f"2026{run:04d}T000000Z-{run:06d}"
        cases = [Case(f"test_s{s}[reference]", [ids[s % len(ids)]],
                      "failed" if (run * 31 + s) % 97 == 0 else "passed", "AssertionError: x")
                 for s in range(scenarios)]
        write_run(root / run_id, run_id, f"2026-01-01T{run // 60:02d}:{run % 60:02d}:00+00:00", cases,
                  machines=machine_lines(run_id, "reference", 1, [("send", "MQ_OK", "MQ_OK")] * 200))
    size = sum(path.stat().st_size for path in root.rglob("*") if path.is_file())
    seconds, peak, report, _ = timed(memory, lambda: make_report([root], scratch / "files-report", spark=spark,
                                                              suite_version="v-test-suite", quiet=True))
    assert not report.errors and len(report.model["runs"]) == runs
    return {"rows": runs * scenarios, "seconds": seconds, "peak": peak, "bytes": size, "timings": report.timings}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100,000 and 1,000,000 rows instead of 1M and 10M")
    parser.add_argument("--keep", metavar="DIR", help="write the synthetic tables here and keep them")
    args = parser.parse_args()
    small, large = (100_000, 1_000_000) if args.quick else (1_000_000, 10_000_000)
    scratch = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="mqspec-bench-reports-"))
    scratch.mkdir(parents=True, exist_ok=True)
    memory = PeakMemory()
    print(f"starting Spark local[2] (512m driver); scratch {scratch}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    spark, startup = start_session("local[2]", scratch / "spark.log", app="mqspec-bench-reports",
                                   shuffle_partitions=2, quick_jvm=False)
    print(f"  started in {startup:.1f}s; idle memory {memory.now() / 2**20:.0f} MiB", flush=True)
    try:
        warm = measure(spark, memory, 100_000, scratch)
        print(f"warm-up    {warm['rows']:>11,} rows {warm['seconds']:7.1f}s", flush=True)
        figures = {}
        for rows in (small, large):
            figures[rows] = result = measure(spark, memory, rows, scratch)
            print(f"pipeline   {result['rows']:>11,} rows {result['seconds']:7.1f}s "
                  f"{result['rows'] / result['seconds']:>10,.0f} rows/s  peak {result['peak'] / 2**20:6.0f} MiB  "
                  f"CPU {result['cpu']:6.1f}s  "
                  f"(generated in {result['generated']:.1f}s; baseline job {result['baseline']:.1f}s, "
                  f"{result['rows'] / result['baseline']:,.0f} rows/s)", flush=True)
        a, b = figures[small], figures[large]
        ratio = b["seconds"] / a["seconds"]
        print(f"\n{large:,} over {small:,} rows: time x{ratio:.2f} (CPU x{b['cpu'] / a['cpu']:.2f}) for "
              f"x{b['rows'] / a['rows']:.1f} the rows "
              f"(target: under 12x{'' if args.quick else ' and under 180 s'}): "
              f"{'met' if ratio < 12 and (args.quick or b['seconds'] < 180) else 'NOT met'}")
        for rows in (small, large):
            f = figures[rows]
            print(f"pipeline rows/s over the baseline job's, {rows:,} rows: {f['baseline'] / f['seconds']:.3f}")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (other work on the machine slows "
              "every figure; the ratios are what compare)")
        ingest_figures = measure_ingest(spark, memory, scratch, runs=20, scenarios=2_500)
        t = ingest_figures["timings"]
        print(f"\nfrom files (junit.xml, cucumber.json, run.json, machines.ndjson; "
              f"{ingest_figures['bytes'] / 2**20:.0f} MiB): {ingest_figures['rows']:,} rows in "
              f"{ingest_figures['seconds']:.1f}s ({ingest_figures['rows'] / ingest_figures['seconds']:,.0f} rows/s; "
              f"ingest {t['ingest']:.1f}s, stages {t['stages']:.1f}s, model and render {t['model_and_render']:.1f}s), "
              f"peak {ingest_figures['peak'] / 2**20:.0f} MiB")
    finally:
        spark.stop()
        memory.stop()
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
