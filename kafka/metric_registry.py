"""The clients' table of named metrics, as kafka-python's ``metrics()`` and reporters see it.

Each metric has a name, a group (``producer-metrics``,
``consumer-fetch-manager-metrics`` ...), a description and tags
(``client-id`` and any of its own), and a function giving its value now.
``KafkaProducer.metrics()`` and ``KafkaConsumer.metrics()`` return
:meth:`MetricRegistry.snapshot` (``{group: {name: value}}``), or with
``raw=True`` the :class:`MetricName` to :class:`KafkaMetric` mapping.

``metric_reporters`` are classes, built with no arguments as kafka-python
builds them; each instance gets ``init([])`` when the client starts,
``metric_change(metric)`` for every metric added, ``metric_removal(metric)``
for every metric removed and ``close()`` when the client closes.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Optional

from kafka.sampling import WindowConfig

__all__ = ["MetricName", "KafkaMetric", "MetricRegistry"]

log = logging.getLogger(__name__)

#: A metric's value at ``now`` (monotonic seconds).
Measure = Callable[[float], float]


class MetricName:
    """A metric's identity: ``name``, ``group`` and ``tags`` (``description`` is informative)."""

    __slots__ = ("name", "group", "description", "tags", "_key")

    def __init__(self, name: str, group: str, description: str = "", tags: Optional[Dict[str, str]] = None) -> None:
        self.name = name
        self.group = group
        self.description = description
        self.tags: Dict[str, str] = dict(tags or {})
        self._key = (name, group, tuple(sorted(self.tags.items())))

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MetricName) and self._key == other._key

    def __repr__(self) -> str:
        return "MetricName(name=%r, group=%r, description=%r, tags=%r)" % (
            self.name, self.group, self.description, self.tags)


class KafkaMetric:
    """A named metric; :meth:`value` measures it now."""

    __slots__ = ("metric_name", "_measure", "config")

    def __init__(self, metric_name: MetricName, measure: Measure, config: WindowConfig) -> None:
        self.metric_name = metric_name
        self._measure = measure
        self.config = config

    def value(self, time_ms: Optional[float] = None) -> float:
        """The metric's value; ``time_ms`` (monotonic milliseconds) defaults to now."""
        now = time.monotonic() if time_ms is None else time_ms / 1000.0
        return float(self._measure(now))

    def __repr__(self) -> str:
        return "KafkaMetric(%r)" % (self.metric_name,)


class MetricRegistry:
    """A client's metrics, and the reporters told when one is added or removed."""

    def __init__(self, config: WindowConfig, tags: Optional[Dict[str, str]] = None,
                 reporters: Iterable[Any] = ()) -> None:
        self.config = config
        self.tags = dict(tags or {})
        self._metrics: Dict[MetricName, KafkaMetric] = {}
        self._lock = threading.Lock()
        self._reporters: List[Any] = list(reporters)
        for reporter in self._reporters:
            reporter.init([])
        self.add("count", "kafka-metrics-count", lambda _now: len(self._metrics),
                 "total number of registered metrics")

    def add(self, name: str, group: str, measure: Measure, description: str = "",
            tags: Optional[Dict[str, str]] = None) -> KafkaMetric:
        """Register a metric (the client's tags plus ``tags``); reporters get ``metric_change``."""
        all_tags = dict(self.tags)
        all_tags.update(tags or {})
        metric = KafkaMetric(MetricName(name, group, description, all_tags), measure, self.config)
        with self._lock:
            if metric.metric_name in self._metrics:
                return self._metrics[metric.metric_name]
            self._metrics[metric.metric_name] = metric
        for reporter in self._reporters:
            try:
                reporter.metric_change(metric)
            except Exception:  # a reporter's bug must not stop the client
                log.exception("metric reporter %r failed on metric_change", reporter)
        return metric

    def remove_group(self, group: str) -> None:
        """Drop every metric of ``group``; reporters get ``metric_removal`` for each."""
        with self._lock:
            gone = [m for n, m in self._metrics.items() if n.group == group]
            for metric in gone:
                del self._metrics[metric.metric_name]
        for metric in gone:
            for reporter in self._reporters:
                try:
                    reporter.metric_removal(metric)
                except Exception:
                    log.exception("metric reporter %r failed on metric_removal", reporter)

    def has_group(self, group: str) -> bool:
        """Whether any metric of ``group`` is registered."""
        with self._lock:
            return any(n.group == group for n in self._metrics)

    def raw(self) -> Dict[MetricName, KafkaMetric]:
        """A copy of the MetricName to KafkaMetric mapping."""
        with self._lock:
            return dict(self._metrics)

    def snapshot(self) -> Dict[str, Dict[str, float]]:
        """Every metric's value now, as ``{group: {name: value}}``."""
        now = time.monotonic()
        out: Dict[str, Dict[str, float]] = {}
        for name, metric in self.raw().items():
            out.setdefault(name.group, {})[name.name] = float(metric._measure(now))
        return out

    def close(self) -> None:
        """Close the reporters (once)."""
        reporters, self._reporters = self._reporters, []
        for reporter in reporters:
            try:
                reporter.close()
            except Exception:
                log.exception("metric reporter %r failed on close", reporter)


def registry_from_config(config: Dict[str, Any], client_id: str) -> Optional[MetricRegistry]:
    """The registry a client's kafka-python metric settings describe; None with ``metrics_enabled=False``.

    ``metric_reporters`` lists classes; each is instantiated with no
    arguments, as kafka-python does.
    """
    if not config.get("metrics_enabled", True):
        return None
    window = WindowConfig(config.get("metrics_num_samples", 2), config.get("metrics_sample_window_ms", 30000))
    reporters = [reporter() for reporter in config.get("metric_reporters") or ()]
    return MetricRegistry(window, {"client-id": client_id}, reporters)


def read_metrics(registry: Optional[MetricRegistry], raw: bool) -> Optional[Dict[Any, Any]]:
    """What a client's ``metrics(raw)`` returns: None without a registry (``metrics_enabled=False``), the
    :class:`MetricName` to :class:`KafkaMetric` mapping with ``raw``, else ``{group: {name: value}}``."""
    if registry is None:
        return None
    return registry.raw() if raw else registry.snapshot()
