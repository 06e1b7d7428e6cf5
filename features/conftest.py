"""Every scenario runs once per target (--target, default: a fresh in-process reference).

Each scenario gets a client of its own and, where the target can (capability
"reset"), a queue manager started afresh, so that no scenario sees what an
earlier one left in the machine-wide queues (journal, dead-letter) or the store.
"""

from __future__ import annotations

import importlib
import os
import re

import pytest

from mqspec.adapters import TargetError, connect
from mqspec.identity import target_name
from mqspec.steps.world import World


def pytest_configure(config):
    _remember_step_lookups()


def _remember_step_lookups() -> None:
    """pytest-bdd finds a step's definition by trying every fixture of the session against the step's text, for
    every step of every scenario: 70% of a scenario's time here (measured with cProfile).  Every step definition is
    registered by the end of the collection and which ones a test sees depends only on its module, so each
    (module, step type, step text) is looked up once.  Without the function (another pytest-bdd), nothing changes."""
    scenario = importlib.import_module("pytest_bdd.scenario")   # the package's `scenario` is a function
    find = getattr(scenario, "find_fixturedefs_for_step", None)
    if find is None or getattr(find, "remembers", False):
        return
    found: dict[tuple, list] = {}

    def remembering(step, fixturemanager, node):
        key = (id(fixturemanager), node.nodeid.split("::")[0], step.type, step.name)
        if key not in found:
            found[key] = list(find(step=step, fixturemanager=fixturemanager, node=node))
        return found[key]

    remembering.remembers = True
    scenario.find_fixturedefs_for_step = remembering


def pytest_generate_tests(metafunc):
    if "target_url" in metafunc.fixturenames:
        urls = metafunc.config.getoption("target") or ["reference"]
        # each test case is named by its target's name (junit.xml, cucumber.json), never by an index
        metafunc.parametrize("target_url", urls, ids=[target_name(url) for url in urls], scope="function")


@pytest.fixture
def connect_url(target_url):
    """The URL this process connects to: under pytest-xdist each worker hosts its own queue manager, so a
    reference with a store gets a store file of its own (two queue managers never share one store)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker or not target_url.startswith("reference?"):
        return target_url
    return re.sub(r"(?<=[?&])store=([^&]+)", lambda m: f"store={m.group(1)}.{worker}", target_url)


@pytest.fixture
def target(connect_url):
    try:
        target = connect(connect_url)
    except TargetError as error:
        pytest.exit(f"--target: {error}", returncode=4)
    if "reset" in target.capabilities:
        target.reset()
    yield target
    target.close()


@pytest.fixture(autouse=True)
def world(target, request):
    world = World(target, node=request.node)
    yield world
    world.close_clients()
