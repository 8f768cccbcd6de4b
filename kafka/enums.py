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


class OffsetTimestamp(int):
    """A timestamp in ms as an offset spec (kafka-python 3's name).

    :meth:`~kafka.admin.KafkaAdminClient.reset_group_offsets` reads a plain
    int as an offset and an ``OffsetTimestamp`` as "the first offset at or
    after this time".
    """


__all__ = ["IsolationLevel", "OffsetSpec", "OffsetTimestamp"]
