"""The network half of the client: connections, the selector loop, metadata.

:class:`NetworkClient` owns one :class:`~kafka.conn.connection.BrokerConnection`
per broker and a :class:`~kafka.cluster.ClusterMetadata`. Any thread may call
:meth:`~NetworkClient.send`; :meth:`~NetworkClient.poll` performs the I/O and
resolves futures. One thread polls at a time; a thread that sends while
another is blocked in ``poll`` wakes it so the request leaves at once.
"""

from __future__ import annotations

import itertools
import logging
import selectors
import socket
import threading
import time
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from kafka import errors
from kafka.client.events import AllBrokersDown, ClientEvent, ConnectionFailed, Throttled
from kafka.config_checks import check_config_values
from kafka.cluster import ClusterMetadata
from kafka.conn.blocking import parse_address
from kafka.conn.connection import BrokerConnection, DEFAULT_CONNECTION_CONFIG, ResponseFuture, is_permanent_failure
from kafka.conn.tls import build_ssl_context, check_security_protocol, uses_sasl
from kafka.future import Future
from kafka.client.net_metrics import NetworkMetrics
from kafka.metric_registry import MetricRegistry
from kafka.protocol.apis import METADATA, api_for
from kafka.protocol.schema import Api

log = logging.getLogger(__name__)

_client_ids = itertools.count(1)

DEFAULT_CONFIG: Dict[str, Any] = {
    "bootstrap_servers": "localhost",
    "client_id": None,
    "request_timeout_ms": 30000,
    "socket_connection_setup_timeout_ms": 10000,
    "connections_max_idle_ms": 9 * 60 * 1000,
    "reconnect_backoff_ms": 50,
    "reconnect_backoff_max_ms": 1000,
    "max_in_flight_requests_per_connection": 5,
    "receive_buffer_bytes": None,
    "send_buffer_bytes": None,
    "socket_options": [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
    "retry_backoff_ms": 100,
    "metadata_max_age_ms": 300000,
    "allow_auto_create_topics": True,
    "security_protocol": "PLAINTEXT",
    "ssl_context": None,
    "ssl_check_hostname": True,
    "ssl_cafile": None,
    "ssl_certfile": None,
    "ssl_keyfile": None,
    "ssl_password": None,
    "ssl_crlfile": None,
    "ssl_ciphers": None,
    "sasl_mechanism": None,
    "sasl_plain_username": None,
    "sasl_plain_password": None,
    "sasl_oauth_token_provider": None,
    "max_frame_size": DEFAULT_CONNECTION_CONFIG["max_frame_size"],
    "client_events": None,
}

#: Option names whose values are secrets: never logged or shown in reprs.
SECRET_OPTIONS = frozenset(["sasl_plain_password", "ssl_password", "sasl_oauth_token_provider"])


def parse_bootstrap(servers: Any) -> List[Tuple[str, int]]:
    """``"h1:9092,h2:9092"`` or a list of such strings into (host, port) pairs.

    An empty list (given as such) is a client that knows no broker and never
    connects, as kafka-python and librdkafka allow: its requests time out.
    A string, or a list whose entries name nothing, is refused.
    """
    if isinstance(servers, (list, tuple)) and not servers:
        return []
    if isinstance(servers, str):
        servers = [servers]
    elif servers is not None and not isinstance(servers, (list, tuple, set, frozenset)):
        raise errors.ConfigurationTypeError("bootstrap_servers must be a str or a list of str, not %r" % (servers,))
    out = []
    for item in servers or ():
        if not isinstance(item, str):
            raise errors.ConfigurationTypeError("bootstrap_servers entries must be strings, not %r" % (item,))
        for entry in item.split(","):
            entry = entry.strip()
            if not entry:
                continue
            try:
                out.append(parse_address(entry))
            except ValueError as exc:
                raise errors.KafkaConfigurationError(str(exc)) from None
    if not out:
        raise errors.KafkaConfigurationError("bootstrap_servers names no broker")
    return out


class NetworkClient:
    """Connections to every broker of a cluster, driven by one selector loop."""

    def __init__(self, **configs: Any) -> None:
        unknown = set(configs) - set(DEFAULT_CONFIG)
        if unknown:
            raise errors.KafkaConfigurationError("unknown configuration: %s" % ", ".join(sorted(unknown)))
        check_config_values(configs, DEFAULT_CONFIG, checked_elsewhere=["bootstrap_servers"])
        self.config = dict(DEFAULT_CONFIG)
        self.config.update(configs)
        if self.config["client_id"] is None:
            self.config["client_id"] = "kafkawire-%d" % next(_client_ids)
        check_security_protocol(self.config["security_protocol"])
        self._ssl_context = build_ssl_context(self.config)
        self._sasl_factory = self._make_sasl_factory()
        self.cluster = ClusterMetadata(parse_bootstrap(self.config["bootstrap_servers"]),
                                       metadata_max_age_ms=self.config["metadata_max_age_ms"],
                                       retry_backoff_ms=self.config["retry_backoff_ms"])
        self.cluster.add_listener(self._on_metadata_update)
        self._conns: Dict[int, BrokerConnection] = {}
        self._lock = threading.RLock()
        # One thread at a time does the I/O (the "poller"); the others wait on
        # this condition, which is notified once the poller has resolved what
        # it received: a thread waiting for a future another thread's poll
        # resolves returns then, not when it manages to take the I/O over.
        self._poll_cond = threading.Condition(threading.Lock())
        self._polling = False
        self._poll_passes = 0  # I/O passes finished, by any thread
        self._selector = selectors.DefaultSelector()
        self._registered: Dict[int, Tuple[int, int]] = {}  # node -> (fd, events)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._woken = False
        self._topics: Set[str] = set()
        self._all_topics = False
        self._metadata_future: Optional[ResponseFuture] = None
        self._closed = False
        # (node id, api key) pairs whose missing version was already logged.
        self._reported_unsupported: Set[Tuple[int, int]] = set()
        # For the client_events listener: events not delivered yet, the last
        # error reported per node, and whether "all brokers down" was reported.
        self._listener = self.config["client_events"]
        self._events: List[ClientEvent] = []
        self._announced: Dict[int, BaseException] = {}
        self._all_down = False
        #: Request metrics, once :meth:`enable_metrics` is called.
        self.metrics: Optional[NetworkMetrics] = None

    def enable_metrics(self, registry: MetricRegistry, prefix: str) -> NetworkMetrics:
        """Measure every connection's requests into ``registry`` under kafka-python's ``prefix`` groups."""
        with self._lock:
            if self.metrics is None:
                self.metrics = NetworkMetrics(registry, prefix, self._connection_count)
                for node_id, conn in self._conns.items():
                    conn.stats = self.metrics.for_node(node_id)
            return self.metrics

    def _connection_count(self) -> int:
        with self._lock:
            return sum(1 for conn in self._conns.values() if conn.connected())

    def __repr__(self) -> str:
        return "<%s client_id=%s brokers=%d>" % (type(self).__name__, self.config["client_id"], len(self._conns))

    # -- configuration helpers -------------------------------------------------------

    def _make_sasl_factory(self) -> Any:
        if not uses_sasl(self.config["security_protocol"]):
            return None
        mechanism = self.config["sasl_mechanism"]
        if not mechanism:
            raise errors.KafkaConfigurationError("sasl_mechanism is required with %s"
                                                 % self.config["security_protocol"])
        from kafka.conn.sasl import create_mechanism
        options = dict(username=self.config["sasl_plain_username"], password=self.config["sasl_plain_password"],
                       oauth_token_provider=self.config["sasl_oauth_token_provider"])
        create_mechanism(mechanism, **options)  # validate now, not at first connect
        return lambda: create_mechanism(mechanism, **options)

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Log in with these ``PLAIN``/``SCRAM`` credentials from the next connection on.

        Connections already logged in stay open; the next one (a reconnect
        included) authenticates with the new credentials.
        """
        if not isinstance(username, str) or not isinstance(password, str):
            raise errors.IllegalArgumentTypeError("username and password must be str")
        with self._lock:
            self.config["sasl_plain_username"] = username
            self.config["sasl_plain_password"] = password
            self._sasl_factory = self._make_sasl_factory()
            for conn in self._conns.values():
                conn.config["sasl_factory"] = self._sasl_factory

    def _connection_config(self) -> Dict[str, Any]:
        keys = ("client_id", "request_timeout_ms", "socket_connection_setup_timeout_ms", "reconnect_backoff_ms",
                "reconnect_backoff_max_ms", "max_in_flight_requests_per_connection", "socket_options",
                "send_buffer_bytes", "receive_buffer_bytes", "security_protocol", "max_frame_size")
        config = {k: self.config[k] for k in keys}
        config["ssl_context"] = self._ssl_context
        config["sasl_mechanism"] = self.config["sasl_mechanism"]
        config["sasl_factory"] = self._sasl_factory
        return config

    # -- connections -------------------------------------------------------------------

    def _conn(self, node_id: int) -> Optional[BrokerConnection]:
        with self._lock:
            conn = self._conns.get(node_id)
            if conn is None:
                broker = self.cluster.broker_metadata(node_id)
                if broker is None:
                    return None
                conn = BrokerConnection(node_id, broker.host, broker.port, **self._connection_config())
                if self.metrics is not None:
                    conn.stats = self.metrics.for_node(node_id)
                self._conns[node_id] = conn
            return conn

    def maybe_connect(self, node_id: int) -> bool:
        """Start connecting to ``node_id`` if needed; return whether it is ready."""
        conn = self._conn(node_id)
        if conn is None:
            # A leader that metadata does not list as a broker (it may be down
            # for now): look again, so its return is noticed.
            self.cluster.request_update()
            return False
        with self._lock:
            if conn.disconnected() and not conn.blacked_out(time.monotonic()):
                conn.connect()
                self._wake()
            return conn.connected()

    def ready(self, node_id: int) -> bool:
        """Whether ``node_id`` can take a request now (starts connecting if not)."""
        return self.maybe_connect(node_id) and self.is_ready(node_id)

    def is_ready(self, node_id: int) -> bool:
        """Connected, and with room in its pipeline."""
        conn = self._conns.get(node_id)
        return conn is not None and conn.connected() and conn.can_send_more()

    def connected(self, node_id: int) -> bool:
        """Connected (whatever its pipeline)."""
        conn = self._conns.get(node_id)
        return conn is not None and conn.connected()

    def bootstrap_connected(self) -> bool:
        """Whether cluster metadata has arrived and a connection to some broker is up."""
        if self.cluster.version == 0:
            return False
        with self._lock:
            return any(conn.connected() for conn in self._conns.values())

    def is_disconnected(self, node_id: int) -> bool:
        """Not connected and not connecting."""
        conn = self._conns.get(node_id)
        return conn is None or conn.disconnected()

    def connection_delay(self, node_id: int) -> float:
        """Seconds before ``node_id`` may be tried again."""
        conn = self._conns.get(node_id)
        return 0.0 if conn is None else conn.connection_delay(time.monotonic())

    def connected_nodes(self) -> List[int]:
        """The nodes that have a connection object (open, opening or in back-off)."""
        return list(self._conns)

    def write_pending(self, node_id: int) -> bool:
        """Whether bytes queued for ``node_id`` are still waiting to be written."""
        conn = self._conns.get(node_id)
        return conn is not None and conn.wants_write()

    def connection_error(self, node_id: int) -> Optional[BaseException]:
        """Why the last connection to ``node_id`` closed, if it did."""
        conn = self._conns.get(node_id)
        return None if conn is None else conn.last_error

    def permanent_failure(self, node_id: int) -> Optional[BaseException]:
        """Why connecting to ``node_id`` can never succeed (see :meth:`fatal_error`), if it cannot."""
        conn = self._conns.get(node_id)
        if conn is None or conn.connected():
            return None
        error = conn.last_error
        return error if is_permanent_failure(error) else None

    def fatal_error(self) -> Optional[BaseException]:
        """A failure no retry will cure, once every known broker has it; else None.

        A broker counts as failed for good when its last connection attempt
        ended with an error no retry cures (a rejected TLS certificate,
        refused SASL credentials, a broken ApiVersions exchange: see
        :func:`~kafka.conn.connection.is_permanent_failure`) or when it
        offers no version of Metadata this client can send. While any
        broker is still untried or usable the answer is None. Callers
        waiting for metadata raise this error instead of timing out.
        """
        # No client lock: callers may hold their own locks (the producer's
        # metadata condition), and single reads of connection state suffice.
        if self._closed:
            return None
        found: Optional[BaseException] = None
        for broker in self.cluster.brokers():
            error = self._node_failure(broker.nodeId)
            if error is None:
                return None
            found = found or error
        return found

    def _node_failure(self, node_id: int) -> Optional[BaseException]:
        conn = self._conns.get(node_id)
        if conn is None or not conn.connected():
            return self.permanent_failure(node_id)
        versions = conn.versions
        if versions is None:
            return None  # versions were not asked for: nothing known against it
        try:
            versions.choose(METADATA)
        except errors.UnsupportedVersionError as exc:
            return exc
        return None

    def _report_unsupported(self, node_id: int, api: Api, error: BaseException) -> None:
        """Log a missing API version once per broker and API, not on every attempt."""
        key = (node_id, api.key)
        if key in self._reported_unsupported:
            return
        self._reported_unsupported.add(key)
        log.error("node %s cannot serve this client: %s", node_id, error)

    def broker_stats(self) -> List[Dict[str, Any]]:
        """One dict per broker connection: ``node_id``, ``host``, ``port``, ``state``, request and byte
        counters (``tx``, ``tx_bytes``, ``rx``, ``rx_bytes``), ``connects``, ``disconnects``,
        ``waitresp_cnt`` (requests awaiting their response) and ``outbuf_cnt`` (not fully written)."""
        with self._lock:
            return [{"node_id": conn.node_id, "host": conn.host, "port": conn.port, "state": conn.state,
                     "tx": conn.tx, "tx_bytes": conn.tx_bytes, "rx": conn.rx, "rx_bytes": conn.rx_bytes,
                     "connects": conn.connects, "disconnects": conn.disconnects,
                     "waitresp_cnt": conn.in_flight_count(), "outbuf_cnt": conn.unwritten_count()}
                    for conn in self._conns.values()]

    def in_flight_request_count(self, node_id: Optional[int] = None) -> int:
        """Requests awaiting responses, on one node or in total."""
        with self._lock:
            conns = [self._conns[node_id]] if node_id in self._conns else (
                [] if node_id is not None else list(self._conns.values()))
            return sum(c.in_flight_count() for c in conns)

    def api_ranges(self, node_id: Optional[int] = None) -> Optional[Dict[int, Tuple[int, int]]]:
        """The ApiVersions ranges (API key -> (min, max)) of ``node_id``, or of any broker when None.

        None until a connection has finished its ApiVersions exchange.
        """
        with self._lock:
            conns = [self._conns.get(node_id)] if node_id is not None else list(self._conns.values())
        for conn in conns:
            if conn is not None and conn.versions is not None:
                return dict(conn.versions.ranges)
        return None

    def api_version(self, api: Api, node_id: int, highest: Optional[int] = None, unsupported_ok: bool = False) -> int:
        """The version of ``api`` negotiated with ``node_id`` (which must be connected).

        Raises UnsupportedVersionError when the broker has none in common,
        logged once as an error unless ``unsupported_ok`` (the caller has
        another way to do without the API).
        """
        conn = self._conns.get(node_id)
        if conn is None or conn.versions is None:
            raise errors.NodeNotReadyError("node %s has not been connected yet" % node_id)
        try:
            return conn.versions.choose(api, highest=highest)
        except errors.UnsupportedVersionError as exc:
            if highest is None and not unsupported_ok:  # a caller's own cap may be lifted by a retry
                self._report_unsupported(node_id, api, exc)
            raise

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` closed the whole client."""
        return self._closed

    def close(self, node_id: Optional[int] = None) -> None:
        """Close one connection, or all of them and the client."""
        try:
            self._close(node_id)
        finally:
            with self._poll_cond:
                self._poll_cond.notify_all()  # threads waiting for the poller see failed requests now

    def _close(self, node_id: Optional[int]) -> None:
        with self._lock:
            if node_id is not None:
                conn = self._conns.get(node_id)
                if conn is not None:
                    conn.close()
                    self._unregister(node_id)
                return
            for nid, conn in list(self._conns.items()):
                conn.close(errors.KafkaConnectionError("client closed"))
                self._unregister(nid)
            self._conns.clear()
            if not self._closed:
                self._closed = True
                self._selector.close()
                self._wake_r.close()
                self._wake_w.close()

    def close_gracefully(self, timeout_ms: float) -> None:
        """Close everything, first letting brokers handle every request they were sent.

        Each connection with nothing left to write is half-closed, and what
        the broker still sends (some brokers answer even Produce with acks=0)
        is read and dropped until it closes its side, for at most
        ``timeout_ms``. Closing at once could reset the connection while the
        broker still holds requests it has read but not handled: a producer
        with acks=0 would lose its last records.
        """
        deadline = time.monotonic() + max(timeout_ms, 0.0) / 1000.0
        with self._lock:
            draining = [] if self._closed else [c for c in self._conns.values() if c.shutdown_output()]
        if draining:
            selector = selectors.DefaultSelector()
            try:
                for conn in draining:
                    selector.register(conn.fileno(), selectors.EVENT_READ, conn)
                waiting = len(draining)
                while waiting:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    for key, _mask in selector.select(left):
                        with self._lock:
                            done = key.data.drain_input()
                        if done:
                            selector.unregister(key.fd)
                            waiting -= 1
            except (OSError, ValueError, KeyError, errors.IllegalStateError):
                pass
            finally:
                selector.close()
        self.close()

    # -- sending ---------------------------------------------------------------------

    def send(self, node_id: int, request: Any, api: Optional[Api] = None, version: Optional[int] = None,
             expect_response: bool = True, timeout_ms: Optional[float] = None) -> ResponseFuture:
        """Send ``request`` to ``node_id``; the future resolves with the response body.

        ``api`` is found from the request's class when not given. Fails the
        future with :class:`NodeNotReadyError` when the node is not connected:
        call :meth:`ready` (and poll) first. ``timeout_ms`` replaces
        ``request_timeout_ms`` for this request.
        """
        if api is None:
            api = api_for(request)
        with self._lock:
            if self._closed:
                return Future().failure(errors.IllegalStateError("client is closed"))
            conn = self._conns.get(node_id)
            if conn is None or not conn.connected():
                self.maybe_connect(node_id)
                return Future().failure(errors.NodeNotReadyError("node %s is not ready" % node_id))
            if expect_response and not conn.can_send_more():
                return Future().failure(errors.NodeNotReadyError(
                    "node %s already has %d requests in flight" % (node_id, conn.in_flight_count())))
            future = conn.send(api, request, version=version, expect_response=expect_response, timeout_ms=timeout_ms)
        if future.is_done and isinstance(future.exception, errors.UnsupportedVersionError):
            self._report_unsupported(node_id, api, future.exception)
        self._wake()
        return future

    # -- polling ------------------------------------------------------------------------

    def wakeup(self) -> None:
        """Interrupt a thread blocked in :meth:`poll`."""
        self._wake()

    def _wake(self) -> None:
        if self._woken or self._closed:
            return
        self._woken = True
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass

    def poll(self, timeout_ms: Optional[float] = None, future: Optional[Future[Any]] = None) -> None:
        """Do network I/O for up to ``timeout_ms`` (returns early when ``future`` is done)."""
        timeout = self.config["request_timeout_ms"] if timeout_ms is None else timeout_ms
        deadline = time.monotonic() + timeout / 1000.0
        while True:
            if self._closed:
                return
            if not self._begin_polling(deadline, future):
                return
            completed: List[Tuple[ResponseFuture, Any]] = []
            try:
                try:
                    completed = self._poll_once(deadline, future)
                finally:
                    with self._poll_cond:
                        self._polling = False
                        self._poll_passes += 1
                for fut, response in completed:
                    if not fut.is_done:
                        self._resolve(fut, response)
            finally:
                with self._poll_cond:
                    self._poll_cond.notify_all()
            if self._events:
                self._emit_events()
            if future is None or future.is_done or time.monotonic() >= deadline:
                return

    def _begin_polling(self, deadline: float, future: Optional[Future[Any]]) -> bool:
        """Become the thread doing the I/O; False when there is no need or time ran out first.

        While another thread polls, wait for it to finish a pass: the
        responses it read are resolved by then, ``future``'s included.
        Waiting for the lock itself instead would leave a caller whose
        response already arrived blocked as long as the other thread keeps
        polling (the producer's sender polls up to a second at a time and
        takes the lock back at once). Without ``future``, the other
        thread's pass stands for the one pass asked for: the caller can
        look at once at what it changed (a connection that became ready).
        """
        with self._poll_cond:
            passes = self._poll_passes
            while self._polling:
                if self._closed or (future is not None and future.is_done):
                    return False
                if future is None and self._poll_passes != passes:
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._poll_cond.wait(left)
            if self._closed:
                return False
            self._polling = True
            return True

    @staticmethod
    def _resolve(future: ResponseFuture, response: Any) -> None:
        future.success(response)

    def _poll_once(self, deadline: float, future: Optional[Future[Any]]) -> List[Tuple[ResponseFuture, Any]]:
        now = time.monotonic()
        self._maybe_update_metadata(now)
        with self._lock:
            self._sync_selector()
            wait = max(min(deadline - now, self._next_deadline(now)), 0.0)
        if future is not None and future.is_done:
            wait = 0.0
        try:
            events = self._selector.select(wait)
        except (OSError, ValueError):
            events = []
        completed: List[Tuple[ResponseFuture, Any]] = []
        with self._lock:
            for key, mask in events:
                node_id = key.data
                if node_id is None:
                    self._drain_wake()
                    continue
                conn = self._conns.get(node_id)
                if conn is None:
                    continue
                if mask & selectors.EVENT_WRITE:
                    # Fire-and-forget requests whose frame is now written complete here.
                    completed.extend(conn.send_pending())
                if mask & selectors.EVENT_READ:
                    received = conn.recv()
                    if self._listener is not None and received:
                        self._note_throttles(conn, received)
                    completed.extend(received)
            now = time.monotonic()
            for conn in list(self._conns.values()):
                if conn.connecting():
                    conn.connect(now)
                if conn.connected() or conn.connecting():
                    completed.extend(conn.send_pending())
                expired = conn.timed_out(now)
                if expired is not None:
                    conn.close(errors.RequestTimedOutError(
                        "%s request to node %s timed out after %d ms" % (
                            expired.api.name, conn.node_id, expired.timeout * 1000.0 if expired.timeout is not None
                            else self.config["request_timeout_ms"])))
            if self._listener is not None:
                self._note_failures()
        # Handshake responses drive the connection state: resolve them now so
        # the next loop turn sees the new state.
        return completed

    # -- events for the client_events listener -----------------------------------------

    def _note_throttles(self, conn: BrokerConnection, received: List[Tuple[ResponseFuture, Any]]) -> None:
        for _future, response in received:
            throttle_ms = getattr(response, "throttle_time_ms", 0)
            if throttle_ms:
                self._events.append(Throttled(conn.node_id, conn.host, conn.port, throttle_ms))

    def _note_failures(self) -> None:
        """Queue a ConnectionFailed per new connection error, and AllBrokersDown on entering that state."""
        for node_id, conn in self._conns.items():
            error = conn.last_error
            if error is not None and self._announced.get(node_id) is not error and not conn.connected():
                self._announced[node_id] = error
                self._events.append(ConnectionFailed(node_id, conn.host, conn.port, error))
        brokers = self.cluster.brokers()
        down = 0
        for broker in brokers:
            known = self._conns.get(broker.nodeId)
            if known is not None and known.connected():
                self._all_down = False
                return
            if known is not None and known.disconnected() and known.last_error is not None:
                down += 1
        if brokers and down == len(brokers) and not self._all_down:
            self._all_down = True
            self._events.append(AllBrokersDown(down, len(brokers)))

    def _emit_events(self) -> None:
        with self._lock:
            events, self._events = self._events, []
        for event in events:
            try:
                self._listener(event)
            except Exception:  # noqa: BLE001 - a listener's failure must not stop the I/O loop
                log.exception("client_events listener failed on %r", event)

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(1024):
                pass
        except OSError:
            pass
        self._woken = False

    def _next_deadline(self, now: float) -> float:
        """Seconds until something needs attention that no socket event will signal."""
        wait = self._metadata_wait(now)
        for conn in self._conns.values():
            if conn.connecting():
                wait = min(wait, conn.setup_deadline() - now)
            expires = conn.next_request_expiry()
            if expires is not None:
                wait = min(wait, expires - now)
        return max(wait, 0.0)

    def _metadata_wait(self, now: float) -> float:
        if not (self._topics or self._all_topics or self.cluster.need_update):
            return 3600.0
        if self._metadata_future is not None and not self._metadata_future.is_done:
            return 3600.0  # the response (or a timeout) will wake us
        ttl = self.cluster.ttl(now)
        if ttl > 0:
            return ttl
        # Due, but no node could take the request: retry when one may be ready.
        delays = [c.connection_delay(now) for c in self._conns.values() if c.disconnected()]
        pending = [d for d in delays if d > 0]
        return min(pending) if pending else self.config["retry_backoff_ms"] / 1000.0

    def _sync_selector(self) -> None:
        for node_id, conn in self._conns.items():
            if conn.sock is None:
                self._unregister(node_id)
                continue
            events = selectors.EVENT_READ
            if conn.wants_write():
                events |= selectors.EVENT_WRITE
            fd = conn.fileno()
            current = self._registered.get(node_id)
            if current == (fd, events):
                continue
            if current is not None:
                self._unregister(node_id)
            try:
                self._selector.register(fd, events, node_id)
                self._registered[node_id] = (fd, events)
            except (KeyError, ValueError, OSError):
                pass

    def _unregister(self, node_id: int) -> None:
        current = self._registered.pop(node_id, None)
        if current is not None:
            try:
                self._selector.unregister(current[0])
            except (KeyError, ValueError, OSError):
                pass

    # -- node choice -----------------------------------------------------------------

    def least_loaded_node(self) -> Optional[int]:
        """A connected node with the fewest requests in flight, else one to connect to."""
        now = time.monotonic()
        brokers = [b.nodeId for b in self.cluster.brokers()]
        best, best_load = None, None
        for node_id in brokers:
            conn = self._conns.get(node_id)
            if conn is not None and conn.connected():
                load = conn.in_flight_count()
                if best_load is None or load < best_load:
                    best, best_load = node_id, load
        if best is not None:
            return best
        for node_id in brokers:
            conn = self._conns.get(node_id)
            if conn is None or not conn.blacked_out(now):
                return node_id
        for node_id in brokers:
            conn = self._conns.get(node_id)
            if conn is not None and conn.connecting():
                return node_id
        return None

    # -- metadata ------------------------------------------------------------------------

    def add_topic(self, topic: str) -> None:
        """Track ``topic`` in metadata refreshes (and refresh soon if new)."""
        if topic not in self._topics:
            self._topics.add(topic)
            self.cluster.request_update()

    def tracked_topics(self) -> Set[str]:
        """The topics metadata refreshes ask about (a copy)."""
        return set(self._topics)

    def metadata_refresh_in_flight(self) -> Optional[ResponseFuture]:
        """The future of the metadata refresh being waited for, if one is."""
        future = self._metadata_future
        return future if future is not None and not future.is_done else None

    def set_topics(self, topics: Iterable[str]) -> None:
        """Track exactly ``topics``."""
        topics = set(topics)
        if topics - self._topics:
            self.cluster.request_update()
        self._topics = topics

    def track_all_topics(self, enabled: bool = True) -> None:
        """Refresh metadata for every topic of the cluster."""
        self._all_topics = enabled
        self.cluster.request_update()

    def _maybe_update_metadata(self, now: float) -> None:
        if self._metadata_future is not None and not self._metadata_future.is_done:
            return
        if not (self._topics or self._all_topics or self.cluster.need_update):
            return
        if self.cluster.ttl(now) > 0:
            return
        node_id = self.least_loaded_node()
        if node_id is None:
            return
        if not self.ready(node_id):
            return
        try:
            version = self.api_version(METADATA, node_id)
        except errors.UnsupportedVersionError as exc:
            # This broker can never answer us (api_version logged it once);
            # fatal_error() tells the waiting callers once no other broker can
            # either. Retry after the back-off.
            self.cluster.failed_update(exc, now)
            return
        topics: Optional[List[Any]]
        if self._all_topics:
            topics = None if version >= 1 else []  # v0 spells "all topics" as an empty list
        else:
            # With nothing tracked this asks for brokers only (v1+).
            topics = [METADATA.Request.MetadataRequestTopic(name=t) for t in sorted(self._topics)]
        # Before v4 every Metadata request could create topics (broker permitting).
        request = METADATA.Request(topics=topics,
                                   allow_auto_topic_creation=version < 4 or self.config["allow_auto_create_topics"])
        self.cluster.attempt_started(now)
        future = self.send(node_id, request, api=METADATA, version=version)
        asked = None if self._all_topics else set(self._topics)
        future.add_callback(self._on_metadata, time.monotonic, asked)
        future.add_errback(self._on_metadata_failure)
        self._metadata_future = future

    def _on_metadata(self, clock: Any, asked: Optional[Set[str]], response: Any) -> None:
        # Topics tracked after this request left are not in its answer: keep
        # what is known of them instead of forgetting them.
        keep = () if asked is None else self._topics - asked
        self.cluster.update_metadata(response, clock(), full=True, keep=keep)

    def _on_metadata_failure(self, exc: BaseException) -> None:
        log.debug("metadata refresh failed: %s", exc)
        self.cluster.failed_update(exc, time.monotonic())

    def _on_metadata_update(self, cluster: ClusterMetadata) -> None:
        # Drop connections to brokers that left or moved.
        with self._lock:
            for node_id, conn in list(self._conns.items()):
                if node_id < 0:
                    continue
                broker = cluster.broker_metadata(node_id)
                if broker is None or (broker.host, broker.port) != (conn.host, conn.port):
                    conn.close(errors.KafkaConnectionError("broker %d left the cluster or moved" % node_id))
                    self._unregister(node_id)
                    del self._conns[node_id]

    def request_metadata_update(self) -> int:
        """Ask for a refresh soon; return the metadata version to wait past."""
        self.cluster.request_update()
        self._wake()
        return self.cluster.version
