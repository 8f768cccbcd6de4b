"""The kafka-python 0.9.x consumers' base and :class:`SimpleConsumer`.

:class:`Consumer` holds what :class:`SimpleConsumer` and
:class:`~kafka.simple.multiprocess.MultiProcessConsumer` share: the
partitions of one topic, the offset of the next message to hand out for each
(``offsets``), committing them for the group, the auto-commit triggers and
:meth:`Consumer.pending`.

Everything goes through the 0.9 methods of :class:`kafka.KafkaClient`
(``send_fetch_request``, ``send_offset_request``,
``send_offset_commit_request``, ``send_offset_fetch_request``), so each
request reaches the right broker at the version negotiated with it.

Differences from 0.9.x, forced by today's brokers:

* Offsets are kept by Kafka (OffsetCommit/OffsetFetch to the group's
  coordinator, outside any group generation, as 0.9.x did); no broker keeps
  them in ZooKeeper any more.
* Brokers hand back a record batch whole even when it is larger than the
  fetch size asked for. Such a batch is consumed, and the partition's fetch
  size grows (doubling, up to ``max_buffer_size``) as 0.9.x grew it when a
  message did not fit. A single message larger than ``max_buffer_size``
  still raises :class:`~kafka.errors.ConsumerFetchSizeTooSmall`, and the
  consumer stays positioned on it.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
import time
import weakref
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from kafka import errors
from kafka.config_checks import check_number
from kafka.simple.common import (
    FailedPayloadsError,
    FetchRequest,
    OffsetAndMessage,
    OffsetCommitRequest,
    OffsetFetchRequest,
    OffsetRequest,
)
from kafka.simple.protocol import _text

log = logging.getLogger(__name__)

#: Default ``auto_commit_every_n`` (messages).
AUTO_COMMIT_MSG_COUNT = 100
#: Default ``auto_commit_every_t`` (ms).
AUTO_COMMIT_INTERVAL = 5000
#: Default ``fetch_size_bytes``.
FETCH_MIN_BYTES = 4096
#: Default ``buffer_size``: the first fetch size of each partition.
FETCH_BUFFER_SIZE_BYTES = 4096
#: Default ``max_buffer_size``: how far the fetch size may grow.
MAX_FETCH_BUFFER_SIZE_BYTES = FETCH_BUFFER_SIZE_BYTES * 8
#: How long (ms) a broker may wait for data when the caller does not block.
FETCH_MAX_WAIT_TIME = 100
#: How long a blocking fetch waits when the caller gives no timeout (seconds).
FETCH_DEFAULT_BLOCK_TIMEOUT = 1
#: How long iteration waits for a message when ``iter_timeout`` is None (seconds).
ITER_TIMEOUT_SECONDS = 1

#: ``whence`` values of :meth:`SimpleConsumer.seek`.
SEEK_HEAD, SEEK_CURRENT, SEEK_TAIL = 0, 1, 2
_LATEST, _EARLIEST = -1, -2


def _check_positive_or_none(name: str, value: Any) -> None:
    if value is None:
        return
    check_number(name, value)
    if value <= 0:
        raise errors.ConfigurationValueError("%s must be a positive number or None, got %r" % (name, value))


def check_fetch_options(fetch_size_bytes: int = FETCH_MIN_BYTES, buffer_size: int = FETCH_BUFFER_SIZE_BYTES,
                        max_buffer_size: Optional[int] = MAX_FETCH_BUFFER_SIZE_BYTES,
                        iter_timeout: Optional[float] = None, auto_offset_reset: str = "largest") -> None:
    """Raise :class:`~kafka.errors.KafkaConfigurationError` for a bad :class:`SimpleConsumer` fetch option.

    The errors are also :class:`~kafka.errors.IllegalArgumentError`, as before.
    """
    check_number("buffer_size", buffer_size, 1, integer=True)
    check_number("max_buffer_size", max_buffer_size, 1, integer=True, none_ok=True)
    if max_buffer_size is not None and buffer_size > max_buffer_size:
        raise errors.ConfigurationValueError("buffer_size (%d) is greater than max_buffer_size (%d)"
                                             % (buffer_size, max_buffer_size))
    check_number("fetch_size_bytes", fetch_size_bytes, 0, integer=True)
    check_number("iter_timeout", iter_timeout, 0, none_ok=True)
    if not isinstance(auto_offset_reset, str):
        raise errors.ConfigurationTypeError("auto_offset_reset must be 'largest' or 'smallest', got %r"
                                            % (auto_offset_reset,))


class _CommitTimer(threading.Thread):
    """Calls ``commit`` every ``interval`` seconds; :meth:`reset` restarts the wait."""

    def __init__(self, consumer: "Consumer", interval: float) -> None:
        super().__init__(name="kafka-simple-consumer-commit", daemon=True)
        # A weak reference: the timer must not keep a forgotten consumer alive.
        self._consumer = weakref.ref(consumer)
        self.interval = interval
        self._wake = threading.Event()
        self._stopped = False
        self._reset = False

    def reset(self) -> None:
        self._reset = True
        self._wake.set()

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()
        if threading.current_thread() is not self:
            self.join(5.0)

    def run(self) -> None:
        while not self._stopped:
            woke = self._wake.wait(self.interval)
            self._wake.clear()
            if self._stopped:
                return
            if woke and self._reset:
                self._reset = False
                continue  # a commit happened meanwhile: wait a full interval again
            consumer = self._consumer()
            if consumer is None:
                return
            try:
                consumer.commit()
            except Exception:  # keep the timer going; commit() logs what failed
                log.exception("auto-commit of %r failed", consumer)
            del consumer


def _stop_at_exit(ref: "weakref.ref[Consumer]") -> None:
    consumer = ref()
    if consumer is not None and not consumer.stopped:
        try:
            consumer.stop()
        except Exception:  # pragma: no cover - the interpreter is exiting
            log.debug("stopping %r at exit failed", consumer, exc_info=True)


class Consumer:
    """Base of the simple consumers; not used directly.

    :param client: a :class:`~kafka.KafkaClient`.
    :param group: the consumer group the offsets are committed for (``str``
        or ``bytes``); ``None`` reads every partition from offset 0 and
        commits nothing (auto-commit is then off).
    :param topic: the topic to consume (``str`` or ``bytes``).
    :param partitions: the partitions to consume (default: all of them).
    :param auto_commit: commit offsets automatically (default True).
    :param auto_commit_every_n: commit after this many messages (None: never by count).
    :param auto_commit_every_t: commit every this many milliseconds, from a
        background timer (None: never by time).

    When both triggers are set, either one commits and a commit (automatic
    or manual) restarts the timer; the message count restarts at every commit.
    ``offsets`` maps each partition to the offset of the next message the
    application gets; that is what is committed.
    """

    def __init__(self, client: Any, group: Any, topic: Any, partitions: Optional[Iterable[int]] = None,
                 auto_commit: bool = True, auto_commit_every_n: Optional[int] = AUTO_COMMIT_MSG_COUNT,
                 auto_commit_every_t: Optional[float] = AUTO_COMMIT_INTERVAL) -> None:
        if not isinstance(topic, (str, bytes)) or not topic:
            raise errors.IllegalArgumentError("topic must be a non-empty str or bytes, got %r" % (topic,))
        if group is not None and not isinstance(group, (str, bytes)):
            raise errors.IllegalArgumentError("group must be str, bytes or None, got %r" % (group,))
        _check_positive_or_none("auto_commit_every_n", auto_commit_every_n)
        _check_positive_or_none("auto_commit_every_t", auto_commit_every_t)
        self.client = client
        self.topic = topic
        self.group = group
        self._topic_name = _text(topic)
        self._group_name = None if group is None else _text(group, "group")
        self.stopped = False
        self.partition_info = False
        self.count_since_commit = 0
        self.commit_lock = threading.RLock()
        self.offsets: Dict[int, int] = {}

        try:
            client.load_metadata_for_topics(self._topic_name)
        except errors.LeaderNotAvailableError:
            # A topic the broker has just created: wait until it has leaders.
            timeout = client.timeout
            client.ensure_topic_exists(self._topic_name, timeout=30 if timeout is None else min(timeout, 30))
        known = client.get_partition_ids_for_topic(self._topic_name)
        if partitions is None:
            partitions = known
        else:
            partitions = list(partitions)
            for p in partitions:
                if isinstance(p, bool) or not isinstance(p, int):
                    raise errors.IllegalArgumentError("partitions must be ints, got %r" % (p,))
            missing = sorted(set(partitions) - set(known))
            if missing:
                raise errors.UnknownTopicOrPartitionError("topic %s has no partition %s (it has %s)"
                                                          % (self._topic_name, missing, known))
        if not partitions:
            raise errors.UnknownTopicOrPartitionError("topic %s has no partitions" % self._topic_name)

        # Auto-commit needs a group to commit for.
        self.auto_commit = bool(auto_commit) and group is not None
        self.auto_commit_every_n = auto_commit_every_n
        self.auto_commit_every_t = auto_commit_every_t
        self.commit_timer: Optional[_CommitTimer] = None

        if group is not None:
            self.fetch_last_known_offsets(partitions)
        else:
            self.offsets = {p: 0 for p in partitions}

        if self.auto_commit and auto_commit_every_t is not None:
            self.commit_timer = _CommitTimer(self, auto_commit_every_t / 1000.0)
            self.commit_timer.start()
        self._exit_hook = lambda ref=weakref.ref(self): _stop_at_exit(ref)
        atexit.register(self._exit_hook)

    # -- offsets --------------------------------------------------------------------------

    def provide_partition_info(self) -> None:
        """Return ``(partition, message)`` pairs from now on instead of bare messages."""
        self.partition_info = True

    def fetch_last_known_offsets(self, partitions: Optional[Iterable[int]] = None) -> None:
        """Start ``partitions`` (default: all consumed) at the group's committed offsets.

        A partition the group never committed starts at offset 0 (an offset
        the log no longer has is then handled by ``auto_offset_reset``).
        Raises :class:`~kafka.errors.KafkaConfigurationError` without a group.
        """
        if self.group is None:
            raise errors.KafkaConfigurationError("fetch_last_known_offsets needs a consumer group (group is None)")
        if partitions is None:
            partitions = list(self.offsets) or self.client.get_partition_ids_for_topic(self._topic_name)
        requests = [OffsetFetchRequest(self.topic, p) for p in partitions]
        for response in self.client.send_offset_fetch_request(self.group, requests, fail_on_error=False):
            if isinstance(response, FailedPayloadsError):
                raise response
            if response.error and response.error != errors.UnknownTopicOrPartitionError.errno:
                cls = errors.for_code(response.error)
                raise cls(response)  # type: ignore[misc]
            # -1: nothing committed yet.
            self.offsets[response.partition] = 0 if response.offset < 0 else response.offset
        self._offsets_changed()

    def _offsets_changed(self) -> None:
        """Hook: ``offsets`` were set from outside the message flow."""

    # -- committing -------------------------------------------------------------------------

    def commit(self, partitions: Optional[Iterable[int]] = None) -> Optional[bool]:
        """Commit the offsets of ``partitions`` (default: all) for the group.

        Returns ``True`` once committed, ``False`` when the commit failed
        (the error is logged), and ``None`` when nothing was consumed since
        the last commit. Restarts the auto-commit triggers. Raises
        :class:`~kafka.errors.KafkaConfigurationError` without a group.
        """
        if self.group is None:
            raise errors.KafkaConfigurationError("committing offsets needs a consumer group (group is None)")
        if self.count_since_commit == 0:
            return None
        with self.commit_lock:
            if self.count_since_commit == 0:
                return None  # committed by another thread meanwhile
            offsets = dict(self.offsets)
            if partitions is not None:
                wanted = list(partitions)
                unknown = [p for p in wanted if p not in offsets]
                if unknown:
                    raise errors.UnknownTopicOrPartitionError("not consuming partition(s) %s of %s"
                                                              % (unknown, self._topic_name))
                offsets = {p: offsets[p] for p in wanted}
            counted = self.count_since_commit
            requests = [OffsetCommitRequest(self.topic, p, o, None) for p, o in sorted(offsets.items())]
            log.debug("committing %s for group %s, topic %s", offsets, self._group_name, self._topic_name)
            try:
                self.client.send_offset_commit_request(self.group, requests)
            except errors.KafkaError as exc:
                log.error("%s committing offsets of %s for group %s: %s", type(exc).__name__,
                          self._topic_name, self._group_name, exc)
                return False
            self.count_since_commit = max(self.count_since_commit - counted, 0)
            if self.commit_timer is not None:
                self.commit_timer.reset()
            return True

    def _auto_commit(self) -> None:
        if not self.auto_commit or self.auto_commit_every_n is None:
            return
        if self.count_since_commit >= self.auto_commit_every_n:
            self.commit()

    # -- lag --------------------------------------------------------------------------------

    def _latest_offsets(self, partitions: Sequence[int], time_: int) -> Dict[int, int]:
        requests = [OffsetRequest(self.topic, p, time_, 1) for p in partitions]
        out = {}
        for response in self.client.send_offset_request(requests):
            if not response.offsets:
                raise errors.OffsetOutOfRangeError("no offset found for %s-%d" % (self._topic_name,
                                                                                  response.partition))
            out[response.partition] = response.offsets[0]
        return out

    def pending(self, partitions: Optional[Iterable[int]] = None) -> int:
        """How many messages of ``partitions`` (default: all) are after the consumer's offsets.

        Asks each leader for the latest offset; the sum of ``latest - offset``.
        """
        parts = list(self.offsets) if partitions is None else list(partitions)
        unknown = [p for p in parts if p not in self.offsets]
        if unknown:
            raise errors.UnknownTopicOrPartitionError("not consuming partition(s) %s of %s"
                                                      % (unknown, self._topic_name))
        latest = self._latest_offsets(parts, _LATEST)
        return sum(latest[p] - self.offsets[p] for p in parts)

    # -- stopping -------------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop the auto-commit timer and commit what was consumed (with auto-commit)."""
        if self.stopped:
            return
        self.stopped = True
        if self.commit_timer is not None:
            self.commit_timer.stop()
        if self.auto_commit:
            self.commit()
        atexit.unregister(self._exit_hook)


class SimpleConsumer(Consumer):
    """A consumer of all (or some) partitions of one topic, without group rebalancing.

    Takes the arguments of :class:`Consumer`, plus:

    :param fetch_size_bytes: how many bytes a fetch asks the broker to gather
        (a blocking fetch asks for 1, a non-blocking one for 0, as in 0.9.x;
        kept as :attr:`fetch_min_bytes`).
    :param buffer_size: the first fetch size of each partition (bytes).
    :param max_buffer_size: how far that size may grow (doubling) when a
        message does not fit; ``None`` for no limit. A message larger than
        this raises :class:`~kafka.errors.ConsumerFetchSizeTooSmall`.
    :param iter_timeout: how long (seconds) iteration waits for a message
        before ending; ``None`` waits forever.
    :param auto_offset_reset: where to go when an offset is out of the log's
        range: ``'largest'`` (the end, the default) or ``'smallest'`` (the
        beginning); anything else raises the
        :class:`~kafka.errors.OffsetOutOfRangeError`.

    Messages are :class:`~kafka.simple.common.OffsetAndMessage` tuples (``offset``,
    ``message``; ``message.key`` and ``message.value`` are ``bytes`` or
    ``None``), or ``(partition, OffsetAndMessage)`` pairs after
    :meth:`provide_partition_info`. A consumer is meant for one thread.
    """

    def __init__(self, client: Any, group: Any, topic: Any, auto_commit: bool = True,
                 partitions: Optional[Iterable[int]] = None,
                 auto_commit_every_n: Optional[int] = AUTO_COMMIT_MSG_COUNT,
                 auto_commit_every_t: Optional[float] = AUTO_COMMIT_INTERVAL,
                 fetch_size_bytes: int = FETCH_MIN_BYTES, buffer_size: int = FETCH_BUFFER_SIZE_BYTES,
                 max_buffer_size: Optional[int] = MAX_FETCH_BUFFER_SIZE_BYTES,
                 iter_timeout: Optional[float] = None, auto_offset_reset: str = "largest",
                 **unexpected: Any) -> None:
        if unexpected:  # refused as a configuration error (still a TypeError, as Python's own)
            raise errors.ConfigurationTypeError("%s() got unexpected keyword argument(s): %s"
                                                % (type(self).__name__, ", ".join(sorted(unexpected))))
        check_fetch_options(fetch_size_bytes=fetch_size_bytes, buffer_size=buffer_size,
                            max_buffer_size=max_buffer_size, iter_timeout=iter_timeout,
                            auto_offset_reset=auto_offset_reset)
        self.buffer_size = buffer_size
        self.max_buffer_size = max_buffer_size
        self.fetch_max_wait_time = FETCH_MAX_WAIT_TIME
        self.fetch_min_bytes = fetch_size_bytes
        self.iter_timeout = iter_timeout
        self.auto_offset_reset = auto_offset_reset
        self.queue: "queue.Queue[Tuple[int, OffsetAndMessage]]" = queue.Queue()
        #: The current fetch size of each partition (grows from ``buffer_size``).
        self.partition_buffer_sizes: Dict[int, int] = {}
        self.fetch_offsets: Dict[int, int] = {}
        super().__init__(client, group, topic, partitions=partitions, auto_commit=auto_commit,
                         auto_commit_every_n=auto_commit_every_n, auto_commit_every_t=auto_commit_every_t)
        self.fetch_offsets = dict(self.offsets)

    def __repr__(self) -> str:
        return "<SimpleConsumer group=%s, topic=%s, partitions=%s>" % (self._group_name, self._topic_name,
                                                                       sorted(self.offsets))

    def _offsets_changed(self) -> None:
        # Buffered messages were fetched from the old offsets: drop them.
        self.fetch_offsets = dict(self.offsets)
        self.queue = queue.Queue()

    # -- positions -----------------------------------------------------------------------------

    def reset_partition_offset(self, partition: int) -> Optional[int]:
        """Move ``partition`` to its earliest or latest offset, as ``auto_offset_reset`` says.

        Returns the new offset, or ``None`` when the lookup failed (logged).
        Raises :class:`~kafka.errors.OffsetOutOfRangeError` when
        ``auto_offset_reset`` is neither ``'smallest'`` nor ``'largest'``.
        """
        if self.auto_offset_reset == "largest":
            when = _LATEST
        elif self.auto_offset_reset == "smallest":
            when = _EARLIEST
        else:
            raise errors.OffsetOutOfRangeError(
                "cannot reset the offset of %s-%d: auto_offset_reset is %r, not 'largest' or 'smallest'"
                % (self._topic_name, partition, self.auto_offset_reset))
        log.info("resetting the offset of %s-%d to the %s one", self._topic_name, partition, self.auto_offset_reset)
        try:
            offset = self._latest_offsets([partition], when)[partition]
        except errors.KafkaError as exc:
            log.error("%s looking up the offset of %s-%d: %s", type(exc).__name__, self._topic_name, partition, exc)
            return None
        self.offsets[partition] = offset
        self.fetch_offsets[partition] = offset
        return offset

    def seek(self, offset: int, whence: Optional[int] = None, partition: Optional[int] = None) -> None:
        """Move the consumer's offsets, like ``fseek``.

        :param offset: the offset, or how far to move.
        :param whence: ``None``: ``offset`` is absolute; ``0``: relative to
            the earliest offset (head); ``1``: relative to the current
            offset; ``2``: relative to the latest offset (tail).
        :param partition: the partition to move; ``None`` moves them all.
            With whence 0 or 2 and no partition, ``offset`` is spread over
            the partitions (each gets ``offset // n``, the first
            ``offset % n`` one more), as in 0.9.x.

        Buffered messages are dropped. With auto-commit the new offsets are
        committed at once.
        """
        if partition is not None and partition not in self.offsets:
            raise errors.UnknownTopicOrPartitionError("not consuming partition %r of %s"
                                                      % (partition, self._topic_name))
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise errors.IllegalArgumentError("offset must be an int, got %r" % (offset,))
        targets = list(self.offsets) if partition is None else [partition]
        new: Dict[int, int] = {}
        if whence is None:
            new = {p: offset for p in targets}
        elif whence == SEEK_CURRENT:
            new = {p: self.offsets[p] + offset for p in targets}
        elif whence in (SEEK_HEAD, SEEK_TAIL):
            if partition is None:
                delta, rest = divmod(offset, len(targets))
                deltas = {p: delta + (1 if i < rest else 0) for i, p in enumerate(targets)}
            else:
                deltas = {partition: offset}
            base = self._latest_offsets(targets, _EARLIEST if whence == SEEK_HEAD else _LATEST)
            new = {p: base[p] + deltas[p] for p in targets}
        else:
            raise errors.IllegalArgumentError("whence must be None, 0, 1 or 2, got %r" % (whence,))
        negative = {p: o for p, o in new.items() if o < 0}
        if negative:
            raise errors.IllegalArgumentError("seek would move to negative offsets: %s" % negative)
        self.offsets.update(new)
        self._offsets_changed()
        self.count_since_commit += 1
        if self.auto_commit:
            self.commit()

    # -- getting messages -------------------------------------------------------------------

    def get_messages(self, count: int = 1, block: Any = True, timeout: Optional[float] = 0.1) -> List[Any]:
        """Get up to ``count`` messages.

        :param block: ``True`` waits until ``count`` messages are there (or
            the timeout passes); a positive int waits until that many are
            there; ``False`` returns what one round of fetching brings.
        :param timeout: how long (seconds) to wait at most; ``None`` waits forever.
        """
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise errors.IllegalArgumentError("count must be an int >= 0, got %r" % (count,))
        messages: List[Any] = []
        deadline = None if timeout is None else time.monotonic() + timeout
        new_offsets: Dict[int, int] = {}
        while len(messages) < count:
            left = None if deadline is None else deadline - time.monotonic()
            block_next = block is True or (not isinstance(block, bool) and block > len(messages))
            try:
                result = self._get_message(block_next, left, get_partition_info=True, update_offset=False)
            except errors.KafkaError as exc:
                if not messages:
                    raise
                # Hand out what was taken; the error comes back on the next call.
                log.debug("get_messages: returning %d message(s) before %r", len(messages), exc)
                break
            if not result:
                if block_next and (deadline is None or time.monotonic() <= deadline):
                    continue
                break
            partition, message = result
            messages.append((partition, message) if self.partition_info else message)
            new_offsets[partition] = message.offset + 1
        self.offsets.update(new_offsets)
        self.count_since_commit += len(messages)
        self._auto_commit()
        return messages

    def get_message(self, block: bool = True, timeout: Optional[float] = 0.1,
                    get_partition_info: Optional[bool] = None) -> Any:
        """Get one message, or ``None`` when none came within ``timeout`` seconds.

        ``get_partition_info`` overrides :meth:`provide_partition_info` for this call.
        """
        return self._get_message(block, timeout, get_partition_info)

    def _get_message(self, block: bool = True, timeout: Optional[float] = 0.1,
                     get_partition_info: Optional[bool] = None, update_offset: bool = True) -> Any:
        start = time.monotonic()
        while self.queue.empty():
            self._fetch(block, timeout)
            if not block or (timeout is not None and time.monotonic() >= start + timeout):
                break
        try:
            partition, message = self.queue.get_nowait()
        except queue.Empty:
            return None
        if update_offset:
            self.offsets[partition] = message.offset + 1
            self.count_since_commit += 1
            self._auto_commit()
        if get_partition_info is None:
            get_partition_info = self.partition_info
        return (partition, message) if get_partition_info else message

    def __iter__(self) -> Iterator[Any]:
        timeout = ITER_TIMEOUT_SECONDS if self.iter_timeout is None else self.iter_timeout
        while True:
            message = self.get_message(True, timeout)
            if message:
                yield message
            elif self.iter_timeout is None:
                continue  # no timeout: keep waiting
            else:
                return

    # -- fetching ------------------------------------------------------------------------------

    def _fetch(self, block: bool, timeout: Optional[float]) -> None:
        """One round of fetching for every partition; messages go to the queue."""
        if block:
            wait_ms = int((timeout if timeout else FETCH_DEFAULT_BLOCK_TIMEOUT) * 1000)
            min_bytes = 1
        else:
            wait_ms, min_bytes = self.fetch_max_wait_time, 0
        wait_ms = max(min(wait_ms, 0x7FFFFFFF), 0)
        partitions = {p: self.partition_buffer_sizes.get(p, self.buffer_size) for p in self.fetch_offsets}
        while partitions:
            requests = [FetchRequest(self.topic, p, self.fetch_offsets[p], size) for p, size in partitions.items()]
            responses = self.client.send_fetch_request(requests, max_wait_time=wait_ms, min_bytes=min_bytes,
                                                       fail_on_error=False)
            retry: Dict[int, int] = {}
            for response in responses:
                if isinstance(response, FailedPayloadsError):
                    log.warning("fetching %s-%d failed: %s; will retry", self._topic_name,
                                response.payload.partition, response)
                    self.client.reset_topic_metadata(self._topic_name)
                    continue
                partition = response.partition
                if response.error:
                    cls = errors.for_code(response.error)
                    if cls is errors.OffsetOutOfRangeError:
                        log.warning("offset %d of %s-%d is out of range; resetting it",
                                    self.fetch_offsets[partition], self._topic_name, partition)
                        self.reset_partition_offset(partition)
                        retry[partition] = partitions[partition]
                        continue
                    if cls is not None and (cls.retriable or cls.invalid_metadata):
                        log.warning("%s fetching %s-%d; will retry", cls.__name__, self._topic_name, partition)
                        self.client.reset_topic_metadata(self._topic_name)
                        continue
                    raise cls(response)  # type: ignore[misc]
                grown = self._take_messages(partition, response.messages, partitions[partition])
                if grown:
                    retry[partition] = grown
            partitions = retry
            wait_ms, min_bytes = 0, 0  # retries are for what is already there

    def _take_messages(self, partition: int, messages: Iterable[OffsetAndMessage], size: int) -> Optional[int]:
        """Queue the messages of one partition's answer; a larger size to retry with, if needed."""
        fetch_offset = self.fetch_offsets[partition]
        try:
            taken = [m for m in messages if m.offset >= fetch_offset]
        except errors.ConsumerFetchSizeTooSmall:
            # Even the first message was cut short (brokers before KIP-74): ask for more.
            return self._grow(partition, size, None)
        if not taken:
            return None
        # Kafka returns a too-large first batch whole; grow like 0.9.x did when it did not fit.
        received = sum(len(m.message.key or b"") + len(m.message.value or b"") for m in taken)
        for index, item in enumerate(taken):
            message_size = len(item.message.key or b"") + len(item.message.value or b"")
            if self.max_buffer_size is not None and message_size > self.max_buffer_size:
                # Hand out what precedes it; stay positioned on it.
                for before in taken[:index]:
                    self.queue.put((partition, before))
                    self.fetch_offsets[partition] = before.offset + 1
                if index:
                    return None
                raise errors.ConsumerFetchSizeTooSmall(
                    "message at offset %d of %s-%d is %d bytes, more than max_buffer_size (%d)"
                    % (item.offset, self._topic_name, partition, message_size, self.max_buffer_size))
        for item in taken:
            self.queue.put((partition, item))
        self.fetch_offsets[partition] = taken[-1].offset + 1
        if received > size and (self.max_buffer_size is None or size < self.max_buffer_size):
            self._grow(partition, size, received)  # for the next fetches; never an error here
        return None

    def _grow(self, partition: int, size: int, needed: Optional[int]) -> int:
        if self.max_buffer_size is not None and size >= self.max_buffer_size:
            raise errors.ConsumerFetchSizeTooSmall("max_buffer_size (%d) is too small for the next message of %s-%d"
                                                   % (self.max_buffer_size, self._topic_name, partition))
        new = size * 2
        while needed is not None and new < needed:
            new *= 2
        if self.max_buffer_size is not None:
            new = min(new, self.max_buffer_size)
        log.log(logging.WARNING if needed is None else logging.DEBUG,
                "fetch size %d of %s-%d too small; now %d", size, self._topic_name, partition, new)
        self.partition_buffer_sizes[partition] = new
        return new


__all__ = ["Consumer", "SimpleConsumer", "check_fetch_options", "AUTO_COMMIT_MSG_COUNT", "AUTO_COMMIT_INTERVAL",
           "FETCH_MIN_BYTES", "FETCH_BUFFER_SIZE_BYTES", "MAX_FETCH_BUFFER_SIZE_BYTES",
           "FETCH_MAX_WAIT_TIME", "ITER_TIMEOUT_SECONDS", "SEEK_HEAD", "SEEK_CURRENT", "SEEK_TAIL"]
