"""go-msrpc (github.com/oiweiwei/go-msrpc), a client library nobody here wrote, in every test run.

Two things, both through the Go shim of shims/go-msrpc (built by `make`, or here when it is missing or older
than its sources; without Go these tests fail, they never skip):

- the client suite certifies go-msrpc's RemoteRead client, over NDR 2.0 and over NDR64, and its verdict on every
  client clause must be the one go_msrpc_verdicts.json holds: a clause that starts passing fails this test as
  surely as one that starts failing, so a new go-msrpc version (or a changed scenario) is noticed.  The rows of
  docs/certified.md for go-msrpc must say what the run found;
- go-msrpc is an oracle of the server: its client calls every RemoteRead method of `mqspec serve` with accounts,
  at NTLM and SPNEGO, packet integrity and privacy, and the packet sections it decodes equal, byte for byte,
  what mqspec's own client (adapters/mqrr/client.py) receives for the same messages.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from impacket import ntlm

from mqspec.adapters import MessageProperties, connect
from mqspec.catalogue import load_catalogue
from mqspec.protocol.constants import Access, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name
from mqspec.reports.tally import tally

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "shims" / "go-msrpc"
BINARY = MODULE / "bin" / "mqspec-go-msrpc"
EXPECTED = Path(__file__).with_name("go_msrpc_verdicts.json")
CERTIFIED = ROOT / "docs" / "certified.md"
SYNTAXES = {"NDR 2.0": [], "NDR64": ["--ndr64"]}
PASSWORD = "Passw0rd!"
LEVELS = {"integrity": 5, "privacy": 6}
BODY_LIMIT = 4096     # dwMaxBodySize of every read here: the large message comes in two sections


def go_shim() -> Path:
    """The shim's program, built first when it is missing or older than a source (go.sum as it is)."""
    sources = [*MODULE.glob("*.go"), MODULE / "go.mod", MODULE / "go.sum"]
    if BINARY.is_file() and BINARY.stat().st_mtime >= max(path.stat().st_mtime for path in sources):
        return BINARY
    if shutil.which("go") is None:
        pytest.fail("Go is not installed, so the go-msrpc shim cannot be built: install Go 1.23 or newer "
                    "(https://go.dev/dl) and run make", pytrace=False)
    env = {**os.environ, "GOFLAGS": "-mod=readonly -modcacherw -buildvcs=false", "GOTOOLCHAIN": "local"}
    built = subprocess.run(["go", "build", "-trimpath", "-o", str(BINARY), "."], cwd=MODULE, env=env,
                           capture_output=True, text=True, timeout=900)
    if built.returncode != 0:
        pytest.fail(f"go build of shims/go-msrpc failed:\n{built.stderr[-3000:]}", pytrace=False)
    return BINARY


# -- the client suite certifies go-msrpc -----------------------------------------------------------------
def certify(command: str, results: Path) -> dict[str, str]:
    """clause -> verdict of one client run over features/clients (reports/tally.py's verdicts)."""
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "features/clients", "-q", "-p", "no:cacheprovider", "-n", "0",
         "--client", command, "--results", str(results)], cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert (results / "junit.xml").is_file(), process.stdout[-3000:] + process.stderr[-2000:]
    model = tally(results, load_catalogue())
    (target,) = model["targets"]
    return {clause: cell["verdict"] for clause, cell in model["matrix"][target].items()}


def _differences(expected: dict[str, str], found: dict[str, str]) -> list[str]:
    return [f"{clause}: expected {expected.get(clause, 'absent')}, found {found.get(clause, 'absent')}"
            for clause in sorted(set(expected) | set(found)) if expected.get(clause) != found.get(clause)]


def _counts(verdicts: dict[str, str]) -> dict[str, int]:
    return {kind: sum(verdict == kind for verdict in verdicts.values())
            for kind in ("passed", "failed", "not run", "untestable")}


@pytest.mark.slow
@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_client_suite_certifies_go_msrpc_as_expected_clause_by_clause(syntax, tmp_path):
    command = " ".join([str(go_shim()), *SYNTAXES[syntax]])
    started = time.monotonic()
    found = certify(command, tmp_path / "r")
    print(f"go-msrpc over {syntax}: {_counts(found)} in {time.monotonic() - started:.1f} s")
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))[syntax]
    differences = _differences(expected, found)
    assert not differences, (f"go-msrpc over {syntax} no longer earns the verdicts {EXPECTED.name} holds (a fix or a "
                             "new failure: look, then update the file and docs/certified.md):\n  "
                             + "\n  ".join(differences))


def _certified_row(syntax: str) -> list[str]:
    for line in CERTIFIED.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) > 4 and cells[0].startswith("go-msrpc") and cells[3] == syntax:
            return cells
    raise AssertionError(f"docs/certified.md has no go-msrpc row for {syntax}")


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_the_published_table_says_what_go_msrpc_earns(syntax):
    """docs/certified.md's row agrees with go_msrpc_verdicts.json, which the run above holds to the truth."""
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))[syntax]
    counts = _counts(expected)
    cells = _certified_row(syntax)
    numbers = [int(n) for n in re.findall(r"\d+", " ".join(cells[4:7]))]
    assert numbers[:3] == [counts["passed"], counts["failed"], counts["not run"]], (cells, counts)
    for clause, verdict in expected.items():
        if verdict in ("failed", "not run"):
            assert clause in " ".join(cells), f"docs/certified.md's {syntax} row does not name {clause} ({verdict})"


# -- go-msrpc as an oracle of the server -------------------------------------------------------------------
class GoClient:
    """The shim driven line by line: the shim protocol, plus "raw" sections and server_port (main.go)."""

    def __init__(self, port: int, auth: str, level: str) -> None:
        self.process = subprocess.Popen(
            [str(go_shim()), "--user", "alice", "--password", PASSWORD, "--auth", auth, "--level", level],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.number = 0
        self.early: dict[int, dict] = {}   # replies to waiting calls that came while another was asked
        hello = self.ask("hello", server="127.0.0.1", port=port, computer="MQSPEC", protocol=1)
        assert hello["name"].startswith("go-msrpc v"), hello

    def ask(self, op: str, **args) -> dict:
        self.number += 1
        self.process.stdin.write(json.dumps({"id": self.number, "op": op, **args}) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            assert line, f"the shim ended: {self.process.stderr.read()[-2000:]}"
            reply = json.loads(line)
            if reply.get("id") == self.number and not reply.get("pending"):
                assert "error" not in reply, reply
                return reply
            if not reply.get("pending"):   # a waiting call ended first (a cancel's read may answer before it)
                self.early[reply["id"]] = reply

    def send_waiting(self, op: str, **args) -> int:
        self.number += 1
        self.process.stdin.write(json.dumps({"id": self.number, "op": op, **args}) + "\n")
        self.process.stdin.flush()
        assert json.loads(self.process.stdout.readline()) == {"id": self.number, "pending": True}
        return self.number

    def reply_to(self, number: int) -> dict:
        if number in self.early:
            return self.early.pop(number)
        reply = json.loads(self.process.stdout.readline())
        assert reply["id"] == number, reply
        return reply

    def close(self) -> None:
        try:
            self.ask("bye")
        finally:
            self.process.wait(30)


def _sections(out) -> list[dict]:
    return [{"type": s.section_buffer_type, "size_alloc": s.section_size_alloc, "size": s.section_size,
             "data": s.p_section_buffer.hex()} for s in out.pp_packet_sections]


def _python_reads(target, format_name: str) -> list[tuple[int, list[dict]]]:
    """(pSequenceId, sections) of every message of the queue, peeked in order by mqspec's own client."""
    opened = target.open_queue(from_format_name(format_name), Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE)
    assert opened.hresult == HRESULT.MQ_OK
    cursor = target.create_cursor(opened.pph_context).ph_cursor
    found, action = [], Action.MQ_ACTION_PEEK_CURRENT
    for number in range(1, 20):
        out = target.start_receive(opened.pph_context, 0, cursor, action, 0, number, BODY_LIMIT, BODY_LIMIT)
        if out.hresult != HRESULT.MQ_OK:
            break
        found.append((out.p_sequence_id, _sections(out)))
        action = Action.MQ_ACTION_PEEK_NEXT
    target.close_cursor(opened.pph_context, cursor)
    target.close_queue(opened.pph_context)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("auth", ["ntlm", "spnego"])
def test_go_msrpc_calls_every_remote_read_method_and_gets_the_sections_mqspec_s_client_gets(auth, level):
    from mqspec.adapters.in_process import InProcessTarget
    from mqspec.adapters.serve import serve
    from mqspec.adapters.wire.dcerpc_auth import Users

    hosted = InProcessTarget()
    users = Users({"alice": ntlm.compute_nthash(PASSWORD)})
    with serve(hosted, users=users, auth_level=LEVELS[level], judge=True) as served:
        ours = connect(f"mqrr://127.0.0.1:{served.port}?user=alice&password={PASSWORD}&auth=privacy")
        go = None
        try:
            host = "127.0.0.1"
            orders, ledger = (f"DIRECT=TCP:{host}\\PRIVATE$\\{name}" for name in ("orders", "ledger"))
            for name, transactional in (("orders", False), ("ledger", True), ("empty", False)):
                assert ours.create_queue(f"{ours.computer_name}\\private$\\{name}",
                                         transactional=transactional).hresult == HRESULT.MQ_OK
            assert ours.create_queue(f"{ours.computer_name}\\private$\\orders;archive").hresult == HRESULT.MQ_OK
            for number, body in enumerate([b"one", b"two", bytes(range(256)) * 30], start=1):
                ours.send(f"DIRECT=OS:{ours.computer_name}\\private$\\orders", MessageProperties(
                    body=body, label=f"m{number}", priority=number, correlation_id=bytes([number]) * 20,
                    application_tag=0x1000 + number))
            uow = ours.begin_transaction()
            ours.send(f"DIRECT=OS:{ours.computer_name}\\private$\\ledger",
                      MessageProperties(body=b"four", label="m4", delivery="recoverable"), uow)
            assert ours.commit_transaction(uow) == HRESULT.MQ_OK
            expected = _python_reads(ours, orders) + _python_reads(ours, ledger)
            assert len(expected) == 4   # in priority order: the large body first, in two sections
            assert [len(sections) for _, sections in expected] == [2, 1, 1, 1]
            ours.judge_forget()

            go = GoClient(served.port, auth, level)
            port = go.ask("server_port")
            # go-msrpc reads the DWORD R_GetServerPort returns as a status: the port comes to the application
            # as an error whose code is the port (MS-MQRR 3.1.4.1: a nonzero port is success)
            assert port["port"] == served.port and port["status"] == served.port, port
            got = []
            assert go.ask("open", queue="q", format_name=orders, access="receive", share="deny_none")["status"] == 0
            assert go.ask("cursor", queue="q", cursor="c")["status"] == 0
            for next_ in (False, True, True):
                got.append(go.ask("cursor_peek", cursor="c", next=next_, timeout=0, max_body=BODY_LIMIT, raw=True))
            assert go.ask("close_cursor", cursor="c")["status"] == 0
            received = go.ask("receive", queue="q", timeout=0, max_body=BODY_LIMIT, raw=True)
            assert received["sections"] == got[0]["sections"]
            assert go.ask("move", queue="q", lookup_id=got[1]["message"]["lookup_id"],
                          to=orders + ";archive")["status"] == 0
            assert go.ask("purge", queue="q")["status"] == 0
            assert go.ask("open", queue="l", format_name=ledger, access="receive", share="deny_none")["status"] == 0
            assert go.ask("begin", transaction="t")["status"] == 0
            got.append(go.ask("receive", queue="l", timeout=0, transaction="t", max_body=BODY_LIMIT, raw=True))
            assert go.ask("reject", queue="l", lookup_id=got[3]["message"]["lookup_id"])["status"] == 0
            assert go.ask("open", queue="e", format_name=f"DIRECT=TCP:{host}\\PRIVATE$\\empty", access="receive",
                          share="deny_none")["status"] == 0
            waiting = go.send_waiting("receive", queue="e", timeout=60000, wait="w")
            time.sleep(0.3)
            assert go.ask("cancel", request="w")["status"] == 0
            assert go.reply_to(waiting)["status"] == HRESULT.MQ_ERROR_OPERATION_CANCELLED
            for queue in ("q", "l", "e"):
                assert go.ask("close", queue=queue)["status"] == 0

            for (sequence_id, sections), reply in zip(expected, got):
                assert reply["status"] == 0, reply
                assert reply["sections"] == sections      # byte for byte, section by section
                assert reply["sequence_id"] & 0x00FFFFFFFFFFFFFF == sequence_id & 0x00FFFFFFFFFFFFFF
            calls = ours.judge_calls()
            methods = {call["method"] for call in calls}
            assert methods == {"R_GetServerPort", "R_OpenQueue", "R_CloseQueue", "R_CreateCursor", "R_CloseCursor",
                               "R_PurgeQueue", "R_StartReceive", "R_CancelReceive", "R_EndReceive",
                               "R_MoveMessage", "R_OpenQueueForMove", "R_QMEnlistRemoteTransaction",
                               "R_StartTransactionalReceive", "R_SetUserAcknowledgementClass",
                               "R_EndTransactionalReceive"}, methods
            # every call as alice, by the package and at the level asked ([MS-RPCE] 2.2.1.1.7, 2.2.1.1.8)
            how = [{"spnego": 9, "ntlm": 10}[auth], LEVELS[level]]
            assert all(call["user"] == "alice" and call["auth"] == how and call["fault"] is None for call in calls), \
                [(call["method"], call["user"], call["auth"], call["fault"]) for call in calls]
        finally:
            if go is not None:
                go.close()
            ours.close()
    hosted.close()


# -- go-msrpc's behaviour after a fault, held as it is -------------------------------------------------------
@pytest.mark.slow
def test_go_msrpc_closes_its_connection_at_a_fault_and_the_handles_of_its_association_go_with_it(tmp_path):
    """A fault ends go-msrpc's connection (dcerpc's ReadPacket closes the transport on any error): with no other
    connection in the group the association ends, and a handle it gave is refused on the next association.  A
    go-msrpc that keeps its connection after a fault fails this test: then look, and update docs/certified.md."""
    from mqspec.adapters.judge import open_judge
    from mqspec.adapters.shim import Shim
    from mqspec.protocol.hresult import RpcStatus

    judge = open_judge()
    try:
        judge.begin_scenario()
        target = judge.target
        assert target.create_queue(f"{target.computer_name}\\private$\\orders").hresult == HRESULT.MQ_OK
        target.send(f"DIRECT=OS:{target.computer_name}\\private$\\orders", MessageProperties(body=b"one", label="m1"))
        shim = Shim(str(go_shim()), stderr_path=tmp_path / "shim.stderr")
        shim.start(judge.host, judge.port, judge.computer_name)
        try:
            orders = f"DIRECT=TCP:{judge.host}\\PRIVATE$\\orders"
            assert shim.request("open", queue="q", format_name=orders, access="receive",
                                share="deny_none")["status"] == 0
            judge.inject("R_CreateCursor", "fault", RpcStatus.RPC_S_CALL_FAILED)
            assert shim.request("cursor", queue="q", cursor="c")["status"] == RpcStatus.RPC_S_CALL_FAILED
            after = shim.request("peek", queue="q", timeout=0)
        finally:
            shim.close()
        opened, faulted, peek = judge.calls()[:3]
        assert (opened["method"], faulted["method"], peek["method"]) == ("R_OpenQueue", "R_CreateCursor",
                                                                          "R_StartReceive")
        assert faulted["association"] == opened["association"]
        assert peek["association"] != opened["association"] and peek["fault"] is not None   # the handle is gone
        assert after["status"] != 0
    finally:
        judge.close()
