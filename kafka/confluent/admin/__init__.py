"""confluent-kafka's ``confluent_kafka.admin``: the AdminClient, its value classes and the metadata classes.

A package, as confluent-kafka's is: the client is in ``_client``, its value
classes and enums in ``_types``, the SCRAM credential classes in ``_scram``,
and the two lookups the client runs on the engine's admin client in
``_list_groups`` and ``_list_offsets``. The metadata classes
(``ClusterMetadata``, ...) live in :mod:`kafka.confluent._metadata`, as the
producer and the consumer answer ``list_topics()`` with them too.
"""

from __future__ import annotations

from kafka.confluent._metadata import BrokerMetadata, ClusterMetadata, PartitionMetadata, TopicMetadata
from kafka.confluent.kafka_error import KafkaError, KafkaException  # noqa: F401 - confluent_kafka.admin has them too
from kafka.confluent.admin._types import (
    AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AlterConfigOpType, ConfigEntry, ConfigResource,
    ConfigSource, ConsumerGroupDescription, ConsumerGroupListing, ConsumerGroupState, ConsumerGroupTopicPartitions,
    ConsumerGroupType, DeletedRecords, DescribeClusterResult, GroupMember, GroupMetadata, IsolationLevel,
    ListConsumerGroupsResult, ListOffsetsResultInfo, MemberAssignment, MemberDescription, NewPartitions, NewTopic,
    Node, OffsetSpec, ResourcePatternType, ResourceType, TopicCollection, TopicDescription, TopicPartitionInfo)
from kafka.confluent.admin._scram import (
    ScramCredentialInfo, ScramMechanism, UserScramCredentialAlteration, UserScramCredentialDeletion,
    UserScramCredentialsDescription, UserScramCredentialUpsertion)
from kafka.confluent.admin._client import AdminClient
from kafka.confluent.admin._types import ElectionType as _ElectionType  # noqa: F401 - confluent-kafka's name here

__all__ = [
    "AdminClient", "NewTopic", "NewPartitions", "ConfigResource", "ConfigEntry", "ConfigSource", "AlterConfigOpType",
    "AclBinding", "AclBindingFilter", "AclOperation", "AclPermissionType", "ResourceType", "ResourcePatternType",
    "ConsumerGroupListing", "ListConsumerGroupsResult", "ConsumerGroupDescription", "MemberDescription",
    "MemberAssignment", "ConsumerGroupTopicPartitions", "ConsumerGroupState", "ConsumerGroupType", "GroupMetadata",
    "GroupMember", "OffsetSpec", "ListOffsetsResultInfo", "IsolationLevel", "DeletedRecords", "TopicDescription",
    "TopicPartitionInfo", "TopicCollection", "DescribeClusterResult", "Node", "ClusterMetadata", "TopicMetadata",
    "PartitionMetadata", "BrokerMetadata", "ScramMechanism", "ScramCredentialInfo", "UserScramCredentialsDescription",
    "UserScramCredentialAlteration", "UserScramCredentialUpsertion", "UserScramCredentialDeletion",
]
