"""Consumers: the modern KafkaConsumer and its building blocks."""

from kafka.consumer.fetcher import ConsumerRecord
from kafka.consumer.kafka import KafkaConsumer

__all__ = ["KafkaConsumer", "ConsumerRecord"]
