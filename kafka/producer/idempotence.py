"""Producer id, epoch and per-partition sequence numbers (idempotent producing).

With idempotence on, every batch carries the producer id, its epoch and the
sequence number of its first record; the broker writes a batch once however
often it is resent, and refuses sequence gaps, so retries can neither
duplicate nor reorder records.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Dict, List, Optional, Sequence

from kafka import errors
from kafka.future import Future
from kafka.producer.batch import ProducerBatch
from kafka.protocol.apis import INIT_PRODUCER_ID
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

NO_PRODUCER_ID = -1


class ProducerIdentity:
    """The producer id/epoch and the sequence bookkeeping of every partition."""

    def __init__(self, transactional_id: Optional[str] = None, transaction_timeout_ms: int = 60000,
                 required: bool = True) -> None:
        self.transactional_id = transactional_id
        self.required = required  # False: give up idempotence quietly on brokers without it
        self.disabled = False
        self.transaction_timeout_ms = transaction_timeout_ms
        self.producer_id = NO_PRODUCER_ID
        self.producer_epoch = -1
        self._next_sequence: Dict[TopicPartition, int] = {}
        self._in_flight: Dict[TopicPartition, List[ProducerBatch]] = {}
        self._init_future: Optional[Future] = None
        self._bump_requested = False
        self._fresh_id = False  # ask for a new id rather than a bumped epoch
        self._lock = threading.Lock()
        self.fatal_error: Optional[BaseException] = None
        self.initialized = threading.Event()

    def __repr__(self) -> str:
        return "<ProducerIdentity id=%d epoch=%d>" % (self.producer_id, self.producer_epoch)

    def ready(self) -> bool:
        """Whether batches can be stamped now."""
        return self.producer_id >= 0 and not self._bump_requested

    # -- InitProducerId ------------------------------------------------------------------

    def set_identity(self, producer_id: int, producer_epoch: int) -> None:
        """Take a producer id and epoch obtained elsewhere (transactions)."""
        with self._lock:
            changed = (producer_id, producer_epoch) != (self.producer_id, self.producer_epoch)
            self.producer_id = producer_id
            self.producer_epoch = producer_epoch
            if changed:
                self._renumber()
            self._bump_requested = False
        self.initialized.set()

    def maybe_initialize(self, client: Any) -> None:
        """Send InitProducerId if needed (non-blocking; called by the sender).

        A transactional producer's id comes from ``init_transactions()``
        instead, so nothing is sent for it here.
        """
        if self.fatal_error is not None:
            raise self.fatal_error
        if self.transactional_id is not None:
            return
        if self._init_future is not None and not self._init_future.is_done:
            return
        node = client.least_loaded_node()
        if node is None or not client.ready(node):
            return
        try:
            version = client.api_version(INIT_PRODUCER_ID, node)
        except errors.UnsupportedVersionError:
            if self.required:
                self.fatal_error = errors.UnsupportedVersionError(
                    "idempotence was requested but the broker does not support InitProducerId")
                raise self.fatal_error from None
            log.info("the broker does not support idempotent producing; continuing without it")
            self.disabled = True
            self.initialized.set()
            return
        request = INIT_PRODUCER_ID.Request(
            transactional_id=self.transactional_id, transaction_timeout_ms=self.transaction_timeout_ms)
        if self._bump_requested and self.producer_id >= 0 and version >= 3 and not self._fresh_id:
            request.producer_id = self.producer_id
            request.producer_epoch = self.producer_epoch
        future = client.send(node, request, api=INIT_PRODUCER_ID, version=version)
        future.add_callback(self._on_init).add_errback(self._on_init_error)
        self._init_future = future

    def _on_init(self, response: Any) -> None:
        if response.error_code:
            cls = errors.for_code(response.error_code)
            error = cls("InitProducerId failed")  # type: ignore[misc]
            if self._bump_requested and self.transactional_id is None and not self._fresh_id:
                # The broker would not bump this producer's epoch: ask for a
                # new producer id instead.
                log.info("epoch bump refused (%s); requesting a new producer id", error)
                self._fresh_id = True
                return
            if not error.retriable:
                self.fatal_error = error
                self.initialized.set()
            log.debug("InitProducerId: %s", error)
            return
        with self._lock:
            self.producer_id = response.producer_id
            self.producer_epoch = response.producer_epoch
            if self._bump_requested:
                self._renumber()
            self._bump_requested = False
            self._fresh_id = False
        log.info("producer id %d, epoch %d", self.producer_id, self.producer_epoch)
        self.initialized.set()

    def _on_init_error(self, exc: BaseException) -> None:
        log.debug("InitProducerId request failed: %s", exc)

    def request_epoch_bump(self) -> None:
        """Get a new epoch (or id) before stamping more batches."""
        self._bump_requested = True

    def _renumber(self) -> None:
        # Sequences restart at 0 in the new epoch; batches not yet
        # acknowledged are stamped again when next drained.
        for batches in self._in_flight.values():
            for batch in batches:
                batch.base_sequence = -1
                batch.encoded = None
        self._in_flight.clear()
        self._next_sequence.clear()

    # -- sequences ----------------------------------------------------------------------

    def assign_sequence(self, batch: ProducerBatch) -> None:
        """Stamp ``batch`` with the id, epoch and the partition's next sequence."""
        with self._lock:
            tp = batch.topic_partition
            sequence = self._next_sequence.get(tp, 0)
            batch.producer_id = self.producer_id
            batch.producer_epoch = self.producer_epoch
            batch.base_sequence = sequence
            batch.transactional = self.transactional_id is not None
            batch.encoded = None
            self._next_sequence[tp] = (sequence + batch.record_count) & 0x7FFFFFFF
            self._in_flight.setdefault(tp, []).append(batch)

    def withdraw(self, batch: ProducerBatch) -> None:
        """Take back the sequence given to a batch that will never be sent.

        Only possible while no later batch of the partition was stamped;
        otherwise the sequence stays assigned and the batch's failure leaves
        a gap, which starts a new epoch (see :meth:`batch_completed`).
        """
        with self._lock:
            tp = batch.topic_partition
            batches = self._in_flight.get(tp)
            end = (batch.base_sequence + batch.record_count) & 0x7FFFFFFF
            if batches and batches[-1] is batch and self._next_sequence.get(tp) == end:
                batches.pop()
                self._next_sequence[tp] = batch.base_sequence
                batch.base_sequence = -1

    def replace(self, batch: ProducerBatch, halves: Sequence[ProducerBatch]) -> None:
        """Track ``halves`` (see :meth:`ProducerBatch.split`) where ``batch`` was: they hold its sequence range."""
        with self._lock:
            batches = self._in_flight.get(batch.topic_partition)
            if batches and batch in batches:
                position = batches.index(batch)
                batches[position:position + 1] = halves

    def is_first_in_flight(self, batch: ProducerBatch) -> bool:
        """Whether no earlier batch of the partition awaits acknowledgement."""
        with self._lock:
            batches = self._in_flight.get(batch.topic_partition) or []
            return not batches or batches[0] is batch

    def may_resend(self, batch: ProducerBatch) -> bool:
        """Whether a batch being retried may go now.

        A retried batch that keeps its sequence number is sent only once every
        earlier batch of its partition is acknowledged, so retries reach the
        broker one at a time and in sequence order, whatever happens to the
        partition's leadership meanwhile.
        """
        return batch.base_sequence < 0 or self.is_first_in_flight(batch)

    def batch_completed(self, batch: ProducerBatch, success: bool) -> None:
        """Forget a completed batch. A failed batch leaves a gap: start a new epoch."""
        with self._lock:
            batches = self._in_flight.get(batch.topic_partition)
            if batches and batch in batches:
                batches.remove(batch)
            if not success and batch.base_sequence >= 0 and self.transactional_id is None:
                # A transactional producer aborts instead; an idempotent one
                # starts a new epoch so the gap does not block the partition.
                self._bump_requested = True

    def next_sequence(self, tp: TopicPartition) -> int:
        """The sequence the partition's next new batch gets (for tests)."""
        return self._next_sequence.get(tp, 0)
