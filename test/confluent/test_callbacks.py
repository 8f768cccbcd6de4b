"""Callbacks and life cycle details: stats_cb, raising on_commit, closed clients."""

from __future__ import annotations

import json
import time
import uuid

import pytest

from test.support.topics import new_topic


def test_stats_cb_is_served_from_poll(broker, kc):
    stats = []
    producer = kc.Producer({"bootstrap.servers": broker.bootstrap_servers, "statistics.interval.ms": 100,
                            "stats_cb": stats.append})
    topic = new_topic(broker, partitions=1, prefix="cf-stats")
    producer.produce(topic, b"v")
    deadline = time.monotonic() + 10
    while not stats and time.monotonic() < deadline:
        producer.poll(0.2)
    assert producer.flush(10) == 0
    document = json.loads(stats[0])
    assert document["type"] == "producer" and "msg_cnt" in document


def test_a_raising_on_commit_propagates_from_poll_and_the_consumer_stays_usable(broker, lib):
    topic = new_topic(broker, partitions=1, prefix="cf-oncommit")
    producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers})
    producer.produce(topic, b"a")
    producer.produce(topic, b"b")
    assert producer.flush(30) == 0

    def on_commit(err, partitions):
        raise ValueError("commit callback failed")

    consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "cf-" + uuid.uuid4().hex,
                             "enable.auto.commit": False, "on_commit": on_commit, "fetch.queue.backoff.ms": 10})
    consumer.assign([lib.TopicPartition(topic, 0, 0)])
    first = None
    deadline = time.monotonic() + 30
    while first is None and time.monotonic() < deadline:
        first = consumer.poll(0.2)
    assert first is not None and first.value() == b"a"
    consumer.commit(first, asynchronous=True)
    later = []
    with pytest.raises(ValueError):
        while time.monotonic() < deadline:
            later.append(consumer.poll(0.2))
    while b"b" not in [m.value() for m in later if m is not None] and time.monotonic() < deadline:
        later.append(consumer.poll(0.2))
    assert [m.value() for m in later if m is not None] == [b"b"]
    consumer.close()


def test_closed_clients(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers})
        consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g-closed"})
        outcome = [producer.close(), consumer.close()]
        try:
            consumer.poll(0)
        except RuntimeError as exc:
            outcome.append(str(exc))
        results[lib.__name__] = outcome
    assert results["kafka.confluent"] == results["confluent_kafka"] == [True, None, "Consumer closed"]


def test_consumer_stats_cb_is_served_from_poll(broker, kc):
    stats = []
    consumer = kc.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "cf-" + uuid.uuid4().hex,
                            "statistics.interval.ms": 100, "stats_cb": stats.append})
    deadline = time.monotonic() + 10
    while not stats and time.monotonic() < deadline:
        consumer.poll(0.2)
    consumer.close()
    assert json.loads(stats[0])["type"] == "consumer"
