"""The HTML report in headless Chromium: the matrix renders, the drill-down opens, the pages switch, nothing is
fetched, no errors; and the report of a failing run over the wire puts its failures first and shows, for a failing
scenario, its data tables, the target's answers and its PDUs (decoded, hex on demand).

Chromium is Debian's package (make test installs it when it can; this test fails, never skips, without it),
driven over its DevTools protocol with websocket-client.  A screenshot of the page is kept with the run's
results ($MQSPEC_RESULTS/report-screenshot.png).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from mqspec.reports.pipeline import make_report
from mqspec.reports.render_html import PAGES
from tests.serving import ROOT, served, stop
from tests.test_reports_fixtures import SHOWN_TARGET, SUITE, history, spark  # noqa: F401

pytestmark = pytest.mark.spark

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--window-size=1400,1000"]


def chromium_binary() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("Debian's chromium is not installed (make test installs it: apt-get install -y chromium)")
    return found


class DevTools:
    """A minimal DevTools protocol client: commands by id, events kept in order."""

    def __init__(self, url: str):
        import websocket
        self.socket = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.sequence = 0
        self.events: list[dict] = []

    def call(self, method: str, **params) -> dict:
        self.sequence += 1
        self.socket.send(json.dumps({"id": self.sequence, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.sequence:
                assert "error" not in message, (method, message["error"])
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method: str, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            for event in self.events[seen:]:
                if event.get("method") == method:
                    return event
            seen = len(self.events)
            self.socket.settimeout(max(deadline - time.monotonic(), 0.1))
            self.events.append(json.loads(self.socket.recv()))
        raise AssertionError(f"no {method} within {timeout}s")

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def close(self) -> None:
        self.socket.close()


def load(browser, url: str) -> None:
    """Open `url` and wait until the report's script has drawn everything."""
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(f"{domain}.enable")
    browser.call("Page.navigate", url=url)
    browser.wait_for("Page.loadEventFired")
    deadline = time.monotonic() + 20
    while browser.evaluate("document.body.getAttribute('data-ready')") != "true":
        assert time.monotonic() < deadline, "the report's script never finished"
        time.sleep(0.1)


def problems(browser) -> list[dict]:
    """Script errors, failed assertions and error log entries the page produced."""
    return [event for event in browser.events
            if (event.get("method") == "Runtime.consoleAPICalled" and event["params"]["type"] in ("error", "assert"))
            or event.get("method") == "Runtime.exceptionThrown"
            or (event.get("method") == "Log.entryAdded" and event["params"]["entry"]["level"] == "error")]


@pytest.fixture
def browser(tmp_path):
    profile = tmp_path / "chromium-profile"
    process = subprocess.Popen([chromium_binary(), *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (active.exists() and active.read_text().count("\n") >= 1):
            assert process.poll() is None, f"chromium exited with status {process.returncode}"
            assert time.monotonic() < deadline, "chromium did not open its DevTools port"
            time.sleep(0.1)
        port = int(active.read_text().splitlines()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as answer:
            page = next(target for target in json.load(answer) if target["type"] == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        try:
            yield tools
        finally:
            tools.close()
    finally:
        stop(process, 15)


def test_the_report_renders_its_matrix_in_chromium_without_errors_or_network(spark, browser, tmp_path):
    roles = history(tmp_path / "results")
    report = make_report(roles["runs"], tmp_path / "report", spark=spark, suite_version=SUITE, quiet=True)
    clauses = len(report.model["clauses"])
    url = report.files["html"].resolve().as_uri()
    load(browser, url)
    counts = browser.evaluate("""[document.querySelectorAll('#matrix tbody tr.clause').length,
        document.querySelectorAll('#matrix tbody tr.clause td.verdict').length,
        document.querySelectorAll('#matrix thead th').length,
        document.querySelectorAll('#matrix tbody td.verdict.v-failed').length,
        document.querySelectorAll('svg.chart').length,
        document.querySelectorAll('#matrix tbody td.verdict.other-side').length]""")
    assert counts[:4] == [clauses, 2 * clauses, 4 + 2, 1], counts
    # the two targets are servers: the client clauses' cells say they are not theirs
    assert counts[5] == 2 * sum(clause["side"] == "client" for clause in report.model["clauses"]) > 0
    assert counts[4] >= 4   # coverage by document and verdicts across runs, for each target
    browser.evaluate(f"document.querySelector('tr.clause[data-clause=\"{roles['regressed']}\"]').click()")
    opened = browser.evaluate("""(function () {
        var row = document.querySelector('tr.detail');
        return row ? [row.querySelectorAll('.scenario').length, row.querySelectorAll('ol.steps li').length,
                      row.textContent] : null; })()""")
    assert opened is not None, "the drill-down did not open"
    assert opened[0] == 2 and opened[1] == 2 + 3, opened   # a scenario per target: 2 steps (failing) + 3
    assert "expected MQ_OK, got MQ_ERROR_IO_TIMEOUT" in opened[2] and SHOWN_TARGET in opened[2]
    shown = browser.evaluate("""(function () { var select = document.getElementById('filter-verdict');
        select.value = 'failed'; select.dispatchEvent(new Event('input'));
        return document.getElementById('shown').textContent; })()""")
    assert shown == f"1 of {clauses} clauses"
    pages = browser.evaluate("""Array.prototype.map.call(document.querySelectorAll('#pages a'),
        function (a) { return a.getAttribute('data-page'); })""")
    assert pages == [page.id for page in PAGES if page.id != "strength"]   # no strength results among the inputs
    visible = """Array.prototype.filter.call(document.querySelectorAll('section.page'),
        function (s) { return !s.hidden && s.offsetHeight > 0; }).map(function (s) { return s.id; })"""
    assert browser.evaluate(visible) == ["clauses"]
    browser.evaluate("document.querySelector('#pages a[data-page=\"coverage\"]').click()")
    deadline = time.monotonic() + 10
    while browser.evaluate(visible) != ["coverage"]:
        assert time.monotonic() < deadline, browser.evaluate(visible)
        time.sleep(0.1)
    assert browser.evaluate("document.querySelectorAll('#coverage svg.chart rect').length") > 0
    browser.evaluate("location.hash = '#clauses'")
    while browser.evaluate(visible) != ["clauses"]:
        assert time.monotonic() < deadline, browser.evaluate(visible)
        time.sleep(0.1)
    shot = base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
    keep = Path(os.environ.get("MQSPEC_RESULTS") or tmp_path) / "report-screenshot.png"
    keep.write_bytes(shot)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 10_000
    assert problems(browser) == []
    fetched = [event["params"]["request"]["url"] for event in browser.events
               if event.get("method") == "Network.requestWillBeSent"]
    assert fetched == [url], fetched


FIFO = "reference?variant=fifo-ignores-priority"   # a wrong server: a new message goes behind every other one
MISREAD = "MS-MQDMPR:3.1.7.1.9:04"                  # Enqueue Message places a message by priority: its scenarios fail


def failing_wire_run(results: Path) -> str:
    """A run of MISREAD's scenarios against FIFO served on the wire; the served target's URL."""
    with served(FIFO) as url:
        run = subprocess.run([sys.executable, "-m", "pytest", "features/test_conformance.py", "-q", "-p",
                              "no:cacheprovider", "-m", f"clause(id='{MISREAD}')", "--target", url,
                              "--results", str(results), "--run-id", "wire-failing"],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and " failed" in run.stdout, run.stdout[-2000:]
    return url


def test_a_failing_wire_run_shows_failures_first_with_data_tables_pdus_and_the_assertion(spark, browser, tmp_path):
    results = tmp_path / "results" / "wire-failing"
    failing_wire_run(results)
    assert list((results / "evidence").glob("*.json")), "the run wrote no evidence of its failures"
    report = make_report([results], tmp_path / "report", spark=spark, suite_version=None, quiet=True)
    client_clauses = sum(clause["side"] == "client" for clause in report.model["clauses"])
    load(browser, report.files["html"].resolve().as_uri())
    # failures first: the misread clause is listed above the matrix, and links to its drill-down
    listed = browser.evaluate("""Array.prototype.map.call(document.querySelectorAll('#failures ul.failed-clauses a'),
        function (a) { return a.textContent; })""")
    assert MISREAD in listed, listed
    assert browser.evaluate("document.querySelectorAll('#failures ul.failed-scenarios li').length") >= 1
    # a server is not judged on client clauses: their rows are hidden until asked for
    hidden = """Array.prototype.filter.call(document.querySelectorAll('#matrix tr.clause'),
        function (row) { return row.hidden; }).length"""
    assert browser.evaluate(hidden) == client_clauses > 0
    browser.evaluate("""(function () { var box = document.getElementById('show-other-side');
        box.checked = true; box.dispatchEvent(new Event('input')); })()""")
    assert browser.evaluate(hidden) == 0
    # the failing clause's drill-down, opened from the failures list
    browser.evaluate(f"document.querySelector('#failures a[href=\"#clause={MISREAD}\"]').click()")
    deadline = time.monotonic() + 10
    while not browser.evaluate("document.querySelector('tr.detail .scenario.failed') !== null"):
        assert time.monotonic() < deadline, "the drill-down of the failing clause did not open"
        time.sleep(0.1)
    shown = browser.evaluate("""(function () {
        var box = Array.prototype.filter.call(document.querySelectorAll('tr.detail .scenario.failed'),
            function (s) { return s.querySelector('table.datatable') !== null; })[0];
        if (!box) { return null; }
        var pdus = box.querySelectorAll('table.pdus tbody tr');
        var trace = box.querySelector('details.traceback');
        return {datatable: Array.prototype.map.call(box.querySelectorAll('table.datatable th'),
                                                    function (th) { return th.textContent; }),
                rows: box.querySelectorAll('table.datatable tbody tr').length,
                pdus: pdus.length,
                decoded: Array.prototype.map.call(pdus, function (tr) { return tr.textContent; }).join(' | '),
                calls: box.querySelectorAll('table.calls tbody tr').length,
                assertion: box.querySelector('pre.assertion').textContent,
                failure: box.querySelector('.failure').textContent,
                traceback_open: trace === null ? null : trace.open,
                visible: box.innerText}; })()""")
    assert shown is not None, "no failing scenario shows a data table"
    assert shown["datatable"] == ["label", "priority"] and shown["rows"] >= 3, shown["datatable"]
    assert shown["calls"] > 0 and shown["pdus"] > 0
    # decoded PDUs: requests and responses of RemoteRead by name, with their stubs' fields
    assert "R_OpenQueue" in shown["decoded"] and "R_StartReceive" in shown["decoded"]
    assert "request" in shown["decoded"] and "response" in shown["decoded"] and "dwRequestId" in shown["decoded"]
    # the Failure box: the assertion and its step; pytest's traceback only behind its disclosure
    assert shown["assertion"].startswith("AssertionError: ") and "holds" in shown["assertion"]
    assert "Then " in shown["failure"]
    assert shown["traceback_open"] is False and "_pytest" not in shown["visible"]
    # hex on demand: hidden, then shown
    first_hex = "document.querySelector('tr.detail .scenario.failed table.pdus details.hex')"
    assert browser.evaluate(f"{first_hex}.open") is False
    browser.evaluate(f"{first_hex}.querySelector('summary').click()")
    opened = browser.evaluate(f"[{first_hex}.open, {first_hex}.querySelector('pre').textContent]")
    assert opened[0] is True and opened[1].startswith("0000  05 00 "), opened   # rpc_vers 5, minor 0
    assert problems(browser) == []
