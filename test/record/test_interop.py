"""Cross-checks against an independent implementation (aiokafka's records).

Skipped when aiokafka is not installed.  Batches written by aiokafka must
read back identically with our readers, and ours with aiokafka's.
"""

from __future__ import annotations

import pytest

from kafka.record import (
    LegacyRecordBatchBuilder,
    MemoryRecords,
    RecordBatch,
    RecordBatchBuilder,
    codecs,
)

default_records = pytest.importorskip("aiokafka.record.default_records")
legacy_records = pytest.importorskip("aiokafka.record.legacy_records")

T = 1_700_000_000_000
ROWS = [
    (0, T, None, b"first", []),
    (1, T + 3, b"key", b"x" * 300, [("h1", b"v1"), ("h2", b"")]),
    (2, T - 2, b"", None, []),
    (3, T + 9000, b"k" * 70, b"y" * 5000, [("long" * 20, b"z" * 200)]),
]
CODECS = {
    name: cid
    for name, cid in (("none", 0), ("gzip", 1), ("snappy", 2), ("lz4", 3), ("zstd", 4))
    if codecs.is_available(name)
}


def _theirs_v2(cid):
    return default_records.DefaultRecordBatchBuilder(
        magic=2,
        compression_type=cid,
        is_transactional=0,
        producer_id=-1,
        producer_epoch=-1,
        base_sequence=-1,
        batch_size=1 << 20,
    )


@pytest.mark.parametrize("name", sorted(CODECS))
def test_we_read_their_v2(name):
    builder = _theirs_v2(CODECS[name])
    for row in ROWS:
        builder.append(*row)
    data = bytes(builder.build())
    batch = RecordBatch(data)
    assert batch.validate_crc()
    assert [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in batch] == [
        (o, ts, k, v, tuple(h)) for o, ts, k, v, h in ROWS
    ]


@pytest.mark.parametrize("name", sorted(CODECS))
def test_they_read_our_v2(name):
    builder = RecordBatchBuilder(compression_type=name)
    for row in ROWS:
        builder.append(*row)
    batch = default_records.DefaultRecordBatch(builder.build())
    assert batch.validate_crc()
    got = [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch]
    assert got == [(o, ts, k, v, list(h)) for o, ts, k, v, h in ROWS]


def test_uncompressed_v2_is_byte_identical_to_theirs():
    ours = RecordBatchBuilder()
    theirs = _theirs_v2(0)
    for row in ROWS:
        ours.append(*row)
        theirs.append(*row)
    assert ours.build() == bytes(theirs.build())


LEGACY = [(0, T, None, b"a"), (1, T + 1, b"k", b"b" * 100), (2, T + 2, b"", None)]


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("name", sorted(set(CODECS) - {"zstd"}))
def test_legacy_both_ways(magic, name):
    if name == "lz4" and magic == 0:
        pytest.skip("aiokafka does not support LZ4 with message format v0")
    theirs = legacy_records.LegacyRecordBatchBuilder(
        magic=magic, compression_type=CODECS[name], batch_size=1 << 20
    )
    ours = LegacyRecordBatchBuilder(magic, name)
    for row in LEGACY:
        theirs.append(*row)
        ours.append(*row)
    expected = [(o, ts if magic else -1, k, v) for o, ts, k, v in LEGACY]
    read_back = MemoryRecords(bytes(theirs.build()), check_crcs=True).records()
    got = [(r.offset, r.timestamp, r.key, r.value) for r in read_back]
    assert got == expected
    if name == "none":
        # aiokafka's reader takes one top-level message: compare bytes instead.
        assert ours.build() == bytes(theirs.build())
        return
    back = legacy_records.LegacyRecordBatch(ours.build(), magic)
    assert [(r.offset, r.timestamp if magic else -1, r.key, r.value) for r in back] == expected
