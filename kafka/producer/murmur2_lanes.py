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
from collections import Counter
from itertools import repeat
from operator import and_, mod, mul, rshift, xor
from typing import List, Sequence

from kafka.producer.partitioner import murmur2_partition

__all__ = ["murmur2_partitions"]

_M = 0x5BD1E995
_SEED = 0x9747B28C
#: Below this many keys the per-key loop is as fast as setting up the lanes.
_MIN_LANES = 16


def _lane_hashes(keys: Sequence[bytes], blocks: int) -> List[int]:
    """The unsigned murmur2 of each of ``keys``, all of ``blocks`` whole 4-byte blocks, masked to 31 bits."""
    count = len(keys)
    stride = 4 * blocks + 4
    blob = b"".join(map(bytes.ljust, keys, repeat(stride, count), repeat(b"\0", count)))
    lengths = list(map(len, keys))
    lanes_of = struct.Struct("<%dQ" % count)
    ones = int.from_bytes(b"\x01\x00\x00\x00\x00\x00\x00\x00" * count, "little")
    mask = ones * 0xFFFFFFFF
    m = _M
    h = int.from_bytes(lanes_of.pack(*map(xor, repeat(_SEED, count), lengths)), "little") & mask
    lanes = bytearray(8 * count)
    for at in range(0, 4 * blocks, 4):
        for b in range(4):
            lanes[b::8] = blob[at + b::stride]
        k = int.from_bytes(lanes, "little") * m & mask
        k = (k ^ k >> 24) & mask
        h = (h * m & mask) ^ (k * m & mask)
    # The partial block, for the lanes whose key has one (1 to 3 bytes; byte 3 is padding).
    tail = bytearray(8 * count)
    at = 4 * blocks
    for b in range(3):
        tail[b::8] = blob[at + b::stride]
    partial = int.from_bytes(lanes_of.pack(*map(mul, map(bool, map(and_, lengths, repeat(3, count))),
                                                repeat(0xFFFFFFFF, count))), "little")
    h = ((h ^ int.from_bytes(tail, "little")) * m & partial) | (h & (mask ^ partial))
    h = (h ^ h >> 13) & mask
    h = h * m & mask
    h = (h ^ h >> 15) & (ones * 0x7FFFFFFF)
    return list(lanes_of.unpack(h.to_bytes(8 * count, "little")))


def murmur2_partitions(keys: Sequence[bytes], num_partitions: int) -> List[int]:
    """``murmur2_partition(key, num_partitions)`` of each key (all ``bytes``), in order."""
    n = len(keys)
    if n < _MIN_LANES:
        return [murmur2_partition(key, num_partitions) for key in keys]
    blocks = list(map(rshift, map(len, keys), repeat(2, n)))
    order = sorted(range(n), key=blocks.__getitem__)
    hashes: List[int] = []
    start = 0
    for count_blocks, count in sorted(Counter(blocks).items()):
        group = order[start:start + count]
        start += count
        hashes += _lane_hashes(list(map(keys.__getitem__, group)), count_blocks)
    # hashes follow ``order``; put them back in the keys' order.
    back = sorted(range(n), key=order.__getitem__)
    return list(map(mod, map(hashes.__getitem__, back), repeat(num_partitions)))
