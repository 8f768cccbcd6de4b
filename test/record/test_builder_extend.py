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
