"""The asyncio cluster client: bootstrap, metadata, one connection per broker.

:class:`AsyncClient` keeps the cluster view in the engine's sans-IO
:class:`~kafka.cluster.ClusterMetadata` and fills it with Metadata
requests: at :meth:`~AsyncClient.bootstrap`, when a caller waits for a
topic it does not know yet, when an error said the view is stale, and every
``metadata_max_age_ms``. Connections are made on first use and made again
after they fail, one at a time per broker; callers that ask for the same
broker meanwhile share the attempt.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import ssl
import time
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from kafka.aio.connection import AsyncConnection, SaslFactory
from kafka.aio.security import security_settings
from kafka.client.network import parse_bootstrap
from kafka.cluster import ClusterMetadata
from kafka.errors import (
    KafkaConnectionError,
    KafkaError,
    NoBrokersAvailable,
    TopicAuthorizationFailedError,
    UnknownTopicOrPartitionError,
    for_code,
)
from kafka.protocol.apis import METADATA

log = logging.getLogger(__name__)


class AsyncClient:
    """Connections and metadata of one cluster, for the asyncio clients.

    :param bootstrap_servers: ``"host:port"``, a comma-separated string of
        them, or a list.
    :param client_id: sent in every request header.
    :param request_timeout_ms: how long one request waits for its answer.
    :param metadata_max_age_ms: refresh metadata at least this often.
    :param retry_backoff_ms: wait between attempts after a failure.
    :param ssl_context: TLS for every connection (None: plaintext).
    :param sasl_factory: SASL for every connection (None: none).
    :param allow_auto_create_topics: let Metadata requests create unknown topics (broker permitting).
    """

    def __init__(self, bootstrap_servers: Any = "localhost", *, client_id: Optional[str] = "kafkawire",
                 request_timeout_ms: float = 40000, metadata_max_age_ms: int = 300000, retry_backoff_ms: int = 100,
                 ssl_context: Optional[ssl.SSLContext] = None, sasl_factory: Optional[SaslFactory] = None,
                 allow_auto_create_topics: bool = True) -> None:
        self.bootstrap_servers: List[Tuple[str, int]] = parse_bootstrap(bootstrap_servers)
        self.client_id = client_id
        self.request_timeout_ms = request_timeout_ms
        self.retry_backoff = retry_backoff_ms / 1000.0
        self.allow_auto_create_topics = allow_auto_create_topics
        self.cluster = ClusterMetadata(metadata_max_age_ms=metadata_max_age_ms, retry_backoff_ms=retry_backoff_ms)
        self._ssl_context = ssl_context
        self._sasl_factory = sasl_factory
        self._conns: Dict[int, AsyncConnection] = {}
        self._connecting: Dict[int, "asyncio.Future[AsyncConnection]"] = {}
        self._topics: Set[str] = set()
        self._refresh: Optional["asyncio.Future[None]"] = None
        self._closed = False

    # -- connections ------------------------------------------------------------------------

    def new_connection(self, host: str, port: int, node_id: int,
                       request_timeout_ms: Optional[float] = None) -> AsyncConnection:
        """A connection (not connected yet) with this client's id, TLS and SASL settings.

        ``request_timeout_ms`` defaults to the client's; a group member's
        coordinator connection, whose JoinGroup may be held longer, sets its own.
        """
        return AsyncConnection(host, port, node_id=node_id, client_id=self.client_id,
                               ssl_context=self._ssl_context, sasl_factory=self._sasl_factory,
                               request_timeout_ms=request_timeout_ms if request_timeout_ms is not None
                               else self.request_timeout_ms)

    async def connection(self, node_id: int) -> AsyncConnection:
        """The ready connection to broker ``node_id``, connecting (again) when needed."""
        conn = self._conns.get(node_id)
        if conn is not None and conn.connected:
            return conn
        if self._closed:
            raise KafkaConnectionError("the client is closed")
        pending = self._connecting.get(node_id)
        if pending is None:
            pending = asyncio.ensure_future(self._connect(node_id))
            self._connecting[node_id] = pending
            pending.add_done_callback(lambda _f: self._connecting.pop(node_id, None))
            pending.add_done_callback(_consume_error)
        # Shielded: one caller giving up does not abort the attempt the others wait on.
        return await asyncio.shield(pending)

    async def _connect(self, node_id: int) -> AsyncConnection:
        broker = self.cluster.broker_metadata(node_id)
        if broker is None:
            raise KafkaConnectionError("broker %d is not in the cluster metadata" % node_id)
        conn = self.new_connection(broker.host, broker.port, node_id)
        await conn.connect(self.request_timeout_ms / 1000.0)
        old = self._conns.get(node_id)
        if old is not None:
            old.close()
        self._conns[node_id] = conn
        return conn

    def least_loaded_node(self) -> Optional[int]:
        """A broker to ask for metadata: connected with the fewest requests in flight, else any known one."""
        connected = [(c.in_flight, node) for node, c in self._conns.items() if c.connected]
        if connected:
            return min(connected)[1]
        brokers = sorted(b.nodeId for b in self.cluster.brokers())
        return random.choice(brokers) if brokers else None

    # -- bootstrap and metadata ---------------------------------------------------------------

    async def bootstrap(self) -> None:
        """Learn the cluster's brokers from the first bootstrap address that answers.

        Raises :class:`KafkaConnectionError` naming every address and why it
        failed when none answers, as aiokafka does, even when a broker refused
        the login: the last failure (e.g.
        :class:`~kafka.errors.SaslAuthenticationFailedError`) is its ``__cause__``.
        """
        failures = []
        last: Optional[BaseException] = None
        for host, port in self.bootstrap_servers:
            conn = self.new_connection(host, port, -1)
            try:
                await conn.connect(self.request_timeout_ms / 1000.0)
                request = _metadata_request(self._topics, self.allow_auto_create_topics)
                response = await conn.request(METADATA, request)
            except KafkaError as exc:
                failures.append("%s:%d (%s)" % (host, port, exc))
                last = exc
                conn.close()
                await conn.wait_closed()
                continue
            self.cluster.update_metadata(response, time.monotonic())
            conn.close()
            await conn.wait_closed()
            log.debug("bootstrapped from %s:%d: %d brokers", host, port, len(self.cluster.brokers()))
            return
        # aiokafka's class whatever the cause (a refused login too); the cause is chained.
        raise KafkaConnectionError("Unable to bootstrap from %s" % ", ".join(failures or ["no address"])) from last

    def add_topic(self, topic: str) -> bool:
        """Track ``topic`` in metadata refreshes; True if it was not tracked before."""
        if topic in self._topics:
            return False
        self._topics.add(topic)
        self.cluster.request_update()
        return True

    @property
    def topics(self) -> Set[str]:
        """The topics metadata refreshes ask about."""
        return set(self._topics)

    async def refresh_metadata(self) -> None:
        """Ask a broker for metadata of the tracked topics; concurrent callers share one request."""
        if self._refresh is None or self._refresh.done():
            self._refresh = asyncio.ensure_future(self._refresh_once())
            self._refresh.add_done_callback(_consume_error)  # also when every caller gave up
        await asyncio.shield(self._refresh)

    async def cluster_topics(self) -> Set[str]:
        """The names of every topic the cluster has now (one Metadata request for all topics)."""
        node = self.least_loaded_node()
        if node is None:
            await self.refresh_metadata()
            node = self.least_loaded_node()
        if node is None:
            raise NoBrokersAvailable("no broker known")
        conn = await self.connection(node)
        response = await conn.request(METADATA, METADATA.Request(topics=None, allow_auto_topic_creation=False))
        return {t.name for t in response.topics if not t.error_code}

    def request_refresh(self) -> None:
        """Start a metadata refresh in the background (errors are logged, the next one retries)."""
        self.cluster.request_update()
        if self._refresh is None or self._refresh.done():
            self._refresh = asyncio.ensure_future(self._refresh_once())
            self._refresh.add_done_callback(_consume_error)

    async def _refresh_once(self) -> None:
        node = self.least_loaded_node()
        now = time.monotonic()
        self.cluster.attempt_started(now)
        try:
            if node is None:
                await self.bootstrap()
                return
            conn = await self.connection(node)
            asked = set(self._topics)
            response = await conn.request(METADATA, _metadata_request(asked, self.allow_auto_create_topics))
        except KafkaError as exc:
            self.cluster.failed_update(exc, time.monotonic())
            raise
        self.cluster.update_metadata(response, time.monotonic(), full=True, keep=self._topics - asked)
        self._drop_departed()

    def _drop_departed(self) -> None:
        known = {b.nodeId for b in self.cluster.brokers()}
        for node, conn in list(self._conns.items()):
            if node not in known:
                conn.close()
                del self._conns[node]

    def metadata_due(self) -> bool:
        """Whether a refresh is asked for or the view is older than ``metadata_max_age_ms``."""
        return self.cluster.ttl(time.monotonic()) <= 0

    async def wait_for_topic(self, topic: str, timeout: float) -> Set[int]:
        """The partitions of ``topic``, refreshing metadata until it is known or ``timeout`` seconds passed.

        Raises :class:`UnknownTopicOrPartitionError` when the topic stays unknown (as aiokafka does),
        :class:`TopicAuthorizationFailedError` when the broker refuses it.
        """
        partitions = self.cluster.partitions_for_topic(topic)
        if partitions:
            return partitions
        self.add_topic(topic)
        deadline = time.monotonic() + timeout
        while True:
            try:
                await asyncio.wait_for(self.refresh_metadata(), max(deadline - time.monotonic(), 0.001))
            except asyncio.TimeoutError:
                pass
            except KafkaError as exc:
                log.debug("metadata refresh for %r failed: %s", topic, exc)
            partitions = self.cluster.partitions_for_topic(topic)
            if partitions:
                return partitions
            if self.cluster.topic_error(topic) == TopicAuthorizationFailedError.errno:
                raise TopicAuthorizationFailedError(topic)
            left = deadline - time.monotonic()
            if left <= 0:
                # aiokafka's class for this case, whatever the broker said of the topic.
                raise UnknownTopicOrPartitionError("no partitions of topic %r known after %d ms (%s)"
                                                   % (topic, timeout * 1000,
                                                      _topic_problem(self.cluster.topic_error(topic))))
            await asyncio.sleep(min(self.retry_backoff, left))

    # -- closing ------------------------------------------------------------------------------

    async def close(self) -> None:
        """Close every connection and stop refreshing."""
        self._closed = True
        if self._refresh is not None and not self._refresh.done():
            self._refresh.cancel()
        for pending in list(self._connecting.values()):
            pending.cancel()
        conns, self._conns = list(self._conns.values()), {}
        for conn in conns:
            conn.close()
        await asyncio.gather(*(conn.wait_closed() for conn in conns), return_exceptions=True)


def _metadata_request(topics: Iterable[str], allow_auto_create: bool) -> Any:
    """A Metadata request for ``topics`` (brokers only when there are none)."""
    return METADATA.Request(topics=[METADATA.Request.MetadataRequestTopic(name=t) for t in sorted(topics)],
                            allow_auto_topic_creation=allow_auto_create)


def _topic_problem(code: int) -> str:
    cls = for_code(code)
    return "the broker answered %s" % cls.__name__ if cls is not None else "no partitions known"


def _consume_error(future: "asyncio.Future[Any]") -> None:
    if not future.cancelled() and future.exception() is not None:
        log.debug("background metadata refresh failed: %s", future.exception())


#: How many clients of each role were made without a ``client_id`` (their default ids count up).
_unnamed = {"producer": itertools.count(1), "consumer": itertools.count(1)}


def client_for(role: str, bootstrap_servers: Any, client_id: Optional[str], *, request_timeout_ms: float,
               metadata_max_age_ms: int, retry_backoff_ms: int, security_protocol: str,
               ssl_context: Optional[ssl.SSLContext], sasl_mechanism: str, sasl_plain_username: Optional[str],
               sasl_plain_password: Optional[str], sasl_oauth_token_provider: Any,
               allow_auto_create_topics: bool = True) -> AsyncClient:
    """The :class:`AsyncClient` of an asyncio ``role`` (``"producer"`` or ``"consumer"``), from its keywords.

    Security settings are checked now (see :func:`~kafka.aio.security.security_settings`);
    without a ``client_id`` the client is ``aiokafka-<role>-<n>``, as aiokafka names them.
    """
    context, sasl_factory = security_settings(security_protocol, ssl_context, sasl_mechanism, sasl_plain_username,
                                              sasl_plain_password, sasl_oauth_token_provider)
    if client_id is None:
        client_id = "aiokafka-%s-%d" % (role, next(_unnamed[role]))
    return AsyncClient(bootstrap_servers, client_id=client_id, request_timeout_ms=request_timeout_ms,
                       metadata_max_age_ms=metadata_max_age_ms, retry_backoff_ms=retry_backoff_ms,
                       ssl_context=context, sasl_factory=sasl_factory,
                       allow_auto_create_topics=allow_auto_create_topics)
