"""quixstreams' Kafka client wrappers (``quixstreams.kafka``) on :mod:`kafka.confluent`.

:class:`Producer`, :class:`TransactionalProducer` and :class:`Consumer`
wrap the confluent-kafka-style clients with quixstreams' signatures and
defaults; :class:`ConnectionConfig` describes an authenticated cluster.
Constructing a wrapper makes no network call: the client underneath is
created on first use. See :doc:`/quix`.
"""

from kafka.quix.configuration import ConnectionConfig
from kafka.quix.consumer import AutoOffsetReset, Consumer, RebalancingCallback
from kafka.quix.producer import Producer, TransactionalProducer

__all__ = ["Producer", "TransactionalProducer", "Consumer", "ConnectionConfig", "AutoOffsetReset",
           "RebalancingCallback"]
