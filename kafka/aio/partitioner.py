"""aiokafka's default partitioner: murmur2 for keyed records, a random partition for the others."""

from __future__ import annotations

import random
from typing import Optional, Sequence

from kafka.murmur2 import murmur2_partition

__all__ = ["DefaultPartitioner"]


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
