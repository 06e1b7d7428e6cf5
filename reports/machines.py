"""The stateful machines: which rules and which (state, rule) pairs the runs exercised.

Each machine step is one line of machines.ndjson: the example it belongs to, the
step number, the rule (`action`) and its outcome (`hresult`).  The rule set the
machines exercised is read off those lines.  A line may carry the machine's
abstract `state`; where it does not, the state a rule was tried in is what the
trace shows of it: the rule just before and its outcome ("receive_front ->
MQ_ERROR_IO_TIMEOUT"), or "start" for an example's first step.
"""

from __future__ import annotations

from pyspark.sql import DataFrame, Window, functions as F


def machine_rules(steps: DataFrame) -> DataFrame:
    """target, machine, action: steps, runs and examples that exercised it, and mismatches with the model."""
    mismatch = F.col("expected_hresult").isNotNull() & (
        (F.col("hresult") != F.col("expected_hresult"))
        | ~F.col("label").eqNullSafe(F.col("expected_label")))
    return (steps.groupBy("target", "machine", "action")
            .agg(F.count(F.lit(1)).cast("long").alias("steps"),
                 F.countDistinct("run_id").cast("int").alias("runs"),
                 F.countDistinct("run_id", "example").cast("long").alias("examples"),
                 F.sum(mismatch.cast("int")).cast("long").alias("mismatches")))


def with_states(steps: DataFrame) -> DataFrame:
    """Each step with the state it was tried in (its own `state`, or the previous rule and its outcome)."""
    order = Window.partitionBy("run_id", "target", "machine", "example").orderBy("step")
    before = F.concat_ws(" -> ", F.lag("action").over(order), F.lag("hresult").over(order))
    derived = F.when(F.lag("action").over(order).isNull(), F.lit("start")).otherwise(before)
    return steps.withColumn("state", F.coalesce(F.col("state"), derived))


def machine_pairs(steps: DataFrame) -> DataFrame:
    """target, machine, state, action: how often the rule was tried in that state."""
    return (with_states(steps).groupBy("target", "machine", "state", "action")
            .agg(F.count(F.lit(1)).cast("long").alias("steps")))
