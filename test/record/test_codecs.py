"""Compression codecs: round trips, framing variants, limits, failures."""

from __future__ import annotations

import gzip
import os
import random
import struct

import pytest

from kafka.errors import CorruptRecordError, KafkaError, UnsupportedCodecError
from kafka.record import MemoryRecords, RecordBatchBuilder, _lz4frame, codecs
from kafka.record._zstdframe import zstd_bound

ALL = ["gzip", "snappy", "lz4", "zstd"]
SAMPLES = [
    b"",
    b"x",
    b"hello world " * 10,
    os.urandom(1000),
    (b"0123456789abcdef" * 4096) + os.urandom(70000),  # > 64 KiB, > 32 KiB
]


def _available(name):
    return pytest.mark.skipif(not codecs.is_available(name), reason=name + " library missing")


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("magic", [0, 1, 2])
@pytest.mark.parametrize("data", SAMPLES, ids=[str(len(s)) for s in SAMPLES])
def test_round_trip(name, magic, data):
    if not codecs.is_available(name):
        pytest.skip(name + " library missing")
    compressed = codecs.compress(name, data, magic=magic)
    assert codecs.decompress(name, compressed, magic=magic) == data
    assert codecs.decompress(codecs.codec_id(name), memoryview(compressed), magic=magic) == data


def test_names_and_ids():
    names = ["none", "gzip", "snappy", "lz4", "zstd"]
    assert [codecs.codec_id(n) for n in names] == [0, 1, 2, 3, 4]
    assert codecs.codec_id(None) == 0 and codecs.codec_id("GZIP") == 1 and codecs.codec_id(3) == 3
    assert [codecs.codec_name(i) for i in range(5)] == ["none", "gzip", "snappy", "lz4", "zstd"]
    for bad in ("brotli", 5, -1, 7, 2.0):
        with pytest.raises(UnsupportedCodecError):
            codecs.codec_id(bad)
    assert codecs.is_available("none") and codecs.is_available("gzip")


def test_none_codec_is_identity():
    assert codecs.compress("none", b"abc") == b"abc"
    assert codecs.decompress(0, b"abc") == b"abc"


def test_gzip_reads_concatenated_members():
    data = gzip.compress(b"abc") + gzip.compress(b"def")
    assert codecs.decompress("gzip", data) == b"abcdef"


# -- snappy -----------------------------------------------------------------


@_available("snappy")
def test_snappy_writes_xerial_framing():
    data = os.urandom(100000)
    out = codecs.compress("snappy", data)
    assert out[:16] == b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1)
    # Chunks of at most 32 KiB: walk them.
    pos, chunks = 16, 0
    while pos < len(out):
        (size,) = struct.unpack_from(">i", out, pos)
        pos += 4 + size
        chunks += 1
    assert pos == len(out) and chunks == 4


@_available("snappy")
def test_snappy_reads_raw_block():
    cramjam = pytest.importorskip("cramjam")
    data = b"raw snappy " * 500
    assert codecs.decompress("snappy", bytes(cramjam.snappy.compress_raw(data))) == data


@_available("snappy")
def test_snappy_with_python_snappy_only(monkeypatch):
    pytest.importorskip("snappy")
    if codecs._python_snappy is None:
        pytest.skip("python-snappy missing")
    monkeypatch.setattr(codecs, "_cramjam", None)
    data = os.urandom(5000) + b"z" * 50000
    out = codecs.compress("snappy", data)
    assert codecs.decompress("snappy", out) == data
    with pytest.raises(CorruptRecordError):
        codecs.decompress("snappy", out[:-3])


# -- lz4 -----------------------------------------------------------------------


@_available("lz4")
def test_lz4_frames_are_standard_for_v1_v2():
    lz4_frame = pytest.importorskip("lz4.frame")
    data = os.urandom(1000) * 200
    for magic in (1, 2):
        out = codecs.compress("lz4", data, magic=magic)
        # FLG 0x60: version 01, independent blocks; BD 0x40: 64 KiB blocks.
        assert out[:6] == b"\x04\x22\x4d\x18\x60\x40"
        assert lz4_frame.decompress(out) == data


@_available("lz4")
def test_lz4_magic0_uses_the_kafka_3160_checksum():
    lz4_frame = pytest.importorskip("lz4.frame")
    data = b"old kafka " * 100
    good = codecs.compress("lz4", data, magic=1)
    old = codecs.compress("lz4", data, magic=0)
    assert old[:6] == good[:6] and old[7:] == good[7:]
    assert good[6] == _lz4frame.header_checksum(b"\x60\x40") == 0x82
    # The broken form hashes the magic number as well.
    assert old[6] == (_lz4frame.xxh32(b"\x04\x22\x4d\x18\x60\x40") >> 8) & 0xFF != 0x82
    with pytest.raises(RuntimeError):
        lz4_frame.decompress(old)  # a correct decoder rejects it...
    assert codecs.decompress("lz4", old, magic=0) == data  # ...we repair it
    assert codecs.decompress("lz4", good, magic=0) == data  # correct HC also fine
    with pytest.raises(CorruptRecordError):
        codecs.decompress("lz4", old, magic=1)  # only magic 0 gets the repair


@_available("lz4")
def test_lz4_repair_with_content_size_and_checksums():
    lz4_frame = pytest.importorskip("lz4.frame")
    data = os.urandom(300) * 1000
    frame = bytearray(
        lz4_frame.compress(data, store_size=True, content_checksum=True, block_checksum=True)
    )
    hc_pos = 6 + 8
    frame[hc_pos] = (_lz4frame.xxh32(bytes(frame[:hc_pos])) >> 8) & 0xFF  # break it
    assert codecs.decompress("lz4", bytes(frame), magic=0) == data


def test_xxh32_matches_lz4_content_checksum():
    lz4_frame = pytest.importorskip("lz4.frame")
    for size in (0, 1, 4, 15, 16, 17, 33, 1000):
        data = os.urandom(size)
        frame = lz4_frame.compress(data, content_checksum=True)
        assert _lz4frame.xxh32(data) == struct.unpack("<I", frame[-4:])[0]


@pytest.mark.parametrize("linked", [False, True])
def test_lz4_cramjam_backend(monkeypatch, linked):
    pytest.importorskip("cramjam")
    lz4_frame = pytest.importorskip("lz4.frame")
    data = os.urandom(2000) * 100
    foreign = lz4_frame.compress(data, block_linked=linked, content_checksum=True)
    monkeypatch.setattr(codecs, "_lz4_frame", None)
    monkeypatch.setattr(codecs, "_lz4_block", None)
    assert codecs.is_available("lz4")
    ours = codecs.compress("lz4", data)
    assert lz4_frame.decompress(ours) == data
    assert codecs.decompress("lz4", ours) == data
    assert codecs.decompress("lz4", foreign) == data
    with pytest.raises(CorruptRecordError):
        codecs.decompress("lz4", ours, max_output=len(data) // 2)


# -- zstd ------------------------------------------------------------------------


@_available("zstd")
def test_zstd_streamed_frames_without_content_size():
    zstandard = pytest.importorskip("zstandard")
    data = os.urandom(50000) + b"q" * 300000
    cobj = zstandard.ZstdCompressor().compressobj()
    streamed = cobj.compress(data) + cobj.flush()
    assert zstandard.frame_content_size(streamed) == -1
    assert codecs.decompress("zstd", streamed) == data
    two = streamed + zstandard.ZstdCompressor().compress(b"tail")
    assert codecs.decompress("zstd", two) == data + b"tail"


def test_zstd_cramjam_backend(monkeypatch):
    pytest.importorskip("cramjam")
    zstandard = pytest.importorskip("zstandard")
    data = os.urandom(50000) + b"q" * 300000
    cobj = zstandard.ZstdCompressor().compressobj()
    streamed = cobj.compress(data) + cobj.flush()
    monkeypatch.setattr(codecs, "_zstandard", None)
    assert codecs.decompress("zstd", streamed) == data
    assert codecs.decompress("zstd", codecs.compress("zstd", data)) == data
    with pytest.raises(CorruptRecordError):
        codecs.decompress("zstd", streamed, max_output=100000)
    with pytest.raises(CorruptRecordError):
        codecs.decompress("zstd", streamed[:-5])


def test_zstd_bound_walks_frames():
    zstandard = pytest.importorskip("zstandard")
    data = b"a" * 1_000_000
    frame = zstandard.ZstdCompressor().compress(data)
    assert zstd_bound(frame) >= len(data)
    skippable = struct.pack("<II", 0x184D2A50, 3) + b"abc"
    assert zstd_bound(skippable + frame) == zstd_bound(frame)
    for bad in (b"", b"\x00" * 10, frame[:-1], frame[:7]):
        with pytest.raises(CorruptRecordError):
            zstd_bound(bad)


# -- limits and corruption ---------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_decompression_bomb_is_refused(name):
    if not codecs.is_available(name):
        pytest.skip(name + " library missing")
    bomb = codecs.compress(name, b"\x00" * (8 << 20))
    assert len(bomb) < (1 << 20)
    with pytest.raises(CorruptRecordError, match="limit"):
        codecs.decompress(name, bomb, max_output=1 << 20)
    assert len(codecs.decompress(name, bomb, max_output=8 << 20)) == 8 << 20


@pytest.mark.parametrize("name", ALL)
def test_garbage_and_truncation_raise_corrupt(name):
    if not codecs.is_available(name):
        pytest.skip(name + " library missing")
    original = os.urandom(3000) + b"abc" * 3000
    good = codecs.compress(name, original)
    candidates = [b"", b"\xff" * 50] + [b"\x00"] * (name != "snappy")  # 00: empty snappy
    candidates += [good[:cut] for cut in range(0, len(good), max(1, len(good) // 40))]
    for data in candidates:
        for magic in (0, 2):
            try:
                out = codecs.decompress(name, data, magic=magic)
            except CorruptRecordError:
                continue
            # Only xerial snappy cut exactly between two chunks is valid.
            assert name == "snappy" and original.startswith(out), data


@pytest.mark.parametrize("name", ALL)
def test_bit_flips_never_escape_as_foreign_errors(name):
    if not codecs.is_available(name):
        pytest.skip(name + " library missing")
    rng = random.Random(11)
    original = os.urandom(2000) + b"abc" * 2000
    good = codecs.compress(name, original)
    for _ in range(300):
        data = bytearray(good)
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
        try:
            codecs.decompress(name, bytes(data), max_output=1 << 20)
        except KafkaError:
            pass


# -- missing libraries --------------------------------------------------------------

MISSING = {
    "snappy": ["_cramjam", "_python_snappy"],
    "lz4": ["_cramjam", "_lz4_frame", "_lz4_block"],
    "zstd": ["_cramjam", "_zstandard"],
}


@pytest.mark.parametrize("name", sorted(MISSING))
def test_missing_library_error_names_the_extra(monkeypatch, name):
    payload = codecs.compress(name, b"data") if codecs.is_available(name) else b"xx"
    for attr in MISSING[name]:
        monkeypatch.setattr(codecs, attr, None)
    assert not codecs.is_available(name)
    hint = "pip install kafkawire[%s]" % name
    with pytest.raises(UnsupportedCodecError, match=r"pip install kafkawire\[%s\]" % name) as info:
        codecs.compress(name, b"data")
    assert hint in str(info.value)
    with pytest.raises(UnsupportedCodecError, match=r"kafkawire\[%s\]" % name):
        codecs.decompress(name, payload)
    with pytest.raises(UnsupportedCodecError, match=r"kafkawire\[%s\]" % name):
        RecordBatchBuilder(compression_type=name)


def test_missing_library_while_reading_a_batch(monkeypatch):
    if not codecs.is_available("zstd"):
        pytest.skip("zstd library missing")
    builder = RecordBatchBuilder(compression_type="zstd")
    builder.append(0, 1, None, b"v")
    data = builder.build()
    monkeypatch.setattr(codecs, "_zstandard", None)
    monkeypatch.setattr(codecs, "_cramjam", None)
    (batch,) = list(MemoryRecords(data))
    with pytest.raises(UnsupportedCodecError, match=r"kafkawire\[zstd\]"):
        list(batch)


@pytest.mark.parametrize(
    "missing",
    [
        ["_lz4_frame", "_lz4_block", "_zstandard", "_python_snappy"],  # cramjam only
        ["_cramjam"],  # lz4, zstandard, python-snappy only
    ],
)
def test_builders_and_readers_with_each_backend(monkeypatch, missing):
    from kafka.record import LegacyRecordBatchBuilder

    for attr in missing:
        monkeypatch.setattr(codecs, attr, None)
    for name in ALL:
        if not codecs.is_available(name):
            continue
        builder = RecordBatchBuilder(compression_type=name)
        for i in range(300):
            builder.append(i, 1, None, b"value %d " % i * 30)
        values = [r.value for r in MemoryRecords(builder.build(), check_crcs=True).records()]
        assert values == [b"value %d " % i * 30 for i in range(300)]
        if name != "zstd":
            legacy = LegacyRecordBatchBuilder(1, name)
            legacy.append(0, 1, None, b"x" * 1000)
            assert [r.value for r in MemoryRecords(legacy.build()).records()] == [b"x" * 1000]


@_available("snappy")
def test_snappy_block_claiming_an_impossible_length():
    # A 6-byte raw block announcing 100 MB: refused before any allocation.
    block = bytes([0x80, 0xC2, 0xD7, 0x2F]) + b"\x00\x00"
    with pytest.raises(CorruptRecordError, match="impossible"):
        codecs.decompress("snappy", block)
