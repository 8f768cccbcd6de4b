"""The simple KafkaClient against brokers whose newest Produce, Fetch, OffsetCommit and OffsetFetch go by topic id."""

from __future__ import annotations

from typing import Dict, Tuple

import pytest

from kafka import KafkaClient
from kafka.simple.common import FetchRequest, OffsetCommitRequest, OffsetFetchRequest, ProduceRequest
from kafka.simple.protocol import create_message
from kafka.testing import ScriptedPeer
from test.support.topic_id_peer import (fetch_handler, offset_commit_handler,
                                        offset_fetch_handler, produce_handler)

#: (Metadata versions the peer offers, whether topics then have ids)
_METADATA = {"with ids": None, "without ids": (0, 9)}


def _peer(store: Dict[Tuple[str, int], int], metadata) -> ScriptedPeer:
    peer = ScriptedPeer(topics={"t": 1}, api_versions={} if metadata is None else {"Metadata": metadata})
    peer.on("Produce", produce_handler(peer, base_offset=41))
    peer.on("Fetch", fetch_handler(peer, {}, high_watermark=42))
    peer.on("OffsetCommit", offset_commit_handler(peer, store))
    peer.on("OffsetFetch", offset_fetch_handler(peer, store))
    return peer


def _topic(request):
    """(name, topic id) of the one topic of a request."""
    body = request.body
    topics = getattr(body, "topic_data", None) or getattr(body, "topics", None) or body.groups[0].topics
    [topic] = topics
    return getattr(topic, "name", getattr(topic, "topic", None)), topic.topic_id


@pytest.mark.parametrize("case", sorted(_METADATA))
def test_simple_requests_name_topics_as_their_version_does_and_read_the_answers(case):
    store: Dict[Tuple[str, int], int] = {}
    with _peer(store, _METADATA[case]) as peer:
        client = KafkaClient(peer.bootstrap, timeout=3)
        try:
            [produced] = client.send_produce_request([ProduceRequest("t", 0, [create_message(b"v")])])
            [fetched] = client.send_fetch_request([FetchRequest("t", 0, 0, 1024)])
            [committed] = client.send_offset_commit_request("g", [OffsetCommitRequest("t", 0, 4, None)])
            [read] = client.send_offset_fetch_request("g", [OffsetFetchRequest("t", 0)])
        finally:
            client.close()
        assert (produced.error, produced.offset) == (0, 41)
        assert (fetched.error, fetched.highwaterMark) == (0, 42)
        assert committed.error == 0 and store == {("t", 0): 4}
        assert (read.error, read.offset) == (0, 4)
        sent = {name: peer.received(name)[0] for name in ("Produce", "Fetch", "OffsetCommit", "OffsetFetch")}
        if case == "with ids":
            assert {name: r.version >= (13 if name in ("Produce", "Fetch") else 10) for name, r in sent.items()} \
                == dict.fromkeys(sent, True)
            assert {name: _topic(r) for name, r in sent.items()} == dict.fromkeys(sent, ("", peer.topic_id("t")))
        else:
            assert {name: r.version for name, r in sent.items()} == {
                "Produce": 12, "Fetch": 12, "OffsetCommit": 9, "OffsetFetch": 9}
            assert {name: _topic(r)[0] for name, r in sent.items()} == dict.fromkeys(sent, "t")
        assert not peer.errors


def test_simple_produce_without_acks_names_the_topic_at_v12_when_metadata_has_no_id():
    with _peer({}, _METADATA["without ids"]) as peer:
        client = KafkaClient(peer.bootstrap, timeout=3)
        try:
            assert client.send_produce_request([ProduceRequest("t", 0, [create_message(b"v")])], acks=0) == []
            [request] = peer.wait_for("Produce", timeout=5)
        finally:
            client.close()
        assert request.version == 12 and _topic(request)[0] == "t"
