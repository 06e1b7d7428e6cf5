"""Loads the mqspec pytest plugin and the step vocabulary for every test run."""

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
]
