"""Brokers going away and coming back while a consumer group consumes.

Tansu, the embedded broker, keeps everything in memory (its other storage
engines are PostgreSQL and S3): a restarted Tansu has no topics, records or
committed offsets left, so "resume from its position" cannot be checked
there. Two kinds of test, then:

- librdkafka's mock cluster takes every broker down (connections closed,
  new ones refused) and up again with its data kept — a restart as the
  client sees it. A consumer in a group, fed continuously by our producer,
  must resume without a hang. An outage shorter than the session timeout
  keeps the membership: the consumer goes on from its in-memory position
  and no record is delivered twice. A longer one loses the membership:
  the consumer rejoins and restarts from the committed offsets, so records
  are delivered again only inside the window between the last commit seen
  before the outage and the position reached.
- A real restart of the embedded broker (same port, data gone): the
  consumer must notice, rejoin, and consume what is written to the
  re-created topic, without hanging and without an exception from poll.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter

import pytest

from kafka import KafkaConsumer, KafkaProducer
from kafka.structs import TopicPartition
from test.support.groups import narrow_group_versions
from test.support.topics import create_topic

from .grp_support import (CommitMonitor, ConsumerThread, ProducerThread, SlowLeader, end_offsets, shut_down, wait_for,
                          wait_for_final_commits)

TOPIC = "restart-events"
PARTITIONS = 3
ALL = {TopicPartition(TOPIC, p) for p in range(PARTITIONS)}
SESSION_MS = 6000


@pytest.fixture
def cluster(mock_cluster):
    return narrow_group_versions(mock_cluster, TOPIC, PARTITIONS)


@pytest.mark.parametrize("outage", [2.0, 9.0], ids=["shorter-than-session", "longer-than-session"])
def test_consumer_resumes_after_all_brokers_restart(cluster, outage):
    bootstrap = cluster.bootstrap_servers
    group = "restart-%d" % outage
    producer = ProducerThread(bootstrap, TOPIC, PARTITIONS, rate=100)
    monitor = CommitMonitor(bootstrap, group, sorted(ALL))
    consumer = ConsumerThread(bootstrap, group, TOPIC, name="r", session_timeout_ms=SESSION_MS,
                              heartbeat_interval_ms=500, auto_commit_interval_ms=500, request_timeout_ms=5000,
                              partition_assignment_strategy=[SlowLeader("range")])
    try:
        wait_for(lambda: consumer.assignment() == ALL and consumer.stable(), 20, "the join")
        wait_for(lambda: len(consumer.consumed) > 100 and all(monitor.history.values()), 20,
                 "records consumed and committed")
        generation = consumer.consumer._coordinator.generation

        cluster.broker_down()
        down_at = time.monotonic()
        # The commits seen when the brokers went away.
        committed_before = {tp.partition: h[-1] for tp, h in monitor.history.items()}
        time.sleep(outage)  # the outage itself
        # What the consumer reached: nothing can be consumed any more while the
        # brokers are down, so records fetched before they went away are counted too.
        reached = {}
        for p, o in list(consumer.consumed):
            reached[p] = max(reached.get(p, -1), o + 1)
        consumed_before = len(consumer.consumed)
        cluster.broker_up()
        up_at = time.monotonic()

        resumed = wait_for(lambda: len(consumer.consumed) > consumed_before + 50, 40, "consumption to resume")
        print("\nbrokers down for %.1f s: the consumer resumed %.2f s after they came back" %
              (up_at - down_at, resumed))
        producer.stop()
        assert not producer.failed, producer.failed[:3]
        produced = set(producer.acked)
        wait_for(lambda: produced <= set(consumer.consumed), 30, "every record to be consumed")
        assert not consumer.errors, consumer.errors[:3]

        counts = Counter(consumer.consumed)
        duplicates = sorted(k for k, n in counts.items() if n > 1)
        if outage * 1000 < SESSION_MS:
            # The membership survived; the consumer went on from its position.
            assert consumer.consumer._coordinator.generation == generation
            assert duplicates == []
        else:
            assert consumer.consumer._coordinator.generation != generation
            # Restarted from the committed offsets: only the uncommitted window is read again.
            for p, o in duplicates:
                assert committed_before[p] <= o < reached[p], (p, o, committed_before[p], reached[p])
            print("records delivered twice: %d (uncommitted window: %s)"
                  % (len(duplicates), {p: (committed_before[p], reached[p]) for p in sorted(reached)}))
        ends = end_offsets(produced)
        consumer.close(ends=ends)
        wait_for_final_commits(monitor, TOPIC, ends)
    finally:
        shut_down([consumer], producer, monitor)
    assert monitor.backwards() == {}


def _produce(bootstrap: str, topic: str, values) -> None:
    with KafkaProducer(bootstrap_servers=bootstrap) as producer:
        for i, value in enumerate(values):
            producer.send(topic, value=value, partition=i % 2)
        producer.flush(30)


def test_consumer_survives_an_embedded_broker_restart(fresh_broker):
    topic = "restart-%s" % uuid.uuid4().hex[:8]
    bootstrap = fresh_broker.bootstrap_servers
    create_topic(bootstrap, topic, 2)
    _produce(bootstrap, topic, [b"before-%d" % i for i in range(20)])
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, group_id="restart", auto_offset_reset="earliest",
                             session_timeout_ms=SESSION_MS, heartbeat_interval_ms=500, request_timeout_ms=5000,
                             auto_commit_interval_ms=300)
    try:
        seen = []
        deadline = time.monotonic() + 30
        while len(seen) < 20:
            assert time.monotonic() < deadline, "only %d records before the restart" % len(seen)
            for records in consumer.poll(timeout_ms=200).values():
                seen.extend(r.value for r in records)
        assert sorted(seen) == sorted(b"before-%d" % i for i in range(20))

        fresh_broker.restart()  # same port; Tansu starts empty
        create_topic(bootstrap, topic, 2)
        after = [b"after-%d" % i for i in range(10)]
        _produce(bootstrap, topic, after)

        start = time.monotonic()
        got = []
        while not set(after) <= set(got):
            assert time.monotonic() - start < 60, "consumed after the restart: %r" % got
            poll_started = time.monotonic()
            for records in consumer.poll(timeout_ms=200).values():
                got.extend(r.value for r in records)
            assert time.monotonic() - poll_started < 15, "poll() blocked for too long"
        print("\nTansu restarted (data gone): records of the re-created topic consumed %.2f s later"
              % (time.monotonic() - start))
        assert not [v for v in got if v.startswith(b"before")]
    finally:
        consumer.close(timeout_ms=5000)
