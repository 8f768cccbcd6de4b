"""The same programs run with aiokafka's AIOKafkaProducer and with kafka.aio's: same results.

Records are read back with kafkawire's own (synchronous) KafkaConsumer and
compared as ``(key, value, headers, partition)``; metadata of
``send_and_wait`` and the classes of the errors are compared field by field
and by class name (ours are kafkawire's classes, exported under aiokafka's
names by :mod:`kafka.aio.errors`).
"""

from __future__ import annotations

import random
from typing import Any, List

import pytest

import kafka.aio
import kafka.aio.errors
from kafka.record import codecs
from kafka.testing.broker import free_port
from test.aio.helpers import read_back, run
from test.support.topics import new_topic

aiokafka = pytest.importorskip("aiokafka")

PRODUCERS = {"aiokafka": lambda **kw: aiokafka.AIOKafkaProducer(**kw),
             "ours": lambda **kw: kafka.aio.AIOKafkaProducer(**kw)}


def _records() -> List[Any]:
    """(key, value, headers) to send: keyed records (one partition per key), an empty value, a tombstone."""
    out: List[Any] = [(b"key-%d" % (i % 17), b"value-%d" % i, [("h", b"%d" % i)] if i % 3 == 0 else None)
                      for i in range(120)]
    out += [(b"empty", b"", None), (b"tombstone", None, [("why", b"deleted"), ("who", b"")])]
    return out


async def _produce(name: str, bootstrap: str, topic: str, codec: Any) -> None:
    async with PRODUCERS[name](bootstrap_servers=bootstrap, linger_ms=5, compression_type=codec) as producer:
        futures = [await producer.send(topic, value, key=key, headers=headers) for key, value, headers in _records()]
        await producer.flush()
        assert all(f.done() and not f.exception() for f in futures)


def _codecs() -> List[Any]:
    names = [None, "gzip"]
    try:
        from aiokafka.codec import has_lz4, has_snappy, has_zstd
    except ImportError:  # pragma: no cover
        return names
    for name, theirs in (("snappy", has_snappy), ("lz4", has_lz4), ("zstd", has_zstd)):
        if theirs() and codecs.is_available(codecs.codec_id(name)):
            names.append(name)
    return names


@pytest.mark.parametrize("codec", _codecs())
def test_records_read_back_the_same(broker, codec: Any) -> None:
    results = {}
    for name in PRODUCERS:
        topic = new_topic(broker, partitions=4, prefix="aio-diff-%s" % name)
        run(_produce(name, broker.bootstrap_servers, topic, codec))
        results[name] = read_back(broker.bootstrap_servers, topic, 4, len(_records()))
    assert len(results["ours"]) == len(_records())
    assert results["ours"] == results["aiokafka"]


def test_send_and_wait_metadata_is_the_same(broker) -> None:
    async def sends(name: str, topic: str) -> List[Any]:
        async with PRODUCERS[name](bootstrap_servers=broker.bootstrap_servers) as producer:
            return [await producer.send_and_wait(topic, b"a", key=b"k1", timestamp_ms=1600000000000),
                    await producer.send_and_wait(topic, b"b", partition=2, timestamp_ms=1600000000001),
                    await producer.send_and_wait(topic, b"c", key=b"k1", headers=[("x", b"y")])]

    found = {}
    for name in PRODUCERS:
        topic = new_topic(broker, partitions=3, prefix="aio-md-%s" % name)
        metadata = run(sends(name, topic))
        assert [md.timestamp for md in metadata][:2] == [1600000000000, 1600000000001]
        found[name] = [(md.partition, tuple(md.topic_partition)[1], md.offset, md.timestamp_type, md.log_start_offset)
                       for md in metadata]
    assert found["ours"] == found["aiokafka"]


def _error_of(name: str, coro_factory: Any) -> BaseException:
    try:
        run(coro_factory(name))
    except Exception as exc:  # noqa: BLE001 - compared below
        return exc
    raise AssertionError("%s raised nothing" % name)


def _same_class(theirs: BaseException, ours: BaseException) -> None:
    name = type(theirs).__name__
    assert isinstance(ours, getattr(kafka.aio.errors, name)), (name, type(ours))


def test_unreachable_bootstrap_raises_the_same_class(broker_binary) -> None:
    port = free_port()

    async def start(name: str) -> None:
        producer = PRODUCERS[name](bootstrap_servers="127.0.0.1:%d" % port, request_timeout_ms=2000)
        try:
            await producer.start()
        finally:
            await producer.stop()

    _same_class(_error_of("aiokafka", start), _error_of("ours", start))


def test_a_topic_the_broker_refuses_raises_the_same_class(broker) -> None:
    async def send(name: str) -> None:
        async with PRODUCERS[name](bootstrap_servers=broker.bootstrap_servers, request_timeout_ms=1000) as producer:
            await producer.send_and_wait("no such topic!", b"v")

    _same_class(_error_of("aiokafka", send), _error_of("ours", send))


def test_keyed_partitions_are_the_same() -> None:
    from aiokafka.partitioner import DefaultPartitioner as Theirs

    from kafka.aio.partitioner import DefaultPartitioner as Ours

    rng = random.Random(7)
    for count in (1, 2, 3, 7, 16, 100):
        partitions = list(range(count))
        for _ in range(300):
            key = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 40)))
            assert Ours()(key, partitions, partitions) == Theirs()(key, partitions, partitions)
