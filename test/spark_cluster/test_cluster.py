"""The data source on a Spark standalone cluster: driver, executors and Python workers in separate processes.

Small data on purpose: what these tests check is that work really spreads
over both workers, that a lost executor is recovered from, that a restarted
query replays nothing, and that clients are not leaked per task.
"""

from __future__ import annotations

import os
import time

from kafka.consumer import KafkaConsumer
from kafka.testing.spark_cluster import connections_to, descendants
from test.spark.conftest import make_topic, produce
from test.spark_cluster.conftest import wait_for_executors
from test.spark_sessions import ROOT

BASE_TS = 1_700_000_000_000


def _fill(broker, partitions, count, start=0):
    topic = make_topic(broker.host, broker.port, partitions=partitions, prefix="cluster")
    _produce(broker, topic, partitions, count, start)
    return topic


def _produce(broker, topic, partitions, count, start=0):
    produce(broker.bootstrap_servers, topic,
            [(b"k%d" % i, b"v%d" % i, i % partitions, BASE_TS + i, []) for i in range(start, start + count)])


def _read(spark, broker, topic, **options):
    reader = (spark.read.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap_servers)
              .option("subscribe", topic))
    for key, value in options.items():
        reader = reader.option(key, value)
    return reader.load()


def _values_in(broker, topic):
    """Every value of ``topic``, read by our own consumer."""
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest",
                             enable_auto_commit=False, group_id=None)
    try:
        partitions = consumer.partitions_for_topic(topic)
        from kafka.structs import TopicPartition

        tps = [TopicPartition(topic, p) for p in sorted(partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning()
        ends = consumer.end_offsets(tps)
        values = []
        deadline = time.monotonic() + 30
        while any(consumer.position(tp) < ends[tp] for tp in tps) and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                values.extend(r.value for r in records)
        return values
    finally:
        consumer.close()


def _where():
    """A UDF naming the executor a row was processed on (its working directory) and the kafka imported."""
    from pyspark.sql.functions import udf

    @udf("string")
    def where(_):
        import kafka

        return os.getcwd() + "|" + kafka.__file__

    return where


def test_batch_read_spreads_over_both_workers_and_returns_every_record_once(cluster_spark, spark_cluster, broker):
    topic = _fill(broker, partitions=4, count=400)
    df = _read(cluster_spark, broker, topic, minPartitions="8")
    rows = df.select("partition", "offset", "value", _where()("value").alias("where")).collect()
    assert sorted((r.partition, r.offset) for r in rows) == sorted((p, o) for p in range(4) for o in range(100))
    assert sorted(r.value for r in rows) == sorted(b"v%d" % i for i in range(400))
    executor_dirs = {r.where.split("|")[0] for r in rows}
    workers = {d for d in spark_cluster.worker_dirs if any(e.startswith(d + os.sep) for e in executor_dirs)}
    assert workers == set(spark_cluster.worker_dirs), executor_dirs
    # The Python workers import the kafka package under test, not another copy.
    assert {r.where.split("|")[1] for r in rows} == {os.path.join(ROOT, "kafka", "__init__.py")}


def test_batch_write_from_both_workers_writes_every_row_once(cluster_spark, spark_cluster, broker):
    topic = make_topic(broker.host, broker.port, partitions=3, prefix="cluster")
    df = cluster_spark.createDataFrame([(b"k%d" % i, b"v%d" % i) for i in range(600)], "key binary, value binary")
    df = df.repartition(6).withColumn("where", _where()("value")).cache()
    assert df.count() == 600
    executor_dirs = {r.where.split("|")[0] for r in df.select("where").distinct().collect()}
    assert len({d for d in spark_cluster.worker_dirs if any(e.startswith(d + os.sep) for e in executor_dirs)}) == 2
    (df.drop("where").write.format("kafkawire").mode("append")
     .option("kafka.bootstrap.servers", broker.bootstrap_servers).option("topic", topic).save())
    df.unpersist()
    assert sorted(_values_in(broker, topic)) == sorted(b"v%d" % i for i in range(600))


def test_streaming_query_restarted_from_its_checkpoint_replays_nothing(cluster_spark, broker, tmp_checkpoint):
    source = _fill(broker, partitions=2, count=200)
    sink = make_topic(broker.host, broker.port, partitions=2, prefix="cluster-sink")

    def run_once():
        query = (cluster_spark.readStream.format("kafkawire")
                 .option("kafka.bootstrap.servers", broker.bootstrap_servers).option("subscribe", source)
                 .option("startingOffsets", "earliest").option("maxOffsetsPerTrigger", "80").load()
                 .selectExpr("key", "value")
                 .writeStream.format("kafkawire").option("kafka.bootstrap.servers", broker.bootstrap_servers)
                 .option("topic", sink).option("checkpointLocation", tmp_checkpoint)
                 .trigger(availableNow=True).start())
        query.awaitTermination(120)
        assert query.exception() is None

    run_once()
    assert sorted(_values_in(broker, sink)) == sorted(b"v%d" % i for i in range(200))
    _produce(broker, source, 2, 100, start=200)
    run_once()
    assert sorted(_values_in(broker, sink)) == sorted(b"v%d" % i for i in range(300))


def test_connections_per_worker_stay_bounded(cluster_spark, spark_cluster, broker):
    topic = _fill(broker, partitions=4, count=200)
    sink = make_topic(broker.host, broker.port, partitions=2, prefix="cluster-sink")

    def per_worker():
        counts = []
        for daemon in spark_cluster.processes[1:]:
            counts.append(sum(connections_to(broker.port, descendants([daemon.pid])).values()))
        return counts

    def write():
        _read(cluster_spark, broker, topic).selectExpr("value").write.format("kafkawire").mode("append") \
            .option("kafka.bootstrap.servers", broker.bootstrap_servers).option("topic", sink).save()

    # Warm: every Python worker has made its clients.
    assert _read(cluster_spark, broker, topic, minPartitions="8").count() == 200
    write()
    warm = per_worker()
    assert sum(warm) > 0, "no connection to the broker seen under the workers: the /proc scan is broken"
    for _ in range(3):  # 24 more read tasks
        assert _read(cluster_spark, broker, topic, minPartitions="8").count() == 200
    write()  # and 4 more write tasks
    after = per_worker()
    # Each Python worker keeps one fetcher and one producer (each a bootstrap
    # plus a broker connection): a client per task would add dozens.
    assert all(n <= 12 for n in after), (warm, after)
    assert sum(after) <= sum(warm) + 4, (warm, after)


def test_executor_killed_during_a_batch_read_is_retried_and_the_result_is_exact(
        cluster_spark, spark_cluster, broker, tmp_path):
    from pyspark.sql.functions import udf

    topic = _fill(broker, partitions=4, count=400)
    marker = str(tmp_path / "killed")

    @udf("long")
    def kill_executor_once(offset):
        # The first row seen by any task kills its own executor JVM (the
        # ancestor of this Python worker), mid-task.
        import signal

        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return offset
        os.close(fd)
        pid = os.getpid()
        while pid > 1:
            with open("/proc/%d/cmdline" % pid, "rb") as handle:
                if b"CoarseGrainedExecutorBackend" in handle.read():
                    os.kill(pid, signal.SIGKILL)
                    time.sleep(30)  # killed with it
            with open("/proc/%d/stat" % pid, "rb") as handle:
                stat = handle.read()
            pid = int(stat[stat.rindex(b")") + 2:].split()[1])
        raise RuntimeError("no executor JVM above this Python worker")

    before = set(spark_cluster.executor_pids())
    df = _read(cluster_spark, broker, topic).select("partition", kill_executor_once("offset").alias("offset"))
    rows = df.collect()
    assert os.path.exists(marker)
    assert sorted((r.partition, r.offset) for r in rows) == sorted((p, o) for p in range(4) for o in range(100))
    assert set(spark_cluster.executor_pids()) != before  # one executor was replaced
    wait_for_executors(cluster_spark)


def test_spark_connect_session_writes_and_reads_through_the_source(connect_server, broker):
    import json
    import subprocess
    import sys

    topic = make_topic(broker.host, broker.port, partitions=2, prefix="connect")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    done = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "connect_client.py"),
                           connect_server.url, broker.bootstrap_servers, topic, "60"],
                          env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-4000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [[i, 2 * i] for i in range(60)]
