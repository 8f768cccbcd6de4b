"""The record layer: message formats v0, v1 and v2, pure and without I/O.

Reading::

    for batch in MemoryRecords(fetch_records_blob, check_crcs=True):
        for record in batch:
            record.offset, record.key, record.value, record.headers

Writing::

    builder = MemoryRecordsBuilder(magic=2, compression_type="lz4")
    builder.append(0, timestamp_ms, b"key", b"value", [("h", b"v")])
    blob = builder.build()

Modules: :mod:`~kafka.record.memory_records` (blobs of batches),
:mod:`~kafka.record.batch` (format v2), :mod:`~kafka.record.legacy` (formats
v0/v1), :mod:`~kafka.record.record` (record value types),
:mod:`~kafka.record.codecs` (compression), :mod:`~kafka.record.crc` and
:mod:`~kafka.record.varint` (encoding helpers).
"""

from kafka.record.batch import RecordBatch, RecordBatchBuilder
from kafka.record.codecs import (
    GZIP,
    LZ4,
    NONE,
    SNAPPY,
    ZSTD,
    codec_id,
    codec_name,
    compress,
    decompress,
    is_available,
)
from kafka.record.legacy import LegacyRecordBatch, LegacyRecordBatchBuilder, encode_message
from kafka.record.memory_records import MemoryRecords, MemoryRecordsBuilder
from kafka.record.record import (
    ControlRecord,
    ControlRecordType,
    Record,
    TimestampType,
    encode_control_key,
    encode_marker_value,
)

__all__ = [
    "MemoryRecords",
    "MemoryRecordsBuilder",
    "RecordBatch",
    "RecordBatchBuilder",
    "LegacyRecordBatch",
    "LegacyRecordBatchBuilder",
    "encode_message",
    "Record",
    "ControlRecord",
    "ControlRecordType",
    "TimestampType",
    "encode_control_key",
    "encode_marker_value",
    "NONE",
    "GZIP",
    "SNAPPY",
    "LZ4",
    "ZSTD",
    "codec_id",
    "codec_name",
    "compress",
    "decompress",
    "is_available",
]
