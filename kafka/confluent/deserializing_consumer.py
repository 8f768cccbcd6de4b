"""``DeserializingConsumer``: a :class:`~kafka.confluent.Consumer` that deserializes keys and values."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from kafka.confluent.consumer import Consumer
from kafka.confluent.error import ConsumeError, KeyDeserializationError, ValueDeserializationError
from kafka.confluent.message import Message
from kafka.confluent.serialization import MessageField, SerializationContext


class DeserializingConsumer(Consumer):
    """A Consumer whose ``poll`` runs ``key.deserializer`` and ``value.deserializer`` on each record.

    The deserializers are taken out of ``conf``; errors and events come out
    of ``poll`` as a raised :class:`~kafka.confluent.error.ConsumeError`
    rather than as error messages.
    """

    def __init__(self, conf: Dict[str, Any]) -> None:
        conf = dict(conf)
        self._key_deserializer: Optional[Callable[..., Any]] = conf.pop("key.deserializer", None)
        self._value_deserializer: Optional[Callable[..., Any]] = conf.pop("value.deserializer", None)
        super().__init__(conf)

    def poll(self, timeout: Optional[float] = -1) -> Optional[Message]:
        """The next record with key and value deserialized, or None after ``timeout`` seconds.

        Raises :class:`ConsumeError` for an error event, and
        :class:`KeyDeserializationError`/:class:`ValueDeserializationError`
        when a deserializer fails.
        """
        msg = super().poll(timeout)
        if msg is None:
            return None
        error = msg.error()
        if error is not None:
            raise ConsumeError(error, kafka_message=msg)
        ctx = SerializationContext(msg.topic() or "", MessageField.KEY, msg.headers())
        key = msg.key()
        if self._key_deserializer is not None:
            try:
                key = self._key_deserializer(key, ctx)
            except Exception as exc:  # noqa: BLE001
                raise KeyDeserializationError(exception=exc, kafka_message=msg) from exc
        value = msg.value()
        if self._value_deserializer is not None:
            ctx.field = MessageField.VALUE
            try:
                value = self._value_deserializer(value, ctx)
            except Exception as exc:  # noqa: BLE001
                raise ValueDeserializationError(exception=exc, kafka_message=msg) from exc
        msg.set_key(key)
        msg.set_value(value)
        return msg

    def consume(self, num_messages: int = 1, timeout: float = -1) -> List[Message]:
        """Not offered by DeserializingConsumer (as in confluent-kafka): use :meth:`poll`."""
        raise NotImplementedError
