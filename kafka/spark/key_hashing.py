"""Kafka's key partitioning (murmur2) for a whole binary column, with numpy.

The hash is :func:`kafka.murmur2.murmur2_column_partitions`, beside the
reference and the other variants; this module applies it to a
:class:`~kafka.spark.columnar_encode.ArrowBinaryColumn` and groups the rows.
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np

from kafka.murmur2 import murmur2_column_partitions
from kafka.spark.columnar_encode import ArrowBinaryColumn

__all__ = ["murmur2_partitions", "partition_groups"]


def murmur2_partitions(keys: ArrowBinaryColumn, num_partitions: int) -> np.ndarray:
    """The partition index of each key (none null) among ``num_partitions``, as the Java client picks it."""
    return murmur2_column_partitions(keys.data, keys.lengths, num_partitions)


def partition_groups(partitions: np.ndarray, num_partitions: int) -> List[Tuple[int, List[int]]]:
    """``[(partition index, its rows in order)]`` for each row's partition index, smallest index first."""
    order = np.argsort(partitions, kind="stable")
    sizes = np.bincount(partitions, minlength=num_partitions)
    ends = np.cumsum(sizes)
    return [(index, order[end - size:end].tolist()) for index, (size, end) in enumerate(zip(sizes.tolist(),
                                                                                           ends.tolist())) if size]
