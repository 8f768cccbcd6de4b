"""Admin value classes and argument checks: mistakes are reported before anything is sent."""

from __future__ import annotations

import struct

import pytest

import kafka
from kafka import errors
from kafka.admin import (ACL, ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType, AdminResultError,
                         AlterConfigOp, ConfigResource, ConfigResourceType, KafkaAdminClient, NewPartitions, NewTopic,
                         ResourcePattern, ResourcePatternFilter, ResourceType)
from kafka.admin.configs import _incremental_ops
from kafka.admin.groups import decode_assignment
from kafka.admin.results import finish
from kafka.structs import TopicPartition


def test_package_root_exports_the_admin_names():
    assert kafka.KafkaAdminClient is KafkaAdminClient
    assert kafka.NewTopic is NewTopic
    assert kafka.NewPartitions is NewPartitions
    assert kafka.ConfigResource is ConfigResource
    assert kafka.ConfigResourceType is ConfigResourceType


def test_new_topic_keeps_its_settings():
    topic = NewTopic("orders", 3, 1, topic_configs={"retention.ms": 1000, "compression.type": "lz4"})
    assert (topic.name, topic.num_partitions, topic.replication_factor) == ("orders", 3, 1)
    assert topic.topic_configs == {"retention.ms": "1000", "compression.type": "lz4"}
    defaults = NewTopic("d")
    assert (defaults.num_partitions, defaults.replication_factor) == (-1, -1)
    placed = NewTopic("p", replica_assignments={0: [1, 2], 1: [2, 3]})
    assert placed.replica_assignments == {0: [1, 2], 1: [2, 3]}


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(name=""), "non-empty"),
    (dict(name="a/b"), "characters"),
    (dict(name="x" * 250), "longer than"),
    (dict(name="t", num_partitions=0), "num_partitions"),
    (dict(name="t", num_partitions="3"), "integer"),
    (dict(name="t", replication_factor=0), "replication_factor"),
    (dict(name="t", replica_assignments={1: [1]}), "cover partitions"),
    (dict(name="t", replica_assignments={0: [1, 1]}), "twice"),
    (dict(name="t", num_partitions=2, replica_assignments={0: [1]}), "does not match"),
    (dict(name="t", topic_configs={"a": None}), "no value"),
    (dict(name="t", topic_configs={"a": [1]}), "string or a number"),
])
def test_new_topic_rejects_bad_arguments(kwargs, fragment):
    with pytest.raises(errors.IllegalArgumentError, match=fragment):
        NewTopic(**kwargs)


def test_new_partitions_and_config_resources_check_their_arguments():
    assert NewPartitions(4, [[1], [2]]).new_assignments == [[1], [2]]
    with pytest.raises(errors.IllegalArgumentError):
        NewPartitions(0)
    with pytest.raises(errors.IllegalArgumentError):
        NewPartitions(2, [[]])
    assert ConfigResource("topic", "t").resource_type is ConfigResourceType.TOPIC
    assert ConfigResource(ConfigResourceType.BROKER, 1).key == (ConfigResourceType.BROKER, "1")
    with pytest.raises(errors.IllegalArgumentError, match="unknown config resource type"):
        ConfigResource("planet", "x")
    with pytest.raises(errors.IllegalArgumentError, match="broker id"):
        ConfigResource("BROKER", "leader")


def test_incremental_config_operations():
    resource = ConfigResource("TOPIC", "t", {"retention.ms": 5, "cleanup.policy": None,
                                             "follower.replication.throttled.replicas": ("append", "0:1")})
    assert _incremental_ops(resource) == [("retention.ms", AlterConfigOp.SET, "5"),
                                          ("cleanup.policy", AlterConfigOp.DELETE, None),
                                          ("follower.replication.throttled.replicas", AlterConfigOp.APPEND, "0:1")]
    with pytest.raises(errors.IllegalArgumentError, match="needs a value"):
        _incremental_ops(ConfigResource("TOPIC", "t", {"x": (AlterConfigOp.SET, None)}))
    with pytest.raises(errors.IllegalArgumentError, match="unknown operation"):
        _incremental_ops(ConfigResource("TOPIC", "t", {"x": ("replace", "1")}))


def test_acl_values_distinguish_bindings_from_filters():
    pattern = ResourcePattern(ResourceType.TOPIC, "orders", ACLResourcePatternType.PREFIXED)
    acl = ACL("User:alice", "*", ACLOperation.READ, ACLPermissionType.ALLOW, pattern)
    same = ACL("User:alice", "*", "read", "allow", ResourcePattern("topic", "orders", "prefixed"))
    assert acl == same and hash(acl) == hash(same)
    anything = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY,
                         ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY))
    assert anything.resource_pattern.resource_name is None
    with pytest.raises(errors.IllegalArgumentError, match="only valid in a filter"):
        ACL("User:alice", "*", ACLOperation.ANY, ACLPermissionType.ALLOW, pattern)
    with pytest.raises(errors.IllegalArgumentError, match="User:name"):
        ACL("alice", "*", ACLOperation.READ, ACLPermissionType.ALLOW, pattern)
    with pytest.raises(errors.IllegalArgumentError, match="concrete ResourcePattern"):
        ACL("User:alice", "*", ACLOperation.READ, ACLPermissionType.ALLOW,
            ResourcePatternFilter(ResourceType.TOPIC, "orders"))
    with pytest.raises(errors.IllegalArgumentError, match="not one of"):
        ResourcePattern("galaxy", "x")


def test_result_error_carries_every_resource():
    failure = errors.TopicAlreadyExistsError("topic 'a'")
    with pytest.raises(AdminResultError) as info:
        finish("create_topics", {"a": failure, "b": None}, raise_error=True)
    exc = info.value
    assert isinstance(exc, errors.KafkaError)
    assert exc.errors == {"a": failure} and exc.succeeded == {"b": None}
    assert exc.results == {"a": failure, "b": None}
    assert "create_topics failed for 1 of 2" in str(exc) and "TopicAlreadyExistsError" in str(exc)
    assert finish("create_topics", {"a": failure}, raise_error=False) == {"a": failure}


def _assignment(topics):
    out = bytearray(struct.pack(">hi", 0, len(topics)))
    for topic, parts in topics:
        name = topic.encode()
        out += struct.pack(">h", len(name)) + name + struct.pack(">i", len(parts))
        out += b"".join(struct.pack(">i", p) for p in parts)
    return bytes(out + struct.pack(">i", -1))


def test_consumer_assignments_are_decoded():
    data = _assignment([("b", [1]), ("a", [2, 0])])
    assert decode_assignment(data) == (TopicPartition("a", 0), TopicPartition("a", 2), TopicPartition("b", 1))
    assert decode_assignment(b"") == ()
    assert decode_assignment(data[:9]) == ()  # truncated: nothing rather than garbage


def test_unknown_configuration_is_refused_before_connecting():
    with pytest.raises(errors.KafkaConfigurationError, match="unknown admin client configuration: colour"):
        KafkaAdminClient(bootstrap_servers="127.0.0.1:1", colour="blue")
