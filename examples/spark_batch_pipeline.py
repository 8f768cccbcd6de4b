"""Batch job: aggregate the JSON events of a topic with Spark SQL into another topic.

    python examples/spark_batch_pipeline.py                       # embedded broker, demo events
    python examples/spark_batch_pipeline.py --bootstrap-servers host:9092 --source events --sink totals

Needs the ``spark`` extra (``pip install 'kafkawire[spark]'``) and Java 17+.
"""

from __future__ import annotations

import contextlib
import json

from kafka.spark.pipeline import run_batch_pipeline
from pipeline_cli import local_spark, pipeline_parser, pipeline_topics


def main() -> None:
    args = pipeline_parser(__doc__.splitlines()[0]).parse_args()
    with contextlib.ExitStack() as stack:
        servers, source, sink = pipeline_topics(stack, args)
        spark = local_spark(stack, "kafkawire-batch-pipeline")
        written = run_batch_pipeline(spark, servers, source, sink)
        print("wrote %d aggregates from %s to %s" % (written, source, sink))
        for row in spark.read.format("kafkawire").option("kafka.bootstrap.servers", servers) \
                .option("subscribe", sink).load().selectExpr("CAST(value AS STRING) AS v").limit(5).collect():
            print("  ", json.loads(row.v))


if __name__ == "__main__":
    main()
