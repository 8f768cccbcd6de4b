"""The value types the asyncio producer hands out, in aiokafka's shapes."""

from __future__ import annotations

from typing import NamedTuple, Optional

from kafka.structs import TopicPartition

__all__ = ["RecordMetadata", "TopicPartition"]


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
