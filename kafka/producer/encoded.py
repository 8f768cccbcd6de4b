"""Sending records whose v2 bytes the caller encodes: :func:`send_encoded`.

:func:`~kafka.producer.bulk.send_batch` takes Python bytes per record and
the sender encodes them, one record at a time, when a batch is sent. A
caller holding records as columns (the Spark writer, with Arrow buffers) can
encode whole batches' records at once instead. :func:`send_encoded`
partitions the records and cuts them into batches exactly as
``send_batch`` does (from the same size estimates), asks the caller for the
record bytes of all the batches at once, and queues them as :class:`EncodedBatch`
objects. The sender adds the header (producer id, epoch and sequence are
set when a batch is drained), compresses and computes the CRC as for any
batch, so retries, idempotence, transactions, per-partition ordering and
errors are unchanged.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence, Tuple

from kafka.producer.batch import BATCH_OVERHEAD, ProducerBatch
from kafka.producer.bulk import BatchSendFuture
from kafka.producer.bulk_runs import fill, prefix_sums
from kafka.producer.future import ProduceResult
from kafka.producer.partitioner import DefaultPartitioner
from kafka.record.batch import RecordBatch
from kafka.record.prebuilt import build_batch
from kafka.structs import TopicPartition

if TYPE_CHECKING:
    from kafka.producer.kafka import KafkaProducer
    from kafka.producer.pipeline import Runs

#: The records to encode, in order: their indices, or None for all of them as given.
Rows = Optional[List[int]]
#: ``encode(rows, counts)``: the record bytes of consecutive batches holding
#: ``counts[0]``, ``counts[1]``, ... of ``rows``, each with offset deltas from
#: 0 and timestamp deltas of 0 (every record has the call's timestamp).
Encoder = Callable[[Rows, List[int]], List[bytes]]
#: ``key_groups(n)``: ``[(partition index, the records' indices in order)]``
#: by the murmur2 of their keys among ``n`` partitions (as
#: :func:`~kafka.producer.bulk_runs.group_by_partition` of
#: :func:`~kafka.murmur2.murmur2_partitions`).
KeyGroups = Callable[[int], List[Tuple[int, List[int]]]]


class EncodedBatch(ProducerBatch):
    """A batch whose records arrived encoded; it takes no more records."""

    __slots__ = ("body", "count", "timestamp")

    def __init__(self, tp: TopicPartition, created: float, body: bytes, count: int, timestamp: int) -> None:
        super().__init__(tp, created, BATCH_OVERHEAD + len(body))
        self.size = self.max_size  # full: appends open a new batch
        self.body = body
        self.count = count
        self.timestamp = timestamp

    @property
    def record_count(self) -> int:
        """Records in the batch."""
        return self.count

    def try_append(self, *args: object, **kwargs: object) -> None:
        """Never: the batch's bytes are fixed."""
        return None

    def encode(self, compression_type: int) -> bytes:
        """The v2 batch bytes (built once; reused by retries)."""
        if self.encoded is None:
            self.encoded = build_batch(
                self.body, self.count, self.timestamp, self.timestamp, compression_type=compression_type,
                is_transactional=self.transactional, producer_id=self.producer_id,
                producer_epoch=self.producer_epoch, base_sequence=self.base_sequence)
        return self.encoded

    def split(self) -> Tuple[ProducerBatch, ProducerBatch]:
        """Two batches of this one's first and last records, as :meth:`ProducerBatch.split` makes them.

        For a batch the broker refused as too large (rare: the topic's
        ``max.message.bytes`` is below ``batch_size``). The records are read
        back from the encoded body into a batch of records, which is split;
        the halves are encoded again when sent, with offset deltas from 0.
        """
        records = ProducerBatch(self.topic_partition, self.created, self.max_size)
        decoded = RecordBatch(build_batch(self.body, self.count, self.timestamp, self.timestamp))
        records.records = [(r.timestamp, r.key, r.value, r.headers or None) for r in decoded]
        records.stamps = records.values = None
        for name in ("result", "size", "drained", "base_sequence", "producer_id", "producer_epoch", "memory",
                     "transactional"):
            setattr(records, name, getattr(self, name))
        self.memory = 0
        self.body, self.encoded = b"", None
        return records.split()

    def done(self, base_offset: int = -1, log_append_time: int = -1, log_start_offset: int = -1,
             error: Optional[BaseException] = None) -> None:
        """Complete every record of the batch."""
        self.body = b""
        super().done(base_offset, log_append_time, log_start_offset, error)


def batch_counts(sizes: Sequence[int], batch_size: int, start: int = 0, stop: Optional[int] = None,
                 sums: Optional[Sequence[int]] = None) -> List[int]:
    """Records per batch when ``sizes[start:stop]`` fill new batches in order, as the accumulator fills them.

    ``sums``: the :func:`~kafka.producer.bulk_runs.prefix_sums` of all ``sizes``, if already known.
    """
    if sums is None:
        sums = prefix_sums(sizes)
    counts = []
    i, n = start, len(sizes) if stop is None else stop
    while i < n:
        room = max(batch_size, sizes[i] + BATCH_OVERHEAD) - BATCH_OVERHEAD
        j = min(fill(sums, i, room), n)
        counts.append(j - i)
        i = j
    return counts


def send_encoded(producer: "KafkaProducer", topic: str, count: int, sizes: List[int], encode: Encoder,
                 partition: Optional[int] = None, keys: Optional[Callable[[], List[Optional[bytes]]]] = None,
                 key_groups: Optional[KeyGroups] = None, largest: Optional[int] = None) -> BatchSendFuture:
    """Queue ``count`` records of ``topic`` that ``encode`` turns into bytes; one future for all.

    ``sizes`` are the records' :func:`~kafka.record.batch.estimate_record_size`
    values. Records are partitioned as by :meth:`KafkaProducer.send_batch`:
    all to ``partition`` when given, else by key (``keys()`` gives the keys,
    None for records without; ``key_groups``, when given, does the default
    partitioner's murmur2 grouping of keys none of which is null, and is
    used only if that partitioner is the producer's), else a batch's worth
    at a time to the sticky partition. Sizes are checked against
    ``max_request_size`` and ``buffer_memory`` as ``send_batch`` checks them
    (``largest``: the largest of ``sizes``, if the caller knows it).
    The caller checks the records themselves (bytes, a key or a value each).
    The records go through the producer's :attr:`~KafkaProducer.pipeline`
    as ``send_batch``'s do.
    """
    pipeline = producer.pipeline
    pipeline.open_topic(topic)
    if count == 0:
        return BatchSendFuture([], 0)
    pipeline.check_sizes(sizes, largest)
    now = int(time.time() * 1000)
    started = time.monotonic()
    all_parts, available = pipeline.partitions(topic)
    sums = prefix_sums(sizes)
    runs: Runs
    if partition is None and key_groups is not None and type(pipeline.partitioner) is DefaultPartitioner:
        runs = [(all_parts[index], rows) for index, rows in key_groups(len(all_parts))]
    else:
        runs = pipeline.partition_runs(topic, partition, None if keys is None else keys(), sizes, all_parts,
                                       available, sums)
    batch_size = pipeline.batch_size
    plan: List[Tuple[TopicPartition, int]] = []  # (partition, how many batches), in the order encoded
    counts: List[int] = []
    # Whether the runs are the records in their given order (sticky runs follow one another).
    in_order = all(not isinstance(rows, list) for _, rows in runs)
    for part, rows in runs:
        tp = pipeline.tp_to_send(topic, part)
        if rows is None:
            run_counts = batch_counts(sizes, batch_size, sums=sums)
        elif isinstance(rows, slice):
            run_counts = batch_counts(sizes, batch_size, rows.start, rows.stop, sums)
        else:
            run_counts = batch_counts(list(map(sizes.__getitem__, rows)), batch_size)
        plan.append((tp, len(run_counts)))
        counts.extend(run_counts)
    order: Rows = None
    if not in_order:
        order = []
        for _, rows in runs:
            order.extend(range(count) if rows is None else range(rows.start, rows.stop)
                         if isinstance(rows, slice) else rows)
    # One call encodes every batch: numpy's fixed cost per call is paid once.
    bodies = encode(order, counts)
    created = time.monotonic()
    placed: List[Tuple[ProduceResult, int, int]] = []
    first = 0
    for tp, batch_count in plan:
        batches = [EncodedBatch(tp, created, bodies[i], counts[i], now) for i in range(first, first + batch_count)]
        first += batch_count
        left = pipeline.max_block - (time.monotonic() - started)
        pipeline.accumulator.append_batches(tp, batches, left if left > 0 else 0.0)
        placed.extend((batch.result, 0, batch.count) for batch in batches)
    pipeline.runs_queued(placed, False)  # every batch here is new
    return BatchSendFuture(placed, count)
