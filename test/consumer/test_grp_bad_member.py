"""The group leader and another member's unreadable subscription.

A member's JoinGroup metadata is written by that member's client. The leader
must assign around a member whose subscription it cannot read (that member
gets nothing) instead of failing every ``poll()`` and ``close()``.

The unit tests feed crafted metadata bytes to the leader's reading step; the
consumer-level test puts a KafkaConsumer in a group whose coordinator (a
scripted peer) reports such a member next to it.
"""

from __future__ import annotations

import logging
from typing import Any, Dict, List, Optional

import pytest

from kafka.consumer import KafkaConsumer
from kafka.consumer.group.members import read_subscriptions
from kafka.protocol.apis.groups import (
    CONSUMER_PROTOCOL_ASSIGNMENT, CONSUMER_PROTOCOL_SUBSCRIPTION, decode_assignment, encode_assignment, encode_subscription)
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from kafka.testing.scripted_peer import NO_REPLY
from test.support.peer_answers import members_left, offsets_at_zero

_Sub = CONSUMER_PROTOCOL_SUBSCRIPTION.cls
_Asg = CONSUMER_PROTOCOL_ASSIGNMENT.cls

GOOD = encode_subscription(_Sub(topics=["t"], user_data=None, owned_partitions=[], generation_id=-1,
                                 rack_id=None), 1)
#: version 0, topics array of one element whose string is null (length -1)
NULL_TOPIC = bytes.fromhex("0000" "00000001" "ffff" "ffffffff")
#: version 0, a topic count far beyond the bytes that follow
GARBAGE = bytes.fromhex("0000" "7fffffff" "0001")
#: version 1, owned partition -3 of "t"
NEGATIVE_OWNED = bytes.fromhex("0001" "00000001" "000174" "ffffffff" "00000001" "000174" "00000001" "fffffffd")

BAD = {"null topic": NULL_TOPIC, "garbage": GARBAGE, "truncated": GOOD[:5], "empty": b"", "null": None,
       "negative owned partition": NEGATIVE_OWNED}


class _Member:
    def __init__(self, member_id: str, metadata: Optional[bytes], group_instance_id: Optional[str] = None) -> None:
        self.member_id = member_id
        self.metadata = metadata
        self.group_instance_id = group_instance_id


@pytest.mark.parametrize("metadata", list(BAD.values()), ids=list(BAD))
def test_an_unreadable_member_is_left_out_and_reported_once(caplog, metadata):
    members = [_Member("a", GOOD), _Member("b", metadata), _Member("c", GOOD, "static-c")]
    reported: set = set()
    with caplog.at_level(logging.DEBUG, logger="kafka.group.members"):
        for _ in range(3):
            group = read_subscriptions("g", members, reported)
    assert group.member_ids == ["a", "b", "c"]
    assert list(group.members) == ["a", "c"]
    assert group.members["c"].topics == ("t",) and group.members["c"].group_instance_id == "static-c"
    assert group.version == 1
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "b" in warnings[0].getMessage()


# --------------------------------------------------------------------------
# A KafkaConsumer leading a group with an unreadable member
# --------------------------------------------------------------------------

LEADER = "leader-1"


class _Coordinator:
    """Scripted group coordinator: the consumer leads a group that also holds member "bad"."""

    def __init__(self, peer: ScriptedPeer, bad_metadata: Optional[bytes]) -> None:
        self.peer = peer
        self.bad_metadata = bad_metadata
        self.generation = 0
        peer.on("JoinGroup", self.join)
        peer.on("SyncGroup", self.sync)
        peer.on("Heartbeat", lambda r: {"error_code": 0})
        peer.on("LeaveGroup", members_left)
        peer.on("OffsetFetch", offsets_at_zero)
        peer.on("OffsetCommit", lambda r: {"topics": [
            {"name": t.name, "partitions": [{"partition_index": p.partition_index, "error_code": 0}
                                            for p in t.partitions]} for t in r.body.topics]})
        peer.on("Fetch", lambda r: NO_REPLY)

    def join(self, request: Any) -> Dict[str, Any]:
        self.generation += 1
        protocol = request.body.protocols[0]
        return {"error_code": 0, "generation_id": self.generation, "protocol_type": "consumer",
                "protocol_name": protocol.name, "leader": LEADER, "member_id": LEADER,
                "members": [{"member_id": LEADER, "metadata": protocol.metadata},
                            {"member_id": "bad", "metadata": self.bad_metadata}]}

    def sync(self, request: Any) -> Dict[str, Any]:
        mine = next((a.assignment for a in request.body.assignments if a.member_id == LEADER), b"")
        return {"error_code": 0, "protocol_type": "consumer", "protocol_name": request.body.protocol_name,
                "assignment": mine}


def _assignments(request: Any) -> Dict[str, List[TopicPartition]]:
    out = {}
    for a in request.body.assignments:
        value = decode_assignment(a.assignment)
        out[a.member_id] = sorted(TopicPartition(t.topic, p) for t in value.assigned_partitions for p in t.partitions)
    return out


@pytest.mark.parametrize("bad", ["null topic", "garbage"])
def test_the_leader_assigns_around_a_member_it_cannot_read(bad):
    with ScriptedPeer(topics={"t": 3}, api_versions={"ConsumerGroupHeartbeat": None}) as peer:
        _Coordinator(peer, BAD[bad])
        consumer = KafkaConsumer("t", bootstrap_servers=peer.bootstrap, group_id="g-bad-member",
                                 enable_auto_commit=False, request_timeout_ms=5000, fetch_max_wait_ms=100)
        try:
            for _ in range(20):
                consumer.poll(timeout_ms=100)
                if consumer.assignment():
                    break
            assert consumer.assignment() == {TopicPartition("t", p) for p in range(3)}
            sync = peer.wait_for("SyncGroup", timeout=5)[-1]
            assert _assignments(sync) == {LEADER: [TopicPartition("t", p) for p in range(3)], "bad": []}
            consumer.poll(timeout_ms=50)  # still a working member afterwards
        finally:
            consumer.close()
        assert peer.errors == []


class _FollowerCoordinator(_Coordinator):
    """Another member leads; its first assignments for the consumer are unreadable."""

    def __init__(self, peer: ScriptedPeer, bad_assignments: int) -> None:
        super().__init__(peer, None)
        self.bad_left = bad_assignments

    def join(self, request: Any) -> Dict[str, Any]:
        self.generation += 1
        return {"error_code": 0, "generation_id": self.generation, "protocol_type": "consumer",
                "protocol_name": request.body.protocols[0].name, "leader": "other-leader", "member_id": "follower",
                "members": []}

    def sync(self, request: Any) -> Dict[str, Any]:
        if self.bad_left > 0:
            self.bad_left -= 1
            assignment = GARBAGE
        else:
            assignment = encode_assignment(_Asg(assigned_partitions=[_Asg.TopicPartition(topic="t", partitions=[1])],
                                                user_data=None), 0)
        return {"error_code": 0, "assignment": assignment}


def test_a_follower_rejoins_after_an_assignment_it_cannot_read():
    with ScriptedPeer(topics={"t": 3}, api_versions={"ConsumerGroupHeartbeat": None}) as peer:
        _FollowerCoordinator(peer, bad_assignments=2)
        consumer = KafkaConsumer("t", bootstrap_servers=peer.bootstrap, group_id="g-bad-assignment",
                                 enable_auto_commit=False, request_timeout_ms=5000, retry_backoff_ms=20)
        try:
            for _ in range(30):
                consumer.poll(timeout_ms=100)
                if consumer.assignment():
                    break
            assert consumer.assignment() == {TopicPartition("t", 1)}
            assert len(peer.received("JoinGroup")) == 3
        finally:
            consumer.close()
        assert peer.errors == []
