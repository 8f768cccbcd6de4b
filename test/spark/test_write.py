"""Batch writes: a write followed by a read returns the same rows; bad frames fail clearly."""

from __future__ import annotations

import time

import pytest

from kafka import KafkaConsumer, TopicPartition
from test.spark.conftest import make_topic

WRITE_SCHEMA = "key binary, value binary, partition int, headers array<struct<key:string,value:binary>>"


def _offsets_on_broker(bootstrap, topic, partitions, expected):
    """Each partition's offsets as a plain consumer reads them (waits at most 10 s for ``expected`` records)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    try:
        consumer.assign([TopicPartition(topic, p) for p in range(partitions)])
        consumer.seek_to_beginning()
        offsets = {p: [] for p in range(partitions)}
        deadline = time.monotonic() + 10
        while sum(map(len, offsets.values())) < expected and time.monotonic() < deadline:
            for tp, records in consumer.poll(timeout_ms=200).items():
                offsets[tp.partition].extend(r.offset for r in records)
        return offsets
    finally:
        consumer.close()


def _read_back(spark, bootstrap, topic):
    return (spark.read.format("kafkawire").option("kafka.bootstrap.servers", bootstrap)
            .option("subscribe", topic).option("includeHeaders", "true").load())


def test_write_then_read_returns_the_same_rows(spark, broker):
    topic = make_topic(broker.host, broker.port, partitions=2)
    rows = [(b"k%d" % i if i % 4 else None, b"v%d" % i, i % 2, [("h", b"%d" % i)] if i % 3 == 0 else [])
            for i in range(200)]
    df = spark.createDataFrame(rows, WRITE_SCHEMA).repartition(3)
    (df.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers", broker.bootstrap_servers)
     .option("topic", topic).save())
    # What the write left on the broker, read without Spark: a loss here is the
    # writer's, a loss only in the Spark read below is the reader's.
    assert _offsets_on_broker(broker.bootstrap_servers, topic, 2, len(rows)) == {0: list(range(100)),
                                                                                 1: list(range(100))}
    got = _read_back(spark, broker.bootstrap_servers, topic).collect()
    assert sorted((r.key or b"", r.value, r.partition, [(h.key, h.value) for h in r.headers or []]) for r in got) \
        == sorted((k or b"", v, p, h) for k, v, p, h in rows)
    # Rows of one partition keep the order they had in their write task, so
    # the offsets of each partition are dense.
    for partition in (0, 1):
        offsets = sorted(r.offset for r in got if r.partition == partition)
        assert offsets == list(range(100))


def test_topic_column_and_string_columns(spark, broker):
    first = make_topic(broker.host, broker.port)
    second = make_topic(broker.host, broker.port)
    df = spark.createDataFrame([(first if i % 2 else second, "key-%d" % i, "value-%d" % i) for i in range(40)],
                               "topic string, key string, value string")
    df.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers", broker.bootstrap_servers).save()
    for topic, parity in ((first, 1), (second, 0)):
        got = _read_back(spark, broker.bootstrap_servers, topic).selectExpr(
            "CAST(key AS STRING) AS k", "CAST(value AS STRING) AS v").collect()
        assert sorted((r.k, r.v) for r in got) == sorted(("key-%d" % i, "value-%d" % i)
                                                        for i in range(40) if i % 2 == parity)


@pytest.mark.parametrize("schema, rows, options, message", [
    ("key string", [("a",)], {"topic": "t"}, "needs a value column"),
    ("value int", [(1,)], {"topic": "t"}, "column value must be binary or string"),
    ("value string, key double", [("a", 1.0)], {"topic": "t"}, "column key must be binary or string"),
    ("value string", [("a",)], {}, "no topic"),
    ("value string, topic int", [("a", 1)], {}, "column topic must be a string"),
    ("value string, partition string", [("a", "0")], {"topic": "t"}, "column partition must be an int"),
    ("value string, headers array<string>", [("a", ["x"])], {"topic": "t"}, "column headers must be"),
    ("value string", [("a",)], {"topic": "t", "kafka.key.serializer": "x"}, "kafka.key.serializer is not supported"),
])
def test_bad_frames_fail_clearly(spark, broker, schema, rows, options, message):
    writer = spark.createDataFrame(rows, schema).write.format("kafkawire").mode("append") \
        .option("kafka.bootstrap.servers", broker.bootstrap_servers)
    for key, value in options.items():
        writer = writer.option(key, value)
    with pytest.raises(Exception, match=message):
        writer.save()


def test_null_topic_in_a_row_fails_the_write(spark, broker):
    df = spark.createDataFrame([("a", None)], "value string, topic string")
    with pytest.raises(Exception, match="null topic"):
        df.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers",
                                                           broker.bootstrap_servers).save()


def test_a_row_without_key_and_value_fails_the_write_but_a_tombstone_does_not(spark, broker):
    topic = make_topic(broker.host, broker.port)
    rows = spark.createDataFrame([(None, b"v"), (b"gone", None)], "key binary, value binary")
    rows.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers", broker.bootstrap_servers) \
        .option("topic", topic).save()
    got = [(r.key, r.value) for r in _read_back(spark, broker.bootstrap_servers, topic).collect()]
    # The two records may land on different partitions: no order between them.
    assert sorted(tuple(b"" if f is None else bytes(f) for f in row) for row in got) == [(b"", b"v"), (b"gone", b"")]
    assert sorted((row[0] is None, row[1] is None) for row in got) == [(False, True), (True, False)]
    bad = spark.createDataFrame([(b"k", b"v"), (None, None)], "key binary, value binary")
    with pytest.raises(Exception, match="neither a key nor a value"):
        bad.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers", broker.bootstrap_servers) \
            .option("topic", topic).save()


def test_overwrite_is_refused(spark, broker):
    df = spark.createDataFrame([("a",)], "value string")
    with pytest.raises(Exception, match="overwrite is not allowed"):
        df.write.format("kafkawire").mode("overwrite").option("kafka.bootstrap.servers", broker.bootstrap_servers) \
            .option("topic", "t").save()


def test_a_rejected_produce_fails_the_task(spark, mock_cluster):
    # The broker refuses the batch for good (INVALID_RECORD, not retriable):
    # the task must fail rather than report rows it did not deliver.
    mock_cluster.create_topic("refused", 1, 3)
    mock_cluster.push_request_errors(0, *([87] * 10))
    df = spark.createDataFrame([("v%d" % i,) for i in range(10)], "value string").coalesce(1)
    with pytest.raises(Exception, match="could not be written"):
        df.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers",
                                                           mock_cluster.bootstrap_servers) \
            .option("topic", "refused").option("kafka.acks", "1").save()


def test_include_headers_false_leaves_the_headers_column_out(spark, broker):
    topic = make_topic(broker.host, broker.port)
    df = spark.createDataFrame([(None, b"v%d" % i, 0, [("h", b"x")]) for i in range(5)], WRITE_SCHEMA)
    (df.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers", broker.bootstrap_servers)
     .option("topic", topic).option("includeHeaders", "false").save())
    got = _read_back(spark, broker.bootstrap_servers, topic).collect()
    assert sorted(r.value for r in got) == [b"v%d" % i for i in range(5)]
    assert all(not r.headers for r in got)
