"""kafka-python 3 and kafkawire run the same admin program against the same scripted peer.

No test broker answers the log dir, election, reassignment, quorum, feature,
config resource, transaction and SCRAM credential APIs, so a
:class:`~kafka.testing.ScriptedPeer` (in this process) answers them, with
handlers that check what each client sent. ``programs/admin_scripted.py``
runs under kafka-python 3 (``.cache/kafka-python-venv``) and under
kafkawire; its JSON outputs (kafka-python's result shapes, error classes by
name) must be equal, and kafka-python's must meet the expectations below.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from typing import Any, Dict, List

from kafka.testing import ScriptedPeer
from test.kafka_python.test_api_surface import ROOT, kafka_python_interpreter
from test.kafka_python.test_differential import PROGRAMS

HOUR_MS = 3600 * 1000


def _peer_handlers(peer: ScriptedPeer, now: int) -> None:
    def log_dirs(request: Any) -> Dict[str, Any]:
        assert sorted((t.topic, t.partitions) for t in request.body.topics) == [("t", [0, 1])]
        return {"throttle_time_ms": 0, "error_code": 0, "results": [
            {"error_code": 0, "log_dir": "/data/a", "topics": [{"name": "t", "partitions": [
                {"partition_index": 0, "partition_size": 10, "offset_lag": 0, "is_future_key": False}]}],
             "total_bytes": 100, "usable_bytes": 50}]}

    def move(request: Any) -> Dict[str, Any]:
        dirs = sorted((d.path, [(t.name, t.partitions) for t in d.topics]) for d in request.body.dirs)
        assert dirs == [("/data/a", [("t", [0])]), ("/data/b", [("t", [1])])]
        return {"throttle_time_ms": 0, "results": [{"topic_name": "t", "partitions": [
            {"partition_index": 0, "error_code": 0}, {"partition_index": 1, "error_code": 57}]}]}

    def elect(request: Any) -> Dict[str, Any]:
        assert request.body.election_type == 1 and request.body.timeout_ms == 4000
        assert [(t.topic, t.partitions) for t in request.body.topic_partitions] == [("t", [0, 1])]
        return {"throttle_time_ms": 0, "error_code": 0, "replica_election_results": [{"topic": "t", "partition_result": [
            {"partition_id": 0, "error_code": 84}, {"partition_id": 1, "error_code": 83}]}]}

    def reassign(request: Any) -> Dict[str, Any]:
        [topic] = request.body.topics
        assert [(p.partition_index, p.replicas) for p in topic.partitions] == [(0, [1, 2]), (1, None)]
        return {"throttle_time_ms": 0, "error_code": 0, "error_message": None, "responses": [
            {"name": "t", "partitions": [{"partition_index": 0, "error_code": 0},
                                         {"partition_index": 1, "error_code": 85}]}]}

    def quorum(request: Any) -> Dict[str, Any]:
        [topic] = request.body.topics
        assert (topic.topic_name, [p.partition_index for p in topic.partitions]) == ("__cluster_metadata", [0])
        voter = {"replica_id": 1, "log_end_offset": 42, "last_fetch_timestamp": 5, "last_caught_up_timestamp": 4}
        return {"error_code": 0, "topics": [{"topic_name": "__cluster_metadata", "partitions": [
            {"partition_index": 0, "error_code": 3, "error_message": "not yet", "leader_id": 1, "leader_epoch": 7, "high_watermark": 42,
             "current_voters": [voter], "observers": [dict(voter, replica_id=3)]}]}]}

    def features(request: Any) -> Dict[str, Any]:
        updates = sorted((u.feature, u.max_version_level, u.upgrade_type) for u in request.body.feature_updates)
        assert updates == [("kraft.version", 0, 3), ("metadata.version", 21, 1)] and request.body.validate_only
        results = [{"feature": "metadata.version", "error_code": 0},
                   {"feature": "kraft.version", "error_code": 42, "error_message": "too low"}]
        return {"throttle_time_ms": 0, "error_code": 0, "results": results}

    def config_resources(request: Any) -> Dict[str, Any]:
        assert request.body.resource_types == [2, 32]
        return {"throttle_time_ms": 0, "error_code": 0, "config_resources": [
            {"resource_name": "orders", "resource_type": 2}, {"resource_name": "billing", "resource_type": 32}]}

    def transactions(request: Any) -> Dict[str, Any]:
        if request.body.state_filters:
            assert request.body.state_filters == ["Ongoing"] and request.body.producer_id_filters == [7]
        return {"throttle_time_ms": 0, "error_code": 0, "unknown_state_filters": [], "transaction_states": [
            {"transactional_id": "old", "producer_id": 7, "transaction_state": "Ongoing"},
            {"transactional_id": "new", "producer_id": 8, "transaction_state": "Ongoing"}]}

    starts = {"old": now - 2 * HOUR_MS, "new": now}

    def described(request: Any) -> Dict[str, Any]:
        states = []
        for txn_id in request.body.transactional_ids:
            known = txn_id in starts
            states.append({"error_code": 0 if known else 105, "transactional_id": txn_id,
                           "transaction_state": "Ongoing" if known else "", "transaction_timeout_ms": 60000,
                           "transaction_start_time_ms": starts.get(txn_id, -1), "producer_id": 7,
                           "producer_epoch": 3, "topics": [{"topic": "t", "partitions": [0]}] if known else []})
        return {"throttle_time_ms": 0, "transaction_states": states}

    def producers(request: Any) -> Dict[str, Any]:
        [topic] = request.body.topics
        [partition] = topic.partition_indexes
        return {"throttle_time_ms": 0, "topics": [{"name": "t", "partitions": [
            {"partition_index": partition, "error_code": 6 if partition else 0, "active_producers": [] if partition
             else [{"producer_id": 7, "producer_epoch": 3, "last_sequence": 9, "last_timestamp": 1234,
                    "coordinator_epoch": 2, "current_txn_start_offset": 100}]}]}]}

    def abort(request: Any) -> Dict[str, Any]:
        [marker] = request.body.markers
        assert (marker.producer_id, marker.transaction_result, marker.coordinator_epoch) == (7, False, -1)
        [topic] = marker.topics
        [partition] = topic.partition_indexes
        code = 47 if marker.producer_epoch != 3 else 0
        return {"markers": [{"producer_id": 7, "topics": [{"name": "t", "partitions": [
            {"partition_index": partition, "error_code": code}]}]}]}

    def scram_described(request: Any) -> Dict[str, Any]:
        assert [u.name for u in request.body.users] == ["alice", "nobody"]
        return {"throttle_time_ms": 0, "error_code": 0, "results": [
            {"user": "alice", "error_code": 0, "credential_infos": [{"mechanism": 1, "iterations": 4096}]},
            {"user": "nobody", "error_code": 91, "error_message": "no credentials", "credential_infos": []}]}

    def scram_altered(request: Any) -> Dict[str, Any]:
        [upsertion] = request.body.upsertions
        assert (upsertion.name, upsertion.mechanism, upsertion.iterations, upsertion.salt) == \
            ("alice", 1, 4096, b"NaCl")
        assert upsertion.salted_password == hashlib.pbkdf2_hmac("sha256", b"pencil", b"NaCl", 4096)
        assert [(d.name, d.mechanism) for d in request.body.deletions] == [("bob", 2)]
        return {"throttle_time_ms": 0, "results": [
            {"user": "alice", "error_code": 0}, {"user": "bob", "error_code": 91, "error_message": "nope"}]}

    for api, handler in (("DescribeLogDirs", log_dirs), ("AlterReplicaLogDirs", move), ("ElectLeaders", elect),
                         ("AlterPartitionReassignments", reassign), ("DescribeQuorum", quorum),
                         ("UpdateFeatures", features), ("ListConfigResources", config_resources),
                         ("ListTransactions", transactions), ("DescribeTransactions", described),
                         ("DescribeProducers", producers), ("WriteTxnMarkers", abort),
                         ("DescribeUserScramCredentials", scram_described),
                         ("AlterUserScramCredentials", scram_altered)):
        peer.on(api, handler)


def run(python: List[str], env: Dict[str, str], now: int) -> Dict[str, Any]:
    # UpdateFeatures up to v1: v2 answers without the per-feature results.
    with ScriptedPeer(topics={"t": 2}, api_versions={"UpdateFeatures": (0, 1)}) as peer:
        _peer_handlers(peer, now)
        proc = subprocess.run(python + [os.path.join(PROGRAMS, "admin_scripted.py"), peer.bootstrap],
                              env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
    return json.loads(proc.stdout.decode().strip().splitlines()[-1])  # type: ignore[no-any-return]


def _checks(out: Dict[str, Any]) -> None:
    assert out["move"] == ["ok", [[["t", 0, 0], "NoError"], [["t", 1, 0], "LogDirNotFoundError"]]]
    assert out["elect"] == ["ok", [["t", [[0, 84], [1, 83]]]]]
    assert out["elect_raises"] == ["error", "EligibleLeadersNotAvailableError"]
    assert out["reassign"] == ["ok", [[["t", 0], None], [["t", 1], "NoReassignmentInProgressError"]]]
    assert out["config_resources"] == ["ok", [["group", ["billing"]], ["topic", ["orders"]]]]
    assert out["unknown_txn"] == ["error", "TransactionalIdNotFoundError"]
    assert out["hanging"] == ["ok", [["old", "Ongoing", 7, 0, [["t", 0]], True]]]
    assert out["producers_error"][0] == "error" and out["abort"] == ["ok", None]
    assert out["abort_fenced"] == ["error", "InvalidProducerEpochError"]
    assert out["scram_altered"] == ["ok", [["alice", None], ["bob", "nope"]]]


def test_same_admin_program_same_results() -> None:
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    now = int(time.time() * 1000)  # one clock for both runs: start times are part of the output
    theirs = run([kafka_python_interpreter(), "-I"], base_env, now)
    _checks(theirs)
    ours = run([sys.executable], dict(base_env, PYTHONPATH=ROOT), now)
    assert ours == theirs
