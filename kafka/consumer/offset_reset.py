"""Looking up reset positions (earliest/latest) one partition independently of the others.

A partition awaiting a reset needs a ListOffsets answer from its leader.
:class:`OffsetResetter` sends those requests without ever waiting for a
leader that cannot be reached: a partition whose leader is unknown, down or
answers with a retriable error is tried again after ``retry_backoff_ms``
(with a metadata refresh first when the error says the metadata is stale),
while the other partitions get their positions and are fetched meanwhile.
Errors a retry cannot mend (authorization, ...) are kept and raised to the
application by the next :meth:`OffsetResetter.reset`.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Dict, List, Optional, Set, Tuple

from kafka import errors
from kafka.consumer.subscription import EARLIEST, SubscriptionState
from kafka.future import Future
from kafka.protocol.apis import LIST_OFFSETS
from kafka.protocol.list_offsets import OffsetQuery, list_offsets_request as build_list_offsets, listed_offsets
from kafka.structs import OffsetAndTimestamp, TopicPartition

log = logging.getLogger(__name__)

EARLIEST_TIMESTAMP, LATEST_TIMESTAMP = -2, -1

#: How often a wait for leaders and answers looks again (ms).
_WAIT_STEP_MS = 20.0


def list_offsets_request(client: Any, isolation: int, parts: List[Tuple[TopicPartition, int]]) -> Any:
    """A ListOffsets request asking for each ``(tp, timestamp or -2/-1)``, with the leader epoch we know."""
    epoch = client.cluster.leader_epoch_for_partition
    return build_list_offsets([OffsetQuery(tp.topic, tp.partition, ts, epoch(tp)) for tp, ts in parts], isolation)


def list_offsets_results(response: Any) -> Dict[Tuple[str, int], Tuple[int, OffsetAndTimestamp]]:
    """``{(topic, partition): (error code, OffsetAndTimestamp)}`` of a ListOffsets response."""
    return {key: (found.error_code, OffsetAndTimestamp(found.offset, found.timestamp, found.leader_epoch))
            for key, found in listed_offsets(response).items()}


class OffsetResetter:
    """Sends ListOffsets for partitions awaiting a reset and seeks them when answered."""

    def __init__(self, client: Any, subscription: SubscriptionState, isolation: int) -> None:
        self.client = client
        self.subscription = subscription
        self.isolation = isolation
        self._in_flight: Dict[TopicPartition, str] = {}  # tp -> strategy asked for
        self._retry_at: Dict[TopicPartition, float] = {}  # tp -> monotonic time of its next attempt
        self._refreshed: Set[TopicPartition] = set()  # leader unknown: a metadata refresh was asked for
        self._error: Optional[BaseException] = None

    def reset(self, timeout_ms: float) -> None:
        """Send what can be sent and wait up to ``timeout_ms`` for answers and connecting leaders.

        Returns early once every partition is either positioned or waiting
        out a back-off; raises a non-retriable error a partition got.
        """
        deadline = time.monotonic() + max(timeout_ms, 0.0) / 1000.0
        while True:
            self._raise_error()
            fatal = self.client.fatal_error()
            if fatal is not None:
                raise fatal  # every broker refused us for good: no leader will ever be known
            waiting = self._send()
            if not waiting and not self._in_flight:
                return
            left_ms = (deadline - time.monotonic()) * 1000.0
            if left_ms <= 0:
                return
            self.client.poll(timeout_ms=min(left_ms, _WAIT_STEP_MS))

    def _raise_error(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _send(self) -> bool:
        """Send a request to each leader ready for one; True while some leader is worth waiting for."""
        client = self.client
        cluster = client.cluster
        needed = self.subscription.partitions_needing_reset()
        for tp in [tp for tp in self._retry_at if tp not in needed]:
            del self._retry_at[tp]
        self._refreshed &= set(needed)
        now = time.monotonic()
        waiting = False
        by_node: Dict[int, List[Tuple[TopicPartition, str]]] = {}
        for tp, strategy in needed.items():
            if tp in self._in_flight or self._retry_at.get(tp, 0.0) > now:
                continue
            leader = cluster.leader_for_partition(tp)
            if leader is None or leader < 0:
                if cluster.need_update:
                    waiting = True  # a refresh is due: it may name the leader
                elif tp in self._refreshed:
                    self._refreshed.discard(tp)
                    self._back_off(tp, None)  # the refresh came back without a leader
                else:
                    client.add_topic(tp.topic)
                    cluster.request_update()
                    self._refreshed.add(tp)
                    waiting = True
                continue
            self._refreshed.discard(tp)
            if not client.ready(leader):
                if client.is_disconnected(leader) and client.connection_error(leader) is not None:
                    self._back_off(tp, client.connection_error(leader))  # down or unreachable
                else:
                    waiting = True  # connecting
                continue
            by_node.setdefault(leader, []).append((tp, strategy))
        for node, items in by_node.items():
            request = list_offsets_request(
                client, self.isolation,
                [(tp, EARLIEST_TIMESTAMP if s == EARLIEST else LATEST_TIMESTAMP) for tp, s in items])
            for tp, strategy in items:
                self._in_flight[tp] = strategy
            future: Future = client.send(node, request, api=LIST_OFFSETS)
            future.add_callback(self._on_response, items)
            future.add_errback(self._on_failure, items)
        return waiting

    def _back_off(self, tp: TopicPartition, error: Optional[BaseException]) -> None:
        """Try ``tp`` again after ``retry_backoff_ms``, keeping ``error`` when no retry can help."""
        self._retry_at[tp] = time.monotonic() + self.client.config["retry_backoff_ms"] / 1000.0
        if error is None or getattr(error, "invalid_metadata", False) \
                or isinstance(error, (errors.NodeNotReadyError, errors.KafkaConnectionError)):
            self.client.cluster.request_update()
        if error is not None and not getattr(error, "retriable", False):
            self._error = error
        elif error is not None:
            log.debug("offset reset of %s-%d will be retried: %s", tp[0], tp[1], error)

    def _on_response(self, items: List[Tuple[TopicPartition, str]], response: Any) -> None:
        results = list_offsets_results(response)
        sub = self.subscription
        for tp, strategy in items:
            self._in_flight.pop(tp, None)
            found = results.get((tp.topic, tp.partition))
            if found is None:
                self._back_off(tp, errors.ProtocolError("the ListOffsets answer did not mention %s-%d" % tp))
                continue
            code, result = found
            if code:
                cls = errors.for_code(code)
                self._back_off(tp, cls("looking up the position of %s-%d"  # type: ignore[misc]
                                       % (tp.topic, tp.partition)))
                continue
            if result.offset < 0:
                self._back_off(tp, None)
                continue
            # Applied only if the partition still waits for this very reset
            # (not reassigned away, sought elsewhere or reset the other way since).
            if sub.is_assigned(tp) and sub.state(tp).reset_to == strategy:
                sub.seek(tp, result.offset)
            self._retry_at.pop(tp, None)

    def _on_failure(self, items: List[Tuple[TopicPartition, str]], exc: BaseException) -> None:
        for tp, _strategy in items:
            self._in_flight.pop(tp, None)
            self._back_off(tp, exc)
