"""The legacy ``AvroProducer`` and ``AvroConsumer``: kafkawire's Producer and Consumer with Avro framing.

Both take one configuration dict: the ``schema.registry.*`` keys configure
the legacy registry client (the prefix removed; see
:mod:`kafka.confluent.avro._legacy_conf`), the others the Kafka client. A
registry client may be given instead (``schema_registry=``), but not both.
With ``schema.registry.basic.auth.credentials.source`` ``SASL_INHERIT`` the
registry is given the Kafka client's ``sasl.*`` credentials.
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Optional, Tuple

from kafka.confluent.avro.cached_schema_registry_client import CachedSchemaRegistryClient
from kafka.confluent.avro.error import ClientError
from kafka.confluent.avro.serializer import KeySerializerError, SerializerError, ValueSerializerError
from kafka.confluent.avro.serializer.message_serializer import MessageSerializer
from kafka.confluent.consumer import Consumer
from kafka.confluent.message import Message
from kafka.confluent.producer import Producer

_PREFIX = "schema.registry"


def _split(config: Dict[str, Any], producer: bool) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(the registry's configuration, the Kafka client's) from one dict."""
    registry = {key.replace(_PREFIX + ".", ""): value for key, value in config.items() if key.startswith(_PREFIX)}
    if registry.get("basic.auth.credentials.source") == "SASL_INHERIT":
        registry["sasl.mechanism"] = config.get("sasl.mechanism", config.get("sasl.mechanisms", ""))
        registry["sasl.username"] = config.get("sasl.username", "")
        registry["sasl.password"] = config.get("sasl.password", "")
        if producer:
            registry["auto.register.schemas"] = config.get("auto.register.schemas", True)
    kafka = {key: value for key, value in config.items() if not key.startswith(_PREFIX)}
    return registry, kafka


def _registry(registry_conf: Dict[str, Any], given: Any) -> Any:
    if given is None:
        return CachedSchemaRegistryClient(registry_conf)
    if registry_conf.get("url") is not None:
        raise ValueError("Cannot pass schema_registry along with schema.registry.url config")
    return given


class AvroProducer(Producer):
    """A Producer that encodes keys and values with Avro schemas registered for their topic (deprecated).

    ``AvroProducer(config, default_key_schema=None, default_value_schema=None,
    schema_registry=None)``: the default schemas (from ``load``/``loads``, or
    JSON text) serve when :meth:`produce` is given none. Other keyword
    arguments go to :class:`~kafka.confluent.Producer`.
    """

    def __init__(self, config: Dict[str, Any], default_key_schema: Any = None, default_value_schema: Any = None,
                 schema_registry: Any = None, **kwargs: Any) -> None:
        warnings.warn("AvroProducer has been deprecated. Use AvroSerializer instead.", category=DeprecationWarning,
                      stacklevel=2)
        registry_conf, kafka_conf = _split(config, producer=True)
        registry = _registry(registry_conf, schema_registry)
        super().__init__(kafka_conf, **kwargs)
        self._serializer = MessageSerializer(registry)
        self._key_schema = default_key_schema
        self._value_schema = default_value_schema

    def produce(self, **kwargs: Any) -> None:  # type: ignore[override]
        """Encode ``value`` and ``key`` and produce them to ``topic`` (keyword arguments only).

        ``value_schema`` and ``key_schema`` override the default schemas; the
        other arguments are :meth:`Producer.produce`'s. Raises ``ClientError``
        without a topic or when the registry refuses a schema,
        ``ValueSerializerError``/``KeySerializerError`` for a value or key
        without a schema, and what :meth:`Producer.produce` raises.
        """
        key_schema = kwargs.pop("key_schema", self._key_schema)
        value_schema = kwargs.pop("value_schema", self._value_schema)
        topic = kwargs.pop("topic", None)
        if not topic:
            raise ClientError("Topic name not specified.")
        value = kwargs.pop("value", None)
        key = kwargs.pop("key", None)
        if value is not None:
            if not value_schema:
                raise ValueSerializerError("Avro schema required for values")
            value = self._serializer.encode_record_with_schema(topic, value_schema, value)
        if key is not None:
            if not key_schema:
                raise KeySerializerError("Avro schema required for key")
            key = self._serializer.encode_record_with_schema(topic, key_schema, key, True)
        super().produce(topic, value, key, **kwargs)


class AvroConsumer(Consumer):
    """A Consumer whose :meth:`poll` decodes Avro keys and values (deprecated).

    ``AvroConsumer(config, schema_registry=None, reader_key_schema=None,
    reader_value_schema=None)``: the reader schemas, when given, are what
    keys and values are read as. Other keyword arguments go to
    :class:`~kafka.confluent.Consumer`. Only :meth:`poll` decodes, as in
    confluent-kafka; ``consume()`` answers the bytes.
    """

    def __init__(self, config: Dict[str, Any], schema_registry: Any = None, reader_key_schema: Any = None,
                 reader_value_schema: Any = None, **kwargs: Any) -> None:
        warnings.warn("AvroConsumer has been deprecated. Use AvroDeserializer instead.", category=DeprecationWarning,
                      stacklevel=2)
        registry_conf, kafka_conf = _split(config, producer=False)
        registry = _registry(registry_conf, schema_registry)
        super().__init__(kafka_conf, **kwargs)
        self._serializer = MessageSerializer(registry, reader_key_schema, reader_value_schema)

    def poll(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next message with its value and key decoded, or an event; None after ``timeout`` seconds.

        Raises ``SerializerError`` naming the message's topic, partition and
        offset when its value or key cannot be decoded.
        """
        message = super().poll(-1 if timeout is None else timeout)
        if message is None or message.error():
            return message
        try:
            if message.value() is not None:
                message.set_value(self._serializer.decode_message(message.value(), is_key=False))
            if message.key() is not None:
                message.set_key(self._serializer.decode_message(message.key(), is_key=True))
        except SerializerError as exc:
            raise SerializerError("Message deserialization failed for message at {} [{}] offset {}: {}".format(
                message.topic(), message.partition(), message.offset(), exc)) from exc
        return message


__all__ = ["AvroProducer", "AvroConsumer"]
