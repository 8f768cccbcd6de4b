"""Measurement child of ``benchmarks/consumer.py``; not meant to be run by hand.

Reads ``--records`` records from partition 0 of an existing one-partition
topic (filled by the parent) with one client, and prints one JSON object:
the timed figures, how many records were read, the offsets and value digests
of the first and last record (the parent checks them against what it wrote),
and the process's peak resident memory.

Clock marks, all taken in this process:

* ``start``: just before the consumer object is created (imports done);
* ``first``: when the first record is in the application's hands (connecting,
  metadata, the offset lookup, and in ``--mode group`` joining the group all
  happen before it);
* ``timed``: when the clock starts -- at the end of the first poll that
  brings the count to ``--warmup`` records or more (default 0: the first
  poll that returned any); when iterating, at record ``max(warmup, 1)``;
* ``end``: when the N-th record is in the application's hands.

Throughput is the records received after ``timed`` over ``end - timed``;
CPU time (user + system, all threads of the process) is taken over the same
span.  ``first - start`` is reported separately.

Every client stops at ``--timeout`` seconds after ``start`` (checked between
polls, and every 1,024 records when iterating), so a stalled client reports
the records it did read instead of hanging; the parent also kills a child
that overruns by a minute.

Verification costs O(1) per poll: each returned batch of records must start
at the next expected offset and end ``len - 1`` offsets later (this also
catches an error event in the middle of a confluent-kafka batch).  When
iterating, every record's offset is compared with the count.

Every batch style (``poll``/``getmany``/``consume``) hands what one call
returned to a :class:`Tally` method (:meth:`Tally.poll_result`,
:meth:`Tally.consume_result`) and keeps no reference to it, so each
client's records are released before its next call.  Keeping the previous
batch alive while the next one is built costs any client time (two
batches' worth of memory in use instead of one: about 0.05 µs per record
with 10,000 100-byte records per call on CPython), so every client must be
measured the same way.

``--client ours`` measures ``kafka.consumer`` from this repository (put on
``PYTHONPATH`` by the parent); ``kafka-python`` must run in kafka-python's
own environment with ``python -I`` so that its ``kafka`` is the one imported;
``aiokafka`` and ``confluent`` run wherever they are installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import resource
import sys
import time
import traceback
from typing import Any, Callable, Dict, List, Optional


def peak_rss_kb() -> int:
    """Peak resident set of this process (VmHWM), in KiB."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:  # pragma: no cover - not Linux
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def cpu_seconds() -> float:
    """User + system time of the whole process (application and I/O threads).

    ``getrusage`` rather than ``os.times``: the latter counts 10 ms clock ticks.
    """
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def digest(value: Optional[bytes]) -> Optional[str]:
    return None if value is None else hashlib.sha1(value).hexdigest()


class Skip(Exception):
    """The client cannot run this configuration here (e.g. no group support)."""


class Tally:
    """What a runner saw: clock marks, counts and the first and last record."""

    def __init__(self, total: int, timeout: float, warmup: int = 0) -> None:
        self.total = total
        self.warmup = warmup
        self.count = 0
        self.polls = 0
        self.empty_polls = 0
        self.error: Optional[str] = None
        self.timeout = timeout
        self.t_start = time.perf_counter()
        self.deadline = self.t_start + timeout
        self.t_first: Optional[float] = None
        self.t_timed: Optional[float] = None
        self.cpu_timed = 0.0
        self.count_at_timed = 0
        self.t_end: Optional[float] = None
        self.cpu_end = 0.0
        self.first: Optional[tuple] = None  # (offset, value)
        self.last: Optional[tuple] = None
        self.version = ""

    def restart(self) -> None:
        """Call right before creating the consumer."""
        self.t_start = time.perf_counter()
        self.deadline = self.t_start + self.timeout

    def mark_first(self, offset: int, value: Optional[bytes]) -> None:
        """The first record is in the application's hands."""
        self.t_first = time.perf_counter()
        self.first = (offset, value)

    def mark_timed(self, count: int) -> None:
        """The clock starts: ``count`` records (at least ``warmup``, at least one batch) are in hand."""
        self.t_timed = time.perf_counter()
        self.cpu_timed = cpu_seconds()
        self.count_at_timed = count

    def add(self, n: int) -> None:
        """A batch of ``n`` records was received (poll styles)."""
        self.count += n
        if self.t_timed is None and self.count >= self.warmup:
            self.mark_timed(self.count)

    def mark_end(self) -> None:
        self.t_end = time.perf_counter()
        self.cpu_end = cpu_seconds()

    def batch(self, n: int, first_offset: int, last_offset: int) -> bool:
        """Check one returned batch of ``n`` records; False (and ``error`` set) if it is wrong."""
        expect = self.count
        if first_offset != expect or last_offset != expect + n - 1:
            self.error = "records out of sequence: got offsets %d..%d (%d records) after %d records" % (
                first_offset, last_offset, n, expect)
            return False
        return True

    def poll_result(self, batches: Dict[Any, Any]) -> bool:
        """Count what one poll/getmany returned (partition -> records); False (and ``error`` set) if wrong."""
        self.polls += 1
        if not batches:
            self.empty_polls += 1
            return True
        for records in batches.values():
            n = len(records)
            first = records[0]
            last = records[-1]
            if not self.batch(n, first.offset, last.offset):
                return False
            if self.t_first is None:
                self.mark_first(first.offset, first.value)
            self.add(n)
            self.last = (last.offset, last.value)
        return True

    def consume_result(self, messages: List[Any]) -> bool:
        """Count what one confluent-kafka ``consume()`` returned; False (and ``error`` set) if wrong.

        The confluent-kafka counterpart of :meth:`poll_result`: the same
        fields are read (offsets of the first and last record, the value of
        the first and last), plus ``error()`` of both ends.
        """
        self.polls += 1
        if not messages:
            self.empty_polls += 1
            return True
        first = messages[0]
        last = messages[-1]
        if first.error() is not None or last.error() is not None:
            self.error = "consume() returned an error: %s" % (first.error() or last.error())
            return False
        n = len(messages)
        if not self.batch(n, first.offset(), last.offset()):
            return False
        if self.t_first is None:
            self.mark_first(first.offset(), first.value())
        self.add(n)
        self.last = (last.offset(), last.value())
        return True

    def result(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"read": self.count, "polls": self.polls, "empty_polls": self.empty_polls}
        if self.t_first is not None:
            out["first_seconds"] = self.t_first - self.t_start
            out["first_offset"] = self.first[0] if self.first else None
            out["first_value_sha1"] = digest(self.first[1]) if self.first else None
        if self.t_end is not None and self.t_timed is not None and self.count > self.count_at_timed:
            out["seconds"] = self.t_end - self.t_timed
            out["cpu_seconds"] = self.cpu_end - self.cpu_timed
            out["timed_records"] = self.count - self.count_at_timed
            out["total_seconds"] = self.t_end - self.t_start
            out["last_offset"] = self.last[0] if self.last else None
            out["last_value_sha1"] = digest(self.last[1]) if self.last else None
        if self.error:
            out["error"] = self.error
        return out


# -- kafka-python style: ours and kafka-python --------------------------------------------------


def _poll_loop(consumer: Any, tally: Tally, poll_records: int) -> None:
    """``poll(timeout_ms, max_records)`` until N records or the deadline."""
    total = tally.total
    poll = consumer.poll
    while tally.count < total:
        if time.perf_counter() > tally.deadline:
            tally.error = "timed out with %d of %d records read" % (tally.count, total)
            return
        if not tally.poll_result(poll(timeout_ms=1000, max_records=min(poll_records, total - tally.count))):
            return
    tally.mark_end()


def _iter_loop(consumer: Any, tally: Tally) -> None:
    """``for record in consumer`` until N records or the deadline."""
    total = tally.total
    count = 0
    record = None
    deadline = tally.deadline
    clock = time.perf_counter
    mark_at = max(tally.warmup, 1)
    for record in consumer:  # stops on its own after consumer_timeout_ms without records
        if record.offset != count:
            tally.count = count
            tally.error = "record out of sequence: offset %d after %d records" % (record.offset, count)
            return
        count += 1
        if count <= mark_at:
            if count == 1:
                tally.mark_first(record.offset, record.value)
            if count == mark_at:
                tally.mark_timed(count)
        if count == total:
            break
        if not count & 1023 and clock() > deadline:
            break
    tally.count = count
    tally.polls = -1  # not observable when iterating
    if count == total and record is not None:
        tally.last = (record.offset, record.value)
        tally.mark_end()
    elif tally.error is None:
        tally.error = "iteration stopped with %d of %d records read" % (count, total)


def _sync_consumer(cls: Any, tp_cls: Any, args: argparse.Namespace, tally: Tally, configs: Dict[str, Any]) -> None:
    """Shared by ours and kafka-python: same constructor, assign/subscribe, poll or iterate."""
    common = dict(bootstrap_servers=args.bootstrap, auto_offset_reset="earliest", enable_auto_commit=False)
    if args.style == "iter":
        # Stop iterating when nothing arrives for half the budget (a stalled client must not
        # hang; a group join on Tansu takes ~23 s before the first record).
        common["consumer_timeout_ms"] = max(1000, int(args.timeout * 1000 / 2))
    common.update(configs)
    tally.restart()
    if args.mode == "group":
        if args.session_timeout_ms:
            common["session_timeout_ms"] = args.session_timeout_ms
            common["heartbeat_interval_ms"] = max(100, args.session_timeout_ms // 3)
        consumer = cls(group_id=args.group_id, **common)
        consumer.subscribe([args.topic])
    else:
        consumer = cls(**common)
        consumer.assign([tp_cls(args.topic, 0)])
    try:
        if args.style == "iter":
            _iter_loop(consumer, tally)
        else:
            _poll_loop(consumer, tally, args.poll_records)
    finally:
        consumer.close(autocommit=False)


def run_ours(args: argparse.Namespace, tally: Tally) -> None:
    import kafka
    from kafka import errors
    from kafka.consumer import KafkaConsumer
    from kafka.record import crc
    from kafka.structs import TopicPartition

    tally.version = "%s (%s)" % (getattr(kafka, "__version__", "?"),
                                 "crc32c package" if crc.CRC32C_ACCELERATED else "pure-Python CRC-32C")
    if args.codec != "none":
        from kafka.record import codecs

        try:
            codecs.ensure_available(args.codec)
        except Exception as exc:
            raise Skip(describe(exc))
    try:
        _sync_consumer(KafkaConsumer, TopicPartition, args, tally, {})
    except errors.KafkaConfigurationError as exc:
        if args.mode == "group" and tally.t_first is None:
            raise Skip("n/a: %s" % exc)
        raise


def run_kafka_python(args: argparse.Namespace, tally: Tally) -> None:
    import kafka
    from kafka import KafkaConsumer, TopicPartition

    try:
        import crc32c  # noqa: F401 - kafka-python uses it when present

        crc_impl = "crc32c package"
    except ImportError:
        crc_impl = "pure-Python CRC-32C"
    tally.version = "%s (%s)" % (kafka.__version__, crc_impl)
    if args.codec != "none":
        from kafka import codec

        check = getattr(codec, "has_" + args.codec, None)
        if check is None or not check():
            raise Skip("kafka-python cannot decompress %s here (library missing)" % args.codec)
    _sync_consumer(KafkaConsumer, TopicPartition, args, tally, {})


def run_aiokafka(args: argparse.Namespace, tally: Tally) -> None:
    """aiokafka: see _consume_aiokafka_api."""
    import aiokafka
    from aiokafka import AIOKafkaConsumer, TopicPartition

    tally.version = aiokafka.__version__
    if args.codec != "none":
        from aiokafka import codec

        check = getattr(codec, "has_" + args.codec, None)
        if check is None or not check():
            raise Skip("aiokafka cannot decompress %s here (library missing)" % args.codec)
    _consume_aiokafka_api(AIOKafkaConsumer, TopicPartition, args, tally)


def run_ours_aio(args: argparse.Namespace, tally: Tally) -> None:
    """kafkawire's asyncio consumer (``kafka.aio.AIOKafkaConsumer``), with aiokafka's benchmark code unchanged."""
    import kafka
    import kafka.aio

    tally.version = "%s (kafka.aio)" % getattr(kafka, "__version__", "?")
    _consume_aiokafka_api(kafka.aio.AIOKafkaConsumer, kafka.aio.TopicPartition, args, tally)


def _consume_aiokafka_api(AIOKafkaConsumer: Any, TopicPartition: Any, args: argparse.Namespace,
                          tally: Tally) -> None:
    """``getmany(timeout_ms, max_records)`` on the default asyncio loop (``async for`` with ``--style iter``)."""
    import asyncio

    async def read(consumer: Any) -> None:
        total = tally.total
        if args.style == "iter":
            tally.polls = -1  # not observable when iterating
            mark_at = max(tally.warmup, 1)
            async for record in consumer:
                if record.offset != tally.count:
                    tally.error = "record out of sequence: offset %d after %d records" % (record.offset, tally.count)
                    return
                tally.count += 1
                if tally.count <= mark_at:
                    if tally.count == 1:
                        tally.mark_first(record.offset, record.value)
                    if tally.count == mark_at:
                        tally.mark_timed(tally.count)
                if tally.count == total:
                    tally.last = (record.offset, record.value)
                    tally.mark_end()
                    return
            return
        getmany = consumer.getmany
        while tally.count < total:
            # No local keeps the batch (see the module's text).
            if not tally.poll_result(await getmany(timeout_ms=1000,
                                                   max_records=min(args.poll_records, total - tally.count))):
                return
        tally.mark_end()

    async def main() -> None:
        common = dict(bootstrap_servers=args.bootstrap, auto_offset_reset="earliest", enable_auto_commit=False)
        tally.restart()
        if args.mode == "group":
            if args.session_timeout_ms:
                common["session_timeout_ms"] = args.session_timeout_ms
                common["heartbeat_interval_ms"] = max(100, args.session_timeout_ms // 3)
            consumer = AIOKafkaConsumer(args.topic, group_id=args.group_id, **common)
            await consumer.start()
        else:
            consumer = AIOKafkaConsumer(**common)
            await consumer.start()
            consumer.assign([TopicPartition(args.topic, 0)])
        try:
            # One deadline around the whole read: no per-record cost, and a stall cannot hang the child.
            await asyncio.wait_for(read(consumer), max(tally.deadline - time.perf_counter(), 0.001))
        except asyncio.TimeoutError:
            tally.error = "timed out with %d of %d records read" % (tally.count, tally.total)
        finally:
            await consumer.stop()

    asyncio.run(main())


def run_confluent(args: argparse.Namespace, tally: Tally) -> None:
    """confluent-kafka: see _confluent_api."""
    import confluent_kafka

    tally.version = "%s (librdkafka %s)" % (confluent_kafka.__version__, confluent_kafka.libversion()[0])
    _confluent_api(confluent_kafka, args, tally)


def run_ours_confluent(args: argparse.Namespace, tally: Tally) -> None:
    """kafkawire's confluent-kafka API (``kafka.confluent``) on this checkout: see _confluent_api."""
    import kafka
    import kafka.confluent

    tally.version = "%s (kafka.confluent, API %s)" % (getattr(kafka, "__version__", "?"),
                                                      kafka.confluent.version())
    if args.codec != "none":
        from kafka.record import codecs

        try:
            codecs.ensure_available(args.codec)
        except Exception as exc:
            raise Skip(describe(exc))
    # Imported as confluent_kafka, as an unchanged confluent-kafka program would run on it.
    kafka.confluent.install_as_confluent_kafka()
    import confluent_kafka

    assert confluent_kafka is kafka.confluent
    _confluent_api(confluent_kafka, args, tally)


def _poll_one_loop(consumer: Any, tally: Tally) -> None:
    """``poll(timeout)`` per message until N records or the deadline."""
    total = tally.total
    poll = consumer.poll
    count = 0
    message = None
    clock = time.perf_counter
    deadline = tally.deadline
    mark_at = max(tally.warmup, 1)
    while count < total:
        message = poll(1.0)
        if message is None:
            tally.empty_polls += 1
            if clock() > deadline:
                tally.count = count
                tally.error = "timed out with %d of %d records read" % (count, total)
                return
            continue
        if message.error() is not None:
            tally.count = count
            tally.error = "poll() returned an error: %s" % message.error()
            return
        if message.offset() != count:
            tally.count = count
            tally.error = "record out of sequence: offset %d after %d records" % (message.offset(), count)
            return
        count += 1
        if count <= mark_at:
            if count == 1:
                tally.mark_first(message.offset(), message.value())
            if count == mark_at:
                tally.mark_timed(count)
        if not count & 1023 and clock() > deadline:
            tally.count = count
            tally.error = "timed out with %d of %d records read" % (count, total)
            return
    tally.count = count
    tally.polls = count + tally.empty_polls
    if message is not None:
        tally.last = (message.offset(), message.value())
    tally.mark_end()


def _confluent_api(module: Any, args: argparse.Namespace, tally: Tally) -> None:
    """``consume(num_messages, timeout)`` (style poll) or ``poll(timeout)`` per message (style poll1).

    librdkafka's defaults except fetch.queue.backoff.ms (ignored by kafka.confluent).
    """
    OFFSET_BEGINNING, Consumer, TopicPartition = module.OFFSET_BEGINNING, module.Consumer, module.TopicPartition
    if args.style == "iter":
        raise Skip("the confluent-kafka API has no iteration")
    config = {
        "bootstrap.servers": args.bootstrap,
        # Required by the Python binding even for assign(); no offsets are committed.
        "group.id": args.group_id,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,
    }
    if args.confluent_backoff_ms >= 0:
        config["fetch.queue.backoff.ms"] = args.confluent_backoff_ms
    if args.mode == "group" and args.session_timeout_ms:
        config["session.timeout.ms"] = args.session_timeout_ms
        config["heartbeat.interval.ms"] = max(100, args.session_timeout_ms // 3)
    tally.restart()
    consumer = Consumer(config)
    if args.mode == "group":
        consumer.subscribe([args.topic])
    else:
        consumer.assign([TopicPartition(args.topic, 0, OFFSET_BEGINNING)])
    try:
        if args.style == "poll1":
            _poll_one_loop(consumer, tally)
            return
        total = tally.total
        consume = consumer.consume
        while tally.count < total:
            if time.perf_counter() > tally.deadline:
                tally.error = "timed out with %d of %d records read" % (tally.count, total)
                return
            # No local keeps the batch (see the module's text).
            if not tally.consume_result(consume(num_messages=min(args.poll_records, total - tally.count),
                                                timeout=1.0)):
                return
        tally.mark_end()
    finally:
        consumer.close()


RUNNERS: Dict[str, Callable[[argparse.Namespace, Tally], None]] = {
    "ours": run_ours,
    "kafka-python": run_kafka_python,
    "aiokafka": run_aiokafka,
    "ours-aio": run_ours_aio,
    "confluent": run_confluent,
    "ours-confluent": run_ours_confluent,
}


def describe(exc: BaseException) -> str:
    text = str(exc) or "(no message)"
    name = type(exc).__name__
    return text if text.startswith(name) else "%s: %s" % (name, text)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--client", choices=sorted(RUNNERS), required=True)
    parser.add_argument("--style", choices=("poll", "iter", "poll1"), default="poll")
    parser.add_argument("--mode", choices=("assign", "group"), default="assign")
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--group-id", required=True)
    parser.add_argument("--records", type=int, required=True)
    parser.add_argument("--codec", default="none")
    parser.add_argument("--poll-records", type=int, default=500,
                        help="max_records / num_messages per poll")
    parser.add_argument("--confluent-backoff-ms", type=int, default=10,
                        help="librdkafka fetch.queue.backoff.ms (-1: its default)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds allowed from start to the N-th record")
    parser.add_argument("--session-timeout-ms", type=int, default=0,
                        help="group mode: session timeout (and a third of it as heartbeat interval); 0: each client's default")
    parser.add_argument("--warmup", type=int, default=0,
                        help="records read before the clock starts (it starts after the first batch anyway)")
    parser.add_argument("--profile", default=None, help="write a cProfile of the run to this file (scratch use)")
    args = parser.parse_args()

    result: Dict[str, Any] = {
        "client": args.client,
        "style": args.style,
        "mode": args.mode,
        "python": "%s %s" % (platform.python_implementation(), platform.python_version()),
        "records": args.records,
        "codec": args.codec,
    }
    tally = Tally(args.records, args.timeout, args.warmup)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    try:
        RUNNERS[args.client](args, tally)
        result.update(tally.result())
        if tally.count != args.records and "error" not in result:
            result["error"] = "read %d of %d records" % (tally.count, args.records)
    except Skip as exc:
        result["skipped"] = str(exc)
    except Exception as exc:
        result.update(tally.result())
        result["error"] = describe(exc)
        traceback.print_exc(file=sys.stderr)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    result["version"] = tally.version
    result["peak_rss_kb"] = peak_rss_kb()
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
