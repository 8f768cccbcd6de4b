"""MultiProcessConsumer: the simple consumer that reads a topic with worker processes.

The topic's partitions are split among worker processes (``num_procs`` of
them, or as many as needed for ``partitions_per_proc`` partitions each).
Every worker opens its own :class:`~kafka.KafkaClient` from the parent
client's configuration (sockets are never shared between processes), runs a
:class:`~kafka.simple.simple_consumer.SimpleConsumer` without auto-commit on
its partitions and puts ``(partition, message)`` pairs on a queue the parent
reads. The parent keeps the offsets of what it handed out and commits them
(manually or with the auto-commit triggers), as in 0.9.x.

Workers only fetch while the parent asks for messages (the ``start``
event), and at most about ``count`` messages ahead during
:meth:`MultiProcessConsumer.get_messages`. Messages a worker fetched but the
parent has not handed out yet are not committed.

Workers are started with the platform's default ``multiprocessing`` start
method, or the one given as ``start_method`` (``'fork'``, ``'spawn'``,
``'forkserver'``); with ``spawn``/``forkserver`` the client configuration is
pickled (an ``ssl_context`` object cannot be; give ``ssl_cafile`` & co.
instead).
"""

from __future__ import annotations

import logging
import multiprocessing
import pickle
import queue
import time
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional

from kafka import errors
from kafka.config_checks import check_number
from kafka.simple.simple_consumer import AUTO_COMMIT_INTERVAL, AUTO_COMMIT_MSG_COUNT, Consumer, check_fetch_options

log = logging.getLogger(__name__)

#: How long a worker waits between fetches that brought nothing (seconds).
NO_MESSAGES_WAIT_TIME_SECONDS = 0.1
#: How long a worker waits for room on a full queue before checking for exit (seconds).
FULL_QUEUE_WAIT_TIME_SECONDS = 0.1
#: Longest back-off of a worker whose broker is unreachable (seconds).
MAX_BACKOFF_SECONDS = 60
#: How many messages the shared queue holds.
QUEUE_SIZE = 1024
#: How long :meth:`MultiProcessConsumer.stop` waits for each worker before terminating it (seconds).
STOP_TIMEOUT_SECONDS = 10.0
#: The SimpleConsumer options a MultiProcessConsumer passes on to its workers.
WORKER_OPTIONS = ("fetch_size_bytes", "buffer_size", "max_buffer_size", "iter_timeout", "auto_offset_reset")


class Events(NamedTuple):
    """The events the parent drives its workers with."""

    start: Any  # set: workers fetch
    pause: Any  # clear: a worker that delivered ``size`` messages waits
    exit: Any  # set: workers stop


def _mp_consume(config: Dict[str, Any], group: Any, topic: Any, message_queue: Any, size: Any, events: Events,
                **consumer_options: Any) -> None:
    """A worker process: consume ``consumer_options['partitions']`` into ``message_queue``."""
    from kafka.simple.client import KafkaClient
    from kafka.simple.simple_consumer import SimpleConsumer

    # Whatever is left in the queue's buffer when we exit may be dropped:
    # the parent is stopping and must not wait for it.
    message_queue.cancel_join_thread()
    interval = 1.0
    while not events.exit.is_set():
        client = None
        consumer = None
        try:
            client = KafkaClient(**config)
            consumer = SimpleConsumer(client, group, topic, auto_commit=False, auto_commit_every_n=None,
                                      auto_commit_every_t=None, **consumer_options)
            consumer.provide_partition_info()
            interval = 1.0
            count = 0  # messages delivered for the parent's current request
            while True:
                if not events.start.wait(0.5):
                    count = 0  # the parent is between requests
                if events.exit.is_set():
                    break
                if not events.start.is_set():
                    continue
                message = consumer.get_message()
                if message:
                    while not events.exit.is_set():
                        try:
                            message_queue.put(message, timeout=FULL_QUEUE_WAIT_TIME_SECONDS)
                            break
                        except queue.Full:
                            continue
                    count += 1
                    # Enough for what the parent asked: wait until it wants more.
                    limit = size.value
                    if limit and count >= limit:
                        while not events.pause.wait(0.5) and not events.exit.is_set():
                            pass
                        count = 0
                else:
                    time.sleep(NO_MESSAGES_WAIT_TIME_SECONDS)
        except errors.KafkaError as exc:
            log.error("worker of %s: problem talking to Kafka (%s); retrying in %.0f s", topic, exc, interval)
            events.exit.wait(interval)
            interval = min(interval * 2, MAX_BACKOFF_SECONDS)
        except Exception:
            log.exception("worker of %s failed", topic)
            raise
        finally:
            if consumer is not None:
                consumer.stop()
            if client is not None:
                client.close()


class MultiProcessConsumer(Consumer):
    """A consumer that reads the partitions of one topic in parallel worker processes.

    :param client: a :class:`~kafka.KafkaClient`; workers open their own
        client with its configuration (brokers, client id, timeouts, security).
    :param group: the consumer group the offsets are committed for.
    :param topic: the topic to consume.
    :param partitions: the partitions to consume (default: all).
    :param auto_commit: commit automatically (default True).
    :param auto_commit_every_n: commit after this many messages (default 100).
    :param auto_commit_every_t: commit every this many ms (default 5000).
    :param num_procs: how many worker processes to start (default 1).
    :param partitions_per_proc: give each worker at most this many
        partitions (overrides ``num_procs``).
    :param start_method: the ``multiprocessing`` start method of the workers
        (default: the platform's).
    :param simple_consumer_options: passed to each worker's
        :class:`~kafka.simple.simple_consumer.SimpleConsumer` (``buffer_size``,
        ``max_buffer_size``, ``auto_offset_reset``, ...).

    Call :meth:`stop` when done: it ends the workers (terminating any that
    does not end within :data:`STOP_TIMEOUT_SECONDS`) and commits.
    """

    def __init__(self, client: Any, group: Any, topic: Any, partitions: Optional[Iterable[int]] = None,
                 auto_commit: bool = True, auto_commit_every_n: Optional[int] = AUTO_COMMIT_MSG_COUNT,
                 auto_commit_every_t: Optional[float] = AUTO_COMMIT_INTERVAL, num_procs: int = 1,
                 partitions_per_proc: int = 0, start_method: Optional[str] = None,
                 **simple_consumer_options: Any) -> None:
        check_number("num_procs", num_procs, 1, integer=True)
        check_number("partitions_per_proc", partitions_per_proc, 0, integer=True)
        unknown = sorted(set(simple_consumer_options) - set(WORKER_OPTIONS))
        if unknown:
            raise errors.KafkaConfigurationError("unknown MultiProcessConsumer option(s) %s; the workers' "
                                                 "SimpleConsumer takes %s" % (unknown, ", ".join(WORKER_OPTIONS)))
        check_fetch_options(**simple_consumer_options)
        try:
            context = multiprocessing.get_context(start_method)
        except ValueError as exc:
            raise errors.KafkaConfigurationError("unknown start_method %r: %s" % (start_method, exc)) from None
        self.procs: List[Any] = []
        super().__init__(client, group, topic, partitions=partitions, auto_commit=auto_commit,
                         auto_commit_every_n=auto_commit_every_n, auto_commit_every_t=auto_commit_every_t)

        config = client.engine_config()
        if context.get_start_method() != "fork":
            try:
                pickle.dumps(config)
            except Exception as exc:
                Consumer.stop(self)
                raise errors.KafkaConfigurationError(
                    "the client configuration cannot be sent to %r worker processes (%s); use the fork "
                    "start method or file-based settings (ssl_cafile, ...)" % (context.get_start_method(), exc)
                ) from None

        self.queue = context.Queue(QUEUE_SIZE)
        self.events = Events(start=context.Event(), pause=context.Event(), exit=context.Event())
        self.size = context.Value("i", 0)

        ids = sorted(self.offsets)
        if partitions_per_proc:
            num_procs = -(-len(ids) // partitions_per_proc)
        num_procs = min(num_procs, len(ids))
        chunks = [ids[proc::num_procs] for proc in range(num_procs)]
        try:
            for chunk in chunks:
                options = dict(simple_consumer_options, partitions=chunk)
                # Every concrete context has Process; typeshed's BaseContext does not.
                proc = context.Process(target=_mp_consume, name="kafka-mp-consumer",  # type: ignore[attr-defined]
                                       args=(config, self.group, self.topic, self.queue, self.size, self.events),
                                       kwargs=options, daemon=True)
                proc.start()
                self.procs.append(proc)
        except BaseException:
            self.stop()
            raise

    def __repr__(self) -> str:
        return "<MultiProcessConsumer group=%s, topic=%s, consumers=%d>" % (self._group_name, self._topic_name,
                                                                            len(self.procs))

    def __iter__(self) -> Iterator[Any]:
        """Messages as they come; ends when none arrived for a second."""
        self.size.value = 0
        self.events.pause.set()
        try:
            while True:
                self.events.start.set()
                try:
                    partition, message = self.queue.get(block=True, timeout=1)
                except queue.Empty:
                    return
                self.offsets[partition] = message.offset + 1
                self.count_since_commit += 1
                self._auto_commit()
                yield (partition, message) if self.partition_info else message
        finally:
            self.events.start.clear()

    def get_messages(self, count: int = 1, block: Any = True, timeout: Optional[float] = 10) -> List[Any]:
        """Get up to ``count`` messages.

        :param block: ``True`` waits until ``count`` messages are there (or
            the timeout passes); a positive int waits until that many are
            there; ``False`` takes only what is already queued.
        :param timeout: how long (seconds) to wait at most; ``None`` waits forever.
        """
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise errors.IllegalArgumentError("count must be an int >= 0, got %r" % (count,))
        messages: List[Any] = []
        # A hint to the workers: each fetches at most about ``count`` messages.
        self.size.value = count
        self.events.pause.clear()
        deadline = None if timeout is None else time.monotonic() + timeout
        new_offsets: Dict[int, int] = {}
        try:
            while count > 0:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    break
                # Only wake the workers when the queue is empty, so they do not run far ahead.
                if self.queue.empty():
                    self.events.start.set()
                block_next = block is True or (not isinstance(block, bool) and block > len(messages))
                try:
                    if block_next:
                        partition, message = self.queue.get(True, left)
                    else:
                        partition, message = self.queue.get(True, min(left or 0.1, 0.1))
                except queue.Empty:
                    break
                messages.append((partition, message) if self.partition_info else message)
                new_offsets[partition] = message.offset + 1
                count -= 1
        finally:
            self.size.value = 0
            self.events.start.clear()
            self.events.pause.set()
        self.offsets.update(new_offsets)
        self.count_since_commit += len(messages)
        self._auto_commit()
        return messages

    def stop(self) -> None:
        """End the worker processes (within a bounded time) and commit (with auto-commit)."""
        if self.stopped:
            return
        if not hasattr(self, "events"):  # the constructor failed before starting workers
            Consumer.stop(self)
            return
        self.events.exit.set()
        self.events.pause.set()
        self.events.start.set()
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        for proc in self.procs:
            while proc.is_alive() and time.monotonic() < deadline:
                proc.join(0.1)
                self._drain()
            if proc.is_alive():
                log.warning("worker %s did not stop in time; terminating it", proc.pid)
                proc.terminate()
                proc.join(2.0)
                if proc.is_alive():  # pragma: no cover - ignores SIGTERM
                    proc.kill()
                    proc.join(2.0)
        self._drain()
        self.queue.close()
        self.queue.join_thread()
        super().stop()

    def _drain(self) -> None:
        # What workers fetched but nobody took; emptying the pipe lets them exit.
        try:
            while True:
                self.queue.get_nowait()
        except (queue.Empty, OSError, ValueError):
            pass


__all__ = ["MultiProcessConsumer", "Events"]
