"""MemoryRecords: sequences of batches, partial tails, corrupt headers."""

from __future__ import annotations

import struct

import pytest

from kafka.errors import ChecksumError, CorruptRecordError
from kafka.record import (
    LegacyRecordBatch,
    LegacyRecordBatchBuilder,
    MemoryRecords,
    RecordBatch,
    RecordBatchBuilder,
)

T = 1_700_000_000_000


def v2_batch(base, n, codec="none"):
    builder = RecordBatchBuilder(base_offset=base, compression_type=codec)
    for i in range(n):
        builder.append(base + i, T + i, b"k%d" % i, b"value-%d" % (base + i), [("h", b"%d" % i)])
    return builder.build()


def legacy(magic, base, n, codec="none"):
    builder = LegacyRecordBatchBuilder(magic, codec)
    for i in range(n):
        builder.append(base + i, T + i, None, b"value-%d" % (base + i))
    return builder.build()


def mixed_blob():
    # A log that went through message format upgrades: v0, v1, then v2.
    return legacy(0, 0, 2) + legacy(1, 2, 3, "gzip") + v2_batch(5, 4) + v2_batch(9, 3, "gzip")


def test_iterates_batches_of_every_magic():
    mr = MemoryRecords(mixed_blob(), check_crcs=True)
    assert not mr.has_partial and mr.partial_bytes == 0
    assert mr.valid_bytes == mr.size_in_bytes() == len(mixed_blob())
    batches = list(mr)
    assert [b.magic for b in batches] == [0, 0, 1, 2, 2]
    assert [type(b) for b in batches] == [LegacyRecordBatch] * 3 + [RecordBatch] * 2
    assert mr.batch_count == 5
    assert [r.offset for r in mr.records()] == list(range(12))
    assert [r.value for r in mr.records()] == [b"value-%d" % i for i in range(12)]


def test_empty_blob():
    mr = MemoryRecords(b"")
    assert list(mr) == [] and not mr.has_partial and mr.valid_bytes == 0


@pytest.mark.parametrize("data_type", [bytes, bytearray, memoryview])
def test_accepts_bytes_like(data_type):
    blob = mixed_blob()
    assert len(list(MemoryRecords(data_type(blob)).records())) == 12


def test_partial_tail_at_every_cut_is_reported_not_yielded():
    blob = mixed_blob()
    ends = []
    pos = 0
    for batch in MemoryRecords(blob):
        pos += batch.size_in_bytes
        ends.append(pos)
    for cut in range(len(blob) + 1):
        mr = MemoryRecords(blob[:cut])
        complete = [e for e in ends if e <= cut]
        batches = list(mr)  # never raises: a short tail is normal
        assert len(batches) == len(complete)
        assert mr.valid_bytes == (complete[-1] if complete else 0)
        assert mr.partial_bytes == cut - mr.valid_bytes
        assert mr.has_partial == (cut not in ends and cut != 0)


def test_corrupt_length_raises_after_good_batches():
    good = v2_batch(0, 2)
    bad = bytearray(v2_batch(2, 2))
    struct.pack_into(">i", bad, 8, 3)  # batchLength 3: smaller than any header
    mr = MemoryRecords(good + bytes(bad))
    it = iter(mr)
    assert next(it).base_offset == 0
    with pytest.raises(CorruptRecordError, match="length"):
        next(it)


def test_length_too_small_for_v2_header():
    bad = bytearray(v2_batch(0, 1))
    struct.pack_into(">i", bad, 8, 30)  # enough for v0, not for a v2 header
    with pytest.raises(CorruptRecordError):
        list(MemoryRecords(bytes(bad)))


def test_unknown_magic():
    bad = bytearray(v2_batch(0, 1))
    bad[16] = 3
    with pytest.raises(CorruptRecordError, match="magic"):
        list(MemoryRecords(bytes(bad)))


def test_check_crcs_flags_each_format():
    for blob in (v2_batch(0, 3), v2_batch(0, 3, "gzip"), legacy(0, 0, 2), legacy(1, 0, 2, "gzip")):
        corrupted = bytearray(blob)
        corrupted[-2] ^= 0x40
        assert list(MemoryRecords(bytes(corrupted)))  # header still readable
        with pytest.raises(ChecksumError):
            list(MemoryRecords(bytes(corrupted), check_crcs=True))


def test_trailing_bytes_inside_a_v2_batch_are_corrupt():
    blob = bytearray(v2_batch(0, 2))
    blob += b"\x00\x00"  # extend the batch by two bytes the records do not use
    struct.pack_into(">i", blob, 8, len(blob) - 12)
    with pytest.raises(CorruptRecordError):
        list(RecordBatch(bytes(blob)))


def test_record_count_larger_than_data():
    blob = bytearray(v2_batch(0, 2))
    struct.pack_into(">i", blob, 57, 1 << 30)
    with pytest.raises(CorruptRecordError, match="count"):
        list(RecordBatch(bytes(blob)))
    struct.pack_into(">i", blob, 57, -1)
    with pytest.raises(CorruptRecordError):
        list(RecordBatch(bytes(blob)))


def test_record_batch_direct_construction_checks():
    with pytest.raises(CorruptRecordError):
        RecordBatch(b"\x00" * 20)
    with pytest.raises(CorruptRecordError):
        RecordBatch(legacy(1, 0, 1))  # magic 1 is not a v2 batch
    blob = v2_batch(0, 1)
    with pytest.raises(CorruptRecordError):
        RecordBatch(blob[:-1])  # length field points past the end
    assert RecordBatch(b"junk" + blob, 4).base_offset == 0


def test_compressed_legacy_wrapper_rules():
    # Nested compression and empty wrappers are invalid.
    inner_compressed = legacy(1, 0, 2, "gzip")
    from kafka.record import codecs
    from kafka.record.legacy import encode_message

    nested = encode_message(1, 1, T, None, codecs.compress("gzip", inner_compressed), 0x01)
    with pytest.raises(CorruptRecordError, match="nested"):
        list(MemoryRecords(nested).records())
    empty = encode_message(1, 0, T, None, codecs.compress("gzip", b""), 0x01)
    with pytest.raises(CorruptRecordError, match="empty"):
        list(MemoryRecords(empty).records())
    null_value = encode_message(1, 0, T, None, None, 0x01)
    with pytest.raises(CorruptRecordError):
        list(MemoryRecords(null_value).records())
