"""confluent-kafka's ``confluent_kafka.admin``: the AdminClient, its value classes and the metadata classes."""

from __future__ import annotations

from kafka.confluent._metadata import BrokerMetadata, ClusterMetadata, PartitionMetadata, TopicMetadata
from kafka.confluent.errors import KafkaError, KafkaException  # noqa: F401 - confluent_kafka.admin has them too
# kafka.confluent.producer imports these two from here.
from kafka.confluent._metadata import MetadataSource, check_credentials  # noqa: F401
from kafka.confluent._admin_types import (
    AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AlterConfigOpType, ConfigEntry, ConfigResource,
    ConfigSource, ConsumerGroupDescription, ConsumerGroupListing, ConsumerGroupState, ConsumerGroupTopicPartitions,
    ConsumerGroupType, DeletedRecords, DescribeClusterResult, GroupMember, GroupMetadata, IsolationLevel,
    ListConsumerGroupsResult, ListOffsetsResultInfo, MemberAssignment, MemberDescription, NewPartitions, NewTopic,
    Node, OffsetSpec, ResourcePatternType, ResourceType, TopicCollection, TopicDescription, TopicPartitionInfo)
from kafka.confluent._admin_scram import (
    ScramCredentialInfo, ScramMechanism, UserScramCredentialAlteration, UserScramCredentialDeletion,
    UserScramCredentialsDescription, UserScramCredentialUpsertion)
from kafka.confluent._admin_client import AdminClient
from kafka.confluent._admin_types import ElectionType as _ElectionType  # noqa: F401 - confluent-kafka's name here

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
