"""The base class of the kafka-python 0.9.x partitioners."""

from __future__ import annotations

from typing import Any, Optional, Sequence


class Partitioner:
    """Chooses the partition of a message from its key.

    :param partitions: the partition numbers of the topic, as
        :meth:`kafka.KafkaClient.get_partition_ids_for_topic` lists them.

    :class:`~kafka.KeyedProducer` makes one partitioner per topic, passing the
    topic's partitions to the constructor, and calls :meth:`partition` for
    every message with the topic's current partition list. Subclasses
    implement :meth:`partition`.
    """

    def __init__(self, partitions: Sequence[int] = ()) -> None:
        self.partitions = list(partitions)

    def _current(self, partitions: Optional[Sequence[int]]) -> Sequence[int]:
        """``partitions`` when given and not empty, else those given to the constructor."""
        chosen = partitions if partitions else self.partitions
        if not chosen:
            raise ValueError("there are no partitions to choose from")
        return chosen

    def partition(self, key: Any, partitions: Optional[Sequence[int]] = None) -> int:
        """Return the partition (an element of ``partitions``) for ``key``.

        :param key: the key of the message.
        :param partitions: the partitions to choose from; those given to the
            constructor when omitted.
        """
        raise NotImplementedError("a Partitioner subclass must implement partition()")

    def __call__(self, key: Any, all_partitions: Optional[Sequence[int]] = None,
                 available: Optional[Sequence[int]] = None) -> int:
        """Calling a partitioner is the same as :meth:`partition` over ``all_partitions``.

        ``available`` is accepted (and ignored) so that an instance can be
        handed to :class:`~kafka.KafkaProducer` as its ``partitioner``.
        """
        return self.partition(key, all_partitions)


__all__ = ["Partitioner"]
