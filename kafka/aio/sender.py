"""The asyncio producer's sender: one task that turns ready batches into Produce requests.

The task loops: it asks the :class:`~kafka.aio.accumulator.Accumulator`
which partitions have a batch ready, finds each partition's leader in the
client's metadata, and sends one Produce request per leader holding one
batch per partition (a request of its own task, so several brokers and
several requests to one broker are in flight together). A partition with a
batch in flight is muted until the answer came, so its records stay in
order even when a batch is retried.

Retriable errors (a connection lost, NOT_LEADER_OR_FOLLOWER, a timed-out
request...) put the batch back at the front of its partition, to go again
after ``retry_backoff_ms``, metadata refreshed first when the error says it
is stale; other errors, and batches older than the delivery timeout, fail
the batch's records.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from typing import Any, Dict, List, Optional, Set

from kafka import errors
from kafka.aio.accumulator import Accumulator, PendingBatch
from kafka.aio.client import AsyncClient
from kafka.protocol.apis import PRODUCE
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

#: Produce v13 names topics by id only; the asyncio producer names them (v3-v12).
MAX_PRODUCE_VERSION = 12

#: Produce requests in flight to one broker at most.
MAX_IN_FLIGHT_PER_BROKER = 5


class Sender:
    """Sends the accumulator's batches until stopped.

    :param client: connections and metadata.
    :param accumulator: where the batches wait.
    :param acks: 0, 1 or -1 (all).
    :param request_timeout_ms: the broker's time limit for a Produce request.
    :param retry_backoff_ms: wait before a batch is retried.
    """

    def __init__(self, client: AsyncClient, accumulator: Accumulator, *, acks: int, request_timeout_ms: int,
                 retry_backoff_ms: int) -> None:
        self.client = client
        self.accumulator = accumulator
        self.acks = acks
        self.request_timeout_ms = request_timeout_ms
        self.retry_backoff = retry_backoff_ms / 1000.0
        self._muted: Set[TopicPartition] = set()
        self._per_node: Dict[int, int] = {}
        self._requests: Set["asyncio.Task[None]"] = set()
        self._task: Optional["asyncio.Task[None]"] = None
        self._stopping = False

    def start(self) -> None:
        """Start the sender task."""
        self._task = asyncio.ensure_future(self._run())
        self._task.add_done_callback(self._on_exit)

    @property
    def running(self) -> bool:
        """Whether the sender task runs."""
        return self._task is not None and not self._task.done()

    def _on_exit(self, task: "asyncio.Task[None]") -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("the producer's sender task failed: %r", task.exception())
            self.accumulator.fail_all(errors.KafkaError("the sender task failed: %r" % (task.exception(),)))

    async def stop(self) -> None:
        """Stop once nothing waits any more (call after a flush); cancel what is left."""
        self._stopping = True
        self.accumulator.wake()
        for task in list(self._requests):
            task.cancel()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, *self._requests, return_exceptions=True)

    # -- the loop ---------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            wait = self._dispatch()
            await self.accumulator.wait_for_work(wait)

    def _dispatch(self) -> Optional[float]:
        """Send every batch that may go now; how long until one may go next (None: nothing waits).

        Called by the sender task, and by a request as soon as its answer
        is handled (so the partition's next batch goes out in the same turn
        of the event loop, not after the sender task's next wake-up).
        """
        accumulator = self.accumulator
        cluster = self.client.cluster
        now = time.monotonic()
        if self.client.metadata_due():
            self.client.request_refresh()
        accumulator.expire(now, self._muted)
        ready, next_at = accumulator.ready(now, self._muted)
        wait = None if next_at is None else max(next_at - now, 0.0)
        by_node: Dict[int, List[TopicPartition]] = {}
        for tp in ready:
            leader = cluster.leader_for_partition(tp)
            if leader is None or leader < 0:
                self.client.request_refresh()
                wait = self.retry_backoff if wait is None else min(wait, self.retry_backoff)
                continue
            by_node.setdefault(leader, []).append(tp)
        for node, tps in by_node.items():
            if self._per_node.get(node, 0) >= MAX_IN_FLIGHT_PER_BROKER:
                continue  # dispatched again when one of them completes
            batches = [accumulator.pop(tp) for tp in tps]
            self._muted.update(tps)
            self._per_node[node] = self._per_node.get(node, 0) + 1
            task = asyncio.ensure_future(self._produce(node, batches))
            self._requests.add(task)
            task.add_done_callback(functools.partial(self._request_done, batches=batches))
        return wait

    def _release(self, node: int, batches: List[PendingBatch]) -> None:
        """A request to ``node`` for ``batches`` is over: its partitions may send again."""
        self._per_node[node] -= 1
        for batch in batches:
            self._muted.discard(batch.tp)

    def _request_done(self, task: "asyncio.Task[None]", *, batches: List[PendingBatch]) -> None:
        self._requests.discard(task)
        if task.cancelled():
            for batch in batches:
                batch.fail(errors.KafkaError("the producer stopped before %s-%d was answered" % batch.tp))
        elif task.exception() is not None:
            exc = task.exception()
            log.error("a produce request failed unexpectedly: %r", exc)
            for batch in batches:
                batch.fail(exc if isinstance(exc, errors.KafkaError) else errors.KafkaError(repr(exc)))
        self.accumulator.wake()

    # -- one request ------------------------------------------------------------------------

    async def _produce(self, node: int, batches: List[PendingBatch]) -> None:
        """Send ``batches`` to ``node`` and handle the answer; then dispatch what is ready next."""
        try:
            await self._produce_once(node, batches)
        finally:
            self._release(node, batches)
        if not self._stopping:
            self._dispatch()
            self.accumulator.wake()  # the sender times the next linger again

    async def _produce_once(self, node: int, batches: List[PendingBatch]) -> None:
        by_topic: Dict[str, List[Any]] = {}
        for batch in batches:
            by_topic.setdefault(batch.tp.topic, []).append(
                PRODUCE.Request.TopicProduceData.PartitionProduceData(index=batch.tp.partition, records=batch.data))
        request = PRODUCE.Request(
            transactional_id=None, acks=self.acks, timeout_ms=self.request_timeout_ms,
            topic_data=[PRODUCE.Request.TopicProduceData(name=topic, partition_data=parts)
                        for topic, parts in by_topic.items()])
        try:
            conn = await self.client.connection(node)
            version = conn.version_for(PRODUCE, highest=MAX_PRODUCE_VERSION)
            response = await conn.request(PRODUCE, request, version, expect_response=self.acks != 0)
        except errors.KafkaError as exc:
            log.debug("produce request to node %d failed: %s", node, exc)
            self.client.request_refresh()
            for batch in batches:
                self._retry_or_fail(batch, exc)
            return
        if response is None:  # acks=0: nothing comes back
            for batch in batches:
                batch.succeed(-1)
            return
        answers: Dict[Any, Any] = {}
        for topic in response.responses:
            for part in topic.partition_responses:
                answers[(topic.name, part.index)] = part
        refresh = False
        for batch in batches:
            part = answers.get((batch.tp.topic, batch.tp.partition))
            if part is None:
                self._retry_or_fail(batch, errors.ProtocolError("no answer for %s-%d" % batch.tp))
                continue
            cls = errors.for_code(part.error_code)
            if cls is None:
                batch.succeed(part.base_offset, part.log_append_time_ms, part.log_start_offset)
                continue
            refresh = refresh or cls.invalid_metadata
            self._retry_or_fail(batch, cls("%s-%d: %s" % (batch.tp.topic, batch.tp.partition,
                                                          part.error_message or cls.description)))
        if refresh:
            self.client.request_refresh()

    def _retry_or_fail(self, batch: PendingBatch, error: BaseException) -> None:
        now = time.monotonic()
        deadline = batch.created + self.accumulator.delivery_timeout
        if getattr(error, "retriable", False) and not self._stopping and now + self.retry_backoff < deadline:
            batch.attempts += 1
            batch.retry_at = now + self.retry_backoff
            log.debug("%r: retrying after %s", batch, error)
            self.accumulator.put_back(batch)
        else:
            batch.fail(error)
