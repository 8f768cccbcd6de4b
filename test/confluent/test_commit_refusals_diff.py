"""Commits librdkafka refuses, through confluent_kafka and kafka.confluent on one broker.

librdkafka leaves offsets below 0 (logical offsets included) out of a commit
and fails one left with nothing to send with ``_NO_OFFSET``: a synchronous
commit raises it, an asynchronous one reports it to ``on_commit``. The
group's committed offset stays what it was.
"""

from __future__ import annotations

import time
import uuid

import pytest

from test.confluent.support import topic_with


def _consumer(lib, broker, topic, **extra):
    conf = {"bootstrap.servers": broker.bootstrap_servers, "group.id": "cr-" + uuid.uuid4().hex[:8],
            "auto.offset.reset": "earliest", "enable.auto.commit": False}
    conf.update(extra)
    consumer = lib.Consumer(conf)
    consumer.assign([lib.TopicPartition(topic, 0, 0)])
    return consumer


def _error_of(call):
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 - the outcome is compared
        error = exc.args[0]
        return ("raised", type(exc).__name__, error.name(), error.str())
    return ("returned", [(tp.partition, tp.offset, tp.error) for tp in result or ()])


def _committed(lib, consumer, topic):
    return [tp.offset for tp in consumer.committed([lib.TopicPartition(topic, 0)], timeout=10)]


@pytest.mark.parametrize("offset", [-5, -1001, -1, -2, -1000])
def test_a_synchronous_commit_of_a_negative_offset_is_refused_and_changes_nothing(broker, ck, kc, offset):
    topic = topic_with(broker, ck, "cr-neg")
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker, topic)
        try:
            consumer.commit(offsets=[lib.TopicPartition(topic, 0, 2)], asynchronous=False)
            outcome = _error_of(lambda: consumer.commit(offsets=[lib.TopicPartition(topic, 0, offset)],
                                                        asynchronous=False))
            results[lib.__name__] = (outcome, _committed(lib, consumer, topic))
        finally:
            consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"] == (
        ("raised", "KafkaException", "_NO_OFFSET", "Commit failed: Local: No offset stored"), [2])


def test_a_negative_offset_beside_a_valid_one_is_left_out(broker, ck, kc):
    topic = topic_with(broker, ck, "cr-mixed")
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker, topic)
        other = lib.TopicPartition(topic + "-none", 0, -5)
        try:
            outcome = consumer.commit(offsets=[other, lib.TopicPartition(topic, 0, 3)], asynchronous=False)
            results[lib.__name__] = (sorted((tp.topic == topic, tp.offset) for tp in outcome),
                                     _committed(lib, consumer, topic))
        finally:
            consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"] == ([(False, -5), (True, 3)], [3])


@pytest.mark.parametrize("explicit", [True, False], ids=["negative-offset", "nothing-stored"])
def test_an_asynchronous_commit_with_nothing_to_send_reports_no_offset_to_on_commit(broker, ck, kc, explicit):
    topic = topic_with(broker, ck, "cr-async")
    results = {}
    for lib in (ck, kc):
        reports = []
        consumer = _consumer(lib, broker, topic, on_commit=lambda err, parts: reports.append(
            (err.name() if err else None, [(tp.partition, tp.offset) for tp in parts])))
        try:
            kwargs = {"offsets": [lib.TopicPartition(topic, 0, -5)]} if explicit else {}
            returned = consumer.commit(asynchronous=True, **kwargs)
            deadline = time.monotonic() + 10
            while not reports and time.monotonic() < deadline:
                consumer.poll(0.1)
            results[lib.__name__] = (returned, reports, _committed(lib, consumer, topic))
        finally:
            consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"] == (
        None, [("_NO_OFFSET", [(0, -5 if explicit else -1001)])], [-1001])


def test_a_commit_for_a_topic_that_does_not_exist_fails_at_once(broker, ck, kc):
    # librdkafka retries a commit only for errors of the coordinator; an error
    # the broker gives for the partition itself ends it.
    results = {}
    for lib in (ck, kc):
        missing = "cr-missing-" + uuid.uuid4().hex[:8]
        reports = []
        consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g-" + missing,
                                 "enable.auto.commit": False, "on_commit": lambda err, parts: reports.append(
                                     (err.code(), err.str(), err.retriable(),
                                      [(tp.partition, tp.offset, tp.error.code() if tp.error else None)
                                       for tp in parts]))})
        try:
            started = time.monotonic()
            sync = _error_of(lambda: consumer.commit(offsets=[lib.TopicPartition(missing, 0, 5)],
                                                     asynchronous=False))
            sync_took = time.monotonic() - started
            consumer.commit(offsets=[lib.TopicPartition(missing, 1, 6)], asynchronous=True)
            deadline = time.monotonic() + 10
            while not reports and time.monotonic() < deadline:
                consumer.poll(0.1)  # nothing assigned: the report still comes from poll()
            results[lib.__name__] = (sync, reports)
        finally:
            consumer.close()
        assert sync_took < 5, lib.__name__
    code = ck.KafkaError.UNKNOWN_TOPIC_OR_PART
    assert results["kafka.confluent"] == results["confluent_kafka"] == (
        ("raised", "KafkaException", "UNKNOWN_TOPIC_OR_PART", "Commit failed: Broker: Unknown topic or partition"),
        [(code, "Broker: Unknown topic or partition", False, [(1, 6, code)])])



def test_stored_offsets_keep_their_metadata_through_the_commit(mock_cluster, ck, kc):
    # On the mock cluster: the embedded broker answers OffsetFetch without the
    # metadata it was given (for confluent_kafka too).
    mock_cluster.create_topic("meta", 1)
    results = {}
    for lib in (ck, kc):
        group = "cr-meta-" + uuid.uuid4().hex[:8]
        consumer = lib.Consumer({"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": group,
                                 "enable.auto.commit": False, "enable.auto.offset.store": False})
        try:
            consumer.assign([lib.TopicPartition("meta", 0, 0)])
            consumer.store_offsets(offsets=[lib.TopicPartition("meta", 0, 2, metadata="where-i-was")])
            committed = consumer.commit(asynchronous=False)
        finally:
            consumer.close()
        fresh = lib.Consumer({"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": group})
        try:
            found = fresh.committed([lib.TopicPartition("meta", 0)], timeout=10)
        finally:
            fresh.close()
        results[lib.__name__] = ([(tp.offset, tp.metadata) for tp in committed],
                                 [(tp.offset, tp.metadata) for tp in found])
    assert results["kafka.confluent"] == results["confluent_kafka"] == ([(2, "where-i-was")], [(2, "where-i-was")])
