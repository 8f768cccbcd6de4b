"""encode_value_batches: record bytes of value-only records, checked against the v2 record layout.

The expected bytes below are worked out by hand from the record format of
the protocol guide: length varint, attributes, timestamp delta, offset
delta, key length (-1: null, zig-zag 0x01), value length, value, header
count. Varints are zig-zag: n >= 0 encodes as 2n, so 64 is 0x80 0x01.
"""

from __future__ import annotations

import os
import random

import pytest

from kafka.record import value_columns
from kafka.record.batch import RecordBatch, RecordBatchBuilder
from kafka.record.prebuilt import build_batch
from kafka.record.value_columns import encode_value_batches


def test_two_short_records_from_the_spec():
    # Record 0: 00 attrs, 00 ts delta, 00 offset delta, 01 null key, 04 value length 2, "ab", 00 headers:
    # 8 bytes, length 16 = 0x10. Record 1: offset delta 1 = 0x02, empty value: 6 bytes, length 0x0c.
    assert encode_value_batches([b"ab", b""], [2]) == [
        b"\x10\x00\x00\x00\x01\x04ab\x00" + b"\x0c\x00\x00\x02\x01\x00\x00"]


def test_a_64_byte_value_takes_two_byte_lengths():
    value = bytes(range(64))
    # Value length 64 -> 0x80 0x01; the record is 00 00 00 01 80 01 + 64 + 00 = 71 bytes -> 142 -> 0x8e 0x01.
    assert encode_value_batches([value], [1]) == [b"\x8e\x01\x00\x00\x00\x01\x80\x01" + value + b"\x00"]


def test_offset_delta_64_takes_two_bytes():
    [body] = encode_value_batches([b""] * 65, [65])
    # Delta 63 -> 126 = 0x7e (6-byte record, length 0x0c); delta 64 -> 0x80 0x01 (7 bytes, length 0x0e).
    assert body[-15:] == b"\x0c\x00\x00\x7e\x01\x00\x00" + b"\x0e\x00\x00\x80\x01\x01\x00\x00"
    assert len(body) == 64 * 7 + 8


def test_each_batch_counts_its_offset_deltas_from_zero():
    # Each record: 00 00, its delta, 01, 02 (length 1), the value, 00: 7 bytes, length 0x0e.
    assert encode_value_batches([b"a", b"b", b"c"], [1, 2]) == [
        b"\x0e\x00\x00\x00\x01\x02a\x00",
        b"\x0e\x00\x00\x00\x01\x02b\x00" + b"\x0e\x00\x00\x02\x01\x02c\x00",
    ]
    assert encode_value_batches([], []) == []


def _builder_body(values):
    builder = RecordBatchBuilder()
    for i, value in enumerate(values):
        builder.append(i, 1700000000000, None, value, [])
    return builder.build()


@pytest.mark.parametrize("count", [1, 63, 64, 65, 8191, 8192, 8193])
@pytest.mark.parametrize("lengths", ["one", "spread", "boundaries"])
def test_batches_match_the_record_builder(count, lengths):
    rng = random.Random(count)
    pick = {"one": lambda: 100, "spread": lambda: rng.randint(50, 150),
            "boundaries": lambda: rng.choice([0, 1, 63, 64, 127, 128, 8191, 8192, 20000])}[lengths]
    values = [os.urandom(pick()) for _ in range(count)]
    [body] = encode_value_batches(values, [count])
    batch = build_batch(body, count, 1700000000000, 1700000000000)
    assert batch == _builder_body(values)
    records = list(RecordBatch(batch))
    assert [r.value for r in records] == values and [r.offset for r in records] == list(range(count))
    assert all(r.key is None and not r.headers for r in records)


def test_the_piece_tables_stay_bounded_and_right(monkeypatch):
    monkeypatch.setattr(value_columns, "_MAX_KEPT_LENGTHS", 4)
    monkeypatch.setattr(value_columns, "_MAX_KEPT_DELTAS", 10)
    monkeypatch.setattr(value_columns, "_deltas_kept", [])
    for table in value_columns._HEADS + [value_columns._VALUE_LENGTHS]:
        table.clear()
    values = [os.urandom(i % 30) for i in range(100)]
    [body] = encode_value_batches(values, [100])
    assert build_batch(body, 100, 1700000000000, 1700000000000) == _builder_body(values)
    assert len(value_columns._deltas_kept) == 10
    assert all(len(table) <= 4 for table in value_columns._HEADS + [value_columns._VALUE_LENGTHS])
