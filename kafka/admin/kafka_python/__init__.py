"""kafka-python 3's admin method names, arguments and result shapes, on kafkawire's admin operations.

Each module here subclasses one operations mixin and overrides or adds the
methods kafka-python 3 names: :mod:`.topics`, :mod:`.groups`,
:mod:`.configs`, :mod:`.offsets`, :mod:`.cluster`,
:mod:`.replicas`, :mod:`.quorum`, :mod:`.transactions`, :mod:`.users`. Results are
kafka-python's plain dicts and lists (:mod:`.shapes`); the methods that
also exist in kafkawire's own form return that form when called with
kafkawire's ``raise_error`` keyword (:mod:`.forms`).
``docs/compatibility.rst`` lists the remaining differences.
"""

from __future__ import annotations

from kafka.admin.kafka_python.cluster import KafkaPythonCluster
from kafka.admin.kafka_python.configs import KafkaPythonConfigs
from kafka.admin.kafka_python.groups import KafkaPythonGroups, MemberToRemove
from kafka.admin.kafka_python.offsets import KafkaPythonOffsets
from kafka.admin.kafka_python.quorum import KafkaPythonQuorum, UpdateFeatureType
from kafka.admin.kafka_python.replicas import ElectionType, KafkaPythonReplicas
from kafka.admin.kafka_python.topics import KafkaPythonTopics
from kafka.admin.kafka_python.transactions import (AbortTransactionSpec, KafkaPythonTransactions,
                                                   PartitionProducerState, ProducerState, TransactionDescription,
                                                   TransactionListing, TransactionState)
from kafka.admin.kafka_python.users import (KafkaPythonUsers, ScramMechanism, UserScramCredentialDeletion,
                                            UserScramCredentialUpsertion)


class KafkaPythonAdminMixin(KafkaPythonTopics, KafkaPythonGroups, KafkaPythonConfigs,
                            KafkaPythonOffsets, KafkaPythonCluster, KafkaPythonReplicas, KafkaPythonQuorum,
                            KafkaPythonTransactions, KafkaPythonUsers):
    """kafka-python 3's admin methods, each over the operations mixin it extends."""


__all__ = ["KafkaPythonAdminMixin", "MemberToRemove", "ElectionType", "UpdateFeatureType", "AbortTransactionSpec",
           "PartitionProducerState", "ProducerState", "TransactionDescription", "TransactionListing",
           "TransactionState", "ScramMechanism", "UserScramCredentialDeletion", "UserScramCredentialUpsertion"]
