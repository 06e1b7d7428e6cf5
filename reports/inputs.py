"""Which inputs are runs, and whether each run's record can be used.

A RESULTS argument is either one run's results directory (it holds run.json) or a
folder of them (such as ./results): every subdirectory holding run.json is a run,
and a subdirectory holding result files but no run.json is a run that did not
finish.  Each run's run.json is checked here; a run is left out, with one line
naming its file, when the record is cut short or not JSON, lacks what every
record has, repeats a run id already seen, or was made by another suite version
(unless the caller accepts any).  junit.xml must be there; cucumber.json and
machines.ndjson are read when present, and so is evidence/ (one file per failing
scenario, mqspec/evidence.py).

A directory holding strength.json or mutants/mutants.json (what `mqspec strength`
writes) is a strength input rather than a run, given itself or one level down in a
folder; `find_strength` lists them and strength.py reads them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

RESULT_FILES = ("run.json", "junit.xml", "cucumber.json", "machines.ndjson")
MUTANTS_FILES = ("mutants/mutants.json", "mutants.json")   # a strength results directory, or its mutants/ folder


@dataclass(frozen=True)
class StrengthResults:
    """A results directory of `mqspec strength`: its strength.json and mutants.json, each when present."""
    directory: Path
    strength: Path | None
    mutants: Path | None


def strength_results(directory: Path) -> StrengthResults | None:
    """The strength results in `directory`, or None when it holds neither file."""
    strength = directory / "strength.json"
    mutants = next((directory / name for name in MUTANTS_FILES if (directory / name).is_file()), None)
    if not strength.is_file() and mutants is None:
        return None
    return StrengthResults(directory, strength if strength.is_file() else None, mutants)


def find_strength(arguments: list[str | Path]) -> list[StrengthResults]:
    """The strength results among the arguments, given themselves or one level down (a path that is no
    directory is named by find_runs)."""
    found: dict[Path, StrengthResults] = {}
    for argument in map(Path, arguments):
        if not argument.is_dir():
            continue
        here = strength_results(argument)
        candidates = [here] if here else [strength_results(child) for child in sorted(argument.iterdir())
                                          if child.is_dir() and not any((child / n).exists() for n in RESULT_FILES)]
        for results in filter(None, candidates):
            found.setdefault(results.directory.resolve(), results)
    return list(found.values())


@dataclass(frozen=True)
class Run:
    """One run's results directory and its checked record."""
    run_id: str
    directory: Path
    record: dict
    junit: Path
    cucumber: Path | None
    machines: Path | None
    evidence: Path | None = None   # the folder of the failing scenarios' evidence files

    @property
    def targets(self) -> list[str]:
        return list(self.record["targets"])


def find_runs(arguments: list[str | Path], suite_version: str | None) -> tuple[list[Run], list[InputError]]:
    """The runs among the arguments (in the order given), and one error per input left out.

    `suite_version`: runs made by another version of the suite are left out; None keeps every version.
    """
    runs: list[Run] = []
    errors: list[InputError] = []
    seen: dict[str, Path] = {}
    for argument in arguments:
        for directory in _run_directories(Path(argument), errors):
            try:
                run = read_run(directory, suite_version)
            except InputError as error:
                errors.append(error)
                continue
            if run.run_id in seen:
                errors.append(InputError(directory / "run.json", f"run {run.run_id} is already read from "
                                                                  f"{seen[run.run_id]}; left out"))
                continue
            seen[run.run_id] = directory
            runs.append(run)
    return runs, errors


def _run_directories(path: Path, errors: list[InputError]) -> list[Path]:
    if not path.exists():
        errors.append(InputError(path, "no such directory"))
        return []
    if not path.is_dir():
        errors.append(InputError(path, "not a directory; give a run's results directory or a folder of them"))
        return []
    if any((path / name).exists() for name in RESULT_FILES):
        return [path]
    if strength_results(path):   # `mqspec strength`'s results, not a run: find_strength lists them
        return []
    children = sorted(child for child in path.iterdir()
                      if child.is_dir() and any((child / name).exists() for name in RESULT_FILES))
    if not children and not any(strength_results(child) for child in path.iterdir() if child.is_dir()):
        errors.append(InputError(path, "empty directory: no run.json, junit.xml, cucumber.json or strength.json "
                                       "here or one level down"))
    return children


def read_json(path: Path):
    """The JSON document in `path`, or InputError saying in one line why it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputError(path, "not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise InputError(path, f"cut short or not JSON ({error.msg} at line {error.lineno} column {error.colno})") \
            from None
    except OSError as error:
        raise InputError(path, f"cannot be read ({error.strerror or error})") from None


def read_run(directory: Path, suite_version: str | None) -> Run:
    """The run in `directory`, or InputError naming the file that rules it out."""
    path = directory / "run.json"
    if not path.is_file():
        raise InputError(path, "missing: the run did not finish (junit.xml without its run record)")
    record = read_json(path)
    check_record(path, record)
    if suite_version is not None and record["suite_version"] != suite_version:
        raise InputError(path, f"made by suite version {record['suite_version']}, not this suite's {suite_version}; "
                               "left out (--any-suite-version reports it)")
    junit = directory / "junit.xml"
    if not junit.is_file():
        raise InputError(junit, "missing: the run has no results")
    cucumber = directory / "cucumber.json"
    machines = directory / "machines.ndjson"
    evidence = directory / "evidence"
    return Run(record["run_id"], directory, record, junit, cucumber if cucumber.is_file() else None,
               machines if machines.is_file() else None, evidence if evidence.is_dir() else None)


def check_record(path: Path, record) -> None:
    """What every run record holds; InputError names the first thing missing or of the wrong kind."""
    if not isinstance(record, dict):
        raise InputError(path, "not a run record (a JSON object)")
    for key, kind in (("run_id", str), ("suite_version", str), ("started", str), ("targets", list)):
        if not isinstance(record.get(key), kind) or not record[key]:
            raise InputError(path, f"not a run record of this suite: {key!r} is missing or empty")
    if not all(isinstance(target, str) and target for target in record["targets"]):
        raise InputError(path, "targets must be a list of target URLs")
    for key, kind in (("spec_revisions", dict), ("waived_clauses", dict), ("skipped_levels", list),
                      ("profile", dict)):
        if key in record and not isinstance(record[key], kind):
            raise InputError(path, f"{key!r} must be a JSON {'object' if kind is dict else 'list'}")
