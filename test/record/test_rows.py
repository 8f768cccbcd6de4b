"""RecordBatch.rows: the consumer's row layout built straight from the bytes."""

from __future__ import annotations

from collections import namedtuple

import pytest

from kafka.errors import IllegalArgumentError
from kafka.record.batch import RecordBatchBuilder
from kafka.record.memory_records import MemoryRecords

Row = namedtuple("Row", "topic partition epoch offset timestamp timestamp_type key value headers checksum "
                        "key_size value_size header_size")



def header_size(headers):
    """kafka-python's serialized_header_size: UTF-8 keys plus values, -1 without headers."""
    if not headers:
        return -1
    return sum(len(k.encode("utf-8")) + (len(v) if v is not None else 0) for k, v in headers)

def _batch(**kwargs):
    builder = RecordBatchBuilder(base_offset=40, **kwargs)
    builder.append(40, 1000, None, b"v1")
    builder.append(41, 1005, b"key", None, [("h", b"x")])
    builder.append(42, 999, b"", b"")
    return next(iter(MemoryRecords(builder.build())))


@pytest.mark.parametrize("codec", [0, 1])
def test_rows_hold_the_same_records_with_sizes(codec):
    batch = _batch(compression_type=codec)
    rows = batch.rows(Row, ("t", 3, 7))
    assert all(type(row) is Row for row in rows)
    assert [tuple(row) for row in rows] == [
        ("t", 3, 7, r.offset, r.timestamp, r.timestamp_type, r.key, r.value, r.headers, None,
         -1 if r.key is None else len(r.key), -1 if r.value is None else len(r.value), header_size(r.headers))
        for r in _batch(compression_type=codec).records()]
    assert [(row.key_size, row.value_size) for row in rows] == [(-1, 2), (3, -1), (0, 0)]


def test_a_control_batch_has_no_rows():
    builder = RecordBatchBuilder(is_control=True, is_transactional=True, producer_id=5, producer_epoch=0)
    # A COMMIT marker: key = version 0 + type 1, value = version 0 + coordinator epoch 0.
    builder.append(0, 1000, b"\x00\x00\x00\x01", b"\x00\x00\x00\x00\x00\x00")
    batch = next(iter(MemoryRecords(builder.build())))
    assert batch.is_control_batch
    with pytest.raises(IllegalArgumentError):
        batch.rows(Row, ("t", 0, 0))
