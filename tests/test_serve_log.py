"""The log of `mqspec serve` (issue 20, part 8; adapters/serve_log.py): a summary line a minute instead of a line
per connection by default, a line per connection at --log-level debug, only refusals and failures with --quiet."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

from mqspec.adapters import connect
from mqspec.adapters.in_process import InProcessTarget
from mqspec.adapters.serve import serve
from mqspec.adapters.serve_log import ServeLog
from tests.serving import ROOT, served

# A few feature files' worth of scenarios over the wire, MS-MQQB sessions among them: hundreds of connections.
CLAUSES = ("MS-MQRR:3.1.4.2:01", "MS-MQRR:3.1.4.5:01", "MS-MQRR:3.1.6.2:01", "MS-MQRR:3.1.4.12:05",
           "MS-MQDMPR:3.1.7.1.9:01", "MS-MQQB:3.1.5.8.8:01", "MS-MQQB:3.1.7.1.2:01", "MS-MQQB:3.1.5.7:01")
OPENED = re.compile(r"MS-MQRR (\d+) connection\(s\) opened")


def test_a_server_certified_over_the_wire_writes_under_100_lines_by_default(tmp_path):
    lines: list[str] = []
    with served(lines=lines) as url:
        run = subprocess.run([sys.executable, "-m", "pytest", "features", "-q", "-p", "no:cacheprovider",
                              "--target", url, "--results", str(tmp_path), *[f"--clause={c}" for c in CLAUSES]],
                             cwd=ROOT, capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stdout[-2000:]
    assert len(lines) < 100, "\n".join(lines[:120])
    opened = sum(int(match.group(1)) for line in lines for match in OPENED.finditer(line))
    assert 2 * opened > 100, lines   # a line per connection opened and one per close would have been over 100
    assert lines[-2].startswith("mqspec: summary of the past ") and "before stopping" in lines[-2]
    assert lines[-1] == "mqspec: stopped"
    assert not [line for line in lines if re.search(r"connection #\d+ .* (opened|closed)", line)]


def _run_with(level: str, summary_every: float = 0.3) -> list[str]:
    """A served reference under ServeLog(level): one client resets it, then the log gets time for two summaries."""
    lines: list[str] = []
    log = ServeLog(lines.append, level, summary_every)
    hosted = InProcessTarget()
    with serve(hosted, log=log, connection_log=log.connection) as running:
        log.watch(running)
        with connect(f"mqrr://127.0.0.1:{running.port}") as client:
            client.reset()
        time.sleep(summary_every * 3)
        log.stop(running)
    hosted.close()
    return lines


def test_the_summary_line_appears_and_says_what_happened():
    lines = _run_with("info")
    summaries = [line for line in lines if line.startswith("summary of the past ")]
    assert summaries and not [line for line in lines if " opened" in line and "connection #" in line], lines
    opened = sum(int(match.group(1)) for line in summaries for match in OPENED.finditer(line))
    assert opened >= 2   # RemoteRead's connection and the control interface's
    assert "MS-MQQB" not in summaries[0]   # no session opened: not mentioned


def test_debug_writes_a_line_per_connection_and_quiet_no_summary():
    debug = _run_with("debug")
    assert [line for line in debug if re.search(r"connection #\d+ from 127\.0\.0\.1:\d+ opened", line)]
    assert [line for line in debug if line.startswith("summary of the past ")]
    assert _run_with("warning") == []


def test_a_log_level_that_is_none_of_them_is_refused():
    with pytest.raises(ValueError, match="loud"):
        ServeLog(print, "loud")
