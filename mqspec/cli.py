"""The `mqspec` command line.

    mqspec certify [--target URL ...] [--client COMMAND ...] [--judge URL] [--results DIR]
                   [--clause ID ...] [--waivers FILE]
                   [--skip-level LEVEL ...] [--profile P] [--deep] [--tracebacks] [--no-report]
                   [--master URL]
    mqspec report RESULTS... [--output DIR] [--master URL] [--baseline RUN_ID] [--any-suite-version]
    mqspec gate --baseline FILE [CURRENT] [--master URL]
    mqspec clauses [--untested] [--untestable]
    mqspec serve [--host H] [--port P] [--store PATH] [--target URL] [--allow-remote]
    mqspec strength [--jobs N] [--variant NAME ...] [--results DIR] [--quick] [--list]
                    [--mutants [--sample N] [--seed S]]

`certify` runs the conformance suite (every scenario of features/ and the
stateful machines) against each target with a progress display, writes pytest's
own output (tracebacks included) to <results>/pytest.log, then runs the report
pipeline (reports/) over the run and ends with the verdicts in clauses: how many
passed, failed, were not run or waived, each failing clause with the first line
of its failure, and where the report is.  `report` runs the pipeline alone over
any number of results directories; `gate` compares a report or certification
record with a baseline.  Errors in what the user typed are one line on stderr
and exit status 2; a report made without some of its inputs exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import __version__
from .identity import target_identity
from .parts import part

TEST_TIMEOUT = 600   # seconds a scenario may take: one that hangs fails instead of stalling the run


def main(argv: list[str] | None = None) -> int:
    from mqspec.adapters import TARGET_HELP

    from .pytest_plugin import WAIVER_HELP
    parser = argparse.ArgumentParser(prog="mqspec", description="MSMQ conformance suite")
    parser.add_argument("--version", action=VersionAction, help="print the version and the suite's version hash")
    commands = parser.add_subparsers(dest="command", required=True)
    certify = commands.add_parser("certify", help="run the conformance suite against targets",
                                  description="Run every scenario and stateful machine against each target.",
                                  epilog=TARGET_HELP + "\n\n" + WAIVER_HELP,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    certify.add_argument("--target", action="append", default=[], metavar="URL",
                         help="queue manager to certify (repeatable; default: reference, unless --client is given)")
    certify.add_argument("--client", action="append", default=[], metavar="COMMAND",
                         help="MS-MQRR client to certify: the command that starts its shim (repeatable; "
                              "docs/client-shim.md)")
    certify.add_argument("--judge", metavar="URL",
                         help="judging server for --client: the mqrr://host:port of `mqspec serve --judge` "
                              "(default: one served in this process on loopback)")
    certify.add_argument("--results", metavar="DIR", help="results directory (default: ./results/<run id>)")
    certify.add_argument("--clause", action="append", default=[], metavar="ID", help="only this clause")
    certify.add_argument("--waivers", metavar="FILE", help="TOML file of waived clauses and skipped levels")
    certify.add_argument("--skip-level", action="append", default=[], metavar="LEVEL")
    certify.add_argument("--profile", metavar="P",
                         help="demand readings of open decisions: windows, reference, or D-NN=reading,...")
    certify.add_argument("--deep", action="store_true", help="stateful machines explore far more")
    certify.add_argument("--tracebacks", action="store_true",
                         help="show pytest's own output, tracebacks included (otherwise in <results>/pytest.log)")
    certify.add_argument("--no-report", action="store_true",
                         help="run the suite only; `mqspec report <results>` makes the report later")
    certify.add_argument("--master", default="local[*]", metavar="URL",
                         help="Spark master for the report (default local[*]; or spark://HOST:PORT)")
    report = commands.add_parser("report", help="make the report of one or more runs (Spark)",
                                 description="Read results directories (or folders of them), compute the verdict "
                                             "of every clause for every target and run, and write report.html, "
                                             "summary.json, summary.md, clauses.junit.xml and a certification "
                                             "record per target.  An input that cannot be used is named in one "
                                             "line and the others are still reported (exit status 1).")
    report.add_argument("results", nargs="+", metavar="RESULTS",
                        help="a run's results directory, or a folder of them such as ./results; a `mqspec "
                             "strength` results directory adds the strength page")
    report.add_argument("--output", metavar="DIR",
                        help="where to write the report (default: <RESULTS>/report for one run, else ./mqspec-report)")
    report.add_argument("--master", default="local[*]", metavar="URL",
                        help="Spark master (default local[*]; or spark://HOST:PORT)")
    report.add_argument("--baseline", metavar="RUN_ID",
                        help="the run that regressions and fixes are counted against (default: each target's "
                             "run before its latest)")
    report.add_argument("--any-suite-version", action="store_true",
                        help="also report runs made by other versions of the suite (default: only this one's)")
    gate = commands.add_parser("gate", help="fail on a regression or an uncovered MUST clause",
                               description="Compare the current verdicts with a baseline: exit 1 if a clause that "
                                           "passed now fails, or a testable MUST clause was exercised by no target "
                                           "(waived ones excepted), naming each in one line.")
    gate.add_argument("--baseline", required=True, metavar="FILE",
                      help="a certification record (certification-<target>.json) or a report's summary.json")
    gate.add_argument("current", nargs="?", metavar="CURRENT",
                      help="a summary.json, certification record, report directory or results directory "
                           "(default: the newest ./results/*/report)")
    gate.add_argument("--master", default="local[*]", metavar="URL", help="Spark master (default local[*])")
    clauses = commands.add_parser("clauses", help="summarise the clause catalogue")
    clauses.add_argument("--untested", action="store_true", help="list testable clauses no scenario checks")
    clauses.add_argument("--untestable", action="store_true",
                         help="list the clauses no scenario can check, each with the reason")
    serve = commands.add_parser("serve", help="serve the reference queue manager over MS-MQRR (DCE/RPC)",
                                description="Serve an in-process queue manager over MS-MQRR (ncacn_ip_tcp) and the "
                                            "mqspec control interface, on one port, and MS-MQQB sessions on a "
                                            "second, until interrupted.  Its clock follows the wall clock, so a "
                                            "real peer's timers fire on time; the suite's reset holds it.")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=2103,
                       help="port (default 2103, MS-MQRR's; if busy, 11 higher is tried, and so on; 0: any free port)")
    serve.add_argument("--store", metavar="PATH", help="SQLite store of the reference (default: in memory)")
    serve.add_argument("--target", metavar="URL", help="the in-process target to serve (default: reference)")
    serve.add_argument("--allow-remote", action="store_true",
                       help="allow an address other than loopback (needs --users: no unauthenticated server off "
                            "loopback)")
    serve.add_argument("--users", metavar="FILE",
                       help="accounts that may authenticate (NTLM, SPNEGO): one a line, name:password or "
                            "name::NTHASH (32 hex digits); # starts a comment")
    serve.add_argument("--auth-level", default=None, choices=("none", "connect", "integrity", "privacy"),
                       help="the lowest authentication level a call may come at (default: none, or connect with "
                            "--users); calls below it are refused with access denied (5)")
    serve.add_argument("--workgroup-policy", action="store_true",
                       help="MS-MQRR 3.1.4.2's fWorkgroup rule as Windows takes it (D-82): a client that says it is "
                            "in a domain must open queues at packet privacy, one in a workgroup at any level")
    serve.add_argument("--judge", action="store_true",
                       help="be the judging server of client certification: record every RemoteRead call and "
                            "answer the faults `mqspec certify --client ... --judge URL` asks for "
                            "(docs/client-shim.md)")
    serve.add_argument("--idle-timeout", type=float, default=300.0, metavar="SECONDS",
                       help="close a connection idle this long whose association owns no context handle "
                            "(default 300)")
    serve.add_argument("--as-windows", action="store_true",
                       help="offer only what a Windows host offers (needs --users): no control interface, MS-MQQB "
                            "on a port of its own, packet privacy required, the queues of `mqspec windows-setup` "
                            "made at start; prints the msmq:// URL that certifies it")
    serve.add_argument("--mqqb-port", type=int, default=0, metavar="PORT",
                       help="the MS-MQQB port (default 0: any free port; a Windows host's is 1801)")
    setup = commands.add_parser("windows-setup", help="print the PowerShell script that makes the suite's queues on "
                                                      "a Windows host (README: Certifying Windows MSMQ)")
    setup.add_argument("--remove", action="store_true", help="print the script that removes them")
    setup.add_argument("--output", metavar="FILE", help="write it to FILE (default: standard output)")
    from mqspec.strength.command import DESCRIPTION as STRENGTH_DESCRIPTION, add_arguments as strength_arguments
    strength_arguments(commands.add_parser("strength", help="run the suite against wrong queue managers (issue 9)",
                                           description=STRENGTH_DESCRIPTION,
                                           formatter_class=argparse.RawDescriptionHelpFormatter))
    args = parser.parse_args(argv)
    try:
        if args.command == "certify":
            return _certify(args)
        if args.command == "serve":
            return _serve(args)
        if args.command == "strength":
            from mqspec.strength.command import strength_command
            return strength_command(args)
        if args.command == "report":
            return _report(args)
        if args.command == "gate":
            return _gate(args)
        if args.command == "windows-setup":
            return _windows_setup(args)
        return _clauses(args)
    except UsageError as error:
        print(f"mqspec: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mqspec: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:   # the reader went away (mqspec clauses | head): nothing more to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


class UsageError(Exception):
    pass


class VersionAction(argparse.Action):
    """--version: the package's version and the suite's version hash (run.json's suite_version), computed only
    when asked for."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from .pytest_plugin import suite_version
        print(f"mqspec {__version__} (suite {suite_version()})")
        parser.exit()


def suite_arguments() -> list[str]:
    """pytest's arguments for the suite alone, the same from a checkout and from an installed wheel: the features
    folder, the suite's plugin, and none of the configuration of the directory the user runs in (their own
    pytest.ini or pyproject.toml); node ids are relative to the folder that holds features/."""
    features = part("features")
    return [str(features), "-p", "mqspec.pytest_plugin", "-c", os.devnull, "--rootdir", str(features.parent),
            "--confcutdir", str(features.parent), "-o", f"timeout={TEST_TIMEOUT}"]


def _certify(args) -> int:
    from mqspec.adapters import TargetError, connect
    targets = args.target or ([] if args.client else ["reference"])
    for url in targets:
        try:
            connect(url).close()
        except TargetError as error:
            raise UsageError(str(error)) from None
    if args.judge and not args.client:
        raise UsageError("--judge: it judges clients; name the client to certify with --client COMMAND")
    for command in args.client:
        _check_client(command)
    if args.judge:
        from mqspec.adapters.judge import open_judge
        try:
            open_judge(args.judge).close()
        except TargetError as error:
            raise UsageError(str(error)) from None
    from .catalogue import CatalogueError, load_catalogue
    from .pytest_plugin import (
        SelectionError,
        check_clauses,
        load_profile,
        load_waivers,
        make_results_directory,
        new_run_id,
    )
    run_id = new_run_id()
    results = Path(args.results) if args.results else Path.cwd() / "results" / run_id
    try:
        catalogue = load_catalogue()
        check_clauses(args.clause, catalogue)
        load_waivers(args.waivers, args.skip_level, catalogue)
        load_profile(args.profile, catalogue)
        no_java = None if args.no_report else _check_spark(args.master)
        make_results_directory(results)
    except (CatalogueError, SelectionError) as error:
        raise UsageError(str(error)) from None
    import pytest
    pytest_args = suite_arguments() + ["-p", "no:cacheprovider", "-q"]
    for url in targets:
        pytest_args += ["--target", url]
    for command in args.client:
        pytest_args += ["--client", command]
    if args.judge:
        pytest_args += ["--judge", args.judge]
    for clause in args.clause:
        pytest_args += ["--clause", clause]
    for level in args.skip_level:
        pytest_args += ["--skip-level", level]
    if args.waivers:
        pytest_args += ["--waivers", args.waivers]
    if args.profile:
        pytest_args += ["--profile", args.profile]
    pytest_args += ["--results", str(results), "--run-id", run_id]
    if args.deep:
        pytest_args.append("--deep")
    log = results / "pytest.log"
    from hypothesis.configuration import set_hypothesis_home_dir
    # the machines' example database (failing examples are replayed first next time) beside the runs, not in the
    # directory the user runs in
    set_hypothesis_home_dir(results.parent / ".hypothesis")
    shown = ", ".join([target_identity(url) for url in targets] + [f"the client `{c}`" for c in args.client])
    status = _run_pytest(pytest_args, log, args.tracebacks, f"certifying {shown}")
    if status == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("mqspec: no scenario matched the selection; nothing was certified", file=sys.stderr)
        return 1
    record_path = results / "run.json"
    if not record_path.is_file():
        print(f"mqspec: the run did not complete (pytest status {int(status)}): {_last_error(log)}",
              file=sys.stderr)
        return 1
    record = json.loads(record_path.read_text(encoding="utf-8"))
    where = f"results in {results}"
    from mqspec.reports.errors import ReportError
    from mqspec.reports.summary import summary_lines
    if args.no_report or no_java:
        return _verdicts_without_report(results, record, status, catalogue, log, args.tracebacks, no_java)
    from mqspec.reports.pipeline import make_report
    try:
        report = make_report([results], results / "report", master=args.master, any_suite_version=True)
    except ReportError as error:
        print(f"mqspec: the report could not be made: {error}", file=sys.stderr)
        _verdicts_without_report(results, record, status, catalogue, log, args.tracebacks, None)
        return 1
    failed = any(counts["failed"] for counts in report.model["counts"].values())
    conformant = status == 0 and not failed
    verdict = "conformant" if conformant else "NOT conformant"
    print(f"mqspec: run {record['run_id']} on {', '.join(report.model['targets'])}: {verdict}; {where}")
    for line in summary_lines(report.model):
        print("  " + line)
    for error in report.errors:
        print(f"  input left out: {error}")
    print(f"  report: {report.files['html']}")
    if not args.tracebacks:
        print(f"  pytest's output, tracebacks included: {log}")
    return 0 if conformant else 1


def _check_client(command: str) -> None:
    """A shim command that can be split as a shell would and names a program that exists (UsageError otherwise);
    whether it speaks the shim protocol shows in the first scenario."""
    import shutil

    from mqspec.adapters.shim import ShimError, shim_argv
    try:
        program = shim_argv(command)[0]
    except ShimError as error:
        raise UsageError(str(error)) from None
    found = shutil.which(program) if os.sep not in program else (program if os.access(program, os.X_OK) else None)
    if found is None:
        raise UsageError(f"--client {command!r}: no program {program!r} "
                         + ("on PATH" if os.sep not in program else "that can be run"))


def _check_spark(master: str) -> str | None:
    """The --master URL (a UsageError when it is wrong) and Java, checked before any work starts: what is wrong
    with Java, or None.  A certify run without Java still gives its verdicts, only not the report."""
    from mqspec.reports.errors import ReportError
    from mqspec.reports.session import check_master, java_command
    try:
        check_master(master)
    except ReportError as error:
        raise UsageError(str(error)) from None
    try:
        java_command()
    except ReportError as error:
        return str(error)
    return None


def _verdicts_without_report(results: Path, record: dict, status: int, catalogue, log: Path, tracebacks: bool,
                             no_java: str | None) -> int:
    """The clause verdicts of the run, computed without Spark (reports/tally.py), and why there is no report."""
    from mqspec.reports.errors import InputError
    from mqspec.reports.summary import summary_lines
    from mqspec.reports.tally import tally
    try:
        model = tally(results, catalogue)
    except InputError as error:
        print(f"mqspec: the verdicts could not be read: {error}", file=sys.stderr)
        return 1
    conformant = status == 0 and not any(counts["failed"] for counts in model["counts"].values())
    print(f"mqspec: run {record['run_id']} on {', '.join(model['targets'])}: "
          f"{'conformant' if conformant else 'NOT conformant'}; results in {results}")
    for line in summary_lines(model):
        print("  " + line)
    if no_java:
        print(f"  no report: {no_java}; `mqspec report {results}` makes it later")
    if not tracebacks:
        print(f"  pytest's output, tracebacks included: {log}")
    return 0 if conformant else 1


def _run_pytest(pytest_args: list[str], log: Path, show: bool, what: str) -> int:
    """pytest.main with a progress display; pytest's own output goes to `log` unless `show`."""
    import pytest
    if show:
        return pytest.main(pytest_args)
    from contextlib import redirect_stderr, redirect_stdout

    from mqspec.reports.progress import Progress
    terminal = os.fdopen(os.dup(2), "w", buffering=1)   # the real stderr, whatever pytest captures

    class CertifyProgress:
        """Counts each test once: at its call, or at a setup that failed or skipped it."""

        def __init__(self):
            self.progress = None
            self.counts = {"passed": 0, "failed": 0, "not run": 0}

        def pytest_collection_finish(self, session):
            print(f"mqspec: {what}: {len(session.items)} scenarios and machines", file=terminal)
            self.progress = Progress("certify", len(session.items), terminal)

        def pytest_runtest_logreport(self, report):
            if self.progress is None or not (report.when == "call" or (report.when == "setup" and not report.passed)):
                return
            outcome = "passed" if report.passed else "not run" if report.skipped else "failed"
            self.counts[outcome] += 1
            self.progress.advance(", ".join(f"{n} {name}" for name, n in self.counts.items()))

        def pytest_sessionfinish(self, session):
            if self.progress is not None:
                self.progress.finish(", ".join(f"{n} {name}" for name, n in self.counts.items()))

    try:
        with open(log, "w", encoding="utf-8") as output, redirect_stdout(output), redirect_stderr(output):
            return pytest.main(pytest_args, plugins=[CertifyProgress()])
    finally:
        terminal.close()


def _last_error(log: Path) -> str:
    """The line of pytest's log that says what stopped it."""
    try:
        lines = [line.strip() for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError:
        return f"see {log}"
    errors = [line for line in lines if line.startswith(("ERROR", "INTERNALERROR"))]
    return (errors[-1] if errors else lines[-1] if lines else "no output") + f" (see {log})"


def _report(args) -> int:
    from mqspec.reports.errors import ReportError
    from mqspec.reports.inputs import strength_results
    from mqspec.reports.pipeline import NothingToReport, make_report
    from mqspec.reports.summary import summary_lines
    no_java = _check_spark(args.master)
    if no_java:
        raise UsageError(no_java)
    if args.output:
        output = Path(args.output)
    elif len(args.results) == 1 and ((Path(args.results[0]) / "run.json").is_file()
                                     or strength_results(Path(args.results[0]))):
        output = Path(args.results[0]) / "report"
    else:
        output = Path.cwd() / "mqspec-report"
    try:
        report = make_report(args.results, output, master=args.master, any_suite_version=args.any_suite_version,
                             baseline_run=args.baseline)
    except NothingToReport as error:
        for problem in error.errors:
            print(f"mqspec: {problem}", file=sys.stderr)
        raise UsageError(str(error)) from None
    except ReportError as error:
        raise UsageError(str(error)) from None
    for problem in report.errors:
        print(f"mqspec: {problem}", file=sys.stderr)
    runs = len(report.model["runs"])
    print(f"mqspec: {runs} run(s) reported" + (" with the suite's strength" if report.model["strength"] else "")
          + (f", {len(report.errors)} input(s) left out or in part" if report.errors else ""))
    for line in summary_lines(report.model):
        print("  " + line)
    print(f"  report: {report.files['html']}")
    return 1 if report.errors else 0


def _gate(args) -> int:
    import shutil
    import tempfile

    from mqspec.reports.errors import ReportError
    from mqspec.reports.gate import evaluate, gate_lines, newest_report, read_verdicts
    from mqspec.reports.session import start_session
    scratch = Path(tempfile.mkdtemp(prefix="mqspec-gate-"))
    try:
        baseline = read_verdicts(Path(args.baseline), "--baseline")
        current = read_verdicts(Path(args.current) if args.current else newest_report(Path.cwd() / "results"),
                                "current")
        spark, _ = start_session(args.master, scratch / "spark.log", app="mqspec-gate", shuffle_partitions=1,
                                 quick_jvm=True)
        try:
            result = evaluate(spark, baseline, current)
        finally:
            spark.stop()
    except ReportError as error:
        raise UsageError(str(error)) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for line in gate_lines(result):
        print(f"mqspec: {line}")
    if result.passed:
        print(f"mqspec: gate passed: {current.source} against {baseline.source}: no regression in "
              f"{result.compared} verdicts compared, every testable MUST clause exercised")
        return 0
    print(f"mqspec: gate FAILED: {len(result.regressions)} regression(s), {len(result.uncovered)} uncovered MUST "
          f"clause(s); {current.source} against {baseline.source}")
    return 1


def _serve(args) -> int:
    import ipaddress

    from mqspec.adapters import TargetError, connect
    from mqspec.adapters.serve import serve
    if args.store and args.target:
        raise UsageError("--store and --target: give the store in the target URL (reference?store=PATH)")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: use 0 to 65535")
    try:
        loopback = ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        loopback = args.host == "localhost"
    if not loopback and not args.allow_remote:
        raise UsageError(f"--host {args.host} is not a loopback address: add --allow-remote and --users if you "
                         "mean it")
    if args.allow_remote and not args.users:
        raise UsageError("--allow-remote needs --users: no unauthenticated server off loopback")
    if args.auth_level not in (None, "none") and not args.users:
        raise UsageError(f"--auth-level {args.auth_level} needs --users (the accounts to authenticate)")
    if args.idle_timeout <= 0:
        raise UsageError(f"--idle-timeout {args.idle_timeout:g}: give a number of seconds above 0")
    users = None
    if args.users:
        from mqspec.adapters.wire.dcerpc_auth import Users
        try:
            users = Users.from_file(args.users)
        except OSError as error:
            raise UsageError(f"--users {args.users}: cannot read it ({error.strerror or error})") from None
        except (ValueError, UnicodeDecodeError) as error:
            raise UsageError(f"--users {error}") from None
    if args.as_windows:
        _check_as_windows(args, users)
    level = {"none": 1, "connect": 2, "integrity": 5, "privacy": 6}[args.auth_level or ("privacy" if args.as_windows
                                                                                       else "connect" if users else
                                                                                       "none")]
    url = args.target or ("reference?store=" + args.store if args.store else "reference")
    if "seed=" not in url:   # handles and cursor numbers nobody can foresee, unless a seed is asked for
        url += ("&" if "?" in url else "?") + "seed=random"
    if args.workgroup_policy:
        url += "&workgroup_policy=1"
    try:
        target = connect(url)
    except TargetError as error:
        raise UsageError(str(error)) from None
    if not hasattr(target, "rundown"):
        target.close()
        raise UsageError(f"--target {url}: only an in-process target can be served")
    try:
        served = serve(target, args.host, args.port, log=lambda line: print(f"mqspec: {line}", file=sys.stderr,
                                                                            flush=True),
                       users=users, auth_level=level, idle_timeout=args.idle_timeout, judge=args.judge,
                       with_control=not args.as_windows, mqqb_options={"port": args.mqqb_port})
    except OSError as error:
        target.close()
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    if args.as_windows:   # made once the clock runs (a clock held while they are made would lag the wall clock)
        from .windows_setup import make_on
        made = make_on(target, list(users.accounts))
    lowest = {1: "none", 2: "connect", 5: "integrity", 6: "privacy"}[level]
    how = f"{len(users.accounts)} account(s), calls at {lowest} or above" if users else "no authentication"
    what = "judging clients with" if args.judge else "serving"
    mqqb = f", MS-MQQB sessions on {args.host}:{served.mqqb.port}" if served.mqqb is not None else ""
    print(f"mqspec: {what} {url} over MS-MQRR on {args.host}:{served.port}, {how}{mqqb}, in real time "
          "(Ctrl-C stops)", file=sys.stderr, flush=True)
    if args.as_windows:
        accounts = list(users.accounts)
        second = f"&second_user={accounts[1]}" if len(accounts) > 1 else ""
        print(f"mqspec: as a Windows host ({made} queues of mqspec windows-setup, no control interface); certify "
              f"it with msmq://{args.host}:{served.port}?user={accounts[0]}{second}&mqqb_port={served.mqqb.port}"
              f"&computer={target.computer_name} (add password= and second_password=)", file=sys.stderr, flush=True)
    try:
        served.server.serve_forever()   # until Ctrl-C (SIGINT) or SIGTERM
    finally:
        served.stop()
        target.close()
    print("mqspec: stopped", file=sys.stderr)
    return 0


def _check_as_windows(args, users) -> None:
    if users is None:
        raise UsageError("--as-windows needs --users: a Windows host authenticates every call")
    if args.auth_level not in (None, "privacy"):
        raise UsageError(f"--as-windows --auth-level {args.auth_level}: a Windows host asks for packet privacy")
    if args.judge or args.store or args.target:
        raise UsageError("--as-windows serves a fresh reference: leave out --judge, --store and --target")
    if not 0 <= args.mqqb_port <= 65535:
        raise UsageError(f"--mqqb-port {args.mqqb_port}: use 0 to 65535")


def _windows_setup(args) -> int:
    from .windows_setup import script, write
    try:
        write(args.output, script(remove=args.remove))
    except OSError as error:
        raise UsageError(f"--output {args.output}: cannot write it ({error.strerror or error})") from None
    return 0


def _clauses(args) -> int:
    from .catalogue import SIDES, CatalogueError, load_catalogue
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
    for side in SIDES:
        mine = [clause for clause in catalogue.clauses.values() if clause.side == side]
        print(f"  {side}: {len(mine)} clauses, {sum(clause.testable for clause in mine)} testable, "
              f"{sum(clause.id in covered for clause in mine if clause.testable)} covered, "
              f"{sum(not clause.testable for clause in mine)} untestable")
    if args.untestable:
        for clause in catalogue.clauses.values():
            if not clause.testable:
                print(f"  {clause.id}  {clause.side:<6} {clause.level:<8} {clause.reason}")
    if args.untested:
        for clause in testable:
            if clause.id not in covered:
                print(f"  {clause.id}  {clause.level:<8} {clause.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
