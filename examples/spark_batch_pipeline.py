"""Batch job: aggregate the JSON events of a topic with Spark SQL into another topic.

    python examples/spark_batch_pipeline.py                       # embedded broker, demo events
    python examples/spark_batch_pipeline.py --bootstrap-servers host:9092 --source events --sink totals

Needs the ``spark`` extra (``pip install 'kafkawire[spark]'``) and Java 17+.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import uuid

import kafka.spark
from kafka.spark.pipeline import create_topics, produce_events, run_batch_pipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap-servers", help="Kafka brokers; default: start an embedded broker")
    parser.add_argument("--source", help="topic of JSON events (default: a new topic with demo events)")
    parser.add_argument("--sink", help="topic for the aggregates (default: a new topic)")
    parser.add_argument("--events", type=int, default=1000, help="demo events to produce first")
    args = parser.parse_args()

    kafka.spark.configure_python()  # executors run this interpreter
    from pyspark.sql import SparkSession

    with contextlib.ExitStack() as stack:
        servers = args.bootstrap_servers
        if servers is None:
            from kafka.testing import EmbeddedBroker

            servers = stack.enter_context(EmbeddedBroker()).bootstrap_servers
        source = args.source or "events-" + uuid.uuid4().hex[:6]
        sink = args.sink or "totals-" + uuid.uuid4().hex[:6]
        if args.source is None or args.bootstrap_servers is None:
            create_topics(servers, [source, sink])
            produce_events(servers, source, args.events)
        spark = SparkSession.builder.master("local[2]").appName("kafkawire-batch-pipeline") \
            .config("spark.sql.shuffle.partitions", "4").getOrCreate()
        stack.callback(spark.stop)
        kafka.spark.register(spark)
        written = run_batch_pipeline(spark, servers, source, sink)
        print("wrote %d aggregates from %s to %s" % (written, source, sink))
        for row in spark.read.format("kafkawire").option("kafka.bootstrap.servers", servers) \
                .option("subscribe", sink).load().selectExpr("CAST(value AS STRING) AS v").limit(5).collect():
            print("  ", json.loads(row.v))


if __name__ == "__main__":
    main()
