"""KIP-848: closing a consumer sends the leave heartbeat.

A scripted peer plays the group coordinator of the new protocol and keeps
every ConsumerGroupHeartbeat it receives, so the test checks the request
that leaves the group, not how long the group took to notice.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import pytest

from kafka.consumer import KafkaConsumer
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from kafka.testing.scripted_peer import NO_REPLY
from test.support.peer_answers import offsets_at_zero

MEMBER = "member-848"


def _group_coordinator(peer: ScriptedPeer) -> None:
    def heartbeat(request: Any) -> Dict[str, Any]:
        epoch = request.body.member_epoch
        if epoch < 0:
            return {"error_code": 0, "member_id": request.body.member_id, "member_epoch": epoch,
                    "heartbeat_interval_ms": 500}
        assignment = {"topic_partitions": [{"topic_id": peer.topic_id("t"), "partitions": [0, 1]}]}
        return {"error_code": 0, "member_id": MEMBER, "member_epoch": 3, "heartbeat_interval_ms": 500,
                "assignment": assignment}

    peer.on("ConsumerGroupHeartbeat", heartbeat)
    peer.on("OffsetFetch", offsets_at_zero)
    peer.on("Fetch", lambda r: NO_REPLY)


@pytest.mark.parametrize("instance_id, leave_epoch", [(None, -1), ("static-1", -2)])
def test_close_sends_the_leave_heartbeat(instance_id: Optional[str], leave_epoch: int):
    with ScriptedPeer(topics={"t": 2}, api_versions={"OffsetFetch": (8, 9)}) as peer:
        _group_coordinator(peer)
        consumer = KafkaConsumer("t", bootstrap_servers=peer.bootstrap, group_id="g-848", group_protocol="consumer",
                                 group_instance_id=instance_id, enable_auto_commit=False, request_timeout_ms=5000)
        try:
            for _ in range(50):
                consumer.poll(timeout_ms=100)
                if consumer.assignment():
                    break
            assert consumer.assignment() == {TopicPartition("t", 0), TopicPartition("t", 1)}
            joined = len(peer.received("ConsumerGroupHeartbeat"))
        finally:
            consumer.close()
        sent = peer.received("ConsumerGroupHeartbeat")[joined:]
        leaving = [r.body for r in sent if r.body.member_epoch < 0]
        assert len(leaving) == 1, [r.body for r in sent]
        assert (leaving[0].group_id, leaving[0].member_id, leaving[0].member_epoch) == ("g-848", MEMBER, leave_epoch)
        assert leaving[0].instance_id == instance_id
        assert sent[-1].body.member_epoch == leave_epoch  # nothing after the leave
        assert peer.errors == []
