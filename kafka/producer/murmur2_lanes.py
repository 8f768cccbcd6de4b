"""murmur2 of many keys at once, for :meth:`KafkaProducer.send_batch`.

Hashing one key in Python costs a loop step per 4-byte block (about a
microsecond and a half for a 30-byte key).  Here the keys of one length are
hashed together: word ``j`` of every key goes into one lane of a large
integer, lanes 64 bits apart, and each step of the hash is one arithmetic
operation on that integer.  A lane holds a 32-bit value, so a multiplication
by the 32-bit murmur2 constant stays inside its 64 bits and never carries
into the next lane; the bits a right shift pulls in from the next lane land
above bit 31 and are masked off like the overflow of the multiplication.
The integer operations run in C, so the cost per key is a few bytes of
big-integer work per block instead of a dozen bytecodes.

The lanes are filled from the joined keys with strided slices (byte ``b``
of word ``j`` of every key is ``blob[4 * j + b :: length]``) and read back
with :mod:`struct`: no Python step per key except sorting by length.
"""

from __future__ import annotations

import struct
from collections import Counter
from itertools import repeat
from operator import mod
from typing import List, Sequence

from kafka.producer.partitioner import murmur2_partition

__all__ = ["murmur2_partitions"]

_M = 0x5BD1E995
_SEED = 0x9747B28C
#: Below this many keys the per-key loop is as fast as setting up the lanes.
_MIN_LANES = 16


def _lane_hashes(blob: bytes, length: int, count: int) -> List[int]:
    """The unsigned murmur2 of each of the ``count`` keys of ``length`` bytes joined in ``blob``."""
    ones = int.from_bytes(b"\x01\x00\x00\x00\x00\x00\x00\x00" * count, "little")
    mask = ones * 0xFFFFFFFF
    m = _M
    h = ones * ((_SEED ^ length) & 0xFFFFFFFF)
    lanes = bytearray(8 * count)
    aligned = length & ~3
    for at in range(0, aligned, 4):
        for b in range(4):
            lanes[b::8] = blob[at + b::length]
        k = int.from_bytes(lanes, "little") * m & mask
        k = (k ^ k >> 24) & mask
        h = (h * m & mask) ^ (k * m & mask)
    rest = length - aligned
    if rest:
        lanes = bytearray(8 * count)
        for b in range(rest):
            lanes[b::8] = blob[aligned + b::length]
        h = (h ^ int.from_bytes(lanes, "little")) * m & mask
    h = (h ^ h >> 13) & mask
    h = h * m & mask
    h = (h ^ h >> 15) & (ones * 0x7FFFFFFF)
    return list(struct.unpack("<%dQ" % count, h.to_bytes(8 * count, "little")))


def murmur2_partitions(keys: Sequence[bytes], num_partitions: int) -> List[int]:
    """``murmur2_partition(key, num_partitions)`` of each key (all ``bytes``), in order."""
    n = len(keys)
    if n < _MIN_LANES:
        return [murmur2_partition(key, num_partitions) for key in keys]
    lengths = list(map(len, keys))
    order = sorted(range(n), key=lengths.__getitem__)
    hashes: List[int] = []
    start = 0
    for length, count in sorted(Counter(lengths).items()):
        group = order[start:start + count]
        start += count
        hashes += _lane_hashes(b"".join(map(keys.__getitem__, group)), length, count)
    # hashes follow ``order``; put them back in the keys' order.
    back = sorted(range(n), key=order.__getitem__)
    return list(map(mod, map(hashes.__getitem__, back), repeat(num_partitions)))
