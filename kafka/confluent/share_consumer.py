"""``ShareConsumer``: confluent-kafka's share group (KIP-932) consumer on kafkawire's engine.

A share group hands each record to one member at a time, for a limited
lock; partitions are shared by the members. Records are acknowledged
(accepted, released for redelivery, or rejected) implicitly by the next
``poll()``/``commit_*()`` (``share.acknowledgement.mode=implicit``, the
default) or one by one with :meth:`ShareConsumer.acknowledge`
(``explicit``).
"""

from __future__ import annotations

import collections
import enum
import logging
import time
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Set, Tuple, Union

from kafka import errors as engine_errors
from kafka.client.network import DEFAULT_CONFIG as CLIENT_CONFIG
from kafka.client.routing import RoutingClient
from kafka.confluent import config as confmod
from kafka.confluent.kafka_error import KafkaException, from_engine
from kafka.confluent.message import Message, TopicPartition
from kafka.consumer.group.link import left_ms
from kafka.consumer.share.acknowledgements import APPLICATION_TYPES, InFlightRecords
from kafka.consumer.share.fetcher import AckResults, ShareFetcher
from kafka.consumer.share.membership import ShareGroupMembership
from kafka.structs import TopicPartition as EngineTP
from kafka.topic_names import check_topic_name

log = logging.getLogger(__name__)


class AcknowledgeType(enum.IntEnum):
    """How a share consumer acknowledges a record."""

    #: Processed: the record is not delivered again.
    ACCEPT = 1
    #: Not processed: the record goes back to the group for redelivery.
    RELEASE = 2
    #: Unprocessable: the record is archived and not delivered again.
    REJECT = 3


class IllegalStateException(engine_errors.IllegalStateError):
    """A share consumer call that its state does not allow (closed, unsubscribed, records unacknowledged)."""


class Messages:
    """The records one :meth:`ShareConsumer.poll` returned: a read-only sequence."""

    def __init__(self, messages: Any = ()) -> None:
        self._messages: List[Message] = list(messages)

    def __iter__(self) -> Iterator[Message]:
        return iter(self._messages)

    def __len__(self) -> int:
        return len(self._messages)

    def __getitem__(self, index: Union[int, slice]) -> Union[Message, "Messages"]:
        if isinstance(index, slice):
            return Messages(self._messages[index])
        return self._messages[index]

    def __repr__(self) -> str:
        return "Messages(%d)" % len(self._messages)

    def count(self) -> int:
        """Number of messages in this batch."""
        return len(self._messages)

    def is_empty(self) -> bool:
        """Whether this batch holds no message."""
        return not self._messages

    def records(self) -> List[Message]:
        """A copy of the messages, as a list."""
        return list(self._messages)


AckCallback = Callable[[Dict[TopicPartition, Set[int]], Optional[KafkaException]], Any]


class ShareConsumer:
    """A share group member with confluent-kafka's ``ShareConsumer`` interface.

    ``ShareConsumer(conf)``: ``conf`` holds librdkafka property names and
    must contain ``group.id``. Heartbeats, fetches and acknowledgements
    happen inside :meth:`poll`, :meth:`commit_sync` and :meth:`close`, in the
    calling thread: poll at least once per heartbeat interval (5 s by
    default, set by the broker) to stay in the group.
    """

    def __init__(self, conf: Any = confmod.NOT_GIVEN, **kwargs: Any) -> None:
        conf = confmod.from_arguments(conf, kwargs)
        self._config = confmod.parse(conf, "consumer")
        mode = self._config.get("share.acknowledgement.mode") or "implicit"
        if mode not in ("implicit", "explicit"):
            raise confmod.invalid('Invalid value "%s" for configuration property "share.acknowledgement.mode"'
                                  % mode)
        self._explicit = mode == "explicit"
        settings = confmod.consumer_settings(self._config)
        self._max_records = self._config.get_int("max.poll.records")
        self._timeout = self._config.get_int("socket.timeout.ms") / 1000.0
        try:
            self._client = RoutingClient(**{k: v for k, v in settings.items() if k in CLIENT_CONFIG})
        except engine_errors.KafkaError as exc:
            raise KafkaException(from_engine(exc)) from exc
        self._in_flight = InFlightRecords()
        self._membership = ShareGroupMembership(self._client, settings["group_id"], settings["retry_backoff_ms"])
        self._fetcher = ShareFetcher(
            self._client, settings["group_id"], lambda: self._membership.member_id, self._in_flight,
            record_class=Message, max_wait_ms=settings["fetch_max_wait_ms"], min_bytes=settings["fetch_min_bytes"],
            max_bytes=settings["fetch_max_bytes"], max_records=self._max_records)
        self._fetcher.on_acknowledged = self._on_acknowledged
        self._ack_results: Deque[Tuple[Dict[EngineTP, Dict[int, int]], AckResults]] = collections.deque()
        self._ack_callback: Optional[AckCallback] = None
        self._in_callback = False
        self._subscription: List[str] = []
        self._closed = False

    # -- subscription ---------------------------------------------------------------------------

    def subscribe(self, topics: Any) -> None:
        """Share ``topics`` (a list of names) with the group; replaces the subscription. ``[]`` unsubscribes."""
        self._check_usable()
        if not isinstance(topics, list) or not all(isinstance(t, str) for t in topics):
            raise TypeError("expected list of topic unicode strings")
        if len(set(topics)) != len(topics):
            raise ValueError("duplicate topic names in subscription")
        for topic in topics:
            try:
                check_topic_name(topic)
            except engine_errors.KafkaError as exc:
                raise ValueError(str(exc)) from exc
        if not topics:
            self.unsubscribe()
            return
        self._subscription = list(topics)
        self._membership.subscribe(self._subscription)

    def subscription(self) -> List[str]:
        """The subscribed topics."""
        self._check_usable()
        return list(self._subscription)

    def unsubscribe(self) -> None:
        """Acknowledge what is pending, end the share sessions and leave the group."""
        self._check_usable()
        self._finish(time.monotonic() + self._timeout)
        self._subscription = []
        self._membership.subscribe([])

    # -- consuming ------------------------------------------------------------------------------

    def poll(self, timeout: Optional[float] = -1) -> Messages:
        """Wait up to ``timeout`` seconds (None or -1: no limit) for records and return them.

        In implicit mode the records of the previous poll are accepted first;
        in explicit mode they must all have been acknowledged.
        """
        self._check_usable()
        if not self._subscription:
            raise IllegalStateException("poll() needs a subscription: call subscribe() first")
        if self._explicit and self._in_flight.unmarked():
            raise IllegalStateException("%d records of the previous poll() are not acknowledged"
                                        % self._in_flight.unmarked())
        if not self._explicit:
            self._in_flight.accept_unmarked()
        deadline = self._deadline(timeout)
        try:
            while True:
                self._membership.tick()
                self._raise_fetch_error()
                taken = self._fetcher.take(self._max_records)
                if taken:
                    break
                self._fetcher.send_fetches(self._membership.assignment)
                self._serve_ack_callbacks()
                if time.monotonic() >= deadline:
                    break
                self._client.poll(timeout_ms=min(left_ms(deadline), 100.0))
        except engine_errors.KafkaError as exc:
            raise KafkaException(from_engine(exc)) from exc
        self._serve_ack_callbacks()
        messages = []
        for message, count in taken:
            message._delivery_count = count
            self._in_flight.delivered(EngineTP(message.topic(), message.partition()), (message.offset(),))
            messages.append(message)
        return Messages(messages)

    def _raise_fetch_error(self) -> None:
        error, self._fetcher.fetch_error = self._fetcher.fetch_error, None
        if error is not None:
            raise error

    # -- acknowledging --------------------------------------------------------------------------

    def acknowledge(self, message: Message, ack_type: int = AcknowledgeType.ACCEPT) -> None:
        """Mark a polled ``message`` ACCEPT (default), RELEASE or REJECT; sent with the next poll or commit."""
        if not isinstance(message, Message):
            raise TypeError("expected a Message, not %s" % type(message).__name__)
        topic, partition, offset = message.topic(), message.partition(), message.offset()
        if topic is None:
            raise ValueError("the message has no topic")
        self.acknowledge_offset(topic, partition if partition is not None else -1,
                                offset if offset is not None else -1, ack_type)

    def acknowledge_offset(self, topic: str, partition: int, offset: int,
                           ack_type: int = AcknowledgeType.ACCEPT) -> None:
        """Like :meth:`acknowledge`, for the record at ``topic``/``partition``/``offset``."""
        if not isinstance(topic, str):
            raise TypeError("topic must be a str, not %s" % type(topic).__name__)
        for name, value in (("partition", partition), ("offset", offset), ("ack_type", ack_type)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError("%s must be an int, not %s" % (name, type(value).__name__))
        if partition < 0 or offset < 0:
            raise ValueError("partition and offset must not be negative")
        self._check_usable()
        if not self._explicit:
            raise IllegalStateException("acknowledge() needs share.acknowledgement.mode=explicit")
        if ack_type not in APPLICATION_TYPES:
            raise ValueError("invalid ack_type %d: use AcknowledgeType.ACCEPT, RELEASE or REJECT" % ack_type)
        try:
            self._in_flight.mark(EngineTP(topic, partition), offset, int(ack_type))
        except engine_errors.IllegalStateError as exc:
            raise IllegalStateException(str(exc)) from None

    def commit_sync(self, timeout: Optional[float] = 60) -> Dict[TopicPartition, Optional[KafkaException]]:
        """Send the acknowledgements pending and wait up to ``timeout`` seconds (-1: no limit) for the answers.

        Returns ``{TopicPartition: None or KafkaException}`` per partition
        acknowledged; empty when nothing was pending.
        """
        if timeout is not None and not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a float")
        self._check_usable()
        first = len(self._ack_results)
        deadline = self._deadline(timeout)
        self._send_acknowledgements(deadline, close=False)
        out: Dict[TopicPartition, Optional[KafkaException]] = {}
        for acks, results in list(self._ack_results)[first:]:
            for etp in acks:
                error = results.get(etp)
                out[TopicPartition(etp.topic, etp.partition)] = \
                    None if error is None else KafkaException(from_engine(error))
        self._serve_ack_callbacks()
        return out

    def commit_async(self) -> None:
        """Send the acknowledgements pending without waiting; results go to the acknowledgement callback."""
        self._check_usable()
        if not self._explicit:
            self._in_flight.accept_unmarked()
        self._fetcher.acknowledge()

    def set_acknowledgement_commit_callback(self, callback: Optional[AckCallback]) -> None:
        """Call ``callback(offsets, exception)`` from poll/commit/close for every acknowledgement answered.

        ``offsets`` is ``{TopicPartition: set of offsets}``; ``exception`` a
        KafkaException, or None on success. ``None`` removes the callback.
        """
        if callback is not None and not callable(callback):
            raise TypeError("callback must be callable or None")
        self._check_usable()
        self._ack_callback = callback

    def _send_acknowledgements(self, deadline: float, close: bool) -> None:
        if not self._explicit:
            self._in_flight.accept_unmarked()
        for pending in self._fetcher.waiting():  # the session's epoch moves on with their answers
            self._wait(pending, deadline)
        for future in self._fetcher.acknowledge(close=close):
            self._wait(future, deadline)

    def _wait(self, future: Any, deadline: float) -> None:
        while not future.is_done and time.monotonic() < deadline:
            self._client.poll(timeout_ms=min(left_ms(deadline), 100.0), future=future)

    def _on_acknowledged(self, acks: Dict[EngineTP, Dict[int, int]], results: AckResults) -> None:
        self._ack_results.append((acks, results))

    def _serve_ack_callbacks(self) -> None:
        while self._ack_results:
            acks, results = self._ack_results.popleft()
            callback = self._ack_callback
            if callback is None:
                continue
            by_error: Dict[Optional[BaseException], Dict[TopicPartition, Set[int]]] = {}
            for etp, marks in acks.items():
                by_error.setdefault(results.get(etp), {})[TopicPartition(etp.topic, etp.partition)] = set(marks)
            for error, offsets in by_error.items():
                self._in_callback = True
                try:
                    callback(offsets, None if error is None else KafkaException(from_engine(error)))
                finally:
                    self._in_callback = False

    # -- closing --------------------------------------------------------------------------------

    def _finish(self, deadline: float) -> None:
        try:
            self._send_acknowledgements(deadline, close=True)
            self._serve_ack_callbacks()
        finally:
            self._membership.leave(deadline)

    def close(self) -> None:
        """Acknowledge what is pending, end the share sessions, leave the group and disconnect."""
        if self._closed:
            return
        self._check_usable()
        try:
            if self._subscription:
                self._finish(time.monotonic() + self._timeout)
        except engine_errors.KafkaError as exc:
            raise KafkaException(from_engine(exc)) from exc
        finally:
            self._closed = True
            self._client.close()

    def _check_usable(self) -> None:
        if self._closed:
            raise IllegalStateException("the share consumer is closed")
        if self._in_callback:
            raise IllegalStateException("share consumer calls are not allowed in the acknowledgement callback")

    @staticmethod
    def _deadline(timeout: Optional[float]) -> float:
        if timeout is None or timeout < 0:
            return float("inf")
        return time.monotonic() + timeout

    def __enter__(self) -> "ShareConsumer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
