"""Streaming job: aggregate each micro-batch of JSON events with Spark SQL into another topic.

    python examples/spark_streaming_pipeline.py                   # embedded broker, demo events
    python examples/spark_streaming_pipeline.py --bootstrap-servers host:9092 \\
        --source events --sink totals --checkpoint /tmp/ckpt

The query reads with Trigger.AvailableNow (everything present at its start,
in micro-batches of at most --max-offsets-per-trigger records) and stops;
run it again with the same --checkpoint to pick up where it left off.
"""

from __future__ import annotations

import contextlib
import tempfile

from kafka.spark.pipeline import run_streaming_pipeline
from pipeline_cli import local_spark, pipeline_parser, pipeline_topics


def main() -> None:
    parser = pipeline_parser(__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", help="checkpoint directory (default: a temporary one)")
    parser.add_argument("--max-offsets-per-trigger", type=int, default=250)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        servers, source, sink = pipeline_topics(stack, args)
        checkpoint = args.checkpoint or stack.enter_context(tempfile.TemporaryDirectory())
        spark = local_spark(stack, "kafkawire-streaming-pipeline")
        written = run_streaming_pipeline(spark, servers, source, sink, checkpoint,
                                         max_offsets_per_trigger=args.max_offsets_per_trigger)
        print("wrote %d per-batch aggregates from %s to %s" % (written, source, sink))


if __name__ == "__main__":
    main()
