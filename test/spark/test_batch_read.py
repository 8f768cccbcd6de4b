"""Batch reads: every record once, the connector's schema, offsets, timestamps, headers."""

from __future__ import annotations

import json

import pytest

from kafka.producer import KafkaProducer
from test.spark.conftest import make_topic, produce

BASE_TS = 1_700_000_000_000
SCHEMA = ("struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,"
          "timestamp:timestamp,timestampType:int>")


def _records(n, partitions):
    return [(b"k%d" % i if i % 3 else None, b"value-%d" % i, i % partitions, BASE_TS + i,
             [("n", b"%d" % i), ("empty", b"")] if i % 2 else []) for i in range(n)]


def _expected(records):
    """(partition, offset, key, value, timestamp, headers) of each record, in offset order."""
    out, next_offset = [], {}
    for k, v, p, ts, h in records:
        offset = next_offset.get(p, 0)
        next_offset[p] = offset + 1
        out.append((p, offset, k, v, ts, h))
    return sorted(out)


def _load(spark, bootstrap, **options):
    reader = spark.read.format("kafkawire").option("kafka.bootstrap.servers", bootstrap)
    for key, value in options.items():
        reader = reader.option(key, value)
    return reader.load()


def _rows(df):
    return sorted((r.partition, r.offset, r.key, r.value, r.ts) for r in
                  df.selectExpr("partition", "offset", "key", "value", "unix_millis(timestamp) AS ts").collect())


@pytest.fixture(scope="module")
def filled(broker):
    topic = make_topic(broker.host, broker.port, partitions=3)
    records = _records(300, 3)
    produce(broker.bootstrap_servers, topic, records)
    return topic, _expected(records)


def test_schema_and_every_record_once(spark, broker, filled):
    topic, expected = filled
    df = _load(spark, broker.bootstrap_servers, subscribe=topic)
    assert df.schema.simpleString() == SCHEMA
    rows = df.collect()
    assert len(rows) == len(expected)
    assert {r.topic for r in rows} == {topic}
    assert {r.timestampType for r in rows} == {0}  # CreateTime
    assert _rows(df) == [e[:5] for e in expected]
    # One Spark partition per Kafka partition.
    assert df.rdd.getNumPartitions() == 3


def test_read_committed_without_transactions_reads_every_record(spark, broker, filled):
    # Transactions themselves: test_read_committed.py.
    topic, expected = filled
    df = _load(spark, broker.bootstrap_servers, subscribe=topic, includeHeaders="true",
               **{"kafka.isolation.level": "read_committed"})
    assert _rows(df) == [e[:5] for e in expected]
    got = sorted((r.partition, r.offset, [(h.key, h.value) for h in r.headers or []]) for r in df.collect())
    assert got == [(p, o, h) for p, o, _k, _v, _ts, h in expected]


def test_headers_round_trip(spark, broker, filled):
    topic, expected = filled
    df = _load(spark, broker.bootstrap_servers, subscribe=topic, includeHeaders="true")
    assert df.schema.simpleString() == SCHEMA[:-1] + ",headers:array<struct<key:string,value:binary>>>"
    got = sorted((r.partition, r.offset, [(h.key, h.value) for h in r.headers or []]) for r in df.collect())
    assert got == [(p, o, h) for p, o, _k, _v, _ts, h in expected]


def test_starting_and_ending_offsets_select_exact_records(spark, broker, filled):
    topic, expected = filled
    starting = json.dumps({topic: {"0": 10, "1": -2, "2": 95}})
    ending = json.dumps({topic: {"0": 20, "1": 5, "2": -1}})
    df = _load(spark, broker.bootstrap_servers, subscribe=topic, startingOffsets=starting, endingOffsets=ending)
    want = [e[:5] for e in expected if (e[0] == 0 and 10 <= e[1] < 20) or (e[0] == 1 and e[1] < 5)
            or (e[0] == 2 and e[1] >= 95)]
    assert _rows(df) == want
    assert len(want) == 10 + 5 + 5


def test_assign_and_pattern(spark, broker, filled):
    topic, expected = filled
    df = _load(spark, broker.bootstrap_servers, assign=json.dumps({topic: [1]}))
    assert _rows(df) == [e[:5] for e in expected if e[0] == 1]
    df = _load(spark, broker.bootstrap_servers, subscribePattern=topic[:-3] + "...")
    assert len(_rows(df)) == len(expected)


def test_min_partitions_splits_ranges(spark, broker, filled):
    topic, expected = filled
    # Each range gets pieces in proportion to its share of the records, as in
    # Spark's connector: three equal ranges and minPartitions=6 make 2 pieces each.
    df = _load(spark, broker.bootstrap_servers, subscribe=topic, minPartitions="6")
    assert df.rdd.getNumPartitions() == 6
    assert _rows(df) == [e[:5] for e in expected]


def test_starting_timestamp_before_every_record_reads_all(spark, broker, filled):
    # Tansu's timestamp lookups answer offset 0 whatever the timestamp; a
    # timestamp before every record makes that answer the right one.
    topic, expected = filled
    df = _load(spark, broker.bootstrap_servers, subscribe=topic, startingTimestamp=str(BASE_TS - 1000))
    assert _rows(df) == [e[:5] for e in expected]


def test_end_offsets_exact_on_mock_cluster(spark, mock_cluster):
    mock_cluster.create_topic("ends", 2, 3)
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=50) as producer:
        for i in range(25):
            producer.send("ends", value=b"%d" % i, partition=i % 2, timestamp_ms=BASE_TS + i)
        producer.flush(10)
    bootstrap = mock_cluster.bootstrap_servers
    df = _load(spark, bootstrap, subscribe="ends")
    assert [(p, o) for p, o, *_ in _rows(df)] == [(0, o) for o in range(13)] + [(1, o) for o in range(12)]
    df = _load(spark, bootstrap, subscribe="ends", startingOffsets=json.dumps({"ends": {"0": 3, "1": -2}}),
               endingOffsets=json.dumps({"ends": {"0": -1, "1": 4}}))
    assert [(p, o) for p, o, *_ in _rows(df)] == [(0, o) for o in range(3, 13)] + [(1, o) for o in range(4)]
    # The end is exclusive: end == start gives nothing.
    df = _load(spark, bootstrap, assign=json.dumps({"ends": [0]}), startingOffsets=json.dumps({"ends": {"0": 7}}),
               endingOffsets=json.dumps({"ends": {"0": 7}}))
    assert df.count() == 0


def test_timestamps_matching_nothing_on_mock_cluster(spark, mock_cluster):
    # The mock cluster finds no offset for any timestamp: that is the "no
    # record at or after this timestamp" case of Spark's contract.
    mock_cluster.create_topic("times", 1, 3)
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers) as producer:
        for i in range(5):
            producer.send("times", value=b"%d" % i, partition=0, timestamp_ms=BASE_TS + i)
        producer.flush(10)
    bootstrap = mock_cluster.bootstrap_servers
    with pytest.raises(Exception, match="no record at or after the starting timestamp"):
        _load(spark, bootstrap, subscribe="times", startingTimestamp=str(BASE_TS + 100)).collect()
    df = _load(spark, bootstrap, subscribe="times", startingTimestamp=str(BASE_TS + 100),
               startingOffsetsByTimestampStrategy="latest")
    assert df.count() == 0
    # An ending timestamp that matches nothing means the end of the partition.
    df = _load(spark, bootstrap, subscribe="times",
               endingOffsetsByTimestamp=json.dumps({"times": {"0": BASE_TS + 100}}))
    assert df.count() == 5


@pytest.mark.parametrize("options, message", [
    ({"subscribe": "a", "assign": '{"a":[0]}'}, "exactly one of"),
    ({}, "exactly one of"),
    ({"subscribe": "a", "kafka.auto.offset.reset": "earliest"}, "kafka.auto.offset.reset is not supported"),
    ({"subscribe": "a", "kafka.value.deserializer": "x"}, "kafka.value.deserializer is not supported"),
    ({"subscribe": "a", "startingOffsets": "latest"}, "may not be latest"),
    ({"subscribe": "a", "endingOffsets": "earliest"}, "may not be earliest"),
    ({"subscribe": "a", "startingOffsets": "{not json"}, "not valid JSON"),
    ({"subscribe": "a", "kafka.no.such.setting": "1"}, "unknown Kafka setting"),
    ({"subscribe": "a", "maxOffsetsPerTrigger": "10"}, "streaming queries only"),
])
def test_bad_options_fail_clearly(spark, broker, options, message):
    with pytest.raises(Exception, match=message):
        _load(spark, broker.bootstrap_servers, **options).collect()


def test_missing_bootstrap_servers(spark):
    with pytest.raises(Exception, match="kafka.bootstrap.servers is required"):
        spark.read.format("kafkawire").option("subscribe", "a").load().collect()


def test_fail_on_data_loss_when_records_were_deleted(spark, mock_cluster):
    mock_cluster.create_topic("lossy", 1, 3)
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=0) as producer:
        for i in range(20):
            producer.send("lossy", value=b"%d" % i, partition=0).get(10)
    mock_cluster.delete_records("lossy", 0, 10)
    bootstrap = mock_cluster.bootstrap_servers
    starting = json.dumps({"lossy": {"0": 0}})
    with pytest.raises(Exception, match="data loss"):
        _load(spark, bootstrap, subscribe="lossy", startingOffsets=starting).collect()
    df = _load(spark, bootstrap, subscribe="lossy", startingOffsets=starting, failOnDataLoss="false")
    assert [o for _p, o, *_ in _rows(df)] == list(range(10, 20))


def test_group_id_and_max_records_per_partition(spark, broker, filled):
    topic, expected = filled
    for isolation in ("read_uncommitted", "read_committed"):
        df = _load(spark, broker.bootstrap_servers, subscribe=topic, maxRecordsPerPartition="30",
                   groupIdPrefix="mine", **{"kafka.group.id": "kafkawire-readers",
                                            "kafka.isolation.level": isolation})
        assert df.rdd.getNumPartitions() == 12  # 3 partitions of 100 records, cut into 4 pieces each
        assert _rows(df) == [e[:5] for e in expected]
