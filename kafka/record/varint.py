"""Zig-zag variable-length integers, as used inside record batch v2.

A signed value ``n`` is first zig-zag mapped to an unsigned one
(``0, -1, 1, -2 ... -> 0, 1, 2, 3 ...``), then written 7 bits at a time, least
significant group first, with the high bit of each byte set when more bytes
follow.  A "varint" holds an int32 (at most :data:`VARINT_MAX_BYTES`, 5
bytes), a "varlong" an int64 (at most :data:`VARLONG_MAX_BYTES`, 10 bytes).

Besides the plain functions this module exports the lookup tables that the
record encoder and decoder use in their hot loops.
"""

from __future__ import annotations

from typing import List, Tuple

from kafka.errors import CorruptRecordError

__all__ = [
    "encode_varint",
    "decode_varint",
    "decode_varlong",
    "size_of_varint",
    "VARINT_MAX_BYTES",
    "VARLONG_MAX_BYTES",
    "VARINT_TABLE",
    "VARINT_TABLE_SIZE",
    "ZIGZAG_BYTE",
    "ZIGZAG_PAIR",
    "ZIGZAG_PAIR_ROWS",
]


#: The most bytes a varint (an int32) takes.
VARINT_MAX_BYTES = 5
#: The most bytes a varlong (an int64) takes.
VARLONG_MAX_BYTES = 10


def encode_varint(value: int) -> bytes:
    """Return the zig-zag varint encoding of the signed integer ``value``."""
    if not -(1 << 63) <= value < (1 << 63):
        raise OverflowError("varint value out of int64 range: %d" % value)
    n = ((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def size_of_varint(value: int) -> int:
    """Return how many bytes :func:`encode_varint` uses for ``value``."""
    n = ((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF
    size = 1
    while n > 0x7F:
        n >>= 7
        size += 1
    return size


def _decode(buf: bytes, pos: int, max_bytes: int) -> Tuple[int, int]:
    shift = 0
    raw = 0
    end = pos + max_bytes
    try:
        while pos < end:
            b = buf[pos]
            pos += 1
            raw |= (b & 0x7F) << shift
            if b < 0x80:
                return (raw >> 1) ^ -(raw & 1), pos
            shift += 7
    except IndexError:
        raise CorruptRecordError("truncated varint") from None
    raise CorruptRecordError("varint longer than %d bytes" % max_bytes)


def decode_varint(buf: bytes, pos: int) -> Tuple[int, int]:
    """Decode a zig-zag varint (int32, at most 5 bytes) at ``buf[pos]``.

    Returns ``(value, position after it)``; raises
    :class:`~kafka.errors.CorruptRecordError` on a truncated or overlong one.
    """
    return _decode(buf, pos, VARINT_MAX_BYTES)


def decode_varlong(buf: bytes, pos: int) -> Tuple[int, int]:
    """Decode a zig-zag varlong (int64, at most 10 bytes) at ``buf[pos]``."""
    return _decode(buf, pos, VARLONG_MAX_BYTES)


#: ``VARINT_TABLE[n]`` is ``encode_varint(n)`` for ``0 <= n < VARINT_TABLE_SIZE``
#: (all the lengths and offset deltas of ordinary records).
VARINT_TABLE_SIZE = 1 << 14


def _build_table() -> List[bytes]:
    table = [bytes((2 * n,)) for n in range(64)]
    table += [bytes(((2 * n) & 0x7F | 0x80, (2 * n) >> 7)) for n in range(64, 8192)]
    table += [
        bytes(((2 * n) & 0x7F | 0x80, ((2 * n) >> 7) & 0x7F | 0x80, (2 * n) >> 14))
        for n in range(8192, VARINT_TABLE_SIZE)
    ]
    return table


VARINT_TABLE: List[bytes] = _build_table()

#: ``ZIGZAG_BYTE[b]`` decodes a one-byte varint ``b`` (``b < 0x80``).
ZIGZAG_BYTE: List[int] = [(b >> 1) ^ -(b & 1) for b in range(128)]


def _build_pair_table() -> List[int]:
    table = [0] * (1 << 15)
    for b2 in range(0x80):
        for b in range(0x80, 0x100):
            raw = (b & 0x7F) | (b2 << 7)
            table[b | b2 << 8] = (raw >> 1) ^ -(raw & 1)
    return table


#: ``ZIGZAG_PAIR[b | b2 << 8]`` decodes the two-byte varint ``b, b2`` when
#: ``b >= 0x80`` and ``b2 < 0x80`` (every two-byte varint: values -8192 ..
#: 8191): one list lookup instead of five arithmetic operations in the
#: record decoder.  It covers all of them, not only the shorter lengths,
#: because offset deltas of 4,096 to 8,191 are common: librdkafka writes up
#: to 10,000 records per batch.
ZIGZAG_PAIR: List[int] = _build_pair_table()

#: ``ZIGZAG_PAIR_ROWS[b2][b]`` is ``ZIGZAG_PAIR[b | b2 << 8]``: the same
#: decoding by two list lookups, which on CPython is several times cheaper
#: than the shift and the or (each of which allocates an int above 256).
ZIGZAG_PAIR_ROWS: List[List[int]] = [ZIGZAG_PAIR[b2 << 8 : (b2 + 1) << 8] for b2 in range(0x80)]
