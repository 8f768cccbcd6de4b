"""Producers: the modern KafkaProducer and its building blocks."""

from kafka.producer.future import FutureRecordMetadata, RecordMetadata
from kafka.producer.kafka import KafkaProducer

__all__ = ["KafkaProducer", "FutureRecordMetadata", "RecordMetadata"]

#: 0.9 code imported the classic producers from here (``from kafka.producer import SimpleProducer``).
_CLASSIC = ("SimpleProducer", "KeyedProducer")


def __getattr__(name: str) -> object:
    if name in _CLASSIC:
        import kafka.legacy

        return getattr(kafka.legacy, name)
    raise AttributeError("module 'kafka.producer' has no attribute %r" % (name,))
