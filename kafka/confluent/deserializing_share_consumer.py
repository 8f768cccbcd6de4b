"""``DeserializingShareConsumer``: a :class:`~kafka.confluent.ShareConsumer` that deserializes keys and values."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from kafka.confluent.kafka_error import KafkaError
from kafka.confluent.message import Message
from kafka.confluent.serialization import MessageField, SerializationContext
from kafka.confluent.share_consumer import Messages, ShareConsumer


class DeserializingShareConsumer(ShareConsumer):
    """A share consumer whose ``poll`` runs ``key.deserializer`` and ``value.deserializer`` on each record.

    The deserializers are taken out of ``conf``. ``poll`` returns the same
    list of messages as :class:`ShareConsumer` (so each can still be
    acknowledged), their keys and values replaced by what the deserializers
    returned. A record either deserializer fails on stays in the list with
    its raw bytes and an error (``_VALUE_DESERIALIZATION`` or
    ``_KEY_DESERIALIZATION``) instead of failing the whole batch.
    """

    def __init__(self, conf: Dict[str, Any]) -> None:
        conf = dict(conf)
        self._key_deserializer: Optional[Callable[..., Any]] = conf.pop("key.deserializer", None)
        self._value_deserializer: Optional[Callable[..., Any]] = conf.pop("value.deserializer", None)
        super().__init__(conf)

    def poll(self, timeout: Optional[float] = -1) -> Messages:
        """The records of one poll (see :meth:`ShareConsumer.poll`), deserialized in place."""
        messages = super().poll(timeout)
        for message in messages:
            if message.error() is None:
                self._deserialize(message)
        return messages

    def _deserialize(self, message: Message) -> None:
        topic = message.topic()
        if topic is None:
            raise TypeError("Message topic is None")
        context = SerializationContext(topic, MessageField.VALUE, message.headers())
        value, key = message.value(), message.key()
        try:
            if self._value_deserializer is not None:
                value = self._value_deserializer(value, context)
        except Exception as exc:  # noqa: BLE001 - reported on the record
            message.set_error(KafkaError(KafkaError._VALUE_DESERIALIZATION, str(exc)))  # type: ignore[attr-defined]
            return
        try:
            if self._key_deserializer is not None:
                context.field = MessageField.KEY
                key = self._key_deserializer(key, context)
        except Exception as exc:  # noqa: BLE001 - reported on the record
            message.set_error(KafkaError(KafkaError._KEY_DESERIALIZATION, str(exc)))  # type: ignore[attr-defined]
            return
        message.set_key(key)
        message.set_value(value)
