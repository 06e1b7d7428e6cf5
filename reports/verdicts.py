"""Verdicts: junit results -> one verdict per scenario -> one verdict per clause x target x run.

Theory of operation
-------------------
A scenario's verdict comes from what pytest saw and the reason the suite gave:

    passed                              -> passed
    failed, error                       -> failed    (reason: the failure's first line)
    xfailed (a known defect)            -> failed    (reason: "known defect: ...")
    skipped "waived: <clause>: why"     -> waived    (for that clause; "not run" for the others it checks)
    skipped "waived: level ... skipped" -> waived    (for every clause it checks)
    skipped "not run: ..."  or other    -> not run   (reason: what it needs, or what ruled it out)

A clause's verdict for one target in one run combines its scenarios, the first of
these that applies winning: failed, passed, not run, waived.  A clause no scenario
reached in that run is untestable (the catalogue says why), waived (the run
record waived it or its level), "not run: not selected in this run" (a scenario
exists) or "not run: no scenario checks it".  A target is judged only by the
clauses of the side of MS-MQRR it plays (a clause's `side`; a target named
"client ..." is a client, any other a server): every such clause gets a verdict
for every (run, target), so each target's column has no holes, and the other
side's clauses are simply not its business.

A failing result that names its cause (the clause whose rule broke) fails that clause as at fault; its
other clauses fail as collateral, or, for a stateful machine that stopped there, are "not judged"
(reports/faults.py says the rule; the terminal, the gate and the report lead with the clauses at fault).

Ties are broken by the scenario's name, so the same input gives the same reason
whatever the partitioning (local[*] or a cluster).
"""

from __future__ import annotations

from pyspark.sql import DataFrame, Window, functions as F

from mqspec.identity import CLIENT

VERDICTS = ("passed", "failed", "not run", "waived", "untestable")
WAIVED_CLAUSE = r"^waived: ([A-Za-z-]+:[0-9A-Za-z.]+:[0-9]{2}): "


def _first_line(column):
    return F.trim(F.regexp_extract(F.coalesce(column, F.lit("")), r"^\s*([^\n]*)", 1))


def scenario_verdicts(results: DataFrame) -> DataFrame:
    """(run_id, target, name) -> verdict, reason, waived_clause, clauses, decisions, readings, message, detail.

    A row-by-row projection of the results (no shuffle): each result carries its own clauses, decisions and
    readings (junit.py)."""
    outcome, message = F.col("outcome"), F.coalesce(F.col("message"), F.lit(""))
    verdict = (F.when(outcome == "passed", "passed")
               .when(outcome.isin("failed", "error", "xfailed"), "failed")
               .when(message.startswith("waived:"), "waived")
               .otherwise("not run"))
    reason = (F.when(outcome == "passed", F.lit(""))
              .when(outcome == "xfailed", F.concat(F.lit("known defect: "), _first_line(message)))
              .when(outcome.isin("failed", "error"),
                    F.when(_first_line(message) != "", _first_line(message)).otherwise(_first_line(F.col("detail"))))
              .when(message.startswith("waived:"), F.trim(F.substring(message, 8, 1 << 20)))
              .when(message.startswith("not run:"), F.trim(F.substring(message, 9, 1 << 20)))
              .otherwise(message))
    return (results
            .select("run_id", "target", "name", "duration", "outcome", verdict.alias("verdict"),
                    reason.alias("reason"),
                    F.regexp_extract(message, WAIVED_CLAUSE, 1).alias("waived_clause"),
                    F.coalesce("clauses", F.array().cast("array<string>")).alias("clauses"),
                    F.coalesce("decisions", F.array().cast("array<string>")).alias("decisions"),
                    F.coalesce("readings", F.array().cast("array<string>")).alias("readings"),
                    F.coalesce("cause", F.lit("")).alias("cause"), F.coalesce("stopped", F.lit("")).alias("stopped"),
                    "message", "detail"))


def clause_results(scenarios: DataFrame) -> DataFrame:
    """One row per (run_id, target, clause_id, scenario): the scenario's verdict as it bears on that clause, and
    the clause it failed because of (collateral_of; faults.bearing says the rule)."""
    exploded = scenarios.select("run_id", "target", "name", "verdict", "reason", "waived_clause", "cause",
                                "stopped", F.explode("clauses").alias("clause_id"))
    other = (F.col("verdict") == "waived") & (F.col("waived_clause") != "") & (
        F.col("waived_clause") != F.col("clause_id"))
    elsewhere = (F.col("verdict") == "failed") & (F.col("cause") != "") & (F.col("cause") != F.col("clause_id"))
    not_judged = elsewhere & (F.col("stopped") != "")
    return exploded.select(
        "run_id", "target", "clause_id", "name",
        F.when(other | not_judged, "not run").otherwise(F.col("verdict")).alias("verdict"),
        F.when(other, F.concat(F.lit("waived with "), F.col("waived_clause")))
        .when(not_judged, F.concat(F.lit("not judged (the machine stopped at "), F.col("stopped"), F.lit(", on "),
                                   F.col("cause"), F.lit(")")))
        .otherwise(F.col("reason")).alias("reason"),
        F.when(elsewhere & ~not_judged, F.col("cause")).otherwise(F.lit("")).alias("collateral_of"))


def run_targets(runs: DataFrame) -> DataFrame:
    """One row per (run_id, target) with what the run record says of it, and the side of MS-MQRR it plays."""
    targets = runs.select("run_id", F.explode("targets").alias("target"), "suite_version", "started",
                          "waived_clauses", "skipped_levels", "exit_status", "selection")
    # the one rule of mqspec.identity.target_side, as a column
    return targets.withColumn("side", F.when(F.col("target").startswith(CLIENT), "client").otherwise("server"))


def clause_verdicts(results: DataFrame, clauses: DataFrame, runs: DataFrame, suite_scenarios: DataFrame) -> DataFrame:
    """Every clause x (run, target): verdict, reason, scenario counts, and the clause's own columns."""
    def count(verdict):
        return F.sum(F.when(F.col("verdict") == verdict, 1).otherwise(0)).cast("int")

    def first_reason(verdict):   # the reason of the scenario first by name among those with this verdict
        return F.min(F.when(F.col("verdict") == verdict, F.struct("name", "reason")))["reason"]

    keys = ["run_id", "target", "clause_id"]
    combined = results.groupBy(*keys).agg(
        F.count(F.lit(1)).cast("int").alias("scenarios"), count("passed").alias("passed"),
        count("failed").alias("failed"), count("not run").alias("not_run"), count("waived").alias("waived"),
        first_reason("failed").alias("failed_reason"), first_reason("not run").alias("not_run_reason"),
        first_reason("waived").alias("waived_reason"),
        F.sum(F.when((F.col("verdict") == "failed") & (F.col("collateral_of") == ""), 1).otherwise(0)).cast("int")
        .alias("at_fault"),
        # the cause the first failing result by name gives (faults.py: collateral of it)
        F.min(F.when(F.col("verdict") == "failed", F.struct("name", "collateral_of")))["collateral_of"]
        .alias("first_cause"))
    covered = (suite_scenarios.select(F.explode("clauses").alias("clause_id")).distinct()
               .withColumn("has_scenario", F.lit(True)))
    # only the keys of the grid travel through the join's shuffle; the clause's and the run's own columns
    # (long texts, maps) join after it, from broadcast copies (a row per clause, a row per run and target)
    runs_targets = run_targets(runs)
    # a target is judged by the clauses of its own side: a server by the server's, a client by the client's
    grid = (F.broadcast(runs_targets.select("run_id", "target", "side")).join(clauses.select("clause_id", "side"),
                                                                             "side")
            .drop("side").join(combined, keys, "left")
            .join(F.broadcast(clauses.join(F.broadcast(covered), "clause_id", "left")), "clause_id")
            .join(F.broadcast(runs_targets), ["run_id", "target"]))
    record_waiver = F.try_element_at("waived_clauses", F.col("clause_id"))
    level_waived = F.array_contains("skipped_levels", F.col("level"))
    verdict = (F.when(F.col("failed") > 0, "failed").when(F.col("passed") > 0, "passed")
               .when(F.col("not_run") > 0, "not run").when(F.col("waived") > 0, "waived")
               .when(~F.col("testable"), "untestable")
               .when(record_waiver.isNotNull() | level_waived, "waived")
               .otherwise("not run"))
    reason = (F.when(F.col("failed") > 0, F.col("failed_reason"))
              .when(F.col("passed") > 0, F.lit(""))
              .when(F.col("not_run") > 0, F.col("not_run_reason"))
              .when(F.col("waived") > 0, F.col("waived_reason"))
              .when(~F.col("testable"), F.col("reason"))
              .when(record_waiver.isNotNull(), record_waiver)
              .when(level_waived, F.concat(F.lit("level "), F.col("level"), F.lit(" skipped")))
              .when(F.col("has_scenario"), F.lit("not selected in this run"))
              .otherwise(F.lit("no scenario checks it")))
    zero = F.lit(0)
    return grid.select(
        "run_id", "target", "suite_version", "started", "clause_id", "document", "section", "section_title",
        "level", "testable", verdict.alias("verdict"), F.coalesce(reason, F.lit("")).alias("reason"),
        F.when(F.col("failed") > 0, F.when(F.col("at_fault") > 0, "at fault").otherwise("collateral"))
        .otherwise(F.lit("")).alias("fault"),
        F.when((F.col("failed") > 0) & (F.col("at_fault") == 0), F.col("first_cause")).otherwise(F.lit(""))
        .alias("cause"),
        *[F.coalesce(name, zero).alias(name) for name in ("scenarios", "passed", "failed", "not_run", "waived")],
        F.coalesce("has_scenario", F.lit(False)).alias("has_scenario"))


def latest_runs(runs: DataFrame, rank: int = 1) -> DataFrame:
    """(target, run_id) of each target's latest run (rank 1), or the one before it (rank 2), by start time; a
    complete run (it went to its end, every scenario selected: record.COMPLETE, no `selection` in run.json) comes
    before any that is not, so a one-clause run never stands for a target that has a full one."""
    complete = F.col("exit_status").isin(0, 1) & (F.size(F.coalesce("selection", F.array())) == 0)
    order = Window.partitionBy("target").orderBy(complete.desc(), F.col("started").desc(), F.col("run_id").desc())
    return (run_targets(runs).withColumn("rank", F.row_number().over(order))
            .where(F.col("rank") == rank).select("target", "run_id"))
