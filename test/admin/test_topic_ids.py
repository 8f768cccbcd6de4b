"""Admin group-offset calls against brokers whose newest OffsetCommit/OffsetFetch (v10) go by topic id."""

from __future__ import annotations

from typing import Dict, Tuple

from kafka import TopicPartition
from kafka.admin import KafkaAdminClient
from kafka.structs import OffsetAndMetadata
from kafka.testing import ScriptedPeer
from test.support.topic_id_peer import offset_commit_handler, offset_fetch_handler

TP = TopicPartition("t", 1)


def _peer(store: Dict[Tuple[str, int], int], **kwargs) -> ScriptedPeer:
    peer = ScriptedPeer(topics={"t": 2, "other": 1}, **kwargs)
    peer.on("OffsetCommit", offset_commit_handler(peer, store))
    peer.on("OffsetFetch", offset_fetch_handler(peer, store))
    return peer


def _admin(peer: ScriptedPeer) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=3000)


def test_alter_and_list_group_offsets_name_topics_by_id_at_v10():
    store: Dict[Tuple[str, int], int] = {}
    with _peer(store) as peer, _admin(peer) as admin:
        assert admin.alter_consumer_group_offsets("g", {TP: 5}) == {TP: None}
        assert store == {("t", 1): 5}
        assert admin.list_consumer_group_offsets("g", [TP]) == {TP: OffsetAndMetadata(5, "", -1)}
        assert admin.list_consumer_group_offsets("g") == {TP: OffsetAndMetadata(5, "", -1)}

        [commit] = peer.received("OffsetCommit")
        assert commit.version == 10
        assert [(t.name, t.topic_id) for t in commit.body.topics] == [("", peer.topic_id("t"))]
        some, every = peer.received("OffsetFetch")
        assert (some.version, every.version) == (10, 10)
        [topic] = some.body.groups[0].topics
        assert (topic.name, topic.topic_id, topic.partition_indexes) == ("", peer.topic_id("t"), [1])
        assert every.body.groups[0].topics is None
        assert not peer.errors


def test_without_topic_ids_in_metadata_group_offsets_name_topics_at_v9():
    store: Dict[Tuple[str, int], int] = {}
    with _peer(store, api_versions={"Metadata": (0, 9)}) as peer, _admin(peer) as admin:
        assert admin.alter_consumer_group_offsets("g", {TP: 7}) == {TP: None}
        assert admin.list_consumer_group_offsets("g", [TP]) == {TP: OffsetAndMetadata(7, "", -1)}
        assert admin.list_consumer_group_offsets("g") == {TP: OffsetAndMetadata(7, "", -1)}
        versions = [(r.api.name, r.version) for r in peer.requests if r.api.name.startswith("Offset")]
        assert versions == [("OffsetCommit", 9), ("OffsetFetch", 9), ("OffsetFetch", 9)]
        [commit] = peer.received("OffsetCommit")
        assert [t.name for t in commit.body.topics] == ["t"]


def test_delete_topics_at_v6_names_each_topic_with_a_null_id_and_reads_the_answer():
    with ScriptedPeer(topics={"t": 1}) as peer:
        peer.on("DeleteTopics", lambda request: {"responses": [
            {"name": topic.name, "topic_id": peer.topic_id(topic.name), "error_code": 0}
            for topic in request.body.topics]})
        with _admin(peer) as admin:
            assert admin.delete_topics(["t"], raise_error=True) == {"t": None}
        [request] = peer.received("DeleteTopics")
        assert request.version == 6
        assert [(t.name, t.topic_id.int) for t in request.body.topics] == [("t", 0)]
