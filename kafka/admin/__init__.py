"""Cluster administration: :class:`KafkaAdminClient` and the values it takes and returns.

See :doc:`/admin` for a guide. Modules: :mod:`~kafka.admin.client` (the
client), :mod:`~kafka.admin.resources` (NewTopic, NewPartitions,
ConfigResource), :mod:`~kafka.admin.acl_resource` (ACL values), :mod:`~kafka.admin.results`
(result types and :class:`AdminResultError`); the operations live in
:mod:`~kafka.admin.topics`, :mod:`~kafka.admin.configs`,
:mod:`~kafka.admin.groups`, :mod:`~kafka.admin.records` and
:mod:`~kafka.admin.acls`, routed by :mod:`~kafka.admin.base`;
:mod:`~kafka.admin.kinds` holds kafka-python 3's group and config
enumerations; :mod:`~kafka.admin.kafka_python` gives them kafka-python 3's names,
arguments and result shapes, and adds its replica, quorum, transaction and
SCRAM credential operations (with their value classes, exported here).
"""

from kafka.admin.acl_resource import (ACL, ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType,
                             ResourcePattern, ResourcePatternFilter, ResourceType)
from kafka.admin.client import KafkaAdminClient
from kafka.admin.kafka_python import (AbortTransactionSpec, ElectionType, MemberToRemove, PartitionProducerState,
                                     ProducerState, ScramMechanism, TransactionDescription, TransactionListing,
                                     TransactionState, UpdateFeatureType, UserScramCredentialDeletion,
                                     UserScramCredentialUpsertion)
from kafka.admin.kinds import ConfigFilterType, ConfigSourceType, ConfigType, GroupState, GroupType
from kafka.admin.resources import (AlterConfigOp, ConfigEntry, ConfigResource, ConfigResourceType, ConfigSource,
                                   NewPartitions, NewTopic)
from kafka.admin.results import (AdminResultError, ClusterDescription, DeletedRecords, GroupDescription,
                                 GroupListing, MemberDescription, RawGroupDescription, RawMemberDescription,
                                 TopicDescription)
from kafka.enums import OffsetSpec, OffsetTimestamp

__all__ = [
    "KafkaAdminClient", "NewTopic", "NewPartitions", "ConfigResource", "ConfigResourceType", "AlterConfigOp",
    "ConfigEntry", "ConfigSource", "ACL", "ACLFilter", "ResourcePattern", "ResourcePatternFilter",
    "ResourceType", "ACLOperation", "ACLPermissionType", "ACLResourcePatternType", "AdminResultError",
    "TopicDescription", "ClusterDescription", "GroupListing", "GroupDescription", "MemberDescription",
    "RawGroupDescription", "RawMemberDescription", "DeletedRecords", "MemberToRemove", "ElectionType",
    "UpdateFeatureType", "AbortTransactionSpec",
    "PartitionProducerState", "ProducerState", "TransactionDescription", "TransactionListing", "TransactionState",
    "ScramMechanism", "UserScramCredentialDeletion", "UserScramCredentialUpsertion",
    "GroupState", "GroupType", "ConfigType", "ConfigSourceType", "ConfigFilterType", "OffsetSpec", "OffsetTimestamp",
]
