"""The consumer's ``consumer-fetch-manager-metrics``, under kafka-python's names.

The fetcher records once per Fetch response (its latency and size), and
once per partition a poll returns records from (their count and the
partition's lag after them): never per record.

kafka-python counts ``records-per-request-avg`` from the records each
response decodes to; kafkawire decodes lazily, as the application polls,
so it reports the records returned per Fetch response over the same
windows (the two agree once everything fetched is consumed). Its per-topic
and per-partition (``<tp>.records-lag``) variants are not kept.
"""

from __future__ import annotations

from kafka.metric_registry import MetricRegistry
from kafka.sampling import Sampled

__all__ = ["FetchMetrics"]

GROUP_SUFFIX = "-fetch-manager-metrics"


class FetchMetrics:
    """Fetch sizes, latencies, records handed out and lag."""

    def __init__(self, registry: MetricRegistry, prefix: str = "consumer") -> None:
        config = registry.config
        self.fetch_size = Sampled(config)
        self.latency = Sampled(config)
        self.records = Sampled(config)
        self.lag = Sampled(config)
        group = prefix + GROUP_SUFFIX
        add = registry.add
        add("fetch-size-avg", group, self.fetch_size.avg, "The average number of bytes fetched per request.")
        add("fetch-size-max", group, self.fetch_size.max, "The maximum number of bytes fetched per request.")
        add("bytes-consumed-rate", group, self.fetch_size.rate, "The average number of bytes consumed per second.")
        add("records-per-request-avg", group, self._records_per_request,
            "The average number of records returned per fetch response.")
        add("records-consumed-rate", group, self.records.rate, "The average number of records consumed per second.")
        add("fetch-latency-avg", group, self.latency.avg, "The average time taken for a fetch request, in ms.")
        add("fetch-latency-max", group, self.latency.max, "The max time taken for a fetch request, in ms.")
        add("fetch-rate", group, self.latency.event_rate, "The number of fetch requests per second.")
        add("records-lag-max", group, self.lag.max,
            "The maximum lag in terms of number of records for any partition in this window.")

    def _records_per_request(self, now: float) -> float:
        responses = self.latency.count(now)
        return self.records.total(now) / responses if responses else 0.0

    def fetched(self, latency: float, size: int, now: float) -> None:
        """A Fetch response of ``size`` record bytes came ``latency`` seconds after its request."""
        self.latency.record(latency * 1000.0, now)
        self.fetch_size.record(size, now)

    def consumed(self, count: int, lag: int, now: float) -> None:
        """A poll returned ``count`` records of a partition that is ``lag`` records behind its end."""
        self.records.record(count, now)
        if lag >= 0:
            self.lag.record(lag, now)
