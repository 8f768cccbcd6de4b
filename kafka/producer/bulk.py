"""Sending many records in one call: :meth:`KafkaProducer.send_batch`.

``send`` costs a call, its checks, a lock and a future per record.
:func:`send_batch` takes columns (values, and optionally keys, headers and
timestamps), checks them column by column, groups the records by partition
in their given order and hands each partition's run to the accumulator at
once (:meth:`~kafka.producer.accumulator.RecordAccumulator.append_many`),
which fills whole batches. The batches then go through the same sender as
any other: retries, idempotence (sequence numbers), transactions and
per-partition ordering are unchanged. One :class:`BatchSendFuture` stands
for all the records of the call.
"""

from __future__ import annotations

import time
from itertools import repeat
from operator import add
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple

from kafka import errors
from kafka.producer.accumulator import QueuedRecords
from kafka.producer.batch import ValueColumns
from kafka.producer.future import ProduceResult
from kafka.producer.record_checks import check_bytes, check_headers_sized, check_timestamp
from kafka.record.batch import estimate_record_sizes
from kafka.serializer import Conversion
from kafka.structs import TopicPartition

if TYPE_CHECKING:
    from kafka.producer.pipeline import ProducerPipeline


class BatchSendFuture:
    """The outcome of one :meth:`KafkaProducer.send_batch` call.

    Done once every record is acknowledged or any failed; :meth:`get`
    returns the number of records, or raises the first failure.
    """

    def __init__(self, placed: List[Tuple[ProduceResult, int, int]], count: int) -> None:
        self._placed = placed
        self.count = count

    def __repr__(self) -> str:
        state = "pending" if not self.is_done else ("failed" if self.exception else "done")
        return "<BatchSendFuture %d records %s>" % (self.count, state)

    @property
    def is_done(self) -> bool:
        """Whether every record was acknowledged, or one failed."""
        return all(r.is_done for r, _, _ in self._placed) or self.exception is not None

    @property
    def exception(self) -> Optional[BaseException]:
        """The first failure among the records' batches, if any failed."""
        for result, _, _ in self._placed:
            if result.is_done and result.error is not None:
                return result.error
        return None

    def get(self, timeout: Optional[float] = None) -> int:
        """Wait for every record; return how many; raise the first failure or KafkaTimeoutError."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for result, _, _ in self._placed:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not result.wait(left):
                raise errors.KafkaTimeoutError("records not acknowledged within %s s" % (timeout,))
            if result.error is not None:
                raise result.error
        return self.count

    def offsets(self) -> List[Tuple[TopicPartition, int, int]]:
        """``(partition, first offset, record count)`` of each run, once acknowledged (offset -1 for acks=0).

        A run whose batch was split (see :meth:`ProduceResult.split_at`) is
        given as the runs its halves wrote, in order.
        """
        out = []
        for placed_result, placed_index, placed_count in self._placed:
            for result, index, count in placed_result.leaves(placed_index, placed_count):
                base = result.base_offset
                out.append((result.topic_partition, base + index if base >= 0 else -1, count))
        return out


def _column(values: Optional[Sequence[Any]], n: int, name: str) -> Sequence[Any]:
    if values is None:
        return list(repeat(None, n))
    if len(values) != n:
        raise errors.IllegalArgumentError("send_batch: %s has %d items, values has %d" % (name, len(values), n))
    return values


def _bytes_column(column: Sequence[Any], serializer: Optional[Conversion], what: str, topic: str,
                  headers: Optional[Sequence[Any]]) -> Tuple[List[Any], bool]:
    """``column`` serialized and checked as bytes or None, and whether it holds a None.

    A :class:`~kafka.serializer.Serializer` object sees each record's
    ``headers`` (``[]`` for none), as :meth:`KafkaProducer.send` gives it.
    """
    if serializer is not None:
        fn = serializer.fn
        if not serializer.contextual:
            column = [None if v is None else fn(v) for v in column]
        else:
            per_record = repeat(None) if headers is None else headers
            column = [None if v is None else fn(topic, [] if h is None else h, v)
                      for v, h in zip(column, per_record)]
    types = set(map(type, column))
    if not types <= {bytes, type(None)}:
        serialized = serializer is not None
        column = [v if v is None or type(v) is bytes else check_bytes(v, what, serialized) for v in column]
    # From the types seen: ``None in column`` would cost as much again on CPython.
    return list(column), type(None) in types


def send_batch(pipeline: "ProducerPipeline", topic: str, values: Sequence[Any], keys: Optional[Sequence[Any]] = None,
               headers: Optional[Sequence[Any]] = None, partition: Optional[int] = None,
               timestamps: Optional[Sequence[int]] = None) -> BatchSendFuture:
    """See :meth:`KafkaProducer.send_batch`; ``pipeline`` is the producer's (:attr:`KafkaProducer.pipeline`)."""
    pipeline.open_topic(topic)
    n = len(values)
    if n == 0:
        return BatchSendFuture([], 0)
    raw_headers = None if headers is None else _column(headers, n, "headers")
    values, null_values = _bytes_column(values, pipeline.value_serializer, "value", topic, raw_headers)
    key_column, null_keys = None, True
    if keys is not None:
        key_column, null_keys = _bytes_column(_column(keys, n, "keys"), pipeline.key_serializer, "key", topic,
                                              raw_headers)
    if null_values and (key_column is None or (null_keys and
                                               any(k is None and v is None for k, v in zip(key_column, values)))):
        raise errors.IllegalArgumentError("a record needs a key or a value")
    header_column = None
    header_sizes: List[int] = []
    if headers is not None:
        # Checked and sized in one pass (headers=[] counts as none).
        header_column = []
        for h in raw_headers:  # type: ignore[union-attr]
            checked, extra, _ = (None, 0, -1) if h is None else check_headers_sized(h)
            header_column.append(checked)
            header_sizes.append(extra)
    if timestamps is None:
        now = int(time.time() * 1000)
        stamps: List[int] = list(repeat(now, n))
    else:
        stamps = [check_timestamp(t) for t in _column(timestamps, n, "timestamps")]

    sizes = estimate_record_sizes(key_column, values)
    if header_sizes:
        sizes = list(map(add, sizes, header_sizes))
    pipeline.check_sizes(sizes)

    started = time.monotonic()
    all_parts, available = pipeline.partitions(topic)
    records: QueuedRecords
    if key_column is None and (header_column is None or not any(header_column)):
        records = ValueColumns(stamps, values)  # a batch keeps these as columns: no tuple per record
    else:
        records = list(zip(stamps, key_column if key_column is not None else repeat(None, n), values,
                           header_column if header_column is not None else repeat(None, n)))
    runs = pipeline.partition_runs(topic, partition, key_column, sizes, all_parts, available)
    placed: List[Tuple[ProduceResult, int, int]] = []
    full = False
    for part, indices in runs:
        tp = pipeline.tp_to_send(topic, part)
        if indices is None:
            run, run_sizes = records, sizes
        elif isinstance(indices, slice):
            run, run_sizes = records[indices], sizes[indices]
        else:
            run = records.take(indices) if isinstance(records, ValueColumns) else list(map(records.__getitem__, indices))
            run_sizes = list(map(sizes.__getitem__, indices))
        left = pipeline.max_block - (time.monotonic() - started)
        _, filled = pipeline.accumulator.append_many(tp, run, run_sizes, left if left > 0 else 0.0, placed)
        full = full or filled
    pipeline.runs_queued(placed, full)
    return BatchSendFuture(placed, n)
