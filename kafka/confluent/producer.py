"""``Producer``: confluent-kafka's producer API on top of :class:`kafka.KafkaProducer`.

produce() never blocks. It checks and partitions a record and keeps it back
in this module; kept records reach the engine's batches in bulk
(:meth:`KafkaProducer.queue_prepared`). A record whose topic metadata is not
known yet waits in a queue of its own while a helper thread asks the engine
for it. The engine's completion hook (one per batch, on its sender thread)
only queues the batch's records; poll() and flush() turn them into delivery
reports in the application's thread, in the order the engine completed them.
"""

from __future__ import annotations

import collections
import logging
import random
import threading
import time
from typing import Any, Callable, Deque, Dict, List, Optional, Set, Tuple

from kafka import errors as engine_errors
from kafka.confluent import config as confmod
from kafka.confluent._client_events import EventRelay
from kafka.confluent._closing import Closable
from kafka.confluent._kept_records import KeptRun, Record, ReportGroup
from kafka.confluent._log_forward import client_name, forwarder_for, threads_named
from kafka.confluent._produce_batch import produce_batch
from kafka.confluent._stats import statistics
from kafka.confluent._metadata import MetadataSource, check_credentials
from kafka.confluent.kafka_error import KafkaError, KafkaException, fatal_from_engine, from_engine
from kafka.confluent.message import Message, partitions_list
from kafka.confluent.partitioners import PARTITIONERS, RANDOM
from kafka.producer.accumulator import new_lock
from kafka.producer.future import ProduceResult
from kafka.producer.kafka import KafkaProducer
from kafka.record.batch import RECORD_OVERHEAD, estimate_record_size
from kafka.record.varint import size_of_varint

log = logging.getLogger(__name__)
_monotonic = time.monotonic
_time = time.time

#: The name prefix of the engine's I/O thread (whose log records ``logger`` receives).
_SENDER_THREAD = "kafkawire-producer-sender-"
#: Most seconds between looks at a known topic's partition count.
_REFRESH_EVERY = 10.0


def _as_bytes(what: str, data: Any) -> Optional[bytes]:
    if data is None or isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode("utf-8")
    raise TypeError("%s must be bytes, str or None, not %s" % (what, type(data).__name__))


def _headers_sized(headers: Any) -> Tuple[Optional[Tuple[Tuple[str, Optional[bytes]], ...]], int]:
    """``headers`` as a tuple of ``(str, bytes or None)`` pairs (None for none), and a bound on their size.

    The bound is at least the bytes they take in a record batch
    (:func:`_headers_wire_size`): produce() measures them exactly only
    when the bound is near ``message.max.bytes``. A tuple, not a list: the
    queued record holding it is then no longer tracked by CPython's cyclic
    garbage collector (see :func:`kafka.producer.record_checks.check_headers_sized`).
    """
    if headers is None:
        return None, 0
    if type(headers) is list:
        # The usual form, (str, bytes or None) tuples, is taken as it is, in one pass.
        bound = 0
        for header in headers:
            if type(header) is not tuple or len(header) != 2:
                break
            name, value = header
            if type(name) is not str:
                break
            if value is None:
                bound += 10 + 4 * len(name)  # two varints of 5 bytes at most, 4 bytes a character
            elif type(value) is bytes:
                bound += 10 + 4 * len(name) + len(value)
            else:
                break
        else:
            return (tuple(headers), bound) if headers else (None, 0)
    if isinstance(headers, dict):
        items = list(headers.items())
    elif isinstance(headers, list):
        items = headers
    else:
        raise TypeError("headers must be a list of (key, value) tuples or a dict")
    out: List[Tuple[str, Optional[bytes]]] = []
    bound = 0
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError("each header must be a (key, value) tuple")
        name, value = item
        # confluent-kafka takes any header name and uses its str().
        name = name if isinstance(name, str) else str(name)
        value = _as_bytes("header value", value)
        out.append((name, value))
        bound += 10 + 4 * len(name) + (len(value) if value is not None else 0)
    return (tuple(out), bound) if out else (None, 0)


def _headers(headers: Any) -> Optional[Tuple[Tuple[str, Optional[bytes]], ...]]:
    """``headers`` as a tuple of ``(str, bytes or None)`` pairs, None for none (see :func:`_headers_sized`)."""
    return _headers_sized(headers)[0]


#: librdkafka's "unassigned" partition: the partitioner chooses. Any other negative partition is unknown.
PARTITION_UA = -1

#: What librdkafka adds to a record's key, value and headers at most when it
#: checks ``message.max.bytes`` in produce(): the record's length, attributes,
#: timestamp and offset deltas, key and value lengths and header count, each
#: as a varint of its largest size.
_RECORD_MAX_OVERHEAD = 5 + 1 + 10 + 5 + 5 + 5 + 5


def _headers_wire_size(headers: Tuple[Tuple[str, Optional[bytes]], ...]) -> int:
    """The bytes ``headers`` take in a record batch (name and value, each after its varint length)."""
    size = 0
    for name, value in headers:
        name_size = len(name.encode("utf-8"))
        value_size = len(value) if value is not None else 0
        size += size_of_varint(name_size) + name_size + size_of_varint(value_size) + value_size
    return size


def _timeout_ms(timeout: Optional[float]) -> Optional[float]:
    """A confluent-kafka timeout in seconds (None or negative: none) as the engine's milliseconds."""
    return None if timeout is None or timeout < 0 else timeout * 1000.0


def _too_large() -> KafkaException:
    return KafkaException(KafkaError(KafkaError.MSG_SIZE_TOO_LARGE,  # type: ignore[attr-defined]
                                     "Unable to produce message: Broker: Message size too large"))


#: Records kept back before produce() hands them to the engine itself (the sender takes them earlier).
_HAND_OVER_AT = 512

def _linger_outlasts_timeout(config: confmod.Config) -> bool:
    """Whether ``linger.ms`` reaches the message timeout (librdkafka's rules; 0 means no timeout).

    A ``message.timeout.ms`` given explicitly must exceed ``linger.ms``, or
    the producer is refused at construction; otherwise the default (or, for
    a transactional producer, ``transaction.timeout.ms`` when smaller) is
    compared, and produce() refuses every record.
    """
    linger = float(config.get("queue.buffering.max.ms") or 5)
    timeout = config.get_int("message.timeout.ms")
    if config.is_set("message.timeout.ms"):
        if timeout and linger >= timeout:
            raise KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                            "Failed to create producer: `message.timeout.ms` must be greater "
                                            "than `linger.ms`"))
        return False
    if config.get("transactional.id"):
        timeout = min(timeout, config.get_int("transaction.timeout.ms"))
    return bool(timeout) and linger >= timeout


class _Waiting:
    """A record produced before its topic's metadata was known."""

    __slots__ = ("partition", "record", "data_bytes", "callback", "started", "purged")

    def __init__(self, partition: int, record: Record, data_bytes: int,
                 callback: Optional[Callable[..., Any]], started: float) -> None:
        self.partition = partition
        self.record = record
        self.data_bytes = data_bytes
        self.callback = callback
        self.started = started
        self.purged = False

    def alone(self) -> KeptRun:
        """The record as a run of its own."""
        run = KeptRun(self.started)
        _keep_in(run, self.record, self.data_bytes, self.callback, self.started)
        return run


def _keep_in(run: KeptRun, record: Record, data_bytes: int, callback: Optional[Callable[..., Any]],
             started: float) -> None:
    """Add ``record`` to ``run`` with its estimated size in a batch."""
    stamp, key, value, headers = record
    run.add(stamp, key, value, headers, data_bytes,
            RECORD_OVERHEAD + data_bytes if headers is None else estimate_record_size(key, value, headers),
            callback, started)


class Producer(Closable):
    """An asynchronous producer with confluent-kafka's interface.

    ``Producer(conf, logger=None)``: ``conf`` holds librdkafka property names
    (see :doc:`/confluent`); defaults are librdkafka's. Delivery reports reach
    ``on_delivery(err, msg)`` from :meth:`poll` and :meth:`flush` only.

    produce() checks and partitions each record and keeps it back briefly;
    records reach the engine's batches in bulk, from produce() every few
    hundred records, from poll()/flush(), or from the engine's sender thread
    at its next turn (so they leave within ``linger.ms`` with no further
    call). Reports are served one batch at a time.
    """

    _closed_text = "Producer has been closed"
    #: The transactional call that timed out and waits to be made again (see _txn_call).
    _txn_pending: Optional[str] = None
    #: Whether produce() must look at _check_can_produce (True until __init__ has set it).
    _refusing = True

    def __init__(self, conf: Any = confmod.NOT_GIVEN, logger: Optional[logging.Logger] = None,
                 **kwargs: Any) -> None:
        conf = confmod.from_arguments(conf, kwargs)
        self._config = confmod.parse(conf, "producer")
        cb = self._config.callbacks
        self._logger = logger or cb.get("logger")
        self._on_delivery = cb.get("on_delivery")
        self._error_cb = cb.get("error_cb")
        self._stats_cb = cb.get("stats_cb")
        self._only_errors = self._config.get_bool("delivery.report.only.error")
        self._max_messages = self._config.get_int("queue.buffering.max.messages")
        self._max_bytes = self._config.get_int("queue.buffering.max.kbytes") * 1024
        #: The most bytes of key, value and headers a record may have (message.max.bytes).
        self._max_record_data = self._config.get_int("message.max.bytes") - _RECORD_MAX_OVERHEAD
        self._partitioner = PARTITIONERS[self._config.get("partitioner") or "consistent_random"]
        self._message_timeout = self._config.get_int("message.timeout.ms") / 1000.0
        self._linger_too_long = _linger_outlasts_timeout(self._config)
        self._stats_interval = self._config.get_int("statistics.interval.ms") / 1000.0
        self._next_stats = time.monotonic() + self._stats_interval
        ignored = confmod.ignored(self._config, "producer")
        if ignored:
            log.debug("properties accepted but not used by kafkawire: %s", ", ".join(ignored))
        settings = confmod.producer_settings(self._config)
        self._relay = EventRelay(self._error_cb, cb.get("throttle_cb"))
        settings["client_events"] = self._relay.listener()
        # partitions_for() in the helper thread waits up to max_block_ms for metadata.
        settings["max_block_ms"] = max(min(self._message_timeout or 300.0, 300.0), 0.001) * 1000.0
        senders = threads_named(_SENDER_THREAD)
        try:
            self._engine = KafkaProducer(**settings)
        except engine_errors.KafkaError as exc:
            raise KafkaException(from_engine(exc)) from exc
        self._name = client_name(self._config.get("client.id") or "rdkafka", "producer")
        self._started = time.monotonic()
        self._reports_served = 0
        self._log_forward = forwarder_for(self._logger, self._name)
        if self._log_forward is not None:
            self._log_forward.watch_threads(threads_named(_SENDER_THREAD) - senders)
        self._metadata = MetadataSource(settings)
        self._lock = new_lock()
        # Held while records pass to the engine, so that they reach it in produce() order
        # (and abort_transaction/purge see none half-way); reentrant for abort_transaction.
        self._handing_over = threading.RLock()
        self._reports: Deque[ReportGroup] = collections.deque()
        self._reports_ready = threading.Condition(self._lock)
        self._report_waiters = 0
        self._count = 0
        self._bytes = 0
        self._known_topics: Dict[str, List[int]] = {}
        self._sticky_for = self._config.get_int("sticky.partitioning.linger.ms") / 1000.0
        self._sticky_choice: Dict[str, Tuple[int, float]] = {}
        self._waiting: Dict[str, Deque[_Waiting]] = {}
        #: When each known topic's partition count is looked at again.
        self._refresh_at: Dict[str, float] = {}
        refresh_ms = self._config.get_int("topic.metadata.refresh.interval.ms")
        self._refresh_every = min(_REFRESH_EVERY, refresh_ms / 1000.0) if refresh_ms > 0 else _REFRESH_EVERY
        self._closed = False
        self._fatal_reported = False
        self._unsent: Dict[Tuple[str, int], KeptRun] = {}
        # (topic, partition, run) of the run produce() added to last, while it is in _unsent: a
        # run of records for one partition skips building and hashing the tuple key.
        self._recent_run: Optional[Tuple[str, int, KeptRun]] = None
        self._unsent_count = 0
        self._transactional = bool(self._config.get("transactional.id"))
        # A transactional producer's first record of a partition waits for the coordinator: that
        # may not happen on the sender thread, so its records are handed over at once instead.
        self._hand_over_at = 1 if self._transactional else _HAND_OVER_AT
        #: Whether produce() must look at _check_can_produce (kept up to date; one test per record).
        self._refusing = self._transactional or self._linger_too_long
        if self._hand_over_at > 1:
            self._engine.on_sender_turn(self._hand_over_unsent)
        #: linger.ms in seconds: how long records may be kept back before they are handed over.
        self._linger = settings["linger_ms"] / 1000.0
        self._wake_sender_within = self._engine.wakeup_sender_within

    # -- producing --------------------------------------------------------------------------

    def produce(self, topic: Any, value: Any = None, key: Any = None, partition: Any = -1,
                on_delivery: Optional[Callable[..., Any]] = None, callback: Optional[Callable[..., Any]] = None,
                timestamp: Any = 0, headers: Any = None) -> None:
        """Queue a record for ``topic``; raises BufferError when the local queue is full.

        ``value`` and ``key`` may be bytes or str (encoded as UTF-8);
        ``partition`` -1 lets the configured partitioner choose; ``timestamp``
        0 means now; ``headers`` is a list of ``(str, bytes|str|None)`` tuples
        or a dict. ``on_delivery`` (or ``callback``) overrides the configured
        delivery report callback for this record.
        """
        if type(topic) is not str:
            raise TypeError("topic must be str, not %s" % type(topic).__name__)
        value_bytes = value if value is None or type(value) is bytes else _as_bytes("value", value)
        key_bytes = key if key is None or type(key) is bytes else _as_bytes("key", key)
        if type(partition) is not int and not isinstance(partition, int):
            raise TypeError("partition must be int, not %s" % type(partition).__name__)
        if type(timestamp) is not int and (isinstance(timestamp, bool) or not isinstance(timestamp, int)):
            raise TypeError("timestamp must be int, not %s" % type(timestamp).__name__)
        # Like confluent-kafka, a callback that is not callable fails only when its report is served.
        report_to = on_delivery if on_delivery is not None else callback
        record_headers, headers_bound = (None, 0) if headers is None else _headers_sized(headers)
        if self._refusing:
            self._check_can_produce()
        if report_to is None:
            report_to = self._on_delivery
        size = (len(key_bytes) if key_bytes else 0) + (len(value_bytes) if value_bytes else 0)
        if size + headers_bound > self._max_record_data and (
                size > self._max_record_data or (record_headers is not None and
                                                 size + _headers_wire_size(record_headers) > self._max_record_data)):
            raise _too_large()
        stamp = timestamp if timestamp > 0 else int(_time() * 1000)
        with self._lock:
            if self._count >= self._max_messages or self._bytes + size > self._max_bytes:
                raise BufferError(KafkaError(KafkaError._QUEUE_FULL).str())  # type: ignore[attr-defined]
            partitions = self._known_topics.get(topic)
            if partitions is None or (self._waiting and topic in self._waiting):
                self._count += 1
                self._bytes += size
                self._wait_for_metadata(topic, _Waiting(partition, (stamp, key_bytes, value_bytes, record_headers),
                                                        size, report_to, _monotonic()))
                return
            if partition == PARTITION_UA:
                partition = self._choose(topic, key_bytes, partitions, sticky=True)
            elif partition not in partitions:
                self._refresh_due_topics({topic})  # the partition may be new
                raise KafkaException(KafkaError(
                    KafkaError._UNKNOWN_PARTITION,  # type: ignore[attr-defined]
                    "Unable to produce message: Local: Unknown partition"))
            self._count += 1
            self._bytes += size
            # Kept back for the next hand-over (_keep's work, with the run of the previous record
            # found without building and hashing a key).
            recent = self._recent_run
            if recent is not None and recent[0] is topic and recent[1] == partition:
                run = recent[2]
            else:
                run = self._unsent.get((topic, partition))  # type: ignore[assignment]
                if run is None:
                    run = self._unsent[(topic, partition)] = KeptRun(_monotonic())
                self._recent_run = (topic, partition, run)
            run.add(stamp, key_bytes, value_bytes, record_headers, size,
                    RECORD_OVERHEAD + size if record_headers is None
                    else estimate_record_size(key_bytes, value_bytes, record_headers),
                    report_to, _monotonic() if report_to is not None else 0.0)
            kept = self._unsent_count = self._unsent_count + 1
        if kept >= self._hand_over_at:
            self._hand_over_unsent()
        elif kept == 1:
            # The sender's turn hook hands them over within linger.ms; their batch lingers from
            # the first one's produce() (see _queue), so they leave when librdkafka's would.
            self._wake_sender_within(self._linger)

    def _check_can_produce(self) -> None:
        """Raise what librdkafka's produce() raises when the producer cannot take records now."""
        self._check_open()
        if self._fatal_reported:
            raise KafkaException(KafkaError(KafkaError._FATAL,  # type: ignore[attr-defined]
                                            "Unable to produce message: Local: Fatal error"))
        if self._transactional and not self._engine.in_transaction():
            raise KafkaException(KafkaError(KafkaError._STATE,  # type: ignore[attr-defined]
                                            "Unable to produce message: Local: Erroneous state"))
        if self._linger_too_long:
            # librdkafka refuses every record whose linger would outlast its message timeout.
            raise KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                            "Unable to produce message: Local: Invalid argument or configuration"))

    def produce_batch(self, topic: Any, messages: Any, partition: Any = -1,
                      callback: Optional[Callable[..., Any]] = None,
                      on_delivery: Optional[Callable[..., Any]] = None) -> int:
        """Queue ``messages`` (dicts: ``value``, ``key``, ``callback``) for ``topic``, all to ``partition``.

        Returns how many were queued; one the queue had no room for gets an
        ``_error`` (:class:`KafkaError`) in its dict. ``callback`` (or its
        alias ``on_delivery``) reports the messages that have no callback of
        their own. As in confluent-kafka, timestamps and headers are not taken
        in batch mode, and a message's own ``partition`` is checked but not used.
        """
        if isinstance(topic, str) and isinstance(messages, list) and not messages:
            return 0  # confluent-kafka answers an empty batch before looking at the producer
        self._check_open()
        return produce_batch(self.produce, topic, messages, partition,
                             callback if callback is not None else on_delivery)

    def _keep(self, topic: str, partition: int, waiting: _Waiting) -> None:
        """Keep a record that waited for metadata back for the next hand-over (called with the lock held)."""
        run = self._unsent.get((topic, partition))
        if run is None:
            run = self._unsent[(topic, partition)] = KeptRun(waiting.started)
        _keep_in(run, waiting.record, waiting.data_bytes, waiting.callback, waiting.started)
        self._unsent_count += 1

    def _choose(self, topic: str, key: Optional[bytes], partitions: List[int], sticky: bool) -> int:
        """The configured partitioner's choice for ``key`` (called with the lock held).

        Keyless records are spread at random: stuck to one partition for
        ``sticky.partitioning.linger.ms`` when ``sticky``; records that
        waited for the topic's metadata are spread one by one, as librdkafka
        does with the records it partitions once the topic becomes known.
        """
        index = self._partitioner(key, len(partitions))
        if index != RANDOM:
            return partitions[index]
        if not sticky or self._sticky_for <= 0:
            return random.choice(partitions)
        now = _monotonic()
        chosen = self._sticky_choice.get(topic)
        if chosen is None or now >= chosen[1] or chosen[0] not in partitions:
            chosen = self._sticky_choice[topic] = (random.choice(partitions), now + self._sticky_for)
        return chosen[0]

    def _hand_over_unsent(self) -> None:
        """Give the records kept back to the engine, in order; also the sender thread's hook."""
        if not self._unsent:  # checked again under the locks
            return
        with self._handing_over:
            with self._lock:
                if not self._unsent:
                    return
                runs, self._unsent = self._unsent, {}
                self._recent_run = None
                self._unsent_count = 0
                self._refresh_due_topics({topic for topic, _ in runs})
            for (topic, partition), run in runs.items():
                self._queue(topic, partition, run)

    def _refresh_due_topics(self, topics: Set[str]) -> None:
        """Look again at the partition count of each of ``topics`` not looked at for a while (lock held).

        Done when kept records are handed over rather than in produce(): a
        few times a second at most, instead of a clock read per record.
        """
        now = _monotonic()
        for topic in topics:
            if now > self._refresh_at.get(topic, now):
                self._refresh_at[topic] = now + self._refresh_every
                threading.Thread(target=self._refresh_topic, args=(topic,), daemon=True,
                                 name="kafkawire-confluent-refresh-%s" % topic).start()

    def _queue(self, topic: str, partition: int, run: KeptRun) -> None:
        """Hand ``run`` to the engine; register one report group per batch its records land in."""
        placed: List[Tuple[ProduceResult, int, int]] = []
        failure: Optional[BaseException] = None
        try:
            self._engine.queue_prepared(topic, partition, run.for_engine(), run.sizes, placed, since=run.since)
        except Exception as exc:  # noqa: BLE001 - reported to the application, like librdkafka does
            failure = exc
        start = 0
        for result, first, count in placed:
            result.on_done(self._batch_done, ReportGroup(topic, partition, run, start, start + count, result, first,
                                                         None))
            start += count
        if failure is not None and start < len(run):
            self._fail(ReportGroup(topic, partition, run, start, len(run), None, 0, self._delivery_error(failure)))

    def _wait_for_metadata(self, topic: str, waiting: _Waiting) -> None:
        """Queue a record of a topic whose metadata is not known yet (called with the lock held)."""
        queue = self._waiting.get(topic)
        if queue is None:
            queue = self._waiting[topic] = collections.deque()
            threading.Thread(target=self._resolve_topic, args=(topic,), daemon=True,
                             name="kafkawire-confluent-metadata-%s" % topic).start()
        queue.append(waiting)

    def _refresh_topic(self, topic: str) -> None:
        """Helper thread: pick up a changed partition count (the engine refreshes its metadata)."""
        try:
            partitions = sorted(self._engine.partitions_for(topic))
        except Exception:  # noqa: BLE001 - keep what is known; records will report their own errors
            return
        with self._lock:
            if topic in self._known_topics:
                self._known_topics[topic] = partitions

    def _resolve_topic(self, topic: str) -> None:
        """Helper thread for one topic: fetch its metadata, then hand its waiting records over.

        One thread per unknown topic, so that a topic that never appears
        (its records time out) does not hold up the others.
        """
        error: Optional[KafkaError] = None
        partitions: List[int] = []
        try:
            partitions = sorted(self._engine.partitions_for(topic))
        except Exception as exc:  # noqa: BLE001 - reported to the application
            error = self._delivery_error(exc)
        while True:
            with self._handing_over:
                failed: List[_Waiting] = []
                with self._lock:
                    queue = self._waiting.get(topic)
                    if not queue:
                        self._waiting.pop(topic, None)
                        if error is None:
                            self._known_topics[topic] = partitions
                            self._refresh_at[topic] = time.monotonic() + self._refresh_every
                        return
                    batch = list(queue)
                    queue.clear()
                    # Records produced meanwhile join the queue and are handed over by the next
                    # round, so their order is kept.
                    for waiting in batch:
                        if waiting.purged:
                            continue
                        if error is not None or (waiting.partition != PARTITION_UA
                                                 and waiting.partition not in partitions):
                            failed.append(waiting)
                            continue
                        partition = waiting.partition
                        if partition == PARTITION_UA:
                            partition = self._choose(topic, waiting.record[1], partitions, sticky=False)
                        self._keep(topic, partition, waiting)
                for waiting in failed:
                    self._fail(ReportGroup(topic, waiting.partition, waiting.alone(), 0, 1, None, 0,
                                           error or KafkaError(KafkaError._UNKNOWN_PARTITION)))  # type: ignore[attr-defined]
                self._hand_over_unsent()

    def _delivery_error(self, exc: BaseException) -> KafkaError:
        fatal = self._engine.fatal_error()
        if fatal is not None and type(exc) is type(fatal):
            # A fatal error purges the records still queued, as in librdkafka.
            return KafkaError(KafkaError._PURGE_QUEUE)  # type: ignore[attr-defined]
        if isinstance(exc, engine_errors.RecordsPurgedError):
            return KafkaError(KafkaError._PURGE_INFLIGHT if isinstance(exc, engine_errors.PurgedInFlightError)  # type: ignore[attr-defined]
                              else KafkaError._PURGE_QUEUE)  # type: ignore[attr-defined]
        if isinstance(exc, engine_errors.KafkaTimeoutError):
            return KafkaError(KafkaError._MSG_TIMED_OUT)  # type: ignore[attr-defined]
        return from_engine(exc)

    def _batch_done(self, group: ReportGroup) -> None:
        """The engine's hook, on its sender thread, once per batch: queue the batch's reports."""
        # No lock unless poll()/flush() waits. (_serve counts itself as a waiter before it
        # looks at the queue, so no wake-up is lost.)
        self._reports.append(group)
        if self._report_waiters:
            with self._lock:
                self._reports_ready.notify_all()

    def _fail(self, group: ReportGroup) -> None:
        """Queue reports for records that failed here, not in the engine."""
        self._batch_done(group)

    def _queued_reports(self) -> int:
        """Delivery reports queued and not served yet."""
        return sum(map(len, list(self._reports)))

    # -- serving events ----------------------------------------------------------------------

    def _serve(self, timeout: Optional[float]) -> int:
        if self._unsent:
            self._hand_over_unsent()
        deadline = None if timeout is None or timeout < 0 else time.monotonic() + timeout
        with self._lock:
            self._report_waiters += 1
            try:
                while not self._reports:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        break
                    self._reports_ready.wait(left if left is not None else 0.2)
                    if deadline is None and not self._reports and self._count == 0:
                        break
            finally:
                self._report_waiters -= 1
        served = self._relay.serve() if self._relay else 0
        if not self._fatal_reported:
            fatal = self._engine.fatal_error()
            if fatal is not None:
                self._raise_fatal(fatal)
        reports = self._reports
        groups = []
        while reports:
            groups += reports.popleft().by_outcome()
        previous: Optional[Tuple[str, int, Optional[int]]] = None
        lock = self._lock
        only_errors = self._only_errors
        now = _monotonic()
        new_message = tuple.__new__
        for index, group in enumerate(groups):
            topic, partition, run, start, stop = group.topic, group.partition, group.run, group.start, group.stop
            error = group.error
            result = group.result
            base = -1
            append_time = -1
            if result is not None:
                if result.error is not None:
                    error = self._delivery_error(result.error)
                else:
                    base = result.base_offset
                    if base >= 0:
                        base += group.first
                    append_time = result.log_append_time
            # librdkafka counts one event per batch of reports (one per produce response);
            # consecutive batches of one partition with the same outcome stand for that here.
            outcome = (topic, partition, error.code() if error is not None else None)
            if outcome != previous:
                served += 1
                previous = outcome
            data_bytes = run.bytes_between(start, stop)
            with lock:
                self._count -= stop - start
                self._bytes -= data_bytes
            self._reports_served += stop - start
            if (only_errors and error is None) or not run.has_callback_between(start, stop):
                continue
            shown_partition = partition if partition != PARTITION_UA else None
            stamp_type = 1 if append_time >= 0 else 0  # the row's: 0 create time, 1 log-append time
            callbacks, started, stamps, values = run.callbacks, run.started, run.stamps, run.values
            keys = run.keys
            for i in range(start + group.skip, stop):
                callback = callbacks[i]  # type: ignore[index]
                if callback is None:
                    continue
                message = new_message(Message, (
                    topic, shown_partition, -1,
                    None if error is not None else (base + i - start if base >= 0 else -1),
                    append_time if stamp_type else stamps[i], stamp_type, keys[i] if keys is not None else None,
                    values[i], None, None, -1, -1, -1))
                if error is not None:
                    message._error = error
                message._latency = now - started[i]  # type: ignore[index]
                try:
                    callback(error, message)
                except BaseException:
                    # As librdkafka does, the rest are served at the next poll(), and until
                    # then len() counts them and the record whose callback raised.
                    self._put_back(groups[index + 1:], group.rest_from(i))
                    raise
        if self._log_forward is not None:
            self._log_forward.serve()
        self._maybe_stats()
        return served

    def _put_back(self, groups: List[ReportGroup], rest: ReportGroup) -> None:
        """Queue ``rest`` (counted again in len()) and then ``groups`` before any other reports."""
        with self._lock:
            self._count += len(rest)
            self._bytes += rest.data_bytes()
            self._reports.extendleft(reversed([rest] + groups))
        self._reports_served -= len(rest)

    def _raise_fatal(self, fatal: BaseException) -> None:
        """Raise the producer's fatal error from poll(), once, as confluent-kafka does."""
        self._fatal_reported = True
        self._refusing = True
        raise KafkaException(fatal_from_engine(fatal)) from fatal

    def _maybe_stats(self) -> None:
        if self._stats_cb is None or self._stats_interval <= 0 or time.monotonic() < self._next_stats:
            return
        self._next_stats = time.monotonic() + self._stats_interval
        with self._lock:
            topics: Dict[str, Dict[int, Dict[str, Any]]] = {
                topic: {p: {} for p in partitions} for topic, partitions in self._known_topics.items()}
            counters = {"replyq": self._queued_reports(), "msg_cnt": self._count, "msg_size": self._bytes}
        self._stats_cb(statistics(
            name=self._name, client_id=self._config.get("client.id") or "rdkafka", role="producer",
            started=self._started, connections=self._engine.broker_stats(), topics=topics,
            msg_max=self._max_messages, msg_size_max=self._max_bytes, txmsgs=self._reports_served, **counters))

    def poll(self, timeout: Optional[float] = None) -> int:
        """Serve delivery reports and other callbacks, waiting up to ``timeout`` seconds for one.

        ``None`` or a negative timeout waits until an event arrives.
        Returns the number of events served.
        """
        self._check_open()
        if timeout is not None and not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a number")
        if timeout is None or timeout < 0:
            with self._lock:
                idle = self._count == 0 and not self._reports
            if idle:
                return self._relay.serve() if self._relay else 0
        return self._serve(timeout)

    def flush(self, timeout: Optional[float] = None) -> int:
        """Wait until every queued record is delivered and reported; return how many are left.

        ``None`` or a negative timeout waits without limit. As in librdkafka,
        queued records are sent at once, without waiting out ``linger.ms``.
        """
        self._check_open()
        deadline = None if timeout is None or timeout < 0 else time.monotonic() + timeout
        with self._lock:
            if self._count == 0:
                return 0
        with self._engine.without_linger():
            while True:
                with self._lock:
                    if self._count == 0:
                        return 0
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    self._serve(0)
                    with self._lock:
                        return self._count
                self._serve(0.1 if left is None else min(left, 0.1))

    def __len__(self) -> int:
        """Records produced whose delivery report has not been served yet."""
        if self._closed:
            return 0
        with self._lock:
            return self._count

    def __bool__(self) -> bool:
        return True

    def purge(self, in_queue: bool = True, in_flight: bool = True, blocking: bool = True) -> None:
        """Fail records not delivered yet: their reports carry ``_PURGE_QUEUE`` / ``_PURGE_INFLIGHT``.

        ``in_queue`` purges the records not sent yet (those waiting for topic
        metadata included), ``in_flight`` those whose request awaits the
        broker's answer (which is then ignored). The reports are served by the
        next :meth:`poll` or :meth:`flush`. ``blocking`` is accepted; purging
        never waits here.
        """
        self._check_open()
        with self._handing_over:
            if in_queue:
                failed: List[ReportGroup] = []
                with self._lock:
                    for topic, queue in self._waiting.items():
                        for waiting in queue:
                            waiting.purged = True
                            failed.append(ReportGroup(topic, waiting.partition, waiting.alone(), 0, 1, None, 0,
                                                      KafkaError(KafkaError._PURGE_QUEUE)))  # type: ignore[attr-defined]
                    self._waiting.clear()
                    runs, self._unsent = self._unsent, {}
                    self._recent_run = None
                    self._unsent_count = 0
                for (topic, partition), run in runs.items():
                    failed.append(ReportGroup(topic, partition, run, 0, len(run), None, 0,
                                              KafkaError(KafkaError._PURGE_QUEUE)))  # type: ignore[attr-defined]
                for group in failed:
                    self._fail(group)
            if in_queue or in_flight:
                self._engine.purge(in_queue, in_flight)

    # -- metadata ------------------------------------------------------------------------------

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Use these SASL PLAIN/SCRAM credentials for the next logins (open connections stay)."""
        self._check_handle()
        check_credentials(username, password)
        self._engine.set_sasl_credentials(username, password)
        self._metadata.set_sasl_credentials(username, password)


    def list_topics(self, topic: Optional[str] = None, timeout: float = -1) -> Any:
        """Cluster metadata (:class:`kafka.confluent.admin.ClusterMetadata`), for one topic or all."""
        self._check_handle()
        return self._metadata.cluster_metadata(topic, timeout)

    def cluster_id(self, timeout: float = -1) -> Optional[str]:
        """The cluster's id, from broker metadata."""
        self._check_handle()
        return self._metadata.cluster_id(timeout)

    # -- transactions ------------------------------------------------------------------------

    def _txn_call(self, name: str, action: Callable[[], Any]) -> None:
        """Run the transactional call ``name``; raise what librdkafka raises when it fails.

        A call that timed out is left pending, as in librdkafka: the same call
        made again resumes it, and any other transactional call until then
        fails with a retriable ``_CONFLICT``.
        """
        self._check_open()
        pending = self._txn_pending
        if pending is not None and pending != name and self._engine.fatal_error() is None:
            raise KafkaException(KafkaError(KafkaError._CONFLICT,  # type: ignore[attr-defined]
                                            "Conflicting %s API call is already in progress" % pending,
                                            retriable=True))
        try:
            action()
            self._txn_pending = None
        except KafkaException:
            raise
        except engine_errors.KafkaError as exc:
            fatal = self._engine.fatal_error()
            if fatal is not None:
                # Every call after a fatal error reports that error, as in librdkafka.
                raise KafkaException(fatal_from_engine(fatal)) from exc
            if isinstance(exc, (engine_errors.KafkaTimeoutError, engine_errors.NoBrokersAvailable)):
                # Nothing was decided: librdkafka asks for the same call again, which resumes it.
                self._txn_pending = name
                raise KafkaException(KafkaError(
                    KafkaError._TIMED_OUT,  # type: ignore[attr-defined]
                    "Timed out waiting for operation to finish, retry call to resume", retriable=True)) from exc
            self._txn_pending = None
            error = from_engine(exc)
            abortable = not isinstance(exc, (engine_errors.IllegalStateError,)) and \
                not getattr(exc, "retriable", False)
            raise KafkaException(KafkaError(error.code(), error.str(),
                                            retriable=bool(getattr(exc, "retriable", False)),
                                            txn_requires_abort=abortable)) from exc

    def init_transactions(self, timeout: Optional[float] = None) -> None:
        """Register ``transactional.id`` with its coordinator (fencing older producers)."""
        self._check_open()
        self._txn_call("init_transactions", lambda: self._engine.init_transactions(_timeout_ms(timeout)))

    def begin_transaction(self) -> None:
        """Start a transaction."""
        self._check_open()
        self._txn_call("begin_transaction", self._engine.begin_transaction)

    def send_offsets_to_transaction(self, positions: Any, group_metadata: Any, timeout: Optional[float] = None) -> None:
        """Commit the consumer ``positions`` (TopicPartition list) within the transaction."""
        self._check_open()
        offsets = {}
        from kafka.structs import OffsetAndMetadata, TopicPartition as EngineTP

        for tp in partitions_list(positions, "positions"):
            offsets[EngineTP(tp.topic, tp.partition)] = OffsetAndMetadata(tp.offset, tp.metadata or "")
        group = getattr(group_metadata, "engine_metadata", group_metadata)
        self._txn_call("send_offsets_to_transaction",
                       lambda: self._engine.send_offsets_to_transaction(offsets, group, _timeout_ms(timeout)))

    def commit_transaction(self, timeout: Optional[float] = None) -> None:
        """Deliver the transaction's records, serve their delivery reports, then commit it."""
        self._check_open()
        deadline = None if timeout is None or timeout < 0 else time.monotonic() + timeout
        self.flush(timeout if timeout is not None else -1)
        left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        self._txn_call("commit_transaction", lambda: self._engine.commit_transaction(_timeout_ms(left)))

    def abort_transaction(self, timeout: Optional[float] = None) -> None:
        """Abort the transaction; records not yet handed to the engine fail with ``_PURGE_QUEUE``.

        Records still waiting for their topic's metadata, or being handed to the
        engine by the thread that fetched it, would otherwise reach the engine
        after the abort and be written in the next transaction.
        """
        self._check_open()
        with self._handing_over:
            self.purge(in_queue=True, in_flight=False)
        self._txn_call("abort_transaction", lambda: self._engine.abort_transaction(_timeout_ms(timeout)))

    # -- lifecycle -------------------------------------------------------------------------------

    def close(self, timeout: Optional[float] = None) -> bool:
        """Deliver what is queued (up to ``timeout`` s), serve its reports and release resources.

        Returns True, as confluent-kafka does when the close was requested.
        """
        if self._closed:
            return True
        self.flush(timeout if timeout is not None else -1)
        if self._relay:
            self._relay.serve_closing()
        self._closed = True
        self._refusing = True
        self._engine.close(timeout=timeout if timeout is not None and timeout >= 0 else None)
        self._metadata.close()
        if self._log_forward is not None:
            self._log_forward.close()
            self._log_forward.serve()
        return True

    def __enter__(self) -> "Producer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
