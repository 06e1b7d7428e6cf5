"""The Spark schema of every table the ingest stage writes, in one place.

Staged rows are read with these schemas (never inferred), so a table has the same
columns and types whatever its input held, and an empty input is an empty table.
Column names follow the result files and the catalogue: run_id, target, name
(the test's name, as junit.xml and cucumber.json both give it), clause_id, ...
"""

from __future__ import annotations

from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    DoubleType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
)


def _schema(*fields: tuple[str, object]) -> StructType:
    return StructType([StructField(name, kind, True) for name, kind in fields])


S, I, L, B, D = StringType(), IntegerType(), LongType(), BooleanType(), DoubleType()
STRINGS = ArrayType(S)

RUNS = _schema(("run_id", S), ("results_dir", S), ("suite_version", S), ("started", S), ("finished", S),
               ("exit_status", I), ("targets", STRINGS), ("spec_revisions", MapType(S, S)),
               ("waived_clauses", MapType(S, S)), ("skipped_levels", STRINGS), ("profile_json", S),
               ("demanded_profile_json", S), ("selection", STRINGS))
RESULTS = _schema(("run_id", S), ("target", S), ("name", S), ("classname", S), ("duration", D), ("outcome", S),
                  ("message", S), ("detail", S), ("clauses", STRINGS), ("decisions", STRINGS), ("readings", STRINGS),
                  ("cause", S), ("stopped", S))
PROPERTIES = _schema(("run_id", S), ("target", S), ("name", S), ("property", S), ("value", S))
SCENARIO_RUNS = _schema(("run_id", S), ("name", S), ("feature_uri", S), ("feature_name", S), ("scenario_name", S),
                        ("scenario_line", I), ("tags", STRINGS))
STEPS = _schema(("run_id", S), ("name", S), ("step_index", I), ("keyword", S), ("text", S), ("line", I),
                ("status", S), ("duration_ns", L), ("error_message", S))
CLAUSES = _schema(("clause_id", S), ("document", S), ("revision", S), ("section", S), ("section_title", S),
                  ("level", S), ("testable", B), ("text", S), ("reason", S), ("decisions", STRINGS),
                  ("side", S))
DECISIONS = _schema(("decision_id", S), ("title", S), ("kind", S), ("readings", STRINGS), ("windows", S))
SUITE_SCENARIOS = _schema(("feature_uri", S), ("feature_name", S), ("scenario_name", S), ("line", I),
                          ("clauses", STRINGS), ("decisions", STRINGS), ("steps", STRINGS))
EVIDENCE = _schema(("run_id", S), ("name", S), ("evidence_json", S))   # a failing scenario's evidence file, as JSON
MACHINE_FILES = _schema(("run_id", S), ("file", S), ("path", S), ("targets", MapType(S, S)))
_OUTCOME = [("hresult", S), ("label", S)]
MACHINE_LINES = _schema(("run", S), ("machine", S), ("step", L), ("action", S), ("arguments", S),
                        ("result", _schema(*_OUTCOME, ("expected", _schema(*_OUTCOME)))), ("target", S),
                        ("state", S), ("_corrupt_record", S))
MACHINE_STEPS = _schema(("run_id", S), ("target", S), ("example", S), ("machine", S), ("step", L), ("action", S),
                        ("arguments", S), ("hresult", S), ("label", S), ("expected_hresult", S),
                        ("expected_label", S), ("state", S))

STAGED = {"runs": RUNS, "results": RESULTS, "properties": PROPERTIES, "scenario_runs": SCENARIO_RUNS,
          "steps": STEPS, "clauses": CLAUSES, "decisions": DECISIONS, "suite_scenarios": SUITE_SCENARIOS,
          "evidence": EVIDENCE, "machine_files": MACHINE_FILES}

# `mqspec strength` results (strength.py): staged only when a strength input is given; `source` is its directory
STRENGTH_RUNS = _schema(("source", S), ("file", S), ("started", S), ("seconds", D), ("jobs", I), ("quick", B),
                        ("suite", S), ("clauses", STRINGS), ("control_status", S), ("control_tests", I),
                        ("control_seconds", D), ("control_failures", I))
STRENGTH_VARIANTS = _schema(("source", S), ("position", I), ("name", S), ("clause", S), ("area", S), ("text", S),
                            ("section", S), ("status", S), ("seconds", D), ("tests", I), ("ignored_failures", I),
                            ("error", S))
STRENGTH_FAILURES = _schema(("source", S), ("variant", S), ("test", S), ("kind", S), ("clauses", STRINGS))
STRENGTH_EQUIVALENT = _schema(("source", S), ("name", S), ("reason", S))
MUTANT_RUNS = _schema(("source", S), ("file", S), ("finished", S), ("seconds", D), ("jobs", I), ("tool", S),
                      ("mutants", I), ("tested", I), ("skipped", I), ("pending", I), ("killed", I), ("survived", I),
                      ("timed_out", I), ("score", D))
MUTANT_RESULTS = _schema(("source", S), ("module", S), ("line", I), ("operator", S), ("outcome", S),
                         ("killed_by", S))
MUTANT_SURVIVORS = _schema(("source", S), ("module", S), ("line", I), ("source_line", S), ("operator", S),
                           ("equivalent", S), ("diff", S))

STRENGTH = {"strength_runs": STRENGTH_RUNS, "strength_variants": STRENGTH_VARIANTS,
            "strength_failures": STRENGTH_FAILURES, "strength_equivalent": STRENGTH_EQUIVALENT,
            "mutant_runs": MUTANT_RUNS, "mutant_results": MUTANT_RESULTS, "mutant_survivors": MUTANT_SURVIVORS}
