"""A SyncGroup the coordinator holds past the session timeout does not end the membership.

A coordinator answers a follower's SyncGroup once the leader has synced;
Tansu holds it for seconds, longer than the session timeout when the
leader's first SyncGroup was refused and it had to rejoin. It reads the
requests of one connection in order, so the heartbeats sent meanwhile are
answered only after the SyncGroup. Were the session timed out on those
heartbeats, the member would drop the assignment on its way, rejoin under a
new member id and leave its old id in the group holding partitions until
the coordinator expired it (a member with nothing for 14-20 s against Tansu).
The scripted coordinator here holds the first SyncGroup 1.5 times the session
timeout, answering nothing else on that connection meanwhile.
"""

from __future__ import annotations

import time
from typing import Any, Dict

from kafka.consumer import KafkaConsumer
from kafka.protocol.apis.groups import CONSUMER_PROTOCOL_ASSIGNMENT, encode_assignment
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from kafka.testing.scripted_peer import NO_REPLY
from test.support.peer_answers import members_left, offsets_at_zero

_Asg = CONSUMER_PROTOCOL_ASSIGNMENT.cls

SESSION_MS = 1000
MEMBER = "follower-1"


class _HoldingCoordinator:
    """Another member leads; the first SyncGroup is answered 1.5 session timeouts late."""

    def __init__(self, peer: ScriptedPeer) -> None:
        self.syncs = 0
        peer.on("JoinGroup", self.join)
        peer.on("SyncGroup", self.sync)
        peer.on("Heartbeat", lambda r: {"error_code": 0})
        peer.on("LeaveGroup", members_left)
        peer.on("OffsetFetch", offsets_at_zero)
        peer.on("Fetch", lambda r: NO_REPLY)

    def join(self, request: Any) -> Dict[str, Any]:
        return {"error_code": 0, "generation_id": 1, "protocol_type": "consumer",
                "protocol_name": request.body.protocols[0].name, "leader": "other-leader", "member_id": MEMBER,
                "members": []}

    def sync(self, request: Any) -> Dict[str, Any]:
        self.syncs += 1
        if self.syncs == 1:
            time.sleep(SESSION_MS * 1.5 / 1000.0)  # the leader is slow to sync; this connection waits
        value = _Asg(assigned_partitions=[_Asg.TopicPartition(topic="t", partitions=[0, 1])], user_data=None)
        return {"error_code": 0, "protocol_type": "consumer", "protocol_name": request.body.protocol_name,
                "assignment": encode_assignment(value, 0)}


def test_a_sync_held_past_the_session_timeout_keeps_the_member_and_its_assignment():
    with ScriptedPeer(topics={"t": 2}, api_versions={"ConsumerGroupHeartbeat": None}) as peer:
        coordinator = _HoldingCoordinator(peer)
        consumer = KafkaConsumer("t", bootstrap_servers=peer.bootstrap, group_id="g-held-sync",
                                 enable_auto_commit=False, session_timeout_ms=SESSION_MS, heartbeat_interval_ms=100,
                                 request_timeout_ms=5000, retry_backoff_ms=20, fetch_max_wait_ms=100)
        try:
            deadline = time.monotonic() + 10
            while not consumer.assignment() and time.monotonic() < deadline:
                consumer.poll(timeout_ms=100)
            assert consumer.assignment() == {TopicPartition("t", 0), TopicPartition("t", 1)}
            # One member throughout: no second SyncGroup, no JoinGroup under a new member id.
            assert coordinator.syncs == 1
            assert [r.body.member_id for r in peer.received("JoinGroup")] == [""]
            assert consumer.group_metadata().member_id == MEMBER
            for _ in range(3):
                consumer.poll(timeout_ms=100)
            assert consumer.assignment() == {TopicPartition("t", 0), TopicPartition("t", 1)}
        finally:
            consumer.close()
        assert peer.errors == []
