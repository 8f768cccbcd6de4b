"""confluent-kafka's ``confluent_kafka.avro.serializer``: the legacy serializer's errors.

:class:`MessageSerializer` itself is in
:mod:`kafka.confluent.avro.serializer.message_serializer`.
"""

from __future__ import annotations


class SerializerError(Exception):
    """A key or value the legacy Avro serializer could not encode or decode."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __repr__(self) -> str:
        return "%s(error=%s)" % (type(self).__name__, self.message)

    def __str__(self) -> str:
        return self.message


class KeySerializerError(SerializerError):
    """A key that could not be encoded (no key schema, no schema id)."""


class ValueSerializerError(SerializerError):
    """A value that could not be encoded (no value schema, no schema id)."""


__all__ = ["SerializerError", "KeySerializerError", "ValueSerializerError"]
