"""MS-MQRR over loopback: R_StartReceive + R_EndReceive pairs per second, against the same pairs in process.

`mqspec serve` runs in its own process; client processes (1, then 8), each its own
mqrr:// client with its own queue, take pre-sent messages with MQ_ACTION_RECEIVE
followed by R_EndReceive(RR_ACK) for a fixed time.  In the same run, the same pairs
are timed on an in-process reference Target.  The machine is shared and noisy, so
the figures that mean something are the ratios: wire pairs/s over in-process
pairs/s, and 8 connections over 1.

Run: python benchmarks/bench_wire.py [--quick]
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mqspec.adapters import MessageProperties, connect  # noqa: E402
from mqspec.protocol.constants import Access, Ack, Action, ShareMode  # noqa: E402
from mqspec.protocol.hresult import HRESULT  # noqa: E402
from mqspec.protocol.queue_format import from_format_name  # noqa: E402

BIG = 1 << 20
BODY = b"x" * 100


def _fill(target, name: str, count: int) -> bytes:
    format_name = target.create_queue(f"{target.computer_name}\\private$\\{name}").format_name
    for n in range(count):
        out = target.send(format_name, MessageProperties(body=BODY, label=f"m{n}"))
        assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0), out
    opened = target.open_queue(from_format_name(format_name), Access.RECEIVE_ACCESS, ShareMode.MQ_DENY_NONE)
    assert opened.hresult == HRESULT.MQ_OK
    return opened.pph_context


def _pairs(target, handle: bytes, seconds: float) -> int:
    done, request = 0, 1
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        out = target.start_receive(handle, 0, 0, Action.MQ_ACTION_RECEIVE, 0, request, BIG, BIG)
        assert out.hresult == HRESULT.MQ_OK, f"ran out of messages after {done} pairs: 0x{out.hresult:08X}"
        assert target.end_receive(handle, Ack.RR_ACK, request) == HRESULT.MQ_OK
        done, request = done + 1, request + 1
    return done


def _client(url: str, name: str, count: int, seconds: float, ready, start, results) -> None:
    with connect(url) as target:
        handle = _fill(target, name, count)
        ready.put(name)
        start.wait()
        results.put(_pairs(target, handle, seconds))


def wire(url: str, connections: int, count: int, seconds: float) -> float:
    ready, start, results = multiprocessing.Queue(), multiprocessing.Event(), multiprocessing.Queue()
    clients = [multiprocessing.Process(target=_client, args=(url, f"bench{connections}-{n}", count, seconds, ready,
                                                             start, results)) for n in range(connections)]
    for client in clients:
        client.start()
    for _ in clients:
        ready.get(timeout=600)   # every client has its messages: all start timing together
    start.set()
    total = sum(results.get(timeout=600) for _ in clients)
    for client in clients:
        client.join()
    return total / seconds


def in_process(count: int, seconds: float) -> float:
    with connect("reference?queue_manager_quota=0xFFFFFFFF") as target:
        handle = _fill(target, "local", count)
        return _pairs(target, handle, seconds) / seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    seconds = 2.0 if parser.parse_args().quick else 5.0
    count = int(6000 * seconds)   # more messages than a wire client can take in that time
    server = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "serve", "--port", "0", "--target",
                               "reference?queue_manager_quota=0xFFFFFFFF"], cwd=ROOT, stderr=subprocess.PIPE,
                              text=True)
    try:
        port = re.search(r"127\.0\.0\.1:(\d+)", server.stderr.readline()).group(1)
        threading.Thread(target=server.stderr.read, daemon=True).start()   # a full log pipe would stop it
        url = f"mqrr://127.0.0.1:{port}"
        local = in_process(count * 10, seconds)
        one = wire(url, 1, count, seconds)
        eight = wire(url, 8, count // 4, seconds)
    finally:
        server.terminate()
        server.wait(30)
    print(f"in process:           {local:9.0f} pairs/s   (baseline)")
    print(f"wire, 1 connection:   {one:9.0f} pairs/s   {one / local:6.3f} x in process")
    print(f"wire, 8 connections:  {eight:9.0f} pairs/s   {eight / local:6.3f} x in process, "
          f"{eight / one:5.2f} x one connection")


if __name__ == "__main__":
    main()
