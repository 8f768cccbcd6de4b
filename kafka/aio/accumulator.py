"""Records waiting to be sent, one batch at a time per partition, for the asyncio producer.

``send()`` appends a record to the open batch of its partition
(:class:`PendingBatch`, encoded by the engine's
:class:`~kafka.record.batch.RecordBatchBuilder`) and gets a future per
record. A batch is ready to go when it is full, when it has lingered
``linger_ms``, or while a flush waits; the sender takes ready batches
(:meth:`Accumulator.ready`, :meth:`Accumulator.pop`), one per partition.
While a partition holds a full batch that has not been taken yet, a further
``send()`` to it waits (back-pressure), so a fast producer yields to the
event loop instead of queueing without bound; and one that sends in a tight
loop lets the loop run at least every ``TURN_SECONDS``.

Nothing here does I/O; times are ``time.monotonic()`` seconds passed in.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Deque, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from kafka.aio.structs import RecordMetadata
from kafka.errors import KafkaError, KafkaTimeoutError
from kafka.record.batch import RecordBatchBuilder
from kafka.record.record import Header
from kafka.structs import TopicPartition

#: Full batches a partition may hold before ``send()`` waits for the sender.
MAX_FULL_BATCHES = 1

#: Seconds ``append()`` may run turn after turn without letting the event loop
#: run (a caller sending in a tight loop never yields otherwise).
TURN_SECONDS = 0.01

_CREATE_TIME, _LOG_APPEND_TIME = 0, 1


class PendingBatch:
    """Records for one partition, their futures and what became of them.

    :param tp: the partition.
    :param builder: the batch under construction.
    :param created: when the first record came (monotonic seconds).
    """

    __slots__ = ("tp", "builder", "created", "futures", "stamps", "data", "attempts", "retry_at", "delivered",
                 "_full")

    def __init__(self, tp: TopicPartition, builder: RecordBatchBuilder, created: float) -> None:
        self.tp = tp
        self.builder = builder
        self.created = created
        #: One future per record, in offset order.
        self.futures: List["asyncio.Future[RecordMetadata]"] = []
        self.stamps: List[int] = []
        #: The encoded batch once closed (the same bytes are sent again on a retry).
        self.data: Optional[bytes] = None
        self.attempts = 0
        self.retry_at = 0.0
        #: Resolves (with None) once every record's future is resolved, however.
        self.delivered: "asyncio.Future[None]" = asyncio.get_running_loop().create_future()
        self._full = False

    def __repr__(self) -> str:
        return "<PendingBatch %s-%d records=%d attempts=%d>" % (self.tp.topic, self.tp.partition,
                                                                 len(self.futures), self.attempts)

    @property
    def closed(self) -> bool:
        """No more records go in (full, or taken by the sender)."""
        return self._full or self.data is not None

    @property
    def record_count(self) -> int:
        """Records in the batch."""
        return len(self.futures)

    def append(self, timestamp: int, key: Optional[bytes], value: Optional[bytes],
               headers: Optional[Sequence[Header]]) -> "Optional[asyncio.Future[RecordMetadata]]":
        """Add a record; its future, or None when the batch is full (it is closed then)."""
        if self.closed:
            return None
        added = self.builder.append(len(self.futures), timestamp, key, value, headers or None)
        if added is None:
            self._full = True
            return None
        future: "asyncio.Future[RecordMetadata]" = self.delivered.get_loop().create_future()
        self.futures.append(future)
        self.stamps.append(timestamp)
        return future

    def close(self) -> bytes:
        """Take no more records; the encoded batch."""
        if self.data is None:
            self.data = self.builder.build()
        return self.data

    def succeed(self, base_offset: int, log_append_time: int = -1, log_start_offset: int = -1) -> None:
        """Resolve every record's future with where it was written (futures a caller cancelled are skipped)."""
        tp = self.tp
        topic, partition = tp
        append_time = log_append_time != -1
        kind = _LOG_APPEND_TIME if append_time else _CREATE_TIME
        for i, (future, stamp) in enumerate(zip(self.futures, self.stamps)):
            if not future.done():
                future.set_result(RecordMetadata(topic, partition, tp, base_offset + i if base_offset >= 0 else -1,
                                                 log_append_time if append_time else stamp, kind, log_start_offset))
        self._finish()

    def fail(self, error: BaseException) -> None:
        """Fail every record's future with ``error``."""
        for future in self.futures:
            if not future.done():
                future.set_exception(error)
        self._finish()

    def _finish(self) -> None:
        if not self.delivered.done():
            self.delivered.set_result(None)


class Accumulator:
    """Open and ready batches of every partition.

    :param batch_size: largest uncompressed batch (``max_batch_size``).
    :param compression: codec id of the batches.
    :param linger_ms: how long a batch that is not full waits for more records.
    :param delivery_timeout_ms: how long a record may wait for its batch to be delivered.
    """

    def __init__(self, batch_size: int, compression: int, linger_ms: float, delivery_timeout_ms: float) -> None:
        self.batch_size = batch_size
        self.compression = compression
        self.linger = linger_ms / 1000.0
        self.delivery_timeout = delivery_timeout_ms / 1000.0
        self._batches: Dict[TopicPartition, Deque[PendingBatch]] = {}
        self._space_waiters: Dict[TopicPartition, List["asyncio.Future[None]"]] = {}
        self._unfinished: Set["asyncio.Future[None]"] = set()
        self._flushing = 0
        self._closed: Optional[BaseException] = None
        self._work = False  # set by wake(): the sender has something to look at
        self._waiter: "Optional[asyncio.Future[None]]" = None  # the sender waiting in wait_for_work()
        self._turn_started = time.monotonic()  # when append() last let the loop run

    # -- the sending side ----------------------------------------------------------------------

    async def append(self, tp: TopicPartition, timestamp: int, key: Optional[bytes], value: Optional[bytes],
                     headers: Optional[Sequence[Header]], timeout: float) -> "asyncio.Future[RecordMetadata]":
        """Append a record to ``tp``'s open batch; its delivery future.

        Waits while ``tp`` already holds a full batch the sender has not
        taken, at most ``timeout`` seconds (then :class:`KafkaTimeoutError`).
        """
        deadline: Optional[float] = None
        if time.monotonic() - self._turn_started > TURN_SECONDS:
            # Before the record goes in: a send() cancelled here appends nothing.
            await asyncio.sleep(0)
            self._turn_started = time.monotonic()
        while True:
            if self._closed is not None:
                raise self._closed
            queue = self._batches.get(tp)
            if queue:
                future = queue[-1].append(timestamp, key, value, headers)
                if future is not None:
                    return future
                if queue[-1].data is None:
                    # The batch just filled: it is encoded, and the sender may take it.
                    queue[-1].close()
                    self.wake()
                    continue
            if queue and sum(1 for b in queue if b.closed) >= MAX_FULL_BATCHES:
                if deadline is None:
                    deadline = time.monotonic() + timeout
                await self._wait_for_space(tp, deadline)
                self._turn_started = time.monotonic()
                continue
            batch = self._new_batch(tp)
            future = batch.append(timestamp, key, value, headers)
            assert future is not None  # the builder takes any first record
            return future

    def _new_batch(self, tp: TopicPartition) -> PendingBatch:
        builder = RecordBatchBuilder(compression_type=self.compression, batch_size=self.batch_size)
        batch = PendingBatch(tp, builder, time.monotonic())
        self._batches.setdefault(tp, deque()).append(batch)
        self._unfinished.add(batch.delivered)
        batch.delivered.add_done_callback(self._unfinished.discard)
        self.wake()  # the sender times the linger from now on
        return batch

    async def _wait_for_space(self, tp: TopicPartition, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise KafkaTimeoutError("the batches of %s-%d were not sent in time" % (tp.topic, tp.partition))
        waiter: "asyncio.Future[None]" = asyncio.get_running_loop().create_future()
        self._space_waiters.setdefault(tp, []).append(waiter)
        try:
            await asyncio.wait_for(waiter, left)
        except asyncio.TimeoutError:
            raise KafkaTimeoutError("the batches of %s-%d were not sent within the request timeout"
                                    % (tp.topic, tp.partition)) from None
        finally:
            waiters = self._space_waiters.get(tp)
            if waiters and waiter in waiters:
                waiters.remove(waiter)

    def _release_space(self, tp: TopicPartition) -> None:
        for waiter in self._space_waiters.pop(tp, ()):
            if not waiter.done():
                waiter.set_result(None)

    # -- the sender's side ----------------------------------------------------------------------

    def ready(self, now: float, muted: Iterable[TopicPartition] = ()) -> Tuple[List[TopicPartition], Optional[float]]:
        """Partitions whose first batch may go now, and when the next one may (None: nothing waits).

        Partitions in ``muted`` (a batch in flight) are left out.
        """
        muted = set(muted)
        ready: List[TopicPartition] = []
        next_at: Optional[float] = None
        flushing = self._flushing > 0 or self._closed is not None
        for tp, queue in self._batches.items():
            if not queue or tp in muted:
                continue
            first = queue[0]
            if first.retry_at > now:
                at = first.retry_at
            elif first.closed or len(queue) > 1 or flushing:
                ready.append(tp)
                continue
            else:
                at = first.created + self.linger
                if at <= now:
                    ready.append(tp)
                    continue
            next_at = at if next_at is None else min(next_at, at)
        return ready, next_at

    def pop(self, tp: TopicPartition) -> PendingBatch:
        """Take ``tp``'s first batch for sending (it is closed and encoded)."""
        queue = self._batches[tp]
        batch = queue.popleft()
        if not queue:
            del self._batches[tp]
        batch.close()
        self._release_space(tp)
        return batch

    def put_back(self, batch: PendingBatch) -> None:
        """Return a batch to be retried; it goes before the partition's other batches."""
        self._batches.setdefault(batch.tp, deque()).appendleft(batch)
        self.wake()

    def expire(self, now: float, muted: Iterable[TopicPartition] = ()) -> None:
        """Fail the batches that waited longer than the delivery timeout (not those in flight)."""
        muted = set(muted)
        for tp in list(self._batches):
            if tp in muted:
                continue
            queue = self._batches[tp]
            while queue and now - queue[0].created > self.delivery_timeout:
                batch = queue.popleft()
                batch.close()
                batch.fail(KafkaTimeoutError("%d record(s) for %s-%d expired after %d ms waiting to be sent"
                                             % (batch.record_count, tp.topic, tp.partition,
                                                self.delivery_timeout * 1000)))
            if not queue:
                del self._batches[tp]
                self._release_space(tp)

    def has_batches(self) -> bool:
        """Whether any batch waits (open, full or to be retried)."""
        return bool(self._batches)

    async def wait_for_work(self, timeout: Optional[float]) -> None:
        """Return when :meth:`wake` was called or a batch appeared, or after ``timeout`` seconds.

        A plain future and a timer rather than ``asyncio.wait_for``: a
        timeout here is the common case (the end of a linger), and an
        exception per turn would leave reference cycles for the collector.
        """
        if not self._work:
            loop = asyncio.get_running_loop()
            waiter: "asyncio.Future[None]" = loop.create_future()
            self._waiter = waiter
            timer = loop.call_later(timeout, _resolve, waiter) if timeout is not None else None
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()
        self._work = False

    def wake(self) -> None:
        """Have the sender look at the batches again."""
        self._work = True
        if self._waiter is not None:
            _resolve(self._waiter)

    # -- flush and close -------------------------------------------------------------------------

    async def flush(self) -> None:
        """Send every batch now and wait until each record's future is resolved (successfully or not)."""
        pending = set(self._unfinished)
        if not pending:
            return
        self._flushing += 1
        self.wake()
        try:
            await asyncio.wait(pending)
        finally:
            self._flushing -= 1

    def close(self, error: KafkaError) -> None:
        """Refuse new records with ``error``; what is queued is still sent."""
        self._closed = error
        for tp in list(self._space_waiters):
            self._release_space(tp)
        self.wake()

    def fail_all(self, error: BaseException) -> None:
        """Fail every batch still queued (after the sender stopped)."""
        batches, self._batches = self._batches, {}
        for queue in batches.values():
            for batch in queue:
                batch.close()
                batch.fail(error)


def _resolve(waiter: "asyncio.Future[None]") -> None:
    if not waiter.done():
        waiter.set_result(None)
