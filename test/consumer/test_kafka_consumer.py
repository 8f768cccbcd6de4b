"""KafkaConsumer with manual assignment: embedded broker and other clients' records."""

from __future__ import annotations

import time
import uuid

import pytest

from kafka import direct, errors
from kafka.conn.blocking import BlockingConnection
from kafka.consumer import KafkaConsumer
from kafka.producer import KafkaProducer
from kafka.structs import TopicPartition

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


def _topic(broker, partitions=1):
    name = "consumer-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=partitions)
    return name


def _drain(consumer, count, timeout=30.0):
    got, deadline = [], time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        for records in consumer.poll(500).values():
            got.extend(records)
    return got


def _expected(n=150):
    return [(b"k%d" % i if i % 4 else None, b"value-%d" % i * (1 + i % 3), [("h", b"%d" % i)] if i % 2 else [],
             1_700_000_000_000 + i) for i in range(n)]


@pytest.mark.parametrize("codec", CODECS)
def test_records_from_confluent_kafka(broker, codec):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    topic = _topic(broker)
    sent = _expected()
    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap_servers, "compression.type": codec,
                                         "linger.ms": 10, "enable.idempotence": False})
    for k, v, h, ts in sent:
        producer.produce(topic, value=v, key=k, headers=h or None, partition=0, timestamp=ts)
    assert producer.flush(30) == 0
    with KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest") as consumer:
        consumer.assign([TopicPartition(topic, 0)])
        got = _drain(consumer, len(sent))
    assert [(r.key, r.value, list(r.headers), r.timestamp, r.offset) for r in got] == \
        [(k, v, h, ts, i) for i, (k, v, h, ts) in enumerate(sent)]


@pytest.mark.parametrize("codec", CODECS)
def test_records_from_aiokafka(broker, codec):
    aiokafka = pytest.importorskip("aiokafka")
    import asyncio

    topic = _topic(broker)
    sent = [(k or b"key", v, h, ts) for k, v, h, ts in _expected()]

    async def produce():
        producer = aiokafka.AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=10,
                                             compression_type=None if codec == "none" else codec,
                                             enable_idempotence=False)
        await producer.start()
        try:
            futures = [await producer.send(topic, value=v, key=k, headers=h, partition=0, timestamp_ms=ts)
                       for k, v, h, ts in sent]
            await asyncio.gather(*futures)
        finally:
            await producer.stop()

    asyncio.run(asyncio.wait_for(produce(), 60))
    with KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest") as consumer:
        consumer.assign([TopicPartition(topic, 0)])
        got = _drain(consumer, len(sent))
    assert [(r.key, r.value, list(r.headers), r.timestamp) for r in got] == [(k, v, h, ts) for k, v, h, ts in sent]


@pytest.mark.parametrize("codec", CODECS)
def test_records_from_kcat(mock_cluster, codec):
    # Debian's kcat cannot talk to Tansu; the mock cluster serves instead.
    import shutil
    import subprocess

    kcat = shutil.which("kcat")
    if kcat is None:
        pytest.skip("kcat is not installed")
    mock_cluster.create_topic("kcat-in", 1, 3)
    lines = ["key-%d:value-%d" % (i, i) for i in range(100)]
    result = subprocess.run([kcat, "-P", "-b", mock_cluster.bootstrap_servers, "-t", "kcat-in", "-p", "0", "-K", ":",
                             "-z", codec if codec != "none" else "none", "-H", "origin=kcat"],
                            input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    with KafkaConsumer(bootstrap_servers=mock_cluster.bootstrap_servers, auto_offset_reset="earliest") as consumer:
        consumer.assign([TopicPartition("kcat-in", 0)])
        got = _drain(consumer, 100)
    assert [(r.key, r.value, list(r.headers)) for r in got] == \
        [(b"key-%d" % i, b"value-%d" % i, [("origin", b"kcat")]) for i in range(100)]


def test_positions_seeks_and_offsets(broker):
    topic = _topic(broker, partitions=2)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        for i in range(30):
            producer.send(topic, value=b"%d" % i, partition=i % 2)
        producer.flush(10)
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    # Tansu's "latest" offset is wrong when batches hold several records
    # (shared/DESIGN.md), so "latest" semantics are tested on the mock cluster.
    with KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest") as consumer:
        consumer.assign([tp0, tp1])
        assert consumer.assignment() == {tp0, tp1}
        assert consumer.position(tp0) == 0
        consumer.seek(tp1, 15)  # past the end: nothing from tp1 until new records arrive
        got = _drain(consumer, 15)
        assert [r.value for r in got] == [b"%d" % i for i in range(0, 30, 2)]
        assert consumer.position(tp0) == 15 and consumer.highwater(tp0) == 15
        consumer.seek(tp1, 10)
        assert [r.offset for r in _drain(consumer, 5)] == [10, 11, 12, 13, 14]
        assert consumer.position(tp1) == 15
        assert consumer.beginning_offsets([tp0, tp1]) == {tp0: 0, tp1: 0}
        assert consumer.partitions_for_topic(topic) == {0, 1}
        assert topic in consumer.topics()
        consumer.pause(tp0)
        assert consumer.paused() == {tp0}
        consumer.seek_to_beginning()
        assert {r.partition for r in _drain(consumer, 15)} == {1}
        consumer.resume(tp0)
        assert len(_drain(consumer, 15)) == 15


def test_iteration_with_consumer_timeout(broker):
    topic = _topic(broker)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        for i in range(10):
            producer.send(topic, value=b"%d" % i)
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest",
                             consumer_timeout_ms=1000, value_deserializer=lambda v: int(v))
    consumer.assign([TopicPartition(topic, 0)])
    started = time.monotonic()
    assert [r.value for r in consumer] == list(range(10))
    assert time.monotonic() - started < 10
    consumer.close()
    with pytest.raises(errors.IllegalStateError):
        consumer.poll(0)


def test_subscribe_without_group_reads_every_partition(broker):
    topic = _topic(broker, partitions=3)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        for i in range(30):
            producer.send(topic, value=b"%d" % i, partition=i % 3)
    with KafkaConsumer(topic, bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest") as consumer:
        assert len(consumer.assignment()) == 3
        assert sorted(int(r.value) for r in _drain(consumer, 30)) == list(range(30))


def test_misuse_is_reported_clearly(broker):
    with KafkaConsumer(bootstrap_servers=broker.bootstrap_servers) as consumer:
        with pytest.raises(errors.IllegalStateError):
            consumer.poll(0)
        consumer.assign([TopicPartition("t", 0)])
        with pytest.raises(errors.IllegalStateError):
            consumer.subscribe(["t"])
        with pytest.raises(errors.IllegalStateError):
            consumer.commit()
        with pytest.raises(errors.IllegalStateError):
            consumer.seek(TopicPartition("other", 0), 1)
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaConsumer(bootstrap_servers="127.0.0.1:1", auto_offset_reset="sometimes")
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaConsumer(bootstrap_servers="127.0.0.1:1", bogus=1)


def test_old_option_names_are_accepted():
    consumer = KafkaConsumer(bootstrap_servers="127.0.0.1:1", auto_commit_enable=False,
                             fetch_message_max_bytes=1234, fetch_wait_max_ms=77, auto_offset_reset="smallest",
                             deserializer_class=None, auto_commit_interval_messages=10)
    try:
        assert consumer.config["enable_auto_commit"] is False
        assert consumer.config["max_partition_fetch_bytes"] == 1234
        assert consumer.config["fetch_max_wait_ms"] == 77
        assert consumer._subscription.default_reset == "earliest"
    finally:
        consumer.close()


def test_latest_end_offsets_and_offsets_for_times(mock_cluster):
    mock_cluster.create_topic("ends", 1, 3)
    tp = TopicPartition("ends", 0)
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=50) as producer:
        for i in range(20):
            producer.send("ends", value=b"%d" % i, partition=0, timestamp_ms=1_700_000_000_000 + i * 10)
        producer.flush(10)
    with KafkaConsumer(bootstrap_servers=mock_cluster.bootstrap_servers) as consumer:
        consumer.assign([tp])
        assert consumer.position(tp) == 20  # auto_offset_reset defaults to latest
        assert consumer.poll(300) == {}
        assert consumer.end_offsets([tp]) == {tp: 20}
        assert consumer.beginning_offsets([tp]) == {tp: 0}
        # Neither test broker implements lookups by timestamp (the mock finds
        # nothing, Tansu answers offset 0): only the call's shape is checked.
        assert set(consumer.offsets_for_times({tp: 1_700_000_000_055})) == {tp}
        with pytest.raises(errors.IllegalArgumentError):
            consumer.offsets_for_times({tp: -5})
        with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers) as producer:
            producer.send("ends", value=b"new", partition=0).get(10)
        assert [r.value for r in _drain(consumer, 1)] == [b"new"]
