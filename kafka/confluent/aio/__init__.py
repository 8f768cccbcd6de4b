"""confluent-kafka's asyncio clients (``confluent_kafka.aio``) on kafkawire's native asyncio engine.

:class:`AIOProducer` and :class:`AIOConsumer` take librdkafka configuration
dicts and hand out :class:`~kafka.confluent.Message` objects and
:class:`~kafka.confluent.KafkaException` errors, as their confluent-kafka
2.16 namesakes do, but run on :mod:`kafka.aio` (no thread per call).
After :func:`kafka.confluent.install_as_confluent_kafka`,
``from confluent_kafka.aio import AIOProducer, AIOConsumer`` loads them.
See :doc:`/confluent` for what is not there yet (consumer groups,
transactions, the serializing/deserializing variants).
"""

from kafka.confluent.aio.consumer import AIOConsumer
from kafka.confluent.aio.producer import AIOProducer

__all__ = ["AIOConsumer", "AIOProducer"]
