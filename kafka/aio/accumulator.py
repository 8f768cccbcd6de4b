"""Records waiting to be sent, one batch at a time per partition, for the asyncio producer.

``send()`` appends a record to the open batch of its partition
(:class:`~kafka.aio.batch.PendingBatch`) and gets a future per record.
Most appends take the fast path, :meth:`Accumulator.append_now`: a plain
method call that finds the partition's open batch and adds the record if it
fits, with no await, no task and no clock read. The rest (no open batch,
a full one, back-pressure, a turn for the event loop) go through
:meth:`Accumulator.append`, a coroutine.

A batch is ready to go when it is full, when it has lingered ``linger_ms``,
or while a flush waits; the sender takes ready batches
(:meth:`Accumulator.ready`, :meth:`Accumulator.pop`), one per partition.
While a partition holds a full batch that has not been taken yet, a further
``send()`` to it waits (back-pressure), so a fast producer yields to the
event loop instead of queueing without bound; and one that sends in a tight
loop lets the loop run at least every ``TURN_SECONDS`` (the clock is read
once per ``TURN_RECORDS`` fast appends).

Nothing here does I/O; times are ``time.monotonic()`` seconds passed in.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any, Deque, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from kafka.aio.batch import PendingBatch
from kafka.aio.structs import RecordMetadata
from kafka.errors import KafkaError, KafkaTimeoutError
from kafka.record.record import Header
from kafka.structs import TopicPartition

__all__ = ["Accumulator", "PendingBatch", "MAX_FULL_BATCHES", "TURN_SECONDS", "TURN_RECORDS"]

#: Full batches a partition may hold before ``send()`` waits for the sender.
MAX_FULL_BATCHES = 1

#: Seconds ``append()`` may run turn after turn without letting the event loop
#: run (a caller sending in a tight loop never yields otherwise).
TURN_SECONDS = 0.01

#: Fast appends between two looks at the clock (for ``TURN_SECONDS``).
TURN_RECORDS = 256


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
        #: The open batch of each partition that has one (the last of its queue, not sealed).
        self._open: Dict[TopicPartition, PendingBatch] = {}
        self._space_waiters: Dict[TopicPartition, List["asyncio.Future[Optional[bool]]"]] = {}
        self._unfinished: Set["asyncio.Future[None]"] = set()
        self._flushing = 0
        self._closed: Optional[BaseException] = None
        self._work = False  # set by wake(): the sender has something to look at
        self._waiter: "Optional[asyncio.Future[None]]" = None  # the sender waiting in wait_for_work()
        self._turn_started = time.monotonic()  # when append() last let the loop run
        self._fast_left = TURN_RECORDS  # fast appends before append_now() sends the caller to append()

    # -- the sending side ----------------------------------------------------------------------

    def append_now(self, tp: TopicPartition, timestamp: int, key: Optional[bytes], value: Optional[bytes],
                   headers: Optional[Sequence[Header]], size: int) -> "Optional[asyncio.Future[RecordMetadata]]":
        """Add a record to ``tp``'s open batch if it fits there; its future, else None (then call :meth:`append`).

        ``size`` is the record's estimated size
        (:func:`~kafka.record.batch.estimate_record_size`). Also None once
        every ``TURN_RECORDS`` calls, so that :meth:`append` can see whether
        the event loop should have a turn.
        """
        self._fast_left -= 1
        if self._fast_left > 0:
            batch = self._open.get(tp)
            if batch is not None:
                return batch.try_append(timestamp, key, value, headers, size)
        return None

    async def append(self, tp: TopicPartition, timestamp: int, key: Optional[bytes], value: Optional[bytes],
                     headers: Optional[Sequence[Header]], size: int,
                     timeout: float) -> "asyncio.Future[RecordMetadata]":
        """Append a record to ``tp``'s open batch, opening one when needed; its delivery future.

        Waits while ``tp`` already holds a full batch the sender has not
        taken, at most ``timeout`` seconds (then :class:`KafkaTimeoutError`).
        Lets the event loop run first when the caller has not for
        ``TURN_SECONDS``.
        """
        self._fast_left = TURN_RECORDS
        if time.monotonic() - self._turn_started > TURN_SECONDS:
            # Before the record goes in: a send() cancelled here appends nothing.
            await asyncio.sleep(0)
            self._turn_started = time.monotonic()
        deadline: Optional[float] = None
        while True:
            if self._closed is not None:
                raise self._closed
            batch = self._open.get(tp)
            if batch is not None:
                future = batch.try_append(timestamp, key, value, headers, size)
                if future is not None:
                    return future
                self._seal(batch)  # full: the sender may take it
            queue = self._batches.get(tp)
            if queue and len(queue) >= MAX_FULL_BATCHES:  # every batch queued is sealed here
                if deadline is None:
                    deadline = time.monotonic() + timeout
                await self._wait_for_space(tp, deadline)
                self._turn_started = time.monotonic()
                continue
            future = self._new_batch(tp).try_append(timestamp, key, value, headers, size)
            assert future is not None  # a first record always goes in
            return future

    def _seal(self, batch: PendingBatch) -> None:
        """No more records for ``batch``; the sender may send it without lingering."""
        batch.sealed = True
        if self._open.get(batch.tp) is batch:
            del self._open[batch.tp]
        self.wake()

    def _new_batch(self, tp: TopicPartition) -> PendingBatch:
        batch = PendingBatch(tp, self.batch_size, time.monotonic(), asyncio.get_running_loop())
        self._batches.setdefault(tp, deque()).append(batch)
        self._open[tp] = batch
        self._unfinished.add(batch.delivered)
        batch.delivered.add_done_callback(self._unfinished.discard)
        self.wake()  # the sender times the linger from now on
        return batch

    async def _wait_for_space(self, tp: TopicPartition, deadline: float) -> None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise KafkaTimeoutError("the batches of %s-%d were not sent in time" % (tp.topic, tp.partition))
        loop = asyncio.get_running_loop()
        waiter: "asyncio.Future[Optional[bool]]" = loop.create_future()
        self._space_waiters.setdefault(tp, []).append(waiter)
        # A timer resolving the waiter with False rather than asyncio.wait_for: this wait ends once
        # per batch in a busy producer, and wait_for costs extra turns of the loop each time.
        timer = loop.call_later(left, _resolve, waiter, False)
        try:
            in_time = await waiter
        finally:
            timer.cancel()
            waiters = self._space_waiters.get(tp)
            if waiters and waiter in waiters:
                waiters.remove(waiter)
        if in_time is False:
            raise KafkaTimeoutError("the batches of %s-%d were not sent within the request timeout"
                                    % (tp.topic, tp.partition))

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
        if self._open.get(tp) is batch:
            del self._open[tp]
        batch.close(self.compression)
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
                if self._open.get(tp) is batch:
                    del self._open[tp]
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
        for batch in list(self._open.values()):
            self._seal(batch)  # refused appends never reach it; it goes without lingering
        for tp in list(self._space_waiters):
            self._release_space(tp)
        self.wake()

    def fail_all(self, error: BaseException) -> None:
        """Fail every batch still queued (after the sender stopped)."""
        batches, self._batches = self._batches, {}
        self._open.clear()
        for queue in batches.values():
            for batch in queue:
                batch.fail(error)


def _resolve(waiter: "asyncio.Future[Any]", result: Any = None) -> None:
    if not waiter.done():
        waiter.set_result(result)
