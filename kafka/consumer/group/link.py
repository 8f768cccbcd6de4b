"""Finding the group coordinator and sending requests to it, without blocking.

:class:`CoordinatorLink` is shared by the membership protocols and the
offset committer. Lookups are asynchronous (a FindCoordinator request in
flight is kept between calls), so a caller with no time left can still make
progress on its next call; :meth:`CoordinatorLink.ready` waits up to a
deadline for a known, connected coordinator. It never holds a lock while
polling the client, so the heartbeat thread and the application thread can
use it at the same time.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Optional

from kafka import errors
from kafka.cluster import COORDINATOR_GROUP
from kafka.consumer.group.metrics import CoordinatorMetrics
from kafka.future import Future
from kafka.protocol.apis import FIND_COORDINATOR
from kafka.protocol.schema import Api

log = logging.getLogger(__name__)

#: Errors meaning "the coordinator is elsewhere (or gone): look it up again".
COORDINATOR_MOVED = (errors.NotCoordinatorError, errors.CoordinatorNotAvailableError,
                     errors.KafkaConnectionError, errors.NodeNotReadyError, errors.RequestTimedOutError)


def left_ms(deadline: float) -> float:
    """Milliseconds until ``deadline`` (monotonic seconds), never negative."""
    return max((deadline - time.monotonic()) * 1000.0, 0.0)


class CoordinatorLink:
    """The coordinator of one group: lookup, readiness, sending."""

    def __init__(self, client: Any, group_id: str, retry_backoff_ms: float = 100) -> None:
        self.client = client
        self.group_id = group_id
        self.backoff = retry_backoff_ms / 1000.0
        self._lock = threading.Lock()
        self._lookup: Optional[Future] = None
        self._next_lookup = 0.0
        self._found_at = 0.0
        self.last_error: Optional[BaseException] = None
        #: kafka-python's coordinator metrics, when enabled.
        self.metrics: Optional[CoordinatorMetrics] = None

    @property
    def node(self) -> Optional[int]:
        """The coordinator's node id, if known."""
        return self.client.cluster.coordinator_for(COORDINATOR_GROUP, self.group_id)

    def mark_dead(self, reason: Any = None) -> None:
        """Forget the coordinator; the next call looks it up again."""
        if self.node is not None:
            log.info("group %s: coordinator %s marked unknown (%s)", self.group_id, self.node, reason)
        self.client.cluster.forget_coordinator(COORDINATOR_GROUP, self.group_id)

    def handle_error(self, exc: BaseException) -> None:
        """Forget the coordinator if ``exc`` says it moved or is unreachable."""
        if isinstance(exc, COORDINATOR_MOVED):
            self.mark_dead(exc)

    # -- lookup -------------------------------------------------------------------------

    def poll_lookup(self) -> Optional[int]:
        """The coordinator if known; otherwise start (or keep) a lookup and return None."""
        node = self.node
        if node is not None:
            return node
        with self._lock:
            if self._lookup is not None or time.monotonic() < self._next_lookup:
                return None
            target = self.client.least_loaded_node()
            if target is None or not self.client.ready(target):
                return None
            try:
                version = self.client.api_version(FIND_COORDINATOR, target)
            except errors.KafkaError as exc:
                self.last_error = exc
                return None
            if version >= 4:
                request = FIND_COORDINATOR.Request(key_type=COORDINATOR_GROUP, coordinator_keys=[self.group_id])
            else:
                request = FIND_COORDINATOR.Request(key=self.group_id, key_type=COORDINATOR_GROUP)
            future = self.client.send(target, request, api=FIND_COORDINATOR, version=version)
            self._lookup = future
        future.add_callback(self._on_lookup)
        future.add_errback(self._on_lookup_failed)
        return self.node

    def _on_lookup(self, response: Any) -> None:
        entry = response.coordinators[0] if response.coordinators else response
        with self._lock:
            self._lookup = None
            if entry.error_code:
                cls = errors.for_code(entry.error_code)
                self.last_error = cls("finding the coordinator of group %r: %s"  # type: ignore[misc]
                                      % (self.group_id, entry.error_message or ""))
                self._next_lookup = time.monotonic() + self.backoff
                if not self.last_error.retriable:
                    log.error("group %s: %s", self.group_id, self.last_error)
                return
        try:
            self.client.cluster.add_coordinator(COORDINATOR_GROUP, self.group_id, entry.node_id, entry.host,
                                                entry.port)
        except errors.ProtocolError as exc:
            with self._lock:
                self.last_error = exc
                self._next_lookup = time.monotonic() + self.backoff
            log.warning("group %s: %s", self.group_id, exc)
            return
        with self._lock:
            self._found_at = time.monotonic()
        log.debug("group %s: coordinator is node %s (%s:%s)", self.group_id, entry.node_id, entry.host, entry.port)

    def _on_lookup_failed(self, exc: BaseException) -> None:
        with self._lock:
            self._lookup = None
            self.last_error = exc
            self._next_lookup = time.monotonic() + self.backoff

    def fatal_lookup_error(self) -> Optional[BaseException]:
        """A lookup error that retrying will not cure (e.g. group authorization)."""
        exc = self.last_error
        if exc is not None and not getattr(exc, "retriable", True) and isinstance(exc, errors.BrokerResponseError):
            return exc
        return None

    def ready(self, deadline: float) -> bool:
        """Wait until ``deadline`` for a known and connected coordinator; return whether there is one."""
        while True:
            fatal = self.fatal_lookup_error()
            if fatal is not None:
                self.last_error = None
                raise fatal
            node = self.poll_lookup()
            # A refused certificate or login, on every broker or on the
            # coordinator, will not pass by waiting for the deadline.
            refused = self.client.fatal_error() or (node is not None and self.client.permanent_failure(node))
            if refused:
                raise refused
            if node is not None:
                if self.client.ready(node):
                    return True
                if (self.client.is_disconnected(node) and self.client.connection_error(node) is not None
                        and time.monotonic() - self._found_at >= self.backoff):
                    # The coordinator could not be reached: it may have moved.
                    self.mark_dead(self.client.connection_error(node))
            if time.monotonic() >= deadline:
                return False
            self.client.poll(timeout_ms=min(left_ms(deadline), 50.0))

    # -- sending -------------------------------------------------------------------------

    def send(self, api: Api, build: Callable[[int], Any], max_version: Optional[int] = None,
             min_version: Optional[int] = None, timeout_ms: Optional[float] = None) -> Future:
        """Send ``build(version)`` to the coordinator (which must be ready); a failed future otherwise.

        ``timeout_ms`` replaces the client's ``request_timeout_ms`` for this request.
        """
        node = self.node
        if node is None:
            return Future().failure(errors.CoordinatorNotAvailableError("coordinator of %r unknown" % self.group_id))
        if not self.client.ready(node):
            return Future().failure(errors.NodeNotReadyError("coordinator %s is not connected" % node))
        try:
            version = self.client.api_version(api, node, highest=max_version)
            if min_version is not None and version < min_version:
                raise errors.UnsupportedVersionError(
                    "%s v%d or later is needed; the coordinator offers v%d at most" % (api.name, min_version, version))
            request = build(version)
        except errors.KafkaError as exc:
            return Future().failure(exc)
        if timeout_ms is None:
            future = self.client.send(node, request, api=api, version=version)
        else:
            future = self.client.send(node, request, api=api, version=version, timeout_ms=timeout_ms)
        if self.metrics is not None:
            self.metrics.sent(api, future)
        return future

    def wait(self, future: Future, deadline: float) -> bool:
        """Poll until ``future`` is done or ``deadline`` passes; return whether it is done."""
        while not future.is_done:
            left = left_ms(deadline)
            self.client.poll(timeout_ms=left, future=future)
            if left <= 0:
                break
        return future.is_done
