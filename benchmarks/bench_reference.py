"""Cost of the reference queue manager's core operations, as ratios to a deque baseline.

For queue depths of 1,000 and 1,000,000 messages (100-byte bodies; default
priority, and again with priorities spread over 0..7) it times, at the MS-MQDMPR
event level:

    enqueue            Enqueue Message of a pre-built message
    receive            Dequeue Message (no cursor) from the front
    peek-by-lookup-id  Read Message By Lookup Identifier, peek, SeekCurrent
    cursor peek-next   Peek Next Message on a cursor walking the queue
    receive-by-lookup  Read Message By Lookup Identifier, receive, SeekCurrent

and divides each by the cost of one collections.deque append+popleft pair
measured in the same run (the machine is shared and noisy: only ratios are
meaningful).  It also prints the memory per queued message, the growth of each
operation from depth 1,000 to 1,000,000, and recoverable (SQLite) against
express enqueue+receive pairs.  A dict looked up at random keys of the same depth
is timed as a control: it shows what the memory hierarchy alone adds at depth.

Run: python benchmarks/bench_reference.py [--quick]
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mqspec.reference.clock import VirtualClock  # noqa: E402
from mqspec.reference.enumerations import DeliveryGuarantee, MessageSeekAction, QueueAccessType, QueueShareMode  # noqa: E402
from mqspec.reference.message import Message  # noqa: E402
from mqspec.reference.queue_manager import QueueManager  # noqa: E402
from mqspec.reference.sqlite_store import SqliteStore  # noqa: E402

BODY = b"x" * 100
OPS = 500        # operations per timed batch
REPEATS = 9      # batches per figure; the median is reported


def new_queue_manager(store=None):
    qm = QueueManager(VirtualClock(), queue_manager_quota=1 << 62,
                      snapshot=store.load() if store else None)
    status, queue = qm.create_queue("mqspec\\private$\\bench")
    if store is not None:
        store.write(qm.take_changes())
    return qm, queue


MIXED = False  # priorities spread over 0..7 instead of the default 3


def messages(n, rng, delivery=DeliveryGuarantee.Express):
    if MIXED:
        return [Message(BODY, priority=rng.randrange(8), delivery_guarantee=delivery) for _ in range(n)]
    return [Message(BODY, delivery_guarantee=delivery) for _ in range(n)]


def timed(run, setup=lambda: None) -> float:
    """Median ns per operation of `run(setup())`, which performs OPS operations."""
    samples = []
    for _ in range(REPEATS):
        argument = setup()
        gc.disable()
        start = time.perf_counter_ns()
        run(argument)
        samples.append((time.perf_counter_ns() - start) / OPS)
        gc.enable()
    return statistics.median(samples)


def deque_pair_ns(depth: int) -> float:
    d = collections.deque(object() for _ in range(depth))
    item = object()

    def run(_):
        append, popleft = d.append, d.popleft
        for _ in range(OPS):
            append(item)
            popleft()
    return timed(run)


def dict_control_ns(depth: int, rng: random.Random) -> float:
    """ns per lookup of a dict of `depth` entries at random keys: the cost of cold memory."""
    table = {key: object() for key in range(depth)}

    def run(keys):
        get = table.get
        for key in keys:
            get(key)
    return timed(run, lambda: [rng.randrange(depth) for _ in range(OPS)])


def measure(depth: int, rng: random.Random) -> dict[str, float]:
    """ns per operation at a queue depth that every batch leaves unchanged."""
    qm, queue = new_queue_manager()
    for message in messages(depth, rng):
        qm.enqueue_message(queue, message)
    status, desc = qm.open_queue("DIRECT=OS:mqspec\\private$\\bench", QueueAccessType.ReceiveAccess,
                                 QueueShareMode.DenyNone)
    index = queue.message_position_list.index

    def fill():
        batch = messages(OPS, rng)
        for message in batch:
            qm.enqueue_message(queue, message)
        return [message.lookup_identifier for message in batch]

    def drain(count):
        for _ in range(count):
            qm.dequeue_message(desc, 0)

    def enqueue(batch):
        enqueue_message = qm.enqueue_message
        for message in batch:
            enqueue_message(queue, message)

    def receive(_):
        dequeue = qm.dequeue_message
        for _ in range(OPS):
            dequeue(desc, 0)

    def peek_by_lookup_id(ids):
        read, seek = qm.read_message_by_lookup_identifier, MessageSeekAction.SeekCurrent
        for lookup_id in ids:
            read(desc, lookup_id, True, seek)

    def receive_by_lookup_id(ids):
        read, seek = qm.read_message_by_lookup_identifier, MessageSeekAction.SeekCurrent
        for lookup_id in ids:
            read(desc, lookup_id, False, seek)

    def new_cursor():
        cursor = qm.open_cursor(desc)
        qm.peek_message(desc, 0, cursor)
        return cursor

    def cursor_peek_next(cursor):
        peek_next = qm.peek_next_message
        for _ in range(OPS):
            peek_next(desc, 0, cursor)

    added = []  # messages the previous enqueue batch left behind

    def fresh_batch():
        drain(len(added))
        added[:] = messages(OPS, rng)
        return added

    results = {}
    results["enqueue"] = timed(enqueue, fresh_batch)
    drain(len(added))
    results["receive"] = timed(receive, fill)
    results["peek-by-lookup-id"] = timed(peek_by_lookup_id, lambda: rng.sample(list(index), OPS))
    results["cursor peek-next"] = timed(cursor_peek_next, new_cursor)
    results["receive-by-lookup"] = timed(receive_by_lookup_id, fill)
    assert len(queue.message_position_list) == depth, "the benchmark changed the depth"
    return results


def bytes_per_message(n: int, rng: random.Random) -> float:
    prepared = [Message(BODY, priority=rng.randrange(8)) for _ in range(n)]
    del prepared  # warm the allocator with the same shapes
    gc.collect()
    tracemalloc.start()
    qm, queue = new_queue_manager()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(n):
        # a body of its own per message, as a real sender's would be
        qm.enqueue_message(queue, Message(b"%0100d" % i, priority=rng.randrange(8)))
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / n


def recoverable_ratio(n: int, synchronous: str, rng: random.Random) -> tuple[float, float]:
    """Enqueue+receive pairs per second through a store, recoverable vs express."""
    rates = {}
    with tempfile.TemporaryDirectory() as tmp:
        for delivery in (DeliveryGuarantee.Express, DeliveryGuarantee.Recoverable):
            store = SqliteStore(os.path.join(tmp, f"{delivery.name}.db"), synchronous=synchronous)
            qm, queue = new_queue_manager(store)
            status, desc = qm.open_queue("DIRECT=OS:mqspec\\private$\\bench", QueueAccessType.ReceiveAccess,
                                         QueueShareMode.DenyNone)
            batch = messages(n, rng, delivery)
            start = time.perf_counter()
            for message in batch:
                qm.enqueue_message(queue, message)
                store.write(qm.take_changes())
                qm.dequeue_message(desc, 0)
                store.write(qm.take_changes())
            rates[delivery] = n / (time.perf_counter() - start)
            store.close()
    return rates[DeliveryGuarantee.Recoverable], rates[DeliveryGuarantee.Express]


def report(depths, rng) -> None:
    figures = {}
    for depth in depths:
        baseline = deque_pair_ns(depth)
        ops = measure(depth, rng)
        figures[depth] = (baseline, ops, dict_control_ns(depth, rng))
        print(f"depth {depth:>9,}: deque append+popleft pair = {baseline:7.1f} ns (baseline 1.00)")
        for name, ns in ops.items():
            print(f"  {name:<20} {ns:9.1f} ns  = {ns / baseline:6.1f} x baseline")
        pair = ops["enqueue"] + ops["receive"]
        print(f"  {'enqueue+receive pair':<20} {pair:9.1f} ns  = {pair / baseline:6.1f} x baseline (target <= 30)")
    small, large = depths
    print(f"growth from depth {small:,} to {large:,} (target <= 1.5; each relative to its own baseline):")
    for name in figures[small][1]:
        ratio_small = figures[small][1][name] / figures[small][0]
        ratio_large = figures[large][1][name] / figures[large][0]
        print(f"  {name:<20} {ratio_large / ratio_small:5.2f}")
    control = (figures[large][2] / figures[large][0]) / (figures[small][2] / figures[small][0])
    print(f"  {'(control: dict get at random keys)':<20} {control:5.2f}")


def main() -> int:
    global REPEATS, MIXED
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="depths 1,000 and 100,000 only, fewer repeats")
    args = parser.parse_args()
    depths = (1_000, 100_000) if args.quick else (1_000, 1_000_000)
    if args.quick:
        REPEATS = 3
    rng = random.Random(1)
    print("== every message at the default priority (3)")
    report(depths, rng)
    MIXED = True
    print("== priorities spread over 0..7")
    report(depths, rng)
    per_message = bytes_per_message(100_000, rng)
    print(f"memory per queued 100-byte message: {per_message:,.0f} bytes (target < 1024)")
    for synchronous in ("FULL", "NORMAL"):
        recoverable, express = recoverable_ratio(300 if synchronous == "FULL" else 2000, synchronous, rng)
        print(f"SQLite synchronous={synchronous}: recoverable {recoverable:,.0f} pairs/s, express {express:,.0f} "
              f"pairs/s, ratio {recoverable / express:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
