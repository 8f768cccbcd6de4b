"""Consumer groups at the KafkaConsumer level on the 3-broker mock cluster: a member crashes.

Three KafkaConsumers share a 6-partition topic while our KafkaProducer
writes to it continuously: two poll in threads of this process, the third
in a child process that is killed with SIGKILL (no LeaveGroup, no last
commit: its sockets are closed by the kernel). A separate client watches
the group's committed offsets the whole time. Checked: the survivors take
over the dead member's partitions within the session timeout plus the
rebalance; every acknowledged record is consumed at least once; committed
offsets never go backwards, and end at the log end once the survivors
close; with cooperative-sticky, partitions that did not move are never
revoked.

The mock's flexible JoinGroup/SyncGroup/LeaveGroup versions are broken,
so the fixture narrows them (as test_group_mock_cluster.py does). The mock
checks sessions once a second and makes a rebalance wait up to
``session_timeout_ms - 1 s`` for members to rejoin (they do so at their
next heartbeat), which bounds the takeover time asserted here.
"""

from __future__ import annotations

from typing import Set

import pytest

from kafka.structs import TopicPartition
from test.support.groups import narrow_group_versions

from .grp_support import (ChildConsumer, CommitMonitor, ConsumerThread, ProducerThread, SlowLeader, close_in_turn,
                          end_offsets, settled, shut_down, wait_for, wait_for_final_commits)

TOPIC = "crash-events"
PARTITIONS = 6
ALL = {TopicPartition(TOPIC, p) for p in range(PARTITIONS)}
SESSION_MS = 6000
HEARTBEAT_MS = 500


@pytest.fixture
def cluster(mock_cluster):
    return narrow_group_versions(mock_cluster, TOPIC, PARTITIONS)


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_member_killed_without_leaving(cluster, strategy):
    bootstrap = cluster.bootstrap_servers
    group = "crash-%s" % strategy
    config = dict(session_timeout_ms=SESSION_MS, heartbeat_interval_ms=HEARTBEAT_MS, auto_commit_interval_ms=500)
    producer = ProducerThread(bootstrap, TOPIC, PARTITIONS, rate=150)
    monitor = CommitMonitor(bootstrap, group, sorted(ALL))
    survivors = []
    child = None
    try:
        survivors.append(ConsumerThread(bootstrap, group, TOPIC, name="a",
                                        partition_assignment_strategy=[SlowLeader(strategy)], **config))
        wait_for(lambda: survivors[0].assignment() == ALL, 20, "the first member to own everything")
        survivors.append(ConsumerThread(bootstrap, group, TOPIC, name="b",
                                        partition_assignment_strategy=[SlowLeader(strategy)], **config))
        wait_for(lambda: settled(survivors, ALL), 30, "two members")
        child = ChildConsumer(bootstrap, group, TOPIC, strategy, SESSION_MS, HEARTBEAT_MS)
        everyone = survivors + [child]
        wait_for(lambda: settled(everyone, ALL) and child.assignment(), 40,
                 "three members (child stderr: %s)" % child.stderr_tail())
        assert sorted(len(m.assignment()) for m in everyone) == [2, 2, 2]
        # Let the child consume (and auto-commit) for a moment.
        wait_for(lambda: len(child.consumed) > 20, 20, "the child to consume")
        before = {s.name: s.assignment() for s in survivors}
        marks = {s.name: len(s.listener.events) for s in survivors}
        orphaned = child.assignment()

        child.kill()
        took = wait_for(lambda: settled(survivors, ALL), 40, "the survivors to take over")
        print("\n[%s] partitions of a SIGKILLed member taken over after %.2f s (session timeout %.1f s)"
              % (strategy, took, SESSION_MS / 1000.0))
        # Detection takes the session timeout (the mock checks once a second);
        # the mock then holds the rebalance open for session_timeout - 1 s
        # (Kafka would complete it once the survivors rejoined, at their next
        # heartbeat): about 12 s. The limit leaves a loaded machine 10 s more,
        # and still fails a survivor that notices only when a 30 s request
        # times out.
        assert took < SESSION_MS / 1000.0 + 1.0 + (SESSION_MS / 1000.0 - 1.0) + 10.0
        assert orphaned <= set().union(*(s.assignment() for s in survivors))

        if strategy == "cooperative-sticky":
            for s in survivors:
                later = s.listener.events[marks[s.name]:]
                # Nothing moved away from a survivor: nothing is revoked or lost,
                # and all it kept stays assigned; it only gains partitions.
                assert [k for k, _ in later if k != "assigned"] == [], later
                assert before[s.name] <= s.assignment()
                gained: Set[TopicPartition] = set().union(*[p for _, p in later]) if later else set()
                assert gained == s.assignment() - before[s.name]

        # Keep producing a little after the takeover, then check delivery.
        wait_for(lambda: sum(len(s.consumed) for s in survivors) > 0, 10, "records after the takeover")
        producer.stop()
        assert not producer.failed, producer.failed[:3]
        produced = set(producer.acked)
        assert len(produced) == producer.sent

        def consumed() -> Set:
            return set().union(*(set(s.consumed) for s in survivors)) | set(child.consumed)
        wait_for(lambda: produced <= consumed(), 30,
                 "every record to be consumed (missing %d)" % len(produced - consumed()))
        for s in survivors:
            assert not s.errors, s.errors[:3]
        ends = end_offsets(produced)
        close_in_turn(list(survivors), ALL, ends)
        # The group's offsets now reach the end of every partition.
        wait_for_final_commits(monitor, TOPIC, ends)
        print("[%s] %d records produced, %d consumed (%d by the killed member); committed offsets seen: %d changes"
              % (strategy, len(produced), sum(len(s.consumed) for s in survivors) + len(child.consumed),
                 len(child.consumed), sum(len(h) for h in monitor.history.values())))
    finally:
        if child is not None and child.proc.poll() is None:
            child.kill()
        shut_down(survivors, producer, monitor)
    assert monitor.rounds > 10
    assert monitor.backwards() == {}
