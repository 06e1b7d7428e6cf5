"""Wrong servers of the wire's security (strength/wire_variants.py), served at auth=privacy with accounts and
certified over the wire: the suite's RPC security scenarios (MS-MQRR 2.1:05 - 2.1:08) must fail each of them, in
a scenario of the clause it misreads, and pass the real server."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mqspec.adapters import connect
from mqspec.adapters.serve import serve
from mqspec.adapters.wire.dcerpc_auth import Users
from mqspec.strength.wire_variants import WIRE_VARIANTS, load, served_with

ROOT = Path(__file__).resolve().parents[1]
CLAUSES = ("MS-MQRR:2.1:05", "MS-MQRR:2.1:06", "MS-MQRR:2.1:07", "MS-MQRR:2.1:08")
ACCOUNTS = "user=alice&password=Passw0rd!&second_user=bob&second_password=S3cond!&auth=privacy"


def _certify(tmp_path: Path, name: str) -> dict[str, list[bool]]:
    """The suite's RPC security scenarios against a server of this process (the wire variant `name` in place, or
    the real one): clause -> whether each of its scenarios failed (each clause failed when the suite's client
    refused the server before any scenario: a response whose signature or sealing does not verify)."""
    (tmp_path / "users").write_text("alice:Passw0rd!\nbob:S3cond!\n", encoding="utf-8")
    hosted = connect("reference")
    served = serve(hosted, "127.0.0.1", 0, log=lambda line: None, users=Users.from_file(tmp_path / "users"),
                   auth_level=2)   # accounts, calls at connect or above
    try:
        results = tmp_path / name
        command = [sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider", "-n", "0",
                   "--results", str(results), "--target", f"mqrr://127.0.0.1:{served.port}?{ACCOUNTS}"]
        for clause in CLAUSES:
            command += ["--clause", clause]
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        served.stop()
        hosted.close()
    found: dict[str, list[bool]] = {}
    if "a signature did not verify" in run.stdout + run.stderr:   # the client's own check refused the server
        return {clause: [True] for clause in CLAUSES}
    for case in ET.parse(results / "junit.xml").getroot().iter("testcase"):
        clauses = [p.get("value") for p in case.iter("property") if p.get("name") == "clause"]
        if case.find("skipped") is not None:
            continue
        failed = case.find("failure") is not None or case.find("error") is not None
        for clause in clauses:
            found.setdefault(clause, []).append(failed)
    return found


def test_every_wire_variant_applies_once():
    for variant in WIRE_VARIANTS.values():
        assert variant.clause in CLAUSES and load(variant) is not None


@pytest.mark.slow
def test_the_real_server_passes_the_rpc_security_scenarios(tmp_path):
    found = _certify(tmp_path, "real")
    assert set(found) == set(CLAUSES) and not any(any(verdicts) for verdicts in found.values()), found


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WIRE_VARIANTS))
def test_each_wrong_wire_server_fails_a_scenario_of_the_clause_it_misreads(tmp_path, name):
    with served_with(name) as variant:
        found = _certify(tmp_path, name)
    assert any(found.get(variant.clause, [])), f"{name} ({variant.text}) passed every scenario of {variant.clause}"
