"""Producers: the modern KafkaProducer and its building blocks."""

from kafka.producer.future import FutureRecordMetadata, RecordMetadata
from kafka.producer.kafka import KafkaProducer

__all__ = ["KafkaProducer", "FutureRecordMetadata", "RecordMetadata"]
