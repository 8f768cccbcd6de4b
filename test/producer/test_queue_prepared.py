"""KafkaProducer.queue_prepared() and on_sender_turn(): the bulk entry for front-ends."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from kafka import direct, errors
from kafka.conn.blocking import BlockingConnection
from kafka.consumer import KafkaConsumer
from kafka.producer import KafkaProducer
from kafka.record.batch import estimate_record_size
from kafka.structs import TopicPartition
from test.support.waiting import wait_until


def _topic(broker, partitions=1):
    name = "prepared-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=partitions)
    return name


def _records(count, start=0):
    records = [(1_700_000_000_000 + i, b"k%d" % i, b"v%d" % i, [("h", b"%d" % i)] if i % 3 == 0 else None)
               for i in range(start, start + count)]
    return records, [estimate_record_size(key, value, headers) for _, key, value, headers in records]


def _read(broker, topic, count):
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
    try:
        consumer.assign([TopicPartition(topic, 0)])
        records = []
        deadline = time.monotonic() + 30
        while len(records) < count and time.monotonic() < deadline:
            for batch in consumer.poll(timeout_ms=500).values():
                records.extend(batch)
        return [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in records]
    finally:
        consumer.close()


def test_runs_land_in_batches_in_order_and_each_run_is_reported(broker):
    topic = _topic(broker)
    # Small batches, so that the records spread over several of them.
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, batch_size=300, linger_ms=20) as producer:
        producer.partitions_for(topic)
        placed = []
        records, sizes = _records(40)
        producer.queue_prepared(topic, 0, records, sizes, placed)
        assert len(placed) > 1
        assert sum(count for _, _, count in placed) == 40
        producer.flush(30)
    offsets = []
    for result, first, count in placed:
        assert result.is_done and result.error is None
        offsets.extend(range(result.base_offset + first, result.base_offset + first + count))
    assert offsets == list(range(40))
    assert _read(broker, topic, 40) == [(i, ts, key, value, list(headers or ())) for i, (ts, key, value, headers)
                                    in enumerate(records)]


def test_a_closed_producer_refuses_and_places_nothing(broker):
    topic = _topic(broker)
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    producer.partitions_for(topic)
    producer.close(5)
    placed = []
    records, sizes = _records(3)
    with pytest.raises(errors.IllegalStateError):
        producer.queue_prepared(topic, 0, records, sizes, placed)
    assert placed == []


def test_full_buffer_memory_refuses_at_once_and_says_what_was_placed(broker):
    topic = _topic(broker)
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, buffer_memory=4000, batch_size=1000,
                             linger_ms=60_000, max_block_ms=60_000)
    try:
        producer.partitions_for(topic)
        placed = []
        records, sizes = _records(200)
        with pytest.raises(errors.KafkaTimeoutError):  # no waiting for memory, whatever max_block_ms says
            producer.queue_prepared(topic, 0, records, sizes, placed)
        assert 0 < sum(count for _, _, count in placed) < 200
    finally:
        producer.close(0)


def test_turn_hooks_run_on_the_sender_thread_when_woken(broker):
    seen = []
    woken = threading.Event()
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    try:
        def hook():
            seen.append(threading.current_thread().name)
            if woken.is_set():
                raise RuntimeError("a faulty hook is logged, and the sender goes on")

        producer.on_sender_turn(hook)
        assert wait_until(lambda: seen, timeout=10)
        woken.set()
        before = len(seen)
        producer.wakeup_sender()
        assert wait_until(lambda: len(seen) > before, timeout=10)
        assert seen[-1].startswith("kafkawire-producer-sender-")
        # Still sending after the hook raised.
        topic = _topic(broker)
        assert producer.send(topic, b"after").get(30).offset == 0
    finally:
        producer.close(5)
