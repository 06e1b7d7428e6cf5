"""Every scenario runs once per target (--target, default: a fresh in-process reference).

Each scenario gets a client of its own and, where the target can (capability
"reset"), a queue manager started afresh, so that no scenario sees what an
earlier one left in the machine-wide queues (journal, dead-letter) or the store.
"""

from __future__ import annotations

import pytest

from adapters import TargetError, connect
from steps.world import World


def pytest_generate_tests(metafunc):
    if "target_url" in metafunc.fixturenames:
        urls = metafunc.config.getoption("target") or ["reference"]
        metafunc.parametrize("target_url", urls, ids=[url.split("?")[0] for url in urls], scope="function")


@pytest.fixture
def target(target_url):
    try:
        target = connect(target_url)
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
