"""Suite strength: the results of `mqspec strength` -> kill rates, the variant x clause table, survivors.

Theory of operation
-------------------
`mqspec strength` runs the suite against wrong queue managers (variants) and writes
strength.json ("mqspec-strength/1"); `mqspec strength --mutants` runs it against Cosmic
Ray's mutants of the reference's core and writes mutants/mutants.json ("mqspec-mutants/1").
inputs.py finds the directories holding either.  As for junit.xml and cucumber.json,
Python reads each file (strength_files.py: a file cut short, of another format or
lacking what every such record holds is one InputError naming it) and stages its rows
as NDJSON; Spark reads them with the fixed schemas of schemas.py into Parquet tables:

    strength_runs        one row per strength.json: when, how long, jobs, the control run
    strength_variants    one row per variant: the clause it misreads, area, one-line text, status
    strength_failures    one row per failing test that counted as a kill, with its clause tags
    strength_equivalent  the variants removed as equivalent to the reference, and why
    mutant_runs          one row per mutants.json: its counts
    mutant_results       one row per mutant tested (module, operator, outcome, killed_by when given)
    mutant_survivors     one row per surviving mutant: where, what, and the equivalence explanation

Then the stages of STAGES (pipeline.compute runs them as one wave more) look at the
latest strength.json and the latest mutants.json among the inputs (by start or finish time):

    strength_run         the latest strength run (one row)
    strength_kill_rate   killed / variants overall, by area, by document and by section of the
                         misread clause (document, section and title from the catalogue, so
                         sections read as in the matrix; the file's label if the catalogue lost it)
    strength_table       the variants, their failing scenarios and machines counted from the
                         failures, how many clauses' tests caught them and whether their own did
    strength_caught      the variant x clause table, long form: for each variant, each clause tag of
                         the tests that caught it, with the number of tests, scenarios and machines
    strength_removed     the latest run's equivalent variants with their reasons
    mutant_score         killed / (killed + survived), and without the survivors explained as equivalent
    mutant_modules       the same per module, from the per-mutant outcomes (when the file gives them)
    mutant_survivor_list the surviving mutants, explained (equivalent) or not

Every output is bounded by the number of variants, clauses and surviving mutants;
`strength_model` reads them back into the report model's "strength" entry (None when no
strength input was given, so a report of runs alone is unchanged).
"""

from __future__ import annotations

import re

from pyspark.sql import Column, DataFrame, SparkSession, functions as F

UNTAGGED = "(untagged)"      # a catching test without a clause tag, as strength/run.py names it


# -- the stages ---------------------------------------------------------------------------------------------------

def _latest(runs: DataFrame, time: str) -> DataFrame:
    """The source of the latest record (a tie goes to the greater source): one row, none for no records."""
    return (runs.agg(F.max_by("source", F.struct(time, "source")).alias("source"))
            .where(F.col("source").isNotNull()))


def _of_latest(frame: DataFrame, runs: DataFrame, time: str) -> DataFrame:
    return frame.join(F.broadcast(_latest(runs, time)), "source", "left_semi")


def latest_run(runs: DataFrame) -> DataFrame:
    return _of_latest(runs, runs, "started")


def _placed(variants: DataFrame, clauses: DataFrame) -> DataFrame:
    """Each variant with the document, section and title of the clause it misreads."""
    catalogue = F.broadcast(clauses.select(F.col("clause_id").alias("clause"), "document",
                                           F.col("section").alias("section_number"), "section_title"))
    parts = F.split("clause", ":")
    # a clause the catalogue no longer holds keeps the record's own label "<document> <section> <title>"
    return (variants.join(catalogue, "clause", "left")
            .withColumn("document", F.coalesce("document", F.element_at(parts, 1)))
            .withColumn("section_title", F.coalesce("section_title",
                                                    F.regexp_extract("section", r"^\S+ \S+ (.*)$", 1)))
            .withColumn("section", F.coalesce("section_number", F.element_at(parts, 2)))
            .drop("section_number"))


def _rates() -> list[Column]:
    def status(name: str) -> Column:
        return F.sum((F.col("status") == name).cast("int")).cast("int")
    return [F.count(F.lit(1)).cast("int").alias("variants"), status("killed").alias("killed"),
            status("survived").alias("survived"), status("error").alias("errors"),
            F.min("position").cast("int").alias("first")]


COUNTS = ("variants", "killed", "survived", "errors")
RATE_COLUMNS = ("grouping", "document", "key", "title", *COUNTS, "rate", "first")


def strength_kill_rate(variants: DataFrame, runs: DataFrame, clauses: DataFrame) -> DataFrame:
    """grouping (overall, area, document, section), document, key, title and the counts, with the kill rate."""
    placed = _placed(_of_latest(variants, runs, "started"), clauses)

    def by(grouping: str, columns: list[str], document, key, title) -> DataFrame:
        grouped = placed.groupBy(*columns).agg(*_rates()) if columns else placed.agg(*_rates())
        return grouped.select(F.lit(grouping).alias("grouping"), F.lit(document).alias("document")
                              if isinstance(document, str) else document.alias("document"),
                              key.alias("key"), title.alias("title"), *COUNTS, "first")

    rows = (by("overall", [], "", F.lit("all"), F.lit("all variants"))
            .unionByName(by("area", ["area"], "", F.col("area"), F.col("area")))
            .unionByName(by("document", ["document"], F.col("document"), F.col("document"), F.col("document")))
            .unionByName(by("section", ["document", "section", "section_title"], F.col("document"),
                            F.col("section"), F.col("section_title"))))
    # no variants at all still gives the overall row (0 variants, no rate): the figure is never simply missing
    counts = [F.coalesce(name, F.lit(0)).alias(name) for name in COUNTS]
    rate = F.when(F.col("variants") > 0, F.round(F.col("killed") * 100.0 / F.col("variants"), 1))
    return rows.select("grouping", "document", "key", "title", *counts, "first").withColumn("rate", rate) \
        .select(*RATE_COLUMNS)


def _catching(failures: DataFrame, variants: DataFrame, runs: DataFrame) -> DataFrame:
    """One row per (variant, catching test, clause tag), with the variant's own clause."""
    own = variants.select("source", F.col("name").alias("variant"), F.col("clause").alias("own_clause"))
    return (_of_latest(failures, runs, "started").join(own, ["source", "variant"])
            .select("variant", "own_clause", "test", "kind", F.explode_outer("clauses").alias("tag"))
            .select("variant", "own_clause", "test", "kind", F.coalesce("tag", F.lit(UNTAGGED)).alias("clause_id")))


def strength_caught(failures: DataFrame, variants: DataFrame, runs: DataFrame) -> DataFrame:
    """variant, clause_id: the tests tagged with that clause that caught the variant (scenarios, machines)."""
    return (_catching(failures, variants, runs)
            .groupBy("variant", "clause_id", "own_clause")
            .agg(F.countDistinct("test").cast("int").alias("tests"),
                 F.countDistinct(F.when(F.col("kind") == "machine", F.col("test"))).cast("int").alias("machines"))
            .select("variant", "clause_id", "tests", (F.col("tests") - F.col("machines")).alias("scenarios"),
                    "machines", (F.col("clause_id") == F.col("own_clause")).alias("own")))


def strength_table(variants: DataFrame, failures: DataFrame, runs: DataFrame, clauses: DataFrame) -> DataFrame:
    """The latest run's variants with their section and what caught them, counted from the failures."""
    caught = (_catching(failures, variants, runs).groupBy("variant")
              .agg(F.countDistinct(F.when(F.col("kind") == "scenario", F.col("test"))).cast("int")
                   .alias("scenarios_failed"),
                   F.countDistinct(F.when(F.col("kind") == "machine", F.col("test"))).cast("int")
                   .alias("machines_failed"),
                   F.countDistinct("clause_id").cast("int").alias("clauses_caught"),
                   F.max((F.col("clause_id") == F.col("own_clause")).cast("int")).alias("own"))
              .withColumnRenamed("variant", "name"))
    zero = F.lit(0)
    return (_placed(_of_latest(variants, runs, "started"), clauses).join(caught, "name", "left")
            .select("position", "name", "clause", "area", "text", "status", "document", "section", "section_title",
                    "seconds", "tests", "ignored_failures", "error",
                    *[F.coalesce(name, zero).alias(name) for name in ("scenarios_failed", "machines_failed",
                                                                      "clauses_caught")],
                    F.coalesce(F.col("own") == 1, F.lit(False)).alias("caught_own_clause")))


def strength_removed(equivalent: DataFrame, runs: DataFrame) -> DataFrame:
    return _of_latest(equivalent, runs, "started").select("name", "reason")


def _score(killed: Column, survived: Column) -> Column:
    return F.when(killed + survived > 0, F.round(killed * 100.0 / (killed + survived), 1))


def mutant_score(mutant_runs: DataFrame, survivors: DataFrame) -> DataFrame:
    """The latest mutants run: its counts, the score computed from them, and the survivors explained or not."""
    latest = _of_latest(mutant_runs, mutant_runs, "finished")
    explained = (_of_latest(survivors, mutant_runs, "finished").groupBy("source")
                 .agg(F.sum((F.col("equivalent") != "").cast("int")).cast("int").alias("equivalent"),
                      F.sum((F.col("equivalent") == "").cast("int")).cast("int").alias("unexplained")))
    equivalent = F.coalesce("equivalent", F.lit(0))
    return (latest.join(explained, "source", "left")
            .select("source", "file", "finished", "seconds", "jobs", "tool", "mutants", "tested", "skipped", "pending",
                    "killed", "survived", "timed_out", F.col("score").alias("recorded_score"),
                    _score(F.col("killed"), F.col("survived")).alias("score"),
                    equivalent.alias("equivalent"), F.coalesce("unexplained", F.lit(0)).alias("unexplained"),
                    _score(F.col("killed"), F.col("survived") - equivalent).alias("score_without_equivalent")))


def mutant_modules(results: DataFrame, mutant_runs: DataFrame) -> DataFrame:
    """module: mutants tested, killed, survived, other outcomes and the score (rows that name an outcome)."""
    def outcome(name: str) -> Column:
        return F.sum((F.col("outcome") == name).cast("int")).cast("int")
    return (_of_latest(results, mutant_runs, "finished").where(F.col("outcome").isNotNull())
            .groupBy(F.coalesce("module", F.lit("(unknown)")).alias("module"))
            .agg(F.count(F.lit(1)).cast("int").alias("tested"), outcome("killed").alias("killed"),
                 outcome("survived").alias("survived"))
            .select("module", "tested", "killed", "survived",
                    (F.col("tested") - F.col("killed") - F.col("survived")).alias("other"),
                    _score(F.col("killed"), F.col("survived")).alias("score")))


def mutant_survivor_list(survivors: DataFrame, mutant_runs: DataFrame) -> DataFrame:
    return _of_latest(survivors, mutant_runs, "finished").drop("source")


# name -> function of (table reader, options), as pipeline.STAGES; all read only ingested tables (one wave)
STAGES = {
    "strength_run": lambda t, o: latest_run(t("strength_runs")),
    "strength_kill_rate": lambda t, o: strength_kill_rate(t("strength_variants"), t("strength_runs"), t("clauses")),
    "strength_table": lambda t, o: strength_table(t("strength_variants"), t("strength_failures"),
                                                  t("strength_runs"), t("clauses")),
    "strength_caught": lambda t, o: strength_caught(t("strength_failures"), t("strength_variants"),
                                                    t("strength_runs")),
    "strength_removed": lambda t, o: strength_removed(t("strength_equivalent"), t("strength_runs")),
    "mutant_score": lambda t, o: mutant_score(t("mutant_runs"), t("mutant_survivors")),
    "mutant_modules": lambda t, o: mutant_modules(t("mutant_results"), t("mutant_runs")),
    "mutant_survivor_list": lambda t, o: mutant_survivor_list(t("mutant_survivors"), t("mutant_runs")),
}


# -- the report model's "strength" entry --------------------------------------------------------------------------

def _natural(text: str | None) -> list:
    """Section numbers in their order: 3.1.7.1.4 before 3.1.7.1.12."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text or "") if part]


def strength_model(spark: SparkSession, paths: dict[str, str]) -> dict | None:
    """The bounded strength outputs as plain data, or None when the report has no strength input."""
    if "strength_run" not in paths:
        return None

    def rows(name: str) -> list[dict]:
        return [row.asDict(recursive=True) for row in spark.read.parquet(paths[name]).collect()]

    runs = rows("strength_run")
    rates = rows("strength_kill_rate")
    caught: dict[str, list] = {}
    for row in sorted(rows("strength_caught"), key=lambda r: (not r["own"], -r["tests"], _natural(r["clause_id"]))):
        caught.setdefault(row["variant"], []).append([row["clause_id"], row["tests"], row["scenarios"],
                                                      row["machines"]])
    variants = sorted(rows("strength_table"), key=lambda row: row["position"])
    for row in variants:
        row.pop("position")
        row["caught_by"] = caught.get(row["name"], [])   # [clause, tests, scenarios, machines], own clause first
    scores = rows("mutant_score")
    mutants = None
    if scores:
        mutants = scores[0]
        mutants["modules"] = sorted(rows("mutant_modules"), key=lambda row: row["module"])
        mutants["survivors"] = sorted(rows("mutant_survivor_list"),
                                      key=lambda row: (row["equivalent"] != "", row["module"], row["line"]))

    def grouped(grouping: str, order) -> list[dict]:
        return sorted(({k: v for k, v in row.items() if k != "grouping"} for row in rates
                       if row["grouping"] == grouping), key=order)

    run = runs[0] if runs else None
    overall = next((row for row in rates if row["grouping"] == "overall"), None) if run else None
    return {
        "run": run,
        "kill_rate": {
            "overall": {key: overall[key] for key in ("variants", "killed", "survived", "errors", "rate")}
            if overall else None,
            "by_area": grouped("area", lambda row: (row["first"], row["key"])),
            "by_document": grouped("document", lambda row: row["key"]),
            "by_section": grouped("section", lambda row: (row["document"], _natural(row["key"]))),
        },
        "variants": variants,
        "survivors": [row["name"] for row in variants if row["status"] == "survived"],
        "errors": [row["name"] for row in variants if row["status"] == "error"],
        "equivalent": sorted(rows("strength_removed"), key=lambda row: row["name"]),
        "mutants": mutants,
    }
