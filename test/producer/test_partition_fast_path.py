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


def _read_headers(broker, topic, partitions, count):
    """[(partition, offset, value, headers)] of ``count`` records, read from the start."""
    from kafka.consumer import KafkaConsumer
    from kafka.structs import TopicPartition

    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
    try:
        consumer.assign([TopicPartition(topic, p) for p in range(partitions)])
        got = []
        for _ in range(100):
            for tp, records in consumer.poll(timeout_ms=300).items():
                got += [(tp.partition, r.offset, r.value, list(r.headers)) for r in records]
            if len(got) >= count:
                break
        return sorted(got)
    finally:
        consumer.close()


def test_keyless_records_with_headers_take_the_sticky_path_and_keep_their_headers(broker, monkeypatch):
    topic = _topic(broker, 3)
    shapes = [
        [("trace", b"t-%d")],
        (("trace", b"t-%d"), ("kind", None)),
        [("trace", b"t-%d"), ("empty", b"")],  # sent as an iterator: checked once, consumed once
    ]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=20) as producer:
        first = producer.send(topic, b"first", headers=[("h", b"1")]).get(10)  # _send picks the sticky partition
        routed = []
        original = producer._send
        monkeypatch.setattr(producer, "_send", lambda *a: routed.append(a) or original(*a))
        futures = []
        for i in range(30):
            shape = shapes[i % 3]
            headers = iter([(k, v % i if v and b"%" in v else v) for k, v in shape]) if i % 3 == 2 else \
                type(shape)((k, v % i if v and b"%" in v else v) for k, v in shape)
            futures.append(producer.send(topic, b"v%d" % i, headers=headers))
        metadata = [f.get(10) for f in futures]
        # Without the fast path all 30 go through _send; with it at most the first does, should the
        # metadata have moved on since the first send.
        assert len(routed) <= 1, routed
        [sticky] = {m.partition for m in metadata}  # one partition: no batch filled
        assert [m.serialized_header_size for m in metadata[:3]] == [len("trace") + 3, len("trace") + 3 + len("kind"),
                                                                    len("trace") + 3 + len("empty")]
        # Headers _send would refuse are refused the same way here, and nothing is queued for them.
        with pytest.raises(errors.IllegalArgumentTypeError):
            producer.send(topic, b"x", headers=[(b"bytes-key", b"v")])
        with pytest.raises(errors.IllegalArgumentError):
            producer.send(topic, b"x", headers=[("k", b"v", b"extra")])
        producer.flush(10)
    got = _read_headers(broker, topic, 3, 31)
    expected_headers = [[("trace", b"t-%d" % i)] if i % 3 == 0 else
                        [("trace", b"t-%d" % i), ("kind", None)] if i % 3 == 1 else
                        [("trace", b"t-%d" % i), ("empty", b"")] for i in range(30)]
    assert sorted((p, v, h) for p, _, v, h in got) == sorted(
        [(first.partition, b"first", [("h", b"1")])] + [(sticky, b"v%d" % i, expected_headers[i]) for i in range(30)])
    assert [v for p, _, v, _ in got if p == sticky and v != b"first"] == [b"v%d" % i for i in range(30)]  # in order
