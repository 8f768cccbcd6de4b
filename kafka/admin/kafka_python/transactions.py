"""kafka-python 3's transaction tooling (KIP-664): list, describe, find hanging, abort.

ListTransactions goes to each broker (each coordinates a slice of the
transactions), DescribeTransactions to each id's transaction coordinator,
DescribeProducers and the abort (a WriteTxnMarkers request) to the
partition's leader.
"""

from __future__ import annotations

import enum
import time
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set

from kafka import errors
from kafka.admin.base import AdminBase, broker_error
from kafka.cluster import COORDINATOR_TRANSACTION
from kafka.protocol.apis import DESCRIBE_PRODUCERS, DESCRIBE_TRANSACTIONS, LIST_TRANSACTIONS, WRITE_TXN_MARKERS
from kafka.structs import TopicPartition

#: The Java tool's slack on top of the broker's maximum transaction timeout
#: before an open transaction counts as hanging.
_HANGING_SLACK_MS = 5 * 60 * 1000


class TransactionState(str, enum.Enum):
    """A transaction's state as brokers name it."""

    EMPTY = "Empty"
    ONGOING = "Ongoing"
    PREPARE_COMMIT = "PrepareCommit"
    PREPARE_ABORT = "PrepareAbort"
    COMPLETE_COMMIT = "CompleteCommit"
    COMPLETE_ABORT = "CompleteAbort"
    DEAD = "Dead"
    PREPARE_EPOCH_FENCE = "PrepareEpochFence"
    UNKNOWN = "Unknown"

    @classmethod
    def of(cls, text: str) -> "TransactionState":
        """The state named ``text``; UNKNOWN for a name this client does not know."""
        try:
            return cls(text)
        except ValueError:
            return cls.UNKNOWN


#: States in which a transaction holds nothing open.
_SETTLED = {TransactionState.EMPTY, TransactionState.COMPLETE_COMMIT, TransactionState.COMPLETE_ABORT,
            TransactionState.DEAD}


class TransactionListing(NamedTuple):
    """One transaction as ListTransactions reports it."""

    transactional_id: str
    producer_id: int
    state: TransactionState


class TransactionDescription(NamedTuple):
    """One transaction as its coordinator describes it."""

    coordinator_id: int
    state: TransactionState
    producer_id: int
    producer_epoch: int
    transaction_timeout_ms: int
    transaction_start_time_ms: int
    topic_partitions: Set[TopicPartition]


class ProducerState(NamedTuple):
    """One active producer of a partition."""

    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp: int
    coordinator_epoch: int
    current_transaction_start_offset: int


class PartitionProducerState(NamedTuple):
    """The active producers of one partition."""

    active_producers: List[ProducerState]


class AbortTransactionSpec(NamedTuple):
    """What :meth:`~kafka.admin.KafkaAdminClient.abort_transaction` aborts.

    ``coordinator_epoch`` -1 (the default) skips the coordinator epoch check,
    as Kafka's own tool does; the leader still checks the producer id and epoch.
    """

    topic_partition: TopicPartition
    producer_id: int
    producer_epoch: int
    coordinator_epoch: int = -1


class KafkaPythonTransactions(AdminBase):
    """Inspect transactions and abort hanging ones."""

    def list_transactions(self, broker_ids: Optional[Sequence[int]] = None,
                          producer_id_filters: Optional[Iterable[int]] = None,
                          state_filters: Optional[Iterable[Any]] = None, duration_filter_ms: Optional[int] = None,
                          transactional_id_pattern: Optional[str] = None) -> Dict[int, List[TransactionListing]]:
        """The open transactions of each broker: ``{node id: [TransactionListing]}``.

        Filters: producer ids, states (:class:`TransactionState` or its
        name), a minimum age (``duration_filter_ms``, ListTransactions v1,
        Kafka 3.8+) and a regular expression on the transactional id
        (``transactional_id_pattern``, v2, Kafka 4.1+).
        """
        states = [s.value if isinstance(s, TransactionState) else str(s) for s in state_filters or ()]
        producers = [int(p) for p in producer_id_filters or ()]
        R = LIST_TRANSACTIONS.Request

        def build(version: int) -> Any:
            if duration_filter_ms is not None and version < 1:
                raise errors.UnsupportedVersionError("duration_filter_ms needs ListTransactions v1 (Kafka 3.8+)")
            if transactional_id_pattern is not None and version < 2:
                raise errors.UnsupportedVersionError("transactional_id_pattern needs ListTransactions v2 (Kafka 4.1+)")
            return R(state_filters=states, producer_id_filters=producers,
                     duration_filter=-1 if duration_filter_ms is None else int(duration_filter_ms),
                     transactional_id_pattern=transactional_id_pattern)

        out: Dict[int, List[TransactionListing]] = {}
        for node in self._broker_ids(broker_ids):
            response = self._send_to_node(node, LIST_TRANSACTIONS, build, self._deadline())
            if response.error_code:
                raise broker_error(response.error_code, None, "listing the transactions of broker %d" % node)
            out[node] = [TransactionListing(t.transactional_id, t.producer_id, TransactionState.of(t.transaction_state))
                         for t in response.transaction_states]
        return out

    def describe_transactions(self, transactional_ids: Iterable[str]) -> Dict[str, TransactionDescription]:
        """``{transactional id: TransactionDescription}``, each asked of its coordinator.

        An id's error is raised (:class:`~kafka.errors.TransactionalIdNotFoundError`
        for an id no coordinator knows).
        """
        if isinstance(transactional_ids, (str, bytes)):
            raise errors.IllegalArgumentError("transactional_ids must be a list of ids, not the string %r"
                                              % (transactional_ids,))
        by_coordinator: Dict[int, List[str]] = {}
        for txn_id in transactional_ids:
            node = self._client.find_coordinator(txn_id, COORDINATOR_TRANSACTION, self.config["request_timeout_ms"])
            by_coordinator.setdefault(node, []).append(txn_id)
        out: Dict[str, TransactionDescription] = {}
        for node, ids in by_coordinator.items():
            response = self._send_to_node(node, DESCRIBE_TRANSACTIONS,
                                          lambda v: DESCRIBE_TRANSACTIONS.Request(transactional_ids=ids),
                                          self._deadline())
            for txn in response.transaction_states:
                if txn.error_code:
                    raise broker_error(txn.error_code, None, "describing transaction %r" % txn.transactional_id)
                out[txn.transactional_id] = TransactionDescription(
                    coordinator_id=node, state=TransactionState.of(txn.transaction_state),
                    producer_id=txn.producer_id, producer_epoch=txn.producer_epoch,
                    transaction_timeout_ms=txn.transaction_timeout_ms,
                    transaction_start_time_ms=txn.transaction_start_time_ms,
                    topic_partitions={TopicPartition(t.topic, p) for t in txn.topics for p in t.partitions})
        return out

    def describe_producers(self, partitions: Iterable[TopicPartition],
                           broker_id: Optional[int] = None) -> Dict[TopicPartition, PartitionProducerState]:
        """``{TopicPartition: PartitionProducerState}``: the active producers of each partition.

        Asks each partition's leader, or the replica on ``broker_id``. A
        partition's error is raised.
        """
        by_node: Dict[int, Dict[str, List[int]]] = {}
        for tp in partitions:
            tp = TopicPartition(*tp)
            node = broker_id if broker_id is not None \
                else self._client.leader_for(tp, self.config["request_timeout_ms"])
            by_node.setdefault(node, {}).setdefault(tp.topic, []).append(tp.partition)
        R = DESCRIBE_PRODUCERS.Request
        out: Dict[TopicPartition, PartitionProducerState] = {}
        for node, topics in by_node.items():
            request = R(topics=[R.TopicRequest(name=t, partition_indexes=ps) for t, ps in topics.items()])
            response = self._send_to_node(node, DESCRIBE_PRODUCERS, lambda v: request, self._deadline())
            for topic in response.topics:
                for partition in topic.partitions:
                    tp = TopicPartition(topic.name, partition.partition_index)
                    if partition.error_code:
                        raise broker_error(partition.error_code, partition.error_message,
                                           "describing the producers of %s-%d" % tp)
                    out[tp] = PartitionProducerState([ProducerState(
                        p.producer_id, p.producer_epoch, p.last_sequence, p.last_timestamp, p.coordinator_epoch,
                        p.current_txn_start_offset) for p in partition.active_producers])
        return out

    def abort_transaction(self, spec: AbortTransactionSpec) -> None:
        """Write an abort marker for ``spec``'s producer into its partition (at the partition's leader).

        A partition error is raised (:class:`~kafka.errors.InvalidProducerEpochError`
        when the producer moved on, for instance).
        """
        if not isinstance(spec, AbortTransactionSpec):
            raise errors.IllegalArgumentError("abort_transaction takes an AbortTransactionSpec, not %r" % (spec,))
        tp = TopicPartition(*spec.topic_partition)
        R = WRITE_TXN_MARKERS.Request
        topic = R.WritableTxnMarker.WritableTxnMarkerTopic(name=tp.topic, partition_indexes=[tp.partition])
        marker = R.WritableTxnMarker(producer_id=spec.producer_id, producer_epoch=spec.producer_epoch,
                                     transaction_result=False, coordinator_epoch=spec.coordinator_epoch, topics=[topic])
        leader = self._client.leader_for(tp, self.config["request_timeout_ms"])
        response = self._send_to_node(leader, WRITE_TXN_MARKERS, lambda v: R(markers=[marker]), self._deadline())
        for result in response.markers:
            for topic in result.topics:
                for partition in topic.partitions:
                    if partition.error_code:
                        raise broker_error(partition.error_code, None, "aborting the transaction of producer %d "
                                           "on %s-%d" % (spec.producer_id, topic.name, partition.partition_index))

    def find_hanging_transactions(self, broker_ids: Optional[Sequence[int]] = None,
                                  max_transaction_timeout_ms: int = 900000) -> List[Dict[str, Any]]:
        """Open transactions older than ``max_transaction_timeout_ms`` plus five minutes.

        Lists the transactions of the brokers, describes them and keeps those
        still open past the threshold (as ``kafka-transactions.sh
        --find-hanging`` does). Returns one dict per transaction:
        ``transactional_id``, ``producer_id``, ``producer_epoch``, ``state``
        (its name), ``age_ms``, ``coordinator_id``, ``topic_partitions`` (sorted).
        """
        listed = self.list_transactions(broker_ids=broker_ids)
        ids = sorted({t.transactional_id for txns in listed.values() for t in txns})
        if not ids:
            return []
        threshold_ms = max_transaction_timeout_ms + _HANGING_SLACK_MS
        now_ms = int(time.time() * 1000)
        hanging = []
        for txn_id, txn in self.describe_transactions(ids).items():
            age_ms = now_ms - txn.transaction_start_time_ms
            if txn.state in _SETTLED or txn.transaction_start_time_ms < 0 or age_ms < threshold_ms:
                continue
            hanging.append({"transactional_id": txn_id, "producer_id": txn.producer_id,
                            "producer_epoch": txn.producer_epoch, "state": txn.state.value, "age_ms": age_ms,
                            "coordinator_id": txn.coordinator_id, "topic_partitions": sorted(txn.topic_partitions)})
        return hanging


__all__ = ["KafkaPythonTransactions", "TransactionState", "TransactionListing", "TransactionDescription",
           "ProducerState", "PartitionProducerState", "AbortTransactionSpec"]
