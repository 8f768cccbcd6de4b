"""Cluster metadata and broker text that no real broker should send.

A scripted peer answers Metadata and Produce with a negative partition id, a
megabyte-long host name or error message. The client must not write to a
partition that cannot exist, and must keep exceptions and logs short.
"""

from __future__ import annotations

import logging
from typing import Any, Dict

import pytest

from kafka import errors
from kafka.cluster import ClusterMetadata
from kafka.producer import KafkaProducer
from kafka.protocol.apis import METADATA
from kafka.testing import ScriptedPeer

HUGE = 1000000
#: Far above a few hundred shortened lines, far below what the unbounded text made (megabytes).
LOG_BUDGET = 200000


def _metadata_with(peer: ScriptedPeer, **changes: Any):
    def answer(request: Any) -> Dict[str, Any]:
        value = peer._answer_metadata(request)
        if "partition_ids" in changes:
            for topic in value["topics"]:
                topic["partitions"] = [dict(topic["partitions"][0], partition_index=i)
                                       for i in changes["partition_ids"]]
        if "host" in changes:
            value["brokers"] = [dict(b, host=changes["host"]) for b in value["brokers"]]
        return value
    return answer


def _producer(peer: ScriptedPeer, **configs: Any) -> KafkaProducer:
    return KafkaProducer(bootstrap_servers=peer.bootstrap, enable_idempotence=False, **configs)


def _kafka_log(caplog) -> int:
    return sum(len(r.getMessage()) for r in caplog.records if r.name.startswith("kafka"))


def test_a_topic_with_a_negative_partition_id_is_never_written_to(caplog):
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("Metadata", _metadata_with(peer, partition_ids=[0, -3]))
        producer = _producer(peer, max_block_ms=1000)
        try:
            with caplog.at_level(logging.DEBUG, logger="kafka"):
                for _ in range(3):
                    with pytest.raises(errors.KafkaTimeoutError):
                        producer.send("t", b"record")
        finally:
            producer.close(timeout=5)
        assert peer.received("Produce") == []
        assert len(peer.received("Metadata")) > 2
    warnings = [r.getMessage() for r in caplog.records if r.name == "kafka.cluster" and r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "-3" in warnings[0], warnings


def _partition(index: int) -> Any:
    return METADATA.Response.MetadataResponseTopic.MetadataResponsePartition(
        partition_index=index, leader_id=0, replica_nodes=[0], isr_nodes=[0])


def _response(indexes) -> Any:
    R = METADATA.Response
    data = METADATA.encode_response(R(brokers=[R.MetadataResponseBroker(node_id=0, host="h", port=1)], topics=[
        R.MetadataResponseTopic(name="t", partitions=[_partition(i) for i in indexes])]), 9)
    return METADATA.decode_response(data, 9)


def test_a_bad_update_keeps_the_partitions_known_before():
    cluster = ClusterMetadata()
    cluster.update_metadata(_response([0, 1]), now=1.0)
    assert cluster.partitions_for_topic("t") == {0, 1}
    cluster.update_metadata(_response([0, -3]), now=2.0)
    assert cluster.partitions_for_topic("t") == {0, 1}
    assert cluster.need_update
    cluster.update_metadata(_response([0, 0]), now=3.0)  # a repeated id is as wrong
    assert cluster.partitions_for_topic("t") == {0, 1}
    cluster.update_metadata(_response([0, 1, 2]), now=4.0)
    assert cluster.partitions_for_topic("t") == {0, 1, 2}


def test_a_huge_host_name_gives_bounded_log_output(caplog):
    with ScriptedPeer(topics={"t": 1}) as peer:
        peer.on("Metadata", _metadata_with(peer, host="h" * HUGE))
        producer = _producer(peer, max_block_ms=1000, request_timeout_ms=1000, delivery_timeout_ms=1500,
                             linger_ms=0)
        try:
            with caplog.at_level(logging.DEBUG, logger="kafka"):
                future = producer.send("t", b"record")
                with pytest.raises(errors.KafkaError) as failed:
                    future.get(timeout=10)
        finally:
            producer.close(timeout=5)
    assert len(str(failed.value)) < 2000
    assert _kafka_log(caplog) < LOG_BUDGET
    assert any("h" * 100 in r.getMessage() and str(HUGE) in r.getMessage() for r in caplog.records)


def test_a_huge_error_message_gives_a_bounded_exception_and_log(caplog):
    def produce(request: Any) -> Dict[str, Any]:
        return {"responses": [{"name": t.name, "partition_responses": [
            {"index": p.index, "error_code": errors.InvalidRecordError.errno, "base_offset": -1,
             "error_message": "m" * HUGE} for p in t.partition_data]} for t in request.body.topic_data]}

    with ScriptedPeer(topics={"t": 1}, api_versions={"Produce": (3, 9)}) as peer:
        peer.on("Produce", produce)
        producer = _producer(peer, max_block_ms=5000, retries=0)
        try:
            with caplog.at_level(logging.DEBUG, logger="kafka"):
                with pytest.raises(errors.InvalidRecordError) as failed:
                    producer.send("t", b"record").get(timeout=10)
        finally:
            producer.close(timeout=5)
    text = str(failed.value)
    assert "m" * 100 in text and "characters)" in text and len(text) < 2000
    assert _kafka_log(caplog) < LOG_BUDGET


def _huge_coordinator(peer: ScriptedPeer):
    def answer(request: Any) -> Dict[str, Any]:
        host = "c" * HUGE
        if request.version >= 4:
            return {"coordinators": [{"key": k, "node_id": 7, "host": host, "port": peer.port, "error_code": 0}
                                     for k in request.body.coordinator_keys]}
        return {"error_code": 0, "node_id": 7, "host": host, "port": peer.port}
    return answer


def test_a_huge_coordinator_host_is_refused_with_a_short_error(caplog):
    with ScriptedPeer(topics={"t": 1}) as peer:
        peer.on("FindCoordinator", _huge_coordinator(peer))
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, transactional_id="tx-huge", max_block_ms=2000,
                                 request_timeout_ms=2000)
        try:
            with caplog.at_level(logging.DEBUG, logger="kafka"):
                with pytest.raises(errors.ProtocolError) as failed:
                    producer.init_transactions()
        finally:
            producer.close(timeout=5)
    assert "unusable host name" in str(failed.value) and len(str(failed.value)) < 1000
    assert _kafka_log(caplog) < LOG_BUDGET


def test_a_group_coordinator_with_a_huge_host_keeps_the_log_short(caplog):
    from kafka.consumer import KafkaConsumer

    with ScriptedPeer(topics={"t": 1}, api_versions={"ConsumerGroupHeartbeat": None}) as peer:
        peer.on("FindCoordinator", _huge_coordinator(peer))
        consumer = KafkaConsumer("t", bootstrap_servers=peer.bootstrap, group_id="g-huge", retry_backoff_ms=50)
        try:
            with caplog.at_level(logging.DEBUG, logger="kafka"):
                for _ in range(10):
                    consumer.poll(timeout_ms=100)
        finally:
            consumer.close()
        assert len(peer.received("FindCoordinator")) > 1  # it keeps looking, without wedging
    assert _kafka_log(caplog) < LOG_BUDGET
