"""build_batch: a batch around records encoded elsewhere is byte for byte RecordBatchBuilder's."""

from __future__ import annotations

import pytest

from kafka.record import codecs
from kafka.record.batch import HEADER_SIZE, RecordBatch, RecordBatchBuilder
from kafka.record.prebuilt import build_batch


@pytest.mark.parametrize("compression", [codecs.NONE, codecs.GZIP])
@pytest.mark.parametrize("settings", [{}, dict(is_transactional=True, producer_id=99, producer_epoch=2,
                                                  base_sequence=1000, base_offset=5000, partition_leader_epoch=7)])
def test_the_batch_of_a_builder(compression, settings):
    records = [(1700000000000 + i % 3, None if i % 2 else b"k%d" % i, b"v" * i, None) for i in range(70)]
    builder = RecordBatchBuilder(compression_type=compression, **settings)
    builder.extend(records)
    plain = RecordBatchBuilder(**settings)
    plain.extend(records)
    body = plain.build()[HEADER_SIZE:]
    got = build_batch(body, 70, 1700000000000, 1700000000002, compression_type=compression, **settings)
    assert got == builder.build()
    assert [r.value for r in RecordBatch(got)] == [r[2] for r in records]
