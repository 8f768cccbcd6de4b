"""Kafka v2 records encoded straight from Arrow binary columns, with numpy and Arrow.

The mirror of :mod:`kafka.spark.columnar_decode`: instead of a Python bytes
object and a Python step per row, the records of many batches are laid out
in one pass over whole columns. Each record is::

    length varint | attributes 0 | timestamp delta 0 | offset delta varint |
    key length varint (1 = null) | key | value length varint | value | 0 headers

Every field's width is computed for all rows at once. The bytes before the
key (and those between key and value) are put together for all rows as
integers, one per row, and handed to Arrow as a binary array of per-row
prefixes (through binary views, which hold up to 12 bytes each in place).
Arrow's ``binary_join_element_wise`` then joins prefixes, keys and values
row by row into one buffer: the records back to back, with no Python or
numpy step per byte. The bytes are identical to those of
:meth:`kafka.record.batch.RecordBatchBuilder.extend` for records that
share one timestamp and have no headers.
"""

from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from kafka.record.batch import RECORD_OVERHEAD

__all__ = ["ArrowBinaryColumn", "binary_column", "encode_batches", "estimate_sizes"]


class ArrowBinaryColumn(NamedTuple):
    """An Arrow binary column seen as lengths (-1 for null) and the bytes of its values back to back.

    Not a copy: ``data`` is the array's own buffer. (The decoder's
    :class:`kafka.spark.columnar_decode.BinaryColumn` holds bytes it
    gathered, without an Arrow array.)
    """

    lengths: np.ndarray  # int64
    data: np.ndarray  # uint8
    array: Any  # pyarrow binary or large_binary (strings are viewed as their bytes)


def binary_column(array: Any) -> Optional[ArrowBinaryColumn]:
    """The lengths and bytes of a pyarrow binary or string array, without copying the bytes.

    None when a null entry spans bytes (Arrow allows it; no writer we know
    does it), which callers send another way.
    """
    import pyarrow as pa

    kind = array.type
    if pa.types.is_binary(kind) or pa.types.is_string(kind):
        offset_type = np.int32
        array = array.view(pa.binary())
    elif pa.types.is_large_binary(kind) or pa.types.is_large_string(kind):
        offset_type = np.int64
        array = array.view(pa.large_binary())
    else:
        raise TypeError("not a binary or string array: %s" % kind)
    n = len(array)
    if n == 0:
        return ArrowBinaryColumn(np.zeros(0, np.int64), np.zeros(0, np.uint8), array)
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
    return ArrowBinaryColumn(lengths, data, array)


def estimate_sizes(values: ArrowBinaryColumn, keys: Optional[ArrowBinaryColumn]) -> np.ndarray:
    """Each record's size as the producer estimates it (an upper bound, null counted as empty)."""
    sizes = np.maximum(values.lengths, 0) + RECORD_OVERHEAD
    if keys is not None:
        sizes += np.maximum(keys.lengths, 0)
    return sizes


def _width(zigzag: np.ndarray) -> np.ndarray:
    """Bytes of the varints of (already zig-zagged, non-negative) values."""
    width = np.ones(len(zigzag), np.int64)
    top = int(zigzag.max(initial=0))
    for bits in (7, 14, 21, 28):
        if top < 1 << bits:  # no varint is this long
            break
        width += zigzag >= (1 << bits)
    return width


#: The high bit of each byte but the last of a varint of 0 to 5 bytes, as a little-endian integer.
_CONTINUATION = np.array([0, 0, 0x80, 0x8080, 0x808080, 0x80808080], np.uint64)
#: Bytes an Arrow binary view holds in itself: at most this many per row of a prefix array.
_INLINE = 12
#: A field of :func:`_row_prefixes`: bytes every row has, or the (zig-zagged value, width) of a varint per row.
Field = Union[bytes, Tuple[np.ndarray, np.ndarray]]


def _length_varints(lengths: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Zig-zagged lengths (-1 for null), their varints' widths, and the bytes each row has."""
    zigzag = np.where(lengths < 0, 1, 2 * lengths)
    return zigzag, _width(zigzag), np.maximum(lengths, 0)


def _varint_words(zigzag: np.ndarray, width: np.ndarray) -> np.ndarray:
    """Each row's varint, its bytes read as one little-endian integer."""
    z = zigzag.astype(np.uint64)
    word = z & np.uint64(0x7F)
    for j in range(1, int(width.max())):
        word |= (z << np.uint64(j)) & np.uint64(0x7F << (8 * j))
    return word | _CONTINUATION[width]


def _row_prefixes(fields: List[Field], n: int, kind: Any) -> List[Any]:
    """Arrow arrays of ``kind`` which, joined row by row, give row ``i`` of each field in order.

    One array when every row's fields fit in a binary view's inline bytes
    (the common case); the fields are halved until they do. Each row's bytes
    are put together as a 128-bit little-endian integer (``high``, ``low``),
    from the last field to the first: shift what is there by the field's
    width, put the field in the freed low bytes.
    """
    import pyarrow as pa

    total: Any = sum(len(field) if isinstance(field, bytes) else field[1] for field in fields)
    if len(fields) > 1 and int(np.max(total)) > _INLINE:
        half = len(fields) // 2
        return _row_prefixes(fields[:half], n, kind) + _row_prefixes(fields[half:], n, kind)
    low = np.zeros(n, np.uint64)
    high = np.zeros(n, np.uint64)
    filled = 0  # the most bytes ``low`` holds in any row so far
    for field in reversed(fields):
        word: Any
        shift: Any
        if isinstance(field, bytes):
            word, widest = np.uint64(int.from_bytes(field, "little")), len(field)
            shift = np.uint64(8 * widest)
        else:
            word, width = _varint_words(*field), field[1]
            widest = int(width.max())
            shift = np.uint64(8 * widest) if widest == int(width.min()) else (8 * width).astype(np.uint64)
        if filled + widest > 8:  # bytes move on from ``low`` to ``high``
            high <<= shift
            high |= low >> (np.uint64(64) - shift)
        low <<= shift
        low |= word
        filled += widest
    # Binary views: a 4-byte length, then up to 12 bytes held inline; Arrow packs them into a binary array.
    views = np.empty((n, 4), np.uint32)
    views[:, 0] = total
    views[:, 1:3] = low.view(np.uint32).reshape(n, 2)
    views[:, 3] = high
    return [pa.Array.from_buffers(pa.binary_view(), n, [None, pa.py_buffer(views)]).cast(kind)]


def encode_batches(values: ArrowBinaryColumn, keys: Optional[ArrowBinaryColumn], counts: List[int]) -> List[bytes]:
    """The record bytes of consecutive batches of ``counts[0]``, ``counts[1]``, ... rows.

    In each batch offset deltas count from 0; every timestamp delta is 0.
    ``keys`` None means null keys.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(values.lengths)
    if not n:
        return []
    counts_array = np.asarray(counts, np.int64)
    firsts = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(counts_array, out=firsts[1:])
    delta_zz = 2 * (np.arange(n, dtype=np.int64) - np.repeat(firsts[:-1], counts_array))
    delta_w = _width(delta_zz)
    value_zz, value_w, value_bytes = _length_varints(values.lengths)
    # attributes, timestamp delta, header count: one byte each.
    size = 3 + delta_w + value_w + value_bytes
    if keys is not None:
        key_zz, key_w, key_bytes = _length_varints(keys.lengths)
        size += key_w + key_bytes
    else:
        size += 1
    size_zz = 2 * size
    # Each row starts with the header count (0) of the row before: it saves Arrow a piece per row to join.
    head: List[Field] = [b"\0", (size_zz, _width(size_zz)), b"\0\0", (delta_zz, delta_w)]
    kind = values.array.type
    if keys is None:  # the null key's length (-1), then the value's
        pieces = _row_prefixes(head + [b"\1", (value_zz, value_w)], n, kind) + [values.array]
    else:
        pieces = _row_prefixes(head + [(key_zz, key_w)], n, kind) + [keys.array.cast(kind)] + \
            _row_prefixes([(value_zz, value_w)], n, kind) + [values.array]
    # Null keys and values are joined as empty: their length varint (-1) says null.
    records = pc.binary_join_element_wise(*pieces, pa.scalar(b"", kind), null_handling="replace",
                                          null_replacement=b"")
    row_starts = np.frombuffer(records.buffers()[1], np.int64 if pa.types.is_large_binary(kind) else np.int32, n + 1)
    # A batch runs from after its first row's leading 0 to its last row's header count: the next row's 0.
    cuts = (row_starts[firsts] + 1).tolist()
    data = memoryview(records.buffers()[2])
    bodies = [data[a:b].tobytes() for a, b in zip(cuts[:-2], cuts[1:-1])]
    bodies.append(data[cuts[-2]:].tobytes() + b"\0")
    return bodies
