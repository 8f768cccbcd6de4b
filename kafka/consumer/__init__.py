"""Consumers: the modern KafkaConsumer and its building blocks."""

from kafka.consumer.fetcher import ConsumerRecord
from kafka.consumer.kafka import KafkaConsumer

__all__ = ["KafkaConsumer", "ConsumerRecord"]

#: 0.9 code imported the classic consumers from here (``from kafka.consumer import SimpleConsumer``).
_CLASSIC = ("SimpleConsumer", "MultiProcessConsumer")


def __getattr__(name: str) -> object:
    if name in _CLASSIC:
        import kafka.legacy

        return getattr(kafka.legacy, name)
    raise AttributeError("module 'kafka.consumer' has no attribute %r" % (name,))
