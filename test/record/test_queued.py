"""build_queued_batch: queued records become the batch a builder makes appending them one by one."""

from __future__ import annotations

import pytest

from kafka.record import codecs
from kafka.record.batch import RecordBatch, RecordBatchBuilder
from kafka.record.queued import build_queued_batch, value_columns

STAMP = 1700000000000


def _appended(records, **settings) -> bytes:
    builder = RecordBatchBuilder(**settings)
    for offset, (timestamp, key, value, headers) in enumerate(records):
        assert builder.append(offset, timestamp, key, value, headers) is not None
    return builder.build()


VALUES_ONLY = [(STAMP + i // 20, None, b"v" * (50 + i % 100), None) for i in range(300)]
MIXED = [(STAMP + i % 3, b"k%d" % i if i % 2 else None, b"x" * i,
          [("h", b"1"), ("n", None)] if i % 5 == 0 else None) for i in range(120)]


@pytest.mark.parametrize("records", [VALUES_ONLY, MIXED, VALUES_ONLY[:1], MIXED[:1]], ids=["values", "mixed",
                                                                                          "one-value", "one-mixed"])
@pytest.mark.parametrize("compression", [codecs.NONE, codecs.GZIP])
def test_byte_for_byte_the_appended_batch(records, compression) -> None:
    got = build_queued_batch(records, compression_type=compression)
    assert got == _appended(records, compression_type=compression)
    read = list(RecordBatch(got))
    assert [(r.timestamp, r.key, r.value) for r in read] == [(t, k, v) for t, k, v, _h in records]


def test_producer_fields_and_no_records() -> None:
    settings = dict(is_transactional=True, producer_id=7, producer_epoch=1, base_sequence=40)
    assert build_queued_batch(MIXED, **settings) == _appended(MIXED, **settings)
    assert build_queued_batch([]) == b""


def test_value_columns_only_for_records_without_key_and_headers() -> None:
    assert value_columns(VALUES_ONLY[:3]) == ([STAMP] * 3, [r[2] for r in VALUES_ONLY[:3]])
    assert value_columns(MIXED) is None
    assert value_columns([(STAMP, None, b"v", None), (STAMP, None, b"w", [("h", b"")])]) is None
    assert value_columns([]) is None
