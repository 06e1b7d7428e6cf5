"""The client under test, through its shim: the JSON-lines protocol of docs/client-shim.md.

Theory of operation
-------------------
`Shim(command)` starts the shim as a process of its own (the command split as a
shell would, run without a shell), greets it with `hello` and keeps reading its
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

import json
import os
import shlex
import subprocess
import tempfile
import threading
import time
from pathlib import Path

PROTOCOL = 1
GRACE = 30.0          # seconds a reply may take beyond the operation's own time-out
START_TIMEOUT = 60.0  # seconds for the shim to start and answer hello


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
                                             stderr=self._stderr, env={**os.environ, **(env or {})})
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

    # -- the conversation ----------------------------------------------------------------------
    def start(self, server: str, port: int, computer: str) -> dict:
        """hello: where the judge listens; the shim's answer (its name, version, workgroup, routing_server)."""
        self.hello = self._exchange(0, {"op": "hello", "server": server, "port": port, "computer": computer,
                                        "protocol": PROTOCOL}, START_TIMEOUT)
        if not isinstance(self.hello.get("name"), str) or not self.hello["name"]:
            raise ShimError(f"the shim's hello answer names no client (a 'name' field): {self.hello}")
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
            raise ShimError(f"{op}: the shim answered {reply} where 'pending' was due (docs/client-shim.md)")

    def reply(self, number: int, op: str, timeout_ms: int = 0) -> dict:
        return self._wait(number, op, timeout_ms / 1000 + GRACE, final=True)

    def close(self) -> None:
        """bye, then the process is waited for (and killed when it does not go)."""
        try:
            if self._process.poll() is None and self._broken is None:
                try:
                    self.request("bye")
                except (ShimError, ShimUnimplemented):
                    pass   # it is going away either way
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(5)
        finally:
            for stream in (self._process.stdin, self._process.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self._stderr.close()

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
            raise ShimError(self._why(f"{message.get('op')}: the shim is gone")) from None

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
                    raise ShimError(self._why(f"{op}: no answer from the shim within {timeout:g} s"))
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
