"""The columnar read path gives exactly what the record-by-record path gives.

:func:`kafka.spark.columnar_decode.columns_between` and
:class:`kafka.spark.arrow_columns.ColumnBatchBuilder` (what the executors
use) are checked against
:func:`kafka.spark.fetch.record_tuples` and :class:`kafka.spark.arrow.BatchBuilder`
(built on :mod:`kafka.record`'s decoder) on the same bytes: batches written
by librdkafka and by our producer through the broker, batches built here,
and malformed batches (the same error from both paths).
"""

from __future__ import annotations

import random
import struct

import pytest

from kafka import errors
from kafka.record import MemoryRecords, RecordBatchBuilder
from kafka.record.legacy import LegacyRecordBatchBuilder
from kafka.record.record import ControlRecordType, encode_control_key, encode_marker_value
from kafka.structs import TopicPartition
from test.spark.conftest import make_topic
from test.support.fetch_answers import gzip_batch, plain_batch

pytest.importorskip("pyarrow")
pytest.importorskip("numpy")

from kafka.spark.arrow import BatchBuilder  # noqa: E402
from kafka.spark.arrow_columns import ColumnBatchBuilder  # noqa: E402
from kafka.spark.columnar_decode import columns_between, decode_batch, decode_batches  # noqa: E402
from kafka.spark.fetch import RangeFetcher, record_tuples  # noqa: E402

BASE_TS = 1_700_000_000_000


def _arrow_both(blob, low=0, high=1 << 62, include_headers=True, together=False):
    """The Arrow batches of both paths for the data batches of ``blob`` (control batches skipped).

    Each batch is decoded on its own, or with ``together`` all in one call.
    """
    by_rows = BatchBuilder("t", 3, include_headers)
    by_columns = ColumnBatchBuilder("t", 3, include_headers)
    firsts = []
    batches = [batch for batch in MemoryRecords(blob) if not getattr(batch, "is_control", False)]
    for run in [batches] if together else [[batch] for batch in batches]:
        records, first = record_tuples(run, low, high)
        columns, first_c = columns_between(run, low, high)
        firsts.append((first, first_c))
        by_rows.extend_records(records)
        by_columns.add(columns)
    return by_rows.build(), by_columns.build(), firsts


def _assert_same(blob, **kwargs):
    expected, got, firsts = _arrow_both(blob, **kwargs)
    assert got.schema.equals(expected.schema)
    assert got.to_pylist() == expected.to_pylist()
    assert got.equals(expected)
    assert all(a == b for a, b in firsts)
    return got


def _batch(n, key=None, value=None, headers=None, codec=0, base_offset=0, timestamp_type=0, transactional=False):
    builder = RecordBatchBuilder(compression_type=codec, base_offset=base_offset, timestamp_type=timestamp_type,
                                 is_transactional=transactional, producer_id=7 if transactional else -1,
                                 producer_epoch=0 if transactional else -1, base_sequence=0 if transactional else -1)
    for i in range(n):
        builder.append(base_offset + i, BASE_TS + 3 * i, key(i) if key else None,
                       value(i) if value else b"v" * 100, headers(i) if headers else None)
    return bytes(builder.build())


def _marker(base_offset, control_type):
    builder = RecordBatchBuilder(base_offset=base_offset, is_transactional=True, is_control=True, producer_id=7,
                                 producer_epoch=0)
    builder.append(base_offset, BASE_TS, encode_control_key(control_type), encode_marker_value(0))
    return bytes(builder.build())


RNG = random.Random(16)
SHAPES = {
    # 10,000 records: the offset delta varint grows from one byte to two at 64 and to three at 8192.
    "fixed values": _batch(10_000),
    "keys and null keys": _batch(3000, key=lambda i: None if i % 3 == 0 else b"key-%d" % i),
    "empty and null values": _batch(500, key=lambda i: b"" if i % 2 else None,
                                    value=lambda i: (None, b"", b"x" * (i % 300))[i % 3]),
    "varying lengths": _batch(5000, key=lambda i: bytes(RNG.randrange(8, 37)),
                              value=lambda i: bytes(RNG.randrange(50, 2000))),
    # Record lengths of three-byte varints among short ones, the first record included.
    "records over 8 KiB": _batch(400, key=lambda i: b"k%d" % i,
                                 value=lambda i: bytes(RNG.randrange(8190, 9000) if i % 7 == 0
                                                       else RNG.randrange(5, 200))),
    # Long values but the last (a few bytes from the end of the buffer).
    "a short last value": _batch(200, key=lambda i: bytes(RNG.randrange(8, 37)),
                                 value=lambda i: b"12345" if i == 199 else bytes(RNG.randrange(13, 300))),
    "headers": _batch(700, value=lambda i: b"%d" % i,
                      headers=lambda i: [("h%d" % j, None if j == 1 else b"v" * j) for j in range(i % 4)]
                      + ([("ключ", b"\xff")] if i % 50 == 0 else [])),
    "gzip": _batch(900, key=lambda i: b"k%d" % (i % 7), codec=1),
    "snappy": _batch(900, value=lambda i: bytes(RNG.randrange(0, 300)), codec=2),
    "lz4": _batch(900, codec=3),
    "zstd": _batch(900, codec=4, headers=lambda i: [("a", b"b")] if i % 9 else []),
    "log append time": _batch(300, timestamp_type=1),
    "large offsets": _batch(100, base_offset=(1 << 40) + 5),
    "spec-built gzip": gzip_batch(40, [b"g%d" % i for i in range(30)]),
    "spec-built plain": plain_batch(7, [b"p%d" % i for i in range(70)]),
    "transactions with markers": b"".join([
        _batch(100, base_offset=0, transactional=True), _marker(100, ControlRecordType.ABORT),
        _batch(50, base_offset=101, transactional=True), _marker(151, ControlRecordType.COMMIT),
        _batch(10, base_offset=152)]),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_columns_equal_record_path(shape):
    got = _assert_same(SHAPES[shape])
    assert got.num_rows > 0


# Several batches in one call: different base offsets and timestamps, timestamp types,
# compressed and not, transactional, keys and headers in some only.
SEVERAL = b"".join([
    _batch(300, base_offset=0), _batch(200, base_offset=300, timestamp_type=1),
    _batch(150, base_offset=500, codec=1, key=lambda i: b"k%d" % i),
    _batch(100, base_offset=650, headers=lambda i: [("h", b"%d" % i)] if i % 3 else []),
    _batch(80, base_offset=750, value=lambda i: bytes(RNG.randrange(0, 400))),
    _batch(60, base_offset=830, transactional=True), _batch(40, base_offset=890, codec=4)])


def test_batches_decoded_together_equal_the_record_path():
    got = _assert_same(SEVERAL, together=True)
    assert got.num_rows == 930
    uncompressed = b"".join([_batch(300, base_offset=0), _batch(200, base_offset=300, timestamp_type=1),
                             _batch(50, base_offset=500, key=lambda i: b"%d" % i)])
    _assert_same(uncompressed, together=True)
    assert decode_batches(list(MemoryRecords(SEVERAL))) is not None
    for low, high in ((0, 1), (299, 301), (640, 900), (929, 1000)):
        _assert_same(SEVERAL, low=low, high=high, together=True)


def test_a_bad_batch_among_several_raises_as_the_record_path():
    bad = _corrupt(_batch(50, base_offset=100, value=lambda i: b"x" * 100), 61, 0x7F)
    blob = _batch(100) + bad + _batch(10, base_offset=150)
    batches = list(MemoryRecords(blob))
    assert decode_batches(batches) is None
    with pytest.raises(errors.KafkaError) as caught:
        list(batches[1])
    expected = caught.value
    with pytest.raises(type(expected)) as caught:
        columns_between(batches, 0, 1000)
    assert str(caught.value) == str(expected)


def test_legacy_batches_among_several_take_the_record_path():
    legacy = LegacyRecordBatchBuilder(1, 0)
    for i in range(5):
        legacy.append(i, BASE_TS + i, b"k", b"legacy-%d" % i)
    blob = bytes(legacy.build()) + _batch(20, base_offset=5)
    assert decode_batches(list(MemoryRecords(blob))) is None
    _assert_same(blob, together=True)


@pytest.mark.parametrize("shape", ["fixed values", "varying lengths", "headers", "gzip"])
def test_offset_window_inside_batches(shape):
    blob = SHAPES[shape]
    for low, high in ((0, 1), (5, 45), (63, 65), (17, 10_000), (10_000, 20_000)):
        _assert_same(blob, low=low, high=high)


def test_headers_column_left_out():
    _assert_same(SHAPES["headers"], include_headers=False)


def test_fast_decoder_takes_the_usual_batches():
    # The fallback to kafka.record must stay the exception: these all decode without it.
    for shape in ("fixed values", "varying lengths", "records over 8 KiB", "headers", "zstd", "log append time"):
        batch = next(iter(MemoryRecords(SHAPES[shape])))
        assert decode_batch(batch) is not None, shape


def test_legacy_and_control_batches_go_through_kafka_record():
    legacy = LegacyRecordBatchBuilder(1, 0)
    for i in range(5):
        legacy.append(i, BASE_TS + i, b"k", b"legacy-%d" % i)
    blob = bytes(legacy.build())
    assert decode_batch(next(iter(MemoryRecords(blob)))) is None
    _assert_same(blob)
    assert decode_batch(next(iter(MemoryRecords(_marker(0, ControlRecordType.COMMIT))))) is None


def _corrupt(batch, at, byte):
    data = bytearray(batch)
    data[at] = byte
    return bytes(data)


def _record_error(blob):
    with pytest.raises(errors.KafkaError) as caught:
        list(next(iter(MemoryRecords(blob))))
    return caught.value


# Each record of _batch(50): length varint (2 bytes) at 61, attributes 63, timestamp delta 64,
# offset delta 65, key length 66 (null), value length 67-68, value 69-168, header count 169.
@pytest.mark.parametrize("at, byte", [
    (61, 0x7F),  # a negative record length
    (62, 0x7F),  # a length far past the batch
    (64, 0xFF),  # the timestamp delta runs into the following fields
    (66, 0x50),  # key length larger than the record
    (67, 0x02),  # value shorter than the record
    (169, 0x05),  # a header count with no headers
    (169 + 109, 0x01),  # the second record's header count: negative
    (-1, 0x80),  # the last record's header count runs on past the end of the batch
    (65, 0x80),  # the first record's offset delta takes the key length as a second byte
])
def test_malformed_records_raise_as_the_record_path(at, byte):
    blob = _corrupt(_batch(50, value=lambda i: b"x" * 100), at, byte)
    expected = _record_error(blob)
    assert decode_batch(next(iter(MemoryRecords(blob)))) is None
    with pytest.raises(type(expected)) as caught:
        columns_between([next(iter(MemoryRecords(blob)))], 0, 100)
    assert str(caught.value) == str(expected)


# Headers are read by kafka.record's own header decoder; what it refuses leaves the batch to kafka.record.
@pytest.mark.parametrize("replace, by", [
    (b"\x04hk", b"\x04\xff\xfe"),  # a header key that is not UTF-8
    (b"\x04hk\x06", b"\x04hk\x7e"),  # a header value running past the record
    (b"\x04hk\x06", b"\x04hk\x05"),  # a header value length below -1
])
def test_malformed_headers_raise_as_the_record_path(replace, by):
    good = _batch(40, value=lambda i: b"x" * 100, headers=lambda i: [("hk", b"abc")])
    blob = good.replace(replace, by, 1)
    assert blob != good
    expected = _record_error(blob)
    assert decode_batch(next(iter(MemoryRecords(blob)))) is None
    with pytest.raises(type(expected)) as caught:
        columns_between([next(iter(MemoryRecords(blob)))], 0, 100)
    assert str(caught.value) == str(expected)


def test_the_old_module_path_serves_this_module():
    import kafka.spark.columnar_decode as new
    import kafka.spark.record_columns as old

    assert old is new


def _walked_length_at(record):
    """Where record ``record``'s length varint is in _batch(20, value=b"v" * (i + 1) for record i).

    Each record i has a one-byte length, then 7 + i bytes: attributes, timestamp
    and offset deltas, null key, value length, value, header count.
    """
    return 61 + sum(1 + 7 + i for i in range(record))


# Records of varying length are walked one by one rather than found as a run.
@pytest.mark.parametrize("record, byte", [
    (0, 0x00),  # the first record's length is 0
    (6, 0x01),  # a negative length in the middle
    (19, 0x00),  # the last record's length is 0
    (9, 0x7E),  # a length that runs past the batch
    (3, 0x0E),  # a length shorter than the record
])
def test_malformed_walked_records_raise_as_the_record_path(record, byte):
    blob = _corrupt(_batch(20, value=lambda i: b"v" * (i + 1)), _walked_length_at(record), byte)
    expected = _record_error(blob)
    assert decode_batch(next(iter(MemoryRecords(blob)))) is None
    with pytest.raises(type(expected)) as caught:
        columns_between([next(iter(MemoryRecords(blob)))], 0, 100)
    assert str(caught.value) == str(expected)


def test_record_count_beyond_the_body():
    blob = bytearray(_batch(40))
    struct.pack_into(">i", blob, 57, 41)
    expected = _record_error(bytes(blob))
    with pytest.raises(type(expected)):
        columns_between([next(iter(MemoryRecords(bytes(blob))))], 0, 100)


@pytest.mark.parametrize("codec", ["none", "gzip", "snappy", "lz4", "zstd"])
def test_librdkafka_batches_through_the_broker(broker, codec):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    topic = make_topic(broker.host, broker.port, partitions=1, prefix="columns")
    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 5,
                                         "compression.type": codec, "batch.num.messages": 10_000})
    rng = random.Random(codec)
    for i in range(6000):
        producer.produce(topic, value=None if i % 97 == 0 else bytes(rng.randrange(50, 150)),
                         key=None if i % 5 == 0 else b"user-%d" % (i % 40), partition=0,
                         headers=[("trace", b"%d" % i)] * (i % 3), timestamp=BASE_TS + i)
    assert producer.flush(30) == 0
    _assert_same_through_fetcher(broker, topic, 6000)


def test_our_producer_batches_through_the_broker(broker):
    from kafka.producer import KafkaProducer

    topic = make_topic(broker.host, broker.port, partitions=1, prefix="columns")
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5, compression_type="lz4") as producer:
        for i in range(3000):
            producer.send(topic, value=b"v" * (i % 200), key=b"k%d" % i if i % 2 else None, partition=0,
                          headers=[("n", b"%d" % i)] if i % 4 == 0 else None)
            if i % 500 == 499:
                producer.flush()  # batches of at most 500 records, several to a Fetch response
    run_lengths = _assert_same_through_fetcher(broker, topic, 3000)
    assert max(run_lengths) > 1  # batches are decoded several at a time


def _assert_same_through_fetcher(broker, topic, count):
    from kafka.client.routing import RoutingClient

    client = RoutingClient(bootstrap_servers=broker.bootstrap_servers)
    try:
        fetcher = RangeFetcher(client, max_partition_bytes=256 * 1024)
        tp = TopicPartition(topic, 0)
        by_rows = BatchBuilder(topic, 0, True)
        by_columns = ColumnBatchBuilder(topic, 0, True)
        # A window that starts and ends inside batches.
        low, high = 13, count - 11
        for records in fetcher.fetch_range(tp, low, high, True, 30_000):
            by_rows.extend_records(records)
        fast = []

        run_lengths = []

        def decode(batches, start, stop):
            fast.append(decode_batches(batches) is not None)
            run_lengths.append(len(batches))
            return columns_between(batches, start, stop)

        for columns in fetcher.fetch_range(tp, low, high, True, 30_000, decode=decode):
            by_columns.add(columns)
        assert fast and all(fast)  # no batch needed the fallback
        expected, got = by_rows.build(), by_columns.build()
        assert got.num_rows == high - low
        assert got.to_pylist() == expected.to_pylist()
        assert got.equals(expected)
        return run_lengths
    finally:
        client.close()


def test_a_read_task_does_not_import_pandas(broker):
    # pa.array() and pa.scalar() import pandas, about 0.25 s in each new Spark Python worker;
    # the read path builds its arrays from buffers instead.
    import subprocess
    import sys

    topic = make_topic(broker.host, broker.port, partitions=1, prefix="columns")
    from kafka.producer import KafkaProducer

    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        for i in range(20):
            producer.send(topic, value=b"v%d" % i, key=b"k", partition=0, headers=[("h", b"x")] if i % 2 else None)
        producer.flush()
    code = (
        "import sys\n"
        "from kafka.spark.offsets import OffsetRange\n"
        "from kafka.spark.worker import read_range\n"
        "batches = list(read_range({'bootstrap_servers': sys.argv[1]}, OffsetRange(sys.argv[2], 0, 0, 20), True, "
        "True, 30000))\n"
        "assert sum(b.num_rows for b in batches) == 20\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, broker.bootstrap_servers, topic], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
