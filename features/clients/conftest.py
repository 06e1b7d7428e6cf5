"""Every client scenario runs once per --client (default: the two shipped shims, `python -m mqspec.shims.mqrr`
over mqspec's own client and `python -m mqspec.shims.independent`, written apart from it).

The client under test is a shim (docs/client-shim.md) started afresh for each
scenario and pointed at the judging server: one this process serves on loopback
(a reference queue manager, per pytest-xdist worker), or the one --judge names.
Each scenario begins with the judge's queue manager as at its first start and no
records.  This conftest's `world` replaces the server scenarios' one for the
scenarios below this folder.

The shim's standard error of each scenario is kept in the results directory, in
shims/<test id>.stderr.  A shim that fails hello is not started again: every later
scenario of that client fails at once with the first reason (`mqspec certify`
checks each shim before the run, so there it never comes to that).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from mqspec.adapters import TargetError
from mqspec.adapters.judge import open_judge
from mqspec.adapters.shim import Shim, ShimError
from mqspec.identity import client_target
from mqspec.steps.client_world import ClientWorld

SHIPPED = [f"{shlex.quote(sys.executable)} -m mqspec.shims.{name}" for name in ("mqrr", "independent")]
FAILED_HELLO: dict[str, str] = {}   # shim command -> why its hello failed, in this process


def client_commands(config) -> list[str]:
    return config.getoption("client") or SHIPPED


def client_id(command: str) -> str:
    """A short test id for a shim command: its module or program name (and its --options)."""
    words = shlex.split(command)
    if "-m" in words and words.index("-m") + 1 < len(words):
        words = words[words.index("-m") + 1:]
    else:
        words = [re.sub(r".*[\\/]", "", words[0])] + words[1:]
    return "client:" + " ".join(words)


def pytest_generate_tests(metafunc):
    if "client_command" in metafunc.fixturenames:
        commands = client_commands(metafunc.config)
        metafunc.parametrize("client_command", commands, ids=[client_id(c) for c in commands], scope="function")


@pytest.fixture(scope="session")
def judge(request):
    try:
        judge = open_judge(request.config.getoption("judge"))
    except TargetError as error:
        pytest.exit(f"--judge: {error}", returncode=4)
    yield judge
    judge.close()


def stderr_path(request, tmp_path) -> Path:
    """Where the scenario's shim writes its standard error: the run's results directory, else pytest's tmp_path."""
    results = os.environ.get("MQSPEC_RESULTS")   # set by the suite's plugin (mqspec/pytest_plugin.py)
    if not results:
        return tmp_path / "shim.stderr"
    folder = Path(results) / "shims"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / (re.sub(r"[^\w.=-]+", "_", request.node.name).strip("_")[:150] + ".stderr")


@pytest.fixture(autouse=True)
def world(judge, client_command, request, tmp_path):
    if client_command in FAILED_HELLO:
        request.node.user_properties.append(("target", client_target(client_command)))
        pytest.fail(f"not started: this shim failed hello before ({FAILED_HELLO[client_command]})", pytrace=False)
    judge.begin_scenario()
    shim = None
    try:
        shim = Shim(client_command, stderr_path=stderr_path(request, tmp_path))
        shim.start(judge.host, judge.port, judge.computer_name)
    except ShimError as error:
        if shim is not None:
            shim.close()
        FAILED_HELLO[client_command] = str(error)
        request.node.user_properties.append(("target", client_target(client_command)))
        pytest.fail(f"the client could not be started: {error}", pytrace=False)
    request.node.user_properties.append(("target", client_target(shim.name)))
    world = ClientWorld(judge, shim, node=request.node)
    yield world
    shim.close()
