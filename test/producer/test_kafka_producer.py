"""KafkaProducer end to end: embedded broker, mock cluster, other clients."""

from __future__ import annotations

import time
import uuid

import pytest

from kafka import direct, errors
from kafka.conn.blocking import BlockingConnection
from kafka.producer import KafkaProducer
from kafka.producer.partitioner import murmur2, murmur2_partition

CODECS = [None, "gzip", "snappy", "lz4", "zstd"]


def _topic(broker, partitions=1):
    name = "producer-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=partitions)
    return name


def _consume_confluent(bootstrap, topic, count, partitions=(0,), timeout=30.0):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    consumer = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": "p-" + uuid.uuid4().hex,
                                         "enable.auto.commit": False})
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, p, 0) for p in partitions])
        got, deadline = [], time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is not None:
                assert msg.error() is None, msg.error()
                got.append(msg)
        return got
    finally:
        consumer.close()


def test_murmur2_matches_the_java_client():
    # Values the Java client's Utils.murmur2 gives (from Kafka's own tests).
    assert murmur2(b"21") == -973932308
    assert murmur2(b"foobar") == -790332482
    assert murmur2(b"a-little-bit-long-string") == -985981536
    assert murmur2(b"a-little-bit-longer-string") == -1486304829
    assert murmur2(b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8") == -58897971
    assert murmur2(b"abc") == 479470107


@pytest.mark.parametrize("codec", CODECS)
def test_records_read_back_identically_by_confluent_kafka(broker, codec):
    topic = _topic(broker)
    sent = [(b"k%d" % i if i % 3 else None, b"value-%d" % i * (1 + i % 5), [("h", b"%d" % i)] if i % 2 else [],
             1_700_000_000_000 + i) for i in range(300)]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, compression_type=codec, linger_ms=10) as producer:
        futures = [producer.send(topic, value=v, key=k, headers=h, timestamp_ms=ts, partition=0)
                   for k, v, h, ts in sent]
        producer.flush(30)
        offsets = [f.get(10).offset for f in futures]
    assert offsets == list(range(300))
    got = _consume_confluent(broker.bootstrap_servers, topic, 300)
    assert [(m.key(), m.value(), m.headers() or [], m.timestamp()[1]) for m in got] == \
        [(k, v, h, ts) for k, v, h, ts in sent]


def test_keyed_records_land_where_confluent_kafka_puts_them(broker):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    topic = _topic(broker, partitions=7)
    keys = [("key-%d" % i).encode() for i in range(200)]
    reference = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap_servers,
                                          "partitioner": "murmur2_random"})
    theirs = {}

    def report(err, msg):
        assert err is None
        theirs[msg.key()] = msg.partition()

    for key in keys:
        reference.produce(topic, key=key, value=b"x", on_delivery=report)
    reference.flush(30)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        ours = {key: producer.send(topic, key=key, value=b"y").get(10).partition for key in keys}
    assert ours == theirs
    assert all(ours[k] == murmur2_partition(k, 7) for k in keys)


def test_keyless_records_stick_to_a_partition_per_batch(broker):
    topic = _topic(broker, partitions=4)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=1000, batch_size=100000) as producer:
        futures = [producer.send(topic, value=b"v") for _ in range(50)]
        producer.flush(10)
        partitions = {f.get(1).partition for f in futures}
    assert len(partitions) == 1


def test_keyless_records_move_on_when_a_batch_fills(broker):
    topic = _topic(broker, partitions=4)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=1000, batch_size=1000) as producer:
        futures = [producer.send(topic, value=b"v" * 100) for _ in range(40)]
        producer.flush(10)
        partitions = [f.get(1).partition for f in futures]
    # About eight 100-byte records fill a 1000-byte batch; then the next
    # records go to another partition.
    runs = [p for i, p in enumerate(partitions) if i == 0 or partitions[i - 1] != p]
    assert len(runs) >= 4 and all(a != b for a, b in zip(runs, runs[1:]))
    assert max(partitions.count(p) for p in set(partitions)) < 40


def test_value_serializer_applies_to_bytes_values_too(broker):
    topic = _topic(broker)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, value_serializer=lambda v: v.upper()) as producer:
        futures = [producer.send(topic, value=b"abc") for _ in range(3)]
        producer.flush(10)
        assert [f.get(1).serialized_value_size for f in futures] == [3, 3, 3]
    got = _consume_confluent(broker.bootstrap_servers, topic, 3)
    assert [m.value() for m in got] == [b"ABC"] * 3


def test_close_delivers_what_was_accepted(broker):
    topic = _topic(broker)
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=2000)
    futures = [producer.send(topic, value=b"%d" % i) for i in range(1000)]
    producer.close(timeout=30)
    assert [f.get(0).offset for f in futures] == list(range(1000))
    with pytest.raises(errors.IllegalStateError):
        producer.send(topic, value=b"late")


def test_callbacks_and_errbacks(broker):
    topic = _topic(broker)
    seen, failed = [], []
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        future = producer.send(topic, value=b"a").add_callback(seen.append).add_errback(failed.append)
        producer.flush(10)
        assert future.is_done and future.succeeded()
    assert seen[0].topic == topic and seen[0].offset == 0 and not failed


def test_invalid_arguments():
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaProducer(bootstrap_servers="127.0.0.1:1", acks=2)
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaProducer(bootstrap_servers="127.0.0.1:1", no_such_option=1)
    with pytest.raises(errors.UnsupportedCodecError):
        KafkaProducer(bootstrap_servers="127.0.0.1:1", compression_type="brotli")


def test_serializers_and_type_errors(broker):
    topic = _topic(broker)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, key_serializer=str.encode,
                       value_serializer=lambda v: repr(v).encode()) as producer:
        meta = producer.send(topic, key="k", value={"a": 1}).get(10)
        assert meta.serialized_key_size == 1
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        with pytest.raises(errors.IllegalArgumentError, match="value must be bytes"):
            producer.send(topic, value="text")
        with pytest.raises(errors.IllegalArgumentError):
            producer.send(topic, value=b"x", partition=5)
        assert producer.partitions_for(topic) == {0}


def test_unknown_topic_blocks_then_fails_within_max_block_ms(broker):
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, max_block_ms=1000,
                       allow_auto_create_topics=False) as producer:
        started = time.monotonic()
        with pytest.raises(errors.KafkaError):
            producer.send("no-such-topic-" + uuid.uuid4().hex, value=b"x")
        assert time.monotonic() - started < 5


def test_a_new_topic_is_created_by_the_broker_when_it_allows(broker):
    topic = "auto-created-" + uuid.uuid4().hex[:8]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, max_block_ms=10000) as producer:
        meta = producer.send(topic, value=b"first").get(10)
        partitions = sorted(producer.partitions_for(topic))
    assert (meta.topic, meta.offset) == (topic, 0)
    got = _consume_confluent(broker.bootstrap_servers, topic, 1, partitions=partitions)
    assert [(m.partition(), m.value()) for m in got] == [(meta.partition, b"first")]


def test_bootstrap_servers_accepts_lists_of_comma_separated_addresses():
    from kafka.client.network import parse_bootstrap
    assert parse_bootstrap(["a:1,b:2", " c:3 "]) == [("a", 1), ("b", 2), ("c", 3)]
    assert parse_bootstrap("a:1, b:2") == [("a", 1), ("b", 2)]
    with pytest.raises(errors.KafkaConfigurationError):
        parse_bootstrap([("a", 1)])
    with pytest.raises(errors.KafkaConfigurationError):
        parse_bootstrap(" , ")


def test_back_pressure_blocks_up_to_max_block_ms_then_raises(mock_cluster):
    mock_cluster.create_topic("stall", 1, 1)
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, buffer_memory=20000, batch_size=5000,
                       max_block_ms=800, linger_ms=0, request_timeout_ms=60000,
                       delivery_timeout_ms=120000) as producer:
        producer.send("stall", value=b"warm-up").get(10)
        mock_cluster.set_rtt(1, 30000)  # the leader stops answering in time
        mock_cluster.set_rtt(2, 30000)
        mock_cluster.set_rtt(3, 30000)
        started = time.monotonic()
        with pytest.raises(errors.KafkaTimeoutError, match="buffer_memory"):
            for _ in range(10000):
                producer.send("stall", value=b"x" * 500)
        blocked = time.monotonic() - started
        assert 0.7 < blocked < 5
        assert producer._accumulator.used_memory <= 20000 + 600
        mock_cluster.set_rtt(1, 0)
        mock_cluster.set_rtt(2, 0)
        mock_cluster.set_rtt(3, 0)
        producer.close(timeout=1)


def test_undeliverable_records_fail_after_delivery_timeout(mock_cluster):
    mock_cluster.create_topic("gone", 1, 1)
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, delivery_timeout_ms=1500,
                             request_timeout_ms=1000, reconnect_backoff_max_ms=100)
    try:
        producer.send("gone", value=b"first").get(10)
        mock_cluster.broker_down(-1)
        futures = [producer.send("gone", value=b"%d" % i) for i in range(20)]
        started = time.monotonic()
        for future in futures:
            with pytest.raises(errors.KafkaTimeoutError):
                future.get(10)
        assert time.monotonic() - started < 8
    finally:
        mock_cluster.broker_up(-1)
        producer.close(timeout=5)


def test_idempotent_by_default_stamps_batches(broker):
    topic = _topic(broker)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        assert producer._idempotent
        for i in range(5):
            producer.send(topic, value=b"%d" % i)
        producer.flush(10)
        identity = producer._sender.identity
        assert identity is not None and identity.producer_id >= 0
        from kafka.structs import TopicPartition
        assert identity.next_sequence(TopicPartition(topic, 0)) == 5
    with BlockingConnection(broker.host, broker.port) as conn:
        info = direct.describe_topic(conn, topic)
        from kafka.record import MemoryRecords
        batches = list(MemoryRecords(direct.fetch(conn, info, 0, 0).records))
    assert batches and all(b.producer_id == identity.producer_id for b in batches)
    assert batches[0].base_sequence == 0


def test_idempotence_needs_acks_all():
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaProducer(bootstrap_servers="127.0.0.1:1", acks=1, enable_idempotence=True)


@pytest.mark.parametrize("codec", CODECS)
def test_records_read_back_identically_by_aiokafka(broker, codec):
    aiokafka = pytest.importorskip("aiokafka")
    import asyncio

    topic = _topic(broker)
    sent = [(b"k%d" % i, b"v%d" % i * 20, [("h%d" % (i % 3), b"x")], 1_700_000_000_000 + i) for i in range(200)]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, compression_type=codec) as producer:
        for k, v, h, ts in sent:
            producer.send(topic, value=v, key=k, headers=h, timestamp_ms=ts, partition=0)
        producer.flush(30)

    async def consume():
        consumer = aiokafka.AIOKafkaConsumer(bootstrap_servers=broker.bootstrap_servers,
                                             auto_offset_reset="earliest", enable_auto_commit=False)
        await consumer.start()
        try:
            consumer.assign([aiokafka.TopicPartition(topic, 0)])
            await consumer.seek_to_beginning()
            got = []
            while len(got) < len(sent):
                batch = await asyncio.wait_for(consumer.getmany(timeout_ms=1000), 30)
                for records in batch.values():
                    got.extend(records)
            return got
        finally:
            await consumer.stop()

    got = asyncio.run(consume())
    assert [(m.key, m.value, list(m.headers), m.timestamp) for m in got] == \
        [(k, v, h, ts) for k, v, h, ts in sent]


@pytest.mark.parametrize("codec", CODECS)
def test_records_read_back_identically_by_kcat(mock_cluster, codec):
    # Debian's kcat (librdkafka 2.0) cannot finish the ApiVersions exchange
    # with Tansu, so this round trip goes through the librdkafka mock cluster.
    import json
    import shutil
    import subprocess

    kcat = shutil.which("kcat") or shutil.which("kafkacat")
    if kcat is None:
        pytest.skip("kcat is not installed (build_integration.sh installs it)")
    mock_cluster.create_topic("kcat", 1, 3)
    sent = [(b"key-%d" % i, b"value-%d" % i, [("n", b"%d" % i)], 1_700_000_000_000 + i) for i in range(100)]
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, compression_type=codec) as producer:
        for k, v, h, ts in sent:
            producer.send("kcat", value=v, key=k, headers=h, timestamp_ms=ts, partition=0)
        producer.flush(30)
    out = subprocess.run([kcat, "-C", "-b", mock_cluster.bootstrap_servers, "-t", "kcat", "-p", "0", "-o",
                          "beginning", "-e", "-J", "-q"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    got = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    assert [(g["key"].encode(), g["payload"].encode(), g["headers"], g["ts"]) for g in got] == \
        [(k, v, ["n", h[0][1].decode()], ts) for k, v, h, ts in sent]
