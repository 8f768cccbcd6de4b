"""Record batch format v2 (magic 2, KIP-98): reader and builder.

Batch layout (big-endian, 61-byte header)::

    offset  size  field
    0       8     baseOffset            int64
    8       4     batchLength           int32  bytes after this field
    12      4     partitionLeaderEpoch  int32
    16      1     magic                 int8   = 2
    17      4     crc                   uint32 CRC-32C of bytes 21..end
    21      2     attributes            int16  bits 0-2 codec, 3 timestamp
                                               type, 4 transactional,
                                               5 control, 6 delete horizon
    23      4     lastOffsetDelta       int32
    27      8     baseTimestamp         int64
    35      8     maxTimestamp          int64
    43      8     producerId            int64
    51      2     producerEpoch         int16
    53      4     baseSequence          int32
    57      4     recordCount           int32
    61      ...   records, compressed as a whole when codec != 0

Record layout (varints are zig-zag, see :mod:`kafka.record.varint`)::

    length varint | attributes int8 | timestampDelta varlong |
    offsetDelta varint | keyLength varint (-1 = null) | key |
    valueLength varint (-1 = null) | value | headerCount varint |
    headers: keyLength varint | key (UTF-8) | valueLength varint (-1 = null) | value

With the log-append-time attribute set, every record's timestamp is the
batch's maxTimestamp.
"""

from __future__ import annotations

import struct
import time
from itertools import repeat
from typing import Any, Iterator, List, Optional, Sequence, Tuple, cast

from kafka import fast_paths
from kafka.errors import ChecksumError, CorruptRecordError, IllegalArgumentError
from kafka.record import codecs
from kafka.record.crc import crc32c
from kafka.record.record import (
    AnyRecord,
    BytesLike,
    Header,
    TimestampType,
    make_control_record,
)
from kafka.record.record_encoding import (
    Record,
    append_records,
    append_values,
    encode_general,
    join_records,
    new_bytes_builder,
    now_ms,
)
from kafka.record.record_reader import RecordReader
from kafka.record.value_columns import encode_values
from kafka.record.varint import VARINT_TABLE, VARINT_TABLE_SIZE, encode_varint

__all__ = ["RecordBatch", "RecordBatchBuilder", "HEADER_SIZE", "MIN_RECORD_SIZE", "RECORD_OVERHEAD",
           "estimate_record_size", "estimate_record_sizes"]

_HEADER = struct.Struct(">qiibIhiqqqhii")
# The header in two: up to the crc, then the fields the crc covers.
_HEADER_HEAD = struct.Struct(">qiibI")
_HEADER_TAIL = struct.Struct(">hiqqqhii")
#: Size of the v2 batch header, up to and including the record count.
HEADER_SIZE = _HEADER.size  # 61
LOG_OVERHEAD = 12  # baseOffset + batchLength
CRC_OFFSET = 17
ATTRIBUTES_OFFSET = 21
#: Smallest legal batchLength: the header after the length field.
MIN_BATCH_LENGTH = HEADER_SIZE - LOG_OVERHEAD

CODEC_MASK = 0x07
TIMESTAMP_TYPE_MASK = 0x08
TRANSACTIONAL_MASK = 0x10
CONTROL_MASK = 0x20
DELETE_HORIZON_MASK = 0x40

#: A record needs at least a length byte plus six one-byte fields.
MIN_RECORD_SIZE = 7

#: Bytes a record adds to a v2 batch besides its key, value and headers. A
#: record alone in its batch has one-byte deltas, so its length (5 at most),
#: attributes, deltas, key and value lengths (5 each at most) and header
#: count stay below this.
RECORD_OVERHEAD = 21


def estimate_record_size(key: Optional[bytes], value: Optional[bytes],
                         headers: Optional[Sequence[Header]] = None) -> int:
    """Estimated bytes one record adds to an uncompressed v2 batch.

    An upper bound for a record alone in its batch; the one estimate the
    producer sizes batches, reserves memory and checks ``max_request_size``
    with. Header keys count three bytes a character, their longest UTF-8
    encoding, so they need not be encoded here.
    """
    size = RECORD_OVERHEAD + (len(key) if key else 0) + (len(value) if value else 0)
    if headers:
        for k, v in headers:
            size += 10 + len(k) * 3 + (len(v) if v else 0)
    return size


def estimate_record_sizes(keys: Optional[Sequence[Optional[bytes]]], values: Sequence[Optional[bytes]],
                          headers: Optional[Sequence[Optional[Sequence[Header]]]] = None) -> List[int]:
    """:func:`estimate_record_size` of each record given as columns (``keys`` and ``headers`` may be None).

    A missing key or value counts as empty.
    """
    if headers is not None:
        return [estimate_record_size(k, v, h)
                for k, v, h in zip(keys if keys is not None else [None] * len(values), values, headers)]
    # One comprehension testing each item for None: on CPython, ``None in
    # column`` alone costs as much (40 ns an item), and chaining map(add, ...)
    # over the columns is slower still, on PyPy three times slower.
    o = RECORD_OVERHEAD
    if keys is None:
        return [o + len(v) if v is not None else o for v in values]
    return [o + (len(k) if k is not None else 0) + (len(v) if v is not None else 0) for k, v in zip(keys, values)]


class RecordBatch:
    """A record batch of message format v2, read from bytes.

    ``RecordBatch(data, offset)`` parses the 61-byte header at ``offset``;
    records are decoded (and decompressed) on first iteration.  Header
    fields are plain attributes:

    ``base_offset``, ``batch_length``, ``partition_leader_epoch``, ``magic``,
    ``crc``, ``attributes``, ``last_offset_delta``, ``base_timestamp``,
    ``max_timestamp``, ``producer_id``, ``producer_epoch``,
    ``base_sequence``, ``record_count`` (as the header states it), and the
    attribute bits ``compression_type``, ``timestamp_type``,
    ``is_transactional``, ``is_control``, ``has_delete_horizon``.

    Iterating yields :class:`~kafka.record.record.Record` objects, or
    :class:`~kafka.record.record.ControlRecord` objects for a control batch.
    Malformed data raises :class:`~kafka.errors.CorruptRecordError`.
    """

    __slots__ = (
        "base_offset",
        "batch_length",
        "partition_leader_epoch",
        "magic",
        "crc",
        "attributes",
        "last_offset_delta",
        "base_timestamp",
        "max_timestamp",
        "producer_id",
        "producer_epoch",
        "base_sequence",
        "record_count",
        "compression_type",
        "timestamp_type",
        "is_transactional",
        "is_control",
        "has_delete_horizon",
        "_buf",
        "_start",
        "_end",
        "_max_output",
        "_records",
    )
    # Set from struct.unpack_from, which mypy types as Any.
    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    crc: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    record_count: int

    def __init__(
        self,
        data: BytesLike,
        offset: int = 0,
        *,
        max_output: int = codecs.DEFAULT_MAX_OUTPUT,
    ) -> None:
        buf = data if type(data) is bytes else bytes(data)
        if offset < 0 or len(buf) - offset < HEADER_SIZE:
            raise CorruptRecordError("record batch shorter than its header")
        (
            self.base_offset,
            length,
            self.partition_leader_epoch,
            magic,
            self.crc,
            attrs,
            self.last_offset_delta,
            self.base_timestamp,
            self.max_timestamp,
            self.producer_id,
            self.producer_epoch,
            self.base_sequence,
            self.record_count,
        ) = _HEADER.unpack_from(buf, offset)
        if magic != 2:
            raise CorruptRecordError("not a v2 record batch (magic %d)" % magic)
        end = offset + LOG_OVERHEAD + length
        if length < MIN_BATCH_LENGTH or end > len(buf):
            raise CorruptRecordError("invalid record batch length %d" % length)
        self.batch_length = length
        self.magic = 2
        self.attributes = attrs
        self.compression_type = attrs & CODEC_MASK
        self.timestamp_type = 1 if attrs & TIMESTAMP_TYPE_MASK else 0
        self.is_transactional = bool(attrs & TRANSACTIONAL_MASK)
        self.is_control = bool(attrs & CONTROL_MASK)
        self.has_delete_horizon = bool(attrs & DELETE_HORIZON_MASK)
        self._buf = buf
        self._start = offset
        self._end = end
        self._max_output = max_output
        self._records: Optional[List[AnyRecord]] = None

    # -- derived header values ------------------------------------------------

    @property
    def last_offset(self) -> int:
        """Offset of the last record the batch was written with."""
        return self.base_offset + self.last_offset_delta

    @property
    def next_offset(self) -> int:
        """The offset following this batch."""
        return self.base_offset + self.last_offset_delta + 1

    @property
    def first_timestamp(self) -> int:
        """Alias of ``base_timestamp`` (its name before KIP-534)."""
        return self.base_timestamp

    @property
    def is_control_batch(self) -> bool:
        """Alias of ``is_control``."""
        return self.is_control

    @property
    def delete_horizon_ms(self) -> Optional[int]:
        """The compaction delete horizon (``base_timestamp``) if the bit is set."""
        return self.base_timestamp if self.has_delete_horizon else None

    @property
    def size_in_bytes(self) -> int:
        """Bytes the batch occupies, header included."""
        return self.batch_length + LOG_OVERHEAD

    def raw_bytes(self) -> bytes:
        """The batch's bytes exactly as read."""
        return self._buf[self._start : self._end]

    # -- checksum ---------------------------------------------------------------

    def compute_crc(self) -> int:
        """CRC-32C of the bytes the ``crc`` field covers."""
        # Released at once: PyPy (7.3) keeps a view handed to a C extension,
        # and the whole buffer under it, alive until the view is released.
        with memoryview(self._buf)[self._start + ATTRIBUTES_OFFSET : self._end] as view:
            return crc32c(view)

    def validate_crc(self) -> bool:
        """True if the stored ``crc`` matches the batch's bytes."""
        return self.compute_crc() == self.crc

    def ensure_valid(self) -> None:
        """Raise :class:`~kafka.errors.ChecksumError` if the CRC does not match."""
        actual = self.compute_crc()
        if actual != self.crc:
            raise ChecksumError(
                "record batch at offset %d: stored CRC %08x, computed %08x"
                % (self.base_offset, self.crc, actual)
            )

    # -- records ------------------------------------------------------------------

    def records(self) -> List[AnyRecord]:
        """All records of the batch as a list (decoded once, then cached)."""
        records = self._records
        if records is None:
            records = self._records = self._decode()
        return records

    def __iter__(self) -> Iterator[AnyRecord]:
        return iter(self.records())

    def rows(self, row_cls: type, prefix: Tuple[Any, Any, Any]) -> List[Any]:
        """The records as ``row_cls`` tuples, built straight from the bytes.

        Each row is ``(*prefix, offset, timestamp, timestamp_type, key,
        value, headers, None, key_size, value_size, header_size)`` (sizes are
        -1 for a null key or value, and for no headers): the layout of the consumer's records, which
        this saves building twice. Control batches have no rows; read them
        with :meth:`records`.
        """
        reader = self.row_reader(row_cls, prefix)
        return reader.take(reader.remaining)

    def row_reader(self, row_cls: Optional[type] = None, prefix: Tuple[Any, ...] = ()) -> RecordReader:
        """A :class:`~kafka.record.record_reader.RecordReader` of the batch's records.

        It builds them a chunk at a time (``reader.take(n)``), so that only
        the records about to be used exist as objects: the rows
        :meth:`rows` returns with ``row_cls`` and a 3-item ``prefix``,
        :class:`~kafka.record.record.Record` objects without.
        """
        if self.is_control:
            raise IllegalArgumentError("a control batch has no data rows")
        return self._reader(row_cls, prefix)

    def _decode(self) -> List[AnyRecord]:
        reader = self._reader(None, ())
        records = reader.take(reader.remaining)
        if self.is_control:
            return [make_control_record(r) for r in records]
        return cast(List[AnyRecord], records)

    def body(self) -> Tuple[bytes, int, int]:
        """``(buf, start, stop)``: the records' bytes are ``buf[start:stop]``, decompressed.

        An uncompressed batch gives the buffer it was read from (no copy).
        """
        codec = self.compression_type
        if codec:
            codecs.check_reader_codec(codec)
            # Released at once (see compute_crc): the codecs are C extensions.
            with memoryview(self._buf)[self._start + HEADER_SIZE : self._end] as view:
                buf = codecs.decompress(codec, view, magic=2, max_output=self._max_output)
            return buf, 0, len(buf)
        return self._buf, self._start + HEADER_SIZE, self._end

    def _reader(self, row_cls: Optional[type], prefix: Tuple[Any, ...]) -> RecordReader:
        count = self.record_count
        buf, pos, stop = self.body()
        if count < 0 or count * MIN_RECORD_SIZE > stop - pos:
            raise CorruptRecordError(
                "record count %d does not fit in %d bytes" % (count, stop - pos)
            )
        log_append = self.timestamp_type == TimestampType.LOG_APPEND_TIME
        return RecordReader(
            buf,
            pos,
            stop,
            count,
            self.base_offset,
            self.base_timestamp,
            self.max_timestamp if log_append else None,
            self.timestamp_type,
            row_cls,
            prefix,
        )

    def __repr__(self) -> str:
        return (
            "RecordBatch(base_offset=%d, last_offset=%d, records=%d, codec=%s, "
            "producer_id=%d, transactional=%s, control=%s)"
            % (
                self.base_offset,
                self.last_offset,
                self.record_count,
                codecs.codec_name(self.compression_type)
                if self.compression_type in (0, 1, 2, 3, 4)
                else str(self.compression_type),
                self.producer_id,
                self.is_transactional,
                self.is_control,
            )
        )


_join = b"".join


class RecordBatchBuilder:
    """Builds one v2 record batch.

    Append records with :meth:`append` (offsets strictly increasing), then
    call :meth:`build` for the batch's bytes.  ``batch_size`` caps the
    uncompressed size: once the batch holds a record, an append that would
    exceed it is refused (returns ``None``).

    The header fields are those of :class:`RecordBatch`.  ``timestamp_type``
    only sets the attribute bit; ``max_timestamp`` is the largest record
    timestamp, so for log-append-time batches pass that time as every
    record's timestamp.
    """

    __slots__ = (
        "_compression_type",
        "_compression_level",
        "_attributes",
        "_producer_id",
        "_producer_epoch",
        "_base_sequence",
        "_partition_leader_epoch",
        "_base_offset",
        "_batch_size",
        "_chunks",
        "_size",
        "_count",
        "_base_ts",
        "_max_ts",
        "_last_delta",
    )

    def __init__(
        self,
        *,
        compression_type: codecs.Codec = codecs.NONE,
        compression_level: Optional[int] = None,
        is_transactional: bool = False,
        is_control: bool = False,
        producer_id: int = -1,
        producer_epoch: int = -1,
        base_sequence: int = -1,
        partition_leader_epoch: int = -1,
        base_offset: int = 0,
        timestamp_type: int = TimestampType.CREATE_TIME,
        batch_size: int = 0x7FFFFFFF,
    ) -> None:
        self._compression_type = codecs.ensure_available(compression_type)
        self._compression_level = compression_level
        attrs = self._compression_type
        if timestamp_type == TimestampType.LOG_APPEND_TIME:
            attrs |= TIMESTAMP_TYPE_MASK
        if is_transactional:
            attrs |= TRANSACTIONAL_MASK
        if is_control:
            attrs |= CONTROL_MASK
        self._attributes = attrs
        try:  # fail now, not in build(), on a field out of its type's range
            _HEADER.pack(
                base_offset,
                0,
                partition_leader_epoch,
                2,
                0,
                attrs,
                0,
                0,
                0,
                producer_id,
                producer_epoch,
                base_sequence,
                0,
            )
        except struct.error as exc:
            raise IllegalArgumentError("record batch field out of range: %s" % exc) from None
        self._producer_id = producer_id
        self._producer_epoch = producer_epoch
        self._base_sequence = base_sequence
        self._partition_leader_epoch = partition_leader_epoch
        self._base_offset = base_offset
        self._batch_size = batch_size
        # The records' bytes, in pieces joined by build(); the header is made there.
        self._chunks: List[bytes] = []
        self._size = HEADER_SIZE
        self._count = 0
        self._base_ts: Optional[int] = None
        self._max_ts = -1
        self._last_delta = -1

    @property
    def record_count(self) -> int:
        """Number of records appended so far."""
        return self._count

    @property
    def compression_type(self) -> int:
        """The codec id of the batch."""
        return self._compression_type

    def size_in_bytes(self) -> int:
        """Uncompressed size of the batch built so far, header included."""
        return self._size

    def append(
        self,
        offset: int,
        timestamp: Optional[int],
        key: Optional[bytes],
        value: Optional[bytes],
        headers: Optional[Sequence[Header]] = None,
    ) -> Optional[int]:
        """Add a record; return the bytes it added, or ``None`` if the batch is full.

        ``offset`` is absolute (the batch's ``base_offset`` plus the record's
        delta); ``timestamp`` in milliseconds, ``None`` for now.  ``headers``
        is a sequence of ``(str, bytes | None)``.
        """
        delta = offset - self._base_offset
        if delta <= self._last_delta or delta > 0x7FFFFFFF:
            raise IllegalArgumentError(
                "offset %d is not above the previous one in the batch, or more "
                "than 2**31 - 1 past the base offset" % offset
            )
        if timestamp is None:
            timestamp = now_ms()
        base_ts = self._base_ts
        ts_delta = 0 if base_ts is None else timestamp - base_ts
        # Module globals are as cheap as locals here on CPython >= 3.11.
        if 0 <= ts_delta < VARINT_TABLE_SIZE:
            tsv = VARINT_TABLE[ts_delta]
        else:
            tsv = encode_varint(ts_delta)
        odv = VARINT_TABLE[delta] if delta < VARINT_TABLE_SIZE else encode_varint(delta)
        if key is None and not headers and type(value) is bytes:
            vlen = len(value)
            vv = VARINT_TABLE[vlen] if vlen < VARINT_TABLE_SIZE else encode_varint(vlen)
            size = 3 + len(tsv) + len(odv) + len(vv) + vlen
            record = _join(
                (
                    VARINT_TABLE[size] if size < VARINT_TABLE_SIZE else encode_varint(size),
                    b"\x00",
                    tsv,
                    odv,
                    b"\x01",
                    vv,
                    value,
                    b"\x00",
                )
            )
        else:
            record = encode_general(tsv, odv, key, value, headers)
        if self._count and self._size + len(record) > self._batch_size:
            return None
        self._chunks.append(record)
        self._size += len(record)
        self._count += 1
        self._last_delta = delta
        if base_ts is None:
            self._base_ts = self._max_ts = timestamp
        elif timestamp > self._max_ts:
            self._max_ts = timestamp
        return len(record)

    def extend(self, records: Sequence[Record]) -> int:
        """Append ``(timestamp, key, value, headers)`` records at the next offsets; return bytes added.

        The same encoding as calling :meth:`append` once per record, in one
        pass (the producer's sender builds whole batches this way). Unlike
        :meth:`append` it never leaves records out: a batch that would grow
        past ``batch_size`` raises :class:`~kafka.errors.IllegalArgumentError`.
        """
        count = len(records)
        if not count:
            return 0
        first = self._first_delta(count)
        if fast_paths.BYTES_BUILDER:
            builder = new_bytes_builder()
            state = append_records(records, first, self._base_ts, self._max_ts,
                                   builder.append)  # type: ignore[attr-defined]
            return self._add_encoded(builder.build(), count, state)  # type: ignore[attr-defined]
        encoded, *rest = join_records(records, first, self._base_ts, self._max_ts)
        return self._add_encoded(encoded, count, rest)

    def extend_values(self, stamps: Sequence[int], values: Sequence[Optional[bytes]]) -> int:
        """:meth:`extend` for records without key and headers given as columns: ``stamps[i]``, ``values[i]``."""
        count = len(values)
        if not count:
            return 0
        first = self._first_delta(count)
        if fast_paths.BYTES_BUILDER:
            builder = new_bytes_builder()
            state = append_values(stamps, values, first, self._base_ts, self._max_ts,
                                  builder.append)  # type: ignore[attr-defined]
            return self._add_encoded(builder.build(), count, state)  # type: ignore[attr-defined]
        try:
            latest = max(stamps)  # TypeError for a None among ints: the record loop stamps those
        except TypeError:
            latest = None
        if latest is not None:
            base_ts = self._base_ts if self._base_ts is not None else stamps[0]
            columns = encode_values(stamps, values, first, base_ts)  # type: ignore[arg-type]
            if columns is not None:
                return self._add_encoded(columns, count, (first + count, base_ts, max(latest, self._max_ts)))
        encoded, *rest = join_records(zip(stamps, repeat(None), values, repeat(None)), first, self._base_ts,
                                      self._max_ts)
        return self._add_encoded(encoded, count, rest)

    def _first_delta(self, count: int) -> int:
        """The offset delta of the first of ``count`` records about to be added."""
        first = self._last_delta + 1
        if first + count - 1 > 0x7FFFFFFF:
            raise IllegalArgumentError("more than 2**31 records in one batch")
        return first

    def _add_encoded(self, encoded: bytes, count: int, state: Sequence[Any]) -> int:
        """Take ``count`` records encoded by a record loop, which returned ``state``: (next delta, base ts, max ts)."""
        if (self._count or count > 1) and self._size + len(encoded) > self._batch_size:
            raise IllegalArgumentError("records do not fit in batch_size (%d bytes)" % self._batch_size)
        delta, base_ts, max_ts = state
        self._chunks.append(encoded)
        self._size += len(encoded)
        self._count += count
        self._last_delta = delta - 1
        self._base_ts = base_ts
        self._max_ts = max_ts
        return len(encoded)

    @classmethod
    def estimate_size_in_bytes(
        cls,
        key: Optional[bytes],
        value: Optional[bytes],
        headers: Optional[Sequence[Header]] = None,
    ) -> int:
        """Upper bound of the bytes a batch holding just this record needs."""
        return HEADER_SIZE + estimate_record_size(key, value, headers)

    def build(self) -> bytes:
        """Return the finished batch (``b""`` if no record was appended)."""
        if not self._count:
            return b""
        chunks = self._chunks
        body = chunks[0] if len(chunks) == 1 else _join(chunks)
        if self._compression_type != codecs.NONE:
            body = codecs.compress(self._compression_type, body, magic=2, level=self._compression_level)
        tail = _HEADER_TAIL.pack(
            self._attributes,
            self._last_delta,
            self._base_ts,
            self._max_ts,
            self._producer_id,
            self._producer_epoch,
            self._base_sequence,
            self._count,
        )
        # A view: PyPy hands a bytes object to a C extension (crc32c) by
        # copying it, a memoryview without copying. Released at once: PyPy
        # (7.3) keeps a view handed to a C extension, and the bytes under it,
        # alive until the view is released.
        with memoryview(body) as view:
            crc = crc32c(view, crc32c(tail))
        head = _HEADER_HEAD.pack(
            self._base_offset,
            HEADER_SIZE - LOG_OVERHEAD + len(body),
            self._partition_leader_epoch,
            2,
            crc,
        )
        # One copy of the records; on PyPy a concatenation copies faster than a join.
        return head + tail + body
