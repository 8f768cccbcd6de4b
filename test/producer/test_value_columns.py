"""Batches keep key-less, header-less records as two columns, and on PyPy hand out index-only futures.

Both must be invisible: a batch encodes to the same bytes whichever way it
holds its records (on CPython's record loop and on PyPy's builder loop, with
a list-based builder standing in for PyPy's off PyPy), keeps the order of records when a keyed record
turns its columns into tuples, and a :class:`ValueRecordFuture` reports the
same metadata as the full :class:`FutureRecordMetadata` it replaces. The
PyPy-only paths are switched on here with :func:`kafka.fast_paths.override`
(``COMPACT_FUTURES``, ``BYTES_BUILDER``), so CPython runs them too.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka import fast_paths
from kafka.producer.accumulator import RecordAccumulator
from kafka.producer.batch import ProducerBatch, ValueColumns
from kafka.producer.future import FutureRecordMetadata, ValueRecordFuture
from kafka.record.batch import RecordBatch, RecordBatchBuilder
from kafka.structs import TopicPartition

TP = TopicPartition("t", 0)

stamps = st.integers(0, 2 ** 41) | st.integers(1_700_000_000_000, 1_700_000_000_300)
plain = st.tuples(stamps, st.binary(max_size=300) | st.integers(8185, 8200).map(lambda n: b"v" * n))
keyed = st.tuples(stamps, st.binary(max_size=20), st.binary(max_size=50),
                  st.none() | st.lists(st.tuples(st.text(max_size=5), st.none() | st.binary(max_size=5)), max_size=2))
# Each entry: a key-less, header-less record (2-tuple) or any other (4-tuple).
mixed = st.lists(plain | keyed, min_size=1, max_size=30)


def _as_record(entry):
    return (entry[0], None, entry[1], None) if len(entry) == 2 else entry


def _batch(entries) -> ProducerBatch:
    batch = ProducerBatch(TP, 0.0, 1 << 30)
    for entry in entries:
        timestamp, key, value, headers = _as_record(entry)
        assert batch.try_append(timestamp, key, value, headers, 1) is not None
    batch.producer_id, batch.producer_epoch, batch.base_sequence = 9, 2, 40
    return batch


def _tuple_encoding(records) -> bytes:
    builder = RecordBatchBuilder(producer_id=9, producer_epoch=2, base_sequence=40, batch_size=0x7FFFFFFF)
    builder.extend(records)
    return builder.build()


@settings(max_examples=150, deadline=None)
@given(entries=mixed, pypy_loop=st.booleans())
def test_a_batch_encodes_its_columns_as_the_tuples_they_stand_for(entries, pypy_loop):
    records = [_as_record(e) for e in entries]
    with fast_paths.override(BYTES_BUILDER=False):
        expected = _tuple_encoding(records)
    with fast_paths.override(BYTES_BUILDER=pypy_loop):
        batch = _batch(entries)
        assert batch.record_tuples() == records
        assert batch.record_count == len(records)
        assert (batch.values is not None) == all(len(e) == 2 for e in entries)
        assert batch.encode(0) == expected


def test_columns_turn_into_tuples_at_the_first_keyed_record_in_order():
    batch = _batch([(1, b"a"), (2, b"b")])
    assert batch.stamps == [1, 2] and batch.values == [b"a", b"b"] and batch.records == []
    batch.try_append(3, b"k", b"c", None, 1)
    batch.try_append(4, None, b"d", None, 1)
    assert batch.values is None and batch.stamps is None
    assert batch.records == [(1, None, b"a", None), (2, None, b"b", None), (3, b"k", b"c", None),
                             (4, None, b"d", None)]
    assert [r.value for r in RecordBatch(batch.encode(0))] == [b"a", b"b", b"c", b"d"]


def test_append_many_after_plain_appends_keeps_the_order():
    acc = RecordAccumulator(batch_size=1 << 20)
    acc.append(TP, 5, None, b"first", None, 1.0)
    placed, _ = acc.append_many(TP, [(6, b"k", b"second", None), (7, None, b"third", None)], [30, 30], 1.0)
    [batch] = acc._batches[TP]
    assert placed == [(batch.result, 1, 2)]
    assert [r[2] for r in batch.record_tuples()] == [b"first", b"second", b"third"]


def test_value_columns_join_a_batch_as_columns_or_as_tuples_after_a_keyed_record():
    acc = RecordAccumulator(batch_size=1 << 20)
    acc.append(TP, 5, None, b"first", None, 1.0)
    acc.append_many(TP, ValueColumns([6, 6], [b"second", b"third"]), [30, 30], 1.0)
    [batch] = acc._batches[TP]
    assert batch.stamps == [5, 6, 6] and batch.values == [b"first", b"second", b"third"]
    acc.append_many(TP, [(7, b"k", b"fourth", None)], [30], 1.0)
    placed, _ = acc.append_many(TP, ValueColumns([8, 9], [b"fifth", b"sixth"])[1:], [30], 1.0)
    assert placed == [(batch.result, 4, 1)]
    assert batch.values is None and batch.records == [
        (5, None, b"first", None), (6, None, b"second", None), (6, None, b"third", None),
        (7, b"k", b"fourth", None), (9, None, b"sixth", None)]
    assert [r.value for r in RecordBatch(batch.encode(0))] == [b"first", b"second", b"third", b"fourth", b"sixth"]


def test_value_columns_take_records_in_the_order_asked():
    columns = ValueColumns([1, 2, 3], [b"a", b"b", b"c"]).take([2, 0])
    assert (columns.stamps, columns.values, len(columns)) == ([3, 1], [b"c", b"a"], 2)


def _metadata_of(futures):
    return [(f.get(0).offset, f.get(0).timestamp, f.get(0).serialized_key_size, f.get(0).serialized_value_size,
             f.get(0).serialized_header_size, f.offset_and_timestamp()) for f in futures]


def test_records_without_key_and_headers_become_columns():
    records = [(5, None, b"a", None), (5, None, b"", None), (6, None, None, None)]
    columns = ValueColumns.from_records(records)
    assert columns is not None and (columns.stamps, columns.values) == ([5, 5, 6], [b"a", b"", None])
    # One record with a key or headers anywhere, or none at all: the records stay tuples.
    assert ValueColumns.from_records(records + [(7, b"k", b"b", None)]) is None
    assert ValueColumns.from_records(records + [(7, None, b"b", [("h", b"1")])]) is None
    assert ValueColumns.from_records([(7, None, b"b", ())] + records) is None
    assert ValueColumns.from_records([]) is None


@pytest.mark.parametrize("keyed_at", [None, 0, 2])
def test_index_only_futures_report_what_full_futures_do(keyed_at):
    def run(compact: bool):
        with fast_paths.override(COMPACT_FUTURES=compact):
            return appended()

    def appended():
        acc = RecordAccumulator(batch_size=1 << 20)
        futures = []
        for i in range(5):
            key = b"key" if i == keyed_at else None
            headers = [("h", b"xy")] if i == keyed_at else None
            futures.append(acc.append(TP, 1000 + i, key, b"v" * i, headers, 1.0)[0])
        # A record appended through try_append (a new batch's first) too.
        late = ProducerBatch(TP, 0.0, 100)
        futures.append(late.try_append(2000, None, b"late", None, 1))
        [batch] = acc._batches[TP]
        assert all(not f.is_done and f.value is None for f in futures)
        batch.done(base_offset=100, log_start_offset=3)
        late.done(base_offset=500)
        return futures

    full, compact = run(False), run(True)
    assert all(type(f) is FutureRecordMetadata for f in full)
    kinds = [type(f) for f in compact]
    # Records after the first keyed one were appended to tuples: full futures.
    plain_prefix = 5 if keyed_at is None else keyed_at
    assert kinds[:plain_prefix] == [ValueRecordFuture] * plain_prefix
    assert kinds[plain_prefix:5] == [FutureRecordMetadata] * (5 - plain_prefix)
    assert kinds[5] is ValueRecordFuture
    assert _metadata_of(compact) == _metadata_of(full)
    assert [f.get(0) for f in compact] == [f.get(0) for f in full]


@fast_paths.override(COMPACT_FUTURES=True)
def test_an_index_only_future_fails_like_a_full_one():
    acc = RecordAccumulator(batch_size=1 << 20)
    future = acc.append(TP, 1, None, b"v", None, 1.0)[0]
    assert type(future) is ValueRecordFuture
    [batch] = acc._batches[TP]
    error = RuntimeError("boom")
    batch.done(error=error)
    assert future.failed() and future.exception is error and future.value is None
    with pytest.raises(RuntimeError):
        future.get(0)
