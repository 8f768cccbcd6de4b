"""The executor's write path (no Spark): rows encoded from Arrow arrive as send_batch would deliver them."""

from __future__ import annotations

import pytest

pa = pytest.importorskip("pyarrow")

from kafka import errors, fast_paths  # noqa: E402
from kafka.producer.partitioner import murmur2_partition  # noqa: E402
from kafka.spark import worker  # noqa: E402
from test.spark.conftest import make_topic  # noqa: E402
from test.support.consuming import records_by_partition  # noqa: E402


@pytest.fixture(params=[True, False], ids=["encoded", "send_batch"])
def encode(request):
    with fast_paths.override(SPARK_ENCODED_WRITE=request.param):
        yield request.param


def _read(broker, topic, partitions, count):
    got = records_by_partition(broker.bootstrap_servers, topic, partitions, count)
    return {p: [(r.key, r.value, [(k, bytes(v)) for k, v in r.headers]) for r in records]
            for p, records in got.items()}


def _client(broker, **config):
    return dict(bootstrap_servers=broker.bootstrap_servers, batch_size=4096, **config)


def test_keys_with_nulls_values_and_partition_column(broker, encode):
    topic = make_topic(broker.host, broker.port, partitions=3)
    n = 2000
    keys = [None if i % 5 == 0 else b"key-%d" % i for i in range(n)]
    values = [b"" if i % 7 == 0 else b"value-%d" % i * (1 + i % 3) for i in range(n)]
    parts = [i % 3 for i in range(n)]
    batch = pa.RecordBatch.from_arrays([pa.array(keys, pa.binary()), pa.array(values, pa.binary()),
                                        pa.array(parts, pa.int32())], ["key", "value", "partition"])
    assert worker.write_batches(_client(broker), topic, iter([batch.slice(0, 1500), batch.slice(1500)])) == n
    got = _read(broker, topic, 3, n)
    for p in range(3):
        assert got[p] == [(k, v, []) for k, v, q in zip(keys, values, parts) if q == p]


def test_keyed_strings_go_to_their_murmur2_partition(broker, encode):
    topic = make_topic(broker.host, broker.port, partitions=4)
    keys = ["clé-%d" % (i % 97) for i in range(3000)]
    values = ["v-%d" % i for i in range(3000)]
    batch = pa.RecordBatch.from_arrays([pa.array(values), pa.array(keys)], ["value", "key"])
    worker.write_batches(_client(broker), topic, iter([batch]))
    got = _read(broker, topic, 4, 3000)
    for p in range(4):
        assert got[p] == [(k.encode(), v.encode(), []) for k, v in zip(keys, values)
                          if murmur2_partition(k.encode(), 4) == p]


def test_values_only_every_row_once_in_order_per_partition(broker, encode):
    topic = make_topic(broker.host, broker.port, partitions=2)
    values = [b"%06d" % i for i in range(20000)]
    worker.write_batches(_client(broker), topic, iter([pa.RecordBatch.from_arrays([pa.array(values)], ["value"])]))
    got = _read(broker, topic, 2, 20000)
    assert sorted(v for rows in got.values() for _, v, _ in rows) == values
    for rows in got.values():
        assert [v for _, v, _ in rows] == sorted(v for _, v, _ in rows)


def test_keys_some_null_go_by_murmur2_and_the_rest_sticky(broker, encode):
    topic = make_topic(broker.host, broker.port, partitions=3)
    keys = [None if i % 4 == 0 else b"k%d" % i for i in range(1000)]
    values = [b"v%d" % i for i in range(1000)]
    batch = pa.RecordBatch.from_arrays([pa.array(values), pa.array(keys, pa.binary())], ["value", "key"])
    worker.write_batches(_client(broker), topic, iter([batch.slice(0, 0), batch]))
    got = _read(broker, topic, 3, 1000)
    assert sorted(v for rows in got.values() for _, v, _ in rows) == sorted(values)
    for p, rows in got.items():
        assert [v for _, v, _ in rows] == [v for v in values if v in {v for _, v, _ in rows}]  # in order
        assert all(k is None or murmur2_partition(k, 3) == p for k, _, _ in rows)


def test_headers_take_the_send_batch_path(broker, encode):
    topic = make_topic(broker.host, broker.port)
    headers = pa.array([[{"key": "h", "value": b"%d" % i}] if i % 2 else None for i in range(10)],
                       pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())])))
    batch = pa.RecordBatch.from_arrays([pa.array([b"v%d" % i for i in range(10)]), headers], ["value", "headers"])
    worker.write_batches(_client(broker), topic, iter([batch]))
    assert _read(broker, topic, 1, 10)[0] == [(None, b"v%d" % i, [("h", b"%d" % i)] if i % 2 else [])
                                              for i in range(10)]


@pytest.mark.parametrize("columns, topic, error, message", [
    ({"value": [b"v", None], "key": [b"k", None]}, None, errors.IllegalArgumentError, "neither a key nor a value"),
    ({"value": [b"x" * 5000]}, None, errors.MessageSizeTooLargeError, "larger than max_request_size"),
    ({"value": [b"v", b"x" * 5000, b"w"]}, None, errors.MessageSizeTooLargeError, "larger than max_request_size"),
    ({"value": [b"v"]}, "not a topic!", errors.IllegalArgumentError, "characters Kafka does not allow"),
])
def test_errors_surface_as_before(broker, encode, columns, topic, error, message):
    topic = topic or make_topic(broker.host, broker.port)
    batch = pa.RecordBatch.from_arrays([pa.array(v, pa.binary()) for v in columns.values()], list(columns))
    with pytest.raises(error, match=message):
        worker.write_batches(_client(broker, max_request_size=4096), topic, iter([batch]))
