"""The example pipeline (kafka.spark.pipeline), batch and streaming, end to end."""

from __future__ import annotations

import json
import uuid

from kafka.spark.pipeline import create_topics, expected_aggregates, make_event, produce_events
from kafka.spark.pipeline import run_batch_pipeline, run_streaming_pipeline

_RUN = uuid.uuid4().hex[:6]
SRC_B, OUT_B, SRC_S, OUT_S = ("pipe-%s-%s" % (name, _RUN) for name in ("src-b", "out-b", "src-s", "out-s"))


def _sink(spark, servers, topic):
    rows = spark.read.format("kafkawire").option("kafka.bootstrap.servers", servers).option("subscribe", topic) \
        .load().selectExpr("CAST(key AS STRING) AS k", "CAST(value AS STRING) AS v").collect()
    return [(r.k, json.loads(r.v)) for r in rows]


def test_make_event_is_deterministic():
    assert make_event(3) == make_event(3)
    assert set(make_event(0)) == {"user", "action", "amount", "ts"}


def test_batch_pipeline(spark, broker):
    servers = broker.bootstrap_servers
    create_topics(servers, [SRC_B, OUT_B])
    produce_events(servers, SRC_B, 500)
    written = run_batch_pipeline(spark, servers, SRC_B, OUT_B)
    want = expected_aggregates(make_event(i) for i in range(500))
    assert written == len(want)
    got = _sink(spark, servers, OUT_B)
    assert {(v["user"], v["action"]): v for _k, v in got} == want
    assert all(k == v["user"] for k, v in got)


def test_streaming_pipeline_resumes_from_its_checkpoint(spark, broker, tmp_checkpoint):
    servers = broker.bootstrap_servers
    create_topics(servers, [SRC_S, OUT_S])
    produce_events(servers, SRC_S, 300)
    first = run_streaming_pipeline(spark, servers, SRC_S, OUT_S, tmp_checkpoint,
                                   max_offsets_per_trigger=120)
    produce_events(servers, SRC_S, 200, start=300)
    second = run_streaming_pipeline(spark, servers, SRC_S, OUT_S, tmp_checkpoint)
    got = _sink(spark, servers, OUT_S)
    assert len(got) == first + second
    # Summing the per-batch aggregates gives the aggregates of all events: every
    # event was counted exactly once across the two runs.
    totals = {}
    for _k, v in got:
        group = totals.setdefault((v["user"], v["action"]), [0, 0.0])
        group[0] += v["events"]
        group[1] += v["amount"]
    want = expected_aggregates(make_event(i) for i in range(500))
    assert {g: (n, round(a, 2)) for g, (n, a) in totals.items()} == \
        {g: (v["events"], v["amount"]) for g, v in want.items()}
