"""Byte-exact fixtures assembled by hand from the Kafka message-format spec.

Every hex string below was written field by field from the specification
(the comments name each field); checksums were computed with independent
implementations (the ``crc32c`` package and ``zlib``), never with our
encoder.  The readers must decode them, and where the builders can express
the same content they must reproduce the bytes exactly.
"""

from __future__ import annotations

import gzip
import struct
import zlib

import pytest

from kafka.errors import ChecksumError, CorruptRecordError
from kafka.record import (
    ControlRecord,
    ControlRecordType,
    LegacyRecordBatchBuilder,
    MemoryRecords,
    RecordBatch,
    RecordBatchBuilder,
    TimestampType,
)
from kafka.record.legacy import LegacyRecordBatch

T = 1700000000000  # 0x0000018BCFE56800


def h(text: str) -> bytes:
    """Hex with whitespace and ``#`` comments allowed."""
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    return bytes.fromhex("".join(lines))


# ---------------------------------------------------------------------------
# Record batch v2, two records with keys, nulls and headers
# ---------------------------------------------------------------------------

V2_WITH_HEADERS = h(
    """
    0000000000000005    # baseOffset = 5
    00000057            # batchLength = 87 (bytes after this field)
    00000007            # partitionLeaderEpoch = 7
    02                  # magic = 2
    3c7f61b6            # crc: CRC-32C of everything after this field
    0000                # attributes: no codec, create time, not txn/control
    00000001            # lastOffsetDelta = 1
    0000018bcfe56800    # baseTimestamp = T
    0000018bcfe56805    # maxTimestamp = T + 5
    00000000000003e8    # producerId = 1000
    0003                # producerEpoch = 3
    0000000a            # baseSequence = 10
    00000002            # record count = 2
    # record 0
    22                  # length = 17 (zigzag 34)
    00                  # attributes
    00                  # timestampDelta = 0
    00                  # offsetDelta = 0
    02 6b               # key: length 1, "k"
    0a 68656c6c6f       # value: length 5, "hello"
    02                  # header count = 1
    04 6831             # header key: length 2, "h1"
    02 76               # header value: length 1, "v"
    # record 1
    26                  # length = 19 (zigzag 38)
    00                  # attributes
    0a                  # timestampDelta = 5
    02                  # offsetDelta = 1
    01                  # key: length -1 (null)
    0c 776f726c6421     # value: length 6, "world!"
    04                  # header count = 2
    02 61               # header key: length 1, "a"
    01                  # header value: null
    04 c3bc             # header key: length 2, "\u00fc" in UTF-8
    00                  # header value: length 0 (empty, not null)
    """
)


def test_v2_batch_with_headers_header_fields():
    batch = RecordBatch(V2_WITH_HEADERS)
    assert batch.base_offset == 5
    assert batch.batch_length == 87
    assert batch.size_in_bytes == len(V2_WITH_HEADERS) == 99
    assert batch.partition_leader_epoch == 7
    assert batch.magic == 2
    assert batch.crc == 0x3C7F61B6
    assert batch.validate_crc()
    assert batch.compression_type == 0
    assert batch.timestamp_type == TimestampType.CREATE_TIME
    assert not batch.is_transactional and not batch.is_control
    assert batch.last_offset_delta == 1 and batch.last_offset == 6 and batch.next_offset == 7
    assert batch.base_timestamp == T and batch.max_timestamp == T + 5
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence) == (1000, 3, 10)
    assert batch.record_count == 2


def test_v2_batch_with_headers_records():
    records = list(RecordBatch(V2_WITH_HEADERS))
    assert [tuple(r) for r in records] == [
        (5, T, 0, b"k", b"hello", (("h1", b"v"),)),
        (6, T + 5, 0, None, b"world!", (("a", None), ("\u00fc", b""))),
    ]
    assert records[1].headers[1][1] == b""  # empty is not null


def test_v2_builder_reproduces_fixture_exactly():
    builder = RecordBatchBuilder(
        producer_id=1000,
        producer_epoch=3,
        base_sequence=10,
        partition_leader_epoch=7,
        base_offset=5,
    )
    builder.append(5, T, b"k", b"hello", [("h1", b"v")])
    builder.append(6, T + 5, None, b"world!", [("a", None), ("\u00fc", b"")])
    assert builder.build() == V2_WITH_HEADERS


def test_v2_log_append_time_overrides_record_timestamps():
    # Same batch with attribute bit 3 set: all records take maxTimestamp.
    data = bytearray(V2_WITH_HEADERS)
    data[21:23] = b"\x00\x08"
    struct.pack_into(">I", data, 17, _crc32c(bytes(data[21:])))
    records = list(RecordBatch(bytes(data)))
    assert [r.timestamp for r in records] == [T + 5, T + 5]
    assert all(r.timestamp_type == TimestampType.LOG_APPEND_TIME for r in records)


def test_v2_bad_crc_detected():
    data = bytearray(V2_WITH_HEADERS)
    data[-1] ^= 0x01
    batch = RecordBatch(bytes(data))
    assert not batch.validate_crc()
    with pytest.raises(ChecksumError):
        batch.ensure_valid()
    with pytest.raises(ChecksumError):
        list(MemoryRecords(bytes(data), check_crcs=True))


# ---------------------------------------------------------------------------
# Record batch v2, control batch with a COMMIT marker
# ---------------------------------------------------------------------------

V2_CONTROL_COMMIT = h(
    """
    000000000000002a    # baseOffset = 42
    00000042            # batchLength = 66
    00000000            # partitionLeaderEpoch = 0
    02                  # magic = 2
    b8a65efa            # crc
    0030                # attributes: transactional (0x10) | control (0x20)
    00000000            # lastOffsetDelta = 0
    0000018bcfe56800    # baseTimestamp = T
    0000018bcfe56800    # maxTimestamp = T
    000000000000004d    # producerId = 77
    0001                # producerEpoch = 1
    ffffffff            # baseSequence = -1
    00000001            # record count = 1
    20                  # record length = 16
    00                  # attributes
    00                  # timestampDelta = 0
    00                  # offsetDelta = 0
    08 0000 0001        # key: length 4, version 0, type 1 (COMMIT)
    0c 0000 00000011    # value: length 6, version 0, coordinatorEpoch 17
    00                  # header count = 0
    """
)


def test_v2_control_batch():
    batch = RecordBatch(V2_CONTROL_COMMIT)
    assert batch.validate_crc()
    assert batch.is_control and batch.is_control_batch and batch.is_transactional
    assert batch.producer_id == 77 and batch.producer_epoch == 1
    assert batch.base_sequence == -1
    (marker,) = list(batch)
    assert isinstance(marker, ControlRecord)
    assert marker.offset == 42 and marker.timestamp == T
    assert marker.control_type == ControlRecordType.COMMIT
    assert marker.is_commit and not marker.is_abort
    assert marker.type_name == "COMMIT"
    assert marker.version == 0 and marker.coordinator_epoch == 17
    assert marker.key == b"\x00\x00\x00\x01"


def test_v2_control_batch_builder_reproduces_fixture():
    from kafka.record.record import encode_control_key, encode_marker_value

    builder = RecordBatchBuilder(
        is_transactional=True,
        is_control=True,
        producer_id=77,
        producer_epoch=1,
        partition_leader_epoch=0,
        base_offset=42,
    )
    builder.append(42, T, encode_control_key(ControlRecordType.COMMIT), encode_marker_value(17))
    assert builder.build() == V2_CONTROL_COMMIT


def test_v2_control_batch_with_short_key_is_corrupt():
    # Same batch, but the key is 2 bytes: "0000" (missing the type).
    data = bytearray(V2_CONTROL_COMMIT)
    body = h("1c 00 00 00 04 0000 0c 0000 00000011 00")  # record length 14
    data = data[:61] + body
    struct.pack_into(">i", data, 8, len(data) - 12)
    struct.pack_into(">I", data, 17, _crc32c(bytes(data[21:])))
    with pytest.raises(CorruptRecordError):
        list(RecordBatch(bytes(data)))


# ---------------------------------------------------------------------------
# Message set v0
# ---------------------------------------------------------------------------

V0_MESSAGE_SET = h(
    """
    0000000000000000    # offset = 0
    00000011            # size = 17
    43dc3faf            # crc: CRC-32 of magic..end
    00                  # magic = 0
    00                  # attributes: no codec
    ffffffff            # key: null
    00000003 616263     # value: length 3, "abc"

    0000000000000001    # offset = 1
    00000010            # size = 16
    cc83990a            # crc
    00                  # magic = 0
    00                  # attributes
    00000002 6b31       # key: length 2, "k1"
    ffffffff            # value: null
    """
)


def test_v0_message_set():
    mr = MemoryRecords(V0_MESSAGE_SET, check_crcs=True)
    assert not mr.has_partial
    batches = list(mr)
    assert [b.magic for b in batches] == [0, 0]
    records = [r for b in batches for r in b]
    assert [tuple(r) for r in records] == [
        (0, -1, TimestampType.NO_TIMESTAMP_TYPE, None, b"abc", ()),
        (1, -1, TimestampType.NO_TIMESTAMP_TYPE, b"k1", None, ()),
    ]
    assert batches[0].crc == 0x43DC3FAF and batches[1].crc == 0xCC83990A


def test_v0_builder_reproduces_fixture():
    builder = LegacyRecordBatchBuilder(magic=0)
    builder.append(0, None, None, b"abc")
    builder.append(1, None, b"k1", None)
    assert builder.build() == V0_MESSAGE_SET


# ---------------------------------------------------------------------------
# Message set v1
# ---------------------------------------------------------------------------

V1_MESSAGE = h(
    """
    0000000000000064    # offset = 100
    0000001e            # size = 30
    6ad05db8            # crc
    01                  # magic = 1
    00                  # attributes: no codec, create time
    0000018bcfe56800    # timestamp = T
    00000003 6b6579     # key: "key"
    00000005 76616c7565 # value: "value"
    """
)


def test_v1_message():
    (batch,) = list(MemoryRecords(V1_MESSAGE, check_crcs=True))
    assert isinstance(batch, LegacyRecordBatch)
    assert batch.magic == 1 and batch.timestamp == T
    assert batch.base_offset == batch.last_offset == 100 and batch.record_count == 1
    (record,) = list(batch)
    assert tuple(record) == (100, T, TimestampType.CREATE_TIME, b"key", b"value", ())


def test_v1_builder_reproduces_fixture():
    builder = LegacyRecordBatchBuilder(magic=1)
    assert builder.append(100, T, b"key", b"value") == len(V1_MESSAGE)
    assert builder.last_crc == 0x6AD05DB8
    assert builder.build() == V1_MESSAGE


# ---------------------------------------------------------------------------
# gzip-compressed v1 wrapper with relative inner offsets
# ---------------------------------------------------------------------------

# Inner message set: three v1 messages, relative offsets 0, 1, 2.
V1_INNER = h(
    """
    0000000000000000 00000017 %s 01 00 0000018bcfe56800 ffffffff 00000001 61
    0000000000000001 00000017 %s 01 00 0000018bcfe56801 ffffffff 00000001 62
    0000000000000002 00000017 %s 01 00 0000018bcfe56802 ffffffff 00000001 63
    """
    % tuple(
        "%08x" % zlib.crc32(h("01 00 %016x ffffffff 00000001 %02x" % (T + i, 0x61 + i)))
        for i in range(3)
    )
)


def _v1_wrapper(offset: int, attributes: int, timestamp: int, payload: bytes) -> bytes:
    body = bytes((1, attributes)) + struct.pack(">q", timestamp)  # magic, attrs, ts
    body += b"\xff\xff\xff\xff"  # key: null
    body += struct.pack(">i", len(payload)) + payload  # value
    return struct.pack(">qiI", offset, len(body) + 4, zlib.crc32(body)) + body


def test_gzip_v1_wrapper_relative_offsets_create_time():
    # The wrapper's offset (1002) is the absolute offset of the last inner
    # message, so inner relative offsets 0..2 map to 1000..1002.
    data = _v1_wrapper(1002, 0x01, T + 2, gzip.compress(V1_INNER))
    (batch,) = list(MemoryRecords(data, check_crcs=True))
    assert batch.compression_type == 1
    assert batch.base_offset == 1000 and batch.last_offset == 1002
    assert batch.record_count == 3
    assert [tuple(r) for r in batch] == [
        (1000, T, 0, None, b"a", ()),
        (1001, T + 1, 0, None, b"b", ()),
        (1002, T + 2, 0, None, b"c", ()),
    ]


def test_gzip_v1_wrapper_log_append_time_overrides_inner():
    data = _v1_wrapper(1002, 0x01 | 0x08, T + 10, gzip.compress(V1_INNER))
    records = list(MemoryRecords(data).records())
    assert [r.timestamp for r in records] == [T + 10] * 3
    assert {r.timestamp_type for r in records} == {TimestampType.LOG_APPEND_TIME}


def test_gzip_v1_wrapper_bad_inner_crc():
    inner = bytearray(V1_INNER)
    inner[-1] ^= 0xFF  # last value byte: the inner CRC no longer matches
    data = _v1_wrapper(1002, 0x01, T + 2, gzip.compress(bytes(inner)))
    assert len(list(MemoryRecords(data).records())) == 3  # not checked
    with pytest.raises(ChecksumError):
        list(MemoryRecords(data, check_crcs=True))


def test_v0_snappy_wrapper_absolute_offsets():
    # v0 wrapper (xerial snappy): inner offsets are absolute already.
    cramjam = pytest.importorskip("cramjam")
    inner = b""
    for off, val in ((7, b"x"), (8, b"y")):
        body = h("00 00 ffffffff 00000001") + val
        inner += struct.pack(">qiI", off, len(body) + 4, zlib.crc32(body)) + body
    raw = bytes(cramjam.snappy.compress_raw(inner))
    xerial = h("82 534e415050 5900 00000001 00000001") + struct.pack(">i", len(raw)) + raw
    body = h("00 02 ffffffff") + struct.pack(">i", len(xerial)) + xerial
    data = struct.pack(">qiI", 8, len(body) + 4, zlib.crc32(body)) + body
    assert [(r.offset, r.value) for r in MemoryRecords(data, check_crcs=True).records()] == [
        (7, b"x"),
        (8, b"y"),
    ]


# ---------------------------------------------------------------------------
# Compressed v2: records section compressed by the codec libraries directly
# ---------------------------------------------------------------------------

# The records of V2_WITH_HEADERS (everything after the 61-byte header).
V2_RECORDS = V2_WITH_HEADERS[61:]


def _v2_compressed(codec: int, payload: bytes) -> bytes:
    after_crc = (
        struct.pack(">h", codec)  # attributes
        + h("00000001 0000018bcfe56800 0000018bcfe56805")  # lastOffsetDelta, timestamps
        + h("00000000000003e8 0003 0000000a 00000002")  # producer, epoch, seq, count
        + payload
    )
    return (
        h("0000000000000005")  # baseOffset
        + struct.pack(">i", len(after_crc) + 9)  # batchLength
        + h("00000007 02")  # partitionLeaderEpoch, magic
        + struct.pack(">I", _crc32c(after_crc))
        + after_crc
    )


def _compressors():
    out = {1: gzip.compress}
    try:
        import lz4.frame

        out[3] = lambda d: lz4.frame.compress(d, block_linked=False, store_size=False)
    except ImportError:
        pass
    try:
        import zstandard

        out[4] = zstandard.ZstdCompressor().compress
    except ImportError:
        pass
    try:
        import cramjam

        out[2] = lambda d: bytes(cramjam.snappy.compress_raw(d))  # raw, unframed
    except ImportError:
        pass
    return out


@pytest.mark.parametrize("codec", sorted(_compressors()))
def test_compressed_v2(codec):
    data = _v2_compressed(codec, _compressors()[codec](V2_RECORDS))
    (batch,) = list(MemoryRecords(data, check_crcs=True))
    assert batch.compression_type == codec
    assert [tuple(r) for r in batch] == [tuple(r) for r in RecordBatch(V2_WITH_HEADERS)]


def _crc32c(data: bytes) -> int:
    crc32c = pytest.importorskip("crc32c")
    return crc32c.crc32c(data)


# ---------------------------------------------------------------------------
# MemoryRecords.next_offset: where a consumer's next fetch would start
# ---------------------------------------------------------------------------


def test_next_offset_after_v2_batch_is_base_plus_last_delta_plus_one():
    # baseOffset 5, lastOffsetDelta 1: offsets 5 and 6, the next fetch at 7.
    assert MemoryRecords(V2_WITH_HEADERS).next_offset == 7


def test_next_offset_ignores_a_partial_trailing_batch():
    blob = V2_WITH_HEADERS + V0_MESSAGE_SET + V2_WITH_HEADERS[:40]
    # The v0 set's last message has offset 1: a legacy entry's own offset is its last.
    assert MemoryRecords(blob).next_offset == 2


def test_next_offset_of_a_compressed_v1_wrapper_is_after_its_last_inner_record():
    data = _v1_wrapper(1002, 0x01, T + 2, gzip.compress(V1_INNER))
    assert MemoryRecords(data).next_offset == 1003


def test_next_offset_is_none_without_a_complete_batch_or_after_a_corrupt_one():
    assert MemoryRecords(b"").next_offset is None
    assert MemoryRecords(V2_WITH_HEADERS[:60]).next_offset is None
    bad_magic = V2_WITH_HEADERS[:16] + b"\x07" + V2_WITH_HEADERS[17:]
    assert MemoryRecords(V2_WITH_HEADERS + bad_magic).next_offset is None
