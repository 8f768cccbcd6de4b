"""Consumer throughput: kafkawire vs kafka-python, aiokafka and confluent-kafka.

Usage::

    python benchmarks/consumer.py                          # 100 B and 1 KiB, uncompressed, manual assignment
    python benchmarks/consumer.py --sizes 100 --records 200000
    python benchmarks/consumer.py --sizes 100 --workload fixed,small,large   # realistic records too
    python benchmarks/consumer.py --codecs none,lz4,zstd
    python benchmarks/consumer.py --mode group             # subscribe with a fresh group id per run
    python benchmarks/consumer.py --mode assign,group      # both, on the same data
    python benchmarks/consumer.py --python pypy3           # our side on PyPy
    python benchmarks/consumer.py --python python3 --python pypy3   # both
    python benchmarks/consumer.py --bootstrap-server HOST:PORT

For every value size and codec the script creates one one-partition topic
and fills it once with N records (default 500,000 of 100-byte values and
100,000 of 1 KiB values; ``--records``), then every client reads those same
N records from offset 0, each in a child process of its own
(``benchmarks/_consumer_child.py``), ``--repeat`` times (default 3) with
the clients taking turns in a rotating order; the table shows medians.  The
broker is one embedded Tansu on loopback (``kafka.testing.EmbeddedBroker``)
unless ``--bootstrap-server`` is given; the topic is deleted afterwards.

Filling (``--filler``): by default confluent-kafka's producer, which fills
500k records several times faster than ours on CPython; ``--filler ours``
uses ``kafka.producer.KafkaProducer(acks=1, enable_idempotence=False,
linger_ms=20, batch_size=1000000)`` instead.  Both write batches of up to
~1 MB (librdkafka: ``batch.size`` 1,000,000, at most 10,000 records a
batch), in the codec of the configuration.  The fill counts only when the
broker's high watermark is exactly N.  Values are the text-like ones of
``benchmarks/producer.py`` (cycled from a pool of 1,024), keys are null.

Workloads (``--workload``, comma-separated): ``fixed`` is the above, one
topic per ``--sizes`` entry; ``small`` and ``large`` add one topic each of
records shaped like application events: values of 50-150 B (``small``,
500,000 records) or 200-2,000 B (``large``, 100,000), lengths uniformly
spread, keys of 8-36 B and 0-3 headers of 8-32 B values per record
(``make_shape`` in ``benchmarks/_producer_child.py``); ``keyed`` is ``small``
without headers, ``values`` ``small``'s values alone (null keys, no
headers), ``headers`` its values and headers (null keys).  Their rows are
labelled with the workload's name; MB/s counts their mean value length.

What is timed, in the child: from the end of the first poll that returned
records (or, with ``--warmup W``, the first poll that brought the count to W
or more -- useful for PyPy's JIT) until the N-th record is in the
application's hands.  msg/s is the records received in that span over its
length; CPU µs/msg is the child's user+system time (all its threads) over
the same span, per record; "1st s" is the time from creating the consumer
to the first record (connecting, metadata, offset lookup -- and in group
mode joining the group, which on Tansu takes many seconds for a new group).
Use N large enough that the first poll is a small part of it.  MB/s counts
value bytes (10^6 bytes/s).  RSS is the child's peak resident set (VmHWM), the largest of the
runs.  A run counts only when the client read exactly N records, in offset
order (checked per returned batch), the first and last being offsets 0 and
N-1 with the values that were written; anything else is an error for that
row.  Every child is bounded by ``--timeout`` seconds (and killed a minute
after that).

The clients, as configured (``--poll-records`` R is the per-call maximum
for all of them; default 500, kafka-python's and our ``max_poll_records``.
Every client here reads faster with smaller calls -- ours 495k, aiokafka
803k, confluent 2.0M msg/s at 500 against 389k / 611k / 1.6M at 10,000 on
100-byte values -- because a large batch of records no longer fits in the
CPU caches by the time it is handled and freed):

* ours -- ``kafka.consumer.KafkaConsumer(bootstrap_servers=...,
  auto_offset_reset='earliest', enable_auto_commit=False)``,
  ``assign([TopicPartition(topic, 0)])``, ``poll(timeout_ms=1000,
  max_records=R)`` in a loop.
* ours-iter -- the same consumer read with ``for record in consumer``
  (its default ``max_poll_records``, 500, applies inside).
* kafka-python / kafka-python-iter -- the same calls on kafka-python 3.x,
  in its own virtual environment ``benchmarks/.venvs/kafka-python[-crc32c]``
  (it imports as ``kafka`` too); with the ``crc32c`` package by default,
  because our side has it (``--kafka-python-extras ''`` for plain).
* aiokafka -- ``AIOKafkaConsumer(auto_offset_reset='earliest',
  enable_auto_commit=False)``, ``start()``, ``assign([...])``,
  ``getmany(timeout_ms=1000, max_records=R)`` on the default asyncio loop
  (``aiokafka-iter``, ``async for``, is available with ``--clients``).
* ours-aio / ours-aio-iter -- kafkawire's asyncio consumer from this
  checkout, ``kafka.aio.AIOKafkaConsumer``, run by the aiokafka code above
  unchanged (same settings, same loops; ``--python`` applies).
* confluent -- ``Consumer({'group.id': <fresh>, 'auto.offset.reset':
  'earliest', 'enable.auto.commit': False, 'fetch.queue.backoff.ms': 10})``
  (the binding requires a group id even for ``assign``; nothing is
  committed), ``assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])``,
  ``consume(num_messages=R, timeout=1.0)``.  librdkafka otherwise keeps its
  defaults, including its large pre-fetch queue (visible in RSS);
  ``--confluent-backoff-ms -1`` restores its default back-off.
* confluent-poll1 -- the same consumer read with ``poll(1.0)`` per message.
* ours-confluent / ours-confluent-poll1 -- the same two loops on
  kafkawire's confluent-kafka API (``kafka.confluent.Consumer``, from this
  checkout, with the same configuration; it ignores
  ``fetch.queue.backoff.ms``), run like ours (``--python`` applies).

All clients keep their default fetch sizes (1 MiB per partition) and fetch
wait (500 ms).  With ``--mode group`` every run subscribes with a fresh
``group_id`` instead of assigning (nothing is committed); where this build
of ours has no group support yet, the constructor's configuration error is
caught and the row shows ``n/a``.  On Tansu the first join of a new group
completes after about half the session timeout, so "1st s" mostly reflects
each client's default ``session_timeout_ms`` (aiokafka 10 s -> ~5 s; ours,
kafka-python and librdkafka 45 s -> ~23 s); ``--session-timeout-ms`` sets
one value for all of them.

``--python X`` (repeatable) runs our side under interpreter X, in
``benchmarks/.venvs/ours-<X>`` (shared with ``benchmarks/records.py`` and
``benchmarks/producer.py``); a codec that is not available to a side is
shown as skipped.  The other clients always run on CPython.  Tansu may
answer a fetch with no records although data exists; every client simply
polls again (the empty polls are counted in the JSON output).
"""

from __future__ import annotations

import argparse
import hashlib
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

from _producer_child import POOL, WORKLOADS, Shape  # noqa: E402

CHILD = os.path.join(HERE, "_consumer_child.py")
# label -> (child client, style)
CLIENT_KINDS = {
    "ours": ("ours", "poll"),
    "ours-iter": ("ours", "iter"),
    "kafka-python": ("kafka-python", "poll"),
    "kafka-python-iter": ("kafka-python", "iter"),
    "aiokafka": ("aiokafka", "poll"),
    "aiokafka-iter": ("aiokafka", "iter"),
    "ours-aio": ("ours-aio", "poll"),
    "ours-aio-iter": ("ours-aio", "iter"),
    "confluent": ("confluent", "poll"),
    "confluent-poll1": ("confluent", "poll1"),
    "ours-confluent": ("ours-confluent", "poll"),
    "ours-confluent-poll1": ("ours-confluent", "poll1"),
}
DEFAULT_CLIENTS = ("ours,ours-iter,ours-confluent,ours-confluent-poll1,kafka-python,kafka-python-iter,aiokafka,"
                   "confluent,confluent-poll1")
DEFAULT_RECORDS = {100: 500_000, 1024: 100_000}
#: Records per topic of the realistic workloads (``--records`` N overrides).
WORKLOAD_RECORDS = {"small": 500_000, "large": 100_000, "keyed": 500_000, "values": 500_000, "headers": 500_000}
FILL_BATCH_SIZE = 1_000_000
FILL_LINGER_MS = 20


class Side:
    """One row kind of the comparison: a client, a reading style, an interpreter."""

    def __init__(self, label: str, client: str, style: str, python: str, env: Dict[str, str],
                 isolated: bool = False) -> None:
        self.label = label
        self.client = client
        self.style = style
        self.python = python
        self.env = env
        self.isolated = isolated
        self.info = ""  # "CPython 3.11.7, kafka-python 3.0.12", from the first child


def build_sides(args: argparse.Namespace) -> List[Side]:
    labels = [c.strip() for c in args.clients.split(",") if c.strip()]
    for label in labels:
        if label not in CLIENT_KINDS:
            raise SystemExit("unknown client %r (choose from %s)" % (label, ", ".join(CLIENT_KINDS)))
    base_env = dict(os.environ)
    base_env.pop("PYTHONPATH", None)
    ours_env = dict(base_env, PYTHONPATH=ROOT)
    sides = []
    pythons = args.python or [sys.executable]
    ours_paths = []
    for python in pythons:
        if not any(CLIENT_KINDS[label][0].startswith("ours") for label in labels):
            break
        if os.path.realpath(shutil.which(python) or python) == os.path.realpath(sys.executable):
            path = sys.executable
        else:
            path = ours_python(python)
        ours_paths.append((python, path))
    kafka_python = None
    host = cpython_host()
    for label in labels:
        client, style = CLIENT_KINDS[label]
        if client.startswith("ours"):
            for python, path in ours_paths:
                name = label if len(ours_paths) == 1 else label.replace("ours", "ours-" + os.path.basename(python), 1)
                sides.append(Side(name, client, style, path, ours_env))
        elif client == "kafka-python":
            if kafka_python is None:
                extras = [e for e in args.kafka_python_extras.split(",") if e]
                kafka_python = kafka_python_python(extras)
            sides.append(Side(label, client, style, kafka_python, base_env, isolated=True))
        else:
            sides.append(Side(label, client, style, host, base_env))
    return sides


# -- filling -------------------------------------------------------------------------------------


def fill_ours(bootstrap: str, topic: str, codec: str, records: int, shape: Shape) -> None:
    from kafka.producer import KafkaProducer

    producer = KafkaProducer(bootstrap_servers=bootstrap, acks=1, enable_idempotence=False,
                             linger_ms=FILL_LINGER_MS, batch_size=FILL_BATCH_SIZE,
                             compression_type=None if codec == "none" else codec)
    try:
        send = producer.send
        mask = POOL - 1
        values, keys, headers = shape
        if keys is None:
            futures = [send(topic, values[i & mask], partition=0) for i in range(records)]
        else:
            futures = [send(topic, values[i & mask], key=keys[i & mask], headers=headers[i & mask], partition=0)
                       for i in range(records)]
        producer.flush(timeout=300)
        failed = [f for f in futures if not (f.is_done and f.succeeded())]
        if failed:
            raise RuntimeError("%d records not acknowledged (first: %r)" % (len(failed), failed[0].exception))
    finally:
        producer.close(timeout=10)


def fill_confluent(bootstrap: str, topic: str, codec: str, records: int, shape: Shape) -> None:
    import confluent_kafka

    failures: List[str] = []

    def on_delivery(err: Any, msg: Any) -> None:
        if err is not None:
            failures.append(str(err))

    producer = confluent_kafka.Producer({
        "bootstrap.servers": bootstrap, "acks": 1, "enable.idempotence": False,
        "linger.ms": FILL_LINGER_MS, "batch.size": FILL_BATCH_SIZE, "compression.type": codec,
        "on_delivery": on_delivery,
    })
    produce = producer.produce
    poll = producer.poll
    mask = POOL - 1
    values, keys, headers = shape
    for i in range(records):
        value = values[i & mask]
        key = keys[i & mask] if keys is not None else None
        header = headers[i & mask] if headers is not None else None
        while True:
            try:
                produce(topic, value, key, partition=0, headers=header)
                break
            except BufferError:
                poll(0.005)
        if not i % 1000:
            poll(0)
    left = producer.flush(300)
    if left or failures:
        raise RuntimeError("%d records still queued, %d failed (%s)" % (left, len(failures), failures[:1]))


def resolve_filler(name: str) -> str:
    if name != "auto":
        return name
    try:
        import confluent_kafka  # noqa: F401
    except ImportError:
        return "ours"
    return "confluent"


def setup_topic(bootstrap: str, label: str, codec: str, records: int, filler: str,
                shape: Shape) -> Tuple[str, float]:
    """Create a topic and fill it with ``records`` values; return (topic, seconds the fill took)."""
    host, port = bootstrap.split(",")[0].rsplit(":", 1)
    topic = "bench-consumer-%s-%s-%s" % (label, codec, uuid.uuid4().hex[:12])
    with BlockingConnection(host, int(port), timeout=30) as conn:
        create_topic(conn, topic)
    started = time.perf_counter()
    (fill_ours if filler == "ours" else fill_confluent)(bootstrap, topic, codec, records, shape)
    seconds = time.perf_counter() - started
    with BlockingConnection(host, int(port), timeout=30) as conn:
        info = describe_topic(conn, topic)
        high = fetch(conn, info, 0, 0, max_bytes=1).high_watermark
    if high != records:
        raise RuntimeError("topic %s holds %d records after the fill, expected %d" % (topic, high, records))
    return topic, seconds


def drop_topic(bootstrap: str, topic: str) -> None:
    host, port = bootstrap.split(",")[0].rsplit(":", 1)
    try:
        with BlockingConnection(host, int(port), timeout=30) as conn:
            delete_topic(conn, topic, describe_topic(conn, topic).topic_id)
    except Exception as exc:  # the figures are still good; say so and move on
        print("note: deleting topic %s: %s" % (topic, describe(exc)), file=sys.stderr)


# -- running -------------------------------------------------------------------------------------


def sha1(value: bytes) -> str:
    return hashlib.sha1(value).hexdigest()


def check(result: Dict[str, Any], records: int, values: List[bytes]) -> None:
    """Flag a run whose first and last record are not the ones written."""
    if "error" in result or "skipped" in result:
        return
    expected = {
        "read": records,
        "first_offset": 0,
        "last_offset": records - 1,
        "first_value_sha1": sha1(values[0]),
        "last_value_sha1": sha1(values[(records - 1) & (POOL - 1)]),
    }
    for key, want in expected.items():
        if result.get(key) != want:
            result["error"] = "%s is %r, expected %r" % (key, result.get(key), want)
            return
    if "seconds" not in result:
        result["error"] = "no timing reported"


def one_run(side: Side, bootstrap: str, topic: str, mode: str, codec: str, records: int,
            values: List[bytes], args: argparse.Namespace) -> Dict[str, Any]:
    cmd = [side.python] + (["-I"] if side.isolated else []) + [CHILD]
    options = {
        "--client": side.client, "--style": side.style, "--mode": mode, "--bootstrap": bootstrap,
        "--topic": topic, "--group-id": "bench-consumer-%s" % uuid.uuid4().hex[:12],
        "--records": records, "--codec": codec, "--poll-records": args.poll_records,
        "--confluent-backoff-ms": args.confluent_backoff_ms, "--timeout": args.timeout,
        "--warmup": args.warmup, "--session-timeout-ms": args.session_timeout_ms,
    }
    cmd += [str(x) for item in options.items() for x in item]
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
        result = {"error": "killed after %d s" % (args.timeout + 60)}
    check(result, records, values)
    return result


class Row:
    def __init__(self, side: Side, data: DataSet, codec: str, mode: str, records: int) -> None:
        self.side = side
        self.size = data.label  # "100" for fixed 100-byte values, else the workload's name
        self.mean = data.mean
        self.codec = codec
        self.mode = mode
        self.records = records
        self.runs: List[Dict[str, Any]] = []

    @property
    def key(self) -> Tuple[int, str, str]:
        return (self.size, self.codec, self.mode)

    @property
    def good(self) -> List[Dict[str, Any]]:
        return [r for r in self.runs if "seconds" in r and "error" not in r and r["seconds"] > 0]

    @property
    def errors(self) -> List[str]:
        return [r["error"] for r in self.runs if "error" in r]

    @property
    def skipped(self) -> Optional[str]:
        return next((r["skipped"] for r in self.runs if "skipped" in r), None)

    def median_rate(self) -> Optional[float]:
        good = self.good
        return statistics.median(r["timed_records"] / r["seconds"] for r in good) if good else None

    def median_cpu_us(self) -> Optional[float]:
        good = self.good
        return statistics.median(r["cpu_seconds"] / r["timed_records"] * 1e6 for r in good) if good else None

    def median_first(self) -> Optional[float]:
        good = self.good
        return statistics.median(r["first_seconds"] for r in good) if good else None

    def peak_rss_mb(self) -> Optional[float]:
        rss = [r["peak_rss_kb"] for r in self.runs if r.get("peak_rss_kb") and "seconds" in r]
        return max(rss) / 1024.0 if rss else None


def print_table(rows: List[Row], sides: List[Side]) -> None:
    ours = [s for s in sides if s.client == "ours"]
    ratio_heads = ["%s/x" % s.label for s in ours]
    head = "%-20s %6s %-5s %-6s %11s %7s %10s %7s %7s %5s" % (
        "client", "value", "codec", "mode", "msg/s", "MB/s", "CPU us/msg", "1st s", "RSS MB", "runs")
    head += "".join(" %*s" % (max(8, len(h)), h) for h in ratio_heads)
    print(head)
    print("-" * len(head))
    notes = []
    previous = None
    for row in rows:
        if previous is not None and row.key != previous:
            print()
        previous = row.key
        rate = row.median_rate()
        where = "%s %s %s %s" % (row.side.label, row.size, row.codec, row.mode)
        skipped = row.skipped
        if skipped:
            runs = "n/a" if skipped.startswith("n/a") else "skip"
            notes.append("%s %s: %s" % (runs, where, skipped[len("n/a: "):] if runs == "n/a" else skipped))
        else:
            runs = "%d/%d" % (len(row.good), len(row.runs))
            if row.errors:
                runs += "!"
                for error in sorted(set(row.errors)):
                    notes.append("ERROR %s: %s" % (where, error))
        line = "%-20s %6s %-5s %-6s %11s %7s %10s %7s %7s %5s" % (
            row.side.label, row.size, row.codec, row.mode, fmt(rate, "{:,.0f}"),
            fmt(rate * row.mean / 1e6 if rate else None, "{:.1f}"), fmt(row.median_cpu_us(), "{:.2f}"),
            fmt(row.median_first(), "{:.2f}"), fmt(row.peak_rss_mb(), "{:.0f}"), runs)
        for side, head in zip(ours, ratio_heads):
            mine = next((r for r in rows if r.side is side and r.key == row.key), None)
            mine_rate = mine.median_rate() if mine else None
            ratio = "%.2fx" % (mine_rate / rate) if mine_rate and rate and row.side is not side else "-"
            line += " %*s" % (max(8, len(head)), ratio)
        print(line)
    print()
    print("msg/s, MB/s (values only), CPU us/msg and 1st s (consumer created -> first record): medians; "
          "RSS: the largest peak of the runs; runs: complete runs / runs; <ours>/x: our msg/s divided by the row's")
    facade_ratios(rows)
    if notes:
        print()
        for note in notes:
            print(note)


def facade_ratios(rows: List[Row]) -> None:
    """Print msg/s of each ours-confluent side over that of ours (same interpreter, style poll)."""
    lines: List[Tuple[str, str, float, float]] = []
    for row in rows:
        if row.side.client != "ours-confluent":
            continue
        native = next((r for r in rows if r.side.client == "ours" and r.side.style == "poll"
                       and r.side.python == row.side.python and r.key == row.key), None)
        if native is None:
            continue
        mine, theirs = row.median_rate(), native.median_rate()
        if mine and theirs:
            lines.append(("%s / %s" % (row.side.label, native.side.label),
                          "%s %s %s" % (row.size, row.codec, row.mode), mine, theirs))
    print_facade_ratios(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bootstrap-server", default=None,
                        help="use this broker (host:port) instead of starting an embedded one")
    parser.add_argument("--clients", default=DEFAULT_CLIENTS,
                        help="comma-separated, from: %s" % ", ".join(CLIENT_KINDS))
    parser.add_argument("--sizes", default="100,1024", help="value sizes in bytes (workload fixed)")
    parser.add_argument("--workload", default="fixed", help=WORKLOAD_HELP)
    parser.add_argument("--codecs", default="none", help="e.g. none,lz4,zstd")
    parser.add_argument("--mode", default="assign", help="assign, group, or assign,group")
    parser.add_argument("--records", default=None,
                        help="records per topic: N, or SIZE:N,... (default 100:500000,1024:100000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per client and configuration")
    parser.add_argument("--poll-records", type=int, default=500,
                        help="max_records of poll/getmany, num_messages of consume (default 500)")
    parser.add_argument("--confluent-backoff-ms", type=int, default=10,
                        help="librdkafka fetch.queue.backoff.ms (default 10; -1 for librdkafka's default)")
    parser.add_argument("--filler", choices=("auto", "ours", "confluent"), default="auto",
                        help="producer that fills the topics (auto: confluent-kafka if installed)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds each child may take from creating its consumer to the N-th record")
    parser.add_argument("--spread", type=float, default=0.0,
                        help="value lengths vary uniformly within size x (1 +/- SPREAD), e.g. 0.5 "
                             "(default 0: every value exactly the size)")
    parser.add_argument("--warmup", type=int, default=0,
                        help="records read before each child's clock starts (default 0: after the first poll)")
    parser.add_argument("--session-timeout-ms", type=int, default=0,
                        help="group mode: the same session timeout for every client (heartbeat: a third of it); "
                             "default: each client's own (aiokafka 10 s, the others 45 s)")
    parser.add_argument("--python", action="append", default=[],
                        help="interpreter for our side (e.g. pypy3); repeat to compare several")
    parser.add_argument("--kafka-python-extras", default="crc32c",
                        help="packages added to kafka-python's environment (default crc32c; '' for none)")
    parser.add_argument("--json", default=None, help="also write every run's result to this file")
    args = parser.parse_args()

    sizes = [int(s) for s in args.sizes.split(",")]
    workloads = parse_workloads(args.workload)
    codecs = [c.strip() for c in args.codecs.split(",") if c.strip()]
    modes = [m.strip() for m in args.mode.split(",") if m.strip()]
    for mode in modes:
        if mode not in ("assign", "group"):
            raise SystemExit("unknown mode %r (assign or group)" % mode)
    data_sets = plan_data(args.records, sizes, workloads, DEFAULT_RECORDS, 500_000, WORKLOAD_RECORDS,
                          args.spread)
    for data in data_sets:
        if args.warmup >= data.records:
            raise SystemExit("--warmup %d leaves nothing to time for %d records of %s" % (
                args.warmup, data.records, data.label))
    sides = build_sides(args)
    filler = resolve_filler(args.filler)

    broker = None
    if args.bootstrap_server:
        bootstrap = args.bootstrap_server
    else:
        from kafka.testing import EmbeddedBroker

        broker = EmbeddedBroker().start()
        bootstrap = broker.bootstrap_servers
    rows: List[Row] = []
    fills: List[str] = []
    total = len(data_sets) * len(codecs) * len(modes) * len(sides) * args.repeat
    done = 0
    started = time.monotonic()
    try:
        for data in data_sets:
            size, records, values = data.label, data.records, data.shape.values
            for codec in codecs:
                groups = [[Row(side, data, codec, mode, records) for side in sides] for mode in modes]
                for group in groups:
                    rows.extend(group)
                try:
                    topic, seconds = setup_topic(bootstrap, size, codec, records, filler, data.shape)
                except Exception as exc:
                    message = "filling the topic with %s: %s" % (filler, describe(exc))
                    print("%s %s: %s" % (size, codec, message), file=sys.stderr, flush=True)
                    for group in groups:
                        for row in group:
                            row.runs.append({"error": message})
                    done += len(modes) * len(sides) * args.repeat
                    continue
                fills.append("{:,} x {} {} in {:.1f} s ({:,.0f} msg/s)".format(
                    records, size, codec, seconds, records / seconds))
                print("[%3.0fs] filled %s with %d x %s %s using %s in %.1f s" % (
                    time.monotonic() - started, topic, records, size, codec, filler, seconds),
                    file=sys.stderr, flush=True)
                try:
                    for group in groups:
                        for rep in range(args.repeat):
                            shift = rep % len(group)
                            for row in group[shift:] + group[:shift]:  # alternate who goes first
                                if row.skipped:
                                    continue
                                result = one_run(row.side, bootstrap, topic, row.mode, codec, records, values, args)
                                row.runs.append(result)
                                if not row.side.info and result.get("version"):
                                    row.side.info = "%s, %s %s" % (
                                        result.get("python"), row.side.client, result["version"])
                                done += 1
                                if "seconds" in result and result["seconds"] > 0:
                                    status = "{:,.0f} msg/s, first record after {:.2f} s".format(
                                        result["timed_records"] / result["seconds"], result["first_seconds"])
                                else:
                                    status = result["skipped"] if "skipped" in result else ""
                                if "error" in result:
                                    status += " ERROR: " + result["error"]
                                print("[%d/%d %3.0fs] %-20s %6s %-5s %-6s run %d: %s" % (
                                    done, total, time.monotonic() - started, row.side.label, size, codec,
                                    row.mode, rep + 1, status), file=sys.stderr, flush=True)
                finally:
                    drop_topic(bootstrap, topic)
    finally:
        if broker is not None:
            broker.stop()

    print()
    print("consumer throughput: one partition read from offset 0 (%s); at most %d records per poll; "
          "clock starts after %s; median of %d runs; broker %s" % (
              " and ".join({"assign": "manual assignment", "group": "subscribe, fresh group per run"}[m]
                           for m in modes),
              args.poll_records,
              "the first poll that returned records" if not args.warmup
              else "the first %d records (warm-up)" % args.warmup,
              args.repeat, args.bootstrap_server or "embedded Tansu on loopback"))
    for data in data_sets:
        if data.label in WORKLOADS:
            print("workload %s: %s" % (data.label, WORKLOAD_TEXT[data.label]))
    if args.spread and "fixed" in workloads:
        print("value lengths: uniform within size x (1 +/- %g); MB/s assumes the mean, the size" % args.spread)
    print("topics filled by %s (acks=1, linger %d ms, batch size %d): %s" % (
        "confluent-kafka" if filler == "confluent" else "ours", FILL_LINGER_MS, FILL_BATCH_SIZE,
        "; ".join(fills) or "-"))
    print("confluent: fetch.queue.backoff.ms %s" % (
        args.confluent_backoff_ms if args.confluent_backoff_ms >= 0 else "librdkafka's default"))
    for side in sides:
        print("  %-20s %s" % (side.label, side.info or side.python))
    print()
    print_table(rows, sides)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"client": r.side.label, "value_size": r.size, "codec": r.codec, "mode": r.mode,
                        "records": r.records, "runs": r.runs} for r in rows], f, indent=1)


if __name__ == "__main__":
    main()
