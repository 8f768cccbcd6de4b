"""Choosing a partition for a record.

Keyed records go where the Java client and librdkafka's ``murmur2_random``
partitioner put them: ``murmur2(key) & 0x7fffffff`` modulo the partition
count. Records without a key stick to one partition until a batch for it is
full or was just created (KIP-480), then move on, so batches fill up.
"""

from __future__ import annotations

import random
import struct
import threading
from typing import Callable, Dict, Optional, Sequence, Tuple


_MASK = 0xFFFFFFFF
_M = 0x5BD1E995
_word_readers: Dict[int, Callable[[bytes], Tuple[int, ...]]] = {}


def _words(length: int) -> Callable[[bytes], Tuple[int, ...]]:
    """A reader of the first ``length // 4`` little-endian 32-bit words of a key."""
    reader = _word_readers.get(length)
    if reader is None:
        reader = _word_readers[length] = struct.Struct("<%dI" % (length >> 2)).unpack_from
    return reader


def _murmur2_unsigned(data: bytes) -> int:
    length = len(data)
    h = 0x9747B28C ^ length
    aligned = length & ~3
    if aligned:
        # Reading the 4-byte blocks with struct (one C call) instead of four
        # indexings and shifts each halves the cost of a typical key.
        for k in _words(length)(data):
            k = k * _M & _MASK
            h = (h * _M ^ ((k ^ k >> 24) * _M & _MASK)) & _MASK
    rest = length & 3
    if rest:
        if rest == 3:
            h ^= data[aligned + 2] << 16 | data[aligned + 1] << 8 | data[aligned]
        elif rest == 2:
            h ^= data[aligned + 1] << 8 | data[aligned]
        else:
            h ^= data[aligned]
        h = h * _M & _MASK
    h ^= h >> 13
    h = h * _M & _MASK
    return h ^ h >> 15


def murmur2(data: bytes) -> int:
    """The 32-bit murmur2 hash Kafka uses for keys (seed 0x9747b28c), as a signed int."""
    h = _murmur2_unsigned(data)
    return h - 0x100000000 if h & 0x80000000 else h


def murmur2_partition(key: bytes, num_partitions: int) -> int:
    """The partition the Java client chooses for ``key``."""
    return (_murmur2_unsigned(key) & 0x7FFFFFFF) % num_partitions


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
