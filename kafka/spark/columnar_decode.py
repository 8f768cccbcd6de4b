"""Decoding v2 record batches into columns with numpy, for the Spark reader.

A Spark task hands Arrow columns to Spark, so building one Python object per
record (a tuple, a ``bytes`` for each key and value) only to take them apart
again is wasted work. :func:`decode_batch` reads a batch body the other way
round: it finds where each record starts, then decodes every field of all
records at once with numpy (varints included) and gathers the keys and
values into two contiguous byte buffers, ready to become Arrow binary arrays.
:func:`decode_batches` does the same for several batches in one pass, so
that numpy's cost per call (which dwarfs the work for a batch of a few
hundred records) is paid once for all of them.

Finding where records start is the one step that cannot be done for all
records at once (each record's position depends on the length of the one
before it). Records of one size follow each other at a fixed stride, so runs
of equal length prefixes are found with one numpy comparison; irregular
stretches are walked in Python, one table lookup per record in a list
comprehension (about 0.1 µs; following the chain of length prefixes with
numpy instead, by pointer doubling over every byte that could begin a
record, was measured 1.6 to 10 times slower).

Keys and values of one layout are copied out with strided views. Others
become Arrow binary views (a length and an offset into the batch, or up to
12 bytes held in the view) which Arrow casts to a binary array, one
``memcpy`` per value in C; short values far apart (keys between long
values) are gathered by a numpy index instead.

Anything unexpected (malformed bytes, a legacy batch) makes
:func:`decode_batch` return ``None``; the caller then decodes the batch with
:mod:`kafka.record`, whose results and errors are the reference, and
converts them with :meth:`RecordColumns.from_records`.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
from numpy.lib.stride_tricks import as_strided

from kafka.errors import CorruptRecordError
from kafka.record.batch import MIN_RECORD_SIZE, RecordBatch
from kafka.record.record import TimestampType
from kafka.record.record_reader import decode_header_entries
from kafka.record.varint import VARINT_MAX_BYTES, VARLONG_MAX_BYTES, ZIGZAG_BYTE, ZIGZAG_PAIR_ROWS, decode_varint

__all__ = ["BinaryColumn", "RecordColumns", "decode_batch", "decode_batches", "columns_between", "concat"]

Headers = Tuple[Tuple[str, Optional[bytes]], ...]

#: A run of equal-length records shorter than this is not worth a numpy call.
_MIN_RUN = 32
#: After a failed look for a run, records walked one by one before the next
#: look; doubled after each failure, so batches of varying lengths pay little.
_FIRST_WAIT = 32
_MAX_WAIT = 4096
#: The timestamp type of a batch whose records take the broker's append time (the batch's max timestamp).
_LOG_APPEND_TIME = TimestampType.LOG_APPEND_TIME
#: Values taking less than 1/_SPARSE of the bytes they span are gathered by
#: index (8 bytes of index per byte copied) rather than through Arrow.
_SPARSE = 8


class _Malformed(Exception):
    """The fast decoder met bytes it leaves to :mod:`kafka.record`."""


class BinaryColumn:
    """Nullable byte strings: ``lengths`` (-1 for null) and their bytes one after the other."""

    __slots__ = ("lengths", "data")

    def __init__(self, lengths: np.ndarray, data: np.ndarray) -> None:
        self.lengths = lengths  # int64
        self.data = data  # uint8, the non-null values concatenated

    @classmethod
    def from_values(cls, values: Sequence[Optional[bytes]]) -> "BinaryColumn":
        lengths = np.fromiter((-1 if v is None else len(v) for v in values), np.int64, len(values))
        data = np.frombuffer(b"".join(v for v in values if v), np.uint8)
        return cls(lengths, data)

    def take(self, start: int, stop: int) -> "BinaryColumn":
        """Rows ``start`` to ``stop`` (exclusive)."""
        sizes = np.maximum(self.lengths, 0)
        first = int(sizes[:start].sum())
        last = first + int(sizes[start:stop].sum())
        return BinaryColumn(self.lengths[start:stop], self.data[first:last])

    def to_list(self) -> List[Optional[bytes]]:
        """The values as Python objects (for tests and comparisons)."""
        out: List[Optional[bytes]] = []
        raw = self.data.tobytes()
        at = 0
        for n in self.lengths.tolist():
            if n < 0:
                out.append(None)
            else:
                out.append(raw[at:at + n])
                at += n
        return out


class RecordColumns:
    """The records of one batch (or part of it) as columns."""

    __slots__ = ("offsets", "timestamps", "timestamp_types", "keys", "values", "headers")

    def __init__(self, offsets: np.ndarray, timestamps: np.ndarray, timestamp_types: np.ndarray,
                 keys: BinaryColumn, values: BinaryColumn, headers: Optional[List[Headers]]) -> None:
        self.offsets = offsets  # int64
        self.timestamps = timestamps  # int64, milliseconds
        self.timestamp_types = timestamp_types  # int32
        self.keys = keys
        self.values = values
        #: One tuple of ``(key, value)`` pairs per record; None when no record has headers.
        self.headers = headers

    def __len__(self) -> int:
        return len(self.offsets)

    @classmethod
    def from_records(cls, records: Sequence[Any]) -> "RecordColumns":
        """Columns of record tuples ``(offset, timestamp, timestamp_type, key, value, headers, ...)``."""
        n = len(records)
        offsets = np.fromiter((r[0] for r in records), np.int64, n)
        timestamps = np.fromiter((r[1] for r in records), np.int64, n)
        types = np.fromiter((r[2] for r in records), np.int32, n)
        headers = [tuple(r[5]) for r in records] if any(r[5] for r in records) else None
        return cls(offsets, timestamps, types, BinaryColumn.from_values([r[3] for r in records]),
                   BinaryColumn.from_values([r[4] for r in records]), headers)

    @property
    def first_offset(self) -> Optional[int]:
        return int(self.offsets[0]) if len(self.offsets) else None

    def between(self, low: int, high: int) -> "RecordColumns":
        """The records with ``low <= offset < high``."""
        offsets = self.offsets
        if not len(offsets) or (offsets[0] >= low and offsets[-1] < high):
            return self
        keep = (offsets >= low) & (offsets < high)
        where = np.flatnonzero(keep)
        if not len(where):
            return self.take(0, 0)
        start, stop = int(where[0]), int(where[-1]) + 1
        if stop - start != len(where):  # offsets out of order: not from a broker, but stay exact
            kept = [self.take(i, i + 1) for i in where.tolist()]
            return concat(kept)
        return self.take(start, stop)

    def take(self, start: int, stop: int) -> "RecordColumns":
        """Rows ``start`` to ``stop`` (exclusive)."""
        return RecordColumns(self.offsets[start:stop], self.timestamps[start:stop],
                             self.timestamp_types[start:stop], self.keys.take(start, stop),
                             self.values.take(start, stop),
                             None if self.headers is None else self.headers[start:stop])


def concat(parts: Sequence[RecordColumns]) -> RecordColumns:
    """One :class:`RecordColumns` holding ``parts`` one after the other."""
    if len(parts) == 1:
        return parts[0]
    headers: Optional[List[Headers]] = None
    if any(p.headers is not None for p in parts):
        headers = []
        for p in parts:
            headers.extend(p.headers if p.headers is not None else [()] * len(p))
    return RecordColumns(
        np.concatenate([p.offsets for p in parts]),
        np.concatenate([p.timestamps for p in parts]),
        np.concatenate([p.timestamp_types for p in parts]),
        BinaryColumn(np.concatenate([p.keys.lengths for p in parts]), np.concatenate([p.keys.data for p in parts])),
        BinaryColumn(np.concatenate([p.values.lengths for p in parts]),
                     np.concatenate([p.values.data for p in parts])),
        headers)


def decode_batch(batch: Any) -> Optional[RecordColumns]:
    """The records of a v2 data batch as columns; ``None`` to leave the batch to :mod:`kafka.record`."""
    return decode_batches([batch])


def decode_batches(batches: Sequence[Any]) -> Optional[RecordColumns]:
    """The records of v2 data batches, one batch after the other, as columns.

    ``None`` to leave them to :mod:`kafka.record` (a legacy or control
    batch, or bytes the fast decoder does not take). One call for many
    batches pays numpy's cost per call (some hundreds of µs in all) once.
    """
    bodies = []
    counts = []
    for batch in batches:
        if not isinstance(batch, RecordBatch) or batch.is_control:
            return None
        buf, pos, stop = batch.body()
        count = batch.record_count
        if count <= 0 or count * MIN_RECORD_SIZE > stop - pos:
            return None
        bodies.append((buf, pos, stop))
        counts.append(count)
    if not bodies:
        return None
    buf = bodies[0][0]
    if any(body[0] is not buf for body in bodies):
        # Compressed batches have a buffer each: their records are put in one.
        buf = b"".join([memoryview(body)[pos:stop] for body, pos, stop in bodies])
        placed = np.cumsum([0] + [stop - pos for _, pos, stop in bodies]).tolist()
        bodies = [(buf, placed[i], placed[i + 1]) for i in range(len(bodies))]
    arr = np.frombuffer(buf, np.uint8)
    try:
        ends = [_record_ends(buf, arr, pos, stop, count) for (_, pos, stop), count in zip(bodies, counts)]
        ends_all = ends[0] if len(ends) == 1 else np.concatenate(ends)
        # Each record begins where the one before it in its batch ends.
        begins = np.empty_like(ends_all)
        begins[1:] = ends_all[:-1]
        begins[np.cumsum([0] + counts[:-1])] = [pos for _, pos, _ in bodies]
        starts = _record_starts(arr, begins, ends_all)
        return _fields(batches, counts, buf, arr, starts, ends_all)
    except (_Malformed, CorruptRecordError):
        return None


def columns_between(batches: Sequence[Any], low: int, high: int) -> Tuple[RecordColumns, Optional[int]]:
    """The records of ``batches`` with ``low <= offset < high``, and the offset of their first record.

    A :data:`kafka.spark.fetch.BatchDecoder`: batches :func:`decode_batches`
    leaves alone are decoded by :mod:`kafka.record` (which raises on bad bytes).
    """
    columns = decode_batches(batches)
    if columns is None:
        columns = concat([_decoded(batch) for batch in batches])
    return columns.between(low, high), columns.first_offset


def _decoded(batch: Any) -> RecordColumns:
    columns = decode_batch(batch)
    return columns if columns is not None else RecordColumns.from_records(list(batch))


# -- where the records are --------------------------------------------------------------------

def _record_ends(buf: bytes, arr: np.ndarray, pos: int, stop: int, count: int) -> np.ndarray:
    """Where each of the ``count`` records from ``pos`` ends, as their length varints say.

    :func:`_record_starts` checks what the varints say.
    """
    end_parts: List[np.ndarray] = []
    walked: List[int] = []  # ends of records walked one by one
    left = count
    wait = 0  # records to walk one by one before looking for a run again
    next_wait = _FIRST_WAIT
    try:
        while left:
            if wait:
                n = min(wait, left)
                wait = 0
                chunk = _walk(buf, pos, n)
                done = _stalled_at(chunk, pos)
                if done < n:
                    # A length of three bytes or more (or a bad one): decode it, walk on after it.
                    del chunk[done:]
                    pos = chunk[-1] if chunk else pos
                    length, body = decode_varint(buf, pos)
                    if length <= 0:
                        raise _Malformed
                    pos = body + length
                    chunk.append(pos)
                    wait = n - done - 1
                    n = done + 1
                walked.extend(chunk)
                pos = chunk[-1]
                left -= n
                if pos > stop:
                    raise _Malformed
                continue
            length, body = decode_varint(buf, pos)
            if length <= 0:
                raise _Malformed
            width = body - pos
            stride = width + length
            fit = min(left, (stop - pos) // stride)
            # The first _MIN_RUN records first: each row of the grid is a cache
            # line apart, so a full look that fails at once would cost much.
            run = _run_length(arr, pos, width, stride, _MIN_RUN) if fit >= _MIN_RUN else 0
            if run == _MIN_RUN and fit > _MIN_RUN:
                run = _run_length(arr, pos, width, stride, fit)
            if run < _MIN_RUN:
                wait, next_wait = next_wait, min(next_wait * 2, _MAX_WAIT)
                continue
            next_wait = _FIRST_WAIT
            if walked:
                end_parts.append(np.array(walked, dtype=np.int64))
                walked = []
            end_parts.append(np.arange(pos + stride, pos + (run + 1) * stride, stride, dtype=np.int64))
            pos += run * stride
            left -= run
    except IndexError:
        raise _Malformed from None
    if pos != stop:
        raise _Malformed
    if walked:
        end_parts.append(np.array(walked, dtype=np.int64))
    return np.concatenate(end_parts) if len(end_parts) > 1 else end_parts[0]


def _record_starts(arr: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Where each record's attributes byte is, given where its length varint begins and where it ends.

    The varint must say exactly how far the record's end is (this also
    catches lengths <= 0).
    """
    if (ends <= begins).any():
        raise _Malformed
    lengths, widths = _varints(arr, begins, ends, VARINT_MAX_BYTES)
    starts = begins + widths
    if (lengths != ends - starts).any() or (lengths <= 0).any():
        raise _Malformed
    return starts


def _run_length(arr: np.ndarray, pos: int, width: int, stride: int, fit: int) -> int:
    """How many of the ``fit`` records from ``pos`` at ``stride`` bytes begin with the same ``width`` bytes."""
    grid = arr[pos:pos + fit * stride].reshape(fit, stride)
    same = grid[:, 0] == arr[pos]
    for i in range(1, width):
        same &= grid[:, i] == arr[pos + i]
    return fit if same.all() else int(same.argmin())


def _build_steps() -> List[List[int]]:
    rows = []
    for b0 in range(256):
        if b0 < 0x80:
            length = ZIGZAG_BYTE[b0]
            rows.append([1 + length if length > 0 else 0] * 256)
        else:
            lengths = [ZIGZAG_PAIR_ROWS[b1][b0] for b1 in range(0x80)]
            rows.append([2 + length if length > 0 else 0 for length in lengths] + [0] * 0x80)
    return rows


#: ``_STEPS[b0][b1]``: how far the next record begins from a record whose
#: length varint starts with the bytes ``b0, b1``, for varints of one or two
#: bytes (records of up to 8,191 bytes) that give a positive length; 0 for
#: the others, which :func:`_walk` cannot step over. Two list lookups are the
#: cheapest way CPython has to read a varint.
_STEPS = _build_steps()


def _walk(buf: bytes, pos: int, n: int) -> List[int]:
    """The ends of the ``n`` records from ``pos``; from the first one the table cannot step over, the same position."""
    steps = _STEPS
    return [pos := pos + steps[buf[pos]][buf[pos + 1]] for _ in range(n)]


def _stalled_at(ends: List[int], first: int) -> int:
    """How many of :func:`_walk`'s ``ends`` (walked from ``first``) are real.

    All of them unless the walk met a record it could not step over.
    """
    last = ends[-1]
    if last != (ends[-2] if len(ends) > 1 else first):
        return len(ends)
    return 0 if last == first else ends.index(last) + 1


# -- the fields of all records at once --------------------------------------------------------

def _varints(arr: np.ndarray, at: np.ndarray, ends: np.ndarray, max_bytes: int) -> Tuple[np.ndarray, Any]:
    """Zig-zag varints starting at ``at`` (each inside its record): ``(values, widths)``."""
    if (at >= ends).any():
        raise _Malformed
    first = arr[at]
    if not (first & 0x80).any():
        # One byte each, the usual case.
        raw = first.astype(np.int64)
        return (raw >> 1) ^ -(raw & 1), 1
    raw = (first & 0x7F).astype(np.uint64)
    widths = np.ones(len(at), np.int64)
    going = first >= 0x80  # the rows whose varint has a byte ``j``
    last = len(arr) - 1
    j = 1
    while going.any():
        if j >= max_bytes:
            raise _Malformed
        # Byte j of every row at once (within the buffer; a row past its record fails the check below).
        byte = arr[np.minimum(at + j, last)]
        raw |= np.where(going, (byte & 0x7F).astype(np.uint64) << np.uint64(7 * j), np.uint64(0))
        widths += going
        going &= byte >= 0x80
        j += 1
    if (at + widths > ends).any():
        raise _Malformed
    if max_bytes == VARINT_MAX_BYTES and (raw >> np.uint64(32)).any():
        raise _Malformed
    low = (raw & np.uint64(1)).astype(np.int64)
    return (raw >> np.uint64(1)).astype(np.int64) ^ -low, widths


def _gather(arr: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The bytes ``arr[s:s+n]`` for each start and length (n > 0), one after the other."""
    present = lengths > 0
    if not present.all():
        starts, lengths = starts[present], lengths[present]
    n = len(starts)
    if not n:
        return np.empty(0, np.uint8)
    # Where records of one layout follow each other, their values are at a
    # fixed stride: a strided view copies them out at memcpy speed.
    steps = np.diff(starts)
    # A run ends where the length or the distance to the next value changes.
    changes = np.zeros(n, np.bool_)
    np.not_equal(lengths[1:], lengths[:-1], out=changes[1:])
    if n > 2:
        changes[2:] |= steps[1:] != steps[:-1]
    cuts = np.flatnonzero(changes)
    if len(cuts) * _MIN_RUN < n:
        pieces = []
        for begin, end in zip([0] + cuts.tolist(), cuts.tolist() + [n]):
            step = int(steps[begin]) if end - begin > 1 else 1
            first = int(starts[begin])
            pieces.append(as_strided(arr[first:], shape=(end - begin, int(lengths[begin])),
                                     strides=(step, 1)).ravel())
        return pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
    low = int(starts[0])
    high = int(starts[-1] + lengths[-1])
    total = int(lengths.sum())
    if total * _SPARSE < high - low:
        # Short values far apart (keys between long values): index their bytes.
        placed = np.cumsum(lengths) - lengths  # where each value goes in the output
        return arr[np.repeat(starts - placed, lengths) + np.arange(total)]
    return _by_views(arr, starts, lengths, total)


#: Arrow keeps values of up to 12 bytes inside their binary view.
_INLINE = 12
#: ``_INLINE_MASKS[n]``: the three little-endian words that keep a view's first ``n`` inline bytes.
_INLINE_MASKS = np.array([[(1 << 8 * max(0, min(4, n - 4 * w))) - 1 for w in range(3)] for n in range(_INLINE + 1)],
                         np.uint32)


def _by_views(arr: np.ndarray, starts: np.ndarray, lengths: np.ndarray, total: int) -> np.ndarray:
    """:func:`_gather` by Arrow: binary views of the values (in place where longer than 12 bytes), cast to binary."""
    import pyarrow as pa

    n = len(starts)
    low = int(starts[0])
    high = int(starts[-1] + lengths[-1])
    words = np.ndarray((len(arr) - 3 - low,), "<u4", buffer=arr, offset=low, strides=(1,))  # every 4-byte window
    last = len(words) - 1
    at = starts - low
    views = np.empty((n, 4), np.uint32)  # length, then 12 inline bytes or a prefix, buffer 0 and an offset
    views[:, 0] = lengths
    views[:, 1] = words[np.minimum(at, last)]  # the prefix (rows held inline are written again below)
    views[:, 2] = 0
    views[:, 3] = at
    inline = np.flatnonzero(lengths <= _INLINE)
    if len(inline):
        at_inline = at[inline]
        views[inline, 1:] = np.stack([words[np.minimum(at_inline + 4 * w, last)] for w in range(3)], axis=1) \
            & _INLINE_MASKS[lengths[inline]]
        # Values within 12 bytes of the buffer's end read clamped words above: copied one by one instead.
        for i in inline[at_inline + _INLINE > last + 4].tolist():
            row = views[i].view(np.uint8)
            row[4:] = 0
            row[4:4 + lengths[i]] = arr[starts[i]:starts[i] + lengths[i]]
    column = pa.Array.from_buffers(pa.binary_view(), n, [None, pa.py_buffer(views), pa.py_buffer(arr[low:high])])
    return np.frombuffer(column.cast(pa.binary()).buffers()[2], np.uint8, total)


def _fields(batches: Sequence[RecordBatch], counts: List[int], buf: bytes, arr: np.ndarray, starts: np.ndarray,
            ends: np.ndarray) -> RecordColumns:
    """The columns of the records at ``starts`` (their attributes byte) to ``ends``, ``counts[i]`` of ``batches[i]``."""
    n = len(starts)
    at = starts + 1  # after the attributes byte
    ts_delta, width = _varints(arr, at, ends, VARLONG_MAX_BYTES)
    at = at + width
    offset_delta, width = _varints(arr, at, ends, VARINT_MAX_BYTES)
    at = at + width
    key_len, width = _varints(arr, at, ends, VARINT_MAX_BYTES)
    key_at = at + width
    at = key_at + np.maximum(key_len, 0)
    value_len, width = _varints(arr, at, ends, VARINT_MAX_BYTES)
    value_at = at + width
    at = value_at + np.maximum(value_len, 0)
    if (key_len < -1).any() or (value_len < -1).any():
        raise _Malformed
    header_count, width = _varints(arr, at, ends, VARINT_MAX_BYTES)
    at = at + width
    headers: Optional[List[Headers]] = None
    with_headers = np.flatnonzero(header_count)
    if len(with_headers):
        headers = [()] * n
        for i in with_headers.tolist():
            headers[i], at[i] = decode_header_entries(buf, int(at[i]), int(ends[i]), int(header_count[i]))
    if (at != ends).any():
        raise _Malformed
    if len(batches) == 1:
        batch = batches[0]
        base_offsets: Any = batch.base_offset
        # Log-append time: the batch's max timestamp for every record.
        timestamps = np.full(n, batch.max_timestamp, np.int64) if batch.timestamp_type == _LOG_APPEND_TIME \
            else ts_delta + batch.base_timestamp
        types = np.full(n, batch.timestamp_type, np.int32)
    else:
        base_offsets = np.repeat([b.base_offset for b in batches], counts)
        types = np.repeat(np.array([b.timestamp_type for b in batches], np.int32), counts)
        appended = types == _LOG_APPEND_TIME
        timestamps = ts_delta + np.repeat([b.base_timestamp for b in batches], counts)
        if appended.any():
            timestamps[appended] = np.repeat([b.max_timestamp for b in batches], counts)[appended]
    return RecordColumns(
        offset_delta + base_offsets, timestamps, types,
        BinaryColumn(key_len, _gather(arr, key_at, key_len)),
        BinaryColumn(value_len, _gather(arr, value_at, value_len)), headers)

