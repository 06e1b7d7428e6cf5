"""The same report job on a real Spark standalone cluster (a master and one worker on 127.0.0.1, started from
the pyspark installation) gives exactly what it gives in local[*]; the cluster is stopped afterwards, by
process id, and nothing of it is left running."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from mqspec.reports.ingest import TABLES
from mqspec.reports.pipeline import STAGES
from mqspec.reports.session import prepare_environment
from tests.serving import stop
from tests.test_reports_fixtures import history, spark  # noqa: F401

pytestmark = pytest.mark.spark
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def spark_processes(marker: str) -> list[int]:
    """Java processes whose command line mentions `marker` (host:port of the cluster's master or worker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if marker in command and "java" in command:
                found.append(int(entry.name))
    return found


@contextmanager
def standalone_cluster(logs: Path):
    """A master and one worker on 127.0.0.1 (yields the master URL and the ports that name its processes)."""
    prepare_environment()
    spark_class = Path(os.environ["SPARK_HOME"]) / "bin" / "spark-class"
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1"}
    port, ui, worker_ui, worker_port = (free_port() for _ in range(4))
    files = {name: open(logs / f"{name}.log", "wb") for name in ("master", "worker")}
    started = []
    try:
        started.append(subprocess.Popen([str(spark_class), "org.apache.spark.deploy.master.Master", "--host",
                                         "127.0.0.1", "--port", str(port), "--webui-port", str(ui)], env=env,
                                        stdout=files["master"], stderr=subprocess.STDOUT))
        _wait(lambda: _answers(port), 60, "the master did not listen", started, logs)
        started.append(subprocess.Popen([str(spark_class), "org.apache.spark.deploy.worker.Worker",
                                         f"spark://127.0.0.1:{port}", "--host", "127.0.0.1", "--port",
                                         str(worker_port), "--cores", "1", "--memory", "1g", "--webui-port",
                                         str(worker_ui)], env=env, stdout=files["worker"], stderr=subprocess.STDOUT))
        _wait(lambda: _alive_workers(ui) >= 1, 60, "the worker did not register", started, logs)
        yield f"spark://127.0.0.1:{port}", (f"127.0.0.1:{port}", f"127.0.0.1:{worker_port}")
    finally:
        for process in reversed(started):   # the worker first (it stops its executors), then the master
            stop(process, 30)
        for file in files.values():
            file.close()


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _alive_workers(ui: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{ui}/json/", timeout=2) as answer:
            return int(json.load(answer).get("aliveworkers", 0))
    except OSError:
        return 0


def _wait(condition, seconds, what, started, logs: Path):
    deadline = time.monotonic() + seconds
    while not condition():
        for process in started:
            assert process.poll() is None, f"{what}: a Spark process exited ({process.returncode}); see {logs}"
        assert time.monotonic() < deadline, f"{what} within {seconds}s; see {logs}"
        time.sleep(0.5)


def rows(frame) -> list[str]:
    """A small table's rows, in an order that does not depend on partitioning (maps allowed)."""
    return sorted(json.dumps(row.asDict(recursive=True), sort_keys=True, default=str) for row in frame.collect())


# `mqspec report` with the catalogue and features read from a snapshot: both jobs see the same suite definition
# even while spec/ or features/ are being edited in the checkout
DRIVER = """
import sys
from pathlib import Path
import mqspec.catalogue, mqspec.reports.suite
mqspec.catalogue.SPEC_DIR = Path(sys.argv[1]) / "spec"
mqspec.reports.suite.FEATURES = Path(sys.argv[1]) / "features"
from mqspec.cli import main
sys.exit(main(sys.argv[2:]))
"""


def snapshot(into: Path) -> Path:
    for part in ("spec", "features"):
        shutil.copytree(ROOT / part, into / part, ignore=shutil.ignore_patterns("__pycache__"))
    return into


def report(runs, output: Path, master: str, suite: Path) -> dict:
    process = subprocess.run([sys.executable, "-c", DRIVER, str(suite), "report", *map(str, runs), "--output",
                              str(output), "--master", master, "--any-suite-version"], cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
    assert process.returncode == 0, process.stderr[-3000:]
    summary = json.loads((output / "summary.json").read_text())
    for key in ("generated", "master"):
        summary.pop(key)
    return summary


def test_a_standalone_cluster_gives_the_results_of_local_mode_and_is_stopped(spark, tmp_path):
    roles = history(tmp_path / "results")
    suite = snapshot(tmp_path / "suite")
    with standalone_cluster(tmp_path) as (master, markers):
        on_cluster = report(roles["runs"], tmp_path / "cluster", master, suite)
        running = [pid for marker in markers for pid in spark_processes(marker)]
        assert len(running) >= 2, "a master and a worker (and the job's executor) ran"
    leftover = [pid for marker in markers for pid in spark_processes(marker) if Path(f"/proc/{pid}").exists()]
    assert leftover == [], "the master, the worker and their executors are all stopped"
    assert "app-" in (tmp_path / "master.log").read_text(errors="replace"), "the job ran on the cluster"
    local = report(roles["runs"], tmp_path / "local", "local[*]", suite)
    assert on_cluster == local
    for name in (*TABLES, *STAGES):
        left = spark.read.parquet(str(tmp_path / "cluster" / "tables" / name))
        right = spark.read.parquet(str(tmp_path / "local" / "tables" / name))
        assert left.schema == right.schema, name
        assert rows(left) == rows(right), name
    records = sorted((tmp_path / "local").glob("certification-*.json"))
    assert len(records) == 2
    for record in records:
        assert record.read_text() == (tmp_path / "cluster" / record.name).read_text()   # sha256 included
    assert on_cluster["counts"]["reference"]["failed"] == 1
