"""Build -> read identity, by example and by property (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka.errors import IllegalArgumentError, UnsupportedCodecError
from kafka.record import (
    LegacyRecordBatchBuilder,
    MemoryRecords,
    MemoryRecordsBuilder,
    RecordBatch,
    RecordBatchBuilder,
    TimestampType,
    codecs,
)
from kafka.record.batch import HEADER_SIZE, estimate_record_size, estimate_record_sizes
from kafka.record.varint import decode_varint, decode_varlong, encode_varint, size_of_varint

CODECS = [c for c in ("none", "gzip", "snappy", "lz4", "zstd") if codecs.is_available(c)]
LEGACY_CODECS = [c for c in CODECS if c != "zstd"]

T = 1_700_000_000_000


# -- varints ---------------------------------------------------------------------


@given(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1))
def test_varlong_round_trip(n):
    data = encode_varint(n)
    assert len(data) == size_of_varint(n) <= 10
    assert decode_varlong(data + b"\x7f", 0) == (n, len(data))
    if -(1 << 31) <= n < (1 << 31):
        assert decode_varint(data, 0) == (n, len(data))


def test_varint_known_encodings():
    assert encode_varint(0) == b"\x00"
    assert encode_varint(-1) == b"\x01"
    assert encode_varint(1) == b"\x02"
    assert encode_varint(63) == b"\x7e"
    assert encode_varint(-64) == b"\x7f"
    assert encode_varint(64) == b"\x80\x01"
    assert encode_varint(150) == b"\xac\x02"
    with pytest.raises(OverflowError):
        encode_varint(1 << 63)


# -- v2 by example ---------------------------------------------------------------------


@pytest.mark.parametrize("codec", CODECS)
def test_v2_round_trip_all_field_kinds(codec):
    builder = RecordBatchBuilder(
        compression_type=codec,
        producer_id=5,
        producer_epoch=2,
        base_sequence=9,
        base_offset=100,
        is_transactional=True,
    )
    rows = [
        (100, T, None, b"v0", []),
        (101, T + 1, b"", b"", []),
        (102, T - 5, b"k" * 300, None, [("a", b"1"), ("b", None)]),
        (105, T + 100000, b"key", b"x" * 10000, [("\u00e9t\u00e9", b"\x00" * 5)]),
    ]
    for offset, ts, key, value, headers in rows:
        assert builder.append(offset, ts, key, value, headers) > 0
    data = builder.build()
    batch = RecordBatch(data)
    assert batch.validate_crc()
    assert batch.compression_type == codecs.codec_id(codec)
    assert (batch.base_offset, batch.last_offset, batch.record_count) == (100, 105, 4)
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence) == (5, 2, 9)
    assert batch.is_transactional and not batch.is_control
    assert batch.base_timestamp == T and batch.max_timestamp == T + 100000
    assert [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in batch] == [
        (o, ts, k, v, tuple(h)) for o, ts, k, v, h in rows
    ]
    assert all(r.timestamp_type == TimestampType.CREATE_TIME for r in batch)


def test_v2_accepts_bytes_like_and_rejects_other_types():
    builder = RecordBatchBuilder()
    builder.append(0, T, bytearray(b"k"), memoryview(b"v"), [("h", bytearray(b"x"))])
    assert [(r.key, r.value, r.headers) for r in RecordBatch(builder.build())] == [
        (b"k", b"v", (("h", b"x"),))
    ]
    for bad in ("text", 5):
        with pytest.raises(TypeError):
            RecordBatchBuilder().append(0, T, None, bad)
        with pytest.raises(TypeError):
            RecordBatchBuilder().append(0, T, bad, b"v")


def test_v2_offsets_must_increase():
    builder = RecordBatchBuilder(base_offset=10)
    builder.append(10, T, None, b"a")
    with pytest.raises(IllegalArgumentError):
        builder.append(10, T, None, b"b")
    with pytest.raises(IllegalArgumentError):
        RecordBatchBuilder(base_offset=10).append(9, T, None, b"b")


def test_v2_batch_size_limit():
    builder = RecordBatchBuilder(batch_size=200)
    assert builder.append(0, T, None, b"x" * 500)  # the first record always fits
    assert builder.append(1, T, None, b"y") is None
    small = RecordBatchBuilder(batch_size=200)
    sizes = [small.append(i, T, None, b"z" * 10) for i in range(20)]
    assert None in sizes and small.size_in_bytes() <= 200
    assert len(list(RecordBatch(small.build()))) == small.record_count


def test_v2_empty_builder_builds_nothing():
    assert RecordBatchBuilder().build() == b""


def test_v2_none_timestamp_means_now():
    import time

    builder = RecordBatchBuilder()
    before = int(time.time() * 1000)
    builder.append(0, None, None, b"v")
    (record,) = RecordBatch(builder.build())
    assert before <= record.timestamp <= int(time.time() * 1000)


def test_estimate_is_an_upper_bound():
    for key, value, headers in [
        (None, None, []),
        (b"k" * 1000, b"v" * 100000, [("h" * 300, b"x" * 70000), ("n", None)]),
    ]:
        builder = RecordBatchBuilder()
        builder.append(0, T, key, value, headers)
        assert len(builder.build()) <= RecordBatchBuilder.estimate_size_in_bytes(
            key, value, headers
        )


def test_record_estimate_bounds_a_record_alone_in_its_batch():
    cases = [(None, b"v", None), (b"k" * 200, None, [("\u20ac" * 50, b"x" * 300)] * 200),
             (b"k", b"v" * 70000, [("h", None)])]
    for key, value, headers in cases:
        builder = RecordBatchBuilder()
        builder.append(0, T, key, value, headers or [])
        assert len(builder.build()) - HEADER_SIZE <= estimate_record_size(key, value, headers)


def test_column_estimates_match_the_record_estimate():
    keys = [None, b"", b"key"]
    values = [b"v", b"value" * 9, b""]
    headers = [None, [("a", b"1")], [("b\u00e9", None), ("c", b"")]]
    for key_column, header_column in [(None, None), (keys, None), (None, headers), (keys, headers)]:
        expected = [estimate_record_size(key_column[i] if key_column else None, values[i],
                                         header_column[i] if header_column else None) for i in range(3)]
        assert estimate_record_sizes(key_column, values, header_column) == expected
    # With keys, a value may be null (a tombstone).
    assert estimate_record_sizes([b"k"], [None]) == [estimate_record_size(b"k", None)]
    assert estimate_record_sizes([b"k"], [None], [None]) == [estimate_record_size(b"k", None)]


def test_log_append_time_builder_bit():
    builder = RecordBatchBuilder(timestamp_type=TimestampType.LOG_APPEND_TIME)
    builder.append(0, T, None, b"a")
    builder.append(1, T + 3, None, b"b")
    batch = RecordBatch(builder.build())
    assert batch.timestamp_type == TimestampType.LOG_APPEND_TIME
    assert [r.timestamp for r in batch] == [T + 3, T + 3]


# -- legacy by example -----------------------------------------------------------------


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", LEGACY_CODECS)
def test_legacy_round_trip(magic, codec):
    builder = LegacyRecordBatchBuilder(magic, codec)
    rows = [(0, T, None, b"a"), (1, T + 7, b"k", None), (2, T + 2, b"", b"c" * 5000)]
    for row in rows:
        assert builder.append(*row)
    mr = MemoryRecords(builder.build(), check_crcs=True)
    batches = list(mr)
    assert len(batches) == (1 if codec != "none" else 3)
    records = list(mr.records())
    expected_ts = [ts if magic else -1 for _, ts, _, _ in rows]
    assert [(r.offset, r.timestamp, r.key, r.value) for r in records] == [
        (o, ts, k, v) for (o, _, k, v), ts in zip(rows, expected_ts)
    ]
    if codec != "none":
        assert batches[0].base_offset == 0 and batches[0].last_offset == 2
        assert batches[0].record_count == 3
        assert batches[0].timestamp == (T + 7 if magic else -1)


def test_legacy_v1_compressed_inner_offsets_are_relative():
    builder = LegacyRecordBatchBuilder(1, "gzip")
    for offset in (50, 51, 52):
        builder.append(offset, T, None, b"v")
    data = builder.build()
    inner = codecs.decompress("gzip", MemoryRecords(data).__iter__().__next__().value)
    # Each message takes 35 bytes; the offsets are the first 8 of each.
    assert [int.from_bytes(inner[i : i + 8], "big") for i in (0, 35, 70)] == [0, 1, 2]
    assert [r.offset for r in MemoryRecords(data).records()] == [50, 51, 52]


def test_legacy_rejects_headers_and_zstd():
    with pytest.raises(IllegalArgumentError):
        LegacyRecordBatchBuilder(1).append(0, T, None, b"v", [("h", b"x")])
    with pytest.raises(UnsupportedCodecError):
        LegacyRecordBatchBuilder(1, "zstd")
    with pytest.raises(IllegalArgumentError):
        LegacyRecordBatchBuilder(2)


def test_memory_records_builder_facade():
    for magic in (0, 1, 2):
        builder = MemoryRecordsBuilder(magic=magic, compression_type="gzip")
        assert builder.magic == magic and builder.compression_type == 1
        for i in range(5):
            builder.append(i, T + i, b"k%d" % i, b"v%d" % i)
        assert builder.record_count == 5 and builder.size_in_bytes() > 0
        records = list(MemoryRecords(builder.build(), check_crcs=True).records())
        assert [r.value for r in records] == [b"v%d" % i for i in range(5)]
    with pytest.raises(IllegalArgumentError):
        MemoryRecordsBuilder(magic=1, producer_id=7)
    with pytest.raises(IllegalArgumentError):
        MemoryRecordsBuilder(magic=3)


# -- properties ------------------------------------------------------------------------

_bytes_or_none = st.one_of(st.none(), st.binary(max_size=300))
_headers = st.lists(st.tuples(st.text(max_size=20), _bytes_or_none), max_size=4)
_record = st.tuples(
    st.integers(min_value=0, max_value=5),  # gap to the next offset - 1
    st.integers(min_value=-(1 << 40), max_value=1 << 45),  # timestamp
    _bytes_or_none,
    _bytes_or_none,
    _headers,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    records=st.lists(_record, min_size=1, max_size=30),
    codec=st.sampled_from(CODECS),
    base_offset=st.integers(min_value=0, max_value=1 << 50),
    transactional=st.booleans(),
)
def test_v2_build_read_identity(records, codec, base_offset, transactional):
    builder = RecordBatchBuilder(
        compression_type=codec,
        base_offset=base_offset,
        is_transactional=transactional,
        producer_id=1 if transactional else -1,
        producer_epoch=0 if transactional else -1,
    )
    expected = []
    offset = base_offset - 1
    for gap, ts, key, value, headers in records:
        offset += gap + 1
        assert builder.append(offset, ts, key, value, headers) is not None
        expected.append((offset, ts, TimestampType.CREATE_TIME, key, value, tuple(headers)))
    mr = MemoryRecords(builder.build() * 2, check_crcs=True)  # two identical batches
    assert not mr.has_partial
    batches = list(mr)
    assert len(batches) == 2
    for batch in batches:
        assert [tuple(r) for r in batch] == expected
        assert batch.last_offset == expected[-1][0]
        assert batch.max_timestamp == max(r[1] for r in expected)
        assert batch.is_transactional == transactional


@settings(max_examples=100, deadline=None)
@given(
    records=st.lists(
        st.tuples(st.integers(min_value=0, max_value=1 << 42), _bytes_or_none, _bytes_or_none),
        min_size=1,
        max_size=20,
    ),
    magic=st.sampled_from([0, 1]),
    codec=st.sampled_from(LEGACY_CODECS),
)
def test_legacy_build_read_identity(records, magic, codec):
    builder = LegacyRecordBatchBuilder(magic, codec)
    for i, (ts, key, value) in enumerate(records):
        builder.append(i, ts, key, value)
    got = list(MemoryRecords(builder.build(), check_crcs=True).records())
    assert [(r.offset, r.key, r.value) for r in got] == [
        (i, k, v) for i, (_, k, v) in enumerate(records)
    ]
    assert [r.timestamp for r in got] == [ts if magic else -1 for ts, _, _ in records]


def test_v2_builder_field_ranges():
    with pytest.raises(IllegalArgumentError):
        RecordBatchBuilder(producer_epoch=1 << 15)
    with pytest.raises(IllegalArgumentError):
        RecordBatchBuilder(base_sequence=1 << 31)
    with pytest.raises(IllegalArgumentError):
        RecordBatchBuilder().append(1 << 31, T, None, b"v")
