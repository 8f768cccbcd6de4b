"""KafkaProducer: asynchronous, batching, optionally idempotent.

``send()`` serializes the record, picks its partition, appends it to the
partition's current batch and returns a future at once; one background
thread (:class:`~kafka.producer.sender.Sender`) sends ready batches to the
partition leaders, several leaders at a time.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import functools
import logging
import threading
import time
import warnings
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

from kafka import compat_config, errors
from kafka.client.routing import RoutingClient
from kafka.client.network import DEFAULT_CONFIG as CLIENT_CONFIG
from kafka.config_checks import check_config_values
from kafka.metric_registry import read_metrics, registry_from_config
from kafka.producer.accumulator import QueuedRecords, RecordAccumulator
from kafka.producer.batch import BATCH_OVERHEAD
from kafka.producer.future import FutureRecordMetadata, ProduceResult
from kafka.producer.held import HeldRecords, place
from kafka.producer.idempotence import ProducerIdentity
from kafka.producer.metrics import ProducerMetrics
from kafka.producer.custom_partitioner import new_batch_hook, partition_chooser
from kafka.producer.partitioner import DefaultPartitioner, murmur2_partition
from kafka.producer.record_checks import (MAX_TIMESTAMP_MS, check_headers_sized, check_key_value, check_partition,
                                          check_record_size, check_timestamp)
from kafka.producer.sender import Sender
from kafka.producer.transactions import ABORTABLE_ERROR, FATAL_ERROR, IN_TRANSACTION, TransactionManager
from kafka.record import codecs
from kafka.record.batch import RECORD_OVERHEAD
from kafka.record.record import Header
from kafka.serializer import close_converter, conversion
from kafka.structs import TopicPartition
from kafka.topic_names import check_topic_name, check_topic_partition

if TYPE_CHECKING:
    from kafka.producer.bulk import BatchSendFuture

_time = time.time

log = logging.getLogger(__name__)

#: Bytes of ``buffer_memory`` a group of held keyed records takes at a time
#: (at most an eighth of the budget): the group is handed over when they run out.
_HOLD_CHUNK = 256 * 1024

#: A topic whose held group is handed over with fewer records than this,
#: because a record of another kind came, stops holding its keyed records.
_MIN_HELD_RUN = 64

#: send()'s keyed fast path for a topic: (metadata version, the TopicPartition of each partition in
#: order, partitions, available partitions, whether its keyed records are held back).
_KeyRoutes = Tuple[int, List[TopicPartition], List[int], List[int], bool]

DEFAULT_CONFIG: Dict[str, Any] = {
    "key_serializer": None,
    "value_serializer": None,
    "acks": "all",
    "compression_type": None,
    "retries": 2147483647,
    "batch_size": 1_000_000,
    "linger_ms": 5,
    "partitioner": None,
    "buffer_memory": 32 * 1024 * 1024,
    "max_block_ms": 60000,
    "max_request_size": 1048576,
    "delivery_timeout_ms": 120000,
    "enable_idempotence": None,  # None: on when the settings and the broker allow it
    "transactional_id": None,
    "transaction_timeout_ms": 60000,
    "serialize_none": False,
}
DEFAULT_CONFIG.update({k: v for k, v in CLIENT_CONFIG.items() if k not in DEFAULT_CONFIG})
DEFAULT_CONFIG["retry_backoff_ms"] = 100
DEFAULT_CONFIG["max_in_flight_requests_per_connection"] = 5

_ACKS = {0: 0, 1: 1, -1: -1, "all": -1, "0": 0, "1": 1, "-1": -1}


#: How often a waiting flush() checks that the sender thread is still running.
_FLUSH_CHECK_S = 0.5

#: How long close() lets brokers finish reading and handling the last requests.
_CLOSE_DRAIN_MS = 2000.0


class _ClusterUnusable(Exception):
    """Internal: metadata cannot come because every broker failed for good (``error`` says how)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


def _failed_future(topic: str, partition: Optional[int], error: BaseException) -> FutureRecordMetadata:
    """A record future that has already failed with ``error``."""
    result = ProduceResult(TopicPartition(topic, -1 if partition is None else partition))
    result.done(error=error)
    return FutureRecordMetadata(result, 0, -1, -1, -1, -1)


def _close_on_exit(ref: "weakref.ref[KafkaProducer]") -> None:
    producer = ref()
    if producer is not None:
        producer.close(timeout=5)


class KafkaProducer:
    """Publishes records to Kafka topics.

    Configuration follows kafka-python's names (see ``DEFAULT_CONFIG``):
    ``bootstrap_servers``, ``client_id``, ``key_serializer``,
    ``value_serializer``, ``acks`` (0, 1, 'all'), ``compression_type``
    ('gzip', 'snappy', 'lz4', 'zstd'), ``retries``, ``batch_size``,
    ``linger_ms``, ``partitioner``, ``buffer_memory``, ``max_block_ms``,
    ``max_request_size``, ``request_timeout_ms``, ``delivery_timeout_ms``,
    ``max_in_flight_requests_per_connection``, ``enable_idempotence``,
    ``transactional_id``, ``retry_backoff_ms`` and the security settings of
    :class:`~kafka.client.routing.RoutingClient`.

    ``batch_size`` defaults to 1,000,000 bytes (librdkafka's default), not
    kafka-python's 16 KiB: a batch holds only the records appended to it
    (nothing is allocated up front), so the larger cap costs nothing on quiet
    partitions, while on a busy one it cuts the per-request work that bounds
    a Python producer's throughput. Records still leave after ``linger_ms``
    (5 ms) whatever the batch size, and a batch the broker refuses as above
    the topic's ``max.message.bytes`` is sent again as halves.

    ``acks`` defaults to ``'all'`` and idempotence is then on by default,
    when the broker supports it; with ``acks`` 0 or 1 idempotence is off
    (asking for both is a configuration error).

    Every key of kafka-python's producer is accepted; those without a
    meaning here are listed in :mod:`kafka.compat_config` and in
    ``docs/compatibility.rst``. ``KafkaProducer.DEFAULT_CONFIG`` holds them
    all. ``serialize_none=True`` hands ``None`` keys and values to the
    serializers, as kafka-python does, instead of sending them as nulls.
    """

    #: Every accepted key with its default, kafka-python's ignored keys included.
    DEFAULT_CONFIG = compat_config.kafka_python_defaults("producer", DEFAULT_CONFIG)

    #: Keys kafka-python's constructor drops with a DeprecationWarning (none, as in kafka-python 3).
    DEPRECATED_CONFIGS: Tuple[str, ...] = ()

    @classmethod
    def max_usable_produce_magic(cls, api_version: Tuple[int, ...]) -> int:
        """The newest message format (magic) a broker of release ``api_version`` stores.

        2 (record batches) from Kafka 0.11, 1 (timestamps) from 0.10.0, else 0.
        The producer itself picks the format from the Produce version it
        negotiates; this answers the same question for a release number.
        """
        if tuple(api_version) >= (0, 11):
            return 2
        if tuple(api_version) >= (0, 10, 0):
            return 1
        return 0

    def __init__(self, **configs: Any) -> None:
        for key in self.DEPRECATED_CONFIGS:
            if key in configs:
                configs.pop(key)
                warnings.warn("deprecated KafkaProducer config: %s" % (key,), DeprecationWarning, stacklevel=2)
        configs, ignored = compat_config.split("producer", configs)
        unknown = set(configs) - set(DEFAULT_CONFIG)
        if unknown:
            raise errors.KafkaConfigurationError("unknown producer configuration: %s" % ", ".join(sorted(unknown)))
        check_config_values(configs, DEFAULT_CONFIG, checked_elsewhere=["acks", "bootstrap_servers"])
        self.config = copy.copy(DEFAULT_CONFIG)
        self.config.update(configs)
        self.config.update(ignored)
        acks = self.config["acks"]
        if acks not in _ACKS:
            raise errors.KafkaConfigurationError("acks must be 0, 1 or 'all', not %r" % (acks,))
        self._acks = _ACKS[acks]
        if self.config["partitioner"] is not None and not isinstance(self.config["partitioner"], DefaultPartitioner):
            self._choose_partition = partition_chooser(self.config["partitioner"])
        try:
            self._compression = codecs.ensure_available(self.config["compression_type"])
        except errors.UnsupportedCodecError as exc:
            raise errors.UnsupportedCodecConfigurationError(str(exc)) from None
        idempotent = self.config["enable_idempotence"]
        if self.config["transactional_id"] is not None:
            if idempotent is False:
                raise errors.KafkaConfigurationError("transactional_id needs enable_idempotence")
            idempotent = True
        if idempotent:
            if self._acks != -1:
                if self.config["enable_idempotence"] is True or self.config["transactional_id"] is not None:
                    raise errors.KafkaConfigurationError("enable_idempotence needs acks='all'")
            if self.config["max_in_flight_requests_per_connection"] > 5:
                raise errors.KafkaConfigurationError("enable_idempotence allows at most 5 requests in flight")
        elif idempotent is None:
            idempotent = self._acks == -1
        self._idempotent = bool(idempotent)
        client_config = {k: self.config[k] for k in CLIENT_CONFIG}
        self._client = RoutingClient(**client_config)
        self._metadata_changed = threading.Condition()
        self._cluster = self._client.cluster  # the client keeps this one object for good
        self._cluster.add_listener(self._on_metadata)
        self._partitioner = self.config["partitioner"] or DefaultPartitioner()
        self._default_partitioner = isinstance(self._partitioner, DefaultPartitioner)
        if not self._default_partitioner:
            self._on_new_batch = new_batch_hook(self._partitioner, self._cluster)
        self._accumulator = RecordAccumulator(
            batch_size=self.config["batch_size"], linger_ms=self.config["linger_ms"],
            buffer_memory=self.config["buffer_memory"], retry_backoff_ms=self.config["retry_backoff_ms"],
            delivery_timeout_ms=self.config["delivery_timeout_ms"])
        explicit = self.config["enable_idempotence"] is True or self.config["transactional_id"] is not None
        self._identity = ProducerIdentity(self.config["transactional_id"], self.config["transaction_timeout_ms"],
                                          required=explicit) if self._idempotent else None
        # One request in flight: one batch per partition at a time, idempotent or not (as the Java client
        # does). A partition's next batch could otherwise go to a new leader while the batch before it is
        # still in flight to the old one; only a broker's sequence check would then restore the order.
        guarantee_order = self.config["max_in_flight_requests_per_connection"] == 1
        self._sender = Sender(
            self._client, self._accumulator, acks=self._acks, retries=self.config["retries"],
            request_timeout_ms=self.config["request_timeout_ms"], max_request_size=self.config["max_request_size"],
            compression_type=self._compression, identity=self._identity, guarantee_order=guarantee_order,
            client_id=self._client.config["client_id"])
        # How the configured serializers are called, decided once (see kafka.serializer.conversion).
        self._key_serializer = conversion(self.config["key_serializer"], "serialize")
        self._value_serializer = conversion(self.config["value_serializer"], "serialize")
        self._serialize_none = bool(self.config["serialize_none"])
        self._max_block = self.config["max_block_ms"] / 1000.0
        self._max_request_size = self.config["max_request_size"]
        # The largest value the fast path of send() takes without a size check.
        self._max_fast_value = min(self._max_request_size, self.config["buffer_memory"]) - \
            RECORD_OVERHEAD - BATCH_OVERHEAD
        self._checked_topics: Set[str] = set()
        # topic -> (metadata version, partitions, available partitions)
        self._partition_cache: Dict[str, Tuple[int, List[int], List[int]]] = {}
        self._tps: Dict[Tuple[str, int], TopicPartition] = {}
        # topic -> (metadata version, sticky partition, partitions, available partitions)
        self._sticky_tps: Dict[str, Tuple[int, TopicPartition, List[int], List[int]]] = {}
        # topic -> _KeyRoutes, for send()'s keyed fast path; filled by _send only when murmur2 of the key
        # bytes alone places a record (see _keyed_fast).
        self._key_routes: Dict[str, _KeyRoutes] = {}
        self._transactions: Optional[TransactionManager] = None
        if self.config["transactional_id"] is not None:
            assert self._identity is not None
            self._transactions = TransactionManager(self._client, self._identity, self.flush,
                                                    self.config["request_timeout_ms"] * 2)
            self._sender.on_batch_failed = self._transactions.record_failed
        self._keyed_fast = type(self._partitioner) is DefaultPartitioner and self._key_serializer is None and \
            self._value_serializer is None and self._transactions is None
        self._closed = False
        self._close_lock = threading.Lock()
        # Keyed records send() holds back for a bulk hand-over (see kafka.producer.held): at most
        # one open group per topic; _placing orders the hand-overs, _held_lock guards _held.
        self._held: Dict[str, HeldRecords] = {}
        self._held_lock = threading.Lock()
        self._placing = threading.Lock()
        self._hold_chunk = max(1, min(_HOLD_CHUNK, self.config["buffer_memory"] // 8))
        if self._keyed_fast:
            self._sender.turn_hooks.append(self._hand_over_held)
        self._accumulator.wake = self._sender.wakeup
        self._metrics = registry_from_config(self.config, self._client.config["client_id"])
        if self._metrics is not None:
            self._client.enable_metrics(self._metrics, "producer")
            self._sender.metrics = ProducerMetrics(self._metrics, self._cluster, self._client.in_flight_request_count)
            accumulator = self._accumulator
            self._metrics.add("buffer-available-bytes", "producer-metrics",
                              lambda _now: accumulator.buffer_memory - accumulator.used_memory,
                              "Buffer memory not in use (kafkawire's own).")
            self._metrics.add("buffer-total-bytes", "producer-metrics", lambda _now: accumulator.buffer_memory,
                              "The buffer_memory setting (kafkawire's own).")
        self._sender.start()
        # One hook per producer: closing this one must leave the others'
        # hooks registered. The weak reference lets an unused producer be
        # garbage collected although the hook outlives it.
        self._exit_hook = functools.partial(_close_on_exit, weakref.ref(self))
        atexit.register(self._exit_hook)
        log.debug("producer started: acks=%s idempotent=%s", acks, self._idempotent)

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.config.items() if k in ("bootstrap_servers", "client_id", "acks")}
        return "<KafkaProducer %s>" % ", ".join("%s=%r" % kv for kv in sorted(shown.items()))

    # -- metadata ---------------------------------------------------------------------------

    def _on_metadata(self, cluster: Any) -> None:
        with self._metadata_changed:
            self._metadata_changed.notify_all()

    def _partitions(self, topic: str, max_block: float) -> Tuple[List[int], List[int]]:
        cluster = self._cluster
        version = cluster.version
        parts = cluster.partitions_for_topic(topic)
        if parts:
            found = sorted(parts), sorted(cluster.available_partitions_for_topic(topic) or ())
            self._partition_cache[topic] = (version, found[0], found[1])
            return found
        deadline = time.monotonic() + max_block
        self._client.add_topic(topic)
        with self._metadata_changed:
            while True:
                parts = cluster.partitions_for_topic(topic)
                if parts:
                    return sorted(parts), sorted(cluster.available_partitions_for_topic(topic) or ())
                fatal = self._client.fatal_error()
                if fatal is not None:
                    raise _ClusterUnusable(fatal)
                code = cluster.topic_error(topic)
                if code and not errors.for_code(code).retriable:  # type: ignore[union-attr]
                    raise errors.for_code(code)("topic %r" % topic)  # type: ignore[misc]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise errors.KafkaTimeoutError("topic %r not found in metadata within max_block_ms" % topic)
                cluster.request_update()
                self._sender.wakeup()
                self._metadata_changed.wait(min(left, 0.1))

    def partitions_for(self, topic: str) -> Set[int]:
        """The partition numbers of ``topic`` (waits for metadata up to ``max_block_ms``)."""
        self._check_open()
        check_topic_name(topic)
        try:
            return set(self._partitions(topic, self.config["max_block_ms"] / 1000.0)[0])
        except _ClusterUnusable as exc:
            raise exc.error from None

    # -- sending -------------------------------------------------------------------------------

    def send(self, topic: str, value: Any = None, key: Any = None, headers: Optional[Sequence[Header]] = None,
             partition: Optional[int] = None, timestamp_ms: Optional[int] = None) -> FutureRecordMetadata:
        """Queue a record; return a future of its :class:`~kafka.producer.future.RecordMetadata`.

        Blocks only while metadata for ``topic`` is unknown or
        ``buffer_memory`` is full, at most ``max_block_ms`` in total. When
        no broker can ever be used (a rejected TLS certificate or SASL
        login, no Metadata version in common), the future returned has
        already failed with that error.

        Every argument is checked here: a topic name Kafka refuses, a key or
        value that is not bytes after serialization, malformed headers, a
        partition the topic does not have or a timestamp outside 0..2**63-1
        raise :class:`~kafka.errors.IllegalArgumentError` (its subclass
        :class:`~kafka.errors.IllegalArgumentTypeError` for a wrong type); a
        record larger than ``max_request_size`` or ``buffer_memory`` raises
        :class:`~kafka.errors.MessageSizeTooLargeError`.
        """
        if key is None and partition is None and timestamp_ms is None and type(value) is bytes and \
                type(topic) is str and not self._closed:
            # Fast path for the most common calls, send(topic, value_bytes[,
            # headers=...]) with the default partitioner and no serializer:
            # the sticky partition chosen earlier for this topic is reused
            # while the metadata and the sticky choice stay the same. Headers
            # are checked and sized once; should the record then be too large
            # for this path, _send gets the checked headers (an iterator of
            # headers is consumed by then).
            sticky = self._sticky_tps.get(topic)
            if sticky is not None and sticky[0] == self._cluster.version and \
                    self._sender.fatal_error is None:
                size, header_bytes = len(value), -1
                if headers is not None:
                    headers, extra, header_bytes = check_headers_sized(headers)
                    size += extra
                if size <= self._max_fast_value:
                    if self._held:
                        self._hand_over_topic(topic)  # records sent before this one go first
                    future, full, new_batch = self._accumulator.append(
                        sticky[1], int(_time() * 1000), None, value, headers, self._max_block,
                        size + RECORD_OVERHEAD, header_bytes)
                    if full or new_batch:
                        self._batch_event(topic, full, True, sticky[2], sticky[3])
                    return future
        if type(key) is bytes and partition is None and type(value) is bytes and type(topic) is str:
            # Fast path for keyed records once _send has routed one of the
            # topic's under the current metadata: murmur2 of the key picks
            # the partition, the headers are checked and sized once.
            routes = self._key_routes.get(topic)
            if routes is not None and routes[0] == self._cluster.version and not self._closed and \
                    self._sender.fatal_error is None:
                extra, header_bytes = 0, -1
                if headers is not None:
                    headers, extra, header_bytes = check_headers_sized(headers)
                if timestamp_ms is None:
                    timestamp_ms = int(_time() * 1000)
                elif type(timestamp_ms) is not int or not 0 <= timestamp_ms <= MAX_TIMESTAMP_MS:
                    return self._send(topic, value, key, headers, partition, timestamp_ms)  # converts or refuses it
                size = len(key) + len(value) + extra
                if size <= self._max_fast_value:
                    size += RECORD_OVERHEAD
                    if not routes[4]:
                        # The topic's records of other kinds come in between keyed ones: no holding
                        # (a group another thread started just before that was found goes first).
                        if self._held:
                            self._hand_over_topic(topic)
                        tps = routes[1]
                        future, full, new_batch = self._accumulator.append(
                            tps[murmur2_partition(key, len(tps))], timestamp_ms, key, value, headers,
                            self._max_block, size, header_bytes)
                        if full or new_batch:
                            self._batch_event(topic, full, False, routes[2], routes[3])
                        return future
                    # Held back for a bulk hand-over, in the topic's open group while it has memory left.
                    started = False
                    while True:
                        with self._held_lock:
                            held = self._held.get(topic)
                            if held is not None and held.credit >= size and held.version == routes[0] and \
                                    not self._closed:
                                held.credit -= size
                                future = FutureRecordMetadata(held, -1, timestamp_ms,  # type: ignore[arg-type]
                                                              len(key), len(value), header_bytes)
                                held.records.append((timestamp_ms, key, value, headers))
                                held.sizes.append(size)
                                held.futures.append(future)
                                break
                        started = self._start_held_group(topic, routes, size)
                    if started and threading.current_thread() is not self._sender:
                        self._sender.wakeup()  # its next turn hands the group over, within linger_ms
                    return future
        elif partition is not None and type(value) is bytes and type(topic) is str:
            routed = self._send_to_partition(topic, value, key, partition, timestamp_ms, headers)
            if routed is not None:
                return routed
        return self._send(topic, value, key, headers, partition, timestamp_ms)

    def _send_to_partition(self, topic: str, value: bytes, key: Any, partition: Any, timestamp_ms: Any,
                           headers: Any) -> Optional[FutureRecordMetadata]:
        """Fast path for ``send(topic, value_bytes, key, partition=p[, timestamp_ms, headers])``.

        Taken when the record needs none of _send's conversions and would pass
        all its checks (cached partitions of the current metadata, no
        serializer, no transaction); None otherwise, and _send does it all.
        """
        if (key is not None and type(key) is not bytes) or type(partition) is not int or self._closed or \
                self._key_serializer is not None or self._value_serializer is not None or \
                self._transactions is not None or self._sender.fatal_error is not None:
            return None
        if timestamp_ms is None:
            timestamp_ms = int(_time() * 1000)
        elif type(timestamp_ms) is not int or not 0 <= timestamp_ms <= MAX_TIMESTAMP_MS:
            return None
        if self._held:
            self._hand_over_topic(topic)  # records sent before this one go first
        cached = self._partition_cache.get(topic)
        if cached is None or cached[0] != self._cluster.version:
            return None
        tp = self._tps.get((topic, partition))
        if tp is None or partition not in cached[1]:
            return None
        extra, header_bytes = 0, -1
        if headers is not None:
            # Checked last: everything _send checks before the headers has
            # passed, so an error here is the one _send would raise; and from
            # here on only the checked list may go to _send (an iterator of
            # headers is consumed by now).
            headers, extra, header_bytes = check_headers_sized(headers)
        size = (len(key) if key is not None else 0) + len(value) + extra
        if size > self._max_fast_value:
            return self._send(topic, value, key, headers, partition, timestamp_ms)  # refuses or takes it
        future, full, new_batch = self._accumulator.append(tp, timestamp_ms, key, value, headers, self._max_block,
                                                           size + RECORD_OVERHEAD, header_bytes)
        if full or new_batch:
            self._batch_event(topic, full, False, cached[1], cached[2])
        return future

    def _send(self, topic: str, value: Any, key: Any, headers: Optional[Sequence[Header]],
              partition: Optional[int], timestamp_ms: Optional[int]) -> FutureRecordMetadata:
        self._check_can_send()
        if self._held and type(topic) is str:
            self._hand_over_topic(topic)  # records sent before this one go first
        if type(topic) is not str or topic not in self._checked_topics:
            check_topic_name(topic)
            self._checked_topics.add(topic)
        key_ser = self._key_serializer
        value_ser = self._value_serializer
        given_key, given_value = key, value
        if headers is None and ((key_ser is not None and key_ser.contextual) or
                                (value_ser is not None and value_ser.contextual)):
            # A Serializer object sees kafka-python's list, and what it adds there is sent.
            headers = []
        # Without serialize_none a None key or value stays a null; with it
        # serializers see None too (kafka-python's way).
        if key_ser is not None and (key is not None or self._serialize_none):
            key = key_ser.fn(topic, headers, key) if key_ser.contextual else key_ser.fn(key)
        if value_ser is not None and (value is not None or self._serialize_none):
            value = value_ser.fn(topic, headers, value) if value_ser.contextual else value_ser.fn(value)
        if value is None and key is None:
            raise errors.IllegalArgumentError("a record needs a key or a value")
        if (value is not None and type(value) is not bytes) or (key is not None and type(key) is not bytes):
            key, value = check_key_value(key, value, self._key_serializer is not None,
                                         self._value_serializer is not None)
        extra, header_bytes = 0, -1
        if headers is not None:
            headers, extra, header_bytes = check_headers_sized(headers)
        if partition is not None:
            partition = check_partition(partition)
        if timestamp_ms is not None:
            timestamp_ms = check_timestamp(timestamp_ms)
        size = (len(key) if key else 0) + (len(value) if value else 0) + extra
        if size > self._max_fast_value:
            check_record_size(key, value, headers, self._max_request_size, self.config["buffer_memory"])
        started = time.monotonic()
        version = self._cluster.version
        cached = self._partition_cache.get(topic)
        if cached is not None and cached[0] == version:
            all_parts, available = cached[1], cached[2]
        else:
            try:
                all_parts, available = self._partitions(topic, self._max_block)
            except _ClusterUnusable as exc:
                return _failed_future(topic, partition, exc.error)
        sticky = partition is None and key is None and self._default_partitioner
        keyed = partition is None and key is not None and self._keyed_fast
        if partition is None:
            if self._default_partitioner:
                partition = self._partitioner(key, all_parts, available, topic)
            else:
                partition = self._choose_partition(topic, given_key, key, given_value, value, all_parts, available,
                                                   self._cluster)
                if type(partition) is not int or partition not in all_parts:
                    raise errors.IllegalArgumentError("the partitioner chose %r, not a partition of topic %r"
                                                      % (partition, topic))
        elif partition not in all_parts:
            raise errors.IllegalArgumentError("topic %r has no partition %r" % (topic, partition))
        if timestamp_ms is None:
            timestamp_ms = int(_time() * 1000)
        tp = self._tp(topic, partition)
        if self._transactions is not None:
            self._transactions.ensure_partition(tp)
        elif sticky and self._value_serializer is None:
            # Let the fast path in send() reuse this choice.
            self._sticky_tps[topic] = (version, tp, all_parts, available)
        elif keyed:
            # Let the keyed fast path in send() route the topic's next keyed records.
            self._key_routes[topic] = (version, [self._tp(topic, p) for p in all_parts], all_parts, available, True)
        left = self._max_block - (time.monotonic() - started)
        future, full, new_batch = self._accumulator.append(tp, timestamp_ms, key, value, headers,
                                                           left if left > 0 else 0.0, size + RECORD_OVERHEAD,
                                                           header_bytes)
        if full or new_batch:
            self._batch_event(topic, full, sticky, all_parts, available)
        if full and key is None and not self._default_partitioner and self._on_new_batch is not None:
            self._on_new_batch(topic, partition)  # records without a key may move on
        return future

    def _start_held_group(self, topic: str, routes: "_KeyRoutes", size: int) -> bool:
        """Open the topic's next group of held records, with room for a record of ``size`` at least.

        The group's memory is taken here, so that send() blocks for it as for
        any record (up to ``max_block_ms``); the groups before it are handed
        over first, so the sender can free memory meanwhile. False when
        another thread opened one first (raises if the producer closed).
        """
        reserved = max(self._hold_chunk, size)
        self._hand_over_held()
        self._accumulator.reserve(reserved, self._max_block)
        with self._held_lock:
            if topic not in self._held and not self._closed:
                self._held[topic] = HeldRecords(topic, routes[0], routes[1], reserved, self._hand_over_held)
                return True
        self._accumulator.unreserve(reserved)
        self._check_can_send()
        return False

    def _hand_over_topic(self, topic: str) -> None:
        """Hand ``topic``'s held records over before a record of another kind is queued for it.

        Their order within each partition is kept so. When the group is
        short, the topic's records of other kinds come in between keyed ones
        so often that holding costs more than it saves: its keyed records go
        straight to their batches until the metadata changes.
        """
        held = self._held.get(topic)
        if held is None:
            return
        if len(held.records) < _MIN_HELD_RUN:
            routes = self._key_routes.get(topic)
            if routes is not None and routes[4]:
                self._key_routes[topic] = routes[:4] + (False,)
        self._hand_over_held(topic)

    def _hand_over_held(self, topic: Optional[str] = None) -> None:
        """Put the held records (only ``topic``'s when given) in their batches, oldest group first.

        Also the sender thread's turn hook.
        """
        if not self._held:  # checked again under the locks
            return
        with self._placing:
            with self._held_lock:
                if topic is None:
                    groups = list(self._held.values())
                    self._held.clear()
                else:
                    one = self._held.pop(topic, None)
                    groups = [one] if one is not None else []
            failure = self._sender.fatal_error
            full = False
            for held in groups:
                full = place(self._accumulator, held, failure) or full
        if full and threading.current_thread() is not self._sender:
            self._sender.wakeup()

    def _tp(self, topic: str, partition: int) -> TopicPartition:
        """The one TopicPartition kept for ``(topic, partition)``."""
        tp = self._tps.get((topic, partition))
        if tp is None:
            tp = self._tps[(topic, partition)] = TopicPartition(topic, partition)
        return tp

    def _tp_to_send(self, topic: str, partition: int) -> TopicPartition:
        """The TopicPartition records are about to be queued for, enrolled in the open transaction if any."""
        tp = self._tp(topic, partition)
        if self._transactions is not None:
            self._transactions.ensure_partition(tp)
        return tp

    def send_batch(self, topic: str, values: Sequence[Any], keys: Optional[Sequence[Any]] = None,
                   headers: Optional[Sequence[Any]] = None, partition: Optional[int] = None,
                   timestamps: Optional[Sequence[int]] = None) -> "BatchSendFuture":
        """Queue many records of ``topic`` at once; return one future for all of them.

        ``values`` (and ``keys``, ``headers``, ``timestamps`` when given)
        are columns: item ``i`` of each makes record ``i``. ``partition``
        sends every record there; otherwise records are partitioned as
        :meth:`send` does (by key, or a batch's worth at a time to the
        sticky partition), keeping their given order within each partition.
        The records are checked as :meth:`send` checks them, before any is
        queued, and go through the same batches, retries, idempotence and
        transactions. Much faster than one :meth:`send` per record: no call
        and no future per record.

        The returned :class:`~kafka.producer.bulk.BatchSendFuture`'s
        ``get(timeout)`` waits for every record and returns their number,
        or raises the first failure.
        """
        self._check_open()
        from kafka.producer.bulk import send_batch

        return send_batch(self, topic, values, keys, headers, partition, timestamps)

    # -- for front-ends that check and partition records themselves (kafka.confluent) -------

    def queue_prepared(self, topic: str, partition: int,
                       records: QueuedRecords, sizes: Sequence[int],
                       placed: List[Tuple[ProduceResult, int, int]], since: Optional[float] = None) -> None:
        """Queue records of one partition that the caller already checked, without blocking.

        ``records`` are ``(timestamp_ms, key, value, headers)`` with bytes (or
        None) keys and values and headers as :func:`check_headers` returns
        them, or a :class:`~kafka.producer.batch.ValueColumns` of records
        without key and headers (which batches keep and encode as columns);
        ``sizes`` are their :func:`~kafka.record.batch.estimate_record_size`.
        ``partition`` must be one of the topic's. Nothing here checks them
        again: this is the bulk path for a front-end such as
        :class:`kafka.confluent.Producer`, which validates and partitions
        each record when it is produced. As each run of records lands in a
        batch, ``(batch result, index of its first record in the batch,
        record count)`` is appended to ``placed``; a caller whose call raised
        (closed producer, fatal error, no transaction open, ``buffer_memory``
        full) thus knows which records were queued before the failure.

        ``since`` is the :func:`time.monotonic` time the caller accepted the
        oldest of the records (it kept them back since then): a batch made
        for them counts ``linger_ms`` from that time, as if they had been
        queued at once. As :meth:`send` does, the sender thread is woken only
        when a batch is made or fills up; records added to a batch that is
        lingering leave with it.
        """
        self._check_can_send()
        if self._held:
            self._hand_over_topic(topic)  # records sent before these go first
        tp = self._tp_to_send(topic, partition)
        known = len(placed)
        _, full = self._accumulator.append_many(tp, records, sizes, 0.0, placed, since=since)
        if full or any(first == 0 for _, first, _ in placed[known:]):
            if threading.current_thread() is not self._sender:
                self._sender.wakeup()

    @contextlib.contextmanager
    def without_linger(self) -> Iterator[None]:
        """Within this block, batches leave at once instead of waiting out ``linger_ms``.

        What :meth:`flush` does while it waits; a front-end that waits for
        its records in its own way (serving callbacks meanwhile) uses it.
        """
        self._accumulator.begin_flush()
        try:
            self._sender.wakeup()
            yield
        finally:
            self._accumulator.end_flush()

    def wakeup_sender(self) -> None:
        """Have the sender thread start a turn now (e.g. to run its :meth:`on_sender_turn` hooks)."""
        self._sender.wakeup()

    def wakeup_sender_within(self, seconds: float) -> None:
        """Have the sender thread start a turn within ``seconds``, waking it only if it would wait longer.

        For a front-end that keeps records back until the sender's next turn
        (:meth:`on_sender_turn`): asking when it keeps the first of them
        bounds how long they wait, without interrupting the sender (and
        competing with it for the interpreter) while it will turn soon
        enough anyway, e.g. at the end of a batch's ``linger_ms``. The turn
        that answers runs its hooks after this call.
        """
        self._sender.turn_by(time.monotonic() + seconds)

    def on_sender_turn(self, hook: Callable[[], None]) -> None:
        """Have the sender thread call ``hook()`` at the start of each of its turns.

        A front-end that keeps records back to hand them over in bulk uses it
        so that they leave within ``linger_ms`` even when the application
        makes no further call. ``hook`` runs on the sender thread: it must
        not block; what it raises is logged. It may call
        :meth:`queue_prepared` (not for a transactional producer, whose
        first record of a partition waits for the transaction coordinator).
        """
        self._sender.turn_hooks.append(hook)

    def _batch_event(self, topic: str, full: bool, sticky: bool, all_parts: List[int],
                     available: List[int]) -> None:
        """A batch filled up or was created: move the sticky partition on, wake the sender."""
        if full and sticky:
            # Sticky partitioning moves on when a batch fills.
            self._sticky_tps.pop(topic, None)
            self._partitioner.next_sticky(topic, all_parts, available)
        self._sender.wakeup()

    # -- transactions -----------------------------------------------------------------------

    def _txn(self) -> TransactionManager:
        self._check_open()
        if self._transactions is None:
            raise errors.IllegalStateError("transactions need a transactional_id")
        return self._transactions

    def init_transactions(self, timeout_ms: Optional[float] = None) -> None:
        """Register the transactional id with its coordinator; fences older producers using it.

        ``timeout_ms`` (here and in the other transactional calls) bounds the
        whole call, default ``request_timeout_ms`` for each request it makes;
        when it runs out, KafkaTimeoutError is raised and the same call may
        be made again, as with the Java client.
        """
        self._txn().init_transactions(timeout_ms)

    def begin_transaction(self) -> None:
        """Start a transaction; every record sent until commit or abort belongs to it."""
        self._txn().begin_transaction()

    def send_offsets_to_transaction(self, offsets: Dict[TopicPartition, Any], group_metadata: Any,
                                    timeout_ms: Optional[float] = None) -> None:
        """Commit consumer offsets as part of the transaction (consume-transform-produce)."""
        txn = self._txn()
        offsets = {check_topic_partition(tp): offset for tp, offset in offsets.items()}
        txn.send_offsets_to_transaction(offsets, group_metadata, timeout_ms)

    def commit_transaction(self, timeout_ms: Optional[float] = None) -> None:
        """Deliver the transaction's records and commit it."""
        self._txn().commit_transaction(timeout_ms)

    def abort_transaction(self, timeout_ms: Optional[float] = None) -> None:
        """Abort the transaction."""
        self._txn().abort_transaction(timeout_ms)

    def in_transaction(self) -> bool:
        """Whether a transaction is open: begun, and neither committed nor aborted yet.

        Also true once a record of it failed (the transaction then can only
        be aborted); false for a producer without a ``transactional_id``.
        """
        return self._transactions is not None and self._transactions.state in (IN_TRANSACTION, ABORTABLE_ERROR)

    def flush(self, timeout: Optional[float] = None) -> None:
        """Send everything queued and wait for it; KafkaTimeoutError after ``timeout`` s."""
        deadline = None if timeout is None else time.monotonic() + timeout
        self._hand_over_held()
        with self.without_linger():
            while True:
                # Sleeps until batches complete; wakes now and then only to
                # notice a sender thread that is gone.
                wait = _FLUSH_CHECK_S if deadline is None else min(_FLUSH_CHECK_S, deadline - time.monotonic())
                if self._accumulator.wait_for_completion(max(wait, 0.0)):
                    return
                if deadline is not None and time.monotonic() >= deadline:
                    raise errors.KafkaTimeoutError("flush did not complete within %s s" % timeout)
                if not self._sender.is_alive():
                    return

    def purge(self, queued: bool = True, in_flight: bool = False) -> None:
        """Fail records not acknowledged yet, at once, without waiting for the broker.

        ``queued``: records still in the producer's batches fail with
        :class:`~kafka.errors.PurgedInQueueError` (they were never sent);
        ``in_flight``: records whose request awaits its response fail with
        :class:`~kafka.errors.PurgedInFlightError` (the broker may still have
        written them; the response is ignored when it comes). An idempotent
        producer then starts a new epoch, as after any failed batch.
        """
        self._hand_over_held()
        self._sender.purge(queued, in_flight)

    def fatal_error(self) -> Optional[BaseException]:
        """The error that left this producer unusable (idempotence or transaction state), if one did.

        Once set, every send fails with it; only :meth:`close` remains useful.
        """
        if self._sender.fatal_error is not None:
            return self._sender.fatal_error
        transactions = self._transactions
        if transactions is not None and transactions.state == FATAL_ERROR:
            return transactions.last_error
        return None

    def broker_stats(self) -> List[Dict[str, Any]]:
        """Connection counters per broker (see :meth:`kafka.client.network.NetworkClient.broker_stats`)."""
        return self._client.broker_stats()

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Log in with these ``PLAIN``/``SCRAM`` credentials from the next connection on (open ones stay)."""
        self._client.set_sasl_credentials(username, password)

    def bootstrap_connected(self) -> bool:
        """Whether the producer has cluster metadata and a live connection to a broker."""
        return self._client.bootstrap_connected()

    def close(self, timeout: Optional[float] = None, null_logger: bool = False) -> None:
        """Deliver what was accepted (up to ``timeout`` s), then stop.

        ``null_logger`` is accepted for kafka-python's sake and changes nothing:
        kafkawire's interpreter-exit hook already closes producers quietly.
        """
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        # send() takes no more records now (it checks _closed under _held_lock): place the held ones.
        self._hand_over_held()
        atexit.unregister(self._exit_hook)
        deadline = None if timeout is None else time.monotonic() + timeout
        self._sender.initiate_close()
        self._sender.join(timeout)
        if self._sender.is_alive():
            log.warning("producer did not deliver everything within %s s; failing the rest", timeout)
            self._sender.force_close()
            self._sender.join(5)
            self._client.close()
            self._close_serializers()
            self._close_metrics()
            return
        # Everything was written (acks=0 batches complete only then): let the
        # brokers read it all before the sockets close.
        drain_ms = _CLOSE_DRAIN_MS if deadline is None else min(_CLOSE_DRAIN_MS, (deadline - time.monotonic()) * 1000.0)
        self._client.close_gracefully(drain_ms)
        self._close_serializers()
        self._close_metrics()

    def _close_metrics(self) -> None:
        """Close the ``metric_reporters`` (kafka-python closes its metrics registry last)."""
        if self._metrics is not None:
            self._metrics.close()

    def _close_serializers(self) -> None:
        """Close configured :class:`~kafka.serializer.Serializer` objects, as kafka-python's producer does."""
        close_converter(self.config["key_serializer"])
        close_converter(self.config["value_serializer"])

    def metrics(self, raw: bool = False) -> Optional[Dict[Any, Any]]:
        """kafka-python's producer metrics, as ``{group: {name: value}}``.

        Groups: ``producer-metrics`` (record, batch, request and connection
        measurements such as ``record-send-rate``, ``batch-size-avg``,
        ``request-latency-avg``), ``producer-node-metrics.node-<id>``,
        ``producer-topic-metrics.<topic>`` and ``kafka-metrics-count``.
        Rates and averages cover the last ``metrics_num_samples`` windows of
        ``metrics_sample_window_ms``. ``raw=True`` returns the
        :class:`~kafka.metric_registry.MetricName` to
        :class:`~kafka.metric_registry.KafkaMetric` mapping instead; None
        when ``metrics_enabled`` is False (as kafka-python does).
        """
        return read_metrics(self._metrics, raw)

    def _check_can_send(self) -> None:
        """Raise unless records may be queued: the producer is open and has no fatal error."""
        if self._closed:
            raise errors.IllegalStateError("cannot send: the producer is closed")
        if self._sender.fatal_error is not None:
            raise self._sender.fatal_error

    def _check_open(self) -> None:
        if self._closed:
            raise errors.IllegalStateError("the producer is closed")

    def __enter__(self) -> "KafkaProducer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
