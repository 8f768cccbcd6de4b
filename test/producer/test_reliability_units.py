"""Regression tests for producer bugs found by the reliability run (test_reliability.py).

A batch that failed and waits to be retried used to take new records: the
accumulator reopened it for appends when it went back into its queue. Its
bytes had been encoded (and its sequence range stamped) at the first
attempt, so the retry sent only the original records, yet the success of
that retry completed every record of the batch, the late ones included:
they were acknowledged and never written.
"""

from __future__ import annotations

import time
import uuid

import pytest

from kafka.cluster import ClusterMetadata
from kafka.producer import KafkaProducer
from kafka.producer.accumulator import RecordAccumulator
from kafka.structs import TopicPartition
from test.support.waiting import wait_until

TP = TopicPartition("t", 0)
REQUEST_TIMED_OUT = 7


class _OneLeader(ClusterMetadata):
    """Cluster metadata where broker 1 leads every partition asked about."""

    def leader_for_partition(self, tp):  # type: ignore[override]
        return 1

    def partitions_for_broker(self, broker_id):  # type: ignore[override]
        return {TP} if broker_id == 1 else set()


def _append(acc, value):
    future, _, _ = acc.append(TP, 0, None, value, None, max_block=1.0)
    return future


def test_a_batch_waiting_for_its_retry_takes_no_new_records():
    acc = RecordAccumulator(batch_size=16384, linger_ms=0, retry_backoff_ms=50)
    cluster = _OneLeader()
    _append(acc, b"first")
    [sent] = acc.drain(cluster, [1], 1 << 20, now=100.0)[1]
    encoded = sent.encode(0)
    acc.reenqueue(sent, now=100.0)  # the request failed with a retriable error

    late = _append(acc, b"late")

    assert sent.record_count == 1
    assert acc.queued() == {TP: 2}  # the late record opened a batch of its own
    [retry] = acc.drain(cluster, [1], 1 << 20, now=100.1)[1]
    assert retry is sent and retry.encode(0) == encoded
    [follower] = acc.drain(cluster, [1], 1 << 20, now=100.2)[1]
    assert [r[2] for r in follower.record_tuples()] == [b"late"]
    # Completing the retried batch must not complete the late record.
    retry.done(base_offset=0)
    assert retry.result.is_done and not late.is_done


def test_a_batch_never_drained_still_takes_records():
    acc = RecordAccumulator(batch_size=16384, linger_ms=0)
    _append(acc, b"a")
    _append(acc, b"b")
    assert acc.queued() == {TP: 1}


def _log(bootstrap, topic):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    consumer = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": uuid.uuid4().hex,
                                         "enable.auto.commit": False, "isolation.level": "read_uncommitted"})
    try:
        low, high = consumer.get_watermark_offsets(confluent_kafka.TopicPartition(topic, 0), timeout=10)
        consumer.assign([confluent_kafka.TopicPartition(topic, 0, 0)])
        values, deadline = [], time.monotonic() + 20
        while time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is None:
                if len(values) >= high - low - 1:
                    break
                continue
            if msg.error() is None:
                values.append(msg.value())
        return high - low, values
    finally:
        consumer.close()


@pytest.mark.parametrize("mode", ["plain", "idempotent", "transactional"])
def test_records_sent_while_a_batch_awaits_its_retry_are_all_written(mock_cluster, mode):
    """One retriable Produce error, then records arrive during the retry backoff."""
    topic = "retry-" + mode
    mock_cluster.create_topic(topic, 1, 3)
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=0,
                             retry_backoff_ms=1000, enable_idempotence=mode != "plain",
                             transactional_id="retry-txn" if mode == "transactional" else None)
    try:
        if mode == "transactional":
            producer.init_transactions()
            producer.begin_transaction()
        producer.send(topic, value=b"warm-up", partition=0).get(10)  # connections and metadata are ready
        mock_cluster.push_request_errors("Produce", REQUEST_TIMED_OUT)
        futures = [producer.send(topic, value=b"first", partition=0)]
        # Wait for the error to come back: "first" is then queued again, waiting for its retry.
        queue = producer._accumulator._batches[TopicPartition(topic, 0)]
        deadline = time.monotonic() + 5
        while not (queue and queue[0].in_retry) and time.monotonic() < deadline:
            time.sleep(0.005)
        assert len(queue) == 1 and queue[0].in_retry and not futures[0].is_done
        futures += [producer.send(topic, value=b"late-%d" % i, partition=0) for i in range(20)]
        if mode == "transactional":
            producer.commit_transaction()
        else:
            producer.flush(20)
    finally:
        producer.close(10)
    offsets = [f.get(0).offset for f in futures]
    size, values = _log(mock_cluster.bootstrap_servers, topic)
    markers = 1 if mode == "transactional" else 0  # the COMMIT control record takes an offset
    assert size == 1 + len(futures) + markers
    assert values == [b"warm-up", b"first"] + [b"late-%d" % i for i in range(20)]
    assert offsets == sorted(offsets) and len(set(offsets)) == len(offsets)


@pytest.mark.parametrize("hurry", ["flushing", "a newer batch is queued behind it"])
def test_a_batch_in_retry_back_off_does_not_make_its_leader_ready(hurry):
    # The reliability run stalled here: during a flush the accumulator called
    # the leader ready while drain() still refused the retry for its
    # back-off, so the sender found nothing to send and slept its longest
    # poll (1 s) on every retry: slower than the mock cluster's injected
    # errors arrived, and the flush never ended.
    acc = RecordAccumulator(batch_size=16384, linger_ms=0, retry_backoff_ms=50)
    cluster = _OneLeader()
    _append(acc, b"first")
    [sent] = acc.drain(cluster, [1], 1 << 20, now=100.0)[1]
    acc.reenqueue(sent, now=100.0)
    if hurry == "flushing":
        acc.begin_flush()
    else:
        _append(acc, b"second")

    nodes, next_check, _ = acc.ready(cluster, now=100.02)
    assert nodes == set()
    assert next_check == pytest.approx(0.03)

    nodes, _, _ = acc.ready(cluster, now=100.06)
    assert nodes == {1}
    [retry] = acc.drain(cluster, nodes, 1 << 20, now=100.06)[1]
    assert retry is sent


@pytest.mark.parametrize("idempotent", [False, True], ids=["plain", "idempotent"])
def test_one_request_in_flight_keeps_one_batch_per_partition_in_flight(mock_cluster, idempotent):
    # test_reliability's idempotent run reordered records now and then: a
    # partition's next batch went to its new leader while the batch before it
    # was still in flight to the old one, whose error then sent that batch
    # again, after the newer one. A broker's sequence check would have refused
    # the newer batch; the librdkafka mock checks sequences only for
    # transactional producers. The Java client keeps one batch per partition
    # in flight whenever max.in.flight.requests.per.connection is 1.
    topic = "one-in-flight-" + ("idempotent" if idempotent else "plain")
    mock_cluster.create_topic(topic, 1, 3)
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=0,
                             enable_idempotence=idempotent, acks="all",
                             max_in_flight_requests_per_connection=1)
    tp = TopicPartition(topic, 0)
    turns = []
    producer.on_sender_turn(lambda: turns.append(None))
    try:
        producer.send(topic, value=b"warm-up", partition=0).get(10)
        mock_cluster.set_rtt(-1, 1500)  # responses come late: the next batch is in flight for a while
        first = producer.send(topic, value=b"first", partition=0)
        assert wait_until(lambda: tp in producer._accumulator._muted, timeout=5) and not first.is_done
        second = producer.send(topic, value=b"second", partition=0)
        # A sender turn started after "second" was queued has run to its end once the next one starts:
        # without the rule, that turn would have sent it.
        for _ in range(2):
            seen = len(turns)
            producer.wakeup_sender()
            assert wait_until(lambda: len(turns) > seen, timeout=5, interval=0.005)
        assert producer._accumulator._batches[tp] and not first.is_done  # "second" waits for "first"'s answer
        mock_cluster.set_rtt(-1, 0)
        assert second.get(20).offset == first.get(0).offset + 1
    finally:
        mock_cluster.set_rtt(-1, 0)
        producer.close(10)
