"""murmur2 of many keys at once: moved to :mod:`kafka.murmur2`, re-exported here for its importers."""

from __future__ import annotations

from kafka.murmur2 import murmur2_partitions

__all__ = ["murmur2_partitions"]
