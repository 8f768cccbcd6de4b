"""Sequences of batches as found in Fetch and Produce ``records`` fields.

:class:`MemoryRecords` reads a blob holding batches of any message format
one after the other.  A Fetch response may end with a batch cut short by
the broker's size limit; that is normal and is not an error: iteration stops
before it and :attr:`MemoryRecords.partial_bytes` tells how many bytes it had.

:class:`MemoryRecordsBuilder` writes one batch in the requested format.
"""

from __future__ import annotations

import struct
from typing import Iterator, List, Optional, Sequence, Tuple, Union

from kafka.errors import CorruptRecordError, IllegalArgumentError
from kafka.record import codecs
from kafka.record.batch import MIN_BATCH_LENGTH, RecordBatch, RecordBatchBuilder
from kafka.record.legacy import MIN_SIZE, LegacyRecordBatch, LegacyRecordBatchBuilder
from kafka.record.record import AnyRecord, BytesLike, Header, TimestampType

__all__ = ["MemoryRecords", "MemoryRecordsBuilder", "Batch"]

#: Either kind of batch that :class:`MemoryRecords` yields.
Batch = Union[RecordBatch, LegacyRecordBatch]

_SIZE = struct.Struct(">i")
_OFFSET = struct.Struct(">q")
# Where a v2 batch header keeps its last offset delta (after base offset,
# length, leader epoch, magic, crc and attributes).
_LAST_OFFSET_DELTA_AT = 23
_LOG_OVERHEAD = 12
# Bytes needed to see a batch's magic: offset, length, then 4 bytes of
# leader epoch (v2) or crc (v0/v1).
_HEADER_UP_TO_MAGIC = 17


class MemoryRecords:
    """The batches in a ``records`` blob, of any message format.

    Construction only walks the batch boundaries (no record is decoded);
    iterating yields :class:`~kafka.record.batch.RecordBatch` (v2) and
    :class:`~kafka.record.legacy.LegacyRecordBatch` (v0/v1) objects in order.

    * A trailing incomplete batch is not yielded; ``has_partial`` and
      ``partial_bytes`` report it.
    * A batch whose header is present but malformed (impossible length,
      unknown magic) raises :class:`~kafka.errors.CorruptRecordError` when
      iteration reaches it, after the good batches before it.
    * With ``check_crcs=True`` every batch's checksum is verified before it is
      yielded (:class:`~kafka.errors.ChecksumError` on a mismatch).
    """

    __slots__ = (
        "_buf",
        "_bounds",
        "_error",
        "_check_crcs",
        "_max_output",
        "partial_bytes",
        "valid_bytes",
    )

    def __init__(
        self,
        data: BytesLike,
        *,
        check_crcs: bool = False,
        max_output: int = codecs.DEFAULT_MAX_OUTPUT,
    ) -> None:
        buf = data if type(data) is bytes else bytes(data)
        self._buf = buf
        self._check_crcs = check_crcs
        self._max_output = max_output
        self._error: Optional[CorruptRecordError] = None
        bounds: List[Tuple[int, int]] = []
        n = len(buf)
        pos = 0
        #: Bytes of the trailing incomplete batch (0 if none).
        self.partial_bytes = 0
        while pos < n:
            remaining = n - pos
            if remaining < _HEADER_UP_TO_MAGIC:
                self.partial_bytes = remaining
                break
            length = _SIZE.unpack_from(buf, pos + 8)[0]
            if length < MIN_SIZE[0]:
                self._error = CorruptRecordError(
                    "batch at byte %d has invalid length %d" % (pos, length)
                )
                break
            if _LOG_OVERHEAD + length > remaining:
                self.partial_bytes = remaining
                break
            magic = buf[pos + 16]
            if magic == 2:
                minimum = MIN_BATCH_LENGTH
            elif magic in (0, 1):
                minimum = MIN_SIZE[magic]
            else:
                self._error = CorruptRecordError(
                    "batch at byte %d has unknown magic %d" % (pos, magic)
                )
                break
            if length < minimum:
                self._error = CorruptRecordError(
                    "batch at byte %d has invalid length %d for magic %d" % (pos, length, magic)
                )
                break
            bounds.append((pos, magic))
            pos += _LOG_OVERHEAD + length
        self._bounds = bounds
        #: Bytes of complete batches before any partial or corrupt one.
        self.valid_bytes = pos

    @property
    def has_partial(self) -> bool:
        """True if the data ends with an incomplete batch."""
        return self.partial_bytes > 0

    @property
    def next_offset(self) -> Optional[int]:
        """The offset that follows the last complete batch.

        ``None`` when there is no complete batch, or when a malformed batch
        follows the good ones (reading stops there, so nothing after it is
        known).  Read from the batch headers alone: no record is decoded.
        """
        if self._error is not None or not self._bounds:
            return None
        pos, magic = self._bounds[-1]
        last: int = _OFFSET.unpack_from(self._buf, pos)[0]
        if magic == 2:
            last += _SIZE.unpack_from(self._buf, pos + _LAST_OFFSET_DELTA_AT)[0]
        # A v0/v1 entry's offset is its last record's, a compressed wrapper's too.
        return last + 1

    @property
    def batch_count(self) -> int:
        """Number of complete batches found before any corrupt one."""
        return len(self._bounds)

    def size_in_bytes(self) -> int:
        """Length of the whole blob."""
        return len(self._buf)

    def __iter__(self) -> Iterator[Batch]:
        return self.batches()

    def batches(self) -> Iterator[Batch]:
        """Yield every complete batch, then raise a pending corruption error."""
        buf = self._buf
        check = self._check_crcs
        max_output = self._max_output
        for pos, magic in self._bounds:
            if magic == 2:
                batch: Batch = RecordBatch(buf, pos, max_output=max_output)
            else:
                batch = LegacyRecordBatch(buf, pos, max_output=max_output)
            if check:
                batch.ensure_valid()
            yield batch
        if self._error is not None:
            raise self._error

    def records(self) -> Iterator[AnyRecord]:
        """Yield the records of every batch, control records included."""
        for batch in self.batches():
            yield from batch.records()

    def __repr__(self) -> str:
        return "MemoryRecords(%d bytes, %d batches, %d partial bytes)" % (
            len(self._buf),
            len(self._bounds),
            self.partial_bytes,
        )


class MemoryRecordsBuilder:
    """Builds one batch in message format ``magic`` (0, 1 or 2).

    A facade over :class:`~kafka.record.batch.RecordBatchBuilder` (v2) and
    :class:`~kafka.record.legacy.LegacyRecordBatchBuilder` (v0/v1).  The
    producer-related options apply to v2 only.
    """

    __slots__ = ("_builder", "_magic")

    def __init__(
        self,
        magic: int = 2,
        compression_type: codecs.Codec = codecs.NONE,
        *,
        compression_level: Optional[int] = None,
        batch_size: int = 0x7FFFFFFF,
        base_offset: int = 0,
        timestamp_type: int = TimestampType.CREATE_TIME,
        is_transactional: bool = False,
        producer_id: int = -1,
        producer_epoch: int = -1,
        base_sequence: int = -1,
        partition_leader_epoch: int = -1,
    ) -> None:
        self._magic = magic
        if magic == 2:
            self._builder: Union[RecordBatchBuilder, LegacyRecordBatchBuilder] = RecordBatchBuilder(
                compression_type=compression_type,
                compression_level=compression_level,
                is_transactional=is_transactional,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                base_sequence=base_sequence,
                partition_leader_epoch=partition_leader_epoch,
                base_offset=base_offset,
                timestamp_type=timestamp_type,
                batch_size=batch_size,
            )
        elif magic in (0, 1):
            if is_transactional or producer_id != -1:
                raise IllegalArgumentError(
                    "idempotent and transactional producing needs message format v2"
                )
            self._builder = LegacyRecordBatchBuilder(
                magic,
                compression_type,
                compression_level=compression_level,
                timestamp_type=timestamp_type,
                batch_size=batch_size,
            )
        else:
            raise IllegalArgumentError("unknown message format %r" % (magic,))

    @property
    def magic(self) -> int:
        """The message format being written."""
        return self._magic

    @property
    def record_count(self) -> int:
        """Number of records appended so far."""
        return self._builder.record_count

    @property
    def compression_type(self) -> int:
        """The codec id of the batch."""
        return self._builder.compression_type

    def size_in_bytes(self) -> int:
        """Uncompressed size of the batch so far."""
        return self._builder.size_in_bytes()

    def append(
        self,
        offset: int,
        timestamp: Optional[int],
        key: Optional[bytes],
        value: Optional[bytes],
        headers: Optional[Sequence[Header]] = None,
    ) -> Optional[int]:
        """Add a record; return the bytes it added, ``None`` if the batch is full."""
        return self._builder.append(offset, timestamp, key, value, headers)

    def build(self) -> bytes:
        """Return the batch bytes."""
        return self._builder.build()
