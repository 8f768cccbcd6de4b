"""Defaults shared by the quixstreams-style wrappers."""

from __future__ import annotations

import kafka.confluent.kafka_error

import logging



#: The logger librdkafka-style log lines go to unless another is given.
logger = logging.getLogger("kafka.quix")


def _default_error_cb(error: kafka.confluent.kafka_error.KafkaError) -> None:
    """Log a client error (as quixstreams' default ``error_callback`` does)."""
    logger.error('Kafka error: code="%s" reason="%s"', error.name(), error.str())
