"""No loss, no duplicates, no reordering while the 3-broker mock cluster misbehaves.

An idempotent producer sends 100k keyed records while partition leaders
move, brokers go down and come back, and Produce requests fail with
retriable errors. Every acknowledged record must then be in the log exactly
once, in send order per partition (read back by confluent-kafka).

What the librdkafka mock (2.16) does, read in its source:

- ``rd_kafka_mock_validate_records`` (rdkafka_mock.c) returns at once when
  the Produce request has no transactional id: the mock checks producer
  sequence numbers only for transactional producers. A real broker refuses a
  batch whose predecessor failed (OUT_OF_ORDER_SEQUENCE_NUMBER), which keeps
  an idempotent producer with 5 requests in flight in order; the mock takes
  it. So the run with 5 requests in flight is transactional (the mock then
  checks sequences as a broker does), and the plain idempotent run uses one
  request in flight, which keeps one batch per partition in flight (leader
  moves included).
- For a transactional batch whose base sequence falls inside the window of
  the partition's last 5 appends, the mock answers success with base offset
  -1 and writes nothing (the ``is_dup`` path of
  ``rd_kafka_mock_partition_log_append``); below the window it answers
  DUPLICATE_SEQUENCE_NUMBER. Both are right only if the earlier copy landed,
  which is what the log-size check verifies.
- Injected errors (``rd_kafka_mock_next_request_error`` in the Produce
  handler) fail the whole request and write nothing; pidstate lives on the
  partition, not on the broker, so leader moves keep it.
- Each committed transaction adds one COMMIT control record (one offset) to
  every partition it wrote to; the expected log sizes count them.

This test found two producer bugs (regression tests in
test_reliability_units.py): a batch waiting for its retry took new records,
which were then acknowledged with it but never sent, about 20% of the
records of the transactional run. It also found that a retry in its
back-off made the accumulator call the leader ready during a flush, so the
sender slept a full second per retry instead of ``retry_backoff_ms``.
"""

from __future__ import annotations

import random
import threading
import time
import uuid

import pytest

from kafka.producer import KafkaProducer

TOPIC = "reliable"
PARTITIONS = 6
RECORDS = 100_000
CHUNK = 5_000
NOT_LEADER, LEADER_NOT_AVAILABLE, REQUEST_TIMED_OUT = 6, 5, 7


def _faults(cluster, stop):
    rnd = random.Random(7)
    step = 0
    while not stop.is_set():
        step += 1
        kind = step % 3
        if kind == 0:
            cluster.set_partition_leader(TOPIC, rnd.randrange(PARTITIONS), rnd.randint(1, 3))
        elif kind == 1:
            # Quirk of the mock: injected errors pile up on one cluster-wide
            # stack until Produce requests consume them. Were the producer
            # slower than this loop (a loaded machine), the pile would grow
            # and every Produce fail for as long as the loop runs, which no
            # broker does; so each burst replaces what is left of the last.
            cluster.clear_request_errors("Produce")
            cluster.push_request_errors("Produce", NOT_LEADER, LEADER_NOT_AVAILABLE, REQUEST_TIMED_OUT)
        else:
            broker = rnd.randint(1, 3)
            cluster.broker_down(broker)
            stop.wait(0.3)
            cluster.broker_up(broker)
        stop.wait(0.2)


def _log_sizes(bootstrap):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    consumer = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": uuid.uuid4().hex})
    try:
        sizes = {}
        for p in range(PARTITIONS):
            low, high = consumer.get_watermark_offsets(confluent_kafka.TopicPartition(TOPIC, p), timeout=10)
            sizes[p] = high - low
        return sizes
    finally:
        consumer.close()


def _read_all(bootstrap, expected, timeout=120):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    consumer = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": uuid.uuid4().hex,
                                         "enable.auto.commit": False, "fetch.queue.backoff.ms": 10,
                                         "isolation.level": "read_committed"})
    try:
        consumer.assign([confluent_kafka.TopicPartition(TOPIC, p, 0) for p in range(PARTITIONS)])
        got = {p: [] for p in range(PARTITIONS)}
        total, deadline = 0, time.monotonic() + timeout
        while total < expected and time.monotonic() < deadline:
            for msg in consumer.consume(10000, 0.5):
                if msg.error() is None:
                    got[msg.partition()].append(int(msg.value()))
                    total += 1
        # Anything beyond the expected count would be a duplicate: look briefly.
        for msg in consumer.consume(10000, 1.0):
            if msg.error() is None:
                got[msg.partition()].append(int(msg.value()))
        return got
    finally:
        consumer.close()


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["transactional, 5 in flight", "idempotent, 1 in flight"])
def test_every_acknowledged_record_exactly_once_and_in_order(mock_cluster, mode):
    mock_cluster.create_topic(TOPIC, PARTITIONS, 3)
    transactional = mode.startswith("transactional")
    stop = threading.Event()
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, enable_idempotence=True,
                             transactional_id="reliable" if transactional else None,
                             max_in_flight_requests_per_connection=5 if transactional else 1,
                             linger_ms=5, request_timeout_ms=3000, retry_backoff_ms=20,
                             reconnect_backoff_max_ms=200, delivery_timeout_ms=120000)
    acked, failed = [], []
    markers = {p: 0 for p in range(PARTITIONS)}  # COMMIT control records per partition
    faults = threading.Thread(target=_faults, args=(mock_cluster, stop), daemon=True)
    try:
        if transactional:
            producer.init_transactions()
        faults.start()
        # Spread the records over several seconds so the faults hit all along.
        for start in range(0, RECORDS, CHUNK):
            if transactional:
                producer.begin_transaction()
            futures = [(i, producer.send(TOPIC, key=b"key-%d" % (i % 500), value=b"%d" % i))
                       for i in range(start, start + CHUNK)]
            if transactional:
                producer.commit_transaction()
            else:
                producer.flush(timeout=120)
            for i, future in futures:
                (acked if future.succeeded() else failed).append((i, future))
            if transactional:
                for p in {future.get(0).partition for _, future in futures if future.succeeded()}:
                    markers[p] += 1
            stop.wait(0.1)
    finally:
        stop.set()
        faults.join(10)
        for broker in (1, 2, 3):
            mock_cluster.broker_up(broker)
        producer.close(timeout=30)
    assert not failed, failed[:3]
    expected_by_partition = {p: [] for p in range(PARTITIONS)}
    for i, future in acked:
        expected_by_partition[future.get(0).partition].append(i)
    # The log holds as many records as were acknowledged, no more, no less...
    assert _log_sizes(mock_cluster.bootstrap_servers) == {
        p: len(v) + markers[p] for p, v in expected_by_partition.items()}
    # ...and they are the acknowledged records, in send order.
    got = _read_all(mock_cluster.bootstrap_servers, len(acked))
    for p in range(PARTITIONS):
        assert got[p] == expected_by_partition[p], _difference(p, expected_by_partition[p], got[p])


def _difference(partition, expected, got):
    """A readable account of how a partition's log differs from what was acknowledged."""
    seen = set(got)
    missing = [i for i in expected if i not in seen]
    duplicates = len(got) - len(seen)
    position = {value: index for index, value in enumerate(expected)}
    disorder = next((j for j in range(1, len(got))
                     if position.get(got[j], -1) < position.get(got[j - 1], -1)), None)
    return "partition %d: %d missing (first %s), %d duplicates, first out of order at %s: %s" % (
        partition, len(missing), missing[:5], duplicates, disorder,
        got[disorder - 3:disorder + 3] if disorder else None)
