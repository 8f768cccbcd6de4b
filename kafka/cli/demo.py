"""``python -m kafka demo``: the main job, end to end on one machine.

Starts the embedded broker unless ``--bootstrap-server`` names a cluster,
creates the topics with the admin client, produces a stream of JSON events
with a progress bar, reads them back, runs the Spark batch and streaming
pipelines of :mod:`kafka.spark.pipeline` over them (when pyspark is
installed), reads the aggregates the pipelines wrote, checks them against
the same aggregation done in plain Python and prints a short report.

Spark's JVM writes to a log file (``--spark-log``, default a new file in the
temporary directory), not to the terminal; the report names the file.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from typing import Any, Callable, Dict, List, Tuple

from kafka.admin import KafkaAdminClient, NewTopic
from kafka.cli.progress import Progress
from kafka.consumer.modern import ModernKafkaConsumer
from kafka.errors import KafkaError
from kafka.producer import KafkaProducer
from kafka.spark.pipeline import expected_aggregates, make_event
from kafka.structs import TopicPartition

Aggregates = Dict[Tuple[str, str], Dict[str, Any]]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "demo", help="run the main job: events through Kafka and the Spark pipelines",
        description=__doc__.split("\n\n")[1] if __doc__ else None)
    parser.add_argument("--bootstrap-server", "--bootstrap-servers", dest="bootstrap_servers", default=None,
                        metavar="HOST:PORT[,HOST:PORT...]",
                        help="a cluster to run against (default: start the embedded broker)")
    parser.add_argument("--events", type=int, default=100000, help="JSON events to produce (default: %(default)s)")
    parser.add_argument("--partitions", type=int, default=2, help="partitions of the events topic (default: 2)")
    parser.add_argument("--compression", default="lz4", choices=["none", "gzip", "snappy", "lz4", "zstd"],
                        help="codec of the produced batches (default: %(default)s)")
    parser.add_argument("--no-spark", action="store_true", help="skip the Spark pipelines")
    parser.add_argument("--spark-log", metavar="PATH", default=None,
                        help="file for the output of Spark's JVM (default: a new kafkawire-demo-spark-*.log "
                             "in the temporary directory); kept after the run")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def run(args: argparse.Namespace) -> int:
    if args.events <= 0:
        raise KafkaError("--events must be positive")
    if args.partitions <= 0:
        raise KafkaError("--partitions must be positive")
    broker = None
    try:
        bootstrap = args.bootstrap_servers
        if not bootstrap:
            from kafka.testing import EmbeddedBroker

            broker = EmbeddedBroker().start()
            bootstrap = broker.bootstrap_servers
            _say("embedded broker started at %s" % bootstrap)
        return _main_job(args, bootstrap)
    finally:
        if broker is not None:
            broker.stop()


def _say(text: str) -> None:
    print(text, flush=True)


def _main_job(args: argparse.Namespace, bootstrap: str) -> int:
    run_id = uuid.uuid4().hex[:8]
    events_topic = "kafkawire-demo-events-%s" % run_id
    batch_topic = "kafkawire-demo-batch-%s" % run_id
    stream_topic = "kafkawire-demo-stream-%s" % run_id
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="kafkawire-demo")
    try:
        admin.create_topics([NewTopic(events_topic, args.partitions, 1), NewTopic(batch_topic, 1, 1),
                             NewTopic(stream_topic, 1, 1)])
    finally:
        admin.close()
    _say("topics created: %s (%d partitions), %s, %s" % (events_topic, args.partitions, batch_topic, stream_topic))

    events = [make_event(i) for i in range(args.events)]
    produce_rate = _produce(bootstrap, events_topic, events, args)
    read, read_rate = _read_back(bootstrap, events_topic, args.events)
    _say("produced %d events at %.0f events/s (%s); read %d back at %.0f events/s"
         % (args.events, produce_rate, args.compression, read, read_rate))
    ok = read == args.events
    expected = expected_aggregates(events)
    spark_log = None

    if args.no_spark:
        _say("Spark pipelines skipped (--no-spark)")
    elif not _pyspark_available():
        _say("Spark pipelines skipped: pyspark is not installed "
             "(pip install 'kafkawire[spark]'; Spark needs Java 17)")
    else:
        spark_log = args.spark_log or _new_log_file()
        try:
            ok = _spark_part(bootstrap, events_topic, batch_topic, stream_topic, expected, spark_log) and ok
        except BaseException:
            _say("Spark's log: %s" % spark_log)
            raise
    _print_table(expected)
    if spark_log:
        _say("Spark's log: %s" % spark_log)
    _say("result: %s" % ("OK" if ok else "FAILED"))
    return 0 if ok else 1


def _produce(bootstrap: str, topic: str, events: List[Dict[str, Any]], args: argparse.Namespace) -> float:
    compression = None if args.compression == "none" else args.compression
    started = time.perf_counter()
    with KafkaProducer(bootstrap_servers=bootstrap, compression_type=compression, linger_ms=5) as producer:
        futures = []
        with Progress(len(events), "produce", stream=sys.stderr, enabled=not args.quiet) as progress:
            step = max(1, len(events) // 100)
            for i, event in enumerate(events):
                futures.append(producer.send(topic, key=event["user"].encode(),
                                             value=json.dumps(event, separators=(",", ":")).encode()))
                if (i + 1) % step == 0:
                    progress.update(step)
            producer.flush(120)
            progress.update(len(events) - (len(events) // step) * step)
        failed = [f for f in futures if not f.succeeded()]
        if failed:
            raise KafkaError("%d events were not delivered: %s" % (len(failed), failed[0].exception))
    return len(events) / (time.perf_counter() - started)


def _read_topic(bootstrap: str, topic: str, count: int, timeout: float,
                handle: Callable[[List[Any]], None]) -> Tuple[int, float]:
    """Read ``count`` records from the start of ``topic``, each poll's records passed to ``handle``.

    Stops early when ``timeout`` s pass; returns the records read and the
    seconds it took, counted from the assignment (not from creating the
    consumer).
    """
    consumer = ModernKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, auto_offset_reset="earliest")
    try:
        consumer.assign([TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())])
        started = time.perf_counter()
        read, deadline = 0, time.monotonic() + timeout
        while read < count and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                read += len(records)
                handle(records)
        return read, time.perf_counter() - started
    finally:
        consumer.close()


def _read_back(bootstrap: str, topic: str, count: int) -> Tuple[int, float]:
    """How many of the ``count`` events came back, and at what rate."""
    read, seconds = _read_topic(bootstrap, topic, count, 120, lambda records: None)
    return read, read / max(seconds, 1e-9)


def _read_aggregates(bootstrap: str, topic: str, expected_count: int) -> Aggregates:
    """Every aggregate record of ``topic``, summed per (user, action) (a stream writes one per micro-batch)."""
    totals: Aggregates = {}

    def add(records: List[Any]) -> None:
        for record in records:
            row = json.loads(record.value)
            total = totals.setdefault((row["user"], row["action"]), {"events": 0, "amount": 0.0})
            total["events"] += row["events"]
            total["amount"] = round(total["amount"] + row["amount"], 2)

    _read_topic(bootstrap, topic, expected_count, 60, add)
    return totals


def _pyspark_available() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in ("pyspark", "pyarrow"))


def _new_log_file() -> str:
    """The path of a new, empty file for Spark's log, left in place after the run."""
    fd, path = tempfile.mkstemp(prefix="kafkawire-demo-spark-", suffix=".log")
    os.close(fd)
    return path


def _spark_part(bootstrap: str, events_topic: str, batch_topic: str, stream_topic: str,
                expected: Aggregates, log_path: str) -> bool:
    import kafka.spark
    from kafka.spark.pipeline import run_batch_pipeline, run_streaming_pipeline
    from kafka.spark.quiet_session import start_quiet_session

    kafka.spark.configure_python()
    work = tempfile.mkdtemp(prefix="kafkawire-demo-")
    started = time.perf_counter()
    try:
        spark = start_quiet_session("local[2]", "kafkawire-demo", {
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.shuffle.partitions": "2",
            "spark.local.dir": work,
            "spark.driver.extraJavaOptions": "-Dderby.system.home=" + work,
        }, log_path)
    except Exception as exc:  # pyspark's message is vague; the JVM's reason is in the log
        shutil.rmtree(work, ignore_errors=True)
        raise KafkaError("Spark did not start (see Spark's log): %s" % exc) from exc
    try:
        kafka.spark.register(spark)
        _say("Spark %s session ready in %.1f s" % (spark.version, time.perf_counter() - started))
        ok = True
        for name, topic, job in (
                ("batch", batch_topic,
                 lambda: run_batch_pipeline(spark, bootstrap, events_topic, batch_topic)),
                ("streaming", stream_topic,
                 lambda: run_streaming_pipeline(spark, bootstrap, events_topic, stream_topic, work + "/checkpoint"))):
            t0 = time.perf_counter()
            written = job()
            seconds = time.perf_counter() - t0
            got = _read_aggregates(bootstrap, topic, written)
            same = _same(got, expected)
            ok = ok and same
            _say("Spark %s pipeline: %d aggregate records written in %.1f s; %s"
                 % (name, written, seconds, "they match the events" if same else "THEY DO NOT MATCH"))
        return ok
    finally:
        spark.stop()
        shutil.rmtree(work, ignore_errors=True)


def _same(got: Aggregates, expected: Aggregates) -> bool:
    if set(got) != set(expected):
        return False
    return all(got[k]["events"] == expected[k]["events"] and abs(got[k]["amount"] - expected[k]["amount"]) < 0.01
               for k in expected)


def _print_table(aggregates: Aggregates, limit: int = 8) -> None:
    rows = sorted(aggregates.items(), key=lambda item: (-item[1]["amount"], item[0]))
    _say("")
    _say("top %d (user, action) by amount:" % min(limit, len(rows)))
    _say("%-10s %-8s %8s %12s" % ("user", "action", "events", "amount"))
    for (user, action), total in rows[:limit]:
        _say("%-10s %-8s %8d %12.2f" % (user, action, total["events"], total["amount"]))

