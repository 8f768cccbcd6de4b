"""Snappy framing used by Kafka: raw blocks and xerial (snappy-java) streams.

The Java client writes snappy data with snappy-java's stream format:

    magic  82 53 4E 41 50 50 59 00  ("\\x82SNAPPY\\x00")
    int32  version             (1)
    int32  compatible version  (1)
    then chunks of  [int32 length][raw snappy block]  until the end

(all integers big-endian).  Other clients sometimes wrote one raw snappy
block instead, so readers accept both.  A raw block starts with its
uncompressed length as an unsigned LEB128 varint, which lets us refuse an
oversized block before the decoder allocates it.
"""

from __future__ import annotations

import struct
from typing import Callable, List

from kafka.errors import CorruptRecordError
from kafka.record.record import BytesLike

XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
_INT32 = struct.Struct(">i")
#: snappy-java's default block size.
XERIAL_BLOCK_SIZE = 32 * 1024
_MAX_RATIO = 22


def raw_length(block: bytes) -> int:
    """The uncompressed length announced at the start of a raw snappy block."""
    result = 0
    for i in range(5):
        if i >= len(block):
            break
        b = block[i]
        result |= (b & 0x7F) << (7 * i)
        if b < 0x80:
            return result
    raise CorruptRecordError("invalid snappy block length prefix")


def is_xerial(data: bytes) -> bool:
    """True if ``data`` starts with a xerial stream header."""
    return len(data) >= 16 and data[:8] == XERIAL_MAGIC


def xerial_encode(data: BytesLike, compress_raw: Callable[[BytesLike], bytes]) -> bytes:
    """Write ``data`` as a xerial stream of 32 KiB raw blocks."""
    parts: List[bytes] = [_XERIAL_HEADER]
    # Views released as soon as used: PyPy (7.3) keeps a view handed to a C
    # extension, and the buffer under it, alive until the view is released.
    with memoryview(data) as view:
        for start in range(0, len(data), XERIAL_BLOCK_SIZE):
            with view[start : start + XERIAL_BLOCK_SIZE] as chunk:
                block = compress_raw(chunk)
            parts.append(_INT32.pack(len(block)))
            parts.append(block)
    return b"".join(parts)


def decode(data: bytes, decompress_raw: Callable[[bytes], bytes], max_output: int) -> bytes:
    """Decode raw or xerial snappy ``data``, at most ``max_output`` bytes."""
    if not is_xerial(data):
        return _decode_block(data, decompress_raw, max_output)
    parts: List[bytes] = []
    total = 0
    pos = 16
    n = len(data)
    while pos < n:
        if pos + 4 > n:
            raise CorruptRecordError("truncated xerial snappy chunk header")
        size = _INT32.unpack_from(data, pos)[0]
        pos += 4
        if size < 0 or pos + size > n:
            raise CorruptRecordError("xerial snappy chunk overruns the data")
        piece = _decode_block(data[pos : pos + size], decompress_raw, max_output - total)
        total += len(piece)
        parts.append(piece)
        pos += size
    return b"".join(parts)


def _decode_block(block: bytes, decompress_raw: Callable[[bytes], bytes], budget: int) -> bytes:
    expected = raw_length(block)
    if expected > budget:
        raise CorruptRecordError("snappy data expands beyond the %d byte limit" % budget)
    if expected > _MAX_RATIO * len(block) + 64:
        # Snappy's densest element turns 3 bytes into 64: such a length is a
        # lie, and believing it would allocate far more than the input merits.
        raise CorruptRecordError("snappy block claims an impossible length %d" % expected)
    out = decompress_raw(block)
    if len(out) != expected:
        raise CorruptRecordError("snappy block decoded to an unexpected length")
    return out
