"""The consumer's fetches against brokers whose newest Fetch (v13+) names topics by id (KIP-516)."""

from __future__ import annotations

import time

from kafka import KafkaConsumer, TopicPartition
from kafka.record import MemoryRecordsBuilder
from kafka.structs import OffsetAndMetadata
from kafka.testing import ScriptedPeer
from test.support.topic_id_peer import (UNKNOWN_TOPIC_ID, fetch_handler,
                                        offset_commit_handler, offset_fetch_handler)

TP = TopicPartition("t", 0)


def _one_record() -> bytes:
    builder = MemoryRecordsBuilder(magic=2, compression_type=None)
    builder.append(0, int(time.time() * 1000), None, b"hello", [])
    return builder.build()


def _first_values(peer: ScriptedPeer, seconds: float = 8.0):
    consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, group_id=None, enable_auto_commit=False,
                             request_timeout_ms=3000)
    try:
        consumer.assign([TP])
        consumer.seek(TP, 0)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            records = consumer.poll(timeout_ms=200).get(TP)
            if records:
                return [r.value for r in records]
        return []
    finally:
        consumer.close()


def test_fetch_at_the_newest_version_names_topics_by_id_and_reads_the_answer():
    with ScriptedPeer(topics={"t": 1}) as peer:
        peer.on("Fetch", fetch_handler(peer, {("t", 0): _one_record()}))
        assert _first_values(peer) == [b"hello"]
        first = peer.received("Fetch")[0]
        assert first.version >= 13
        [topic] = first.body.topics
        assert topic.topic_id == peer.topic_id("t") and not topic.topic
        assert not peer.errors


def test_without_a_topic_id_in_metadata_the_consumer_fetches_by_name_at_v12():
    # Metadata before v10 carries no ids: a v13+ fetch could only name the null id.
    with ScriptedPeer(topics={"t": 1}, api_versions={"Metadata": (0, 9)}) as peer:
        peer.on("Fetch", fetch_handler(peer, {("t", 0): _one_record()}))
        assert _first_values(peer) == [b"hello"]
        first = peer.received("Fetch")[0]
        assert first.version == 12
        assert [t.topic for t in first.body.topics] == ["t"]


def test_unknown_topic_id_in_a_fetch_answer_refreshes_metadata_instead_of_failing_the_poll():
    # A topic deleted and created again has a new id: until metadata catches
    # up, the leader answers UNKNOWN_TOPIC_ID for the old one.
    with ScriptedPeer(topics={"t": 1}) as peer:
        normal = fetch_handler(peer, {("t", 0): _one_record()})

        def first_stale(request):
            answer = normal(request)
            if len(peer.received("Fetch")) == 1:
                for topic in answer["responses"]:
                    for part in topic["partitions"]:
                        part.update(error_code=UNKNOWN_TOPIC_ID, high_watermark=-1, records=b"")
            return answer

        peer.on("Fetch", first_stale)
        assert _first_values(peer) == [b"hello"]


def test_group_offsets_are_committed_and_read_by_name_at_v9_when_the_broker_offers_v10():
    # The consumer's group names topics (v10 would need the id of every
    # committed topic): it stays at v9, which Kafka 4 still accepts.
    store = {}
    with ScriptedPeer(topics={"t": 1}) as peer:
        peer.on("OffsetCommit", offset_commit_handler(peer, store))
        peer.on("OffsetFetch", offset_fetch_handler(peer, store))
        consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, group_id="g", enable_auto_commit=False,
                                 request_timeout_ms=3000)
        try:
            consumer.assign([TP])
            consumer.commit({TP: OffsetAndMetadata(5, "", -1)})
            assert consumer.committed(TP) == 5
        finally:
            consumer.close()
        assert store == {("t", 0): 5}
        [commit] = peer.received("OffsetCommit")
        [read] = peer.received("OffsetFetch")
        assert (commit.version, [t.name for t in commit.body.topics]) == (9, ["t"])
        assert (read.version, [t.name for t in read.body.groups[0].topics]) == (9, ["t"])
