"""pytest plugin of benchmarks/bench_step_lookup.py: keeps pytest-bdd's own step lookup, the benchmark's baseline
(the suite's conftest leaves a lookup already marked as remembering alone)."""

import importlib

importlib.import_module("pytest_bdd.scenario").find_fixturedefs_for_step.remembers = True
