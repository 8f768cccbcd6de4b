"""confluent-kafka's legacy ``confluent_kafka.avro``: AvroProducer, AvroConsumer and their registry client.

Deprecated in confluent-kafka (its ``schema_registry`` serializers replace
it) but still shipped and still imported; kafkawire provides it on its own
Schema Registry client (:mod:`kafka.confluent.schema_registry`) and
fastavro (``pip install 'kafkawire[avro]'``). Records are framed as the
newer serializers frame them (magic byte 0 and the 4-byte schema id), and
schemas are registered with the text confluent-kafka's legacy client
registers, so either library reads what the other wrote. ``load`` and
``loads`` answer a :class:`ParsedSchema` where confluent-kafka answers an
``avro`` package schema; its ``str()`` is the schema's JSON text. See
:doc:`/confluent`.
"""

from __future__ import annotations

from kafka.confluent.avro._clients import AvroConsumer, AvroProducer
from kafka.confluent.avro._schema import ParsedSchema
from kafka.confluent.avro.cached_schema_registry_client import CachedSchemaRegistryClient
from kafka.confluent.avro.error import ClientError
from kafka.confluent.avro.load import load, loads
from kafka.confluent.avro.serializer import KeySerializerError, SerializerError, ValueSerializerError
from kafka.confluent.avro.serializer.message_serializer import MessageSerializer

__all__ = [
    "AvroConsumer",
    "AvroProducer",
    "CachedSchemaRegistryClient",
    "ClientError",
    "KeySerializerError",
    "MessageSerializer",
    "ParsedSchema",
    "SerializerError",
    "ValueSerializerError",
    "load",
    "loads",
]
