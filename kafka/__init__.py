"""kafkawire: a pure-Python client for the Apache Kafka wire protocol.

The distribution is named ``kafkawire``; the import name is ``kafka``.

The public classes and functions below are importable from the package root.
They are loaded on first use, so ``import kafka`` stays cheap.
"""

from importlib import import_module
from typing import Any, Dict, List

__version__ = "0.1.0.dev0"

#: Public name -> module that defines it.
_EXPORTS: Dict[str, str] = {
    "KafkaClient": "kafka.client",
    "KafkaConnection": "kafka.conn.legacy",
    "KafkaProducer": "kafka.producer",
    "KafkaConsumer": "kafka.consumer",
    "SimpleProducer": "kafka.legacy",
    "KeyedProducer": "kafka.legacy",
    "SimpleConsumer": "kafka.legacy",
    "MultiProcessConsumer": "kafka.legacy",
    "HashedPartitioner": "kafka.partitioner",
    "LegacyPartitioner": "kafka.partitioner",
    "Murmur2Partitioner": "kafka.partitioner",
    "RoundRobinPartitioner": "kafka.partitioner",
    "KafkaProtocol": "kafka.protocol.legacy",
    "create_message": "kafka.protocol.legacy",
    "create_gzip_message": "kafka.protocol.legacy",
    "create_snappy_message": "kafka.protocol.legacy",
    "create_message_set": "kafka.protocol.legacy",
    "TopicPartition": "kafka.structs",
    "OffsetAndMetadata": "kafka.structs",
    "BrokerMetadata": "kafka.structs",
    "KafkaAdminClient": "kafka.admin",
    "NewTopic": "kafka.admin",
    "NewPartitions": "kafka.admin",
    "ConfigResource": "kafka.admin",
    "ConfigResourceType": "kafka.admin",
    # kafka-python 3's names
    "ConsumerRebalanceListener": "kafka.consumer.subscription_state",
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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError("module 'kafka' has no attribute %r" % (name,))
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_EXPORTS))
