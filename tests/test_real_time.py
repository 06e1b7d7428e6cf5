"""Real time for real peers (issue 18, part 3): the adapters' WallClock, the TimerDriver, `mqspec serve`'s clock
following the wall clock, and the suite keeping virtual time (reset holds the clock; run_in_real_time releases it).

No test asserts how fast anything is: each waits a bounded time for what must come, and the clocks are compared
with each other, not with a stopwatch."""

from __future__ import annotations

import math
import socket
import time
import uuid

import pytest

from mqspec.adapters import connect
from mqspec.adapters.in_process import InProcessTarget
from mqspec.adapters.mqrr.control import ControlError
from mqspec.adapters.serve import serve
from mqspec.adapters.wall_clock import WallClock
from mqspec.protocol.constants import Access, Action, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name
from mqspec.adapters.mqqb import packets as wire

BAD_STEPS = (math.inf, -math.inf, math.nan, -1, "x", 1.5, True, None)
ACK_TIMEOUT = 2000   # ms: the peer's AckTimeout (MS-MQQB 2.2.2.1), within which its SessionAck must come


def test_a_held_clock_moves_only_when_advanced_and_a_released_one_follows_the_wall_clock_never_back():
    clock = WallClock()
    assert clock.held
    first = clock.now_ms()
    time.sleep(0.05)
    assert clock.now_ms() == first                     # held: virtual time
    clock.advance(10_000)
    assert clock.now_ms() == first + 10_000
    clock.release()
    assert not clock.held and clock.now_ms() >= first + 10_000   # carries on from the held value
    time.sleep(0.05)
    running = clock.now_ms()
    assert running > first + 10_000                    # follows the wall clock
    clock.advance(60_000)
    assert clock.now_ms() >= running + 60_000          # elapse moves it further ahead
    clock.hold()
    held = clock.now_ms()
    time.sleep(0.02)
    assert clock.now_ms() == held
    clock.release()
    readings = [clock.now_ms() for _ in range(1000)]
    assert readings == sorted(readings) and readings[0] >= held


@pytest.mark.parametrize("step", BAD_STEPS, ids=repr)
def test_a_step_that_is_no_whole_number_of_ms_is_refused(step):
    clock = WallClock()
    before = clock.now_ms()
    with pytest.raises(ValueError):
        clock.advance(step)
    with InProcessTarget() as target:
        with pytest.raises(ValueError):
            target.elapse(step)
    assert clock.now_ms() == before


def test_control_elapse_refuses_infinity_nan_negative_and_text_in_one_line():
    hosted = InProcessTarget()
    with serve(hosted, log=lambda line: None) as served, connect(f"mqrr://127.0.0.1:{served.port}") as client:
        assert {"real_time", "virtual_time"} <= client.capabilities
        before = hosted._core.clock.now_ms()
        for step in (math.inf, math.nan, -1, "x", 2.5):
            with pytest.raises(ControlError) as error:
                client.elapse(step)
            assert "elapse" in str(error.value) and "\n" not in str(error.value)
        client.elapse(1000)
        assert hosted._core.clock.now_ms() >= before + 1000
    hosted.close()


def session(port: int, target_guid: bytes) -> tuple[socket.socket, wire.Stream, bytes]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    stream, guid = wire.Stream(), uuid.uuid4().bytes_le
    sock.sendall(wire.establish_connection(guid, target_guid, 1))
    sock.sendall(wire.connection_parameters(500, ACK_TIMEOUT, 64))
    return sock, stream, guid


def packets_within(sock: socket.socket, stream: wire.Stream, seconds: float, until: str) -> list[str]:
    sock.settimeout(0.05)
    kinds, end = [], time.monotonic() + seconds
    while time.monotonic() < end and until not in kinds:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        kinds += [wire.decode(packet).kind for packet in stream.feed(data)]
    return kinds


def test_a_served_queue_manager_sends_its_session_ack_in_real_time_with_no_control_call():
    """Issue 18: a real peer's UserMessage gets its SessionAck within the peer's AckTimeout, nobody calling elapse."""
    hosted = InProcessTarget()
    queue = hosted.create_queue(".\\private$\\real").format_name
    with serve(hosted, log=lambda line: None) as served:
        sock, stream, guid = session(served.mqqb.port, hosted.queue_manager_identifier)
        assert packets_within(sock, stream, 5, "ConnectionParameters") == ["EstablishConnection",
                                                                           "ConnectionParameters"]
        sock.sendall(wire.user_message(wire.Outgoing(source=guid, destination_qm=hosted.queue_manager_identifier,
                                                     message_id=1, destination=queue, label="m",
                                                     sent_time=int(time.time()))))
        sent = time.monotonic()
        kinds = packets_within(sock, stream, ACK_TIMEOUT / 1000, "SessionAck")
        assert "SessionAck" in kinds, f"no SessionAck within the AckTimeout of {ACK_TIMEOUT} ms: {kinds}"
        assert time.monotonic() - sent < ACK_TIMEOUT / 1000 + 0.5
        assert len(hosted.read_queue(queue).messages) == 1   # the message is kept, its SessionAck sent
        sock.close()
    hosted.close()


def test_reset_holds_the_served_clock_and_run_in_real_time_releases_it():
    hosted = InProcessTarget()
    with serve(hosted, log=lambda line: None) as served, connect(f"mqrr://127.0.0.1:{served.port}") as client:
        assert not hosted._core.clock.held and hosted._core.driver is not None   # mqspec serve: real time at once
        client.reset()                                  # what every scenario does first: virtual time
        clock = hosted._core.clock
        assert clock.held and hosted._core.driver is None
        held = clock.now_ms()
        time.sleep(0.05)
        assert clock.now_ms() == held
        client.elapse(5_000)
        assert clock.now_ms() == held + 5_000
        client.run_in_real_time()
        assert not clock.held and hosted._core.driver is not None
        time.sleep(0.05)
        assert clock.now_ms() > held + 5_000            # on from where it was: never back
    hosted.close()


def test_a_waiting_receive_times_out_in_real_time_once_released_and_the_driver_ends_with_the_target():
    with InProcessTarget() as target:
        queue = target.create_queue(".\\private$\\wait").format_name
        handle = target.open_queue(from_format_name(queue), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE).pph_context
        target.run_in_real_time()
        began = time.monotonic()
        out = target.start_receive(handle, 0, 0, Action.MQ_ACTION_RECEIVE, 300, 1, 1 << 20, 1 << 20)
        assert out.hresult == HRESULT.MQ_ERROR_IO_TIMEOUT and time.monotonic() - began < 10
        driver = target._core.driver
        target.reset()
        assert target._core.driver is None and not driver._thread.is_alive() and target._core.clock.held
        target.run_in_real_time()
        driver = target._core.driver
    assert not driver._thread.is_alive()
