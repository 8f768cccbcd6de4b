"""kafka-python 3's admin APIs on the embedded broker: result shapes and the APIs added for it."""

from __future__ import annotations

import uuid
from typing import Any, Iterator

import pytest

import kafka
from kafka import errors
from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient, MemberToRemove
from kafka.testing import probe_api_versions
from kafka.structs import TopicPartition
from test.support.consuming import poll_count
from test.support.topics import new_topic


@pytest.fixture
def admin(broker: Any) -> Iterator[KafkaAdminClient]:
    client = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers)
    try:
        yield client
    finally:
        client.close()


def test_describe_topics_is_a_list_of_kafka_python_dicts(admin: KafkaAdminClient, broker: Any) -> None:
    topic = new_topic(broker, partitions=2)
    missing = "missing-" + uuid.uuid4().hex[:8]
    found, absent = admin.describe_topics([topic, missing])
    assert (found["name"], found["error_code"], found["is_internal"]) == (topic, 0, False)
    assert isinstance(found["topic_id"], str) and found["authorized_operations"] is None
    assert [p["partition_index"] for p in found["partitions"]] == [0, 1]
    for p in found["partitions"]:
        assert p["replica_nodes"] == [p["leader_id"]] == p["isr_nodes"] and p["error_code"] == 0
        assert set(p) == {"error_code", "partition_index", "leader_id", "leader_epoch", "replica_nodes",
                          "isr_nodes", "offline_replicas"}
    assert (absent["name"], absent["error_code"]) == (missing, errors.UnknownTopicOrPartitionError.errno)
    assert absent["partitions"] == []
    # kafkawire's form is one keyword away.
    typed = admin.describe_topics([topic], raise_error=True)
    assert [p.partition for p in typed[topic].partitions] == [0, 1]


def test_raise_error_and_raise_errors_exclude_each_other(admin: KafkaAdminClient) -> None:
    with pytest.raises(errors.IllegalArgumentError, match="not both"):
        admin.create_topics(["x-" + uuid.uuid4().hex[:8]], raise_errors=False, raise_error=False)


def test_configs_in_kafka_python_shape(admin: KafkaAdminClient, broker: Any) -> None:
    topic = new_topic(broker)
    resource = ConfigResource(ConfigResourceType.TOPIC, topic)
    # Tansu describes no entries for a topic (every config is the default),
    # so only the nesting can be checked here; config_filter is still validated.
    assert admin.describe_configs([resource], config_filter="all") == {"topic": {topic: {}}}
    with pytest.raises(errors.IllegalArgumentError, match="config_filter"):
        admin.describe_configs([resource], config_filter="sometimes")
    change = [ConfigResource(ConfigResourceType.TOPIC, topic, {"retention.ms": "1000"})]
    # raise_on_unknown (kafka-python's default) checks the keys against the
    # described writable configs first: Tansu describes none.
    with pytest.raises(ValueError, match="retention.ms"):
        admin.alter_configs(change)
    # Without the check the change is incremental by default, as in kafka-python 3 ...
    assert admin.alter_configs(change, False, False) == {"topic": {topic: "OK"}}
    # ... and incremental=False asks for the full AlterConfigs, which Tansu lacks:
    # the failure is reported by text, as kafka-python does.
    altered = admin.alter_configs(change, raise_on_unknown=False, incremental=False)
    assert "UnsupportedVersionError" in altered["topic"][topic]
    assert admin.reset_configs([ConfigResource(ConfigResourceType.TOPIC, topic, ["retention.ms"])]) == \
        {"topic": {topic: "OK"}}


def test_remove_group_members(admin: KafkaAdminClient, broker: Any) -> None:
    topic = new_topic(broker)
    group = "g-" + uuid.uuid4().hex[:8]
    kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers).send(topic, b"x").get(timeout=60)
    consumer = kafka.KafkaConsumer(topic, bootstrap_servers=broker.bootstrap_servers, group_id=group,
                                   auto_offset_reset="earliest", session_timeout_ms=30000)
    try:
        assert poll_count(consumer, 1, timeout=40) == 1
        member_id = consumer.group_metadata().member_id
        assert [m["member_id"] for m in admin.describe_groups([group])[group]["members"]] == [member_id]
        member, stranger = MemberToRemove(member_id=member_id), MemberToRemove(member_id="nobody")
        removed = admin.remove_group_members(group, [member, stranger])
        assert removed == {member: errors.NoError, stranger: errors.UnknownMemberIdError}
        assert admin.describe_groups([group])[group]["members"] == []
    finally:
        consumer.close()
    with pytest.raises(errors.IllegalArgumentError):
        MemberToRemove()


def test_api_versions_and_broker_version_data(admin: KafkaAdminClient, broker: Any) -> None:
    announced = probe_api_versions(broker.host, broker.port)
    assert admin.api_versions() == announced
    node = admin.describe_cluster(raise_error=True).brokers[0].nodeId
    assert admin.get_broker_version_data(node).ranges == announced
    # Tansu announces no feature flags (ApiVersions v3+ supported_features is empty).
    assert admin.describe_features() == {}


def test_describe_topic_partitions(admin: KafkaAdminClient, broker: Any) -> None:
    topic = new_topic(broker, partitions=3)
    page = admin.describe_topic_partitions([topic])
    (described,) = page["topics"]
    assert described["name"] == topic and described["topic_id"] == admin.describe_topics([topic])[0]["topic_id"]
    assert [p["partition_index"] for p in described["partitions"]] == [0, 1, 2]
    assert all(p["leader_id"] >= 0 and p["error_code"] == 0 for p in described["partitions"])
    assert page["next_cursor"] is None


def test_list_partition_reassignments(admin: KafkaAdminClient, broker: Any) -> None:
    topic = new_topic(broker, partitions=2)
    found = admin.list_partition_reassignments([TopicPartition(topic, 0), TopicPartition(topic, 1)])
    # Tansu's quirk: it lists the asked partitions as "reassigning" with their
    # current replicas and nothing being added or removed (Kafka lists only
    # partitions with a reassignment in progress, so none here).
    for tp, entry in found.items():
        assert tp.topic == topic and entry["adding_replicas"] == [] == entry["removing_replicas"]
