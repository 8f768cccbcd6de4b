"""``Consumer``: confluent-kafka's consumer API on top of :class:`kafka.KafkaConsumer`.

Everything runs in the application's thread: poll()/consume() drive the
engine, whose group work calls the rebalance listener there, and this module
hands the application one record at a time from what the engine fetched.
Offsets follow librdkafka's model: a record handed out is *stored*
(``enable.auto.offset.store``), and commits - automatic every
``auto.commit.interval.ms``, or explicit - send the stored offsets.
"""

from __future__ import annotations

import collections
import logging
import re
import threading
import time
from typing import Any, Callable, Deque, Dict, List, Optional, Set, Tuple

from kafka import errors as engine_errors
from kafka.confluent import config as confmod
from kafka.confluent._client_events import EventRelay
from kafka.confluent._closing import Closable
from kafka.confluent._log_forward import client_name, forwarder_for
from kafka.confluent._record_buffer import RecordBuffer
from kafka.confluent._stats import statistics
from kafka.confluent._metadata import MetadataSource, check_credentials
from kafka.confluent.kafka_error import KafkaError, KafkaException, call_error, from_engine
from kafka.confluent.message import (
    OFFSET_BEGINNING, OFFSET_END, OFFSET_INVALID, OFFSET_STORED, Message, TopicPartition, partitions_list)
from kafka.consumer.modern import ModernKafkaConsumer as KafkaConsumer
from kafka.record.rows import LEADER_EPOCH, OFFSET, PARTITION, TOPIC
from kafka.structs import OffsetAndMetadata, TopicPartition as EngineTP

log = logging.getLogger(__name__)


def _tp(tp: TopicPartition) -> EngineTP:
    return EngineTP(tp.topic, tp.partition)


def _timeout_ms(timeout: Optional[float]) -> Optional[float]:
    """A confluent-kafka timeout in seconds (None or negative: none) as the engine's milliseconds."""
    return None if timeout is None or timeout < 0 else timeout * 1000.0


def _commit_error(exc: BaseException, prefix: str = "") -> KafkaError:
    """The error a failed commit reports, as librdkafka builds it: never retriable, a broker's
    error described by its code (after ``prefix``), ``_WAIT_COORD`` when no coordinator was found."""
    if isinstance(exc, engine_errors.CoordinatorWaitTimeoutError):
        return KafkaError(KafkaError._WAIT_COORD, prefix + KafkaError(KafkaError._WAIT_COORD).str())  # type: ignore[attr-defined]
    error = from_engine(exc)
    if error.code() > 0:
        return KafkaError(error.code(), prefix + KafkaError(error.code()).str())
    return KafkaError(error.code(), error.str())


class ConsumerGroupMetadata:
    """Opaque group membership, for ``Producer.send_offsets_to_transaction``."""

    def __init__(self, engine_metadata: Any) -> None:
        self.engine_metadata = engine_metadata

    def __repr__(self) -> str:
        return "ConsumerGroupMetadata(%r)" % (self.engine_metadata,)


class _Listener:
    """Engine rebalance listener that forwards to the application's callbacks."""

    def __init__(self, owner: "Consumer") -> None:
        self._owner = owner

    def on_partitions_revoked(self, partitions: Set[EngineTP]) -> None:
        self._owner._rebalance("revoke", partitions)

    def on_partitions_assigned(self, partitions: Set[EngineTP]) -> None:
        self._owner._rebalance("assign", partitions)

    def on_partitions_lost(self, partitions: Set[EngineTP]) -> None:
        self._owner._rebalance("lost", partitions)


class Consumer(Closable):
    """A group consumer with confluent-kafka's interface.

    ``Consumer(conf, logger=None)``: ``conf`` holds librdkafka property names
    and must contain ``group.id``. Rebalance callbacks given to
    :meth:`subscribe` and ``on_commit`` run inside :meth:`poll` /
    :meth:`consume`, in the calling thread.
    """

    _closed_text = "Consumer closed"

    def __init__(self, conf: Any = confmod.NOT_GIVEN, logger: Optional[logging.Logger] = None,
                 **kwargs: Any) -> None:
        conf = confmod.from_arguments(conf, kwargs)
        self._config = confmod.parse(conf, "consumer")
        cb = self._config.callbacks
        self._logger = logger or cb.get("logger")
        self._on_commit = cb.get("on_commit")
        self._error_cb = cb.get("error_cb")
        self._stats_cb = cb.get("stats_cb")
        self._stats_interval = self._config.get_int("statistics.interval.ms") / 1000.0
        self._next_stats = time.monotonic() + self._stats_interval
        self._auto_commit = self._config.get_bool("enable.auto.commit")
        self._auto_store = self._config.get_bool("enable.auto.offset.store")
        self._commit_interval = self._config.get_int("auto.commit.interval.ms") / 1000.0
        self._partition_eof = self._config.get_bool("enable.partition.eof")
        settings = confmod.consumer_settings(self._config)
        self._relay = EventRelay(self._error_cb, cb.get("throttle_cb"))
        settings["client_events"] = self._relay.listener()
        self._relay_queue = self._relay.queue
        settings["enable_auto_commit"] = False  # commits of stored offsets are driven from here
        settings["max_poll_records"] = 500
        try:
            self._engine = KafkaConsumer(**settings)
        except engine_errors.KafkaError as exc:
            raise KafkaException(from_engine(exc)) from exc
        self._engine.set_record_class(Message)  # records arrive as Messages: no copy per record
        self._metadata = MetadataSource(settings)
        self._name = client_name(self._config.get("client.id") or "rdkafka", "consumer")
        self._started = time.monotonic()
        self._rx_msgs = 0
        self._log_forward = forwarder_for(self._logger, self._name)
        self._buffer = RecordBuffer()
        self._stored: Dict[EngineTP, Tuple[int, Optional[str], Optional[int]]] = {}
        self._committed_sent: Dict[EngineTP, int] = {}
        self._positions: Dict[EngineTP, int] = {}
        self._handed_tp: Optional[EngineTP] = None  # of the last record handed out, reused while it matches
        self._assigned_at: Dict[EngineTP, int] = {}
        self._eof_sent: Set[EngineTP] = set()
        self._eof_due: List[EngineTP] = []
        self._events: Deque[Callable[[], None]] = collections.deque()
        self._next_commit = time.monotonic() + self._commit_interval
        self._callbacks: Dict[str, Optional[Callable[..., Any]]] = {}
        self._in_rebalance: Optional[str] = None
        self._rebalance_assigned = False
        self._being_assigned: Set[EngineTP] = set()
        self._rebalance_error: Optional[BaseException] = None
        self._subscribed = False
        self._subscription_id = 0
        self._errors: Deque[Message] = collections.deque()  # appended by helper threads
        self._closed = False

    # -- subscription -----------------------------------------------------------------------

    def subscribe(self, topics: Any, on_assign: Optional[Callable[..., Any]] = None,
                  on_revoke: Optional[Callable[..., Any]] = None, on_lost: Optional[Callable[..., Any]] = None) -> None:
        """Join the group for ``topics`` (names, or regexes starting with ``^``); replaces any subscription."""
        self._check_open()
        if not isinstance(topics, list):
            raise TypeError("expected list of topic unicode strings")
        for name in topics:
            if not isinstance(name, str):
                raise TypeError("expected list of topic unicode strings")
        if not topics:
            raise KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                            "Failed to set subscription: Local: Invalid argument or configuration"))
        for name, fn in (("on_assign", on_assign), ("on_revoke", on_revoke), ("on_lost", on_lost)):
            if fn is not None and not callable(fn):
                raise TypeError("%s expects a callable" % name)
        self._callbacks = {"assign": on_assign, "revoke": on_revoke, "lost": on_lost}
        patterns = [t for t in topics if t.startswith("^")]
        listener = _Listener(self)
        try:
            if patterns:
                literal = ["^%s$" % re.escape(t) for t in topics if not t.startswith("^")]
                self._engine.subscribe(pattern="|".join("(?:%s)" % p for p in patterns + literal), listener=listener)
            else:
                self._engine.subscribe(topics, listener=listener)
        except engine_errors.KafkaError as exc:
            raise KafkaException(from_engine(exc)) from exc
        self._subscribed = True
        self._subscription_id += 1
        literal = [t for t in topics if not t.startswith("^")]
        if literal:
            threading.Thread(target=self._check_topics, args=(literal, self._subscription_id), daemon=True,
                             name="kafkawire-confluent-topic-check").start()

    def _check_topics(self, topics: List[str], subscription_id: int) -> None:
        """Helper thread: report subscribed topics that do not exist, as librdkafka does, from poll()."""
        for topic in topics:
            try:
                metadata = self._metadata.cluster_metadata(topic, 10.0)
            except Exception:  # noqa: BLE001 - no answer: nothing to report
                return
            found = metadata.topics.get(topic)
            if found is None or found.error is None or subscription_id != self._subscription_id:
                continue
            error = KafkaError(found.error.code(), "Subscribed topic not available: %s: %s" % (
                topic, KafkaError(found.error.code()).str()))
            self._errors.append(Message(topic, error=error))

    def unsubscribe(self) -> None:
        """Leave the group's subscription (the current assignment is revoked)."""
        self._check_open()
        if self._subscribed:
            self._commit_stored_now(self._engine.assignment())
            self._engine.unsubscribe()
        self._subscribed = False
        self._forget(None)

    # -- assignment -------------------------------------------------------------------------

    def assign(self, partitions: Any) -> None:
        """Read exactly ``partitions``; an offset set in a TopicPartition is where reading starts.

        Inside ``on_assign`` this sets the starting offsets of the assignment
        the group gave.
        """
        self._check_open()
        parts = partitions_list(partitions)
        if self._in_rebalance is not None:
            self._rebalance_assigned = True
            self._apply_offsets(parts)
            return
        self._forget(None)
        self._engine.assign([_tp(tp) for tp in parts])
        self._apply_offsets(parts)

    def incremental_assign(self, partitions: Any) -> None:
        """Add ``partitions`` to the current assignment (offsets as in :meth:`assign`)."""
        self._check_open()
        parts = partitions_list(partitions)
        if self._in_rebalance is not None:
            self._rebalance_assigned = True
            self._apply_offsets(parts)
            return
        current = set(self._engine.assignment())
        for tp in parts:
            if _tp(tp) in current:
                raise KafkaException(KafkaError(KafkaError._CONFLICT,  # type: ignore[attr-defined]
                                                "%s [%d] is already assigned" % (tp.topic, tp.partition)))
        self._drop_buffered(current)
        self._engine.assign(sorted(current | {_tp(tp) for tp in parts}))
        self._apply_offsets(parts)

    def incremental_unassign(self, partitions: Any) -> None:
        """Remove ``partitions`` from the current assignment."""
        self._check_open()
        parts = partitions_list(partitions)
        if self._in_rebalance is not None:
            self._rebalance_assigned = True
            return
        gone = {_tp(tp) for tp in parts}
        current = set(self._engine.assignment())
        if not current and gone:
            raise KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                            "Can't subtract from empty assignment"))
        self._drop_buffered(current)
        self._engine.assign(sorted(current - gone))
        self._forget(gone)

    def unassign(self) -> None:
        """Drop the whole assignment."""
        self._check_open()
        if self._in_rebalance is not None:
            self._rebalance_assigned = True
            return
        self._forget(None)
        if not self._subscribed:
            self._engine.assign([])

    def assignment(self) -> List[TopicPartition]:
        """The partitions currently assigned, with the offsets they were assigned at (as librdkafka keeps them).

        Inside ``on_assign``, until the callback calls :meth:`assign` (or
        :meth:`incremental_assign`), the partitions being assigned are not
        counted yet, as in librdkafka.
        """
        self._check_open()
        current = self._engine.assignment()
        if self._in_rebalance == "assign" and not self._rebalance_assigned:
            current = current - self._being_assigned
        return [TopicPartition(tp.topic, tp.partition, self._assigned_at.get(tp, OFFSET_STORED))
                for tp in sorted(current)]

    def _apply_offsets(self, parts: List[TopicPartition]) -> None:
        for tp in parts:
            # librdkafka shows "no offset given" as "use the committed one".
            self._assigned_at[_tp(tp)] = OFFSET_STORED if tp.offset == OFFSET_INVALID else tp.offset
            self._seek_engine(_tp(tp), tp.offset)

    def _seek_engine(self, etp: EngineTP, offset: int) -> None:
        if offset == OFFSET_BEGINNING:
            self._engine.seek_to_beginning(etp)
        elif offset == OFFSET_END:
            self._engine.seek_to_end(etp)
        elif offset >= 0:
            self._engine.seek(etp, offset)
        self._eof_sent.discard(etp)

    def _drop_buffered(self, tps: Optional[Set[EngineTP]]) -> None:
        """Give buffered records of ``tps`` (all when None) back: the engine re-reads them later."""
        first = self._buffer.drop(tps)
        assigned = self._engine.assignment()
        for etp, offset in first.items():
            if etp in assigned:
                self._engine.seek(etp, offset)

    def _forget(self, tps: Optional[Set[EngineTP]]) -> None:
        self._drop_buffered(tps)
        for table in (self._stored, self._positions, self._assigned_at):
            for etp in list(table):
                if tps is None or etp in tps:
                    del table[etp]
        self._eof_sent = set() if tps is None else self._eof_sent - tps
        self._eof_due = [etp for etp in self._eof_due if tps is not None and etp not in tps]

    # -- rebalances ---------------------------------------------------------------------------

    def _rebalance(self, kind: str, partitions: Set[EngineTP]) -> None:
        """Called by the engine inside its poll, in this thread."""
        if kind == "revoke" and not partitions:
            # The engine tells kafka-python-style listeners about an empty
            # revoke too (the first join included); librdkafka calls on_revoke
            # only when there is something to revoke.
            return
        parts = [TopicPartition(tp.topic, tp.partition) for tp in sorted(partitions)]
        if kind in ("revoke", "lost"):
            if kind == "revoke":
                self._commit_stored_now(set(partitions))
            self._forget(set(partitions))
        callback = self._callbacks.get(kind)
        if callback is None and kind == "lost":
            callback = self._callbacks.get("revoke")
        if callback is None or self._rebalance_error is not None:
            return
        self._in_rebalance = kind
        self._rebalance_assigned = False
        self._being_assigned = set(partitions) if kind == "assign" else set()
        try:
            callback(self, parts)
        except BaseException as exc:  # noqa: BLE001 - raised again from poll()
            self._rebalance_error = exc
        finally:
            self._in_rebalance = None

    # -- consuming -----------------------------------------------------------------------------

    def poll(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next record or event, waiting up to ``timeout`` seconds (None or -1: no limit)."""
        if timeout is not None and not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a number")
        if not self._closed and self._buffer and not (
                self._errors or self._eof_due or self._events or self._partition_eof
                or self._stats_cb is not None or self._relay_queue) and \
                (not self._auto_commit or time.monotonic() < self._next_commit):
            # The common case, a record already fetched and nothing else to serve first.
            return self._hand_out_one()
        found = self._next_messages(1, timeout)
        return found[0] if found else None

    def consume(self, num_messages: int = 1, timeout: float = -1) -> List[Message]:
        """Up to ``num_messages`` records or events, waiting up to ``timeout`` seconds for them."""
        if isinstance(num_messages, bool) or not isinstance(num_messages, int):
            raise TypeError("num_messages must be an int")
        if not 0 <= num_messages <= 1000000:
            raise ValueError("num_messages must be between 0 and 1000000 (1M)")
        if timeout is not None and not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a number")
        return self._next_messages(num_messages, timeout)

    def _next_messages(self, count: int, timeout: Optional[float]) -> List[Message]:
        self._check_open()
        if self._log_forward is not None:
            self._log_forward.watch_current_thread()  # the engine runs in the polling thread
        deadline = None if timeout is None or timeout < 0 else time.monotonic() + timeout
        out: List[Message] = []
        while True:
            self._serve_events()
            while self._errors and len(out) < count:
                out.append(self._errors.popleft())
            while (self._buffer or self._eof_due) and len(out) < count:
                if self._eof_due:
                    # The end of a partition comes right after its last record, as in librdkafka.
                    eof = self._eof_for(self._eof_due.pop(0), set())
                    if eof is not None:
                        out.append(eof)
                    continue
                record = self._hand_out_run(out, count - len(out))
                if self._partition_eof and not self._buffer.holds(record[TOPIC], record[PARTITION]):
                    self._eof_due.append(EngineTP(record[TOPIC], record[PARTITION]))
            if len(out) < count and self._partition_eof:
                out.extend(self._eof_events(count - len(out)))
            self._maybe_auto_commit()
            if len(out) >= count:
                return out
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                self._serve_events()  # events that came in while waiting, as librdkafka serves them
                return out
            if not self._engine.assignment() and not self._subscribed:
                # Nothing to fetch; commits made without an assignment still report to on_commit.
                self._engine.serve_commits(min(left if left is not None else 0.1, 0.1) * 1000.0)
                continue
            wait_ms = 100.0 if left is None else min(left * 1000.0, 100.0)
            try:
                # A large consume() takes what it asked for in one engine poll, which
                # builds the records with the collector paused; poll() buffers 500.
                batches = self._engine.poll(timeout_ms=wait_ms, max_records=max(count - len(out), 500))
            except engine_errors.KafkaError as exc:
                error = from_engine(exc)
                self._raise_rebalance_error()
                out.append(Message(error=error))
                return out
            for records in batches.values():
                self._buffer.extend(records)
                self._rx_msgs += len(records)
            for etp, partition_error in self._engine.take_partition_errors():
                self._errors.append(self._partition_error_message(etp, partition_error))
            # Raised after the records are buffered: the engine has moved its
            # positions past them, so they must stay for the next poll.
            self._raise_rebalance_error()

    def _partition_error_message(self, etp: EngineTP, exc: engine_errors.KafkaError) -> Message:
        """The error event librdkafka gives for an assigned partition it cannot read."""
        code = from_engine(exc).code()
        text = 'Failed to fetch committed offset for group "%s" topic %s [%d]: %s' % (
            self._config.get("group.id"), etp.topic, etp.partition, KafkaError(code).str())
        return Message(etp.topic, etp.partition, value=text.encode("utf-8"), error=KafkaError(code, text))

    def _raise_rebalance_error(self) -> None:
        error, self._rebalance_error = self._rebalance_error, None
        if error is not None:
            raise error

    def _hand_out_one(self) -> Message:
        """Hand out the first buffered record (see _hand_out_run)."""
        record: Message = self._buffer.take(1)[0]
        etp = self._handed_tp
        if etp is None or etp[1] != record[PARTITION] or etp[0] != record[TOPIC]:
            etp = self._handed_tp = EngineTP(record[TOPIC], record[PARTITION])
        self._positions[etp] = record[OFFSET] + 1
        if self._eof_sent:
            self._eof_sent.discard(etp)
        if self._auto_store:
            self._stored[etp] = (record[OFFSET] + 1, None, record[LEADER_EPOCH])
        return record

    def _hand_out_run(self, out: List[Message], limit: int) -> Any:
        """Move up to ``limit`` buffered records of the first record's partition to ``out``; return the last.

        Positions and stored offsets are updated once per run, from its last record.
        """
        run = self._buffer.take(limit)
        last = run[-1]
        topic, partition = last[TOPIC], last[PARTITION]
        etp = self._handed_tp
        if etp is None or etp[1] != partition or etp[0] != topic:
            etp = self._handed_tp = EngineTP(topic, partition)
        self._positions[etp] = last[OFFSET] + 1
        self._eof_sent.discard(etp)
        if self._auto_store:
            self._stored[etp] = (last[OFFSET] + 1, None, last[LEADER_EPOCH])
        out.extend(run)
        return last

    def _eof_events(self, limit: int) -> List[Message]:
        out: List[Message] = []
        buffered = self._buffer.partitions()
        for etp in sorted(self._engine.assignment()):
            if len(out) >= limit:
                break
            eof = self._eof_for(etp, buffered)
            if eof is not None:
                out.append(eof)
        return out

    def _eof_for(self, etp: EngineTP, buffered: Set[Tuple[str, int]]) -> Optional[Message]:
        """A ``_PARTITION_EOF`` event for ``etp`` if it was just read to its end (once per end reached)."""
        if etp in self._eof_sent or etp in buffered or etp not in self._engine.assignment() or \
                etp in self._engine.paused():
            return None
        try:
            high = self._engine.highwater(etp)
            position = self._engine.position(etp, timeout_ms=0) if high is not None else None
        except engine_errors.KafkaError:
            return None
        if high is None or position is None or position < high:
            return None
        self._eof_sent.add(etp)
        return Message(etp.topic, etp.partition, position,
                       error=KafkaError(KafkaError._PARTITION_EOF,  # type: ignore[attr-defined]
                                        "Fetch from broker reached end of partition at offset %d "
                                        "(HighwaterMark %d)" % (position, high)))

    # -- offsets -------------------------------------------------------------------------------

    def store_offsets(self, message: Optional[Message] = None, offsets: Any = None) -> None:
        """Store the offset after ``message`` (or the ``offsets`` given) for the next commit.

        Needs ``enable.auto.offset.store=false``.
        """
        self._check_open()
        if self._auto_store:  # librdkafka's refusal, which does not say why: enable.auto.offset.store is on
            raise KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                            "StoreOffsets failed: Local: Invalid argument or configuration"))
        if message is not None and offsets is not None:
            raise ValueError("message and offsets are mutually exclusive")
        if message is None and offsets is None:
            raise ValueError("expected either message or offsets")
        if message is not None:
            if not isinstance(message, Message):
                raise TypeError("message must be a Message")
            if message.error() is not None:
                raise KafkaException(message.error())
            etp, next_offset = self._after(message)
            self._stored[etp] = (next_offset, None, message.leader_epoch())
            return
        for tp in partitions_list(offsets, "offsets"):
            self._stored[_tp(tp)] = (tp.offset, tp.metadata, tp.leader_epoch)

    @staticmethod
    def _after(message: Message) -> Tuple[EngineTP, int]:
        """The partition of a consumed ``message`` and the offset after it."""
        topic, partition, offset = message.topic(), message.partition(), message.offset()
        if topic is None or partition is None:
            raise KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                            "the message has no topic or partition"))
        # A message without an offset holds -1 in confluent-kafka (its offset() shows None).
        return EngineTP(topic, partition), (offset if offset is not None else -1) + 1

    def _offsets_from(self, message: Optional[Message], offsets: Any) -> Dict[EngineTP, OffsetAndMetadata]:
        if message is not None and offsets is not None:
            raise ValueError("message and offsets are mutually exclusive")
        if message is not None:
            if not isinstance(message, Message):
                raise TypeError("message must be a Message")
            if message.error() is not None:
                raise KafkaException(message.error())
            etp, next_offset = self._after(message)
            return {etp: OffsetAndMetadata(next_offset, "")}
        if offsets is not None:
            return {_tp(tp): OffsetAndMetadata(tp.offset, tp.metadata or "") for tp in
                    partitions_list(offsets, "offsets")}
        assigned = self._engine.assignment()
        return {etp: OffsetAndMetadata(offset, metadata or "", epoch if epoch is not None else -1)
                for etp, (offset, metadata, epoch) in self._stored.items()
                if etp in assigned and offset >= 0 and self._committed_sent.get(etp) != offset}

    def commit(self, message: Optional[Message] = None, offsets: Any = None,
               asynchronous: bool = True) -> Optional[List[TopicPartition]]:
        """Commit ``message``'s next offset, the ``offsets`` given, or the stored offsets.

        Asynchronous by default (``on_commit`` reports the result from a
        later poll); with ``asynchronous=False`` waits and returns the
        committed partitions (or raises), and ``on_commit`` is not called.
        """
        self._check_open()
        given = self._offsets_from(message, offsets)
        # As librdkafka: offsets below 0 (logical ones included) are left out
        # of the request, and a commit left with none fails with _NO_OFFSET.
        to_commit = {etp: om for etp, om in given.items() if om.offset >= 0}
        if not to_commit:
            if not asynchronous:
                raise KafkaException(KafkaError(KafkaError._NO_OFFSET,  # type: ignore[attr-defined]
                                                "Commit failed: Local: No offset stored"))
            shown = given or {etp: OffsetAndMetadata(OFFSET_INVALID, "") for etp in self._engine.assignment()}
            self._queue_commit_result(KafkaError(KafkaError._NO_OFFSET), shown)  # type: ignore[attr-defined]
            return None
        if asynchronous:
            self._send_commit(to_commit)
            return None
        # Like confluent-kafka, a synchronous commit reports through its result only, not on_commit.
        try:
            # librdkafka waits as long as the session timeout for a synchronous commit.
            self._engine.commit(to_commit, timeout_ms=self._config.get_int("session.timeout.ms"),
                                retry_partition_errors=False)
        except engine_errors.KafkaError as exc:
            raise KafkaException(_commit_error(exc, "Commit failed: ")) from exc
        for etp, om in to_commit.items():
            self._committed_sent[etp] = om.offset
        return [self._result_tp(etp, om) for etp, om in sorted(given.items())]

    @staticmethod
    def _result_tp(etp: EngineTP, om: OffsetAndMetadata) -> TopicPartition:
        tp = TopicPartition(etp.topic, etp.partition, om.offset, om.metadata or None)
        return tp

    def _send_commit(self, to_commit: Dict[EngineTP, OffsetAndMetadata]) -> None:
        def done(offsets: Any, exc: Optional[BaseException]) -> None:
            error = None if exc is None else _commit_error(exc)
            refused = getattr(exc, "refused_partitions", {})
            for etp, om in to_commit.items():
                if error is None or (refused and etp not in refused):
                    self._committed_sent[etp] = om.offset
            self._queue_commit_result(error, to_commit, refused)

        try:
            self._engine.commit_async(to_commit, callback=done)
        except engine_errors.KafkaError as exc:
            self._queue_commit_result(from_engine(exc), to_commit)

    def _queue_commit_result(self, error: Optional[KafkaError], offsets: Dict[EngineTP, OffsetAndMetadata],
                             refused: Optional[Dict[EngineTP, int]] = None) -> None:
        if self._on_commit is None:
            return
        parts = [self._result_tp(etp, om) for etp, om in sorted(offsets.items())]
        for part in parts:
            code = (refused or {}).get(EngineTP(part.topic, part.partition))
            if code is not None:
                part.error = KafkaError(code)
        callback = self._on_commit
        self._events.append(lambda: callback(error, parts))

    def _serve_events(self) -> None:
        if self._relay_queue:
            self._relay.serve()
        if self._log_forward is not None:
            self._log_forward.serve()
        while self._events:
            self._events.popleft()()
        if self._stats_cb is not None and self._stats_interval > 0 and time.monotonic() >= self._next_stats:
            self._next_stats = time.monotonic() + self._stats_interval
            self._stats_cb(self._statistics())

    def _statistics(self) -> str:
        topics: Dict[str, Dict[int, Dict[str, Any]]] = {}
        paused = self._engine.paused()
        for etp in sorted(self._engine.assignment()):
            try:
                high = self._engine.highwater(etp)
            except engine_errors.KafkaError:
                high = None
            position = self._positions.get(etp)
            stored = self._stored.get(etp)
            topics.setdefault(etp.topic, {})[etp.partition] = {
                "fetch_state": "paused" if etp in paused else "active",
                "app_offset": position if position is not None else OFFSET_INVALID,
                "stored_offset": stored[0] if stored is not None else OFFSET_INVALID,
                "committed_offset": self._committed_sent.get(etp, OFFSET_INVALID),
                "hi_offset": high if high is not None else OFFSET_INVALID,
                "consumer_lag": high - position if high is not None and position is not None else -1}
        return statistics(name=self._name, client_id=self._config.get("client.id") or "rdkafka", role="consumer",
                          started=self._started, connections=self._engine.broker_stats(), topics=topics,
                          replyq=len(self._buffer) + len(self._events), rxmsgs=self._rx_msgs)

    def _maybe_auto_commit(self) -> None:
        if not self._auto_commit or time.monotonic() < self._next_commit:
            return
        self._next_commit = time.monotonic() + self._commit_interval
        to_commit = self._offsets_from(None, None)
        if to_commit:
            self._send_commit(to_commit)

    def _commit_stored_now(self, tps: Set[EngineTP]) -> None:
        if not self._auto_commit:
            return
        to_commit = {etp: om for etp, om in self._offsets_from(None, None).items() if etp in tps}
        if not to_commit:
            return
        try:
            self._engine.commit(to_commit, retry_partition_errors=False)
            for etp, om in to_commit.items():
                self._committed_sent[etp] = om.offset
            self._queue_commit_result(None, to_commit)
        except engine_errors.KafkaError as exc:
            self._queue_commit_result(_commit_error(exc), to_commit, getattr(exc, "refused_partitions", {}))

    def committed(self, partitions: Any, timeout: Optional[float] = None) -> List[TopicPartition]:
        """The group's committed offsets of ``partitions`` (``OFFSET_INVALID`` when none)."""
        self._check_open()
        parts = partitions_list(partitions)
        if not parts:
            return []
        try:
            looked_up = self._engine.committed_offsets([_tp(tp) for tp in parts], _timeout_ms(timeout), metadata=True)
        except engine_errors.KafkaError as exc:
            raise KafkaException(call_error(exc, "Failed to get committed offsets: ",
                                            KafkaError._TIMED_OUT)) from exc  # type: ignore[attr-defined]
        out = []
        for tp in parts:
            found = looked_up.get(_tp(tp))
            result = TopicPartition(tp.topic, tp.partition, found.offset if found is not None else OFFSET_INVALID,
                                    (found.metadata or None) if found is not None else None)
            if found is not None and found.leader_epoch >= 0:
                result.leader_epoch = found.leader_epoch
            out.append(result)
        return out

    def position(self, partitions: Any) -> List[TopicPartition]:
        """The offset after the last record handed out for each partition (``OFFSET_INVALID`` if none)."""
        self._check_open()
        return [TopicPartition(tp.topic, tp.partition, self._positions.get(_tp(tp), OFFSET_INVALID))
                for tp in partitions_list(partitions)]

    def seek(self, partition: TopicPartition) -> None:
        """Continue reading ``partition`` at its ``offset`` (a number or a logical offset)."""
        self._check_open()
        if not isinstance(partition, TopicPartition):
            raise TypeError("expected a TopicPartition")
        etp = _tp(partition)
        assigned = self._engine.assignment()
        if etp not in assigned:
            # librdkafka knows a partition of an assigned topic (an erroneous state
            # to seek it in) and no other (unknown).
            known_topic = any(tp.topic == etp.topic for tp in assigned)
            code = KafkaError._STATE if known_topic else KafkaError._UNKNOWN_PARTITION  # type: ignore[attr-defined]
            raise KafkaException(KafkaError(code, "Failed to seek to offset %d: %s"
                                            % (partition.offset, KafkaError(code).str())))
        if partition.offset >= 0 and self._engine.known_position(etp) is None:
            # librdkafka seeks only a partition it has started fetching (its
            # starting offset known), as assign() with no offset has not yet.
            code = KafkaError._STATE  # type: ignore[attr-defined]
            raise KafkaException(KafkaError(code, "Failed to seek to offset %d: %s"
                                            % (partition.offset, KafkaError(code).str())))
        self._drop_buffered({etp})
        if partition.offset == OFFSET_STORED or partition.offset == OFFSET_INVALID:
            return
        self._seek_engine(etp, partition.offset)

    def pause(self, partitions: Any) -> None:
        """Stop fetching ``partitions`` until :meth:`resume` (those not assigned are left alone)."""
        self._check_open()
        assigned = self._engine.assignment()
        parts = {_tp(tp) for tp in partitions_list(partitions)} & assigned
        self._drop_buffered(parts)
        self._engine.pause(*sorted(parts))

    def resume(self, partitions: Any) -> None:
        """Fetch ``partitions`` again (those not assigned are left alone)."""
        self._check_open()
        assigned = self._engine.assignment()
        self._engine.resume(*sorted({_tp(tp) for tp in partitions_list(partitions)} & assigned))

    def get_watermark_offsets(self, partition: TopicPartition, timeout: Optional[float] = None,
                              cached: bool = False) -> Optional[Tuple[int, int]]:
        """``(low, high)`` offsets of ``partition``; with ``cached`` the last ones fetching saw."""
        self._check_open()
        if not isinstance(partition, TopicPartition):
            raise TypeError("expected a TopicPartition")
        etp = _tp(partition)
        if cached:
            try:
                high = self._engine.highwater(etp)
            except Exception:  # noqa: BLE001 - not assigned
                high = None
            return (OFFSET_INVALID, high if high is not None else OFFSET_INVALID)
        timeout_ms = _timeout_ms(timeout)
        try:
            low = self._engine.beginning_offsets([etp], timeout_ms)[etp]
            high = self._engine.end_offsets([etp], timeout_ms)[etp]
        except engine_errors.KafkaError as exc:
            raise KafkaException(call_error(exc, "Failed to get watermark offsets: ",
                                            KafkaError._ALL_BROKERS_DOWN)) from exc  # type: ignore[attr-defined]
        return (low, high)

    def offsets_for_times(self, partitions: Any, timeout: Optional[float] = None) -> List[TopicPartition]:
        """For each partition (its ``offset`` holding a timestamp in ms), the first offset at or after it."""
        self._check_open()
        parts = partitions_list(partitions)
        try:
            found = self._engine.offsets_for_times({_tp(tp): tp.offset for tp in parts}, _timeout_ms(timeout))
        except engine_errors.KafkaError as exc:
            raise KafkaException(call_error(exc, "Failed to get offsets: ",
                                            KafkaError._ALL_BROKERS_DOWN)) from exc  # type: ignore[attr-defined]
        out = []
        for tp in parts:
            hit = found.get(_tp(tp))
            result = TopicPartition(tp.topic, tp.partition, hit.offset if hit is not None else OFFSET_END)
            if hit is not None and hit.leader_epoch >= 0:
                result.leader_epoch = hit.leader_epoch
            out.append(result)
        return out

    def list_topics(self, topic: Optional[str] = None, timeout: float = -1) -> Any:
        """Cluster metadata (:class:`kafka.confluent.admin.ClusterMetadata`), for one topic or all."""
        self._check_handle()
        return self._metadata.cluster_metadata(topic, timeout)

    def cluster_id(self, timeout: float = -1) -> Optional[str]:
        """The cluster's id, from broker metadata."""
        self._check_handle()
        return self._metadata.cluster_id(timeout)

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Use these SASL PLAIN/SCRAM credentials for the next logins (open connections stay)."""
        self._check_handle()
        check_credentials(username, password)
        self._engine.set_sasl_credentials(username, password)
        self._metadata.set_sasl_credentials(username, password)

    def memberid(self) -> Optional[str]:
        """This consumer's member id in the group (None before it joined)."""
        self._check_open()
        metadata = self._engine.group_metadata()
        return (metadata.member_id or None) if metadata is not None else None

    def consumer_group_metadata(self) -> ConsumerGroupMetadata:
        """Membership data for ``Producer.send_offsets_to_transaction``."""
        self._check_open()
        return ConsumerGroupMetadata(self._engine.group_metadata())

    def close(self) -> None:
        """Commit stored offsets (with auto-commit), leave the group and release resources."""
        if self._closed:
            return
        try:
            if self._auto_commit:
                to_commit = self._offsets_from(None, None)
                if to_commit:
                    try:
                        self._engine.commit(to_commit, retry_partition_errors=False)
                    except engine_errors.KafkaError as exc:
                        log.warning("final commit failed: %s", exc)
            self._engine.close(autocommit=False, wait_unsent_commits=False)
            if self._relay_queue:
                self._relay.serve_closing()
        finally:
            self._closed = True
            self._metadata.close()
            if self._log_forward is not None:
                self._log_forward.close()
                self._log_forward.serve()

    def __enter__(self) -> "Consumer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
