"""Positions and commits follow the records the application was given, on the embedded broker.

A consumer buffers more records than it hands out: one ``poll`` decodes up to
``max_poll_records`` of them, and iteration hands those out one at a time.
What ``position()`` reports and what a commit (explicit, on ``close()`` or
automatic) stores must count only the records already handed out; otherwise
the next member of the group starts after records nobody processed.
kafka-python behaves this way (its iterator moves the position record by
record); these tests hold us to it.
"""

from __future__ import annotations

import time
import uuid

import pytest

from kafka import KafkaConsumer, KafkaProducer, errors
from kafka.structs import TopicPartition
from test.support.topics import create_topic

RECORDS = 100


@pytest.fixture
def topic(broker):
    name = "handed-%s" % uuid.uuid4().hex[:8]
    create_topic(broker.bootstrap_servers, name, 1)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=50) as producer:
        for i in range(RECORDS):
            producer.send(name, value=b"%d" % i, partition=0)
        producer.flush(30)
    return name


def _consumer(broker, group, **config):
    settings = dict(bootstrap_servers=broker.bootstrap_servers, group_id=group, auto_offset_reset="earliest",
                    enable_auto_commit=False, consumer_timeout_ms=10000)
    settings.update(config)
    consumer = KafkaConsumer(**settings)
    return consumer


def _first_offsets(consumer, count):
    return [next(consumer).offset for _ in range(count)]


def test_iteration_position_counts_only_records_handed_out(broker, topic):
    tp = TopicPartition(topic, 0)
    consumer = _consumer(broker, "g-" + uuid.uuid4().hex[:8])
    consumer.assign([tp])
    try:
        assert _first_offsets(consumer, 10) == list(range(10))
        assert consumer.position(tp) == 10
        consumer.commit()
        assert consumer.committed(tp) == 10
    finally:
        consumer.close()


def test_close_commits_what_iteration_handed_out_and_the_next_member_resumes_there(broker, topic):
    tp = TopicPartition(topic, 0)
    group = "g-" + uuid.uuid4().hex[:8]
    first = _consumer(broker, group, enable_auto_commit=True)
    first.assign([tp])
    assert _first_offsets(first, 10) == list(range(10))
    first.close()  # auto-commit on close

    second = _consumer(broker, group)
    second.assign([tp])
    try:
        assert second.committed(tp) == 10
        assert [record.offset for record in second] == list(range(10, RECORDS))
    finally:
        second.close()


def test_poll_with_max_records_moves_the_position_by_those_records(broker, topic):
    tp = TopicPartition(topic, 0)
    consumer = _consumer(broker, "g-" + uuid.uuid4().hex[:8])
    consumer.assign([tp])
    try:
        got, deadline = [], time.monotonic() + 30
        while not got and time.monotonic() < deadline:
            got = consumer.poll(timeout_ms=1000, max_records=7).get(tp, [])
        assert [r.offset for r in got] == list(range(7))
        assert consumer.position(tp) == 7
        consumer.commit()
        assert consumer.committed(tp) == 7
    finally:
        consumer.close()


def test_poll_after_an_iteration_stopped_halfway_neither_skips_nor_repeats(broker, topic):
    tp = TopicPartition(topic, 0)
    consumer = _consumer(broker, "g-" + uuid.uuid4().hex[:8])
    consumer.assign([tp])
    try:
        assert _first_offsets(consumer, 10) == list(range(10))
        seen, deadline = [], time.monotonic() + 30
        while len(seen) < RECORDS - 10 and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=1000).values():
                seen.extend(r.offset for r in records)
        assert seen == list(range(10, RECORDS))
    finally:
        consumer.close()


def test_a_seek_during_iteration_drops_the_records_held_for_that_partition(broker, topic):
    tp = TopicPartition(topic, 0)
    consumer = _consumer(broker, "g-" + uuid.uuid4().hex[:8])
    consumer.assign([tp])
    try:
        assert _first_offsets(consumer, 5) == list(range(5))
        consumer.seek(tp, 50)
        assert _first_offsets(consumer, 3) == [50, 51, 52]
        assert consumer.position(tp) == 53
    finally:
        consumer.close()


def test_pausing_during_iteration_keeps_the_rest_for_after_resume(broker, topic):
    tp = TopicPartition(topic, 0)
    consumer = _consumer(broker, "g-" + uuid.uuid4().hex[:8], consumer_timeout_ms=1500)
    consumer.assign([tp])
    try:
        assert _first_offsets(consumer, 5) == list(range(5))
        consumer.pause(tp)
        assert list(consumer) == []
        assert consumer.position(tp) == 5
        consumer.resume(tp)
        assert [record.offset for record in consumer] == list(range(5, RECORDS))
    finally:
        consumer.close()


def test_a_listener_that_raises_loses_no_record(broker):
    name = "listener-%s" % uuid.uuid4().hex[:8]
    create_topic(broker.bootstrap_servers, name, 2)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=20) as producer:
        for partition in (0, 1):
            for i in range(500):
                producer.send(name, value=b"%d" % i, partition=partition)
        producer.flush(30)

    class RaisingOnce:
        raised = 0

        def on_partitions_revoked(self, revoked):
            pass

        def on_partitions_assigned(self, assigned):
            if not self.raised:
                self.raised += 1
                raise RuntimeError("listener failed")

    listener = RaisingOnce()
    consumer = _consumer(broker, "g-" + uuid.uuid4().hex[:8], session_timeout_ms=6000, heartbeat_interval_ms=500)
    consumer.subscribe([name], listener=listener)
    seen, failures = set(), 0
    deadline = time.monotonic() + 60
    try:
        while len(seen) < 1000 and time.monotonic() < deadline:
            try:
                batches = consumer.poll(timeout_ms=200)
            except RuntimeError:
                failures += 1
                continue
            for tp, records in batches.items():
                seen.update((tp.partition, r.offset) for r in records)
    finally:
        consumer.close()
    assert (listener.raised, failures) == (1, 1)
    assert {(p, o) for p in (0, 1) for o in range(500)} - seen == set()


@pytest.mark.parametrize("arguments, error", [
    (dict(max_records=0), errors.IllegalArgumentError),
    (dict(max_records=-1), errors.IllegalArgumentError),
    (dict(max_records=1.5), errors.IllegalArgumentTypeError),
    (dict(timeout_ms=-1), errors.IllegalArgumentError),
])
def test_poll_refuses_bad_limits_at_once(broker, topic, arguments, error):
    # max_records=-1 used to make poll() spin forever at full CPU with records buffered.
    consumer = _consumer(broker, "g-" + uuid.uuid4().hex[:8])
    consumer.assign([TopicPartition(topic, 0)])
    try:
        assert consumer.poll(timeout_ms=5000, max_records=1)  # records are buffered from here on
        started = time.monotonic()
        with pytest.raises(error):
            consumer.poll(**dict(dict(timeout_ms=100), **arguments))
        assert time.monotonic() - started < 5
        with pytest.raises(ValueError if error is not errors.IllegalArgumentTypeError else TypeError):
            consumer.poll(**dict(dict(timeout_ms=100), **arguments))  # kafka-python's classes catch them
    finally:
        consumer.close()
