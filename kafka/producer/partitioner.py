"""Choosing a partition for a record.

Keyed records go where the Java client and librdkafka's ``murmur2_random``
partitioner put them: ``murmur2(key) & 0x7fffffff`` modulo the partition
count. Records without a key stick to one partition until a batch for it is
full or was just created (KIP-480), then move on, so batches fill up.
"""

from __future__ import annotations

import random
import struct
import sys
import threading
from typing import Any, Callable, Dict, NamedTuple, Optional, Sequence, Tuple


_MASK = 0xFFFFFFFF
_M = 0x5BD1E995
_SEED = 0x9747B28C
_from_bytes = int.from_bytes

#: Keys of this many 4-byte blocks are hashed in lanes (see murmur2_unsigned);
#: below, the lanes' set-up costs more than it saves.
_MIN_LANE_BLOCKS = 3
#: The most blocks hashed in lanes; readers for them are made in advance.
_TABLED_BLOCKS = 64


class _Lanes(NamedTuple):
    """Struct readers for keys of ``n`` 4-byte blocks (see :func:`murmur2_unsigned`)."""

    blocks: Callable[[bytes], Tuple[int, ...]]  # the n blocks, little-endian, from a key
    spread: Callable[..., bytes]  # n ints as n 64-bit lanes
    unspread: Callable[[bytes], Tuple[int, ...]]  # n 64-bit lanes back to ints
    mask: int  # the low 32 bits of every lane


def _make_lanes(n: int) -> _Lanes:
    return _Lanes(struct.Struct("<%dI" % n).unpack_from, struct.Struct("<%dQ" % n).pack,
                  struct.Struct("<%dQ" % n).unpack,
                  int.from_bytes(b"\xff\xff\xff\xff\x00\x00\x00\x00" * n, "little"))


_LANES = [_make_lanes(n) for n in range(_TABLED_BLOCKS + 1)]


def murmur2_unsigned(data: bytes) -> int:
    """Kafka's 32-bit murmur2 of ``data`` (seed 0x9747b28c), as an unsigned int.

    Two things save most of the work of a block-by-block loop. Each 4-byte
    block ``k`` is scrambled on its own (``k *= m; k ^= k >> 24; k *= m``)
    before it is mixed into the hash (``h = h * m ^ k``); the scrambling
    does not depend on ``h``, so for keys of a few blocks it is done for all
    blocks at once: block ``j`` goes into bits ``64 j`` to ``64 j + 31`` of
    one integer and each step is one integer operation. The 32 free bits
    above each block keep a product by the 32-bit ``m`` inside its lane;
    what a shift pulls in from the next lane lands above bit 31 and is
    masked off before the next product (as in
    :mod:`kafka.producer.murmur2_lanes`, which does the same across keys).
    And the mixing needs no mask per block (nor do the scrambled blocks
    after their last product): the low 32 bits of a product
    and of an xor depend only on the low 32 bits of the operands, so ``h``
    may grow (by 31 bits a block, hence a cap on the blocks done this way)
    and is cut to 32 bits once, before the final avalanche.
    """
    length = len(data)
    h = _SEED ^ length
    n = length >> 2
    if _MIN_LANE_BLOCKS <= n <= _TABLED_BLOCKS:
        blocks, spread, unspread, mask = _LANES[n]
        k = _from_bytes(spread(*blocks(data)), "little") * _M & mask
        k = ((k ^ k >> 24) & mask) * _M  # 32 x 31 bits: the products stay in their lanes
        for k in unspread(k.to_bytes(n << 3, "little")):
            h = h * _M ^ k
    elif n:
        # Few blocks, or so many that an unmasked h would grow too large.
        for k in (_LANES[n].blocks if n < _MIN_LANE_BLOCKS else struct.Struct("<%dI" % n).unpack_from)(data):
            k = k * _M & _MASK
            h = (h * _M ^ (k ^ k >> 24) * _M) & _MASK
    rest = length & 3
    if rest:
        h = (h ^ _from_bytes(data[length - rest:], "little")) * _M
    h &= _MASK
    h ^= h >> 13
    h = h * _M & _MASK
    return h ^ h >> 15


def murmur2_by_words(data: bytes) -> int:
    """:func:`murmur2_unsigned` as the plain loop over 4-byte blocks, in machine-word arithmetic.

    Every intermediate value stays below 2**63 (a 32-bit value times the
    31-bit constant), so PyPy's JIT compiles the loop to word operations:
    about 20 times faster there than :func:`murmur2_unsigned`'s big-integer
    lanes, whose every step allocates. CPython runs it a bytecode at a time,
    which the lanes avoid; there it is the slower one.
    """
    length = len(data)
    h = _SEED ^ length
    whole = length & ~3
    i = 0
    while i < whole:
        k = data[i] | data[i + 1] << 8 | data[i + 2] << 16 | data[i + 3] << 24
        k = k * _M & _MASK
        k = (k ^ k >> 24) * _M & _MASK
        h = h * _M & _MASK ^ k
        i += 4
    rest = length - whole
    if rest:
        if rest == 3:
            h ^= data[i + 2] << 16
        if rest >= 2:
            h ^= data[i + 1] << 8
        h = (h ^ data[i]) * _M & _MASK
    h ^= h >> 13
    h = h * _M & _MASK
    return h ^ h >> 15


#: Whether :func:`murmur2_unsigned` is :func:`murmur2_by_words`: on PyPy (see there).
HASH_BY_WORDS = sys.implementation.name == "pypy"
if HASH_BY_WORDS:
    murmur2_unsigned = murmur2_by_words  # noqa: F811 - the faster of the two on this interpreter


def murmur2(data: bytes) -> int:
    """The 32-bit murmur2 hash Kafka uses for keys (seed 0x9747b28c), as a signed int."""
    h = murmur2_unsigned(data)
    return h - 0x100000000 if h & 0x80000000 else h


def murmur2_partition(key: bytes, num_partitions: int) -> int:
    """The partition the Java client chooses for ``key``."""
    return (murmur2_unsigned(key) & 0x7FFFFFFF) % num_partitions


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
