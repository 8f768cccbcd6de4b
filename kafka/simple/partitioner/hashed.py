"""Partitioners that choose a partition from a hash of the key.

* :class:`Murmur2Partitioner` hashes the key with murmur2 exactly as the Java
  client's default partitioner (and librdkafka's ``murmur2_random``) do, so
  a key goes to the same partition whichever of these clients wrote it. Use
  it when other clients, or other processes, must agree on where a key lives.
* :class:`LegacyPartitioner` -- the 0.9 default, also known as
  :data:`HashedPartitioner` -- uses Python's built-in :func:`hash`. Python 3
  salts the hash of ``bytes`` and ``str`` per process (see
  ``PYTHONHASHSEED``), so two processes generally send the same key to
  *different* partitions. It is kept because 0.9.x code names it; it is
  deprecated, as it was in 0.9.x (kafka-python issue 374).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from kafka.simple.partitioner.base import Partitioner
from kafka.producer.partitioner import murmur2 as _java_murmur2


def _key_bytes(key: Any) -> bytes:
    if isinstance(key, bytes):
        return key
    if isinstance(key, (bytearray, memoryview)):
        return bytes(key)
    # 0.9.x hashed the text of anything else (a str, an int, None, ...).
    return str(key).encode("utf-8")


def murmur2(key: Any) -> int:
    """The murmur2 hash of ``key``, as the Java client computes it, as an unsigned 32-bit int.

    :param key: ``bytes`` (or ``bytearray``) are hashed as they are; anything
        else is hashed as the UTF-8 encoding of ``str(key)``, as in 0.9.x.
    :returns: the hash in ``0 .. 2**32 - 1``, as 0.9.x returned it. The Java
        client's ``Utils.murmur2`` gives the same 32 bits as a signed int
        (:func:`kafka.producer.partitioner.murmur2`); the partition chosen,
        ``(hash & 0x7fffffff) % partition_count``, is the same either way.
    """
    return _java_murmur2(_key_bytes(key)) & 0xFFFFFFFF


class Murmur2Partitioner(Partitioner):
    """Picks ``partitions[(murmur2(key) & 0x7fffffff) % len(partitions)]``.

    The same choice as the Java client's default partitioner and librdkafka's
    ``murmur2_random`` for keyed messages. Keys are hashed as :func:`murmur2`
    describes.
    """

    def partition(self, key: Any, partitions: Optional[Sequence[int]] = None) -> int:
        """Return the partition for ``key`` among ``partitions`` (default: the constructor's)."""
        choices = self._current(partitions)
        return choices[(murmur2(key) & 0x7FFFFFFF) % len(choices)]


class LegacyPartitioner(Partitioner):
    """Picks ``partitions[hash(key) % len(partitions)]`` -- DEPRECATED.

    Python's :func:`hash` of ``bytes`` and ``str`` differs from one process to
    the next (unless ``PYTHONHASHSEED`` is fixed), so the partition of a key
    is only stable within one process. Prefer :class:`Murmur2Partitioner`.
    """

    def partition(self, key: Any, partitions: Optional[Sequence[int]] = None) -> int:
        """Return the partition for ``key`` among ``partitions`` (default: the constructor's)."""
        choices = self._current(partitions)
        return choices[hash(key) % len(choices)]


#: The 0.9 name of the default partitioner of :class:`~kafka.KeyedProducer`.
#: As in kafka-python 0.9.5 it is :class:`LegacyPartitioner` (Python's
#: ``hash()``); pass ``partitioner=Murmur2Partitioner`` for a placement that
#: is stable across processes and matches the Java client.
HashedPartitioner = LegacyPartitioner


__all__ = ["HashedPartitioner", "LegacyPartitioner", "Murmur2Partitioner", "murmur2"]
