"""Enumerations kafka-python 3 exports from its package root."""

from __future__ import annotations

import enum


class IsolationLevel(enum.IntEnum):
    """Which records a consumer reads (kafkawire's ``isolation_level`` takes the lower-case names)."""

    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1


class OffsetSpec(enum.IntEnum):
    """The special timestamps of a ListOffsets lookup (a value >= 0 is a timestamp in ms)."""

    LATEST = -1
    EARLIEST = -2
    MAX_TIMESTAMP = -3
    EARLIEST_LOCAL = -4
    LATEST_TIERED = -5


__all__ = ["IsolationLevel", "OffsetSpec"]
