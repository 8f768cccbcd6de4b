"""Preparing librdkafka's mock cluster for consumer-group tests."""

from __future__ import annotations

from typing import Any, Optional


def narrow_group_versions(cluster: Any, topic: Optional[str] = None, partitions: int = 1) -> Any:
    """Advertise only the group API versions the mock implements; optionally create ``topic``.

    The mock advertises JoinGroup v6+, SyncGroup v4+ and LeaveGroup v3+ but
    cannot answer them (see DESIGN.md), so the ranges are narrowed the way an
    older broker would advertise them. Returns ``cluster``, for fixtures.
    """
    if topic is not None:
        cluster.create_topic(topic, partitions)
    cluster.set_apiversion("JoinGroup", 0, 5)
    cluster.set_apiversion("SyncGroup", 0, 3)
    cluster.set_apiversion("LeaveGroup", 0, 2)
    return cluster
