"""The API of kafka-python 0.9's ``KafkaConsumer``, on the engine's consumer.

:class:`FirstApiMixin` gives :class:`~kafka.KafkaConsumer` (defined in
:mod:`kafka.simple.consumer` over
:class:`~kafka.consumer.modern.ModernKafkaConsumer`) the 0.9 option names
(:data:`OLD_OPTION_NAMES`, translated by its constructor) and the methods
code written for the first ``KafkaConsumer`` calls:

* :meth:`~FirstApiMixin.set_topic_partitions` -- what to read, in every
  form 0.9 accepted (topics, ``(topic, partition)``, ``(topic, partition,
  offset)``, and dicts of those); partitions are then *assigned* (no group
  rebalancing, as in 0.9), and the group, if any, only keeps offsets;
* :meth:`~FirstApiMixin.fetch_messages` -- one round of fetching, as a
  generator of :class:`~kafka.simple.common.KafkaMessage`;
* :meth:`~FirstApiMixin.next` -- the next message, raising
  :class:`~kafka.errors.ConsumerTimeout` after ``consumer_timeout_ms``;
* :meth:`~FirstApiMixin.task_done` and ``commit()`` -- only messages marked
  done are committed;
* :meth:`~FirstApiMixin.offsets`, :meth:`~FirstApiMixin.get_partition_offsets`
  and :meth:`~FirstApiMixin.configure`.

Commit semantics: once :meth:`~FirstApiMixin.task_done` or
:meth:`~FirstApiMixin.set_topic_partitions` has been called, the consumer
follows 0.9: ``commit()`` without arguments commits, for each partition, the
offset after the last message marked done (returning ``True``, or ``False``
when there was nothing new to commit), and auto-commit (``enable_auto_commit``
/ ``auto_commit_enable``) commits the same every ``auto_commit_interval_ms``
and, when set, every ``auto_commit_interval_messages`` messages marked done.
Messages not marked done are never committed. Before that the modern
semantics apply (the positions are committed).

Everything here goes through the public methods of
:class:`~kafka.consumer.modern.ModernKafkaConsumer`.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Dict, Iterator, List, Optional

from kafka import errors
from kafka.simple.common import KafkaMessage
from kafka.structs import TopicPartition
from kafka.topic_names import check_topic_name

log = logging.getLogger(__name__)

#: Option names of kafka-python 0.9's KafkaConsumer, and what they became.
OLD_OPTION_NAMES = {
    "auto_commit_enable": "enable_auto_commit",
    "fetch_message_max_bytes": "max_partition_fetch_bytes",
    "fetch_wait_max_ms": "fetch_max_wait_ms",
    "socket_timeout_ms": "request_timeout_ms",
    "refresh_leader_backoff_ms": "retry_backoff_ms",
    "deserializer_class": "value_deserializer",
}
#: 0.9 options that still have a meaning but no modern counterpart (kept by FirstApiMixin).
OLD_ONLY_OPTIONS = {"auto_commit_interval_messages": None}

#: The keys of :meth:`FirstApiMixin.offsets`.
OFFSET_GROUPS = ("fetch", "commit", "highwater", "task_done")


class _FirstApiState:
    """Offsets the 0.9 API keeps besides the consumer's positions."""

    def __init__(self) -> None:
        #: Whether the 0.9 commit semantics are in force (see the module documentation).
        self.active = False
        #: Offset of the last message marked done, per partition (None: none yet).
        self.task_done: Dict[TopicPartition, Optional[int]] = {}
        #: Last committed offset (the next one to read), per partition (None: unknown / none).
        self.commit: Dict[TopicPartition, Optional[int]] = {}
        self.messages_since_commit = 0
        self.last_commit = time.monotonic()


def translate_options(configs: Dict[str, Any]) -> Dict[str, Any]:
    """``configs`` with the 0.9 option names and values turned into modern ones."""
    out = {}
    for key, value in configs.items():
        if key in OLD_ONLY_OPTIONS:
            continue
        out[OLD_OPTION_NAMES.get(key, key)] = value
    if "socket_timeout_ms" in configs and "request_timeout_ms" not in configs:
        socket_timeout = configs["socket_timeout_ms"]
        if not _is_number(socket_timeout):
            raise errors.ConfigurationTypeError("socket_timeout_ms must be a number, not %r" % (socket_timeout,))
        out["request_timeout_ms"] = max(socket_timeout, 1000)
    if _is_number(out.get("consumer_timeout_ms")) and out["consumer_timeout_ms"] < 0:
        out["consumer_timeout_ms"] = float("inf")  # 0.9's -1: no timeout
    return out


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _topic_name(topic: Any) -> str:
    if isinstance(topic, (bytes, bytearray)):
        try:
            topic = bytes(topic).decode("utf-8")
        except UnicodeDecodeError:
            raise errors.KafkaConfigurationError("topic names must be UTF-8: %r" % (topic,)) from None
    if isinstance(topic, str) and topic:
        try:
            return check_topic_name(topic)
        except errors.IllegalArgumentError as exc:
            raise errors.KafkaConfigurationError(str(exc.args[0])) from None
    raise errors.KafkaConfigurationError("a topic must be a non-empty str or bytes, not %r" % (topic,))


def _partition_number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise errors.KafkaConfigurationError("a partition must be an int >= 0, not %r" % (value,))
    return value


def _offset_value(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise errors.KafkaConfigurationError("an offset must be an int >= 0, not %r" % (value,))
    return value


class FirstApiMixin:
    """kafka-python 0.9 ``KafkaConsumer`` methods; see the module documentation."""

    # Provided by ModernKafkaConsumer.
    config: Dict[str, Any]

    def __init__(self, *topics: str, **configs: Any) -> None:
        self._keep_old_options(configs)
        super().__init__(*topics, **translate_options(configs))

    # -- state ---------------------------------------------------------------------------------

    def _first_api(self) -> _FirstApiState:
        state = self.__dict__.get("_first_api_state")
        if state is None:
            state = self.__dict__["_first_api_state"] = _FirstApiState()
        return state

    def _activate_first_api(self) -> _FirstApiState:
        state = self._first_api()
        if not state.active:
            state.active = True
            state.last_commit = time.monotonic()
            # Auto-commit now commits what was marked done, from task_done(); the
            # group coordinator must not commit the positions behind our back.
            self.set_position_auto_commit(False)  # type: ignore[attr-defined]
        return state

    def _keep_old_options(self, configs: Dict[str, Any]) -> None:
        """Keep the 0.9 options the modern configuration has no key for (called by ``__init__``)."""
        every = configs.get("auto_commit_interval_messages")
        if every is not None and (isinstance(every, bool) or not isinstance(every, int) or every <= 0):
            raise errors.KafkaConfigurationError("auto_commit_interval_messages must be a positive int or None, "
                                                 "not %r" % (every,))
        #: 0.9's ``auto_commit_interval_messages`` (None: no commit by message count).
        self.auto_commit_interval_messages: Optional[int] = every

    def _first_api_active(self) -> bool:
        state = self.__dict__.get("_first_api_state")
        return state is not None and state.active

    # -- choosing what to read --------------------------------------------------------------------

    def set_topic_partitions(self, *topics: Any) -> None:
        """Set the partitions to read, optionally with the offsets to start from.

        Accepts any mix of:

        * ``"topic"`` (``str`` or UTF-8 ``bytes``): every partition of it;
        * ``("topic", partition)`` and ``("topic", partition, offset)``;
        * ``{"topic": partition}``, ``{"topic": [partitions]}``,
          ``{"topic": (partitions,)}``;
        * ``{("topic", partition): offset}``.

        Replaces any earlier subscription or assignment (partitions are
        assigned, without group rebalancing). Partitions without an explicit
        offset start at the group's committed offset, or, without one, where
        ``auto_offset_reset`` says. Raises
        :class:`~kafka.errors.KafkaConfigurationError` for a form it does not
        know and :class:`~kafka.errors.UnknownTopicOrPartitionError` for a
        partition the topic does not have.
        """
        if self.closed:  # type: ignore[attr-defined]
            raise errors.IllegalStateError("the consumer is closed")
        wanted: Dict[TopicPartition, Optional[int]] = {}
        whole_topics: List[str] = []

        def add(topic: Any, partition: Any, offset: Any = None) -> None:
            tp = TopicPartition(_topic_name(topic), _partition_number(partition))
            wanted[tp] = None if offset is None else _offset_value(offset)

        for arg in topics:
            if isinstance(arg, (str, bytes, bytearray)):
                whole_topics.append(_topic_name(arg))
            elif isinstance(arg, tuple) and len(arg) in (2, 3):
                add(*arg)
            elif isinstance(arg, dict):
                for key, value in arg.items():
                    if isinstance(key, tuple) and len(key) == 2:
                        add(key[0], key[1], value)
                    elif isinstance(value, (list, tuple)):
                        for partition in value:
                            add(key, partition)
                    else:
                        add(key, value)
            else:
                raise errors.KafkaConfigurationError("set_topic_partitions: unknown topic form %r" % (arg,))

        names = sorted({tp.topic for tp in wanted} | set(whole_topics))
        partitions = {name: self.partitions_for_topic(name) or set() for name in names}  # type: ignore[attr-defined]
        for name in whole_topics:
            for partition in sorted(partitions[name]):
                wanted.setdefault(TopicPartition(name, partition), None)
        for tp in wanted:
            if tp.partition not in partitions[tp.topic]:
                raise errors.UnknownTopicOrPartitionError("%s-%d does not exist" % tp)

        self.unsubscribe()  # type: ignore[attr-defined]
        state = self._activate_first_api()
        self.assign(list(wanted))  # type: ignore[attr-defined]
        state.task_done = {tp: None for tp in wanted}
        state.commit = {tp: None for tp in wanted}
        state.messages_since_commit = 0
        if self.config["group_id"] is not None and wanted:
            state.commit.update(self.committed_offsets(list(wanted)))  # type: ignore[attr-defined]
        for tp, offset in wanted.items():
            if offset is not None:
                self.seek(tp, offset)  # type: ignore[attr-defined]
            elif state.commit.get(tp) is not None:
                self.seek(tp, state.commit[tp])  # type: ignore[attr-defined]
        # Resolve the remaining positions now, as 0.9 did (offsets() shows them).
        for tp in wanted:
            self.position(tp)  # type: ignore[attr-defined]

    # -- reading -------------------------------------------------------------------------------

    def fetch_messages(self) -> Iterator[KafkaMessage]:
        """One round of fetching for every assigned partition, as a generator.

        Yields :class:`~kafka.simple.common.KafkaMessage` (``topic``, ``partition``,
        ``offset``, ``key``, ``value``; the value passed through
        ``deserializer_class`` / ``value_deserializer``). Waits up to
        ``fetch_wait_max_ms`` for data; ends when the round's records are
        handed out (call again for more).
        """
        batches = self.poll(timeout_ms=self.config["fetch_max_wait_ms"])  # type: ignore[attr-defined]
        for records in batches.values():
            for record in records:
                yield KafkaMessage(record.topic, record.partition, record.offset, record.key, record.value)

    def next(self) -> Any:
        """The next message (as iteration gives it), waiting up to ``consumer_timeout_ms``.

        Raises :class:`~kafka.errors.ConsumerTimeout` when none came in time
        (0.9's behaviour; iteration simply ends instead).
        """
        try:
            return self.__next__()  # type: ignore[attr-defined]
        except StopIteration:
            raise errors.ConsumerTimeout("no message within consumer_timeout_ms (%s ms)"
                                         % (self.config["consumer_timeout_ms"],)) from None

    # -- marking and committing ------------------------------------------------------------------

    def task_done(self, message: Any) -> bool:
        """Mark ``message`` (anything with ``topic``, ``partition`` and ``offset``) as processed.

        Its offset is committed by the next ``commit()`` (and by
        auto-commit). Returns ``False`` (and logs a warning) when its
        partition is not assigned to this consumer.
        """
        state = self._activate_first_api()
        tp = TopicPartition(_topic_name(message.topic), message.partition)
        if tp not in self.assignment():  # type: ignore[attr-defined]
            log.warning("task_done: %s-%d is not assigned to this consumer", *tp)
            return False
        offset = message.offset
        previous = state.task_done.get(tp)
        if previous is not None and offset != previous + 1:
            log.warning("task_done: offset %d of %s-%d does not follow %d", offset, tp.topic, tp.partition, previous)
        committed = state.commit.get(tp)
        if committed is not None and offset + 1 <= committed:
            log.warning("task_done: offset %d of %s-%d is below the committed offset %d", offset, tp.topic,
                        tp.partition, committed)
        state.task_done[tp] = offset if previous is None else max(previous, offset)
        state.messages_since_commit += 1
        if self._should_auto_commit(state):
            self._commit_task_done(None)
        return True

    def _should_auto_commit(self, state: _FirstApiState) -> bool:
        if not self.config["enable_auto_commit"] or self.config["group_id"] is None:
            return False
        every = self.auto_commit_interval_messages
        if every and state.messages_since_commit >= every:
            return True
        interval = self.config["auto_commit_interval_ms"]
        return interval is not None and time.monotonic() - state.last_commit >= interval / 1000.0

    def _commit_task_done(self, timeout_ms: Optional[float]) -> bool:
        """``commit()`` under the 0.9 semantics: commit what was marked done."""
        if self.config["group_id"] is None:
            raise errors.KafkaConfigurationError("committing offsets needs a consumer group (group_id)")
        state = self._first_api()
        assigned = self.assignment()  # type: ignore[attr-defined]
        offsets = {}
        for tp, done in state.task_done.items():
            if done is None or tp not in assigned:
                continue
            if done + 1 != state.commit.get(tp):
                offsets[tp] = done + 1
        state.messages_since_commit = 0
        state.last_commit = time.monotonic()
        if not offsets:
            log.debug("no new offsets to commit for group %s", self.config["group_id"])
            return False
        log.debug("committing %s for group %s", offsets, self.config["group_id"])
        super().commit(offsets, timeout_ms)  # type: ignore[misc]
        state.commit.update(offsets)
        return True

    def commit(self, offsets: Optional[Dict[TopicPartition, Any]] = None,
               timeout_ms: Optional[float] = None, retry_partition_errors: bool = True) -> Optional[bool]:
        """Commit ``offsets`` (default: the current positions) and wait.

        After ``task_done()`` or ``set_topic_partitions()`` (the 0.9 API),
        ``commit()`` without offsets commits what was marked done instead and
        returns whether there was anything to commit (see the module documentation).
        ``retry_partition_errors``: see :meth:`ModernKafkaConsumer.commit`.
        """
        if offsets is None and self._first_api_active():
            return self._commit_task_done(timeout_ms)
        return super().commit(offsets, timeout_ms, retry_partition_errors)  # type: ignore[misc]

    # -- looking offsets up -----------------------------------------------------------------------

    def offsets(self, group: Optional[str] = None) -> Dict[Any, Any]:
        """A copy of the consumer's offsets, by ``(topic, partition)``.

        ``group`` is ``'fetch'`` (the next offset to fetch), ``'commit'``
        (last committed by this consumer, or found at
        :meth:`set_topic_partitions`), ``'highwater'`` (the high watermark
        of the last fetch) or ``'task_done'`` (last offset marked done);
        without it, a dict of all four. ``None`` where not known yet.
        """
        if group is None:
            return {name: self.offsets(name) for name in OFFSET_GROUPS}
        if group not in OFFSET_GROUPS:
            raise errors.IllegalArgumentError("offsets group must be one of %s, not %r" % (OFFSET_GROUPS, group))
        assigned = sorted(self.assignment())  # type: ignore[attr-defined]
        state = self._first_api()
        if group == "fetch":
            return {tp: self.known_position(tp) for tp in assigned}  # type: ignore[attr-defined]
        if group == "highwater":
            return {tp: self.highwater(tp) for tp in assigned}  # type: ignore[attr-defined]
        source = state.commit if group == "commit" else state.task_done
        return {tp: source.get(tp) for tp in assigned}

    def get_partition_offsets(self, topic: Any, partition: int, request_time_ms: int,
                              max_num_offsets: int) -> List[int]:
        """Offsets of one partition by time, as the broker lists them.

        ``request_time_ms`` is a timestamp (ms), ``-1`` for the latest offset
        (the next to be written) or ``-2`` for the earliest. Brokers since
        Kafka 0.10.1 answer a single offset whatever ``max_num_offsets`` says.
        Raises the broker's error (a :mod:`kafka.errors` class). With
        ``isolation_level='read_committed'``, ``-1`` gives the last stable offset.
        """
        tp = TopicPartition(_topic_name(topic), _partition_number(partition))
        if tp.partition not in (self.partitions_for_topic(tp.topic) or ()):  # type: ignore[attr-defined]
            raise errors.UnknownTopicOrPartitionError("%s-%d does not exist" % tp)
        if request_time_ms == -1:
            return [self.end_offsets([tp])[tp]]  # type: ignore[attr-defined]
        if request_time_ms == -2:
            return [self.beginning_offsets([tp])[tp]]  # type: ignore[attr-defined]
        found = self.offsets_for_times({tp: request_time_ms})[tp]  # type: ignore[attr-defined]
        return [] if found is None else [found.offset]

    # -- configuration ----------------------------------------------------------------------------

    def configure(self, **configs: Any) -> None:
        """Change configuration settings (0.9 or modern names), keeping the others.

        As in 0.9 this starts the consumer afresh: connections are closed
        (leaving the group, committing nothing) and nothing is assigned
        until :meth:`set_topic_partitions` or ``subscribe()`` is called.
        """
        translated = translate_options(configs)
        merged = dict(self.config)
        merged.update(translated)
        merged["auto_commit_interval_messages"] = configs.get("auto_commit_interval_messages",
                                                              self.auto_commit_interval_messages)
        # Validate before tearing anything down.
        unknown = set(translated) - set(self.config)
        if unknown:
            raise errors.KafkaConfigurationError("unknown consumer configuration: %s" % ", ".join(sorted(unknown)))
        self._keep_old_options(merged)
        self.close(autocommit=False)  # type: ignore[attr-defined]
        self.__dict__.pop("_first_api_state", None)
        type(self).__init__(self, **merged)


__all__ = ["FirstApiMixin", "OFFSET_GROUPS", "OLD_OPTION_NAMES", "OLD_ONLY_OPTIONS", "translate_options"]
