"""ClusterMetadata from Metadata responses, and its refresh policy."""

from __future__ import annotations

import uuid

from kafka.cluster import COORDINATOR_GROUP, ClusterMetadata
from kafka.protocol.apis import METADATA
from kafka.structs import TopicPartition

R = METADATA.Response
TOPIC_ID = uuid.UUID(int=42)


def _response(leader=1, brokers=(1, 2), error=0, partition_error=0):
    return R(
        brokers=[R.MetadataResponseBroker(node_id=n, host="h%d" % n, port=9000 + n, rack=None) for n in brokers],
        cluster_id="c1", controller_id=brokers[0],
        topics=[R.MetadataResponseTopic(
            error_code=error, name="t", topic_id=TOPIC_ID, is_internal=False,
            partitions=[R.MetadataResponseTopic.MetadataResponsePartition(
                error_code=partition_error, partition_index=p, leader_id=leader if p == 0 else brokers[-1],
                leader_epoch=5, replica_nodes=list(brokers), isr_nodes=list(brokers), offline_replicas=[])
                for p in range(2)]),
            R.MetadataResponseTopic(error_code=0, name="__consumer_offsets", is_internal=True, partitions=[])])


def test_bootstrap_then_real_brokers():
    cluster = ClusterMetadata([("a", 1), ("b", 2)])
    assert {b.nodeId for b in cluster.brokers()} == {-1, -2}
    cluster.update_metadata(_response(), now=10.0)
    assert {b.nodeId for b in cluster.brokers()} == {1, 2}
    assert cluster.broker_metadata(2).port == 9002
    assert cluster.controller == 1 and cluster.cluster_id == "c1"
    assert cluster.topics() == {"t"}
    assert cluster.topics(exclude_internal_topics=False) == {"t", "__consumer_offsets"}
    assert cluster.topic_id("t") == TOPIC_ID
    assert cluster.partitions_for_topic("t") == {0, 1}
    assert cluster.leader_for_partition(TopicPartition("t", 0)) == 1
    assert cluster.leader_epoch_for_partition(TopicPartition("t", 0)) == 5
    assert cluster.partitions_for_broker(2) == {TopicPartition("t", 1)}
    assert cluster.leader_for_partition(TopicPartition("nope", 0)) is None


def test_refresh_policy():
    cluster = ClusterMetadata([("a", 1)], metadata_max_age_ms=1000, retry_backoff_ms=100)
    assert cluster.need_update and cluster.ttl(0.0) == 0.0
    cluster.update_metadata(_response(), now=10.0)
    assert not cluster.need_update
    assert cluster.ttl(10.5) == 0.5
    cluster.request_update()
    assert cluster.ttl(10.05) > 0  # retry back-off since the last attempt
    assert cluster.ttl(10.2) == 0.0
    cluster.failed_update(RuntimeError(), now=20.0)
    assert cluster.ttl(20.0) > 0 and cluster.need_update


def test_leaderless_partition_and_topic_errors_ask_for_another_refresh():
    cluster = ClusterMetadata([("a", 1)])
    cluster.update_metadata(_response(leader=-1), now=1.0)
    assert cluster.need_update
    assert cluster.available_partitions_for_topic("t") == {1}
    cluster.update_metadata(_response(error=3), now=2.0)  # UNKNOWN_TOPIC_OR_PARTITION
    assert cluster.partitions_for_topic("t") is None
    assert cluster.topic_error("t") == 3
    assert cluster.need_update


def test_broker_changes_and_coordinators():
    cluster = ClusterMetadata([("a", 1)])
    cluster.update_metadata(_response(brokers=(1, 2, 3)), now=1.0)
    cluster.add_coordinator(COORDINATOR_GROUP, "g", 3, "h3", 9003)
    cluster.update_metadata(_response(brokers=(1, 2)), now=2.0)
    # A coordinator stays reachable even if this response did not list it.
    assert cluster.coordinator_for_group("g") == 3
    assert cluster.broker_metadata(3) is not None
    cluster.forget_coordinator(COORDINATOR_GROUP, "g")
    cluster.update_metadata(_response(brokers=(1, 2)), now=3.0)
    assert cluster.broker_metadata(3) is None
    seen = []
    cluster.add_listener(lambda c: seen.append(c.version))
    cluster.update_metadata(_response(brokers=(1, 2, 4)), now=4.0)
    assert seen == [cluster.version] and cluster.broker_metadata(4).host == "h4"


def test_a_leader_missing_from_the_broker_list_asks_for_another_refresh():
    # librdkafka's mock omits a broker that is down while it still leads.
    cluster = ClusterMetadata([("a", 1)])
    cluster.update_metadata(_response(leader=3, brokers=(1, 2)), now=1.0)
    assert cluster.leader_for_partition(TopicPartition("t", 0)) == 3
    assert cluster.need_update


def test_a_full_refresh_keeps_topics_tracked_after_it_was_sent():
    cluster = ClusterMetadata([("a", 1)])
    cluster.update_metadata(_response(), now=1.0)
    empty = R(brokers=_response().brokers, topics=[])
    cluster.update_metadata(empty, now=2.0, keep=["t"])
    assert cluster.partitions_for_topic("t") == {0, 1} and cluster.topic_id("t") == TOPIC_ID
    cluster.update_metadata(empty, now=3.0)
    assert cluster.partitions_for_topic("t") is None
