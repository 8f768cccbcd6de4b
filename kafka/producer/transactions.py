"""Transactions: the producer side of Kafka's exactly-once protocol.

:class:`TransactionManager` drives a transactional producer through
``init_transactions`` (find the transaction coordinator, get a producer id and
epoch, fencing older instances), ``begin_transaction``, enrolling every
partition written to (AddPartitionsToTxn) and consumer offsets
(AddOffsetsToTxn + TxnOffsetCommit), and ``commit_transaction`` /
``abort_transaction`` (EndTxn). Requests are sent from the calling thread;
records still travel through the sender.

Errors are sorted in two kinds: *fatal* ones (another producer with the same
transactional id took over: :class:`~kafka.errors.ProducerFencedError`; the
transactional id is not authorized or not mapped to our producer id), after
which only ``close()`` is possible, and *abortable* ones (anything else, a
consumer rebalance refusing our offsets included), after which the
application must call ``abort_transaction()`` before going on.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any, Dict, Iterator, Mapping, Optional, Set

from kafka import errors
from kafka.cluster import COORDINATOR_GROUP, COORDINATOR_TRANSACTION
from kafka.producer.idempotence import ProducerIdentity
from kafka.protocol.apis import ADD_OFFSETS_TO_TXN, ADD_PARTITIONS_TO_TXN, END_TXN, INIT_PRODUCER_ID, TXN_OFFSET_COMMIT
from kafka.structs import OffsetAndMetadata, TopicPartition

log = logging.getLogger(__name__)

UNINITIALIZED = "uninitialized"
READY = "ready"
IN_TRANSACTION = "in_transaction"
ABORTABLE_ERROR = "abortable_error"
FATAL_ERROR = "fatal_error"

#: AddPartitionsToTxn v4+ is the broker-to-broker batched form.
_CLIENT_ADD_PARTITIONS_MAX = 3

#: Errors meaning a newer producer with our transactional id took over.
_FENCED = (errors.InvalidProducerEpochError, errors.ProducerFencedError)
#: Errors that leave nothing decided: the call that ran out of time may be made again.
_TIMED_OUT = (errors.KafkaTimeoutError, errors.NoBrokersAvailable)
#: Errors after which this producer cannot go on, though it was not fenced.
_FATAL = (errors.TransactionalIdAuthorizationFailedError, errors.InvalidProducerIdMappingError)


class TransactionAbortableError(errors.KafkaError):
    """The current transaction failed; call ``abort_transaction()`` and go on."""


class TransactionManager:
    """Transaction state of one transactional producer."""

    def __init__(self, client: Any, identity: ProducerIdentity, flush: Any, timeout_ms: int) -> None:
        if identity.transactional_id is None:
            raise errors.IllegalArgumentError("a TransactionManager needs a transactional_id")
        self.client = client
        self.identity = identity
        self.transactional_id = identity.transactional_id
        self._flush = flush
        self.timeout_ms = timeout_ms
        self.state = UNINITIALIZED
        self.last_error: Optional[BaseException] = None
        self._partitions: Set[TopicPartition] = set()
        # Whether AddOffsetsToTxn enrolled a group: the broker then holds an
        # open transaction even when no record was written.
        self._offsets_enrolled = False
        self._lock = threading.RLock()
        #: The monotonic time the transactional call under way must end by (None: ``timeout_ms`` per request).
        self._call_deadline: Optional[float] = None

    def __repr__(self) -> str:
        return "<TransactionManager %r %s>" % (self.transactional_id, self.state)

    # -- state checks ----------------------------------------------------------------

    def _require(self, *states: str) -> None:
        if self.state == FATAL_ERROR:
            raise errors.IllegalStateError("the producer hit a fatal error and must be closed: %s" % self.last_error)
        if self.state not in states:
            if self.state == ABORTABLE_ERROR:
                raise TransactionAbortableError(
                    "the transaction failed (%s); call abort_transaction() first" % self.last_error)
            raise errors.IllegalStateError("not allowed in transaction state %r" % self.state)

    @contextlib.contextmanager
    def _bounded(self, timeout_ms: Optional[float]) -> Iterator[None]:
        """Bound the requests of one transactional call by ``timeout_ms`` in all (None: no bound of its own)."""
        self._call_deadline = None if timeout_ms is None else time.monotonic() + max(timeout_ms, 0.0) / 1000.0
        try:
            yield
        finally:
            self._call_deadline = None

    def _request_timeout_ms(self) -> float:
        if self._call_deadline is None:
            return self.timeout_ms
        left_ms = (self._call_deadline - time.monotonic()) * 1000.0
        if left_ms <= 0:
            raise errors.KafkaTimeoutError("the transactional call ran out of time")
        return min(self.timeout_ms, left_ms)

    def _fail(self, error: BaseException) -> BaseException:
        if isinstance(error, _TIMED_OUT):
            # Nothing was decided: the same call may be made again (and resumes).
            self.last_error = error
            return error
        if isinstance(error, _FENCED):
            self.state = FATAL_ERROR
            fenced = errors.ProducerFencedError(
                "another producer with transactional id %r took over: %s" % (self.transactional_id, error))
            self.last_error = fenced
            return fenced
        if isinstance(error, _FATAL):
            self.state = FATAL_ERROR
            self.last_error = error
            return error
        if self.state == IN_TRANSACTION:
            self.state = ABORTABLE_ERROR
        self.last_error = error
        return error

    def _coordinator_request(self, api: Any, build: Any, error_code: Any, key_type: int = COORDINATOR_TRANSACTION,
                             key: Optional[str] = None, max_version: Optional[int] = None) -> Any:
        try:
            return self.client.send_to_coordinator(key or self.transactional_id, api, build, error_code,
                                                   key_type=key_type, timeout_ms=self._request_timeout_ms(),
                                                   max_version=max_version)
        except errors.KafkaError as exc:
            raise self._fail(exc) from None

    # -- the transactional API ------------------------------------------------------------

    def init_transactions(self, timeout_ms: Optional[float] = None) -> None:
        """Get the producer id and epoch for the transactional id (fences older producers).

        ``timeout_ms`` bounds the whole call (each transactional call takes
        one); when it runs out, KafkaTimeoutError is raised and the same call
        may be made again.
        """
        with self._lock, self._bounded(timeout_ms):
            self._require(UNINITIALIZED, READY)

            def build(version: int) -> Any:
                return INIT_PRODUCER_ID.Request(transactional_id=self.transactional_id,
                                                transaction_timeout_ms=self.identity.transaction_timeout_ms)

            response = self._coordinator_request(INIT_PRODUCER_ID, build, lambda r: r.error_code)
            self.identity.set_identity(response.producer_id, response.producer_epoch)
            self.state = READY

    def begin_transaction(self) -> None:
        """Start a transaction."""
        with self._lock:
            self._require(READY)
            self._partitions = set()
            self._offsets_enrolled = False
            self.state = IN_TRANSACTION

    def in_transaction(self) -> bool:
        """Whether records may be sent now."""
        return self.state == IN_TRANSACTION

    def check_can_send(self) -> None:
        """Raise unless a transaction is open."""
        if self.state != IN_TRANSACTION:
            self._require(IN_TRANSACTION)

    def ensure_partition(self, tp: TopicPartition) -> None:
        """Enrol ``tp`` in the transaction before its first record is sent."""
        if tp in self._partitions:
            return
        with self._lock:
            if tp in self._partitions:
                return
            self.check_can_send()
            identity = self.identity

            def build(version: int) -> Any:
                return ADD_PARTITIONS_TO_TXN.Request(
                    v3_and_below_transactional_id=self.transactional_id,
                    v3_and_below_producer_id=identity.producer_id,
                    v3_and_below_producer_epoch=identity.producer_epoch,
                    v3_and_below_topics=[ADD_PARTITIONS_TO_TXN.Request.AddPartitionsToTxnTopic(
                        name=tp.topic, partitions=[tp.partition])])

            def error_code(response: Any) -> int:
                for topic in response.results_by_topic_v3_and_below or ():
                    for part in topic.results_by_partition:
                        if part.partition_error_code:
                            return part.partition_error_code
                return response.error_code

            self._coordinator_request(ADD_PARTITIONS_TO_TXN, build, error_code,
                                      max_version=_CLIENT_ADD_PARTITIONS_MAX)
            self._partitions.add(tp)

    def send_offsets_to_transaction(self, offsets: Mapping[TopicPartition, Any], group: Any,
                                    timeout_ms: Optional[float] = None) -> None:
        """Commit consumer ``offsets`` for ``group`` (an id or group metadata) as part of the transaction."""
        with self._lock, self._bounded(timeout_ms):
            self._require(IN_TRANSACTION)
            group_id = group if isinstance(group, str) else getattr(group, "group_id")
            identity = self.identity

            def add_offsets(version: int) -> Any:
                return ADD_OFFSETS_TO_TXN.Request(transactional_id=self.transactional_id,
                                                  producer_id=identity.producer_id,
                                                  producer_epoch=identity.producer_epoch, group_id=group_id)

            self._coordinator_request(ADD_OFFSETS_TO_TXN, add_offsets, lambda r: r.error_code)
            self._offsets_enrolled = True
            by_topic: Dict[str, list] = {}
            for tp, offset in offsets.items():
                if not isinstance(offset, OffsetAndMetadata):
                    offset = OffsetAndMetadata(int(offset), "")
                by_topic.setdefault(tp[0], []).append((tp[1], offset))
            R = TXN_OFFSET_COMMIT.Request

            def commit(version: int) -> Any:
                return R(transactional_id=self.transactional_id, group_id=group_id,
                         producer_id=identity.producer_id, producer_epoch=identity.producer_epoch,
                         generation_id=getattr(group, "generation_id", -1),
                         member_id=getattr(group, "member_id", ""),
                         group_instance_id=getattr(group, "group_instance_id", None),
                         topics=[R.TxnOffsetCommitRequestTopic(name=topic, partitions=[
                             R.TxnOffsetCommitRequestTopic.TxnOffsetCommitRequestPartition(
                                 partition_index=p, committed_offset=o.offset,
                                 committed_leader_epoch=o.leader_epoch, committed_metadata=o.metadata)
                             for p, o in parts]) for topic, parts in by_topic.items()])

            def error_code(response: Any) -> int:
                return next((p.error_code for t in response.topics for p in t.partitions if p.error_code), 0)

            self._coordinator_request(TXN_OFFSET_COMMIT, commit, error_code, key_type=COORDINATOR_GROUP,
                                      key=group_id)

    def commit_transaction(self, timeout_ms: Optional[float] = None) -> None:
        """Deliver every record of the transaction, then commit it."""
        with self._lock, self._bounded(timeout_ms):
            self._require(IN_TRANSACTION)
            try:
                self._flush(None if timeout_ms is None else self._request_timeout_ms() / 1000.0)
            except errors.KafkaError as exc:
                raise self._fail(exc) from None
            if self.last_error is not None and self.state == ABORTABLE_ERROR:
                self._require(IN_TRANSACTION)
            self._end(committed=True)

    def abort_transaction(self, timeout_ms: Optional[float] = None) -> None:
        """Abort the transaction: its records are never shown to read_committed consumers."""
        with self._lock, self._bounded(timeout_ms):
            self._require(IN_TRANSACTION, ABORTABLE_ERROR)
            try:
                self._flush(None if timeout_ms is None else self._request_timeout_ms() / 1000.0)
            except errors.KafkaError:
                pass  # records that failed are aborted anyway
            self._end(committed=False)

    def record_failed(self, error: BaseException) -> None:
        """A record of the open transaction could not be written (from the sender).

        Runs on the sender thread while the application may hold the
        manager's lock waiting for that very thread (commit flushes), so it
        only records the failure; the application thread acts on it.
        """
        if self.state == IN_TRANSACTION:
            self._fail(error)

    def _end(self, committed: bool) -> None:
        identity = self.identity
        if not self._partitions and not self._offsets_enrolled and committed:
            # Nothing was enrolled: there is no transaction on the broker to end.
            self.state = READY
            return

        def build(version: int) -> Any:
            return END_TXN.Request(transactional_id=self.transactional_id, producer_id=identity.producer_id,
                                   producer_epoch=identity.producer_epoch, committed=committed)

        response = self._coordinator_request(END_TXN, build, lambda r: r.error_code)
        if getattr(response, "producer_epoch", -1) >= 0 and response.producer_id >= 0:
            identity.set_identity(response.producer_id, response.producer_epoch)
        self._partitions = set()
        self._offsets_enrolled = False
        self.last_error = None
        self.state = READY

