"""Throughput and latency of the kafkawire Spark data source, and where the time goes.

    python benchmarks/spark.py                  # 1M 100-byte records, 3 runs, embedded broker
    python benchmarks/spark.py --records 200000 --runs 1
    python benchmarks/spark.py --master cluster --skip stream
    python benchmarks/spark.py --master cluster --skip stream --runs 5 --warmup-runs 20   # JVMs warmed up
    python benchmarks/spark.py --master cluster --skip write --skip stream --lengths 50-150 --keyed

Measures, on ``local[2]`` and on a Spark standalone cluster of two one-core
workers started on 127.0.0.1 from the installed pyspark (``--master``):

* batch read: ``df.count()`` over N 100-byte records of a 4-partition topic
  (``--isolation-level read_committed`` or ``both`` for read_committed reads;
  ``--lengths MIN-MAX`` spreads the values' lengths evenly over that range,
  ``--keyed`` gives every record a key of 8-36 bytes);
* batch write: N rows of 100-byte values into a 4-partition topic;
* streaming: end-to-end latency (record timestamp to ``foreachBatch``) of
  a query fed one record every 50 ms, and Spark's per-trigger durations.

Where the time goes: every task of the data source appends its timings to a
file (``KAFKAWIRE_SPARK_TIMINGS``, see :mod:`kafka.spark.worker`): time in our
consumer (fetch + decode), building Arrow batches, and the whole task; for
writes, time in ``send`` and in the final ``flush``. What the tasks do not
account for is Spark's (scheduling, Python worker I/O, the JVM side). The
same records are also read by our consumer alone in this process, as the
client's own ceiling.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from typing import Any, Dict, Iterator, List, Optional, Tuple

from _cpu_shares import cpu_shares, snapshot

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import kafka.spark  # noqa: E402
from kafka import direct  # noqa: E402
from kafka.conn.blocking import BlockingConnection  # noqa: E402
from kafka.consumer import KafkaConsumer  # noqa: E402
from kafka.spark.arrow import BatchBuilder  # noqa: E402
from kafka.spark.offsets import OffsetRange  # noqa: E402
from kafka.spark.worker import TIMINGS_ENV, read_range  # noqa: E402
from kafka.structs import TopicPartition  # noqa: E402

PARTITIONS = 4
VALUE_SIZE = 100


def _create(servers: str, partitions: int) -> str:
    name = "bench-spark-" + uuid.uuid4().hex[:8]
    host, port = servers.split(",")[0].rsplit(":", 1)
    with BlockingConnection(host, int(port)) as conn:
        direct.create_topic(conn, name, partitions=partitions)
    return name


def _records(count: int, lengths: Tuple[int, int], keyed: bool) -> Iterator[Tuple[Optional[bytes], bytes]]:
    """``count`` keys and values: values of ``lengths`` bytes (spread evenly), keys of 8-36 bytes if ``keyed``."""
    rng = random.Random(count)
    shortest, longest = lengths
    for i in range(count):
        key = str(i).rjust(rng.randint(8, 36), "k").encode() if keyed else None
        yield key, str(i).rjust(rng.randint(shortest, longest), "x").encode()


def _fill(servers: str, topic: str, count: int, lengths: Tuple[int, int], keyed: bool) -> float:
    """Produce ``count`` records (:func:`_records`) round-robin over the partitions; returns seconds."""
    started = time.perf_counter()
    try:
        import confluent_kafka  # fastest way to prepare the data; not what is measured
    except ImportError:
        confluent_kafka = None
    records = _records(count, lengths, keyed)
    if confluent_kafka is not None:
        producer = confluent_kafka.Producer({"bootstrap.servers": servers, "linger.ms": 20, "acks": 1,
                                             "enable.idempotence": False, "batch.size": 512 * 1024})
        for i, (key, value) in enumerate(records):
            while True:
                try:
                    producer.produce(topic, value, key, partition=i % PARTITIONS)
                    break
                except BufferError:
                    producer.poll(0.05)
        assert producer.flush(120) == 0
    else:
        from kafka.producer import KafkaProducer

        with KafkaProducer(bootstrap_servers=servers, acks=1, linger_ms=20, batch_size=512 * 1024) as producer:
            for i, (key, value) in enumerate(records):
                producer.send(topic, value, key=key, partition=i % PARTITIONS)
            producer.flush()
    return time.perf_counter() - started


#: The isolation levels of the batch reads for each ``--isolation-level``.
ISOLATION_LEVELS = {"read_uncommitted": ("read_uncommitted",), "read_committed": ("read_committed",),
                    "both": ("read_uncommitted", "read_committed")}


def _tasks(path: str, kind: str) -> List[Dict[str, Any]]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return [t for t in (json.loads(line) for line in handle if line.strip()) if t["kind"] == kind]


def _reset(path: str) -> None:
    with open(path, "w", encoding="utf-8"):
        pass


def _client_alone(servers: str, topic: str, count: int) -> Dict[str, float]:
    """Our consumer reading the topic in this process, with and without building Arrow batches, and the
    executors' read path (:func:`kafka.spark.worker.read_range`) in this process."""
    out = {}
    for build in (False, True):
        with KafkaConsumer(bootstrap_servers=servers, auto_offset_reset="earliest", max_poll_records=10000,
                           fetch_max_wait_ms=100) as consumer:
            parts = [TopicPartition(topic, p) for p in range(PARTITIONS)]
            consumer.assign(parts)
            builders = {tp: BatchBuilder(topic, tp.partition, False) for tp in parts}
            seen = 0
            started = time.perf_counter()
            while seen < count:
                for tp, records in consumer.poll(500, max_records=10000).items():
                    seen += len(records)
                    if build:
                        builders[tp].extend(records)
                        if len(builders[tp]) >= 10000:
                            builders[tp].build()
            out["arrow" if build else "plain"] = count / (time.perf_counter() - started)
    # What a Spark task runs (Fetch responses decoded into Arrow columns), with no Spark around it.
    client = {"bootstrap_servers": servers}
    for _ in range(2):  # the first pass connects
        started = time.perf_counter()
        for p in range(PARTITIONS):
            end = count // PARTITIONS + (1 if p < count % PARTITIONS else 0)
            for _batch in read_range(client, OffsetRange(topic, p, 0, end), False, True, 60_000):
                pass
    out["task_path"] = count / (time.perf_counter() - started)
    return out


def bench_read(spark: Any, servers: str, topic: str, count: int, runs: int, timings: str,
               isolation: str = "read_uncommitted", warmup_runs: int = 0) -> Dict[str, Any]:
    df = spark.read.format("kafkawire").option("kafka.bootstrap.servers", servers).option("subscribe", topic) \
        .option("kafka.isolation.level", isolation).load()
    warm = {topic: {str(p): min(1000, count // PARTITIONS) for p in range(PARTITIONS)}}
    spark.read.format("kafkawire").option("kafka.bootstrap.servers", servers).option("subscribe", topic) \
        .option("endingOffsets", json.dumps(warm)).load().count()  # starts the Python workers
    for _ in range(warmup_runs):  # full-size runs, untimed, for the JVMs' JIT
        df.count()
    results = []
    for _ in range(runs):
        _reset(timings)
        before = snapshot()
        started = time.perf_counter()
        seen = df.count()
        wall = time.perf_counter() - started
        cpu = cpu_shares(before, snapshot())
        if seen != count:
            raise SystemExit("read %d records, expected %d" % (seen, count))
        tasks = _tasks(timings, "read")
        results.append({"wall_s": wall, "rate": count / wall, "tasks": len(tasks),
                        "client_s": sum(t["client_s"] for t in tasks), "arrow_s": sum(t["arrow_s"] for t in tasks),
                        "task_s": sum(t["task_s"] for t in tasks),
                        "worker_cpu_us_per_record": 1e6 * sum(t["cpu_s"] for t in tasks) / count, "cpu": cpu,
                        "frozen_workers": _frozen_workers(tasks)})
    return _summary(results)


def bench_write(spark: Any, servers: str, count: int, runs: int, timings: str,
                warmup_runs: int = 0) -> Dict[str, Any]:
    results = []
    df = spark.range(0, count, numPartitions=PARTITIONS) \
        .selectExpr("CAST(lpad(CAST(id AS STRING), %d, 'x') AS BINARY) AS value" % VALUE_SIZE).cache()
    df.count()  # the rows to write are computed before the clock starts
    # Starts the Python workers and their producers, one task per partition so that every executor does.
    warm = _create(servers, PARTITIONS)
    spark.range(0, 1000 * PARTITIONS, numPartitions=PARTITIONS).selectExpr("CAST(id AS STRING) AS value").write \
        .format("kafkawire").mode("append").option("kafka.bootstrap.servers", servers).option("topic", warm).save()
    for _ in range(warmup_runs):  # full-size runs, untimed, for the JVMs' JIT
        df.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers", servers) \
            .option("topic", warm).save()
    for _ in range(runs):
        topic = _create(servers, PARTITIONS)
        _reset(timings)
        before = snapshot()
        started = time.perf_counter()
        df.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers", servers) \
            .option("topic", topic).save()
        wall = time.perf_counter() - started
        cpu = cpu_shares(before, snapshot())
        tasks = _tasks(timings, "write")
        written = sum(t["rows"] for t in tasks)
        if written != count:
            raise SystemExit("wrote %d rows, expected %d" % (written, count))
        results.append({"wall_s": wall, "rate": count / wall, "tasks": len(tasks),
                        "send_s": sum(t["send_s"] for t in tasks), "flush_s": sum(t["flush_s"] for t in tasks),
                        "task_s": sum(t["task_s"] for t in tasks),
                        "worker_cpu_us_per_row": 1e6 * sum(t.get("cpu_s", 0.0) for t in tasks) / count, "cpu": cpu,
                        "frozen_workers": _frozen_workers(tasks)})
    df.unpersist()
    return _summary(results)


def bench_stream(spark: Any, servers: str, seconds: float, checkpoint: str) -> Dict[str, Any]:
    from kafka.producer import KafkaProducer

    topic = _create(servers, 1)
    latencies: List[float] = []

    def each_batch(batch_df: Any, batch_id: int) -> None:
        now = time.time() * 1000.0
        for row in batch_df.selectExpr("unix_millis(timestamp) AS ts").collect():
            latencies.append(now - row.ts)

    query = spark.readStream.format("kafkawire").option("kafka.bootstrap.servers", servers) \
        .option("subscribe", topic).option("startingOffsets", "latest").load() \
        .writeStream.foreachBatch(each_batch).option("checkpointLocation", checkpoint) \
        .trigger(processingTime="0 seconds").start()
    stop = threading.Event()
    try:
        while not query.recentProgress:
            time.sleep(0.1)
        with KafkaProducer(bootstrap_servers=servers, acks=1, linger_ms=0) as producer:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not stop.is_set():
                producer.send(topic, b"ping", partition=0).get(10)
                time.sleep(0.05)
        time.sleep(3)
    finally:
        query.stop()
    batches = [p for p in query.recentProgress if p["numInputRows"] > 0]
    phases: Dict[str, List[float]] = {}
    for progress in batches:
        for phase, ms in progress["durationMs"].items():
            phases.setdefault(phase, []).append(ms)
    latencies.sort()
    return {
        "records": len(latencies),
        "latency_ms_median": statistics.median(latencies) if latencies else None,
        "latency_ms_p95": latencies[int(len(latencies) * 0.95)] if latencies else None,
        "batches": len(batches),
        "trigger_ms_median": {k: statistics.median(v) for k, v in sorted(phases.items())},
    }


def _frozen_workers(tasks: List[Dict[str, Any]]) -> str:
    """How many of the Python worker processes that ran ``tasks`` had frozen their long-lived objects
    (see :func:`kafka.spark.worker.freeze_long_lived`)."""
    frozen: Dict[int, bool] = {}
    for task in tasks:
        frozen[task["pid"]] = frozen.get(task["pid"], False) or task.get("frozen", 0) > 0
    return "%d of %d" % (sum(frozen.values()), len(frozen))


def _summary(results: List[Dict[str, Any]]) -> Dict[str, Any]:
    best = sorted(results, key=lambda r: r["rate"])[len(results) // 2]  # the median run
    per_record = [{kind: round(1e6 * r["cpu"][kind] / (r["rate"] * r["wall_s"]), 2)
                   for kind in ("machine", "jvm", "jvm_jit")} for r in results if "cpu" in r]
    return dict(best, rates=[round(r["rate"]) for r in results], cpu_us_per_record=per_record)


def _session(master: str, work: str, repo: str) -> Any:
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(master).appName("kafkawire-bench") \
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4") \
        .config("spark.local.dir", work).config("spark.driver.host", "127.0.0.1") \
        .config("spark.driver.bindAddress", "127.0.0.1").config("spark.executorEnv.PYTHONPATH", repo) \
        .config("spark.executorEnv." + TIMINGS_ENV, os.environ[TIMINGS_ENV])
    if master.startswith("spark://"):
        builder = builder.config("spark.executor.cores", "1").config("spark.cores.max", "2") \
            .config("spark.executor.memory", "1g")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    kafka.spark.register(spark)
    if master.startswith("spark://"):
        deadline = time.monotonic() + 120
        while spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() < 3:  # the driver + 2 executors
            if time.monotonic() > deadline:
                raise SystemExit("the executors did not register within 120 s")
            time.sleep(0.2)
    return spark


def _bench_on(spark: Any, servers: str, topic: str, args: Any, timings: str, work: str) -> Dict[str, Any]:
    report: Dict[str, Any] = {}
    if "read" not in args.skip:
        for isolation in ISOLATION_LEVELS[args.isolation_level]:
            name = "batch_read" if isolation == "read_uncommitted" else "batch_read_committed"
            report[name] = bench_read(spark, servers, topic, args.records, args.runs, timings, isolation,
                                      args.warmup_runs)
    if "write" not in args.skip:
        report["batch_write"] = bench_write(spark, servers, args.records, args.runs, timings, args.warmup_runs)
    if "stream" not in args.skip:
        report["streaming"] = bench_stream(spark, servers, args.stream_seconds,
                                           tempfile.mkdtemp(prefix="ckpt-", dir=work))
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warmup-runs", type=int, default=0,
                        help="full-size batch reads and writes run untimed before the measured ones, so that "
                             "these show a long-running application whose JVMs have compiled Spark's hot code")
    parser.add_argument("--bootstrap-servers", help="default: an embedded broker")
    parser.add_argument("--stream-seconds", type=float, default=10.0)
    parser.add_argument("--master", choices=["local", "cluster", "both"], default="both",
                        help="local[2], a standalone cluster of two one-core workers on 127.0.0.1, or both")
    parser.add_argument("--skip", action="append", default=[], choices=["read", "write", "stream", "client"])
    parser.add_argument("--isolation-level", choices=sorted(ISOLATION_LEVELS), default="read_uncommitted",
                        help="of the batch reads (both: the two, one after the other, on the same topic)")
    parser.add_argument("--lengths", help="MIN-MAX: the read topic's value lengths spread evenly over this "
                                          "range (default: all %d bytes)" % VALUE_SIZE)
    parser.add_argument("--keyed", action="store_true", help="the read topic's records have keys of 8-36 bytes")
    args = parser.parse_args()
    shortest, longest = (int(v) for v in args.lengths.split("-")) if args.lengths else (VALUE_SIZE, VALUE_SIZE)
    lengths = (shortest, longest)

    kafka.spark.configure_python()
    work = tempfile.mkdtemp(prefix="kafkawire-bench-spark-")
    timings = os.path.join(work, "timings.jsonl")
    os.environ[TIMINGS_ENV] = timings  # inherited by Spark's Python workers
    repo = os.path.dirname(HERE)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (repo, os.environ.get("PYTHONPATH")) if p)

    report: Dict[str, Any] = {"records": args.records, "value_bytes": "%d-%d" % lengths, "keyed": args.keyed,
                              "partitions": PARTITIONS, "python": sys.version.split()[0]}
    with contextlib.ExitStack() as stack:
        servers = args.bootstrap_servers
        if servers is None:
            from kafka.testing import EmbeddedBroker

            servers = stack.enter_context(EmbeddedBroker()).bootstrap_servers
        topic = _create(servers, PARTITIONS)
        if "read" not in args.skip or "client" not in args.skip:
            report["fill_s"] = round(_fill(servers, topic, args.records, lengths, args.keyed), 2)
        if "client" not in args.skip:
            report["client_alone_records_per_s"] = {k: round(v) for k, v in
                                                    _client_alone(servers, topic, args.records).items()}
        for name in (("local", "cluster") if args.master == "both" else (args.master,)):
            with contextlib.ExitStack() as on_master:
                if name == "local":
                    master = "local[2]"
                else:
                    from kafka.testing.spark_cluster import SparkStandaloneCluster

                    master = on_master.enter_context(SparkStandaloneCluster(workers=2, memory="2g")).url
                spark = _session(master, work, repo)
                on_master.callback(spark.stop)
                report[name] = dict(master=master, **_bench_on(spark, servers, topic, args, timings, work))
    print(json.dumps(report, indent=2, default=lambda v: round(v, 3) if isinstance(v, float) else str(v)))
    for name in ("local", "cluster"):
        if name in report:
            print("-- %s (%s)" % (name, report[name]["master"]))
            _explain(report[name])


def _explain(report: Dict[str, Any]) -> None:
    for name in ("batch_read", "batch_read_committed"):
        if name in report:
            _explain_read(name.replace("_", " "), report[name])
    write = report.get("batch_write")
    if write:
        print("batch write: %d rows/s (median of %s); tasks %.1f s in total: send %.1f s, final flush %.1f s, "
              "waiting for Spark's rows %.1f s"
              % (write["rate"], write["rates"], write["task_s"], write["send_s"], write["flush_s"],
                 write["task_s"] - write["send_s"] - write["flush_s"]))
        print("  the Python workers' CPU: %.2f us per row (the writer's threads, and Spark's handing over of "
              "the rows); workers with their long-lived objects frozen: %s"
              % (write["worker_cpu_us_per_row"], write["frozen_workers"]))
        _explain_cpu("  ", write)


def _explain_read(what: str, read: Dict[str, Any]) -> None:
    print("%s: %d records/s (median of %s); tasks busy %.1f s in total on 2 cores for %.1f s wall: "
          "our client (fetch + decode) %.1f s (%.0f%%), Arrow building %.1f s (%.0f%%), the rest of the tasks' time "
          "(Spark consuming the batches) %.1f s"
          % (what, read["rate"], read["rates"], read["task_s"], read["wall_s"], read["client_s"],
             100 * read["client_s"] / read["task_s"], read["arrow_s"], 100 * read["arrow_s"] / read["task_s"],
             read["task_s"] - read["client_s"] - read["arrow_s"]))
    print("%s: Python workers' CPU %.2f us per record (our decoding and Spark's handling of the "
          "batches in the worker); workers with their long-lived objects frozen: %s"
          % (what, read["worker_cpu_us_per_record"], read["frozen_workers"]))
    _explain_cpu("%s: " % what, read)


def _explain_cpu(prefix: str, run: Dict[str, Any]) -> None:
    """The machine's CPU during the median run: how full the cores were, and who used them."""
    cpu = run["cpu"]
    available = cpu["cores"] * run["wall_s"]
    count = run["rate"] * run["wall_s"]
    print("%sthe machine's CPU during the median run: %.1f of %.1f core-seconds busy (%.0f%%); Spark's JVMs %.1f "
          "(their JIT compilers %.1f, garbage collectors %.1f), Python processes %.1f, the broker %.1f, the rest %.1f; "
          "all of it %.2f us per record"
          % (prefix, cpu["machine"], available, 100 * cpu["machine"] / available, cpu["jvm"], cpu["jvm_jit"],
             cpu["jvm_gc"], cpu["python"], cpu["broker"], cpu["machine"] - cpu["jvm"] - cpu["python"] - cpu["broker"],
             1e6 * cpu["machine"] / count))
    print("%severy run, CPU us per record: the machine %s, Spark's JVMs %s, of which their JIT compilers %s"
          % (prefix, [r["machine"] for r in run["cpu_us_per_record"]], [r["jvm"] for r in run["cpu_us_per_record"]],
             [r["jvm_jit"] for r in run["cpu_us_per_record"]]))


if __name__ == "__main__":
    main()
