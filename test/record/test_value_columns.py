"""encode_values: record bytes of value-only records, checked against the v2 record layout.

The expected bytes below are worked out by hand from the record format of
the protocol guide: length varint, attributes, timestamp delta, offset
delta, key length (-1: null, zig-zag 0x01), value length, value, header
count. Varints are zig-zag: n >= 0 encodes as 2n, -n as 2n - 1, so 64 is
0x80 0x01 and -1 is 0x01.
"""

from __future__ import annotations

import os
import random

import pytest

from kafka.record import value_columns
from kafka.record.batch import HEADER_SIZE, RecordBatch, RecordBatchBuilder
from kafka.record.record_encoding import join_records
from kafka.record.value_columns import encode_values

T = 1_700_000_000_000


def test_two_short_records_from_the_spec():
    # Record 0: 00 attrs, 00 ts delta, 00 offset delta, 01 null key, 04 value length 2, "ab", 00 headers:
    # 8 bytes, length 16 = 0x10. Record 1: offset delta 1 = 0x02, empty value: 6 bytes, length 0x0c.
    assert encode_values([T, T], [b"ab", b""], 0, T) == (
        b"\x10\x00\x00\x00\x01\x04ab\x00" + b"\x0c\x00\x00\x02\x01\x00\x00")


def test_a_64_byte_value_takes_two_byte_lengths():
    value = bytes(range(64))
    # Value length 64 -> 0x80 0x01; the record is 00 00 00 01 80 01 + 64 + 00 = 71 bytes -> 142 -> 0x8e 0x01.
    assert encode_values([T], [value], 0, T) == b"\x8e\x01\x00\x00\x00\x01\x80\x01" + value + b"\x00"


def test_offset_delta_64_takes_two_bytes():
    body = encode_values([T] * 65, [b""] * 65, 0, T)
    # Delta 63 -> 126 = 0x7e (6-byte record, length 0x0c); delta 64 -> 0x80 0x01 (7 bytes, length 0x0e).
    assert body[-15:] == b"\x0c\x00\x00\x7e\x01\x00\x00" + b"\x0e\x00\x00\x80\x01\x01\x00\x00"
    assert len(body) == 64 * 7 + 8


def test_timestamp_deltas_and_a_first_offset_delta():
    # Four runs of 12 records: the shortest runs the column encoder takes (_MIN_RUN_LENGTH).
    stamps = [T] * 12 + [T + 1] * 12 + [T - 1] * 12 + [T + (1 << 20)] * 12
    body = encode_values(stamps, [b"v"] * 48, 5, T)
    assert body is not None
    records = [body[i * 8: i * 8 + 8] for i in range(12)]  # the first run: 8-byte records, ts delta 0
    # Delta 5 -> 0x0a; each record 00 ts 0a 01 02 "v" 00 = 7 bytes, length 0x0e.
    assert records[0] == b"\x0e\x00\x00\x0a\x01\x02v\x00"
    # The run's last record has offset delta 16 -> 0x20.
    assert records[11] == b"\x0e\x00\x00\x20\x01\x02v\x00"
    rest = body[96:]
    # Timestamp delta 1 -> 0x02, offset delta 17 -> 0x22.
    assert rest[:8] == b"\x0e\x00\x02\x22\x01\x02v\x00"
    # Timestamp delta -1 -> 0x01, offset delta 29 -> 0x3a.
    assert rest[96:104] == b"\x0e\x00\x01\x3a\x01\x02v\x00"
    # Timestamp delta 2**20 -> zig-zag 2**21 -> 80 80 80 01; offset delta 41 -> 0x52; 10 bytes, length 0x14.
    assert rest[192:203] == b"\x14\x00\x80\x80\x80\x01\x52\x01\x02v\x00"
    assert len(rest) == 192 + 12 * 11


def test_runs_shorter_than_the_threshold_are_left_to_the_record_loop():
    # Twenty runs of 10: 19 runs beyond the first in 200 records, more than one per 12 (16).
    stamps = [T + i // 10 for i in range(200)]
    assert encode_values(stamps, [b"v"] * 200, 0, T) is None
    # Twenty runs of 12 are taken.
    stamps = [T + i // 12 for i in range(240)]
    assert encode_values(stamps, [b"v"] * 240, 0, T) is not None


def test_timestamps_that_keep_changing_are_left_to_the_record_loop():
    assert encode_values([T + i for i in range(100)], [b"v"] * 100, 0, T) is None
    assert encode_values([], [], 0, T) == b""


def _by_record_loop(stamps, values, first, base_ts):
    encoded, *_ = join_records(zip(stamps, [None] * len(values), values, [None] * len(values)), first, base_ts, -1)
    return encoded


@pytest.mark.parametrize("count", [1, 63, 64, 65, 8191, 8193])
@pytest.mark.parametrize("lengths", ["one", "spread", "boundaries"])
@pytest.mark.parametrize("first", [0, 60, 8190])
def test_the_record_loop_encodes_the_same_bytes(count, lengths, first):
    rng = random.Random(count * 7 + first)
    pick = {"one": lambda: 100, "spread": lambda: rng.randint(50, 150),
            "boundaries": lambda: rng.choice([0, 1, 63, 64, 127, 128, 8191, 8192, 20000])}[lengths]
    values = [os.urandom(pick()) for _ in range(count)]
    stamps = sorted(T + rng.choice([0, 0, 0, 1, 70, 9000, -3]) for _ in range(count // 16 + 1)) * 16
    stamps = sorted(stamps)[:count]
    assert encode_values(stamps, values, first, T) == _by_record_loop(stamps, values, first, T)


def test_a_builder_gets_columns_over_several_calls_right():
    builder = RecordBatchBuilder()
    first = [os.urandom(i % 200) for i in range(300)]
    second = [os.urandom(i % 90) for i in range(300)]
    builder.extend_values([T + 5] * 300, first)
    builder.extend_values([T + 7] * 150 + [T + 2] * 150, second)
    batch = RecordBatch(builder.build())
    assert (batch.base_timestamp, batch.max_timestamp, batch.last_offset_delta) == (T + 5, T + 7, 599)
    records = list(batch)
    assert [r.value for r in records] == first + second
    assert [r.timestamp for r in records] == [T + 5] * 300 + [T + 7] * 150 + [T + 2] * 150
    assert [r.offset for r in records] == list(range(600))


def test_none_values_and_stamps_still_go_through_the_record_loop():
    builder = RecordBatchBuilder()
    builder.extend_values([T] * 20, [b"x"] * 10 + [None] + [b"y"] * 9)
    assert [r.value for r in RecordBatch(builder.build())] == [b"x"] * 10 + [None] + [b"y"] * 9
    builder = RecordBatchBuilder()
    builder.extend_values([None] * 20, [b"x"] * 20)
    assert len(builder.build()) > HEADER_SIZE


def test_the_piece_tables_stay_bounded_and_right(monkeypatch):
    monkeypatch.setattr(value_columns, "_MAX_KEPT_LENGTHS", 4)
    monkeypatch.setattr(value_columns, "_MAX_KEPT_DELTAS", 10)
    monkeypatch.setattr(value_columns, "_kept", ([], []))
    monkeypatch.setattr(value_columns, "_HEADS", {})
    monkeypatch.setattr(value_columns, "_VALUE_LENGTHS", value_columns._LengthPieces(value_columns._value_length_piece))
    values = [os.urandom(i % 30) for i in range(100)]
    assert encode_values([T] * 100, values, 0, T) == _by_record_loop([T] * 100, values, 0, T)
    assert len(value_columns._kept[0]) == 10
    assert all(len(table) <= 4 for table in [*value_columns._HEADS.values(), value_columns._VALUE_LENGTHS])


def test_values_other_than_bytes_are_left_to_the_record_loop():
    assert encode_values([T] * 3, [b"a", bytearray(b"b"), b"c"], 0, T) is None
    assert encode_values([T] * 2, [b"a", None], 0, T) is None
    wide = memoryview(bytes(8)).cast("I")  # len() 2, 8 bytes
    builder = RecordBatchBuilder()
    builder.extend_values([T] * 2, [b"a", wide])
    assert [r.value for r in RecordBatch(builder.build())] == [b"a", bytes(8)]
