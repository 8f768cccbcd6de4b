"""kafka-python's module path of the subscription state and the rebalance listener."""

from __future__ import annotations

import abc
from typing import Set

from kafka.consumer.subscription import SubscriptionState
from kafka.structs import TopicPartition


class ConsumerRebalanceListener(abc.ABC):
    """Told when the group takes partitions from this consumer or gives it some.

    Pass an instance as ``listener`` to :meth:`KafkaConsumer.subscribe`.
    Both methods run on the thread that calls ``poll()``, inside it.
    ``on_partitions_revoked`` runs before a rebalance (commit offsets there),
    ``on_partitions_assigned`` after it (seek there).
    """

    @abc.abstractmethod
    def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> None:
        """``revoked``: the partitions this consumer stops reading."""

    @abc.abstractmethod
    def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> None:
        """``assigned``: the partitions this consumer now reads."""

    def on_partitions_lost(self, lost: Set[TopicPartition]) -> None:
        """``lost``: partitions taken without a clean revoke; treated as revoked by default."""
        self.on_partitions_revoked(lost)


class AsyncConsumerRebalanceListener(abc.ABC):
    """:class:`ConsumerRebalanceListener` with ``async def`` hooks (kafka-python 3's name).

    The consumer runs each hook to completion in the thread that rebalances
    (the one calling ``poll``), on a private asyncio event loop, before it
    carries on; the ordering guarantees are the sync listener's. Await asyncio
    code inside the hooks (``await asyncio.sleep(...)``, an async database
    client ...); the hooks must not need a loop of the application's own.
    """

    @abc.abstractmethod
    async def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> None:
        """Awaited before a rebalance takes ``revoked`` away (commit their offsets here)."""

    @abc.abstractmethod
    async def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> None:
        """Awaited once the rebalance has given the consumer ``assigned``."""

    async def on_partitions_lost(self, lost: Set[TopicPartition]) -> None:
        """Awaited when ``lost`` were taken without a chance to commit; defaults to ``on_partitions_revoked``."""
        await self.on_partitions_revoked(lost)


__all__ = ["AsyncConsumerRebalanceListener", "ConsumerRebalanceListener", "SubscriptionState"]
