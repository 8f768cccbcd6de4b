"""The API of kafka-python 0.9's ``KafkaConsumer``, on the modern consumer.

:class:`FirstApiMixin` gives :class:`~kafka.KafkaConsumer` the methods code
written for the first ``KafkaConsumer`` calls:

* :meth:`~FirstApiMixin.set_topic_partitions` -- what to read, in every
  form 0.9 accepted (topics, ``(topic, partition)``, ``(topic, partition,
  offset)``, and dicts of those); partitions are then *assigned* (no group
  rebalancing, as in 0.9), and the group, if any, only keeps offsets;
* :meth:`~FirstApiMixin.fetch_messages` -- one round of fetching, as a
  generator of :class:`~kafka.common.KafkaMessage`;
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
"""

from __future__ import annotations

import logging
import time
from typing import Any, Dict, Iterator, List, Optional

from kafka import errors
from kafka.common import KafkaMessage, OffsetRequest
from kafka.structs import TopicPartition
from kafka.topic_names import check_topic_name

log = logging.getLogger(__name__)

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

    # Provided by KafkaConsumer.
    config: Dict[str, Any]
    _client: Any
    _coordinator: Any
    _subscription: Any

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
            if self._coordinator is not None:
                self._coordinator.config["enable_auto_commit"] = False
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
        self._check_open()  # type: ignore[attr-defined]
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
        if names:
            self._client.ensure_topics(names, timeout_ms=self.config["request_timeout_ms"])
        cluster = self._client.cluster
        for name in whole_topics:
            for partition in sorted(cluster.partitions_for_topic(name) or ()):
                wanted.setdefault(TopicPartition(name, partition), None)
        for tp in wanted:
            known = cluster.partitions_for_topic(tp.topic)
            if not known or tp.partition not in known:
                raise errors.UnknownTopicOrPartitionError("%s-%d does not exist" % tp)

        if self._subscription.subscribed:
            self.unsubscribe()  # type: ignore[attr-defined]
        state = self._activate_first_api()
        self.assign(list(wanted))  # type: ignore[attr-defined]
        state.task_done = {tp: None for tp in wanted}
        state.commit = {tp: None for tp in wanted}
        state.messages_since_commit = 0
        if self._coordinator is not None and wanted:
            found = self._coordinator.fetch_committed_offsets(list(wanted), self.config["request_timeout_ms"])
            for tp, committed in found.items():
                state.commit[tp] = None if committed is None else committed.offset
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

        Yields :class:`~kafka.common.KafkaMessage` (``topic``, ``partition``,
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
        if not self._subscription.is_assigned(tp):
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
        if not self.config["enable_auto_commit"] or self._coordinator is None:
            return False
        every = self.auto_commit_interval_messages
        if every and state.messages_since_commit >= every:
            return True
        interval = self.config["auto_commit_interval_ms"]
        return interval is not None and time.monotonic() - state.last_commit >= interval / 1000.0

    def _commit_task_done(self, timeout_ms: Optional[float]) -> bool:
        """``commit()`` under the 0.9 semantics: commit what was marked done."""
        if self._coordinator is None:
            raise errors.KafkaConfigurationError("committing offsets needs a consumer group (group_id)")
        state = self._first_api()
        offsets = {}
        for tp, done in state.task_done.items():
            if done is None or not self._subscription.is_assigned(tp):
                continue
            if done + 1 != state.commit.get(tp):
                offsets[tp] = done + 1
        state.messages_since_commit = 0
        state.last_commit = time.monotonic()
        if not offsets:
            log.debug("no new offsets to commit for group %s", self.config["group_id"])
            return False
        log.debug("committing %s for group %s", offsets, self.config["group_id"])
        self.commit(offsets, timeout_ms)  # type: ignore[attr-defined]
        state.commit.update(offsets)
        return True

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
        assigned = sorted(self._subscription.assigned_partitions())
        state = self._first_api()
        if group == "fetch":
            return {tp: self._subscription.state(tp).position for tp in assigned}
        if group == "highwater":
            return {tp: self._subscription.state(tp).highwater for tp in assigned}
        source = state.commit if group == "commit" else state.task_done
        return {tp: source.get(tp) for tp in assigned}

    def get_partition_offsets(self, topic: Any, partition: int, request_time_ms: int,
                              max_num_offsets: int) -> List[int]:
        """Offsets of one partition by time, as the broker lists them.

        ``request_time_ms`` is a timestamp (ms), ``-1`` for the latest offset
        (the next to be written) or ``-2`` for the earliest. Brokers since
        Kafka 0.10.1 answer a single offset whatever ``max_num_offsets`` says.
        Raises the broker's error (a :mod:`kafka.errors` class).
        """
        request = OffsetRequest(_topic_name(topic), _partition_number(partition), request_time_ms, max_num_offsets)
        [response] = self._client.send_offset_request([request])
        return list(response.offsets)

    # -- configuration ----------------------------------------------------------------------------

    def configure(self, **configs: Any) -> None:
        """Change configuration settings (0.9 or modern names), keeping the others.

        As in 0.9 this starts the consumer afresh: connections are closed
        (leaving the group, committing nothing) and nothing is assigned
        until :meth:`set_topic_partitions` or ``subscribe()`` is called.
        """
        translated = self._translate(configs)  # type: ignore[attr-defined]
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


__all__ = ["FirstApiMixin", "OFFSET_GROUPS"]
