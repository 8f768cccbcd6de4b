"""Consumer groups: a kafka.confluent consumer and a confluent_kafka consumer share one group."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from test.support.topics import new_topic

COMMON = {"auto.offset.reset": "earliest", "session.timeout.ms": 6000, "heartbeat.interval.ms": 500,
          "fetch.queue.backoff.ms": 10, "fetch.wait.max.ms": 100}


class _Member(threading.Thread):
    """Polls one consumer in a thread of its own; records what its callbacks saw, and in which thread."""

    def __init__(self, lib, conf, topic, stop):
        super().__init__(daemon=True)
        self.consumer = lib.Consumer(conf)
        self.topic = topic
        self.stop = stop
        self.values = []
        self.events = []
        self.failure = None

    def run(self):
        try:
            me = threading.current_thread()
            self.consumer.subscribe(
                [self.topic],
                on_assign=lambda c, parts: self.events.append(("assign", sorted(p.partition for p in parts),
                                                               threading.current_thread() is me)),
                on_revoke=lambda c, parts: self.events.append(("revoke", sorted(p.partition for p in parts),
                                                               threading.current_thread() is me)))
            while not self.stop.is_set():
                msg = self.consumer.poll(0.2)
                if msg is not None and msg.error() is None:
                    self.values.append(msg.value())
                    self.consumer.commit(msg, asynchronous=False)
            self.consumer.close()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.failure = exc

    def assignment_now(self):
        return [e for e in self.events if e[0] == "assign"]


@pytest.mark.parametrize("strategy", ["range", "roundrobin"])
def test_mixed_group_splits_partitions_and_reads_everything_once(broker, ck, kc, strategy):
    topic = new_topic(broker, partitions=4, prefix="cf-grp")
    group = "cf-grp-" + uuid.uuid4().hex[:8]
    conf = dict(COMMON, **{"bootstrap.servers": broker.bootstrap_servers, "group.id": group,
                           "partition.assignment.strategy": strategy})
    stop = threading.Event()
    ours = _Member(kc, conf, topic, stop)
    ours.start()
    deadline = time.monotonic() + 60
    while not ours.assignment_now() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ours.assignment_now()[-1][1] == [0, 1, 2, 3]
    theirs = _Member(ck, conf, topic, stop)
    theirs.start()
    try:
        while time.monotonic() < deadline:
            mine = ours.assignment_now()[-1][1] if ours.assignment_now() else []
            other = theirs.assignment_now()[-1][1] if theirs.assignment_now() else []
            if len(mine) == 2 and len(other) == 2:
                break
            time.sleep(0.2)
        assert sorted(mine + other) == [0, 1, 2, 3]
        producer = kc.Producer({"bootstrap.servers": broker.bootstrap_servers})
        for i in range(40):
            producer.produce(topic, b"v%d" % i, key=b"k%d" % i)
        assert producer.flush(30) == 0
        while len(ours.values) + len(theirs.values) < 40 and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        stop.set()
        ours.join(30)
        theirs.join(30)
    assert ours.failure is None and theirs.failure is None
    assert sorted(ours.values + theirs.values) == sorted(b"v%d" % i for i in range(40))
    assert ours.values and theirs.values
    # Our rebalance callbacks ran in the thread that polled.
    assert all(e[2] for e in ours.events)
    assert ("revoke", [0, 1, 2, 3], True) in ours.events


def test_cooperative_sticky_incremental_callbacks(broker, kc):
    topic = new_topic(broker, partitions=4, prefix="cf-coop")
    group = "cf-coop-" + uuid.uuid4().hex[:8]
    conf = dict(COMMON, **{"bootstrap.servers": broker.bootstrap_servers, "group.id": group,
                           "partition.assignment.strategy": "cooperative-sticky"})
    stop = threading.Event()
    first = _Member(kc, conf, topic, stop)
    first.start()
    deadline = time.monotonic() + 60
    while not first.assignment_now() and time.monotonic() < deadline:
        time.sleep(0.1)
    second = _Member(kc, conf, topic, stop)
    second.start()
    try:
        while time.monotonic() < deadline:
            if second.assignment_now() and second.assignment_now()[-1][1]:
                break
            time.sleep(0.2)
    finally:
        stop.set()
        first.join(30)
        second.join(30)
    assert first.failure is None and second.failure is None
    # Incremental: the first member gives up only what moves, and keeps the rest without a revoke of all.
    moved = second.assignment_now()[-1][1]
    assert len(moved) == 2
    assert ("revoke", moved, True) in first.events
    assert ("revoke", [0, 1, 2, 3], True) not in first.events[:first.events.index(("revoke", moved, True)) + 1]


def test_lost_partitions_call_on_lost_then_the_member_rejoins(mock_cluster, ck, kc):
    from test.support.groups import narrow_group_versions

    narrow_group_versions(mock_cluster, "lost-topic", 2)
    results = {}
    for lib in (ck, kc):
        events = []
        consumer = lib.Consumer({"bootstrap.servers": mock_cluster.bootstrap_servers,
                                 "group.id": "cf-lost-" + uuid.uuid4().hex[:6], "session.timeout.ms": 6000,
                                 "heartbeat.interval.ms": 300})
        here = threading.current_thread()
        consumer.subscribe(["lost-topic"],
                           on_assign=lambda c, p: events.append(("assign", len(p), threading.current_thread() is here)),
                           on_revoke=lambda c, p: events.append(("revoke", len(p), threading.current_thread() is here)),
                           on_lost=lambda c, p: events.append(("lost", len(p), threading.current_thread() is here)))
        # Mock quirk: the injected errors below tell the client its membership is gone while the
        # librdkafka mock still holds it, so the mock's next rebalance waits about 5 s for that old
        # member and may make it the leader; each of the three errors can cost such a round
        # (librdkafka rejoined after 11 s here, we after 17 s; on a loaded CI machine once after
        # more than 30). A real broker that answers UNKNOWN_MEMBER_ID has already dropped the
        # member. The deadline leaves room for the rounds.
        deadline = time.monotonic() + 90
        while not events and time.monotonic() < deadline:
            consumer.poll(0.2)
        mock_cluster.push_request_errors("Heartbeat", 25, 25, 25)  # UNKNOWN_MEMBER_ID: the membership is gone
        while len(events) < 3 and time.monotonic() < deadline:
            consumer.poll(0.2)
        results[lib.__name__] = events[:3]
        consumer.close()
        mock_cluster.clear_request_errors("Heartbeat")
    assert results["kafka.confluent"] == results["confluent_kafka"] == [
        ("assign", 2, True), ("lost", 2, True), ("assign", 2, True)]


def test_without_on_lost_a_lost_assignment_goes_to_on_revoke(mock_cluster, ck, kc):
    from test.support.groups import narrow_group_versions

    narrow_group_versions(mock_cluster, "lost-revoke", 2)
    results = {}
    for lib in (ck, kc):
        events = []
        consumer = lib.Consumer({"bootstrap.servers": mock_cluster.bootstrap_servers,
                                 "group.id": "cf-lost-rv-" + uuid.uuid4().hex[:6], "session.timeout.ms": 6000,
                                 "heartbeat.interval.ms": 300})
        consumer.subscribe(["lost-revoke"], on_assign=lambda c, p: events.append(("assign", len(p))),
                           on_revoke=lambda c, p: events.append(("revoke", len(p))))
        deadline = time.monotonic() + 60
        while not events and time.monotonic() < deadline:
            consumer.poll(0.2)
        mock_cluster.push_request_errors("Heartbeat", 25)  # UNKNOWN_MEMBER_ID: the membership is gone
        while len(events) < 2 and time.monotonic() < deadline:
            consumer.poll(0.2)
        results[lib.__name__] = events[:2]
        consumer.close()
        mock_cluster.clear_request_errors("Heartbeat")
    assert results["kafka.confluent"] == results["confluent_kafka"] == [("assign", 2), ("revoke", 2)]
