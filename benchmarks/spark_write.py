"""CPU per row of the Spark writer's executor path, in this process (no Spark).

    python benchmarks/spark_write.py                 # 1M 100-byte values, 3 runs, embedded broker
    python benchmarks/spark_write.py --keyed --runs 5
    python benchmarks/spark_write.py --lengths 50-150 --keyed   # values of varying length, with keys
    python benchmarks/spark_write.py --profile       # cProfile of one run, by cumulative time

Builds the Arrow batches a Spark write task receives (10,000 rows each, a
``value`` column of 100-byte binaries like ``benchmarks/spark.py``, or of
lengths spread evenly over ``--lengths MIN-MAX``, and with ``--keyed`` a
``key`` column too) and hands them to
:func:`kafka.spark.worker.write_batches`, which sends and flushes them. The
figure is this process's CPU time (the writing thread and the producer's
sender thread) per row: what one Spark Python worker spends, without the
time Spark takes to hand it the rows.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import time
import uuid
from typing import Any, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from kafka import direct  # noqa: E402
from kafka.conn.blocking import BlockingConnection  # noqa: E402
from kafka.spark import worker  # noqa: E402
from kafka.spark.worker import write_batches  # noqa: E402

PARTITIONS = 4
ROWS_PER_BATCH = 10000


def _create(servers: str) -> str:
    name = "bench-spark-write-" + uuid.uuid4().hex[:8]
    host, port = servers.split(",")[0].rsplit(":", 1)
    with BlockingConnection(host, int(port)) as conn:
        direct.create_topic(conn, name, partitions=PARTITIONS)
    return name


def _batches(count: int, lengths: Tuple[int, int], keyed: bool) -> List[Any]:
    import pyarrow as pa

    rng = random.Random(7)
    out = []
    for start in range(0, count, ROWS_PER_BATCH):
        ids = range(start, min(count, start + ROWS_PER_BATCH))
        columns = [pa.array([str(i).rjust(rng.randint(*lengths), "x").encode() for i in ids], pa.binary())]
        names = ["value"]
        if keyed:
            columns.append(pa.array([b"key-%d" % i for i in ids], pa.binary()))
            names.append("key")
        out.append(pa.RecordBatch.from_arrays(columns, names))
    return out


def _profile(client: Any, servers: str, batches: List[Any]) -> None:
    """cProfile of the writing thread and of the producer's sender thread, by own time."""
    import cProfile
    import pstats

    from kafka.producer.sender import Sender

    sender_profile = cProfile.Profile()
    run = Sender.run

    def profiled_run(self: Any) -> None:
        sender_profile.runcall(run, self)

    Sender.run = profiled_run  # type: ignore[method-assign]
    write_batches(client, _create(servers), iter(batches[:1]))  # connects; not measured
    topic = _create(servers)
    profile = cProfile.Profile()
    profile.enable()
    write_batches(client, topic, iter(batches))
    profile.disable()
    from kafka.spark.worker import _close_all

    _close_all()  # ends the sender thread, and its profile
    for name, stats in (("writing thread", profile), ("sender thread", sender_profile)):
        print("--", name)
        pstats.Stats(stats).sort_stats("tottime").print_stats(14)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--value-size", type=int, default=100)
    parser.add_argument("--lengths", help="MIN-MAX: value lengths spread evenly over this range, instead of "
                                          "--value-size for all")
    parser.add_argument("--keyed", action="store_true", help="a key column too (rows spread by key hash)")
    parser.add_argument("--bootstrap-servers", help="default: an embedded broker")
    parser.add_argument("--no-encode", action="store_true",
                        help="rows as Python bytes through send_batch (kafka.spark.worker.ENCODE off)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one run instead")
    args = parser.parse_args()

    shortest, longest = (int(v) for v in args.lengths.split("-")) if args.lengths else (args.value_size,) * 2
    batches = _batches(args.records, (shortest, longest), args.keyed)
    worker.ENCODE = not args.no_encode
    with contextlib.ExitStack() as stack:
        servers = args.bootstrap_servers
        if servers is None:
            from kafka.testing import EmbeddedBroker

            servers = stack.enter_context(EmbeddedBroker()).bootstrap_servers
        client = {"bootstrap_servers": servers}
        if args.profile:
            _profile(client, servers, batches[:max(1, len(batches) // 3)])
            return
        write_batches(client, _create(servers), iter(batches[:1]))  # connects; not measured
        cpu, own, wall = [], [], []
        for _ in range(args.runs):
            topic = _create(servers)
            started, cpu_started, own_started = time.perf_counter(), time.process_time(), time.thread_time()
            written = write_batches(client, topic, iter(batches))
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
            own.append(time.thread_time() - own_started)
            assert written == args.records
        per_row = [1e6 * c / args.records for c in cpu]
        print("%s%s rows of %s-byte values%s: CPU %.3f us/row (median of %s; the writing thread %.3f, the others "
              "%.3f), %d rows/s wall (median); load %s"
              % ("send_batch: " if args.no_encode else "encoded: ", args.records,
                 args.lengths or args.value_size,
                 " with keys" if args.keyed else "", statistics.median(per_row), [round(c, 3) for c in per_row],
                 1e6 * statistics.median(own) / args.records,
                 1e6 * statistics.median(c - o for c, o in zip(cpu, own)) / args.records,
                 args.records / statistics.median(wall), " ".join("%.2f" % v for v in os.getloadavg())))

if __name__ == "__main__":
    main()
