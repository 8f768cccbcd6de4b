"""kafka.direct's Produce and Fetch against a broker whose newest versions name topics by id (KIP-516)."""

from __future__ import annotations

import pytest

from kafka import direct
from kafka.conn.blocking import BlockingConnection
from kafka.testing import ScriptedPeer
from test.support.topic_id_peer import fetch_handler, produce_handler


@pytest.mark.parametrize("metadata, version", [(None, 13), ((0, 9), 12)], ids=["with ids", "without ids"])
def test_direct_produce_and_fetch_name_the_topic_as_their_version_does(metadata, version):
    with ScriptedPeer(topics={"t": 1}, api_versions={} if metadata is None else {"Metadata": metadata}) as peer:
        peer.on("Produce", produce_handler(peer, base_offset=41))
        peer.on("Fetch", fetch_handler(peer, {("t", 0): b""}, high_watermark=42))
        with BlockingConnection("127.0.0.1", peer.port, timeout=5) as conn:
            info = direct.describe_topic(conn, "t")
            assert direct.produce(conn, info, 0, b"") == 41
            assert direct.fetch(conn, info, 0, 0).high_watermark == 42
        for api in ("Produce", "Fetch"):
            [request] = peer.received(api)
            body = request.body
            [topic] = body.topic_data if api == "Produce" else body.topics
            name = topic.name if api == "Produce" else topic.topic
            if version == 13:
                assert request.version >= 13 and (name, topic.topic_id) == ("", peer.topic_id("t"))
            else:
                assert request.version == 12 and name == "t"
