"""``error_cb`` and ``throttle_cb``: the engine's connection events, served in the application's thread.

The engine's client reports connection failures, "all brokers down" and
throttled responses to a listener on its I/O thread
(:mod:`kafka.client.events`). :class:`EventRelay` is that listener: it only
queues what it is given; :meth:`EventRelay.serve`, called from ``poll()``,
``flush()``, ``consume()`` and ``close()``, turns the queued events into
:class:`~kafka.confluent.kafka_error.KafkaError` values for ``error_cb`` and
:class:`ThrottleEvent` values for ``throttle_cb``, as librdkafka does.
"""

from __future__ import annotations

import collections
import logging
from typing import Any, Callable, Deque, Optional

from kafka import errors as engine_errors
from kafka.client.events import AllBrokersDown, ClientEvent, ConnectionFailed, Throttled
from kafka.confluent.kafka_error import KafkaError

log = logging.getLogger(__name__)

_AUTHENTICATION_ERRORS = (engine_errors.SaslAuthenticationFailedError, engine_errors.UnsupportedSaslMechanismError,
                          engine_errors.IllegalSaslStateError)


class ThrottleEvent:
    """A broker delayed this client's requests to keep it within a quota (``throttle_cb``'s argument).

    ``broker_name`` is the broker's ``host:port``, ``broker_id`` its node id
    (-1 for a bootstrap address), ``throttle_time`` the delay in seconds.
    """

    def __init__(self, broker_name: str, broker_id: int, throttle_time: float) -> None:
        self.broker_name = broker_name
        self.broker_id = broker_id
        self.throttle_time = throttle_time

    def __str__(self) -> str:
        return "%s/%d throttled for %d ms" % (self.broker_name, self.broker_id, int(self.throttle_time * 1000))


def broker_name(host: str, port: int, node_id: int) -> str:
    """librdkafka's name of a broker: ``host:port/id``, or ``host:port/bootstrap``."""
    return "%s:%d/%s" % (host, port, "bootstrap" if node_id < 0 else node_id)


def connection_error(event: ConnectionFailed) -> KafkaError:
    """The KafkaError librdkafka reports for a failed connection."""
    error = event.error
    reason = error.args[0] if error.args else type(error).__name__
    text = "%s: %s" % (broker_name(event.host, event.port, event.node_id), reason)
    if isinstance(error, _AUTHENTICATION_ERRORS):
        return KafkaError(KafkaError._AUTHENTICATION, text)  # type: ignore[attr-defined]
    if isinstance(error, engine_errors.SslCertificateError):
        return KafkaError(KafkaError._SSL, text)  # type: ignore[attr-defined]
    if isinstance(error, engine_errors.HostResolutionError):
        return KafkaError(KafkaError._RESOLVE, text)  # type: ignore[attr-defined]
    if isinstance(error, engine_errors.RequestTimedOutError):
        return KafkaError(KafkaError._TIMED_OUT, text)  # type: ignore[attr-defined]
    return KafkaError(KafkaError._TRANSPORT, text)  # type: ignore[attr-defined]


class EventRelay:
    """Queues client events from any thread; serves them to the callbacks when asked."""

    def __init__(self, error_cb: Optional[Callable[[KafkaError], Any]],
                 throttle_cb: Optional[Callable[[ThrottleEvent], Any]]) -> None:
        self._error_cb = error_cb
        self._throttle_cb = throttle_cb
        #: events not served yet (true when there are some: a cheap test for hot paths)
        self.queue: Deque[Any] = collections.deque()
        self._queue = self.queue

    def listener(self) -> Optional[Callable[[ClientEvent], None]]:
        """The engine's ``client_events`` setting: None when no callback wants events."""
        if self._error_cb is None and self._throttle_cb is None:
            return None
        return self._queue.append

    def add_error(self, error: KafkaError) -> None:
        """Queue an error found by the facade itself (a fatal producer error)."""
        if self._error_cb is not None:
            self._queue.append(error)

    def __bool__(self) -> bool:
        return bool(self._queue)

    def serve_closing(self) -> int:
        """:meth:`serve` for a client's ``close()``: a callback's exception is logged, not raised
        (confluent-kafka's ``close()`` calls the callbacks and raises nothing from them)."""
        served = 0
        while self._queue:
            try:
                served += self.serve()
            except Exception:  # noqa: BLE001 - the application's callback
                log.exception("a client event callback raised while the client was closing")
        return served

    def serve(self) -> int:
        """Call the callbacks for every queued event, in order; return how many were served."""
        served = 0
        queue = self._queue
        while queue:
            event = queue.popleft()
            if isinstance(event, Throttled):
                if self._throttle_cb is not None:
                    served += 1
                    # librdkafka names the broker host:port here (no /id).
                    self._throttle_cb(ThrottleEvent("%s:%d" % (event.host, event.port),
                                                    max(event.node_id, -1), event.throttle_time_ms / 1000.0))
                continue
            if self._error_cb is None:
                continue
            if isinstance(event, ConnectionFailed):
                error = connection_error(event)
            elif isinstance(event, AllBrokersDown):
                error = KafkaError(KafkaError._ALL_BROKERS_DOWN,  # type: ignore[attr-defined]
                                   "%d/%d brokers are down" % (event.down, event.known))
            else:
                error = event
            served += 1
            self._error_cb(error)
        return served
