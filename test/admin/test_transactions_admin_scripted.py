"""Transaction tooling (list, describe, producers, abort, find hanging) against a scripted peer.

No embedded broker answers ListTransactions, DescribeTransactions,
DescribeProducers or an admin's WriteTxnMarkers, so a
:class:`~kafka.testing.ScriptedPeer` plays the broker, checking each request
as Kafka's message definitions lay it out.
"""

from __future__ import annotations

import time
from typing import Any, Dict, List

import pytest

from kafka import TopicPartition, errors
from kafka.admin import (AbortTransactionSpec, KafkaAdminClient, PartitionProducerState, ProducerState,
                         TransactionDescription, TransactionListing, TransactionState)
from kafka.testing import ScriptedPeer

HOUR_MS = 3600 * 1000


def _admin(peer: ScriptedPeer) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=3000)


def _listing(request: Any) -> Dict[str, Any]:
    return {"throttle_time_ms": 0, "error_code": 0, "unknown_state_filters": [], "transaction_states": [
        {"transactional_id": "old", "producer_id": 7, "transaction_state": "Ongoing"},
        {"transactional_id": "new", "producer_id": 8, "transaction_state": "Ongoing"},
        {"transactional_id": "done", "producer_id": 9, "transaction_state": "CompleteCommit"}]}


def _described(starts: Dict[str, Any]):
    def answer(request: Any) -> Dict[str, Any]:
        states = []
        for txn_id in request.body.transactional_ids:
            if txn_id not in starts:
                states.append({"error_code": 105, "transactional_id": txn_id, "transaction_state": "",
                               "transaction_timeout_ms": 0, "transaction_start_time_ms": -1, "producer_id": -1,
                               "producer_epoch": -1, "topics": []})
                continue
            state, start = starts[txn_id]
            states.append({"error_code": 0, "transactional_id": txn_id, "transaction_state": state,
                           "transaction_timeout_ms": 60000, "transaction_start_time_ms": start,
                           "producer_id": 7, "producer_epoch": 3,
                           "topics": [{"topic": "t", "partitions": [1, 0]}]})
        return {"throttle_time_ms": 0, "transaction_states": states}
    return answer


def test_list_transactions_sends_the_filters_to_each_broker():
    with ScriptedPeer() as peer:
        def answer(request: Any) -> Dict[str, Any]:
            assert request.body.state_filters == ["Ongoing", "PrepareAbort"]
            assert request.body.producer_id_filters == [7, 8]
            assert request.body.duration_filter == 60000
            assert request.body.transactional_id_pattern == "^o"
            return _listing(request)
        peer.on("ListTransactions", answer)
        with _admin(peer) as admin:
            result = admin.list_transactions(producer_id_filters=[7, 8],
                                             state_filters=[TransactionState.ONGOING, "PrepareAbort"],
                                             duration_filter_ms=60000, transactional_id_pattern="^o")
        assert result == {0: [TransactionListing("old", 7, TransactionState.ONGOING),
                              TransactionListing("new", 8, TransactionState.ONGOING),
                              TransactionListing("done", 9, TransactionState.COMPLETE_COMMIT)]}


def test_list_transactions_raises_the_brokers_error():
    with ScriptedPeer() as peer:
        peer.on("ListTransactions", lambda request: {"throttle_time_ms": 0, "error_code": 15,
                                                     "unknown_state_filters": [], "transaction_states": []})
        with _admin(peer) as admin, pytest.raises(errors.CoordinatorNotAvailableError):
            admin.list_transactions()


def test_list_transactions_v0_cannot_filter_by_duration():
    with ScriptedPeer(api_versions={"ListTransactions": (0, 0)}) as peer, _admin(peer) as admin:
        with pytest.raises(errors.UnsupportedVersionError):
            admin.list_transactions(duration_filter_ms=1000)
    assert not peer.received("ListTransactions")


def test_describe_transactions_asks_the_transaction_coordinator():
    start = int(time.time() * 1000) - 1000
    with ScriptedPeer() as peer:
        peer.on("DescribeTransactions", _described({"old": ("Ongoing", start)}))
        with _admin(peer) as admin:
            result = admin.describe_transactions(["old"])
        assert result == {"old": TransactionDescription(0, TransactionState.ONGOING, 7, 3, 60000, start,
                                                        {TopicPartition("t", 0), TopicPartition("t", 1)})}
        finds = peer.received("FindCoordinator")
        assert finds and all(f.body.key_type == 1 for f in finds)


def test_describe_transactions_raises_for_an_unknown_id():
    with ScriptedPeer() as peer:
        peer.on("DescribeTransactions", _described({}))
        with _admin(peer) as admin, pytest.raises(errors.TransactionalIdNotFoundError, match="nobody"):
            admin.describe_transactions(["nobody"])


def test_describe_transactions_refuses_a_single_string():
    with ScriptedPeer() as peer, _admin(peer) as admin, pytest.raises(errors.IllegalArgumentError):
        admin.describe_transactions("old")
    assert not peer.received("FindCoordinator")


def test_find_hanging_transactions_keeps_open_transactions_past_the_threshold():
    now = int(time.time() * 1000)
    with ScriptedPeer() as peer:
        peer.on("ListTransactions", _listing)
        peer.on("DescribeTransactions", _described({"old": ("Ongoing", now - HOUR_MS), "new": ("Ongoing", now),
                                                    "done": ("CompleteCommit", now - HOUR_MS)}))
        with _admin(peer) as admin:
            [hanging] = admin.find_hanging_transactions(max_transaction_timeout_ms=60000)
        assert hanging["transactional_id"] == "old" and hanging["state"] == "Ongoing"
        assert (hanging["producer_id"], hanging["producer_epoch"], hanging["coordinator_id"]) == (7, 3, 0)
        assert HOUR_MS <= hanging["age_ms"] < HOUR_MS + 60000
        assert hanging["topic_partitions"] == [TopicPartition("t", 0), TopicPartition("t", 1)]
        [described] = peer.received("DescribeTransactions")
        assert sorted(described.body.transactional_ids) == ["done", "new", "old"]


def _producers_answer(codes: Dict[int, int]):
    def answer(request: Any) -> Dict[str, Any]:
        assert [(t.name, t.partition_indexes) for t in request.body.topics] == [("t", sorted(codes))]
        return {"throttle_time_ms": 0, "topics": [{"name": "t", "partitions": [
            {"partition_index": p, "error_code": code, "error_message": "moved" if code else None,
             "active_producers": [] if code else [
                 {"producer_id": 7, "producer_epoch": 3, "last_sequence": 41, "last_timestamp": 1234,
                  "coordinator_epoch": 2, "current_txn_start_offset": 100}]}
            for p, code in sorted(codes.items())]}]}
    return answer


def test_describe_producers_asks_the_leader_and_gives_each_partitions_producers():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("DescribeProducers", _producers_answer({0: 0, 1: 0}))
        with _admin(peer) as admin:
            result = admin.describe_producers([TopicPartition("t", 0), TopicPartition("t", 1)])
        state = PartitionProducerState([ProducerState(7, 3, 41, 1234, 2, 100)])
        assert result == {TopicPartition("t", 0): state, TopicPartition("t", 1): state}


def test_describe_producers_raises_a_partition_error():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("DescribeProducers", _producers_answer({1: 6}))
        with _admin(peer) as admin, pytest.raises(errors.NotLeaderForPartitionError, match="moved"):
            admin.describe_producers([TopicPartition("t", 1)], broker_id=0)


def _abort_answer(code: int):
    def answer(request: Any) -> Dict[str, Any]:
        [marker] = request.body.markers
        assert (marker.producer_id, marker.producer_epoch, marker.transaction_result, marker.coordinator_epoch) == \
            (7, 3, False, -1)
        assert [(t.name, t.partition_indexes) for t in marker.topics] == [("t", [1])]
        return {"markers": [{"producer_id": 7, "topics": [{"name": "t", "partitions": [
            {"partition_index": 1, "error_code": code}]}]}]}
    return answer


def test_abort_transaction_writes_an_abort_marker_at_the_leader():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("WriteTxnMarkers", _abort_answer(0))
        with _admin(peer) as admin:
            assert admin.abort_transaction(AbortTransactionSpec(TopicPartition("t", 1), 7, 3)) is None
        assert len(peer.received("WriteTxnMarkers")) == 1


def test_abort_transaction_raises_the_partitions_error():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("WriteTxnMarkers", _abort_answer(47))
        with _admin(peer) as admin, pytest.raises(errors.InvalidProducerEpochError):
            admin.abort_transaction(AbortTransactionSpec(TopicPartition("t", 1), 7, 3))


@pytest.mark.parametrize("spec", [None, ("t", 1, 7, 3)])
def test_abort_transaction_takes_only_a_spec(spec: List[Any]):
    with ScriptedPeer() as peer, _admin(peer) as admin, pytest.raises(errors.IllegalArgumentError):
        admin.abort_transaction(spec)  # type: ignore[arg-type]
