"""Serializers and deserializers of confluent-kafka's ``confluent_kafka.serialization``.

Each one is a callable ``(obj, ctx) -> bytes`` (or ``(bytes, ctx) -> obj``);
``None`` passes through unchanged. The wire formats are Kafka's common ones:
big-endian 32-bit signed integers, big-endian IEEE 754 doubles and encoded
text, so the bytes match what confluent-kafka (and the Java client) write.
"""

from __future__ import annotations

import struct
from enum import Enum
from typing import Any, Callable, List, Optional, Tuple, Union

from kafka.confluent.kafka_error import KafkaException

Headers = Union[List[Tuple[str, Any]], dict]


class MessageField(str, Enum):
    """Which part of a message is being (de)serialized."""

    NONE = "none"
    KEY = "key"
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)


class SerializationContext:
    """What a (de)serializer is told about its data: ``topic``, ``field`` and ``headers``."""

    def __init__(self, topic: str, field: MessageField, headers: Optional[Headers] = None) -> None:
        self.topic = topic
        self.field = field
        self.headers = headers


class SerializationError(KafkaException):
    """A value could not be (de)serialized."""


class Serializer:
    """Base class: turn an object into bytes (or None). Subclasses implement ``__call__``."""

    __slots__: List[str] = []

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        raise NotImplementedError

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """Accept a cluster-id resolver (unused by the serializers here)."""

    def close(self) -> None:
        """Release what the serializer holds (nothing here)."""


class Deserializer:
    """Base class: turn bytes (or None) into an object. Subclasses implement ``__call__``."""

    __slots__: List[str] = []

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        raise NotImplementedError

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """Accept a cluster-id resolver (unused by the deserializers here)."""

    def close(self) -> None:
        """Release what the deserializer holds (nothing here)."""


def _pack(fmt: str, obj: Any) -> Optional[bytes]:
    if obj is None:
        return None
    try:
        return struct.pack(fmt, obj)
    except struct.error as exc:
        raise SerializationError(str(exc)) from None


def _unpack(fmt: str, value: Optional[bytes]) -> Any:
    if value is None:
        return None
    try:
        return struct.unpack(fmt, value)[0]
    except struct.error as exc:
        raise SerializationError(str(exc)) from None


class DoubleSerializer(Serializer):
    """A float as 8 bytes, big-endian IEEE 754 (Java's DoubleSerializer format)."""

    def __call__(self, obj: Optional[float], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        return _pack(">d", obj)


class DoubleDeserializer(Deserializer):
    """8 big-endian IEEE 754 bytes as a float."""

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[float]:
        return _unpack(">d", value)


class IntegerSerializer(Serializer):
    """An int as 4 bytes, big-endian signed (Java's IntegerSerializer format)."""

    def __call__(self, obj: Optional[int], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        return _pack(">i", obj)


class IntegerDeserializer(Deserializer):
    """4 big-endian signed bytes as an int."""

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[int]:
        return _unpack(">i", value)


class StringSerializer(Serializer):
    """Text encoded with ``codec`` (default ``utf_8``)."""

    def __init__(self, codec: str = "utf_8") -> None:
        self.codec = codec

    def __call__(self, obj: Optional[str], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        if obj is None:
            return None
        try:
            return obj.encode(self.codec)
        except UnicodeError as exc:  # other failures (unknown codec, not a str) propagate, as in confluent-kafka
            raise SerializationError(str(exc)) from None


class StringDeserializer(Deserializer):
    """Bytes decoded with ``codec`` (default ``utf_8``)."""

    def __init__(self, codec: str = "utf_8") -> None:
        self.codec = codec

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[str]:
        if value is None:
            return None
        try:
            return value.decode(self.codec)
        except UnicodeError as exc:
            raise SerializationError(str(exc)) from None


__all__ = ["MessageField", "SerializationContext", "SerializationError", "Serializer", "Deserializer",
           "DoubleSerializer", "DoubleDeserializer", "IntegerSerializer", "IntegerDeserializer",
           "StringSerializer", "StringDeserializer"]
