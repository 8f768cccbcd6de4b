"""Injected group errors at the KafkaConsumer level, on the 3-broker mock cluster.

Two KafkaConsumers (poll loops in threads) share a 6-partition topic that
our KafkaProducer writes to continuously. For each group API — Heartbeat,
JoinGroup, SyncGroup, OffsetCommit — the next five requests are made to
fail with NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS,
REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION and UNKNOWN_MEMBER_ID in turn
(``mock_cluster.push_request_errors``); for JoinGroup and SyncGroup a third
consumer joins so that a rebalance sends them. Checked: the consumers
recover (a settled group again, no exception out of ``poll``), every
acknowledged record is consumed at least once, the group's committed
offsets never go backwards (watched from a separate client) and end at
the log end once the consumers close.

Flexible JoinGroup/SyncGroup/LeaveGroup versions are narrowed away (the
mock does not implement them). A short session timeout keeps the mock's
rebalance wait (session timeout - 1 s) short.
"""

from __future__ import annotations

import pytest

from kafka.structs import TopicPartition
from test.support.groups import narrow_group_versions

from .grp_support import (CommitMonitor, ConsumerThread, ProducerThread, SlowLeader, close_in_turn, end_offsets,
                          settled, shut_down, wait_for, wait_for_final_commits)

TOPIC = "err-events"
PARTITIONS = 6
ALL = {TopicPartition(TOPIC, p) for p in range(PARTITIONS)}
SESSION_MS = 3000
HEARTBEAT_MS = 300

COORDINATOR_LOAD_IN_PROGRESS = 14
NOT_COORDINATOR = 16
ILLEGAL_GENERATION = 22
UNKNOWN_MEMBER_ID = 25
REBALANCE_IN_PROGRESS = 27
CODES = (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID)


@pytest.fixture
def cluster(mock_cluster):
    return narrow_group_versions(mock_cluster, TOPIC, PARTITIONS)


def _member(cluster, group, name):
    return ConsumerThread(cluster.bootstrap_servers, group, TOPIC, name=name, session_timeout_ms=SESSION_MS,
                          heartbeat_interval_ms=HEARTBEAT_MS, auto_commit_interval_ms=300,
                          partition_assignment_strategy=[SlowLeader("range")])


@pytest.mark.parametrize("api", ["Heartbeat", "JoinGroup", "SyncGroup", "OffsetCommit"])
def test_group_errors_are_recovered_while_consuming(cluster, api):
    group = "errors-%s" % api
    producer = ProducerThread(cluster.bootstrap_servers, TOPIC, PARTITIONS, rate=150)
    monitor = CommitMonitor(cluster.bootstrap_servers, group, sorted(ALL))
    members = []
    try:
        members.append(_member(cluster, group, "a"))
        members.append(_member(cluster, group, "b"))
        wait_for(lambda: settled(members, ALL), 30, "two members")
        wait_for(lambda: all(m.consumed for m in members), 15, "both members to consume")

        cluster.start_request_tracking()
        cluster.push_request_errors(api, *CODES)
        if api in ("JoinGroup", "SyncGroup"):
            members.append(_member(cluster, group, "c"))  # a rebalance sends them
        # Every injected error is used up, and a request of that API succeeds after them.
        wait_for(lambda: len(cluster.requests(api)) > len(CODES), 40,
                 "%d %s requests (seen %d)" % (len(CODES) + 1, api, len(cluster.requests(api))))
        took = wait_for(lambda: settled(members, ALL), 40, "a settled group after %s errors" % api)
        marks = [len(m.consumed) for m in members]
        wait_for(lambda: all(len(m.consumed) > n for m, n in zip(members, marks)), 20,
                 "every member to consume again")
        print("\n%s errors %s: group settled again %.2f s after they were used up" % (api, CODES, took))

        producer.stop()
        assert not producer.failed, producer.failed[:3]
        produced = set(producer.acked)
        assert len(produced) == producer.sent

        def missing():
            return produced - set().union(*(set(m.consumed) for m in members))
        wait_for(lambda: not missing(), 30, "every record to be consumed")
        for m in members:
            assert not m.errors, (m.name, m.errors[:3])
        ends = end_offsets(produced)
        close_in_turn(list(members), ALL, ends)
        wait_for_final_commits(monitor, TOPIC, ends)
    finally:
        shut_down(members, producer, monitor)
    assert monitor.backwards() == {}
