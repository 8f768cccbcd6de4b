"""The value types the asyncio clients hand out, in aiokafka's shapes.

:class:`ConsumerRecord` is the synchronous consumer's record
(:class:`kafka.record.rows.ConsumerRecord`): it has every attribute of
aiokafka's, plus ``leader_epoch`` and ``serialized_header_size``, and is a
tuple the record readers build straight from the fetched bytes where
aiokafka builds a dataclass per record.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

from kafka.record.rows import ConsumerRecord
from kafka.structs import OffsetAndMetadata, TopicPartition

__all__ = ["ConsumerRecord", "OffsetAndMetadata", "OffsetAndTimestamp", "RecordMetadata", "TopicPartition"]


class RecordMetadata(NamedTuple):
    """Where a record sent by :class:`~kafka.aio.AIOKafkaProducer` was written.

    aiokafka's seven fields in aiokafka's order. ``timestamp`` is the
    record's own timestamp (``timestamp_type`` 0, CreateTime) or the time
    the broker appended it (``timestamp_type`` 1, LogAppendTime).
    ``offset`` and ``log_start_offset`` are -1 when the broker does not say
    (``acks=0``; ``log_start_offset`` before Produce v5).
    """

    topic: str
    partition: int
    topic_partition: TopicPartition
    offset: int
    timestamp: Optional[int]
    timestamp_type: int
    log_start_offset: Optional[int]


class OffsetAndTimestamp(NamedTuple):
    """What :meth:`~kafka.aio.AIOKafkaConsumer.offsets_for_times` found: aiokafka's two fields."""

    offset: int
    timestamp: Optional[int]
