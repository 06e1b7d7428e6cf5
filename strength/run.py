"""`mqspec strength`: the conformance suite against every variant, and the variant x clause table.

Theory of operation
-------------------
The run first takes a snapshot of the suite and the reference (a private copy under the
results directory), so that every variant meets the same suite even while the tree is
being edited.  Each variant (variants.py) runs the whole suite, features/ (the scenarios
and the stateful machines), in a pytest process of its own: `--target reference?variant=NAME`,
its own results directory (junit.xml carries each test's clause tags) and its own
working directory, so that hypothesis' example database of one variant is not replayed
against another.  `jobs` processes run at once (default: one per core); one process per
variant uses a core fully and pays pytest's start-up once, where pytest-xdist inside
each run would pay it per worker.

The plain reference runs too, as the control: a test that fails on the reference
(another edit in progress, a flaky machine) proves nothing about a variant, so a
variant counts as killed only by tests that pass on the control.  A variant is

    killed     some test that passes on the reference fails on it
    survived   every such test passes on it: a gap in the suite (add the scenario), or an
               equivalent variant (move it to EQUIVALENT with the reason)
    error      its run did not complete (pytest could not load it, or stopped early)

`--quick` stops each run at its first failure: it proves a kill cheaply but the table
then lists one catching test per variant, not all of them.  The outcome is written as
strength.json (the machine format the reports read) and strength.md, and printed.

strength.json ("format": "mqspec-strength/1"): started, seconds, jobs, quick, clauses (a
restriction, or []), control {status, tests, seconds, failures, error}, kill_rate {overall,
by_area, by_section: {variants, killed, rate}}, variants [{name, clause, area, text,
section, status, seconds, tests, scenarios_failed, machines_failed, failures [{test, kind,
clauses}], caught_by_clause {clause: tests}, caught_own_clause, ignored_failures, error}],
survivors, errors, equivalent {name: reason}.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

from mqspec.pytest_plugin import SelectionError, make_results_directory

from .variants import AREAS, EQUIVALENT, VARIANTS, Variant, load_variant

ROOT = Path(__file__).resolve().parent.parent
CONTROL = "reference"          # the run of the unchanged reference
TEST_TIMEOUT = 120             # seconds per test: a variant that hangs a call fails that test, not the run
RUN_TIMEOUT = 3600             # seconds per run: a backstop if a process stops answering altogether
COPIED = ("protocol", "reference", "adapters", "steps", "features", "spec", "mqspec", "strength")
COPIED_FILES = ("conftest.py", "pyproject.toml")


class StrengthError(ValueError):
    """Bad input to `mqspec strength`; one line says what."""


@dataclass
class Failure:
    test: str                          # features/<module>::<test name>
    kind: str                          # "scenario" or "machine"
    clauses: list[str]
    cause: str = ""                    # the clause its failing check names (reports/faults.py), if any


@dataclass
class RunOutcome:
    name: str                          # a variant's name, or CONTROL
    status: str = "error"              # killed / survived / error (the control: passed / failed / error)
    seconds: float = 0.0
    tests: int = 0
    failures: list[Failure] = field(default_factory=list)   # failing tests that pass on the control
    ignored: int = 0                   # failing tests that fail on the control too
    exit_code: int | None = None
    error: str = ""


def check_checkout() -> None:
    """A strength run copies the checkout's suite and reference (make_copy): an installed wheel has no checkout."""
    if not all((ROOT / name).exists() for name in COPIED + COPIED_FILES):
        raise StrengthError("mqspec strength runs in a checkout of mqspec's repository (it copies the suite and the "
                            "reference's sources); an installed mqspec certifies variants one at a time with "
                            "--target 'reference?variant=NAME'")


def select(names: list[str]) -> list[Variant]:
    """The variants named (all when none is), in catalogue order; StrengthError for an unknown name."""
    for name in names:
        if name not in VARIANTS:
            why = f" (removed as equivalent: {EQUIVALENT[name]})" if name in EQUIVALENT else ""
            raise StrengthError(f"--variant {name}: no such variant{why}; `mqspec strength --list` names them")
    chosen = set(names)
    return [variant for variant in VARIANTS.values() if not chosen or variant.name in chosen]


def check_loadable(variants: list[Variant]) -> None:
    """Build every variant before any run starts, so a stale change is one line, not a failed run."""
    for variant in variants:
        try:
            load_variant(variant.name)
        except Exception as error:  # noqa: BLE001 - a ChangeError, or any error the changed source raises
            raise StrengthError(f"variant {variant.name} no longer applies to reference/: {error}") from None


def check_clauses(clauses: list[str]) -> None:
    from mqspec.catalogue import load_catalogue
    catalogue = load_catalogue()
    for clause in clauses:
        if clause not in catalogue:
            raise StrengthError(f"--clause {clause}: no such clause in the catalogue (mqspec clauses lists them)")


def results_directory(path: str | None) -> Path:
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    results = Path(path) if path else Path.cwd() / "results" / f"strength-{stamp}"
    try:
        make_results_directory(results)   # the same check and one-line message as a certify run's
    except SelectionError as error:
        raise StrengthError(str(error)) from None
    return results


def make_copy(destination: Path, source: Path = ROOT) -> Path:
    """A private copy of what the suite needs (the suite, the reference, the adapters, the catalogue), without
    caches: a stale .pyc must not stand in for a changed source."""
    if destination.exists():
        shutil.rmtree(destination)
    destination.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "results")
    for name in COPIED:
        shutil.copytree(source / name, destination / name, ignore=ignore)
    for name in COPIED_FILES:
        shutil.copy2(source / name, destination / name)
    return destination


def run_suite(name: str, results: Path, quick: bool, test_timeout: int = TEST_TIMEOUT,
              clauses: tuple[str, ...] = (), suite: Path = ROOT) -> RunOutcome:
    """One pytest process over `suite`/features against the variant `name` (or the reference for CONTROL).

    The process imports the suite's own copy of every package (PYTHONPATH comes before the editable install)."""
    where = results / "runs" / name
    where.mkdir(parents=True, exist_ok=True)
    # named "reference" like the control, so a test fails under one name in both (judge: unreliable tests)
    url = CONTROL if name == CONTROL else f"reference?variant={name}&name=reference"
    command = [sys.executable, "-m", "pytest", str(suite / "features"), "-q", "-p", "no:cacheprovider",
               "-p", "mqspec.strength.pytest_fast",   # no shrinking of a failing machine: a kill is all that counts
               "--target", url, "--results", str(where / "results"), "--run-id", f"strength-{name}",
               f"--timeout={test_timeout}"]
    for clause in clauses:
        command += ["--clause", clause]
    if quick and name != CONTROL:
        command.append("-x")
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(suite),
                                                                           os.environ.get("PYTHONPATH")])))
    environment.pop("PYTEST_XDIST_WORKER", None)
    outcome = RunOutcome(name)
    started = time.monotonic()
    with open(where / "pytest.log", "w", encoding="utf-8") as log:
        try:
            process = subprocess.run(command, cwd=where, env=environment, stdout=log, stderr=subprocess.STDOUT,
                                     timeout=RUN_TIMEOUT, check=False)
            outcome.exit_code = process.returncode
        except subprocess.TimeoutExpired:
            outcome.error = f"the run took more than {RUN_TIMEOUT} s and was stopped"
    outcome.seconds = round(time.monotonic() - started, 1)
    junit = where / "results" / "junit.xml"
    if outcome.exit_code not in (0, 1) or not junit.is_file():
        outcome.error = (outcome.error
                         or f"pytest ended with status {outcome.exit_code}: {_last_line(where / 'pytest.log')}")
        return outcome
    outcome.tests, outcome.failures = read_junit(junit)
    return outcome


def read_junit(path: Path) -> tuple[int, list[Failure]]:
    """(tests run, failing tests with their clause tags) from a junit.xml the suite wrote."""
    tests, failures = 0, []
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("skipped") is not None:
            continue
        tests += 1
        if case.find("failure") is None and case.find("error") is None:
            continue
        module = case.get("classname", "").rpartition(".")[2]
        clauses = sorted({p.get("value") for p in case.iter("property") if p.get("name") == "clause"})
        cause = next((p.get("value") for p in case.iter("property") if p.get("name") == "cause"), "")
        failures.append(Failure(f"features/{module}.py::{case.get('name')}",
                                "machine" if module == "test_machines" else "scenario", clauses, cause))
    return tests, failures


def judge(outcome: RunOutcome, control: RunOutcome) -> RunOutcome:
    """Killed by the tests that fail here and pass on the control; survived if there are none."""
    if outcome.error:
        outcome.status = "error"
        return outcome
    unreliable = {failure.test for failure in control.failures}
    kept = [failure for failure in outcome.failures if failure.test not in unreliable]
    outcome.ignored = len(outcome.failures) - len(kept)
    outcome.failures = kept
    outcome.status = "killed" if kept else "survived"
    return outcome


def run_strength(variants: list[Variant], results: Path, jobs: int, quick: bool = False,
                 test_timeout: int = TEST_TIMEOUT, clauses: list[str] | tuple[str, ...] = (), progress=print) -> dict:
    """Run the control and every variant, `jobs` at a time; write and return the strength record."""
    started_at = _dt.datetime.now(_dt.UTC)
    started = time.monotonic()
    suite = make_copy(results / "suite")
    names = [CONTROL] + [variant.name for variant in variants]
    outcomes: dict[str, RunOutcome] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run_suite, name, results, quick, test_timeout, tuple(clauses), suite): name
                   for name in names}
        for done, future in enumerate(as_completed(futures), 1):
            outcome = future.result()
            outcomes[outcome.name] = outcome
            progress(f"[{done}/{len(names)}] {outcome.name}: " + _brief(outcome))
    control = outcomes.pop(CONTROL)
    control.status = "error" if control.error else ("failed" if control.failures else "passed")
    judged = [judge(outcomes[variant.name], control) for variant in variants]
    record = build_record(variants, judged, control, started_at, time.monotonic() - started, jobs, quick)
    record["clauses"] = list(clauses)
    write_record(record, results)
    return record


def at_fault(failures: list[Failure]) -> list[list]:
    """[[clause, failing tests that blame it]], the likeliest cause first: a failure that names its cause blames
    that clause alone, one that names none blames each of its tags (reports/faults.py, as the terminal ranks)."""
    from mqspec.reports.faults import clause_order
    blamed: dict[str, int] = {}
    for failure in failures:
        for clause in [failure.cause] if failure.cause else failure.clauses or ["(untagged)"]:
            blamed[clause] = blamed.get(clause, 0) + 1
    return [[clause, count] for clause, count in sorted(
        blamed.items(), key=lambda item: (-item[1], clause_order(item[0]) if ":" in item[0] else ("~",)))]


def build_record(variants, outcomes, control, started_at, seconds, jobs, quick) -> dict:
    from mqspec.catalogue import load_catalogue
    catalogue = load_catalogue()
    rows = []
    for variant, outcome in zip(variants, outcomes):
        clause = catalogue.clauses.get(variant.clause)
        caught: dict[str, list[str]] = {}
        for failure in outcome.failures:
            for tag in failure.clauses or ["(untagged)"]:
                caught.setdefault(tag, []).append(failure.test)
        rows.append({
            "name": variant.name, "clause": variant.clause, "area": variant.area, "text": variant.text,
            "section": f"{clause.document} {clause.section} {clause.section_title}" if clause else variant.clause,
            "status": outcome.status, "seconds": outcome.seconds, "tests": outcome.tests,
            "scenarios_failed": sum(1 for f in outcome.failures if f.kind == "scenario"),
            "machines_failed": sum(1 for f in outcome.failures if f.kind == "machine"),
            "failures": [asdict(failure) for failure in outcome.failures],
            "caught_by_clause": {tag: len(tests) for tag, tests in sorted(caught.items())},
            "caught_own_clause": variant.clause in caught, "ignored_failures": outcome.ignored,
            "at_fault": at_fault(outcome.failures),
            "error": outcome.error,
        })
    return {
        "format": "mqspec-strength/1",
        "started": started_at.isoformat(timespec="seconds"), "seconds": round(seconds, 1), "jobs": jobs,
        "quick": quick, "suite": "features/ (scenarios and stateful machines)", "clauses": [],
        "control": {"status": control.status, "tests": control.tests, "seconds": control.seconds,
                    "failures": [failure.test for failure in control.failures], "error": control.error},
        "kill_rate": {"overall": _rate(rows), "by_area": _grouped(rows, "area", AREAS),
                      "by_section": _grouped(rows, "section")},
        "variants": rows,
        "survivors": [row["name"] for row in rows if row["status"] == "survived"],
        "errors": [row["name"] for row in rows if row["status"] == "error"],
        "equivalent": dict(sorted(EQUIVALENT.items())),
    }


def _rate(rows: list[dict]) -> dict:
    killed = sum(1 for row in rows if row["status"] == "killed")
    return {"variants": len(rows), "killed": killed,
            "rate": round(100.0 * killed / len(rows), 1) if rows else None}


def _grouped(rows: list[dict], key: str, order=()) -> dict:
    groups: dict[str, list[dict]] = {name: [] for name in order}
    for row in rows:
        groups.setdefault(row[key], []).append(row)
    ordered = groups.items() if order else sorted(groups.items(), key=lambda item: _natural(item[0]))
    return {name: _rate(members) for name, members in ordered if members}


def _natural(text: str) -> list:
    """Section numbers in their order: 3.1.7.1.4 before 3.1.7.1.12."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def write_record(record: dict, results: Path) -> None:
    (results / "strength.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    (results / "strength.md").write_text(markdown(record), encoding="utf-8")


def markdown(record: dict) -> str:
    overall = record["kill_rate"]["overall"]
    control = record["control"]
    lines = ["# Suite strength: wrong queue managers the suite must reject", "",
             (f"Kill rate: **{overall['killed']} of {overall['variants']} variants ({overall['rate']}%)**; "
             f"suite: {record['suite']}"
             f"{', only the clauses ' + ', '.join(record['clauses']) if record['clauses'] else ''}; "
             f"{_duration(record['seconds'])} with {record['jobs']} jobs"
             f"{' (quick: each run stopped at its first failure)' if record['quick'] else ''}; "
             f"started {record['started']}."), "",
             f"Control (the unchanged reference): {control['status']}, {control['tests']} tests in "
             f"{control['seconds']} s" + (f"; its {len(control['failures'])} failing tests are not counted "
                                          "as kills" if control["failures"] else "") + ".",
             (f"Wall time: {_duration(record['seconds'])}{_against_control(record)}; per variant "
             f"{_spread([row['seconds'] for row in record['variants']])}."), ""]
    for title, key in (("area", "by_area"), ("section of the misread clause", "by_section")):
        lines += [f"## Kill rate by {title}", "", f"| {title} | variants | killed | rate |", "|---|---:|---:|---:|"]
        lines += [f"| {name} | {rate['variants']} | {rate['killed']} | {rate['rate']}% |"
                  for name, rate in record["kill_rate"][key].items()]
        lines.append("")
    lines += ["## Variants x clauses", "",
              ("Each variant, the clause it misreads, and the clauses its failing tests blame, the likeliest cause "
              "first (number of failing tests; a test that names the clause whose rule broke blames it alone, "
              "others each of their tags)."), "",
              "| variant | misreads | verdict | failed | clauses at fault, likeliest first | s |",
              "|---|---|---|---|---|---:|"]
    for row in record["variants"]:
        failed = f"{row['scenarios_failed']} scenarios, {row['machines_failed']} machines"
        caught = ", ".join(f"{'**' + tag + '**' if tag == row['clause'] else tag} ({count})"
                           for tag, count in row.get("at_fault", [])[:8]) or row["error"] or "-"
        lines.append(f"| {row['name']} | {row['clause']} | {row['status']} | {failed} | {caught} | "
                     f"{row['seconds']} |")
    lines += ["", "## What each variant gets wrong, and what caught it", ""]
    for row in record["variants"]:
        lines.append(f"- **{row['name']}** ({row['clause']}, {row['area']}): {row['text']}. "
                     f"*{row['status']}*")
        lines += [f"  - {failure['test']} [{', '.join(failure['clauses']) or 'untagged'}]"
                  for failure in row["failures"]]
    lines += ["", "## Survivors", ""]
    lines += [f"- {name}" for name in record["survivors"]] or ["None."]
    if record["errors"]:
        lines += ["", "## Runs that did not complete", ""]
        lines += [f"- {row['name']}: {row['error']}" for row in record["variants"] if row["status"] == "error"]
    lines += ["", "## Removed as equivalent to the reference", ""]
    lines += [f"- {name}: {reason}" for name, reason in record["equivalent"].items()] or ["None."]
    return "\n".join(lines) + "\n"


def summary_lines(record: dict) -> list[str]:
    overall = record["kill_rate"]["overall"]
    lines = [(f"kill rate {overall['killed']}/{overall['variants']} ({overall['rate']}%) in "
             f"{_duration(record['seconds'])}{_against_control(record)}")]
    lines += [f"survivor: {row['name']} ({row['clause']}): {row['text']}"
              for row in record["variants"] if row["status"] == "survived"]
    lines += [f"error: {row['name']}: {row['error']}" for row in record["variants"] if row["status"] == "error"]
    if record["control"]["status"] != "passed":
        lines.append(f"warning: the reference itself {record['control']['status']} "
                     f"({len(record['control']['failures'])} failing tests, not counted as kills)"
                     + (f": {record['control']['error']}" if record["control"]["error"] else ""))
    return lines


def _brief(outcome: RunOutcome) -> str:
    if outcome.error:
        return f"did not complete ({outcome.error}) [{outcome.seconds} s]"
    kinds = {"scenario": 0, "machine": 0}
    for failure in outcome.failures:
        kinds[failure.kind] += 1
    return (f"{len(outcome.failures)} of {outcome.tests} tests failed ({kinds['scenario']} scenarios, "
            f"{kinds['machine']} machines) [{outcome.seconds} s]")


def _against_control(record: dict) -> str:
    """The run's wall time as a multiple of one run of the suite on the reference, measured in the same run."""
    control = record["control"]["seconds"]
    return f" ({record['seconds'] / control:.1f} x one suite run, the control's {control:.0f} s)" if control else ""


def _spread(values: list[float]) -> str:
    """min / median / max."""
    if not values:
        return "-"
    ordered = sorted(values)
    return (f"{ordered[0]:.0f} s / {ordered[len(ordered) // 2]:.0f} s / {ordered[-1]:.0f} s "
            "(min / median / max)")


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _last_line(path: Path) -> str:
    try:
        lines = [line.strip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
                 if line.strip()]
    except OSError:
        return "no output"
    return lines[-1][:200] if lines else "no output"
