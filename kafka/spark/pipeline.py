"""An example pipeline: JSON events in one topic, aggregated with Spark SQL, into another.

Each event is a JSON object like ``{"user": "user-3", "action": "buy",
"amount": 12.5, "ts": 1700000003000}`` (see :func:`make_event`). The
pipeline counts events and sums amounts per user and action, and writes one
JSON record per group, keyed by user, to the sink topic:
``{"user": "user-3", "action": "buy", "events": 4, "amount": 50.0}``.

:func:`run_batch_pipeline` does it once over the whole source topic;
:func:`run_streaming_pipeline` does it per micro-batch of a streaming query
(``Trigger.AvailableNow`` by default, so it returns once the topic is
drained). ``examples/spark_batch_pipeline.py`` and
``examples/spark_streaming_pipeline.py`` run them from the command line.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, Optional

EVENT_SCHEMA = "user string, action string, amount double, ts long"
ACTIONS = ("view", "click", "cart", "buy")
USERS = 7

#: The Spark SQL run over the parsed events (a temporary view named ``events``).
AGGREGATE_SQL = """
    SELECT user, action, count(*) AS events, round(sum(amount), 2) AS amount
    FROM events
    GROUP BY user, action
"""


def make_event(i: int, base_ts: int = 1_700_000_000_000) -> Dict[str, Any]:
    """The ``i``-th example event (deterministic: the same ``i`` gives the same event)."""
    return {
        "user": "user-%d" % (i % USERS),
        "action": ACTIONS[(i // USERS) % len(ACTIONS)],
        "amount": round(((i * 37) % 1000) / 10.0, 2),
        "ts": base_ts + i * 1000,
    }


def create_topics(bootstrap_servers: str, topics: Iterable[str], partitions: int = 2) -> None:
    """Create ``topics`` (existing ones are left as they are) through the first bootstrap server."""
    from kafka import direct
    from kafka.conn.blocking import BlockingConnection

    host, port = bootstrap_servers.split(",")[0].strip().rsplit(":", 1)
    with BlockingConnection(host, int(port)) as conn:
        for topic in topics:
            direct.create_topic(conn, topic, partitions=partitions, exist_ok=True)


def produce_events(bootstrap_servers: str, topic: str, count: int, start: int = 0) -> int:
    """Send events ``start`` .. ``start + count - 1`` to ``topic`` (keyed by user); returns ``count``."""
    from kafka.producer import KafkaProducer

    with KafkaProducer(bootstrap_servers=bootstrap_servers, linger_ms=5) as producer:
        for i in range(start, start + count):
            event = make_event(i)
            producer.send(topic, key=event["user"].encode(), value=json.dumps(event).encode())
        producer.flush()
    return count


def expected_aggregates(events: Iterable[Dict[str, Any]]) -> Dict[tuple, Dict[str, Any]]:
    """What the pipeline computes for ``events``, in plain Python (for checks)."""
    out: Dict[tuple, Dict[str, Any]] = {}
    for event in events:
        group = out.setdefault((event["user"], event["action"]),
                               {"user": event["user"], "action": event["action"], "events": 0, "amount": 0.0})
        group["events"] += 1
        group["amount"] += event["amount"]
    for group in out.values():
        group["amount"] = round(group["amount"], 2)
    return out


def _aggregate(events_df: Any) -> Any:
    """Parse the Kafka rows' JSON values and aggregate them with :data:`AGGREGATE_SQL`."""
    parsed = events_df.selectExpr("from_json(CAST(value AS STRING), '%s') AS e" % EVENT_SCHEMA).select("e.*")
    parsed.createOrReplaceTempView("events")
    return parsed.sparkSession.sql(AGGREGATE_SQL)


def _write(aggregates: Any, bootstrap_servers: str, sink_topic: str) -> int:
    rows = aggregates.selectExpr("CAST(user AS BINARY) AS key", "to_json(struct(*)) AS value").cache()
    try:
        count = rows.count()
        if count:
            rows.write.format("kafkawire").mode("append") \
                .option("kafka.bootstrap.servers", bootstrap_servers).option("topic", sink_topic).save()
        return count
    finally:
        rows.unpersist()


def run_batch_pipeline(spark: Any, bootstrap_servers: str, source_topic: str, sink_topic: str) -> int:
    """Aggregate every event of ``source_topic`` into ``sink_topic``; returns the records written."""
    events = spark.read.format("kafkawire").option("kafka.bootstrap.servers", bootstrap_servers) \
        .option("subscribe", source_topic).option("startingOffsets", "earliest").load()
    return _write(_aggregate(events), bootstrap_servers, sink_topic)


def run_streaming_pipeline(spark: Any, bootstrap_servers: str, source_topic: str, sink_topic: str,
                           checkpoint_dir: str, max_offsets_per_trigger: Optional[int] = None,
                           available_now: bool = True, timeout_s: float = 300.0) -> int:
    """Aggregate each micro-batch of ``source_topic`` into ``sink_topic``; returns the records written.

    The query reads from the earliest offset (or from where the checkpoint in
    ``checkpoint_dir`` left off) and writes each micro-batch's aggregates.
    With ``available_now`` (the default) it stops when the records present at
    its start are processed; otherwise it runs until ``timeout_s``.
    """
    written = []

    def each_batch(batch_df: Any, batch_id: int) -> None:
        written.append(_write(_aggregate(batch_df), bootstrap_servers, sink_topic))

    reader = spark.readStream.format("kafkawire").option("kafka.bootstrap.servers", bootstrap_servers) \
        .option("subscribe", source_topic).option("startingOffsets", "earliest")
    if max_offsets_per_trigger:
        reader = reader.option("maxOffsetsPerTrigger", str(max_offsets_per_trigger))
    writer = reader.load().writeStream.foreachBatch(each_batch).option("checkpointLocation", checkpoint_dir)
    writer = writer.trigger(availableNow=True) if available_now else writer.trigger(processingTime="1 second")
    query = writer.start()
    try:
        query.awaitTermination(timeout_s)
    finally:
        if query.isActive:
            query.stop()
    if query.exception() is not None:
        raise query.exception()
    return sum(written)


__all__ = ["make_event", "create_topics", "produce_events", "expected_aggregates", "run_batch_pipeline",
           "run_streaming_pipeline", "AGGREGATE_SQL", "EVENT_SCHEMA"]
