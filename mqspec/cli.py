"""The `mqspec` command line.

    mqspec certify [--target URL ...] [--results DIR] [--clause ID ...]
                   [--waivers FILE] [--skip-level LEVEL ...] [--deep]
    mqspec clauses [--untested]

`certify` runs the conformance suite (every scenario of features/ and the
stateful machines) against each target and tells where the results are.  Errors
in what the user typed are one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mqspec", description="MSMQ conformance suite")
    parser.add_argument("--version", action="version", version=f"mqspec {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    certify = commands.add_parser("certify", help="run the conformance suite against targets")
    certify.add_argument("--target", action="append", default=[], metavar="URL",
                         help="queue manager to certify (repeatable; default: reference)")
    certify.add_argument("--results", metavar="DIR", help="results directory (default: results/<run id>)")
    certify.add_argument("--clause", action="append", default=[], metavar="ID", help="only this clause")
    certify.add_argument("--waivers", metavar="FILE", help="TOML file of waived clauses and skipped levels")
    certify.add_argument("--skip-level", action="append", default=[], metavar="LEVEL")
    certify.add_argument("--deep", action="store_true", help="stateful machines explore far more")
    clauses = commands.add_parser("clauses", help="summarise the clause catalogue")
    clauses.add_argument("--untested", action="store_true", help="list testable clauses no scenario checks")
    args = parser.parse_args(argv)
    try:
        if args.command == "certify":
            return _certify(args)
        return _clauses(args)
    except UsageError as error:
        print(f"mqspec: {error}", file=sys.stderr)
        return 2


class UsageError(Exception):
    pass


def _certify(args) -> int:
    from adapters import TargetError, connect
    targets = args.target or ["reference"]
    for url in targets:
        try:
            connect(url).close()
        except TargetError as error:
            raise UsageError(str(error)) from None
    if args.waivers and not Path(args.waivers).is_file():
        raise UsageError(f"--waivers {args.waivers}: no such file")
    for level in args.skip_level:
        if level.upper() not in ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "MAY"):
            raise UsageError(f"--skip-level {level!r}: use MUST, SHOULD, MAY, ...")
    import pytest
    pytest_args = [str(ROOT / "features"), "-p", "no:cacheprovider", "-q"]
    for url in targets:
        pytest_args += ["--target", url]
    for clause in args.clause:
        pytest_args += ["--clause", clause]
    for level in args.skip_level:
        pytest_args += ["--skip-level", level]
    if args.waivers:
        pytest_args += ["--waivers", args.waivers]
    results = Path(args.results) if args.results else ROOT / "results" / _run_name()
    pytest_args += ["--results", str(results)]
    if args.deep:
        pytest_args.append("--deep")
    status = pytest.main(pytest_args)
    if status == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("mqspec: no scenario matched the selection; nothing was certified", file=sys.stderr)
        return 1
    record_path = results / "run.json"
    if not record_path.is_file():
        print(f"mqspec: the run did not complete (pytest status {int(status)})", file=sys.stderr)
        return 1
    record = json.loads(record_path.read_text(encoding="utf-8"))
    verdict = "conformant" if status == 0 else "NOT conformant"
    print(f"mqspec: run {record['run_id']} on {', '.join(record['targets'])}: {verdict}; results in {results}")
    return 0 if status == 0 else 1


def _run_name() -> str:
    import datetime
    import uuid
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ") + "-" + uuid.uuid4().hex[:6]


def _clauses(args) -> int:
    from .catalogue import CatalogueError, load_catalogue
    from .coverage import scenario_clauses
    try:
        catalogue = load_catalogue()
    except CatalogueError as error:
        raise UsageError(str(error)) from None
    covered = set(scenario_clauses())
    testable = catalogue.testable()
    done = [clause for clause in testable if clause.id in covered]
    print(f"{len(catalogue.clauses)} clauses, {len(testable)} testable, {len(done)} covered by scenarios, "
          f"{len(catalogue.decisions)} decisions")
    if args.untested:
        for clause in testable:
            if clause.id not in covered:
                print(f"  {clause.id}  {clause.level:<8} {clause.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
