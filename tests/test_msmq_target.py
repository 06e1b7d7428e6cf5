"""A Windows-like host certified with nothing but the network: `mqspec serve --as-windows` through msmq://.

`mqspec serve --as-windows --users FILE` offers only what a Windows host offers (MS-MQRR at packet privacy,
MS-MQQB on a port of its own, real time, the queues of `mqspec windows-setup`, no control interface), and the
server scenarios certify it through `msmq://`: none may fail; what the target cannot set up is not run, naming
what it needs.  The run's clause verdicts are printed (how many server clauses such a host is certified on, and
the groups not run), and the administration acknowledgments of MS-MQQB 3.1.7.15 are among those passed.
"""

from __future__ import annotations

import collections
import contextlib
import re
import subprocess
import sys
import threading
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mqspec.catalogue import load_catalogue
from mqspec.reports.summary import summary_lines
from mqspec.reports.tally import tally
from mqspec.windows_setup import setup_queues
from tests.serving import stop

ROOT = Path(__file__).resolve().parent.parent
PASSWORDS = {"alice": "Passw0rd!", "bob": "S3cond!"}


@contextlib.contextmanager
def as_windows(users: Path):
    """The msmq:// URL `mqspec serve --as-windows` prints, with the passwords added; the server stopped after."""
    process = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "serve", "--port", "0", "--as-windows",
                                "--users", str(users)], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        lines = [process.stderr.readline(), process.stderr.readline()]
        match = re.search(r"(msmq://\S+)", lines[1])
        assert match, f"the server did not start as a Windows host: {lines}"
        assert "password" not in match.group(1), "the URL it prints carries no password"
        threading.Thread(target=lambda: collections.deque(process.stderr, maxlen=0), daemon=True).start()
        yield match.group(1) + "".join(f"&{key}={value}" for key, value in
                                       (("password", PASSWORDS["alice"]), ("second_password", PASSWORDS["bob"])))
    finally:
        stop(process, 30)


def _scenarios(results: Path) -> dict[str, tuple[str, str, set[str]]]:
    """name -> (outcome, message, clauses) of every scenario of the run."""
    out = {}
    for case in ElementTree.parse(results / "junit.xml").iter("testcase"):
        clauses = {p.get("value") for p in case.iter("property") if p.get("name") == "clause"}
        failed = case.find("failure") if case.find("failure") is not None else case.find("error")
        skipped = case.find("skipped")
        outcome = "failed" if failed is not None else "skipped" if skipped is not None else "passed"
        message = (failed if failed is not None else skipped if skipped is not None else case).get("message", "")
        out[case.get("name")] = (outcome, message, clauses)
    return out


@pytest.mark.slow
@pytest.mark.timeout(2400)
def test_a_windows_like_host_is_certified_through_msmq_with_no_failure(tmp_path):
    (tmp_path / "users").write_text("".join(f"{name}:{password}\n" for name, password in PASSWORDS.items()),
                                    encoding="utf-8")
    results = tmp_path / "results"
    with as_windows(tmp_path / "users") as url:
        run = subprocess.run([sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider",
                              "--target", url, "--results", str(results), "-k", "not test_machines"],
                             cwd=ROOT, capture_output=True, text=True, timeout=2400)
    scenarios = _scenarios(results)
    failed = [f"{name}: {message}" for name, (outcome, message, _) in scenarios.items() if outcome == "failed"]
    assert not failed, "\n".join(failed[:20])
    assert run.returncode == 0, run.stdout[-3000:]
    lines = summary_lines(tally(results, load_catalogue()))
    print("\n".join(lines))   # how many server clauses a Windows host is certified on, and what the rest need
    counts = re.search(r"clauses (\d+) passed, 0 failed, (\d+) not run", lines[0])
    assert counts and int(counts.group(1)) >= 150, lines[0]
    needs = [line for line in lines if line.startswith("  not run, by what they need: ")]
    assert needs and "virtual_time" in needs[0] and "internal_transactions" in needs[0], lines
    acknowledgments = [name for name, (outcome, _, clauses) in scenarios.items()
                       if outcome == "passed" and any(c.startswith("MS-MQQB:3.1.7.15:") for c in clauses)]
    assert len(acknowledgments) >= 10, "the administration acknowledgments of MS-MQQB 3.1.7.15 are certified"
    made = {queue.name for queue in setup_queues()[0]}
    missing = {match.group(1) for _, message, _ in scenarios.values()
               for match in [re.search(r"the host has no queue (\S+) ", message)] if match}
    assert missing and not missing & made, "a queue of the setup script was missing on the host"


def _certify(url: str, results: Path, *options: str) -> dict[str, tuple[str, str, set[str]]]:
    subprocess.run([sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider", "--target", url,
                    "--results", str(results), *options], cwd=ROOT, capture_output=True, text=True, timeout=600)
    return _scenarios(results)


@pytest.fixture(scope="module")
def windows_like(tmp_path_factory):
    users = tmp_path_factory.mktemp("users") / "users"
    users.write_text("".join(f"{name}:{password}\n" for name, password in PASSWORDS.items()), encoding="utf-8")
    with as_windows(users) as url:
        yield url


def test_the_target_maps_queues_sends_over_mqqb_and_sees_what_arrived(windows_like):
    from mqspec.adapters import MessageProperties, TargetCapabilityError, connect
    target = connect(windows_like)
    try:
        assert target.capabilities == {"rpc", "mqqb_peer", "real_time", "identities"}
        created = target.create_queue(f"{target.computer_name}\\private$\\mqs0a1b2c-orders", transactional=True)
        assert created.format_name == f"DIRECT=OS:{target.computer_name}\\private$\\mqspec-orders-tx"
        out = target.send(created.format_name, MessageProperties(label="m1"))
        assert out.r_status is None, "a plain message is not seen in a transactional queue"
        out = target.send_in_own_transaction(created.format_name, MessageProperties(label="m2"))
        assert out.r_status == 0 and out.message_id[:16] != target.queue_manager_identifier
        assert [m.p_sequence_id for m in target.read_queue(created.format_name).messages]
        with pytest.raises(TargetCapabilityError, match="create_queue"):
            target.create_queue(f"{target.computer_name}\\private$\\mqs0a1b2c-nowhere")
        with pytest.raises(TargetCapabilityError, match="internal_transactions"):
            target.begin_transaction()
        with pytest.raises(TargetCapabilityError, match="virtual_time"):
            target.elapse(1)
    finally:
        target.close()
    again = connect(windows_like)   # the scenario's queues were emptied when its client closed
    try:
        assert again.read_queue(created.format_name).messages == ()
    finally:
        again.close()


def test_a_bad_msmq_url_is_one_line(windows_like):
    from mqspec.adapters import TargetError, connect
    for url, words in ((windows_like + "&acceptor=nowhere", "acceptor"), (windows_like + "&colour=red", "colour"),
                       (re.sub(r"mqqb_port=\d+", "mqqb_port=1", windows_like), "MS-MQQB")):
        with pytest.raises(TargetError, match=words) as caught:
            connect(url)
        assert "\n" not in str(caught.value) and "Passw0rd" not in str(caught.value)


def test_the_acceptor_hands_over_each_connection_once():
    import socket

    from mqspec.adapters.msmq.acceptor import Acceptor
    acceptor = Acceptor("127.0.0.1", 0)
    try:
        with socket.create_connection(("127.0.0.1", acceptor.port)) as peer:
            peer.sendall(b"hello")
            for _ in range(100):
                taken = acceptor.take_new()
                if taken:
                    break
                threading.Event().wait(0.02)
            assert len(taken) == 1 and taken[0].receive(1000) == b"hello" and acceptor.take_new() == []
            taken[0].close()
    finally:
        acceptor.stop()


def test_a_level_the_server_refuses_is_not_run_and_one_it_accepts_runs(tmp_path):
    """MS-MQRR 3.1.4.2:09 opens at connect and integrity level: against a server whose lowest level is packet
    privacy its scenarios are not run, naming the level; against one that accepts connect, they pass."""
    from tests.serving import served
    (tmp_path / "users").write_text("alice:Passw0rd!\nbob:S3cond!\n", encoding="utf-8")
    accounts = "?user=alice&password=Passw0rd!&second_user=bob&second_password=S3cond!&auth=privacy"
    for level, outcome in (("privacy", "skipped"), ("connect", "passed")):
        with served(options=("--users", str(tmp_path / "users"), "--auth-level", level)) as url:
            verdicts = _certify(url + accounts, tmp_path / level, "--clause", "MS-MQRR:3.1.4.2:09")
        assert len(verdicts) == 3 and {v[0] for v in verdicts.values()} == {outcome}, verdicts
        if outcome == "skipped":
            assert all("not run: needs a server that accepts connect calls" in v[1] for v in verdicts.values())


def test_the_summary_counts_the_clauses_not_run_by_what_they_need():
    matrix = {"MS-MQRR:3.1.4.7:01": {"verdict": "passed", "reason": ""},
              "MS-MQRR:3.1.4.7:02": {"verdict": "not run", "reason": "not run: needs virtual_time (elapse() ...); x does not offer it"},
              "MS-MQRR:3.1.4.7:03": {"verdict": "not run", "reason": "needs virtual_time (elapse() ...)"},
              "MS-MQRR:3.1.4.7:04": {"verdict": "not run", "reason": "not run: needs a server that accepts connect calls; ..."},
              "MS-MQRR:3.1.4.7:05": {"verdict": "not run", "reason": "waived: why"}}
    model = {"targets": ["msmq://h"], "latest": {"msmq://h": "r1"}, "changes": [], "strength": None,
             "counts": {"msmq://h": {"passed": 1, "failed": 0, "not run": 4, "waived": 0, "untestable": 0}},
             "matrix": {"msmq://h": matrix}}
    assert summary_lines(model)[-1] == ("  not run, by what they need: virtual_time 2, "
                                        "a server that accepts connect calls 1, other 1")
