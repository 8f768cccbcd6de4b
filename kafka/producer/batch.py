"""A batch of records for one partition, collected until it is sent."""

from __future__ import annotations

from itertools import repeat
from typing import List, Optional, Sequence, Tuple, Union

from kafka import fast_paths
from kafka.producer.future import FutureRecordMetadata, ProduceResult, ValueRecordFuture, header_size
from kafka.record.batch import HEADER_SIZE, estimate_record_size
from kafka.record.queued import build_queued_batch, value_columns
from kafka.record.record_encoding import Record
from kafka.structs import TopicPartition

#: The v2 batch header.
BATCH_OVERHEAD = HEADER_SIZE

Header = Tuple[str, Optional[bytes]]

#: Kept importable from here, where it used to live.
__all__ = ["BATCH_OVERHEAD", "Header", "ProducerBatch", "ValueColumns", "estimate_record_size"]


class ValueColumns:
    """Records without key and headers as a column of timestamps and one of values.

    What :meth:`~kafka.producer.KafkaProducer.send_batch` queues for a call
    with values alone: a batch that keeps its records as columns takes them
    without a tuple per record (see :meth:`ProducerBatch.add_records`).
    A slice gives the columns of a run, :meth:`take` those of chosen records.
    """

    __slots__ = ("stamps", "values")

    def __init__(self, stamps: List[int], values: List[Optional[bytes]]) -> None:
        self.stamps = stamps
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, run: slice) -> "ValueColumns":
        return ValueColumns(self.stamps[run], self.values[run])

    def take(self, indices: List[int]) -> "ValueColumns":
        """The records at ``indices``, in that order."""
        return ValueColumns(list(map(self.stamps.__getitem__, indices)), list(map(self.values.__getitem__, indices)))

    @classmethod
    def from_records(cls, records: Sequence[Record]) -> Optional["ValueColumns"]:
        """``(timestamp, key, value, headers)`` records as columns when none has a key or headers, else None."""
        columns = value_columns(records)
        return cls(*columns) if columns is not None else None


class ProducerBatch:
    """Records for one partition and their shared :class:`ProduceResult`.

    Records are kept as they came and encoded only when the batch is sent;
    the encoded bytes are kept so a retry resends exactly the same batch
    (same producer id, epoch and sequence).

    While every record of the batch has neither key nor headers (the common
    ``send(topic, value)``), they are kept as two columns, ``stamps`` and
    ``values``: two list slots per record instead of a tuple and its boxed
    timestamp, which on PyPy the garbage collector had to copy and trace
    for every record still queued or in flight. The first other record
    turns the batch into ``(timestamp, key, value, headers)`` tuples in
    ``records`` (:meth:`record_list`), in order; ``stamps`` and ``values``
    are None from then on.
    """

    __slots__ = ("topic_partition", "created", "records", "stamps", "values", "size", "max_size", "result",
                 "attempts", "last_attempt", "drained", "base_sequence", "producer_id", "producer_epoch", "encoded",
                 "in_retry", "memory", "transactional", "purged")

    def __init__(self, tp: TopicPartition, created: float, max_size: int) -> None:
        self.topic_partition = tp
        self.created = created
        #: The records as tuples, once the batch holds one with a key or headers (empty until then).
        self.records: List[Record] = []
        #: Timestamps and values of the records while none has a key or headers; None after.
        self.stamps: Optional[List[int]] = []
        self.values: Optional[List[Optional[bytes]]] = []
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
            self.topic_partition[0], self.topic_partition[1], self.record_count, self.base_sequence, self.attempts)

    @property
    def record_count(self) -> int:
        """Records in the batch."""
        values = self.values
        return len(self.records) if values is None else len(values)

    def record_list(self) -> List[Record]:
        """The records as ``(timestamp, key, value, headers)`` tuples, to append more to (no columns after)."""
        if self.values is not None:
            self.records = self.record_tuples()
            self._keep_value_columns()
            self.stamps = self.values = None
        return self.records

    def record_tuples(self) -> List[Record]:
        """A copy of the records as ``(timestamp, key, value, headers)`` tuples (the batch is unchanged)."""
        if self.values is not None:
            assert self.stamps is not None
            return list(zip(self.stamps, repeat(None), self.values, repeat(None)))
        return list(self.records)

    def _keep_value_columns(self) -> None:
        """Give the result the timestamps and value sizes of the records kept as columns (their futures')."""
        values = self.values
        if values and fast_paths.COMPACT_FUTURES:
            self.result.stamps = self.stamps
            self.result.value_sizes = [len(v) if v else -1 for v in values]  # as FutureRecordMetadata counts

    def add_records(self, records: Union[Sequence[Record], ValueColumns]) -> None:
        """Append ``records`` (no room check: the caller measured them), as columns while both are."""
        if isinstance(records, ValueColumns):
            if self.values is not None:
                self.stamps.extend(records.stamps)  # type: ignore[union-attr]
                self.values.extend(records.values)
            else:
                self.records.extend(zip(records.stamps, repeat(None), records.values, repeat(None)))
        else:
            self.record_list().extend(records)

    def try_append(self, timestamp: int, key: Optional[bytes], value: Optional[bytes],
                   headers: Optional[Sequence[Header]], size: int) -> Optional[FutureRecordMetadata]:
        """Add a record if it fits; return its future, or None when the batch is full.

        The first record always fits, whatever its size (the broker decides
        whether it is too large).
        """
        index = self.record_count
        if index and self.size + size > self.max_size:
            return None
        self.size += size
        values = self.values
        if values is not None and key is None and headers is None:
            self.stamps.append(timestamp)  # type: ignore[union-attr]
            values.append(value)
            if fast_paths.COMPACT_FUTURES:
                return ValueRecordFuture(self.result, index)
        else:
            self.record_list().append((timestamp, key, value, headers))
        return FutureRecordMetadata(self.result, index, timestamp, len(key) if key else -1,
                                    len(value) if value else -1, header_size(headers))

    def is_full(self) -> bool:
        """Whether little room is left."""
        return self.size >= self.max_size

    def split(self) -> Tuple["ProducerBatch", "ProducerBatch"]:
        """Two closed batches of this one's first and last records (half each), to send in its place.

        For a batch the broker refused as larger than the topic allows. The
        halves keep its producer id, epoch and sequence range (the first
        half its base sequence, the second the sequence after the first
        half), its creation time and its reserved memory, split between
        them; their results are the two :attr:`~ProduceResult.parts` of
        this batch's result, which completes once both have. This batch
        gives up its records and memory.
        """
        count = self.record_count
        middle = count // 2
        self._keep_value_columns()  # this result's index-only futures read them (PyPy)
        results = self.result.split_at(middle)
        halves = []
        for result, start, stop in ((results[0], 0, middle), (results[1], middle, count)):
            half = ProducerBatch(self.topic_partition, self.created, self.max_size)
            half.result = result
            if self.values is not None:
                half.stamps = self.stamps[start:stop]  # type: ignore[index]
                half.values = self.values[start:stop]
            else:
                half.records = self.records[start:stop]
                half.stamps = half.values = None
            half.size = BATCH_OVERHEAD + (self.size - BATCH_OVERHEAD) * (stop - start) // count
            half.drained = self.drained  # closed: nothing more is appended to it
            half.in_retry = True  # queued ahead of new batches, in sequence order
            half.last_attempt = float("-inf")  # no retry back-off: nothing failed that waiting would mend
            half.producer_id = self.producer_id
            half.producer_epoch = self.producer_epoch
            half.transactional = self.transactional
            halves.append(half)
        first, second = halves
        if self.base_sequence >= 0:
            first.base_sequence = self.base_sequence
            second.base_sequence = (self.base_sequence + middle) & 0x7FFFFFFF
        first.memory = self.memory * middle // count
        second.memory = self.memory - first.memory
        self.memory = 0
        self.records, self.stamps, self.values, self.encoded = [], [], [], None
        return first, second

    def encode(self, compression_type: int) -> bytes:
        """The v2 batch bytes (built once; reused by retries)."""
        if self.encoded is None:
            stamps, values = self.stamps, self.values
            columns = (stamps, values) if stamps is not None and values is not None else None
            self.encoded = build_queued_batch(
                self.records, compression_type=compression_type, is_transactional=self.transactional,
                producer_id=self.producer_id, producer_epoch=self.producer_epoch,
                base_sequence=self.base_sequence, columns=columns)
        return self.encoded

    def done(self, base_offset: int = -1, log_append_time: int = -1, log_start_offset: int = -1,
             error: Optional[BaseException] = None) -> None:
        """Complete every record of the batch."""
        if self.values is not None:
            self._keep_value_columns()
        # Free memory early; futures keep only sizes.
        self.records = []
        self.stamps, self.values = [], []
        self.encoded = None
        self.result.done(base_offset, log_append_time, log_start_offset, error)
