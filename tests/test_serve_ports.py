"""A served queue manager that restarts while ports of its sequence are held moves 11 ports up per port
taken (MS-MQRR 3.1.4.1), keeps its open connections, and goes back to its first port when the client that
moved it closes (control operation restart_holding_ports, capability port_conflict)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from mqspec.adapters import MessageProperties, connect
from mqspec.adapters.mqrr.control import ControlError
from mqspec.adapters.serve import EPHEMERAL_RANGE, PORT_STEP, PORT_TRIES, free_sequence
from mqspec.protocol.constants import Access, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name


def _refused(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def test_the_server_moves_past_held_ports_and_back_when_its_mover_closes(served):
    first = served.port
    client = connect(f"mqrr://127.0.0.1:{first}")
    queue = client.create_queue(f"{client.computer_name}\\private$\\moving").format_name
    client.send(queue, MessageProperties(label="m", delivery="recoverable"))
    assert "port_conflict" in client.capabilities and "configure" in client.capabilities
    client.restart_holding_ports(2)
    assert client.get_server_port() == first + 22 == served.port
    opened = client.open_queue(from_format_name(queue), Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE)
    assert opened.hresult == HRESULT.MQ_OK   # RemoteRead is served on the new port, the store came back
    second = client.connection()             # a client made later goes to the new port too
    assert second.get_server_port() == first + 22
    second.close()
    client.close()
    assert served.port == first and not served.holders
    assert _refused(first + 22)
    with connect(f"mqrr://127.0.0.1:{first}") as again:
        assert again.get_server_port() == first


def test_a_count_outside_the_sequence_is_refused_in_one_line(served):
    with connect(f"mqrr://127.0.0.1:{served.port}") as client:
        with pytest.raises(ControlError, match="count must be a whole number from 0 to 15"):
            client.restart_holding_ports(16)
        assert client.get_server_port() == served.port


def test_a_configured_cleanup_period_is_refused_out_of_range_and_forgotten_by_a_reset(served):
    with connect(f"mqrr://127.0.0.1:{served.port}") as client:
        with pytest.raises(ControlError, match="pending_request_cleanup_ms must be a whole number"):
            client.configure(pending_request_cleanup_ms=0)
        with pytest.raises(ControlError, match="configure: no argument 'colour'"):
            client.configure(colour=3)
        client.configure(pending_request_cleanup_ms=60_000)
        assert served.control.target.server.pending_request_cleanup_ms == 60_000
        client.restart()
        assert served.control.target.server.pending_request_cleanup_ms == 60_000   # a restart keeps it
        client.reset()
        assert served.control.target.server.pending_request_cleanup_ms == 300_000  # a reset forgets it


def test_port_0_draws_a_sequence_below_the_ephemeral_range_that_is_free(served, monkeypatch, tmp_path):
    """A client connection's local port is drawn from the ephemeral range; a sequence there could lose a port
    to one while the server restarts, and the server would land a step further than the ports held."""
    low = int(Path(EPHEMERAL_RANGE).read_text().split()[0])
    assert served.first_port == served.port and served.port + (PORT_TRIES - 1) * PORT_STEP < low
    assert all(_refused(served.port + attempt * PORT_STEP) for attempt in range(1, PORT_TRIES))
    narrow = tmp_path / "range"
    narrow.write_text("1300\t60999\n")   # room for one sequence start only: 1024 .. 1300 - 16 * 11
    monkeypatch.setattr("mqspec.adapters.serve.EPHEMERAL_RANGE", str(narrow))
    first = free_sequence("127.0.0.1", PORT_TRIES)
    assert 1024 <= first and first + (PORT_TRIES - 1) * PORT_STEP < 1300
