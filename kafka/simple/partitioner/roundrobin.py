"""A partitioner that ignores keys and takes the partitions in turn."""

from __future__ import annotations

import itertools
import threading
from typing import Any, Iterator, Optional, Sequence

from kafka.simple.partitioner.base import Partitioner


class RoundRobinPartitioner(Partitioner):
    """Sends each message to the next partition, in the order of the partition list.

    The key is ignored. When :meth:`partition` is given a partition list that
    differs from the current one (the topic grew, say), the cycle starts over
    on the new list.
    """

    def __init__(self, partitions: Sequence[int]) -> None:
        super().__init__(partitions)
        self._lock = threading.Lock()
        self._cycle: Iterator[int] = itertools.cycle(self.partitions)

    def _set_partitions(self, partitions: Sequence[int]) -> None:
        self.partitions = list(partitions)
        self._cycle = itertools.cycle(self.partitions)

    def partition(self, key: Any, partitions: Optional[Sequence[int]] = None) -> int:
        """Return the next partition (``key`` is ignored)."""
        with self._lock:
            if partitions and list(partitions) != self.partitions:
                self._set_partitions(partitions)
            if not self.partitions:
                raise ValueError("there are no partitions to choose from")
            return next(self._cycle)


__all__ = ["RoundRobinPartitioner"]
