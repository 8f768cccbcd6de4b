"""Kafka v2 records encoded straight from Arrow binary columns, with numpy.

The mirror of :mod:`kafka.spark.record_columns`: instead of a Python bytes
object and a Python step per row, the records of many batches are laid out
in one pass over whole columns. Each record is::

    length varint | attributes 0 | timestamp delta 0 | offset delta varint |
    key length varint (1 = null) | key | value length varint | value | 0 headers

Every field's width is computed for all rows at once, positions are a
cumulative sum, the varints are written one byte position at a time for
the rows that have it. The key and value bytes are copied a row at a time
by numpy, all rows of one length in one assignment (through a view of the
output whose rows are its windows of that length), or, when lengths vary
a lot, with a boolean mask (a masked assignment copies the source in order
into the marked bytes). The bytes are identical to those of
:meth:`kafka.record.batch.RecordBatchBuilder.extend` for records that share
one timestamp and have no headers.
"""

from __future__ import annotations

from typing import Any, List, NamedTuple, Optional

import numpy as np
from numpy.lib.stride_tricks import as_strided

__all__ = ["BinaryColumn", "binary_column", "encode_batches", "estimate_sizes"]

#: Bytes of a record besides key and value, as counted by the producer's estimate
#: (kafka.record.batch.RECORD_OVERHEAD).
_RECORD_OVERHEAD = 21


class BinaryColumn(NamedTuple):
    """A binary column: lengths (-1 for null) and the bytes of its values, back to back."""

    lengths: np.ndarray  # int64
    data: np.ndarray  # uint8


def binary_column(array: Any) -> Optional[BinaryColumn]:
    """The lengths and bytes of a pyarrow binary or string array, without copying the bytes.

    None when a null entry spans bytes (Arrow allows it; no writer we know
    does it), which callers send another way.
    """
    import pyarrow as pa

    kind = array.type
    if pa.types.is_binary(kind) or pa.types.is_string(kind):
        offset_type = np.int32
    elif pa.types.is_large_binary(kind) or pa.types.is_large_string(kind):
        offset_type = np.int64
    else:
        raise TypeError("not a binary or string array: %s" % kind)
    n = len(array)
    if n == 0:
        return BinaryColumn(np.zeros(0, np.int64), np.zeros(0, np.uint8))
    validity, offsets_buffer, data_buffer = array.buffers()
    offsets = np.frombuffer(offsets_buffer, offset_type, n + 1, array.offset * np.dtype(offset_type).itemsize)
    lengths = np.diff(offsets).astype(np.int64)
    if array.null_count:
        valid = np.unpackbits(np.frombuffer(validity, np.uint8), bitorder="little")[array.offset:array.offset + n]
        nulls = valid == 0
        if lengths[nulls].any():
            return None
        lengths[nulls] = -1
    if data_buffer is None:
        data = np.zeros(0, np.uint8)
    else:
        data = np.frombuffer(data_buffer, np.uint8)[int(offsets[0]):int(offsets[-1])]
    return BinaryColumn(lengths, data)


def estimate_sizes(values: BinaryColumn, keys: Optional[BinaryColumn]) -> np.ndarray:
    """Each record's size as the producer estimates it (an upper bound, null counted as empty)."""
    sizes = np.maximum(values.lengths, 0) + _RECORD_OVERHEAD
    if keys is not None:
        sizes += np.maximum(keys.lengths, 0)
    return sizes


def _width(zigzag: np.ndarray) -> np.ndarray:
    """Bytes of the varints of (already zig-zagged, non-negative) values."""
    width = np.ones(len(zigzag), np.int64)
    for bits in (7, 14, 21, 28):
        width += zigzag >= (1 << bits)
    return width


def _put_varints(out: np.ndarray, at: np.ndarray, zigzag: np.ndarray, width: np.ndarray) -> None:
    """Write each ``zigzag[i]`` as a ``width[i]``-byte varint at ``out[at[i]]``."""
    if not len(width):
        return
    shortest, longest = int(width.min()), int(width.max())
    for j in range(longest):
        if j and j >= shortest:  # leave out the varints that ended
            rows = np.flatnonzero(width > j)
            at, zigzag, width = at[rows], zigzag[rows], width[rows]
            shortest = j + 1
        byte = zigzag >> (7 * j) if j else zigzag
        if j + 1 < longest:  # not every varint ends here: low 7 bits, and the high bit of those that go on
            byte = byte & 0x7F
            byte |= 0x80 if shortest > j + 1 else (width > j + 1) << 7
        out[at + j] = byte.astype(np.uint8)


#: Above this many distinct lengths in a column, its bytes are copied with a mask instead of by length.
_MAX_LENGTH_GROUPS = 8


def _copy_in(out: np.ndarray, at: np.ndarray, lengths: np.ndarray, data: np.ndarray) -> None:
    """Copy ``data`` (the values back to back) to ``out[at[i]:at[i] + lengths[i]]``."""
    if not len(data):
        return
    shortest, longest = int(lengths.min()), int(lengths.max())
    if shortest == longest:
        _copy_same_length(out, at, data.reshape(len(at), longest))
        return
    if longest - shortest < 4096:
        present = np.flatnonzero(np.bincount(lengths - shortest)) + shortest
        if len(present) <= _MAX_LENGTH_GROUPS:
            sources = np.cumsum(lengths) - lengths
            for length in present.tolist():
                if length:
                    rows = np.flatnonzero(lengths == length)
                    _copy_same_length(out, at[rows], windows(data, length)[sources[rows]])
            return
    # Runs of bytes, alternately not taken and taken: the gap before each value, then the value.
    n = len(at)
    runs = np.empty(2 * n, np.int64)
    runs[1::2] = lengths
    runs[0] = at[0]
    runs[2::2] = at[1:] - (at[:-1] + lengths[:-1])
    taken = np.zeros(2 * n, bool)
    taken[1::2] = True
    mask = np.repeat(taken, runs)
    out[:len(mask)][mask] = data


def windows(buffer: np.ndarray, length: int) -> np.ndarray:
    """Every ``length``-byte window of ``buffer``: row ``i`` is ``buffer[i:i + length]`` (a view)."""
    return as_strided(buffer, (len(buffer) - length + 1, length), (1, 1))


def _copy_same_length(out: np.ndarray, at: np.ndarray, rows: np.ndarray) -> None:
    """``out[at[i]:at[i] + rows.shape[1]] = rows[i]`` for each ``i``: a row copy each, through windows of ``out``."""
    windows(out, rows.shape[1])[at] = rows


def encode_batches(values: BinaryColumn, keys: Optional[BinaryColumn], counts: List[int]) -> List[bytes]:
    """The record bytes of consecutive batches of ``counts[0]``, ``counts[1]``, ... rows.

    In each batch offset deltas count from 0; every timestamp delta is 0.
    ``keys`` None means null keys.
    """
    n = len(values.lengths)
    counts_array = np.asarray(counts, np.int64)
    firsts = np.zeros(len(counts), np.int64)
    np.cumsum(counts_array[:-1], out=firsts[1:])
    delta_zz = 2 * (np.arange(n, dtype=np.int64) - np.repeat(firsts, counts_array))
    delta_w = _width(delta_zz)
    value_len = values.lengths
    value_zz = np.where(value_len < 0, 1, 2 * value_len)
    value_w = _width(value_zz)
    value_bytes = np.maximum(value_len, 0)
    # attributes, timestamp delta, header count: one byte each.
    size = 3 + delta_w + value_w + value_bytes
    if keys is None:
        size += 1
    else:
        key_len = keys.lengths
        key_zz = np.where(key_len < 0, 1, 2 * key_len)
        key_w = _width(key_zz)
        key_bytes = np.maximum(key_len, 0)
        size += key_w + key_bytes
    size_zz = 2 * size
    size_w = _width(size_zz)
    total = size_w + size
    ends = np.cumsum(total)
    starts = ends - total
    out = np.zeros(int(ends[-1]) if n else 0, np.uint8)  # the zero bytes stay as they are
    _put_varints(out, starts, size_zz, size_w)
    at = starts + size_w + 2
    _put_varints(out, at, delta_zz, delta_w)
    at = at + delta_w
    if keys is None:
        out[at] = 1
        at = at + 1
    else:
        _put_varints(out, at, key_zz, key_w)
        at = at + key_w
        _copy_in(out, at, key_bytes, keys.data)
        at = at + key_bytes
    _put_varints(out, at, value_zz, value_w)
    _copy_in(out, at + value_w, value_bytes, values.data)
    cuts = [0] + [int(c) for c in ends[np.cumsum(counts_array) - 1]]
    return [out[a:b].tobytes() for a, b in zip(cuts, cuts[1:])]
