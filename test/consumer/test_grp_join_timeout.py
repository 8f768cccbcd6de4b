"""A JoinGroup may wait for the whole rebalance: its timeout is the rebalance timeout + 5 s.

The coordinator answers a JoinGroup once every member has rejoined or the
rebalance timeout (``max_poll_interval_ms``) ran out, which can be much
longer than ``request_timeout_ms``. Were the JoinGroup held to the request
timeout, the client would close the coordinator connection and join again
while the rebalance goes on normally. librdkafka's mock cluster holds a
rebalance of a stable group open for ``session_timeout_ms - 1 s``
(5 s here), longer than the 2.5 s request timeout these consumers use.
"""

from __future__ import annotations

import logging

import pytest

from kafka.consumer.group.classic import JOIN_TIMEOUT_MARGIN_MS
from kafka.structs import TopicPartition
from test.support.groups import narrow_group_versions

from .grp_support import ConsumerThread, SlowLeader, settled, wait_for

TOPIC = "join-timeout"
ALL = {TopicPartition(TOPIC, p) for p in range(4)}
SESSION_MS = 6000
REQUEST_TIMEOUT_MS = 2500
MAX_POLL_INTERVAL_MS = 8000


@pytest.fixture
def cluster(mock_cluster):
    return narrow_group_versions(mock_cluster, TOPIC, 4)


def _member(cluster, name):
    return ConsumerThread(cluster.bootstrap_servers, "slow-rebalance", TOPIC, name=name,
                          session_timeout_ms=SESSION_MS, heartbeat_interval_ms=500,
                          request_timeout_ms=REQUEST_TIMEOUT_MS, max_poll_interval_ms=MAX_POLL_INTERVAL_MS,
                          partition_assignment_strategy=[SlowLeader("range")])


def test_join_group_outlives_the_request_timeout(cluster, caplog):
    caplog.set_level(logging.INFO)
    first = _member(cluster, "a")
    members = [first]
    try:
        wait_for(lambda: settled(members, ALL), 20, "the first member")
        membership = first.consumer._coordinator.membership
        assert membership.join_timeout_ms == MAX_POLL_INTERVAL_MS + JOIN_TIMEOUT_MARGIN_MS
        cluster.start_request_tracking()
        caplog.clear()
        members.append(_member(cluster, "b"))
        took = wait_for(lambda: settled(members, ALL) and all(len(m.assignment()) == 2 for m in members), 30,
                        "two members")
        print("\nrebalance with a %d ms request timeout took %.2f s" % (REQUEST_TIMEOUT_MS, took))
        # The rebalance itself lasted longer than the request timeout...
        assert took > REQUEST_TIMEOUT_MS / 1000.0
        # ...yet no JoinGroup timed out: one JoinGroup per member (the newcomer
        # may need a second one for KIP-394's member id round).
        timed_out = [r.getMessage() for r in caplog.records if "timed out" in r.getMessage()]
        assert timed_out == []
        joins = cluster.requests("JoinGroup")
        assert 2 <= len(joins) <= 3, joins
        for m in members:
            assert not m.errors, m.errors
    finally:
        for m in members:
            m.close()
