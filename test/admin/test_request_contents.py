"""What the admin client puts in its requests, read from the decoded requests a scripted peer receives."""

from __future__ import annotations

from typing import Any, Dict, List

from kafka import TopicPartition
from kafka.admin import (ACL, ACLOperation, ACLPermissionType, ACLResourcePatternType, DeletedRecords,
                         KafkaAdminClient, NewPartitions, ResourcePattern, ResourceType)
from kafka.testing import ScriptedPeer


def _admin(peer: ScriptedPeer) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=3000)


def _two_broker_metadata(peers: List[ScriptedPeer], leaders: Dict[int, int]):
    """A Metadata handler: both peers are brokers, partition p of topic "t" is led by ``peers[leaders[p]]``."""
    def answer(request: Any) -> Dict[str, Any]:
        partitions = [{"error_code": 0, "partition_index": p, "leader_id": leader, "leader_epoch": 0,
                       "replica_nodes": [leader], "isr_nodes": [leader]} for p, leader in sorted(leaders.items())]
        return {"brokers": [{"node_id": i, "host": "127.0.0.1", "port": peer.port} for i, peer in enumerate(peers)],
                "cluster_id": "scripted", "controller_id": 0,
                "topics": [{"error_code": 0, "name": "t", "topic_id": peers[0].topic_id("t"),
                            "partitions": partitions}]}
    return answer


def _delete_records_answer(low_watermarks: Dict[int, int]):
    def answer(request: Any) -> Dict[str, Any]:
        return {"throttle_time_ms": 0, "topics": [
            {"name": t.name, "partitions": [
                {"partition_index": p.partition_index, "low_watermark": low_watermarks[p.partition_index],
                 "error_code": 0} for p in t.partitions]} for t in request.body.topics]}
    return answer


def test_delete_records_sends_each_offset_to_its_partition_leader():
    with ScriptedPeer(node_id=0) as first, ScriptedPeer(node_id=1) as second:
        peers = [first, second]
        for peer in peers:
            peer.on("Metadata", _two_broker_metadata(peers, {0: 1, 1: 0}))
            peer.on("DeleteRecords", _delete_records_answer({0: 5, 1: 3}))
        with _admin(first) as admin:
            result = admin.delete_records({TopicPartition("t", 0): 5, TopicPartition("t", 1): 3}, timeout_ms=2000)
        assert result == {TopicPartition("t", 0): DeletedRecords(5), TopicPartition("t", 1): DeletedRecords(3)}
        [to_second] = second.received("DeleteRecords")
        [to_first] = first.received("DeleteRecords")
        for request, partition, offset in ((to_second, 0, 5), (to_first, 1, 3)):
            [topic] = request.body.topics
            assert topic.name == "t"
            assert [(p.partition_index, p.offset) for p in topic.partitions] == [(partition, offset)]
            assert request.body.timeout_ms == 2000
        assert not first.errors and not second.errors


def test_create_acls_sends_every_field_of_each_binding():
    with ScriptedPeer() as peer:
        peer.on("CreateAcls", lambda request: {"throttle_time_ms": 0, "results": [
            {"error_code": 0, "error_message": None} for _ in request.body.creations]})
        read = ACL("User:alice", "*", ACLOperation.READ, ACLPermissionType.ALLOW,
                   ResourcePattern(ResourceType.TOPIC, "orders", ACLResourcePatternType.PREFIXED))
        deny = ACL("User:bob", "10.0.0.1", ACLOperation.DESCRIBE, ACLPermissionType.DENY,
                   ResourcePattern(ResourceType.GROUP, "billing", ACLResourcePatternType.LITERAL))
        with _admin(peer) as admin:
            assert admin.create_acls([read, deny]) == {read: None, deny: None}
        [request] = peer.received("CreateAcls")
        sent = [(c.resource_type, c.resource_name, c.resource_pattern_type, c.principal, c.host, c.operation,
                 c.permission_type) for c in request.body.creations]
        assert sent == [
            (ResourceType.TOPIC, "orders", ACLResourcePatternType.PREFIXED, "User:alice", "*",
             ACLOperation.READ, ACLPermissionType.ALLOW),
            (ResourceType.GROUP, "billing", ACLResourcePatternType.LITERAL, "User:bob", "10.0.0.1",
             ACLOperation.DESCRIBE, ACLPermissionType.DENY),
        ]


def test_create_partitions_sends_the_total_counts_and_assignments():
    with ScriptedPeer(topics={"a": 1, "b": 2}) as peer:
        peer.on("CreatePartitions", lambda request: {"throttle_time_ms": 0, "results": [
            {"name": t.name, "error_code": 0, "error_message": None} for t in request.body.topics]})
        with _admin(peer) as admin:
            result = admin.create_partitions({"a": NewPartitions(3), "b": NewPartitions(4, [[0], [0]])},
                                             timeout_ms=2500, validate_only=True)
        assert result == {"a": None, "b": None}
        [request] = peer.received("CreatePartitions")
        sent = {t.name: (t.count, None if t.assignments is None else [a.broker_ids for a in t.assignments])
                for t in request.body.topics}
        assert sent == {"a": (3, None), "b": (4, [[0], [0]])}
        assert (request.body.timeout_ms, request.body.validate_only) == (2500, True)
