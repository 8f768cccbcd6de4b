"""Spark's range fetches against brokers whose newest Fetch (v13+) names topics by id (KIP-516)."""

from __future__ import annotations

import time

import pytest

from kafka import KafkaClient, TopicPartition
from kafka.record import MemoryRecordsBuilder
from kafka.spark.fetch import RangeFetcher
from kafka.testing import ScriptedPeer
from test.support.topic_id_peer import fetch_handler

TP = TopicPartition("t", 0)


def _one_record() -> bytes:
    builder = MemoryRecordsBuilder(magic=2, compression_type=None)
    builder.append(0, int(time.time() * 1000), None, b"hello", [])
    return builder.build()


@pytest.mark.parametrize("metadata, fetch_version", [(None, 13), ((0, 9), 12)], ids=["with ids", "without ids"])
def test_a_range_fetch_names_the_topic_as_its_version_does_and_reads_the_answer(metadata, fetch_version):
    with ScriptedPeer(topics={"t": 1}, api_versions={} if metadata is None else {"Metadata": metadata}) as peer:
        peer.on("Fetch", fetch_handler(peer, {("t", 0): _one_record()}))
        client = KafkaClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=3000)
        try:
            batches = list(RangeFetcher(client).fetch_range(TP, 0, 1, fail_on_data_loss=True, poll_timeout_ms=3000))
        finally:
            client.close()
        assert [[r[4] for r in batch] for batch in batches] == [[b"hello"]]
        request = peer.received("Fetch")[0]
        [topic] = request.body.topics
        if fetch_version == 13:
            assert request.version >= 13 and (topic.topic, topic.topic_id) == ("", peer.topic_id("t"))
        else:
            assert request.version == 12 and topic.topic == "t"
