"""kafka.simple.codec: the 0.9 compression functions over kafka.record.codecs."""

from __future__ import annotations

import gzip
import os
import struct

import pytest

from kafka.simple import codec
from kafka.errors import CorruptRecordError

PAYLOADS = [b"", b"a", b"some message", os.urandom(5000), b"0123456789abcdef" * 7000]
XERIAL_HEADER = bytes.fromhex(
    "82 53 4e 41 50 50 59 00"  # magic "\x82SNAPPY\x00"
    "00 00 00 01"              # version 1
    "00 00 00 01"              # compatible version 1
)


def test_has_functions():
    assert codec.has_gzip() is True
    for name in ("has_snappy", "has_lz4", "has_zstd"):
        assert isinstance(getattr(codec, name)(), bool)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_gzip_round_trip_and_interop(payload):
    encoded = codec.gzip_encode(payload)
    assert encoded[:2] == b"\x1f\x8b"  # gzip member header
    assert gzip.decompress(encoded) == payload
    assert codec.gzip_decode(encoded) == payload
    assert codec.gzip_decode(gzip.compress(payload)) == payload


def test_gzip_levels():
    data = b"abc" * 10000
    assert codec.gzip_decode(codec.gzip_encode(data, compresslevel=1)) == data
    assert codec.gzip_decode(codec.gzip_encode(data, compresslevel=0)) == data
    assert len(codec.gzip_encode(data, compresslevel=0)) > len(data)
    # The simple default is level 9.
    assert codec.gzip_encode(data) == codec.gzip_encode(data, compresslevel=9)


def test_gzip_decode_rejects_garbage():
    with pytest.raises(CorruptRecordError):
        codec.gzip_decode(b"not gzip")


@pytest.fixture
def raw_snappy():
    cramjam = pytest.importorskip("cramjam")
    return lambda block: bytes(cramjam.snappy.decompress_raw(block))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_snappy_raw_block(payload, raw_snappy):
    encoded = codec.snappy_encode(payload)
    assert not encoded.startswith(XERIAL_HEADER[:8])
    assert raw_snappy(encoded) == payload
    assert codec.snappy_decode(encoded) == payload


def test_snappy_raw_block_starts_with_the_uncompressed_length(raw_snappy):
    assert codec.snappy_encode(b"hello")[0] == 5
    # 300 = 0b1_0010_1100: varint bytes ac 02
    assert codec.snappy_encode(b"x" * 300)[:2] == bytes.fromhex("ac02")


def _xerial_blocks(data):
    assert data[:16] == XERIAL_HEADER
    blocks, pos = [], 16
    while pos < len(data):
        (size,) = struct.unpack_from(">i", data, pos)
        blocks.append(data[pos + 4:pos + 4 + size])
        pos += 4 + size
    assert pos == len(data)
    return blocks


@pytest.mark.parametrize("blocksize", [32768, 1000, 7])
def test_snappy_xerial(blocksize, raw_snappy):
    payload = bytes(range(256)) * 400  # 102400 bytes
    encoded = codec.snappy_encode(payload, xerial_compatible=True, xerial_blocksize=blocksize)
    blocks = _xerial_blocks(encoded)
    assert len(blocks) == -(-len(payload) // blocksize)
    assert b"".join(raw_snappy(b) for b in blocks) == payload
    assert codec.snappy_decode(encoded) == payload


def test_snappy_xerial_empty_payload():
    assert codec.snappy_encode(b"", xerial_compatible=True) == XERIAL_HEADER
    assert codec.snappy_decode(XERIAL_HEADER) == b""


def test_snappy_bad_blocksize():
    pytest.importorskip("cramjam")
    with pytest.raises(ValueError):
        codec.snappy_encode(b"abc", xerial_compatible=True, xerial_blocksize=0)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_lz4(payload):
    lz4_frame = pytest.importorskip("lz4.frame")
    encoded = codec.lz4_encode(payload)
    assert encoded[:4] == bytes.fromhex("04224d18")  # LZ4 frame magic, little-endian
    assert lz4_frame.decompress(encoded) == payload
    assert codec.lz4_decode(encoded) == payload
    assert codec.lz4_decode(lz4_frame.compress(payload)) == payload
    old = codec.lz4_encode_old_kafka(payload)
    assert codec.lz4_decode_old_kafka(old) == payload


@pytest.mark.parametrize("payload", PAYLOADS)
def test_zstd(payload):
    zstandard = pytest.importorskip("zstandard")
    encoded = codec.zstd_encode(payload)
    assert encoded[:4] == bytes.fromhex("28b52ffd")  # zstd frame magic, little-endian
    assert zstandard.ZstdDecompressor().decompress(encoded, max_output_size=len(payload) + 1) == payload
    assert codec.zstd_decode(encoded) == payload
    assert codec.zstd_decode(codec.zstd_encode(payload, level=1)) == payload
