"""KafkaAdminClient against librdkafka's 3-broker mock cluster.

The mock implements Metadata, FindCoordinator, OffsetCommit/OffsetFetch,
ListOffsets and the group protocol, but none of the admin APIs
(CreateTopics, DeleteTopics, CreatePartitions, configs, ACLs, DeleteRecords,
ListGroups, DescribeGroups, DeleteGroups, DescribeCluster): these tests check
routing to coordinators and leaders, coordinator retries with injected
errors, exact end offsets (for lag), and that unsupported calls fail per
resource with a clear UnsupportedVersionError before anything is sent.
Its JoinGroup/SyncGroup/LeaveGroup flexible versions are broken, so the
group test narrows them as ``test/consumer/test_group_mock_cluster.py`` does.
"""

from __future__ import annotations

import pytest

from kafka import errors
from kafka.admin import AdminResultError, KafkaAdminClient, NewTopic
from kafka.consumer import KafkaConsumer
from kafka.producer import KafkaProducer
from kafka.protocol.apis import FIND_COORDINATOR, OFFSET_COMMIT, OFFSET_FETCH
from kafka.structs import OffsetAndMetadata, TopicPartition
from test.support.consuming import poll_count
from test.support.groups import narrow_group_versions

NOT_COORDINATOR = 16
COORDINATOR_LOAD_IN_PROGRESS = 14
TOPIC = "admin-events"


@pytest.fixture
def cluster(mock_cluster):
    mock_cluster.create_topic(TOPIC, 3)
    for partition, leader in enumerate((1, 2, 3)):
        mock_cluster.set_partition_leader(TOPIC, partition, leader)
    return mock_cluster


@pytest.fixture
def admin(cluster):
    client = KafkaAdminClient(bootstrap_servers=cluster.bootstrap_servers, request_timeout_ms=10000,
                              retry_backoff_ms=20)
    try:
        yield client
    finally:
        client.close()


def test_topics_and_cluster_from_metadata(admin, cluster):
    assert TOPIC in admin.list_topics()
    described = admin.describe_topics([TOPIC], raise_error=True)[TOPIC]
    assert [(p.partition, p.leader) for p in described.partitions] == [(0, 1), (1, 2), (2, 3)]
    description = admin.describe_cluster(raise_error=True)  # no DescribeCluster here: answered from Metadata
    assert [b.nodeId for b in description.brokers] == [1, 2, 3]
    assert {(b.host, b.port) for b in description.brokers} == set(cluster.broker_addresses().values())


def test_describe_cluster_falling_back_on_metadata_logs_no_error(admin, caplog):
    # The mock has no DescribeCluster: the fallback is the expected path, not a failure to report.
    with caplog.at_level("DEBUG", logger="kafka"):
        assert [b.nodeId for b in admin.describe_cluster(raise_error=True).brokers] == [1, 2, 3]
    assert [r.getMessage() for r in caplog.records if r.levelno >= 30] == []


def test_unsupported_admin_apis_fail_per_resource(admin):
    with pytest.raises(AdminResultError) as info:
        admin.create_topics([NewTopic("one", 1, 1), NewTopic("two", 1, 1)])
    assert set(info.value.errors) == {"one", "two"}
    assert all(isinstance(e, errors.UnsupportedVersionError) and "CreateTopics" in str(e)
               for e in info.value.errors.values())
    deleted = admin.delete_records({TopicPartition(TOPIC, p): 0 for p in range(3)}, raise_error=False)
    assert list(deleted) == [TopicPartition(TOPIC, p) for p in range(3)]
    assert all(isinstance(e, errors.UnsupportedVersionError) and "DeleteRecords" in str(e)
               for e in deleted.values())
    with pytest.raises(AdminResultError) as listing:
        admin.list_consumer_groups()
    assert sorted(listing.value.errors) == ["broker 1", "broker 2", "broker 3"]


def test_group_offsets_go_to_the_coordinator(admin, cluster):
    group = "pinned-group"
    cluster.set_coordinator("group", group, 2)
    cluster.start_request_tracking()
    offsets = {TopicPartition(TOPIC, 0): 5, TopicPartition(TOPIC, 2): OffsetAndMetadata(9, "note")}
    assert admin.alter_consumer_group_offsets(group, offsets) == {TopicPartition(TOPIC, 0): None,
                                                                  TopicPartition(TOPIC, 2): None}
    read = admin.list_consumer_group_offsets(group)
    assert {tp: (o.offset, o.metadata) for tp, o in read.items()} == {
        TopicPartition(TOPIC, 0): (5, ""), TopicPartition(TOPIC, 2): (9, "note")}
    asked = admin.list_consumer_group_offsets(group, [TopicPartition(TOPIC, 1)])
    assert asked[TopicPartition(TOPIC, 1)].offset == -1
    group_calls = {r.broker_id for r in cluster.request_log() if r.api_key in (OFFSET_COMMIT.key, OFFSET_FETCH.key)}
    assert group_calls == {2}


def test_coordinator_errors_are_retried(admin, cluster):
    group = "moving-group"
    admin.alter_consumer_group_offsets(group, {TopicPartition(TOPIC, 1): 4})
    cluster.start_request_tracking()
    cluster.push_request_errors("OffsetFetch", NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS)
    offsets = admin.list_consumer_group_offsets(group, [TopicPartition(TOPIC, 1)])
    assert [(tp, o.offset) for tp, o in offsets.items()] == [(TopicPartition(TOPIC, 1), 4)]
    log = cluster.request_log()
    assert sum(1 for r in log if r.api_key == OFFSET_FETCH.key) == 3
    # NOT_COORDINATOR makes the client look the coordinator up again.
    assert sum(1 for r in log if r.api_key == FIND_COORDINATOR.key) >= 1
    cluster.push_request_errors("OffsetCommit", COORDINATOR_LOAD_IN_PROGRESS)
    assert admin.alter_consumer_group_offsets(group, {TopicPartition(TOPIC, 1): 6}) == {
        TopicPartition(TOPIC, 1): None}
    assert admin.list_consumer_group_offsets(group)[TopicPartition(TOPIC, 1)].offset == 6


def test_real_group_offsets_and_lag(admin, cluster):
    narrow_group_versions(cluster)
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap_servers, linger_ms=5)
    try:
        futures = [producer.send(TOPIC, b"r%d" % i, partition=i % 3) for i in range(30)]
        producer.flush()
        for f in futures:
            f.get(10)
    finally:
        producer.close()
    consumer = KafkaConsumer(TOPIC, bootstrap_servers=cluster.bootstrap_servers, group_id="lag-group",
                             auto_offset_reset="earliest", enable_auto_commit=False,
                             session_timeout_ms=6000, heartbeat_interval_ms=500)
    try:
        assert poll_count(consumer, 30, timeout=30, poll_ms=200) == 30
        consumer.commit({TopicPartition(TOPIC, 0): 10, TopicPartition(TOPIC, 1): 4, TopicPartition(TOPIC, 2): 0})
    finally:
        consumer.close(autocommit=False)
    committed = admin.list_consumer_group_offsets("lag-group")
    ends = admin.end_offsets(list(committed))
    lag = {tp.partition: ends[tp] - committed[tp].offset for tp in committed}
    assert lag == {0: 0, 1: 6, 2: 10}
    assert admin.beginning_offsets([TopicPartition(TOPIC, 0)]) == {TopicPartition(TOPIC, 0): 0}
