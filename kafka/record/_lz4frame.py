"""LZ4 frame handling that the compression libraries do not do for us.

Kafka stores LZ4 data as a standard LZ4 frame
(magic ``04 22 4D 18``, a frame descriptor, then blocks) with one twist:
clients before Kafka 0.10 (message format v0) computed the descriptor's
header-checksum byte (HC) over the magic number *and* the descriptor instead
of the descriptor alone (KAFKA-3160).  Such frames are rejected by any correct
LZ4 decoder, so for magic 0 we repair the byte before decoding and reproduce
the mistake when encoding.

This module also writes frames itself from a raw block compressor (the way
Kafka's Java client does: independent 64 KiB blocks, no checksums, no content
size) and walks frames to find their blocks and bound their decompressed size
without decoding them.
"""

from __future__ import annotations

import struct
from typing import Callable, List, NamedTuple, Tuple

from kafka.errors import CorruptRecordError
from kafka.record.record import BytesLike

MAGIC = b"\x04\x22\x4d\x18"
_U32 = struct.Struct("<I")

_P1 = 2654435761
_P2 = 2246822519
_P3 = 3266489917
_P4 = 668265263
_P5 = 374761393
_M = 0xFFFFFFFF


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M


def xxh32(data: bytes, seed: int = 0) -> int:
    """XXH32 hash of ``data``; pure Python, meant for the few descriptor bytes."""
    n = len(data)
    i = 0
    if n >= 16:
        v1 = (seed + _P1 + _P2) & _M
        v2 = (seed + _P2) & _M
        v3 = seed & _M
        v4 = (seed - _P1) & _M
        while i <= n - 16:
            a, b, c, d = struct.unpack_from("<4I", data, i)
            v1 = _rotl((v1 + a * _P2) & _M, 13) * _P1 & _M
            v2 = _rotl((v2 + b * _P2) & _M, 13) * _P1 & _M
            v3 = _rotl((v3 + c * _P2) & _M, 13) * _P1 & _M
            v4 = _rotl((v4 + d * _P2) & _M, 13) * _P1 & _M
            i += 16
        h = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & _M
    else:
        h = (seed + _P5) & _M
    h = (h + n) & _M
    while i + 4 <= n:
        h = (h + _U32.unpack_from(data, i)[0] * _P3) & _M
        h = _rotl(h, 17) * _P4 & _M
        i += 4
    while i < n:
        h = (h + data[i] * _P5) & _M
        h = _rotl(h, 11) * _P1 & _M
        i += 1
    h ^= h >> 15
    h = h * _P2 & _M
    h ^= h >> 13
    h = h * _P3 & _M
    h ^= h >> 16
    return h


_BLOCK_MAX = {4: 1 << 16, 5: 1 << 18, 6: 1 << 20, 7: 1 << 22}


def _descriptor_end(data: bytes) -> int:
    """Return the index of the HC byte, validating magic and flags."""
    if len(data) < 7 or data[:4] != MAGIC:
        raise CorruptRecordError("not an LZ4 frame (bad magic or too short)")
    flg = data[4]
    if flg >> 6 != 1:
        raise CorruptRecordError("unsupported LZ4 frame version")
    end = 6
    if flg & 0x08:  # content size present
        end += 8
    if flg & 0x01:  # dictionary id present
        end += 4
    if end >= len(data):
        raise CorruptRecordError("truncated LZ4 frame descriptor")
    return end


def header_checksum(descriptor: bytes) -> int:
    """The correct HC byte for the descriptor bytes (FLG up to before HC)."""
    return (xxh32(descriptor) >> 8) & 0xFF


def repair_v0_checksum(data: bytes) -> bytes:
    """Give a frame written by a pre-0.10 client its correct HC byte.

    A frame whose HC is already correct, or matches neither form, is
    returned unchanged (the decoder then judges it).
    """
    hc_pos = _descriptor_end(data)
    hc = data[hc_pos]
    good = header_checksum(data[4:hc_pos])
    if hc == good:
        return data
    if hc == (xxh32(data[:hc_pos]) >> 8) & 0xFF:
        return data[:hc_pos] + bytes((good,)) + data[hc_pos + 1 :]
    return data


# FLG: version 01, independent blocks, no checksums, no content size.
# BD: 64 KiB maximum block size.
_FLG_BD = b"\x60\x40"
_HEADER = MAGIC + _FLG_BD + bytes((header_checksum(_FLG_BD),))
_HEADER_V0 = MAGIC + _FLG_BD + bytes(((xxh32(MAGIC + _FLG_BD) >> 8) & 0xFF,))
_BLOCK_SIZE = 1 << 16
_END_MARK = b"\x00\x00\x00\x00"


def write_frame(data: BytesLike, compress_block: Callable[[BytesLike], bytes], magic: int) -> bytes:
    """Frame ``data`` as Kafka's Java client does, one block per 64 KiB.

    ``compress_block`` turns a chunk into a raw LZ4 block (no size prefix).
    A block that does not shrink is stored uncompressed.  For ``magic`` 0 the
    header checksum is computed the broken pre-0.10 way.
    """
    parts: List[bytes] = [_HEADER_V0 if magic == 0 else _HEADER]
    # Views released as soon as used: PyPy (7.3) keeps a view handed to a C
    # extension, and the buffer under it, alive until the view is released.
    with memoryview(data) as view:
        for start in range(0, len(data), _BLOCK_SIZE):
            with view[start : start + _BLOCK_SIZE] as chunk:
                block = compress_block(chunk)
                if len(block) < len(chunk):
                    parts.append(_U32.pack(len(block)))
                    parts.append(block)
                else:
                    parts.append(_U32.pack(len(chunk) | 0x80000000))
                    parts.append(bytes(chunk))
    parts.append(_END_MARK)
    return b"".join(parts)


class FrameLayout(NamedTuple):
    """Where the blocks of one LZ4 frame are, found without decoding them."""

    #: True if blocks do not refer to earlier blocks (FLG bit 5).
    independent: bool
    #: The frame's maximum decompressed block size.
    block_max: int
    #: ``(start, size, stored)`` per block: ``stored`` blocks are raw bytes.
    blocks: List[Tuple[int, int, bool]]
    #: Upper bound of the decompressed size.
    bound: int
    #: Length of the frame in bytes.
    length: int


def walk_frame(data: bytes) -> FrameLayout:
    """Walk one frame's block headers; raise CorruptRecordError if broken.

    The descriptor's header checksum is verified (repair v0 frames first).
    """
    hc_pos = _descriptor_end(data)
    if data[hc_pos] != header_checksum(data[4:hc_pos]):
        raise CorruptRecordError("LZ4 frame descriptor checksum mismatch")
    flg = data[4]
    block_max = _BLOCK_MAX.get((data[5] >> 4) & 0x07)
    if block_max is None:
        raise CorruptRecordError("invalid LZ4 block maximum size")
    checksum_len = 4 if flg & 0x10 else 0
    pos = hc_pos + 1
    n = len(data)
    bound = 0
    blocks: List[Tuple[int, int, bool]] = []
    while True:
        if pos + 4 > n:
            raise CorruptRecordError("truncated LZ4 frame")
        size = _U32.unpack_from(data, pos)[0]
        pos += 4
        if size == 0:
            break
        stored = bool(size & 0x80000000)
        size &= 0x7FFFFFFF
        if size > block_max:
            raise CorruptRecordError("LZ4 block larger than the frame's maximum")
        if pos + size > n:
            raise CorruptRecordError("truncated LZ4 frame")
        blocks.append((pos, size, stored))
        bound += size if stored else block_max
        pos += size + checksum_len
    if flg & 0x04:
        pos += 4
    if pos > n:
        raise CorruptRecordError("truncated LZ4 frame")
    return FrameLayout(bool(flg & 0x20), block_max, blocks, bound, pos)
