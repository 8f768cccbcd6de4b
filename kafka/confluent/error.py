"""confluent-kafka's ``confluent_kafka.error``: client errors that carry a :class:`KafkaError`.

:class:`KafkaError` and :class:`KafkaException` themselves live in
:mod:`kafka.confluent.kafka_error` and are re-exported here.
"""

from __future__ import annotations

import kafka.confluent.kafka_error

from typing import Any, Optional

from kafka.confluent.kafka_error import KafkaError, KafkaException
from kafka.confluent.serialization import SerializationError


class _KafkaClientError(KafkaException):
    """A KafkaException with the original ``exception`` and the ``kafka_message`` involved."""

    def __init__(self, kafka_error: kafka.confluent.kafka_error.KafkaError, exception: Optional[BaseException] = None,
                 kafka_message: Any = None) -> None:
        super().__init__(kafka_error)
        self.exception = exception
        self.kafka_message = kafka_message

    @property
    def code(self) -> int:
        """The KafkaError's code."""
        return self.args[0].code()

    @property
    def name(self) -> str:
        """The KafkaError's name."""
        return self.args[0].name()


class ConsumeError(_KafkaClientError):
    """An error met while consuming (raised by ``DeserializingConsumer.poll``)."""

    def __init__(self, kafka_error: kafka.confluent.kafka_error.KafkaError, exception: Optional[BaseException] = None,
                 kafka_message: Any = None) -> None:
        super().__init__(kafka_error, exception, kafka_message)


class KeyDeserializationError(ConsumeError, SerializationError):
    """A message's key could not be deserialized."""

    def __init__(self, exception: Optional[BaseException] = None, kafka_message: Any = None) -> None:
        super().__init__(KafkaError(KafkaError._KEY_DESERIALIZATION, str(exception)),  # type: ignore[attr-defined]
                         exception=exception, kafka_message=kafka_message)


class ValueDeserializationError(ConsumeError, SerializationError):
    """A message's value could not be deserialized."""

    def __init__(self, exception: Optional[BaseException] = None, kafka_message: Any = None) -> None:
        super().__init__(KafkaError(KafkaError._VALUE_DESERIALIZATION, str(exception)),  # type: ignore[attr-defined]
                         exception=exception, kafka_message=kafka_message)


class ProduceError(_KafkaClientError):
    """An error met while producing."""

    def __init__(self, kafka_error: kafka.confluent.kafka_error.KafkaError,
                 exception: Optional[BaseException] = None) -> None:
        super().__init__(kafka_error, exception, None)


class KeySerializationError(ProduceError, SerializationError):
    """A message's key could not be serialized."""

    def __init__(self, exception: Optional[BaseException] = None) -> None:
        super().__init__(KafkaError(KafkaError._KEY_SERIALIZATION, str(exception)),  # type: ignore[attr-defined]
                         exception=exception)


class ValueSerializationError(ProduceError, SerializationError):
    """A message's value could not be serialized."""

    def __init__(self, exception: Optional[BaseException] = None) -> None:
        super().__init__(KafkaError(KafkaError._VALUE_SERIALIZATION, str(exception)),  # type: ignore[attr-defined]
                         exception=exception)


__all__ = ["KafkaError", "KafkaException", "ConsumeError", "ProduceError", "KeySerializationError",
           "ValueSerializationError", "KeyDeserializationError", "ValueDeserializationError"]
