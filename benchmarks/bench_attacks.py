"""Issue 20's attacks on `mqspec serve` at their full loads: how long a new client waits, and the server's memory.

Each attack runs against a fresh `mqspec serve` in a process of its own (tests/serving.py), from loopback
clients in this process (tests/attacks.py).  Throughout, a new client from an address never used before
connects, binds and calls R_GetServerPort every 0.1 s (from 127.0.0.1 for the one-address attack); the
figure is the worst such wait during the attack, beside the same wait on the quiet server (measured first,
in the same run) and the bound the tests hold (1 s), and how many were refused (D-122: at a cap while no
connection has been quiet a second).  The server's RSS is sampled every 50 ms: its peak above the quiet server, and what is
left once the attackers have gone, beside the bounds of D-121.

- pile-up: N connections each wait in R_StartReceive (ulTimeout INFINITE) on an empty queue, then all
  disconnect at once (issue: 4,000 locked everyone out for 2.5 minutes; part 2 asks for 10,000);
- fragments: 200 connections send 16 MiB each of requests whose last fragment never comes (issue:
  2.9 GB peak, 2.6 GB never returned; bound: 64 MiB of partial requests);
- peeks: 600 pipelined peeks of a 900 KB message whose replies are never read (issue: 3.2 GB);
- owners: the connection cap (4,096) filled by associations that each own a context handle and stay
  silent (issue: everyone else locked out for as long as they stay);
- one address: 256 silent connections from 127.0.0.1, then another client from 127.0.0.1;
- opens: 300 pipelined R_OpenQueue beside 6,000 handles open on the same queue (issue: 1.8 s stall).

Run: python benchmarks/bench_attacks.py [--quick]   (--quick: a tenth of each load)
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mqspec.adapters import MessageProperties, connect  # noqa: E402
from tests import attacks  # noqa: E402
from tests.serving import served_process  # noqa: E402


class Watch:
    def __init__(self, port: int, pid: int, probe) -> None:
        self.port, self.pid, self.probe = port, pid, probe
        self.base = self.peak = attacks.rss_kib(pid)
        self.worst, self.refused = 0.0, 0
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=job, daemon=True) for job in (self._probe, self._sample)]
        for thread in self.threads:
            thread.start()

    def _probe(self) -> None:
        while not self.stop.wait(0.1):
            try:
                self.worst = max(self.worst, self.probe(self.port))
            except (OSError, AssertionError):   # refused at a cap (D-122: nobody quiet a second yet)
                self.refused += 1

    def _sample(self) -> None:
        while not self.stop.wait(0.05):
            self.peak = max(self.peak, attacks.rss_kib(self.pid))

    def end(self) -> tuple[float, int, int, int]:
        self.stop.set()
        for thread in self.threads:
            thread.join(120)
        return self.worst, self.refused, self.peak - self.base, attacks.rss_kib(self.pid) - self.base


def from_loopback(port: int) -> float:
    """A new client from 127.0.0.1 (every local client's address)."""
    began = time.monotonic()
    sock = attacks.connect_from("127.0.0.1", port)
    try:
        sock.sendall(attacks.bind_pdu() + attacks.request_pdu(2, attacks.PORT, b""))
        assert attacks.read_pdu(sock)[2] == 12 and attacks.read_pdu(sock)[2] == attacks.RESPONSE
    finally:
        sock.close()
    return time.monotonic() - began


def run(name: str, attack, options=(), queue=None, body=None, probe=attacks.probe) -> None:
    with served_process(options=("--max-connections", "12000", *options)) as (url, process):
        port = int(url.rsplit(":", 1)[1])
        format_name = None
        if queue:
            with connect(url) as client:
                format_name = client.create_queue(f"{client.computer_name}\\private$\\{queue}").format_name
                if body:
                    client.send(format_name, MessageProperties(body=body))
            time.sleep(1.0)                   # the control client's connections are gone before the caps count
        quiet = min(probe(port) for _ in range(5))
        watch = Watch(port, process.pid, probe)
        began = time.monotonic()
        held = attack(port, format_name)
        attacked = time.monotonic() - began
        time.sleep(2.0)
        attacks.drop(held)
        time.sleep(3.0)
        worst, refused, peak, left = watch.end()
        print(f"{name:<11} attack {attacked:5.1f} s; worst new client {worst * 1000:6.0f} ms (quiet {quiet * 1000:.0f} "
              f"ms, bound 1000), {refused} refused; RSS peak +{peak / 1024:6.1f} MiB, after +{left / 1024:5.1f} MiB",
              flush=True)


def opens_beside_handles(port: int, format_name: str, handles: int, opens: int) -> list:
    held = []
    for number in range(handles // 1000):       # D-123: an association holds at most 4,096 handles
        (sock, _handle), = attacks.holders(port, 1, format_name, base=20 + number)
        sock.sendall(b"".join(attacks.open_request(format_name, 10 + n) for n in range(999)))
        for _ in range(999):
            assert attacks.read_pdu(sock)[2] == attacks.RESPONSE
        held.append(sock)
    (sock, _handle), = attacks.holders(port, 1, format_name, base=90)
    sock.sendall(b"".join(attacks.open_request(format_name, 10 + n) for n in range(opens)))
    for _ in range(opens):
        assert attacks.read_pdu(sock)[2] == attacks.RESPONSE
    return held + [sock]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of each load")
    scale = 10 if parser.parse_args().quick else 1
    run("pile-up", lambda port, fmt: attacks.pending_reads(port, 10_000 // scale, fmt), queue="pile")
    run("fragments", lambda port, fmt: attacks.fragment_flood(port, 200 // scale, 16 << 20))
    run("peeks", lambda port, fmt: [attacks.peek_flood(port, fmt, 600 // scale)], queue="big", body=bytes(900_000))
    run("owners", lambda port, fmt: attacks.holders(port, 4096 // scale, fmt),
        options=("--max-connections", str(4096 // scale)), queue="owners")
    run("one address", lambda port, fmt: [attacks.connect_from("127.0.0.1", port) for _ in range(256)],
        probe=from_loopback)
    run("opens", lambda port, fmt: opens_beside_handles(port, fmt, 6000 // scale, 300), queue="many")


if __name__ == "__main__":
    main()
