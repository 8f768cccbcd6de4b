"""Fetching records for the assigned partitions, pipelined.

:class:`Fetcher` keeps at most one Fetch request in flight per leader. Its
responses are queued as :class:`CompletedFetch` objects and turned into
:class:`ConsumerRecord` values only when the application asks for records.

Fetching runs one response ahead: once a response for a partition is
buffered, the next fetch for it is sent from the offset after the
response's last complete batch, so the broker prepares (and the socket
carries) the next data while this one is decoded and processed.  A
partition thus holds at most two responses, one being handed out and one
arriving; the next fetch waits until the first is used up.  A response
fetched ahead that no longer starts at the partition's position (after a
seek, a pause or a reassignment) is dropped unread.

Positions advance past every record handed out and past control batches. In
``read_committed`` mode the records of aborted transactions are dropped,
using the aborted-transaction list each Fetch response carries (the rule
is :mod:`kafka.record.aborted`, which the Spark reader uses too).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import deque
from typing import Any, Callable, Deque, Dict, Iterator, List, NamedTuple, Optional, Set, Tuple

from kafka import errors
from kafka.client import topic_ids
from kafka.client.fetch_request import PartitionFetch, build_fetch_request
from kafka.conn.connection import is_permanent_failure
from kafka.consumer.fetch_errors import RAISE, REFRESH, RESET, classify_partition_error, partition_error
from kafka.consumer.fetch_metrics import FetchMetrics
from kafka.gc_pause import gc_paused
from kafka.consumer.offset_reset import OffsetResetter, list_offsets_request, list_offsets_results
from kafka.consumer.read_replica import ReadReplicas
from kafka.consumer.subscription import MAX_OFFSET, SubscriptionState
from kafka.enums import IsolationLevel
from kafka.future import Future
from kafka.protocol.apis import FETCH, LIST_OFFSETS
from kafka.record import MemoryRecords
from kafka.record.aborted import batch_filter
from kafka.record.fetched import batch_chunks, offset_overflow, record_row
from kafka.record.record import RecordHeaders
from kafka.record.rows import OFFSET, ConsumerRecord
from kafka.serializer import Conversion, conversion
from kafka.structs import OffsetAndTimestamp, TopicPartition

log = logging.getLogger(__name__)

# Fetch requests carry the plain ints of kafka.enums.IsolationLevel.
READ_UNCOMMITTED, READ_COMMITTED = int(IsolationLevel.READ_UNCOMMITTED), int(IsolationLevel.READ_COMMITTED)





#: Fewest records a v2 batch is decoded by at a time.
_MIN_CHUNK = 256

#: One poll() decompresses at most this many times ``max(fetch_max_bytes,
#: max_partition_fetch_bytes)`` (plus the batch that crosses the bound); the
#: batches after it wait, compressed, for the next poll.
DECOMPRESSION_RATIO = 4

#: What :meth:`Fetcher._records` yields instead of a batch when the poll's decompression budget is spent.
_OUT_OF_BUDGET: Tuple[List[ConsumerRecord], int] = ([], -1)


class CompletedFetch:
    """One partition's part of a Fetch response, consumed record by record."""

    __slots__ = ("tp", "fetch_offset", "records", "high_watermark", "last_stable_offset", "log_start_offset",
                 "aborted", "error_code", "_iterator", "assignment_version", "_state", "_pending", "_batch_end",
                 "end_offset", "handed_to")

    def __init__(self, tp: TopicPartition, fetch_offset: int, records: bytes, high_watermark: int,
                 last_stable_offset: int, log_start_offset: int, aborted: List[Tuple[int, int]], error_code: int,
                 assignment_version: int, end_offset: Optional[int] = None) -> None:
        self.tp = tp
        self.fetch_offset = fetch_offset
        self.records = records
        self.high_watermark = high_watermark
        self.last_stable_offset = last_stable_offset
        self.log_start_offset = log_start_offset
        self.aborted = aborted
        self.error_code = error_code
        self._iterator: Optional[Iterator[Any]] = None
        self.assignment_version = assignment_version
        self._state: Any = None  # the partition's subscription state, once records are taken
        self._pending: Optional[List[Any]] = None  # records of the current batch not yet handed out
        self._batch_end = 0
        #: The offset after the last complete batch, where the partition's
        #: next fetch may start before this one is used up; None: not before.
        self.end_offset = end_offset
        #: The partition's position after the records handed out so far.
        self.handed_to = fetch_offset


def _past_max_offset(tp: Tuple[str, int], base_offset: int) -> errors.CorruptRecordError:
    return offset_overflow(tp[0], tp[1], base_offset)


class Fetcher:
    """Sends Fetch and ListOffsets requests and turns responses into records."""

    def __init__(self, client: Any, subscription: SubscriptionState, *, key_deserializer: Optional[Callable] = None,
                 value_deserializer: Optional[Callable] = None, fetch_min_bytes: int = 1,
                 fetch_max_wait_ms: int = 500, fetch_max_bytes: int = 52428800,
                 max_partition_fetch_bytes: int = 1048576, max_poll_records: int = 500, check_crcs: bool = True,
                 isolation_level: str = "read_uncommitted", request_timeout_ms: int = 30000,
                 deserialize_none: bool = False, client_rack: str = "") -> None:
        self.client = client
        self.client_rack = client_rack or ""
        #: Whether deserializers also see null keys and values (kafka-python's way).
        self.deserialize_none = deserialize_none
        #: The tuple class records are built as (see KafkaConsumer.set_record_class).
        self.record_class: type = ConsumerRecord
        self.subscription = subscription
        self._key_des: Optional[Conversion] = None
        self._value_des: Optional[Conversion] = None
        self.key_deserializer = key_deserializer
        self.value_deserializer = value_deserializer
        self.fetch_min_bytes = fetch_min_bytes
        self.fetch_max_wait_ms = fetch_max_wait_ms
        self.fetch_max_bytes = fetch_max_bytes
        self.max_partition_fetch_bytes = max_partition_fetch_bytes
        self.max_poll_records = max_poll_records
        self.check_crcs = check_crcs
        if isolation_level not in ("read_uncommitted", "read_committed"):
            raise errors.KafkaConfigurationError("isolation_level must be 'read_uncommitted' or 'read_committed'")
        self.isolation = READ_COMMITTED if isolation_level == "read_committed" else READ_UNCOMMITTED
        self.request_timeout_ms = request_timeout_ms
        self._completed: Deque[CompletedFetch] = deque()
        self._current: Optional[CompletedFetch] = None
        self._in_flight: Dict[int, Future] = {}  # node -> fetch future
        self._sent_at: Dict[int, float] = {}  # node -> when its fetch was sent (for metrics)
        #: kafka-python's fetch manager metrics, when enabled.
        self.metrics: Optional[FetchMetrics] = None
        self._pending_error: Optional[BaseException] = None
        self._resetter = OffsetResetter(client, subscription, self.isolation)
        self._replicas = ReadReplicas(lambda: client.cluster,
                                      getattr(client, "config", {}).get("metadata_max_age_ms", 300000))
        #: Bytes compressed batches may decompress to in one poll, and how many they did so far.
        self.decompression_budget = DECOMPRESSION_RATIO * max(fetch_max_bytes, max_partition_fetch_bytes)
        self._decompressed = 0

    # -- sending -------------------------------------------------------------------------

    def _fetch_ahead_offsets(self) -> Dict[TopicPartition, Optional[int]]:
        """Partitions with buffered responses: where a fetch ahead of them starts, None for no fetch.

        One buffered response may be fetched ahead of, from its end; two may not.
        """
        ahead: Dict[TopicPartition, Optional[int]] = {}
        if self._current is not None:
            ahead[self._current.tp] = self._current.end_offset
        for fetch in self._completed:
            ahead[fetch.tp] = None if fetch.tp in ahead else fetch.end_offset
        return ahead

    def send_fetches(self) -> int:
        """Send a Fetch to every leader of fetchable partitions that may fetch and have none in flight.

        A partition may fetch when it has nothing buffered, or one response
        with a complete batch: then the fetch starts after that response.
        """
        cluster = self.client.cluster
        ahead = self._fetch_ahead_offsets()
        by_node: Dict[int, List[Tuple[TopicPartition, Optional[int]]]] = {}
        for tp in self.subscription.fetchable_partitions():
            start = ahead.get(tp)
            if start is None and tp in ahead:
                continue
            leader = cluster.leader_for_partition(tp)
            if leader is None or leader < 0:
                self.client.add_topic(tp.topic)
                cluster.request_update()
                continue
            node = self._replicas.node_for(tp, leader)
            if node in self._in_flight:
                continue
            by_node.setdefault(node, []).append((tp, start))
        sent = 0
        for node, partitions in by_node.items():
            if not self.client.ready(node):
                refused = self.client.permanent_failure(node)
                if refused is not None and self._pending_error is None:
                    self._pending_error = refused  # a refused login or certificate: poll() raises it
                continue
            request, offsets, ids = self._fetch_request(partitions)
            try:
                api_version = topic_ids.choose_version(self.client, FETCH, node, ids)
            except errors.KafkaError as exc:
                log.debug("not fetching from node %s: %s", node, exc)
                if is_permanent_failure(exc) and self._pending_error is None:
                    self._pending_error = exc  # no Fetch version in common: poll() raises it
                cluster.request_update()
                continue
            future = self.client.send(node, request, api=FETCH, version=api_version)
            version = self.subscription.assignment_version
            # Registered before the callbacks: a future that failed at once
            # runs its errback right here, and that must be able to clear the
            # entry.
            self._in_flight[node] = future
            if self.metrics is not None:
                self._sent_at[node] = time.monotonic()
            future.add_callback(self._on_fetch, node, offsets, version, topic_ids.names_by_id(ids))
            future.add_errback(self._on_fetch_error, node)
            sent += 1
        return sent

    def _fetch_request(self, partitions: List[Tuple[TopicPartition, Optional[int]]]
                       ) -> Tuple[Any, Dict[TopicPartition, int], Dict[str, Optional[uuid.UUID]]]:
        """The request for ``(partition, offset after its buffered response or None)`` pairs."""
        cluster = self.client.cluster
        offsets: Dict[TopicPartition, int] = {}
        wanted = []
        for tp, start in partitions:
            position: int = self.subscription.state(tp).position  # type: ignore[assignment]
            if start is not None and start > position:
                position = start
            offsets[tp] = position
            wanted.append(PartitionFetch(tp.topic, tp.partition, position,
                                         self.max_partition_fetch_bytes, cluster.leader_epoch_for_partition(tp)))
        ids = topic_ids.ids_by_name(cluster, (tp.topic for tp, _ in partitions))
        request = build_fetch_request(
            wanted, ids, max_wait_ms=self.fetch_max_wait_ms, min_bytes=self.fetch_min_bytes,
            max_bytes=self.fetch_max_bytes, isolation_level=self.isolation, rack_id=self.client_rack)
        return request, offsets, ids

    def _on_fetch(self, node: int, offsets: Dict[TopicPartition, int], version: int,
                  by_id: Dict[uuid.UUID, str], response: Any) -> None:
        self._in_flight.pop(node, None)
        metrics = self.metrics
        fetched = 0
        if response.error_code:
            log.debug("fetch from node %s failed: error %d", node, response.error_code)
            if classify_partition_error(response.error_code) == RAISE:
                self._pending_error = partition_error(response.error_code, "fetching from node %s" % node)
            else:
                self.client.cluster.request_update()
            return
        for topic_response in response.responses:
            # v13+ answers name topics by the ids the request carried.
            topic = topic_ids.response_topic(topic_response, "topic", by_id)
            if topic is None:
                continue  # an id we did not ask about
            for part in topic_response.partitions:
                tp = TopicPartition(topic, part.partition_index)
                if tp not in offsets or self._replicas.on_answer(
                        tp, node, self.client.cluster.leader_for_partition(tp),
                        part.preferred_read_replica, part.error_code):
                    continue
                aborted = [(a.producer_id, a.first_offset) for a in part.aborted_transactions or ()]
                records = part.records or b""
                fetched += len(records)
                end = MemoryRecords(records).next_offset if records and not part.error_code else None
                self._completed.append(CompletedFetch(
                    tp, offsets[tp], records, part.high_watermark, part.last_stable_offset,
                    part.log_start_offset, aborted, part.error_code, version, end))
        if metrics is not None:
            now = time.monotonic()
            metrics.fetched(now - self._sent_at.pop(node, now), fetched, now)

    def _on_fetch_error(self, node: int, exc: BaseException) -> None:
        self._in_flight.pop(node, None)
        self._sent_at.pop(node, None)
        self._replicas.forget_node(node)
        log.debug("fetch from node %s failed: %s", node, exc)
        if is_permanent_failure(exc) and self._pending_error is None:
            # No Fetch version in common (or a refused login): retrying
            # cannot help, so poll() raises it instead of returning nothing.
            self._pending_error = exc
        self.client.cluster.request_update()

    def in_flight(self) -> bool:
        """Whether any fetch awaits its response."""
        return bool(self._in_flight)

    def has_buffered(self) -> bool:
        """Whether records (or an error to raise) may be returned without network I/O."""
        return bool(self._completed) or self._current is not None or self._pending_error is not None

    # -- returning records ---------------------------------------------------------------

    def fetched_records(self, max_records: Optional[int] = None) -> Dict[TopicPartition, List[ConsumerRecord]]:
        """Up to ``max_records`` buffered records, by partition, advancing positions."""
        if self._pending_error is not None:
            error, self._pending_error = self._pending_error, None
            raise error
        limit = max_records or self.max_poll_records
        out: Dict[TopicPartition, List[ConsumerRecord]] = {}
        self._decompressed = 0
        with gc_paused():
            self._collect(out, limit)
        metrics = self.metrics
        if metrics is not None and out:
            now = time.monotonic()
            sub = self.subscription
            for tp, records in out.items():
                state = sub.state(tp)
                highwater, position = state.highwater, state.position
                lag = highwater - position if highwater is not None and position is not None else -1
                metrics.consumed(len(records), lag, now)
        return out

    def _collect(self, out: Dict[TopicPartition, List[ConsumerRecord]], limit: int) -> None:
        while limit > 0:
            current = self._current
            if current is not None and current._state.position != current.handed_to:
                # The position moved back (an iteration stopped between records):
                # what is left here is read again by a new fetch from there.
                current = self._current = None
            if current is None:
                if not self._completed:
                    break
                current = self._completed.popleft()
                if not self._start(current):
                    continue
                self._current = current
            taken = self._take(current, limit)
            if taken:
                out.setdefault(current.tp, []).extend(taken)
                limit -= len(taken)
            elif self._decompressed < self.decompression_budget:
                self._current = None
            if self._decompressed >= self.decompression_budget:
                break  # the rest stays buffered, compressed, for the next poll

    def _start(self, fetch: CompletedFetch) -> bool:
        """Check a completed fetch before records are taken from it; False to drop it."""
        sub = self.subscription
        tp = fetch.tp
        if fetch.assignment_version != sub.assignment_version and not sub.is_assigned(tp):
            return False
        if not sub.is_assigned(tp):
            return False
        state = sub.state(tp)
        if state.paused or state.position != fetch.fetch_offset:
            return False  # paused or sought elsewhere meanwhile
        code = fetch.error_code
        if code:
            action = classify_partition_error(code)
            if action == RESET:
                log.info("offset %d out of range for %s-%d; resetting", fetch.fetch_offset, tp[0], tp[1])
                try:
                    sub.request_reset(tp)
                except errors.KafkaError as exc:
                    self._pending_error = exc
            elif action == REFRESH:
                self.client.cluster.request_update()
            elif action == RAISE:
                self._pending_error = partition_error(code, "fetching %s-%d" % (tp.topic, tp.partition))
            return False  # RETRY: the next fetch asks again
        if fetch.high_watermark >= 0:
            state.highwater = fetch.high_watermark
        if fetch.last_stable_offset >= 0:
            state.last_stable_offset = fetch.last_stable_offset
        if fetch.log_start_offset >= 0:
            state.log_start_offset = fetch.log_start_offset
        fetch._state = state
        fetch._iterator = self._records(fetch, state)
        return True

    def _take(self, fetch: CompletedFetch, limit: int) -> List[ConsumerRecord]:
        """Up to ``limit`` records of ``fetch``, advancing the partition's position past them.

        Records are built a whole batch at a time (:meth:`_records`); what a
        poll does not take waits in ``fetch._pending`` for the next one.
        """
        iterator = fetch._iterator
        assert iterator is not None
        state = fetch._state
        out: List[ConsumerRecord] = []
        while limit > 0:
            pending = fetch._pending
            if pending is None:
                try:
                    chunk = next(iterator, None)
                except Exception as exc:  # a corrupt batch or a deserializer failing
                    if not out:
                        raise
                    # Hand out what came before it first; the error comes with the next poll.
                    self._pending_error = exc
                    break
                if chunk is None or chunk is _OUT_OF_BUDGET:
                    break
                records, batch_end = chunk
                if not records:  # a control batch, an aborted batch, or records before the position
                    if batch_end > state.position:
                        state.position = batch_end
                    continue
                fetch._pending = pending = records
                fetch._batch_end = batch_end
            if len(pending) > limit:
                taken = pending[:limit]
                fetch._pending = pending[limit:]
                state.position = taken[-1][OFFSET] + 1
            else:
                taken = pending
                fetch._pending = None
                state.position = max(fetch._batch_end, taken[-1][OFFSET] + 1)
            out.extend(taken)
            limit -= len(taken)
            # The generators that made this list hold it until they are
            # resumed, by the next poll: emptied, it keeps none of the records
            # handed out alive (see kafka.gc_pause).
            pending.clear()
        fetch.handed_to = state.position
        return out

    @property
    def key_deserializer(self) -> Optional[Conversion]:
        """How keys are deserialized (see :func:`kafka.serializer.conversion`); set with the configured one."""
        return self._key_des

    @key_deserializer.setter
    def key_deserializer(self, configured: Any) -> None:
        self._key_des = conversion(configured, "deserialize")

    @property
    def value_deserializer(self) -> Optional[Conversion]:
        """How values are deserialized (see :func:`kafka.serializer.conversion`); set with the configured one."""
        return self._value_des

    @value_deserializer.setter
    def value_deserializer(self, configured: Any) -> None:
        self._value_des = conversion(configured, "deserialize")

    def _records(self, fetch: CompletedFetch, state: Any) -> Iterator[Tuple[List[ConsumerRecord], int]]:
        """(records at or after the position, next offset after the batch) for each batch of ``fetch``.

        Positions are advanced by :meth:`_take` as records are handed out.
        """
        topic, partition = fetch.tp
        key_des = self._key_des
        value_des = self._value_des
        skips = batch_filter(self.isolation == READ_COMMITTED, fetch.aborted)
        records = MemoryRecords(fetch.records, check_crcs=self.check_crcs)
        for batch in records:
            next_offset = batch.next_offset
            if next_offset > MAX_OFFSET:
                raise _past_max_offset(fetch.tp, batch.base_offset)
            skip = skips(batch)  # every batch, those before the position too: see kafka.record.aborted
            position = state.position
            if next_offset <= position:
                continue
            if skip:  # a control batch, or one of an aborted transaction
                yield [], next_offset
                continue
            if batch.compression_type and self._decompressed >= self.decompression_budget:
                yield _OUT_OF_BUDGET  # this batch is decompressed by the next poll
            epoch = getattr(batch, "partition_leader_epoch", -1)
            plain = key_des is None and value_des is None
            for chunk, chunk_end in self._chunks(batch, plain, (topic, partition, epoch), position, next_offset):
                if plain:
                    yield chunk, chunk_end
                    continue
                built = []
                for r in chunk:
                    try:
                        built.append(self._deserialized(topic, partition, epoch, r, key_des, value_des,
                                                        self.deserialize_none, self.record_class))
                    except Exception:
                        if built:  # hand out the records before the failing one first
                            yield built, r.offset
                        raise
                chunk.clear()  # not kept alive by this frame until the next poll resumes it
                yield built, chunk_end
        if records.has_partial and state.position == fetch.fetch_offset:
            raise errors.RecordTooLargeError(
                "a record batch of %s-%d at offset %d is larger than max_partition_fetch_bytes (%d)"
                % (topic, partition, state.position, self.max_partition_fetch_bytes))

    def _chunks(self, batch: Any, plain: bool, prefix: Tuple[str, int, int], position: int,
                next_offset: int) -> Iterator[Tuple[List[Any], int]]:
        """A data batch's records at or after ``position``, with the offset that follows each chunk.

        ``plain``: as :class:`ConsumerRecord` (no deserializers to run);
        otherwise as :class:`~kafka.record.record.Record` for
        :meth:`_deserialized`. The decoding is
        :func:`kafka.record.fetched.batch_chunks` (the asyncio consumer's
        too), ``max(max_poll_records, 256)`` records at a time: records that
        exist as objects only briefly keep the garbage collector's work (and
        the cache footprint) small.
        """
        size, chunks = batch_chunks(batch, position, next_offset, max(self.max_poll_records, _MIN_CHUNK),
                                    self.record_class if plain else None, prefix)
        self._decompressed += size
        return chunks

    @staticmethod
    def _deserialized(topic: str, partition: int, epoch: int, record: Any, key_des: Optional[Conversion],
                      value_des: Optional[Conversion], none_too: bool = False,
                      record_class: type = ConsumerRecord) -> ConsumerRecord:
        key, value, headers = record.key, record.value, record.headers
        if key_des is not None and (key is not None or none_too):
            key = key_des.fn(topic, headers, key) if key_des.contextual else key_des.fn(key)
        if value_des is not None and (value is not None or none_too):
            value = value_des.fn(topic, headers, value) if value_des.contextual else value_des.fn(value)
        # In the order of ROW_FIELDS (test_row_layout.py checks it).
        row: ConsumerRecord = record_row(record_class, (topic, partition, epoch), record, key, value)
        return row

    # -- offsets lookups -------------------------------------------------------------------

    def reset_offsets(self, timeout_ms: float) -> None:
        """Look up positions for partitions awaiting a reset (earliest/latest).

        Waits at most ``timeout_ms``, and never for a partition whose leader
        is unknown or unreachable: that one is tried again later (see
        :class:`~kafka.consumer.offset_reset.OffsetResetter`) while the others
        are fetched. Raises an error no retry can mend.
        """
        self._resetter.reset(timeout_ms)

    def list_offsets(self, timestamps: Dict[TopicPartition, int], timeout_ms: float) -> Dict[TopicPartition, OffsetAndTimestamp]:
        """ListOffsets by leader: ``{tp: timestamp or -2/-1}`` → offsets (None entries omitted)."""
        items = list(timestamps.items())

        def build(node: int, version: int, parts: List[Tuple[TopicPartition, int]]) -> Any:
            return list_offsets_request(self.client, self.isolation, parts)

        outcomes = self.client.dispatch_by_leader(LIST_OFFSETS, items, build, list_offsets_results,
                                                  timeout_ms=timeout_ms)
        found: Dict[TopicPartition, OffsetAndTimestamp] = {}
        for (tp, _ts), outcome in zip(items, outcomes):
            if outcome.error is not None:
                raise outcome.error
            if outcome.value is not None and outcome.value.offset >= 0:
                found[tp] = outcome.value
        return found

    def clear_buffered(self, partitions: Optional[Set[TopicPartition]] = None) -> None:
        """Drop buffered data (all, or of ``partitions``) after a seek or a reassignment."""
        if partitions is None:
            self._completed.clear()
            self._current = None
            return
        self._completed = deque(c for c in self._completed if c.tp not in partitions)
        if self._current is not None and self._current.tp in partitions:
            self._current = None

    def wait_deadline(self) -> float:
        """How long a poll may block waiting for fetch responses (seconds)."""
        if self._pending_error is not None:
            return 0.0
        return self.fetch_max_wait_ms / 1000.0 + 0.05
