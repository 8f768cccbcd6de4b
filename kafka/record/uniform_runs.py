"""Decoding runs of v2 records that share one byte layout, without a loop in Python.

Producers often fill a batch with records that differ only in their offset,
timestamp and payload bytes: keys and values of one size, no headers.  When
consecutive records also have varints of the same widths, they sit in the
batch at a fixed stride and every field is at a fixed place inside each
record.  Such a *run* is verified with strided slices (``buf[at::stride]``,
a C loop over the run) and turned into records with ``struct.iter_unpack``,
``map`` and ``zip``: C-level iteration with no Python frame per record.  On
CPython this is several times faster than the record-by-record decoder in
:mod:`kafka.record.batch`, which stays in charge of everything else.

The checks accept a record into a run only if its bytes are exactly what the
run's first record implies: the same length, attributes, key and value
lengths, no headers, a timestamp delta varint of the same width, and offset
deltas that continue the run's sequence by one.  Anything else ends the run,
so the result is identical to the general decoder's.
"""

from __future__ import annotations

import struct
from itertools import repeat
from operator import add, itemgetter
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from kafka import fast_paths
from kafka.errors import CorruptRecordError
from kafka.record.rows import PREFIX_FIELDS, ROW_FIELDS
from kafka.record.record import NO_HEADERS
from kafka.record.varint import ZIGZAG_BYTE, ZIGZAG_PAIR, decode_varint, decode_varlong

__all__ = ["Layout", "probe", "run_length", "build_run", "MIN_RUN", "ENABLED"]

#: Shorter runs are left to the record-by-record decoder, which is cheaper
#: than the fixed cost of checking and building a run.
MIN_RUN = 8

#: Whether readers look for runs at all: the ``UNIFORM_RUNS`` fast path of
#: :mod:`kafka.fast_paths` (which readers consult; this copy follows it).  Only
#: on CPython: PyPy's JIT compiles the record-by-record loop into faster code
#: than these C-level iterators, which it cannot see into.
ENABLED = fast_paths.UNIFORM_RUNS


def _follow_switch() -> None:
    global ENABLED
    ENABLED = fast_paths.UNIFORM_RUNS


fast_paths.on_switch(_follow_switch)

_CONTINUED = bytes(0 if b >= 0x80 else 1 for b in range(256))  # varint byte with a next one
_LAST = bytes(0 if b < 0x80 else 1 for b in range(256))  # a varint's final byte
_LAST_PAIR = bytes(0 if b < 0x80 else 1 for b in range(256))  # final byte ZIGZAG_PAIR can read

# Expected bytes of the offset-delta varint of delta ``d`` (see varint.py for the encoding):
# one byte for d < 64; two for d < 8192; three below 2**20, the third byte being d >> 13.
_OD1 = bytes(2 * d for d in range(64))
_OD_LOW = bytes(((2 * d) & 0x7F) | 0x80 for d in range(8192))  # first byte of 2 and 3
_OD_MID_LAST = bytes((2 * d) >> 7 for d in range(8192))  # second byte of 2
_OD_MID_CONT = bytes(b | 0x80 for b in _OD_MID_LAST)  # second byte of 3, indexed by d % 8192


class Layout(NamedTuple):
    """Where the fields of a record sit, relative to its first byte."""

    stride: int  # bytes from one record's start to the next
    head: int  # width of the length varint, then the attributes byte follows
    ts_at: int
    ts_width: int  # 1 or 2
    od_at: int
    od_width: int  # 1 to 3
    first_delta: int
    key_len_at: int
    key_len_width: int
    key_len: int  # -1 for a null key
    value_len_at: int
    value_len_width: int
    value_len: int  # -1 for a null value


def probe(buf: Any, pos: int, stop: int) -> Optional[Layout]:
    """The layout of the record at ``buf[pos]``, or ``None`` if it cannot start a run.

    Malformed bytes give ``None`` too: the general decoder then reports them.
    """
    try:
        length, at = decode_varint(buf, pos)
        end = at + length
        if length <= 0 or end > stop:
            return None
        head = at - pos
        ts_at = at + 1
        _, at = decode_varlong(buf, ts_at)
        ts_width = at - ts_at
        od_at = at
        first_delta, at = decode_varint(buf, od_at)
        od_width = at - od_at
        key_len_at = at
        key_len, at = decode_varint(buf, at)
        key_len_width = at - key_len_at
        if key_len > 0:
            at += key_len
        value_len_at = at
        value_len, at = decode_varint(buf, at)
        value_len_width = at - value_len_at
        if value_len > 0:
            at += value_len
        if (
            ts_width > 2
            or od_width > 3
            or key_len < -1
            or value_len < -1
            or at + 1 != end
            or buf[at] != 0  # headers
        ):
            return None
    except (CorruptRecordError, IndexError):
        return None
    return Layout(
        end - pos,
        head,
        ts_at - pos,
        ts_width,
        od_at - pos,
        od_width,
        first_delta,
        key_len_at - pos,
        key_len_width,
        key_len,
        value_len_at - pos,
        value_len_width,
        value_len,
    )


def _same_prefix(column: bytes) -> int:
    """How many leading bytes of ``column`` equal its first."""
    return len(column) - len(column.lstrip(column[:1]))


def _class_prefix(column: bytes, table: bytes) -> int:
    """How many leading bytes of ``column`` the 0/1 ``table`` maps to 0."""
    return len(column) - len(column.translate(table).lstrip(b"\x00"))


def _match_prefix(column: bytes, expected: bytes) -> int:
    """Length of the common prefix of two equally long byte strings."""
    if column == expected:
        return len(column)
    lo, hi = 0, len(column) - 1  # the answer lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if column[:mid] == expected[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _delta_columns(layout: Layout, count: int) -> Tuple[int, List[bytes]]:
    """Cap ``count`` to one width class of the offset delta; the expected bytes of each varint column."""
    d0 = layout.first_delta
    width = layout.od_width
    if width == 1:
        if not 0 <= d0 < 64:
            return 0, []
        count = min(count, 64 - d0)
        return count, [_OD1[d0 : d0 + count]]
    if width == 2:
        if not 64 <= d0 < 8192:
            return 0, []
        count = min(count, 8192 - d0)
        return count, [_OD_LOW[d0 : d0 + count], _OD_MID_LAST[d0 : d0 + count]]
    if not 8192 <= d0 < 1 << 20:
        return 0, []
    low = d0 % 8192
    count = min(count, 8192 - low)
    return count, [
        _OD_LOW[low : low + count],
        _OD_MID_CONT[low : low + count],
        bytes((d0 >> 13,)) * count,
    ]


def run_length(buf: Any, pos: int, stop: int, layout: Layout, limit: int) -> int:
    """How many records from ``buf[pos]`` on (at most ``limit``) follow ``layout`` exactly."""
    stride = layout.stride
    count = min(limit, (stop - pos) // stride)
    count, delta_columns = _delta_columns(layout, count)
    if count <= 0:
        return 0

    def column(at: int) -> bytes:
        return buf[pos + at : pos + at + (count - 1) * stride + 1 : stride]  # type: ignore[no-any-return]

    # Bytes that must repeat the first record's: length, attributes, key and value lengths, headers.
    fixed = list(range(layout.head + 1))
    fixed += range(layout.key_len_at, layout.key_len_at + layout.key_len_width)
    fixed += range(layout.value_len_at, layout.value_len_at + layout.value_len_width)
    fixed.append(stride - 1)
    for at in fixed:
        count = min(count, _same_prefix(column(at)))
        if count < MIN_RUN:
            return 0
    ts_at = layout.ts_at
    if layout.ts_width == 2:
        count = min(count, _class_prefix(column(ts_at), _CONTINUED))
        count = min(count, _class_prefix(column(ts_at + 1), _LAST_PAIR))
    else:
        count = min(count, _class_prefix(column(ts_at), _LAST))
    for i, expected in enumerate(delta_columns):
        if count < MIN_RUN:
            return 0
        count = min(count, _match_prefix(column(layout.od_at + i), expected[:count]))
    return count if count >= MIN_RUN else 0


_formats: Dict[Tuple[int, ...], struct.Struct] = {}


def _unpacker(layout: Layout, with_ts: bool) -> struct.Struct:
    """A struct reading (timestamp delta bits,) key, value of one record, as present."""
    key = layout[:4] + layout[7:] + (with_ts,)
    unpacker = _formats.get(key)
    if unpacker is not None:
        return unpacker
    fields: List[Tuple[int, str, int]] = []  # (position, code, width)
    if with_ts:
        fields.append((layout.ts_at, "B" if layout.ts_width == 1 else "H", layout.ts_width))
    if layout.key_len >= 0:
        fields.append((layout.key_len_at + layout.key_len_width, "%ds" % layout.key_len, layout.key_len))
    if layout.value_len >= 0:
        fields.append((layout.value_len_at + layout.value_len_width, "%ds" % layout.value_len, layout.value_len))
    parts = ["<"]
    at = 0
    for start, code, width in fields:
        parts.append("%dx%s" % (start - at, code))
        at = start + width
    parts.append("%dx" % (layout.stride - at))
    unpacker = struct.Struct("".join(parts))
    if len(_formats) > 256:
        _formats.clear()
    _formats[key] = unpacker
    return unpacker


def build_run(
    buf: Any,
    pos: int,
    count: int,
    layout: Layout,
    first_offset: int,
    base_ts: int,
    append_ts: Optional[int],
    ts_type: int,
    row_cls: type,
    prefix: Tuple[Any, ...],
) -> List[Any]:
    """``count`` records of a run checked by :func:`run_length`, as ``row_cls`` tuples.

    ``buf[pos]`` starts the first of them, whose offset is ``first_offset``
    (``count`` may stop short of the run's end, and a later call build the
    rest).

    With an empty ``prefix`` a row is ``(offset, timestamp, timestamp_type,
    key, value, headers)`` (a :class:`~kafka.record.record.Record`); with a
    3-item prefix it is the consumer's layout, :data:`kafka.record.rows.ROW_FIELDS`.
    """
    with_ts = append_ts is None
    unpacker = _unpacker(layout, with_ts)
    fields = list(unpacker.iter_unpack(memoryview(buf)[pos : pos + count * layout.stride]))
    at = 0
    if with_ts:
        table = ZIGZAG_BYTE if layout.ts_width == 1 else ZIGZAG_PAIR
        timestamps: Any = map(add, repeat(base_ts), map(table.__getitem__, map(itemgetter(0), fields)))
        at = 1
    else:
        timestamps = repeat(append_ts)
    if layout.key_len >= 0:
        keys: Any = map(itemgetter(at), fields)
        at += 1
    else:
        keys = repeat(None)
    values: Any = map(itemgetter(at), fields) if layout.value_len >= 0 else repeat(None)
    offsets = range(first_offset, first_offset + count)
    headers = repeat(NO_HEADERS)  # no headers: the same immutable empty sequence for every record
    if prefix:
        columns: Dict[str, Any] = dict(zip(PREFIX_FIELDS, map(repeat, prefix)))
        columns.update(
            offset=offsets, timestamp=timestamps, timestamp_type=repeat(ts_type), key=keys, value=values,
            headers=headers, checksum=repeat(None), serialized_key_size=repeat(layout.key_len),
            serialized_value_size=repeat(layout.value_len), serialized_header_size=repeat(-1),
        )
        rows = zip(*map(columns.pop, ROW_FIELDS))
    else:
        rows = zip(offsets, timestamps, repeat(ts_type), keys, values, headers)
    return list(map(tuple.__new__, repeat(row_cls), rows))
