"""Kafka's key partitioning (murmur2) for a whole binary column, with numpy.

The same hash as :func:`kafka.producer.partitioner.murmur2_partition`,
computed for every key at once: step ``j`` of the hash runs on the ``j``-th
4-byte word of all keys that have one, in 32-bit unsigned arithmetic (numpy
wraps it modulo 2**32, as the hash wants).
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np

from kafka.spark.columnar_encode import ArrowBinaryColumn, windows

__all__ = ["murmur2_partitions", "partition_groups"]

_M = np.uint32(0x5BD1E995)
_SEED = 0x9747B28C


def _words(data: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The little-endian 32-bit words at byte positions ``at`` of ``data``."""
    return np.ascontiguousarray(windows(data, 4)[at]).view("<u4").ravel().astype(np.uint32)


def murmur2_partitions(keys: ArrowBinaryColumn, num_partitions: int) -> np.ndarray:
    """The partition index of each key (none null) among ``num_partitions``, as the Java client picks it."""
    lengths = keys.lengths
    starts = np.cumsum(lengths) - lengths
    # Four zero bytes after the data, so that the last words and tails can be read as whole words.
    data = np.concatenate((keys.data, np.zeros(4, np.uint8)))
    h = (np.uint32(_SEED) ^ lengths.astype(np.uint32)).astype(np.uint32)
    blocks = lengths >> 2
    rows = np.arange(len(lengths))
    for j in range(int(blocks.max(initial=0))):
        rows = rows[blocks[rows] > j]
        k = _words(data, starts[rows] + 4 * j) * _M
        k ^= k >> np.uint32(24)
        h[rows] = (h[rows] * _M) ^ (k * _M)
    rest = lengths & 3
    tailed = np.flatnonzero(rest)
    if len(tailed):
        word = _words(data, starts[tailed] + 4 * blocks[tailed])
        # Keep the ``rest`` low bytes of the word.
        word &= (np.uint32(1) << (8 * rest[tailed]).astype(np.uint32)) - np.uint32(1)
        h[tailed] = (h[tailed] ^ word) * _M
    h ^= h >> np.uint32(13)
    h *= _M
    h ^= h >> np.uint32(15)
    return (h & np.uint32(0x7FFFFFFF)).astype(np.int64) % num_partitions


def partition_groups(partitions: np.ndarray, num_partitions: int) -> List[Tuple[int, List[int]]]:
    """``[(partition index, its rows in order)]`` for each row's partition index, smallest index first."""
    order = np.argsort(partitions, kind="stable")
    sizes = np.bincount(partitions, minlength=num_partitions)
    ends = np.cumsum(sizes)
    return [(index, order[end - size:end].tolist()) for index, (size, end) in enumerate(zip(sizes.tolist(),
                                                                                           ends.tolist())) if size]
