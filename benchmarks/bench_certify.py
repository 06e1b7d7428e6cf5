"""A certification over the wire at packet privacy against the same one unauthenticated, in the same run.

Two `mqspec serve` processes on loopback, one without accounts and one with `--users` (one
account, so both certifications run the same scenarios: a second identity would add the
two-identity ones).  `mqspec certify --no-report` runs the same clauses against each, the
plain wire first, then `auth=privacy` (NTLM: every PDU of every call, the control channel's
too, sealed and signed, and a handshake per connection).  With --rounds N the two alternate
N times, the order swapped each round, and each keeps its shortest time (the machine is shared:
the least disturbed run says the most).  Printed: each wall time, and privacy / plain, the
figure the issue asks to keep under 1.5.

Run: python benchmarks/bench_certify.py [--sections MS-MQRR:3.1.4.4 ...] [--whole] [--rounds N]
     (default: the cursor sections, MS-MQRR 3.1.4.4 and 3.1.4.5, and MS-MQDMPR's cursor rules;
     --whole: every clause, several minutes each way)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mqspec.catalogue import load_catalogue  # noqa: E402

DEFAULT_SECTIONS = ("MS-MQRR:3.1.4.4:", "MS-MQRR:3.1.4.5:", "MSDN-CURSOR:")
PASSWORD = "Passw0rd!"


def serving(*options: str) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([sys.executable, "-m", "mqspec.cli", "serve", "--port", "0", *options], cwd=ROOT,
                              stderr=subprocess.PIPE, text=True)
    port = re.search(r"127\.0\.0\.1:(\d+)", server.stderr.readline()).group(1)
    threading.Thread(target=server.stderr.read, daemon=True).start()   # a full log pipe would stop it
    return server, f"mqrr://127.0.0.1:{port}"


def certify(url: str, clauses: list[str]) -> tuple[float, str]:
    """(wall seconds, the last line certify printed) of `mqspec certify --no-report` against `url`."""
    selection = [argument for clause in clauses for argument in ("--clause", clause)]
    with tempfile.TemporaryDirectory() as results:
        began = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "mqspec.cli", "certify", "--no-report", "--results", results,
                              "--target", url, *selection], cwd=ROOT, capture_output=True, text=True, check=False)
        took = time.perf_counter() - began
    lines = (run.stdout + run.stderr).strip().splitlines()
    return took, lines[-1] if lines else f"exit status {run.returncode}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sections", nargs="+", default=list(DEFAULT_SECTIONS), metavar="PREFIX",
                        help="clause id prefixes to certify (default: the cursor sections)")
    parser.add_argument("--whole", action="store_true", help="every clause")
    parser.add_argument("--rounds", type=int, default=1, help="alternate the two runs this many times")
    args = parser.parse_args()
    clauses = [] if args.whole else sorted(c for c in load_catalogue().clauses
                                           if any(c.startswith(prefix) for prefix in args.sections))
    if not args.whole and not clauses:
        parser.error(f"no clause starts with any of {', '.join(args.sections)}")
    with tempfile.NamedTemporaryFile("w", suffix=".users", delete=False) as users:
        users.write(f"alice:{PASSWORD}\n")
    plain, plain_url = serving()
    secured, secured_url = serving("--users", users.name)
    urls = {"plain": plain_url, "privacy": f"{secured_url}?user=alice&password={PASSWORD}&auth=privacy"}
    best: dict[str, tuple[float, str]] = {}
    try:
        for round_ in range(args.rounds):
            for mode in ("plain", "privacy") if round_ % 2 == 0 else ("privacy", "plain"):
                took = certify(urls[mode], clauses)
                best[mode] = min(best.get(mode, took), took)
    finally:
        for server in (plain, secured):
            server.terminate()
            server.wait(30)
        os.unlink(users.name)
    (plain_time, plain_last), (sealed_time, sealed_last) = best["plain"], best["privacy"]
    what = "every clause" if args.whole else f"{len(clauses)} clauses ({', '.join(args.sections)})"
    print(f"mqspec certify --no-report, {what}, against mqspec serve over loopback, best of {args.rounds}")
    print(f"  plain wire           {plain_time:8.1f} s   {plain_last}")
    print(f"  auth=privacy (NTLM)  {sealed_time:8.1f} s   {sealed_last}")
    print(f"  privacy / plain      {sealed_time / plain_time:8.2f} x")


if __name__ == "__main__":
    main()
