"""The evidence of each failing scenario, written beside run.json (Autobahn|Testsuite's case pages are the bar).

Theory of operation
-------------------
`EvidenceCollector` is a pytest plugin.  While a scenario runs it notes each
step's outcome (pytest-bdd's step hooks); nothing else is done for a scenario
that passes: the scenario's clients keep their latest calls
(steps/observed.py) and, over the wire, their latest PDUs (adapters/wire/
capture.py) in bounded rings anyway.  When a scenario fails (its set-up or its
steps), one file is written: evidence/<key>.json in the run's results directory,
the key a hash of the test's node id (test names hold quotes and slashes).  It
holds

- name, nodeid: the test's name as junit.xml and cucumber.json give it (the
  report joins on it) and its node id;
- failure: the step that failed and the assertion's message (pytest's own
  traceback stays in junit.xml);
- steps: every step with its keyword, text, outcome (passed, failed, undefined,
  or skipped: not reached), data table and doc string;
- calls: what the scenario asked each of its clients and what the target
  answered, latest last (CALLS_KEPT per client);
- pdus: over the wire, the RemoteRead PDUs of those calls, decoded, with hex;
- judge: for a client certification, every call the judging server recorded in
  the scenario, and the application operations asked of the shim with their
  replies.

Values are made JSON-able by `shown`: octets as hex (the first OCTETS_SHOWN),
statuses with their names, dataclasses as objects.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from pathlib import Path

import pytest

from mqspec.protocol.hresult import describe
from mqspec.steps.observed import PENDING

DIRECTORY = "evidence"
OCTETS_SHOWN = 64
MESSAGE_LIMIT = 4_000
STEPS = pytest.StashKey[dict]()
STATUS_FIELDS = frozenset({"hresult", "status", "fault"})   # fields that hold an HRESULT or an RPC status
NOT_STATUSES = frozenset({"get_server_port"})   # Target methods whose whole answer is a number but no status


def evidence_name(nodeid: str) -> str:
    """The file of a test's evidence (relative to the results directory)."""
    return f"{DIRECTORY}/{hashlib.sha256(nodeid.encode()).hexdigest()[:20]}.json"


class EvidenceCollector:
    def __init__(self, results: Path) -> None:
        self.results = results

    # -- the steps, as they run ---------------------------------------------------------------
    @pytest.hookimpl
    def pytest_bdd_before_scenario(self, request, feature, scenario) -> None:
        request.node.stash[STEPS] = {id(step): _step(step) for step in scenario.steps}   # in order: not reached yet

    @pytest.hookimpl
    def pytest_bdd_after_step(self, request, feature, scenario, step, step_func, step_func_args) -> None:
        _mark(request.node, step, "passed")

    @pytest.hookimpl
    def pytest_bdd_step_error(self, request, feature, scenario, step, step_func, step_func_args, exception) -> None:
        _mark(request.node, step, "failed", exception)

    @pytest.hookimpl
    def pytest_bdd_step_func_lookup_error(self, request, feature, scenario, step, exception) -> None:
        _mark(request.node, step, "undefined", exception)

    # -- the file, when the scenario failed ---------------------------------------------------------
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if report.when in ("setup", "call") and report.failed and STEPS in item.stash:
            self.write(item, call)

    def write(self, item, call) -> None:
        steps = list(item.stash[STEPS].values())
        failed = next((step for step in steps if step["status"] in ("failed", "undefined")), None)
        message = call.excinfo.exconly() if call.excinfo is not None else ""
        evidence = {"name": item.name, "nodeid": item.nodeid, "target": dict(item.user_properties).get("target"),
                    "failure": {"step": f"{failed['keyword']} {failed['text']}" if failed else None,
                                "message": message[:MESSAGE_LIMIT]},
                    "steps": steps, "calls": [], "pdus": [], "judge": None}
        world = item.funcargs.get("world")
        try:
            if world is not None and hasattr(world, "clients"):
                evidence["calls"], evidence["pdus"] = _server_side(world)
            elif world is not None and hasattr(world, "judge"):
                evidence["judge"] = _client_side(world)
        except Exception as error:  # noqa: BLE001 - evidence of a failure never fails the run: the gap is named
            evidence["error"] = f"the calls could not be gathered: {type(error).__name__}: {error}"[:MESSAGE_LIMIT]
        path = self.results / evidence_name(item.nodeid)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(evidence, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _step(step) -> dict:
    table = step.datatable.raw() if step.datatable is not None else None
    return {"keyword": step.keyword.strip(), "text": step.name, "line": step.line_number, "status": "skipped",
            "datatable": [[str(cell) for cell in row] for row in table] if table else None,
            "docstring": step.docstring, "error": None}


def _mark(node, step, status: str, exception: BaseException | None = None) -> None:
    row = node.stash.get(STEPS, {}).get(id(step))
    if row is None:
        return
    row["status"] = status
    if exception is not None:
        row["error"] = f"{type(exception).__name__}: {exception}"[:MESSAGE_LIMIT]


def _server_side(world) -> tuple[list[dict], list[dict]]:
    """The calls each client of the scenario made (with the target's answers), and their PDUs."""
    calls, pdus = [], []
    for name, client in world.clients.items():
        for made in list(getattr(client, "calls", ())):   # an offending connection (rpc_steps) records none
            calls.append({"client": name, "method": made.method, "args": [shown(value) for value in made.args],
                          "kwargs": {key: shown(value) for key, value in made.kwargs.items()},
                          "result": "(still waiting)" if made.result is PENDING else
                          shown(made.result, "" if made.method in NOT_STATUSES else "status")})
        for pdu in client.wire_evidence() if hasattr(client, "wire_evidence") else ():
            pdus.append({"client": name, **pdu})
    return calls, pdus


def _client_side(world) -> dict:
    """The judge's records of the scenario and the operations asked of the client under test."""
    try:
        records = world.records()
    except Exception as error:  # noqa: BLE001 - evidence of a failure: a judge that cannot answer is named
        records = [{"error": f"the judge's records could not be read: {type(error).__name__}: {error}"}]
    return {"calls": records,
            "asked": [{"op": asked.op, "args": shown(asked.args), "reply": shown(asked.reply),
                       "records": [asked.first, asked.last]} for asked in world.asked]}


def shown(value, field: str = ""):
    """`value` as JSON can carry it, for people: octets as hex, statuses named."""
    if isinstance(value, BaseException):
        return f"raised {type(value).__name__}: {value}"
    if isinstance(value, int) and field in STATUS_FIELDS:
        return describe(int(value))
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, bool) or value is None or isinstance(value, (float, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        octets = bytes(value)
        more = f"... ({len(octets)} octets)" if len(octets) > OCTETS_SHOWN else ""
        return octets[:OCTETS_SHOWN].hex() + more
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: shown(getattr(value, f.name), f.name) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): shown(item, str(key)) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [shown(item) for item in value]
    return repr(value)[:OCTETS_SHOWN * 2]
