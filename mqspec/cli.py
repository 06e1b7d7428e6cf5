"""The `mqspec` command line.

    mqspec certify [--target URL ...] [--results DIR] [--clause ID ...]
                   [--waivers FILE] [--skip-level LEVEL ...] [--deep]
    mqspec clauses [--untested]
    mqspec serve [--host H] [--port P] [--store PATH] [--target URL] [--allow-remote]

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
    from adapters import TARGET_HELP

    from .pytest_plugin import WAIVER_HELP
    parser = argparse.ArgumentParser(prog="mqspec", description="MSMQ conformance suite")
    parser.add_argument("--version", action="version", version=f"mqspec {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    certify = commands.add_parser("certify", help="run the conformance suite against targets",
                                  description="Run every scenario and stateful machine against each target.",
                                  epilog=TARGET_HELP + "\n\n" + WAIVER_HELP,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    certify.add_argument("--target", action="append", default=[], metavar="URL",
                         help="queue manager to certify (repeatable; default: reference)")
    certify.add_argument("--results", metavar="DIR", help="results directory (default: ./results/<run id>)")
    certify.add_argument("--clause", action="append", default=[], metavar="ID", help="only this clause")
    certify.add_argument("--waivers", metavar="FILE", help="TOML file of waived clauses and skipped levels")
    certify.add_argument("--skip-level", action="append", default=[], metavar="LEVEL")
    certify.add_argument("--deep", action="store_true", help="stateful machines explore far more")
    clauses = commands.add_parser("clauses", help="summarise the clause catalogue")
    clauses.add_argument("--untested", action="store_true", help="list testable clauses no scenario checks")
    serve = commands.add_parser("serve", help="serve the reference queue manager over MS-MQRR (DCE/RPC)",
                                description="Serve an in-process queue manager over MS-MQRR (ncacn_ip_tcp) and the "
                                            "mqspec control interface, on one port, until interrupted.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=2103,
                       help="port (default 2103, MS-MQRR's; if busy, 11 higher is tried, and so on; 0: any free port)")
    serve.add_argument("--store", metavar="PATH", help="SQLite store of the reference (default: in memory)")
    serve.add_argument("--target", metavar="URL", help="the in-process target to serve (default: reference)")
    serve.add_argument("--allow-remote", action="store_true",
                       help="allow an address other than loopback (the server has no authentication)")
    args = parser.parse_args(argv)
    try:
        if args.command == "certify":
            return _certify(args)
        if args.command == "serve":
            return _serve(args)
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
    from .catalogue import CatalogueError, load_catalogue
    from .pytest_plugin import SelectionError, check_clauses, load_waivers, make_results_directory, new_run_id
    run_id = new_run_id()
    results = Path(args.results) if args.results else Path.cwd() / "results" / run_id
    try:
        catalogue = load_catalogue()
        check_clauses(args.clause, catalogue)
        load_waivers(args.waivers, args.skip_level, catalogue)
        make_results_directory(results)
    except (CatalogueError, SelectionError) as error:
        raise UsageError(str(error)) from None
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
    pytest_args += ["--results", str(results), "--run-id", run_id]
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


def _serve(args) -> int:
    import ipaddress

    from adapters import TargetError, connect
    from adapters.mqrr.serve import serve
    if args.store and args.target:
        raise UsageError("--store and --target: give the store in the target URL (reference?store=PATH)")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: use 0 to 65535")
    try:
        loopback = ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        loopback = args.host == "localhost"
    if not loopback and not args.allow_remote:
        raise UsageError(f"--host {args.host} is not a loopback address; the server has no authentication, "
                         "so add --allow-remote if you mean it")
    url = args.target or ("reference?store=" + args.store if args.store else "reference")
    try:
        target = connect(url)
    except TargetError as error:
        raise UsageError(str(error)) from None
    if not hasattr(target, "rundown"):
        target.close()
        raise UsageError(f"--target {url}: only an in-process target can be served")
    if not loopback:
        print(f"mqspec: WARNING: serving on {args.host} without authentication: anyone who can reach it can "
              "read and purge its queues", file=sys.stderr)
    try:
        served = serve(target, args.host, args.port, log=lambda line: print(f"mqspec: {line}", file=sys.stderr,
                                                                            flush=True))
    except OSError as error:
        target.close()
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    print(f"mqspec: serving {url} over MS-MQRR on {args.host}:{served.port} (Ctrl-C stops)", file=sys.stderr,
          flush=True)
    try:
        served.server.serve_forever()
    except KeyboardInterrupt:
        pass  # Ctrl-C is how the user stops the server; stop() below finishes the job
    finally:
        served.stop()
        target.close()
    print("mqspec: stopped", file=sys.stderr)
    return 0


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
