"""The consumer's ``consumer-coordinator-metrics``, under kafka-python's names.

Every group request goes through :class:`~kafka.consumer.group.link.CoordinatorLink`,
which hands each JoinGroup, SyncGroup, Heartbeat (or KIP-848
ConsumerGroupHeartbeat) and OffsetCommit future to :meth:`CoordinatorMetrics.sent`;
the latency is recorded when the response arrives (one recording per
request).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict

from kafka.future import Future
from kafka.metric_registry import MetricRegistry
from kafka.protocol.apis import CONSUMER_GROUP_HEARTBEAT, HEARTBEAT, JOIN_GROUP, OFFSET_COMMIT, SYNC_GROUP
from kafka.protocol.schema import Api
from kafka.sampling import Sampled

__all__ = ["CoordinatorMetrics"]


class CoordinatorMetrics:
    """Join, sync, heartbeat and commit latencies and rates, and the assignment's size."""

    def __init__(self, registry: MetricRegistry, assigned_partitions: Callable[[], int],
                 prefix: str = "consumer") -> None:
        config = registry.config
        self.heartbeat = Sampled(config)
        self.join = Sampled(config)
        self.sync = Sampled(config)
        self.commit = Sampled(config)
        self.last_heartbeat = float("-inf")
        self._by_api: Dict[int, Sampled] = {
            JOIN_GROUP.key: self.join, SYNC_GROUP.key: self.sync, HEARTBEAT.key: self.heartbeat,
            CONSUMER_GROUP_HEARTBEAT.key: self.heartbeat, OFFSET_COMMIT.key: self.commit}
        group = prefix + "-coordinator-metrics"
        add = registry.add
        add("heartbeat-response-time-max", group, self.heartbeat.max,
            "The max time taken to receive a response to a heartbeat request, in ms.")
        add("heartbeat-rate", group, self.heartbeat.event_rate, "The average number of heartbeats per second.")
        add("join-time-avg", group, self.join.avg, "The average time taken for a group rejoin, in ms.")
        add("join-time-max", group, self.join.max, "The max time taken for a group rejoin, in ms.")
        add("join-rate", group, self.join.event_rate, "The number of group joins per second.")
        add("sync-time-avg", group, self.sync.avg, "The average time taken for a group sync, in ms.")
        add("sync-time-max", group, self.sync.max, "The max time taken for a group sync, in ms.")
        add("sync-rate", group, self.sync.event_rate, "The number of group syncs per second.")
        add("last-heartbeat-seconds-ago", group, lambda now: now - self.last_heartbeat,
            "The number of seconds since the last heartbeat response was received.")
        add("commit-latency-avg", group, self.commit.avg, "The average time taken for a commit request, in ms.")
        add("commit-latency-max", group, self.commit.max, "The max time taken for a commit request, in ms.")
        add("commit-rate", group, self.commit.event_rate, "The number of commit calls per second.")
        add("assigned-partitions", group, lambda _now: assigned_partitions(),
            "The number of partitions currently assigned to this consumer.")

    def sent(self, api: Api, future: Future) -> None:
        """Measure ``future``'s request if it is one of the group requests kafka-python measures."""
        sampled = self._by_api.get(api.key)
        if sampled is not None and not future.is_done:
            future.add_callback(self._answered, sampled, time.monotonic())

    def _answered(self, sampled: Sampled, started: float, _response: Any) -> None:
        now = time.monotonic()
        sampled.record((now - started) * 1000.0, now)
        if sampled is self.heartbeat:
            self.last_heartbeat = now
