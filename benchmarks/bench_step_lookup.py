"""What remembering pytest-bdd's step lookups (features/conftest.py) saves, as a ratio within one run.

Runs the same selection of scenarios twice per round in fresh pytest processes: once as the
suite runs (each step definition looked up once per module and step text) and once with
pytest-bdd's own lookup, which tries every fixture of the session against every step (the
plugin benchmarks/pytest_bdd_unremembered.py marks the lookup as already remembered, so
the suite's conftest leaves it alone).  The rounds alternate the order, and the medians of
the wall times are reported with their ratio (the machine is shared and noisy).

Run: python benchmarks/bench_step_lookup.py [--rounds N] [-k EXPRESSION]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one_run(selection: str, remembered: bool) -> float:
    with tempfile.TemporaryDirectory() as results:
        command = [sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider", "-k", selection,
                   "--results", results, "--run-id", "bench"]
        if not remembered:
            command[5:5] = ["-p", "benchmarks.pytest_bdd_unremembered"]
        begun = time.perf_counter()
        process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - begun
    if process.returncode != 0:
        sys.exit(f"bench_step_lookup: the suite failed: {(process.stdout.strip().splitlines() or ['?'])[-1]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-k", dest="selection", default="cursor", help="scenarios to run (default: cursor)")
    args = parser.parse_args()
    times: dict[bool, list[float]] = {True: [], False: []}
    for round_number in range(args.rounds):
        for remembered in ((True, False) if round_number % 2 == 0 else (False, True)):
            times[remembered].append(one_run(args.selection, remembered))
    plain, remembered = statistics.median(times[False]), statistics.median(times[True])
    print(f"scenarios -k {args.selection!r}, {args.rounds} rounds, whole pytest process each")
    print(f"  pytest-bdd's lookup (baseline): {plain:6.1f} s (median)")
    print(f"  remembered lookups:             {remembered:6.1f} s (median)  = {remembered / plain:.2f}x the baseline")


if __name__ == "__main__":
    main()
