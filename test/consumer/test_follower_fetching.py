"""Fetching from a follower (KIP-392) against the librdkafka mock cluster.

The mock's leader answers Fetch with ``preferred_read_replica`` set to the
follower chosen by ``set_partition_follower``, and that follower serves the
partition. With ``client_rack`` the consumer then sends its fetches to the
follower, and back to the leader once the follower stops serving the
partition (it answers NOT_LEADER_OR_FOLLOWER when it is no longer the
preferred replica).
"""

from __future__ import annotations

import time
from typing import Any, Dict, List

from kafka import KafkaConsumer, KafkaProducer
from kafka.admin import KafkaAdminClient
from kafka.cluster import ClusterMetadata
from kafka.consumer.read_replica import ReadReplicas
from kafka.protocol.apis import METADATA
from kafka.structs import TopicPartition

TOPIC = "follower-fetch"
FETCH = 1


def _leader(bootstrap: str) -> int:
    with KafkaAdminClient(bootstrap_servers=bootstrap) as admin:
        (partition,) = admin.describe_topics([TOPIC], raise_error=True)[TOPIC].partitions
    return partition.leader  # type: ignore[no-any-return]


def _produce(bootstrap: str, values: range) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks=-1, linger_ms=0)
    try:
        for i in values:
            producer.send(TOPIC, b"%d" % i, partition=0).get(timeout=30)
    finally:
        producer.close()


def _consume(consumer: KafkaConsumer, count: int) -> List[int]:
    seen: List[int] = []
    deadline = time.monotonic() + 30
    while len(seen) < count and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=200).values():
            seen.extend(int(r.value) for r in records)
    return seen


def _fetches(cluster: Any) -> Dict[int, int]:
    counts = cluster.request_counts(FETCH)
    cluster.clear_requests()
    return counts  # type: ignore[no-any-return]


def test_fetches_go_to_the_preferred_replica_and_back_to_the_leader(mock_cluster: Any) -> None:
    mock_cluster.create_topic(TOPIC, 1, 3)
    tp = TopicPartition(TOPIC, 0)
    _produce(mock_cluster.bootstrap_servers, range(5))
    consumer = KafkaConsumer(bootstrap_servers=mock_cluster.bootstrap_servers, group_id=None,
                             client_rack="rack-b", auto_offset_reset="earliest", fetch_max_wait_ms=100)
    try:
        consumer.assign([tp])
        leader = _leader(mock_cluster.bootstrap_servers)
        follower = next(b for b in mock_cluster.broker_ids if b != leader)
        mock_cluster.set_rack(follower, "rack-b")
        mock_cluster.set_partition_follower(TOPIC, 0, follower)
        mock_cluster.start_request_tracking()

        assert _consume(consumer, 5) == list(range(5))
        _fetches(mock_cluster)
        _produce(mock_cluster.bootstrap_servers, range(5, 10))
        assert _consume(consumer, 5) == list(range(5, 10))
        counts = _fetches(mock_cluster)
        assert counts.get(follower, 0) > 0 and counts.get(leader, 0) == 0, counts

        # Another replica is preferred now: the old follower refuses the
        # partition, the consumer goes back to the leader (which names the new one).
        other = next(b for b in mock_cluster.broker_ids if b not in (leader, follower))
        mock_cluster.set_partition_follower(TOPIC, 0, other)
        _produce(mock_cluster.bootstrap_servers, range(10, 15))
        assert _consume(consumer, 5) == list(range(10, 15))
        counts = _fetches(mock_cluster)
        assert counts.get(leader, 0) > 0 and counts.get(other, 0) > 0, counts
    finally:
        consumer.close()


def _cluster(*node_ids: int) -> ClusterMetadata:
    """Cluster metadata knowing brokers ``node_ids``, as a Metadata response would tell it."""
    cluster = ClusterMetadata()
    B = METADATA.Response.MetadataResponseBroker
    cluster.update_metadata(METADATA.Response(brokers=[B(node_id=n, host="127.0.0.1", port=9000 + n)
                                                       for n in node_ids], topics=[]), now=0.0)
    return cluster


def test_preferred_replica_expires_and_follows_leadership() -> None:
    now = [0.0]
    cluster = _cluster(1, 2, 3)
    replicas = ReadReplicas(lambda: cluster, max_age_ms=1000, clock=lambda: now[0])
    tp = TopicPartition("t", 0)
    assert replicas.node_for(tp, 1) == 1
    assert not replicas.on_answer(tp, 1, 1, 2, 0)
    assert replicas.node_for(tp, 1) == 2
    now[0] = 1.5  # metadata_max_age_ms passed: the leader is asked again
    assert replicas.node_for(tp, 1) == 1
    replicas.on_answer(tp, 1, 1, 2, 0)
    assert replicas.node_for(tp, 3) == 3  # a new leader forgets what the old one preferred
    replicas.on_answer(tp, 3, 3, 2, 0)
    assert replicas.on_answer(tp, 2, 3, -1, 6)  # the follower's error is dropped ...
    assert replicas.node_for(tp, 3) == 3  # ... and the leader asked instead
    replicas.on_answer(tp, 3, 3, 2, 0)
    replicas.forget_node(2)  # its connection failed
    assert replicas.node_for(tp, 3) == 3
    replicas.on_answer(tp, 3, 3, 7, 0)  # a replica the metadata does not know is not fetched from
    assert replicas.node_for(tp, 3) == 3
