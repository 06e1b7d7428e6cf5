"""MS-MQRR over loopback: R_StartReceive + R_EndReceive pairs per second, the server against its floor.

`mqspec serve` runs in its own process.  Two kinds of client take pre-sent messages with
MQ_ACTION_RECEIVE followed by R_EndReceive(RR_ACK) for a fixed time, on 1 and then 8
connections, each connection a process of its own with its own queue:

- the lean load generator (wire_load.LoadClient: PDUs encoded once, two fields patched per
  call), which measures the server; beside it, in the same run, a threaded Python echo
  server answering the same PDUs with the same replies (wire_load.EchoServer): the floor
  that Python sockets and threads alone allow.  server / echo is the figure that means
  something on a shared, noisy machine;
- the suite's own mqrr:// client, as a user's certification run drives the server, against
  the same pairs on an in-process reference Target in the same run; and the same client
  authenticated at packet privacy (NTLM, every PDU sealed and signed) against
  `mqspec serve --users`, as a ratio to the unauthenticated one (the issue's goal: 0.5 or
  more), with the server's CPU time per pair beside it: the server's part of the price.

Last, the flood figure: how long a new client takes to bind and call beside 1,000
connections that send nothing and 1,000 bound associations that stay silent, as a ratio to
the same on a quiet server.

Run: python benchmarks/bench_wire.py [--quick]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from mqspec.adapters import MessageProperties, connect  # noqa: E402
from mqspec.protocol.constants import Access, Ack, Action, ShareMode  # noqa: E402
from mqspec.protocol.hresult import HRESULT  # noqa: E402
from mqspec.protocol.idl import OPNUMS  # noqa: E402
from mqspec.protocol.queue_format import from_format_name  # noqa: E402

from wire_load import EchoServer, LoadClient, bind_pdu, read_pdu, request_pdu  # noqa: E402

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


def _loader(url: str, name: str, count: int, seconds: float, echo_port, ready, start, results) -> None:
    """One lean connection: its queue filled through the control interface, then pairs for `seconds` against
    the server (echo_port None) or the echo server; puts (pairs, the replies it saw)."""
    host, port = url[len("mqrr://"):].split(":")
    with connect(url) as target:
        format_name = target.create_queue(f"{target.computer_name}\\private$\\{name}").format_name
        for n in range(count):
            out = target.send(format_name, MessageProperties(body=BODY, label=f"m{n}"))
            assert (out.hresult, out.r_status) == (HRESULT.MQ_OK, 0), out
    client = LoadClient(host, int(echo_port or port), format_name)
    ready.put(name)
    start.wait()
    done, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        done += 1
        client.pair(done)
    client.close()
    results.put((done, client.responses))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (proc(5): utime, stime)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run(processes: list, ready, start, results, seconds: float, server_pid: int | None = None) -> tuple:
    """(pairs per second, each client's outcome, the server's CPU seconds while they timed)."""
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=600)   # every client has its messages: all start timing together
    before = cpu_seconds(server_pid) if server_pid else 0.0
    start.set()
    outcomes = [results.get(timeout=600) for _ in processes]
    used = cpu_seconds(server_pid) - before if server_pid else 0.0
    for process in processes:
        process.join()
    return sum(o if isinstance(o, int) else o[0] for o in outcomes) / seconds, outcomes, used


def wire(url: str, connections: int, count: int, seconds: float, server_pid: int) -> tuple[float, float]:
    """(pairs per second, the server's CPU microseconds per pair) for the mqrr:// client."""
    ready, start, results = multiprocessing.Queue(), multiprocessing.Event(), multiprocessing.Queue()
    clients = [multiprocessing.Process(target=_client, args=(url, f"bench{connections}-{n}", count, seconds, ready,
                                                             start, results)) for n in range(connections)]
    rate, _, used = _run(clients, ready, start, results, seconds, server_pid)
    return rate, used / (rate * seconds) * 1e6


def lean(url: str, connections: int, count: int, seconds: float, tag: str, echo_port=None) -> tuple[float, dict]:
    ready, start, results = multiprocessing.Queue(), multiprocessing.Event(), multiprocessing.Queue()
    clients = [multiprocessing.Process(target=_loader, args=(url, f"{tag}{connections}-{n}", count, seconds,
                                                             echo_port, ready, start, results))
               for n in range(connections)]
    rate, outcomes, _ = _run(clients, ready, start, results, seconds)
    return rate, outcomes[0][1]


def in_process(count: int, seconds: float) -> float:
    with connect("reference?queue_manager_quota=0xFFFFFFFF") as target:
        handle = _fill(target, "local", count)
        return _pairs(target, handle, seconds) / seconds


def serving(*options: str) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "serve", "--port", "0", "--target",
                               "reference?queue_manager_quota=0xFFFFFFFF", *options], cwd=ROOT,
                              stderr=subprocess.PIPE, text=True)
    port = re.search(r"127\.0\.0\.1:(\d+)", server.stderr.readline()).group(1)
    threading.Thread(target=server.stderr.read, daemon=True).start()   # a full log pipe would stop it
    return server, f"mqrr://127.0.0.1:{port}"


def call_seconds(port: int, tries: int = 7) -> float:
    """The median time a new client takes to connect, bind RemoteRead and complete R_GetServerPort."""
    times = []
    for _ in range(tries):
        began = time.perf_counter()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(bind_pdu())
            read_pdu(sock)
            sock.sendall(request_pdu(2, OPNUMS["R_GetServerPort"], b""))
            read_pdu(sock)
        times.append(time.perf_counter() - began)
    return sorted(times)[len(times) // 2]


def flood(port: int, silent: int, bound: int) -> tuple[float, float]:
    """(a new client's call time beside `silent` connections that send nothing and `bound` associations that
    bound and stay silent, the same with neither): from 50 connections per loopback address."""
    quiet = call_seconds(port)
    held = []
    for n in range(silent + bound):
        sock = socket.socket()
        sock.bind((f"127.0.{10 + n // 12500}.{1 + n // 50 % 250}", 0))
        sock.connect(("127.0.0.1", port))
        if n >= silent:
            sock.sendall(bind_pdu())
            read_pdu(sock)
        held.append(sock)
    loaded = call_seconds(port)
    for sock in held:
        sock.close()
    return loaded, quiet


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    seconds = 2.0 if parser.parse_args().quick else 5.0
    count = int(6000 * seconds)   # more messages than a client can take in that time
    server, url = serving()
    users = tempfile.NamedTemporaryFile("w", suffix=".users", delete=False)
    users.write("alice:Passw0rd!\n")
    users.close()
    secured, secured_url = serving("--users", users.name)
    figures = {}
    try:
        figures["in process"] = in_process(count * 10, seconds)
        lean_count = int(20000 * seconds)
        figures["server 1"], replies = lean(url, 1, lean_count, seconds, "lean")
        figures["server 8"], _ = lean(url, 8, lean_count // 4, seconds, "lean")
        echo = EchoServer(replies)
        figures["echo 1"], _ = lean(url, 1, 1, seconds, "echo", echo.port)
        figures["echo 8"], _ = lean(url, 8, 1, seconds, "echo", echo.port)
        echo.close()
        figures["client 1"] = wire(url, 1, count, seconds, server.pid)
        figures["client 8"] = wire(url, 8, count // 2, seconds, server.pid)
        privacy = secured_url + "?user=alice&password=Passw0rd!&auth=privacy"
        figures["privacy 1"] = wire(privacy, 1, count // 2, seconds, secured.pid)
        figures["privacy 8"] = wire(privacy, 8, count // 8, seconds, secured.pid)
        figures["flood"] = flood(int(url.rpartition(":")[2]), 1000, 1000)
    finally:
        for process in (server, secured):
            process.terminate()
            process.wait(30)
        os.unlink(users.name)
    local = figures["in process"]
    print("R_StartReceive + R_EndReceive pairs per second over loopback (2 cores, shared: read the ratios)")
    for n in (1, 8):
        print(f"  lean load, {n} connection(s):  echo floor {figures[f'echo {n}']:8.0f}   mqspec serve "
              f"{figures[f'server {n}']:8.0f}   server / echo {figures[f'server {n}'] / figures[f'echo {n}']:5.2f}")
    print(f"  eight over one: server {figures['server 8'] / figures['server 1']:5.2f} x, "
          f"echo {figures['echo 8'] / figures['echo 1']:5.2f} x")
    print(f"  in process (baseline of the mqrr:// client rows): {local:8.0f}")
    for n in (1, 8):
        (plain, plain_cpu), (sealed, sealed_cpu) = figures[f"client {n}"], figures[f"privacy {n}"]
        print(f"  mqrr:// client, {n} connection(s): {plain:8.0f}   {plain / local:6.3f} x in process;   "
              f"at auth=privacy (NTLM, sealed) {sealed:8.0f}   {sealed / plain:5.2f} x unauthenticated")
        print(f"    the server's CPU per pair: {plain_cpu:5.0f} us unauthenticated, {sealed_cpu:5.0f} us at privacy "
              f"({sealed_cpu / plain_cpu:4.2f} x)")
    loaded, quiet = figures["flood"]
    print(f"  a new client's bind and call beside 1,000 silent connections and 1,000 silent bound associations: "
          f"{loaded * 1000:.2f} ms, {loaded / quiet:5.2f} x the same with none ({quiet * 1000:.2f} ms)")


if __name__ == "__main__":
    main()
