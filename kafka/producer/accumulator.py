"""Collects records into per-partition batches, within a memory budget.

Application threads call :meth:`RecordAccumulator.append`; the sender thread
asks which leaders have batches ready (:meth:`ready`) and takes them
(:meth:`drain`). Time is passed in (``now``, monotonic seconds) so the
policy can be tested without sleeping.

Memory is bounded by ``buffer_memory``: an append that does not fit waits
until batches complete, up to ``max_block_ms``, then raises
:class:`~kafka.errors.KafkaTimeoutError`. Nothing grows without bound.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Callable, Deque, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from kafka import fast_paths
from kafka.cluster import ClusterMetadata
from kafka.errors import IllegalStateError, KafkaTimeoutError
from kafka.producer.batch import BATCH_OVERHEAD, Header, ProducerBatch, ValueColumns
from kafka.producer.bulk_runs import fill, prefix_sums
from kafka.producer.future import FutureRecordMetadata, ProduceResult, ValueRecordFuture, header_size
from kafka.record.batch import RECORD_OVERHEAD, estimate_record_size
from kafka.structs import TopicPartition


#: Records for :meth:`RecordAccumulator.append_many`: ``(timestamp, key, value, headers)`` tuples, or columns.
QueuedRecords = Union[Sequence[Tuple[int, Optional[bytes], Optional[bytes], Optional[Sequence[Header]]]], ValueColumns]


def new_lock() -> "threading.Lock":
    """The accumulator's lock, taken once per record appended: an ``RLock`` on PyPy (``ACCUMULATOR_RLOCK``), else a ``Lock``.

    On PyPy an uncontended acquire and release of an RLock costs about a
    third of a Lock's (45 against 140 ns), and a Lock taken in the compiled
    append allocates on every call. Nothing here takes the lock twice in
    one thread, so reentrancy changes nothing; conditions work on both.
    """
    return threading.RLock() if fast_paths.ACCUMULATOR_RLOCK else threading.Lock()  # type: ignore[return-value]


class RecordAccumulator:
    """Per-partition queues of batches.

    :param batch_size: target size of a batch in bytes.
    :param linger_ms: how long a batch that is not full may wait for more records.
    :param buffer_memory: total bytes of records held before ``append`` blocks.
    :param retry_backoff_ms: wait before resending a failed batch.
    :param delivery_timeout_ms: time after which an unsent batch fails.
    """

    def __init__(self, batch_size: int = 16384, linger_ms: float = 0, buffer_memory: int = 32 * 1024 * 1024,
                 retry_backoff_ms: int = 100, delivery_timeout_ms: int = 120000) -> None:
        self.batch_size = batch_size
        self.linger = linger_ms / 1000.0
        self.buffer_memory = buffer_memory
        self.retry_backoff = retry_backoff_ms / 1000.0
        self.delivery_timeout = delivery_timeout_ms / 1000.0
        self._batches: Dict[TopicPartition, Deque[ProducerBatch]] = {}
        # The partition append() saw last and its queue (queues are never
        # replaced): a run of records for one partition skips hashing the key.
        self._recent_tp: Optional[TopicPartition] = None
        self._recent_queue: Deque[ProducerBatch] = deque()
        self._lock = new_lock()
        self._memory_freed = threading.Condition(self._lock)
        # Notified whenever a batch completes (see wait_for_completion).
        self._batch_completed = threading.Condition(self._lock)
        self._used = 0
        self._flushes = 0
        self._closed = False
        self._in_flight: Set[ProducerBatch] = set()
        self._muted: Set[TopicPartition] = set()
        #: Set by an idempotent producer's sender: whether a batch that is
        #: being retried with its sequence number may be sent now.
        self.retry_gate: Optional[Callable[[ProducerBatch], bool]] = None
        #: Set by the producer: wakes the sender when a caller blocks on a
        #: lingering batch (see :meth:`ProduceResult.wait`).
        self.wake: Optional[Callable[[], None]] = None

    # -- appending -------------------------------------------------------------------

    @property
    def used_memory(self) -> int:
        """Bytes reserved by batches not yet completed."""
        return self._used

    def append(self, tp: TopicPartition, timestamp: int, key: Optional[bytes], value: Optional[bytes],
               headers: Optional[Sequence[Header]], max_block: float, size: int = 0,
               header_bytes: int = -1) -> Tuple[FutureRecordMetadata, bool, bool]:
        """Add a record; return (future, a batch became full, a new batch was created).

        "A batch became full" is true when the record's batch is full, or
        when the record did not fit in the partition's open batch and opened
        a new one (the sticky partitioner moves on then).

        ``size`` and ``header_bytes``, when the caller has them, are the
        record's :func:`~kafka.record.batch.estimate_record_size` and its
        headers' :func:`~kafka.producer.future.header_size`; 0 (the
        default) has both computed here.

        Blocks up to ``max_block`` seconds while ``buffer_memory`` is used up.
        """
        # The common case (room in the open batch, memory available) is
        # inlined: this runs once per record on the application's thread.
        # So is estimate_record_size for a record without headers.
        if not size:
            size = RECORD_OVERHEAD + (len(key) if key else 0) + (len(value) if value else 0)
            if headers:
                size = estimate_record_size(key, value, headers)
                header_bytes = header_size(headers)
        with self._lock:
            if self._closed:
                raise IllegalStateError("the producer is closed")
            if tp is self._recent_tp:
                queue = self._recent_queue
            else:
                queue = self._batches.get(tp)  # type: ignore[assignment]
                if queue is None:
                    queue = self._batches[tp] = deque()
                self._recent_tp, self._recent_queue = tp, queue
            previous_full = False
            if queue:
                last = queue[-1]
                if last.drained == 0.0:
                    if last.size + size <= last.max_size and self._used + size <= self.buffer_memory:
                        self._used += size
                        last.size += size
                        last.memory += size
                        future: Optional[FutureRecordMetadata]
                        values = last.values
                        if values is not None and key is None and headers is None:
                            last.stamps.append(timestamp)  # type: ignore[union-attr]
                            values.append(value)
                            if fast_paths.COMPACT_FUTURES:
                                return ValueRecordFuture(last.result, len(values) - 1), \
                                    last.size >= last.max_size, False
                            index = len(values) - 1
                        else:
                            records = last.record_list()
                            records.append((timestamp, key, value, headers))
                            index = len(records) - 1
                        future = FutureRecordMetadata(last.result, index, timestamp,
                                                      len(key) if key else -1, len(value) if value else -1,
                                                      header_bytes)
                        return future, last.size >= last.max_size, False
                    # The record joins the batch before waiting for memory, so a
                    # batch drained during the wait already holds it.
                    future = last.try_append(timestamp, key, value, headers, size)
                    if future is not None:
                        self._reserve(size, max_block)
                        last.memory += size
                        return future, last.is_full(), False
                    # The open batch has no room left: it is full.
                    previous_full = True
            self._reserve(size + BATCH_OVERHEAD, max_block)
            batch = ProducerBatch(tp, time.monotonic(), max(self.batch_size, size + BATCH_OVERHEAD))
            batch.result.on_wait = self.wake
            future = batch.try_append(timestamp, key, value, headers, size)
            assert future is not None
            batch.memory = size + BATCH_OVERHEAD
            queue.append(batch)
            return future, previous_full or batch.is_full(), True

    def append_many(self, tp: TopicPartition, records: QueuedRecords, sizes: Sequence[int], max_block: float,
                    placed: Optional[List[Tuple[ProduceResult, int, int]]] = None, reserved: bool = False,
                    since: Optional[float] = None) -> Tuple[List[Tuple[ProduceResult, int, int]], bool]:
        """Add ``records`` (``(timestamp, key, value, headers)``, in order) to ``tp``'s batches.

        Records without key and headers may come as :class:`ValueColumns`.

        ``sizes`` are their :func:`~kafka.record.batch.estimate_record_size`
        values. Records fill the open batch, then as many new batches as
        needed, a whole run at a time. Returns ``([(batch result, index of the
        first record in that batch, record count), ...], a batch became
        full)``. Blocks up to ``max_block`` seconds per run while
        ``buffer_memory`` is used up. When ``placed`` is given, runs are added
        to it as they are placed, so a caller whose call raised (closed, or
        memory still full after ``max_block``) knows which records were queued.

        ``reserved``: the caller already took the records' bytes from
        ``buffer_memory`` (see :meth:`reserve`); only the header of each new
        batch is added, at once, without waiting.
        """
        if placed is None:
            placed = []
        full = False
        i, n = 0, len(records)
        sums = prefix_sums(sizes)
        with self._lock:
            queue = self._open_queue(tp)
            while i < n:
                last = queue[-1] if queue else None
                is_open = last is not None and last.drained == 0.0 and last.size + sizes[i] <= last.max_size
                if is_open:
                    assert last is not None
                    room = last.max_size - last.size
                else:
                    if last is not None and last.drained == 0.0:
                        full = True  # the open batch has no room for the next record
                    room = max(self.batch_size, sizes[i] + BATCH_OVERHEAD) - BATCH_OVERHEAD
                j = fill(sums, i, room)
                total = sums[j] - sums[i]
                reserve = (0 if reserved else total) + (0 if is_open else BATCH_OVERHEAD)
                if reserved:
                    self._used += reserve
                else:
                    self._reserve(reserve, max_block)
                if is_open and last is not None and last.drained != 0.0:
                    # Drained while this thread waited for memory: start a new batch.
                    self._used -= reserve
                    continue
                if not is_open:
                    now = time.monotonic()
                    last = ProducerBatch(tp, now if since is None or since > now else since, room + BATCH_OVERHEAD)
                    last.result.on_wait = self.wake
                    last.memory = BATCH_OVERHEAD
                    queue.append(last)
                assert last is not None
                placed.append((last.result, last.record_count, j - i))
                last.add_records(records[i:j])
                last.size += total
                last.memory += total
                if last.size >= last.max_size:
                    full = True
                i = j
        return placed, full

    def append_batches(self, tp: TopicPartition, batches: Sequence[ProducerBatch], max_block: float) -> None:
        """Queue whole ``batches`` of ``tp`` (in order, after its open batch, which takes no more records).

        For batches built by the caller (see :mod:`kafka.producer.encoded`);
        their ``size`` is reserved from ``buffer_memory``. Blocks up to
        ``max_block`` seconds per batch while the memory is used up.
        """
        with self._lock:
            queue = self._open_queue(tp)
            for batch in batches:
                self._reserve(batch.size, max_block)
                batch.memory = batch.size
                batch.result.on_wait = self.wake
                queue.append(batch)

    def _open_queue(self, tp: TopicPartition) -> Deque[ProducerBatch]:
        """``tp``'s queue of batches (made if new); raises once the accumulator is closed. Lock held."""
        if self._closed:
            raise IllegalStateError("the producer is closed")
        queue = self._batches.get(tp)
        if queue is None:
            queue = self._batches[tp] = deque()
        return queue

    def reserve(self, size: int, max_block: float) -> None:
        """Take ``size`` bytes from ``buffer_memory`` for records not in a batch yet.

        Blocks up to ``max_block`` seconds while the memory is used up, then
        raises :class:`~kafka.errors.KafkaTimeoutError`. The bytes go to
        batches through :meth:`append_many` with ``reserved``; what is left
        over goes back through :meth:`unreserve`.
        """
        with self._lock:
            if self._closed:
                raise IllegalStateError("the producer is closed")
            self._reserve(size, max_block)

    def unreserve(self, size: int) -> None:
        """Give back ``size`` bytes taken by :meth:`reserve` and not used."""
        if size:
            with self._lock:
                self._used -= size
                self._memory_freed.notify_all()

    def _reserve(self, size: int, max_block: float) -> None:
        # Called with the lock held.
        if self._used + size <= self.buffer_memory or self._used == 0:
            self._used += size
            return
        deadline = time.monotonic() + max_block
        while self._used + size > self.buffer_memory and self._used > 0:
            left = deadline - time.monotonic()
            if left <= 0 or self._closed:
                raise KafkaTimeoutError(
                    "buffer_memory (%d bytes) stayed full for max_block_ms; the brokers are not keeping up"
                    % self.buffer_memory)
            self._memory_freed.wait(left)
        self._used += size

    def release(self, batch: ProducerBatch) -> None:
        """Return a completed batch's memory to the budget."""
        with self._lock:
            self._used -= batch.memory
            batch.memory = 0
            self._in_flight.discard(batch)
            self._memory_freed.notify_all()
            self._batch_completed.notify_all()

    # -- the sender's side --------------------------------------------------------------

    def ready(self, cluster: ClusterMetadata, now: float) -> Tuple[Set[int], float, Set[str]]:
        """Leaders with a batch ready to send, seconds until the next may be, unknown-leader topics."""
        nodes: Set[int] = set()
        unknown: Set[str] = set()
        next_check = 3600.0
        with self._lock:
            flushing = self._flushes > 0 or self._closed
            exhausted = self._used >= self.buffer_memory  # someone may be blocked: send now
            for tp, queue in self._batches.items():
                if not queue or tp in self._muted:
                    continue
                leader = cluster.leader_for_partition(tp)
                if leader is None or leader < 0:
                    unknown.add(tp.topic)
                    continue
                if leader in nodes:
                    continue
                batch = queue[0]
                if batch.in_retry:
                    # Nothing hurries a retry: drain() would not take it before
                    # the back-off ends, so a flush or full memory must not
                    # make the node look ready (the sender would then sleep
                    # its longest poll instead of the back-off left).
                    backoff_left = self.retry_backoff - (now - batch.last_attempt)
                    if backoff_left > 0:
                        next_check = min(next_check, backoff_left)
                    else:
                        nodes.add(leader)
                    continue
                waited = now - batch.created
                full = len(queue) > 1 or batch.is_full() or batch.result.hurried
                if full or waited >= self.linger or flushing or exhausted:
                    nodes.add(leader)
                else:
                    next_check = min(next_check, self.linger - waited)
        return nodes, next_check, unknown

    def drain(self, cluster: ClusterMetadata, nodes: Iterable[int], max_request_size: int,
              now: float) -> Dict[int, List[ProducerBatch]]:
        """Take at most one batch per partition for each node, up to ``max_request_size`` bytes."""
        out: Dict[int, List[ProducerBatch]] = {}
        with self._lock:
            for node in nodes:
                taken: List[ProducerBatch] = []
                size = 0
                for tp in cluster.partitions_for_broker(node):
                    if tp in self._muted:
                        continue
                    queue = self._batches.get(tp)
                    if not queue:
                        continue
                    batch = queue[0]
                    if batch.in_retry:
                        if now - batch.last_attempt < self.retry_backoff:
                            continue
                        if self.retry_gate is not None and not self.retry_gate(batch):
                            continue
                    if taken and size + batch.size > max_request_size:
                        break
                    queue.popleft()
                    batch.drained = now
                    size += batch.size
                    taken.append(batch)
                    self._in_flight.add(batch)
                if taken:
                    out[node] = taken
        return out

    def mute(self, tp: TopicPartition) -> None:
        """Stop draining ``tp`` (ordering: one batch in flight at a time)."""
        with self._lock:
            self._muted.add(tp)

    def unmute(self, tp: TopicPartition) -> None:
        """Resume draining ``tp``."""
        with self._lock:
            self._muted.discard(tp)

    def reenqueue(self, batch: ProducerBatch, now: float) -> None:
        """Put a batch that must be retried back at the head of its queue, in sequence order."""
        with self._lock:
            if batch.purged:
                return
            batch.attempts += 1
            batch.last_attempt = now
            batch.in_retry = True
            # ``drained`` stays set: a batch that was sent once is closed for
            # good. Were it open again, records appended while it waits would
            # be left out of its already encoded bytes (and of its sequence
            # range) yet completed with it, acknowledged but never written.
            self._in_flight.discard(batch)
            queue = self._batches.setdefault(batch.topic_partition, deque())
            queue.insert(_retry_position(queue, batch.base_sequence), batch)

    def split_in_flight(self, batch: ProducerBatch) -> Optional[Tuple[ProducerBatch, ProducerBatch]]:
        """Queue the halves of the in-flight ``batch`` (:meth:`ProducerBatch.split`) in its place; return them.

        They go to the head of the partition's queue as retries do, first
        half first. None, and nothing changes, when the batch is no longer
        in flight (purged meanwhile).
        """
        with self._lock:
            if batch.purged or batch not in self._in_flight:
                return None
            self._in_flight.discard(batch)
            halves = batch.split()
            queue = self._batches.setdefault(batch.topic_partition, deque())
            position = _retry_position(queue, halves[0].base_sequence)
            for half in reversed(halves):
                queue.insert(position, half)
            return halves

    def expired_batches(self, now: float) -> List[ProducerBatch]:
        """Queued batches older than ``delivery_timeout_ms`` (removed from their queues)."""
        expired: List[ProducerBatch] = []
        with self._lock:
            for queue in self._batches.values():
                while queue and now - queue[0].created >= self.delivery_timeout:
                    expired.append(queue.popleft())
        return expired

    def has_incomplete(self) -> bool:
        """Whether any batch is queued or in flight."""
        with self._lock:
            return bool(self._in_flight) or any(self._batches.values())

    def wait_for_completion(self, timeout: Optional[float]) -> bool:
        """Wait until no batch is queued or in flight, at most ``timeout`` s; return whether so.

        The waiting thread sleeps until a batch completes (every completion
        goes through :meth:`release`) rather than polling.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while self._in_flight or any(self._batches.values()):
                if deadline is None:
                    self._batch_completed.wait()
                    continue
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._batch_completed.wait(left)
        return True

    def wake_waiters(self) -> None:
        """Wake threads in :meth:`wait_for_completion` (e.g. the sender stopped)."""
        with self._lock:
            self._batch_completed.notify_all()

    def begin_flush(self) -> None:
        """Make every batch ready at once (until :meth:`end_flush`)."""
        with self._lock:
            self._flushes += 1

    def end_flush(self) -> None:
        """Undo one :meth:`begin_flush`."""
        with self._lock:
            self._flushes -= 1

    def close(self) -> None:
        """Refuse new records; what is queued is still sent."""
        with self._lock:
            self._closed = True
            self._memory_freed.notify_all()

    def abort_all(self, error: BaseException) -> List[ProducerBatch]:
        """Fail every queued batch with ``error`` (forced close); return them."""
        with self._lock:
            batches = [b for q in self._batches.values() for b in q]
            for q in self._batches.values():
                q.clear()
        for batch in batches:
            batch.done(error=error)
            self.release(batch)
        return batches

    def take_for_purge(self, queued: bool, in_flight: bool) -> Tuple[List[ProducerBatch], List[ProducerBatch]]:
        """Remove (and mark purged) the queued and/or in-flight batches; return (queued, in flight).

        The caller completes them. A batch marked purged is never queued
        again (see :meth:`reenqueue`).
        """
        with self._lock:
            taken_queued: List[ProducerBatch] = []
            if queued:
                for queue in self._batches.values():
                    taken_queued.extend(queue)
                    queue.clear()
            taken_in_flight = list(self._in_flight) if in_flight else []
            for batch in taken_queued + taken_in_flight:
                batch.purged = True
                self._in_flight.discard(batch)
        return taken_queued, taken_in_flight

    def queued(self) -> Dict[TopicPartition, int]:
        """Queued batch count per partition (for metrics and tests)."""
        with self._lock:
            return {tp: len(q) for tp, q in self._batches.items() if q}


def _retry_position(queue: Deque[ProducerBatch], sequence: int) -> int:
    """Where a batch sent before, of base sequence ``sequence``, goes back in ``queue``.

    Ahead of new batches and of retries with a higher sequence: retries
    stay ahead of new batches and in sequence order.
    """
    position = 0
    while position < len(queue) and queue[position].in_retry and 0 <= queue[position].base_sequence < sequence:
        position += 1
    return position
