"""The classic (kafka-python 0.9.x) producers and consumers, on the modern engine.

* :class:`SimpleProducer` -- each call's messages go to the topic's next
  partition;
* :class:`KeyedProducer` -- messages go where a
  :mod:`partitioner <kafka.partitioner>` puts their key;
* :class:`~kafka.legacy.base.Producer` -- their base, with the
  synchronous and asynchronous (``async_send=True``) modes;
* :class:`SimpleConsumer` -- reads the partitions of one topic, committing
  offsets for a group;
* :class:`MultiProcessConsumer` -- the same, spread over worker processes;

(see :mod:`kafka.legacy.simple_consumer`, :mod:`kafka.legacy.multiprocess`
and :mod:`kafka.context`). All are importable from the package root (``from
kafka import SimpleProducer, SimpleConsumer``). Requests go through the
classic methods of :class:`kafka.KafkaClient` (``send_produce_request``,
``send_fetch_request``, ...), so they reach each partition's leader (or the
group's coordinator) at the version negotiated with that broker.
"""

from kafka.legacy.base import (
    ACK_AFTER_CLUSTER_COMMIT,
    ACK_AFTER_LOCAL_WRITE,
    ACK_NOT_REQUIRED,
    Producer,
)
from kafka.legacy.keyed import KeyedProducer
from kafka.legacy.multiprocess import MultiProcessConsumer
from kafka.legacy.simple import SimpleProducer
from kafka.legacy.simple_consumer import Consumer, SimpleConsumer

__all__ = [
    "Producer",
    "SimpleProducer",
    "KeyedProducer",
    "Consumer",
    "SimpleConsumer",
    "MultiProcessConsumer",
    "ACK_NOT_REQUIRED",
    "ACK_AFTER_LOCAL_WRITE",
    "ACK_AFTER_CLUSTER_COMMIT",
]
