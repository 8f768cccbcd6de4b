"""murmur2 of many keys at once, for :meth:`KafkaProducer.send_batch` and held keyed records.

Hashing one key in Python costs a loop step per 4-byte block (about a
microsecond and a half for a 30-byte key).  Here keys with the same number
of whole blocks are hashed together: block ``j`` of every key of the group
goes into one lane of a large integer, lanes 64 bits apart, and each step of
the hash is one arithmetic operation on that integer.  A lane holds a 32-bit
value, so a multiplication by the 32-bit murmur2 constant stays inside its
64 bits and never carries into the next lane; the bits a right shift pulls
in from the next lane land above bit 31 and are masked off like the
overflow of the multiplication.  The integer operations run in C, so the
cost per key is a few bytes of big-integer work per block instead of a
dozen bytecodes.

Grouping by block count keeps every lane busy at every step: the integers
are as long as the group, and no step needs masks to leave out keys that
are already done.  The keys of a group differ in length by up to three
bytes: each is padded with zeros to the same stride, so its last, partial
block (zeros where the key has no bytes) sits at the same place in every
key, and only keys that have one mix it in.  Keys are hashed once however
often they repeat; a group too small to be worth the set-up is hashed key
by key.  The lanes are filled from the joined keys with strided slices
(byte ``b`` of block ``j`` of every key is ``blob[4 * j + b :: stride]``)
and read back with :mod:`struct`: no Python step per key.
"""

from __future__ import annotations

import struct
from bisect import bisect_left
from itertools import repeat
from operator import mod
from typing import List, Sequence, Tuple

from kafka.producer.partitioner import HASH_BY_WORDS, murmur2_partition, murmur2_unsigned

__all__ = ["murmur2_partitions"]

_M = 0x5BD1E995
_SEED = 0x9747B28C
_LANE_ONE = b"\x01" + b"\x00" * 7
#: Below this many keys the per-key loop is as fast as setting up the lanes.
_MIN_LANES = 16
#: Groups of fewer keys than this are hashed key by key.
_MIN_GROUP = 8


def _group_hashes(keys: Sequence[bytes], lengths: Sequence[int], blocks: int) -> Tuple[int, ...]:
    """The murmur2 of each of ``keys``, masked to 31 bits.

    Every key has ``blocks`` whole 4-byte blocks and up to three bytes more;
    ``lengths`` are the keys' lengths, in ascending order.
    """
    count = len(keys)
    m = _M
    stride = 4 * blocks + 4
    blob = b"".join(map(bytes.ljust, keys, repeat(stride, count), repeat(b"\0", count)))
    ones = int.from_bytes(_LANE_ONE * count, "little")
    mask = ones * 0xFFFFFFFF
    # The seed mixed with each key's length: a run of equal lanes per length.
    seeds = []
    at = 0
    while at < count:
        length = lengths[at]
        upto = bisect_left(lengths, length + 1, at)
        seeds.append(struct.pack("<Q", _SEED ^ length) * (upto - at))
        at = upto
    h = int.from_bytes(b"".join(seeds), "little")
    lanes = bytearray(8 * count)
    # The partial block's step only when a key has one: the longest, if any.
    for at in range(0, stride if lengths[-1] & 3 else stride - 4, 4):
        lanes[0::8] = blob[at::stride]
        lanes[1::8] = blob[at + 1::stride]
        lanes[2::8] = blob[at + 2::stride]
        lanes[3::8] = blob[at + 3::stride]
        block = int.from_bytes(lanes, "little")
        if at < 4 * blocks:
            k = block * m & mask
            k = (k ^ k >> 24) & mask
            h = (h * m ^ k * m) & mask  # the products fill their lanes and no more
        else:
            # The partial last block, mixed into the keys that have one (the
            # longer ones, at the top lanes): h ^= block; h *= m.
            partial = bisect_left(lengths, 4 * blocks + 1)
            upper = mask >> (64 * partial) << (64 * partial)
            h = (h & (mask ^ upper)) | ((h ^ block) * m & upper)
    h = (h ^ h >> 13) & mask
    h = h * m & mask
    h = (h ^ h >> 15) & (ones * 0x7FFFFFFF)
    return struct.unpack("<%dQ" % count, h.to_bytes(8 * count, "little"))


def _hashes(keys: List[bytes], lengths: List[int]) -> List[int]:
    """The murmur2 of each of ``keys``, masked to 31 bits; ``lengths`` are theirs, in ascending order."""
    hashes: List[int] = []
    count = len(keys)
    start = 0
    while start < count:
        blocks = lengths[start] >> 2
        stop = bisect_left(lengths, 4 * blocks + 4, start)
        if stop - start < _MIN_GROUP:
            hashes += [murmur2_unsigned(key) & 0x7FFFFFFF for key in keys[start:stop]]
        else:
            hashes += _group_hashes(keys[start:stop], lengths[start:stop], blocks)
        start = stop
    return hashes


def murmur2_partitions(keys: Sequence[bytes], num_partitions: int) -> List[int]:
    """``murmur2_partition(key, num_partitions)`` of each key (all ``bytes``), in order."""
    n = len(keys)
    if num_partitions == 1:
        return [0] * n  # any hash modulo 1: nothing to compute
    if n < _MIN_LANES or HASH_BY_WORDS:  # PyPy: key by key is the fast way there
        return [murmur2_partition(key, num_partitions) for key in keys]
    distinct = sorted(dict.fromkeys(keys), key=len)
    hashes = _hashes(distinct, list(map(len, distinct)))
    partition_of = dict(zip(distinct, map(mod, hashes, repeat(num_partitions))))
    return list(map(partition_of.__getitem__, keys))
