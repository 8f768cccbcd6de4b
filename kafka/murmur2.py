"""Kafka's murmur2 key hash: the plain reference and its fast variants, side by side.

The Java client (``Utils.murmur2``) and librdkafka's ``murmur2_random``
partitioner hash a key with 32-bit murmur2, seed ``0x9747b28c``, and place
it on partition ``(hash & 0x7fffffff) % partitions``.

* :func:`murmur2_plain` is the reference: the block-by-block loop, every
  intermediate cut to 32 bits. It is also the fastest on PyPy, whose JIT
  turns it into machine-word arithmetic.
* :func:`murmur2_in_lanes` hashes one key with big-integer lanes (CPython,
  fast path ``MURMUR2_LANES``); :func:`murmur2_unsigned` is whichever of the
  two is in use.
* :func:`murmur2_partitions` places many keys at once with lanes across keys
  (CPython, fast path ``MURMUR2_KEY_LANES``; used by ``send_batch`` and held
  keyed records); key by key otherwise.
* :func:`murmur2_column_partitions` places a binary column of keys with numpy
  (the Spark writer's encoded path; numpy is imported only when it is called).

``test/test_murmur2.py`` checks every variant against the reference.
"""

from __future__ import annotations

import struct
from bisect import bisect_left
from itertools import repeat
from operator import mod
from typing import TYPE_CHECKING, Callable, List, NamedTuple, Sequence, Tuple

from kafka import fast_paths

if TYPE_CHECKING:
    import numpy as np

__all__ = ["murmur2_plain", "murmur2_in_lanes", "murmur2_unsigned", "murmur2", "murmur2_partition",
           "murmur2_partitions", "murmur2_column_partitions"]

_MASK = 0xFFFFFFFF
_M = 0x5BD1E995
_SEED = 0x9747B28C
_from_bytes = int.from_bytes


# -- the reference ---------------------------------------------------------------------------

def murmur2_plain(data: bytes) -> int:
    """Kafka's 32-bit murmur2 of ``data`` as an unsigned int: the plain loop over 4-byte blocks.

    Every intermediate value stays below 2**63 (a 32-bit value times the
    31-bit constant), so PyPy's JIT compiles the loop to word operations.
    CPython runs it a bytecode at a time; :func:`murmur2_in_lanes` avoids that.
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


# -- one key in lanes (CPython) ----------------------------------------------------------------

#: Keys of this many 4-byte blocks are hashed in lanes; below, the lanes' set-up costs more than it saves.
_MIN_LANE_BLOCKS = 3
#: The most blocks hashed in lanes; readers for them are made in advance.
_TABLED_BLOCKS = 64


class _Lanes(NamedTuple):
    """Struct readers for keys of ``n`` 4-byte blocks (see :func:`murmur2_in_lanes`)."""

    blocks: Callable[[bytes], Tuple[int, ...]]  # the n blocks, little-endian, from a key
    spread: Callable[..., bytes]  # n ints as n 64-bit lanes
    unspread: Callable[[bytes], Tuple[int, ...]]  # n 64-bit lanes back to ints
    mask: int  # the low 32 bits of every lane


def _make_lanes(n: int) -> _Lanes:
    return _Lanes(struct.Struct("<%dI" % n).unpack_from, struct.Struct("<%dQ" % n).pack,
                  struct.Struct("<%dQ" % n).unpack,
                  int.from_bytes(b"\xff\xff\xff\xff\x00\x00\x00\x00" * n, "little"))


_LANES = [_make_lanes(n) for n in range(_TABLED_BLOCKS + 1)]


def murmur2_in_lanes(data: bytes) -> int:
    """:func:`murmur2_plain` of ``data`` with the blocks scrambled all at once.

    Each 4-byte block ``k`` is scrambled on its own (``k *= m; k ^= k >> 24;
    k *= m``) before it is mixed into the hash (``h = h * m ^ k``); the
    scrambling does not depend on ``h``, so for keys of a few blocks it is
    done for all blocks at once: block ``j`` goes into bits ``64 j`` to
    ``64 j + 31`` of one integer and each step is one integer operation.
    The 32 free bits above each block keep a product by the 32-bit ``m``
    inside its lane; what a shift pulls in from the next lane lands above
    bit 31 and is masked off before the next product (as
    :func:`murmur2_partitions` does across keys). And the mixing needs no
    mask per block: the low 32 bits of a product and of an xor depend only
    on the low 32 bits of the operands, so ``h`` may grow (by 31 bits a
    block, hence a cap on the blocks done this way) and is cut to 32 bits
    once, before the final avalanche.
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


#: Kafka's 32-bit murmur2 of a key as an unsigned int: :func:`murmur2_in_lanes`
#: where the ``MURMUR2_LANES`` fast path is on, else :func:`murmur2_plain`.
murmur2_unsigned: Callable[[bytes], int] = murmur2_plain


def _choose_unsigned() -> None:
    global murmur2_unsigned
    murmur2_unsigned = murmur2_in_lanes if fast_paths.MURMUR2_LANES else murmur2_plain


fast_paths.on_switch(_choose_unsigned)


def murmur2(data: bytes) -> int:
    """The 32-bit murmur2 hash Kafka uses for keys (seed 0x9747b28c), as a signed int."""
    h = murmur2_unsigned(data)
    return h - 0x100000000 if h & 0x80000000 else h


def murmur2_partition(key: bytes, num_partitions: int) -> int:
    """The partition the Java client chooses for ``key``."""
    return (murmur2_unsigned(key) & 0x7FFFFFFF) % num_partitions


# -- many keys in lanes (CPython) --------------------------------------------------------------
#
# Keys with the same number of whole blocks are hashed together: block ``j``
# of every key of the group goes into one lane of a large integer, lanes 64
# bits apart, and each step of the hash is one arithmetic operation on that
# integer (a few bytes of big-integer work per key and block instead of a
# dozen bytecodes). A lane holds a 32-bit value, so a product by the 32-bit
# constant stays inside its 64 bits; what a right shift pulls in from the
# next lane lands above bit 31 and is masked off like the product's overflow.
#
# Grouping by block count keeps every lane busy at every step. The keys of a
# group differ in length by up to three bytes: each is padded with zeros to
# the same stride, so its last, partial block sits at the same place in every
# key, and only keys that have one mix it in. Keys are hashed once however
# often they repeat; a group too small to be worth the set-up is hashed key
# by key. The lanes are filled from the joined keys with strided slices (byte
# ``b`` of block ``j`` of every key is ``blob[4 * j + b :: stride]``) and read
# back with :mod:`struct`: no Python step per key.

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
    if n < _MIN_LANES or not fast_paths.MURMUR2_KEY_LANES:
        return [murmur2_partition(key, num_partitions) for key in keys]
    distinct = sorted(dict.fromkeys(keys), key=len)
    hashes = _hashes(distinct, list(map(len, distinct)))
    partition_of = dict(zip(distinct, map(mod, hashes, repeat(num_partitions))))
    return list(map(partition_of.__getitem__, keys))


# -- a column of keys with numpy (the Spark writer) ----------------------------------------------

def murmur2_column_partitions(data: "np.ndarray", lengths: "np.ndarray", num_partitions: int) -> "np.ndarray":
    """The partition index (int64) of each key of a binary column, as the Java client picks it.

    ``data``: the keys' bytes one after another (uint8); ``lengths``: each
    key's length (none null). Step ``j`` of the hash runs on the ``j``-th
    4-byte word of all keys that have one, in 32-bit unsigned arithmetic
    (numpy wraps it modulo 2**32, as the hash wants).
    """
    import numpy as np
    from numpy.lib.stride_tricks import as_strided

    m = np.uint32(_M)
    starts = np.cumsum(lengths) - lengths
    # Four zero bytes after the data, so that the last words and tails can be read as whole words.
    padded = np.concatenate((data, np.zeros(4, np.uint8)))
    windows = as_strided(padded, (len(padded) - 3, 4), (1, 1))  # row i: padded[i:i + 4], a view

    def words(at: "np.ndarray") -> "np.ndarray":
        """The little-endian 32-bit words at byte positions ``at``."""
        return np.ascontiguousarray(windows[at]).view("<u4").ravel().astype(np.uint32)

    h = (np.uint32(_SEED) ^ lengths.astype(np.uint32)).astype(np.uint32)
    blocks = lengths >> 2
    rows = np.arange(len(lengths))
    for j in range(int(blocks.max(initial=0))):
        rows = rows[blocks[rows] > j]
        k = words(starts[rows] + 4 * j) * m
        k ^= k >> np.uint32(24)
        h[rows] = (h[rows] * m) ^ (k * m)
    rest = lengths & 3
    tailed = np.flatnonzero(rest)
    if len(tailed):
        word = words(starts[tailed] + 4 * blocks[tailed])
        # Keep the ``rest`` low bytes of the word.
        word &= (np.uint32(1) << (8 * rest[tailed]).astype(np.uint32)) - np.uint32(1)
        h[tailed] = (h[tailed] ^ word) * m
    h ^= h >> np.uint32(13)
    h *= m
    h ^= h >> np.uint32(15)
    return (h & np.uint32(0x7FFFFFFF)).astype(np.int64) % num_partitions
