"""aiokafka's default partitioner (murmur2 for keyed records, a random partition for the others) and the
per-topic layout ``send()`` places records with."""

from __future__ import annotations

import random
from typing import Dict, Optional, Sequence

from kafka.murmur2 import murmur2_partition
from kafka.structs import TopicPartition

__all__ = ["DefaultPartitioner", "TopicLayout"]


class DefaultPartitioner:
    """Called as ``partitioner(key_bytes, all_partitions, available_partitions)``, like aiokafka's.

    A keyed record goes to ``all_partitions[murmur2(key) & 0x7fffffff %
    len(all_partitions)]`` (the partition the Java client, librdkafka's
    ``murmur2_random`` and aiokafka choose, given the partitions in
    ascending order); a record without a key to a random available partition
    (any partition when none is available).
    """

    def __call__(self, key: Optional[bytes], all_partitions: Sequence[int], available: Sequence[int]) -> int:
        if key is None:
            return random.choice(available or all_partitions)
        return all_partitions[murmur2_partition(key, len(all_partitions))]


class TopicLayout:
    """What ``send()`` needs to place a record of one topic, kept until the cluster metadata changes.

    :param topic: the topic.
    :param version: the cluster metadata version this was taken from.
    :param partitions: every partition number, ascending.
    :param available: the partitions with a known leader, ascending.
    :param fixed: whether the partitioner is :class:`DefaultPartitioner`,
        which has only one choice when the topic has one partition: then
        :attr:`only` is that partition and the partitioner is not asked.
    """

    __slots__ = ("version", "partitions", "available", "only", "by_number")

    def __init__(self, topic: str, version: int, partitions: Sequence[int], available: Sequence[int],
                 fixed: bool) -> None:
        self.version = version
        self.partitions = list(partitions)
        self.available = list(available)
        #: The partition every record goes to when the partitioner has no choice, else None.
        self.only: Optional[int] = self.partitions[0] if fixed and len(self.partitions) == 1 else None
        #: Partition number -> its TopicPartition (made once, not per record).
        self.by_number: Dict[int, TopicPartition] = {p: TopicPartition(topic, p) for p in self.partitions}
