"""The evidence of a failing scenario (mqspec/evidence.py) and the PDUs behind it (adapters/wire/capture.py).

A run of a wrong queue manager (the strength variant fifo-ignores-priority, in process) leaves one evidence file per
failing scenario and none for a passing one: the failing step and the assertion, every step with its data table,
the calls with the target's answers.  Over the wire a client keeps its latest PDUs in a bounded ring, decoded on
demand: PDU type, call id, opnum, lengths, the stub's fields.
"""

from __future__ import annotations

import json
import subprocess
import sys

from mqspec.adapters import connect
from mqspec.adapters.wire.capture import WireCapture
from mqspec.evidence import evidence_name
from mqspec.protocol.constants import Access, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name
from tests.serving import ROOT

MISREAD = "MS-MQDMPR:3.1.7.1.9:04"   # fifo-ignores-priority fails its scenario that sends a table of messages


def test_a_failing_scenario_leaves_its_steps_tables_assertion_and_calls_and_a_passing_one_nothing(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pytest", "features/test_conformance.py", "-q", "-p",
                          "no:cacheprovider", "-m", f"clause(id='{MISREAD}')",
                          "--target", "reference?variant=fifo-ignores-priority", "--results", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout[-2000:]
    failed = [line.split()[1].split("::")[1] for line in run.stdout.splitlines() if line.startswith("FAILED ")]
    files = sorted((tmp_path / "evidence").glob("*.json"))
    evidence = [json.loads(path.read_text(encoding="utf-8")) for path in files]
    assert sorted(e["name"] for e in evidence) == sorted(failed) and failed   # one file per failure, none else
    for e in evidence:
        assert (tmp_path / evidence_name(e["nodeid"])).is_file()
    table = next(e for e in evidence if any(step["datatable"] for step in e["steps"]))
    steps = table["steps"]
    assert steps[-1]["status"] == "failed" and all(step["status"] == "passed" for step in steps[:-1])
    assert table["failure"]["step"] == f"{steps[-1]['keyword']} {steps[-1]['text']}"
    assert table["failure"]["message"].startswith("AssertionError: ") and "_pytest" not in table["failure"]["message"]
    sent = next(step for step in steps if step["datatable"])["datatable"]
    assert sent[0] == ["label", "priority"] and len(sent) >= 3
    sends = [call for call in table["calls"] if call["method"] == "send"]
    assert len(sends) == len(sent) - 1 and all(call["result"]["hresult"] == "MQ_OK (0x00000000)" for call in sends)
    assert table["pdus"] == [] and table["judge"] is None and table["target"].startswith("reference")


def test_a_wire_client_keeps_its_latest_pdus_and_decodes_them(served):
    with connect(f"mqrr://127.0.0.1:{served.port}") as client:
        queue = client.create_queue(f"{client.computer_name}\\private$\\evidence").format_name
        handle = client.open_queue(from_format_name(queue), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE)
        out = client.start_receive(handle.pph_context, 0, 0, Action.MQ_ACTION_RECEIVE, 0, 5, 4096, 4096)
        assert out.hresult == HRESULT.MQ_ERROR_IO_TIMEOUT
        pdus = client.wire_evidence()
    assert [pdu["type"] for pdu in pdus[:2]] == ["bind", "bind_ack"]   # the first connection's bind, then calls
    opened = [pdu for pdu in pdus if pdu.get("method") == "R_OpenQueue"]
    assert [pdu["type"] for pdu in opened] == ["request", "response"]
    assert opened[0]["call_id"] == opened[1]["call_id"] and opened[0]["direction"] == "out"
    assert opened[0]["stub"]["dwAccess"] == Access.RECEIVE_ACCESS and opened[1]["stub"]["pphContext"]
    received = [pdu for pdu in pdus if pdu.get("method") == "R_StartReceive"]
    assert received[0]["stub"]["dwRequestId"] == 5 and received[0]["stub"]["ulTimeout"] == 0
    assert received[1]["stub"]["ReturnValue"] == HRESULT.MQ_ERROR_IO_TIMEOUT
    assert bytes.fromhex(received[1]["hex"])[:3] == bytes([5, 0, 2])   # rpc_vers 5.0, PTYPE response
    assert received[1]["frag_length"] == received[1]["length"] == len(received[1]["hex"]) // 2


def test_the_ring_is_bounded_and_splits_several_pdus_written_at_once():
    capture = WireCapture("RemoteRead", kept=4)
    request = bytes([5, 0, 0, 3, 0x10, 0, 0, 0]) + (28).to_bytes(2, "little") + bytes(2) + (7).to_bytes(4, "little")
    request += (4).to_bytes(4, "little") + bytes(2) + (9).to_bytes(2, "little") + b"\x01\x02\x03\x04"
    for _ in range(6):
        capture.tap(1, "out", request + request)   # two PDUs in one write
    pdus = capture.pdus(lambda opnum, kind, stub: {"opnum": opnum, "stub": stub.hex()})
    assert capture.dropped == 2 and len(pdus) == 8
    assert all(pdu["opnum"] == 9 and pdu["stub"] == {"opnum": 9, "stub": "01020304"} for pdu in pdus)
