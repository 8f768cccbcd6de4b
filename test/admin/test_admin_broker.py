"""KafkaAdminClient against the embedded Tansu broker.

Tansu quirks these tests live with (measured here, Tansu 0.6.0):

- it accepts every CreateTopics it can parse: a replication factor above
  the broker count, unknown topic configs and huge partition counts all
  succeed, and ``validate_only`` creates the topic anyway; so the broker's
  per-topic errors checked here are TOPIC_ALREADY_EXISTS and
  UNKNOWN_TOPIC_OR_PARTITION, and invalid counts are caught client-side;
- it advertises no CreatePartitions, AlterConfigs, DeleteAcls nor
  OffsetDelete: those calls must fail per resource with
  UnsupportedVersionError naming the API, before anything is sent;
- DeleteRecords is advertised but its in-memory storage panics ("not yet
  implemented") and closes the connection;
- CreateAcls is advertised but answered with a truncated body;
- DescribeGroups reports no member assignment nor client id, and answers an
  unknown group as ``Empty``; DeleteGroups deletes a group that still has
  members (Kafka answers NON_EMPTY_GROUP).
"""

from __future__ import annotations

import time

import pytest

from kafka import errors
from kafka.admin import (ACL, ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType, AdminResultError,
                         ConfigResource, ConfigResourceType, KafkaAdminClient, NewPartitions, NewTopic,
                         ResourcePattern, ResourcePatternFilter, ResourceType)
from kafka.consumer import KafkaConsumer
from kafka.producer import KafkaProducer
from kafka.structs import OffsetAndMetadata, TopicPartition
from test.admin.conftest import unique
from test.support.consuming import poll_count


def test_create_describe_and_delete_topics(admin):
    a, b = unique("adm-a"), unique("adm-b")
    assert admin.create_topics([NewTopic(a, 3, 1), NewTopic(b, 1, 1, topic_configs={"retention.ms": "60000"})],
                               raise_error=True) == {a: None, b: None}
    listed = admin.list_topics()
    assert a in listed and b in listed and listed == sorted(listed)
    described = admin.describe_topics([a], raise_error=True)
    assert list(described) == [a]
    assert [p.partition for p in described[a].partitions] == [0, 1, 2]
    assert all(p.leader >= 0 and p.replicas == (p.leader,) for p in described[a].partitions)
    assert admin.delete_topics([a, b], raise_error=True) == {a: None, b: None}
    assert a not in admin.list_topics()


def test_create_topics_reports_each_topic(admin):
    existing, fresh = unique("adm-exists"), unique("adm-fresh")
    admin.create_topics([NewTopic(existing, 1, 1)])
    with pytest.raises(AdminResultError) as info:
        admin.create_topics([NewTopic(existing, 1, 1), NewTopic(fresh, 2, 1)])
    exc = info.value
    assert set(exc.results) == {existing, fresh}
    assert isinstance(exc.errors[existing], errors.TopicAlreadyExistsError)
    assert exc.succeeded == {fresh: None}
    assert "1 of 2" in str(exc) and existing in str(exc)
    assert len(admin.describe_topics([fresh], raise_error=True)[fresh].partitions) == 2
    again = admin.create_topics([NewTopic(existing, 1, 1)], raise_error=False)
    assert isinstance(again[existing], errors.TopicAlreadyExistsError)


def test_delete_and_describe_unknown_topics_per_topic(admin):
    known, missing = unique("adm-known"), unique("adm-missing")
    admin.create_topics([NewTopic(known, 1, 1)])
    described = admin.describe_topics([missing, known], raise_error=False)
    assert list(described) == [missing, known]
    assert isinstance(described[missing], errors.UnknownTopicOrPartitionError)
    assert described[known].name == known
    with pytest.raises(AdminResultError) as info:
        admin.delete_topics([known, missing], raise_error=True)
    assert info.value.succeeded == {known: None}
    assert isinstance(info.value.errors[missing], errors.UnknownTopicOrPartitionError)


def test_bad_arguments_fail_before_sending(admin):
    with pytest.raises(errors.IllegalArgumentError, match="twice"):
        admin.create_topics([NewTopic("same", 1, 1), NewTopic("same", 2, 1)])
    with pytest.raises(errors.IllegalArgumentError, match="NewTopic"):
        admin.create_topics([42])  # (names are accepted, as kafka-python 3 does)
    with pytest.raises(errors.IllegalArgumentError, match="num_partitions"):
        admin.create_topics([NewTopic("zero-partitions", 0, 1)])
    with pytest.raises(errors.IllegalArgumentError, match="at least one"):
        admin.delete_topics([])
    with pytest.raises(errors.IllegalArgumentError, match="NewPartitions"):
        admin.create_partitions({"t": "three"})
    with pytest.raises(errors.IllegalArgumentError, match="group id"):
        admin.list_consumer_group_offsets("")
    with pytest.raises(errors.IllegalArgumentError, match="offset >= 0"):
        admin.alter_consumer_group_offsets("g", {TopicPartition("t", 0): -5})
    with pytest.raises(errors.IllegalArgumentError, match="offset >= 0"):
        admin.delete_records({TopicPartition("t", 0): -7})
    with pytest.raises(errors.IllegalArgumentError, match="ACLFilter"):
        admin.describe_acls("everything")
    assert "zero-partitions" not in admin.list_topics()


def test_apis_the_broker_lacks_fail_per_resource(admin):
    topic = unique("adm-np")
    admin.create_topics([NewTopic(topic, 1, 1)])
    results = admin.create_partitions({topic: NewPartitions(3)}, raise_error=False)
    assert isinstance(results[topic], errors.UnsupportedVersionError)
    assert "CreatePartitions" in str(results[topic])
    with pytest.raises(AdminResultError, match="AlterConfigs"):
        admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic, {"retention.ms": "1"})],
                            raise_error=True)
    with pytest.raises(errors.UnsupportedVersionError, match="OffsetDelete"):
        admin.delete_consumer_group_offsets(unique("g"), [TopicPartition(topic, 0)])
    any_acl = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY,
                        ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY))
    with pytest.raises(errors.UnsupportedVersionError, match="DeleteAcls"):
        admin.delete_acls([any_acl])
    assert len(admin.describe_topics([topic], raise_error=True)[topic].partitions) == 1


def test_describe_cluster(admin, broker):
    cluster = admin.describe_cluster(raise_error=True)
    assert len(cluster.brokers) == 1
    node = cluster.brokers[0]
    assert "%s:%d" % (node.host, node.port) == broker.bootstrap_servers
    assert cluster.controller_id == node.nodeId
    assert cluster.cluster_id


def test_describe_and_incrementally_alter_configs(admin):
    topic = unique("adm-cfg")
    admin.create_topics([NewTopic(topic, 1, 1, topic_configs={"retention.ms": "60000"})])
    resource = ConfigResource(ConfigResourceType.TOPIC, topic)
    configs = admin.describe_configs([resource], raise_error=True)[(ConfigResourceType.TOPIC, topic)]
    assert configs["retention.ms"].value == "60000"
    assert admin.incremental_alter_configs([ConfigResource("TOPIC", topic, {"retention.ms": 120000})]) \
        == {(ConfigResourceType.TOPIC, topic): None}
    configs = admin.describe_configs([resource], raise_error=True)[(ConfigResourceType.TOPIC, topic)]
    assert configs["retention.ms"].value == "120000"
    broker_id = admin.describe_cluster(raise_error=True).brokers[0].nodeId
    described = admin.describe_configs([ConfigResource(ConfigResourceType.BROKER, broker_id)], raise_error=True)
    assert list(described) == [(ConfigResourceType.BROKER, str(broker_id))]
    # A BROKER resource goes to that broker: one the cluster does not have fails alone.
    mixed = admin.describe_configs([ConfigResource("BROKER", 999), resource], raise_error=False)
    assert isinstance(mixed[(ConfigResourceType.BROKER, "999")], errors.BrokerNotAvailableError)
    assert mixed[(ConfigResourceType.TOPIC, topic)]["retention.ms"].value == "120000"


def _produce(bootstrap: str, topic: str, per_partition: int, partitions: int) -> None:
    # One record per batch: Tansu's ListOffsets "latest" is right only then.
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=0)
    try:
        for i in range(per_partition * partitions):
            producer.send(topic, b"v%d" % i, partition=i % partitions).get(10)
    finally:
        producer.close()


def test_consumer_group_life_cycle(admin, broker):
    topic, group = unique("adm-grp"), unique("group")
    admin.create_topics([NewTopic(topic, 2, 1)])
    _produce(broker.bootstrap_servers, topic, 3, 2)
    consumer = KafkaConsumer(topic, bootstrap_servers=broker.bootstrap_servers, group_id=group,
                             auto_offset_reset="earliest", enable_auto_commit=False,
                             session_timeout_ms=6000, heartbeat_interval_ms=1000)
    try:
        assert poll_count(consumer, 6, timeout=40) == 6
        consumer.commit({TopicPartition(topic, 0): OffsetAndMetadata(2, "half"), TopicPartition(topic, 1): 3})

        listed = {g.group_id: g for g in admin.list_consumer_groups()}
        assert listed[group].protocol_type == "consumer"
        described = admin.describe_consumer_groups([group])[group]
        assert described.state == "Stable" and len(described.members) == 1
        assert described.coordinator == admin.describe_cluster(raise_error=True).brokers[0].nodeId

        offsets = admin.list_consumer_group_offsets(group)
        assert {tp: o.offset for tp, o in offsets.items()} == {TopicPartition(topic, 0): 2,
                                                                TopicPartition(topic, 1): 3}
        only = admin.list_consumer_group_offsets(group, [TopicPartition(topic, 1)])
        assert list(only) == [TopicPartition(topic, 1)] and only[TopicPartition(topic, 1)].offset == 3
        ends = admin.end_offsets([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        assert ends == {TopicPartition(topic, 0): 3, TopicPartition(topic, 1): 3}
    finally:
        consumer.close(autocommit=False)

    assert admin.describe_consumer_groups([group])[group].members == ()
    assert admin.alter_consumer_group_offsets(group, {TopicPartition(topic, 0): 0}) \
        == {TopicPartition(topic, 0): None}
    assert admin.list_consumer_group_offsets(group)[TopicPartition(topic, 0)].offset == 0
    assert admin.delete_consumer_groups([group]) == {group: None}
    assert admin.list_consumer_group_offsets(group) == {}
    assert group not in {g.group_id for g in admin.list_consumer_groups()}


def test_acls_where_the_broker_answers(admin):
    any_acl = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY,
                        ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY))
    assert admin.describe_acls(any_acl) == []
    acl = ACL("User:alice", "*", ACLOperation.READ, ACLPermissionType.ALLOW,
              ResourcePattern(ResourceType.TOPIC, "orders"))
    # Tansu advertises CreateAcls but answers with a body cut short.
    with pytest.raises(errors.ProtocolError, match="CreateAcls"):
        admin.create_acls([acl])


def test_delete_records_reports_each_partition(fresh_broker):
    # Tansu's in-memory storage does not implement DeleteRecords (its worker
    # panics and the connection closes): each partition reports that failure.
    with KafkaAdminClient(bootstrap_servers=fresh_broker.bootstrap_servers, request_timeout_ms=5000,
                          retry_backoff_ms=20) as admin:
        topic = unique("adm-del")
        admin.create_topics([NewTopic(topic, 2, 1)])
        wanted = {TopicPartition(topic, 0): 0, TopicPartition(topic, 1): -1}
        results = admin.delete_records(wanted, raise_error=False)
        assert list(results) == list(wanted)
        assert all(isinstance(r, errors.KafkaConnectionError) for r in results.values())
        assert admin.list_topics() == [topic]  # the broker still serves other requests


def test_unreachable_bootstrap_is_reported_in_bounded_time():
    start = time.monotonic()
    with pytest.raises(errors.NoBrokersAvailable, match="127.0.0.1:1"):
        KafkaAdminClient(bootstrap_servers="127.0.0.1:1", bootstrap_timeout_ms=1500)
    assert time.monotonic() - start < 5


def test_closed_client_refuses_work(broker):
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers)
    admin.close()
    admin.close()
    with pytest.raises(errors.IllegalStateError):
        admin.list_topics()
