"""The `mqspec` command line and the suite's pytest plugin, run as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from mqspec.cli import main

ROOT = Path(__file__).resolve().parent.parent
ONE_CLAUSE = "MS-MQRR:3.1.4.7:16"  # a lookup action needs a lookup identifier: 6 quick scenarios


def test_unknown_target_is_one_line_and_status_2(capsys):
    assert main(["certify", "--target", "tcp://nowhere:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mqspec: unknown target 'tcp://nowhere:1'") and "\n" not in err


def test_a_server_that_is_not_there_fails_in_one_line_within_seconds(capsys):
    import socket
    import time
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    begin = time.monotonic()
    assert main(["certify", "--target", f"mqrr://127.0.0.1:{port}"]) == 2
    assert time.monotonic() - begin < 5
    err = capsys.readouterr().err
    assert err.startswith(f"mqspec: mqrr://127.0.0.1:{port}: cannot connect") and err.count("\n") == 1


@pytest.mark.parametrize("argv, fragment", [
    (["certify", "--target", "reference?colour=blue"], "unknown option 'colour'"),
    (["certify", "--target", "reference?seed=many"], "option 'seed'"),
    (["certify", "--target", "reference?send_insecure_nacks=maybe"], "needs a 0 or 1, not 'maybe'"),
    (["certify", "--target", "reference?port=99999999"], "option 'port'"),
    (["certify", "--target", "reference?queue_manager_quota=-5"], "option 'queue_manager_quota'"),
    (["certify", "--target", "mqrr://127.0.0.1:2103?auth=strong"], "option 'auth'"),
    (["certify", "--target", "mqrr://127.0.0.1:77777"], "the port must be a number"),
    (["certify", "--skip-level", "OFTEN"], "unknown level 'OFTEN'"),
    (["certify", "--waivers", "/no/such/file.toml"], "cannot read it"),
    (["certify", "--clause", "MS-MQRR:9.9.9:99"], "--clause MS-MQRR:9.9.9:99: no such clause"),
    (["certify", "--results", "/proc/version/results"], "--results /proc/version/results: cannot write there"),
    (["serve", "--host", "0.0.0.0"], "add --allow-remote"),
    (["serve", "--port", "70000"], "--port 70000"),
    (["certify", "--target", "reference?store=/nonexistent/dir/x.db"],
     "'reference?store=/nonexistent/dir/x.db': the store /nonexistent/dir/x.db cannot be used"),
    (["serve", "--store", "/nonexistent/dir/x.db"], "the store /nonexistent/dir/x.db cannot be used"),
])
def test_bad_arguments_are_named(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1, err


@pytest.mark.parametrize("text, fragment", [
    ("[waive\n", "not valid TOML"),
    ('skip_levels = ["OFTEN"]\n', "unknown level 'OFTEN'"),
    ("skip_levels = 3\n", "skip_levels must be a level or a list"),
    ('waive = "everything"\n', "waive must be a table"),
    ('[waive]\n"MS-MQRR:9.9.9:99" = "no"\n', "waives 'MS-MQRR:9.9.9:99', which is not in the catalogue"),
    (f'[waive]\n"{ONE_CLAUSE}" = ""\n', "needs a reason"),
    ('colour = "blue"\n', "unknown key 'colour'"),
])
def test_bad_waiver_files_are_named(tmp_path, capsys, text, fragment):
    waivers = tmp_path / "w.toml"
    waivers.write_text(text)
    assert main(["certify", "--waivers", str(waivers)]) == 2
    err = capsys.readouterr().err
    assert fragment in err and str(waivers) in err and err.count("\n") == 1, err


def test_a_file_that_is_not_a_store_is_one_line(tmp_path, capsys):
    (tmp_path / "x.db").write_text("not a database, only text " * 100)
    assert main(["certify", "--target", f"reference?store={tmp_path / 'x.db'}"]) == 2
    err = capsys.readouterr().err
    assert "cannot be used: file is not a database" in err and err.count("\n") == 1, err


def test_version_gives_the_suite_version_that_run_records_carry():
    from mqspec.pytest_plugin import suite_version
    process = subprocess.run([sys.executable, "-m", "mqspec.cli", "--version"], capture_output=True, text=True,
                             timeout=60)
    assert process.returncode == 0 and process.stdout == f"mqspec 0.1.0 (suite {suite_version()})\n"


def test_parallel_workers_are_refused_a_live_server_in_one_line(tmp_path):
    """Every scenario resets the target's queue manager: two workers against one server would pull the scene from
    under each other, so the run is refused before anything connects (a reference per worker is fine)."""
    process = subprocess.run([sys.executable, "-m", "pytest", "features", "-n", "2", "-p", "no:cacheprovider",
                              "--target", "reference", "--target", "mqrr://127.0.0.1:9", "--results",
                              str(tmp_path / "r")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert process.returncode == 4, process.stdout + process.stderr
    errors = [line for line in process.stderr.splitlines() if line.startswith("ERROR")]
    assert errors == ["ERROR: --target mqrr://127.0.0.1:9: 2 pytest-xdist workers would share that server's one "
                      "queue manager and reset it under each other's scenarios; certify a live server with one "
                      "worker (-n 0)"], process.stderr


def test_a_checkout_is_what_strength_copies_so_an_installed_tool_says_so(monkeypatch, capsys):
    import mqspec.strength.run as run
    monkeypatch.setattr(run, "ROOT", Path("/nonexistent"))
    assert main(["strength", "--variant", "fifo-ignores-priority"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mqspec: mqspec strength runs in a checkout") and err.count("\n") == 1


def test_help_describes_target_urls_options_and_waivers(capsys):
    with pytest.raises(SystemExit):
        main(["certify", "--help"])
    out = capsys.readouterr().out
    for fragment in ("mqrr://HOST[:PORT]", "store=PATH", "send_insecure_nacks=0|1", "user=NAME", "auth=",
                     "skip_levels", "[waive]"):
        assert fragment in out


def test_clauses_summary(capsys):
    assert main(["clauses"]) == 0
    out = capsys.readouterr().out
    assert "testable" in out and "covered by scenarios" in out
    assert "\n  server: " in out and "\n  client: " in out


def test_the_untestable_clauses_are_listed_each_with_its_reason(capsys):
    """Issue 15's measure: at most 45 untestable clauses, each with a reason of its own."""
    assert main(["clauses", "--untestable"]) == 0
    listed = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("  MS")]
    assert 0 < len(listed) <= 45
    assert all(len(words) > 5 for words in listed)   # id, side, level and a reason in words
    assert not any(" ".join(words[3:]).startswith("a requirement on the client") for words in listed)


def _certify(tmp_path, *extra) -> tuple[subprocess.CompletedProcess, Path]:
    results = tmp_path / "results"
    clause = [] if "--clause" in extra else ["--clause", ONE_CLAUSE]
    process = subprocess.run([sys.executable, "-m", "mqspec.cli", "certify", *clause, "--no-report",
                              "--results", str(results), *extra], cwd=ROOT, capture_output=True, text=True,
                             timeout=300)  # the report has its own tests (tests/test_reports_cli.py)
    return process, results


def test_certify_writes_every_result_file(tmp_path):
    process, results = _certify(tmp_path)
    assert process.returncode == 0, process.stdout + process.stderr
    # one clause selected: nothing failed, but the rest was not run, and the terminal says so
    assert f"reference: incomplete; results in {results}" in process.stdout
    assert "    not run (not selected in this run): " in process.stdout
    record = json.loads((results / "run.json").read_text())
    assert record["selection"] == [f"--clause {ONE_CLAUSE}"]
    assert record["targets"] == ["reference"] and len(record["suite_version"]) == 16
    assert record["spec_revisions"]["MS-MQRR"] == "29.0"
    cases = list(ElementTree.parse(results / "junit.xml").iter("testcase"))
    assert len(cases) >= 6  # the six lookup actions, at least
    for case in cases:
        properties = {(p.get("name"), p.get("value")) for p in case.iter("property")}
        assert ("clause", ONE_CLAUSE) in properties and ("target", "reference") in properties
    features = json.loads((results / "cucumber.json").read_text())
    tags = {tag["name"] for feature in features for element in feature["elements"] for tag in element["tags"]}
    assert f"@clause:{ONE_CLAUSE}" in tags


def test_waived_clauses_are_reported_not_hidden(tmp_path):
    waivers = tmp_path / "waivers.toml"
    waivers.write_text(f'[waive]\n"{ONE_CLAUSE}" = "the target answers otherwise on purpose"\n')
    process, results = _certify(tmp_path, "--waivers", str(waivers))
    assert process.returncode == 0, process.stdout + process.stderr
    skipped = [case.find("skipped") for case in ElementTree.parse(results / "junit.xml").iter("testcase")]
    assert len(skipped) >= 6 and all(s is not None and "waived:" in s.get("message") for s in skipped)
    assert json.loads((results / "run.json").read_text())["waived_clauses"] == {
        ONE_CLAUSE: "the target answers otherwise on purpose"}


def test_skipping_a_level_waives_its_scenarios(tmp_path):
    process, results = _certify(tmp_path, "--skip-level", "MUST")
    assert process.returncode == 0, process.stdout + process.stderr
    skipped = [case.find("skipped") for case in ElementTree.parse(results / "junit.xml").iter("testcase")]
    assert skipped and all(s is not None and "level MUST skipped" in s.get("message") for s in skipped)


def test_every_target_is_checked_before_the_run(tmp_path):
    """Two targets where one cannot even be built: nothing runs, and the bad one is named."""
    process, _ = _certify(tmp_path, "--target", "reference", "--target", "reference?synchronous=SOMETIMES")
    assert process.returncode == 2
    assert "synchronous" in process.stderr


UNTESTED_CLAUSE = "MS-MQRR:2.2.8:01"  # untestable (an external XACTUOW comes from MS-DTCO): no scenario


def test_pytest_exit_code_5_is_not_success(tmp_path):
    """No test selected must not pass silently (the CI gate relies on it)."""
    process = subprocess.run([sys.executable, "-m", "pytest", "features", "-q", "--clause", UNTESTED_CLAUSE,
                              "--results", str(tmp_path / "r")], cwd=ROOT, capture_output=True, text=True,
                             timeout=300)
    assert process.returncode == 5


def test_certify_with_nothing_selected_fails(tmp_path, capsys):
    assert main(["certify", "--clause", UNTESTED_CLAUSE, "--results", str(tmp_path / "r")]) == 1
    assert "no scenario matched" in capsys.readouterr().err


def test_a_waiver_file_may_name_one_level_as_a_string(tmp_path):
    """skip_levels = "MUST" is the level MUST, not the letters M, U, S, T."""
    waivers = tmp_path / "w.toml"
    waivers.write_text('skip_levels = "MUST"\n')
    process, results = _certify(tmp_path, "--waivers", str(waivers))
    assert process.returncode == 0, process.stdout + process.stderr
    assert json.loads((results / "run.json").read_text())["skipped_levels"] == ["MUST"]


def test_the_default_results_directory_is_under_the_current_one_and_named_by_the_run(tmp_path):
    """Without --results, results go to ./results/<run id>, and run.json carries that same id."""
    process = subprocess.run([sys.executable, "-m", "mqspec.cli", "certify", "--clause", ONE_CLAUSE, "--no-report"],
                             cwd=tmp_path,
                             capture_output=True, text=True, timeout=300,
                             env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert process.returncode == 0, process.stdout + process.stderr
    [directory] = list((tmp_path / "results").iterdir())
    assert json.loads((directory / "run.json").read_text())["run_id"] == directory.name
    assert not (ROOT / "results" / directory.name).exists()


def test_a_run_inside_another_leaves_its_environment_alone(tmp_path):
    """A nested pytest run (as these tests do) restores MQSPEC_RESULTS and MQSPEC_RUN_ID when it ends, so the
    outer run's machines still log into the outer results directory."""
    import os
    before = {name: os.environ.get(name) for name in ("MQSPEC_RESULTS", "MQSPEC_RUN_ID")}
    assert pytest.main([str(ROOT / "features"), "-q", "-p", "no:cacheprovider", "--clause", ONE_CLAUSE,
                        "--results", str(tmp_path / "inner")]) == 0
    assert {name: os.environ.get(name) for name in before} == before


def test_a_scenario_the_target_setting_rules_out_is_not_run_not_waived(tmp_path):
    """A scenario for the other SendInsecureNacks setting is skipped as "not run", naming the setting; "waived"
    is kept for what the user waived."""
    process, results = _certify(tmp_path, "--clause", "MS-MQQB:3.1.5.8.2:03")
    assert process.returncode == 0, process.stdout + process.stderr
    messages = [case.find("skipped").get("message") for case in ElementTree.parse(results / "junit.xml").iter(
        "testcase") if case.find("skipped") is not None]
    assert messages and all(m.startswith("not run: the target's SendInsecureNacks") for m in messages), messages


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_serve_logs_each_connection_at_debug_and_stops_on_interrupt(stop):
    """mqspec serve --log-level debug: one line per connection on stderr; Ctrl-C (SIGINT) or SIGTERM stops it with
    status 0, after a summary of what happened."""
    import re
    import signal

    from mqspec.adapters import connect
    process = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "serve", "--port", "0", "--log-level", "debug"],
                               cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        port = re.search(r"127\.0\.0\.1:(\d+)", process.stderr.readline()).group(1)
        with connect(f"mqrr://127.0.0.1:{port}") as target:
            assert target.get_server_port() == int(port)
        process.send_signal(getattr(signal, stop))
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0
    lines = err.splitlines()
    assert any("127.0.0.1" in line and "open" in line.lower() for line in lines), err
    assert "summary of the past" in lines[-2] and lines[-1] == "mqspec: stopped"


def test_serve_off_loopback_needs_authentication(tmp_path, capsys):
    assert main(["serve", "--host", "0.0.0.0", "--allow-remote", "--port", "0"]) == 2
    assert "--allow-remote needs --users" in capsys.readouterr().err
    (tmp_path / "users").write_text("just a name\n")
    assert main(["serve", "--users", str(tmp_path / "users"), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "line 1: write name:password" in err and err.count("\n") == 1
    assert main(["serve", "--auth-level", "privacy", "--port", "0"]) == 2
    assert "needs --users" in capsys.readouterr().err


def test_serve_log_options_are_checked(capsys):
    assert main(["serve", "--quiet", "--log-level", "debug", "--port", "0"]) == 2
    assert "choose one" in capsys.readouterr().err
    assert main(["serve", "--summary-every", "0", "--port", "0"]) == 2
    assert "--summary-every 0" in capsys.readouterr().err


def test_serve_operators_are_accounts_of_the_users_file(tmp_path, capsys):
    """D-130: --operators names who may use the control interface; each must be an account of --users."""
    assert main(["serve", "--operators", "alice", "--port", "0"]) == 2
    assert "--operators needs --users" in capsys.readouterr().err
    (tmp_path / "users").write_text("alice:Passw0rd!\n")
    assert main(["serve", "--users", str(tmp_path / "users"), "--operators", "alice,carol", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "--operators alice,carol" in err and "carol" in err and err.count("\n") == 1


def test_an_authenticated_server_is_certified_with_credentials_and_refuses_wrong_ones(tmp_path):
    """mqspec serve --users: the client's NTLM path certifies it at privacy; a wrong password, an unknown user, a
    level below the server's and no credentials at all are each one line from certify, never a traceback."""
    users = tmp_path / "users"
    users.write_text("alice:Passw0rd!\n")
    process = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "serve", "--port", "0", "--users", str(users),
                                "--auth-level", "integrity"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stderr.readline()
        import re
        port = re.search(r"127\.0\.0\.1:(\d+)", first).group(1)
        assert "1 account(s), calls at integrity or above, control for alice" in first   # D-130: the first account
        import threading
        threading.Thread(target=process.stderr.read, daemon=True).start()
        base = f"mqrr://127.0.0.1:{port}"
        good = subprocess.run([sys.executable, "-m", "mqspec.cli", "certify", "--target",
                               f"{base}?user=alice&password=Passw0rd!&auth=privacy", "--clause", ONE_CLAUSE,
                               "--no-report", "--results", str(tmp_path / "good")], cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
        assert good.returncode == 0, good.stdout + good.stderr
        for query, fragment in (("?user=alice&password=wrong", "refused user 'alice' at auth level privacy"),
                                ("?user=mallory&password=Passw0rd!", "refused user 'mallory'"),
                                ("?user=alice&password=Passw0rd!&auth=connect", "at auth level connect"),
                                ("", "refuses unauthenticated calls")):
            bad = subprocess.run([sys.executable, "-m", "mqspec.cli", "certify", "--target", base + query,
                                  "--no-report", "--results", str(tmp_path / "bad")], cwd=ROOT,
                                 capture_output=True, text=True, timeout=120)
            assert bad.returncode == 2 and fragment in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr
            assert "password=" not in bad.stderr or "Passw0rd!" not in bad.stderr
    finally:
        process.terminate()
        process.wait(30)


def _tally(results: Path) -> dict:
    from mqspec.catalogue import load_catalogue
    from mqspec.reports.tally import tally
    return tally(results, load_catalogue())


ORDER = "MS-MQDMPR:3.1.1.2:04"   # the variant fifo-ignores-priority misreads it


def test_a_failing_machine_fails_the_clause_that_broke_and_leaves_its_other_tags_not_judged(tmp_path):
    """Issue 21: the lookups machine against a FIFO queue manager fails MS-MQDMPR 3.1.1.2:04 alone; its other
    tags are "not judged", never failed (before: every one of its 16 tags failed)."""
    results = tmp_path / "r"
    process = subprocess.run([sys.executable, "-m", "pytest", "features/test_machines.py", "-q", "-p",
                              "no:cacheprovider", "-k", "lookup", "--target", "reference?variant=fifo-ignores-priority",
                              "--results", str(results)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert process.returncode == 1, process.stdout[-2000:]
    matrix = next(iter(_tally(results)["matrix"].values()))
    failed = [clause for clause, row in matrix.items() if row["verdict"] == "failed"]
    assert failed == [ORDER] and matrix[ORDER]["fault"] == "at fault"
    judged = [row["reason"] for row in matrix.values() if row["reason"].startswith("not judged")]
    assert len(judged) >= 10 and all("of the lookups machine, on MS-MQDMPR:3.1.1.2:04)" in r for r in judged)


def test_the_misread_clause_is_named_first_and_the_collateral_after_it(tmp_path):
    """A scenario whose queue comes back in another order fails on the order's clause (steps/blame.py): its own
    clause is collateral of MS-MQDMPR 3.1.1.2:04, which the terminal names first."""
    process, results = _certify(tmp_path, "--target", "reference?variant=fifo-ignores-priority", "--name", "fifo",
                                "--clause", "MS-MQDMPR:3.1.1.12:02")
    assert process.returncode == 1, process.stdout + process.stderr
    lines = [line.strip() for line in process.stdout.splitlines()]
    assert lines[2].startswith(f"AT FAULT {ORDER} (+"), lines
    matrix = _tally(results)["matrix"]["reference?variant=fifo-ignores-priority&name=fifo"]
    assert (matrix["MS-MQDMPR:3.1.1.12:02"]["fault"], matrix["MS-MQDMPR:3.1.1.12:02"]["cause"]) == (
        "collateral", ORDER)
    suites = [suite.get("name") for suite in ElementTree.parse(results / "junit.xml").iter("testsuite")]
    names = [case.get("name") for case in ElementTree.parse(results / "junit.xml").iter("testcase")]
    assert suites == ["fifo"] and all("[fifo" in name for name in names), (suites, names)


def test_a_wrong_client_is_blamed_on_the_clause_it_misreads(tmp_path):
    """receive-never-ended never calls R_EndReceive: MS-MQRR 3.1.4.7:01 at fault, first (before: 27 clauses failed,
    none of them named as the cause)."""
    process, results = _certify(tmp_path, "--clause", "MS-MQRR:3.1.4.7:01", "--client",
                                f"{sys.executable} -m mqspec.shims.wrong receive-never-ended")
    assert process.returncode == 1, process.stdout + process.stderr
    at_fault = [line.strip() for line in process.stdout.splitlines() if line.strip().startswith("AT FAULT ")]
    assert at_fault and at_fault[0].startswith("AT FAULT MS-MQRR:3.1.4.7:01"), process.stdout


def _as_a_terminal() -> None:
    """The CLI as a shell starts it, SIGINT at its default: a pytest-xdist worker may hand its children SIGINT
    ignored, and a child that inherits that cannot be interrupted (mqspec/interrupts.py keeps it, as it must)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_interrupted_certify_says_so_exits_130_and_certifies_nothing(tmp_path):
    import signal
    import time
    results = tmp_path / "r"
    process = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "certify", "--results", str(results)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_as_a_terminal)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (results / "junit.xml").exists() and process.poll() is None:
            if (results / "pytest.log").is_file() and "%]" in (results / "pytest.log").read_text():
                break
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, out + err
    assert "mqspec: interrupted" in err and "Traceback" not in out + err
    assert not (results / "report").exists() and not list(results.glob("**/certification-*.json"))
# -- client certification as a library author meets it (issue 21, part 7) ------------------------------------------
ONE_CLIENT_CLAUSE = "MS-MQRR:2.2.8:02"   # one client scenario
BAD_SHIMS = {   # a shim command -> what the one line must say
    "true": "exit status 0",
    "cat": "the answer names no client",
    f"{sys.executable} -c \"print('garbage', flush=True); import time; time.sleep(60)\"": "not a reply",
    f"{sys.executable} -c \"import time; time.sleep(60)\"": "no answer from the shim within 10 s",
    f"{sys.executable} -I -S -m mqspec.shims.mqrr": "`mqspec shim mqrr`",   # a Python that cannot import mqspec
}


def _client_certify(tmp_path, client: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mqspec.cli", "certify", "--client", client, "--no-report",
                           "--results", str(tmp_path / "results"), *extra], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("shim", list(BAD_SHIMS))
def test_a_bad_shim_is_one_line_naming_it_and_why_and_stops_the_run_in_seconds(tmp_path, shim):
    import time
    began = time.monotonic()
    process = _client_certify(tmp_path, shim)
    assert process.returncode == 1, process.stdout + process.stderr
    assert process.stderr.count("\n") == 1 and "Traceback" not in process.stderr, process.stderr
    assert process.stderr.startswith(f"mqspec: --client {shim!r}: the shim failed hello") , process.stderr
    assert BAD_SHIMS[shim] in process.stderr and "nothing was certified" in process.stderr
    assert time.monotonic() - began < 40   # hello waits a few seconds, not a minute per scenario
    assert not (tmp_path / "results" / "run.json").exists()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wrapped_shim(tmp_path) -> str:
    """The shipped shim behind a wrapper that says something on stderr and leaves a child of its own running."""
    wrapper = tmp_path / "wrapper.py"
    wrapper.write_text(textwrap.dedent(f"""\
        import os, subprocess, sys
        child = subprocess.Popen(["sleep", "300"])
        with open({str(tmp_path / "children")!r}, "a") as out:
            out.write(f"{{child.pid}}\\n")
        print("the wrapper's own words", file=sys.stderr, flush=True)
        os.execv(sys.executable, [sys.executable, "-m", "mqspec.shims.mqrr"])
        """))
    return f"{sys.executable} {wrapper}"


def test_a_shims_stderr_is_kept_in_the_results_and_nothing_it_started_outlives_certify(tmp_path):
    process = _client_certify(tmp_path, _wrapped_shim(tmp_path), "--clause", ONE_CLIENT_CLAUSE)
    assert process.returncode == 0, process.stdout + process.stderr
    kept = list((tmp_path / "results" / "shims").glob("*.stderr"))
    assert kept and all("the wrapper's own words" in path.read_text() for path in kept)
    children = [int(line) for line in (tmp_path / "children").read_text().split()]
    assert len(children) == len(kept) + 1   # one a scenario, and the check before the run
    assert not any(_alive(pid) for pid in children)


def test_an_interrupted_client_run_says_interrupted_and_leaves_no_shim(tmp_path):
    import signal
    import time
    process = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "certify", "--client", _wrapped_shim(tmp_path),
                                "--no-report", "--results", str(tmp_path / "results")], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=_as_a_terminal)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(list((tmp_path / "results" / "shims").glob("*"))) < 2:
            time.sleep(0.1)   # into the scenarios
        os.killpg(process.pid, signal.SIGINT)   # as the terminal sends Ctrl-C: to the whole group
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, out + err
    assert err.rstrip().endswith("mqspec: interrupted") and "Traceback" not in out + err, out + err
    children = [int(line) for line in (tmp_path / "children").read_text().split()]
    assert not any(_alive(pid) for pid in children)


def test_the_shipped_shims_run_from_the_mqspec_command(tmp_path):
    hello = json.dumps({"id": 0, "op": "hello", "server": "127.0.0.1", "port": 1, "computer": "X", "protocol": 1})
    for name in ("mqrr", "independent"):
        process = subprocess.run([sys.executable, "-m", "mqspec.cli", "shim", name], input=hello + "\n",
                                 cwd=tmp_path, capture_output=True, text=True, timeout=60)
        reply = json.loads(process.stdout.splitlines()[0])
        assert reply["id"] == 0 and reply["name"].startswith("mqspec-"), process.stdout + process.stderr


def test_the_documents_are_printed_and_help_points_to_them(capsys):
    assert main(["docs", "shim"]) == 0
    assert capsys.readouterr().out.startswith("# Certifying an MS-MQRR client: the shim protocol")
    assert main(["docs", "control"]) == 0
    assert "control interface" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["certify", "--help"])
    shown = capsys.readouterr().out
    assert "mqspec docs shim" in shown and "mqspec docs control" in shown
    for command in ([], ["certify"], ["serve"], ["strength"], ["report"], ["gate"], ["clauses"], ["shim"], ["docs"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        shown = capsys.readouterr().out
        assert "issue" not in shown.lower() and "docs/" not in shown, (command, shown)


# -- one-line errors (issue 21, part 9) ------------------------------------------------------------------------------
@pytest.mark.parametrize("query, environment, fragment", [
    ("?user=a&hash=zz", {}, "option 'hash' in 'mqrr://127.0.0.1:1?user=a' needs a [LM:]NT hash"),
    ("?user=a&hash=nothex:8846F7EAEE8FB117AD06BDD830B7586C", {}, "option 'hash'"),
    ("?user=a&second_user=b&second_hash=12", {}, "option 'second_hash'"),
    ("?user=a", {"MQSPEC_HASH": "nothex"}, "MQSPEC_HASH needs a [LM:]NT hash"),
])
def test_a_bad_hash_is_one_line_and_never_repeated(monkeypatch, capsys, query, environment, fragment):
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert main(["certify", "--target", "mqrr://127.0.0.1:1" + query, "--no-report"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err and "zz" not in err and "nothex" not in err, err


# -- selecting and speed (issue 21, part 8) --------------------------------------------------------------------------
def test_a_section_selects_its_clauses_and_subsections_and_values_add_up():
    from mqspec.catalogue import load_catalogue
    from mqspec.selection import SelectionError, expand_clauses
    catalogue = load_catalogue()
    section = expand_clauses(["MS-MQRR:3.1.4.7"], catalogue)
    assert ONE_CLAUSE in section and all(c.startswith("MS-MQRR:3.1.4.7:") for c in section)
    nested = expand_clauses(["MS-MQRR:3.1.4"], catalogue)
    assert section < nested and "MS-MQRR:3.1.4.12:01" not in section
    assert any(c.startswith("MS-MQRR:3.1.4.12:") for c in nested)
    both = expand_clauses([f"{ONE_CLAUSE},MS-MQDMPR:3.1.1.2:04", "MS-MQRR:2.1:01"], catalogue)
    assert both == {ONE_CLAUSE, "MS-MQDMPR:3.1.1.2:04", "MS-MQRR:2.1:01"}
    assert {c.id for c in catalogue.clauses.values() if c.document == "MS-MQQB"} == expand_clauses(["MS-MQQB"],
                                                                                                  catalogue)
    for wrong in ("MS-MQRR:3.1.4.7:99", "MS-MQRR:3.1.4.77", "MS-MQRR:3.1.4.", "MS-NOPE"):
        with pytest.raises(SelectionError, match="mqspec clauses --list"):
            expand_clauses([wrong], catalogue)


def test_clauses_list_names_every_clause_and_takes_a_selection(capsys):
    from mqspec.catalogue import load_catalogue
    assert main(["clauses", "--list"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("  MS")]
    assert sorted(listed) == sorted(load_catalogue().clauses)
    assert main(["clauses", "--list", "MS-MQRR:3.1.4.7"]) == 0
    listed = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("  MS")]
    assert listed and all(words[0].startswith("MS-MQRR:3.1.4.7:") for words in listed)
    assert any(words[1:4] == ["client", "MUST", "covered"] for words in listed)
    assert main(["clauses", "MS-MQRR:9.9"]) == 2
    assert "MS-MQRR:9.9: no such clause" in capsys.readouterr().err


def _selected(tmp_path, *options) -> list[str]:
    """The node ids a plain pytest run of the suite would run."""
    process = subprocess.run([sys.executable, "-m", "pytest", "features", "--collect-only", "-q", "-p",
                              "no:cacheprovider", "--results", str(tmp_path / "collect"), *options], cwd=ROOT,
                             capture_output=True, text=True, timeout=300)
    return [line for line in process.stdout.splitlines() if "::" in line]


def test_several_clause_values_each_select_their_scenarios(tmp_path):
    one = _selected(tmp_path, "--clause", ONE_CLAUSE, "--target", "reference")
    other = _selected(tmp_path, "--clause", "MS-MQDMPR:3.1.1.2:04", "--target", "reference")
    assert one and other and not set(one) & set(other)
    assert set(_selected(tmp_path, "--clause", ONE_CLAUSE, "--clause", "MS-MQDMPR:3.1.1.2:04", "--target",
                         "reference")) == set(one) | set(other)
    assert set(_selected(tmp_path, "--clause", f"{ONE_CLAUSE},MS-MQDMPR:3.1.1.2:04", "--target",
                         "reference")) == set(one) | set(other)
    assert set(one) < set(_selected(tmp_path, "--clause", "MS-MQRR:3.1.4.7", "--target", "reference"))


def _cases(results: Path) -> list[str]:
    return [case.get("name") for case in ElementTree.parse(results / "junit.xml").iter("testcase")]


def test_k_selects_by_name(tmp_path):
    process, results = _certify(tmp_path, "-k", "PEEK_NEXT", "--workers", "0")
    assert process.returncode == 0, process.stdout + process.stderr
    assert _cases(results) and all("peek_next" in name.lower() for name in _cases(results))


def test_last_failed_reruns_exactly_what_failed_in_the_run_before(tmp_path):
    folder = tmp_path / "runs"
    command = [sys.executable, "-m", "mqspec.cli", "certify", "--no-report", "--workers", "0", "--target",
               "reference?variant=fifo-ignores-priority"]
    first = subprocess.run([*command, "--clause", "MS-MQDMPR:3.1.1.2", "--results", str(folder / "1")], cwd=ROOT,
                           capture_output=True, text=True, timeout=600)
    assert first.returncode == 1, first.stdout + first.stderr
    failed = json.loads((folder / "1" / "failed.json").read_text())["failed"]
    ran = _cases(folder / "1")
    assert failed and len(failed) < len(ran)
    again = subprocess.run([*command, "--last-failed", "--results", str(folder / "2")], cwd=ROOT,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 1, again.stdout + again.stderr
    assert f"rerunning the {len(failed)} test(s) that failed in {folder / '1'}" in again.stdout
    assert sorted(_cases(folder / "2")) == sorted(nodeid.rpartition("::")[2] for nodeid in failed)
    nothing = subprocess.run([*command, "--last-failed", "--results", str(tmp_path / "alone" / "1")], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    assert nothing.returncode == 2 and "--last-failed: no earlier run in" in nothing.stderr, nothing.stderr


def test_certify_runs_in_parallel_by_default_with_the_same_verdicts_as_one_process(tmp_path):
    from mqspec.reports.tally import tally

    from mqspec.catalogue import load_catalogue
    verdicts = {}
    for workers in ("0", "auto"):
        process, results = _certify(tmp_path / workers, "--workers", workers)
        assert process.returncode == 0, process.stdout + process.stderr
        log = (results / "pytest.log").read_text()
        assert ("bringing up nodes" in log) == (workers == "auto"), log[:2000]   # pytest-xdist starts its workers
        model = tally(results, load_catalogue())
        verdicts[workers] = ({target: {clause: shown["verdict"] for clause, shown in model["matrix"][target].items()}
                              for target in model["targets"]},
                             json.loads((results / "run.json").read_text())["targets"], sorted(_cases(results)),
                             sorted((element["name"], tuple(step["result"]["status"] for step in element["steps"]))
                                    for feature in json.loads((results / "cucumber.json").read_text())
                                    for element in feature["elements"]))   # the workers' scenarios reach it
    assert verdicts["0"] == verdicts["auto"] and verdicts["0"][3]


def test_a_live_server_or_a_judge_is_certified_by_one_worker():
    from mqspec.cli import UsageError, _workers
    from mqspec.selection import SelectionError
    assert _workers("auto", ["reference", "reference?seed=1"], None) == (os.cpu_count() if os.cpu_count() > 1 else 0)
    assert _workers("auto", ["reference", "mqrr://127.0.0.1:2103"], None) == 0
    assert _workers("auto", [], "mqrr://127.0.0.1:2105") == 0
    assert _workers("1", ["mqrr://127.0.0.1:2103"], None) == 0
    with pytest.raises(SelectionError, match="pytest-xdist workers would share"):
        _workers("2", ["mqrr://127.0.0.1:2103"], None)
    with pytest.raises(UsageError, match="--workers many"):
        _workers("many", ["reference"], None)


def _processes_marked(marker: str) -> list[int]:
    """The live processes whose environment holds `marker` (what a test started, and all they started)."""
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if marker.encode() in environ.read_bytes() and _alive(int(environ.parent.name)):
                found.append(int(environ.parent.name))
        except OSError:
            continue
    return found


@pytest.mark.spark
def test_ctrl_c_twice_during_the_report_is_one_line_and_leaves_no_jvm(tmp_path):
    """The terminal's Ctrl-C reaches the whole group (Python and the JVM PySpark started); twice, while the report
    is being made: one line, exit 130, and no JVM left running."""
    import signal
    import time
    import uuid
    marker = f"MQSPEC_TEST_MARK={uuid.uuid4().hex}"
    process = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "certify", "--clause", ONE_CLAUSE, "--workers",
                                "0", "--results", str(tmp_path / "results")], cwd=tmp_path, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                               env={**os.environ, marker.split("=")[0]: marker.split("=")[1]}, preexec_fn=_as_a_terminal)
    try:
        shown = []
        for line in process.stdout:
            shown.append(line)
            if line.startswith("report ["):   # the JVM is up and working
                break
        time.sleep(1)
        for _ in range(2):
            os.killpg(process.pid, signal.SIGINT)
            time.sleep(0.3)
        shown += process.stdout.readlines()
        process.wait(120)
    finally:
        process.kill()
    out = "".join(shown)
    assert process.returncode == 130, out
    assert out.rstrip().endswith("mqspec: interrupted") and "Traceback" not in out and "ERROR" not in out, out
    deadline = time.monotonic() + 10
    while _processes_marked(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _processes_marked(marker)


def test_plain_pytest_stops_starting_a_shim_that_failed_hello(tmp_path):
    """Without certify's check before the run: the first scenario says why, the others fail at once, named."""
    results = tmp_path / "results"
    process = subprocess.run([sys.executable, "-m", "pytest", "features/clients", "-q", "-p", "no:cacheprovider",
                              "--client", "true", "--clause", "MS-MQRR:3.1.4.7", "--results", str(results)],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert process.returncode == 1, process.stdout[-2000:]
    cases = list(ElementTree.parse(results / "junit.xml").iter("testcase"))
    messages = [next(case.iter("error")).get("message") for case in cases]   # a failure in set-up is an error
    assert len(cases) > 2 and "the client could not be started" in messages[0] and "exit status 0" in messages[0]
    assert all("not started: this shim failed hello before" in m for m in messages[1:]), messages
    assert all(("target", "client true") in {(p.get("name"), p.get("value")) for p in case.iter("property")}
               for case in cases)


def test_an_interrupt_of_a_command_run_in_process_gives_the_caller_its_sigint_handler_back(monkeypatch, capsys):
    """A test that calls main() and meets Ctrl-C must not leave SIGINT ignored in its worker: every process the worker
    started afterwards (a certify a later test interrupts) would inherit it and could not be interrupted."""
    import signal
    import mqspec.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "_clauses", interrupted)
    # what stop_children does to SIGINT, without killing this worker's shims and JVM
    monkeypatch.setattr(cli.interrupts, "stop_children", lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    before = signal.getsignal(signal.SIGINT)
    assert cli.main(["clauses"]) == 130
    assert "mqspec: interrupted" in capsys.readouterr().err
    assert signal.getsignal(signal.SIGINT) is before
