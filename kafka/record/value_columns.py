"""Record bytes of value-only records given as two columns: :func:`encode_values`.

The producer keeps records that have a bytes value, no key and no headers
as a column of timestamps and a column of values (see
:class:`~kafka.producer.batch.ProducerBatch`). Such a record's bytes are::

    length varint | 0x00 attributes | timestamp delta varint | offset delta varint |
    0x01 (key length -1: null) | value length varint | value | 0x00 header count

Apart from the value, each piece depends on one or two small numbers: the
record's offset delta ``i``, its value's length ``L`` and its timestamp
delta. :func:`encode_values` keeps the pieces in tables and builds a batch's
list of pieces with slice assignments and ``map`` over those tables, so
CPython's work per record runs in C, then joins the list once. Records
sent together share their timestamp, so the timestamps come in runs; a run
costs a few Python steps, a record almost none. Columns whose timestamps
mostly differ from record to record are left to the record loop of
:mod:`kafka.record.record_encoding` (:func:`encode_values` returns None).
"""

from __future__ import annotations

from itertools import compress
from operator import ne
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from kafka.record.varint import encode_varint

__all__ = ["encode_values"]

#: Offset deltas whose pieces are kept: a batch of more records computes the rest.
_MAX_KEPT_DELTAS = 1 << 16

#: Value lengths whose pieces are kept per table; a table is emptied past this.
_MAX_KEPT_LENGTHS = 4096

_BYTES = {bytes}

#: Columns whose runs of equal timestamps are shorter than this on average
#: go to the record loop. Measured on 100-byte values, 1,024 records: the
#: loop takes 0.56 us per record whatever the runs; the columns 3.0 us at
#: runs of 1, 0.62 at 8, 0.50 at 12, 0.44 at 16: break-even lies near 10.
_MIN_RUN_LENGTH = 12


class _LengthPieces(Dict[int, bytes]):
    """By value length ``L``, the piece that depends on it (``piece(L)``), made on first use."""

    def __init__(self, piece: Callable[[int], bytes]) -> None:
        super().__init__()
        self._piece = piece

    def __missing__(self, length: int) -> bytes:
        if len(self) >= _MAX_KEPT_LENGTHS:
            self.clear()
        made = self[length] = self._piece(length)
        return made


def _head_piece(middle: int) -> Callable[[int], bytes]:
    """``L -> b"\\x00" + varint(record length) + b"\\x00"``, for deltas taking ``middle`` bytes together.

    The leading 0x00 is the header count of the record before; the trailing
    one is this record's attributes. The record is 3 + ``middle`` + the
    value length's varint + ``L`` bytes long.
    """

    def piece(length: int) -> bytes:
        return b"\x00" + encode_varint(3 + middle + len(encode_varint(length)) + length) + b"\x00"

    return piece


def _value_length_piece(length: int) -> bytes:
    return b"\x01" + encode_varint(length)


#: ``_HEADS[m]``: the pieces before the timestamp delta, for timestamp and
#: offset deltas of ``m`` varint bytes together.
_HEADS: Dict[int, _LengthPieces] = {}
#: ``_VALUE_LENGTHS[L]``: the null key's length and the value's length, between the offset delta and the value.
_VALUE_LENGTHS = _LengthPieces(_value_length_piece)

#: ``_kept[0][i]``: the varint of offset delta ``i``; ``_kept[1][i]``: the
#: same after a timestamp delta of 0. Replaced, never changed in place, so
#: a thread reading it sees whole lists.
_kept: Tuple[List[bytes], List[bytes]] = ([], [])

#: The offset deltas where the varint grows by a byte: 64, 8192, ... (zig-zag halves the range).
_DELTA_SIZE_STEPS = [1 << (7 * k - 1) for k in range(1, 6)]


def _heads_for(middle: int) -> _LengthPieces:
    table = _HEADS.get(middle)
    if table is None:
        table = _HEADS.setdefault(middle, _LengthPieces(_head_piece(middle)))
    return table


def _delta_pieces(stop: int) -> Tuple[List[bytes], List[bytes]]:
    """The offset delta varints 0 to ``stop - 1``, alone and after a zero timestamp delta."""
    global _kept
    kept = _kept
    have = len(kept[0])
    if have < stop and have < _MAX_KEPT_DELTAS:
        more = [encode_varint(i) for i in range(have, min(stop, _MAX_KEPT_DELTAS))]
        kept = _kept = (kept[0] + more, kept[1] + [b"\x00" + d for d in more])
    if stop <= len(kept[0]):
        return kept
    rest = [encode_varint(i) for i in range(len(kept[0]), stop)]
    return kept[0] + rest, kept[1] + [b"\x00" + d for d in rest]


def _runs(stamps: List[int]) -> List[int]:
    """Where each run of equal timestamps starts, then ``len(stamps)``."""
    count = len(stamps)
    if stamps.count(stamps[0]) == count:
        return [0, count]
    return [0, *compress(range(1, count), map(ne, stamps[1:], stamps)), count]


def encode_values(stamps: Sequence[int], values: Sequence[bytes], first_delta: int,
                  base_ts: int) -> Optional[bytes]:
    """The bytes of records ``i`` made of ``values[i]`` at ``stamps[i]``, or None to leave them to the record loop.

    Record ``i`` gets offset delta ``first_delta + i`` and timestamp delta
    ``stamps[i] - base_ts``, a null key and no headers: byte for byte what
    :meth:`RecordBatchBuilder.extend_values
    <kafka.record.batch.RecordBatchBuilder.extend_values>` appends. Every
    timestamp must be an int. None when a value is not ``bytes`` (None, or
    another bytes-like type) or the timestamps change more often than once
    per ``_MIN_RUN_LENGTH`` records.
    """
    count = len(values)
    if not count:
        return b""
    stamps = stamps if type(stamps) is list else list(stamps)
    starts = _runs(stamps)
    if len(starts) - 2 > count // _MIN_RUN_LENGTH:  # runs beyond the first: one per _MIN_RUN_LENGTH records at most
        return None
    if set(map(type, values)) != _BYTES:  # a memoryview's len() need not be its size: the record loop copies it
        return None
    lengths = list(map(len, values))
    uniform = lengths.count(lengths[0]) == count  # then one piece serves every record
    offset_deltas, after_zero = _delta_pieces(first_delta + count)
    heads: List[bytes] = []
    middles: List[bytes] = []
    for start, stop in zip(starts, starts[1:]):
        ts_delta = stamps[start] - base_ts
        if ts_delta == 0:
            ts_size = 1
            middles += after_zero[first_delta + start : first_delta + stop]
        else:
            ts_varint = encode_varint(ts_delta)
            ts_size = len(ts_varint)
            middles += map(ts_varint.__add__, offset_deltas[first_delta + start : first_delta + stop])
        _add_heads(heads, lengths, start, stop, first_delta, ts_size, uniform)
    parts: List[bytes] = [b"\x00"] * (4 * count + 1)
    parts[0 : 4 * count : 4] = heads
    parts[0] = parts[0][1:]  # no record before the first
    parts[1 : 4 * count : 4] = middles
    if uniform:
        parts[2 : 4 * count : 4] = [_VALUE_LENGTHS[lengths[0]]] * count
    else:
        parts[2 : 4 * count : 4] = map(_VALUE_LENGTHS.__getitem__, lengths)
    parts[3 : 4 * count : 4] = values
    return b"".join(parts)


def _add_heads(heads: List[bytes], lengths: List[int], start: int, stop: int, first_delta: int, ts_size: int,
               uniform: bool) -> None:
    """Append the head pieces of records ``start`` to ``stop - 1``, whose timestamp deltas take ``ts_size`` bytes."""
    low = 0
    for size, high in enumerate(_DELTA_SIZE_STEPS, 1):
        # The records whose offset delta takes ``size`` bytes: deltas low to high - 1.
        begin = max(start, low - first_delta)
        end = min(stop, high - first_delta)
        if begin < end:
            table = _heads_for(ts_size + size)
            if uniform:
                heads += [table[lengths[0]]] * (end - begin)
            else:
                heads += map(table.__getitem__, lengths[begin:end])
        low = high
        if low - first_delta >= stop:
            break
