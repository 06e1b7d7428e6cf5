"""The served MS-MQQB listener (adapters/mqqb/listener.py): caps, deadlines, bounds, nothing kept after closes, and
descriptors past 1023; then 1,000 idle sessions against a server in a process of its own (slow).

Deadlines here are a few tenths of a second and every wait is bounded: a test asserts that a connection was closed
within a few seconds, never how fast."""

from __future__ import annotations

import os
import re
import resource
import socket
import struct
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from mqspec.adapters.in_process import InProcessTarget
from mqspec.adapters.mqqb.listener import MAX_PACKET, MqqbListener
from mqspec.adapters.mqqb import packets as wire

ROOT = Path(__file__).resolve().parent.parent
WAIT = 5.0   # seconds any expected close or answer may take at most


@pytest.fixture
def target():
    hosted = InProcessTarget()
    yield hosted
    hosted.close()


def listen(target, **options) -> MqqbListener:
    return MqqbListener(target, log=lambda line: None, **options)


def closed_by_server(sock: socket.socket, within: float = WAIT) -> bool:
    """Reads until EOF or reset (True) or `within` seconds pass (False)."""
    sock.settimeout(0.1)
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            if not sock.recv(65536):
                return True
        except socket.timeout:
            continue
        except OSError:
            return True
    return False


def answers(sock: socket.socket, stream: wire.Stream, within: float = WAIT) -> list[str]:
    sock.settimeout(0.1)
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        packets = stream.feed(data)
        if packets:
            return [wire.decode(packet).kind for packet in packets]
    return []


def handshake(port: int, target_guid: bytes, ack_timeout: int = 20_000) -> tuple[socket.socket, wire.Stream]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    stream = wire.Stream()
    sock.sendall(wire.establish_connection(uuid.uuid4().bytes_le, target_guid, 1))
    assert answers(sock, stream) == ["EstablishConnection"]
    sock.sendall(wire.connection_parameters(500, ack_timeout, 64))
    assert answers(sock, stream) == ["ConnectionParameters"]
    return sock, stream


def big_packet_start(target_guid: bytes) -> bytes:
    """The first bytes of a UserMessage whose BaseHeader declares PacketSize 4 MiB (MS-MQMQ 2.2.19.1's limit)."""
    packet = bytearray(wire.user_message(wire.Outgoing(source=uuid.uuid4().bytes_le, destination_qm=target_guid,
                                                       message_id=1, destination="DIRECT=OS:.\\private$\\q")))
    struct.pack_into("<I", packet, 8, MAX_PACKET)
    return bytes(packet[:64])


def settled(listener: MqqbListener, **expected) -> dict:
    """stats() once what is expected holds, or after WAIT seconds."""
    end = time.monotonic() + WAIT
    while True:
        stats = listener.stats()
        if all(stats[key] == value for key, value in expected.items()) or time.monotonic() > end:
            return stats
        time.sleep(0.05)


def assert_nothing_kept(listener: MqqbListener) -> None:
    stats = settled(listener, connections=0, deadlines=0)
    assert (stats["connections"], stats["per_peer"], stats["deadlines"], stats["input_reserved"], stats["paused"]) \
        == (0, {}, 0, 0, 0), stats


def test_connections_above_the_caps_are_accepted_and_closed_at_once(target):
    listener = listen(target, max_connections_per_peer=3, max_connections=100)
    try:
        kept = [socket.create_connection(("127.0.0.1", listener.port)) for _ in range(3)]
        extra = socket.create_connection(("127.0.0.1", listener.port))
        assert closed_by_server(extra)
        assert all(not closed_by_server(sock, within=0.3) for sock in kept)
        assert settled(listener, refused=1)["refused"] == 1
        for sock in kept + [extra]:
            sock.close()
        assert_nothing_kept(listener)
    finally:
        listener.stop()
    listener = listen(target, max_connections_per_peer=100, max_connections=2)
    try:
        kept = [socket.create_connection(("127.0.0.1", listener.port)) for _ in range(2)]
        extra = socket.create_connection(("127.0.0.1", listener.port))
        assert closed_by_server(extra)
        assert settled(listener, refused=1)["refused"] == 1
        for sock in kept + [extra]:
            sock.close()
        assert_nothing_kept(listener)
    finally:
        listener.stop()


def test_a_handshake_not_done_in_time_is_closed_and_a_done_one_is_kept(target):
    listener = listen(target, handshake_timeout=0.3)
    try:
        silent = socket.create_connection(("127.0.0.1", listener.port))
        half = socket.create_connection(("127.0.0.1", listener.port))
        half.sendall(wire.establish_connection(uuid.uuid4().bytes_le, target.queue_manager_identifier, 1))
        done, _ = handshake(listener.port, target.queue_manager_identifier)
        assert closed_by_server(silent) and closed_by_server(half)
        assert not closed_by_server(done, within=0.6)
        stats = settled(listener, connections=1)
        assert stats["closed"].get("no handshake in time") == 2 and stats["open"] == 1
        done.close()
        silent.close()
        half.close()
        assert_nothing_kept(listener)
    finally:
        listener.stop()


def test_a_packet_not_whole_in_time_is_closed_even_when_trickled(target):
    listener = listen(target, packet_timeout=0.4)
    try:
        never, _ = handshake(listener.port, target.queue_manager_identifier)
        trickle, _ = handshake(listener.port, target.queue_manager_identifier)
        start = big_packet_start(target.queue_manager_identifier)
        never.sendall(start)
        trickle.sendall(start)
        assert settled(listener, input_reserved=2 * (MAX_PACKET + 16))["input_reserved"] == 2 * (MAX_PACKET + 16)
        began = time.monotonic()
        closed = False
        for _ in range(40):                    # a byte every 50 ms: never idle, never whole
            try:
                trickle.sendall(b"\0")
            except OSError:
                closed = True
                break
            time.sleep(0.05)
            if time.monotonic() - began > WAIT:
                break
        assert closed or closed_by_server(trickle)
        assert closed_by_server(never)
        stats = settled(listener, connections=0)
        assert stats["closed"].get("packet not whole in time") == 2, stats
        never.close()
        trickle.close()
        assert_nothing_kept(listener)
    finally:
        listener.stop()


def test_declared_packets_beyond_the_input_bound_wait_unread_until_room_is_made(target):
    listener = listen(target, max_input_total=MAX_PACKET + 16)
    try:
        first, _ = handshake(listener.port, target.queue_manager_identifier)
        second, _ = handshake(listener.port, target.queue_manager_identifier)
        first.sendall(big_packet_start(target.queue_manager_identifier))
        assert settled(listener, input_reserved=MAX_PACKET + 16)["input_reserved"] == MAX_PACKET + 16
        second.sendall(big_packet_start(target.queue_manager_identifier))
        assert settled(listener, paused=1)["paused"] == 1
        first.close()                                           # its packet's room is free again
        stats = settled(listener, paused=0, connections=1)
        assert (stats["paused"], stats["input_reserved"]) == (0, MAX_PACKET + 16), stats
        second.close()
        assert_nothing_kept(listener)
    finally:
        listener.stop()


def test_an_idle_open_session_is_closed_and_bad_bytes_close_a_session(target):
    listener = listen(target, idle_timeout=0.3)
    try:
        idle, _ = handshake(listener.port, target.queue_manager_identifier)
        assert closed_by_server(idle)
        bad = socket.create_connection(("127.0.0.1", listener.port))
        bad.sendall(b"\xff" * 16)              # MS-MQQB 3.1.5.1.2 no VersionNumber or Signature: closed, no traceback
        assert closed_by_server(bad)
        stats = settled(listener, connections=0)
        assert stats["closed"].get("idle") == 1 and stats["closed"].get("session closed") == 1, stats
        idle.close()
        bad.close()
        assert_nothing_kept(listener)
    finally:
        listener.stop()


def test_sessions_whose_descriptors_pass_1023_are_served(target):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1400 if hard == resource.RLIM_INFINITY else min(1400, hard)
    if wanted < 1200:
        pytest.skip(f"RLIMIT_NOFILE's hard limit {hard} leaves no descriptor past 1023")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    listener = listen(target)
    fillers = []
    try:
        while len(fillers) < 1100 and (not fillers or fillers[-1] < 1100):
            fillers.append(os.open(os.devnull, os.O_RDONLY))  # push the next descriptors past 1023
        sessions = [handshake(listener.port, target.queue_manager_identifier) for _ in range(3)]
        assert min(sock.fileno() for sock, _ in sessions) > 1023
        stats = listener.stats()
        assert stats["open"] == 3, stats
        for sock, _ in sessions:
            sock.close()
        assert_nothing_kept(listener)
    finally:
        for descriptor in fillers:
            os.close(descriptor)
        listener.stop()


SERVER = """
import sys
from mqspec.adapters.in_process import InProcessTarget
from mqspec.adapters.serve import serve
target = InProcessTarget()
served = serve(target, log=lambda line: None, mqqb_options={"max_connections_per_peer": 2000})
print(served.mqqb.port, target.queue_manager_identifier.hex(), flush=True)
sys.stdin.read()
served.stop()
target.close()
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime + stime


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the server's CPU time from /proc")
def test_a_thousand_idle_sessions_cost_no_cpu_and_a_new_one_is_answered_at_once():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
    if wanted < 2200:
        pytest.skip(f"RLIMIT_NOFILE's hard limit {hard} is too low for 1,000 sessions")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    process = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    sessions = []
    try:
        port, guid = process.stdout.readline().split()
        port, guid = int(port), bytes.fromhex(guid)
        for _ in range(1040):                  # 1,000 and more: the server's descriptors pass 1023
            sessions.append(handshake(port, guid)[0])
        time.sleep(0.5)                        # the last handshakes' work is done
        before, began = cpu_seconds(process.pid), time.monotonic()
        time.sleep(3)
        share = (cpu_seconds(process.pid) - before) / (time.monotonic() - began)
        started = time.monotonic()
        fresh = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        fresh.sendall(wire.establish_connection(uuid.uuid4().bytes_le, guid, 1))
        kinds = answers(fresh, wire.Stream())
        latency = time.monotonic() - started
        highest = max(int(name) for name in os.listdir(f"/proc/{process.pid}/fd") if re.fullmatch(r"\d+", name))
        print(f"1,040 idle sessions: server CPU {share:.1%} of a core; a new session answered in "
              f"{latency * 1000:.0f} ms; the server's highest descriptor {highest}")
        assert share < 0.05, f"1,000 idle sessions cost {share:.1%} of a core"
        assert kinds == ["EstablishConnection"] and latency < 1.0, (kinds, latency)
        assert highest > 1023
        fresh.close()
    finally:
        for sock in sessions:
            sock.close()
        process.stdin.close()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def test_the_event_loop_fires_deadlines_in_order_and_keeps_none_it_cancelled():
    from mqspec.adapters.wire.event_loop import COMPACT_AT, EventLoop
    errors, fired = [], []
    loop = EventLoop("test-loop", errors.append).start()
    try:
        def schedule() -> None:
            now = loop.now
            doomed = [loop.call_at(now + 60, lambda: fired.append("never")) for _ in range(3 * COMPACT_AT)]
            loop.call_at(now + 0.05, lambda: [loop.cancel(d) for d in doomed])   # compacts while deadlines run
            for n in (3, 1, 2):
                loop.call_at(now + 0.1 * n, lambda n=n: fired.append(n))
        loop.post(schedule)
        end = time.monotonic() + WAIT
        while len(fired) < 3 and time.monotonic() < end:
            time.sleep(0.02)
        assert fired == [1, 2, 3] and not errors
        assert loop.live_deadlines() == 0 and len(loop._heap) == 0
    finally:
        loop.stop(timeout=5)
    assert not loop.thread.is_alive()
