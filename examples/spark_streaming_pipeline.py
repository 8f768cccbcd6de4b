"""Streaming job: aggregate each micro-batch of JSON events with Spark SQL into another topic.

    python examples/spark_streaming_pipeline.py                   # embedded broker, demo events
    python examples/spark_streaming_pipeline.py --bootstrap-servers host:9092 \\
        --source events --sink totals --checkpoint /tmp/ckpt

The query reads with Trigger.AvailableNow (everything present at its start,
in micro-batches of at most --max-offsets-per-trigger records) and stops;
run it again with the same --checkpoint to pick up where it left off.
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import uuid

import kafka.spark
from kafka.spark.pipeline import create_topics, produce_events, run_streaming_pipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap-servers", help="Kafka brokers; default: start an embedded broker")
    parser.add_argument("--source", help="topic of JSON events (default: a new topic with demo events)")
    parser.add_argument("--sink", help="topic for the aggregates (default: a new topic)")
    parser.add_argument("--checkpoint", help="checkpoint directory (default: a temporary one)")
    parser.add_argument("--events", type=int, default=1000, help="demo events to produce first")
    parser.add_argument("--max-offsets-per-trigger", type=int, default=250)
    args = parser.parse_args()

    kafka.spark.configure_python()
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
        checkpoint = args.checkpoint or stack.enter_context(tempfile.TemporaryDirectory())
        spark = SparkSession.builder.master("local[2]").appName("kafkawire-streaming-pipeline") \
            .config("spark.sql.shuffle.partitions", "4").getOrCreate()
        stack.callback(spark.stop)
        kafka.spark.register(spark)
        written = run_streaming_pipeline(spark, servers, source, sink, checkpoint,
                                         max_offsets_per_trigger=args.max_offsets_per_trigger)
        print("wrote %d per-batch aggregates from %s to %s" % (written, source, sink))


if __name__ == "__main__":
    main()
