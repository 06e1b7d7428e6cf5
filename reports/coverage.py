"""Coverage: how much of each document, section and level a target's verdicts reach.

`coverage` counts, per target and per document, section or level (column
`grouping`), the clauses, the testable ones, those with a scenario in the suite,
those exercised (passed or failed), and each verdict.  It is given the verdicts
of the runs to describe (normally each target's latest run).

`never_exercised` lists the testable MUST and MUST NOT clauses that no run and
no target ever exercised, with the verdicts they had instead; `waived_only` marks
those the user waived every time (a recorded decision, not a gap).
"""

from __future__ import annotations

from pyspark.sql import DataFrame, functions as F

MUST_LEVELS = ("MUST", "MUST NOT")
COLUMNS = ("target", "run_id", "grouping", "document", "key", "title", "clauses", "testable", "with_scenario",
           "exercised", "passed", "failed", "not_run", "waived", "untestable")


def _counts():
    def verdicts(name):
        return F.sum(F.when(F.col("verdict") == name, 1).otherwise(0)).cast("int")
    exercised = F.col("verdict").isin("passed", "failed")
    return [F.count(F.lit(1)).cast("int").alias("clauses"),
            F.sum(F.col("testable").cast("int")).cast("int").alias("testable"),
            F.sum(F.col("has_scenario").cast("int")).cast("int").alias("with_scenario"),
            F.sum(exercised.cast("int")).cast("int").alias("exercised"),
            verdicts("passed").alias("passed"), verdicts("failed").alias("failed"),
            verdicts("not run").alias("not_run"), verdicts("waived").alias("waived"),
            verdicts("untestable").alias("untestable")]


def coverage(verdicts: DataFrame) -> DataFrame:
    """target, run_id, grouping, document, key, title and the counts: per document, per section, per level."""
    by_document = (verdicts.groupBy("target", "run_id", "document").agg(*_counts())
                   .withColumn("key", F.col("document")).withColumn("title", F.col("document"))
                   .withColumn("grouping", F.lit("document")))
    by_section = (verdicts.groupBy("target", "run_id", "document", "section", "section_title").agg(*_counts())
                  .withColumnRenamed("section", "key").withColumnRenamed("section_title", "title")
                  .withColumn("grouping", F.lit("section")))
    by_level = (verdicts.groupBy("target", "run_id", "level").agg(*_counts())  # a level spans the documents
                .withColumnRenamed("level", "key").withColumn("title", F.col("key"))
                .withColumn("document", F.lit("")).withColumn("grouping", F.lit("level")))
    return (by_document.select(*COLUMNS).unionByName(by_section.select(*COLUMNS))
            .unionByName(by_level.select(*COLUMNS)))


def never_exercised(verdicts: DataFrame) -> DataFrame:
    """Testable MUST / MUST NOT clauses that no verdict row shows passed or failed."""
    must = verdicts.where(F.col("testable") & F.col("level").isin(*MUST_LEVELS))
    return (must.groupBy("clause_id", "document", "section", "section_title", "level")
            .agg(F.max(F.col("verdict").isin("passed", "failed").cast("int")).alias("exercised"),
                 F.min((F.col("verdict") == "waived").cast("int")).alias("waived_only"),
                 F.array_sort(F.collect_set("verdict")).alias("verdicts"),
                 F.array_sort(F.collect_set(F.when(F.col("reason") != "", F.col("reason")))).alias("reasons"),
                 F.array_sort(F.collect_set("target")).alias("targets"))
            .where(F.col("exercised") == 0)
            .select("clause_id", "document", "section", "section_title", "level",
                    (F.col("waived_only") == 1).alias("waived_only"), "verdicts",
                    F.slice("reasons", 1, 3).alias("reasons"), "targets"))
