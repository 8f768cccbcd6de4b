"""The producer's one I/O thread: drains ready batches and sends them to leaders.

Each turn of :meth:`Sender.run_once` finds the leaders that have batches
ready, drains one batch per partition for each, sends one Produce request
per leader (several leaders at once), and polls the client, whose response
callbacks complete, retry or fail the batches.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Dict, List, Optional

from kafka import errors
from kafka.client import topic_ids
from kafka.client.routing import RoutingClient
from kafka.producer.accumulator import RecordAccumulator
from kafka.producer.batch import ProducerBatch
from kafka.producer.idempotence import ProducerIdentity
from kafka.producer.metrics import ProducerMetrics
from kafka.protocol.apis import PRODUCE
from kafka.record.codecs import NONE

log = logging.getLogger(__name__)

_DUPLICATE_SEQUENCE = errors.DuplicateSequenceNumberError
_OUT_OF_ORDER_SEQUENCE = errors.OutOfOrderSequenceNumberError
_MESSAGE_TOO_LARGE = errors.MessageSizeTooLargeError
_UNKNOWN_PRODUCER_ID = errors.UnknownProducerIdError


class Sender(threading.Thread):
    """Background thread sending the accumulator's batches."""

    def __init__(self, client: RoutingClient, accumulator: RecordAccumulator, *, acks: int, retries: int,
                 request_timeout_ms: int, max_request_size: int, compression_type: int = NONE,
                 identity: Optional[ProducerIdentity] = None, guarantee_order: bool = False,
                 client_id: str = "kafkawire") -> None:
        super().__init__(name="kafkawire-producer-sender-%s" % client_id, daemon=True)
        self.client = client
        self.accumulator = accumulator
        self.acks = acks
        self.retries = retries
        self.request_timeout_ms = request_timeout_ms
        self.max_request_size = max_request_size
        self.compression_type = compression_type
        self.identity = identity
        if identity is not None:
            accumulator.retry_gate = identity.may_resend
        self.guarantee_order = guarantee_order
        self._running = True
        self._force_close = False
        self.fatal_error: Optional[BaseException] = None
        #: Called with the error when a batch fails for good (transactions abort on it).
        self.on_batch_failed: Optional[Callable[[BaseException], None]] = None
        #: Called at the start of every turn (see KafkaProducer.on_sender_turn).
        self.turn_hooks: List[Callable[[], None]] = []
        #: The monotonic time by which a turn was asked for (see :meth:`turn_by`); infinity for none.
        self._turn_due = float("inf")
        #: When the sender's current wait for I/O ends at the latest; 0.0 while it is not waiting.
        self._waits_until = 0.0
        #: kafka-python's producer metrics, when enabled (see KafkaProducer.metrics).
        self.metrics: Optional[ProducerMetrics] = None

    # -- lifecycle ---------------------------------------------------------------------

    def run(self) -> None:
        log.debug("producer sender started")
        while self._running:
            self._turn()
        # Deliver what is left (unless closing forcefully).
        while not self._force_close and self.accumulator.has_incomplete():
            self._turn()
        if self._force_close:
            self.accumulator.abort_all(errors.KafkaError("the producer was closed before the record was sent"))
        self.accumulator.wake_waiters()  # a flush() waiting on this thread returns now
        log.debug("producer sender stopped")

    def _turn(self) -> None:
        try:
            self.run_once()
        except Exception as exc:  # never let the I/O thread die silently
            log.exception("unexpected error in the producer sender: %s", exc)
            time.sleep(0.05)

    def initiate_close(self) -> None:
        """Stop after sending what was accepted."""
        self._running = False
        self.accumulator.close()
        self.client.wakeup()

    def force_close(self) -> None:
        """Stop now, failing what was not sent."""
        self._force_close = True
        self.initiate_close()

    def wakeup(self) -> None:
        """Interrupt the poll so new batches leave at once."""
        self.client.wakeup()

    def turn_by(self, due: float) -> None:
        """Have a turn start no later than the monotonic time ``due``.

        Interrupts the poll only when the wait under way would end later;
        otherwise the next turn comes soon enough, and this thread is left
        alone. The request is written before the wait is read, and
        :meth:`run_once` does the opposite, so one of the two always sees
        the other.
        """
        if due < self._turn_due:
            self._turn_due = due
        if self._waits_until > due:
            self.client.wakeup()

    # -- one turn ------------------------------------------------------------------------

    def run_once(self) -> None:
        """Send what is ready and poll once."""
        self._waits_until = 0.0
        self._turn_due = float("inf")  # this turn answers the requests made so far
        for hook in self.turn_hooks:
            try:
                hook()
            except Exception:  # a front-end's fault must not stop the sender
                log.exception("error in a producer sender hook")
        now = time.monotonic()
        if self.identity is not None and not self.identity.ready():
            try:
                self.identity.maybe_initialize(self.client)
            except errors.KafkaError as exc:
                self.fatal_error = exc
                self.accumulator.abort_all(exc)
                self.client.poll(timeout_ms=50)
                return
            if self.identity.disabled:
                self.identity = None
                self.accumulator.retry_gate = None
            elif not self.identity.ready():
                self.client.poll(timeout_ms=50)
                self._fail_expired(now)
                return
        cluster = self.client.cluster
        nodes, next_check, unknown = self.accumulator.ready(cluster, now)
        if unknown:
            for topic in unknown:
                self.client.add_topic(topic)
            cluster.request_update()
        ready_nodes = set()
        unusable: Dict[int, BaseException] = {}
        for node in nodes:
            if self.client.ready(node):
                ready_nodes.add(node)
            else:
                error = self.client.permanent_failure(node)
                if error is not None:
                    unusable[node] = error
                next_check = min(next_check, max(self.client.connection_delay(node), 0.005))
        if unusable:
            self._fail_unusable(unusable, now)
        batches = self.accumulator.drain(cluster, ready_nodes, self.max_request_size, now)
        if self.guarantee_order:
            for node_batches in batches.values():
                for batch in node_batches:
                    self.accumulator.mute(batch.topic_partition)
        for node, node_batches in batches.items():
            self._send_produce(node, node_batches, now)
        self._fail_expired(now)
        poll_ms = max(0.0, min(next_check * 1000.0, 1000.0))
        if batches:
            poll_ms = 0.0
        self._poll_until_due(now, poll_ms)

    def _poll_until_due(self, now: float, poll_ms: float) -> None:
        """Poll the client for up to ``poll_ms``, and no later than a turn asked for by :meth:`turn_by`."""
        self._waits_until = now + poll_ms / 1000.0
        due = self._turn_due  # read after the wait was written (see turn_by)
        if due < self._waits_until:
            poll_ms = max(0.0, (due - now) * 1000.0)
        self.client.poll(timeout_ms=poll_ms)
        self._waits_until = 0.0

    def _fail_unusable(self, unusable: Dict[int, BaseException], now: float) -> None:
        # Waiting for delivery_timeout_ms would only hide the cause behind a timeout.
        for node, node_batches in self.accumulator.drain(self.client.cluster, unusable,
                                                         self.max_request_size, now).items():
            for batch in node_batches:
                self._complete(batch, error=unusable[node])

    def _fail_expired(self, now: float) -> None:
        for batch in self.accumulator.expired_batches(now):
            self._complete(batch, error=errors.KafkaTimeoutError(
                "%s-%d: %d records expired after delivery_timeout_ms (%.0f ms) without being sent"
                % (batch.topic_partition[0], batch.topic_partition[1], batch.record_count,
                   self.accumulator.delivery_timeout * 1000)))

    # -- requests ------------------------------------------------------------------------

    def _encode(self, batch: ProducerBatch) -> Optional[bytes]:
        """The batch's bytes; a batch that cannot be encoded fails alone (None is returned)."""
        identity = self.identity
        if identity is not None and batch.base_sequence < 0:
            identity.assign_sequence(batch)
        try:
            return batch.encode(self.compression_type)
        except Exception as exc:
            log.error("%r cannot be encoded; failing its records: %s", batch, exc)
            if identity is not None:
                identity.withdraw(batch)
            self._complete(batch, error=exc if isinstance(exc, errors.KafkaError) else errors.KafkaError(
                "%s-%d: the batch could not be encoded: %r" % (batch.topic_partition[0],
                                                               batch.topic_partition[1], exc)))
            return None

    def _send_produce(self, node: int, batches: List[ProducerBatch], now: float) -> None:
        by_topic: Dict[str, List[Any]] = {}
        identity = self.identity
        encoded: List[ProducerBatch] = []
        for batch in batches:
            records = self._encode(batch)
            if records is None:
                continue
            encoded.append(batch)
            by_topic.setdefault(batch.topic_partition.topic, []).append(
                PRODUCE.Request.TopicProduceData.PartitionProduceData(
                    index=batch.topic_partition.partition, records=records))
        if not encoded:
            return
        batches = encoded
        expect_response = self.acks != 0
        try:
            ids = topic_ids.ids_by_name(self.client.cluster, by_topic)
            version = topic_ids.choose_version(self.client, PRODUCE, node, ids)
            request = PRODUCE.Request(
                transactional_id=identity.transactional_id if identity is not None else None,
                acks=self.acks, timeout_ms=self.request_timeout_ms,
                topic_data=[PRODUCE.Request.TopicProduceData(name=topic, topic_id=ids[topic], partition_data=parts)
                            for topic, parts in by_topic.items()])
            future = self.client.send(node, request, api=PRODUCE, version=version,
                                      expect_response=expect_response)
            if self.metrics is not None:
                self.metrics.request_sent(batches, self.compression_type != NONE)
        except Exception as exc:
            # The batches are drained: unless completed here they would stay
            # in flight for ever, and flush() and close() would wait on them.
            if not isinstance(exc, errors.KafkaError):
                log.exception("the produce request to node %s could not be sent: %s", node, exc)
            self._on_failure(node, batches, exc)
            return
        if not expect_response:
            # acks=0: nothing comes back. The future resolves once the whole
            # request is written to the socket, and fails if the connection
            # closes first: until then the batches stay in flight, so flush()
            # and close() wait for them.
            future.add_callback(self._on_written, batches)
        else:
            future.add_callback(self._on_response, node, batches, topic_ids.names_by_id(ids))
        future.add_errback(self._on_failure, node, batches)

    def _on_written(self, batches: List[ProducerBatch], _response: Any) -> None:
        for batch in batches:
            self._complete(batch, base_offset=-1)

    def _on_failure(self, node: int, batches: List[ProducerBatch], exc: BaseException) -> None:
        log.debug("produce request to node %s failed: %s", node, exc)
        now = time.monotonic()
        for batch in batches:
            self._retry_or_fail(batch, exc, now)
        self.client.cluster.request_update()

    def _on_response(self, node: int, batches: List[ProducerBatch], by_id: Dict[Any, str], response: Any) -> None:
        results: Dict[tuple, Any] = {}
        for topic_response in response.responses:
            # v13+ answers name topics by the ids the request carried.
            topic = topic_ids.response_topic(topic_response, "name", by_id)
            for part in topic_response.partition_responses:
                results[(topic, part.index)] = part
        now = time.monotonic()
        refresh = False
        for batch in batches:
            tp = batch.topic_partition
            part = results.get((tp.topic, tp.partition))
            if part is None:
                self._retry_or_fail(batch, errors.ProtocolError("no response for %s-%d" % tp), now)
                continue
            code = part.error_code
            if code == 0:
                self._complete(batch, part.base_offset, part.log_append_time_ms, part.log_start_offset)
                continue
            cls = errors.for_code(code)
            if cls is _DUPLICATE_SEQUENCE:
                # The broker already has this batch: an earlier attempt landed.
                log.debug("%r: duplicate sequence, base offset %d", batch, part.base_offset)
                self._complete(batch, part.base_offset, part.log_append_time_ms, part.log_start_offset)
                continue
            message = part.error_message or ""
            if cls is _MESSAGE_TOO_LARGE and batch.record_count > 1 and not self._force_close:
                self._split(batch)
                continue
            error = cls("%s-%d: %s" % (tp.topic, tp.partition, message))  # type: ignore[misc]
            refresh = refresh or cls.invalid_metadata  # type: ignore[union-attr]
            self._retry_or_fail(batch, error, now)
        if refresh:
            self.client.cluster.request_update()

    def _split(self, batch: ProducerBatch) -> None:
        """Send a batch the broker refused as too large again as two halves, in its place and order.

        As the Java client does: a topic whose ``max.message.bytes`` is
        below ``batch_size`` still gets every record, in batches that halve
        until they fit (a single record that does not fit fails alone).
        """
        halves = self.accumulator.split_in_flight(batch)
        if halves is None:
            return  # purged meanwhile: purge() completes it
        tp = batch.topic_partition
        log.info("%s-%d: a batch of %d records (%d bytes) is above the topic's max.message.bytes; "
                 "sending it as two halves", tp[0], tp[1], sum(h.record_count for h in halves), batch.size)
        if self.identity is not None:
            self.identity.replace(batch, halves)
        if self.guarantee_order:
            self.accumulator.unmute(batch.topic_partition)

    def purge(self, queued: bool, in_flight: bool) -> None:
        """Fail the queued and/or in-flight batches now; responses still to come for them are ignored."""
        taken_queued, taken_in_flight = self.accumulator.take_for_purge(queued, in_flight)
        for batches, cls in ((taken_queued, errors.PurgedInQueueError), (taken_in_flight, errors.PurgedInFlightError)):
            for batch in batches:
                self._complete(batch, error=cls("%s-%d: purged" % batch.topic_partition), purging=True)
        self.wakeup()

    def _retry_or_fail(self, batch: ProducerBatch, error: BaseException, now: float) -> None:
        if batch.purged:
            return  # already completed by purge()
        identity = self.identity
        if identity is not None and isinstance(error, (_OUT_OF_ORDER_SEQUENCE, _UNKNOWN_PRODUCER_ID)):
            if not identity.is_first_in_flight(batch):
                # An earlier batch of the partition failed and is being
                # retried: this one follows it once it has landed.
                retriable = True
            elif identity.transactional_id is None:
                # The broker lost our producer state for this partition: start
                # a new epoch and renumber what has not been acknowledged.
                log.info("%s; resetting the producer's sequence numbers", error)
                identity.request_epoch_bump()
                retriable = True
            else:
                retriable = False  # the transaction must be aborted
        else:
            retriable = getattr(error, "retriable", False)
        expired = now - batch.created >= self.accumulator.delivery_timeout
        if retriable and batch.attempts < self.retries and not expired and not self._force_close:
            if self.metrics is not None:
                self.metrics.retried(batch)
            self.accumulator.reenqueue(batch, now)
            if self.guarantee_order:
                self.accumulator.unmute(batch.topic_partition)
            return
        if expired and retriable:
            error = errors.KafkaTimeoutError("delivery_timeout_ms expired while retrying: %s" % (error,))
        self._complete(batch, error=error)

    def _complete(self, batch: ProducerBatch, base_offset: int = -1, log_append_time: int = -1,
                  log_start_offset: int = -1, error: Optional[BaseException] = None, purging: bool = False) -> None:
        if batch.purged and not purging:
            return  # a response to a purged batch: purge() completed it
        if self.identity is not None:
            self.identity.batch_completed(batch, error is None)
        if self.guarantee_order:
            self.accumulator.unmute(batch.topic_partition)
        if error is not None:
            if self.metrics is not None:
                self.metrics.failed(batch)
            if self.on_batch_failed is not None:
                self.on_batch_failed(error)
        batch.done(base_offset, log_append_time, log_start_offset, error)
        self.accumulator.release(batch)
