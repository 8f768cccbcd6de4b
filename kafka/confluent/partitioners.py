"""librdkafka's built-in partitioners, so that a key lands where confluent-kafka puts it.

Each function takes the key (bytes or None) and the partition count and
returns a partition number, or :data:`RANDOM` for a key it does not hash: the
``random`` partitioner always, the ``*_random`` variants for null keys and
``consistent_random`` for null and empty keys. The producer then picks the
partition itself, sticking to one random partition for
``sticky.partitioning.linger.ms`` as librdkafka does.
"""

from __future__ import annotations

import zlib
from typing import Callable, Dict, Optional

from kafka.producer.partitioner import murmur2 as _java_murmur2

#: Returned by a partitioner that leaves the choice to the (sticky) random partitioning.
RANDOM = -1

_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = 0x01000193


def fnv1a(data: bytes) -> int:
    """32-bit FNV-1a hash, as an unsigned int."""
    h = _FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * _FNV_PRIME) & 0xFFFFFFFF
    return h


def _random(key: Optional[bytes], count: int) -> int:
    return RANDOM


def _consistent(key: Optional[bytes], count: int) -> int:
    return (zlib.crc32(key or b"") & 0xFFFFFFFF) % count


def _consistent_random(key: Optional[bytes], count: int) -> int:
    if not key:
        return RANDOM
    return _consistent(key, count)


def _murmur2(key: Optional[bytes], count: int) -> int:
    return (_java_murmur2(key or b"") & 0x7FFFFFFF) % count


def _murmur2_random(key: Optional[bytes], count: int) -> int:
    if key is None:
        return RANDOM
    return _murmur2(key, count)


def _fnv1a(key: Optional[bytes], count: int) -> int:
    # librdkafka (like Sarama) takes the hash as a signed 32-bit int, applies C's
    # remainder (sign of the dividend) and then the absolute value.
    h = fnv1a(key or b"")
    if h >= 0x80000000:
        h -= 0x100000000
    return abs(int(h - count * int(h / count)))


def _fnv1a_random(key: Optional[bytes], count: int) -> int:
    if key is None:
        return RANDOM
    return _fnv1a(key, count)


PARTITIONERS: Dict[str, Callable[[Optional[bytes], int], int]] = {
    "random": _random,
    "consistent": _consistent,
    "consistent_random": _consistent_random,
    "murmur2": _murmur2,
    "murmur2_random": _murmur2_random,
    "fnv1a": _fnv1a,
    "fnv1a_random": _fnv1a_random,
}
