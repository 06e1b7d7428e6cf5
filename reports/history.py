"""History: what changed against a baseline, what flips between runs, verdicts per run.

`changes` joins a baseline's clause verdicts with the current ones on (target,
clause_id): passed -> failed is a regression, failed -> passed a fix.  Both sides
are plain (target, clause_id, verdict, reason, run_id) frames, so the baseline may
be an earlier run of the same report or a certification record read from a file
(the gate).

`flaky` finds clauses whose executed verdicts (passed, failed) differ between
runs of the same target and suite version: the suite and the target did not
change, yet the answer did.  `verdict_history` counts each verdict per run and
target, for the chart of verdicts across runs.
"""

from __future__ import annotations

from pyspark.sql import DataFrame, functions as F

from .verdicts import VERDICTS

SIDE = ("target", "clause_id", "verdict", "reason", "run_id")


def changes(baseline: DataFrame, current: DataFrame) -> DataFrame:
    """target, clause_id, change (regression | fix), both runs and verdicts, the current reason."""
    base = baseline.select(*[F.col(c).alias(f"baseline_{c}") if c not in ("target", "clause_id") else c
                             for c in SIDE])
    now = current.select(*SIDE)
    change = (F.when((F.col("baseline_verdict") == "passed") & (F.col("verdict") == "failed"), "regression")
              .when((F.col("baseline_verdict") == "failed") & (F.col("verdict") == "passed"), "fix"))
    return (now.join(base, ["target", "clause_id"], "inner")
            .select("target", "clause_id", change.alias("change"), F.col("baseline_run_id").alias("baseline_run"),
                    F.col("run_id").alias("current_run"), "baseline_verdict", F.col("verdict").alias("current_verdict"),
                    "reason")
            .where(F.col("change").isNotNull()))


def flaky(verdicts: DataFrame) -> DataFrame:
    """target, suite_version, clause_id with both passed and failed runs: counts and the last failing run."""
    executed = verdicts.where(F.col("verdict").isin("passed", "failed"))
    return (executed.groupBy("target", "suite_version", "clause_id")
            .agg(F.count(F.lit(1)).cast("int").alias("runs"),
                 F.sum((F.col("verdict") == "passed").cast("int")).cast("int").alias("passed"),
                 F.sum((F.col("verdict") == "failed").cast("int")).cast("int").alias("failed"),
                 F.max(F.when(F.col("verdict") == "failed", F.struct("started", "run_id")))["run_id"]
                 .alias("last_failed_run"))
            .where((F.col("passed") > 0) & (F.col("failed") > 0)))


def verdict_history(verdicts: DataFrame) -> DataFrame:
    """run_id, target, started, suite_version and one count column per verdict."""
    return (verdicts.groupBy("run_id", "target", "started", "suite_version")
            .pivot("verdict", list(VERDICTS)).count().na.fill(0)
            .withColumnRenamed("not run", "not_run"))
