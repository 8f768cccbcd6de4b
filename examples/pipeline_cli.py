"""What the two Spark pipeline examples share: their common options, the demo topics, a local Spark.

Not an example of its own: ``spark_batch_pipeline.py`` and
``spark_streaming_pipeline.py`` import it (Python puts this folder on the
path when either is run as a script).
"""

from __future__ import annotations

import argparse
import contextlib
import uuid
from typing import Any, Tuple

import kafka.spark
from kafka.spark.pipeline import create_topics, produce_events


def pipeline_parser(description: str) -> argparse.ArgumentParser:
    """A parser with the options both pipelines take (brokers, topics, demo events)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bootstrap-servers", help="Kafka brokers; default: start an embedded broker")
    parser.add_argument("--source", help="topic of JSON events (default: a new topic with demo events)")
    parser.add_argument("--sink", help="topic for the aggregates (default: a new topic)")
    parser.add_argument("--events", type=int, default=1000, help="demo events to produce first")
    return parser


def pipeline_topics(stack: contextlib.ExitStack, args: argparse.Namespace) -> Tuple[str, str, str]:
    """``(servers, source, sink)`` for a run, starting an embedded broker on ``stack`` if none was named.

    Topics not named get fresh names; unless both the brokers and the source
    were given, the topics are created and ``args.events`` demo events are
    written to the source.
    """
    servers = args.bootstrap_servers
    if servers is None:
        from kafka.testing import EmbeddedBroker

        servers = stack.enter_context(EmbeddedBroker()).bootstrap_servers
    source = args.source or "events-" + uuid.uuid4().hex[:6]
    sink = args.sink or "totals-" + uuid.uuid4().hex[:6]
    if args.source is None or args.bootstrap_servers is None:
        create_topics(servers, [source, sink])
        produce_events(servers, source, args.events)
    return servers, source, sink


def local_spark(stack: contextlib.ExitStack, app_name: str) -> Any:
    """A local Spark session with the ``kafkawire`` source and sink registered, stopped with ``stack``."""
    kafka.spark.configure_python()  # executors run this interpreter; must precede the pyspark import
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[2]").appName(app_name) \
        .config("spark.sql.shuffle.partitions", "4").getOrCreate()
    stack.callback(spark.stop)
    kafka.spark.register(spark)
    return spark
