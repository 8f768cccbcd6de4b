"""Record batches cross the embedded broker between us and other clients.

* batches built by our record layer and produced through our protocol layer
  are read back identically by ``confluent-kafka`` (librdkafka);
* batches produced by ``confluent-kafka`` and by ``aiokafka`` are fetched by
  our protocol layer and read back identically by our record reader.

Every codec, with keys, values, headers and explicit timestamps.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from kafka import direct
from kafka.conn.blocking import BlockingConnection
from kafka.record import MemoryRecordsBuilder, TimestampType

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
COUNT = 200
BASE_TS = 1_700_000_000_000


def _expected(n=COUNT):
    out = []
    for i in range(n):
        key = None if i % 10 == 3 else ("key-%d" % i).encode()
        # A record with neither key nor value is legal, but aiokafka refuses to send one.
        value = None if i % 17 == 5 and key is not None else ("value-%d-" % i).encode() * (1 + i % 7)
        headers = [("h%d" % j, ("v%d" % (i + j)).encode()) for j in range(i % 3)]
        out.append((key, value, headers, BASE_TS + i * 7))
    return out


def _topic(conn, prefix):
    name = "%s-%s" % (prefix, uuid.uuid4().hex[:8])
    direct.create_topic(conn, name, partitions=1)
    return direct.describe_topic(conn, name)


@pytest.fixture
def conn(broker):
    with BlockingConnection(broker.host, broker.port) as connection:
        yield connection


def _read_ours(conn, info, count):
    blobs = direct.fetch_all(conn, info, 0, 0, count)
    return direct.batches_to_records(blobs, 0, count)


def _confluent_consume(bootstrap, topic, count, timeout=30.0):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    consumer = confluent_kafka.Consumer({
        "bootstrap.servers": bootstrap, "group.id": "interop-" + uuid.uuid4().hex,
        "enable.auto.commit": False, "auto.offset.reset": "earliest",
    })
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
        got = []
        deadline = time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            got.append(msg)
        return got
    finally:
        consumer.close()


@pytest.mark.parametrize("codec", CODECS)
def test_our_batches_read_by_confluent_kafka(broker, conn, codec):
    info = _topic(conn, "ours-" + codec)
    expected = _expected()
    # Several batches, so batch boundaries are crossed too.
    for start in range(0, COUNT, 50):
        builder = MemoryRecordsBuilder(2, codec)
        for i, (key, value, headers, ts) in enumerate(expected[start:start + 50]):
            builder.append(i, ts, key, value, headers)
        assert direct.produce(conn, info, 0, builder.build()) == start
    messages = _confluent_consume(broker.bootstrap_servers, info.name, COUNT)
    assert len(messages) == COUNT
    for i, (msg, (key, value, headers, ts)) in enumerate(zip(messages, expected)):
        assert msg.offset() == i
        assert msg.key() == key
        assert msg.value() == value
        assert (msg.headers() or []) == headers
        assert msg.timestamp() == (1, ts)  # (TIMESTAMP_CREATE_TIME, ms)


@pytest.mark.parametrize("codec", CODECS)
def test_confluent_kafka_batches_read_by_us(broker, conn, codec):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    info = _topic(conn, "rdkafka-" + codec)
    expected = _expected()
    producer = confluent_kafka.Producer({
        "bootstrap.servers": broker.bootstrap_servers, "compression.type": codec,
        "linger.ms": 20, "enable.idempotence": False, "acks": 1,
    })
    for key, value, headers, ts in expected:
        producer.produce(info.name, value=value, key=key, headers=headers or None,
                         partition=0, timestamp=ts)
    assert producer.flush(30) == 0
    _assert_ours_match(_read_ours(conn, info, COUNT), expected)


@pytest.mark.parametrize("codec", CODECS)
def test_aiokafka_batches_read_by_us(broker, conn, codec):
    aiokafka = pytest.importorskip("aiokafka")
    info = _topic(conn, "aiokafka-" + codec)
    expected = _expected()

    async def produce_all():
        producer = aiokafka.AIOKafkaProducer(
            bootstrap_servers=broker.bootstrap_servers,
            compression_type=None if codec == "none" else codec,
            linger_ms=20, acks=1, enable_idempotence=False)
        await producer.start()
        try:
            futures = [await producer.send(info.name, value=value, key=key, headers=headers,
                                           partition=0, timestamp_ms=ts)
                       for key, value, headers, ts in expected]
            await asyncio.gather(*futures)
        finally:
            await producer.stop()

    asyncio.run(asyncio.wait_for(produce_all(), 60))
    _assert_ours_match(_read_ours(conn, info, COUNT), expected)


def _assert_ours_match(records, expected):
    assert len(records) == len(expected)
    for i, (record, (key, value, headers, ts)) in enumerate(zip(records, expected)):
        assert record.offset == i
        assert record.key == key
        assert record.value == value
        assert list(record.headers) == headers
        assert record.timestamp == ts
        assert record.timestamp_type == TimestampType.CREATE_TIME
