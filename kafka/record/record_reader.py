"""Decoding the records of a v2 record batch, on demand.

:class:`RecordReader` hands out the records of a batch body (decompressed,
after the 61-byte header) a chunk at a time, so a consumer holds as Python
objects only the records it is about to return.  Runs of records that share
one byte layout are built by :mod:`kafka.record.uniform_runs`; all others
record by record, by :func:`decode_each`.

Record layout (varints are zig-zag, see :mod:`kafka.record.varint`)::

    length varint | attributes int8 | timestampDelta varlong |
    offsetDelta varint | keyLength varint (-1 = null) | key |
    valueLength varint (-1 = null) | value | headerCount varint |
    headers: keyLength varint | key (UTF-8) | valueLength varint (-1 = null) | value
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from kafka import fast_paths
from kafka.errors import CorruptRecordError
from kafka.record import uniform_runs
from kafka.record.record import NO_HEADERS, Header, Record, RecordHeaders
from kafka.record.varint import ZIGZAG_BYTE, ZIGZAG_PAIR_ROWS, decode_varint, decode_varlong

__all__ = ["RecordReader", "decode_each", "decode_header_entries"]

#: Records decoded one by one after a failed attempt at a run, before the
#: next attempt; doubled after each failure, so irregular batches pay almost
#: nothing for the attempts.
_FIRST_WAIT = uniform_runs.MIN_RUN
_MAX_WAIT = 4096

#: Shaped like ``ZIGZAG_PAIR_ROWS``, all zeros: the two-byte timestamp deltas under log-append time.
_PAIR_ZEROS = [[0] * 256] * len(ZIGZAG_PAIR_ROWS)


#: ``_SHORT_LENGTH[b]``: the length that the one-byte varint ``b`` gives if
#: it is one (0 to 63), -1 for ``b`` = 1 (null), -2 for anything longer or
#: negative, which the general decoder handles.
_SHORT_LENGTH = [b >> 1 if b < 0x80 and not b & 1 else -1 if b == 1 else -2 for b in range(256)]

#: Larger than any buffer: a position past it can never match a record's end.
_LONG = 1 << 62

#: ``_HEADER_LENGTH[b]``: the length the one-byte varint ``b`` gives when it
#: is 0 to 63, else _LONG (a null value, a negative or a longer varint: for
#: :func:`_decode_headers`).
_HEADER_LENGTH = [n if n >= 0 else _LONG for n in _SHORT_LENGTH]

#: By the length byte ``b`` of a record's first header key, how far its key
#: ends after the header count byte (``_KEY_END``); by any other header
#: length byte, how far its key or value ends after that byte
#: (``_VALUE_END``).  Past any record when ``b`` is not a short length.
_KEY_END = [2 + n for n in _HEADER_LENGTH]
_VALUE_END = [1 + n for n in _HEADER_LENGTH]


def _header_size(headers: Tuple[Header, ...]) -> int:
    """UTF-8 key bytes plus value bytes of ``headers``: kafka-python's ``serialized_header_size``."""
    return sum(len(k.encode("utf-8")) + (len(v) if v is not None else 0) for k, v in headers)


def _decode_headers(buf: bytes, pos: int, rec_end: int) -> Tuple[RecordHeaders, int]:
    count, pos = decode_varint(buf, pos)
    return decode_header_entries(buf, pos, rec_end, count)


def decode_header_entries(buf: bytes, pos: int, rec_end: int, count: int) -> Tuple[RecordHeaders, int]:
    """The ``count`` headers of a record from ``buf[pos]`` (after its header count) and the position after them.

    Each is ``(key, value)``: the key decoded as UTF-8, the value bytes or
    None. Raises :class:`~kafka.errors.CorruptRecordError` when they do not
    fit before ``rec_end`` (the record's end) or are malformed. The general
    path of this module's decoder and of the Spark reader's columnar one.
    """
    if count < 0 or 2 * count > rec_end - pos:
        raise CorruptRecordError("invalid record header count %d" % count)
    headers: List[Header] = []
    for _ in range(count):
        klen, pos = decode_varint(buf, pos)
        kend = pos + klen
        if klen < 0 or kend > rec_end:
            raise CorruptRecordError("invalid record header key length %d" % klen)
        try:
            hkey = buf[pos:kend].decode("utf-8")
        except UnicodeDecodeError:
            raise CorruptRecordError("record header key is not valid UTF-8") from None
        vlen, pos = decode_varint(buf, kend)
        if vlen >= 0:
            hvalue: Optional[bytes] = buf[pos : pos + vlen]
            pos += vlen
            if pos > rec_end:
                raise CorruptRecordError("record header value overruns the record")
        elif vlen == -1:
            hvalue = None
        else:
            raise CorruptRecordError("invalid record header value length %d" % vlen)
        headers.append((hkey, hvalue))
    return RecordHeaders(headers), pos


#: Header keys met so far, by their bytes: a batch's records mostly share a
#: few keys, which then exist once instead of once per record.
_header_keys: Dict[bytes, str] = {}

#: The cache is emptied when it reaches this many keys.
_MAX_HEADER_KEYS = 1024


def _header_key(raw: bytes) -> str:
    """``raw`` decoded as UTF-8 (UnicodeDecodeError if it is not), remembered in ``_header_keys``."""
    key = raw.decode()
    if len(_header_keys) >= _MAX_HEADER_KEYS:
        _header_keys.clear()
    _header_keys[raw] = key
    return key


#: ``(base timestamp, log-append time?, table)`` of the last batch decoded.
_last_timestamps: Tuple[int, bool, List[int]] = (0, False, [d for d in ZIGZAG_BYTE])


def _one_byte_timestamps(base_ts: int, log_append: bool) -> List[int]:
    """The timestamp of each one-byte delta varint ``b``, indexed by ``b``.

    Most batches have only such deltas: their records then share these int
    objects instead of each adding its own.  Made once per batch (its chunks
    are decoded by successive calls).
    """
    global _last_timestamps
    last = _last_timestamps  # one read: another thread may replace it meanwhile
    if last[0] == base_ts and last[1] == log_append:
        return last[2]
    table = [base_ts] * 128 if log_append else [base_ts + d for d in ZIGZAG_BYTE]
    _last_timestamps = (base_ts, log_append, table)
    return table


def _bad_length(what: str, n: int) -> CorruptRecordError:
    return CorruptRecordError("invalid %s length %d" % (what, n))


def _fields_end(past: int) -> CorruptRecordError:
    return CorruptRecordError("a record's fields end %d bytes from where its length says" % past)


class RecordReader:
    """The records of one v2 batch body, decoded as they are asked for.

    ``buf[pos:stop]`` holds ``count`` records.  Without ``row_cls`` a record
    is a :class:`~kafka.record.record.Record`; with it, ``row_cls(*prefix,
    offset, timestamp, timestamp_type, key, value, headers, None, key_size,
    value_size, header_size)`` (see :meth:`kafka.record.batch.RecordBatch.rows`).
    Timestamps are ``base_ts`` plus each record's delta, or ``append_ts``
    for every record when it is given (log-append time).

    Malformed bytes raise :class:`~kafka.errors.CorruptRecordError` from the
    :meth:`take` that reaches them; records before them are handed out by
    the earlier calls.
    """

    __slots__ = (
        "_buf", "_pos", "_stop", "_left", "_base_offset", "_base_ts", "_append_ts", "_ts_type",
        "_row_cls", "_prefix", "_run", "_run_left", "_run_offset", "_plain_left", "_wait", "body_size",
    )

    def __init__(
        self,
        buf: Any,
        pos: int,
        stop: int,
        count: int,
        base_offset: int,
        base_ts: int,
        append_ts: Optional[int],
        ts_type: int,
        row_cls: Optional[type] = None,
        prefix: Tuple[Any, ...] = (),
    ) -> None:
        self._buf = buf
        self._pos = pos
        self._stop = stop
        #: Bytes of the records (after decompression, for a compressed batch).
        self.body_size = stop - pos
        self._left = count
        self._base_offset = base_offset
        self._base_ts = base_ts
        self._append_ts = append_ts
        self._ts_type = ts_type
        self._row_cls = row_cls
        self._prefix = prefix
        self._run: Optional[uniform_runs.Layout] = None
        self._run_left = 0  # records of the current run not yet built
        self._run_offset = 0  # offset of the next of them
        self._plain_left = 0  # records to decode one by one before the next attempt at a run
        self._wait = _FIRST_WAIT

    @property
    def remaining(self) -> int:
        """Records not handed out yet."""
        return self._left

    def take(self, limit: int) -> List[Any]:
        """The next ``limit`` records (fewer at the end of the batch).

        The call that hands out the last record also checks that the records
        fill the body exactly.
        """
        limit = min(limit, self._left)
        out: List[Any] = []
        while limit > 0:
            if self._run_left:
                chunk = self._take_run(limit)
            else:
                if not self._plain_left:
                    self._find_run()
                    if self._run_left:
                        continue
                chunk = self._take_plain(limit)
            if out:
                out += chunk
            else:
                out = chunk
            limit -= len(chunk)
            self._left -= len(chunk)
        if not self._left and self._pos != self._stop:
            raise CorruptRecordError("%d bytes left after the batch's records" % (self._stop - self._pos))
        return out

    def _find_run(self) -> None:
        layout = None
        if fast_paths.UNIFORM_RUNS and self._left >= uniform_runs.MIN_RUN:
            layout = uniform_runs.probe(self._buf, self._pos, self._stop)
        run = uniform_runs.run_length(self._buf, self._pos, self._stop, layout, self._left) if layout else 0
        if run:
            self._run = layout
            self._run_left = run
            self._run_offset = self._base_offset + layout.first_delta  # type: ignore[union-attr]
            self._wait = _FIRST_WAIT
        else:
            self._plain_left = self._wait
            self._wait = min(self._wait * 2, _MAX_WAIT)

    def _take_run(self, limit: int) -> List[Any]:
        layout = self._run
        assert layout is not None
        count = min(limit, self._run_left)
        rows = uniform_runs.build_run(
            self._buf, self._pos, count, layout, self._run_offset, self._base_ts, self._append_ts,
            self._ts_type, Record if self._row_cls is None else self._row_cls, self._prefix,
        )
        self._pos += count * layout.stride
        self._run_offset += count
        self._run_left -= count
        return rows

    def _take_plain(self, limit: int) -> List[Any]:
        count = min(limit, self._plain_left, self._left)
        rows: List[Any] = [None] * count
        self._pos = decode_each(
            self._buf, self._pos, self._stop, rows, self._base_offset, self._base_ts,
            self._append_ts, self._ts_type, self._row_cls, self._prefix,
        )
        if self._pos > self._stop:  # these rows read bytes past the batch: none of them is good
            raise CorruptRecordError("records run %d bytes past the end of the batch" % (self._pos - self._stop))
        self._plain_left -= count
        return rows


def decode_each(
    buf: bytes,
    pos: int,
    stop: int,
    out: List[Any],
    base_offset: int,
    base_ts: int,
    append_ts: Optional[int],
    ts_type: int,
    row_cls: Optional[type],
    prefix: Tuple[Any, ...],
) -> int:
    """Decode ``len(out)`` records into ``out``, one by one; return the position after them.

    Rows are built as :class:`RecordReader` describes, their fields in the
    order of :data:`kafka.record.rows.ROW_FIELDS`.  Each record is read from
    a copy of its bytes, where positions are small ints.  Every varint is
    decoded inline for its one-byte form and, where lengths, timestamps and
    offsets commonly need it, its two-byte form (by table lookup); so are
    one to 63 headers whose key and value lengths take one byte each.
    Anything else goes through :func:`decode_varint` and
    :func:`_decode_headers`.
    """
    zz = ZIGZAG_BYTE
    zz2 = ZIGZAG_PAIR_ROWS
    new = tuple.__new__
    record_cls = Record
    log_append = append_ts is not None
    # With log-append time every record gets append_ts: read the deltas
    # through a table of zeros rather than test the flag per record.
    ts_zz2 = _PAIR_ZEROS if log_append else zz2
    if log_append:
        base_ts = append_ts  # type: ignore[assignment]
    ts_one = _one_byte_timestamps(base_ts, log_append)
    p0, p1, p2 = prefix if row_cls is not None else (None, None, None)
    no_headers = NO_HEADERS
    headers_cls = RecordHeaders
    key_end = _KEY_END
    value_end = _VALUE_END
    short_length = _SHORT_LENGTH
    cached_key = _header_keys.get  # header key bytes -> str, new ones by new_key
    new_key = _header_key
    length: Optional[int] = None  # the record being read, for the error raised on damage
    try:
        for i in range(len(out)):
            # The record's length; then the record from its attributes byte
            # on is copied out: positions inside it are small ints, which
            # CPython shares instead of allocating one per step (up to 256).
            b = buf[pos]
            if b < 0x80:
                length = zz[b]
                start = pos + 1
            else:
                b2 = buf[pos + 1]
                if b2 < 0x80:
                    length = zz2[b2][b]
                    start = pos + 2
                else:
                    length, start = decode_varint(buf, pos)
            pos = start + length
            rec = buf[start:pos]
            # A length that is negative, too small or past ``stop`` needs no
            # test of its own: reading past ``rec`` raises IndexError, the
            # check against the fields' end below rejects a short read (and
            # the reader's check against ``stop`` after the chunk a record
            # past it); slices taken before that only copy bytes. A negative
            # one can wrap the slice round to the end of ``buf``, so the
            # error it trips is replaced below by one that names it.
            b = rec[1]  # after the attributes byte, which is unused
            if b < 0x80:
                timestamp = ts_one[b]
                at = 2
            else:
                b2 = rec[2]
                if b2 < 0x80:
                    timestamp = base_ts + ts_zz2[b2][b]
                    at = 3
                else:
                    ts_delta, at = decode_varlong(rec, 1)
                    timestamp = base_ts if log_append else base_ts + ts_delta
            b = rec[at]
            if b < 0x80:
                offset_delta = zz[b]
                at += 1
            else:
                b2 = rec[at + 1]
                if b2 < 0x80:
                    offset_delta = zz2[b2][b]
                    at += 2
                else:
                    # Batches of more than 8,192 records: three-byte deltas inline too.
                    b3 = rec[at + 2]
                    if b3 < 0x80:
                        # The low 14 bits decode through the pair table as a
                        # two-byte varint would; b3 adds its bits above them,
                        # away from zero like the low part (zigzag).
                        low = zz2[b2 & 0x7F][b]
                        offset_delta = low + (b3 << 13) if low >= 0 else low - (b3 << 13)
                        at += 3
                    else:
                        offset_delta, at = decode_varint(rec, at)
            klen = short_length[rec[at]]
            if klen >= 0:
                kstart = at + 1
                at = kstart + klen
                key = rec[kstart:at]
            elif klen == -1:
                key = None
                at += 1
            else:
                klen, at = decode_varint(rec, at)
                if klen >= 0:
                    key = rec[at : at + klen]
                    at += klen
                elif klen == -1:
                    key = None
                else:
                    raise _bad_length("record key", klen)
            b = rec[at]
            if b < 0x80:
                vlen = zz[b]
                at += 1
            else:
                b2 = rec[at + 1]
                if b2 < 0x80:
                    vlen = zz2[b2][b]
                    at += 2
                else:
                    vlen, at = decode_varint(rec, at)
            if vlen >= 0:
                value = rec[at : at + vlen]
                at += vlen
            elif vlen == -1:
                value = None
            else:
                raise _bad_length("record value", vlen)
            b = rec[at]
            if not b:
                headers: Optional[Tuple[Header, ...]] = no_headers
                hsize = -1  # serialized header size, -1 without headers (as kafka-python)
                if at + 1 != length:
                    raise _fields_end(at + 1 - length)
            else:
                # One to three headers whose key and value lengths each take
                # one varint byte, by straight-line code without a test per
                # field: any other length byte reads as _LONG (see
                # _HEADER_LENGTH), which moves the end past ``length``.
                # Headers end their record, and each end lies past the one
                # before, so the last one ending exactly at ``length`` vouches
                # for all of them.  Anything else goes to _decode_headers,
                # which says what is wrong.
                headers = None
                try:
                    k0 = at + key_end[rec[at + 1]]
                    v0 = k0 + value_end[rec[k0]]
                    if v0 == length:
                        if b == 2:
                            headers = ((cached_key(rec[at + 2 : k0]) or new_key(rec[at + 2 : k0]), rec[k0 + 1 : v0]),)
                            hsize = length - at - 3
                    else:
                        k1 = v0 + value_end[rec[v0]]
                        v1 = k1 + value_end[rec[k1]]
                        if v1 == length:
                            if b == 4:
                                headers = (
                                    (cached_key(rec[at + 2 : k0]) or new_key(rec[at + 2 : k0]), rec[k0 + 1 : v0]),
                                    (cached_key(rec[v0 + 1 : k1]) or new_key(rec[v0 + 1 : k1]), rec[k1 + 1 : v1]),
                                )
                                hsize = length - at - 5
                        elif b == 6:
                            k2 = v1 + value_end[rec[v1]]
                            v2 = k2 + value_end[rec[k2]]
                            if v2 == length:
                                headers = (
                                    (cached_key(rec[at + 2 : k0]) or new_key(rec[at + 2 : k0]), rec[k0 + 1 : v0]),
                                    (cached_key(rec[v0 + 1 : k1]) or new_key(rec[v0 + 1 : k1]), rec[k1 + 1 : v1]),
                                    (cached_key(rec[v1 + 1 : k2]) or new_key(rec[v1 + 1 : k2]), rec[k2 + 1 : v2]),
                                )
                                hsize = length - at - 7
                        elif 8 <= b < 0x80 and not b & 1:  # four to 63 headers: the same, one at a time
                            count = b >> 1
                            hend = at + 1
                            found: Tuple[Header, ...] = ()
                            for _ in range(count):
                                k0 = hend + value_end[rec[hend]]
                                v0 = k0 + value_end[rec[k0]]
                                if v0 > length:
                                    break
                                hkey = cached_key(rec[hend + 1 : k0]) or new_key(rec[hend + 1 : k0])
                                found += ((hkey, rec[k0 + 1 : v0]),)
                                hend = v0
                            else:
                                if hend == length:
                                    headers = found
                                    hsize = length - at - 1 - 2 * count
                except (IndexError, UnicodeDecodeError, TypeError):  # TypeError: an unhashable bytearray buffer
                    pass
                if headers is None:  # in ``buf``, to report damage as before the copy
                    headers, hend = _decode_headers(buf, start + at, min(pos, stop))
                    if hend != pos:
                        raise _fields_end(hend - pos)
                    hsize = _header_size(headers)
                else:
                    headers = new(headers_cls, headers)
            if row_cls is None:
                out[i] = new(record_cls, (base_offset + offset_delta, timestamp, ts_type, key, value, headers))
            else:
                out[i] = new(
                    row_cls,
                    (  # in the order of ROW_FIELDS (test_row_layout.py checks it)
                        p0,
                        p1,
                        p2,
                        base_offset + offset_delta,
                        timestamp,
                        ts_type,
                        key,
                        value,
                        headers,
                        None,
                        klen,  # -1 for a null key, as the row wants
                        vlen,
                        hsize,
                    ),
                )
    except (IndexError, CorruptRecordError) as exc:
        # A length of 0 or less is not tested per record; whatever it made
        # the decoding trip over, say what was wrong in the first place.
        if length is not None and length <= 0:
            raise _bad_length("record", length) from None
        if isinstance(exc, IndexError):
            raise CorruptRecordError("record data ends inside a record") from None
        raise
    return pos
