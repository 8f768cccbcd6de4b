"""The simple layer: kafka-python 0.9.x's API over the engine's public methods.

Nothing in the engine imports this package (``test/test_layers.py`` checks
it). Its modules: :mod:`~kafka.simple.client` (``KafkaClient`` with
``send_produce_request`` and friends), :mod:`~kafka.simple.connection`
(``KafkaConnection``), :mod:`~kafka.simple.protocol` (``KafkaProtocol``),
:mod:`~kafka.simple.common` (request and response tuples, errors),
:mod:`~kafka.simple.consumer` (the public ``KafkaConsumer`` with the 0.9
methods of :mod:`~kafka.simple.consumer_methods`), ``util``, ``codec``,
``context``, ``partitioner``, and the producers and consumers this package
exports:

* :class:`SimpleProducer` -- each call's messages go to the topic's next
  partition;
* :class:`KeyedProducer` -- messages go where a
  :mod:`partitioner <kafka.simple.partitioner>` puts their key;
* :class:`~kafka.simple.producer.Producer` -- their base, with the
  synchronous and asynchronous (``async_send=True``) modes;
* :class:`SimpleConsumer` -- reads the partitions of one topic, committing
  offsets for a group;
* :class:`MultiProcessConsumer` -- the same, spread over worker processes;

(see :mod:`kafka.simple.simple_consumer`, :mod:`kafka.simple.multiprocess`
and :mod:`kafka.simple.context`). All are importable from the package root (``from
kafka import SimpleProducer, SimpleConsumer``). Requests go through the
0.9 methods of :class:`kafka.KafkaClient` (``send_produce_request``,
``send_fetch_request``, ...), so they reach each partition's leader (or the
group's coordinator) at the version negotiated with that broker.
"""

from kafka.simple.producer import (
    ACK_AFTER_CLUSTER_COMMIT,
    ACK_AFTER_LOCAL_WRITE,
    ACK_NOT_REQUIRED,
    Producer,
)
from kafka.simple.keyed_producer import KeyedProducer
from kafka.simple.multiprocess import MultiProcessConsumer
from kafka.simple.simple_producer import SimpleProducer
from kafka.simple.simple_consumer import Consumer, SimpleConsumer

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
