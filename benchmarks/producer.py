"""Producer throughput: kafkawire vs kafka-python, aiokafka and confluent-kafka.

Usage::

    python benchmarks/producer.py                          # full matrix, ~4-5 min on 2 cores
    python benchmarks/producer.py --sizes 100 --codecs none
    python benchmarks/producer.py --sizes 100 --codecs none --workload fixed,small,large
    python benchmarks/producer.py --python pypy3           # our side on PyPy
    python benchmarks/producer.py --python python3 --python pypy3   # both
    python benchmarks/producer.py --bootstrap-server HOST:PORT
    python benchmarks/producer.py --clients ours,aiokafka --sizes 100 --codecs none \
        --workload keyed --partitions 6 --baseline /tmp/main-checkout   # keyed records over 6 partitions

Each client produces N records (default 300,000 of 100-byte values and
100,000 of 1 KiB values; ``--records``) to a fresh one-partition topic
(``--partitions N``: N partitions) with
acks=1, linger 5 ms, idempotence off, uncompressed / lz4 / zstd, against one
embedded Tansu broker on loopback (``kafka.testing.EmbeddedBroker``, started
by this script unless ``--bootstrap-server`` is given).  Every client runs in
a child process of its own (``benchmarks/_producer_child.py``), which sends
``--warmup`` records first and waits for them, then times sending N records
until the last one is acknowledged, and reports how many were acknowledged,
its CPU time and its peak RSS (VmHWM).  A run counts only when all N records
were acknowledged *and* the broker's high watermark for the topic is N plus
the warm-up (summed over the partitions); anything else is reported as an
error for that row.  Topics are
deleted after each run (the broker keeps everything in memory).

Values are text-like (words and numbers, compressing about like log lines),
cycled from a pool of 1,024 so that the data set stays out of the RSS
figures; every client gets the same ones.  Keys are null and there are no
headers, unless ``--workload`` asks for ``small`` or ``large`` records:
values of 50-150 B (300,000 records) or 200-2,000 B (100,000), keys of
8-36 B and 0-3 headers per record, passed as ``key=`` and ``headers=`` to
each client's send call (see ``benchmarks/consumer.py``); ``keyed`` is
``small`` without headers (``headers=None``), ``values`` is ``small``'s
values alone (null keys, no headers: varying lengths where ``fixed`` has
one), ``headers`` its values and headers (``key=None``).  With one partition
confluent-kafka and ours-confluent produce to partition 0 explicitly; with
``--partitions`` N > 1 every client leaves the choice to its partitioner
(keyed records: murmur2 of the key for ours, kafka-python and aiokafka;
librdkafka's default ``consistent_random``, a CRC32 of the key, for
confluent-kafka), and records without a key (the warm-up, ``fixed``) go
wherever each client's partitioner sends them.

``--baseline DIR`` adds a side ``base`` (and ``base-batch``,
``base-confluent`` beside ``ours-batch``, ``ours-confluent``): our client
imported from another checkout ``DIR`` (e.g. ``git archive main | tar -x -C DIR``), run in the
same rotation, so a change can be compared with the code before it on the
same machine load; the ``ours/x`` column then gives the ratio.

Each configuration runs ``--repeat`` times (default 3), the clients taking
turns in a rotating order; the table shows medians.  MB/s counts value bytes
(10^6 bytes/s), not bytes on the wire.  CPU µs/msg is the child's user+system
time (all its threads; librdkafka's too) over the timed part, per record; on
2 cores the broker competes for the same CPUs.

The clients, as configured:

* ours -- ``kafka.producer.KafkaProducer(acks=1, linger_ms=5,
  compression_type=..., enable_idempotence=False)``;
  ``send()`` per record keeping the futures, then ``flush()``.
* ours-batch -- the same producer, records handed over by
  ``send_batch(topic, values, keys=..., headers=...)`` 1,024 at a time
  (the pool's columns, as they are; ``--call-records N`` hands over the
  first N of them instead), one future per call, then ``flush()``.
* ours-confluent -- kafkawire's confluent-kafka API from this checkout,
  ``kafka.confluent.Producer`` with the same configuration and loop as
  confluent-kafka below (``--python`` applies to it too; ``batch.size`` is
  ``--confluent-batch-size``, else librdkafka's default as the facade maps it).
* ours-aio -- kafkawire's asyncio producer from this checkout,
  ``kafka.aio.AIOKafkaProducer``, run by the aiokafka code below unchanged
  (same settings, same loop).
* kafka-python 3.x -- the same call on kafka-python's ``KafkaProducer``, in
  its own virtual environment ``benchmarks/.venvs/kafka-python[-crc32c]``
  (it imports as ``kafka`` too).  By default that environment includes the
  ``crc32c`` package, which kafka-python uses when present, because our side
  has it (``--kafka-python-extras ''`` for plain kafka-python).
* aiokafka -- ``AIOKafkaProducer(acks=1, linger_ms=5, compression_type=...,
  enable_idempotence=False)`` on the default asyncio
  loop; ``fut = await producer.send(...)`` per record (that only appends to
  the accumulator, waiting only while it is full), then one
  ``asyncio.gather`` of all the delivery futures.
* confluent-kafka -- ``Producer({"acks": 1, "linger.ms": 5,
  "enable.idempotence": False, "compression.type": ..., "on_delivery": cb})``,
  ``produce()`` per record (``poll(0)`` every 1,000 records; on BufferError
  poll and retry), then ``flush()``; the callback counts deliveries.
  ``--confluent-loop plain`` (for confluent and ours-confluent) drops the
  callback and polls every 4,096 records instead: records produced, one
  ``poll(0)`` now and then, one ``flush()``; delivered is what ``flush()``
  leaves over, checked against the broker's high watermark as always.
  ours-confluent imports the facade as ``confluent_kafka`` (after
  ``kafka.confluent.install_as_confluent_kafka()``).

Every client keeps its own default batch size unless told otherwise: ours
and librdkafka 1,000,000 bytes (before 2026-11-27 ours was 256 KiB),
kafka-python and aiokafka 16 KiB (librdkafka also
batch.num.messages 10,000).  ``--batch-size N`` sets ``batch_size`` of ours
and kafka-python and ``max_batch_size`` of aiokafka to N (for a run with
equal batch sizes), ``--confluent-batch-size`` librdkafka's ``batch.size``.
On this broker, with one partition and at most 5 requests in flight, the
batch size matters a lot: with 16 KiB batches every client is bound by
request round trips at 1 KiB, and a Python client by the per-request work
at 100 B.

``--python X`` (repeatable) runs our side under interpreter X, in
``benchmarks/.venvs/ours-<X>`` with whichever of lz4 / zstandard / crc32c
install there (shared with ``benchmarks/records.py``); a codec that is not
available to a side is shown as skipped.  The other clients always run on
CPython.

``--sync`` measures synchronous sends instead: each record is sent with
``send(...).get()``, so the figure is one record's round trip (the table
adds the latency per record); use it with ``--clients ours,kafka-python``
and a small ``--records``, e.g.::

    python benchmarks/producer.py --sync --clients ours,kafka-python \
        --sizes 100 --codecs none --records 2000 --warmup 100
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any, Dict, List, Optional, Tuple

from _shared import (WORKLOAD_HELP, WORKLOAD_TEXT, DataSet, delete_topic, describe, fmt, parse_workloads,
                     plan_data, print_facade_ratios)
from _venvs import HERE, ROOT, cpython_host, kafka_python_python, ours_python

sys.path.insert(0, ROOT)

from kafka.conn.blocking import BlockingConnection  # noqa: E402
from kafka.direct import create_topic, describe_topic, fetch  # noqa: E402

CHILD = os.path.join(HERE, "_producer_child.py")
CLIENTS = ("ours", "ours-batch", "ours-confluent", "ours-aio", "kafka-python", "aiokafka", "confluent")
DEFAULT_RECORDS = {100: 300_000, 1024: 100_000}
#: Records per run of the realistic workloads (``--records`` N overrides).
WORKLOAD_RECORDS = {"small": 300_000, "large": 100_000, "keyed": 300_000, "values": 300_000, "headers": 300_000}


class Side:
    """One column of the comparison: a client under one interpreter."""

    def __init__(self, label: str, client: str, python: str, env: Dict[str, str], isolated: bool = False) -> None:
        self.label = label
        self.client = client
        self.python = python
        self.env = env
        self.isolated = isolated
        self.info = ""  # "CPython 3.11.7, kafka-python 3.0.12", from the first child


def build_sides(args: argparse.Namespace) -> List[Side]:
    clients = [c.strip() for c in args.clients.split(",") if c.strip()]
    for client in clients:
        if client not in CLIENTS:
            raise SystemExit("unknown client %r (choose from %s)" % (client, ", ".join(CLIENTS)))
    base_env = dict(os.environ)
    base_env.pop("PYTHONPATH", None)
    ours_env = dict(base_env, PYTHONPATH=ROOT)
    sides = []
    for ours in ("ours", "ours-batch", "ours-confluent", "ours-aio"):
        if ours not in clients:
            continue
        pythons = args.python or [sys.executable]
        for python in pythons:
            if os.path.realpath(shutil.which(python) or python) == os.path.realpath(sys.executable):
                path = sys.executable
            else:
                path = ours_python(python)
            label = ours if len(pythons) == 1 else ours.replace("ours", "ours-" + os.path.basename(python), 1)
            sides.append(Side(label, ours, path, ours_env))
    if args.baseline:
        if not os.path.isdir(os.path.join(args.baseline, "kafka")):
            raise SystemExit("--baseline %s: no kafka package there" % args.baseline)
        for ours in ("ours", "ours-batch", "ours-confluent", "ours-aio"):
            if ours in clients:  # base, base-batch, base-confluent, base-aio
                sides.append(Side(ours.replace("ours", "base", 1), ours, sys.executable,
                                  dict(base_env, PYTHONPATH=os.path.abspath(args.baseline))))
    if "kafka-python" in clients:
        extras = [e for e in args.kafka_python_extras.split(",") if e]
        sides.append(Side("kafka-python", "kafka-python", kafka_python_python(extras), base_env, isolated=True))
    host = cpython_host()
    for client in ("aiokafka", "confluent"):
        if client in clients:
            sides.append(Side(client, client, host, base_env))
    return sides


def one_run(side: Side, bootstrap: str, data: DataSet, codec: str, records: int,
            args: argparse.Namespace) -> Dict[str, Any]:
    """Create a topic, run one child, check the broker got everything, delete the topic."""
    host, port = bootstrap.split(",")[0].rsplit(":", 1)
    topic = "bench-producer-%s-%s-%s-%s" % (side.client, data.label, codec, uuid.uuid4().hex[:12])
    try:
        with BlockingConnection(host, int(port), timeout=30) as conn:
            create_topic(conn, topic, partitions=args.partitions)
    except Exception as exc:
        return {"error": "creating topic %s: %s" % (topic, describe(exc))}
    cmd = [side.python] + (["-I"] if side.isolated else []) + [CHILD]
    options = {
        "--client": side.client, "--bootstrap": bootstrap, "--topic": topic,
        "--records": records, "--value-size": data.size, "--workload": data.workload, "--codec": codec,
        "--partitions": args.partitions,
        "--batch-size": args.batch_size or 0, "--confluent-batch-size": args.confluent_batch_size or 0,
        "--linger-ms": args.linger_ms, "--call-records": args.call_records,
        "--confluent-loop": args.confluent_loop,
        "--warmup": args.warmup, "--timeout": args.timeout,
    }
    cmd += [str(x) for item in options.items() for x in item]
    if args.sync:
        cmd.append("--sync")
    result: Dict[str, Any]
    try:
        proc = subprocess.run(cmd, env=side.env, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=args.timeout + 60)
        lines = proc.stdout.decode(errors="replace").strip().splitlines()
        try:
            result = json.loads(lines[-1])
        except (IndexError, ValueError):
            tail = proc.stderr.decode(errors="replace").strip().splitlines()[-3:]
            result = {"error": "child exited %d without a result: %s" % (proc.returncode, " | ".join(tail))}
    except subprocess.TimeoutExpired:
        result = {"error": "timed out after %d s" % (args.timeout + 60)}
    if "skipped" not in result:
        try:
            with BlockingConnection(host, int(port), timeout=30) as conn:
                info = describe_topic(conn, topic)
                if "error" not in result:
                    high = sum(fetch(conn, info, p, 0, max_bytes=1).high_watermark for p in range(args.partitions))
                    result["broker_records"] = high
                    if high != records + args.warmup:
                        result["error"] = "broker holds %d records, expected %d (+%d warm-up)" % (
                            high, records, args.warmup)
                delete_topic(conn, topic, info.topic_id)
        except Exception as exc:  # keep going; the figures of this run are still flagged
            result.setdefault("error", "checking topic %s: %s" % (topic, describe(exc)))
    return result


class Row:
    def __init__(self, side: Side, data: DataSet, codec: str, records: int) -> None:
        self.side = side
        self.data = data
        self.size = data.label  # "100" for fixed 100-byte values, else the workload's name
        self.codec = codec
        self.records = records
        self.runs: List[Dict[str, Any]] = []

    @property
    def good(self) -> List[Dict[str, Any]]:
        return [r for r in self.runs if "seconds" in r and "error" not in r]

    @property
    def errors(self) -> List[str]:
        return [r["error"] for r in self.runs if "error" in r]

    @property
    def skipped(self) -> Optional[str]:
        return next((r["skipped"] for r in self.runs if "skipped" in r), None)

    def median_rate(self) -> Optional[float]:
        good = self.good
        return statistics.median(self.records / r["seconds"] for r in good) if good else None

    def median_cpu_us(self) -> Optional[float]:
        good = self.good
        return statistics.median(r["cpu_seconds"] / self.records * 1e6 for r in good) if good else None

    def peak_rss_mb(self) -> Optional[float]:
        rss = [r["peak_rss_kb"] for r in self.runs if r.get("peak_rss_kb") and "seconds" in r]
        return max(rss) / 1024.0 if rss else None


def print_table(rows: List[Row], sides: List[Side], args: argparse.Namespace) -> None:
    ours = [s for s in sides if s.client == "ours" and s.label != "base"]
    ratio_heads = ["%s/x" % s.label for s in ours]
    head = "%-16s %6s %-5s %12s %8s %10s %8s %5s" % (
        "client", "value", "codec", "msg/s", "MB/s", "CPU us/msg", "RSS MB", "runs")
    head += "".join(" %*s" % (max(8, len(h)), h) for h in ratio_heads)
    print(head)
    print("-" * len(head))
    notes = []
    previous = None
    for row in rows:
        if previous is not None and (row.size, row.codec) != previous:
            print()
        previous = (row.size, row.codec)
        rate = row.median_rate()
        if row.skipped:
            runs = "skip"
            notes.append("%s %s %s skipped: %s" % (row.side.label, row.size, row.codec, row.skipped))
        else:
            runs = "%d/%d" % (len(row.good), len(row.runs))
            if row.errors:
                runs += "!"
                for error in sorted(set(row.errors)):
                    notes.append("ERROR %s %s %s: %s" % (row.side.label, row.size, row.codec, error))
        line = "%-16s %6s %-5s %12s %8s %10s %8s %5s" % (
            row.side.label, row.size, row.codec, fmt(rate, "{:,.0f}"),
            fmt(rate * row.data.mean / 1e6 if rate else None, "{:.1f}"), fmt(row.median_cpu_us(), "{:.2f}"),
            fmt(row.peak_rss_mb(), "{:.0f}"), runs)
        for side, head in zip(ours, ratio_heads):
            mine = next((r for r in rows if r.side is side and (r.size, r.codec) == (row.size, row.codec)), None)
            mine_rate = mine.median_rate() if mine else None
            ratio = "%.2fx" % (mine_rate / rate) if mine_rate and rate and row.side is not side else "-"
            line += " %*s" % (max(8, len(head)), ratio)
        print(line)
    print()
    if args.sync:
        for row in rows:
            rate = row.median_rate()
            if rate:
                print("%-16s %6s %-5s send().get(): %.2f ms per record" % (
                    row.side.label, row.size, row.codec, 1000.0 / rate))
        print()
    print("msg/s, MB/s (values only) and CPU us/msg: medians; RSS: the largest peak of the runs; "
          "runs: complete runs / runs; <ours>/x: our msg/s divided by the row's")
    facade_ratios(rows)
    if notes:
        print()
        for note in notes:
            print(note)


def facade_ratios(rows: List[Row]) -> None:
    """Print msg/s of each ours-confluent side over that of ours under the same interpreter."""
    lines: List[Tuple[str, str, float, float]] = []
    for row in rows:
        if row.side.client != "ours-confluent" or row.side.label.startswith("base"):
            continue
        native = next((r for r in rows if r.side.client == "ours" and r.side.python == row.side.python
                       and not r.side.label.startswith("base") and (r.size, r.codec) == (row.size, row.codec)), None)
        if native is None:
            continue
        mine, theirs = row.median_rate(), native.median_rate()
        if mine and theirs:
            lines.append(("%s / %s" % (row.side.label, native.side.label), "%s %s" % (row.size, row.codec),
                          mine, theirs))
    print_facade_ratios(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bootstrap-server", default=None,
                        help="use this broker (host:port) instead of starting an embedded one")
    parser.add_argument("--clients", default=",".join(CLIENTS))
    parser.add_argument("--sizes", default="100,1024", help="value sizes in bytes (workload fixed)")
    parser.add_argument("--workload", default="fixed", help=WORKLOAD_HELP)
    parser.add_argument("--codecs", default="none,lz4,zstd")
    parser.add_argument("--records", default=None,
                        help="records per run: N, or SIZE:N,... (default 100:300000,1024:100000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per client and configuration")
    parser.add_argument("--warmup", type=int, default=1000, help="records sent (and awaited) before timing")
    parser.add_argument("--call-records", type=int, default=1024,
                        help="records per send_batch call of the client ours-batch (1 to 1,024; default 1,024)")
    parser.add_argument("--batch-size", type=int, default=None,
                        help="batch_size of ours and kafka-python, max_batch_size of aiokafka "
                             "(default: each client's own)")
    parser.add_argument("--confluent-batch-size", type=int, default=None,
                        help="librdkafka batch.size for confluent-kafka (default: librdkafka's, 1,000,000)")
    parser.add_argument("--linger-ms", type=int, default=5)
    parser.add_argument("--confluent-loop", choices=("callback", "plain"), default="callback",
                        help="loop of confluent and ours-confluent: callback (a delivery callback counting "
                             "reports, poll(0) every 1,000 records; the default) or plain (no delivery "
                             "callback, poll(0) every 4,096 records, flush() at the end)")
    parser.add_argument("--partitions", type=int, default=1,
                        help="partitions of each run's topic (default 1; >1: no explicit partition anywhere)")
    parser.add_argument("--baseline", default=None, metavar="DIR",
                        help="also run our client from the checkout DIR, as side 'base'")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds allowed for each child's flush")
    parser.add_argument("--python", action="append", default=[],
                        help="interpreter for our side (e.g. pypy3); repeat to compare several")
    parser.add_argument("--kafka-python-extras", default="crc32c",
                        help="packages added to kafka-python's environment (default crc32c; '' for none)")
    parser.add_argument("--sync", action="store_true",
                        help="synchronous sends: send(...).get() per record (ours and kafka-python only); "
                             "the table then also shows the latency per record")
    parser.add_argument("--json", default=None, help="also write every run's result to this file")
    args = parser.parse_args()

    sizes = [int(s) for s in args.sizes.split(",")]
    codecs = [c.strip() for c in args.codecs.split(",") if c.strip()]
    data_sets = plan_data(args.records, sizes, parse_workloads(args.workload), DEFAULT_RECORDS, 300_000,
                          WORKLOAD_RECORDS)
    sides = build_sides(args)

    broker = None
    if args.bootstrap_server:
        bootstrap = args.bootstrap_server
    else:
        from kafka.testing import EmbeddedBroker

        broker = EmbeddedBroker().start()
        bootstrap = broker.bootstrap_servers
    rows: List[Row] = []
    total = len(data_sets) * len(codecs) * len(sides) * args.repeat
    done = 0
    started = time.monotonic()
    try:
        for data in data_sets:
            for codec in codecs:
                group = [Row(side, data, codec, data.records) for side in sides]
                rows.extend(group)
                for rep in range(args.repeat):
                    shift = rep % len(group)
                    for row in group[shift:] + group[:shift]:  # alternate who goes first
                        if row.skipped:
                            continue
                        result = one_run(row.side, bootstrap, data, codec, row.records, args)
                        row.runs.append(result)
                        if not row.side.info and "version" in result:
                            row.side.info = "%s, %s %s" % (result.get("python"), row.side.client, result["version"])
                        done += 1
                        if "seconds" in result:
                            status = "{:,.0f} msg/s".format(row.records / result["seconds"])
                        else:
                            status = "skipped" if "skipped" in result else ""
                        if "error" in result:
                            status += " ERROR: " + result["error"]
                        print("[%d/%d %3.0fs] %-14s %6s %-5s run %d: %s" % (
                            done, total, time.monotonic() - started, row.side.label, data.label, codec, rep + 1,
                            status), file=sys.stderr, flush=True)
    finally:
        if broker is not None:
            broker.stop()

    print()
    print("producer throughput: acks=1, linger %d ms, no idempotence, %s, batch size %s "
          "(librdkafka: %s); median of %d runs; broker %s" % (
              args.linger_ms, "one partition" if args.partitions == 1 else "%d partitions" % args.partitions,
              "%d" % args.batch_size if args.batch_size else "each client's default",
              "batch.size %d" % args.confluent_batch_size if args.confluent_batch_size else "its defaults",
              args.repeat,
              args.bootstrap_server or "embedded Tansu on loopback"))
    if "ours-confluent" in args.clients or "confluent" in args.clients:
        print("confluent-kafka API loop: %s" % (
            "plain (no delivery callback, poll(0) every 4,096 records, flush())" if args.confluent_loop == "plain"
            else "callback (delivery callback, poll(0) every 1,000 records, flush())"))
    print("records per run: %s (+%d warm-up)" % (
        ", ".join("%d x %s" % (d.records, d.label + (" B" if d.workload == "fixed" else "")) for d in data_sets),
        args.warmup))
    for data in data_sets:
        if data.workload in WORKLOAD_TEXT:
            print("workload %s: %s" % (data.workload, WORKLOAD_TEXT[data.workload]))
    for side in sides:
        print("  %-14s %s" % (side.label, side.info or side.python))
    print()
    print_table(rows, sides, args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"client": r.side.label, "value_size": r.size, "codec": r.codec, "records": r.records,
                        "runs": r.runs} for r in rows], f, indent=1)


if __name__ == "__main__":
    main()
