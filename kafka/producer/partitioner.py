"""Choosing a partition for a record.

Keyed records go where the Java client and librdkafka's ``murmur2_random``
partitioner put them: ``murmur2(key) & 0x7fffffff`` modulo the partition
count. Records without a key stick to one partition until a batch for it is
full or was just created (KIP-480), then move on, so batches fill up.
The hash itself lives in :mod:`kafka.murmur2` (re-exported here).
"""

from __future__ import annotations

import random
import threading
from typing import Any, Dict, Optional, Sequence

from kafka.murmur2 import murmur2, murmur2_partition, murmur2_unsigned

__all__ = ["DefaultPartitioner", "StickyPartitioner", "murmur2", "murmur2_partition", "murmur2_unsigned"]


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


class StickyPartitioner(DefaultPartitioner):
    """kafka-python 3's KIP-480 partitioner: murmur2 for keys, one sticky partition per topic for null keys.

    :class:`DefaultPartitioner` already behaves this way (the producer moves
    a topic's sticky partition on when a batch fills), so this is the same
    partitioner under kafka-python 3's name. It also answers kafka-python 3's
    partitioner calls, for programs that drive it themselves:
    :meth:`partition` and :meth:`on_new_batch`, given an object with
    ``topics()``, ``partitions_for_topic(topic)`` and
    ``available_partitions_for_topic(topic)`` (a cluster metadata view).
    """

    def partition(self, topic: str, key: Any, serialized_key: Optional[bytes], value: Any,
                  serialized_value: Optional[bytes], cluster: Any) -> int:
        """The partition for a record of ``topic``; ValueError if ``cluster`` does not know the topic."""
        if topic not in cluster.topics():
            raise ValueError("Topic %s not found in ClusterMetadata" % (topic,))
        all_partitions = sorted(cluster.partitions_for_topic(topic) or ())
        available = sorted(cluster.available_partitions_for_topic(topic) or ())
        return self(serialized_key, all_partitions, available, topic)

    def on_new_batch(self, topic: str, cluster: Any, prev_partition: int) -> None:
        """A batch of ``topic`` on ``prev_partition`` filled: null-key records move to another partition."""
        if self._sticky.get(topic, prev_partition) != prev_partition:
            return  # another thread has moved on already
        all_partitions = sorted(cluster.partitions_for_topic(topic) or ())
        available = sorted(cluster.available_partitions_for_topic(topic) or ())
        if all_partitions:
            self.next_sticky(topic, all_partitions, available)
