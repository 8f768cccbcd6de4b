"""The simple layer's client: the kafka-python 0.9.x low-level API on the engine.

:class:`KafkaClient` (also ``kafka.KafkaClient`` and
``kafka.client.KafkaClient``) is the engine's
:class:`~kafka.client.routing.RoutingClient` plus :class:`SimpleClientMixin`,
which gives it the methods 0.9.x code calls -- ``send_produce_request``, ``send_fetch_request``,
``send_offset_request``, ``send_offset_commit_request``,
``send_offset_fetch_request``, ``send_metadata_request``,
``send_consumer_metadata_request``, ``load_metadata_for_topics``,
``ensure_topic_exists`` and friends -- taking and returning the
:mod:`kafka.simple.common` named tuples. Nothing here opens a socket: every request
goes through the engine (:class:`~kafka.client.routing.RoutingClient`), so it
is sent at the version negotiated with each broker, over the client's shared
pipelined connections.

How the 0.9 calls behave
------------------------

* Payloads are routed to the leader of their partition: one request per
  leader, all leaders at once, and the responses come back in the order of
  the payloads. Offset commits and fetches go to the group's coordinator.
* Retriable errors (a moved leader, a leader election, a lost connection,
  ...) are retried a few times (:attr:`SimpleClientMixin.simple_retries`),
  refreshing metadata first when the error says it is stale. What still
  fails afterwards is reported as below.
* ``fail_on_error=True`` (the default) raises the first failure in payload
  order: a broker error code as its :mod:`kafka.simple.common` error class (which
  carries ``errno`` and ``message``) with the response tuple as argument, and
  a payload that could not be sent or answered (connection lost, broker
  down, no answer in time) as :class:`~kafka.simple.common.FailedPayloadsError`,
  whose ``payload`` is the request tuple that failed.
* ``fail_on_error=False`` returns these in place: the response tuple with a
  non-zero ``error``, or the :class:`~kafka.simple.common.FailedPayloadsError`
  instance.
* ``callback(response)`` is applied to each entry, and the list holds what
  it returns.
* Topic names may be ``str`` or ``bytes``; each response carries back the
  very topic object of its payload (``b'my-topic'`` in, ``b'my-topic'`` out).
  Metadata read from the cluster (``topics``, ``topic_partitions``, ...)
  names topics with ``str``, and every lookup accepts either.
* Before sending, topics the client has no current metadata for are looked
  up with a Metadata request that lets the broker auto-create them, as
  0.9.x did. A topic or partition that does not exist fails at once with
  :class:`~kafka.simple.common.UnknownTopicOrPartitionError` instead of being
  retried.

Differences from 0.9.x, forced by today's brokers: messages are sent as one
record batch (format v2) per partition; ``send_offset_fetch_request`` and
``send_offset_fetch_request_kafka`` both read the offsets Kafka keeps (no
broker keeps them in ZooKeeper any more); commits are made outside any group
generation, as the simple consumers did.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from kafka import errors
from kafka.client import topic_ids
from kafka.client.fetch_request import PartitionFetch, build_fetch_request
from kafka.client.network import DEFAULT_CONFIG
from kafka.client.routing import RoutingClient
from kafka.cluster import COORDINATOR_GROUP
from kafka.config_checks import check_number
from kafka.simple.common import (
    BrokerMetadata,
    ConsumerMetadataRequest,
    ConsumerMetadataResponse,
    FailedPayloadsError,
    FetchResponse,
    MetadataRequest,
    MetadataResponse,
    OffsetCommitResponse,
    OffsetFetchResponse,
    OffsetResponse,
    PartitionMetadata,
    ProduceResponse,
    TopicAndPartition,
    TopicMetadata,
    check_error,
)
from kafka.simple.connection import DEFAULT_SOCKET_TIMEOUT_SECONDS, collect_hosts
from kafka.protocol.apis import FETCH, FIND_COORDINATOR, LIST_OFFSETS, METADATA, OFFSET_COMMIT, OFFSET_FETCH, PRODUCE
from kafka.simple.protocol import FetchedMessages, _produce_records, _text, _text_or_none, offsets_of
from kafka.protocol.list_offsets import OffsetQuery, list_offsets_request, listed_offsets
from kafka.protocol.schema import Api
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

_NOT_GIVEN: Any = object()
_NO_TOPIC_ID = uuid.UUID(int=0)
_MAX_INT32 = 0x7FFFFFFF
#: ``timeout=None`` (no limit) in the 0.9 constructor becomes this request timeout.
_UNLIMITED_MS = _MAX_INT32
_LEADER_NOT_AVAILABLE = errors.LeaderNotAvailableError.errno
#: Codes that mean "ask the group coordinator again" (load in progress, moved, unavailable).
_COORDINATOR_CODES = frozenset([errors.CoordinatorLoadInProgressError.errno,
                                errors.CoordinatorNotAvailableError.errno,
                                errors.NotCoordinatorError.errno])

Callback = Optional[Callable[[Any], Any]]


def _name(topic: Any) -> str:
    """A topic name as ``str`` (the 0.9 API accepts ``bytes`` too)."""
    return _text(topic)


def _address(host: str, port: int) -> str:
    return "[%s]:%d" % (host, port) if ":" in host else "%s:%d" % (host, port)


def _unlisted_broker(node_id: int) -> BrokerMetadata:
    """What 0.9 reported for a leader missing from the broker list: its id, with host and port None."""
    # None where BrokerMetadata's types say str and int: 0.9 callers test for it.
    return BrokerMetadata._make((node_id, None, None))


class _TopicKeyDict(dict):
    """A dict keyed by topic name (``str``) that also finds ``bytes`` keys.

    Keys that are :class:`~kafka.simple.common.TopicAndPartition` pairs are
    normalised the same way.
    """

    @staticmethod
    def _key(key: Any) -> Any:
        if isinstance(key, (bytes, bytearray)):
            return bytes(key).decode("utf-8", "replace")
        if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], (bytes, bytearray)):
            return TopicAndPartition(bytes(key[0]).decode("utf-8", "replace"), key[1])
        return key

    def __getitem__(self, key: Any) -> Any:
        return super().__getitem__(self._key(key))

    def __contains__(self, key: Any) -> bool:
        return super().__contains__(self._key(key))

    def get(self, key: Any, default: Any = None) -> Any:
        return super().get(self._key(key), default)


class SimpleClientMixin:
    """The kafka-python 0.9.x ``KafkaClient`` methods; see the module documentation.

    Mixed into :class:`KafkaClient` ahead of
    :class:`~kafka.client.routing.RoutingClient`, whose public methods it uses.

    The constructor takes both forms::

        KafkaClient("host1:9092,host2:9092", client_id="app", timeout=120)   # 0.9
        KafkaClient(bootstrap_servers="host1:9092", request_timeout_ms=30000)  # modern

    0.9 form: ``hosts`` is a ``"host:port,host:port"`` string or a list
    (shuffled, as 0.9.x did), ``client_id`` defaults to ``'kafka-python'``
    and ``timeout`` (seconds, default 120; ``None`` for no limit) becomes the
    request timeout. ``correlation_id`` is accepted and kept as an attribute;
    the engine numbers requests per connection itself. Any modern setting
    (the keys of :data:`kafka.client.network.DEFAULT_CONFIG`) may be added as
    a keyword in either form.
    """

    #: Default client id of the 0.9 constructor form.
    CLIENT_ID = "kafka-python"
    #: How many times a 0.9 call retries payloads that failed with a
    #: retriable error (the engine's back-off and metadata refresh apply).
    simple_retries = 3

    @property
    def classic_retries(self) -> int:
        """The earlier name of :attr:`simple_retries`."""
        return self.simple_retries

    @classic_retries.setter
    def classic_retries(self, value: int) -> None:
        self.simple_retries = value

    # Engine attributes this mixin relies on (provided by RoutingClient).
    config: Dict[str, Any]
    cluster: Any

    def __init__(self, hosts: Any = None, client_id: Any = _NOT_GIVEN, timeout: Any = _NOT_GIVEN,
                 correlation_id: int = 0, **configs: Any) -> None:
        if hosts is not None:
            if "bootstrap_servers" in configs:
                raise errors.KafkaConfigurationError("give hosts or bootstrap_servers, not both")
            try:
                self.hosts = collect_hosts(hosts)
            except (TypeError, ValueError) as exc:
                raise errors.KafkaConfigurationError("bad hosts %r: %s" % (hosts, exc)) from None
            if not self.hosts:
                raise errors.KafkaConfigurationError("hosts names no broker: %r" % (hosts,))
            configs["bootstrap_servers"] = [_address(h, p) for h, p in self.hosts]
            if client_id is _NOT_GIVEN:
                client_id = self.CLIENT_ID
            if timeout is _NOT_GIVEN:
                timeout = DEFAULT_SOCKET_TIMEOUT_SECONDS
        else:
            try:
                self.hosts = collect_hosts(configs.get("bootstrap_servers", DEFAULT_CONFIG["bootstrap_servers"]),
                                           randomize=False)
            except (TypeError, ValueError):
                self.hosts = []  # the engine reports what is wrong with bootstrap_servers
        if client_id is not _NOT_GIVEN:
            configs["client_id"] = client_id.decode("utf-8") if isinstance(client_id, bytes) else client_id
        if timeout is not _NOT_GIVEN:
            if "request_timeout_ms" in configs:
                raise errors.KafkaConfigurationError("give timeout (seconds) or request_timeout_ms, not both")
            check_number("timeout", timeout, none_ok=True)
            timeout_ms = _UNLIMITED_MS if timeout is None else int(timeout * 1000)
            if timeout_ms <= 0:
                raise errors.KafkaConfigurationError("timeout must be positive, got %r" % (timeout,))
            configs["request_timeout_ms"] = timeout_ms
            configs.setdefault("socket_connection_setup_timeout_ms",
                               min(timeout_ms, DEFAULT_CONFIG["socket_connection_setup_timeout_ms"]))
        self.correlation_id = correlation_id
        self._reset_all_at = -1
        self._reset_at: Dict[str, int] = {}
        super().__init__(**configs)

    # -- 0.9 attributes -----------------------------------------------------------

    @property
    def client_id(self) -> str:
        """The client id sent in every request header."""
        return self.config["client_id"]

    @property
    def timeout(self) -> Optional[float]:
        """The request timeout in seconds (``None`` when unlimited)."""
        ms = self.config["request_timeout_ms"]
        return None if ms >= _UNLIMITED_MS else ms / 1000.0

    def engine_config(self) -> Dict[str, Any]:
        """This client's settings of the engine's client (the keys of :data:`kafka.client.network.DEFAULT_CONFIG`).

        ``KafkaClient(**client.engine_config())`` builds a client like this one.
        """
        return {key: self.config[key] for key in DEFAULT_CONFIG}

    # -- metadata views -----------------------------------------------------------------

    def _visible(self, topic: str) -> bool:
        """Whether metadata of ``topic`` is current: known, and not reset since the last update."""
        version = self.cluster.version
        if version <= self._reset_all_at or version <= self._reset_at.get(topic, -1):
            return False
        return self.cluster.topic_error(topic) != errors.UnknownTopicOrPartitionError.errno

    def _known_partitions(self, topic: str) -> Dict[int, Any]:
        if not self._visible(topic):
            return {}
        partitions = self.cluster.partitions_for_topic(topic) or ()
        out = {}
        for partition in partitions:
            meta = self.cluster.partition_metadata(TopicPartition(topic, partition))
            if meta is not None:
                out[partition] = meta
        return out

    @property
    def topics(self) -> List[str]:
        """Names of the topics the client has metadata for."""
        return sorted(t for t in self.cluster.topics() if self._known_partitions(t))

    @property
    def topic_partitions(self) -> Dict[str, Dict[int, PartitionMetadata]]:
        """``{topic: {partition: PartitionMetadata}}`` for every known topic (a snapshot)."""
        out = _TopicKeyDict()
        for topic in self.topics:
            out[topic] = {p: PartitionMetadata(topic, p, m.leader, tuple(m.replicas), tuple(m.isr), m.error)
                          for p, m in self._known_partitions(topic).items()}
        return out

    @property
    def topics_to_brokers(self) -> Dict[TopicAndPartition, Optional[BrokerMetadata]]:
        """``{TopicAndPartition: BrokerMetadata of its leader}`` (``None`` while leaderless; a snapshot)."""
        out = _TopicKeyDict()
        for topic in self.topics:
            for partition, meta in self._known_partitions(topic).items():
                leader = None
                if meta.leader >= 0:
                    broker = self.cluster.broker_metadata(meta.leader)
                    leader = (BrokerMetadata(broker.nodeId, broker.host, broker.port) if broker is not None
                              else _unlisted_broker(meta.leader))
                out[TopicAndPartition(topic, partition)] = leader
        return out

    @property
    def brokers(self) -> Dict[int, BrokerMetadata]:
        """``{node id: BrokerMetadata}`` of the brokers metadata named (bootstrap ones excluded)."""
        return {b.nodeId: BrokerMetadata(b.nodeId, b.host, b.port)
                for b in self.cluster.brokers() if b.nodeId >= 0}

    def has_metadata_for_topic(self, topic: Any) -> bool:
        """Whether the client has current metadata for ``topic`` with at least one partition."""
        return bool(self._known_partitions(_name(topic)))

    def get_partition_ids_for_topic(self, topic: Any) -> List[int]:
        """The partition numbers of ``topic``, sorted; empty when it has no metadata."""
        return sorted(self._known_partitions(_name(topic)))

    def reset_topic_metadata(self, *topics: Any) -> None:
        """Forget what is known about ``topics`` until metadata is next refreshed."""
        version = self.cluster.version
        for topic in topics:
            self._reset_at[_name(topic)] = version
        self.cluster.request_update()

    def reset_all_metadata(self) -> None:
        """Forget what is known about every topic until metadata is next refreshed."""
        self._reset_all_at = self.cluster.version
        self._reset_at.clear()
        self.cluster.request_update()

    # -- metadata requests ------------------------------------------------------------------

    def _ensure_open(self) -> None:
        # 0.9.x connections reopened on use after close(); so does this client.
        if self.closed:  # type: ignore[attr-defined]
            self.reinit()

    def _request_metadata(self, names: Sequence[str], timeout_ms: Optional[float] = None) -> Any:
        """Send a Metadata request (auto-creation allowed) to any broker; the raw response.

        Raises :class:`~kafka.simple.common.KafkaUnavailableError` when no broker answers.
        """
        def build(version: int) -> Any:
            Topic = METADATA.Request.MetadataRequestTopic
            if names:
                topics: Optional[List[Any]] = [Topic(name=n) for n in names]
            else:
                topics = [] if version == 0 else None  # "every topic"
            return METADATA.Request(topics=topics, allow_auto_topic_creation=True)

        self._ensure_open()
        try:
            response = self.send_to_any(None, timeout_ms, api=METADATA, build=build)  # type: ignore[attr-defined]
        except (errors.NoBrokersAvailable, errors.KafkaTimeoutError, errors.KafkaConnectionError,
                errors.NodeNotReadyError) as exc:
            raise errors.KafkaUnavailableError("All servers failed to process request: %s" % (exc,)) from exc
        code = getattr(response, "error_code", 0) or 0
        if code:
            cls = errors.for_code(code)
            raise cls("Metadata request failed")  # type: ignore[misc]
        return response

    def _learn_metadata(self, response: Any) -> None:
        """Merge a Metadata response into the cluster view and keep its topics tracked."""
        for topic in response.topics or ():
            if topic.name and topic.error_code in (0, _LEADER_NOT_AVAILABLE):
                self.add_topic(topic.name)  # type: ignore[attr-defined]
        self.cluster.update_metadata(response, time.monotonic(), full=False)

    def _wait_for_engine_refresh(self, timeout_ms: float) -> None:
        # A refresh already in flight does not name topics tracked after it
        # left; let it land first so it cannot drop what we are about to learn.
        future = self.metadata_refresh_in_flight()  # type: ignore[attr-defined]
        if future is not None:
            try:
                self.wait_for(future, timeout_ms)  # type: ignore[attr-defined]
            except errors.KafkaError:
                pass

    def _load_topics(self, names: Sequence[str], timeout_ms: Optional[float] = None) -> Any:
        self._ensure_open()
        self._wait_for_engine_refresh(min(self.config["request_timeout_ms"], 5000))
        response = self._request_metadata(names, timeout_ms)
        self._learn_metadata(response)
        return response

    def _metadata_tuples(self, response: Any, callers: Dict[str, Any]) -> MetadataResponse:
        brokers = [BrokerMetadata(b.node_id, b.host, b.port) for b in response.brokers or ()]
        topics = []
        for topic in response.topics or ():
            name = callers.get(topic.name, topic.name)
            partitions = [PartitionMetadata(name, p.partition_index, p.leader_id, tuple(p.replica_nodes or ()),
                                            tuple(p.isr_nodes or ()), p.error_code)
                          for p in topic.partitions or ()]
            topics.append(TopicMetadata(name, topic.error_code, partitions))
        return MetadataResponse(brokers, topics)

    def send_metadata_request(self, payloads: Any = (), fail_on_error: bool = True,
                              callback: Callback = None) -> Any:
        """Ask any broker for metadata of the topics in ``payloads`` (all topics if empty).

        ``payloads`` is a list of topic names (or a
        :class:`~kafka.simple.common.MetadataRequest`). Returns a
        :class:`~kafka.simple.common.MetadataResponse` (or ``callback`` of it);
        per-topic errors are in its ``TopicMetadata.error`` fields.
        Brokers that auto-create topics create the ones named.
        Raises :class:`~kafka.simple.common.KafkaUnavailableError` when no broker
        answers. The client's own metadata is not changed (see
        :meth:`load_metadata_for_topics`).
        """
        if isinstance(payloads, MetadataRequest):
            payloads = payloads.topics
        if isinstance(payloads, (str, bytes)):
            payloads = [payloads]
        callers = {_name(t): t for t in payloads or ()}
        response = self._metadata_tuples(self._request_metadata(list(callers)), callers)
        return callback(response) if callback else response

    def load_metadata_for_topics(self, *topics: Any, ignore_leadernotavailable: bool = False) -> None:
        """Refresh brokers and topic metadata from the cluster.

        With ``topics``, only those are refreshed (brokers that auto-create
        topics create them), and an error for one of them is raised:
        :class:`~kafka.simple.common.UnknownTopicOrPartitionError` when it does not
        exist, :class:`~kafka.simple.common.LeaderNotAvailableError` while a new
        topic is being set up (unless ``ignore_leadernotavailable``). Without
        ``topics`` every topic of the cluster is loaded and topic errors are
        only logged. Partition-level errors are never raised.
        """
        callers: Dict[str, Any] = {}
        for topic in topics:
            callers.setdefault(_name(topic), topic)
        names = list(callers)
        if names:
            self.reset_topic_metadata(*names)
        else:
            self.reset_all_metadata()
        response = self._load_topics(names)
        if not names:
            self._reset_all_at = -1
        first_error: Optional[BaseException] = None
        for topic in self._metadata_tuples(response, callers).topics:
            if not topic.error:
                continue
            name = _name(topic.topic)
            cls = errors.for_code(topic.error)
            if name not in callers:
                log.error("error loading metadata of topic %s: %s", name, cls.__name__ if cls else topic.error)
                continue
            if topic.error == _LEADER_NOT_AVAILABLE and ignore_leadernotavailable:
                continue
            if first_error is None and cls is not None:
                first_error = cls(topic)
        if first_error is not None:
            raise first_error

    def ensure_topic_exists(self, topic: Any, timeout: float = 30) -> None:
        """Wait up to ``timeout`` seconds until metadata of ``topic`` has partitions.

        Brokers that auto-create topics create it. Raises
        :class:`~kafka.simple.common.UnknownTopicOrPartitionError` at once when the
        broker does not create it, and
        :class:`~kafka.simple.common.KafkaTimeoutError` when it is not ready in time.
        """
        name = _name(topic)
        deadline = time.monotonic() + timeout
        while not self.has_metadata_for_topic(name):
            if time.monotonic() > deadline:
                raise errors.KafkaTimeoutError("Unable to create topic {0}".format(name))
            try:
                self.load_metadata_for_topics(name, ignore_leadernotavailable=True)
            except errors.LeaderNotAvailableError:
                pass
            if not self.has_metadata_for_topic(name):
                time.sleep(min(self.config["retry_backoff_ms"] / 1000.0, max(deadline - time.monotonic(), 0)))

    # -- the 0.9 request plumbing -----------------------------------------------------

    def _topic_id(self, name: str) -> uuid.UUID:
        return self.cluster.topic_id(name) or _NO_TOPIC_ID

    @staticmethod
    def _response_topic(entry: Any, field: str, ids: Dict[uuid.UUID, str]) -> Optional[str]:
        topic_id = getattr(entry, "topic_id", None)
        if topic_id is not None and topic_id.int and topic_id in ids:
            return ids[topic_id]
        return getattr(entry, field, None)

    def _route_errors(self, keys: Sequence[Tuple[str, int]]) -> Dict[int, BaseException]:
        """Errors of payloads that cannot be routed at all, by payload index.

        Topics without current metadata are looked up first (which lets
        brokers auto-create them). A topic the broker says does not exist, or
        a partition it does not have, fails at once.
        """
        stale = sorted({t for t, p in keys
                        if not self._visible(t) or self.cluster.topic_error(t)
                        or p not in (self.cluster.partitions_for_topic(t) or ())})
        lookup_error: Optional[BaseException] = None
        if stale:
            try:
                self._load_topics(stale)
            except errors.KafkaError as exc:
                log.debug("metadata lookup of %s failed: %s", stale, exc)
                lookup_error = exc
        failed: Dict[int, BaseException] = {}
        for index, (topic, partition) in enumerate(keys):
            if lookup_error is not None and self.cluster.partitions_for_topic(topic) is None:
                failed[index] = lookup_error  # no broker told us anything about it
                continue
            code = self.cluster.topic_error(topic)
            if code and code != _LEADER_NOT_AVAILABLE:
                cls = errors.for_code(code)
                if cls is not None and not (cls.retriable and cls is not errors.UnknownTopicOrPartitionError):
                    failed[index] = cls("topic %s" % topic)
                continue
            partitions = self.cluster.partitions_for_topic(topic)
            if not code and partitions and partition not in partitions:
                failed[index] = errors.UnknownTopicOrPartitionError("%s-%d" % (topic, partition))
        return failed

    def _failed(self, payload: Any, error: BaseException) -> FailedPayloadsError:
        failure = FailedPayloadsError(payload, str(error))
        failure.__cause__ = error
        return failure

    def _finish(self, payloads: Sequence[Any], outcomes: Sequence[Tuple[Optional[BaseException], Any]],
                error_response: Callable[[Any, int], Any], fail_on_error: bool, callback: Callback) -> List[Any]:
        """Turn outcomes into the 0.9 result list (see the module documentation)."""
        responses: List[Any] = []
        stale_topics = []
        broker_failures = False
        for payload, (error, value) in zip(payloads, outcomes):
            if error is None:
                responses.append(None if value is None else value._replace(topic=payload.topic))
                continue
            if value is None:
                # No answer for this payload. A broker error code (from the
                # metadata lookup) still makes an error response; anything
                # else -- no connection, no answer in time -- a failed payload.
                transport_timeout = isinstance(error, errors.RequestTimedOutError)
                if not isinstance(error, errors.BrokerResponseError) or transport_timeout:
                    responses.append(self._failed(payload, error))
                    broker_failures = True
                    continue
                value = error_response(payload, -1 if error.errno is None else error.errno)
            responses.append(value._replace(topic=payload.topic))
            if getattr(error, "invalid_metadata", False):
                stale_topics.append(payload.topic)
        if broker_failures:
            self.reset_all_metadata()  # a lost broker usually means stale metadata
        elif stale_topics:
            self.reset_topic_metadata(*stale_topics)
        out = []
        for response in responses:
            if response is None:
                continue  # acks=0: no response
            if fail_on_error:
                check_error(response)
            out.append(callback(response) if callback else response)
        return out

    def _dispatch(self, api: Api, payloads: Any, build: Callable[[int, List[Tuple[TopicPartition, Any]]], Any],
                  parse: Callable[[Any], Dict[Tuple[str, int], Tuple[int, Any]]],
                  error_response: Callable[[Any, int], Any], fail_on_error: bool, callback: Callback,
                  extra_ms: float = 0, retry_on_timeouts: bool = True) -> List[Any]:
        payloads = list(payloads or ())
        if not payloads:
            return []
        self._ensure_open()
        keys = [(_name(p.topic), p.partition) for p in payloads]
        outcomes: List[Tuple[Optional[BaseException], Any]] = [(None, None)] * len(payloads)
        failed = self._route_errors(keys)
        for index, error in failed.items():
            outcomes[index] = (error, None)
        todo = [i for i in range(len(payloads)) if i not in failed]
        if todo:
            items = [(TopicPartition(*keys[i]), payloads[i]) for i in todo]
            results = self.dispatch_by_leader(  # type: ignore[attr-defined]
                api, items, lambda node_id, version, parts: build(version, parts), parse,
                timeout_ms=self.config["request_timeout_ms"] + extra_ms, retries=self.simple_retries,
                retry_on_timeouts=retry_on_timeouts)
            for index, result in zip(todo, results):
                outcomes[index] = (result.error, result.value)
        return self._finish(payloads, outcomes, error_response, fail_on_error, callback)

    # -- Produce ----------------------------------------------------------------------------

    def send_produce_request(self, payloads: Any = (), acks: int = 1, timeout: int = 1000,
                             fail_on_error: bool = True, callback: Callback = None) -> List[Any]:
        """Send :class:`~kafka.simple.common.ProduceRequest` payloads to their partitions' leaders.

        :param payloads: ``ProduceRequest(topic, partition, messages)`` tuples;
            each partition's messages become one record batch.
        :param acks: 0 (no response), 1 (the leader wrote them), -1 (every
            in-sync replica has them), as in 0.9.x.
        :param timeout: how long (ms) the broker may wait for ``acks``.
        :param fail_on_error: raise the first failure, or return failures in
            place (see the module documentation).
        :param callback: applied to each response; the list holds its results.
        :returns: a :class:`~kafka.simple.common.ProduceResponse` per payload, in
            payload order (``offset`` is that of the first message written).
            With ``acks=0`` the broker sends nothing back and the list is
            empty (apart from payloads that could not be sent, when
            ``fail_on_error`` is false).

        A timed-out produce is not resent (the broker may have written it).
        """
        def build(version: int, parts: List[Tuple[TopicPartition, Any]]) -> Any:
            Topic = PRODUCE.Request.TopicProduceData
            by_topic: Dict[str, List[Any]] = {}
            for tp, payload in parts:
                records = _produce_records(list(payload.messages), version)
                by_topic.setdefault(tp.topic, []).append(
                    Topic.PartitionProduceData(index=tp.partition, records=records))
            for name in by_topic:
                ids[self._topic_id(name)] = name
            return PRODUCE.Request(transactional_id=None, acks=acks, timeout_ms=timeout, topic_data=[
                Topic(name=name, topic_id=self._topic_id(name), partition_data=parts_)
                for name, parts_ in by_topic.items()])

        def parse(response: Any) -> Dict[Tuple[str, int], Tuple[int, Any]]:
            out = {}
            for topic in response.responses or ():
                name = self._response_topic(topic, "name", ids)
                if name is None:
                    continue  # an id we did not send: about no payload
                for part in topic.partition_responses or ():
                    out[(name, part.index)] = (part.error_code, ProduceResponse(
                        name, part.index, part.error_code, part.base_offset))
            return out

        ids: Dict[uuid.UUID, str] = {}
        if acks == 0:
            return self._produce_without_acks(list(payloads or ()), build, fail_on_error, callback)
        return self._dispatch(PRODUCE, payloads, build, parse,
                              lambda p, code: ProduceResponse(p.topic, p.partition, code, -1),
                              fail_on_error, callback, extra_ms=max(timeout, 0), retry_on_timeouts=False)

    def _produce_without_acks(self, payloads: List[Any], build: Callable[[int, List[Any]], Any],
                              fail_on_error: bool, callback: Callback) -> List[Any]:
        """Produce with acks=0: send to each leader and wait until the bytes are written."""
        if not payloads:
            return []
        self._ensure_open()
        keys = [(_name(p.topic), p.partition) for p in payloads]
        outcomes: List[Tuple[Optional[BaseException], Any]] = [(None, None)] * len(payloads)
        deadline = time.monotonic() + self.config["request_timeout_ms"] / 1000.0
        failed = self._route_errors(keys)
        groups: Dict[int, List[int]] = {}
        for index in range(len(payloads)):
            if index in failed:
                outcomes[index] = (failed[index], None)
                continue
            try:
                leader = self.leader_for(TopicPartition(*keys[index]),  # type: ignore[attr-defined]
                                         max((deadline - time.monotonic()) * 1000.0, 0.0))
            except errors.KafkaError as exc:
                outcomes[index] = (exc, None)
                continue
            groups.setdefault(leader, []).append(index)
        sent = []
        for node_id, indexes in groups.items():
            try:
                left_ms = max((deadline - time.monotonic()) * 1000.0, 0.0)
                if not self.await_ready(node_id, left_ms):  # type: ignore[attr-defined]
                    raise self.connection_error(node_id) or errors.NodeNotReadyError(  # type: ignore[attr-defined]
                        "node %s did not become ready" % node_id)
                version = topic_ids.choose_version(self, PRODUCE, node_id, topic_ids.ids_by_name(
                    self.cluster, {keys[i][0] for i in indexes}))
                request = build(version, [(TopicPartition(*keys[i]), payloads[i]) for i in indexes])
                future = self.send(node_id, request, api=PRODUCE, version=version,  # type: ignore[attr-defined]
                                   expect_response=False)
                if future.exception is not None:
                    raise future.exception
                sent.append((node_id, indexes))
            except errors.KafkaError as exc:
                for i in indexes:
                    outcomes[i] = (exc, None)
        # Nothing comes back: the request is done once its bytes are on the wire.
        while time.monotonic() < deadline:
            pending = [n for n, _ in sent if self.write_pending(n)]  # type: ignore[attr-defined]
            if not pending:
                break
            self.poll(timeout_ms=min(max((deadline - time.monotonic()) * 1000.0, 0.0), 50.0))  # type: ignore
        for node_id, indexes in sent:
            if not self.connected(node_id) or self.write_pending(node_id):  # type: ignore[attr-defined]
                error = self.connection_error(node_id) or errors.KafkaTimeoutError(  # type: ignore[attr-defined]
                    "the request to node %s was not written in time" % node_id)
                for i in indexes:
                    outcomes[i] = (error, None)
        return self._finish(payloads, outcomes, lambda p, code: ProduceResponse(p.topic, p.partition, code, -1),
                            fail_on_error, callback)

    # -- Fetch ------------------------------------------------------------------------------

    def send_fetch_request(self, payloads: Any = (), fail_on_error: bool = True, callback: Callback = None,
                           max_wait_time: int = 100, min_bytes: int = 4096) -> List[Any]:
        """Fetch from partitions (:class:`~kafka.simple.common.FetchRequest` payloads) at their leaders.

        :param payloads: ``FetchRequest(topic, partition, offset, max_bytes)`` tuples.
        :param max_wait_time: how long (ms) a broker may wait for ``min_bytes``.
        :param min_bytes: how much data a broker should gather before answering.
        :returns: a :class:`~kafka.simple.common.FetchResponse` per payload, in payload
            order. Its ``messages`` yields :class:`~kafka.simple.common.OffsetAndMessage`
            entries; a batch may start before the offset asked for, so
            skipping lower offsets is up to the caller, as in 0.9.x.
        """
        def build(version: int, parts: List[Tuple[TopicPartition, Any]]) -> Any:
            wanted = []
            for tp, payload in parts:
                requested.add((tp.topic, tp.partition))
                wanted.append(PartitionFetch(tp.topic, tp.partition, payload.offset, payload.max_bytes))
            by_name = {p.topic: self._topic_id(p.topic) for p in wanted}
            for name, topic_id in by_name.items():
                ids[topic_id] = name
            return build_fetch_request(wanted, by_name, max_wait_ms=max_wait_time, min_bytes=min_bytes)

        def parse(response: Any) -> Dict[Tuple[str, int], Tuple[int, Any]]:
            code = getattr(response, "error_code", 0) or 0
            if code:  # an error for the whole request (v7+)
                return {key: (code, fetch_error(key, code)) for key in requested}
            out = {}
            for topic in response.responses or ():
                name = self._response_topic(topic, "topic", ids)
                if name is None:
                    continue  # an id we did not send: about no payload
                for part in topic.partitions or ():
                    out[(name, part.partition_index)] = (part.error_code, FetchResponse(
                        name, part.partition_index, part.error_code, part.high_watermark,
                        FetchedMessages(part.records)))
            return out

        def fetch_error(payload: Any, code: int) -> FetchResponse:
            return FetchResponse(payload[0], payload[1], code, -1, FetchedMessages(b""))

        ids: Dict[uuid.UUID, str] = {}
        requested: Set[Tuple[str, int]] = set()
        return self._dispatch(FETCH, payloads, build, parse, lambda p, code: fetch_error(p, code),
                              fail_on_error, callback, extra_ms=max(max_wait_time, 0))

    # -- ListOffsets -------------------------------------------------------------------------

    def send_offset_request(self, payloads: Any = (), fail_on_error: bool = True,
                            callback: Callback = None) -> List[Any]:
        """Look up offsets by time (:class:`~kafka.simple.common.OffsetRequest` payloads) at the leaders.

        ``time`` is ``-1`` for the latest offset (the next one to be
        written), ``-2`` for the earliest, or a timestamp in ms. Returns an
        :class:`~kafka.simple.common.OffsetResponse` per payload whose ``offsets``
        holds the one offset found (brokers answer one offset per partition
        since Kafka 0.10.1, whatever ``max_offsets`` says).
        """
        def build(version: int, parts: List[Tuple[TopicPartition, Any]]) -> Any:
            return list_offsets_request([OffsetQuery(tp.topic, tp.partition, payload.time,
                                                     max_num_offsets=payload.max_offsets) for tp, payload in parts],
                                        timeout_ms=self.config["request_timeout_ms"])

        def parse(response: Any) -> Dict[Tuple[str, int], Tuple[int, Any]]:
            return {(topic, partition): (found.error_code, OffsetResponse(
                        topic, partition, found.error_code, offsets_of(found, False)))
                    for (topic, partition), found in listed_offsets(response).items()}

        return self._dispatch(LIST_OFFSETS, payloads, build, parse,
                              lambda p, code: OffsetResponse(p.topic, p.partition, code, ()),
                              fail_on_error, callback)

    # -- group coordinator requests -------------------------------------------------------

    def _to_coordinator(self, group: Any, api: Api, payloads: Any, build: Callable[[int], Any],
                        parse: Callable[[Any], Tuple[Dict[Tuple[str, int], Any], int]],
                        error_response: Callable[[Any, int], Any], fail_on_error: bool,
                        callback: Callback) -> List[Any]:
        """Send one request to ``group``'s coordinator and map its answer back onto ``payloads``."""
        payloads = list(payloads or ())
        if not payloads:
            return []
        self._ensure_open()
        group_name = _text(group, "group")
        max_version = self._name_only_cap(api, {_name(p.topic) for p in payloads})

        def error_code(response: Any) -> int:
            results, group_error = parse(response)
            if group_error in _COORDINATOR_CODES:
                return group_error
            for code, _ in results.values():
                if code in _COORDINATOR_CODES:
                    return code
            return 0

        outcomes: List[Tuple[Optional[BaseException], Any]]
        try:
            response = self.send_to_coordinator(  # type: ignore[attr-defined]
                group_name, api, build, error_code, key_type=COORDINATOR_GROUP,
                timeout_ms=self.config["request_timeout_ms"], retries=self.simple_retries, max_version=max_version)
        except errors.KafkaError as exc:
            outcomes = [(exc, None)] * len(payloads)
        else:
            results, group_error = parse(response)
            outcomes = []
            for payload in payloads:
                key = (_name(payload.topic), payload.partition)
                if key in results:
                    code, value = results[key]
                    cls = errors.for_code(code)
                    outcomes.append((cls("%s-%d" % key) if cls else None, value))
                elif group_error:
                    cls = errors.for_code(group_error)
                    outcomes.append((cls("group %s" % group_name), None))  # type: ignore[misc]
                else:
                    outcomes.append((errors.ProtocolError("%s response did not mention %s-%d"
                                                          % ((api.name,) + key)), None))
        return self._finish(payloads, outcomes, error_response, fail_on_error, callback)

    def _name_only_cap(self, api: Api, names: Iterable[str]) -> Optional[int]:
        """The version of ``api`` not to exceed for ``names``: below the id-only versions unless all have ids.

        Topics without an id are looked up first (an unknown topic keeps none).
        """
        names = sorted(set(names))
        if topic_ids.name_only_cap(api, topic_ids.ids_by_name(self.cluster, names)) is None:
            return None
        try:
            self.ensure_topics([n for n in names if self.cluster.topic_id(n) is None],  # type: ignore[attr-defined]
                               self.config["request_timeout_ms"])
        except errors.KafkaError as exc:
            log.debug("no topic ids for %s: %s", names, exc)
        return topic_ids.name_only_cap(api, topic_ids.ids_by_name(self.cluster, names))

    def send_offset_commit_request(self, group: Any, payloads: Any = (), fail_on_error: bool = True,
                                   callback: Callback = None) -> List[Any]:
        """Commit offsets (:class:`~kafka.simple.common.OffsetCommitRequest` payloads) for ``group``.

        Sent to the group's coordinator, outside any group generation (as the
        0.9 consumers committed). Returns an
        :class:`~kafka.simple.common.OffsetCommitResponse` per payload, in payload order.
        """
        group_name = _text(group, "group")
        grouped: Dict[str, List[Any]] = {}
        for payload in payloads or ():
            grouped.setdefault(_name(payload.topic), []).append(payload)
        ids: Dict[uuid.UUID, str] = {}

        def build(version: int) -> Any:
            Topic = OFFSET_COMMIT.Request.OffsetCommitRequestTopic
            topics = []
            for name, parts in grouped.items():
                ids[self._topic_id(name)] = name
                topics.append(Topic(name=name, topic_id=self._topic_id(name), partitions=[
                    Topic.OffsetCommitRequestPartition(
                        partition_index=p.partition, committed_offset=p.offset,
                        committed_metadata=_text_or_none(p.metadata, "metadata"))
                    for p in parts]))
            return OFFSET_COMMIT.Request(group_id=group_name, generation_id_or_member_epoch=-1, member_id="",
                                         group_instance_id=None, retention_time_ms=-1, topics=topics)

        def parse(response: Any) -> Tuple[Dict[Tuple[str, int], Any], int]:
            out = {}
            for topic in response.topics or ():
                name = self._response_topic(topic, "name", ids)
                if name is None:
                    continue  # an id we did not send: about no payload
                for part in topic.partitions or ():
                    out[(name, part.partition_index)] = (part.error_code, OffsetCommitResponse(
                        name, part.partition_index, part.error_code))
            return out, 0

        return self._to_coordinator(group, OFFSET_COMMIT, payloads, build, parse,
                                    lambda p, code: OffsetCommitResponse(p.topic, p.partition, code),
                                    fail_on_error, callback)

    def send_offset_fetch_request(self, group: Any, payloads: Any = (), fail_on_error: bool = True,
                                  callback: Callback = None) -> List[Any]:
        """Read ``group``'s committed offsets (:class:`~kafka.simple.common.OffsetFetchRequest` payloads).

        Sent to the group's coordinator. Returns an
        :class:`~kafka.simple.common.OffsetFetchResponse` per payload, in payload
        order; ``offset`` is -1 where the group committed nothing. (0.9.x
        read ZooKeeper here; brokers now keep offsets themselves, so this is
        the same call as :meth:`send_offset_fetch_request_kafka`.)
        """
        group_name = _text(group, "group")
        grouped: Dict[str, List[int]] = {}
        for payload in payloads or ():
            grouped.setdefault(_name(payload.topic), []).append(payload.partition)
        ids: Dict[uuid.UUID, str] = {}

        def build(version: int) -> Any:
            for name in grouped:
                ids[self._topic_id(name)] = name
            if version >= 8:
                Group = OFFSET_FETCH.Request.OffsetFetchRequestGroup
                Topic = Group.OffsetFetchRequestTopics
                return OFFSET_FETCH.Request(groups=[Group(group_id=group_name, topics=[
                    Topic(name=name, topic_id=self._topic_id(name), partition_indexes=parts)
                    for name, parts in grouped.items()])], require_stable=False)
            Topic = OFFSET_FETCH.Request.OffsetFetchRequestTopic
            return OFFSET_FETCH.Request(group_id=group_name, topics=[
                Topic(name=name, partition_indexes=parts) for name, parts in grouped.items()],
                require_stable=False)

        def parse(response: Any) -> Tuple[Dict[Tuple[str, int], Any], int]:
            out = {}
            if response.groups:
                sections = [(g.error_code or 0, g.topics) for g in response.groups]
            else:
                sections = [(getattr(response, "error_code", 0) or 0, response.topics)]
            group_error = 0
            for section_error, topics in sections:
                group_error = group_error or section_error
                for topic in topics or ():
                    name = self._response_topic(topic, "name", ids)
                    if name is None:
                        continue  # an id we did not send: about no payload
                    for part in topic.partitions or ():
                        code = part.error_code or section_error
                        out[(name, part.partition_index)] = (code, OffsetFetchResponse(
                            name, part.partition_index, part.committed_offset, part.metadata, code))
            return out, group_error

        return self._to_coordinator(group, OFFSET_FETCH, payloads, build, parse,
                                    lambda p, code: OffsetFetchResponse(p.topic, p.partition, -1, None, code),
                                    fail_on_error, callback)

    def send_offset_fetch_request_kafka(self, group: Any, payloads: Any = (), fail_on_error: bool = True,
                                        callback: Callback = None) -> List[Any]:
        """Read the offsets Kafka keeps for ``group``; see :meth:`send_offset_fetch_request`."""
        return self.send_offset_fetch_request(group, payloads, fail_on_error=fail_on_error, callback=callback)

    def send_consumer_metadata_request(self, payloads: Any = (), fail_on_error: bool = True,
                                       callback: Callback = None) -> Any:
        """Find the coordinator of a consumer group.

        ``payloads`` is the group name (``str`` or ``bytes``), a
        :class:`~kafka.simple.common.ConsumerMetadataRequest` or a one-element list.
        Returns a :class:`~kafka.simple.common.ConsumerMetadataResponse` (or
        ``callback`` of it). With ``fail_on_error`` an error code in the
        answer (e.g. the coordinator is not available yet) is raised.
        Raises :class:`~kafka.simple.common.KafkaUnavailableError` when no broker answers.
        """
        group = payloads
        if isinstance(group, ConsumerMetadataRequest):
            group = group.groups
        if isinstance(group, (list, tuple)):
            if len(group) != 1:
                raise errors.IllegalArgumentError("one consumer group per request, got %d" % len(group))
            group = group[0]
        name = _text(group, "group")

        def build(version: int) -> Any:
            if version >= 4:
                return FIND_COORDINATOR.Request(key_type=COORDINATOR_GROUP, coordinator_keys=[name])
            return FIND_COORDINATOR.Request(key=name, key_type=COORDINATOR_GROUP)

        self._ensure_open()
        try:
            answer = self.send_to_any(None, api=FIND_COORDINATOR, build=build)  # type: ignore[attr-defined]
        except (errors.NoBrokersAvailable, errors.KafkaTimeoutError, errors.KafkaConnectionError,
                errors.NodeNotReadyError) as exc:
            raise errors.KafkaUnavailableError("All servers failed to process request: %s" % (exc,)) from exc
        entry = answer.coordinators[0] if answer.coordinators else answer
        response = ConsumerMetadataResponse(entry.error_code, entry.node_id, entry.host, entry.port)
        if response.error == 0:
            self.cluster.add_coordinator(COORDINATOR_GROUP, name, response.nodeId, response.host, response.port)
        if fail_on_error:
            check_error(response)
        return callback(response) if callback else response

    # -- lifecycle ---------------------------------------------------------------------------

    def copy(self) -> Any:
        """A new client with the same configuration and no open connection.

        Suitable for another thread (the copy connects when first used;
        :meth:`reinit` is accepted, as in 0.9.x, but not needed).
        """
        twin: Any = type(self)(**self.engine_config())  # a NetworkClient too
        twin.hosts = list(self.hosts)
        twin.correlation_id = self.correlation_id
        for topic in sorted(self.tracked_topics()):  # type: ignore[attr-defined]
            twin.add_topic(topic)
        return twin

    def reinit(self) -> None:
        """Close every connection; they reopen when next needed.

        After :meth:`close` this brings the client back to life (metadata is
        fetched again).
        """
        if self.closed:  # type: ignore[attr-defined]
            topics = sorted(self.tracked_topics())  # type: ignore[attr-defined]
            super().__init__(**self.engine_config())
            self._reset_all_at = -1
            self._reset_at = {}
            for topic in topics:
                self.add_topic(topic)  # type: ignore[attr-defined]
            return
        for node_id in self.connected_nodes():  # type: ignore[attr-defined]
            self.close(node_id)  # type: ignore[attr-defined]


class KafkaClient(SimpleClientMixin, RoutingClient):
    """A client for one Kafka cluster with the 0.9.x API; see the module documentation."""


#: The mixin's earlier name (``kafka.client.classic.ClassicClientMixin``).
ClassicClientMixin = SimpleClientMixin

__all__ = ["KafkaClient", "SimpleClientMixin", "ClassicClientMixin"]
