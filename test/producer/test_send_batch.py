"""KafkaProducer.send_batch: columns in, every record once, in order, placed as send() places it."""

from __future__ import annotations

import os
import random

import pytest

from kafka import errors
from kafka.producer import KafkaProducer
from kafka.producer.partitioner import murmur2_partition
from kafka.structs import TopicPartition
from test.support.consuming import records_by_partition
from test.support.topics import new_topic


def _topic(broker, partitions):
    return new_topic(broker, partitions, prefix="bulk")


def _read_all(broker, topic, partitions, count):
    """The first ``count`` records of ``topic`` by partition (then a short wait for any extra one)."""
    return records_by_partition(broker.bootstrap_servers, topic, partitions, count, settle_ms=300)


@pytest.mark.parametrize("idempotent", [False, True])
def test_values_only_spread_over_partitions_every_record_once(broker, idempotent):
    topic = _topic(broker, 3)
    values = [b"value-%06d" % i for i in range(20000)]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5, batch_size=16384,
                       enable_idempotence=idempotent, acks="all" if idempotent else 1) as producer:
        future = producer.send_batch(topic, values)
        assert future.get(60) == 20000 and future.is_done and future.exception is None
        runs = future.offsets()
    got = _read_all(broker, topic, 3, 20000)
    assert sorted(r.value for rs in got.values() for r in rs) == values
    # Sticky: several partitions get runs, and each partition keeps the given order.
    assert sum(1 for rs in got.values() if rs) > 1
    for records in got.values():
        assert [r.value for r in records] == sorted(r.value for r in records)
    assert sum(count for _, _, count in runs) == 20000 and all(offset >= 0 for _, offset, _ in runs)


def test_keys_headers_timestamps_and_placement_match_send(broker):
    topic = _topic(broker, 5)
    n = 500
    keys = [b"key-%d" % (i % 37) for i in range(n)]
    values = [b"v%d" % i for i in range(n)]
    headers = [[("i", b"%d" % i)] if i % 2 else None for i in range(n)]
    stamps = [1_700_000_000_000 + i for i in range(n)]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5) as producer:
        producer.send_batch(topic, values, keys=keys, headers=headers, timestamps=stamps).get(30)
    got = _read_all(broker, topic, 5, n)
    for partition, records in got.items():
        for r in records:
            i = int(r.value[1:])
            assert murmur2_partition(keys[i], 5) == partition
            assert (r.key, r.timestamp, list(r.headers or [])) == (keys[i], stamps[i], headers[i] or [])
        # Order within the partition is the order given.
        indices = [int(r.value[1:]) for r in records]
        assert indices == sorted(indices)
    assert sum(len(rs) for rs in got.values()) == n


def test_one_partition_gets_dense_offsets_in_order(broker):
    topic = _topic(broker, 2)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5, batch_size=4096) as producer:
        first = producer.send_batch(topic, [b"a%d" % i for i in range(3000)], partition=1)
        second = producer.send_batch(topic, [b"b%d" % i for i in range(10)], partition=1)
        assert first.get(30) == 3000 and second.get(30) == 10
        assert len(first.offsets()) > 1  # spread over several batches
    got = _read_all(broker, topic, 2, 3010)
    assert got[0] == []
    assert [r.value for r in got[1]] == [b"a%d" % i for i in range(3000)] + [b"b%d" % i for i in range(10)]
    assert [r.offset for r in got[1]] == list(range(3010))


def test_bad_columns_are_refused_before_anything_is_queued(broker):
    topic = _topic(broker, 1)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, max_request_size=10000) as producer:
        for call, error in [
            (lambda: producer.send_batch(topic, [b"a", b"b"], keys=[b"k"]), errors.IllegalArgumentError),
            (lambda: producer.send_batch(topic, [b"a", None]), errors.IllegalArgumentError),
            (lambda: producer.send_batch(topic, [b"a", None], keys=[b"k", None]), errors.IllegalArgumentError),
            (lambda: producer.send_batch(topic, [b"a", 5]), errors.IllegalArgumentTypeError),
            (lambda: producer.send_batch(topic, [b"a"], partition=3), errors.IllegalArgumentError),
            (lambda: producer.send_batch(topic, [b"a"], partition=-2), errors.IllegalArgumentError),
            (lambda: producer.send_batch(topic, [b"a"], keys=[b"k" * 20000]), errors.MessageSizeTooLargeError),
            (lambda: producer.send_batch(topic, [b"a"], timestamps=[-1]), errors.IllegalArgumentError),
            (lambda: producer.send_batch(topic, [b"a", b"x" * 20000]), errors.MessageSizeTooLargeError),
            (lambda: producer.send_batch("bad topic!", [b"a"]), errors.IllegalArgumentError),
        ]:
            with pytest.raises(error):
                call()
        assert producer._accumulator.used_memory == 0
        assert producer.send_batch(topic, []).get(1) == 0
        assert producer.send_batch(topic, [b"text"], keys=[None]).get(30) == 1
        # A null key and a null value in different records are fine (a tombstone has a key).
        assert producer.send_batch(topic, [b"v", None], keys=[None, b"gone"]).get(30) == 2
    assert [(r.key, r.value) for r in _read_all(broker, topic, 1, 3)[0]] == [(None, b"text"), (None, b"v"),
                                                                             (b"gone", None)]


def test_a_closed_producer_refuses_send_batch(broker):
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    producer.close()
    with pytest.raises(errors.IllegalStateError):
        producer.send_batch("t", [b"a"])


def test_headers_in_every_accepted_form_arrive_as_send_would_send_them(broker):
    topic = _topic(broker, 1)
    forms = [
        [("ascii", b"v")],
        (("tuple", None),),  # a tuple of pairs, a null value
        [["as-list", b"x"]],  # a pair given as a list
        [("clé", b"\xff")],  # a key that is not ASCII
        [("bytes-like", bytearray(b"ba")), ("view", memoryview(b"mv"))],
        [],  # no headers, as None
        None,
    ]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5) as producer:
        assert producer.send_batch(topic, [b"%d" % i for i in range(len(forms))], headers=forms).get(30) == len(forms)
    got = _read_all(broker, topic, 1, len(forms))[0]
    assert [list(r.headers or []) for r in got] == [
        [("ascii", b"v")], [("tuple", None)], [("as-list", b"x")], [("clé", b"\xff")],
        [("bytes-like", b"ba"), ("view", b"mv")], [], []]


@pytest.mark.parametrize("headers, error", [
    ([[("k", "text")]], errors.IllegalArgumentTypeError),  # a str value
    ([[(b"k", b"v")]], errors.IllegalArgumentTypeError),  # a bytes key
    ([[("k", b"v", b"extra")]], errors.IllegalArgumentError),  # not a pair
    (["k=v"], errors.IllegalArgumentTypeError),  # not a list of pairs
    ([[("\ud800", b"v")]], errors.IllegalArgumentError),  # a key UTF-8 cannot encode
    ([[("k", b"x" * 20000)]], errors.MessageSizeTooLargeError),  # headers count towards the size
])
def test_bad_headers_are_refused_before_anything_is_queued(broker, headers, error):
    topic = _topic(broker, 1)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, max_request_size=10000) as producer:
        with pytest.raises(error):
            producer.send_batch(topic, [b"a"], headers=headers)
        assert producer._accumulator.used_memory == 0


def test_value_only_calls_stay_columns_and_keep_order_with_send(broker):
    topic = _topic(broker, 1)
    big = [b"big-%05d" % i for i in range(3000)]
    small = [b"small-%d" % i for i in range(10)]
    # A linger far longer than the test: the batch stays open until flush(), whatever the machine's speed.
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=600_000) as producer:
        before = [producer.send(topic, b"before-%d" % i) for i in range(5)]
        first = producer.send_batch(topic, big, partition=0)
        second = producer.send_batch(topic, small, partition=0)
        # One batch, still kept as two columns: no tuple per record.
        [batch] = producer._accumulator._batches[TopicPartition(topic, 0)]
        assert batch.values == [b"before-%d" % i for i in range(5)] + big + small
        after = [producer.send(topic, b"after-%d" % i) for i in range(5)]
        producer.flush()
        assert first.get(30) == 3000 and second.get(30) == 10
        assert [f.get(30).offset for f in before + after] == [0, 1, 2, 3, 4] + list(range(3015, 3020))
    got = _read_all(broker, topic, 1, 3020)
    assert [r.value for r in got[0]] == ([b"before-%d" % i for i in range(5)] + big + small
                                         + [b"after-%d" % i for i in range(5)])
    assert [r.offset for r in got[0]] == list(range(3020))


def test_value_only_calls_with_idempotence_and_compression(broker):
    topic = _topic(broker, 2)
    values = [os.urandom(random.Random(i).randint(0, 300)) for i in range(4000)]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, enable_idempotence=True, acks="all",
                       compression_type="gzip", batch_size=16384) as producer:
        futures = [producer.send_batch(topic, values[i:i + 1000], partition=i // 1000 % 2)
                   for i in range(0, 4000, 1000)]
        assert [f.get(60) for f in futures] == [1000] * 4
    got = _read_all(broker, topic, 2, 4000)
    assert [r.value for r in got[0]] == values[0:1000] + values[2000:3000]
    assert [r.value for r in got[1]] == values[1000:2000] + values[3000:4000]
    assert all(r.key is None and not r.headers for rs in got.values() for r in rs)
