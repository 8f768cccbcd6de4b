"""Log directories, leader elections and partition reassignments against a scripted peer.

Neither embedded broker answers these APIs, so a :class:`~kafka.testing.ScriptedPeer`
plays the broker: its handlers check each request field as Kafka's message
definitions lay them out and answer as a broker would, errors included.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

from kafka import TopicPartition, TopicPartitionReplica, errors
from kafka.admin import ElectionType, KafkaAdminClient
from kafka.testing import ScriptedPeer


def _admin(peer: ScriptedPeer) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=3000)


def _log_dirs_answer(request: Any) -> Dict[str, Any]:
    assert [(t.topic, t.partitions) for t in request.body.topics] == [("t", [0, 1])]
    partitions = [{"partition_index": p, "partition_size": 100 * (p + 1), "offset_lag": p, "is_future_key": False}
                  for p in (0, 1)]
    return {"throttle_time_ms": 0, "error_code": 0, "results": [
        {"error_code": 0, "log_dir": "/data/a", "topics": [{"name": "t", "partitions": partitions}],
         "total_bytes": 1000, "usable_bytes": 700, "is_cordoned": False},
        {"error_code": 56, "log_dir": "/data/b", "topics": [], "total_bytes": -1, "usable_bytes": -1}]}


def test_describe_log_dirs_lists_each_brokers_dirs_for_the_topics_partitions():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("DescribeLogDirs", _log_dirs_answer)
        with _admin(peer) as admin:
            [broker] = admin.describe_log_dirs(["t"])
        assert broker["broker"] == 0
        first, second = broker["log_dirs"]
        assert first["log_dir"] == "/data/a" and first["error_code"] == 0
        assert first["total_bytes"] == 1000 and first["usable_bytes"] == 700
        assert [(p["partition_index"], p["partition_size"], p["offset_lag"])
                for p in first["topics"][0]["partitions"]] == [(0, 100, 0), (1, 200, 1)]
        assert (second["log_dir"], second["error_code"]) == ("/data/b", 56)
        [request] = peer.received("DescribeLogDirs")
        assert request.version == 5


def test_describe_log_dirs_of_every_replica_sends_null_topics():
    with ScriptedPeer() as peer:
        def answer(request: Any) -> Dict[str, Any]:
            assert request.body.topics is None
            return {"throttle_time_ms": 0, "error_code": 0, "results": []}
        peer.on("DescribeLogDirs", answer)
        with _admin(peer) as admin:
            assert admin.describe_log_dirs(brokers=[0]) == [{"broker": 0, "log_dirs": []}]


def test_describe_log_dirs_raises_the_top_level_error():
    with ScriptedPeer() as peer:
        peer.on("DescribeLogDirs", lambda request: {"throttle_time_ms": 0, "error_code": 31, "results": []})
        with _admin(peer) as admin, pytest.raises(errors.ClusterAuthorizationFailedError):
            admin.describe_log_dirs({"t": [0]})


def test_alter_replica_log_dirs_groups_replicas_by_dir_and_maps_each_result():
    with ScriptedPeer(topics={"t": 3}) as peer:
        def answer(request: Any) -> Dict[str, Any]:
            dirs = {d.path: [(t.name, t.partitions) for t in d.topics] for d in request.body.dirs}
            assert dirs == {"/data/a": [("t", [0, 2])], "/data/b": [("t", [1])]}
            return {"throttle_time_ms": 0, "results": [{"topic_name": "t", "partitions": [
                {"partition_index": 0, "error_code": 0}, {"partition_index": 2, "error_code": 0},
                {"partition_index": 1, "error_code": 57}]}]}
        peer.on("AlterReplicaLogDirs", answer)
        with _admin(peer) as admin:
            result = admin.alter_replica_log_dirs({TopicPartitionReplica("t", 0, 0): "/data/a",
                                                   ("t", 1, 0): "/data/b", ("t", 2, 0): "/data/a"})
        assert result == {TopicPartitionReplica("t", 0, 0): errors.NoError,
                          TopicPartitionReplica("t", 2, 0): errors.NoError,
                          TopicPartitionReplica("t", 1, 0): errors.LogDirNotFoundError}


def _election_answer(codes: Dict[int, int], top: int = 0):
    def answer(request: Any) -> Dict[str, Any]:
        assert request.body.election_type == ElectionType.UNCLEAN
        assert request.body.timeout_ms == 1500
        [topic] = request.body.topic_partitions
        assert (topic.topic, topic.partitions) == ("t", [0, 1])
        results = [{"partition_id": p, "error_code": code, "error_message": "no" if code else None}
                   for p, code in sorted(codes.items())]
        return {"throttle_time_ms": 0, "error_code": top,
                "replica_election_results": [{"topic": "t", "partition_result": results}]}
    return answer


def test_elect_leaders_returns_the_response_and_ignores_election_not_needed():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("ElectLeaders", _election_answer({0: 0, 1: 84}))
        with _admin(peer) as admin:
            response = admin.elect_leaders(1, {"t": [0, 1]}, timeout_ms=1500)
        [topic] = response.replica_election_results
        assert [(p.partition_id, p.error_code) for p in topic.partition_result] == [(0, 0), (1, 84)]


def test_elect_leaders_raises_a_partition_error_unless_told_not_to():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("ElectLeaders", _election_answer({0: 0, 1: 83}))
        with _admin(peer) as admin:
            with pytest.raises(errors.EligibleLeadersNotAvailableError, match="t-1"):
                admin.elect_leaders(ElectionType.UNCLEAN, ["t"], timeout_ms=1500)
            response = admin.elect_leaders(1, ["t"], timeout_ms=1500, raise_errors=False)
        assert response.replica_election_results[0].partition_result[1].error_code == 83


def test_elect_leaders_asks_the_controller_again_after_not_controller():
    with ScriptedPeer(topics={"t": 2}) as peer:
        answers = [_election_answer({}, top=41), _election_answer({0: 0, 1: 0})]
        peer.on("ElectLeaders", lambda request: answers.pop(0)(request))
        with _admin(peer) as admin:
            admin.elect_leaders(1, {"t": [0, 1]}, timeout_ms=1500)
        assert len(peer.received("ElectLeaders")) == 2


def test_elect_leaders_refuses_an_unknown_election_type():
    with ScriptedPeer() as peer, _admin(peer) as admin, pytest.raises(errors.IllegalArgumentError):
        admin.elect_leaders(2)


def _reassignment_answer(top: int = 0):
    def answer(request: Any) -> Dict[str, Any]:
        [topic] = request.body.topics
        assert topic.name == "t"
        assert [(p.partition_index, p.replicas) for p in topic.partitions] == [(0, [1, 2]), (1, None)]
        assert request.body.timeout_ms == 2500
        return {"throttle_time_ms": 0, "error_code": top, "error_message": "denied" if top else None,
                "responses": [{"name": "t", "partitions": [
                    {"partition_index": 0, "error_code": 0, "error_message": None},
                    {"partition_index": 1, "error_code": 85, "error_message": "nothing to cancel"}]}]}
    return answer


def test_alter_partition_reassignments_starts_and_cancels_and_maps_partition_errors():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("AlterPartitionReassignments", _reassignment_answer())
        with _admin(peer) as admin:
            result = admin.alter_partition_reassignments(
                {TopicPartition("t", 0): [1, 2], TopicPartition("t", 1): None}, timeout_ms=2500)
        assert result == {TopicPartition("t", 0): None, TopicPartition("t", 1): errors.NoReassignmentInProgressError}


def test_alter_partition_reassignments_raises_the_top_level_error():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("AlterPartitionReassignments", _reassignment_answer(top=31))
        with _admin(peer) as admin, pytest.raises(errors.ClusterAuthorizationFailedError, match="denied"):
            admin.alter_partition_reassignments({TopicPartition("t", 0): [1, 2], TopicPartition("t", 1): None},
                                                timeout_ms=2500)


@pytest.mark.parametrize("replicas", [[], ["1"], [True]])
def test_alter_partition_reassignments_refuses_bad_replica_lists(replicas: List[Any]):
    with ScriptedPeer() as peer, _admin(peer) as admin, pytest.raises(errors.IllegalArgumentError):
        admin.alter_partition_reassignments({TopicPartition("t", 0): replicas})
    assert not peer.received("AlterPartitionReassignments")
