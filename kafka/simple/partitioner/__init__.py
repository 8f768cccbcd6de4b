"""The kafka-python 0.9.x partitioners of :class:`~kafka.KeyedProducer`.

A partitioner is made with a topic's partition list and answers
``partition(key, partitions=None)`` with one of those partitions:

* :class:`Murmur2Partitioner` -- murmur2 of the key, the Java client's choice;
* :class:`LegacyPartitioner` and its 0.9 alias :data:`HashedPartitioner`
  (the default of :class:`~kafka.KeyedProducer`) -- Python's ``hash()`` of the
  key, stable only within one process;
* :class:`RoundRobinPartitioner` -- the partitions in turn, whatever the key.

Subclass :class:`~kafka.simple.partitioner.base.Partitioner` for your own.

These are independent of :class:`~kafka.KafkaProducer`, whose default
partitioning lives in :mod:`kafka.producer.partitioner`.
"""

from kafka.simple.partitioner.base import Partitioner
from kafka.simple.partitioner.hashed import HashedPartitioner, LegacyPartitioner, Murmur2Partitioner, murmur2
from kafka.simple.partitioner.roundrobin import RoundRobinPartitioner



def __getattr__(name: str) -> object:
    # kafka-python's path of KafkaProducer's default partitioner; loaded
    # lazily because kafka.producer imports this package.
    if name in ("DefaultPartitioner", "StickyPartitioner"):
        from kafka.producer import partitioner

        return getattr(partitioner, name)
    raise AttributeError("module 'kafka.partitioner' has no attribute %r" % (name,))


__all__ = [
    "DefaultPartitioner",
    "StickyPartitioner",
    "Partitioner",
    "HashedPartitioner",
    "LegacyPartitioner",
    "Murmur2Partitioner",
    "RoundRobinPartitioner",
    "murmur2",
]
