"""``kafkawire perf produce|consume TOPIC``: measure throughput (and produce latency).

``perf produce`` sends ``--num-records`` records of ``--record-size`` bytes
as fast as the producer takes them; ``perf consume`` reads
``--num-records`` records from the beginning of every partition of the
topic, without a group. Both show progress on stderr and finish with one
summary line on stdout; MB means 2**20 bytes, as in Kafka's perf tools.
"""

from __future__ import annotations

import argparse
import random
import string
import sys
import time
from typing import Any, List, Optional

from kafka import errors
from kafka.cli import _common
from kafka.cli.options import add_bootstrap_option, add_timeout_option, command_description, split_servers
from kafka.cli.progress import Progress
from kafka.structs import TopicPartition

MB = 1024 * 1024


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``perf`` command and its ``produce`` and ``consume`` subcommands."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "perf", help="measure produce or consume throughput",
        description=command_description(__doc__) if __doc__ else None)
    modes = parser.add_subparsers(title="modes", dest="mode", metavar="MODE",
                                  parser_class=type(parser))
    modes.required = True
    produce = modes.add_parser("produce", help="send records as fast as possible",
                               description="Send --num-records records of --record-size bytes and report "
                                           "throughput and acknowledgement latency.")
    _common_options(produce)
    produce.add_argument("--record-size", type=_common.non_negative_int, required=True, metavar="BYTES",
                         help="size of each record's value")
    produce.add_argument("--partition", type=_common.non_negative_int, metavar="P",
                         help="send every record to partition P (default: sticky partitioning)")
    _common.add_producer_options(produce)
    consume = modes.add_parser("consume", help="read records as fast as possible",
                               description="Read --num-records records from the beginning of the topic "
                                           "and report throughput.")
    _common_options(consume)
    return parser


def _common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("topic", metavar="TOPIC", help="topic to use (must exist)")
    add_bootstrap_option(parser)
    parser.add_argument("--num-records", type=_common.positive_int, required=True, metavar="N",
                        help="how many records")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    add_timeout_option(parser)


def run(args: argparse.Namespace) -> int:
    """Run the chosen measurement; 0 when every record went through."""
    partitions = _common.topic_partitions(args.bootstrap_servers, args.topic, args.timeout)
    if args.mode == "produce":
        return _produce(args, partitions)
    return _consume(args, partitions)


def _summary(mode: str, records: int, size: int, seconds: float, extra: str = "") -> str:
    seconds = max(seconds, 1e-9)
    return "perf {0}: {1} records, {2:.2f} MB, {3:.2f} s, {4:.1f} records/s, {5:.2f} MB/s{6}".format(
        mode, records, size / MB, seconds, records / seconds, size / MB / seconds, extra)


def percentile(sorted_values: List[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``sorted_values`` lie (nearest rank)."""
    if not sorted_values:
        return 0.0
    rank = max(int(round(fraction * len(sorted_values) + 0.5)) - 1, 0)
    return sorted_values[min(rank, len(sorted_values) - 1)]


class _Latencies:
    """Acknowledgement latencies, recorded by the producer's callbacks."""

    def __init__(self, progress: Progress) -> None:
        self.values: List[float] = []
        self.failed = 0
        self.first_error: Optional[BaseException] = None
        self.progress = progress

    def acked(self, sent_at: float, metadata: Any) -> None:
        self.values.append(time.monotonic() - sent_at)
        self.progress.update(1)

    def error(self, exc: BaseException) -> None:
        self.failed += 1
        if self.first_error is None:
            self.first_error = exc
        self.progress.update(1)


def _produce(args: argparse.Namespace, partitions: List[int]) -> int:
    from kafka.producer import KafkaProducer

    if args.partition is not None and args.partition not in partitions:
        raise errors.UnknownTopicOrPartitionError("topic {0!r} has no partition {1}".format(
            args.topic, args.partition))
    settings = _common.producer_settings(args)
    # As Kafka's perf test: one random printable payload, sent over and over.
    payload = "".join(random.choice(string.ascii_uppercase) for _ in range(args.record_size)).encode("ascii")
    total = args.num_records
    progress = Progress(total, "produce", sys.stderr, enabled=not args.quiet)
    latencies = _Latencies(progress)
    producer = KafkaProducer(**settings)
    interrupted = False
    clock = time.monotonic
    started = clock()
    sent = 0
    try:
        send, topic, partition = producer.send, args.topic, args.partition
        acked, error = latencies.acked, latencies.error
        for _ in range(total):
            future = send(topic, payload, partition=partition)
            future.add_callback(acked, clock())
            future.add_errback(error)
            sent += 1
        producer.flush()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        producer.close(timeout=0 if interrupted else None)
        progress.close()
    elapsed = clock() - started
    if interrupted:
        raise KeyboardInterrupt
    values = sorted(latencies.values)
    ms = 1000.0
    avg = sum(values) / len(values) * ms if values else 0.0
    extra = ", latency avg {0:.2f} ms, p50 {1:.2f} ms, p99 {2:.2f} ms".format(
        avg, percentile(values, 0.50) * ms, percentile(values, 0.99) * ms)
    ok = len(values)
    sys.stdout.write(_summary("produce", ok, ok * args.record_size, elapsed, extra) + "\n")
    sys.stdout.flush()
    if latencies.failed:
        first = latencies.first_error
        raise errors.KafkaError("{0} of {1} records failed: {2}".format(
            latencies.failed, sent, first.args[0] if first is not None and first.args else first))
    return 0


def _consume(args: argparse.Namespace, partitions: List[int]) -> int:
    from kafka.consumer.modern import ModernKafkaConsumer

    total = args.num_records
    consumer = ModernKafkaConsumer(bootstrap_servers=split_servers(args.bootstrap_servers),
                             auto_offset_reset="earliest", enable_auto_commit=False,
                             request_timeout_ms=max(int(args.timeout * 1000), 1000))
    count = 0
    size = 0
    idle_limit = args.timeout
    with Progress(total, "consume", sys.stderr, enabled=not args.quiet) as progress:
        try:
            tps = [TopicPartition(args.topic, p) for p in partitions]
            consumer.assign(tps)
            consumer.seek_to_beginning(*tps)
            started = last_record = time.monotonic()
            while count < total:
                batches = consumer.poll(timeout_ms=200, max_records=total - count)
                now = time.monotonic()
                if not batches:
                    if now - last_record >= idle_limit:
                        break
                    continue
                last_record = now
                got = 0
                for records in batches.values():
                    got += len(records)
                    for record in records:
                        size += max(record.serialized_value_size, 0) + max(record.serialized_key_size, 0)
                count += got
                progress.update(got)
            elapsed = (last_record if count else time.monotonic()) - started
        finally:
            consumer.close(autocommit=False)
    sys.stdout.write(_summary("consume", count, size, elapsed) + "\n")
    sys.stdout.flush()
    if count < total:
        raise errors.KafkaTimeoutError("only {0} of {1} records arrived (none for {2:g} s)".format(
            count, total, idle_limit))
    return 0
