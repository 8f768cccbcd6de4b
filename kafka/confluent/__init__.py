"""A pure-Python drop-in for confluent-kafka-python's main API, on kafkawire's engine.

``from kafka.confluent import Producer, Consumer, KafkaError, ...`` gives the
classes confluent-kafka programs use, configured with librdkafka property
names. :func:`install_as_confluent_kafka` makes ``import confluent_kafka``
load this package instead. See :doc:`/confluent` for what maps to what.
"""

from __future__ import annotations

from kafka.confluent._client_events import ThrottleEvent
from kafka.confluent._tables import LIBRDKAFKA_VERSION
from kafka.confluent.kafka_error import ConcurrentModificationException, KafkaError, KafkaException
from kafka.confluent._uuid import Uuid
from kafka.confluent.partitioners import consistent, fnv1a, murmur2
from kafka.confluent.message import (
    OFFSET_BEGINNING, OFFSET_END, OFFSET_INVALID, OFFSET_STORED, TIMESTAMP_CREATE_TIME, TIMESTAMP_LOG_APPEND_TIME,
    TIMESTAMP_NOT_AVAILABLE, Message, TopicPartition)
from kafka.confluent.consumer import Consumer
from kafka.confluent.producer import Producer
from kafka.confluent.admin._types import (
    ConsumerGroupState, ConsumerGroupTopicPartitions, ConsumerGroupType, ElectionType, IsolationLevel, Node,
    TopicCollection, TopicPartitionInfo)
from kafka.confluent.serializing_producer import SerializingProducer
from kafka.confluent.deserializing_consumer import DeserializingConsumer
from kafka.confluent.deserializing_share_consumer import DeserializingShareConsumer
from kafka.confluent.share_consumer import AcknowledgeType, IllegalStateException, Messages, ShareConsumer

__all__ = [
    "Producer", "Consumer", "Message", "TopicPartition", "KafkaError", "KafkaException",
    "OFFSET_BEGINNING", "OFFSET_END", "OFFSET_STORED", "OFFSET_INVALID",
    "TIMESTAMP_NOT_AVAILABLE", "TIMESTAMP_CREATE_TIME", "TIMESTAMP_LOG_APPEND_TIME",
    "version", "libversion", "install_as_confluent_kafka",
    "SerializingProducer", "DeserializingConsumer", "ConsumerGroupTopicPartitions", "ConsumerGroupState",
    "ConsumerGroupType", "ElectionType", "IsolationLevel", "Node", "TopicCollection", "TopicPartitionInfo",
    "ThrottleEvent", "ShareConsumer", "Messages", "AcknowledgeType", "IllegalStateException",
    "DeserializingShareConsumer", "ConcurrentModificationException", "Uuid", "murmur2", "consistent", "fnv1a",
]

#: The confluent-kafka release whose API this package follows.
API_VERSION = "2.16.1"


def _as_int(version: str) -> int:
    parts = [int(p) for p in version.split(".")[:3]] + [0, 0, 0]
    return (parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | 0xFF


def version() -> str:
    """The confluent-kafka release whose API is provided (confluent-kafka returns a string too)."""
    return API_VERSION


def libversion() -> tuple:
    """``(version string, version int)`` of the librdkafka whose behaviour is followed."""
    return (LIBRDKAFKA_VERSION, _as_int(LIBRDKAFKA_VERSION))


def install_as_confluent_kafka() -> None:
    """Make ``import confluent_kafka`` (and ``confluent_kafka.admin``, ``confluent_kafka.aio``) load this package.

    Registers ``kafka.confluent`` and its submodules in :data:`sys.modules`
    under the ``confluent_kafka`` names, so that an unchanged confluent-kafka
    program runs on kafkawire. Call it before the program imports
    confluent_kafka; a real confluent_kafka imported earlier is replaced for
    later imports only.
    """
    import sys

    import importlib

    from kafka.confluent import (admin, aio, consumer, deserializing_consumer, deserializing_share_consumer, error,
                                 message, producer, serialization, serializing_producer)

    cimpl = importlib.import_module("kafka.confluent.cimpl")

    package = sys.modules[__name__]
    sys.modules["confluent_kafka"] = package
    sys.modules["confluent_kafka.admin"] = admin
    sys.modules["confluent_kafka.aio"] = aio
    sys.modules["confluent_kafka.error"] = error
    sys.modules["confluent_kafka.serialization"] = serialization
    sys.modules["confluent_kafka.serializing_producer"] = serializing_producer
    sys.modules["confluent_kafka.deserializing_consumer"] = deserializing_consumer
    sys.modules["confluent_kafka.deserializing_share_consumer"] = deserializing_share_consumer
    sys.modules["confluent_kafka.cimpl"] = cimpl
    for name in ("schema_registry", "schema_registry.avro", "schema_registry.json_schema", "schema_registry.error",
                 "schema_registry.schema_registry_client", "avro", "avro.error", "avro.load", "avro.serializer",
                 "avro.serializer.message_serializer", "avro.cached_schema_registry_client"):
        sys.modules["confluent_kafka." + name] = importlib.import_module("kafka.confluent." + name)
    for name, module in (("consumer", consumer), ("producer", producer), ("message", message)):
        sys.modules["confluent_kafka._kafkawire_" + name] = module


def __getattr__(name: str) -> object:
    # ``confluent_kafka.cimpl`` is an attribute of the package too; loaded on first use,
    # as it imports the package's own names.
    if name == "cimpl":
        import importlib

        return importlib.import_module("kafka.confluent.cimpl")
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
