"""RecordReader and the uniform-run decoder: same records as one-by-one decoding, any chunking.

The record bodies in the first tests are assembled here byte by byte from the
v2 record layout of the protocol specification (zig-zag varints written by
the small encoder below, not by the library), so the run decoder is checked
against the format, not against our own builder.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka import fast_paths
from kafka.errors import CorruptRecordError
from kafka.record import uniform_runs
from kafka.record.batch import RecordBatch, RecordBatchBuilder
from kafka.record.record import Record
from kafka.record.record_reader import RecordReader, decode_each

BASE_OFFSET = 1000
BASE_TS = 1_700_000_000_000


def zigzag_varint(n: int) -> bytes:
    """The specification's varint: zig-zag, then 7 bits per byte, low group first."""
    z = (n << 1) ^ (n >> 63)
    out = bytearray()
    while True:
        if z < 0x80:
            out.append(z)
            return bytes(out)
        out.append((z & 0x7F) | 0x80)
        z >>= 7


def record_bytes(ts_delta, offset_delta, key, value, headers=()):
    body = bytearray(b"\x00")  # attributes
    body += zigzag_varint(ts_delta) + zigzag_varint(offset_delta)
    for field in (key, value):
        if field is None:
            body += zigzag_varint(-1)
        else:
            body += zigzag_varint(len(field)) + field
    body += zigzag_varint(len(headers))
    for hkey, hvalue in headers:
        body += zigzag_varint(len(hkey.encode())) + hkey.encode()
        body += zigzag_varint(-1) if hvalue is None else zigzag_varint(len(hvalue)) + hvalue
    return zigzag_varint(len(body)) + bytes(body)


def body_of(specs):
    """(records as bytes, the Records they hold) for (ts_delta, offset_delta, key, value, headers) specs."""
    data = b"".join(record_bytes(*spec) for spec in specs)
    expected = [Record(BASE_OFFSET + od, BASE_TS + ts, 0, k, v, tuple(h)) for ts, od, k, v, h in specs]
    return data, expected


def read_all(data, count, chunk=None, append_ts=None):
    reader = RecordReader(data, 0, len(data), count, BASE_OFFSET, BASE_TS, append_ts, 0)
    out = []
    while reader.remaining:
        out += reader.take(chunk or count)
    return out


def read_one_by_one(data, count):
    out = [None] * count
    assert decode_each(data, 0, len(data), out, BASE_OFFSET, BASE_TS, None, 0, None, ()) == len(data)
    return out


def uniform_specs(n, first_delta=0, value=b"0123456789", key=None, ts=lambda i: i // 3):
    return [(ts(i), first_delta + i, key, value, ()) for i in range(n)]


def test_a_uniform_body_is_one_run_per_offset_delta_width():
    data, expected = body_of(uniform_specs(200, ts=lambda i: i // 4))  # one-byte timestamp deltas
    layout = uniform_runs.probe(data, 0, len(data))
    assert layout is not None and layout.od_width == 1
    # Offset deltas 0..63 take one varint byte, 64.. take two: two runs.
    assert uniform_runs.run_length(data, 0, len(data), layout, 200) == 64
    second = 64 * layout.stride
    layout2 = uniform_runs.probe(data, second, len(data))
    assert layout2.od_width == 2 and layout2.first_delta == 64
    assert uniform_runs.run_length(data, second, len(data), layout2, 136) == 136
    assert read_all(data, 200) == expected
    assert all(type(r) is Record for r in read_all(data, 200))


@pytest.mark.parametrize("breaker, at", [
    (lambda s: (s[0], s[1], s[2], s[3] + b"x", s[4]), 20),  # a longer value
    (lambda s: (s[0], s[1] + 1, s[2], s[3], s[4]), 30),  # a gap in the offsets (compaction)
    (lambda s: (s[0], s[1], s[2], s[3], (("h", b"v"),)), 15),  # headers
    (lambda s: (s[0], s[1], b"k", s[3][1:], s[4]), 25),  # a key, same record length
    (lambda s: (s[0], s[1], s[2], None, s[4]), 40),  # a null value
    (lambda s: (70, s[1], s[2], s[3], s[4]), 33),  # a two-byte timestamp delta
])
def test_a_record_that_differs_ends_the_run_and_decodes_the_same(breaker, at):
    specs = uniform_specs(60)
    specs[at] = breaker(specs[at])
    # Later records keep their offsets after a gap.
    if specs[at][1] != at:
        specs[at + 1:] = [(s[0], s[1] + 1, s[2], s[3], s[4]) for s in specs[at + 1:]]
    data, expected = body_of(specs)
    layout = uniform_runs.probe(data, 0, len(data))
    assert uniform_runs.run_length(data, 0, len(data), layout, 60) == at
    assert read_all(data, 60) == expected
    assert read_one_by_one(data, 60) == expected


def test_runs_of_every_varint_width():
    # Offset deltas of three bytes, two-byte timestamp deltas, 8-byte keys, 200-byte values.
    specs = uniform_specs(300, first_delta=8192 - 100, key=b"K" * 8, value=b"v" * 200, ts=lambda i: 100 + i)
    data, expected = body_of(specs)
    assert read_all(data, 300) == expected
    for chunk in (1, 7, 64, 299):
        assert read_all(data, 300, chunk) == expected


@pytest.mark.parametrize("first_ts", [5000, -5000, 8191 - 30])
def test_a_run_reads_two_byte_timestamp_deltas_past_4095(first_ts):
    # Deltas of 4,096 to 8,191 ms (either sign) take two bytes, the second at 0x40 or above.
    specs = uniform_specs(60, ts=lambda i: first_ts + (i // 2 if first_ts > 0 else -(i // 2)))
    data, expected = body_of(specs)
    layout = uniform_runs.probe(data, 0, len(data))
    assert layout is not None and layout.ts_width == 2
    assert uniform_runs.run_length(data, 0, len(data), layout, 60) == 60
    assert read_all(data, 60) == expected


def test_log_append_time_gives_every_record_the_append_time():
    data, _ = body_of(uniform_specs(50))
    records = read_all(data, 50, append_ts=BASE_TS + 99)
    assert {r.timestamp for r in records} == {BASE_TS + 99}
    assert [r.offset for r in records] == list(range(BASE_OFFSET, BASE_OFFSET + 50))


def test_rows_of_a_run_carry_the_consumer_prefix_and_sizes():
    data, expected = body_of(uniform_specs(30, key=b"kk"))
    reader = RecordReader(data, 0, len(data), 30, BASE_OFFSET, BASE_TS, None, 0, tuple, ("t", 2, 5))
    rows = reader.take(30)
    assert rows == [("t", 2, 5) + tuple(r) + (None, 2, 10, -1) for r in expected]


def test_headers_are_one_shared_empty_tuple_and_never_a_list():
    data, _ = body_of(uniform_specs(100))
    records = read_all(data, 100)
    assert all(r.headers == () for r in records)


def test_trailing_bytes_fail_the_take_that_reaches_the_end():
    data, expected = body_of(uniform_specs(40))
    data += b"\x00\x00"
    reader = RecordReader(data, 0, len(data), 40, BASE_OFFSET, BASE_TS, None, 0)
    assert reader.take(30) == expected[:30]
    with pytest.raises(CorruptRecordError, match="2 bytes left"):
        reader.take(10)


def test_a_truncated_run_is_not_read_past_its_end():
    data, expected = body_of(uniform_specs(40))
    cut = data[:-5]
    reader = RecordReader(cut, 0, len(cut), 40, BASE_OFFSET, BASE_TS, None, 0)
    with pytest.raises(CorruptRecordError):
        while reader.remaining:
            reader.take(40)


def test_a_batch_decodes_through_the_reader_with_any_codec():
    builder = RecordBatchBuilder(base_offset=7, compression_type="gzip")
    for i in range(500):
        builder.append(7 + i, BASE_TS + i // 10, None, b"%08d" % i)
    batch = RecordBatch(builder.build())
    reader = batch.row_reader(tuple, ("t", 0, -1))
    first = reader.take(123)
    assert [row[3] for row in first] == list(range(7, 130)) and reader.remaining == 377
    assert [row[7] for row in reader.take(1000)] == [b"%08d" % i for i in range(123, 500)]


# -- any mixture of regular and irregular records ---------------------------------------------------

_value = st.one_of(st.none(), st.binary(max_size=12))
_segment = st.tuples(
    st.integers(min_value=1, max_value=90),  # records in the segment
    st.one_of(st.none(), st.binary(min_size=0, max_size=3)),  # the segment's key
    _value,  # the segment's value
    st.integers(min_value=0, max_value=9000),  # timestamp delta of its first record
    st.integers(min_value=0, max_value=3),  # offset gap before it
    st.booleans(),  # one record of it has a header
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segments=st.lists(_segment, min_size=1, max_size=6), chunk=st.integers(min_value=1, max_value=200))
def test_any_body_decodes_as_one_by_one_decoding_does(segments, chunk):
    specs = []
    delta = -1
    for n, key, value, ts, gap, with_header in segments:
        delta += gap
        for i in range(n):
            delta += 1
            headers = (("h", b"1"),) if with_header and i == n // 2 else ()
            specs.append((ts + i, delta, key, value, headers))
    data, expected = body_of(specs)
    for runs in (True, False):  # the UNIFORM_RUNS fast path, or record-by-record decoding alone
        with fast_paths.override(UNIFORM_RUNS=runs):
            assert read_all(data, len(specs), chunk) == expected
    assert read_one_by_one(data, len(specs)) == expected


def test_records_running_past_the_batch_end_are_not_handed_out():
    # Irregular records go one by one.  Record 20 ends 5 bytes after the body does, where
    # other bytes happen to hold well-formed records: nothing from that chunk may come out.
    specs = [(i, i, None, b"x" * (i % 7), ()) for i in range(40)]
    records = [record_bytes(*spec) for spec in specs]
    buf = b"".join(records)
    stop = sum(len(r) for r in records[:21]) - 5
    reader = RecordReader(buf, 0, stop, 40, BASE_OFFSET, BASE_TS, None, 0)
    with pytest.raises(CorruptRecordError, match="past the end of the batch"):
        reader.take(25)


def test_offset_deltas_of_every_varint_width_one_by_one():
    # Values of differing lengths keep these records off the run paths.
    # Both halves of the two-byte range (the second byte below and above
    # 0x40), both signs of three bytes (a broker never writes a negative
    # delta, but the varint means it), and a value whose length takes two
    # bytes with the second at 0x40 or above.
    deltas = [0, 1, 63, 64, 4095, 4096, 5000, 8191, 8192, 9000, (1 << 20) - 1, 1 << 20, (1 << 27) + 5,
              -1, -4097, -8192, -8193, -9000, -(1 << 20), 4200]
    specs = [(i, d, None, b"v" * i, ()) for i, d in enumerate(deltas)]
    specs[-1] = (0, 4200, None, b"w" * 5000, ())
    data, expected = body_of(specs)
    assert read_all(data, len(specs), chunk=4) == expected
    decoded = read_one_by_one(data, len(specs))
    assert [r.offset - BASE_OFFSET for r in decoded] == deltas
    assert decoded[-1].value == b"w" * 5000


# -- realistic records: every length differs, keys, headers ---------------------------------------

_header = st.tuples(
    st.text(max_size=70),  # keys of 64+ UTF-8 bytes take two length bytes
    st.one_of(st.none(), st.binary(max_size=150)),  # values of 64+ bytes too
)
_record = st.tuples(
    st.integers(min_value=0, max_value=1 << 20),  # timestamp delta: one to three varint bytes
    st.integers(min_value=0, max_value=3),  # offset gap before the record
    st.one_of(st.none(), st.binary(max_size=80)),
    st.one_of(st.none(), st.binary(max_size=300)),
    st.lists(_header, max_size=4),
)


def row_of(record, prefix=("t", 1, 2)):
    """The consumer row of ``record``, sizes as kafka-python counts them."""
    headers = record.headers
    header_size = sum(len(k.encode()) + len(v or b"") for k, v in headers) if headers else -1
    key_size = -1 if record.key is None else len(record.key)
    value_size = -1 if record.value is None else len(record.value)
    return prefix + tuple(record) + (None, key_size, value_size, header_size)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(_record, min_size=1, max_size=60), chunk=st.integers(min_value=1, max_value=70))
def test_records_of_any_shape_decode_as_the_specification_says(records, chunk):
    specs = []
    delta = -1
    for ts, gap, key, value, headers in records:
        delta += gap + 1
        specs.append((ts, delta, key, value, tuple(headers)))
    data, expected = body_of(specs)
    assert read_all(data, len(specs), chunk) == expected
    assert read_one_by_one(data, len(specs)) == expected
    reader = RecordReader(data, 0, len(data), len(specs), BASE_OFFSET, BASE_TS, None, 0, tuple, ("t", 1, 2))
    rows = []
    while reader.remaining:
        rows += reader.take(chunk)
    assert rows == [row_of(r) for r in expected]


@pytest.mark.parametrize("headers", [
    (("k", None),),  # a null value
    (("k" * 64, b"v"),),  # a key length of two bytes
    (("k", b"v" * 64),),  # a value length of two bytes
    (("\u00e9t\u00e9", b""),),  # a key of multi-byte characters, an empty value
    tuple(("h%d" % i, b"%d" % i) for i in range(64)),  # a header count of two bytes
])
def test_headers_off_the_short_path_decode_the_same(headers):
    specs = [(0, i, b"key", b"value" * i, headers if i % 2 else ()) for i in range(20)]
    data, expected = body_of(specs)
    assert read_all(data, 20, chunk=3) == expected
    rows = RecordReader(data, 0, len(data), 20, BASE_OFFSET, BASE_TS, None, 0, tuple, ("t", 1, 2)).take(20)
    assert rows == [row_of(r) for r in expected]


@pytest.mark.parametrize("damage, message", [
    ((b"\x02k\x02v", b"\x80k\x02v"), "header key length|ends inside|fields end"),  # a key length running on
    ((b"\x02k\x02v", b"\x02\xff\x02v"), "not valid UTF-8"),
    ((b"\x02k\x02v", b"\x02k\x7ev"), "overruns|fields end|ends inside"),  # a value longer than the record
])
def test_damaged_headers_raise_our_error(damage, message):
    good = record_bytes(0, 0, None, b"value", (("k", b"v"),))
    assert good.endswith(b"\x02\x02k\x02v")  # one header: count 1, key "k", value "v"
    body = good.replace(*damage) + record_bytes(1, 1, None, b"next", ())
    with pytest.raises(CorruptRecordError, match=message):
        read_all(body, 2)


# -- the one-by-one decoder's short paths: one to three short headers, one-byte timestamp deltas ----

_SHORT = ("k", b"v")
_OFF_PATH = [("k", None), ("k" * 64, b"v"), ("k", b"v" * 64), ("\u00e9", b"")]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("odd", [None] + _OFF_PATH)
def test_any_header_of_a_short_list_may_leave_the_short_path(count, odd):
    # Every position of lists of one to five headers holds, in turn, a header whose
    # lengths do not each take one byte (or, with odd=None, none does).
    specs = []
    for at in range(count):
        headers = tuple(odd if odd is not None and i == at else ("h%d" % i, b"x" * i) for i in range(count))
        specs += [(at, len(specs), b"key", b"v" * len(specs), headers), (at, len(specs) + 1, None, None, ())]
    data, expected = body_of(specs)
    assert read_one_by_one(data, len(specs)) == expected
    rows = RecordReader(data, 0, len(data), len(specs), BASE_OFFSET, BASE_TS, None, 0, tuple, ("t", 1, 2)).take(99)
    assert rows == [row_of(r) for r in expected]


@pytest.mark.parametrize("at", [0, 1, 2])
@pytest.mark.parametrize("damage, message", [
    (b"\x04\xff\xfe", "not valid UTF-8"),  # a key of two bytes that are not UTF-8
    (b"\x02k\x7e", "overruns|fields end|ends inside"),  # a value length past the record's end
    (b"\x02k\x03", "header value length"),  # a value length of -2
])
def test_damage_in_any_of_three_headers_raises_our_error(at, damage, message):
    headers = [("a", b"1"), ("b", b"2"), ("c", b"3")]
    good = record_bytes(0, 0, b"key", b"value", headers)
    marker = b"\x02%s\x02%s" % (headers[at][0].encode(), headers[at][1])
    assert good.count(marker) == 1
    body = good.replace(marker, damage + marker[len(damage):]) + record_bytes(1, 1, None, b"next", ())
    with pytest.raises(CorruptRecordError, match=message):
        read_one_by_one(body, 2)


def test_a_header_key_that_failed_to_decode_fails_again():
    bad = record_bytes(0, 0, None, b"v", (("k\u00e9", b"1"),)).replace("k\u00e9".encode(), b"k\xff\xfe")
    for _ in range(2):
        with pytest.raises(CorruptRecordError, match="not valid UTF-8"):
            read_one_by_one(bad, 1)


def test_header_keys_decode_the_same_however_many_there_are():
    from kafka.record import record_reader

    specs = [(0, i, None, b"v" * (i % 5), (("key-%d" % i, b"%d" % i), ("", b""))) for i in range(2500)]
    data, expected = body_of(specs)
    assert read_one_by_one(data, len(specs)) == expected
    assert len(record_reader._header_keys) <= record_reader._MAX_HEADER_KEYS


@pytest.mark.parametrize("append_ts", [None, BASE_TS + 99])
def test_timestamp_deltas_of_every_width_one_by_one(append_ts):
    deltas = [0, -1, 63, -64, 64, -65, 4095, -4096, 4096, -4097, 8191, -8192, 8192, -8193, 1 << 20, -(1 << 40),
              1 << 50, 5, 5]
    specs = [(d, i, None, b"v" * i, ()) for i, d in enumerate(deltas)]
    data, expected = body_of(specs)
    out = [None] * len(specs)
    decode_each(data, 0, len(data), out, BASE_OFFSET, BASE_TS, append_ts, 1, None, ())
    wanted = [BASE_TS + d if append_ts is None else append_ts for d in deltas]
    assert [r.timestamp for r in out] == wanted
    assert {r.timestamp_type for r in out} == {1}
    assert [r[:2] + r[3:] for r in out] == [r[:1] + (t,) + r[3:] for r, t in zip(expected, wanted)]


def test_a_bytearray_body_decodes_the_same():
    specs = [(i, i, b"k%d" % i, b"v" * i, tuple(("h%d" % j, b"x") for j in range(i % 4))) for i in range(12)]
    data, expected = body_of(specs)
    out = [None] * len(specs)
    assert decode_each(bytearray(data), 0, len(data), out, BASE_OFFSET, BASE_TS, None, 0, None, ()) == len(data)
    assert out == expected


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 8])
def test_a_header_count_one_more_than_the_headers_raises_our_error(count):
    # The record's length covers the headers present; the count claims one more.
    headers = tuple(("h%d" % i, b"x" * i) for i in range(count))
    good = record_bytes(0, 0, b"key", b"value", headers)
    at = good.index(b"value") + len(b"value")
    assert good[at] == 2 * count
    bad = good[:at] + bytes((2 * count + 2,)) + good[at + 1:]
    body = bad + record_bytes(1, 1, None, b"next", (("n", b"1"),) * 3)
    with pytest.raises(CorruptRecordError, match="header|fields end|ends inside"):
        read_one_by_one(body, 2)


# -- damaged bodies: the same records as the specification's reading, or our error --------------------


class _Bad(Exception):
    """The reference reading below found the bytes malformed."""


def _spec_varint(buf, pos, end, max_bytes=5):
    """A zig-zag varint of at most ``max_bytes`` bytes inside ``buf[:end]``: (value, position after)."""
    z = shift = 0
    for i in range(max_bytes):
        if pos + i >= end:
            raise _Bad("truncated varint")
        b = buf[pos + i]
        z |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return (z >> 1) ^ -(z & 1), pos + i + 1
    raise _Bad("overlong varint")


def _spec_bytes(buf, pos, end):
    """A length-prefixed field (None for length -1) inside ``buf[:end]``."""
    n, pos = _spec_varint(buf, pos, end)
    if n == -1:
        return None, pos
    if n < 0 or pos + n > end:
        raise _Bad("bad length")
    return bytes(buf[pos : pos + n]), pos + n


def spec_read(buf, count, stop, append_ts=None):
    """The ``count`` records of ``buf[:stop]`` read straight from the record layout, or _Bad."""
    records = []
    pos = 0
    for _ in range(count):
        length, pos = _spec_varint(buf, pos, stop)
        end = pos + length
        if length < 0 or end > stop:
            raise _Bad("bad record length")
        ts_delta, at = _spec_varint(buf, pos + 1, end, max_bytes=10)
        offset_delta, at = _spec_varint(buf, at, end)
        key, at = _spec_bytes(buf, at, end)
        value, at = _spec_bytes(buf, at, end)
        n, at = _spec_varint(buf, at, end)
        if n < 0:
            raise _Bad("bad header count")
        headers = []
        for _ in range(n):
            raw, at = _spec_bytes(buf, at, end)
            if raw is None:
                raise _Bad("null header key")
            try:
                hkey = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise _Bad("header key not UTF-8") from None
            hvalue, at = _spec_bytes(buf, at, end)
            headers.append((hkey, hvalue))
        if at != end:
            raise _Bad("fields do not fill the record")
        timestamp = append_ts if append_ts is not None else BASE_TS + ts_delta
        records.append(Record(BASE_OFFSET + offset_delta, timestamp, 0, key, value, tuple(headers)))
        pos = end
    if pos != stop:
        raise _Bad("bytes left over")
    return records


def reader_outcome(buf, count, stop, chunk, append_ts=None):
    """Every record the reader hands out, then the error that stopped it, if any."""
    reader = RecordReader(buf, 0, stop, count, BASE_OFFSET, BASE_TS, append_ts, 0)
    records = []
    try:
        while reader.remaining:
            records += reader.take(chunk)
    except CorruptRecordError:
        return records, True
    return records, False


_edit = st.tuples(
    st.sampled_from(["set", "insert", "delete", "truncate"]),
    st.integers(min_value=0, max_value=1 << 16),  # where (modulo the length)
    st.integers(min_value=0, max_value=255),  # the byte set or inserted
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(_record, min_size=1, max_size=8), edits=st.lists(_edit, min_size=1, max_size=3),
       chunk=st.integers(min_value=1, max_value=9), trailing=st.binary(max_size=4),
       append_ts=st.sampled_from([None, BASE_TS + 7]), as_bytearray=st.booleans())
def test_damaged_records_decode_as_the_specification_says_or_raise_our_error(
        records, edits, chunk, trailing, append_ts, as_bytearray):
    specs = []
    delta = -1
    for ts, gap, key, value, headers in records:
        delta += gap + 1
        specs.append((ts, delta, key, value, tuple(headers)))
    data = bytearray(body_of(specs)[0])
    for kind, where, byte in edits:
        at = where % (len(data) + 1)
        if kind == "set" and at < len(data):
            data[at] = byte
        elif kind == "insert":
            data.insert(at, byte)
        elif kind == "delete" and at < len(data):
            del data[at]
        elif kind == "truncate":
            del data[at:]
    stop = len(data)
    buf = bytearray(data + trailing) if as_bytearray else bytes(data + trailing)  # bytes past the batch's end
    records, failed = reader_outcome(buf, len(specs), stop, chunk, append_ts)
    try:
        expected = spec_read(buf, len(specs), stop, append_ts)
    except _Bad:
        assert failed  # records before the damage may come out first, from earlier chunks
        assert records == spec_read(buf, len(records), _end_of(buf, len(records)), append_ts)
    else:
        assert not failed and records == expected


def _end_of(buf, count):
    """Where the first ``count`` records of ``buf`` end (they are well formed)."""
    pos = 0
    for _ in range(count):
        length, pos = _spec_varint(buf, pos, len(buf))
        pos += length
    return pos


@pytest.mark.parametrize("length_change", [-200, -3, -1, 1, 3, 200])
@pytest.mark.parametrize("headers", [(), (("k", b"v"),), (("k", b"v"), ("h", None), ("k", b"w"))])
def test_a_record_length_that_does_not_match_its_fields_raises_our_error(length_change, headers):
    # The length varint is rewritten to say more or fewer bytes than the fields
    # take (negative too), between good records, with and without headers.
    good = record_bytes(3, 1, b"key", b"value" * 30, headers)
    length, at = _spec_varint(good, 0, len(good))
    bad = zigzag_varint(length + length_change) + good[at:]
    first = record_bytes(0, 0, None, b"first", ())
    body = first + bad + record_bytes(1, 2, None, b"next" * 70, ())
    for chunk in (1, 3):
        records, failed = reader_outcome(body, 3, len(body), chunk)
        assert failed and records == read_all(first, 1)[: len(records)]


@pytest.mark.parametrize("length", [0, -1, -64, -3000])
@pytest.mark.parametrize("before", [0, 1, 90, 5000])
def test_a_record_length_of_zero_or_less_is_named_wherever_the_record_is(length, before):
    # A negative length makes the record's slice wrap round to the end of the
    # buffer or come out empty, depending on where the record is: either way
    # the error says what is wrong. ``before`` bytes of padding precede the body.
    first = record_bytes(0, 0, None, b"first", ())
    good = record_bytes(3, 1, b"key", b"value" * 30, (("k", b"v"),))
    _, at = _spec_varint(good, 0, len(good))
    body = first + zigzag_varint(length) + good[at:] + record_bytes(1, 2, None, b"next" * 70, ())
    buf = b"\x00" * before + body
    out = [None] * 3
    with pytest.raises(CorruptRecordError, match="invalid record length %d$" % length):
        decode_each(buf, before, len(buf), out, BASE_OFFSET, BASE_TS, None, 0, None, ())
    assert out[0] == read_all(first, 1)[0]


def test_records_longer_than_256_bytes_decode_the_same():
    # Positions inside such a record are past the interpreter's shared small ints.
    specs = [(i, i, b"k" * (i * 37 % 80), b"v" * (200 + i * 101 % 900),
              tuple(("h%d" % j, b"x" * 70) for j in range(i % 5))) for i in range(30)]
    data, expected = body_of(specs)
    assert read_one_by_one(data, 30) == expected
    rows = RecordReader(data, 0, len(data), 30, BASE_OFFSET, BASE_TS, None, 0, tuple, ("t", 1, 2)).take(30)
    assert rows == [row_of(r) for r in expected]
