"""Client certification: the judging server, the shim protocol and the wrong clients the suite must catch.

The client scenarios themselves run in features/clients (every shipped shim, in
`make test`); these tests hold the parts underneath them to what
docs/client-shim.md promises, and prove that every wrong client of
mqspec.shims.wrong fails at least one scenario of the clause it misreads.
"""

from __future__ import annotations

import ast
import json
import os
import shlex
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mqspec.adapters import MessageProperties, TargetError, connect
from mqspec.adapters.judge import open_judge
from mqspec.adapters.mqrr.control import ControlError
from mqspec.adapters.shim import Shim, ShimError, ShimUnimplemented
from mqspec.cli import main
from mqspec.protocol.hresult import HRESULT, RpcStatus

from mqspec.shims.wrong import VARIANTS
from mqspec.strength.run import at_fault, read_junit

ROOT = Path(__file__).resolve().parents[1]
PYTHON = shlex.quote(sys.executable)
BUILT_IN = f"{PYTHON} -m mqspec.shims.mqrr"
INDEPENDENT = f"{PYTHON} -m mqspec.shims.independent"


@pytest.fixture(scope="module")
def judge():
    judge = open_judge()
    yield judge
    judge.close()


@pytest.fixture
def orders(judge):
    """A judge as at its first start, holding "orders" with one message; the DIRECT= name a client opens."""
    judge.begin_scenario()
    target = judge.target
    created = target.create_queue(f"{target.computer_name}\\private$\\orders")
    assert created.hresult == HRESULT.MQ_OK
    sent = target.send(f"DIRECT=OS:{created.pathname}", MessageProperties(body=b"one", label="m1"))
    assert sent.hresult == HRESULT.MQ_OK
    return f"DIRECT=TCP:{judge.host}\\PRIVATE$\\orders"


@pytest.fixture
def client(judge, tmp_path):
    shim = Shim(BUILT_IN, stderr_path=tmp_path / "shim.stderr")
    shim.start(judge.host, judge.port, judge.computer_name)
    yield shim
    shim.close()


# -- the judge's records -----------------------------------------------------------------------------
def test_the_judge_records_every_call_with_its_arguments_and_answer(judge, orders, client):
    assert client.request("open", queue="q", format_name=orders, access="receive", share="deny_none")["status"] == 0
    reply = client.request("receive", queue="q", timeout=0)
    assert reply["status"] == 0 and reply["message"]["label"] == "m1"
    calls = judge.calls()
    assert [call["method"] for call in calls] == ["R_OpenQueue", "R_StartReceive", "R_EndReceive"]
    opened, start, end = calls
    assert opened["args"]["dwAccess"] == 0x1 and opened["status"] == HRESULT.MQ_OK and opened["done"]
    assert len(opened["args"]["pClientId"]) == 32   # hex of the client's GUID
    assert start["args"]["phContext"] == end["args"]["phContext"] == opened["outputs"]["pphContext"]
    assert start["args"]["dwRequestId"] == end["args"]["dwRequestId"] and end["args"]["dwAck"] == 2
    assert [call["seq"] for call in calls] == sorted(call["seq"] for call in calls)
    assert all(call["association"] == calls[0]["association"] for call in calls)
    judge.target.judge_forget()
    assert judge.calls() == []


def test_opnum_1_is_recorded_and_refused(judge, orders, tmp_path):
    """A call the interface has no method for is a record too (MS-MQRR 3.1.4:03): the suite sees it."""
    shim = Shim(f"{PYTHON} -m mqspec.shims.wrong calls-opnum-1", stderr_path=tmp_path / "shim.stderr")
    try:
        shim.start(judge.host, judge.port, judge.computer_name)
        shim.request("open", queue="q", format_name=orders, access="peek", share="deny_none")
    finally:
        shim.close()
    first = judge.calls()[0]
    assert (first["opnum"], first["method"], first["fault"]) == (1, None, RpcStatus.NCA_S_OP_RNG_ERROR)


def test_an_injected_hresult_answers_the_call_and_nothing_runs(judge, orders, client):
    judge.inject("R_OpenQueue", "hresult", HRESULT.MQ_ERROR_QUEUE_NOT_FOUND)
    reply = client.request("open", queue="q", format_name=orders, access="receive", share="deny_none")
    assert reply["status"] == HRESULT.MQ_ERROR_QUEUE_NOT_FOUND
    (call,) = judge.calls()
    # R_OpenQueue returns void: the judge throws the status (MS-MQRR 3.1.4.2)
    assert call["injected"] == "hresult" and call["fault"] == HRESULT.MQ_ERROR_QUEUE_NOT_FOUND
    # the plan is used up: the next open runs
    assert client.request("open", queue="q", format_name=orders, access="receive", share="deny_none")["status"] == 0


def test_an_injected_fault_and_a_dropped_connection_reach_the_client(judge, orders, client):
    judge.inject("R_OpenQueue", "fault", RpcStatus.RPC_S_CALL_FAILED)
    reply = client.request("open", queue="q", format_name=orders, access="receive", share="deny_none")
    assert reply["status"] != 0
    judge.inject("R_OpenQueue", "drop")
    reply = client.request("open", queue="q", format_name=orders, access="receive", share="deny_none")
    assert reply["status"] != 0
    kinds = [(call["injected"], call.get("fault") is not None, call.get("dropped")) for call in judge.calls()]
    assert kinds[:2] == [("fault", True, False), ("drop", False, True)]
    # after the drop, the client reaches the judge again on a new association
    assert client.request("open", queue="q", format_name=orders, access="receive", share="deny_none")["status"] == 0


def test_an_injection_skips_and_repeats_as_asked(judge, orders, client):
    judge.inject("R_OpenQueue", "hresult", HRESULT.MQ_ERROR_ACCESS_DENIED, skip=1, times=2)
    statuses = [client.request("open", queue=f"q{n}", format_name=orders, access="peek",
                               share="deny_none")["status"] for n in range(4)]
    assert statuses == [0, HRESULT.MQ_ERROR_ACCESS_DENIED, HRESULT.MQ_ERROR_ACCESS_DENIED, 0]


@pytest.mark.parametrize("method, kind, why", [
    ("R_Nothing", "hresult", "no RemoteRead method"),
    ("R_OpenQueue", "explode", "kind 'explode'"),
    ("R_OpenQueue", "damage", "only the packet sections"),
])
def test_a_bad_injection_is_one_clear_error(judge, method, kind, why):
    with pytest.raises(ControlError, match=why):
        judge.inject(method, kind)


def test_a_server_that_does_not_judge_is_refused(tmp_path):
    from mqspec.adapters.serve import serve
    hosted = connect("reference")
    served = serve(hosted, "127.0.0.1", 0, log=lambda line: None)
    try:
        with pytest.raises(TargetError, match="not a judging server"):
            open_judge(f"mqrr://127.0.0.1:{served.port}")
        with pytest.raises(TargetError, match="mqrr://host:port"):
            open_judge("reference")
    finally:
        served.stop()
        hosted.close()


# -- the shim protocol -------------------------------------------------------------------------------
def _fake_shim(tmp_path: Path, body: str) -> str:
    """A shim written for one test: `body` handles `request` (a dict) and may call answer(dict)."""
    path = tmp_path / "fake_shim.py"
    path.write_text(textwrap.dedent("""\
        import json, sys
        def answer(reply):
            print(json.dumps(reply), flush=True)
        for line in sys.stdin:
            request = json.loads(line)
            op, number = request["op"], request["id"]
            if op == "hello":
                answer({"id": number, "name": "fake 1.0"})
                continue
            if op == "bye":
                answer({"id": number, "status": 0})
                break
        """) + textwrap.indent(textwrap.dedent(body), "    "))
    return f"{PYTHON} {shlex.quote(str(path))}"


@pytest.mark.parametrize("body, why", [
    ('print("hello there", flush=True)\n', "not a reply"),
    ('sys.stderr.write("it broke\\n"); sys.exit(3)\n', "exit status 3.*it broke"),
    ('answer({"id": number, "error": "my own bug"})\n', "an error of its own: my own bug"),
    ('answer({"id": number, "status": "fine"})\n', "no 32-bit 'status'"),
])
def test_a_shim_that_breaks_the_protocol_is_one_clear_error(tmp_path, judge, body, why):
    shim = Shim(_fake_shim(tmp_path, body), stderr_path=tmp_path / "stderr")
    try:
        shim.start(judge.host, judge.port, judge.computer_name)
        with pytest.raises(ShimError, match=why):
            shim.request("open", queue="q", format_name="DIRECT=TCP:x\\PRIVATE$\\q", access="peek",
                         share="deny_none")
    finally:
        shim.close()


def test_a_shim_that_does_not_implement_an_operation_says_so(tmp_path, judge):
    shim = Shim(_fake_shim(tmp_path, 'answer({"id": number, "unimplemented": "cursors"})\n'))
    try:
        shim.start(judge.host, judge.port, judge.computer_name)
        with pytest.raises(ShimUnimplemented, match="does not implement cursor"):
            shim.request("cursor", queue="q", cursor="c")
    finally:
        shim.close()


def test_a_shim_that_cannot_start_is_one_clear_error(tmp_path):
    with pytest.raises(ShimError, match="cannot start it"):
        Shim(str(tmp_path / "no-such-program"))
    with pytest.raises(ShimError, match="No closing quotation"):
        Shim("python3 'unclosed")


def test_an_unimplemented_operation_makes_its_scenarios_not_run_never_passed(tmp_path):
    """BoGo's rule: a library that cannot do something is not certified for it."""
    body = 'answer({"id": number, "unimplemented": op})\n'
    results = tmp_path / "r"
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "features/clients", "-q", "-p", "no:cacheprovider", "-n", "0",
         "--client", _fake_shim(tmp_path, body), "--results", str(results), "--clause", "MS-MQRR:3.1.4.7:05"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert process.returncode == 0, process.stdout[-2000:]
    cases = ET.parse(results / "junit.xml").getroot().iter("testcase")
    skipped = [case.find("skipped").get("message") for case in cases if case.find("skipped") is not None]
    assert skipped and all("not run: the client does not implement open" in text for text in skipped)
    run = json.loads((results / "run.json").read_text())
    assert run["targets"] == ["client fake 1.0"]


# -- the shipped shims -------------------------------------------------------------------------------
def test_the_independent_shim_takes_nothing_from_mqspec():
    """It is the second opinion on the client side: the standard library and impacket only."""
    source = (ROOT / "shims" / "independent.py").read_text(encoding="utf-8")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"a relative import: from {'.' * node.level}{node.module or ''}"
            imported.add(node.module.split(".")[0])
    assert imported - set(sys.stdlib_module_names) <= {"impacket"}, imported


def test_certify_a_client_against_a_judge_started_apart(tmp_path, capsys):
    """The README's two lines: `mqspec serve --judge`, then certify --client ... --judge URL."""
    from mqspec.adapters.serve import free_sequence
    port = free_sequence("127.0.0.1", 1)
    server = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "serve", "--judge", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert "judging clients" in server.stdout.readline()
        status = main(["certify", "--client", BUILT_IN, "--judge", f"mqrr://127.0.0.1:{port}", "--no-report",
                       "--clause", "MS-MQRR:3.1.4.7:01", "--results", str(tmp_path / "r")])
        out = capsys.readouterr().out
        assert status == 0, out
        assert "client mqspec-mqrr" in out and ": incomplete" in out   # one clause selected: nothing failed, the rest not run
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.parametrize("arguments, message", [
    (["--client", "no-such-shim --fast"], "no program 'no-such-shim' on PATH"),
    (["--client", "python3 'x"], "No closing quotation"),
    (["--client", ""], "the shim's command is empty"),
    (["--judge", "mqrr://127.0.0.1:9"], "it judges clients"),
])
def test_certify_refuses_a_bad_client_in_one_line(arguments, message, capsys):
    assert main(["certify", *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


# -- wrong clients -----------------------------------------------------------------------------------
FOCUS = """\
import pytest

from mqspec.shims.wrong import VARIANTS


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    # each wrong client meets the scenarios of the clause it misreads, and no others
    keep, drop = [], []
    for item in items:
        command = item.callspec.params.get("client_command", "") if hasattr(item, "callspec") else ""
        variant = VARIANTS.get(command.split()[-1]) if command else None
        clauses = {mark.args[0] for mark in item.iter_markers("clause")}
        (keep if variant is not None and variant.clause in clauses else drop).append(item)
    config.hook.pytest_deselected(items=drop)
    items[:] = keep
"""


def _verdicts_by_client(junit: Path) -> dict[str, list[str | None]]:
    """client name -> for each of its scenarios, how it failed (the failure's first line) or None if it passed (the
    suite's junit.xml names the client)."""
    found: dict[str, list[str | None]] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        target = next((p.get("value") for p in case.iter("property") if p.get("name") == "target"), "")
        failure = case.find("failure") if case.find("failure") is not None else case.find("error")
        how = None if failure is None else (failure.get("message") or "failed").strip().splitlines()[0][:110]
        found.setdefault(target, []).append(how and f"{case.get('name')}: {how}")
    return found


def test_every_condition_of_every_client_rule_has_a_wrong_client():
    """Where a rule checks several things, each is broken alone by a wrong client (steps/client_conditions.py); a
    condition no client can break on the wire says why instead."""
    from mqspec.steps.client_conditions import CONDITIONS, UNBREAKABLE, condition_names
    from mqspec.steps.client_rules import RULES
    assert set(CONDITIONS) == set(RULES)
    names = condition_names()
    broken = {condition for variant in VARIANTS.values() for condition in variant.breaks}
    assert broken <= set(names), f"wrong clients break conditions no rule has: {sorted(broken - set(names))}"
    assert set(UNBREAKABLE) <= set(names) and not set(UNBREAKABLE) & broken
    assert set(names) - broken - set(UNBREAKABLE) == set(), "conditions no wrong client breaks"


@pytest.mark.slow
def test_every_wrong_client_is_caught_by_the_scenarios_of_the_clause_it_misreads(tmp_path):
    """A kill rate of 100%, per wrong client and per condition of every client rule: each wrong client of
    mqspec.shims.wrong runs the scenarios tagged with the clause it misreads, and at least one of them fails.  The
    tables of what caught each wrong client and each condition are written beside the results."""
    from mqspec.steps.client_conditions import UNBREAKABLE, condition_names
    (tmp_path / "wrong_focus.py").write_text(FOCUS, encoding="utf-8")
    results = tmp_path / "r"
    command = [sys.executable, "-m", "pytest", "features/clients", "-q", "-p", "no:cacheprovider", "-n", "2",
               "-p", "wrong_focus", "--results", str(results)]
    for name in VARIANTS:
        command += ["--client", f"{PYTHON} -m mqspec.shims.wrong {name}"]
    started = time.monotonic()
    process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1800,
                             env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert (results / "junit.xml").is_file(), process.stdout[-3000:] + process.stderr[-2000:]
    found = _verdicts_by_client(results / "junit.xml")
    _, junit_failures = read_junit(results / "junit.xml")   # the strength table's reading: the clauses at fault
    table = ["| wrong client | clause it misreads | its scenarios that caught it | the first failure | "
             "clauses at fault, likeliest first |", "|---|---|---|---|---|"]
    missed, caught = [], {}
    for name, variant in VARIANTS.items():
        verdicts = found.get(f"client mqspec-wrong-{name}", [])
        failures = [how for how in verdicts if how]
        blamed = at_fault([failure for failure in junit_failures
                           if f"wrong {name}]" in failure.test or f"wrong {name}-" in failure.test])
        table.append(f"| {name} | {variant.clause} | {len(failures)} of {len(verdicts)} | "
                     f"{(failures or ['-'])[0].replace('|', '/')} | "
                     + ", ".join(f"{clause} ({count})" for clause, count in blamed[:4]) + " |")
        if failures:
            caught.update({condition: caught.get(condition, []) + [name] for condition in variant.breaks})
        else:
            missed.append(f"{name} ({len(verdicts)} scenarios of {variant.clause} passed it)")
    names = condition_names()
    rows = ["| rule | condition | wrong clients that break it, all caught |", "|---|---|---|"]
    for condition, sentence in names.items():
        by = ", ".join(caught.get(condition, [])) or (f"none can: {UNBREAKABLE[condition]}"
                                                       if condition in UNBREAKABLE else "**NOT CAUGHT**")
        rows.append(f"| {sentence} | {condition.split(':', 1)[1]} | {by} |")
    proven = sum(1 for condition in names if condition in caught)
    rows.append(f"\n{proven} of {len(names)} conditions proven (kill rate 100% each), "
                f"{len(UNBREAKABLE)} that no client can break on the wire.")
    (results / "wrong-clients.md").write_text("\n".join(table + [""] + rows) + "\n", encoding="utf-8")
    print("\n".join(table + [""] + rows) + f"\n{len(VARIANTS)} wrong clients in {time.monotonic() - started:.0f} s")
    assert not missed, f"wrong clients their clause's scenarios did not catch: {'; '.join(missed)}"
    assert proven + len(UNBREAKABLE) == len(names)


def test_the_wrong_clients_list_themselves_with_the_clause_each_misreads():
    listed = subprocess.run([sys.executable, "-m", "mqspec.shims.wrong", "--list"], capture_output=True, text=True,
                            timeout=60)
    assert listed.returncode == 0
    rows = [line.split()[:2] for line in listed.stdout.splitlines()]
    assert rows == [[name, variant.clause] for name, variant in VARIANTS.items()] and len(rows) >= 12
