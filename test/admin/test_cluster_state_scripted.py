"""The metadata quorum, feature updates and config resource names against a scripted peer.

A :class:`~kafka.testing.ScriptedPeer` plays the broker (no embedded broker
answers DescribeQuorum, UpdateFeatures or ListConfigResources): its handlers
check the request fields and answer as Kafka's message definitions lay them out.
"""

from __future__ import annotations

import uuid
from typing import Any, Dict

import pytest

from kafka import errors
from kafka.admin import ConfigResourceType, KafkaAdminClient, UpdateFeatureType
from kafka.testing import ScriptedPeer


def _admin(peer: ScriptedPeer) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=3000)


def _voter(replica: int, offset: int) -> Dict[str, Any]:
    return {"replica_id": replica, "replica_directory_id": uuid.UUID(int=replica + 1), "log_end_offset": offset,
            "last_fetch_timestamp": 1000 + replica, "last_caught_up_timestamp": 900 + replica}


def _quorum_answer(partition_code: int = 0, top: int = 0):
    def answer(request: Any) -> Dict[str, Any]:
        [topic] = request.body.topics
        assert topic.topic_name == "__cluster_metadata"
        assert [p.partition_index for p in topic.partitions] == [0]
        return {"error_code": top, "error_message": "not allowed" if top else None, "topics": [
            {"topic_name": "__cluster_metadata", "partitions": [
                {"partition_index": 0, "error_code": partition_code, "error_message": None, "leader_id": 1,
                 "leader_epoch": 7, "high_watermark": 42, "current_voters": [_voter(1, 42), _voter(2, 40)],
                 "observers": [_voter(3, 39)]}]}],
            "nodes": [{"node_id": 1, "listeners": [{"name": "CONTROLLER", "host": "c1", "port": 9093}]}]}
    return answer


def test_describe_metadata_quorum_gives_leader_voters_observers_and_nodes():
    with ScriptedPeer() as peer:
        peer.on("DescribeQuorum", _quorum_answer())
        with _admin(peer) as admin:
            quorum = admin.describe_metadata_quorum()
        [partition] = quorum["topics"][0]["partitions"]
        assert partition["error"] is None
        assert (partition["leader_id"], partition["leader_epoch"], partition["high_watermark"]) == (1, 7, 42)
        assert [(v["replica_id"], v["log_end_offset"]) for v in partition["current_voters"]] == [(1, 42), (2, 40)]
        assert partition["current_voters"][0]["replica_directory_id"] == str(uuid.UUID(int=2))
        assert [o["replica_id"] for o in partition["observers"]] == [3]
        assert quorum["nodes"] == [{"node_id": 1, "listeners": [{"name": "CONTROLLER", "host": "c1", "port": 9093}]}]
        assert "error_code" not in quorum


def test_describe_metadata_quorum_reports_a_partition_error_as_text():
    with ScriptedPeer() as peer:
        peer.on("DescribeQuorum", _quorum_answer(partition_code=3))
        with _admin(peer) as admin:
            [partition] = admin.describe_metadata_quorum()["topics"][0]["partitions"]
        assert partition["error"] == "[Error 3] UnknownTopicOrPartitionError"


def test_describe_metadata_quorum_raises_the_top_level_error():
    with ScriptedPeer() as peer:
        peer.on("DescribeQuorum", _quorum_answer(top=31))
        with _admin(peer) as admin, pytest.raises(errors.ClusterAuthorizationFailedError, match="not allowed"):
            admin.describe_metadata_quorum()


def _features_answer(results: Dict[str, int], top: int = 0):
    def answer(request: Any) -> Dict[str, Any]:
        updates = {u.feature: (u.max_version_level, u.upgrade_type) for u in request.body.feature_updates}
        assert updates == {"metadata.version": (20, 1), "kraft.version": (0, 3)}
        assert request.body.validate_only is True and request.body.timeout_ms == 5000
        return {"throttle_time_ms": 0, "error_code": top, "error_message": "refused" if top else None,
                "results": [{"feature": f, "error_code": code, "error_message": "too low" if code else None}
                            for f, code in results.items()]}
    return answer


_UPDATES = {"metadata.version": 20, "kraft.version": (UpdateFeatureType.UNSAFE_DOWNGRADE, 0)}


def test_update_features_v1_maps_each_features_result():
    with ScriptedPeer(api_versions={"UpdateFeatures": (0, 1)}) as peer:
        peer.on("UpdateFeatures", _features_answer({"metadata.version": 0, "kraft.version": 42}))
        with _admin(peer) as admin:
            result = admin.update_features(_UPDATES, validate_only=True, timeout_ms=5000)
        assert result["metadata.version"] == "OK"
        assert result["kraft.version"] == "[Error 42] InvalidRequestError: too low"
        assert peer.received("UpdateFeatures")[0].version == 1


def test_update_features_v2_answers_without_per_feature_results():
    with ScriptedPeer() as peer:
        peer.on("UpdateFeatures", _features_answer({}))
        with _admin(peer) as admin:
            assert admin.update_features(_UPDATES, validate_only=True, timeout_ms=5000) == {
                "metadata.version": "OK", "kraft.version": "OK"}
        assert peer.received("UpdateFeatures")[0].version == 2


def test_update_features_raises_the_top_level_error():
    with ScriptedPeer() as peer:
        peer.on("UpdateFeatures", _features_answer({}, top=42))
        with _admin(peer) as admin, pytest.raises(errors.InvalidRequestError, match="refused"):
            admin.update_features(_UPDATES, validate_only=True, timeout_ms=5000)


def test_update_features_v0_cannot_validate_only():
    with ScriptedPeer(api_versions={"UpdateFeatures": (0, 0)}) as peer, _admin(peer) as admin:
        with pytest.raises(errors.UnsupportedVersionError):
            admin.update_features({"metadata.version": 20}, validate_only=True)
    assert not peer.received("UpdateFeatures")


def test_update_features_v0_sends_allow_downgrade():
    with ScriptedPeer(api_versions={"UpdateFeatures": (0, 0)}) as peer:
        def answer(request: Any) -> Dict[str, Any]:
            assert [(u.feature, u.allow_downgrade) for u in request.body.feature_updates] == [
                ("metadata.version", False), ("kraft.version", True)]
            return {"throttle_time_ms": 0, "error_code": 0, "error_message": None, "results": []}
        peer.on("UpdateFeatures", answer)
        with _admin(peer) as admin:
            assert admin.update_features(_UPDATES) == {"metadata.version": "OK", "kraft.version": "OK"}


def test_list_config_resources_groups_names_by_type():
    with ScriptedPeer() as peer:
        def answer(request: Any) -> Dict[str, Any]:
            assert request.body.resource_types == [ConfigResourceType.TOPIC, ConfigResourceType.GROUP]
            return {"throttle_time_ms": 0, "error_code": 0, "config_resources": [
                {"resource_name": "orders", "resource_type": 2}, {"resource_name": "billing", "resource_type": 32},
                {"resource_name": "payments", "resource_type": 2}]}
        peer.on("ListConfigResources", answer)
        with _admin(peer) as admin:
            assert admin.list_config_resources(["topic", ConfigResourceType.GROUP]) == {
                "topic": ["orders", "payments"], "group": ["billing"]}


def test_list_config_resources_v0_lists_client_metrics():
    with ScriptedPeer(api_versions={"ListConfigResources": (0, 0)}) as peer:
        peer.on("ListConfigResources", lambda request: {"throttle_time_ms": 0, "error_code": 0, "config_resources": [
            {"resource_name": "all-metrics"}]})
        with _admin(peer) as admin:
            assert admin.list_config_resources() == {"client_metrics": ["all-metrics"]}
            with pytest.raises(errors.UnsupportedVersionError):
                admin.list_config_resources(["topic"])


def test_list_config_resources_raises_the_error():
    with ScriptedPeer() as peer:
        peer.on("ListConfigResources", lambda request: {"throttle_time_ms": 0, "error_code": 31,
                                                        "config_resources": []})
        with _admin(peer) as admin, pytest.raises(errors.ClusterAuthorizationFailedError):
            admin.list_config_resources()


def test_list_config_resources_refuses_an_unknown_type():
    with ScriptedPeer() as peer, _admin(peer) as admin, pytest.raises(errors.IllegalArgumentError):
        admin.list_config_resources(["tables"])
