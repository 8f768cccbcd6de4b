"""RecordBatchBuilder.extend encodes exactly as one append per record."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka.errors import IllegalArgumentError
from kafka.record.batch import RecordBatchBuilder
from kafka.record.memory_records import MemoryRecords

optional_bytes = st.one_of(st.none(), st.binary(max_size=300))
headers = st.one_of(st.none(), st.lists(st.tuples(st.text(max_size=5), optional_bytes), max_size=3))
records = st.lists(st.tuples(st.integers(0, 2 ** 40), optional_bytes, optional_bytes, headers), min_size=1,
                   max_size=40)


@settings(max_examples=200, deadline=None)
@given(first=records, rest=records)
def test_extend_matches_append(first, rest):
    by_append = RecordBatchBuilder(producer_id=7, producer_epoch=1, base_sequence=3)
    for offset, (timestamp, key, value, hdrs) in enumerate(first + rest):
        assert by_append.append(offset, timestamp, key, value, hdrs) is not None
    by_extend = RecordBatchBuilder(producer_id=7, producer_epoch=1, base_sequence=3)
    by_extend.extend(first)
    by_extend.extend(rest)
    assert by_extend.build() == by_append.build()


def test_extended_batch_reads_back():
    builder = RecordBatchBuilder()
    builder.extend([(1000, None, b"a", None), (1003, b"k", b"b", [("h", b"v")]), (999, None, None, None)])
    batch = next(iter(MemoryRecords(builder.build())))
    got = [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch]
    assert got == [(0, 1000, None, b"a", []), (1, 1003, b"k", b"b", [("h", b"v")]), (2, 999, None, None, [])]
    assert batch.max_timestamp == 1003


def test_extend_refuses_to_overflow_batch_size():
    builder = RecordBatchBuilder(batch_size=200)
    with pytest.raises(IllegalArgumentError):
        builder.extend([(0, None, b"x" * 100, None), (0, None, b"y" * 100, None)])
    assert builder.record_count == 0
    # A single first record always fits, as with append().
    builder.extend([(0, None, b"z" * 500, None)])
    assert builder.record_count == 1


# Keyed records without headers take extend()'s inline path; an independent
# encoder (aiokafka's) must produce the very same bytes for them.
# Lengths around the one-, two- and three-byte varint bounds; the bytes are cheap to generate.
key_lengths = st.integers(0, 70) | st.integers(8185, 8200)
value_lengths = st.integers(0, 200) | st.integers(16_375, 16_390)
keyed_plain = st.lists(st.tuples(st.integers(0, 20_000), key_lengths, value_lengths, st.integers(0, 255)),
                       min_size=1, max_size=30)


@settings(max_examples=80, deadline=None)
@given(rows=keyed_plain, base=st.integers(0, 2 ** 41))
def test_extend_of_keyed_records_is_byte_identical_to_aiokafka(rows, base):
    _assert_extend_encodes_as_aiokafka([(base + delta, bytes([fill]) * key_length, bytes([255 - fill]) * value_length,
                                         None) for delta, key_length, value_length, fill in rows])


def _assert_extend_encodes_as_aiokafka(records):
    default_records = pytest.importorskip("aiokafka.record.default_records")
    theirs = default_records.DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=0, producer_id=-1, producer_epoch=-1, base_sequence=-1,
        batch_size=1 << 30)
    for offset, (timestamp, key, value, hdrs) in enumerate(records):
        theirs.append(offset, timestamp, key, value, hdrs or [])
    ours = RecordBatchBuilder()
    ours.extend(records)
    assert ours.build() == bytes(theirs.build())


# Records with headers take the same inline path, the headers encoded by _encode_headers.
header_lists = st.lists(st.tuples(st.text(max_size=6) | st.sampled_from(["trace-id", "h" * 70]),
                                  st.none() | st.binary(max_size=80)), max_size=4)
with_headers = st.lists(st.tuples(st.integers(0, 20_000), st.none() | st.binary(max_size=40), st.binary(max_size=150),
                                  header_lists), min_size=1, max_size=30)


@settings(max_examples=150, deadline=None)
@given(rows=with_headers, base=st.integers(0, 2 ** 41))
def test_extend_of_records_with_headers_is_byte_identical_to_aiokafka(rows, base):
    _assert_extend_encodes_as_aiokafka([(base + delta, key, value, hdrs or None) for delta, key, value, hdrs in rows])
