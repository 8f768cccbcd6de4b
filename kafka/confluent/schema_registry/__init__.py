"""confluent-kafka's ``confluent_kafka.schema_registry``: a Schema Registry client and its serializers.

:class:`SchemaRegistryClient` speaks the Schema Registry's REST API (with the
standard library only); :mod:`kafka.confluent.schema_registry.avro` (on
``fastavro``, ``pip install 'kafkawire[avro]'``) and
:mod:`kafka.confluent.schema_registry.json_schema` (on ``jsonschema``,
``pip install 'kafkawire[json]'``) hold the serializers and deserializers
that frame Kafka values with the id of their schema, as confluent-kafka's
do, so either side reads what the other wrote. Protobuf is not provided.
See :doc:`/confluent`.
"""

from __future__ import annotations

from kafka.confluent.schema_registry._model import (ConfigCompatibilityLevel, RegisteredSchema, Schema,
                                                    SchemaReference, SchemaVersion, ServerConfig)
from kafka.confluent.schema_registry._naming import (record_subject_name_strategy, reference_subject_name_strategy,
                                                     topic_record_subject_name_strategy, topic_subject_name_strategy)
from kafka.confluent.schema_registry._wire import (dual_schema_id_deserializer, header_schema_id_serializer,
                                                   prefix_schema_id_deserializer, prefix_schema_id_serializer)
from kafka.confluent.schema_registry.error import SchemaRegistryError
from kafka.confluent.schema_registry.schema_registry_client import SchemaRegistryClient
from kafka.confluent.serialization import MessageField, SerializationContext, SerializationError

__all__ = [
    "ConfigCompatibilityLevel",
    "RegisteredSchema",
    "Schema",
    "SchemaRegistryClient",
    "SchemaRegistryError",
    "SchemaReference",
    "SchemaVersion",
    "ServerConfig",
    "topic_subject_name_strategy",
    "topic_record_subject_name_strategy",
    "record_subject_name_strategy",
    "header_schema_id_serializer",
    "prefix_schema_id_serializer",
    "dual_schema_id_deserializer",
    "prefix_schema_id_deserializer",
    "MessageField",
    "SerializationContext",
    "SerializationError",
]
