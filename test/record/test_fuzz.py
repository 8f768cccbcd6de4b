"""Malformed input: only kafka.errors exceptions may escape, quickly.

Every case reads the input completely (all batches, all records, the CRCs,
the header-derived properties) and asserts that whatever is raised is a
:class:`~kafka.errors.KafkaError`, and that no single input takes long
(a hang or a huge allocation would show up as time).
"""

from __future__ import annotations

import random
import struct
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka.errors import KafkaError
from kafka.record import (
    LegacyRecordBatch,
    LegacyRecordBatchBuilder,
    MemoryRecords,
    RecordBatch,
    RecordBatchBuilder,
    codecs,
)
from kafka.record.record import ControlRecordType, encode_control_key, encode_marker_value

T = 1_700_000_000_000
# Keep decompression small so a fuzzed length cannot make a case slow.
MAX_OUTPUT = 1 << 20


def consume(data: bytes) -> None:
    """Read everything there is to read; raise whatever the reader raises."""
    for check in (False, True):
        mr = MemoryRecords(data, check_crcs=check, max_output=MAX_OUTPUT)
        _ = (mr.partial_bytes, mr.valid_bytes, mr.has_partial, repr(mr))
        for batch in mr:
            batch.validate_crc()
            _ = (repr(batch), batch.last_offset, batch.next_offset, batch.size_in_bytes)
            _ = (batch.base_offset, batch.record_count)  # decodes legacy wrappers
            for record in batch:
                _ = (record.offset, record.timestamp, record.key, record.value, record.headers)


def direct(data: bytes) -> None:
    """Hand the bytes straight to the batch classes, bypassing the scan."""
    for cls in (RecordBatch, LegacyRecordBatch):
        try:
            batch = cls(data, max_output=MAX_OUTPUT)
        except KafkaError:
            continue
        batch.validate_crc()
        list(batch)


def assert_only_kafka_errors(data: bytes) -> None:
    for fn in (consume, direct):
        try:
            fn(data)
        except KafkaError:
            pass


def _codecs():
    return [c for c in ("none", "gzip", "snappy", "lz4", "zstd") if codecs.is_available(c)]


def samples():
    """Small valid blobs of every kind, to be damaged by the tests."""
    out = {}
    for codec in _codecs():
        b = RecordBatchBuilder(
            compression_type=codec, base_offset=3, producer_id=9, producer_epoch=1
        )
        b.append(3, T, b"key", b"value", [("h", b"x"), ("n", None)])
        b.append(4, T + 1, None, b"v" * 70, [])
        b.append(6, T - 1, b"", None, [])
        out["v2-" + codec] = b.build()
        if codec != "zstd":
            for magic in (0, 1):
                lb = LegacyRecordBatchBuilder(magic, codec)
                lb.append(0, T, b"k", b"v")
                lb.append(1, T, None, b"w" * 40)
                out["v%d-%s" % (magic, codec)] = lb.build()
    control = RecordBatchBuilder(is_control=True, is_transactional=True, producer_id=1)
    control.append(0, T, encode_control_key(ControlRecordType.ABORT), encode_marker_value(3))
    out["v2-control"] = control.build()
    return out


SAMPLES = samples()


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_truncation_at_every_position(name):
    data = SAMPLES[name]
    ends = [0]
    for batch in MemoryRecords(data):
        ends.append(ends[-1] + batch.size_in_bytes)
    assert ends[-1] == len(data)
    for cut in range(len(data) + 1):
        piece = data[:cut]
        assert_only_kafka_errors(piece)
        # Through MemoryRecords a cut batch is a partial tail, never data.
        mr = MemoryRecords(piece)
        complete = max(e for e in ends if e <= cut)
        assert len(list(mr)) == ends.index(complete)
        assert mr.valid_bytes == complete and mr.partial_bytes == cut - complete


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_single_bit_flip(name):
    data = SAMPLES[name]
    for i in range(len(data)):
        for bit in range(8):
            flipped = bytearray(data)
            flipped[i] ^= 1 << bit
            assert_only_kafka_errors(bytes(flipped))


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_interesting_byte_values_everywhere(name):
    data = SAMPLES[name]
    for i in range(len(data)):
        for value in (0x00, 0x01, 0x7F, 0x80, 0xFF):
            changed = bytearray(data)
            changed[i] = value
            assert_only_kafka_errors(bytes(changed))


def test_bit_flips_are_caught_by_crc_checks():
    # Any damage after the CRC field of a v2 batch fails check_crcs (or an
    # earlier structural check); it is never read back as different data.
    data = SAMPLES["v2-none"]
    original = [tuple(r) for r in RecordBatch(data)]
    for i in range(21, len(data)):
        flipped = bytearray(data)
        flipped[i] ^= 0x10
        try:
            got = [tuple(r) for b in MemoryRecords(bytes(flipped), check_crcs=True) for r in b]
        except KafkaError:
            continue
        assert got == original  # unreachable in practice: the CRC covers it


def test_random_bytes():
    rng = random.Random(20240601)
    for _ in range(3000):
        size = rng.choice((rng.randrange(0, 80), rng.randrange(0, 2000)))
        assert_only_kafka_errors(bytes(rng.getrandbits(8) for _ in range(size)))


def test_random_bodies_behind_valid_headers():
    rng = random.Random(99)
    for name, data in SAMPLES.items():
        header_len = 61 if name.startswith("v2") else 22
        for _ in range(150):
            body = bytes(rng.getrandbits(8) for _ in range(len(data) - header_len))
            assert_only_kafka_errors(data[:header_len] + body)


def _v2_with_records(records: bytes, count: int) -> bytes:
    body = struct.pack(">hiqqqhii", 0, 0, T, T, -1, -1, -1, count) + records
    head = struct.pack(">qiib", 0, len(body) + 9, 0, 2)
    crc = __import__("kafka.record.crc", fromlist=["crc32c"]).crc32c(body)
    return head + struct.pack(">I", crc) + body


@pytest.mark.parametrize(
    "records,count",
    [
        (b"\xfe\xff\xff\xff\x0f" + b"\x00" * 10, 1),  # record length 2^31 - 1
        (b"\x0c\x00\x00\x00\x01\xfe\xff\xff\xff\x0f\x00", 1),  # value length 2^31 - 1
        (b"\x0c\x00\x00\x00\xfe\xff\xff\xff\x0f\x01\x00", 1),  # key length 2^31 - 1
        (b"\x0c\x00\x00\x00\x01\x01\xfe\xff\xff\xff\x0f", 1),  # header count 2^31 - 1
        (b"\x0c\x00\x00\x00\x01\x01\x02\xfe\xff\xff\x0f\x01", 1),  # header key length
        (b"\x0c\x00\x00\x00\x03\x01\x00", 1),  # key length -2
        (b"\x0c\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x01\x00", 1),  # 11-byte varlong
        (b"\x0e\x00\x00\x00\x01\x01\x02\x02\xff\xfe\x01", 1),  # header key not UTF-8
        (b"\x0c\x00\x00\x00\x01\x01\x00" * 3, 1 << 30),  # huge record count
        (b"\x0c\x00\x00\x00\x01\x01\x00", -5),  # negative record count
    ],
)
def test_huge_and_negative_lengths(records, count):
    data = _v2_with_records(records, count)
    tracemalloc.start()
    try:
        with pytest.raises(KafkaError):
            list(RecordBatch(data))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, "a claimed length made the reader allocate %d bytes" % peak


def test_legacy_huge_lengths():
    for key_len, value_len in ((0x7FFFFFFF, 0), (-2, 0), (-1, 0x7FFFFFFF), (-1, -7)):
        body = struct.pack(">bbqii", 1, 0, T, key_len, value_len)
        msg = struct.pack(">qiI", 0, len(body) + 4, 0) + body
        with pytest.raises(KafkaError):
            list(LegacyRecordBatch(msg))


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=400))
def test_hypothesis_arbitrary_bytes(data):
    assert_only_kafka_errors(data)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(sorted(SAMPLES)),
    edits=st.lists(
        st.tuples(st.integers(min_value=0), st.integers(0, 255)), min_size=1, max_size=6
    ),
)
def test_hypothesis_multi_byte_edits(name, edits):
    data = bytearray(SAMPLES[name])
    for pos, value in edits:
        data[pos % len(data)] = value
    assert_only_kafka_errors(bytes(data))
