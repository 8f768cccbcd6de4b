"""A batch the broker refuses as too large (MESSAGE_TOO_LARGE) is sent again as two halves.

The Java client does the same (KIP-126): a topic whose ``max.message.bytes``
is below the producer's ``batch_size`` still gets every record, in order,
in batches that halve until they fit; only a single record that does not
fit fails. The units below check the halves (records, sequence numbers,
memory) and how the records' futures find their own half's outcome; the
scenarios run against the librdkafka mock cluster, a scripted peer here:
neither it nor the embedded Tansu broker enforces ``max.message.bytes``
(Tansu took a 5,000-byte batch on a topic created with a limit of 2,000),
so the refusal is injected with ``push_request_errors`` exactly as a real
broker answers it: error 10 for the partition, nothing written.
"""

from __future__ import annotations

import uuid

import pytest

from kafka import errors, fast_paths
from kafka.producer import KafkaProducer
from kafka.producer.batch import BATCH_OVERHEAD, ProducerBatch
from kafka.producer.encoded import EncodedBatch, send_encoded
from kafka.producer.future import FutureRecordMetadata, ProduceResult, ValueRecordFuture
from kafka.record.batch import RecordBatch, estimate_record_sizes
from kafka.structs import TopicPartition
from test.support.encoded_records import python_encoder, record_body

TP = TopicPartition("t", 0)
MESSAGE_TOO_LARGE = 10


def _batch(records, sequence=-1) -> ProducerBatch:
    batch = ProducerBatch(TP, 5.0, 1 << 20)
    for timestamp, key, value in records:
        assert batch.try_append(timestamp, key, value, None, 20) is not None
    batch.producer_id, batch.producer_epoch, batch.base_sequence = 7, 3, sequence
    batch.drained = 6.0
    batch.memory = 1000
    return batch


def _values(batch: ProducerBatch):
    return [r.value for r in RecordBatch(batch.encode(0))]


@pytest.mark.parametrize("keyed", [False, True])
def test_halves_hold_the_records_in_order_with_the_sequence_range(keyed):
    records = [(100 + i, b"k" if keyed else None, b"v%d" % i) for i in range(5)]
    batch = _batch(records, sequence=40)
    assert (batch.values is None) == keyed
    first, second = batch.split()
    assert _values(first) == [b"v0", b"v1"] and _values(second) == [b"v2", b"v3", b"v4"]
    assert (first.base_sequence, second.base_sequence) == (40, 42)
    assert all((h.producer_id, h.producer_epoch, h.created, h.drained) == (7, 3, 5.0, 6.0) for h in (first, second))
    assert first.in_retry and second.in_retry
    assert first.memory + second.memory == 1000 and batch.memory == 0
    assert first.size + second.size == batch.size + BATCH_OVERHEAD  # one more batch header
    # The sequence of a batch that was never stamped stays unassigned.
    unstamped = _batch(records).split()
    assert [h.base_sequence for h in unstamped] == [-1, -1]


def test_an_encoded_batch_splits_into_halves_of_its_records():
    # Encoded by the caller (the Spark writer); the halves are re-encoded with offset deltas from 0.
    records = [(77, b"k%d" % i if i % 2 else None, b"v%d" % i, None) for i in range(5)]
    batch = EncodedBatch(TP, 5.0, record_body(records), 5, 77)
    batch.producer_id, batch.producer_epoch, batch.base_sequence = 7, 3, 40
    batch.drained, batch.memory = 6.0, 1000
    first, second = batch.split()
    assert [(r.timestamp, r.key, r.value) for r in RecordBatch(first.encode(0))] == [r[:3] for r in records[:2]]
    assert [(r.offset, r.key, r.value) for r in RecordBatch(second.encode(0))] == [
        (0, None, b"v2"), (1, b"k3", b"v3"), (2, None, b"v4")]
    assert (first.base_sequence, second.base_sequence) == (40, 42)
    assert all((h.producer_id, h.producer_epoch, h.drained, h.in_retry) == (7, 3, 6.0, True) for h in (first, second))
    assert first.memory + second.memory == 1000 and batch.memory == 0
    assert first.result.parts is None and batch.result.parts is not None


def test_sequences_wrap_like_the_broker_s():
    first, second = _batch([(1, None, b"a"), (1, None, b"b")], sequence=0x7FFFFFFF).split()
    assert (first.base_sequence, second.base_sequence) == (0x7FFFFFFF, 0)


def test_each_record_gets_its_own_half_s_outcome():
    batch = _batch([(100 + i, b"k", b"v%d" % i) for i in range(5)])
    futures = [FutureRecordMetadata(batch.result, i, 100 + i, 1, 2, -1) for i in range(5)]
    first, second = batch.split()
    second_first, second_second = second.split()  # a half refused again: halved again
    first.done(base_offset=30)
    assert not batch.result.is_done
    second_first.done(base_offset=50)
    second_second.done(error=errors.KafkaTimeoutError("late"))
    assert batch.result.is_done
    assert [f.get(0).offset for f in futures[:3]] == [30, 31, 50]
    for future in futures[3:]:
        assert future.failed() and isinstance(future.exception, errors.KafkaTimeoutError)
        with pytest.raises(errors.KafkaTimeoutError):
            future.get(0)
    assert futures[2].offset_and_timestamp() == (50, 102)
    # The whole batch's result reads as its first half's offsets and the first error.
    assert batch.result.base_offset == 30 and isinstance(batch.result.error, errors.KafkaTimeoutError)
    assert batch.result.leaves(1, 4) == [(first.result, 1, 1), (second_first.result, 0, 1),
                                         (second_second.result, 0, 2)]


def test_callbacks_wait_for_both_halves_and_see_their_own_half():
    batch = _batch([(1, None, b"a"), (1, None, b"b")])
    futures = [FutureRecordMetadata(batch.result, i, 1, -1, 1, -1) for i in range(2)]
    seen = []
    for future in futures:
        future.add_callback(lambda md: seen.append(("ok", md.offset)))
        future.add_errback(lambda exc: seen.append(("error", type(exc).__name__)))
    first, second = batch.split()
    first.done(base_offset=8)
    assert seen == []
    second.done(error=errors.NotLeaderForPartitionError("moved"))
    assert seen == [("ok", 8), ("error", "NotLeaderForPartitionError")]


@fast_paths.override(COMPACT_FUTURES=True)
def test_index_only_futures_keep_their_timestamps_through_a_split():
    batch = ProducerBatch(TP, 0.0, 1 << 20)
    futures = [batch.try_append(500 + i, None, b"x" * i, None, 20) for i in range(4)]
    assert all(type(f) is ValueRecordFuture for f in futures)
    first, second = batch.split()
    first.done(base_offset=0)
    second.done(base_offset=10)
    assert [(m.offset, m.timestamp, m.serialized_value_size) for m in (f.get(0) for f in futures)] == \
        [(0, 500, -1), (1, 501, 1), (10, 502, 2), (11, 503, 3)]


def test_a_result_split_reports_its_halves_as_runs():
    result = ProduceResult(TP)
    first, second = result.split_at(3)
    assert result.leaf(2) == (first, 2) and result.leaf(3) == (second, 0)
    assert result.leaves(0, 3) == [(first, 0, 3)]
    assert result.leaves(2, 3) == [(first, 2, 1), (second, 0, 2)]


# -- against the mock cluster ----------------------------------------------------------------


def _read(bootstrap, topic, count, timeout=30):
    from kafka.consumer import KafkaConsumer

    consumer = KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest", enable_auto_commit=False,
                             isolation_level="read_committed")
    try:
        consumer.assign([TopicPartition(topic, 0)])
        got = []
        for _ in range(int(timeout * 2)):
            for records in consumer.poll(timeout_ms=500).values():
                got += [(r.offset, r.value) for r in records]
            if len(got) >= count:
                break
        return got
    finally:
        consumer.close()


@pytest.mark.parametrize("mode", ["acks=1, 1 in flight", "idempotent, 5 in flight", "transactional, 5 in flight"])
def test_every_record_lands_in_order_after_the_broker_refuses_the_batch(mock_cluster, mode):
    # Without idempotence, order across a split (as across any retry) needs one request in flight.
    # The mock checks sequence numbers only for transactional producers (see test_reliability.py):
    # that run shows the halves keep the batch's sequence range.
    topic = "split-" + uuid.uuid4().hex[:8]
    mock_cluster.create_topic(topic, 1, 1)
    transactional = mode.startswith("transactional")
    config = dict(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=60_000, retry_backoff_ms=10)
    if mode.startswith("acks=1"):
        config.update(acks=1, enable_idempotence=False, max_in_flight_requests_per_connection=1)
    elif transactional:
        config.update(transactional_id="split-" + uuid.uuid4().hex[:8], max_in_flight_requests_per_connection=5)
    else:
        config.update(enable_idempotence=True, acks="all", max_in_flight_requests_per_connection=5)
    with KafkaProducer(**config) as producer:
        if transactional:
            producer.init_transactions()
            producer.begin_transaction()
        producer.send(topic, b"warm-up").get(30)
        # The 20-record batch is refused, then its first half (10) and that half's first half (5).
        mock_cluster.push_request_errors("Produce", MESSAGE_TOO_LARGE, MESSAGE_TOO_LARGE, MESSAGE_TOO_LARGE)
        futures = [producer.send(topic, b"record-%02d" % i) for i in range(20)]
        producer.flush(30)
        offsets = [f.get(30).offset for f in futures]
        if transactional:
            producer.commit_transaction()
    got = _read(mock_cluster.bootstrap_servers, topic, 21)
    assert [value for _, value in got] == [b"warm-up"] + [b"record-%02d" % i for i in range(20)]
    assert offsets == [offset for offset, _ in got[1:]]


def test_a_single_record_above_the_limit_still_fails(mock_cluster):
    mock_cluster.create_topic("split-single", 1, 1)
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, acks=1, linger_ms=5) as producer:
        producer.send("split-single", b"warm-up").get(30)
        mock_cluster.push_request_errors("Produce", MESSAGE_TOO_LARGE)
        with pytest.raises(errors.MessageSizeTooLargeError):
            producer.send("split-single", b"x" * 1000).get(30)
        assert producer.send("split-single", b"next").get(30).offset == 1


def test_send_batch_offsets_follow_the_halves(mock_cluster):
    mock_cluster.create_topic("split-bulk", 1, 1)
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, acks=1, linger_ms=60_000) as producer:
        producer.send("split-bulk", b"warm-up").get(30)
        mock_cluster.push_request_errors("Produce", MESSAGE_TOO_LARGE)
        future = producer.send_batch("split-bulk", [b"%d" % i for i in range(6)], partition=0)
        producer.flush(30)
        assert future.get(30) == 6
        assert future.offsets() == [(TopicPartition("split-bulk", 0), 1, 3), (TopicPartition("split-bulk", 0), 4, 3)]


def test_encoded_batches_are_split_and_every_record_lands_in_order(mock_cluster):
    # The Spark writer's batches arrive encoded (send_encoded); a refused one halves like any other.
    mock_cluster.create_topic("split-encoded", 1, 1)
    values = [b"row-%02d" % i for i in range(12)]
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, acks=1, linger_ms=60_000,
                       max_in_flight_requests_per_connection=1) as producer:
        producer.send("split-encoded", b"warm-up").get(30)
        mock_cluster.push_request_errors("Produce", MESSAGE_TOO_LARGE, MESSAGE_TOO_LARGE)
        future = send_encoded(producer, "split-encoded", len(values), estimate_record_sizes([None] * 12, values),
                              python_encoder(None, values), partition=0)
        producer.flush(30)
        assert future.get(30) == 12
        # The batch of 12, then its first half, were refused: 3, 3 and 6 records.
        assert future.offsets() == [(TopicPartition("split-encoded", 0), 1, 3),
                                    (TopicPartition("split-encoded", 0), 4, 3),
                                    (TopicPartition("split-encoded", 0), 7, 6)]
    got = _read(mock_cluster.bootstrap_servers, "split-encoded", 13)
    assert [value for _, value in got] == [b"warm-up"] + values
