"""Ctrl-C at any stage of a command: one line, no traceback, no process left behind.

The terminal sends SIGINT to its whole foreground process group.  The shims of client
certification run in process groups of their own (adapters/shim.py) and PySpark starts
its JVM with SIGINT ignored, so neither goes by itself: `stop_children` kills them.
The first SIGINT raises KeyboardInterrupt where the command is (pytest turns it into
its exit status; the CLI raises it again); later ones are ignored, so that a second
Ctrl-C cannot break off the clean-up half way and leave the JVM running.  py4j logs
every call the interrupt broke, with its traceback: logging is silenced from the
first SIGINT on.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import uuid
from pathlib import Path

RUN_TOKEN = "MQSPEC_RUN_TOKEN"   # set by the command; a shim's environment carries it as MQSPEC_SHIM

_seen = []   # the SIGINTs received, for _interrupt


def _interrupt(signum, frame):
    """The first SIGINT raises KeyboardInterrupt; later ones come while the clean-up, which is bounded, is under way
    and must not cut it short."""
    _seen.append(signum)
    if len(_seen) == 1:
        logging.disable(logging.CRITICAL)   # py4j's complaints about the call Ctrl-C broke are no news
        raise KeyboardInterrupt


def install() -> tuple:
    """Handle SIGINT as above (only where Python handles it: a process started with SIGINT ignored keeps that), and
    mark the run, so that every shim started under it, by this process or a worker, carries the mark; what was
    there before, for `restore`."""
    saved = signal.getsignal(signal.SIGINT), os.environ.get(RUN_TOKEN)
    if saved[0] is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt)
    os.environ[RUN_TOKEN] = uuid.uuid4().hex
    return saved


def restore(saved: tuple, in_process: bool = False) -> None:
    """Put back the SIGINT handler and mark `install` found, unless an interrupt is being handled by a process that
    is about to exit; `in_process`: the command ran inside another process (a test's call), which goes on, so even
    after an interrupt it gets its handler back (SIGINT left ignored would be inherited by every process it starts)."""
    handler, token = saved
    if in_process:
        _seen.clear()
        signal.signal(signal.SIGINT, handler)
    elif not _seen and signal.getsignal(signal.SIGINT) is _interrupt:
        signal.signal(signal.SIGINT, handler)
    if token is None:
        os.environ.pop(RUN_TOKEN, None)
    else:
        os.environ[RUN_TOKEN] = token


def kill_shims() -> None:
    """Kill every process that carries this run's shim mark (adapters/shim.py): the shims and all they started."""
    token = os.environ.get(RUN_TOKEN)
    if not token:
        return
    mark = f"MQSPEC_SHIM={token}".encode()
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if mark in environ.read_bytes().split(b"\0"):
                os.kill(int(environ.parent.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue   # gone while we looked, or not ours to read


def stop_children() -> None:
    """Kill the shims this process started and the JVM PySpark started, if any; SIGINT is ignored from here to the
    exit (Python's own finalisation would otherwise let a late second Ctrl-C kill the process by its signal)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from mqspec.adapters.shim import kill_all
    kill_all()
    kill_shims()
    if "pyspark" not in sys.modules:   # no JVM unless PySpark was imported
        return
    for pid in _spark_children():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass   # gone already


def _spark_children() -> list[int]:
    """The JVMs this process started (PySpark's gateway: a child running org.apache.spark), found in /proc, which
    also finds one whose start Ctrl-C broke before PySpark kept its handle; none where there is no /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rpartition(")")[2].split()[1])
            if parent == os.getpid() and b"org.apache.spark" in (stat.parent / "cmdline").read_bytes():
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue   # a process that ended while we looked
    return found
