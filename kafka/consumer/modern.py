"""The engine's consumer: reads records from assigned or subscribed partitions.

:class:`ModernKafkaConsumer` is what the engine's own users (the Spark source,
the CLI) build. The public ``KafkaConsumer`` (``kafka.KafkaConsumer``) is
its subclass in the simple layer, :class:`kafka.simple.consumer.KafkaConsumer`,
which adds the kafka-python 0.9 methods and option names.
:mod:`kafka.consumer.kafka` serves both under kafka-python's module path.

Why the class is not simply named ``KafkaConsumer``: that name already
means the public class (``kafka.KafkaConsumer``, ``kafka.consumer.KafkaConsumer``
and ``kafka.consumer.kafka.KafkaConsumer`` are one object, the subclass with
the 0.9 methods). A second class of the same name here would give two
different classes one ``repr``, and a ``mock.patch`` or ``isinstance`` on the
wrong one would silently miss. "Modern" is the glossary's word for the
kafka-python 2.x/3.x API (see :doc:`/architecture`): this class is
``KafkaConsumer`` without its 0.9 methods, and the name says so.

The application thread drives everything from :meth:`ModernKafkaConsumer.poll`
(or iteration): group membership (through the group coordinator, whose
heartbeats run on a thread of their own), position lookups, and fetching.
Fetches are pipelined: when ``poll`` hands out buffered records it first
sends the next fetch, so the broker is already working while the
application processes them.
"""

from __future__ import annotations

import copy
import logging
import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Set, Tuple

from kafka import compat_config, errors
from kafka.client.routing import RoutingClient
from kafka.client.network import DEFAULT_CONFIG as CLIENT_CONFIG
from kafka.config_checks import check_config_values
from kafka.metric_registry import MetricRegistry, read_metrics, registry_from_config
from kafka.consumer.fetch_metrics import FetchMetrics
from kafka.consumer.fetcher import ConsumerRecord, Fetcher
from kafka.consumer.group.metrics import CoordinatorMetrics
from kafka.gc_pause import restore_threshold
from kafka.consumer.group.common import GroupMetadata
from kafka.consumer.offset_reset import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP
from kafka.consumer.subscription import EARLIEST, LATEST, SubscriptionState, check_offset, reset_strategy
from kafka.protocol.broker_version_data import BrokerVersionData
from kafka.record.rows import OFFSET
from kafka.serializer import close_converter
from kafka.structs import OffsetAndMetadata, OffsetAndTimestamp, TopicPartition
from kafka.topic_names import check_topic_name, check_topic_partition

log = logging.getLogger(__name__)

DEFAULT_CONFIG: Dict[str, Any] = {
    "group_id": None,
    "key_deserializer": None,
    "value_deserializer": None,
    "fetch_min_bytes": 1,
    "fetch_max_wait_ms": 500,
    "fetch_max_bytes": 52428800,
    "max_partition_fetch_bytes": 1 * 1024 * 1024,
    "auto_offset_reset": "latest",
    "enable_auto_commit": True,
    "auto_commit_interval_ms": 5000,
    "default_offset_commit_callback": None,
    "check_crcs": True,
    "partition_assignment_strategy": ("range", "roundrobin"),
    "heartbeat_interval_ms": 3000,
    "session_timeout_ms": 45000,
    "max_poll_records": 500,
    "max_poll_interval_ms": 300000,
    "consumer_timeout_ms": float("inf"),
    "isolation_level": "read_uncommitted",
    "exclude_internal_topics": True,
    "group_instance_id": None,
    "group_protocol": "classic",
    "deserialize_none": False,
    "client_rack": "",
}
DEFAULT_CONFIG.update({k: v for k, v in CLIENT_CONFIG.items() if k not in DEFAULT_CONFIG})
DEFAULT_CONFIG["request_timeout_ms"] = 30000  # as kafka-python 3; JoinGroup waits longer on its own

def _offset_of(record: Any) -> int:
    """The offset of a record row (of any record class)."""
    offset: int = record[OFFSET]
    return offset


class ModernKafkaConsumer:
    """Consumes records from Kafka topics.

    ``ModernKafkaConsumer(*topics, **configs)``: topics given here are
    subscribed (a ``group_id`` makes the group assign partitions; without one
    every partition of the topics is read). Configuration names follow
    kafka-python (see ``DEFAULT_CONFIG``), and every key of kafka-python 3's
    consumer is accepted (those without a meaning here are listed in
    :mod:`kafka.compat_config`). ``deserialize_none=True`` hands null keys and
    values to the deserializers, as kafka-python does.
    """

    #: Every accepted key with its default, kafka-python's ignored keys included.
    DEFAULT_CONFIG = compat_config.kafka_python_defaults("consumer", DEFAULT_CONFIG)

    #: The session timeout kafka-python uses when ``api_version`` names a broker
    #: before 3.0, whose ``group.max.session.timeout.ms`` defaulted to 30 s (KIP-735
    #: raised the default session timeout to 45 s with 3.0).
    DEFAULT_SESSION_TIMEOUT_MS_PRE_KIP_735 = 30000

    def __init__(self, *topics: str, **configs: Any) -> None:
        probe_version = "api_version" in configs and configs["api_version"] in (None, "auto")
        pre_kip_735 = "session_timeout_ms" not in configs
        configs, ignored = compat_config.split("consumer", configs)
        unknown = set(configs) - set(DEFAULT_CONFIG)
        if unknown:
            raise errors.KafkaConfigurationError("unknown consumer configuration: %s" % ", ".join(sorted(unknown)))
        check_config_values(configs, DEFAULT_CONFIG, checked_elsewhere=["bootstrap_servers"])
        self.config = copy.copy(DEFAULT_CONFIG)
        self.config.update(configs)
        self.config.update(ignored)
        if self.config["group_protocol"] not in ("classic", "consumer"):
            raise errors.KafkaConfigurationError("group_protocol must be 'classic' or 'consumer'")
        for topic in topics:
            check_topic_name(topic)  # before the client (and its sockets) exists
        api_version = self.config.setdefault("api_version", None)  # shown as kafka-python shows it
        if pre_kip_735 and api_version is not None and tuple(api_version) < (3, 0):
            self.config["session_timeout_ms"] = self.DEFAULT_SESSION_TIMEOUT_MS_PRE_KIP_735
        client_config = {k: self.config[k] for k in CLIENT_CONFIG}
        self._client = RoutingClient(**client_config)
        self._report_broker_version = api_version is None
        try:
            self._set_up(topics)
            if probe_version:
                # api_version=None given explicitly: connect now and show the broker's release,
                # as kafka-python's constructor does (an unreachable broker is not an error here).
                self.bootstrap(timeout_ms=self.config.get("api_version_auto_timeout_ms", 2000))
        except BaseException:
            # The caller never gets the consumer to close: its sockets are closed here.
            self._client.close()
            raise

    def _set_up(self, topics: Tuple[str, ...]) -> None:
        """The constructor's part after the client exists (subscribing to ``topics`` may reach the brokers)."""
        self._subscription = SubscriptionState(reset_strategy(self.config["auto_offset_reset"]))
        self._fetcher = Fetcher(
            self._client, self._subscription, key_deserializer=self.config["key_deserializer"],
            value_deserializer=self.config["value_deserializer"], fetch_min_bytes=self.config["fetch_min_bytes"],
            fetch_max_wait_ms=self.config["fetch_max_wait_ms"], fetch_max_bytes=self.config["fetch_max_bytes"],
            max_partition_fetch_bytes=self.config["max_partition_fetch_bytes"],
            max_poll_records=self.config["max_poll_records"], check_crcs=self.config["check_crcs"],
            isolation_level=self.config["isolation_level"], request_timeout_ms=self.config["request_timeout_ms"],
            deserialize_none=self.config["deserialize_none"], client_rack=self.config["client_rack"])
        self._coordinator: Any = None
        if self.config["group_id"] is not None:
            self._coordinator = self._make_coordinator()
        self._metrics = registry_from_config(self.config, self._client.config["client_id"])
        if self._metrics is not None:
            self._enable_metrics(self._metrics)
        self._closed = False
        self._iterator: Optional[Iterator[ConsumerRecord]] = None
        self._deadline: Optional[float] = None
        if topics:
            self.subscribe(topics)

    def _enable_metrics(self, registry: MetricRegistry) -> None:
        """Register kafka-python's consumer metrics: connections, fetches and (with a group) the coordinator."""
        prefix = self.config.get("metric_group_prefix") or "consumer"
        self._client.enable_metrics(registry, prefix)
        self._fetcher.metrics = FetchMetrics(registry, prefix)
        # kafkawire's own, from before these metrics existed: kept for the programs that read them.
        subscription, client = self._subscription, self._client
        registry.add("assigned-partitions", prefix + "-metrics", lambda _now: len(subscription.assigned_partitions()),
                     "Partitions assigned to this consumer (kafkawire's own).")
        registry.add("requests-in-flight", prefix + "-metrics", lambda _now: client.in_flight_request_count(),
                     "Requests awaiting their response (kafkawire's own).")
        if self._coordinator is not None:
            self._coordinator.link.metrics = CoordinatorMetrics(
                registry, lambda: len(subscription.assigned_partitions()), prefix)

    def _make_coordinator(self) -> Any:
        from kafka.consumer.group.coordinator import ConsumerCoordinator

        keys = ("group_instance_id", "session_timeout_ms", "heartbeat_interval_ms", "max_poll_interval_ms",
                "retry_backoff_ms", "enable_auto_commit", "auto_commit_interval_ms",
                "default_offset_commit_callback", "partition_assignment_strategy", "group_protocol",
                "exclude_internal_topics", "request_timeout_ms")
        return ConsumerCoordinator(self._client, self._subscription, group_id=self.config["group_id"],
                                   **{k: self.config[k] for k in keys})

    def __repr__(self) -> str:
        return "<KafkaConsumer group_id=%r>" % (self.config["group_id"],)

    # -- subscription and assignment ---------------------------------------------------------

    def subscribe(self, topics: Iterable[str] = (), pattern: Optional[str] = None, listener: Any = None) -> None:
        """Subscribe to ``topics`` or a regex ``pattern``; the group assigns partitions."""
        self._check_open()
        if isinstance(topics, str):
            topics = [topics]
        self._subscription.subscribe(topics, pattern, listener)
        if pattern:
            self._client.track_all_topics()
        else:
            self._client.set_topics(self._subscription.subscription or ())
        if self._coordinator is None:
            # No group: read every partition of the subscribed topics.
            self._assign_all_partitions()

    def _assign_all_partitions(self) -> None:
        self._client.ensure_topics(sorted(self._subscription.subscription or ()),
                                   timeout_ms=self.config["request_timeout_ms"])
        partitions = [TopicPartition(t, p) for t in sorted(self._subscription.subscription or ())
                      for p in sorted(self._client.cluster.partitions_for_topic(t) or ())]
        self._subscription.assign_from_subscribed(partitions)

    def unsubscribe(self) -> None:
        """Stop consuming subscribed topics (and leave the group's assignment)."""
        if self._coordinator is not None and self._subscription.subscribed:
            self._coordinator.maybe_leave_group("unsubscribe")
        self._subscription.unsubscribe()
        self._fetcher.clear_buffered()

    def subscription(self) -> Set[str]:
        """The subscribed topics."""
        return set(self._subscription.subscription or ())

    def assign(self, partitions: Iterable[TopicPartition]) -> None:
        """Read exactly ``partitions`` (no group rebalancing)."""
        self._check_open()
        partitions = [check_topic_partition(tp) for tp in partitions]
        self._subscription.assign_from_user(partitions)
        self._fetcher.clear_buffered()
        self._client.set_topics({tp.topic for tp in partitions})

    def assignment(self) -> Set[TopicPartition]:
        """The partitions currently assigned."""
        return self._subscription.assigned_partitions()

    # -- polling --------------------------------------------------------------------------

    def set_record_class(self, record_class: type) -> None:
        """Build the records :meth:`poll` returns as instances of ``record_class``.

        For libraries that give records another interface: ``record_class``
        must be a subclass of :class:`tuple` that takes the fields of
        :class:`~kafka.consumer.fetcher.ConsumerRecord` in that order
        (:data:`kafka.record.rows.ROW_FIELDS`); instances are made with
        ``tuple.__new__``, so its own ``__new__`` and ``__init__`` are not
        called. Applies to records fetched from then on.
        """
        if not isinstance(record_class, type) or not issubclass(record_class, tuple):
            raise errors.IllegalArgumentTypeError("record_class must be a tuple subclass, not %r" % (record_class,))
        self._fetcher.record_class = record_class

    def poll(self, timeout_ms: float = 0, max_records: Optional[int] = None,
             update_offsets: bool = True) -> Dict[TopicPartition, List[ConsumerRecord]]:
        """Records fetched for the assigned partitions, waiting up to ``timeout_ms``.

        At most ``max_records`` (default ``max_poll_records``) records; as in
        kafka-python, a negative ``timeout_ms`` or a ``max_records`` below 1
        is a ValueError (:class:`~kafka.errors.IllegalArgumentError`).
        """
        self._check_open()
        if max_records is not None:
            if type(max_records) is not int:
                raise errors.IllegalArgumentTypeError("max_records must be an int, not %s"
                                                      % type(max_records).__name__)
            if max_records < 1:
                raise errors.IllegalArgumentError("max_records must be at least 1, not %d" % max_records)
        if not timeout_ms >= 0:
            raise errors.IllegalArgumentError("timeout_ms must be 0 or more, not %r" % (timeout_ms,))
        if not self._subscription.subscribed and not self._subscription.user_assignment:
            raise errors.IllegalStateError("subscribe() or assign() before poll()")
        deadline = time.monotonic() + timeout_ms / 1000.0
        fetcher = self._fetcher
        while True:
            remaining_ms = max((deadline - time.monotonic()) * 1000.0, 0.0)
            if self._coordinator is not None:
                self._coordinator.poll(remaining_ms)
            if self._need_positions():
                self._update_positions(max(remaining_ms, 100.0))
            records = fetcher.fetched_records(max_records)
            if records:
                # Pipelining: the next fetch leaves before the records are processed.
                if fetcher.send_fetches():
                    self._client.poll(timeout_ms=0)
                return records
            fatal = self._client.fatal_error()
            if fatal is not None:
                # Every broker refused us for good (certificate, login, versions):
                # waiting out timeout_ms would only hide it.
                raise fatal
            fetcher.send_fetches()
            remaining_ms = max((deadline - time.monotonic()) * 1000.0, 0.0)
            self._client.poll(timeout_ms=min(remaining_ms, fetcher.wait_deadline() * 1000.0))
            if time.monotonic() >= deadline:
                return {}  # even with something buffered that gave no record this time round
            if fetcher.has_buffered():
                continue

    def take_partition_errors(self) -> List[Tuple[TopicPartition, errors.KafkaError]]:
        """Errors about assigned partitions that ``poll`` found and went on past, each handed out once.

        Today: a partition the group coordinator does not know when its
        committed offset is looked up (``UnknownTopicOrPartitionError``). The
        consumer keeps waiting for such a partition, as kafka-python does
        (the topic may be about to be created); this lets a caller report it.
        """
        return [] if self._coordinator is None else self._coordinator.take_partition_errors()

    def _need_positions(self) -> bool:
        sub = self._subscription
        return bool(sub.partitions_without_position() or sub.partitions_needing_reset())

    def _update_positions(self, timeout_ms: float) -> None:
        missing = self._subscription.partitions_without_position()
        if missing:
            if self._coordinator is not None:
                self._coordinator.refresh_committed_offsets(missing, timeout_ms)
            else:
                for tp in missing:
                    self._subscription.request_reset(tp)
        self._fetcher.reset_offsets(timeout_ms)

    def __iter__(self) -> "ModernKafkaConsumer":
        return self

    def __next__(self) -> ConsumerRecord:
        if self._iterator is None:
            self._iterator = self._message_generator()
        try:
            return next(self._iterator)
        except StopIteration:
            self._iterator = None
            raise

    def _message_generator(self) -> Iterator[ConsumerRecord]:
        timeout = self.config["consumer_timeout_ms"]
        last_record = time.monotonic()
        while not self._closed:
            wait_ms = min(self.config["fetch_max_wait_ms"],
                          (last_record + timeout / 1000.0 - time.monotonic()) * 1000.0
                          if timeout != float("inf") else 1000.0)
            batches = self.poll(timeout_ms=max(wait_ms, 0.0))
            if batches:
                last_record = time.monotonic()
                yield from self._hand_out_one_by_one(batches)
            elif timeout != float("inf") and time.monotonic() - last_record >= timeout / 1000.0:
                return

    def _hand_out_one_by_one(self, batches: Dict[TopicPartition, List[ConsumerRecord]]) -> Iterator[ConsumerRecord]:
        """Yield a poll's records one at a time, the positions following what was yielded.

        ``poll`` advanced each position past all of its records; they go back
        to the first record and move on with each one the application is
        given, so that a commit (``close()``, auto-commit, ``commit()``) made
        between two ``next()`` calls covers only records handed out. A
        partition sought, paused or revoked meanwhile keeps its new position
        and its remaining records are dropped (they are fetched again). When
        iteration stops halfway, the fetcher sees that the position is behind
        what it handed out and fetches again from there.
        """
        subscription = self._subscription
        ends: Dict[TopicPartition, int] = {}
        for tp, records in batches.items():
            state = subscription.assigned_state(tp)
            if state is not None and state.position is not None:
                ends[tp] = state.position
                state.position = _offset_of(records[0])
        for tp, records in batches.items():
            end = ends.get(tp)
            if end is None:
                continue
            expected = _offset_of(records[0])
            last = len(records) - 1
            for i, record in enumerate(records):
                state = subscription.assigned_state(tp)
                if state is None or state.paused or state.position != expected:
                    break  # sought, paused or revoked since the poll
                expected = state.position = end if i == last else _offset_of(record) + 1
                yield record

    # -- positions ----------------------------------------------------------------------------

    def seek(self, partition: TopicPartition, offset: int) -> None:
        """Read ``partition`` from ``offset`` at the next poll."""
        self._subscription.seek(check_topic_partition(partition), offset)
        self._fetcher.clear_buffered({check_topic_partition(partition)})

    def _targets(self, partitions: Iterable[TopicPartition]) -> List[TopicPartition]:
        targets = [check_topic_partition(tp) for tp in partitions] or sorted(self._subscription.assigned_partitions())
        for tp in targets:
            self._subscription.state(tp)  # raises if not assigned
        return targets

    def seek_to_beginning(self, *partitions: TopicPartition) -> None:
        """Read the given (default: all assigned) partitions from their earliest offset."""
        targets = self._targets(partitions)
        for tp in targets:
            self._subscription.request_reset(tp, EARLIEST)
        self._fetcher.clear_buffered(set(targets))

    def seek_to_end(self, *partitions: TopicPartition) -> None:
        """Read the given (default: all assigned) partitions from their end."""
        targets = self._targets(partitions)
        for tp in targets:
            self._subscription.request_reset(tp, LATEST)
        self._fetcher.clear_buffered(set(targets))

    def position(self, partition: TopicPartition, timeout_ms: Optional[float] = None) -> int:
        """The offset of the next record to be returned for ``partition``."""
        self._check_open()
        tp = check_topic_partition(partition)
        state = self._subscription.state(tp)
        deadline = time.monotonic() + (timeout_ms if timeout_ms is not None else
                                       self.config["request_timeout_ms"]) / 1000.0
        while not state.has_valid_position:
            left = (deadline - time.monotonic()) * 1000.0
            if left <= 0:
                raise errors.KafkaTimeoutError("no position for %s-%d within the timeout" % tp)
            self._update_positions(left)
            if not state.has_valid_position:
                # Its leader is unknown or unreachable for now: wait out the retry back-off.
                self._client.poll(timeout_ms=min(max(left, 0.0), self.config["retry_backoff_ms"]))
        position = state.position
        assert position is not None  # has_valid_position says so
        return position

    def known_position(self, partition: TopicPartition) -> Optional[int]:
        """The position of ``partition`` if it is known already (None instead of looking it up)."""
        state = self._subscription.state(check_topic_partition(partition))
        return state.position if state.has_valid_position else None

    def highwater(self, partition: TopicPartition) -> Optional[int]:
        """The high watermark last seen for ``partition`` (None before a fetch returned)."""
        return self._subscription.state(check_topic_partition(partition)).highwater

    def pause(self, *partitions: TopicPartition) -> None:
        """Stop returning records of ``partitions`` until resumed."""
        for tp in partitions:
            self._subscription.pause(check_topic_partition(tp))
        self._fetcher.clear_buffered({check_topic_partition(tp) for tp in partitions})

    def resume(self, *partitions: TopicPartition) -> None:
        """Return records of ``partitions`` again."""
        for tp in partitions:
            self._subscription.resume(check_topic_partition(tp))

    def paused(self) -> Set[TopicPartition]:
        """The paused partitions."""
        return self._subscription.paused_partitions()

    # -- committing ------------------------------------------------------------------------------

    def _group(self) -> Any:
        if self._coordinator is None:
            raise errors.IllegalStateError("committing offsets needs a group_id")
        return self._coordinator

    def commit(self, offsets: Optional[Dict[TopicPartition, Any]] = None,
               timeout_ms: Optional[float] = None, retry_partition_errors: bool = True) -> Optional[bool]:
        """Commit ``offsets`` (default: the current positions) and wait.

        Retriable errors are retried until ``timeout_ms`` (default
        ``request_timeout_ms``), as kafka-python and the Java client do.
        ``retry_partition_errors=False`` retries only errors of the group
        coordinator, as librdkafka does: an error the broker gives for a
        partition (an unknown topic, say) is raised at once. The error of a
        refused commit lists the partitions in ``refused_partitions``
        (``{TopicPartition: error code}``) when the broker named them.
        """
        self._check_open()
        offsets = self._offsets_to_commit(offsets)
        self._group().commit_offsets_sync(offsets, timeout_ms or self.config["request_timeout_ms"],
                                          retry_partition_errors)
        return None

    def serve_commits(self, timeout_ms: float = 0) -> None:
        """Move asynchronous commits along without polling for records.

        Sends commits that waited for the coordinator, reads answers for up
        to ``timeout_ms`` and runs the callbacks of the commits that finished;
        it joins no group and fetches nothing, so a consumer with nothing
        assigned can use it. With no commit pending it just waits ``timeout_ms``.
        """
        self._check_open()
        if self._coordinator is None or not self._coordinator.serve_commits(timeout_ms):
            time.sleep(max(timeout_ms, 0.0) / 1000.0)

    def commit_async(self, offsets: Optional[Dict[TopicPartition, Any]] = None,
                     callback: Optional[Callable[..., Any]] = None) -> Any:
        """Commit without waiting; ``callback(offsets, exception)`` when done."""
        self._check_open()
        offsets = self._offsets_to_commit(offsets)
        return self._group().commit_offsets_async(offsets, callback)

    def _offsets_to_commit(self, offsets: Optional[Dict[TopicPartition, Any]]) -> Dict[TopicPartition, OffsetAndMetadata]:
        if offsets is None:
            return self._subscription.all_consumed()
        checked = {}
        for tp, o in offsets.items():
            checked[check_topic_partition(tp)] = om = o if isinstance(o, OffsetAndMetadata) else OffsetAndMetadata(o, "")
            check_offset(om.offset, "an offset to commit")
        return checked

    def group_metadata(self) -> GroupMetadata:
        """This member's :class:`~kafka.consumer.group.common.GroupMetadata` (group id, generation,
        member id, :class:`~kafka.structs.MemberState`), for ``send_offsets_to_transaction``.

        Without a ``group_id`` (manual assignment) it is ``GroupMetadata(None)``: no group,
        permanently ``MemberState.UNJOINED``, as kafka-python 3 answers.
        """
        if self._coordinator is None:
            return GroupMetadata(None)
        return self._coordinator.group_metadata()

    def committed_offsets(self, partitions: Iterable[TopicPartition], timeout_ms: Optional[float] = None,
                          metadata: bool = False) -> Dict[TopicPartition, Any]:
        """The group's last committed offset of each of ``partitions`` (None where none), in one lookup.

        ``metadata=True`` gives the whole :class:`OffsetAndMetadata` instead of the offset.
        """
        self._check_open()
        wanted = [check_topic_partition(tp) for tp in partitions]
        found = self._group().fetch_committed_offsets(wanted, timeout_ms or self.config["request_timeout_ms"])
        if metadata:
            return {tp: found.get(tp) for tp in wanted}
        return {tp: None if found.get(tp) is None else found[tp].offset for tp in wanted}

    def set_position_auto_commit(self, enabled: bool) -> None:
        """Whether the group's auto-commit (``enable_auto_commit``) commits the consumed positions.

        A layer that commits offsets of its own choosing turns it off; without
        a group this does nothing.
        """
        if self._coordinator is not None:
            self._coordinator.config["enable_auto_commit"] = enabled

    def committed(self, partition: TopicPartition, metadata: bool = False,
                  timeout_ms: Optional[float] = None) -> Any:
        """The last committed offset of ``partition`` for the group (None if none).

        ``metadata=True`` returns the whole :class:`OffsetAndMetadata`.
        ``timeout_ms`` bounds the lookup (default ``request_timeout_ms``).
        """
        self._check_open()
        result = self._group().fetch_committed_offsets(
            [check_topic_partition(partition)],
            self.config["request_timeout_ms"] if timeout_ms is None else timeout_ms)
        found = result.get(check_topic_partition(partition))
        if found is None:
            return None
        return found if metadata else found.offset

    # -- metadata and offsets lookups -------------------------------------------------------------

    def broker_stats(self) -> List[Dict[str, Any]]:
        """Connection counters per broker (see :meth:`kafka.client.network.NetworkClient.broker_stats`)."""
        return self._client.broker_stats()

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Log in with these ``PLAIN``/``SCRAM`` credentials from the next connection on (open ones stay)."""
        self._client.set_sasl_credentials(username, password)

    def bootstrap_connected(self) -> bool:
        """Whether the consumer has cluster metadata and a live connection to a broker."""
        return self._client.bootstrap_connected()

    def bootstrap(self, timeout_ms: Optional[float] = None, refresh: bool = False) -> bool:
        """Fetch cluster metadata now (if none yet, or ``refresh``); whether it arrived in ``timeout_ms``."""
        self._check_open()
        if refresh or not self._client.bootstrap_connected():
            try:
                self._client.refresh_metadata(self.config["request_timeout_ms"] if timeout_ms is None
                                              else timeout_ms)
            except errors.KafkaError:
                return False
        self._note_broker_version()
        return self._client.bootstrap_connected()

    def _note_broker_version(self) -> None:
        """With no ``api_version`` configured, show the connected broker's release there (kafka-python does)."""
        if not self._report_broker_version:
            return
        ranges = self._client.api_ranges()
        if ranges is not None:
            self.config["api_version"] = BrokerVersionData(api_versions=ranges).broker_version
            self._report_broker_version = False

    def topics(self) -> Set[str]:
        """Topics the cluster has (the internal ones excluded unless configured otherwise)."""
        self._check_open()
        self._client.track_all_topics()
        self._client.refresh_metadata(self.config["request_timeout_ms"])
        return self._client.cluster.topics(self.config["exclude_internal_topics"])

    def partitions_for_topic(self, topic: str) -> Optional[Set[int]]:
        """Partition numbers of ``topic`` (None if unknown)."""
        self._check_open()
        check_topic_name(topic)
        self._client.ensure_topics([topic], timeout_ms=self.config["request_timeout_ms"])
        return self._client.cluster.partitions_for_topic(topic)

    def beginning_offsets(self, partitions: Iterable[TopicPartition],
                          timeout_ms: Optional[float] = None) -> Dict[TopicPartition, int]:
        """Earliest offset of each partition."""
        self._check_open()
        return self._offsets_at(partitions, EARLIEST_TIMESTAMP, timeout_ms)

    def end_offsets(self, partitions: Iterable[TopicPartition],
                    timeout_ms: Optional[float] = None) -> Dict[TopicPartition, int]:
        """Offset after the last record (the high watermark, or the LSO with read_committed)."""
        self._check_open()
        return self._offsets_at(partitions, LATEST_TIMESTAMP, timeout_ms)

    def _offsets_at(self, partitions: Iterable[TopicPartition], timestamp: int,
                    timeout_ms: Optional[float]) -> Dict[TopicPartition, int]:
        found = self._fetcher.list_offsets({check_topic_partition(tp): timestamp for tp in partitions},
                                           timeout_ms or self.config["request_timeout_ms"])
        return {tp: result.offset for tp, result in found.items()}

    def offsets_for_times(self, timestamps: Dict[TopicPartition, int],
                          timeout_ms: Optional[float] = None) -> Dict[TopicPartition, Optional[OffsetAndTimestamp]]:
        """For each partition, the earliest offset whose timestamp is at least the one given.

        A partition that stays unknown for the whole ``timeout_ms`` (default
        ``request_timeout_ms``) raises :class:`~kafka.errors.KafkaTimeoutError`, as
        kafka-python does; the :class:`~kafka.errors.UnknownTopicOrPartitionError`
        behind it is its ``__cause__``.
        """
        self._check_open()
        for ts in timestamps.values():
            if ts < 0:
                raise errors.IllegalArgumentError("timestamps must be >= 0")
        timeout = timeout_ms or self.config["request_timeout_ms"]
        try:
            found = self._fetcher.list_offsets({check_topic_partition(tp): ts for tp, ts in timestamps.items()},
                                               timeout)
        except errors.UnknownTopicOrPartitionError as exc:
            raise errors.KafkaTimeoutError("offsets by timestamp not found within %s ms: %s" % (timeout, exc)) from exc
        return {check_topic_partition(tp): found.get(check_topic_partition(tp)) for tp in timestamps}

    def metrics(self, raw: bool = False) -> Optional[Dict[Any, Any]]:
        """kafka-python's consumer metrics, as ``{group: {name: value}}``.

        Groups: ``consumer-metrics`` (connections and requests),
        ``consumer-node-metrics.node-<id>``, ``consumer-fetch-manager-metrics``
        (``records-consumed-rate``, ``fetch-latency-avg``, ``records-lag-max``
        ...), ``consumer-coordinator-metrics`` (with a ``group_id``) and
        ``kafka-metrics-count``; ``metric_group_prefix`` replaces
        ``consumer``. Rates and averages cover the last
        ``metrics_num_samples`` windows of ``metrics_sample_window_ms``.
        ``raw=True`` returns the MetricName to KafkaMetric mapping; None
        when ``metrics_enabled`` is False (as kafka-python does).
        """
        return read_metrics(self._metrics, raw)

    # -- closing -----------------------------------------------------------------------------------

    def close(self, autocommit: bool = True, timeout_ms: Optional[float] = None,
              wait_unsent_commits: bool = True) -> None:
        """Commit (if auto-commit is on), leave the group and close connections.

        Asynchronous commits not answered yet are waited for, up to
        ``timeout_ms``; ``wait_unsent_commits=False`` fails at once those that
        are still waiting for a coordinator to be found (librdkafka's way).
        """
        if self._closed:
            return
        self._closed = True
        try:
            if self._coordinator is not None:
                self._coordinator.close(autocommit=autocommit,
                                        timeout_ms=timeout_ms if timeout_ms is not None else 30000,
                                        wait_unsent_commits=wait_unsent_commits)
        finally:
            self._client.close()
            restore_threshold()  # a last poll may have lifted the collector's threshold
            # Configured Deserializer objects are closed, as kafka-python's consumer does.
            close_converter(self.config["key_deserializer"])
            close_converter(self.config["value_deserializer"])
            if self._metrics is not None:
                self._metrics.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise errors.IllegalStateError("the consumer is closed")

    def __enter__(self) -> "ModernKafkaConsumer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
