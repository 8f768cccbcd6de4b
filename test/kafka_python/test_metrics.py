"""kafka-python's metrics on kafkawire: names, groups, values and reporters.

``producer.metrics()`` and ``consumer.metrics()`` must carry the groups and
names kafka-python's own benchmark scripts and dashboards read
(``record-send-rate``, ``consumer-fetch-manager-metrics`` ...), with values
that follow from what was produced and consumed, and ``metric_reporters``
must be called as kafka-python calls them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from typing import Any, Dict, List

import pytest

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.sampling import Sampled, WindowConfig
from test.kafka_python.test_api_surface import ROOT, kafka_python_interpreter

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS_SCRIPT = os.path.join(HERE, "_metrics_keys.py")

#: A window long enough that nothing expires during a test: a rate times
#: the window (seconds) is then the total recorded, to within the test's
#: own duration (samples=2 divides by the time elapsed plus one whole window).
WINDOW_MS = 600000

#: Names kafkawire reports beyond kafka-python's (kept from its earlier metrics()).
OUR_EXTRAS = {
    "producer-metrics": {"buffer-available-bytes", "buffer-total-bytes"},
    "consumer-metrics": {"assigned-partitions", "requests-in-flight"},
}


def _topic() -> str:
    return "metrics-" + uuid.uuid4().hex[:8]


def _consume(bootstrap: str, topic: str, want: int, **configs: Any) -> KafkaConsumer:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest", **configs)
    consumer.assign([TopicPartition(topic, 0)])
    seen = 0
    for _ in range(100):
        seen += sum(len(records) for records in consumer.poll(200).values())
        if seen >= want:
            break
    assert seen == want
    return consumer


def test_producer_metrics_follow_what_was_sent(broker: Any) -> None:
    topic = _topic()
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, acks=1, linger_ms=5,
                             metrics_sample_window_ms=WINDOW_MS)
    try:
        for _ in range(1000):
            producer.send(topic, b"x" * 100, partition=0)
        producer.flush()
        metrics = producer.metrics()
        assert metrics is not None
        group = metrics["producer-metrics"]
        window_s = WINDOW_MS / 1000.0
        assert group["record-send-rate"] * window_s == pytest.approx(1000, rel=1e-3)
        per_topic = metrics["producer-topic-metrics." + topic]
        assert per_topic["record-send-rate"] * window_s == pytest.approx(1000, rel=1e-3)
        assert 100 < group["record-size-avg"] < 130  # 100-byte values plus the record framing
        assert group["record-size-max"] >= group["record-size-avg"]
        assert group["batch-size-avg"] > 100 and group["batch-size-max"] >= group["batch-size-avg"]
        # the bytes sent cover every record's value
        assert group["byte-rate"] * window_s > 1000 * 100
        assert group["record-error-rate"] == 0.0 and group["record-retry-rate"] == 0.0
        assert group["compression-rate-avg"] == 1.0
        assert group["request-rate"] > 0 and group["request-latency-avg"] > 0
        assert group["request-latency-max"] >= group["request-latency-avg"]
        assert group["throttle-time-max"] == 0.0
        assert group["connection-count"] >= 1
        assert 1 <= group["records-per-request-avg"] <= 1000
        assert any(name.startswith("producer-node-metrics.node-") for name in metrics)
        assert metrics["kafka-metrics-count"]["count"] == sum(len(v) for v in metrics.values())
    finally:
        producer.close()


def test_consumer_metrics_follow_what_was_read(broker: Any) -> None:
    topic = _topic()
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, acks=1)
    for _ in range(500):
        producer.send(topic, b"y" * 80, partition=0)
    producer.close()
    consumer = _consume(broker.bootstrap_servers, topic, 500, group_id="metrics-" + topic,
                        enable_auto_commit=False, metrics_sample_window_ms=WINDOW_MS)
    try:
        metrics = consumer.metrics()
        assert metrics is not None
        fetch = metrics["consumer-fetch-manager-metrics"]
        window_s = WINDOW_MS / 1000.0
        assert fetch["records-consumed-rate"] * window_s == pytest.approx(500, rel=1e-3)
        assert fetch["bytes-consumed-rate"] * window_s > 500 * 80
        assert fetch["fetch-rate"] > 0 and fetch["fetch-latency-avg"] > 0
        assert fetch["fetch-size-max"] >= fetch["fetch-size-avg"] > 0
        assert fetch["records-lag-max"] == 0.0  # everything was read
        assert fetch["records-per-request-avg"] > 0
        coordinator = metrics["consumer-coordinator-metrics"]
        assert coordinator["assigned-partitions"] == 1.0
        consumer.commit()
        after = consumer.metrics()
        assert after is not None
        assert after["consumer-coordinator-metrics"]["commit-rate"] * window_s == pytest.approx(1, rel=1e-3)
        assert after["consumer-coordinator-metrics"]["commit-latency-max"] > 0
    finally:
        consumer.close()


def test_metrics_disabled_gives_none(broker: Any) -> None:
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, metrics_enabled=False)
    try:
        assert producer.metrics() is None
    finally:
        producer.close()


class Recorder:
    """A reporter in kafka-python's shape; every call lands in ``calls`` (class-wide)."""

    calls: List[Any] = []

    def init(self, metrics: List[Any]) -> None:
        self.calls.append(("init", list(metrics)))

    def metric_change(self, metric: Any) -> None:
        self.calls.append(("metric_change", metric.metric_name.group, metric.metric_name.name, metric))

    def metric_removal(self, metric: Any) -> None:
        self.calls.append(("metric_removal", metric.metric_name.name))

    def configure(self, configs: Dict[str, Any]) -> None:
        self.calls.append(("configure", configs))

    def close(self) -> None:
        self.calls.append(("close",))


def test_reporters_are_built_and_called_as_kafka_python_calls_them(broker: Any) -> None:
    Recorder.calls = []
    topic = _topic()
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, acks=1, metric_reporters=[Recorder],
                             client_id="reported")
    producer.send(topic, b"z", partition=0).get(timeout=30)
    calls = list(Recorder.calls)
    assert calls[0] == ("init", [])
    changed = {(c[1], c[2]): c[3] for c in calls if c[0] == "metric_change"}
    assert ("producer-metrics", "record-send-rate") in changed
    assert ("producer-topic-metrics." + topic, "record-send-rate") in changed  # added on first use
    metric = changed[("producer-metrics", "record-send-rate")]
    assert metric.metric_name.tags == {"client-id": "reported"}
    assert metric.value() > 0  # measured when asked, like KafkaMetric.value()
    assert ("close",) not in calls
    producer.close()
    assert Recorder.calls[-1] == ("close",)


def test_rates_use_whole_windows_and_expire() -> None:
    config = WindowConfig(samples=2, window_ms=1000)
    sampled = Sampled(config)
    sampled.record(10, now=100.0)
    sampled.record(30, now=100.5)
    assert sampled.avg(100.5) == 20.0 and sampled.max(100.5) == 30.0
    # 0.5 s elapsed, plus the one whole window a two-window rate always counts
    assert sampled.rate(100.5) == pytest.approx(40 / 1.5)
    assert sampled.event_rate(100.5) == pytest.approx(2 / 1.5)
    sampled.record(5, now=101.2)  # a second window opens
    assert sampled.rate(101.5) == pytest.approx(45 / 1.5)
    assert sampled.count(102.1) == 1  # the first window (opened at 100.0) expired after 2 s
    assert sampled.avg(104.0) == 0.0 and sampled.max(104.0) == float("-inf")


def _keys(python: List[str], env: Dict[str, str], bootstrap: str, topic: str) -> Dict[str, Any]:
    out = subprocess.run(python + [KEYS_SCRIPT, bootstrap, topic], env=env, cwd="/", check=True,
                         stdout=subprocess.PIPE, timeout=180)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_same_groups_and_names_as_kafka_python(broker: Any) -> None:
    theirs_python = kafka_python_interpreter()
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    theirs = _keys([theirs_python, "-I"], base_env, broker.bootstrap_servers, _topic())
    ours = _keys([sys.executable], dict(base_env, PYTHONPATH=ROOT), broker.bootstrap_servers, _topic())
    assert theirs["consumed"] == ours["consumed"] == 200
    for side in ("producer", "consumer"):
        assert set(ours[side]) == set(theirs[side]), side
        for group, names in theirs[side].items():
            extras = set(ours[side][group]) - set(names)
            assert set(names) <= set(ours[side][group]), (side, group, set(names) - set(ours[side][group]))
            assert extras <= OUR_EXTRAS.get(group, set()), (side, group, extras)
