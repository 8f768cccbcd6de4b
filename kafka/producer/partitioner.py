"""Choosing a partition for a record.

Keyed records go where the Java client and librdkafka's ``murmur2_random``
partitioner put them: ``murmur2(key) & 0x7fffffff`` modulo the partition
count. Records without a key stick to one partition until a batch for it is
full or was just created (KIP-480), then move on, so batches fill up.
"""

from __future__ import annotations

import random
import threading
from typing import Dict, Optional, Sequence


def murmur2(data: bytes) -> int:
    """The 32-bit murmur2 hash Kafka uses for keys (seed 0x9747b28c), as a signed int."""
    length = len(data)
    seed = 0x9747B28C
    m = 0x5BD1E995
    r = 24
    h = (seed ^ length) & 0xFFFFFFFF
    aligned = length & ~3
    for i in range(0, aligned, 4):
        k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24)
        k = (k * m) & 0xFFFFFFFF
        k ^= k >> r
        k = (k * m) & 0xFFFFFFFF
        h = (h * m) & 0xFFFFFFFF
        h ^= k
    rest = length & 3
    if rest == 3:
        h ^= data[aligned + 2] << 16
    if rest >= 2:
        h ^= data[aligned + 1] << 8
    if rest >= 1:
        h ^= data[aligned]
        h = (h * m) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * m) & 0xFFFFFFFF
    h ^= h >> 15
    return h - 0x100000000 if h & 0x80000000 else h


def murmur2_partition(key: bytes, num_partitions: int) -> int:
    """The partition the Java client chooses for ``key``."""
    return (murmur2(key) & 0x7FFFFFFF) % num_partitions


class DefaultPartitioner:
    """murmur2 for keyed records; sticky partitions for records without a key.

    Called as ``partitioner(key_bytes, all_partitions, available_partitions)``
    like kafka-python's partitioners; ``topic`` is passed as a keyword so the
    sticky choice is remembered per topic.
    """

    def __init__(self) -> None:
        self._sticky: Dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, key: Optional[bytes], all_partitions: Sequence[int],
                 available: Sequence[int], topic: str = "") -> int:  # noqa: D102
        if key is not None:
            return all_partitions[murmur2_partition(key, len(all_partitions))]
        current = self._sticky.get(topic)
        if current is not None and (current in available or not available):
            return current
        return self.next_sticky(topic, all_partitions, available)

    def next_sticky(self, topic: str, all_partitions: Sequence[int], available: Sequence[int]) -> int:
        """Pick a new sticky partition for ``topic`` (a different one when possible)."""
        with self._lock:
            choices = list(available) or list(all_partitions)
            previous = self._sticky.get(topic)
            if len(choices) > 1 and previous in choices:
                choices.remove(previous)
            chosen = random.choice(choices)
            self._sticky[topic] = chosen
            return chosen
