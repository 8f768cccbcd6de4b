"""murmur2 of many keys at once, for :meth:`KafkaProducer.send_batch` and held keyed records.

Hashing one key in Python costs a loop step per 4-byte block (about a
microsecond and a half for a 30-byte key).  Here the keys with the same
number of whole blocks are hashed together: block ``j`` of every key goes
into one lane of a large integer, lanes 64 bits apart, and each step of the
hash is one arithmetic operation on that integer.  A lane holds a 32-bit
value, so a multiplication by the 32-bit murmur2 constant stays inside its
64 bits and never carries into the next lane; the bits a right shift pulls
in from the next lane land above bit 31 and are masked off like the
overflow of the multiplication.  The integer operations run in C, so the
cost per key is a few bytes of big-integer work per block instead of a
dozen bytecodes.

Keys of one block count may differ in length by up to three bytes: each is
padded with zeros to the same stride, so its last, partial block (zeros
where the key has no bytes) sits at the same place in every key.  The seed
(which mixes in the length) and whether that partial block is mixed in at
all are per lane, set from packed per-key values.  The lanes are filled from
the joined keys with strided slices (byte ``b`` of block ``j`` of every key
is ``blob[4 * j + b :: stride]``) and read back with :mod:`struct`: no
Python step per key.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from itertools import repeat
from operator import mod, xor
from typing import List, Sequence

from kafka.producer.partitioner import murmur2_partition

__all__ = ["murmur2_partitions"]

_M = 0x5BD1E995
_SEED = 0x9747B28C
#: Below this many keys the per-key loop is as fast as setting up the lanes.
_MIN_LANES = 16


def _lane_hashes(keys: Sequence[bytes], lengths: Sequence[int]) -> List[int]:
    """The unsigned murmur2 of each of ``keys``, masked to 31 bits; ``lengths`` are theirs, in ascending order.

    Step ``j`` mixes block ``j`` into the lanes of keys longer than ``4 j +
    3`` bytes, mixes it in as the partial last block for keys of ``4 j + 1``
    to ``4 j + 3`` bytes, and leaves the shorter keys' lanes as they are.
    Sorted by length, each of the three is a stretch of adjacent lanes, so
    the choice is made with three range masks.
    """
    count = len(keys)
    longest = lengths[-1]
    stride = (longest & ~3) + 4
    blob = b"".join(map(bytes.ljust, keys, repeat(stride, count), repeat(b"\0", count)))
    lanes_of = struct.Struct("<%dQ" % count)
    ones = int.from_bytes(b"\x01\x00\x00\x00\x00\x00\x00\x00" * count, "little")
    mask = ones * 0xFFFFFFFF
    m = _M
    h = int.from_bytes(lanes_of.pack(*map(xor, repeat(_SEED, count), lengths)), "little") & mask
    lanes = bytearray(8 * count)
    for at in range(0, stride, 4):
        done = bisect_right(lengths, at)  # keys fully mixed in already
        if done == count:
            break
        partial = bisect_right(lengths, at + 3)  # keys ending inside this block: done..partial
        for b in range(4):
            lanes[b::8] = blob[at + b::stride]
        block = int.from_bytes(lanes, "little")
        whole = mask >> (64 * partial) << (64 * partial)
        if partial > done:
            tail = (mask >> (64 * done) << (64 * done)) ^ whole
            mixed = (h ^ block) * m & tail
        else:
            mixed = 0
        if partial < count:
            k = block * m & whole
            k = (k ^ k >> 24) & whole
            mixed |= (h * m & whole) ^ (k * m & whole)
        h = (h & (mask ^ (mask >> (64 * done) << (64 * done)))) | mixed
    h = (h ^ h >> 13) & mask
    h = h * m & mask
    h = (h ^ h >> 15) & (ones * 0x7FFFFFFF)
    return list(lanes_of.unpack(h.to_bytes(8 * count, "little")))


def murmur2_partitions(keys: Sequence[bytes], num_partitions: int) -> List[int]:
    """``murmur2_partition(key, num_partitions)`` of each key (all ``bytes``), in order."""
    n = len(keys)
    if num_partitions == 1:
        return [0] * n  # any hash modulo 1: nothing to compute
    if n < _MIN_LANES:
        return [murmur2_partition(key, num_partitions) for key in keys]
    lengths = list(map(len, keys))
    order = sorted(range(n), key=lengths.__getitem__)
    hashes = _lane_hashes(list(map(keys.__getitem__, order)), list(map(lengths.__getitem__, order)))
    # hashes follow ``order``; put them back in the keys' order.
    back = sorted(range(n), key=order.__getitem__)
    return list(map(mod, map(hashes.__getitem__, back), repeat(num_partitions)))
