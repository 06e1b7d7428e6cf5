"""The checkout's own test runs (make test): the suite's pytest plugin, and the option of the slowest proof."""

import pytest

pytest_plugins = ["mqspec.pytest_plugin"]   # the suite's plugin, which brings the step vocabulary


def pytest_addoption(parser):
    parser.addoption("--variants", action="store_true",
                     help="also run the tests marked `variants` (the whole suite per reading; make variants)")


def pytest_collection_modifyitems(config, items):
    # the slow tests first: two pytest-xdist workers then end together instead of one finishing a long test alone
    items.sort(key=lambda item: "slow" not in item.keywords)
    if config.getoption("variants"):
        return
    skip = pytest.mark.skip(reason="not run: the whole suite per variant takes about 20 minutes; make variants "
                                   "runs it (tests/test_readings.py makes the same proof in a cheaper form)")
    for item in items:
        if "variants" in item.keywords:
            item.add_marker(skip)
