"""Producers: the modern KafkaProducer and its building blocks."""

from kafka.producer.future import FutureRecordMetadata, RecordMetadata
from kafka.producer.kafka import KafkaProducer

__all__ = ["KafkaProducer", "FutureRecordMetadata", "RecordMetadata"]

#: 0.9 code imported the simple producers from here (``from kafka.producer import SimpleProducer``).
_SIMPLE = ("SimpleProducer", "KeyedProducer")


def __getattr__(name: str) -> object:
    if name in _SIMPLE:
        import kafka.simple

        return getattr(kafka.simple, name)
    raise AttributeError("module 'kafka.producer' has no attribute %r" % (name,))
