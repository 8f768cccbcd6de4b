"""Sending requests to the right node, with retries: the client's routing half.

:class:`RoutingClient` adds blocking conveniences over the network client:
wait for a node, send-and-wait, refresh metadata, find partition leaders,
group and transaction coordinators and the controller, and
:meth:`~RoutingClient.dispatch_by_leader`, which splits a multi-partition
payload by leader, sends the parts concurrently, retries what failed with a
retriable error (refreshing metadata first when the error says it is stale)
and returns the results in the caller's order.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from kafka import errors
from kafka.client import topic_ids
from kafka.client.network import NetworkClient
from kafka.cluster import COORDINATOR_GROUP, COORDINATOR_TRANSACTION
from kafka.conn.connection import ResponseFuture
from kafka.future import Future
from kafka.protocol.apis import FIND_COORDINATOR
from kafka.protocol.schema import Api
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)


class Outcome(NamedTuple):
    """The result for one item of a dispatched payload."""

    error: Optional[BaseException]
    value: Any


#: ``build(node_id, version, items) -> request`` where items are (tp, payload) pairs.
Builder = Callable[[int, int, List[Tuple[TopicPartition, Any]]], Any]
#: ``parse(response) -> {(topic, partition): (error_code, value)}``.
Parser = Callable[[Any], Dict[Tuple[str, int], Tuple[int, Any]]]


class RoutingClient(NetworkClient):
    """A network client that knows where each request must go."""

    # -- waiting ------------------------------------------------------------------

    def _deadline(self, timeout_ms: Optional[float]) -> float:
        timeout = self.config["request_timeout_ms"] if timeout_ms is None else timeout_ms
        return time.monotonic() + timeout / 1000.0

    @staticmethod
    def _left_ms(deadline: float) -> float:
        return max((deadline - time.monotonic()) * 1000.0, 0.0)

    def _check_not_closed(self) -> None:
        """Raise at once on a closed client, whose waits could otherwise only end with their timeouts."""
        if self._closed:
            raise errors.IllegalStateError("the client is closed")

    def await_ready(self, node_id: int, timeout_ms: Optional[float] = None) -> bool:
        """Connect to ``node_id`` and wait until it can take requests."""
        deadline = self._deadline(timeout_ms)
        while not self.ready(node_id):
            self._check_not_closed()
            if time.monotonic() >= deadline or self.cluster.broker_metadata(node_id) is None:
                return False  # out of time, or a broker metadata no longer lists
            error = self.connection_error(node_id)
            if self.is_disconnected(node_id) and error is not None and not getattr(error, "retriable", True):
                raise error
            self.poll(timeout_ms=min(self._left_ms(deadline), 50.0))
        return True

    def wait_for(self, future: Future[Any], timeout_ms: Optional[float] = None) -> Any:
        """Poll until ``future`` resolves; return its value or raise its failure."""
        deadline = self._deadline(timeout_ms)
        while not future.is_done:
            self._check_not_closed()
            if time.monotonic() >= deadline:
                raise errors.KafkaTimeoutError("no result within %s ms" % (timeout_ms,))
            self.poll(timeout_ms=self._left_ms(deadline), future=future)
        if future.exception is not None:
            raise future.exception
        return future.value

    def send_and_wait(self, node_id: int, request: Any, timeout_ms: Optional[float] = None,
                      api: Optional[Api] = None, version: Optional[int] = None) -> Any:
        """Send to ``node_id`` (connecting first) and wait for the response."""
        deadline = self._deadline(timeout_ms)
        if not self.await_ready(node_id, self._left_ms(deadline)):
            raise errors.NodeNotReadyError("node %s did not become ready: %s"
                                           % (node_id, self.connection_error(node_id) or "timed out"))
        return self.wait_for(self.send(node_id, request, api=api, version=version), self._left_ms(deadline))

    def send_to_any(self, request: Any, timeout_ms: Optional[float] = None, api: Optional[Api] = None,
                    build: Optional[Callable[[int], Any]] = None, unsupported_ok: bool = False) -> Any:
        """Send to the least loaded node, trying others if one cannot be reached.

        ``build(version)`` makes the request once the node's version is known.
        ``unsupported_ok``: the caller does without ``api`` when the broker
        lacks it (UnsupportedVersionError is raised, not logged).
        """
        if build is not None and api is None:
            raise TypeError("send_to_any: build needs api, to choose the version")
        deadline = self._deadline(timeout_ms)
        last: Optional[BaseException] = None
        while time.monotonic() < deadline:
            self._check_not_closed()
            node_id = self.least_loaded_node()
            if node_id is None:
                self.poll(timeout_ms=min(self._left_ms(deadline), self.config["retry_backoff_ms"]))
                continue
            if not self.await_ready(node_id, min(self._left_ms(deadline),
                                                 self.config["socket_connection_setup_timeout_ms"])):
                last = self.connection_error(node_id)
                if last is not None and not getattr(last, "retriable", False):
                    raise last
                continue
            try:
                body = build(self.api_version(api, node_id, unsupported_ok=unsupported_ok)) \
                    if build is not None and api is not None else request
                return self.wait_for(self.send(node_id, body, api=api), self._left_ms(deadline))
            except errors.KafkaError as exc:
                if not exc.retriable:
                    raise
                last = exc
        raise errors.NoBrokersAvailable("no broker answered within the timeout: %s" % (last or "no broker reachable"))

    # -- metadata -----------------------------------------------------------------------

    def refresh_metadata(self, timeout_ms: Optional[float] = None) -> None:
        """Refresh metadata now and wait for it.

        Raises :meth:`fatal_error` (a rejected certificate or login, no
        usable Metadata version) as soon as every broker has failed that way,
        :class:`KafkaTimeoutError` when time runs out first.
        """
        deadline = self._deadline(timeout_ms)
        version = self.request_metadata_update()
        while self.cluster.version <= version:
            self._check_not_closed()
            fatal = self.fatal_error()
            if fatal is not None:
                raise fatal
            if time.monotonic() >= deadline:
                raise errors.KafkaTimeoutError("metadata was not refreshed within the timeout")
            self.poll(timeout_ms=min(self._left_ms(deadline), 100.0))

    def ensure_topics(self, topics: Sequence[str], timeout_ms: Optional[float] = None) -> None:
        """Track ``topics`` and wait until metadata knows them (or says they do not exist)."""
        deadline = self._deadline(timeout_ms)
        for topic in topics:
            self.add_topic(topic)
        while True:
            missing = [t for t in topics if self.cluster.partitions_for_topic(t) is None
                       and not self.cluster.topic_error(t)]
            if not missing:
                return
            self.refresh_metadata(self._left_ms(deadline))

    def leader_for(self, tp: TopicPartition, timeout_ms: Optional[float] = None) -> int:
        """The leader of ``tp``, refreshing metadata while it is unknown."""
        deadline = self._deadline(timeout_ms)
        self.add_topic(tp[0])
        while True:
            leader = self.cluster.leader_for_partition(tp)
            if leader is not None and leader >= 0:
                return leader
            error = self.cluster.topic_error(tp[0])
            if error and not errors.for_code(error).retriable:  # type: ignore[union-attr]
                raise errors.for_code(error)("topic %s" % tp[0])  # type: ignore[misc]
            if time.monotonic() >= deadline:
                if error:
                    raise errors.for_code(error)("topic %s" % tp[0])  # type: ignore[misc]
                if self.cluster.partitions_for_topic(tp[0]) is not None and leader is None:
                    raise errors.UnknownTopicOrPartitionError("%s-%d" % tp)
                if self.cluster.version == 0:
                    raise errors.NoBrokersAvailable("no metadata for %s-%d: no broker could be reached (%s)"
                                                    % (tp[0], tp[1], self.last_connection_error()))
                raise errors.LeaderNotAvailableError("no leader for %s-%d" % tp)
            try:
                self.refresh_metadata(self._left_ms(deadline))
            except errors.KafkaTimeoutError:
                pass  # the checks above report what is known at the deadline

    def last_connection_error(self) -> str:
        """Why the first connection that failed did, as text (for messages saying no broker was reached)."""
        for conn in self._conns.values():
            if conn.last_error is not None:
                return str(conn.last_error)
        return "no connection attempt finished"

    def find_coordinator(self, key: str, key_type: int = COORDINATOR_GROUP,
                         timeout_ms: Optional[float] = None, refresh: bool = False) -> int:
        """Node id of the group (or transaction) coordinator for ``key``."""
        if not refresh:
            known = self.cluster.coordinator_for(key_type, key)
            if known is not None:
                return known
        deadline = self._deadline(timeout_ms)
        last: Optional[BaseException] = None
        while time.monotonic() < deadline:
            def build(version: int) -> Any:
                if version >= 4:
                    return FIND_COORDINATOR.Request(key_type=key_type, coordinator_keys=[key])
                return FIND_COORDINATOR.Request(key=key, key_type=key_type)
            response = self.send_to_any(None, self._left_ms(deadline), api=FIND_COORDINATOR, build=build)
            if response.coordinators:
                entry = response.coordinators[0]
            else:
                entry = response
            if entry.error_code == 0:
                self.cluster.add_coordinator(key_type, key, entry.node_id, entry.host, entry.port)
                coordinator: int = entry.node_id
                return coordinator
            cls = errors.for_code(entry.error_code)
            last = cls("finding the coordinator of %r: %s" % (key, entry.error_message or ""))  # type: ignore[misc]
            if not last.retriable:
                raise last
            time.sleep(min(self.config["retry_backoff_ms"] / 1000.0, max(deadline - time.monotonic(), 0)))
        raise last or errors.KafkaTimeoutError("no coordinator found for %r" % key)

    def send_to_coordinator(self, key: str, api: Api, build: Callable[[int], Any],
                            error_code: Callable[[Any], int], key_type: int = COORDINATOR_GROUP,
                            timeout_ms: Optional[float] = None, retries: int = 5,
                            max_version: Optional[int] = None) -> Any:
        """Send a request to ``key``'s coordinator and return the response.

        ``build(version)`` makes the request; ``error_code(response)`` tells
        the response's error. When the coordinator moved or is unavailable
        (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, a lost connection) it is
        found again and the request resent; other retriable errors are
        retried after ``retry_backoff_ms``; up to ``retries`` times. The
        final error is raised; a response without error is returned.
        ``max_version`` caps the negotiated version.
        """
        deadline = self._deadline(timeout_ms)
        attempt = 0
        while True:
            refresh = attempt > 0 and self.cluster.coordinator_for(key_type, key) is None
            try:
                node_id = self.find_coordinator(key, key_type, self._left_ms(deadline), refresh=refresh)
                response = self._send_built(node_id, api, build, deadline, max_version)
                code = error_code(response)
                if not code:
                    return response
                cls = errors.for_code(code)
                error: BaseException = cls("%s to the coordinator of %r" % (api.name, key))  # type: ignore[misc]
            except errors.KafkaError as exc:
                error = exc
            coordinator_moved = isinstance(error, (errors.NotCoordinatorError, errors.CoordinatorNotAvailableError,
                                                   errors.KafkaConnectionError, errors.NodeNotReadyError))
            if coordinator_moved:
                self.cluster.forget_coordinator(key_type, key)
            attempt += 1
            retriable = getattr(error, "retriable", False) or coordinator_moved
            if not retriable or attempt > retries or time.monotonic() >= deadline:
                raise error
            log.debug("retrying %s to the coordinator of %r after %s", api.name, key, error)
            time.sleep(min(self.config["retry_backoff_ms"] / 1000.0, max(deadline - time.monotonic(), 0)))

    def _send_built(self, node_id: int, api: Api, build: Callable[[int], Any], deadline: float,
                    max_version: Optional[int] = None) -> Any:
        if not self.await_ready(node_id, self._left_ms(deadline)):
            raise errors.NodeNotReadyError("node %s did not become ready: %s"
                                           % (node_id, self.connection_error(node_id) or "timed out"))
        version = self.api_version(api, node_id, highest=max_version)
        return self.wait_for(self.send(node_id, build(version), api=api, version=version), self._left_ms(deadline))

    def controller(self, timeout_ms: Optional[float] = None) -> int:
        """Node id of the controller (as Metadata reports it)."""
        deadline = self._deadline(timeout_ms)
        while self.cluster.controller is None or self.cluster.version == 0:
            self.refresh_metadata(self._left_ms(deadline))
            if self.cluster.controller is None and time.monotonic() >= deadline:
                raise errors.KafkaTimeoutError("no controller reported within the timeout")
        return self.cluster.controller

    # -- leader routing ------------------------------------------------------------------

    def dispatch_by_leader(self, api: Api, items: Sequence[Tuple[TopicPartition, Any]], build: Builder,
                           parse: Parser, timeout_ms: Optional[float] = None, retries: int = 3,
                           retry_on_timeouts: bool = True) -> List[Outcome]:
        """Send each item to its partition's leader; return outcomes in ``items`` order.

        Items for the same leader share one request, built by
        ``build(node_id, version, [(tp, payload), ...])``; requests to
        different leaders are in flight at the same time. ``parse`` maps a
        response to ``{(topic, partition): (error_code, value)}``. Items
        failing with a retriable error are retried up to ``retries`` times
        after ``retry_backoff_ms``, with a metadata refresh first when the
        error means stale metadata; other errors are final.
        """
        deadline = self._deadline(timeout_ms)
        outcomes: List[Optional[Outcome]] = [None] * len(items)
        pending = list(range(len(items)))
        attempt = 0
        while pending:
            wave, deferred = _split_wave(items, pending)
            groups, stale = self._group_by_leader(items, wave, outcomes, deadline)
            sent = self._send_to_leaders(api, items, groups, build, outcomes, deadline)
            self._collect_responses(items, sent, parse, outcomes, deadline)
            attempt += 1
            retry, retry_stale = _retriable(wave, outcomes, retry_on_timeouts)
            if retry and (attempt > retries or time.monotonic() >= deadline):
                retry = []
            if not retry:
                if not deferred or time.monotonic() >= deadline:
                    break
                attempt = 0
                pending = deferred
                continue
            log.debug("retrying %d of %d items (attempt %d)", len(retry), len(items), attempt)
            self._back_off(stale or retry_stale, deadline)
            # Retried items keep their place ahead of any deferred item of the
            # same partition.
            pending = sorted(retry + deferred)
        return [o if o is not None else Outcome(errors.KafkaTimeoutError("not sent"), None) for o in outcomes]

    def _group_by_leader(self, items: Sequence[Tuple[TopicPartition, Any]], wave: List[int],
                         outcomes: List[Optional[Outcome]], deadline: float) -> Tuple[Dict[int, List[int]], bool]:
        """Plan: the indexes of ``wave`` by leader node, and whether a lookup said metadata is stale.

        An item whose leader cannot be found gets that error as its outcome.
        """
        groups: Dict[int, List[int]] = {}
        stale = False
        for index in wave:
            tp = TopicPartition(*items[index][0])
            try:
                leader = self.leader_for(tp, min(self._left_ms(deadline), self.config["request_timeout_ms"]))
            except errors.KafkaError as exc:
                outcomes[index] = Outcome(exc, None)
                stale = stale or exc.invalid_metadata
                continue
            groups.setdefault(leader, []).append(index)
        return groups, stale

    def _send_to_leaders(self, api: Api, items: Sequence[Tuple[TopicPartition, Any]], groups: Dict[int, List[int]],
                         build: Builder, outcomes: List[Optional[Outcome]],
                         deadline: float) -> List[Tuple[int, List[int], ResponseFuture]]:
        """Send: one request per leader, all in flight together; ``(node, indexes, future)`` of each sent.

        The items of a request that could not be sent get its error as their outcome.
        """
        sent: List[Tuple[int, List[int], ResponseFuture]] = []
        for node_id, indexes in groups.items():
            try:
                if not self.await_ready(node_id, min(self._left_ms(deadline),
                                                     self.config["socket_connection_setup_timeout_ms"])):
                    raise self.connection_error(node_id) or errors.NodeNotReadyError("node %s" % node_id)
                # Below the versions that name topics by id only, when one has no id.
                version = topic_ids.choose_version(self, api, node_id, topic_ids.ids_by_name(
                    self.cluster, {items[i][0][0] for i in indexes}))
                request = build(node_id, version, [(TopicPartition(*items[i][0]), items[i][1]) for i in indexes])
                sent.append((node_id, indexes, self.send(node_id, request, api=api, version=version)))
            except errors.KafkaError as exc:
                for i in indexes:
                    outcomes[i] = Outcome(exc, None)
        return sent

    def _collect_responses(self, items: Sequence[Tuple[TopicPartition, Any]],
                           sent: List[Tuple[int, List[int], ResponseFuture]], parse: Parser,
                           outcomes: List[Optional[Outcome]], deadline: float) -> None:
        """Collect: wait for each sent request and set its items' outcomes from the parsed response."""
        for node_id, indexes, future in sent:
            try:
                response = self.wait_for(future, self._left_ms(deadline) + 1)
            except errors.KafkaError as exc:
                for i in indexes:
                    outcomes[i] = Outcome(exc, None)
                continue
            results = parse(response)
            for i in indexes:
                key = (items[i][0][0], items[i][0][1])
                if key not in results:
                    outcomes[i] = Outcome(errors.ProtocolError("response from node %s did not mention %s-%d"
                                                               % (node_id, key[0], key[1])), None)
                    continue
                code, value = results[key]
                cls = errors.for_code(code)
                outcomes[i] = Outcome(cls("%s-%d" % key) if cls else None, value)

    def _back_off(self, refresh: bool, deadline: float) -> None:
        """Before a retry: wait ``retry_backoff_ms`` (within the deadline), then refresh metadata if ``refresh``."""
        time.sleep(min(self.config["retry_backoff_ms"] / 1000.0, max(deadline - time.monotonic(), 0)))
        if refresh:
            try:
                self.refresh_metadata(min(self._left_ms(deadline), self.config["request_timeout_ms"]))
            except errors.KafkaError:
                pass


def _split_wave(items: Sequence[Tuple[TopicPartition, Any]], pending: List[int]) -> Tuple[List[int], List[int]]:
    """The pending indexes to send now, and those deferred to a later wave.

    A partition may appear more than once: its later items wait for the next
    wave, so each request names a partition at most once and the items reach
    the partition in the caller's order.
    """
    wave: List[int] = []
    deferred: List[int] = []
    seen: Set[Tuple[str, int]] = set()
    for index in pending:
        key = (items[index][0][0], items[index][0][1])
        (deferred if key in seen else wave).append(index)
        seen.add(key)
    return wave, deferred


def _retriable(wave: List[int], outcomes: List[Optional[Outcome]],
               retry_on_timeouts: bool) -> Tuple[List[int], bool]:
    """Retry: the indexes of ``wave`` that failed with a retriable error, and whether metadata needs a refresh."""
    retry = []
    stale = False
    for index in wave:
        outcome = outcomes[index]
        assert outcome is not None
        error = outcome.error
        if error is None:
            continue
        if isinstance(error, errors.RequestTimedOutError) and not retry_on_timeouts:
            continue
        if getattr(error, "retriable", False):
            retry.append(index)
            # An unreachable leader may have moved or left: look again.
            stale = stale or getattr(error, "invalid_metadata", False) or \
                isinstance(error, errors.NodeNotReadyError)
    return retry, stale

__all__ = ["RoutingClient", "Outcome", "COORDINATOR_GROUP", "COORDINATOR_TRANSACTION"]
