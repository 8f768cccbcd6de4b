"""kafkawire's native asyncio layer: clients on asyncio streams, no threads.

Now: :class:`AIOKafkaProducer` and :class:`AIOKafkaConsumer` (aiokafka
0.14's producer and consumer APIs, group membership with
:class:`ConsumerRebalanceListener` included), the
connection (:mod:`kafka.aio.connection`) and cluster client
(:mod:`kafka.aio.client`) under it, and :mod:`kafka.aio.errors` (the error
names aiokafka programs import). See ``docs/asyncio.rst`` for what is not
there yet.
"""

from kafka.aio.consumer import AIOKafkaConsumer
from kafka.aio.group_listener import ConsumerRebalanceListener
from kafka.aio.producer import AIOKafkaProducer
from kafka.aio.structs import ConsumerRecord, OffsetAndMetadata, OffsetAndTimestamp, RecordMetadata
from kafka.structs import TopicPartition

__all__ = ["AIOKafkaConsumer", "AIOKafkaProducer", "ConsumerRebalanceListener", "ConsumerRecord", "OffsetAndMetadata", "OffsetAndTimestamp",
           "RecordMetadata", "TopicPartition"]
