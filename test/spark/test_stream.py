"""Streaming reads and writes: checkpoints, rate limits, new partitions, Trigger.AvailableNow."""

from __future__ import annotations

import json
import shutil
import threading
import time

from test.spark.conftest import make_topic, produce, start_query


def _stream(spark, bootstrap, **options):
    reader = spark.readStream.format("kafkawire").option("kafka.bootstrap.servers", bootstrap)
    for key, value in options.items():
        reader = reader.option(key, value)
    return reader.load()


class Collector:
    """foreachBatch target keeping each batch's (partition, offset) pairs by batch id."""

    def __init__(self):
        self.batches = {}
        self.replays = []
        self.lock = threading.Lock()

    def __call__(self, df, batch_id):
        rows = sorted((r.partition, r.offset) for r in df.select("partition", "offset").collect())
        with self.lock:
            if batch_id in self.batches:
                self.replays.append((batch_id, self.batches[batch_id], rows))
            self.batches[batch_id] = rows

    def union(self):
        with self.lock:
            return [po for rows in self.batches.values() for po in rows]

    def wait_for(self, predicate, timeout=60.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return
            time.sleep(0.1)
        raise AssertionError("timed out; batches so far: %r" % {k: len(v) for k, v in self.batches.items()})


def _values(n, partitions, start=0):
    return [(None, b"v%d" % i, i % partitions, 1_700_000_000_000 + i, []) for i in range(start, start + n)]


def test_restart_from_checkpoint_loses_and_duplicates_nothing(spark, broker, tmp_checkpoint):
    topic = make_topic(broker.host, broker.port, partitions=3)
    produce(broker.bootstrap_servers, topic, _values(300, 3))
    expected = sorted((p, o) for p in range(3) for o in range(100))
    collector = Collector()

    def start(trigger):
        df = _stream(spark, broker.bootstrap_servers, subscribe=topic, startingOffsets="earliest",
                     maxOffsetsPerTrigger="50")
        return start_query(df.writeStream.foreachBatch(collector).option("checkpointLocation", tmp_checkpoint)
                           .trigger(**trigger))

    query = start({"processingTime": "0 seconds"})
    try:
        collector.wait_for(lambda c: len(c.batches) >= 2)
    finally:
        query.stop()
    assert len(collector.union()) < len(expected)  # stopped mid-way
    progress = json.loads(query.recentProgress[-1]["sources"][0]["endOffset"])
    assert set(progress) == {topic} and set(progress[topic]) == {"0", "1", "2"}  # Spark's JSON form

    query = start({"availableNow": True})
    assert query.awaitTermination(120)
    union = collector.union()
    assert sorted(union) == expected            # nothing lost
    assert len(union) == len(set(union))        # nothing read twice
    for batch_id, before, after in collector.replays:
        assert before == after, "batch %d replayed with other offsets" % batch_id
    # maxOffsetsPerTrigger bounds every micro-batch (prorated: 16 per partition).
    assert max(len(rows) for rows in collector.batches.values()) <= 50
    assert len(collector.batches) >= 300 // 50


def test_available_now_respects_max_offsets_and_stops(spark, broker, tmp_checkpoint):
    topic = make_topic(broker.host, broker.port, partitions=2)
    produce(broker.bootstrap_servers, topic, _values(100, 2))
    collector = Collector()
    query = start_query(_stream(spark, broker.bootstrap_servers, subscribe=topic, startingOffsets="earliest",
                                maxOffsetsPerTrigger="30").writeStream.foreachBatch(collector)
                        .option("checkpointLocation", tmp_checkpoint).trigger(availableNow=True))
    assert query.awaitTermination(120)
    sizes = [len(collector.batches[b]) for b in sorted(collector.batches)]
    assert sum(sizes) == 100 and max(sizes) <= 30 and len(sizes) >= 4


def test_new_topics_and_partitions_are_picked_up(spark, broker, tmp_checkpoint):
    prefix = "grow-%d" % (time.time() * 1000 % 1000000)
    first = make_topic(broker.host, broker.port, partitions=1, prefix=prefix)
    produce(broker.bootstrap_servers, first, _values(10, 1))
    collector = Collector()
    query = start_query(_stream(spark, broker.bootstrap_servers, subscribePattern=prefix + "-.*",
                                startingOffsets="earliest").writeStream.foreachBatch(collector)
                        .option("checkpointLocation", tmp_checkpoint).trigger(processingTime="200 milliseconds"))
    try:
        collector.wait_for(lambda c: len(c.union()) >= 10)
        second = make_topic(broker.host, broker.port, partitions=2, prefix=prefix)
        produce(broker.bootstrap_servers, second, _values(20, 2))
        collector.wait_for(lambda c: len(c.union()) >= 30)
        # A batch's progress is reported after its foreachBatch call returns.
        expected_end = {first: {"0": 10}, second: {"0": 10, "1": 10}}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
                json.loads(p["sources"][0]["endOffset"] or "{}") == expected_end for p in query.recentProgress):
            time.sleep(0.1)
    finally:
        query.stop()
    assert len(collector.union()) == 30
    ends = [json.loads(p["sources"][0]["endOffset"] or "{}") for p in query.recentProgress]
    assert expected_end in ends, ends


def test_streaming_write_to_another_topic(spark, broker, tmp_checkpoint):
    source = make_topic(broker.host, broker.port, partitions=2)
    sink = make_topic(broker.host, broker.port, partitions=1)
    produce(broker.bootstrap_servers, source, _values(60, 2))
    query = start_query(
        _stream(spark, broker.bootstrap_servers, subscribe=source, startingOffsets="earliest")
        .selectExpr("CAST(partition AS STRING) AS key", "upper(CAST(value AS STRING)) AS value")
        .writeStream.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap_servers)
        .option("topic", sink).option("checkpointLocation", tmp_checkpoint).trigger(availableNow=True))
    assert query.awaitTermination(120)
    got = spark.read.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap_servers) \
        .option("subscribe", sink).load().selectExpr("CAST(key AS STRING) k", "CAST(value AS STRING) v").collect()
    assert sorted((r.k, r.v) for r in got) == sorted((str(i % 2), "V%d" % i) for i in range(60))


def test_min_offsets_per_trigger_waits_for_enough_records(spark, broker):
    from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMinRows

    from kafka.spark.options import parse_source_options
    from kafka.spark.source import KafkaStreamReader

    topic = make_topic(broker.host, broker.port, partitions=2)
    produce(broker.bootstrap_servers, topic, _values(10, 2))
    options = {"kafka.bootstrap.servers": broker.bootstrap_servers, "subscribe": topic,
               "startingOffsets": "earliest", "minOffsetsPerTrigger": "30", "maxTriggerDelay": "1h"}
    reader = KafkaStreamReader(parse_source_options(options, streaming=True))
    try:
        start = reader.initialOffset()
        assert start == {topic: {"0": 0, "1": 0}}
        assert isinstance(reader.getDefaultReadLimit(), ReadMinRows)
        assert reader.latestOffset(start, ReadMinRows(30)) == start  # 10 < 30: wait
        assert reader.latestOffset(start, ReadAllAvailable()) == {topic: {"0": 5, "1": 5}}
        produce(broker.bootstrap_servers, topic, _values(30, 2, start=10))
        assert reader.latestOffset(start, ReadMinRows(30)) == {topic: {"0": 20, "1": 20}}
    finally:
        reader.stop()
    # maxTriggerDelay elapsed: a batch is planned even below the minimum.
    options.update(maxTriggerDelay="0s")
    reader = KafkaStreamReader(parse_source_options(options, streaming=True))
    try:
        start = {topic: {"0": 18, "1": 18}}
        assert reader.latestOffset(start, ReadMinRows(30)) == {topic: {"0": 20, "1": 20}}
    finally:
        reader.stop()


def test_fail_on_data_loss_when_records_go_under_the_query(spark, mock_cluster, tmp_checkpoint):
    from kafka.producer import KafkaProducer

    mock_cluster.create_topic("shrinking", 1, 3)
    servers = mock_cluster.bootstrap_servers

    def send(values):
        with KafkaProducer(bootstrap_servers=servers, linger_ms=0) as producer:
            for v in values:
                producer.send("shrinking", value=b"%d" % v, partition=0).get(10)

    def run(checkpoint, **options):
        collector = Collector()
        query = start_query(_stream(spark, servers, subscribe="shrinking", startingOffsets="earliest", **options)
                            .writeStream.foreachBatch(collector).option("checkpointLocation", checkpoint)
                            .trigger(availableNow=True))
        try:
            query.awaitTermination(120)
        except Exception as exc:  # the query's failure, re-raised by awaitTermination
            return collector, exc
        finally:
            query.stop()
        return collector, None

    send(range(10))
    collector, failure = run(tmp_checkpoint)
    assert failure is None and sorted(collector.union()) == [(0, o) for o in range(10)]
    send(range(10, 20))
    mock_cluster.delete_records("shrinking", 0, 15)  # 10..14 go before the query reads them
    lenient_checkpoint = tmp_checkpoint + "-lenient"
    shutil.copytree(tmp_checkpoint, lenient_checkpoint)
    try:
        collector, failure = run(tmp_checkpoint)
        assert failure is not None and "data loss" in str(failure)
        collector, failure = run(lenient_checkpoint, failOnDataLoss="false")
        assert failure is None and sorted(collector.union()) == [(0, o) for o in range(15, 20)]
    finally:
        shutil.rmtree(lenient_checkpoint, ignore_errors=True)


def test_continuous_trigger_is_refused_clearly(spark, broker, tmp_checkpoint):
    import pytest

    topic = make_topic(broker.host, broker.port)
    df = _stream(spark, broker.bootstrap_servers, subscribe=topic)
    with pytest.raises(Exception) as caught:
        query = (df.writeStream.format("console").option("checkpointLocation", tmp_checkpoint)
                 .trigger(continuous="1 second").start())
        try:
            query.awaitTermination(30)
        finally:
            query.stop()
    assert "continuous" in str(caught.value).lower(), str(caught.value)
