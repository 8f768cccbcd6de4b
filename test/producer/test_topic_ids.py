"""The producer against brokers whose newest Produce (v13) names topics by id (KIP-516)."""

from __future__ import annotations

import pytest

from kafka import KafkaProducer, errors
from kafka.testing import ScriptedPeer
from test.support.topic_id_peer import init_producer_id, produce_handler

_BOUNDED = dict(request_timeout_ms=3000, delivery_timeout_ms=6000, max_block_ms=5000, linger_ms=0)


def _peer(**kwargs) -> ScriptedPeer:
    peer = ScriptedPeer(topics={"t": 1}, **kwargs)
    peer.on("Produce", produce_handler(peer, base_offset=41))
    peer.on("InitProducerId", init_producer_id)
    return peer


def test_a_v13_answer_naming_the_topic_by_id_completes_the_send():
    with _peer() as peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, **_BOUNDED)
        try:
            metadata = producer.send("t", b"v").get(timeout=10)
        finally:
            producer.close(timeout=2)
        assert (metadata.topic, metadata.partition, metadata.offset) == ("t", 0, 41)
        [request] = peer.received("Produce")
        assert request.version == 13
        [topic] = request.body.topic_data
        assert topic.topic_id == peer.topic_id("t") and not topic.name
        assert [p.index for p in topic.partition_data] == [0]
        assert not peer.errors


def test_without_a_topic_id_in_metadata_the_producer_names_the_topic_at_v12():
    # Metadata before v10 carries no topic ids; Produce v13 would need one.
    with _peer(api_versions={"Metadata": (0, 9)}) as peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, **_BOUNDED)
        try:
            metadata = producer.send("t", b"v").get(timeout=10)
        finally:
            producer.close(timeout=2)
        assert metadata.offset == 41
        versions = [(r.version, [t.name for t in r.body.topic_data]) for r in peer.received("Produce")]
        assert versions == [(12, ["t"])]


def test_a_broker_that_only_takes_topic_ids_fails_the_send_clearly_when_metadata_has_none():
    with _peer(api_versions={"Metadata": (0, 9), "Produce": (13, 13)}) as peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, retries=0, **_BOUNDED)
        try:
            with pytest.raises(errors.UnknownTopicIdError, match="no topic id for 't'"):
                producer.send("t", b"v").get(timeout=10)
        finally:
            producer.close(timeout=2)
        assert peer.received("Produce") == []
