"""Measurement child of ``benchmarks/producer.py``; not meant to be run by hand.

Produces ``--records`` records (values of ``--value-size`` bytes, or the
shapes of ``--workload``) to an existing topic of ``--partitions``
partitions (default 1) with one client, and prints one JSON object:
the timed figures, how many records were acknowledged, and the process's
peak resident memory.

Every client first sends ``--warmup`` records and waits for them (metadata,
connections, imports and, on PyPy, part of the JIT warm-up happen there);
then the clock runs from the first timed send until the client reports the
last record acknowledged (``flush`` / gathering the futures).

``--client ours`` measures ``kafka.producer`` from this repository (put on
``PYTHONPATH`` by the parent); ``kafka-python`` must run in kafka-python's
own environment with ``python -I`` so that its ``kafka`` is the one imported;
``aiokafka`` and ``confluent`` run wherever they are installed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import sys
import time
import traceback
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

POOL = 1024  # distinct values, cycled; keeps the data set out of the client's RSS
_WORDS = (
    "kafka broker topic partition offset record batch producer consumer leader replica "
    "segment commit fetch linger acks compression latency throughput cluster metadata "
    "the of and to in is that for on with as by at from it this be are or an"
).split()


def make_values(size: int, count: int = POOL, spread: float = 0.0) -> List[bytes]:
    """Deterministic, text-like values (compress about like log lines), same for every client.

    Each is ``size`` bytes long, or with ``spread`` a length drawn uniformly
    from ``size * (1 - spread)`` to ``size * (1 + spread)`` (mean ``size``).
    """
    rng = random.Random(20240601)
    lengths = random.Random(20240602)
    low, high = max(1, round(size * (1 - spread))), round(size * (1 + spread))
    values = []
    for i in range(count):
        target = lengths.randint(low, high) if spread else size
        parts = [b"record-%08d:" % i]
        length = len(parts[0])
        while length < target:
            word = rng.choice(_WORDS).encode() + b" "
            if rng.random() < 0.15:
                word = b"%d " % rng.randrange(1 << 30)
            parts.append(word)
            length += len(word)
        values.append(b"".join(parts)[:target])
    return values


#: Record shapes of ``--workload``: value lengths (inclusive; None: exactly
#: ``--value-size``), whether records carry keys, whether they carry headers.
WORKLOADS: Dict[str, Tuple[Optional[Tuple[int, int]], bool, bool]] = {
    "fixed": (None, False, False),  # values of one size, null keys, no headers
    "small": ((50, 150), True, True),  # event-like: 50-150 B values, 8-36 B keys, 0-3 headers
    "large": ((200, 2000), True, True),  # 200-2,000 B values, keys and headers as "small"
    "keyed": ((50, 150), True, False),  # values and keys as "small", no headers
    "values": ((50, 150), False, False),  # values as "small", null keys, no headers
    "headers": ((50, 150), False, True),  # values and headers as "small", null keys
}
_HEADER_KEYS = ("trace-id", "content-type", "source", "schema-version")

Headers = Optional[List[Tuple[str, bytes]]]


class Shape(NamedTuple):
    """The pools of one workload, cycled by record number (``i & (POOL - 1)``)."""

    values: List[bytes]
    keys: Optional[List[bytes]]  # None: every key null
    headers: Optional[List[Headers]]  # None: no record has headers; an entry None: that record has none


def make_shape(workload: str, size: int, spread: float = 0.0) -> Shape:
    """The deterministic records of ``workload``, the same for every client.

    ``fixed`` is :func:`make_values` of ``size`` (and ``spread``); the others
    ignore both: values of lengths drawn uniformly from the workload's range,
    keys of 8 to 36 bytes (``user-`` and a number, as text), and 0 to 3
    headers of 8 to 32 value bytes each (``keyed``: every entry of
    ``headers`` None, so the records are sent with ``headers=None``;
    ``values``: neither keys nor headers, like ``fixed``; ``headers``: the
    headers without keys, every entry of ``keys`` None).
    """
    lengths, keyed, with_headers = WORKLOADS[workload]
    if lengths is None:
        return Shape(make_values(size, spread=spread), None, None)
    low, high = lengths
    values = make_values((low + high) // 2, spread=(high - low) / (low + high))
    rng = random.Random(20240603)
    keys = []
    headers: List[Headers] = []
    for i in range(POOL):
        key = b"user-%d-" % i
        keys.append((key + b"0123456789abcdef" * 3)[: rng.randint(8, 36)])
        count = rng.randint(0, 3)
        headers.append([(_HEADER_KEYS[h], b"h%07d" % i + b"x" * rng.randint(0, 24)) for h in range(count)] or None)
    if not with_headers:
        headers = [None] * POOL
    if not keyed and with_headers:
        # Null keys beside the headers: every client's loop then passes key=None and the headers.
        return Shape(values, [None] * POOL, headers)
    return Shape(values, keys if keyed else None, headers if keyed else None)


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
    t = os.times()
    return t.user + t.system  # the whole process: application and I/O threads


class Timer:
    def __init__(self) -> None:
        self.wall = self.cpu = 0.0

    def __enter__(self) -> "Timer":
        self._cpu = cpu_seconds()
        self._wall = time.perf_counter()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.wall = time.perf_counter() - self._wall
        self.cpu = cpu_seconds() - self._cpu


# Each runner returns (timer, acknowledged, failed, first error or None, version).
Outcome = Tuple[Timer, int, int, Optional[str], str]


def _count_futures(futures: List[Any]) -> Tuple[int, int, Optional[str]]:
    """kafka-python style futures (ours and kafka-python): succeeded() / exception."""
    ok = failed = 0
    first = None
    for future in futures:
        if future.is_done and future.succeeded():
            ok += 1
        else:
            failed += 1
            if first is None:
                exc = future.exception if future.is_done else None
                first = repr(exc) if exc is not None else "not acknowledged after flush"
    return ok, failed, first


def _run_sync_futures(
    producer: Any, args: argparse.Namespace, shape: Shape
) -> Tuple[Timer, int, int, Optional[str]]:
    """ours and kafka-python: send() returning futures, then flush()."""
    topic = args.topic
    send = producer.send
    mask = POOL - 1
    values, keys, headers = shape
    warm = [send(topic, values[i & mask]) for i in range(args.warmup)]
    producer.flush(timeout=args.timeout)
    ok, failed, first = _count_futures(warm)
    if failed:
        return Timer(), 0, args.records, "warm-up: " + str(first)
    futures: List[Any] = []
    append = futures.append
    if args.sync:
        # send().get() per record: the latency of one synchronous send.
        with Timer() as timer:
            for i in range(args.records):
                if keys is None:
                    future = send(topic, values[i & mask])
                else:
                    future = send(topic, values[i & mask], key=keys[i & mask], headers=headers[i & mask])
                future.get(timeout=args.timeout)
                append(future)
        ok, failed, first = _count_futures(futures)
        return timer, ok, failed, first
    with Timer() as timer:
        if keys is None:
            for i in range(args.records):
                append(send(topic, values[i & mask]))
        else:
            for i in range(args.records):
                j = i & mask
                append(send(topic, values[j], key=keys[j], headers=headers[j]))
        producer.flush(timeout=args.timeout)
    ok, failed, first = _count_futures(futures)
    return timer, ok, failed, first


def _configured(producer_class: Any, args: argparse.Namespace) -> Any:
    """A KafkaProducer (ours or kafka-python's: the same settings) as the benchmark configures it."""
    return producer_class(
        bootstrap_servers=args.bootstrap,
        acks=1,
        linger_ms=args.linger_ms,
        compression_type=None if args.codec == "none" else args.codec,
        enable_idempotence=False,
        **({"batch_size": args.batch_size} if args.batch_size else {}),
    )


def run_ours(args: argparse.Namespace, shape: Shape) -> Outcome:
    import kafka
    from kafka.producer import KafkaProducer

    producer = _configured(KafkaProducer, args)
    try:
        result = _run_sync_futures(producer, args, shape)
    finally:
        producer.close(timeout=10)
    from kafka.record import crc

    crc_impl = "crc32c package" if crc.CRC32C_ACCELERATED else "pure-Python CRC-32C"
    return result + ("%s (%s)" % (getattr(kafka, "__version__", "?"), crc_impl),)


def _send_pool_batches(producer: Any, topic: str, shape: Shape, count: int, per_call: int) -> List[Tuple[Any, int]]:
    """``count`` records through ``send_batch``, ``per_call`` of the pool's records per call: (future, records)."""
    values, keys, headers = shape
    if headers is not None and not any(headers):
        headers = None  # ``keyed``: no record has headers
    if keys is not None and not any(k is not None for k in keys):
        keys = None  # ``headers``: no record has a key
    sent = []
    while count:
        n = min(count, per_call, POOL)
        if n == POOL:
            future = producer.send_batch(topic, values, keys=keys, headers=headers)
        else:
            future = producer.send_batch(topic, values[:n], keys=keys and keys[:n], headers=headers and headers[:n])
        sent.append((future, n))
        count -= n
    return sent


def run_ours_batch(args: argparse.Namespace, shape: Shape) -> Outcome:
    """``send_batch`` of ``--call-records`` of the pool's records per call, then ``flush()``; the producer of run_ours."""
    import kafka
    from kafka.producer import KafkaProducer

    producer = _configured(KafkaProducer, args)
    try:
        for future, _ in _send_pool_batches(producer, args.topic, shape, args.warmup, args.call_records):
            future.get(timeout=args.timeout)
        with Timer() as timer:
            sent = _send_pool_batches(producer, args.topic, shape, args.records, args.call_records)
            producer.flush(timeout=args.timeout)
        ok, failed, first = 0, 0, None
        for future, n in sent:
            try:
                ok += future.get(timeout=0)
            except Exception as exc:
                failed += n
                first = first or describe(exc)
    finally:
        producer.close(timeout=10)
    return timer, ok, failed, first, "%s (send_batch)" % getattr(kafka, "__version__", "?")


def run_kafka_python(args: argparse.Namespace, shape: Shape) -> Outcome:
    import kafka
    from kafka import KafkaProducer

    producer = _configured(KafkaProducer, args)
    try:
        result = _run_sync_futures(producer, args, shape)
    finally:
        producer.close(timeout=10)
    try:
        import crc32c  # noqa: F401 - kafka-python uses it when present

        crc_impl = "crc32c package"
    except ImportError:
        crc_impl = "pure-Python CRC-32C"
    return result + ("%s (%s)" % (kafka.__version__, crc_impl),)


def run_aiokafka(args: argparse.Namespace, shape: Shape) -> Outcome:
    """aiokafka: see _produce_aiokafka_api."""
    import aiokafka

    return _produce_aiokafka_api(aiokafka.AIOKafkaProducer, args, shape, aiokafka.__version__)


def run_ours_aio(args: argparse.Namespace, shape: Shape) -> Outcome:
    """kafkawire's asyncio producer (``kafka.aio.AIOKafkaProducer``), with aiokafka's benchmark code unchanged."""
    import kafka
    import kafka.aio

    return _produce_aiokafka_api(kafka.aio.AIOKafkaProducer, args, shape,
                                 "%s (kafka.aio)" % getattr(kafka, "__version__", "?"))


def _produce_aiokafka_api(producer_class: Any, args: argparse.Namespace, shape: Shape, version: str) -> Outcome:
    """``fut = await producer.send(...)`` per record, one ``gather`` at the end.

    ``send()`` only appends to the accumulator (it waits only while the
    accumulator is full) and returns the delivery future; awaiting each
    future in the loop would wait for every batch to be acknowledged.
    """
    import asyncio

    async def main() -> Tuple[Timer, int, int, Optional[str]]:
        producer = producer_class(
            bootstrap_servers=args.bootstrap,
            acks=1,
            linger_ms=args.linger_ms,
            compression_type=None if args.codec == "none" else args.codec,
            enable_idempotence=False,
            **({"max_batch_size": args.batch_size} if args.batch_size else {}),
        )
        await producer.start()
        try:
            topic = args.topic
            send = producer.send
            mask = POOL - 1
            values, keys, headers = shape
            warm = [await send(topic, values[i & mask]) for i in range(args.warmup)]
            await asyncio.wait_for(asyncio.gather(*warm), args.timeout)
            futures: List[Any] = []
            append = futures.append
            with Timer() as timer:
                if keys is None:
                    for i in range(args.records):
                        append(await send(topic, values[i & mask]))
                else:
                    for i in range(args.records):
                        j = i & mask
                        append(await send(topic, values[j], key=keys[j], headers=headers[j]))
                results = await asyncio.wait_for(
                    asyncio.gather(*futures, return_exceptions=True), args.timeout
                )
            ok = failed = 0
            first = None
            for result in results:
                if isinstance(result, BaseException):
                    failed += 1
                    first = first or repr(result)
                else:
                    ok += 1
            return timer, ok, failed, first
        finally:
            await producer.stop()

    return asyncio.run(main()) + (version,)


def run_confluent(args: argparse.Namespace, shape: Shape) -> Outcome:
    """confluent-kafka: see _produce_confluent_api."""
    import confluent_kafka

    version = "%s (librdkafka %s)" % (confluent_kafka.__version__, confluent_kafka.libversion()[0])
    return _produce_confluent_api(confluent_kafka, args, shape, version)


def _produce_confluent_api(module: Any, args: argparse.Namespace, shape: Shape, version: str) -> Outcome:
    """produce() with a delivery callback, poll(0) every 1,000 records, flush().

    ``--confluent-loop plain``: no delivery callback, poll(0) every 4,096
    records, flush(); what was delivered is then what flush() left over
    (and the parent checks the broker's high watermark).
    """
    plain = args.confluent_loop == "plain"
    poll_every = 4096 if plain else 1000
    counts = [0, 0]
    errors: List[str] = []

    def on_delivery(err: Any, msg: Any) -> None:
        if err is None:
            counts[0] += 1
        else:
            counts[1] += 1
            if not errors:
                errors.append(str(err))

    config = {
        "bootstrap.servers": args.bootstrap,
        "acks": 1,
        "linger.ms": args.linger_ms,
        "enable.idempotence": False,
        "compression.type": args.codec,
    }
    if not plain:
        config["on_delivery"] = on_delivery
    if args.confluent_batch_size:
        config["batch.size"] = args.confluent_batch_size
    producer = module.Producer(config)
    topic = args.topic
    produce = producer.produce
    poll = producer.poll
    mask = POOL - 1
    values, keys, headers = shape
    # One partition: partition 0, as before; several: the client's partitioner.
    where = {"partition": 0} if args.partitions == 1 else {}

    def send_all(count: int) -> None:
        for i in range(count):
            value = values[i & mask]
            key = keys[i & mask] if keys is not None else None
            header = headers[i & mask] if headers is not None else None
            try:
                produce(topic, value, key, headers=header, **where)
            except BufferError:  # local queue full (queue.buffering.max.*): serve it and retry
                while True:
                    poll(0.005)
                    try:
                        produce(topic, value, key, headers=header, **where)
                        break
                    except BufferError:
                        pass
            if not i % poll_every:
                poll(0)

    send_all(args.warmup)
    left = producer.flush(args.timeout)
    if plain:
        counts[0] = args.warmup - left
    if counts != [args.warmup, 0]:
        return Timer(), 0, args.records, "warm-up: %s %s" % (counts, errors), version
    counts[0] = counts[1] = 0
    with Timer() as timer:
        send_all(args.records)
        left = producer.flush(args.timeout)
    if plain:
        counts[0] = args.records - left
    first = errors[0] if errors else ("%d records still queued after flush" % left if left else None)
    return timer, counts[0], args.records - counts[0], first, version


def run_ours_confluent(args: argparse.Namespace, shape: Shape) -> Outcome:
    """kafkawire's confluent-kafka API (``kafka.confluent.Producer``), the same loop as confluent-kafka.

    Imported as ``confluent_kafka`` after ``install_as_confluent_kafka()``, as an unchanged
    confluent-kafka program would run on it.
    """
    import kafka
    import kafka.confluent

    kafka.confluent.install_as_confluent_kafka()
    import confluent_kafka

    assert confluent_kafka is kafka.confluent
    return _produce_confluent_api(confluent_kafka, args, shape,
                                  "%s (kafka.confluent)" % getattr(kafka, "__version__", "?"))


RUNNERS: Dict[str, Callable[[argparse.Namespace, Shape], Outcome]] = {
    "ours": run_ours,
    "kafka-python": run_kafka_python,
    "aiokafka": run_aiokafka,
    "confluent": run_confluent,
    "ours-confluent": run_ours_confluent,
    "ours-batch": run_ours_batch,
    "ours-aio": run_ours_aio,
}


def describe(exc: BaseException) -> str:
    text = str(exc) or "(no message)"
    name = type(exc).__name__
    return text if text.startswith(name) else "%s: %s" % (name, text)


def codec_skip_reason(client: str, codec: str) -> Optional[str]:
    """Why ``client`` cannot compress with ``codec`` in this environment (None if it can)."""
    if codec == "none":
        return None
    if client in ("ours", "ours-batch", "ours-confluent", "ours-aio"):
        from kafka.record import codecs

        try:
            codecs.ensure_available(codec)
        except Exception as exc:
            return describe(exc)
        return None
    if client in ("kafka-python", "aiokafka"):
        module = __import__("kafka.codec" if client == "kafka-python" else "aiokafka.codec", fromlist=["x"])
        check = getattr(module, "has_" + codec, None)
        if check is None or not check():
            return "%s cannot compress with %s here (library missing)" % (client, codec)
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--client", choices=sorted(RUNNERS), required=True)
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--records", type=int, required=True)
    parser.add_argument("--value-size", type=int, required=True)
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="fixed")
    parser.add_argument("--partitions", type=int, default=1, help="partitions of --topic")
    parser.add_argument("--codec", default="none")
    parser.add_argument("--batch-size", type=int, default=0, help="0: the client's default")
    parser.add_argument("--call-records", type=int, default=POOL, help="records per send_batch call (ours-batch)")
    parser.add_argument("--confluent-batch-size", type=int, default=0, help="librdkafka batch.size (0: its default)")
    parser.add_argument("--linger-ms", type=int, default=5)
    parser.add_argument("--confluent-loop", choices=("callback", "plain"), default="callback",
                        help="confluent-kafka API loop: callback (delivery callback, poll(0) every 1,000) "
                             "or plain (no callback, poll(0) every 4,096)")
    parser.add_argument("--warmup", type=int, default=1000)
    parser.add_argument("--sync", action="store_true", help="send(...).get() per record (ours and kafka-python)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds allowed for each flush")
    args = parser.parse_args()

    result: Dict[str, Any] = {
        "client": args.client,
        "python": "%s %s" % (platform.python_implementation(), platform.python_version()),
        "records": args.records,
        "value_size": args.value_size,
        "workload": args.workload,
        "codec": args.codec,
    }
    shape = make_shape(args.workload, args.value_size)
    try:
        skip = codec_skip_reason(args.client, args.codec)
        if skip:
            result["skipped"] = skip
        else:
            timer, ok, failed, first, version = RUNNERS[args.client](args, shape)
            result.update(
                version=version,
                seconds=timer.wall,
                cpu_seconds=timer.cpu,
                acked=ok,
                failed=failed,
            )
            if ok != args.records:
                result["error"] = "%d of %d records acknowledged; %d failed (%s)" % (
                    ok, args.records, failed, first)
    except Exception as exc:
        result["error"] = describe(exc)
        traceback.print_exc(file=sys.stderr)
    result["peak_rss_kb"] = peak_rss_kb()
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
