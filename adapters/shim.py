"""The client under test, through its shim: the JSON-lines protocol of docs/client-shim.md.

Theory of operation
-------------------
`Shim(command)` starts the shim as a process of its own (the command split as a
shell would, run without a shell) in a process group of its own, so that the
terminal's Ctrl-C reaches the suite alone and closing the shim ends whatever it
started; every shim still running when the suite's process exits is killed
(`kill_all`, also on an interrupt).  It greets the shim with `hello` (a few
seconds: a shim that cannot start says so at once) and keeps reading its
standard output on a thread: each line is one reply, filed by its id.  `request`
sends one operation and waits for its final reply; `send` / `reply` split the
two for an operation that waits in the background (`"wait"`: the shim first
answers `pending`).  Standard error goes to a file beside the results, and its
last lines travel in every error, so a shim that breaks says why.

The shim's answers are taken as they come; nothing here judges them.  What goes
wrong on the shim's side is an exception: ShimUnimplemented (the library cannot
do the operation: the scenario is not run), ShimError (anything else: a line that
is not JSON, an `error` reply, an exit, a time-out).
"""

from __future__ import annotations

import atexit
import json
import os
import shlex
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from pathlib import Path

PROTOCOL = 1
GRACE = 30.0          # seconds a reply may take beyond the operation's own time-out
START_TIMEOUT = 10.0  # seconds for the shim to start and answer hello (a Python shim starts in about one)
BYE_TIMEOUT = 5.0     # seconds for bye and the exit after it, before the shim's process group is killed
_LIVE: weakref.WeakSet = weakref.WeakSet()   # every shim started and not yet closed, for kill_all


class ShimError(RuntimeError):
    """The shim broke the protocol, died or stopped answering; the message says how, in one line plus its
    standard error's last lines."""


class ShimUnimplemented(RuntimeError):
    """The client under test does not implement an operation."""

    def __init__(self, op: str, why: str) -> None:
        super().__init__(f"the client does not implement {op}" + (f" ({why})" if why and why != op else ""))
        self.op = op


def shim_argv(command: str) -> list[str]:
    """The shim's command split as a shell would (it runs without one); ShimError when it cannot be."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ShimError(f"--client {command!r}: {error}") from None
    if not argv:
        raise ShimError("--client: the shim's command is empty")
    return argv


class Shim:
    def __init__(self, command: str, *, stderr_path: Path | None = None, env: dict | None = None) -> None:
        argv = shim_argv(command)
        self.command = command
        self._stderr_path = stderr_path or Path(tempfile.mkstemp(prefix="mqspec-shim-", suffix=".log")[1])
        self._stderr = open(self._stderr_path, "wb")
        try:
            self._process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=self._stderr, env={**os.environ, **(env or {}), **_mark()},
                                             start_new_session=True)
        except OSError as error:
            self._stderr.close()
            raise ShimError(f"--client {command!r}: cannot start it ({error.strerror or error})") from None
        self._replies: dict[int, list[dict]] = {}
        self._broken: str | None = None
        self._ids = iter(range(1, 1 << 62))
        self._lock = threading.Condition()
        self._reader = threading.Thread(target=self._read, name="shim-reader", daemon=True)
        self._reader.start()
        self.hello: dict = {}
        _LIVE.add(self)

    # -- the conversation ----------------------------------------------------------------------
    def start(self, server: str, port: int, computer: str) -> dict:
        """hello: where the judge listens; the shim's answer (its name, version, workgroup, routing_server)."""
        self.hello = self._exchange(0, {"op": "hello", "server": server, "port": port, "computer": computer,
                                        "protocol": PROTOCOL}, START_TIMEOUT)
        if not isinstance(self.hello.get("name"), str) or not self.hello["name"]:
            raise ShimError(f"hello: the answer names no client (a 'name' field): {str(self.hello)[:120]}")
        return self.hello

    @property
    def name(self) -> str:
        return self.hello.get("name") or self.command

    def request(self, op: str, timeout_ms: int = 0, **args) -> dict:
        """One operation, waited for: the shim's final reply (with `status`)."""
        return self.reply(self.send(op, **args), op, timeout_ms)

    def send(self, op: str, **args) -> int:
        """Send an operation; its id, for `reply` (and `pending`)."""
        number = next(self._ids)
        self._write({"id": number, "op": op, **args})
        return number

    def pending(self, number: int, op: str) -> None:
        """Wait for the `pending` answer of an operation sent with `wait`."""
        reply = self._wait(number, op, GRACE, final=False)
        if not reply.get("pending"):
            raise ShimError(f"{op}: the shim answered {reply} where 'pending' was due (`mqspec docs shim`)")

    def reply(self, number: int, op: str, timeout_ms: int = 0) -> dict:
        return self._wait(number, op, timeout_ms / 1000 + GRACE, final=True)

    def close(self) -> None:
        """bye, and the shim's exit waited for, when it is still talking; then its process group is killed, so
        that nothing it started outlives it.  A shim that broke the protocol or stopped answering gets no bye."""
        try:
            if self._process.poll() is None and self._broken is None:
                try:
                    self._wait(self.send("bye"), "bye", BYE_TIMEOUT, final=True)
                    self._process.stdin.close()
                    self._process.wait(BYE_TIMEOUT)
                except (ShimError, ShimUnimplemented, subprocess.TimeoutExpired, OSError):
                    pass   # it is killed below either way
            self.kill()
        finally:
            for stream in (self._process.stdin, self._process.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self._stderr.close()
            _LIVE.discard(self)

    def kill(self) -> None:
        """SIGKILL to the shim's process group (what it started included), and the shim waited for."""
        try:
            os.killpg(self._process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass   # the group is gone already
        try:
            self._process.wait(BYE_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass   # a process stuck in the kernel; nothing more can be done from here

    def stderr_tail(self, lines: int = 5) -> str:
        try:
            text = self._stderr_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return " | ".join(line for line in text.splitlines()[-lines:] if line.strip())

    # -- lines ---------------------------------------------------------------------------------
    def _exchange(self, number: int, message: dict, timeout: float) -> dict:
        self._write({"id": number, **message})
        return self._wait(number, message["op"], timeout, final=True)

    def _write(self, message: dict) -> None:
        try:
            self._process.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self._process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            try:
                gone = f"the shim is gone (exit status {self._process.wait(1)})"
            except subprocess.TimeoutExpired:
                gone = "the shim closed its input"
            raise ShimError(self._why(f"{message.get('op')}: {gone}")) from None

    def _read(self) -> None:
        stream = self._process.stdout
        for raw in stream:
            try:
                reply = json.loads(raw.decode("utf-8"))
                if not isinstance(reply, dict) or not isinstance(reply.get("id"), int):
                    raise ValueError("no whole-number id")
            except (ValueError, UnicodeDecodeError) as error:
                self._stop(f"the shim wrote a line that is not a reply ({error}): {raw[:120]!r}")
                return
            with self._lock:
                self._replies.setdefault(reply["id"], []).append(reply)
                self._lock.notify_all()
        self._stop(f"the shim closed its output (exit status {self._process.wait()})")

    def _stop(self, why: str) -> None:
        with self._lock:
            if self._broken is None:
                self._broken = why
            self._lock.notify_all()

    def _wait(self, number: int, op: str, timeout: float, final: bool) -> dict:
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                queue = self._replies.get(number)
                if queue:
                    reply = queue.pop(0)
                    if final and reply.get("pending"):
                        continue                       # the early answer of a waiting operation
                    return self._checked(reply, op)
                if self._broken is not None:
                    raise ShimError(self._why(f"{op}: {self._broken}"))
                left = deadline - time.monotonic()
                if left <= 0:
                    why = f"{op}: no answer from the shim within {timeout:g} s"
                    self._broken = self._broken or why   # a shim that stopped answering is not asked again
                    raise ShimError(self._why(why))
                self._lock.wait(left)

    def _checked(self, reply: dict, op: str) -> dict:
        if "unimplemented" in reply:
            raise ShimUnimplemented(op, str(reply["unimplemented"]))
        if "error" in reply:
            raise ShimError(self._why(f"{op}: the shim reports an error of its own: {reply['error']}"))
        if not reply.get("pending") and op != "hello":
            status = reply.get("status")
            if not isinstance(status, int) or isinstance(status, bool) or not 0 <= status <= 0xFFFFFFFF:
                raise ShimError(self._why(f"{op}: the reply has no 32-bit 'status': {reply}"))
        return reply

    def _why(self, text: str) -> str:
        tail = self.stderr_tail()
        return text + (f"; its standard error ends: {tail}" if tail else "")


def _mark() -> dict:
    """The run's mark in the shim's environment (and so in all it starts), by which the command that started the run
    finds every shim, even one a pytest-xdist worker started and did not live to close (mqspec/interrupts.py)."""
    token = os.environ.get("MQSPEC_RUN_TOKEN")
    return {"MQSPEC_SHIM": token} if token else {}


def kill_all() -> None:
    """Kill every shim this process started and has not closed (at exit, and when the run is interrupted)."""
    for shim in list(_LIVE):
        shim.kill()
        _LIVE.discard(shim)


atexit.register(kill_all)
