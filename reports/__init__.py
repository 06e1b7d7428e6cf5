"""Clause traceability and certification reports, computed with Apache Spark.

Theory of operation
-------------------
A certify run leaves a results directory (junit.xml, cucumber.json, run.json,
machines.ndjson).  This package reads such directories, never live objects, and
turns any number of them into verdicts per clause x target x run:

    inputs.py    which directories are runs; run.json checked (one line per bad input)
    suite.py     the suite's own tables: clause catalogue, decisions, Gherkin scenarios
    junit.py     junit.xml      -> results and their properties (every name/value pair)
    cucumber.py  cucumber.json  -> scenarios as run, and their steps
    ingest.py    the rows above, staged as NDJSON, and machines.ndjson -> Parquet tables
    verdicts.py  results -> scenario verdicts -> clause verdicts (the matrix)
    coverage.py  coverage by document, section and level; MUST clauses never exercised
    history.py   regressions and fixes against a baseline, flaky clauses, verdicts per run
    machines.py  stateful machines: rules and (state, rule) pairs exercised
    strength_files.py  `mqspec strength` results (strength.json, mutants.json) -> staged rows, Parquet
    strength.py  kill rate overall, by area and by section, the variant x clause table, survivors,
                 the mutation score (a report of these alone, without a run, works too)
    pipeline.py  runs the stages in order, Parquet between them, with progress
    model.py     the bounded outputs read back into one JSON-able report model
    record.py    the certification record of one target, with its sha256
    render*.py   HTML (self-contained; a list of pages, PAGES), JSON, Markdown and JUnit renderings
    charts.py    inline SVG charts for the HTML
    session.py   the SparkSession (local[*] or spark://...), its settings and its log
    gate.py      regressions and uncovered MUST clauses against a baseline record
    summary.py   the few lines a terminal shows at the end

Each stage is a function from DataFrames to a DataFrame; `pipeline.py` writes
every stage's output as Parquet and the next stage reads it back, so the same job
runs in `local[*]` and on a cluster (`--master spark://...`).  Only bounded
results (one row per clause and target, per section, per run) reach the driver.

A bad input never stops the others: it becomes one line naming the file
(`InputError`), and the report is made of what remains.
"""
