"""The PyPy record loop (append_records) encodes exactly as CPython's (join_records).

Both paths run on either interpreter: :func:`kafka.fast_paths.override`
switches the ``BYTES_BUILDER`` path on or off, and off PyPy a list-based
builder (:class:`~kafka.record.record_encoding.JoinBuilder`) stands in for
PyPy's ``__pypy__.builders.BytesBuilder``.
"""

from __future__ import annotations

from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka import fast_paths
from kafka.record import batch as batch_module
from kafka.record.batch import RecordBatchBuilder
from kafka.record.record_encoding import append_records, join_records

optional_bytes = st.one_of(st.none(), st.binary(max_size=300))
# Header keys are str (bytes ones take encode_general on both paths), values bytes or None (a
# bytearray one too).
header_values = optional_bytes | st.binary(max_size=3).map(bytearray)
headers = st.one_of(st.none(), st.lists(st.tuples(st.text(max_size=5), optional_bytes), max_size=3),
                    st.lists(st.tuples(st.text(max_size=5) | st.binary(max_size=3), header_values), max_size=3))
# Lengths around the one-, two- and three-byte varint bounds, and timestamps
# going backwards, far forwards, and missing (now).
values = optional_bytes | st.integers(8185, 8200).map(lambda n: b"v" * n) | st.binary(max_size=3).map(bytearray)
timestamps = st.one_of(st.none(), st.integers(0, 2 ** 40), st.integers(-5, 5))
records = st.lists(st.tuples(timestamps, optional_bytes, values, headers), min_size=1, max_size=40)


@pytest.fixture
def pypy_path():
    with fast_paths.override(BYTES_BUILDER=True):
        yield


def build(chunks):
    builder = RecordBatchBuilder(producer_id=7, producer_epoch=1, base_sequence=3)
    for chunk in chunks:
        builder.extend(chunk)
    return builder.build()


def fixed_time(chunks):
    # Records without a timestamp take the time of encoding: give them one for both encoders.
    return [[(1_700_000_000_000 if ts is None else ts, k, v, h) for ts, k, v, h in chunk] for chunk in chunks]


@settings(max_examples=200, deadline=None)
@given(first=records, rest=records)
def test_pypy_loop_matches_cpython_loop(first, rest):
    chunks = fixed_time([first, rest])
    with fast_paths.override(BYTES_BUILDER=False):
        expected = build(chunks)
    with fast_paths.override(BYTES_BUILDER=True):
        assert build(chunks) == expected


@settings(max_examples=100, deadline=None)
@given(rows=records, first_delta=st.integers(0, 20_000))
def test_append_records_returns_the_same_state_as_the_join(rows, first_delta):
    rows = fixed_time([rows])[0]
    parts: List[bytes] = []
    state = append_records(rows, first_delta, None, -1, parts.append)
    joined, *joined_state = join_records(rows, first_delta, None, -1)
    assert b"".join(parts) == joined
    assert list(state) == joined_state


def test_pypy_path_stamps_records_without_timestamp(pypy_path):
    builder = RecordBatchBuilder()
    builder.extend([(None, None, b"a", None), (None, b"k", b"b", None)])
    batch = builder.build()
    assert batch_module.RecordBatch(batch).validate_crc()
    assert [r.value for r in batch_module.RecordBatch(batch)] == [b"a", b"b"]


def test_pypy_path_rejects_what_the_join_rejects(pypy_path):
    with pytest.raises(TypeError):
        RecordBatchBuilder().extend([(0, None, "text", None)])
