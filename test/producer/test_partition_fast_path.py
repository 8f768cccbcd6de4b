"""send() with an explicit partition once the topic's partitions are known (KafkaProducer._send_to_partition)."""

from __future__ import annotations

import uuid

import pytest

from kafka import direct, errors
from kafka.conn.blocking import BlockingConnection
from kafka.producer import KafkaProducer
from kafka.producer.partitioner import DefaultPartitioner, murmur2_partition


def _topic(broker, partitions):
    name = "fastpart-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=partitions)
    return name


def test_explicit_partitions_keys_and_timestamps_after_the_first_send(broker):
    topic = _topic(broker, 2)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        producer.send(topic, b"first", partition=0).get(10)  # partitions now cached
        futures = [producer.send(topic, b"v%d" % i, key=b"k" if i % 2 else None, partition=i % 2,
                                 timestamp_ms=1_700_000_000_000 + i if i % 3 else None) for i in range(40)]
        producer.flush(10)
        got = [f.get(0) for f in futures]
    assert [m.partition for m in got] == [i % 2 for i in range(40)]
    assert [m.timestamp for i, m in enumerate(got) if i % 3] == [1_700_000_000_000 + i for i in range(40) if i % 3]
    assert [m.offset for m in got if m.partition == 1] == list(range(20))


def test_explicit_partition_checks_still_apply(broker):
    topic = _topic(broker, 2)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        producer.send(topic, b"first", partition=0).get(10)
        with pytest.raises(errors.IllegalArgumentError):
            producer.send(topic, b"x", partition=2)
        with pytest.raises(errors.IllegalArgumentError):
            producer.send(topic, b"x", partition=-1)
        with pytest.raises(errors.IllegalArgumentError):
            producer.send(topic, b"x", partition=0, timestamp_ms=-5)
        with pytest.raises(errors.IllegalArgumentTypeError):
            producer.send(topic, b"x", key="text", partition=0)
        with pytest.raises(errors.IllegalArgumentTypeError):
            producer.send(topic, b"x", partition=True)
        assert producer.send(topic, b"x", partition=1).get(10).partition == 1


def test_keyed_records_after_the_first_send_go_where_murmur2_says(broker):
    topic = _topic(broker, 5)
    keys = [b"key-%d" % i for i in range(60)]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        producer.send(topic, b"first", key=b"k").get(10)  # partitions now cached
        futures = [producer.send(topic, b"v", key=key, timestamp_ms=1_700_000_000_000 + i)
                   for i, key in enumerate(keys)]
        got = [f.get(10) for f in futures]
    assert [m.partition for m in got] == [murmur2_partition(key, 5) for key in keys]
    assert [m.timestamp for m in got] == [1_700_000_000_000 + i for i in range(60)]


class EverythingToPartitionOne(DefaultPartitioner):
    def __call__(self, key, all_partitions, available, topic=""):
        return 1


def test_a_partitioner_subclass_still_chooses_for_keyed_records(broker):
    topic = _topic(broker, 3)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, partitioner=EverythingToPartitionOne()) as producer:
        producer.send(topic, b"first", key=b"k").get(10)
        assert {producer.send(topic, b"v", key=b"key-%d" % i).get(10).partition for i in range(20)} == {1}
