"""A job written with the names of Spark's Kafka guide runs with format("kafkawire").

The code below follows the examples of Spark's "Structured Streaming + Kafka
Integration Guide" (option names, offsets JSON, column names, casts); only the
format name changes, plus ``.mode("append")`` on the batch write, which
Spark's Python data sources require (they refuse the default ErrorIfExists mode).
"""

from __future__ import annotations

import json

from test.spark.conftest import make_topic, produce


def test_guide_job_unchanged_but_the_format(spark, broker, tmp_checkpoint):
    servers = broker.bootstrap_servers
    topic1 = make_topic(broker.host, broker.port, partitions=2, prefix="topic1")
    topic2 = make_topic(broker.host, broker.port, partitions=1, prefix="topic2")
    out = make_topic(broker.host, broker.port, partitions=1, prefix="out")
    produce(servers, topic1, [(b"a%d" % i, b"one-%d" % i, i % 2, 1_700_000_000_000 + i, [("src", b"1")])
                              for i in range(80)])
    produce(servers, topic2, [(b"b%d" % i, b"two-%d" % i, 0, 1_700_000_000_000 + i, []) for i in range(30)])

    # Batch read with per-partition offsets, -2 earliest and -1 latest.
    df = spark \
        .read \
        .format("kafkawire") \
        .option("kafka.bootstrap.servers", servers) \
        .option("subscribe", "%s,%s" % (topic1, topic2)) \
        .option("startingOffsets", json.dumps({topic1: {"0": 23, "1": -2}, topic2: {"0": -2}})) \
        .option("endingOffsets", json.dumps({topic1: {"0": 30, "1": -1}, topic2: {"0": -1}})) \
        .load()
    pairs = df.selectExpr("CAST(key AS STRING)", "CAST(value AS STRING)")
    assert pairs.columns == ["key", "value"]
    got = sorted(r.value for r in pairs.collect())
    want = sorted(["one-%d" % (2 * o) for o in range(23, 30)] + ["one-%d" % (2 * o + 1) for o in range(40)]
                  + ["two-%d" % i for i in range(30)])
    assert got == want

    # Batch write of key/value/topic columns.
    df.selectExpr("'%s' AS topic" % out, "CAST(key AS STRING)", "CAST(value AS STRING)") \
        .write \
        .format("kafkawire") \
        .mode("append") \
        .option("kafka.bootstrap.servers", servers) \
        .save()

    # Streaming read with headers, then a streaming write with the topic option.
    stream = spark \
        .readStream \
        .format("kafkawire") \
        .option("kafka.bootstrap.servers", servers) \
        .option("subscribe", topic1) \
        .option("startingOffsets", "earliest") \
        .option("includeHeaders", "true") \
        .load()
    query = stream.selectExpr("CAST(key AS STRING)", "CAST(value AS STRING)", "headers") \
        .writeStream \
        .format("kafkawire") \
        .option("kafka.bootstrap.servers", servers) \
        .option("topic", out) \
        .option("checkpointLocation", tmp_checkpoint) \
        .trigger(availableNow=True) \
        .start()
    assert query.awaitTermination(120)

    result = spark.read.format("kafkawire").option("kafka.bootstrap.servers", servers) \
        .option("subscribe", out).option("includeHeaders", "true").load() \
        .selectExpr("CAST(value AS STRING) AS value", "headers").collect()
    values = sorted(r.value for r in result)
    assert values == sorted(want + ["one-%d" % i for i in range(80)])
    with_headers = [r for r in result if r.headers]
    assert len(with_headers) == 80 and all([(h.key, h.value) for h in r.headers] == [("src", b"1")]
                                           for r in with_headers)
