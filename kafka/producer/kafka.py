"""KafkaProducer: asynchronous, batching, optionally idempotent.

``send()`` serializes the record, picks its partition, appends it to the
partition's current batch and returns a future at once; one background
thread (:class:`~kafka.producer.sender.Sender`) sends ready batches to the
partition leaders, several leaders at a time.

Every way of queueing records (``send()`` and its fast paths, the keyed
records it holds back, ``send_batch()``, ``queue_prepared()`` and
``send_encoded()``) goes through the steps of the producer's
:class:`~kafka.producer.pipeline.ProducerPipeline` (see
``docs/architecture.rst``, "How a record travels through the producer").
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
from kafka.producer.future import FutureRecordMetadata, ProduceResult
from kafka.producer.held import HeldRecords
from kafka.producer.idempotence import ProducerIdentity
from kafka.producer.metrics import ProducerMetrics
from kafka.producer.custom_partitioner import new_batch_hook, partition_chooser
from kafka.producer.partitioner import DefaultPartitioner, murmur2_partition
from kafka.producer.pipeline import ClusterUnusable, KeyRoutes, PartitionInfo, ProducerPipeline, StickyRoute
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
        choose = None
        if self.config["partitioner"] is not None and not isinstance(self.config["partitioner"], DefaultPartitioner):
            choose = partition_chooser(self.config["partitioner"])
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
        self._cluster = self._client.cluster  # the client keeps this one object for good
        self._partitioner = self.config["partitioner"] or DefaultPartitioner()
        self._default_partitioner = isinstance(self._partitioner, DefaultPartitioner)
        on_new_batch = None if self._default_partitioner else new_batch_hook(self._partitioner, self._cluster)
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
        self._transactions: Optional[TransactionManager] = None
        if self.config["transactional_id"] is not None:
            assert self._identity is not None
            self._transactions = TransactionManager(self._client, self._identity, self.flush,
                                                    self.config["request_timeout_ms"] * 2)
            self._sender.on_batch_failed = self._transactions.record_failed
        # The steps every door into the producer shares (kafka.producer.pipeline). send() reads the
        # pipeline's caches and calls its steps through the aliases below: one attribute read each.
        pipeline = self._pipeline = ProducerPipeline(
            self.config, self._client, self._accumulator, self._sender, self._partitioner, self._key_serializer,
            self._value_serializer, self._transactions, on_new_batch, choose)
        self._max_block = pipeline.max_block
        self._max_request_size = pipeline.max_request_size
        # The largest key + value + headers the fast paths of send() take without a size check.
        self._max_fast_value = pipeline.max_fast_value
        self._partition_cache: Dict[str, PartitionInfo] = pipeline.partition_cache
        self._tps: Dict[Tuple[str, int], TopicPartition] = pipeline.tps
        self._sticky_tps: Dict[str, StickyRoute] = pipeline.sticky_tps
        self._key_routes: Dict[str, KeyRoutes] = pipeline.key_routes
        self._held: Dict[str, HeldRecords] = pipeline.held
        self._held_lock = pipeline.held_lock
        self._tp = pipeline.tp
        self._batch_event = pipeline.batch_event
        self._hand_over_topic = pipeline.hand_over_topic
        self._hand_over_held = pipeline.hand_over_held
        self._start_held_group = pipeline.start_held_group
        self._keyed_fast = type(self._partitioner) is DefaultPartitioner and self._key_serializer is None and \
            self._value_serializer is None and self._transactions is None
        # send()'s fast paths read this one; pipeline.closed is set with it (close()).
        self._closed = False
        self._close_lock = threading.Lock()
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

    @property
    def pipeline(self) -> ProducerPipeline:
        """The steps every way of queueing records shares (:class:`~kafka.producer.pipeline.ProducerPipeline`).

        For the bulk paths (:func:`kafka.producer.bulk.send_batch`,
        :func:`kafka.producer.encoded.send_encoded`), which queue records on
        this producer's accumulator and sender.
        """
        return self._pipeline

    def partitions_for(self, topic: str) -> Set[int]:
        """The partition numbers of ``topic`` (waits for metadata up to ``max_block_ms``)."""
        self._check_open()
        check_topic_name(topic)
        try:
            return set(self._pipeline.partitions(topic)[0])
        except ClusterUnusable as exc:
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
            if sticky is not None and sticky.version == self._cluster.version and \
                    self._sender.fatal_error is None:
                size, header_bytes = len(value), -1
                if headers is not None:
                    headers, extra, header_bytes = check_headers_sized(headers)
                    size += extra
                if size <= self._max_fast_value:
                    if self._held:
                        self._hand_over_topic(topic)  # records sent before this one go first
                    future, full, new_batch = self._accumulator.append(
                        sticky.tp, int(_time() * 1000), None, value, headers, self._max_block,
                        size + RECORD_OVERHEAD, header_bytes)
                    if full or new_batch:
                        self._batch_event(topic, full, True, sticky.all, sticky.available)
                    return future
        if type(key) is bytes and partition is None and type(value) is bytes and type(topic) is str:
            # Fast path for keyed records once _send has routed one of the
            # topic's under the current metadata: murmur2 of the key picks
            # the partition, the headers are checked and sized once.
            routes = self._key_routes.get(topic)
            if routes is not None and routes.version == self._cluster.version and not self._closed and \
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
                    if not routes.hold:
                        # The topic's records of other kinds come in between keyed ones: no holding
                        # (a group another thread started just before that was found goes first).
                        if self._held:
                            self._hand_over_topic(topic)
                        tps = routes.tps
                        future, full, new_batch = self._accumulator.append(
                            tps[murmur2_partition(key, len(tps))], timestamp_ms, key, value, headers,
                            self._max_block, size, header_bytes)
                        if full or new_batch:
                            self._batch_event(topic, full, False, routes.all, routes.available)
                        return future
                    # Held back for a bulk hand-over, in the topic's open group while it has memory left.
                    started = False
                    while True:
                        with self._held_lock:
                            held = self._held.get(topic)
                            if held is not None and held.credit >= size and held.version == routes.version and \
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
        if cached is None or cached.version != self._cluster.version:
            return None
        tp = self._tps.get((topic, partition))
        if tp is None or partition not in cached.all:
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
            self._batch_event(topic, full, False, cached.all, cached.available)
        return future

    def _send(self, topic: str, value: Any, key: Any, headers: Optional[Sequence[Header]],
              partition: Optional[int], timestamp_ms: Optional[int]) -> FutureRecordMetadata:
        """send()'s every case, one pipeline step after the other (kafka.producer.pipeline)."""
        pipeline = self._pipeline
        # 1. checks: open, topic name; the topic's held records go first
        pipeline.open_topic(topic)
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
        # 4. size (before the metadata wait: a record too large fails at once)
        size = (len(key) if key else 0) + (len(value) if value else 0) + extra
        if size > self._max_fast_value:
            check_record_size(key, value, headers, self._max_request_size, pipeline.buffer_memory)
        started = time.monotonic()
        # 2. metadata
        try:
            version, all_parts, available = pipeline.cached_partitions(topic)
        except ClusterUnusable as exc:
            return _failed_future(topic, partition, exc.error)
        # 3. partition
        sticky = partition is None and key is None and self._default_partitioner
        keyed = partition is None and key is not None and self._keyed_fast
        if partition is None:
            partition = pipeline.choose_partition(topic, given_key, key, given_value, value, all_parts, available)
        elif partition not in all_parts:
            pipeline.check_partition(topic, partition, all_parts)
        if timestamp_ms is None:
            timestamp_ms = int(_time() * 1000)
        # 5. the partition (enrolled in the transaction), and the fast paths' caches
        tp = pipeline.tp_to_send(topic, partition)
        if self._transactions is None:
            if sticky and self._value_serializer is None:
                # Let the fast path in send() reuse this choice.
                self._sticky_tps[topic] = StickyRoute(version, tp, all_parts, available)
            elif keyed:
                # Let the keyed fast path in send() route the topic's next keyed records.
                self._key_routes[topic] = KeyRoutes(version, [self._tp(topic, p) for p in all_parts], all_parts,
                                                    available)
        left = self._max_block - (time.monotonic() - started)
        future, full, new_batch = self._accumulator.append(tp, timestamp_ms, key, value, headers,
                                                           left if left > 0 else 0.0, size + RECORD_OVERHEAD,
                                                           header_bytes)
        # 6. wake the sender
        if full or new_batch:
            self._batch_event(topic, full, sticky, all_parts, available)
        if full and key is None and not self._default_partitioner and pipeline.on_new_batch is not None:
            pipeline.on_new_batch(topic, partition)  # records without a key may move on
        return future

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

        return send_batch(self._pipeline, topic, values, keys, headers, partition, timestamps)

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
        pipeline = self._pipeline
        pipeline.open_topic(topic, check_name=False)  # the caller checked the name
        tp = pipeline.tp_to_send(topic, partition)
        known = len(placed)
        _, full = self._accumulator.append_many(tp, records, sizes, 0.0, placed, since=since)
        pipeline.runs_queued(placed, full, known)

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
            self._pipeline.closed = True
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

    def _check_open(self) -> None:
        if self._closed:
            raise errors.IllegalStateError("the producer is closed")

    def __enter__(self) -> "KafkaProducer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
