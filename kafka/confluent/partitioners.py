"""librdkafka's built-in partitioners, so that a key lands where confluent-kafka puts it.

Each function takes the key (bytes or None) and the partition count and
returns a partition number, or :data:`RANDOM` for a key it does not hash: the
``random`` partitioner always, the ``*_random`` variants for null keys and
``consistent_random`` for null and empty keys. The producer then picks the
partition itself, sticking to one random partition for
``sticky.partitioning.linger.ms`` as librdkafka does.
"""

from __future__ import annotations

import operator
import zlib
from typing import Any, Callable, Dict, Optional, Tuple

from kafka.producer.partitioner import murmur2 as _java_murmur2

#: Returned by a partitioner that leaves the choice to the (sticky) random partitioning.
RANDOM = -1

_FNV_OFFSET = 0x811C9DC5
_FNV_PRIME = 0x01000193


def fnv1a_hash(data: bytes) -> int:
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
    h = fnv1a_hash(key or b"")
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


def _checked(key: Any, partition_count: Any) -> Tuple[bytes, int]:
    if not isinstance(key, bytes):
        raise TypeError("a bytes-like object is required, not '%s'" % type(key).__name__)
    if isinstance(partition_count, float) or not hasattr(partition_count, "__index__"):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(partition_count).__name__)
    count = operator.index(partition_count)
    if count <= 0:
        raise ValueError("partition_count must be > 0, got %d" % count)
    return key, count


def murmur2(key: bytes, partition_count: int) -> int:
    """The partition librdkafka's (and the Java client's) murmur2 partitioner gives ``key``."""
    return _murmur2(*_checked(key, partition_count))


def consistent(key: bytes, partition_count: int) -> int:
    """The partition librdkafka's CRC32 ``consistent`` partitioner gives ``key``."""
    return _consistent(*_checked(key, partition_count))


def fnv1a(key: bytes, partition_count: int) -> int:
    """The partition librdkafka's FNV-1a partitioner gives ``key``."""
    return _fnv1a(*_checked(key, partition_count))
