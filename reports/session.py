"""The SparkSession a report runs in: `local[*]` by default, or a cluster's master.

Settings measured on this project's machines (see the tooling notes): Spark binds
to loopback (SPARK_LOCAL_IP=127.0.0.1), the web UI and console progress bars are
off, a few shuffle partitions suffice, and the driver needs at least 512m.  The
JVM's own output (start-up warnings, log4j) goes to a log file, not the terminal.
A master URL is checked before Spark sees it, and a master that does not answer is
named in one line rather than retried for a minute.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from .errors import ReportError

MASTER = re.compile(r"local(\[(\*|[1-9][0-9]*)\])?|spark://(?P<host>[^:/]+):(?P<port>[0-9]{1,5})")


def prepare_environment() -> None:
    """What PySpark needs from the environment, whether or not a virtual environment is active."""
    import pyspark
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("SPARK_HOME", str(Path(pyspark.__file__).parent))
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")


GET_JAVA = ("install it (Debian, Ubuntu: apt-get install openjdk-17-jre-headless; elsewhere a JDK from "
            "adoptium.net) and put it on PATH or set JAVA_HOME")
JAVA_VERSION = re.compile(r'version "(?:1\.)?([0-9]+)')


def java_command() -> str:
    """The java that Spark will run; ReportError naming what is missing, or too old, and how to get it."""
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if not java or not Path(java).exists():
        where = f"JAVA_HOME={home} has no bin/java" if home else "no java on PATH, no JAVA_HOME"
        raise ReportError(f"the report needs Java 17 or 21 and finds none ({where}); {GET_JAVA}")
    major = _java_major(java)
    if major is not None and major < 17:
        raise ReportError(f"the report needs Java 17 or 21 and finds Java {major} ({java}); {GET_JAVA}")
    return java


@functools.cache
def _java_major(java: str) -> int | None:
    """The major version `java -version` prints (None if it prints none: Spark then says what is wrong)."""
    try:
        shown = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30, check=False).stderr
    except (OSError, subprocess.SubprocessError):
        return None
    match = JAVA_VERSION.search(shown)
    return int(match.group(1)) if match else None


def check_master(master: str) -> None:
    match = MASTER.fullmatch(master)
    if not match:
        raise ReportError(f"--master {master}: use local[*], local[N] or spark://HOST:PORT")
    if match.group("host"):
        host, port = match.group("host"), int(match.group("port"))
        try:
            with socket.create_connection((host, port), timeout=3):
                pass
        except OSError as error:
            raise ReportError(f"--master {master}: no Spark master answers there "
                              f"({error.strerror or error})") from None


def start_session(master: str = "local[*]", log_path: Path | None = None, *, app: str = "mqspec-report",
                  driver_memory: str = "512m", shuffle_partitions: int = 4, executor_memory: str = "512m",
                  quick_jvm: bool = False):
    """(SparkSession, seconds it took to start).  ReportError if Spark cannot start."""
    check_master(master)
    java_command()
    prepare_environment()
    from pyspark.errors import PySparkException
    from pyspark.sql import SparkSession
    builder = (SparkSession.builder.master(master).appName(app)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.driver.memory", driver_memory)
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.hadoop.mapreduce.fileoutputcommitter.algorithm.version", "2")
               .config("spark.hadoop.parquet.summary.metadata.level", "NONE")
               # Spark sizes a Parquet table by its compressed bytes, so a table of millions of repetitive rows
               # looks small enough to broadcast and then fills a 512m driver: only the joins that name a
               # side small (F.broadcast: runs, latest runs, the catalogue's scenarios) broadcast it
               .config("spark.sql.autoBroadcastJoinThreshold", "-1")
               .config("spark.sql.adaptive.autoBroadcastJoinThreshold", "-1"))
    if quick_jvm:  # small inputs: a JVM that starts and compiles less pays off (measured in the tooling notes)
        builder = builder.config("spark.driver.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
    if master.startswith("spark://"):
        builder = builder.config("spark.executor.memory", executor_memory).config("spark.cores.max", "2")
    begin = time.monotonic()
    interrupt = signal.getsignal(signal.SIGINT)
    try:
        with _output_to(log_path):
            session = builder.getOrCreate()
    except (PySparkException, OSError) as error:
        where = f"; see {log_path}" if log_path else ""
        raise ReportError(f"Spark did not start ({str(error).splitlines()[0]}){where}") from None
    finally:
        if interrupt is not None and threading.current_thread() is threading.main_thread():
            # PySpark's own Ctrl-C handler calls into the JVM and raises at every SIGINT: keep ours
            # (mqspec/interrupts.py)
            signal.signal(signal.SIGINT, interrupt)
    session.sparkContext.setLogLevel("ERROR")
    return session, time.monotonic() - begin


@contextmanager
def _output_to(log_path: Path | None):
    """Send what the JVM prints (it inherits file descriptors 1 and 2) to `log_path` for its whole life."""
    if log_path is None:
        yield
        return
    log_path.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log_path, "ab") as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
