"""``SerializingProducer``: a :class:`~kafka.confluent.Producer` that serializes keys and values."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from kafka.confluent.error import KeySerializationError, ValueSerializationError
from kafka.confluent.producer import Producer
from kafka.confluent.serialization import MessageField, SerializationContext


class SerializingProducer(Producer):
    """A Producer whose ``produce`` runs ``key.serializer`` and ``value.serializer`` first.

    The two serializers are taken out of ``conf`` (callables ``(obj, ctx) ->
    bytes``); the other properties configure the Producer. A serializer that
    raises makes ``produce`` raise :class:`~kafka.confluent.error.KeySerializationError`
    or :class:`~kafka.confluent.error.ValueSerializationError`.
    """

    def __init__(self, conf: Dict[str, Any]) -> None:
        conf = dict(conf)
        self._key_serializer: Optional[Callable[..., Any]] = conf.pop("key.serializer", None)
        self._value_serializer: Optional[Callable[..., Any]] = conf.pop("value.serializer", None)
        super().__init__(conf)

    def produce(self, topic: str, key: Any = None, value: Any = None,  # type: ignore[override]
                partition: int = -1, on_delivery: Optional[Callable[..., Any]] = None, timestamp: int = 0,
                headers: Any = None) -> None:
        """Serialize ``key`` and ``value`` and queue the record (the arguments of Producer.produce)."""
        if not isinstance(topic, str):
            raise TypeError("topic must be a str, not %s" % type(topic).__name__)
        ctx = SerializationContext(topic, MessageField.KEY, headers)
        if self._key_serializer is not None:
            try:
                key = self._key_serializer(key, ctx)
            except Exception as exc:  # noqa: BLE001 - any serializer failure is reported the same way
                raise KeySerializationError(exc) from exc
        ctx.field = MessageField.VALUE
        if self._value_serializer is not None:
            try:
                value = self._value_serializer(value, ctx)
            except Exception as exc:  # noqa: BLE001
                raise ValueSerializationError(exc) from exc
        super().produce(topic, value, key, headers=headers, partition=partition, timestamp=timestamp,
                        on_delivery=on_delivery)
