"""Encoding of single v2 records, and the record loop PyPy runs.

:class:`~kafka.record.batch.RecordBatchBuilder` encodes the common record
(no headers, bytes key or none, bytes value) inline and hands any other
record to :func:`encode_general`.

Two loops encode a batch's records, one per interpreter. On CPython,
:func:`join_records` collects the pieces in a list, a tuple per record, and
joins them once. On PyPy that join, ``bytearray +=`` and the tuple made per
record cost more than encoding itself (about 0.5 us per 100-byte record);
appending each piece to PyPy's bytes builder
(``__pypy__.builders.BytesBuilder``), as :func:`append_records` does, is four
times faster there, and 3-5 % slower than the join on CPython. Both give the
same bytes (test/record/test_record_encoding.py checks it, on CPython too,
where :class:`JoinBuilder` stands in for PyPy's builder). The builder loop is
the ``BYTES_BUILDER`` fast path of :mod:`kafka.fast_paths`.
"""

from __future__ import annotations

import time
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from kafka.record.record import Header
from kafka.record.varint import VARINT_TABLE, VARINT_TABLE_SIZE, encode_varint

__all__ = ["Record", "append_records", "append_values", "join_records", "encode_general", "now_ms",
           "new_bytes_builder", "JoinBuilder"]

#: A record as the producer keeps it: ``(timestamp, key, value, headers)``.
Record = Tuple[Optional[int], Optional[bytes], Optional[bytes], Optional[Sequence[Header]]]


def now_ms() -> int:
    """The current time in milliseconds (the timestamp of a record given none)."""
    return int(time.time() * 1000)


def bytes_or_none(obj: object, what: str) -> Optional[bytes]:
    """``obj`` as bytes (None stays None); a ``TypeError`` naming ``what`` for anything else."""
    if obj is None or type(obj) is bytes:
        return obj
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return bytes(obj)
    raise TypeError("record %s must be bytes or None, not %s" % (what, type(obj).__name__))


def varint(n: int, table: List[bytes] = VARINT_TABLE) -> bytes:
    """The zig-zag varint of ``n``, from the table when it holds it."""
    return table[n] if 0 <= n < VARINT_TABLE_SIZE else encode_varint(n)


def _encode_headers(headers: Sequence[Header]) -> bytes:
    # The varint table is read inline: this runs for every header of every record.
    parts = [varint(len(headers))]
    append = parts.append
    for hkey, hvalue in headers:
        kb = hkey.encode() if isinstance(hkey, str) else bytes_or_none(hkey, "header key")
        if kb is None:
            raise TypeError("record header key must not be None")
        n = len(kb)
        append(VARINT_TABLE[n] if n < VARINT_TABLE_SIZE else encode_varint(n))
        append(kb)
        if hvalue is None:
            append(b"\x01")
        else:
            if type(hvalue) is not bytes:
                hvalue = bytes_or_none(hvalue, "header value")
            n = len(hvalue)  # type: ignore[arg-type]
            append(VARINT_TABLE[n] if n < VARINT_TABLE_SIZE else encode_varint(n))
            append(hvalue)  # type: ignore[arg-type]
    return b"".join(parts)


def encode_general(tsv: bytes, odv: bytes, key: Optional[bytes], value: Optional[bytes],
                   headers: Optional[Sequence[Header]]) -> bytes:
    """One whole record, any key, value and headers; ``tsv`` and ``odv`` are its encoded deltas."""
    key = bytes_or_none(key, "key")
    value = bytes_or_none(value, "value")
    parts = [b"\x00", tsv, odv]
    if key is None:
        parts.append(b"\x01")
    else:
        parts.append(varint(len(key)))
        parts.append(key)
    if value is None:
        parts.append(b"\x01")
    else:
        parts.append(varint(len(value)))
        parts.append(value)
    parts.append(_encode_headers(headers) if headers else b"\x00")
    body = b"".join(parts)
    return varint(len(body)) + body


def join_records(records: Iterable[Record], delta: int, base_ts: Optional[int],
                 max_ts: int) -> Tuple[bytes, int, Optional[int], int]:
    """The encoding of ``records``, and the state :func:`append_records` returns; the CPython loop.

    One ``list.extend`` of a tuple per record and one join: on CPython a
    little faster than :func:`append_records`' call per piece, on PyPy four
    times slower. The two loops must encode alike (tested).
    """
    table, table_size = VARINT_TABLE, VARINT_TABLE_SIZE
    join = b"".join
    parts: List[bytes] = []
    extend = parts.extend
    for timestamp, key, value, headers in records:
        if timestamp is None:
            timestamp = now_ms()
        if base_ts is None:
            base_ts = max_ts = timestamp
        elif timestamp > max_ts:
            max_ts = timestamp
        ts_delta = timestamp - base_ts
        tsv = table[ts_delta] if 0 <= ts_delta < table_size else encode_varint(ts_delta)
        odv = table[delta] if delta < table_size else encode_varint(delta)
        delta += 1
        if type(value) is bytes and (key is None or type(key) is bytes):
            # Headers take this path too; a record's body is joined first and its length read off it.
            vlen = len(value)
            vv = table[vlen] if vlen < table_size else encode_varint(vlen)
            hv = _encode_headers(headers) if headers else b"\x00"
            if key is None:
                body = join((b"\x00", tsv, odv, b"\x01", vv, value, hv))
            else:
                klen = len(key)
                body = join((b"\x00", tsv, odv, table[klen] if klen < table_size else encode_varint(klen), key,
                             vv, value, hv))
            size = len(body)
            extend((table[size] if size < table_size else encode_varint(size), body))
        else:
            parts.append(encode_general(tsv, odv, key, value, headers))
    return b"".join(parts), delta, base_ts, max_ts


def append_records(records: Iterable[Record], delta: int, base_ts: Optional[int], max_ts: int,
                   append: Callable[[bytes], object]) -> Tuple[int, Optional[int], int]:
    """Pass every piece of ``records``' encoding to ``append``, in order; the PyPy loop.

    ``delta`` is the first record's offset delta, ``base_ts`` the batch's
    first timestamp (None while it has no record) and ``max_ts`` its largest
    so far. Returns them as they are after the records: ``(next offset delta,
    base timestamp, max timestamp)``.
    """
    for timestamp, key, value, headers in records:
        delta, base_ts, max_ts = _append_record(timestamp, key, value, headers, delta, base_ts, max_ts, append)
    return delta, base_ts, max_ts


def append_values(stamps: Sequence[int], values: Sequence[Optional[bytes]], delta: int, base_ts: Optional[int],
                  max_ts: int, append: Callable[[bytes], object]) -> Tuple[int, Optional[int], int]:
    """:func:`append_records` for records without key and headers, given as two columns; the PyPy loop.

    ``stamps[i]`` and ``values[i]`` are record i's timestamp and value (the
    producer keeps a batch of such records this way, see
    :class:`~kafka.producer.batch.ProducerBatch`).
    """
    for i in range(len(values)):
        delta, base_ts, max_ts = _append_record(stamps[i], None, values[i], None, delta, base_ts, max_ts, append)
    return delta, base_ts, max_ts


def _append_record(timestamp: Optional[int], key: Optional[bytes], value: Optional[bytes],
                   headers: Optional[Sequence[Header]], delta: int, base_ts: Optional[int], max_ts: int,
                   append: Callable[[bytes], object]) -> Tuple[int, Optional[int], int]:
    """One record of :func:`append_records` (PyPy's JIT inlines it, and the tuple it returns goes)."""
    table, table_size = VARINT_TABLE, VARINT_TABLE_SIZE
    if timestamp is None:
        timestamp = now_ms()
    if base_ts is None:
        base_ts = max_ts = timestamp
    elif timestamp > max_ts:
        max_ts = timestamp
    ts_delta = timestamp - base_ts
    tsv = table[ts_delta] if 0 <= ts_delta < table_size else encode_varint(ts_delta)
    odv = table[delta] if delta < table_size else encode_varint(delta)
    if headers or type(value) is not bytes or (key is not None and type(key) is not bytes):
        if not (headers and _append_with_headers(tsv, odv, key, value, headers, append)):
            append(encode_general(tsv, odv, key, value, headers))
        return delta + 1, base_ts, max_ts
    vlen = len(value)
    vv = table[vlen] if vlen < table_size else encode_varint(vlen)
    if key is None:
        size = 3 + len(tsv) + len(odv) + len(vv) + vlen
        append(table[size] if size < table_size else encode_varint(size))
        append(b"\x00")
        append(tsv)
        append(odv)
        append(b"\x01")
    else:
        klen = len(key)
        kv = table[klen] if klen < table_size else encode_varint(klen)
        size = 2 + len(tsv) + len(odv) + len(kv) + klen + len(vv) + vlen
        append(table[size] if size < table_size else encode_varint(size))
        append(b"\x00")
        append(tsv)
        append(odv)
        append(kv)
        append(key)
    append(vv)
    append(value)
    append(b"\x00")
    return delta + 1, base_ts, max_ts


def _append_with_headers(tsv: bytes, odv: bytes, key: Optional[bytes], value: Optional[bytes],
                         headers: Sequence[Header], append: Callable[[bytes], object]) -> bool:
    """:func:`encode_general`'s record, piece by piece; False, appending nothing, for other than bytes and str."""
    if (value is not None and type(value) is not bytes) or (key is not None and type(key) is not bytes):
        return False
    size = 1 + len(tsv) + len(odv)
    size += 1 if key is None else len(varint(len(key))) + len(key)
    size += 1 if value is None else len(varint(len(value))) + len(value)
    count = varint(len(headers))
    size += len(count)
    encoded_keys: List[bytes] = []
    for hkey, hvalue in headers:
        if type(hkey) is not str or (hvalue is not None and type(hvalue) is not bytes):
            return False
        kb = hkey.encode("utf-8")
        encoded_keys.append(kb)
        size += len(varint(len(kb))) + len(kb) + (1 if hvalue is None else len(varint(len(hvalue))) + len(hvalue))
    append(varint(size))
    append(b"\x00")
    append(tsv)
    append(odv)
    for part in (key, value):
        if part is None:
            append(b"\x01")
        else:
            append(varint(len(part)))
            append(part)
    append(count)
    for kb, (_, hvalue) in zip(encoded_keys, headers):
        append(varint(len(kb)))
        append(kb)
        if hvalue is None:
            append(b"\x01")
        else:
            append(varint(len(hvalue)))
            append(hvalue)
    return True


def _pypy_bytes_builder() -> Optional[Callable[[], object]]:
    try:
        from __pypy__.builders import BytesBuilder  # type: ignore[import-not-found]
    except ImportError:
        return None
    return BytesBuilder  # type: ignore[no-any-return]


class JoinBuilder:
    """PyPy's bytes builder interface (``append``, ``build``) over a list joined once: its stand-in elsewhere."""

    __slots__ = ("parts", "append")

    def __init__(self) -> None:
        self.parts: List[bytes] = []
        self.append = self.parts.append

    def build(self) -> bytes:
        """The bytes appended so far, in order."""
        return b"".join(self.parts)


#: PyPy's bytes builder class (``append(bytes)``, ``build() -> bytes``), None elsewhere.
_PYPY_BUILDER = _pypy_bytes_builder()


def new_bytes_builder() -> object:
    """An empty bytes builder: PyPy's own, or a :class:`JoinBuilder` where there is none.

    :class:`~kafka.record.batch.RecordBatchBuilder` appends to one while the
    ``BYTES_BUILDER`` fast path of :mod:`kafka.fast_paths` is on (on PyPy).
    """
    return _PYPY_BUILDER() if _PYPY_BUILDER is not None else JoinBuilder()

