"""A batch of records for one partition, collected until it is sent."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from kafka.producer.future import FutureRecordMetadata, ProduceResult, header_size
from kafka.record.batch import HEADER_SIZE, RecordBatchBuilder, estimate_record_size
from kafka.structs import TopicPartition

#: The v2 batch header.
BATCH_OVERHEAD = HEADER_SIZE

Header = Tuple[str, Optional[bytes]]

#: Kept importable from here, where it used to live.
__all__ = ["BATCH_OVERHEAD", "Header", "ProducerBatch", "estimate_record_size"]


class ProducerBatch:
    """Records for one partition and their shared :class:`ProduceResult`.

    Records are kept as tuples and encoded only when the batch is sent; the
    encoded bytes are kept so a retry resends exactly the same batch (same
    producer id, epoch and sequence).
    """

    __slots__ = ("topic_partition", "created", "records", "size", "max_size", "result", "attempts",
                 "last_attempt", "drained", "base_sequence", "producer_id", "producer_epoch", "encoded",
                 "in_retry", "memory", "transactional", "purged")

    def __init__(self, tp: TopicPartition, created: float, max_size: int) -> None:
        self.topic_partition = tp
        self.created = created
        self.records: List[Tuple[int, Optional[bytes], Optional[bytes], Any]] = []
        self.size = BATCH_OVERHEAD
        self.max_size = max_size
        self.result = ProduceResult(tp)
        self.attempts = 0
        self.last_attempt = created
        self.drained = 0.0  # when last drained; 0.0 until then (open to appends)
        self.base_sequence = -1
        self.producer_id = -1
        self.producer_epoch = -1
        self.encoded: Optional[bytes] = None
        self.in_retry = False
        self.memory = 0  # bytes reserved in the accumulator's memory budget
        self.transactional = False
        self.purged = False  # failed by a purge: a late response for it is ignored

    def __repr__(self) -> str:
        return "<ProducerBatch %s-%d records=%d seq=%d attempts=%d>" % (
            self.topic_partition[0], self.topic_partition[1], len(self.records), self.base_sequence, self.attempts)

    @property
    def record_count(self) -> int:
        """Records in the batch."""
        return len(self.records)

    def try_append(self, timestamp: int, key: Optional[bytes], value: Optional[bytes],
                   headers: Optional[Sequence[Header]], size: int) -> Optional[FutureRecordMetadata]:
        """Add a record if it fits; return its future, or None when the batch is full.

        The first record always fits, whatever its size (the broker decides
        whether it is too large).
        """
        if self.records and self.size + size > self.max_size:
            return None
        index = len(self.records)
        self.records.append((timestamp, key, value, headers))
        self.size += size
        return FutureRecordMetadata(self.result, index, timestamp, len(key) if key else -1,
                                    len(value) if value else -1, header_size(headers))

    def is_full(self) -> bool:
        """Whether little room is left."""
        return self.size >= self.max_size

    def encode(self, compression_type: int) -> bytes:
        """The v2 batch bytes (built once; reused by retries)."""
        if self.encoded is None:
            builder = RecordBatchBuilder(
                compression_type=compression_type, is_transactional=self.transactional,
                producer_id=self.producer_id, producer_epoch=self.producer_epoch,
                base_sequence=self.base_sequence, batch_size=0x7FFFFFFF)
            builder.extend(self.records)
            self.encoded = builder.build()
        return self.encoded

    def done(self, base_offset: int = -1, log_append_time: int = -1, log_start_offset: int = -1,
             error: Optional[BaseException] = None) -> None:
        """Complete every record of the batch."""
        self.records = []  # free memory early; futures keep only sizes
        self.encoded = None
        self.result.done(base_offset, log_append_time, log_start_offset, error)
