"""Loads the mqspec pytest plugin and the step vocabulary for every test run."""

import pytest

pytest_plugins = [
    "mqspec.pytest_plugin",
    "steps.setup_steps",
    "steps.receive_steps",
    "steps.handle_steps",
    "steps.packet_steps",
    "steps.section_steps",
    "steps.pending_steps",
    "steps.transaction_steps",
    "steps.event_steps",
    "steps.cursor_steps",
    "steps.client_steps",
    "steps.rpc_steps",
    "steps.configuration_steps",
    "steps.security_steps",
    "steps.decision_steps",
    "steps.wait_readings_steps",
    "steps.arrival_readings_steps",
    "steps.remote_read_readings_steps",
    "steps.packet_readings_steps",
    "steps.boundary_steps",
    "steps.subqueue_header_steps",
    "steps.mqqb_steps",
    "steps.source_steps",
    "steps.receive_output_steps",
    "steps.transaction_count_steps",
    "steps.private_number_steps",
]


def pytest_addoption(parser):
    parser.addoption("--variants", action="store_true",
                     help="also run the tests marked `variants` (the whole suite per reading; make variants)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("variants"):
        return
    skip = pytest.mark.skip(reason="not run: the whole suite per variant takes about 20 minutes; make variants "
                                   "runs it (tests/test_readings.py makes the same proof in a cheaper form)")
    for item in items:
        if "variants" in item.keywords:
            item.add_marker(skip)
