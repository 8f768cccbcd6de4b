"""The classic (kafka-python 0.9.x) producers, on the modern engine.

* :class:`SimpleProducer` -- each call's messages go to the topic's next
  partition;
* :class:`KeyedProducer` -- messages go where a
  :mod:`partitioner <kafka.partitioner>` puts their key;
* :class:`~kafka.legacy.base.Producer` -- their base, with the
  synchronous and asynchronous (``async_send=True``) modes.

Both are importable from the package root (``from kafka import
SimpleProducer, KeyedProducer``). Requests go through
:meth:`kafka.KafkaClient.send_produce_request`, so they reach each
partition's leader at the Produce version negotiated with that broker.
"""

from kafka.legacy.base import (
    ACK_AFTER_CLUSTER_COMMIT,
    ACK_AFTER_LOCAL_WRITE,
    ACK_NOT_REQUIRED,
    Producer,
)
from kafka.legacy.keyed import KeyedProducer
from kafka.legacy.simple import SimpleProducer

__all__ = [
    "Producer",
    "SimpleProducer",
    "KeyedProducer",
    "ACK_NOT_REQUIRED",
    "ACK_AFTER_LOCAL_WRITE",
    "ACK_AFTER_CLUSTER_COMMIT",
]
