"""A partitioner given as ``partitioner=``: each of kafka-python's conventions is called its own way.

(kafka-python 3 itself is compared in test/kafka_python/programs/partitioner.py.)
"""

from __future__ import annotations

import warnings
from typing import Any, List

import pytest

from kafka import KafkaProducer, errors
from kafka.partitioner import Partitioner
from kafka.producer.custom_partitioner import partition_chooser
from test.support.topics import new_topic


class _Cluster:
    def topics(self):
        return {"t"}

    def partitions_for_topic(self, topic):
        return {0, 1, 2}

    def available_partitions_for_topic(self, topic):
        return {1, 2}


class _RecordAware(Partitioner):
    """kafka-python 3's Partitioner: made without partitions, asked with the whole record."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: List[Any] = []
        self.new_batches: List[Any] = []

    def partition(self, topic, key, serialized_key, value, serialized_value, cluster):
        self.calls.append((topic, key, serialized_key, value, serialized_value))
        return sorted(cluster.available_partitions_for_topic(topic))[0]

    def on_new_batch(self, topic, cluster, prev_partition):
        self.new_batches.append((topic, prev_partition, tuple(sorted(cluster.partitions_for_topic(topic)))))


def test_a_kafka_python_3_partitioner_gets_the_record_before_and_after_serialization():
    partitioner = _RecordAware()
    choose = partition_chooser(partitioner)
    assert choose("t", "k", b"k!", {"v": 1}, b"{}", [0, 1, 2], [1, 2], _Cluster()) == 1
    assert partitioner.calls == [("t", "k", b"k!", {"v": 1}, b"{}")]


def test_a_callable_is_called_as_kafka_python_2_called_it():
    seen = []

    def last(key_bytes, all_partitions, available):
        seen.append((key_bytes, all_partitions, available))
        return all_partitions[-1]

    assert partition_chooser(last)("t", "k", b"k!", "v", b"v", [0, 1, 2], [1, 2], _Cluster()) == 2
    assert seen == [(b"k!", [0, 1, 2], [1, 2])]


def test_an_object_with_kafka_python_3_s_older_partition_call_is_used_with_a_warning():
    class ByKey:
        def partition(self, topic, serialized_key, cluster):
            return len(serialized_key) % len(cluster.partitions_for_topic(topic))

    with pytest.warns(DeprecationWarning, match="partition"):
        choose = partition_chooser(ByKey())
    assert choose("t", "k", b"four", "v", b"v", [0, 1, 2], [0, 1, 2], _Cluster()) == 1


@pytest.mark.parametrize("bad", [5, "murmur2", object()])
def test_anything_else_is_refused_when_the_producer_is_made(bad):
    with pytest.raises(errors.ConfigurationTypeError, match="partitioner"):
        KafkaProducer(bootstrap_servers="127.0.0.1:1", partitioner=bad)


def test_the_producer_sends_where_the_partitioner_says_and_reports_full_batches(broker):
    topic = new_topic(broker, partitions=3, prefix="custom-partitioner")
    partitioner = _RecordAware()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, partitioner=partitioner,
                                 value_serializer=str.encode, batch_size=500, linger_ms=1000)
    try:
        futures = [producer.send(topic, "value-%03d" % i) for i in range(40)]
        assert {f.get(timeout=30).partition for f in futures} == {0}
        assert partitioner.calls[0] == (topic, None, None, "value-000", b"value-000")
        explicit = producer.send(topic, "x", partition=2).get(timeout=30)
        assert explicit.partition == 2 and len(partitioner.calls) == 40
    finally:
        producer.close()
    # 40 records of ~80 bytes fill batches of 500 bytes several times over.
    assert partitioner.new_batches and set(partitioner.new_batches) == {(topic, 0, (0, 1, 2))}
