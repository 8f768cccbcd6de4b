"""kafkawire: a pure-Python client for the Apache Kafka wire protocol.

The distribution is named ``kafkawire``; the import name is ``kafka``.

The public classes and functions below are importable from the package root.
They are loaded on first use, so ``import kafka`` stays cheap.
"""

import logging
from importlib import import_module
from typing import TYPE_CHECKING, Any, Dict, List

if TYPE_CHECKING:
    # What __getattr__ below loads, as type checkers should see it.
    # TODO: the 0.9 names (kafka.legacy, kafka.conn.legacy, kafka.protocol.legacy) once they have moved.
    from kafka.admin import ConfigResource as ConfigResource
    from kafka.admin import ConfigResourceType as ConfigResourceType
    from kafka.admin import KafkaAdminClient as KafkaAdminClient
    from kafka.admin import NewPartitions as NewPartitions
    from kafka.admin import NewTopic as NewTopic
    from kafka.client import KafkaClient as KafkaClient
    from kafka.consumer import KafkaConsumer as KafkaConsumer
    from kafka.simple.partitioner import HashedPartitioner as HashedPartitioner
    from kafka.simple.partitioner import LegacyPartitioner as LegacyPartitioner
    from kafka.simple.partitioner import Murmur2Partitioner as Murmur2Partitioner
    from kafka.simple.partitioner import RoundRobinPartitioner as RoundRobinPartitioner
    from kafka.producer import KafkaProducer as KafkaProducer
    from kafka.structs import BrokerMetadata as BrokerMetadata
    from kafka.structs import OffsetAndMetadata as OffsetAndMetadata
    from kafka.structs import TopicPartition as TopicPartition

from kafka import _moved

_moved.install()  # old module paths (kafka.legacy, kafka.common, ...) stay importable

# A library logs and leaves showing the records to the application: without
# this, Python would write our warnings and errors to stderr whenever the
# application has not configured logging.
logging.getLogger(__name__).addHandler(logging.NullHandler())

__version__ = "0.1.0.dev0"

#: Public name -> module that defines it.
_EXPORTS: Dict[str, str] = {
    "KafkaClient": "kafka.simple.client",
    "KafkaConnection": "kafka.simple.connection",
    "KafkaProducer": "kafka.producer",
    "KafkaConsumer": "kafka.simple.consumer",
    "SimpleProducer": "kafka.simple",
    "KeyedProducer": "kafka.simple",
    "SimpleConsumer": "kafka.simple",
    "MultiProcessConsumer": "kafka.simple",
    "HashedPartitioner": "kafka.simple.partitioner",
    "LegacyPartitioner": "kafka.simple.partitioner",
    "Murmur2Partitioner": "kafka.simple.partitioner",
    "RoundRobinPartitioner": "kafka.simple.partitioner",
    "KafkaProtocol": "kafka.simple.protocol",
    "create_message": "kafka.simple.protocol",
    "create_gzip_message": "kafka.simple.protocol",
    "create_snappy_message": "kafka.simple.protocol",
    "create_message_set": "kafka.simple.protocol",
    "TopicPartition": "kafka.structs",
    "OffsetAndMetadata": "kafka.structs",
    "BrokerMetadata": "kafka.structs",
    "KafkaAdminClient": "kafka.admin",
    "NewTopic": "kafka.admin",
    "NewPartitions": "kafka.admin",
    "ConfigResource": "kafka.admin",
    "ConfigResourceType": "kafka.admin",
    # kafka-python 3's names
    "ConsumerRebalanceListener": "kafka.consumer.subscription",
    "AsyncConsumerRebalanceListener": "kafka.consumer.subscription",
    "Serializer": "kafka.serializer",
    "Deserializer": "kafka.serializer",
    "DefaultSerializer": "kafka.serializer",
    "JsonSerializer": "kafka.serializer",
    "TopicPartitionReplica": "kafka.structs",
    "ConsumerGroupMetadata": "kafka.consumer.group.common",
    "IsolationLevel": "kafka.enums",
    "OffsetSpec": "kafka.enums",
}

__all__: List[str] = sorted(_EXPORTS) + ["__version__"]

#: Submodules served as attributes after a bare ``import kafka`` (``kafka.codec.has_gzip``).
_SUBMODULES = frozenset({"admin", "codec", "consumer", "errors", "future", "producer", "serializer", "structs"})


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return import_module("kafka." + name)  # importing sets the package attribute too
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError("module 'kafka' has no attribute %r" % (name,))
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_EXPORTS) | _SUBMODULES)
