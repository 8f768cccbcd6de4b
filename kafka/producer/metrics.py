"""The producer's kafka-python metrics: ``producer-metrics`` and ``producer-topic-metrics.<topic>``.

The sender records once per Produce request and once per batch in it
(never per record: a batch's record count gives the record rates), plus
once per retried or failed batch. Names, groups and meanings follow
kafka-python's (and the Java client's) producer metrics; where kafkawire
measures a little differently it is said next to the metric and in
``docs/compatibility.rst``.
"""

from __future__ import annotations

import time
from typing import Callable, Dict, List

from kafka.cluster import ClusterMetadata
from kafka.metric_registry import MetricRegistry
from kafka.producer.batch import BATCH_OVERHEAD, ProducerBatch
from kafka.sampling import Sampled

__all__ = ["ProducerMetrics"]

GROUP = "producer-metrics"


class _TopicStats:
    __slots__ = ("records", "bytes", "compression", "retries", "errors")

    def __init__(self, registry: MetricRegistry, topic: str) -> None:
        config = registry.config
        self.records = Sampled(config)
        self.bytes = Sampled(config)
        self.compression = Sampled(config)
        self.retries = Sampled(config)
        self.errors = Sampled(config)
        group = "producer-topic-metrics." + topic
        add = registry.add
        tags = {"topic": topic}
        add("record-send-rate", group, self.records.rate, "Records sent per second for topic " + topic, tags)
        add("byte-rate", group, self.bytes.rate, "Bytes sent per second for topic " + topic, tags)
        add("compression-rate", group, self.compression.avg, "Average compression ratio for topic " + topic, tags)
        add("record-retry-rate", group, self.retries.rate, "Record retries per second for topic " + topic, tags)
        add("record-error-rate", group, self.errors.rate, "Record errors per second for topic " + topic, tags)


class ProducerMetrics:
    """The sender's measurements, registered under kafka-python's names."""

    def __init__(self, registry: MetricRegistry, cluster: ClusterMetadata,
                 in_flight: Callable[[], int]) -> None:
        self.registry = registry
        config = registry.config
        self.batch_size = Sampled(config)
        self.compression = Sampled(config)
        self.queue_time = Sampled(config)
        self.records_per_request = Sampled(config)
        self.request_bytes = Sampled(config)
        self.retries = Sampled(config)
        self.errors = Sampled(config)
        self.record_size = Sampled(config)
        self._topics: Dict[str, _TopicStats] = {}
        add = registry.add
        add("batch-size-avg", GROUP, self.batch_size.avg, "The average number of bytes sent per partition per request.")
        add("batch-size-max", GROUP, self.batch_size.max, "The max number of bytes sent per partition per request.")
        add("compression-rate-avg", GROUP, self.compression.avg, "The average compression rate of record batches.")
        add("record-queue-time-avg", GROUP, self.queue_time.avg,
            "The average time in ms record batches spent in the record accumulator.")
        add("record-queue-time-max", GROUP, self.queue_time.max,
            "The maximum time in ms record batches spent in the record accumulator.")
        add("record-send-rate", GROUP, self.records_per_request.rate, "The average number of records sent per second.")
        add("records-per-request-avg", GROUP, self.records_per_request.avg,
            "The average number of records per request.")
        add("byte-rate", GROUP, self.request_bytes.rate, "The average number of bytes sent per second.")
        add("record-retry-rate", GROUP, self.retries.rate, "The average per-second number of retried record sends.")
        add("record-error-rate", GROUP, self.errors.rate,
            "The average per-second number of record sends that resulted in errors.")
        # kafka-python measures each batch's largest record; kafkawire does not size records one by one
        # on the send path, so a batch contributes its mean encoded record size.
        add("record-size-max", GROUP, self.record_size.max, "The maximum (per-batch mean) record size.")
        add("record-size-avg", GROUP, self.record_size.avg, "The average record size, per batch.")
        add("requests-in-flight", GROUP, lambda _now: in_flight(),
            "The current number of in-flight requests awaiting a response.")
        add("metadata-age", GROUP, lambda now: max(now - cluster.last_refresh, 0.0) if cluster.last_refresh > 0 else 0.0,
            "The age in seconds of the current producer metadata being used.")

    def _topic(self, topic: str) -> _TopicStats:
        stats = self._topics.get(topic)
        if stats is None:
            stats = self._topics[topic] = _TopicStats(self.registry, topic)
        return stats

    def request_sent(self, batches: List[ProducerBatch], compressed: bool) -> None:
        """One Produce request carrying ``batches`` (each encoded) was handed to the client."""
        now = time.monotonic()
        records = 0
        total = 0
        for batch in batches:
            count = batch.record_count
            size = len(batch.encoded or b"")
            estimated = batch.size
            ratio = size / estimated if compressed and estimated > 0 else 1.0
            topic = self._topic(batch.topic_partition.topic)
            topic.records.record(count, now)
            topic.bytes.record(size, now)
            topic.compression.record(ratio, now)
            self.batch_size.record(size, now)
            self.compression.record(ratio, now)
            if batch.drained:
                self.queue_time.record((batch.drained - batch.created) * 1000.0, now)
            if count:
                # Uncompressed, the encoded batch is exact; compressed, the accumulator's estimate.
                self.record_size.record(((estimated if compressed else size) - BATCH_OVERHEAD) / count, now)
            records += count
            total += size
        if batches:
            self.records_per_request.record(records, now)
            self.request_bytes.record(total, now)

    def retried(self, batch: ProducerBatch) -> None:
        """``batch`` goes back to the queue for another attempt."""
        count = batch.record_count
        self.retries.record(count)
        stats = self._topics.get(batch.topic_partition.topic)
        if stats is not None:
            stats.retries.record(count)

    def failed(self, batch: ProducerBatch) -> None:
        """``batch``'s records failed for good."""
        count = batch.record_count
        self.errors.record(count)
        stats = self._topics.get(batch.topic_partition.topic)
        if stats is not None:
            stats.errors.record(count)
