"""send_encoded: batches whose records the caller encoded, sent as send_batch would send the same records."""

from __future__ import annotations

import pytest

from kafka import errors
from kafka.producer import KafkaProducer
from kafka.producer.accumulator import RecordAccumulator
from kafka.producer.batch import ProducerBatch
from kafka.producer.bulk_runs import group_by_partition, prefix_sums
from kafka.producer.encoded import EncodedBatch, batch_counts, send_encoded
from kafka.producer.murmur2_lanes import murmur2_partitions
from kafka.record import codecs
from kafka.record.batch import estimate_record_sizes
from kafka.structs import TopicPartition
from test.support.consuming import records_by_partition
from test.support.encoded_records import python_encoder, record_body
from test.support.topics import new_topic

TP = TopicPartition("t", 0)


@pytest.mark.parametrize("compression", [codecs.NONE, codecs.GZIP])
@pytest.mark.parametrize("transactional", [False, True])
def test_an_encoded_batch_has_the_bytes_of_a_producer_batch(compression, transactional):
    now = 1700000000000
    records = [(now, None if i % 3 else b"k%d" % i, b"v" * i, None) for i in range(100)]
    plain = ProducerBatch(TP, 0.0, 1 << 20)
    for record in records:
        plain.try_append(*record, size=1)
    encoded = EncodedBatch(TP, 0.0, record_body(records), len(records), now)
    for batch in (plain, encoded):
        batch.producer_id, batch.producer_epoch, batch.base_sequence = 4000, 3, 77
        batch.transactional = transactional
    assert encoded.record_count == 100
    assert encoded.encode(compression) == plain.encode(compression)


def test_batches_are_cut_as_the_accumulator_cuts_them():
    sizes = estimate_record_sizes(None, [b"x" * (i % 700) for i in range(3000)]) + [70000, 5]
    accumulator = RecordAccumulator(batch_size=16384)
    accumulator.append_many(TP, [(0, None, b"", None)] * len(sizes), sizes, 1.0)
    assert batch_counts(sizes, 16384) == [b.record_count for b in accumulator._batches[TP]]
    # A run of the records, with the prefix sums of all of them, is cut as the run alone.
    assert batch_counts(sizes, 16384, 1000, 2500, prefix_sums(sizes)) == batch_counts(sizes[1000:2500], 16384)


def test_an_encoded_batch_takes_no_more_records_and_keeps_its_place():
    accumulator = RecordAccumulator(batch_size=16384)
    accumulator.append(TP, 0, None, b"before", None, 1.0)
    encoded = EncodedBatch(TP, 0.0, record_body([(0, None, b"x", None)]), 1, 0)
    accumulator.append_batches(TP, [encoded], 1.0)
    accumulator.append(TP, 0, None, b"after", None, 1.0)
    queue = list(accumulator._batches[TP])
    assert [b.record_count for b in queue] == [1, 1, 1] and queue[1] is encoded
    assert [r[2] for r in queue[2].record_tuples()] == [b"after"]
    assert accumulator.used_memory == sum(b.memory for b in queue)


def _topic(broker, partitions):
    return new_topic(broker, partitions, prefix="encoded")


def _read_all(broker, topic, partitions, count):
    return records_by_partition(broker.bootstrap_servers, topic, partitions, count)


@pytest.mark.parametrize("idempotent", [False, True])
def test_keyed_records_land_where_send_batch_puts_them(broker, idempotent):
    topic = _topic(broker, 3)
    keys = [b"key-%d" % (i % 50) for i in range(5000)]
    values = [b"value-%05d" % i for i in range(5000)]

    def key_groups(n):
        return group_by_partition(murmur2_partitions(keys, n), n)

    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, batch_size=16384,
                       enable_idempotence=idempotent, acks="all" if idempotent else 1) as producer:
        future = send_encoded(producer, topic, len(values), estimate_record_sizes(keys, values),
                              python_encoder(keys, values), keys=lambda: keys, key_groups=key_groups)
        assert future.get(60) == 5000
    got = _read_all(broker, topic, 3, 5000)
    for partition, records in got.items():
        expected = [(k, v) for k, v in zip(keys, values) if murmur2_partitions([k], 3)[0] == partition]
        assert [(r.key, r.value) for r in records] == expected


def test_values_go_sticky_and_around_an_open_batch_in_order(broker):
    topic = _topic(broker, 2)
    values = [b"v%05d" % i for i in range(3000)]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, batch_size=4096, linger_ms=50) as producer:
        first = producer.send(topic, b"first", partition=1)
        future = send_encoded(producer, topic, len(values), estimate_record_sizes(None, values),
                              python_encoder(None, values), partition=1)
        last = producer.send(topic, b"last", partition=1)
        sticky = send_encoded(producer, topic, len(values), estimate_record_sizes(None, values),
                              python_encoder(None, values))
        assert future.get(30) == 3000 and sticky.get(30) == 3000
        assert first.get(30).offset == 0 and last.get(30).offset == 3001
    got = _read_all(broker, topic, 2, 6002)
    assert [r.value for r in got[1]][:3002] == [b"first"] + values + [b"last"]
    assert sorted(r.value for rs in got.values() for r in rs if r.offset > 3001 or rs is got[0]) == sorted(values)


def test_keyless_records_take_their_prefix_sums_once(broker, monkeypatch):
    from kafka.producer import bulk_runs, encoded

    calls = []

    def counted(sizes):
        calls.append(len(sizes))
        return prefix_sums(sizes)

    monkeypatch.setattr(encoded, "prefix_sums", counted)
    monkeypatch.setattr(bulk_runs, "prefix_sums", counted)
    topic = _topic(broker, 2)
    values = [b"v%05d" % i for i in range(3000)]
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, batch_size=4096, linger_ms=50) as producer:
        sticky = send_encoded(producer, topic, len(values), estimate_record_sizes(None, values),
                              python_encoder(None, values))
        assert sticky.get(30) == 3000
    # Once for the sticky runs and the batches cut from them alike (the accumulator, which takes
    # whole batches here, computes none).
    assert calls == [3000]
    got = _read_all(broker, topic, 2, 3000)
    assert sorted(r.value for rs in got.values() for r in rs) == values


def test_errors_are_those_of_send_batch(broker):
    topic = _topic(broker, 1)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, max_request_size=1000,
                       max_block_ms=500) as producer:
        values = [b"x" * 2000]
        for send in (lambda: producer.send_batch(topic, values),
                     lambda: send_encoded(producer, topic, 1, estimate_record_sizes(None, values),
                                          python_encoder(None, values))):
            with pytest.raises(errors.MessageSizeTooLargeError):
                send()
        for bad in ("bad topic!", ""):
            with pytest.raises(Exception) as expected:
                producer.send_batch(bad, [b"v"])
            with pytest.raises(type(expected.value)):
                send_encoded(producer, bad, 1, [22], python_encoder(None, [b"v"]))
        with pytest.raises(errors.IllegalArgumentError, match="no partition"):
            send_encoded(producer, topic, 1, [22], python_encoder(None, [b"v"]), partition=5)
    with pytest.raises(errors.IllegalStateError):
        send_encoded(producer, topic, 1, [22], python_encoder(None, [b"v"]))
