"""The admin client's engine: configuration, bootstrap and request routing.

:class:`AdminBase` owns a :class:`~kafka.client.routing.RoutingClient` and offers the
few ways admin requests travel: to any broker, to one given broker, to the
controller (retrying NOT_CONTROLLER after a metadata refresh) and to a
group's coordinator (retrying NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS
/ COORDINATOR_NOT_AVAILABLE after finding it again). The operations
themselves live in the sibling modules and are mixed into
:class:`~kafka.admin.KafkaAdminClient`.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any, Callable, Dict, Hashable, Iterable, List, Optional, Sequence, Tuple

from kafka import compat_config, errors
from kafka.client.routing import RoutingClient
from kafka.client.network import DEFAULT_CONFIG as CLIENT_CONFIG, parse_bootstrap
from kafka.protocol.apis import METADATA
from kafka.protocol.schema import Api
from kafka.structs import BrokerMetadata

log = logging.getLogger(__name__)

#: Configuration keys of the admin client beyond the network client's own.
ADMIN_CONFIG: Dict[str, Any] = {
    # Bound on the first metadata fetch made by the constructor.
    "bootstrap_timeout_ms": 10000,
    # Accepted for kafka-python compatibility; versions are always negotiated.
    "api_version": None,
    "api_version_auto_timeout_ms": None,
    # Engine class (a RoutingClient subclass), for callers that need their own.
    "kafka_client": RoutingClient,
}

#: ``parse(response) -> {key: (error_code, error_message, value)}``.
ItemParser = Callable[[Any], Dict[Hashable, Tuple[int, Optional[str], Any]]]

#: Codes after which a controller-routed request is resent to the (new) controller.
_CONTROLLER_RETRY: Tuple[int, ...] = (int(errors.NotControllerError.errno or 0),)


def broker_error(code: int, message: Optional[str], what: str) -> BaseException:
    """The exception for broker error ``code`` about ``what``, with the broker's message."""
    cls = errors.for_code(code)
    assert cls is not None
    text = what if not message else "%s: %s" % (what, message)
    error = cls(text)
    error.broker_message = message or ""
    return error


class AdminBase:
    """Configuration, connection and routing shared by every admin operation."""

    #: Every accepted key with its default, kafka-python's ignored keys included.
    DEFAULT_CONFIG = compat_config.kafka_python_defaults("admin", dict(CLIENT_CONFIG, **ADMIN_CONFIG))

    def __init__(self, **configs: Any) -> None:
        configs, ignored = compat_config.split("admin", configs)
        unknown = set(configs) - set(CLIENT_CONFIG) - set(ADMIN_CONFIG)
        if unknown:
            raise errors.KafkaConfigurationError("unknown admin client configuration: %s"
                                                 % ", ".join(sorted(unknown)))
        self.config: Dict[str, Any] = dict(CLIENT_CONFIG)
        self.config.update(ADMIN_CONFIG)
        self.config.update(configs)
        self.config.update(ignored)
        self._bootstrap = parse_bootstrap(configs.get("bootstrap_servers", CLIENT_CONFIG["bootstrap_servers"]))
        client_configs = {k: v for k, v in configs.items() if k in CLIENT_CONFIG}
        # An admin client looks topics up; it never creates one by asking about it.
        client_configs.setdefault("allow_auto_create_topics", False)
        self._client = self.config["kafka_client"](**client_configs)
        self._closed = False
        try:
            self._bootstrap_metadata()
        except BaseException:
            self._client.close()
            raise

    # -- life cycle ---------------------------------------------------------------

    def _bootstrap_metadata(self) -> None:
        """Fetch metadata once, so an unreachable cluster is reported now, naming its addresses."""
        timeout_ms = min(self.config["bootstrap_timeout_ms"], self._client.config["request_timeout_ms"])
        try:
            self._client.refresh_metadata(timeout_ms)
        except errors.KafkaTimeoutError:
            addresses = ", ".join("%s:%d" % hp for hp in self._bootstrap)
            reason = self._client.last_connection_error()
            raise errors.NoBrokersAvailable("could not reach any of the bootstrap servers (%s) within %g s: %s"
                                            % (addresses, timeout_ms / 1000.0, reason)) from None

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Log in with these ``PLAIN``/``SCRAM`` credentials from the next connection on (open ones stay)."""
        self._client.set_sasl_credentials(username, password)

    def close(self) -> None:
        """Close every connection; the client cannot be used afterwards."""
        if not self._closed:
            self._closed = True
            self._client.close()

    def __enter__(self) -> "AdminBase":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise errors.IllegalStateError("the admin client is closed")

    # -- timing -------------------------------------------------------------------------

    def _deadline(self, timeout_ms: Optional[float] = None) -> float:
        timeout = self.config["request_timeout_ms"] if timeout_ms is None else timeout_ms
        return time.monotonic() + timeout / 1000.0

    @staticmethod
    def _left_ms(deadline: float) -> float:
        return max((deadline - time.monotonic()) * 1000.0, 0.0)

    def _backoff(self, deadline: float) -> None:
        time.sleep(min(self.config["retry_backoff_ms"] / 1000.0, max(deadline - time.monotonic(), 0.0)))

    # -- sending ---------------------------------------------------------------------

    def _send_any(self, api: Api, build: Callable[[int], Any], timeout_ms: Optional[float] = None,
                  unsupported_ok: bool = False) -> Any:
        """Send ``build(version)`` to the least loaded broker and return its response.

        ``unsupported_ok``: the caller falls back on another API when the broker lacks this one.
        """
        self._check_open()
        return self._client.send_to_any(None, timeout_ms=timeout_ms, api=api, build=build,
                                        unsupported_ok=unsupported_ok)

    def _send_to_node(self, node_id: int, api: Api, build: Callable[[int], Any], deadline: float) -> Any:
        """Send ``build(version)`` to ``node_id`` (connecting first) and return its response."""
        self._check_open()
        client = self._client
        if client.cluster.broker_metadata(node_id) is None:
            raise errors.BrokerNotAvailableError("broker %d is not in the cluster metadata" % node_id)
        if not client.await_ready(node_id, self._left_ms(deadline)):
            raise errors.NodeNotReadyError("broker %d did not become ready: %s"
                                           % (node_id, client.connection_error(node_id) or "timed out"))
        version = client.api_version(api, node_id)
        return client.wait_for(client.send(node_id, build(version), api=api, version=version),
                               self._left_ms(deadline))

    def _controller_node(self, deadline: float) -> int:
        """The controller's node id; a broker of ours when the controller is not one (KRaft forwards)."""
        client = self._client
        try:
            node = client.controller(self._left_ms(deadline))
        except errors.KafkaTimeoutError:
            node = None
        if node is not None and client.cluster.broker_metadata(node) is not None:
            return node
        fallback = client.least_loaded_node()
        if fallback is None:
            raise errors.NoBrokersAvailable("no broker to send a controller request to")
        return fallback

    def _send_to_controller(self, api: Api, build: Callable[[int], Any], error_code: Callable[[Any], int],
                            deadline: float, retries: int = 3) -> Any:
        """Send ``build(version)`` to the controller; resend after NOT_CONTROLLER; return the response.

        ``error_code(response)`` tells the response's top-level code; any code
        other than NOT_CONTROLLER is left to the caller.
        """
        attempt = 0
        while True:
            response = self._send_to_node(self._controller_node(deadline), api, build, deadline)
            attempt += 1
            if error_code(response) not in _CONTROLLER_RETRY or attempt > retries \
                    or time.monotonic() >= deadline:
                return response
            log.debug("%s went to a broker that is no longer the controller; asking again", api.name)
            self._refresh_quietly(deadline)
            self._backoff(deadline)

    def _send_items(self, api: Api, items: Sequence[Tuple[Hashable, Any]],
                    build: Callable[[int, List[Tuple[Hashable, Any]]], Any], parse: ItemParser,
                    describe: Callable[[Hashable], str], timeout_ms: Optional[float] = None,
                    node: Optional[int] = None, retry_codes: Sequence[int] = _CONTROLLER_RETRY,
                    retries: int = 5) -> Dict[Hashable, Any]:
        """Send keyed items in one request and return ``{key: value or exception}``.

        The request goes to ``node``, or to the controller when ``node`` is
        None. Items answered with a code in ``retry_codes`` are sent again,
        after a metadata refresh, up to ``retries`` times; a lost connection
        retries the whole request the same way.
        """
        deadline = self._deadline(timeout_ms)
        results: Dict[Hashable, Any] = {}
        pending = list(items)
        attempt = 0
        while pending:
            attempt += 1
            try:
                target = self._controller_node(deadline) if node is None else node
                response = self._send_to_node(target, api, lambda v: build(v, pending), deadline)
            except errors.KafkaError as exc:
                if not exc.retriable or attempt > retries or time.monotonic() >= deadline:
                    for key, _ in pending:
                        results[key] = exc
                    break
                log.debug("retrying %s after %s", api.name, exc)
                self._refresh_quietly(deadline)
                self._backoff(deadline)
                continue
            answered = parse(response)
            retry = []
            for key, payload in pending:
                if key not in answered:
                    results[key] = errors.ProtocolError("the %s response did not mention %s"
                                                        % (api.name, describe(key)))
                    continue
                code, message, value = answered[key]
                if code in retry_codes and attempt <= retries and time.monotonic() < deadline:
                    retry.append((key, payload))
                elif code:
                    results[key] = broker_error(code, message, describe(key))
                else:
                    results[key] = value
            pending = retry
            if pending:
                log.debug("retrying %d %s items", len(pending), api.name)
                self._refresh_quietly(deadline)
                self._backoff(deadline)
        return {key: results[key] for key, _ in items}

    def _refresh_quietly(self, deadline: float) -> None:
        try:
            self._client.refresh_metadata(min(self._left_ms(deadline), self.config["request_timeout_ms"]))
        except errors.KafkaError as exc:
            log.debug("metadata refresh failed: %s", exc)

    def known_brokers(self, refresh: bool = False) -> List[BrokerMetadata]:
        """The brokers of the client's cluster view, sorted by node id.

        With ``refresh``, metadata is fetched first (within
        ``request_timeout_ms``; a failure is logged and the view kept as it
        was). Before the first metadata the view holds the bootstrap
        addresses. Sends nothing without ``refresh``.
        """
        self._check_open()
        if refresh:
            self._refresh_quietly(self._deadline())
        return sorted(self._client.cluster.brokers(), key=lambda b: b.nodeId)

    def broker_metadata(self, node_id: int) -> Optional[BrokerMetadata]:
        """Broker ``node_id`` as the client's cluster view knows it (a bootstrap address's pseudo id too), or None."""
        return self._client.cluster.broker_metadata(node_id)

    def _broker_ids(self, brokers: Optional[Sequence[int]] = None) -> List[int]:
        """``brokers`` as a list, or every broker of freshly refreshed metadata when None."""
        if brokers is not None:
            return list(brokers)
        self._refresh_quietly(self._deadline())
        nodes = sorted(b.nodeId for b in self._client.cluster.brokers())
        if not nodes:
            raise errors.NoBrokersAvailable("the cluster metadata lists no broker")
        return nodes

    def _metadata(self, topics: Optional[Sequence[str]], timeout_ms: Optional[float] = None) -> Any:
        """A Metadata response for ``topics`` (all topics when None), never creating topics."""
        def build(version: int) -> Any:
            names: Optional[List[Any]]
            if topics is None:
                names = None if version >= 1 else []
            else:
                names = [METADATA.Request.MetadataRequestTopic(name=t) for t in topics]
            return METADATA.Request(topics=names, allow_auto_topic_creation=False)
        return self._send_any(METADATA, build, timeout_ms)

    def _topic_ids(self, topics: Optional[Iterable[str]]) -> Dict[str, Optional[uuid.UUID]]:
        """The id of each of ``topics`` (every topic when None) as Metadata tells it now.

        A topic without an id (it does not exist, or the broker's Metadata
        predates ids) maps to None; so does every topic when the Metadata
        request fails, leaving callers to name topics instead.
        """
        names = None if topics is None else sorted(set(topics))
        if names == []:
            return {}
        ids: Dict[str, Optional[uuid.UUID]] = dict.fromkeys(names or ())
        try:
            response = self._metadata(names)
        except errors.KafkaError as exc:
            log.debug("no topic ids: metadata failed: %s", exc)
            return ids
        for topic in response.topics or ():
            if not topic.name or (names is not None and topic.name not in ids):
                continue
            tid = getattr(topic, "topic_id", None)
            ids[topic.name] = tid if not topic.error_code and tid is not None and tid.int else None
        return ids


__all__ = ["AdminBase", "ADMIN_CONFIG", "broker_error"]
