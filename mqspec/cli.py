"""The `mqspec` command line.

    mqspec certify [--target URL ...] [--client COMMAND ...] [--judge URL] [--results DIR]
                   [--clause ID|SECTION ...] [-k EXPR] [--last-failed] [--workers N] [--waivers FILE]
                   [--skip-level LEVEL ...] [--profile P] [--deep] [--tracebacks] [--no-report]
                   [--master URL]
    mqspec report RESULTS... [--output DIR] [--master URL] [--baseline RUN_ID] [--any-suite-version]
    mqspec gate --baseline FILE [CURRENT]
    mqspec clauses [--list] [--untested] [--untestable] [CLAUSE|SECTION ...]
    mqspec shim mqrr|independent|wrong [ARGS]     (a shipped client shim, for --client)
    mqspec docs shim|control|certified
    mqspec serve [--host H] [--port P] [--store PATH] [--target URL] [--allow-remote]
                 [--users FILE [--operators NAMES]] [--log-level debug|info|warning | --quiet]
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
and exit status 2; a report made without some of its inputs exits 1; a shim that
fails its greeting before the run is one line and exits 1; Ctrl-C at any stage is
"interrupted", exit status 130, with no process left behind (mqspec/interrupts.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import __version__, interrupts
from .authors import DOCS, SHIMS, ShimCheckError, run_shim
from .identity import target_identity
from .parts import part

TEST_TIMEOUT = 600   # seconds a scenario may take: one that hangs fails instead of stalling the run


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if len(arguments) >= 2 and arguments[0] == "shim" and arguments[1] in SHIMS:
        return run_shim(arguments[1], arguments[2:])   # at once: a shim starts for every client scenario
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
    certify.add_argument("--name", action="append", default=[], metavar="NAME",
                         help="a name for the target given in the same place (the first --name names the first "
                              "--target, ...; or ?name=NAME in its URL): records and the gate know it by that name, "
                              "whatever port or host it answered on")
    certify.add_argument("--client", action="append", default=[], metavar="COMMAND",
                         help="MS-MQRR client to certify: the command that starts its shim (repeatable; "
                              "`mqspec docs shim` describes shims; `mqspec shim mqrr` is one)")
    certify.add_argument("--judge", metavar="URL",
                         help="judging server for --client: the mqrr://host:port of `mqspec serve --judge` "
                              "(default: one served in this process on loopback)")
    certify.add_argument("--results", metavar="DIR", help="results directory (default: ./results/<run id>)")
    certify.add_argument("--clause", action="append", default=[], metavar="ID",
                         help="only this clause, or every clause of this section and its subsections "
                              "(MS-MQRR:3.1.4.7) or document (repeatable; comma-separated lists too; "
                              "`mqspec clauses --list` lists them)")
    certify.add_argument("-k", dest="keyword", metavar="EXPR",
                         help="only the scenarios whose names match EXPR (pytest's -k: words, and, or, not)")
    certify.add_argument("--last-failed", action="store_true",
                         help="only what failed in the newest earlier run under the results folder")
    certify.add_argument("--workers", default="auto", metavar="N",
                         help="processes that run scenarios side by side (default auto: one per CPU, for "
                              "in-process targets; a live server or a --judge is certified by one)")
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
                                           "passed now fails (one line per clause at fault, its collateral "
                                           "counted), a failing target is not in the baseline, or a testable MUST "
                                           "clause was exercised by no target (waived ones excepted).  Targets "
                                           "match by name: ?name=NAME in the URL or certify's --name, else the "
                                           "URL without user and port.")
    gate.add_argument("--baseline", required=True, metavar="FILE",
                      help="a certification record (certification-<target>.json) or a report's summary.json")
    gate.add_argument("current", nargs="?", metavar="CURRENT",
                      help="a summary.json, certification record, report directory or results directory "
                           "(default: the newest ./results/*/report)")
    clauses = commands.add_parser("clauses", help="summarise the clause catalogue")
    clauses.add_argument("--list", action="store_true",
                         help="list every clause: id, side, level, whether a scenario checks it, our wording")
    clauses.add_argument("select", nargs="*", metavar="CLAUSE",
                         help="only these clauses, sections (MS-MQRR:3.1.4.7) or documents, as --clause takes them")
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
    serve.add_argument("--operators", metavar="NAMES",
                       help="accounts of --users (comma-separated) that may use the control interface: create, fill "
                            "and delete queues, list messages, move the clock, reset (default: the first account of "
                            "the users file; decision D-130)")
    serve.add_argument("--auth-level", default=None, choices=("none", "connect", "integrity", "privacy"),
                       help="the lowest authentication level a call may come at (default: none, or connect with "
                            "--users); calls below it are refused with access denied (5)")
    serve.add_argument("--workgroup-policy", action="store_true",
                       help="MS-MQRR 3.1.4.2's fWorkgroup rule as Windows takes it (D-82): a client that says it is "
                            "in a domain must open queues at packet privacy, one in a workgroup at any level")
    serve.add_argument("--judge", action="store_true",
                       help="be the judging server of client certification: record every RemoteRead call and "
                            "answer the faults `mqspec certify --client ... --judge URL` asks for "
                            "(`mqspec docs shim`)")
    serve.add_argument("--log-level", default=None, choices=("debug", "info", "warning"),
                       help="debug: a line per connection; info (the default): a summary line a minute; warning: "
                            "only refusals and failures")
    serve.add_argument("--quiet", action="store_true", help="the same as --log-level warning")
    serve.add_argument("--summary-every", type=float, default=60.0, metavar="SECONDS",
                       help="seconds between summary lines at --log-level info or debug (default 60)")
    serve.add_argument("--idle-timeout", type=float, default=300.0, metavar="SECONDS",
                       help="close a connection idle this long whose association owns no context handle "
                            "(default 300; one whose association owns some: after 1800 s, its handles run down, "
                            "D-122)")
    serve.add_argument("--max-connections", type=int, default=4096, metavar="N",
                       help="connections served at once (default 4096); at the cap the longest idle one is closed "
                            "for a new one, or the new one is refused (D-122)")
    serve.add_argument("--max-connections-per-peer", type=int, default=256, metavar="N",
                       help="connections served at once from one client address (default 256; D-122)")
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
    strength_arguments(commands.add_parser("strength", help="run the suite against wrong queue managers",
                                           description=STRENGTH_DESCRIPTION,
                                           formatter_class=argparse.RawDescriptionHelpFormatter))
    shim = commands.add_parser("shim", help="run a shipped client shim (for --client)",
                               description="Run a client shim that ships with mqspec, with mqspec's own Python: "
                                           "--client \"mqspec shim mqrr\" certifies mqspec's own client.  "
                                           + "  ".join(f"{name}: {what}." for name, what in SHIMS.items()))
    shim.add_argument("name", choices=sorted(SHIMS), help="which shim")
    shim.add_argument("arguments", nargs=argparse.REMAINDER, help="its arguments")
    docs = commands.add_parser("docs", help="print a document: the shim protocol, the control interface",
                               description="Print one of mqspec's documents: " + ", ".join(
                                   f"{name} ({file})" for name, file in DOCS.items()) + ".")
    docs.add_argument("name", choices=sorted(DOCS), help="which document")
    args = parser.parse_args(arguments)
    saved = interrupts.install() if args.command != "serve" else None   # serve stops on Ctrl-C as a server does
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
        if args.command == "shim":
            return run_shim(args.name, args.arguments)
        if args.command == "docs":
            from .authors import show_doc
            sys.stdout.write(show_doc(args.name))
            return 0
        if args.command == "windows-setup":
            return _windows_setup(args)
        return _clauses(args)
    except UsageError as error:
        print(f"mqspec: {error}", file=sys.stderr)
        return 2
    except ShimCheckError as error:
        print(f"mqspec: {error}; nothing was certified", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        interrupts.stop_children()
        print("mqspec: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:   # the reader went away (mqspec clauses | head): nothing more to say to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    finally:
        if saved is not None:
            # a command run inside another process (a test) leaves it as it was
            interrupts.restore(saved, in_process=argv is not None)


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
    if len(args.name) > len(targets):
        raise UsageError(f"--name {args.name[len(targets)]}: {len(targets)} target(s) to name, {len(args.name)} "
                         "names; give one --name per --target, in the same order")
    targets = [_named(url, name) for url, name in zip(targets, args.name)] + targets[len(args.name):]
    for url in targets:
        try:
            connect(url).close()
        except TargetError as error:
            raise UsageError(str(error)) from None
    if args.judge and not args.client:
        raise UsageError("--judge: it judges clients; name the client to certify with --client COMMAND")
    if args.client:
        _check_clients(args.client, args.judge)
    from .catalogue import CatalogueError, load_catalogue
    from .pytest_plugin import (
        SelectionError,
        check_clauses,
        load_profile,
        load_waivers,
        make_results_directory,
        new_run_id,
    )
    from .selection import failed_in, last_run
    run_id = new_run_id()
    results = Path(args.results) if args.results else Path.cwd() / "results" / run_id
    try:
        catalogue = load_catalogue()
        check_clauses(args.clause, catalogue)
        load_waivers(args.waivers, args.skip_level, catalogue)
        load_profile(args.profile, catalogue)
        workers = _workers(args.workers, targets, args.judge)
        no_java = None if args.no_report else _check_spark(args.master)
        rerun = last_run(results.parent, besides=results) if args.last_failed else None
        make_results_directory(results)
    except (CatalogueError, SelectionError) as error:
        raise UsageError(str(error)) from None
    import pytest
    pytest_args = suite_arguments() + ["-p", "no:cacheprovider", "-q"]
    if workers:
        pytest_args += ["-n", str(workers)]
    if args.keyword:
        pytest_args += ["-k", args.keyword]
    if rerun is not None:
        pytest_args += ["--rerun-failed", str(rerun)]
        print(f"mqspec: rerunning the {len(failed_in(rerun))} test(s) that failed in {rerun}")
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
    # directory the user runs in; the workers find it in hypothesis's own variable
    set_hypothesis_home_dir(results.parent / ".hypothesis")
    saved = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = str(results.parent / ".hypothesis")
    shown = ", ".join([target_identity(url) for url in targets] + [f"the client `{c}`" for c in args.client])
    try:
        status = _run_pytest(pytest_args, log, args.tracebacks, f"certifying {shown}")
    finally:
        if saved is None:
            os.environ.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
        else:
            os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = saved
    if status == pytest.ExitCode.INTERRUPTED:   # nothing certified: a record of half a run would overstate it
        print(f"mqspec: interrupted; nothing certified (what ran is in {results})", file=sys.stderr)
        return 130
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
    from mqspec.reports.summary import gate_forecast, summary_lines
    if args.no_report or no_java:
        return _verdicts_without_report(results, record, status, catalogue, log, args.tracebacks, no_java)
    from mqspec.reports.pipeline import make_report
    try:
        report = make_report([results], results / "report", master=args.master, any_suite_version=True)
    except ReportError as error:
        print(f"mqspec: the report could not be made: {error}", file=sys.stderr)
        _verdicts_without_report(results, record, status, catalogue, log, args.tracebacks, None)
        return 1
    verdict = _run_verdict(report.model, status)
    print(f"mqspec: run {record['run_id']} on {', '.join(report.model['targets'])}: {verdict}; {where}")
    for line in summary_lines(report.model) + [gate_forecast(report.model)]:
        print("  " + line)
    for error in report.errors:
        print(f"  input left out: {error}")
    print(f"  report: {report.files['html']}")
    if not args.tracebacks:
        print(f"  pytest's output, tracebacks included: {log}")
    return 1 if verdict == "NOT conformant" else 0   # incomplete: nothing failed; the terminal names what was not run


def _named(url: str, name: str) -> str:
    if not name.strip():
        raise UsageError("--name: give a name that is not empty")
    from urllib.parse import quote
    return url + ("&" if "?" in url else "?") + "name=" + quote(name, safe="")


def _workers(asked: str, targets: list[str], judge: str | None) -> int:
    """How many pytest-xdist workers certify starts: 0 runs in this process.  "auto" is one per CPU when every
    target is in process (each worker hosts its own), else 0: a live server, or one judge, is one queue manager
    that each scenario resets (the plugin refuses workers there)."""
    from .pytest_plugin import check_shared_targets
    if asked == "auto":
        try:
            import xdist  # noqa: F401 - installed with mqspec; without it, one process
        except ImportError:
            return 0
        live = judge or any(not url.startswith("reference") for url in targets)
        cpus = os.cpu_count() or 1
        return 0 if live or cpus < 2 else cpus
    if not asked.isdigit():
        raise UsageError(f"--workers {asked}: give a number of processes, or auto")
    check_shared_targets(targets, int(asked), judge)
    return int(asked) if int(asked) > 1 else 0


def _check_clients(commands: list[str], judge_url: str | None) -> None:
    """Each shim started once and greeted before the run (mqspec/authors.py): a bad one stops the run in one line."""
    from mqspec.adapters import TargetError
    from mqspec.adapters.judge import open_judge

    from .authors import ShimCheckError, check_program, check_shim
    for command in commands:
        try:
            check_program(command)
        except ShimCheckError as error:
            raise UsageError(str(error)) from None
    try:
        judge = open_judge(judge_url)
    except TargetError as error:
        raise UsageError(str(error)) from None
    try:
        for command in commands:
            check_shim(command, judge)
    finally:
        judge.close()


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
    from mqspec.reports.summary import gate_forecast, summary_lines
    from mqspec.reports.tally import tally
    try:
        model = tally(results, catalogue)
    except InputError as error:
        print(f"mqspec: the verdicts could not be read: {error}", file=sys.stderr)
        return 1
    verdict = _run_verdict(model, status)
    print(f"mqspec: run {record['run_id']} on {', '.join(model['targets'])}: {verdict}; results in {results}")
    for line in summary_lines(model) + [gate_forecast(model)]:
        print("  " + line)
    if no_java:
        print(f"  no report: {no_java}; `mqspec report {results}` makes it later")
    if not tracebacks:
        print(f"  pytest's output, tracebacks included: {log}")
    return 1 if verdict == "NOT conformant" else 0   # incomplete: nothing failed; the terminal names what was not run


def _run_verdict(model: dict, status: int) -> str:
    """The run's verdict over its targets (reports/record.py's verdict_of): NOT conformant if a target failed a
    clause or pytest failed, else incomplete if a clause was not run, else conformant."""
    from mqspec.reports.record import verdict_of
    verdicts = {verdict_of(model["matrix"][target]) for target in model["targets"]}
    if "not conformant" in verdicts or status != 0 or not model["targets"]:
        return "NOT conformant"
    return "incomplete" if "incomplete" in verdicts else "conformant"


def _run_pytest(pytest_args: list[str], log: Path, show: bool, what: str) -> int:
    """pytest.main with a progress display; pytest's own output goes to `log` unless `show`.  An interrupt (Ctrl-C),
    which pytest turns into an exit status, is raised again here as KeyboardInterrupt once pytest has torn down
    (shims and judges stopped)."""
    import pytest

    from mqspec.adapters.shim import kill_all

    class Interrupt:
        seen = False

        def pytest_keyboard_interrupt(self, excinfo):
            Interrupt.seen = True

    try:
        if show:
            return pytest.main(pytest_args, plugins=[Interrupt()])
        return _run_quietly(pytest_args, log, what, Interrupt())
    finally:
        kill_all()   # a shim a scenario left behind, whatever stopped the run
        interrupts.kill_shims()   # ... or one a pytest-xdist worker left
        if Interrupt.seen:
            raise KeyboardInterrupt


def _run_quietly(pytest_args: list[str], log: Path, what: str, interrupt) -> int:
    from contextlib import redirect_stderr, redirect_stdout

    import pytest

    from mqspec.reports.progress import Progress
    terminal = os.fdopen(os.dup(2), "w", buffering=1)   # the real stderr, whatever pytest captures

    class CertifyProgress:
        """Counts each test once: at its call, or at a setup that failed or skipped it."""

        def __init__(self):
            self.progress = None
            self.counts = {"passed": 0, "failed": 0, "not run": 0}

        def pytest_collection_finish(self, session):
            self.started(len(session.items))

        @pytest.hookimpl(optionalhook=True)
        def pytest_xdist_node_collection_finished(self, node, ids):   # the workers collect, each the same
            if self.progress is None:
                self.started(len(ids))

        def started(self, total: int) -> None:
            print(f"mqspec: {what}: {total} scenarios and machines", file=terminal)
            self.progress = Progress("certify", total, terminal)

        def pytest_runtest_logreport(self, report):
            if self.progress is None or not (report.when == "call" or (report.when == "setup" and not report.passed)):
                return
            outcome = "passed" if report.passed else "not run" if report.skipped else "failed"
            self.counts[outcome] += 1
            self.progress.advance(", ".join(f"{n} {name}" for name, n in self.counts.items()))

        def pytest_sessionfinish(self, session):
            if interrupt.seen:
                if self.progress is not None and self.progress.tty:
                    terminal.write("\n")   # end the progress line; the count stays where it stopped
            elif self.progress is not None:
                self.progress.finish(", ".join(f"{n} {name}" for name, n in self.counts.items()))

    try:
        with open(log, "w", encoding="utf-8") as output, redirect_stdout(output), redirect_stderr(output):
            return pytest.main(pytest_args, plugins=[CertifyProgress(), interrupt])
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
    from mqspec.reports.errors import ReportError
    from mqspec.reports.gate import evaluate, gate_lines, newest_report, read_verdicts
    try:
        baseline = read_verdicts(Path(args.baseline), "--baseline")
        current = read_verdicts(Path(args.current) if args.current else newest_report(Path.cwd() / "results"),
                                "current")
        result = evaluate(baseline, current)
    except ReportError as error:
        raise UsageError(str(error)) from None
    for line in gate_lines(result):
        print(f"mqspec: {line}")
    if result.passed:
        print(f"mqspec: gate passed: {current.source} against {baseline.source}: no regression in "
              f"{result.compared} verdicts compared, every testable MUST clause exercised")
        return 0
    print(f"mqspec: gate FAILED: {len(result.regressions)} regression(s), {len(result.new_failing)} failing new "
          f"target(s), {len(result.uncovered)} uncovered MUST clause(s); {current.source} against "
          f"{baseline.source}")
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
    if args.quiet and args.log_level not in (None, "warning"):
        raise UsageError(f"--quiet and --log-level {args.log_level}: choose one")
    if not args.summary_every > 0:
        raise UsageError(f"--summary-every {args.summary_every:g}: give a number of seconds above 0")
    from mqspec.adapters.serve_log import ServeLog
    log = ServeLog(lambda line: print(f"mqspec: {line}", file=sys.stderr, flush=True),
                   "warning" if args.quiet else args.log_level or "info", args.summary_every)
    for flag, value in (("--max-connections", args.max_connections),
                        ("--max-connections-per-peer", args.max_connections_per_peer)):
        if value < 1:
            raise UsageError(f"{flag} {value}: give a whole number of connections above 0")
    users = None
    if args.users:
        from mqspec.adapters.wire.dcerpc_auth import Users
        try:
            users = Users.from_file(args.users)
        except OSError as error:
            raise UsageError(f"--users {args.users}: cannot read it ({error.strerror or error})") from None
        except (ValueError, UnicodeDecodeError) as error:
            raise UsageError(f"--users {error}") from None
    if args.operators is not None and not users:
        raise UsageError("--operators needs --users (operators are accounts)")
    if args.as_windows:
        _check_as_windows(args, users)
    operators = None
    if args.operators is not None:
        from mqspec.adapters.serve import operators_of
        try:
            operators = operators_of(users, [name.strip() for name in args.operators.split(",") if name.strip()])
        except ValueError as error:
            raise UsageError(f"--operators {args.operators}: {error}") from None
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
        served = serve(target, args.host, args.port, log=log, connection_log=log.connection, users=users,
                       auth_level=level, idle_timeout=args.idle_timeout, judge=args.judge, operators=operators,
                       max_connections=args.max_connections, max_connections_per_peer=args.max_connections_per_peer,
                       with_control=not args.as_windows, mqqb_options={"port": args.mqqb_port})
    except OSError as error:
        target.close()
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    if args.as_windows:   # made once the clock runs (a clock held while they are made would lag the wall clock)
        from .windows_setup import make_on
        made = make_on(target, list(users.accounts))
    lowest = {1: "none", 2: "connect", 5: "integrity", 6: "privacy"}[level]
    how = f"{len(users.accounts)} account(s), calls at {lowest} or above" if users else "no authentication"
    if users and not args.as_windows:
        how += f", control for {', '.join(sorted(served.control.operators))}"
    what = "judging clients with" if args.judge else "serving"
    mqqb = f", MS-MQQB sessions on {args.host}:{served.mqqb.port}" if served.mqqb is not None else ""
    lines = [f"mqspec: {what} {url} over MS-MQRR on {args.host}:{served.port}, {how}{mqqb}, in real time "
             "(Ctrl-C stops)"]
    if args.as_windows:
        accounts = list(users.accounts)
        second = f"&second_user={accounts[1]}" if len(accounts) > 1 else ""
        lines.append(f"mqspec: as a Windows host ({made} queues of mqspec windows-setup, no control interface); "
                     f"certify it with msmq://{args.host}:{served.port}?user={accounts[0]}{second}"
                     f"&mqqb_port={served.mqqb.port}&computer={target.computer_name} (add password= and "
                     "second_password=)")
    log.watch(served)
    try:   # the start lines once the signals are caught: a SIGTERM sent on reading them stops the server cleanly
        served.server.serve_forever(ready=lambda: print("\n".join(lines), file=sys.stderr, flush=True))
    finally:
        log.stop(served)   # the summary of the last minute
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
    from dataclasses import replace

    from .catalogue import SIDES, CatalogueError, load_catalogue
    from .coverage import scenario_clauses
    try:
        catalogue = load_catalogue()
    except CatalogueError as error:
        raise UsageError(str(error)) from None
    covered = set(scenario_clauses())
    if args.select:
        from .selection import SelectionError, expand_clauses
        try:
            chosen = expand_clauses(args.select, catalogue)
        except SelectionError as error:
            raise UsageError(str(error).replace("--clause ", "", 1)) from None
        catalogue = replace(catalogue, clauses={key: c for key, c in catalogue.clauses.items() if key in chosen})
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
    if args.list:
        for clause in catalogue.clauses.values():
            checked = "untestable" if not clause.testable else "covered" if clause.id in covered else "untested"
            print(f"  {clause.id:<26} {clause.side:<6} {clause.level:<10} {checked:<10} {clause.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
