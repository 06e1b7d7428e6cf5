"""`mqspec serve` in a process of its own, for the tests that need a server on the wire."""

from __future__ import annotations

import collections
import contextlib
import re
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def served(target: str = "reference", mqspec: tuple[str, ...] = (sys.executable, "-m", "mqspec.cli"),
           cwd: Path = ROOT, options: tuple[str, ...] = (), lines: list | None = None):
    """Yield the URL of `mqspec serve --target TARGET [options]` on a free loopback port; stop it afterwards.
    `mqspec` is the command that runs mqspec (default: this checkout's), `cwd` where it runs.  Its log is read as
    it comes (a full pipe would stop the server); `lines`, if given, gets every line of it, the first included,
    once the server has stopped."""
    with served_process(target, mqspec, cwd, options, lines) as (url, _process):
        yield url


@contextlib.contextmanager
def served_process(target: str = "reference", mqspec: tuple[str, ...] = (sys.executable, "-m", "mqspec.cli"),
                   cwd: Path = ROOT, options: tuple[str, ...] = (), lines: list | None = None):
    """As served(), yielding (URL, the server's Popen): for tests that watch the process (its memory)."""
    process = subprocess.Popen([*mqspec, "serve", "--port", "0", "--target", target, *options],
                               cwd=cwd, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        match = re.search(r"on 127\.0\.0\.1:(\d+)", line)
        assert match, f"the server did not start: {line}"
        log = collections.deque([line], maxlen=None if lines is not None else 200)
        reader = threading.Thread(target=lambda: log.extend(process.stderr), daemon=True)
        reader.start()
        yield f"mqrr://127.0.0.1:{match.group(1)}", process
    finally:
        stop(process, 30)
    reader.join(10)
    if lines is not None:
        lines.extend(text.rstrip("\n") for text in log)


def stop(process: subprocess.Popen, grace: float) -> None:
    """Terminate `process`; kill it if it has not gone within `grace` seconds."""
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
