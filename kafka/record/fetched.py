"""Rows of one partition's Fetch answer: the record decoding the consumers share.

Sans-IO: bytes in, rows out. :func:`batch_chunks` turns one batch (v2, or a
v0/v1 message set entry) into lists of records at or after a position, a
chunk at a time; :func:`partition_chunks` does it for every batch of a
partition's answer, leaving out what a reader never sees (control batches,
and with ``read_committed`` the aborted transactions, by
:func:`kafka.record.aborted.batch_filter`). Rows are tuples of the caller's
class in the layout of :data:`kafka.record.rows.ROW_FIELDS`;
:func:`record_row` builds one from a decoded
:class:`~kafka.record.record.Record` (after deserializing, e.g.).

The synchronous consumer's fetcher (:mod:`kafka.consumer.fetcher`) and the
asyncio consumer (:mod:`kafka.aio.fetcher`) both read records through here.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, List, Optional, Tuple

from kafka.errors import CorruptRecordError, RecordTooLargeError
from kafka.record.aborted import batch_filter
from kafka.record.batch import RecordBatch
from kafka.record.memory_records import MemoryRecords
from kafka.record.record import Record
from kafka.record.rows import OFFSET

__all__ = ["LARGEST_OFFSET", "offset_overflow", "record_row", "batch_chunks", "partition_chunks"]

#: The largest offset a record may have (2**63 - 1).
LARGEST_OFFSET = 2 ** 63 - 1

_RECORD_OFFSET = Record._fields.index("offset")
_new_row = tuple.__new__

#: One chunk of rows and the offset a reader's position moves to once it took them all.
Chunk = Tuple[List[Any], int]


def offset_overflow(topic: str, partition: int, base_offset: int) -> CorruptRecordError:
    """The error for a batch whose records reach past :data:`LARGEST_OFFSET`."""
    return CorruptRecordError("the record batch of %s-%d at offset %d has offsets past the largest one (2**63 - 1)"
                              % (topic, partition, base_offset))


def record_row(row_cls: type, prefix: Tuple[Any, Any, Any], record: Any, key: Any, value: Any) -> Any:
    """A ``row_cls`` row (layout :data:`~kafka.record.rows.ROW_FIELDS`) of ``record`` carrying ``key`` and ``value``.

    ``prefix`` is ``(topic, partition, leader epoch)``; the sizes are those
    of the record's own (serialized) key, value and headers.
    """
    offset, timestamp, timestamp_type, raw_key, raw_value, headers = record
    key_size = len(raw_key) if raw_key is not None else -1
    value_size = len(raw_value) if raw_value is not None else -1
    header_size = sum(len(k.encode("utf-8")) + (len(v) if v is not None else 0)
                      for k, v in headers) if headers else -1
    return _new_row(row_cls, (prefix[0], prefix[1], prefix[2], offset, timestamp, timestamp_type, key, value,
                              headers, None, key_size, value_size, header_size))


def batch_chunks(batch: Any, position: int, next_offset: int, chunk_size: int, row_cls: Optional[type] = None,
                 prefix: Tuple[Any, Any, Any] = ("", -1, -1)) -> Tuple[int, Iterator[Chunk]]:
    """``(bytes decompressed, chunks)`` of a data batch's records at or after ``position``.

    Each chunk is ``(records, offset after them)``: rows of ``row_cls``
    (``prefix`` is ``(topic, partition, leader epoch)``), or
    :class:`~kafka.record.record.Record` objects without ``row_cls``. A v2
    batch is decoded ``chunk_size`` records at a time, so only the records
    about to be used exist as objects; a batch left empty by compaction gives
    one empty chunk, which moves the position past it. The first count is the
    size of the records after decompression (0 for an uncompressed batch).
    """
    at = OFFSET if row_cls is not None else _RECORD_OFFSET
    if isinstance(batch, RecordBatch):
        reader = batch.row_reader(row_cls, prefix) if row_cls is not None else batch.row_reader()
        size = reader.body_size if batch.compression_type else 0
        return size, _v2_chunks(batch, reader, at, position, next_offset, chunk_size, prefix)
    records = batch.records()
    size = batch.decompressed_size if batch.compression_type else 0  # a v0/v1 wrapper
    if row_cls is not None:
        records = [record_row(row_cls, prefix, r, r.key, r.value) for r in records]
    if records and records[0][at] < position:
        records = [r for r in records if r[at] >= position]
    return size, iter(((records, next_offset),))


def _v2_chunks(batch: Any, reader: Any, at: int, position: int, next_offset: int, chunk_size: int,
               prefix: Tuple[Any, Any, Any]) -> Iterator[Chunk]:
    while True:
        rows = reader.take(chunk_size)
        if rows and rows[-1][at] >= LARGEST_OFFSET:  # a record's offset delta beyond the header's
            raise offset_overflow(prefix[0], prefix[1], batch.base_offset)
        end = rows[-1][at] + 1 if reader.remaining else next_offset
        if rows and rows[0][at] < position:
            rows = [r for r in rows if r[at] >= position]
        yield rows, end
        if not reader.remaining:
            return


def partition_chunks(records: bytes, position: int, row_cls: type, prefix: Tuple[Any, Any, Any], *,
                     chunk_size: int = 4096, read_committed: bool = False,
                     aborted: Optional[Iterable[Any]] = None, check_crcs: bool = True) -> Iterator[Chunk]:
    """The rows at or after ``position`` of one partition's Fetch answer, chunk by chunk.

    A batch a reader leaves out (a control batch, an aborted transaction's)
    gives ``([], offset after it)``, so the position moves past it. Raises
    :class:`~kafka.errors.RecordTooLargeError` when the answer holds only
    part of the batch at ``position`` (``max_partition_fetch_bytes`` is
    smaller than the batch), :class:`~kafka.errors.CorruptRecordError` on
    malformed bytes (after the rows before them). ``prefix[2]`` is replaced
    by each batch's leader epoch.
    """
    skips = batch_filter(read_committed, aborted)
    blob = MemoryRecords(records, check_crcs=check_crcs)
    topic, partition = prefix[0], prefix[1]
    moved = False
    for batch in blob:
        next_offset = batch.next_offset
        if next_offset > LARGEST_OFFSET:
            raise offset_overflow(topic, partition, batch.base_offset)
        skip = skips(batch)  # every batch, those before the position too: see kafka.record.aborted
        if next_offset <= position:
            continue
        moved = True
        if skip:
            yield [], next_offset
            continue
        epoch = getattr(batch, "partition_leader_epoch", -1)
        _size, chunks = batch_chunks(batch, position, next_offset, chunk_size, row_cls, (topic, partition, epoch))
        yield from chunks
    if blob.has_partial and not moved:
        raise RecordTooLargeError("a record batch of %s-%d at offset %d is larger than max_partition_fetch_bytes"
                                  % (topic, partition, position))
