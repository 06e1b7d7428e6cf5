"""What the command line offers client library authors: the shims checked before a run, `mqspec shim`, `mqspec docs`.

A client is certified through a shim (docs/client-shim.md).  Before any scenario runs, `certify --client`
starts each shim once and greets it (`check_shim`): a program that is not there, exits, writes what is not a
reply, answers hello without a name or not within a few seconds is named in one line with the reason, and
nothing is certified.  `mqspec shim NAME` runs a shipped shim with the Python that runs mqspec, so that a tool
installed with pipx (whose `python` cannot import mqspec) can still be given to `--client`.  `mqspec docs NAME`
prints a document of docs/, which the wheel carries.
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
import tempfile
from pathlib import Path

from .parts import part

SHIMS = {"mqrr": "over mqspec's own mqrr:// client",
         "independent": "written apart from mqspec: impacket's DCE/RPC transport, its own NDR",
         "wrong": "one of the wrong clients the client scenarios must catch (NAME, or --list)"}
DOCS = {"shim": "client-shim.md", "control": "control.md", "certified": "certified.md"}


class ShimCheckError(Exception):
    """A shim that cannot be certified; one line says which and why."""


def check_program(command: str) -> None:
    """The shim's command splits as a shell would split it and names a program that exists."""
    from mqspec.adapters.shim import ShimError, shim_argv
    try:
        program = shim_argv(command)[0]
    except ShimError as error:
        raise ShimCheckError(str(error)) from None
    found = shutil.which(program) if os.sep not in program else (program if os.access(program, os.X_OK) else None)
    if found is None:
        raise ShimCheckError(f"--client {command!r}: no program {program!r} "
                             + ("on PATH" if os.sep not in program else "that can be run"))


def check_shim(command: str, judge) -> str:
    """Start the shim once against `judge`, greet it and say bye: the client's name, or ShimCheckError naming the
    shim and what went wrong (hello is given a few seconds: adapters/shim.py's START_TIMEOUT)."""
    from mqspec.adapters.shim import Shim, ShimError
    check_program(command)
    handle, stderr_path = tempfile.mkstemp(prefix="mqspec-shim-", suffix=".log")
    os.close(handle)
    shim = None
    try:
        shim = Shim(command, stderr_path=Path(stderr_path))
        return shim.start(judge.host, judge.port, judge.computer_name)["name"]
    except ShimError as error:
        raise ShimCheckError(f"--client {command!r}: the shim failed hello: {error}{_hint(str(error))}") from None
    finally:
        if shim is not None:
            shim.close()
        os.unlink(stderr_path)


def _hint(reason: str) -> str:
    if "No module named" in reason and "mqspec" in reason:
        return " (that Python cannot import mqspec; `mqspec shim mqrr` runs a shipped shim with mqspec's own)"
    if "names no client" in reason or "not a reply" in reason:
        return " (a shim speaks JSON lines: `mqspec docs shim`)"
    return ""


def run_shim(name: str, arguments: list[str]) -> int:
    """`mqspec shim NAME ARGS...`: the shipped shim, as `python -m mqspec.shims.NAME ARGS...` runs it."""
    saved = sys.argv
    sys.argv = [f"mqspec shim {name}", *arguments]
    try:
        runpy.run_module(f"mqspec.shims.{name}", run_name="__main__", alter_sys=True)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.argv = saved
    return 0


def show_doc(name: str) -> str:
    """The text of docs/<DOCS[name]>, from a checkout or the installed package."""
    return (part("docs") / DOCS[name]).read_text(encoding="utf-8")
