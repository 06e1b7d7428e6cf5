"""pytest plugin of the conformance suite: targets, clause tags, waivers, results.

Options
    --target URL      a queue manager to certify (repeatable; default: reference)
    --client COMMAND  an MS-MQRR client to certify through its shim (repeatable; see
                      docs/client-shim.md).  With --client alone only client scenarios
                      run, with --target alone only server scenarios; with neither, both
                      (the reference and the two shipped client shims)
    --judge URL       the judging server of the client scenarios (default: served here)
    --results DIR     where the run writes junit.xml, cucumber.json, run.json,
                      machines.ndjson and evidence/ (one file per failing scenario:
                      evidence.py) (default: ./results/<run id>)
    --run-id ID       the run's id (default: a new one from the time)
    --clause ID       run only scenarios tagged with this clause, or with a clause of this
                      section (MS-MQRR:3.1.4.7: its subsections too) or document
                      (repeatable; comma-separated lists too)
    --rerun-failed DIR  run only the tests that failed in the run of DIR (its failed.json)
    --waivers FILE    a TOML file (WAIVER_HELP)
    --skip-level L    skip clauses of level L (SHOULD, MAY, ...; repeatable)
    --deep            stateful machines explore far more examples
    --profile P       demand readings of open decisions: "windows" (what the specifications'
                      product-behaviour notes say Windows does), "reference" (the reference's;
                      a reference?readings=... target is held to the readings it names),
                      or D-NN=reading,... (a scenario showing another reading fails)
    --decided-only    a target that takes readings (reference?readings=D-NN:name) runs only the
                      scenarios resting on those decisions, and the stateful machines

A scenario tagged `@decision:D-NN` rests on that decision of spec/decisions.md (a
`decision` property in JUnit); one that rests on an open decision records the
reading the target showed (a `reading` property, `D-NN=name`), and run.json lists
each target's readings as its profile.

A scenario tagged `@clause:<id>` gets a `clause` marker (select with
`-m "clause(id='MS-MQRR:3.1.4.7:16')"` or --clause) and a `clause` property in
the JUnit report.  Waived scenarios are skipped with a reason starting
"waived:"; they are reported, never hidden.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import tomllib
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from pytest_bdd import reporting

from mqspec.adapters.target import CAPABILITIES, TargetCapabilityError

from .catalogue import LEVELS, CatalogueError, load_catalogue
from .coverage import scenario_clauses
from .evidence import EvidenceCollector
from .identity import target_identity, target_side
from .parts import SUITE_FILES, SUITE_PARTS, part
from .result_files import regroup_junit, standard_cucumber
from .selection import FailureRecorder, SelectionError, expand_clauses, failed_in
from .workers import SELECTION_KEY, CarryScenario, selection_of

# The step vocabulary: every scenario's steps are defined in these modules (tests/test_step_vocabulary.py).
pytest_plugins = [
    "mqspec.steps.setup_steps",
    "mqspec.steps.receive_steps",
    "mqspec.steps.handle_steps",
    "mqspec.steps.packet_steps",
    "mqspec.steps.section_steps",
    "mqspec.steps.pending_steps",
    "mqspec.steps.transaction_steps",
    "mqspec.steps.event_steps",
    "mqspec.steps.cursor_steps",
    "mqspec.steps.client_steps",
    "mqspec.steps.rpc_steps",
    "mqspec.steps.configuration_steps",
    "mqspec.steps.security_steps",
    "mqspec.steps.decision_steps",
    "mqspec.steps.wait_readings_steps",
    "mqspec.steps.arrival_readings_steps",
    "mqspec.steps.remote_read_readings_steps",
    "mqspec.steps.packet_readings_steps",
    "mqspec.steps.boundary_steps",
    "mqspec.steps.subqueue_header_steps",
    "mqspec.steps.mqqb_steps",
    "mqspec.steps.mqqb_session_steps",
    "mqspec.steps.mqqb_order_ack_steps",
    "mqspec.steps.mqqb_malformed_steps",
    "mqspec.steps.whole_message_steps",
    "mqspec.steps.source_steps",
    "mqspec.steps.receive_output_steps",
    "mqspec.steps.transaction_count_steps",
    "mqspec.steps.private_number_steps",
    "mqspec.steps.identity_steps",
    "mqspec.steps.rpc_security_steps",
    "mqspec.steps.application_steps",
]

RESULTS_KEY = pytest.StashKey[dict]()
ENVIRONMENT = ("MQSPEC_RESULTS", "MQSPEC_RUN_ID")   # how the stateful machines find the run's directory
WAIVER_HELP = """\
waiver file (TOML):
  skip_levels = ["MAY", "SHOULD"]      levels whose clauses are not run (a single string is one level)
  [waive]
  "MS-MQRR:3.1.4.7:16" = "why"         clauses not run, each with its reason
Waived scenarios are reported as skipped with a reason starting "waived:"; they are never hidden."""


def pytest_addoption(parser):
    group = parser.getgroup("mqspec", "MSMQ conformance")
    group.addoption("--target", action="append", default=[], metavar="URL",
                    help="queue manager to certify (repeatable); default: reference, unless --client is given")
    group.addoption("--client", action="append", default=[], metavar="COMMAND",
                    help="an MS-MQRR client to certify: the command that starts its shim (docs/client-shim.md; "
                         "repeatable); default: mqspec's own, unless --target is given")
    group.addoption("--judge", default=None, metavar="URL",
                    help="the judging server client scenarios use: mqrr://host:port of `mqspec serve --judge` "
                         "(default: one served on loopback in this process)")
    group.addoption("--results", default=None, metavar="DIR",
                    help="results directory of this run (default: ./results/<run id>)")
    group.addoption("--run-id", default=None, metavar="ID", help="the run's id (default: made from the time)")
    group.addoption("--clause", action="append", default=[], metavar="ID",
                    help="run only this clause, or the clauses of this section and its subsections "
                         "(MS-MQRR:3.1.4.7) or document (repeatable; comma-separated lists too)")
    group.addoption("--rerun-failed", default=None, metavar="DIR",
                    help="run only the tests that failed in the run whose results directory is DIR")
    group.addoption("--waivers", default=None, metavar="FILE",
                    help="TOML file: skip_levels = [...] and a [waive] table of \"<clause id>\" = \"reason\"")
    group.addoption("--skip-level", action="append", default=[], metavar="LEVEL",
                    help="skip clauses of this level (MUST, SHOULD, MAY, ...)")
    group.addoption("--deep", action="store_true", help="stateful machines run far more examples")
    group.addoption("--profile", default=None, metavar="P",
                    help="demand readings of open decisions: windows, reference, or D-NN=reading,...")
    group.addoption("--decided-only", action="store_true",
                    help="a target with readings=D-NN:name runs only the scenarios tagged with those decisions "
                         "(and the stateful machines)")


def pytest_configure(config):
    config.addinivalue_line("markers", "clause(id): the normative clause a scenario checks")
    config.addinivalue_line("markers", "decision(id): the decision of spec/decisions.md a scenario rests on")
    config.addinivalue_line("markers", "conformance: a scenario of the conformance suite")
    config.addinivalue_line("markers", "slow: a scenario tagged @slow (it waits in real time)")
    config.pluginmanager.register(ResultFiles(), "mqspec-result-files")
    config.pluginmanager.register(CarryScenario(), "mqspec-carry-scenario")
    if hasattr(config, "workerinput"):   # a pytest-xdist worker: the selection only (mqspec/workers.py)
        try:
            catalogue = load_catalogue()
            config.stash[SELECTION_KEY] = {
                "waivers": load_waivers(config.getoption("waivers"), config.getoption("skip_level"), catalogue),
                "demanded": load_profile(config.getoption("profile"), catalogue),
                "profile": config.getoption("profile")}
        except (CatalogueError, SelectionError) as error:
            raise pytest.UsageError(str(error)) from None
        if os.environ.get("MQSPEC_RESULTS"):   # the controller set the results directory
            config.pluginmanager.register(EvidenceCollector(Path(os.environ["MQSPEC_RESULTS"])), "mqspec-evidence")
        return
    run_id = config.getoption("run_id") or new_run_id()
    results = Path(config.getoption("results") or Path.cwd() / "results" / run_id)
    try:
        catalogue = load_catalogue()
        check_clauses(config.getoption("clause"), catalogue)
        waivers = load_waivers(config.getoption("waivers"), config.getoption("skip_level"), catalogue)
        demanded = load_profile(config.getoption("profile"), catalogue)
        check_shared_targets(config.getoption("target"), _workers(config), config.getoption("judge"))
        if config.getoption("rerun_failed"):
            failed_in(Path(config.getoption("rerun_failed")))
        make_results_directory(results)
    except (CatalogueError, SelectionError) as error:
        raise pytest.UsageError(str(error)) from None
    config.pluginmanager.register(FailureRecorder(results), "mqspec-failures")
    if config.option.xmlpath is None:
        config.option.xmlpath = str(results / "junit.xml")
    if getattr(config.option, "cucumber_json_path", None) is None:
        config.option.cucumber_json_path = str(results / "cucumber.json")
    saved = {name: os.environ.get(name) for name in ENVIRONMENT}
    os.environ["MQSPEC_RESULTS"] = str(results)
    os.environ["MQSPEC_RUN_ID"] = run_id
    config.stash[RESULTS_KEY] = {"run_id": run_id, "results": results, "saved_environment": saved,
                                 "started": _dt.datetime.now(_dt.timezone.utc).isoformat(),
                                 "targets": [target_identity(url) for url in config.getoption("target")] or
                                            ([] if config.getoption("client") else ["reference"]),   # no secrets
                                 "waivers": waivers, "demanded": demanded, "profile": {}, "clients": []}
    config.stash[RESULTS_KEY]["mixed"] = {}
    config.stash[SELECTION_KEY] = {"waivers": waivers, "demanded": demanded, "profile": config.getoption("profile")}
    if config.getoption("profile") == "reference":   # each reference target is held to the readings it was told
        targets = config.getoption("target") or ["reference"]
        per_target = {target_identity(url): demanded_of(config.stash[SELECTION_KEY], url) for url in targets}
        if any(profile != demanded for profile in per_target.values()):
            config.stash[RESULTS_KEY]["demanded"] = per_target
    coexisting = frozenset(d.id for d in catalogue.decisions.values() if d.coexist)
    config.pluginmanager.register(EvidenceCollector(results), "mqspec-evidence")   # evidence/ of each failure
    config.pluginmanager.register(ProfileCollector(config.stash[RESULTS_KEY]["profile"],
                                                    config.stash[RESULTS_KEY]["clients"],
                                                    config.stash[RESULTS_KEY]["mixed"], coexisting))


def pytest_unconfigure(config):
    """Put back what this run set, so that a run inside another (a test of the CLI) leaves the outer intact."""
    state = config.stash.get(RESULTS_KEY, None)
    if state is None:
        return
    for name, value in state["saved_environment"].items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def new_run_id() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ") + "-" + uuid.uuid4().hex[:6]


def check_clauses(clauses, catalogue) -> None:
    """Every --clause value selects some clause (mqspec/selection.py); SelectionError naming the first that does not."""
    expand_clauses(clauses, catalogue)


def _workers(config) -> int:
    """How many pytest-xdist workers this run starts (0 without xdist)."""
    if getattr(config.option, "dist", "no") == "no":
        return 0
    return len(getattr(config.option, "tx", None) or [])


def check_shared_targets(targets, workers: int, judge: str | None = None) -> None:
    """Workers each host their own in-process reference, but a live server is one queue manager: each scenario
    resets or restarts it, which would pull the scene from under a scenario of another worker."""
    shared = [url for url in targets if not url.startswith("reference")]
    if workers > 1 and judge:
        raise SelectionError(f"--judge {target_identity(judge)}: {workers} pytest-xdist workers would share that "
                             "judge and reset it under each other's scenarios; use one worker (-n 0), or leave "
                             "--judge out (each worker then judges with a server of its own)")
    if workers > 1 and shared:
        raise SelectionError(f"--target {target_identity(shared[0])}: {workers} pytest-xdist workers would share "
                             "that server's one queue manager and reset it under each other's scenarios; certify a "
                             "live server with one worker (-n 0)")


def make_results_directory(results: Path) -> None:
    probe = results / ".writable"
    try:
        results.mkdir(parents=True, exist_ok=True)
        probe.touch()
        probe.unlink()
    except OSError as error:
        raise SelectionError(f"--results {results}: cannot write there ({error.strerror or error})") from None


def load_waivers(path, skip_levels, catalogue) -> dict:
    """{'clauses': {id: reason}, 'levels': set} from a waiver file and --skip-level options."""
    levels = {_level(level.upper(), "--skip-level") for level in skip_levels}
    clauses = {}
    if path:
        where = f"--waivers {path}"
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise SelectionError(f"{where}: cannot read it ({getattr(error, 'strerror', None) or error})") from None
        except tomllib.TOMLDecodeError as error:
            raise SelectionError(f"{where}: not valid TOML ({error})") from None
        extra = set(data) - {"skip_levels", "waive"}
        if extra:
            raise SelectionError(f"{where}: unknown key {sorted(extra)[0]!r}; a waiver file has skip_levels "
                                 "and a [waive] table")
        skip = data.get("skip_levels", [])
        skip = [skip] if isinstance(skip, str) else skip
        if not isinstance(skip, list) or not all(isinstance(level, str) for level in skip):
            raise SelectionError(f"{where}: skip_levels must be a level or a list of levels, like [\"MAY\"]")
        levels.update(_level(level.upper(), f"{where}: skip_levels") for level in skip)
        waive = data.get("waive", {})
        if not isinstance(waive, dict):
            raise SelectionError(f"{where}: waive must be a table of \"<clause id>\" = \"reason\"")
        for clause, reason in waive.items():
            if clause not in catalogue.clauses:
                raise SelectionError(f"{where}: waives {clause!r}, which is not in the catalogue")
            if not isinstance(reason, str) or not reason.strip():
                raise SelectionError(f"{where}: the waiver of {clause} needs a reason (a non-empty string)")
            clauses[clause] = reason
    return {"clauses": clauses, "levels": levels}


def load_profile(text: str | None, catalogue) -> dict[str, str]:
    """The readings --profile demands: decision -> reading."""
    if not text:
        return {}
    opened = {decision.id: decision for decision in catalogue.decisions.values() if decision.open}
    if text == "windows":
        return {decision.id: decision.windows for decision in opened.values() if decision.windows}
    if text == "reference":
        return {decision.id: decision.readings[0] for decision in opened.values()}
    demanded = {}
    for entry in filter(None, (item.strip() for item in text.split(","))):
        decision, sep, reading = entry.partition("=")
        if not sep:
            raise SelectionError(f"--profile {entry!r}: write windows, reference or D-NN=reading,...")
        if decision not in opened:
            raise SelectionError(f"--profile: {decision} is not an open decision (spec/decisions.md)")
        if reading not in opened[decision].readings:
            raise SelectionError(f"--profile: {decision} has no reading {reading!r}; its readings: "
                                 f"{', '.join(opened[decision].readings)}")
        demanded[decision] = reading
    return demanded


def _level(level: str, where: str) -> str:
    if level not in LEVELS:
        raise SelectionError(f"{where}: unknown level {level!r}; use {', '.join(LEVELS)}")
    return level


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag, function):
    if tag.startswith("clause:"):
        clause = tag[len("clause:"):]
        pytest.mark.clause(clause, id=clause)(function)
        return True
    if tag.startswith("decision:"):
        decision = tag[len("decision:"):]
        pytest.mark.decision(decision, id=decision)(function)
        return True
    if tag == "bug":
        # A scenario that shows a known defect of the reference; it must fail until fixed.
        pytest.mark.xfail(strict=True, reason="known defect of the reference, see the scenario")(function)
        return True
    if tag == "slow":
        pytest.mark.slow(function)
        return True
    return None


def pytest_collection_modifyitems(session, config, items):
    try:
        catalogue = load_catalogue()
    except CatalogueError as error:
        raise pytest.UsageError(f"clause catalogue: {error}") from None
    try:
        wanted = expand_clauses(config.getoption("clause"), catalogue)
        rerun = set(failed_in(Path(config.getoption("rerun_failed")))) if config.getoption("rerun_failed") else None
    except SelectionError as error:
        raise pytest.UsageError(str(error)) from None
    decided_only = config.getoption("decided_only")
    servers = bool(config.getoption("target")) or not config.getoption("client")   # what --target/--client ask
    clients = bool(config.getoption("client")) or not config.getoption("target")
    selected, deselected = [], []
    for item in items:
        params = item.callspec.params if hasattr(item, "callspec") else {}
        if ("target_url" in params and not servers) or ("client_command" in params and not clients):
            deselected.append(item)
            continue
        if rerun is not None and item.nodeid not in rerun:
            deselected.append(item)
            continue
        clauses = [mark.args[0] for mark in item.iter_markers("clause")]
        if not clauses:
            selected.append(item)
            continue
        if wanted and not wanted.intersection(clauses):
            deselected.append(item)
            continue
        if decided_only and not _rests_on_its_readings(item):
            deselected.append(item)
            continue
        selected.append(item)
        for clause in clauses:
            item.user_properties.append(("clause", clause))
        for mark in item.iter_markers("decision"):
            if mark.args[0] not in catalogue.decisions:
                raise pytest.UsageError(f"{item.nodeid}: @decision:{mark.args[0]} names no decision of "
                                        "spec/decisions.md")
            item.user_properties.append(("decision", mark.args[0]))
        target = getattr(item, "callspec", None) and item.callspec.params.get("target_url")
        if target:
            item.user_properties.append(("target", target_identity(target)))   # junit.xml carries no secret
        selection = selection_of(config)
        reason = _waiver_reason(clauses, catalogue, selection["waivers"] if selection else None)
        if reason:
            item.add_marker(pytest.mark.skip(reason=f"waived: {reason}"))
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected


def _rests_on_its_readings(item) -> bool:
    """--decided-only: the item's target takes no readings, or the scenario carries one of their decisions."""
    chosen = set(readings_of(getattr(item, "callspec", None) and item.callspec.params.get("target_url")))
    return not chosen or bool(chosen & {mark.args[0] for mark in item.iter_markers("decision")})


def readings_of(target: str | None) -> dict[str, str]:
    """The readings a reference target was told to take (reference?readings=D-NN:name,...): decision -> reading."""
    if not str(target or "").startswith("reference"):
        return {}
    return dict(part.partition(":")[::2] for name, value in parse_qsl(urlsplit(str(target)).query)
                if name == "readings" for part in value.split(",") if part)


def demanded_of(selection: dict, target: str | None) -> dict[str, str]:
    """The readings --profile demands of `target`: under `reference`, a reference target told to take other
    readings is held to those (it is the reference with them), every other decision to the reference's."""
    demanded = selection["demanded"]
    if selection.get("profile") != "reference":
        return demanded
    return {**demanded, **readings_of(target)}


def _waiver_reason(clauses, catalogue, waivers) -> str | None:
    if not waivers:
        return None
    for clause in clauses:
        if clause in waivers["clauses"]:
            return f"{clause}: {waivers['clauses'][clause]}"
    levels = {catalogue[c].level for c in clauses if c in catalogue}
    if levels and levels <= waivers["levels"]:
        return f"level {', '.join(sorted(levels))} skipped"
    return None


def suite_version() -> str:
    """A hash of everything that defines the suite: features, steps, the catalogue and the vocabulary."""
    digest = hashlib.sha256()
    for name in SUITE_PARTS:   # paths as the checkout names them, so a checkout and a wheel of it hash alike
        folder = part(name)
        for path in sorted(folder.rglob("*")):
            if path.suffix in SUITE_FILES and path.is_file():
                digest.update(f"{name}/{path.relative_to(folder).as_posix()}".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line on clause coverage at the end of every run (the gate itself is tests/test_catalogue.py)."""
    try:
        catalogue = load_catalogue()
    except CatalogueError:
        return
    testable = {clause.id for clause in catalogue.testable()}
    covered = testable & set(scenario_clauses())
    terminalreporter.write_line(f"mqspec: {len(covered)} / {len(testable)} testable clauses have a scenario "
                                f"({len(catalogue.clauses)} clauses, {len(catalogue.decisions)} decisions)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A scenario that showed a reading --profile does not allow fails, naming both readings; a failing step that
    names the clause it checks (steps/blame.py's clause_failure) gives the result's `cause`."""
    outcome = yield
    report = outcome.get_result()
    clause = getattr(call.excinfo.value, "clause", None) if call.excinfo is not None else None
    if report.when == "call" and report.failed and isinstance(clause, str):
        item.user_properties.append(("cause", clause))   # the clause whose rule the failing step checks (blame.py)
    _not_run_for_want_of_a_capability(item, call, report)
    selection = selection_of(item.config)
    if selection is None or report.when != "call" or not report.passed:
        return
    profile = demanded_of(selection, getattr(item, "callspec", None) and item.callspec.params.get("target_url"))
    for name, value in item.user_properties:
        decision, _, reading = value.partition("=") if name == "reading" else ("", "", "")
        demanded = profile.get(decision)
        if demanded and reading != demanded:
            report.outcome = "failed"
            report.longrepr = (f"{decision}: the target took the reading {reading!r}; the profile demands "
                               f"{demanded!r}")
            return


def _not_run_for_want_of_a_capability(item, call, report) -> None:
    """A scenario that reached an operation its target does not offer (TargetCapabilityError, adapters/target.py)
    is not run, naming what it needs, as World.require says it: never failed, never passed."""
    if call.excinfo is None or not call.excinfo.errisinstance(TargetCapabilityError):
        return
    error = call.excinfo.value
    detail = f"; {error.detail}" if error.detail else ""
    report.outcome = "skipped"
    report.longrepr = (str(item.path), item.location[1] or 0,
                       f"Skipped: not run: needs {error.capability} ({CAPABILITIES[error.capability]}); "
                       f"{error.target} does not offer it{detail}")


class ProfileCollector:
    """Gathers each target's readings (its profile) from the scenarios that recorded one, and holds each target to
    one reading per open decision (issue 22): a scenario that shows a reading other than the one an earlier
    scenario of the run showed for the same target fails, naming both, unless the decision says its readings may
    coexist (`**Coexist.**` in spec/decisions.md).  It runs where the reports gather (the controller under xdist),
    before the result files are written, so the failure is in junit.xml with the scenario's clauses."""

    def __init__(self, profile: dict, clients: list, mixed: dict | None = None,
                 coexisting: frozenset = frozenset()) -> None:
        self.profile = profile   # target -> decision -> set of readings
        self.clients = clients   # the clients' names as their shims gave them
        self.mixed = {} if mixed is None else mixed   # target -> decision -> reading -> the first test showing it
        self.coexisting = coexisting                  # decisions whose readings may coexist in one target
        self.first: dict[tuple[str, str], tuple[str, str]] = {}   # (target, decision) -> (reading, test)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" and report.passed:
            self._one_reading(report)
        if report.when != "teardown":
            return
        self._collect(report)

    def _one_reading(self, report) -> None:
        properties = dict(report.user_properties)
        target = properties.get("target", "reference")
        for name, value in report.user_properties:
            if name != "reading":
                continue
            decision, _, reading = value.partition("=")
            seen, where = self.first.setdefault((target, decision), (reading, report.nodeid))
            if seen == reading or decision in self.coexisting:
                continue
            shown = self.mixed.setdefault(target, {}).setdefault(decision, {seen: where})
            shown.setdefault(reading, report.nodeid)
            report.outcome = "failed"
            report.longrepr = (f"{decision}: the target showed the reading {reading!r} here and {seen!r} in {where}; "
                               f"a target takes one reading of an open decision (spec/decisions.md)")
            return

    def _collect(self, report) -> None:
        properties = dict(report.user_properties)   # one target per scenario
        if target_side(properties.get("target", "")) == "client" and properties["target"] not in self.clients:
            self.clients.append(properties["target"])   # a client is named by its shim, known once it ran
        for name, value in report.user_properties:
            if name == "reading":
                decision, _, reading = value.partition("=")
                target = self.profile.setdefault(properties.get("target", "reference"), {})
                target.setdefault(decision, set()).add(reading)


class ResultFiles:
    """After pytest and pytest-bdd wrote junit.xml and cucumber.json: their standard shapes (result_files.py).
    A scenario's steps after the one that failed or skipped go into its report too, so cucumber.json lists them
    (marked skipped there)."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        context = reporting.test_report_context_registry.get(outcome.get_result())
        scenario = reporting.scenario_reports_registry.get(item)
        if context is None or scenario is None:
            return
        steps = context.scenario["steps"]
        steps += [{"name": step.name, "type": step.type, "keyword": step.keyword, "line_number": step.line_number,
                   "failed": True, "duration": 0.0} for step in scenario.scenario.steps[len(steps):]]

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session) -> None:
        if hasattr(session.config, "workerinput"):
            return
        option = session.config.option
        for path, fix in ((option.xmlpath, regroup_junit), (getattr(option, "cucumber_json_path", None),
                                                           standard_cucumber)):
            if path and Path(path).is_file():
                fix(Path(path))


def pytest_sessionfinish(session, exitstatus):
    state = session.config.stash.get(RESULTS_KEY, None)
    if state is None:
        return
    try:
        catalogue = load_catalogue()
        revisions = sorted({(c.document, c.revision) for c in catalogue.clauses.values()})
    except CatalogueError:
        revisions = []
    record = {
        "run_id": state["run_id"], "targets": state["targets"] + state["clients"],
        "suite_version": suite_version(),
        "spec_revisions": {document: revision for document, revision in revisions},
        "started": state["started"], "finished": _dt.datetime.now(_dt.timezone.utc).isoformat(),
        "exit_status": int(exitstatus), "waived_clauses": state["waivers"]["clauses"],
        "skipped_levels": sorted(state["waivers"]["levels"]),
        "demanded_profile": state["demanded"],
        "profile": {target: {decision: sorted(readings) for decision, readings in sorted(profile.items())}
                    for target, profile in state["profile"].items()},
        # issue 22: a target that showed two readings of one open decision, each with the first test showing it
        "mixed_readings": state.get("mixed", {}),
        # what narrowed the run to part of the suite: such a run is incomplete, and never a target's headline
        "selection": [f"--clause {clause}" for clause in session.config.getoption("clause")],
    }
    (state["results"] / "run.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
