"""Message sets of format v0 and v1 (magic 0 and 1): reader and builder.

A message set is a plain concatenation of messages (big-endian)::

    offset      int64
    size        int32   bytes after this field
    crc         uint32  CRC-32 of magic..end
    magic       int8    0 or 1
    attributes  int8    bits 0-2 codec, bit 3 timestamp type (v1 only)
    timestamp   int64   v1 only
    key         int32 length (-1 = null) + bytes
    value       int32 length (-1 = null) + bytes

A compressed message ("wrapper") has a codec in its attributes and holds a
whole compressed message set of uncompressed inner messages as its value.
From v1 on (KIP-31/KIP-32) the inner offsets are relative, 0..n-1, and the
wrapper's offset is the absolute offset of the last inner message; with the
log-append-time bit set on the wrapper, its timestamp replaces the inner
ones.

Each top-level message is exposed as a :class:`LegacyRecordBatch`, so that
all message formats are read through the same batch interface.
"""

from __future__ import annotations

import struct
import time
from typing import Iterator, List, Optional, Sequence, Tuple

from kafka.errors import (
    ChecksumError,
    CorruptRecordError,
    IllegalArgumentError,
    UnsupportedCodecError,
)
from kafka.record import codecs
from kafka.record.crc import crc32
from kafka.record.record import NO_HEADERS, NO_TIMESTAMP, BytesLike, Header, Record, TimestampType

__all__ = ["LegacyRecordBatch", "LegacyRecordBatchBuilder", "encode_message"]

_PREFIX = struct.Struct(">qiIbb")  # offset, size, crc, magic, attributes
_LOG_OVERHEAD = struct.Struct(">qi")
_INT32 = struct.Struct(">i")
_INT64 = struct.Struct(">q")
_OFFSET_SIZE_CRC = struct.Struct(">qiI")
LOG_OVERHEAD = 12
#: Smallest ``size`` of a v0 / v1 message (crc, magic, attributes,
#: [timestamp,] two length fields).
MIN_SIZE = (14, 22)
_NULL = b"\xff\xff\xff\xff"

CODEC_MASK = 0x07
TIMESTAMP_TYPE_MASK = 0x08

# (offset, crc, magic, attributes, timestamp, key, value)
_Message = Tuple[int, int, int, int, int, Optional[bytes], Optional[bytes]]


def _parse(buf: bytes, pos: int, end: int) -> _Message:
    """Parse the message at ``buf[pos:end]`` (``end`` from its size field)."""
    offset, size, crc, magic, attrs = _PREFIX.unpack_from(buf, pos)
    if magic == 0:
        timestamp = NO_TIMESTAMP
        p = pos + 18
    elif magic == 1:
        if size < MIN_SIZE[1]:
            raise CorruptRecordError("message size %d too small for v1" % size)
        timestamp = _INT64.unpack_from(buf, pos + 18)[0]
        p = pos + 26
    else:
        raise CorruptRecordError("unknown message magic %d" % magic)
    klen = _INT32.unpack_from(buf, p)[0]
    p += 4
    if klen >= 0:
        if p + klen + 4 > end:
            raise CorruptRecordError("message key length %d overruns the message" % klen)
        key: Optional[bytes] = buf[p : p + klen]
        p += klen
    elif klen == -1:
        key = None
    else:
        raise CorruptRecordError("invalid message key length %d" % klen)
    vlen = _INT32.unpack_from(buf, p)[0]
    p += 4
    if vlen >= 0:
        value: Optional[bytes] = buf[p : p + vlen]
        p += vlen
    elif vlen == -1:
        value = None
    else:
        raise CorruptRecordError("invalid message value length %d" % vlen)
    if p != end:
        raise CorruptRecordError(
            "message size %d does not match its fields (%d bytes)" % (size, p - pos - LOG_OVERHEAD)
        )
    return offset, crc, magic, attrs, timestamp, key, value


def _check_crc(buf: bytes, pos: int, end: int, stored: int, offset: int) -> None:
    actual = crc32(memoryview(buf)[pos + 16 : end])
    if actual != stored:
        raise ChecksumError(
            "message at offset %d: stored CRC %08x, computed %08x" % (offset, stored, actual)
        )


class LegacyRecordBatch:
    """One top-level message of a v0/v1 message set.

    An uncompressed message is a batch of one record; a compressed wrapper
    is a batch of its inner messages.  The attributes mirror
    :class:`~kafka.record.batch.RecordBatch` (fields that v0/v1 lack hold
    ``-1``/``False``), plus the message's own ``offset``, ``timestamp``,
    ``key`` and ``value``.  ``base_offset`` and ``record_count`` of a
    compressed wrapper require decoding it.
    """

    __slots__ = (
        "offset",
        "magic",
        "crc",
        "attributes",
        "timestamp",
        "timestamp_type",
        "compression_type",
        "key",
        "value",
        "_buf",
        "_start",
        "_end",
        "_max_output",
        "_records",
        "decompressed_size",
    )
    # Set from struct.unpack_from, which mypy types as Any.
    offset: int
    crc: int
    timestamp: int
    _end: int

    partition_leader_epoch = -1
    producer_id = -1
    producer_epoch = -1
    base_sequence = -1
    is_transactional = False
    is_control = False
    is_control_batch = False
    has_delete_horizon = False

    def __init__(
        self,
        data: BytesLike,
        offset: int = 0,
        *,
        max_output: int = codecs.DEFAULT_MAX_OUTPUT,
    ) -> None:
        buf = data if type(data) is bytes else bytes(data)
        if offset < 0 or len(buf) - offset < LOG_OVERHEAD + MIN_SIZE[0]:
            raise CorruptRecordError("message shorter than its header")
        size = _INT32.unpack_from(buf, offset + 8)[0]
        end = offset + LOG_OVERHEAD + size
        if size < MIN_SIZE[0] or end > len(buf):
            raise CorruptRecordError("invalid message size %d" % size)
        (
            self.offset,
            self.crc,
            self.magic,
            attrs,
            self.timestamp,
            self.key,
            self.value,
        ) = _parse(buf, offset, end)
        self.attributes = attrs
        self.compression_type = attrs & CODEC_MASK
        if self.magic == 0:
            self.timestamp_type = TimestampType.NO_TIMESTAMP_TYPE
        else:
            self.timestamp_type = 1 if attrs & TIMESTAMP_TYPE_MASK else 0
        self._buf = buf
        self._start = offset
        self._end = end
        self._max_output = max_output
        self._records: Optional[List[Record]] = None
        #: Bytes of the inner message set once decompressed (0 until a compressed wrapper is decoded).
        self.decompressed_size = 0

    # -- batch-level view ------------------------------------------------------

    @property
    def base_offset(self) -> int:
        """Offset of the first record (decodes a compressed wrapper)."""
        if self.compression_type:
            return self.records()[0].offset
        return self.offset

    @property
    def last_offset(self) -> int:
        """Offset of the last record: the message's own offset."""
        return self.offset

    @property
    def next_offset(self) -> int:
        """The offset following this batch."""
        return self.offset + 1

    @property
    def record_count(self) -> int:
        """Number of records (decodes a compressed wrapper)."""
        return len(self.records()) if self.compression_type else 1

    @property
    def base_timestamp(self) -> int:
        """The message timestamp (``-1`` for v0)."""
        return self.timestamp

    @property
    def max_timestamp(self) -> int:
        """The message timestamp (``-1`` for v0)."""
        return self.timestamp

    @property
    def size_in_bytes(self) -> int:
        """Bytes the message occupies, offset and size fields included."""
        return self._end - self._start

    def raw_bytes(self) -> bytes:
        """The message's bytes exactly as read."""
        return self._buf[self._start : self._end]

    # -- checksum -----------------------------------------------------------------

    def validate_crc(self) -> bool:
        """True if the stored CRC-32 matches the message bytes."""
        return crc32(memoryview(self._buf)[self._start + 16 : self._end]) == self.crc

    def ensure_valid(self) -> None:
        """Check the CRC, and those of the inner messages of a wrapper.

        Raises :class:`~kafka.errors.ChecksumError` on a mismatch.
        """
        _check_crc(self._buf, self._start, self._end, self.crc, self.offset)
        if self.compression_type and self._records is None:
            self._records = self._decode(check_crcs=True)

    # -- records ------------------------------------------------------------------

    def records(self) -> List[Record]:
        """The records of this message as a list (decoded once, then cached)."""
        records = self._records
        if records is None:
            records = self._records = self._decode(check_crcs=False)
        return records

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records())

    def _decode(self, check_crcs: bool) -> List[Record]:
        if not self.compression_type:
            return [
                Record(self.offset, self.timestamp, self.timestamp_type, self.key, self.value, NO_HEADERS)
            ]
        if self.value is None:
            raise CorruptRecordError("compressed message at offset %d has no value" % self.offset)
        codecs.check_reader_codec(self.compression_type)
        data = codecs.decompress(
            self.compression_type, self.value, magic=self.magic, max_output=self._max_output
        )
        self.decompressed_size = len(data)
        inner: List[_Message] = []
        pos = 0
        n = len(data)
        while pos < n:
            if n - pos < LOG_OVERHEAD + MIN_SIZE[0]:
                raise CorruptRecordError("truncated message inside a compressed wrapper")
            size = _INT32.unpack_from(data, pos + 8)[0]
            end = pos + LOG_OVERHEAD + size
            if size < MIN_SIZE[0] or end > n:
                raise CorruptRecordError("invalid inner message size %d" % size)
            message = _parse(data, pos, end)
            if message[3] & CODEC_MASK:
                raise CorruptRecordError("compressed message nested in a compressed message")
            if check_crcs:
                _check_crc(data, pos, end, message[1], message[0])
            inner.append(message)
            pos = end
        if not inner:
            raise CorruptRecordError("compressed message at offset %d is empty" % self.offset)
        base = -1
        if self.magic > 0:
            base = self.offset - inner[-1][0]  # inner offsets are relative
        log_append = self.timestamp_type == TimestampType.LOG_APPEND_TIME
        records = []
        for offset, _crc, magic, _attrs, timestamp, key, value in inner:
            if base >= 0:
                offset += base
            if log_append:
                timestamp = self.timestamp
                ts_type = TimestampType.LOG_APPEND_TIME
            elif magic == 0:
                ts_type = TimestampType.NO_TIMESTAMP_TYPE
            else:
                ts_type = TimestampType.CREATE_TIME
            records.append(Record(offset, timestamp, ts_type, key, value, NO_HEADERS))
        return records

    def __repr__(self) -> str:
        return "LegacyRecordBatch(offset=%d, magic=%d, codec=%d, size=%d)" % (
            self.offset,
            self.magic,
            self.compression_type,
            self.size_in_bytes,
        )


def encode_message(
    magic: int,
    offset: int,
    timestamp: Optional[int],
    key: Optional[bytes],
    value: Optional[bytes],
    attributes: int = 0,
) -> bytes:
    """Encode one complete v0/v1 message, offset and size fields included.

    ``timestamp`` is ignored for v0 and means "now" when ``None`` for v1.
    """
    if magic not in (0, 1):
        raise IllegalArgumentError("message format must be 0 or 1, not %r" % (magic,))
    parts = [struct.pack(">bb", magic, attributes)]
    if magic == 1:
        parts.append(_INT64.pack(int(time.time() * 1000) if timestamp is None else timestamp))
    for field in (key, value):
        if field is None:
            parts.append(_NULL)
        else:
            if not isinstance(field, (bytes, bytearray, memoryview)):
                raise TypeError("message key and value must be bytes or None")
            field = bytes(field)
            parts.append(_INT32.pack(len(field)))
            parts.append(field)
    body = b"".join(parts)
    return _OFFSET_SIZE_CRC.pack(offset, len(body) + 4, crc32(body)) + body


class LegacyRecordBatchBuilder:
    """Builds a v0/v1 message set, optionally as one compressed wrapper.

    Uncompressed, :meth:`build` returns the messages one after the other.
    Compressed, it returns a single wrapper message whose value is the
    compressed inner set: inner offsets are relative for v1 and absolute for
    v0, and the wrapper carries the last offset (and, v1, the largest
    timestamp).  Headers are not supported by these formats.
    """

    def __init__(
        self,
        magic: int,
        compression_type: codecs.Codec = codecs.NONE,
        *,
        compression_level: Optional[int] = None,
        timestamp_type: int = TimestampType.CREATE_TIME,
        batch_size: int = 0x7FFFFFFF,
    ) -> None:
        if magic not in (0, 1):
            raise IllegalArgumentError("message format must be 0 or 1, not %r" % (magic,))
        cid = codecs.ensure_available(compression_type)
        if cid == codecs.ZSTD:
            raise UnsupportedCodecError("zstd compression requires message format v2")
        self._magic = magic
        self._compression_type = cid
        self._compression_level = compression_level
        self._log_append = magic == 1 and timestamp_type == TimestampType.LOG_APPEND_TIME
        self._batch_size = batch_size
        self._messages: List[bytes] = []
        self._size = 0
        self._first_offset: Optional[int] = None
        self._last_offset = -1
        self._max_ts = NO_TIMESTAMP
        #: CRC-32 of the message appended last (``None`` before any).
        self.last_crc: Optional[int] = None

    @property
    def record_count(self) -> int:
        """Number of messages appended so far."""
        return len(self._messages)

    @property
    def compression_type(self) -> int:
        """The codec id of the batch."""
        return self._compression_type

    def size_in_bytes(self) -> int:
        """Uncompressed size of the messages appended so far."""
        return self._size

    def append(
        self,
        offset: int,
        timestamp: Optional[int],
        key: Optional[bytes],
        value: Optional[bytes],
        headers: Optional[Sequence[Header]] = None,
    ) -> Optional[int]:
        """Add a message; return the bytes it added, or ``None`` if the set is full.

        The message's CRC-32 is then available as :attr:`last_crc`.
        """
        if headers:
            raise IllegalArgumentError("message format v%d does not support headers" % self._magic)
        if offset <= self._last_offset:
            raise IllegalArgumentError("offset %d is not above the previous one" % offset)
        if self._magic == 0:
            timestamp = NO_TIMESTAMP
        elif timestamp is None:
            timestamp = int(time.time() * 1000)
        written_offset = offset
        if self._compression_type and self._magic == 1:
            first = offset if self._first_offset is None else self._first_offset
            written_offset = offset - first
        attributes = TIMESTAMP_TYPE_MASK if self._log_append else 0
        message = encode_message(self._magic, written_offset, timestamp, key, value, attributes)
        if self._messages and self._size + len(message) > self._batch_size:
            return None
        self._messages.append(message)
        self._size += len(message)
        if self._first_offset is None:
            self._first_offset = offset
        self._last_offset = offset
        if timestamp > self._max_ts:
            self._max_ts = timestamp
        self.last_crc = _OFFSET_SIZE_CRC.unpack_from(message)[2]
        return len(message)

    def build(self) -> bytes:
        """Return the message set (``b""`` if nothing was appended)."""
        inner = b"".join(self._messages)
        if not self._compression_type or not self._messages:
            return inner
        compressed = codecs.compress(
            self._compression_type, inner, magic=self._magic, level=self._compression_level
        )
        attributes = self._compression_type
        if self._log_append:
            attributes |= TIMESTAMP_TYPE_MASK
        return encode_message(
            self._magic, self._last_offset, self._max_ts, None, compressed, attributes
        )
