"""Cost of the MS-MQRR NDR codec on the hot calls, as ratios to a struct baseline of the same run.

For the calls a receiving client and server make most (R_StartReceive and
R_StartTransactionalReceive, R_EndReceive and R_EndTransactionalReceive,
R_OpenQueue, R_CloseQueue) it times the four codec operations

    encode_request   (client)     decode_request   (server)
    encode_response  (server)     decode_response  (client)

in NDR 2.0 and NDR64, by two paths: the codec the project uses (adapters.mqrr.ndr,
hand-written struct layouts) and the impacket-only path (adapters.mqrr.ndr_impacket,
the NDR classes of ndr_types driven by impacket).  Each time is divided by a
baseline measured in the same run: one precompiled ``struct.pack`` of as many
DWORDs as the stub has fields, plus a copy of as many octets as the stub has
(the machine is shared and noisy: only ratios are meaningful).  The last lines
put the server's and the client's codec work for one R_StartReceive +
R_EndReceive pair against the 1 ms each side has at 1,000 pairs per second.

Run: python benchmarks/bench_ndr.py [--quick] [--body OCTETS]
"""

from __future__ import annotations

import argparse
import statistics
import struct
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqspec.adapters.mqrr import ndr, ndr_impacket
from mqspec.protocol.idl import SectionBuffer
from mqspec.protocol.queue_format import QueueFormat

HANDLE = bytes(range(1, 21))
REPEATS = 7   # timed batches per figure; the median is reported


def hot_calls(body: int) -> dict:
    """opnum -> (request values, response values) of a typical call."""
    packet = SectionBuffer(0, body, body, bytes(range(256)) * (body // 256) + bytes(body % 256))
    receive_in = {"phContext": HANDLE, "LookupId": 0, "hCursor": 0, "ulAction": 0, "ulTimeout": 0,
                  "dwRequestId": 17, "dwMaxBodySize": 0xFFFFFFFF, "dwMaxCompoundMessageSize": 0xFFFFFFFF}
    receive_out = {"pdwArriveTime": 1_700_000_000, "pSequenceId": 0x0000_0000_0001_0203, "pdwNumberOfSections": 1,
                   "ppPacketSections": (packet,), "ReturnValue": 0}
    end_in = {"phContext": HANDLE, "dwAck": 2, "dwRequestId": 17}
    open_in = {"pQueueFormat": QueueFormat(3, direct_id="OS:mqspec\\private$\\orders"), "dwAccess": 1,
               "dwShareMode": 0, "pClientId": uuid.UUID(int=1).bytes_le, "fNonRoutingServer": 1, "Major": 6,
               "Minor": 1, "BuildNumber": 0, "fWorkgroup": 0}
    return {
        7: (receive_in, receive_out),
        13: ({**receive_in, "pTransactionId": b"T" * 16}, receive_out),
        9: (end_in, {"ReturnValue": 0}),
        15: (end_in, {"ReturnValue": 0}),
        2: (open_in, {"pphContext": HANDLE}),
        3: ({"pphContext": HANDLE}, {"pphContext": bytes(20), "ReturnValue": 0}),
    }


def fields(values: dict) -> int:
    """Scalars in a stub: each plain value, each SectionBuffer as its four."""
    return sum(4 * len(value) if isinstance(value, tuple) else 1 for value in values.values())


def per_call(function, calls: int) -> float:
    """Median seconds per call over REPEATS batches of `calls` calls."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def baseline(field_count: int, octets: int, calls: int) -> float:
    layout = struct.Struct("<" + "L" * field_count)
    row = list(range(field_count))
    source = bytes(octets)

    def work():
        layout.pack(*row)
        bytes(bytearray(source))
    return per_call(work, calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls per batch")
    parser.add_argument("--body", type=int, default=1200, help="octets of the packet R_StartReceive returns")
    options = parser.parse_args()
    fast_calls, slow_calls = (2_000, 50) if options.quick else (20_000, 300)
    operations = {
        "encode_request": (ndr.encode_request, ndr_impacket.encode_request, 0, True),
        "decode_request": (ndr.decode_request, ndr_impacket.decode_request, 0, False),
        "encode_response": (ndr.encode_response, ndr_impacket.encode_response, 1, True),
        "decode_response": (ndr.decode_response, ndr_impacket.decode_response, 1, False),
    }
    print(f"R_StartReceive returns one {options.body}-octet section; ratios are to struct.pack of as many DWORDs "
          "as the stub has fields + a copy of as many octets as the stub has.")
    header = (f"{'opnum':>5} {'operation':<16}{'NDR':>6}{'octets':>8}{'fields':>7}{'baseline':>11}"
              f"{'codec':>10}{'ratio':>7}{'impacket':>11}{'ratio':>8}{'gain':>7}")
    print(header)
    print("-" * len(header))
    spent: dict = {}
    for opnum, pair in hot_calls(options.body).items():
        for name, (fast, stock, side, encoding) in operations.items():
            for ndr64 in (False, True):
                values = pair[side]
                stub = (ndr.encode_request if side == 0 else ndr.encode_response)(opnum, values, ndr64)
                argument = values if encoding else stub
                base = baseline(fields(values), len(stub), fast_calls)
                mine = per_call(lambda f=fast, o=opnum, a=argument, n=ndr64: f(o, a, n), fast_calls)
                theirs = per_call(lambda f=stock, o=opnum, a=argument, n=ndr64: f(o, a, n), slow_calls)
                spent[opnum, name, ndr64] = mine
                print(f"{opnum:>5} {name:<16}{'64' if ndr64 else '2.0':>6}{len(stub):>8}{fields(values):>7}"
                      f"{base * 1e6:>9.2f}us{mine * 1e6:>8.2f}us{mine / base:>7.1f}{theirs * 1e6:>9.1f}us"
                      f"{theirs / base:>8.0f}{theirs / mine:>6.0f}x")
    print()
    for ndr64 in (False, True):
        server = sum(spent[opnum, name, ndr64] for opnum in (7, 9) for name in ("decode_request", "encode_response"))
        client = sum(spent[opnum, name, ndr64] for opnum in (7, 9) for name in ("encode_request", "decode_response"))
        print(f"NDR {'64' if ndr64 else '2.0'}: one R_StartReceive + R_EndReceive pair costs the server "
              f"{server * 1e6:.1f}us of codec ({server * 1e5:.2f}% of its 1 ms at 1,000 pairs/s), "
              f"the client {client * 1e6:.1f}us ({client * 1e5:.2f}%)")


if __name__ == "__main__":
    main()
