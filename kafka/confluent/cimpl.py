"""``confluent_kafka.cimpl``: the names confluent-kafka's C module exports, for programs that import them from there.

confluent-kafka implements its clients, ``Message``, ``TopicPartition``,
``KafkaError`` and friends in a C module named ``cimpl`` and re-exports them
from the package; some programs and libraries (quixstreams among them)
import them from ``confluent_kafka.cimpl`` directly. This module holds the
same names: the classes of :mod:`kafka.confluent` and the integer constants
of the admin enums under their C names.
"""

from __future__ import annotations

from typing import Dict

from kafka.confluent import libversion, version
from kafka.confluent.admin._scram import ScramMechanism
from kafka.confluent.admin._types import (
    AclOperation, AclPermissionType, AlterConfigOpType, ConfigSource, ConsumerGroupState, ConsumerGroupType,
    ElectionType, IsolationLevel, NewPartitions, NewTopic, ResourcePatternType, ResourceType)
from kafka.confluent._uuid import Uuid
from kafka.confluent.consumer import Consumer
from kafka.confluent.kafka_error import ConcurrentModificationException, KafkaError, KafkaException
from kafka.confluent.message import (
    OFFSET_BEGINNING, OFFSET_END, OFFSET_INVALID, OFFSET_STORED, TIMESTAMP_CREATE_TIME, TIMESTAMP_LOG_APPEND_TIME,
    TIMESTAMP_NOT_AVAILABLE, Message, TopicPartition)
from kafka.confluent.partitioners import consistent, fnv1a, murmur2
from kafka.confluent.producer import Producer
from kafka.confluent.share_consumer import AcknowledgeType, IllegalStateException, ShareConsumer

#: ListOffsets' special timestamps, under the C module's names.
OFFSET_SPEC_EARLIEST = -2
OFFSET_SPEC_LATEST = -1
OFFSET_SPEC_MAX_TIMESTAMP = -3


def _constants() -> Dict[str, int]:
    """The C module's enum constants (``ACL_OPERATION_READ``, ...), from the enums they stand for."""
    prefixes = ((AclOperation, "ACL_OPERATION_"), (AclPermissionType, "ACL_PERMISSION_TYPE_"),
                (AlterConfigOpType, "ALTER_CONFIG_OP_TYPE_"), (ConfigSource, "CONFIG_SOURCE_"),
                (ConsumerGroupState, "CONSUMER_GROUP_STATE_"), (ConsumerGroupType, "CONSUMER_GROUP_TYPE_"),
                (ElectionType, "ELECTION_TYPE_"), (IsolationLevel, "ISOLATION_LEVEL_"),
                (ResourcePatternType, "RESOURCE_PATTERN_"), (ResourceType, "RESOURCE_"),
                (ScramMechanism, "SCRAM_MECHANISM_"), (AcknowledgeType, "SHARE_ACKNOWLEDGE_TYPE_"))
    # Where the C name of a member is not its Python name.
    renamed = {"PREPARING_REBALANCING": "PREPARING_REBALANCE", "COMPLETING_REBALANCING": "COMPLETING_REBALANCE",
               "SCRAM_SHA_256": "SHA_256", "SCRAM_SHA_512": "SHA_512"}
    out: Dict[str, int] = {}
    for enum_class, prefix in prefixes:
        for member in enum_class:
            out[prefix + renamed.get(member.name, member.name)] = int(member.value)
    return out


_CONSTANTS = _constants()
globals().update(_CONSTANTS)


__all__ = sorted([
    "Consumer", "Producer", "ShareConsumer", "Message", "TopicPartition", "KafkaError", "KafkaException",
    "ConcurrentModificationException", "IllegalStateException", "NewTopic", "NewPartitions", "Uuid",
    "OFFSET_BEGINNING", "OFFSET_END", "OFFSET_INVALID", "OFFSET_STORED", "OFFSET_SPEC_EARLIEST",
    "OFFSET_SPEC_LATEST", "OFFSET_SPEC_MAX_TIMESTAMP", "TIMESTAMP_CREATE_TIME", "TIMESTAMP_LOG_APPEND_TIME",
    "TIMESTAMP_NOT_AVAILABLE", "libversion", "version", "murmur2", "consistent", "fnv1a",
] + list(_CONSTANTS))
