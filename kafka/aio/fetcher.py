"""The asyncio consumer's fetcher: one task that keeps Fetch requests going, and a buffer per partition.

The task loops: it looks up the positions still unknown (the group's
committed offset, else ``auto_offset_reset`` through ListOffsets), then
sends one Fetch to each leader of the partitions that may fetch, each a
task of its own (one in flight per broker). A partition may fetch when
nothing of it is buffered, or when one answer is buffered and complete:
then the next fetch starts after it, so the broker prepares the next data
while the application reads this one.

Answers are buffered as they came; :meth:`AsyncFetcher.take` decodes them
into :class:`~kafka.aio.structs.ConsumerRecord` rows only when records are
asked for (through :func:`kafka.record.fetched.partition_chunks`, which
also leaves out transaction markers and, with ``read_committed``, aborted
transactions) and advances the positions. ``take`` is synchronous, so a
cancelled ``getmany`` never loses records.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any, Callable, Deque, Dict, Iterable, Iterator, List, Optional, Set

from kafka import errors
from kafka.aio.assignment import EARLIEST, LATEST, Assignment
from kafka.aio.client import AsyncClient
from kafka.aio.offsets import GroupOffsets, list_offsets
from kafka.aio.structs import ConsumerRecord
from kafka.client.fetch_request import PartitionFetch, build_fetch_request
from kafka.gc_pause import gc_paused, restore_threshold
from kafka.protocol.apis import FETCH
from kafka.record import MemoryRecords
from kafka.record.fetched import partition_chunks
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

#: Fetch v13 names topics by id; the asyncio consumer names them (v4-v12).
MAX_FETCH_VERSION = 12

#: Rows decoded at a time from a record batch.
_CHUNK = 4096

_new = tuple.__new__
_LISTED = {EARLIEST: -2, LATEST: -1}


class _Buffer:
    """One partition's part of a Fetch answer, handed out record by record."""

    __slots__ = ("tp", "fetch_offset", "version", "end_offset", "_chunks", "_pending", "_pending_end", "_records",
                 "_aborted")

    def __init__(self, tp: TopicPartition, fetch_offset: int, version: int, records: bytes, aborted: List[Any],
                 end_offset: Optional[int]) -> None:
        self.tp = tp
        self.fetch_offset = fetch_offset
        self.version = version
        #: Where the partition's next fetch may start before this answer is used up (None: not before).
        self.end_offset = end_offset
        self._records = records
        self._aborted = aborted
        self._chunks: Optional[Iterator[Any]] = None
        self._pending: Optional[List[Any]] = None
        self._pending_end = 0

    def take(self, state: Any, limit: int, read_committed: bool, check_crcs: bool) -> List[Any]:
        """Up to ``limit`` rows, advancing ``state.position`` past them; [] once used up."""
        if self._chunks is None:
            self._chunks = partition_chunks(self._records, state.position, ConsumerRecord,
                                            (self.tp.topic, self.tp.partition, -1), chunk_size=_CHUNK,
                                            read_committed=read_committed, aborted=self._aborted,
                                            check_crcs=check_crcs)
        out: List[Any] = []
        while limit > 0:
            pending = self._pending
            if pending is None:
                chunk = next(self._chunks, None)
                if chunk is None:
                    break
                rows, end = chunk
                if not rows:
                    if end > state.position:
                        state.position = end
                    continue
                pending, self._pending_end = rows, end
            if len(pending) > limit:
                taken, self._pending = pending[:limit], pending[limit:]
                state.position = taken[-1][3] + 1
            else:
                taken, self._pending = pending, None
                state.position = max(self._pending_end, taken[-1][3] + 1)
            out += taken
            limit -= len(taken)
        return out


class AsyncFetcher:
    """Fetches the assigned partitions and hands out their records.

    :param client: connections and metadata.
    :param assignment: the partitions and their positions.
    :param group: the group's offsets (for the committed positions), or None.
    :param auto_offset_reset: ``"earliest"``, ``"latest"`` or ``"none"``.
    :param isolation_level: 0 read_uncommitted, 1 read_committed.
    """

    def __init__(self, client: AsyncClient, assignment: Assignment, *, group: Optional[GroupOffsets],
                 key_deserializer: Optional[Callable[[Any], Any]], value_deserializer: Optional[Callable[[Any], Any]],
                 fetch_max_wait_ms: int, fetch_min_bytes: int, fetch_max_bytes: int, max_partition_fetch_bytes: int,
                 isolation_level: int, check_crcs: bool, auto_offset_reset: str, request_timeout_ms: int) -> None:
        self.client = client
        self.assignment = assignment
        self.group = group
        self.key_deserializer = key_deserializer
        self.value_deserializer = value_deserializer
        self.fetch_max_wait_ms = fetch_max_wait_ms
        self.fetch_min_bytes = fetch_min_bytes
        self.fetch_max_bytes = fetch_max_bytes
        self.max_partition_fetch_bytes = max_partition_fetch_bytes
        self.isolation_level = isolation_level
        self.check_crcs = check_crcs
        self.auto_offset_reset = auto_offset_reset
        self.timeout = request_timeout_ms / 1000.0
        self._buffers: Dict[TopicPartition, Deque[_Buffer]] = {}
        self._fetching: Dict[int, Set[TopicPartition]] = {}  # node -> partitions in its request in flight
        self._requests: Set["asyncio.Task[None]"] = set()
        self._error: Optional[BaseException] = None
        self._wake = asyncio.Event()
        self._arrival = asyncio.Event()
        self._task: Optional["asyncio.Task[None]"] = None
        self._rotation = 0

    # -- the task -----------------------------------------------------------------------

    def start(self) -> None:
        """Start fetching."""
        self._task = asyncio.ensure_future(self._run())

    def wake(self) -> None:
        """Look at the assignment again (it changed, a position moved, a partition was resumed)."""
        self._wake.set()

    async def close(self) -> None:
        """Stop fetching and drop what is buffered."""
        tasks = list(self._requests)
        if self._task is not None:
            tasks.append(self._task)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._buffers.clear()
        restore_threshold()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            pause: Optional[float] = None
            if self.assignment.without_position():
                try:
                    await self.resolve_positions()
                except errors.KafkaError as exc:
                    if not exc.retriable:
                        self._fail(exc)
                    log.debug("looking up positions failed: %r", exc)
                    pause = self.client.retry_backoff
            if self.client.metadata_due():
                self.client.request_refresh()
            if not self._send_fetches():
                pause = self.client.retry_backoff if pause is None else pause
            if pause is None:
                await self._wake.wait()
            else:
                try:
                    await asyncio.wait_for(self._wake.wait(), pause)
                except asyncio.TimeoutError:
                    pass

    def _fail(self, exc: BaseException) -> None:
        if self._error is None:
            self._error = exc
        self._arrival.set()

    async def resolve_positions(self, partitions: Optional[Iterable[TopicPartition]] = None) -> None:
        """Look up the positions not known: committed offsets first (with a group), else the reset policy."""
        states = self.assignment.states
        wanted = [tp for tp in (partitions if partitions is not None else list(states))
                  if tp in states and states[tp].position is None]
        if not wanted:
            return
        version = self.assignment.version
        committed: Dict[TopicPartition, Any] = {}
        if self.group is not None:
            ask = [tp for tp in wanted if states[tp].reset is None]
            if ask:
                committed = await self.group.fetch(ask)
        resets: Dict[TopicPartition, int] = {}
        for tp in wanted:
            found = committed.get(tp)
            if found is not None:
                if self.assignment.version == version and tp in states and states[tp].position is None:
                    states[tp].position = found.offset
                continue
            strategy = states[tp].reset or self.auto_offset_reset
            if strategy not in _LISTED:
                raise errors.NoOffsetForPartitionError("%s-%d has no committed offset and auto_offset_reset is %r"
                                                       % (tp.topic, tp.partition, strategy))
            resets[tp] = _LISTED[strategy]
        if resets:
            listed = await list_offsets(self.client, resets, isolation_level=self.isolation_level,
                                        timeout=self.timeout)
            for tp, answer in listed.items():
                state = states.get(tp)
                if state is not None and state.position is None and self.assignment.version == version:
                    state.position = answer.offset
                    state.reset = None
        self._arrival.set()  # position() waits on it too

    # -- fetching ---------------------------------------------------------------------------

    def _send_fetches(self) -> bool:
        """Start a Fetch to every leader with partitions that may fetch; False when a leader is unknown."""
        cluster = self.client.cluster
        busy = {tp for tps in self._fetching.values() for tp in tps}
        by_node: Dict[int, List[PartitionFetch]] = {}
        complete = True
        for tp in self.assignment.fetchable():
            if tp in busy:
                continue
            queue = self._buffers.get(tp)
            state = self.assignment.states[tp]
            start = state.position
            if queue:
                if len(queue) > 1 or queue[-1].end_offset is None:
                    continue
                start = queue[-1].end_offset
            leader = cluster.leader_for_partition(tp)
            if leader is None or leader < 0:
                self.client.add_topic(tp.topic)
                self.client.request_refresh()
                complete = False
                continue
            if leader in self._fetching:
                continue
            assert start is not None
            by_node.setdefault(leader, []).append(PartitionFetch(
                tp.topic, tp.partition, start, self.max_partition_fetch_bytes,
                cluster.leader_epoch_for_partition(tp)))
        for node, parts in by_node.items():
            self._fetching[node] = {TopicPartition(p.topic, p.partition) for p in parts}
            task = asyncio.ensure_future(self._fetch(node, parts, self.assignment.version))
            self._requests.add(task)
            task.add_done_callback(self._requests.discard)
        return complete

    async def _fetch(self, node: int, parts: List[PartitionFetch], version: int) -> None:
        try:
            request = build_fetch_request(parts, max_wait_ms=self.fetch_max_wait_ms, min_bytes=self.fetch_min_bytes,
                                          max_bytes=self.fetch_max_bytes, isolation_level=self.isolation_level)
            try:
                conn = await self.client.connection(node)
                response = await conn.request(FETCH, request, conn.version_for(FETCH, highest=MAX_FETCH_VERSION))
            except errors.KafkaError as exc:
                log.debug("fetch from node %d failed: %s", node, exc)
                self.client.request_refresh()
                await asyncio.sleep(self.client.retry_backoff)
                return
            self._on_answer(response, {(p.topic, p.partition): p.offset for p in parts}, version)
        finally:
            self._fetching.pop(node, None)
            self._wake.set()

    def _on_answer(self, response: Any, offsets: Dict[Any, int], version: int) -> None:
        if response.error_code:
            cls = errors.for_code(response.error_code)
            if cls is not None and not cls.retriable:
                self._fail(cls("Fetch answered with error %d" % response.error_code))
            return
        states = self.assignment.states
        arrived = False
        for topic in response.responses:
            for part in topic.partitions:
                tp = TopicPartition(topic.topic, part.partition_index)
                offset = offsets.get(tp)
                state = states.get(tp)
                if offset is None or state is None or version != self.assignment.version:
                    continue
                queue = self._buffers.get(tp)
                expected = queue[-1].end_offset if queue else state.position
                if offset != expected:
                    continue  # sought elsewhere meanwhile
                if part.error_code:
                    self._partition_error(tp, state, offset, part.error_code)
                    continue
                if part.high_watermark >= 0:
                    state.highwater = part.high_watermark
                if part.last_stable_offset >= 0:
                    state.last_stable_offset = part.last_stable_offset
                if part.log_start_offset >= 0:
                    state.log_start_offset = part.log_start_offset
                records = part.records or b""
                if not records:
                    continue
                aborted = [(a.producer_id, a.first_offset) for a in part.aborted_transactions or ()]
                end = MemoryRecords(records).next_offset
                self._buffers.setdefault(tp, deque()).append(_Buffer(tp, offset, version, records, aborted, end))
                arrived = True
        if arrived:
            self._arrival.set()

    def _partition_error(self, tp: TopicPartition, state: Any, offset: int, code: int) -> None:
        cls = errors.for_code(code) or errors.KafkaError
        if cls is errors.OffsetOutOfRangeError:
            if self.auto_offset_reset in _LISTED:
                log.info("offset %d out of range for %s-%d; resetting to %s", offset, tp.topic, tp.partition,
                         self.auto_offset_reset)
                self._buffers.pop(tp, None)
                state.position = None
                state.reset = self.auto_offset_reset
            else:
                self._fail(errors.OffsetOutOfRangeError({tp: offset}))
        elif getattr(cls, "invalid_metadata", False) or cls.retriable:
            self.client.request_refresh()
        else:
            self._fail(cls("fetching %s-%d" % (tp.topic, tp.partition)))

    # -- handing out ------------------------------------------------------------------------

    def forget(self, partitions: Optional[Iterable[TopicPartition]] = None) -> None:
        """Drop what is buffered (of ``partitions``, or all) after a seek or a new assignment."""
        if partitions is None:
            self._buffers.clear()
        else:
            for tp in partitions:
                self._buffers.pop(tp, None)
        self.wake()

    def has_records(self, partitions: Iterable[TopicPartition]) -> bool:
        """Whether :meth:`take` may return records (or raise) without waiting."""
        if self._error is not None:
            return True
        states = self.assignment.states
        for tp in partitions or self._buffers:
            if self._buffers.get(tp) and tp in states and not states[tp].paused:
                return True
        return False

    async def wait_for_records(self, partitions: Iterable[TopicPartition], timeout: float) -> None:
        """Wait until :meth:`has_records`, at most ``timeout`` seconds."""
        wanted = list(partitions)
        deadline = time.monotonic() + timeout
        while True:
            self._arrival.clear()
            if self.has_records(wanted):
                return
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(self._arrival.wait(), left)
            except asyncio.TimeoutError:
                return

    async def wait_for_position(self, tp: TopicPartition) -> int:
        """``tp``'s position, waiting for its look-up (raises what the look-up raised)."""
        while True:
            state = self.assignment.state(tp)
            if state.position is not None:
                return state.position
            self.raise_error()
            self._arrival.clear()
            self.wake()
            await self._arrival.wait()

    def raise_error(self) -> None:
        """Raise (once) an error the fetching met."""
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def take(self, partitions: Iterable[TopicPartition], max_records: Optional[int]) -> Dict[TopicPartition, List[Any]]:
        """Up to ``max_records`` buffered records (all with None), by partition, advancing the positions."""
        self.raise_error()
        limit = max_records if max_records else 1 << 62
        states = self.assignment.states
        order = list(partitions) or list(self._buffers)
        if len(order) > 1:  # start from another partition each time, so none is left waiting
            self._rotation = (self._rotation + 1) % len(order)
            order = order[self._rotation:] + order[:self._rotation]
        out: Dict[TopicPartition, List[Any]] = {}
        with gc_paused():  # the records are acyclic: see kafka.gc_pause
            used_up = self._collect(order, out, limit)
        if used_up:
            self._wake.set()
        if out and (self.key_deserializer is not None or self.value_deserializer is not None):
            out = {tp: self._deserialized(rows) for tp, rows in out.items()}
        return out

    def _collect(self, order: List[TopicPartition], out: Dict[TopicPartition, List[Any]], limit: int) -> bool:
        """Fill ``out`` with up to ``limit`` records of the partitions in ``order``; whether a buffer was used up."""
        states = self.assignment.states
        read_committed = self.isolation_level == 1
        used_up = False
        for tp in order:
            queue = self._buffers.get(tp)
            state = states.get(tp)
            if not queue or state is None or state.paused:
                continue
            while queue and limit > 0:
                buffer = queue[0]
                if buffer._chunks is None and buffer.fetch_offset != state.position:
                    queue.popleft()  # the position moved since it was fetched
                    used_up = True
                    continue
                try:
                    rows = buffer.take(state, limit, read_committed, self.check_crcs)
                except Exception as exc:
                    queue.popleft()
                    used_up = True
                    if not out:
                        raise
                    self._fail(exc)  # after the records before it
                    break
                if rows:
                    out.setdefault(tp, []).extend(rows)
                    limit -= len(rows)
                if limit > 0 or buffer._pending is None and not rows:
                    queue.popleft()
                    used_up = True
            if not queue:
                self._buffers.pop(tp, None)
            if limit <= 0:
                break
        return used_up

    def _deserialized(self, rows: List[Any]) -> List[Any]:
        kd, vd = self.key_deserializer, self.value_deserializer
        return [_new(ConsumerRecord, (r[0], r[1], r[2], r[3], r[4], r[5],
                                      kd(r[6]) if kd is not None else r[6],
                                      vd(r[7]) if vd is not None else r[7], r[8], r[9], r[10], r[11], r[12]))
                for r in rows]
