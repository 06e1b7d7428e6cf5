"""Issue 20's attacks on `mqspec serve` (a process of its own), scaled to seconds: each leaves a new client
answered within a second and the server's memory under its bound (D-121, D-122; README "Floods and state").

benchmarks/bench_attacks.py runs the same attacks at the issue's full loads and prints the figures.
"""

from __future__ import annotations

import threading
import time

import pytest

from mqspec.adapters import connect
from mqspec.adapters.target import MessageProperties
from tests import attacks
from tests.serving import served_process

pytestmark = pytest.mark.slow
MIB = 1024                     # rss_kib counts KiB
THREADS_AT_MOST = 8            # the process's threads: main, the two event loops, the timer driver, a few spare


class Watch:
    """Probes the server with new clients and samples its RSS while an attack runs (both bounded in time)."""

    def __init__(self, port: int, pid: int) -> None:
        self.port, self.pid = port, pid
        self.base = self.peak = attacks.rss_kib(pid)
        self.worst = 0.0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=job, daemon=True) for job in (self._probe, self._sample)]

    def __enter__(self) -> "Watch":
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(60)

    def _probe(self) -> None:
        while not self._stop.wait(0.1):
            self.worst = max(self.worst, attacks.probe(self.port))

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, attacks.rss_kib(self.pid))


def threads(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


def serve(*options: str):
    return served_process(options=options)


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def test_a_pile_up_of_waiting_reads_holds_no_thread_and_locks_nobody_out():
    """Part 2: 1,500 connections each wait in R_StartReceive (ulTimeout INFINITE), then all go at once."""
    with serve() as (url, process), connect(url) as client:
        port = port_of(url)
        queue = client.create_queue(f"{client.computer_name}\\private$\\pile").format_name
        with Watch(port, process.pid) as watch:
            held = attacks.pending_reads(port, 1500, queue)
            time.sleep(1.0)
            assert threads(process.pid) <= THREADS_AT_MOST    # a waiting read holds no thread
            attacks.drop(held)
            time.sleep(2.0)
        assert watch.worst < 1.0, watch.worst
        assert attacks.probe(port) < 1.0
        client.send(queue, MessageProperties(body=b"after"))   # every waiting read was cancelled: none took it
        assert len(client.list_messages(queue).messages) == 1


def test_request_fragments_without_end_stay_under_the_reassembly_bound():
    """Part 3: 64 connections send 3 MiB each of requests whose last fragment never comes (192 MiB in all): the
    server holds at most max_reassembly (64 MiB) of them, and gives the memory back when they go."""
    with serve() as (url, process):
        port = port_of(url)
        with Watch(port, process.pid) as watch:
            held = attacks.fragment_flood(port, 64, 3 << 20)
            time.sleep(1.0)
            attacks.drop(held)
            time.sleep(1.0)
        assert watch.peak - watch.base < 100 * MIB, (watch.base, watch.peak)
        assert watch.worst < 1.0, watch.worst
        assert attacks.rss_kib(process.pid) - watch.base < 32 * MIB


def test_pipelined_peeks_whose_replies_are_never_read_make_no_replies():
    """Part 3: 100 pipelined peeks of a 900 KB message, no reply read: replies are made only as the client reads
    them (OUTPUT_HIGH), not 90 MB of them at once."""
    with serve() as (url, process), connect(url) as client:
        port = port_of(url)
        queue = client.create_queue(f"{client.computer_name}\\private$\\big").format_name
        assert client.send(queue, MessageProperties(body=bytes(900_000))).hresult == 0
        with Watch(port, process.pid) as watch:
            flooding = attacks.peek_flood(port, queue, 100)
            time.sleep(1.5)
            attacks.drop([flooding])
        assert watch.peak - watch.base < 30 * MIB, (watch.base, watch.peak)
        assert watch.worst < 1.0, watch.worst


def test_silent_handle_owners_at_the_connection_cap_make_way_for_a_new_client():
    """Part 4 (D-122): the connection cap filled by associations that each own a context handle and stay silent;
    a new client from a fresh address is answered (the quietest one makes way, its handle run down)."""
    with serve("--max-connections", "300") as (url, process):
        port = port_of(url)
        with connect(url) as client:
            queue = client.create_queue(f"{client.computer_name}\\private$\\owners").format_name
        time.sleep(0.5)                                  # the control client's connections are gone
        held = attacks.holders(port, 300, queue)
        time.sleep(1.2)                                  # quiet past evict_after
        assert max(attacks.probe(port) for _ in range(3)) < 1.0
        attacks.drop(held)


def test_silent_connections_filling_one_address_do_not_lock_that_address_out():
    """Part 4 (D-122): 64 silent connections from 127.0.0.1 at its per-peer cap of 64; another client from
    127.0.0.1 is answered."""
    with serve("--max-connections-per-peer", "64") as (url, process):
        port = port_of(url)
        silent = [attacks.connect_from("127.0.0.1", port) for _ in range(64)]
        time.sleep(1.2)
        began = time.monotonic()
        sock = attacks.connect_from("127.0.0.1", port)
        sock.sendall(attacks.bind_pdu() + attacks.request_pdu(2, attacks.PORT, b""))
        assert attacks.read_pdu(sock)[2] == 12 and attacks.read_pdu(sock)[2] == attacks.RESPONSE
        assert time.monotonic() - began < 1.0
        sock.close()
        attacks.drop(silent)
