"""kafka-python's connection metrics: ``<prefix>-metrics`` and ``<prefix>-node-metrics.node-<id>``.

The connections record into :class:`~kafka.sampling.NodeStats` (one per
broker connection, each adding to the client's totals); this module names
those measurements the way kafka-python does, so ``metrics()`` has
``request-rate``, ``request-latency-avg``, ``throttle-time-max`` and the rest
in the same groups.
"""

from __future__ import annotations

from typing import Callable, Dict

from kafka.metric_registry import MetricRegistry
from kafka.sampling import NodeStats

__all__ = ["NetworkMetrics", "node_label"]


def node_label(node_id: int) -> str:
    """kafka-python's node name: ``node-<id>``, ``node-bootstrap-<n>`` for a bootstrap address."""
    if node_id < 0:
        return "node-bootstrap-%d" % (-node_id - 1)
    return "node-%d" % node_id


class NetworkMetrics:
    """The client-wide request metrics, and one group per broker connection."""

    def __init__(self, registry: MetricRegistry, prefix: str, connection_count: Callable[[], int]) -> None:
        self.registry = registry
        self.prefix = prefix
        self.total = NodeStats(registry.config)
        self._nodes: Dict[int, NodeStats] = {}
        group = "%s-metrics" % prefix
        total = self.total
        add = registry.add
        add("connection-close-rate", group, total.closes.event_rate, "Connections closed per second.")
        add("connection-creation-rate", group, total.connects.event_rate, "New connections established per second.")
        add("connection-count", group, lambda _now: connection_count(), "The current number of active connections.")
        add("network-io-rate", group,
            lambda now: total.request_size.event_rate(now) + total.incoming.event_rate(now),
            "Network operations (requests written and socket reads) per second.")
        self._traffic(group, total, "")

    def _traffic(self, group: str, stats: NodeStats, tags_note: str) -> None:
        add = self.registry.add
        add("outgoing-byte-rate", group, stats.request_size.rate, "Bytes sent per second%s." % tags_note)
        add("request-rate", group, stats.request_size.event_rate, "Requests sent per second%s." % tags_note)
        add("request-size-avg", group, stats.request_size.avg, "Average request size in bytes%s." % tags_note)
        add("request-size-max", group, stats.request_size.max, "Largest request size in bytes%s." % tags_note)
        add("incoming-byte-rate", group, stats.incoming.rate, "Bytes read per second%s." % tags_note)
        add("response-rate", group, stats.latency.event_rate, "Responses received per second%s." % tags_note)
        add("request-latency-avg", group, stats.latency.avg, "Average request latency in ms%s." % tags_note)
        add("request-latency-max", group, stats.latency.max, "Largest request latency in ms%s." % tags_note)
        add("throttle-time-avg", group, stats.throttle.avg, "Average throttle time asked by brokers in ms%s." % tags_note)
        add("throttle-time-max", group, stats.throttle.max, "Largest throttle time asked by brokers in ms%s." % tags_note)

    def for_node(self, node_id: int) -> NodeStats:
        """The measurements of ``node_id``'s connection (registered on first use)."""
        stats = self._nodes.get(node_id)
        if stats is None:
            stats = self._nodes[node_id] = NodeStats(self.registry.config, parent=self.total)
            label = node_label(node_id)
            self._traffic("%s-node-metrics.%s" % (self.prefix, label), stats, " to %s" % label)
        return stats
