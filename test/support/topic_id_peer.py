"""Scripted-peer handlers that answer like a broker which knows topics by name and by id.

Each handler resolves a request's topic entries as Kafka does: by name up
to the versions that carry names, by id from the versions that carry ids
(a null or unknown id is UNKNOWN_TOPIC_ID), and echoes the entry's own name
and id in its answer, so the client must match the answer the way the
request named the topic.
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from kafka.testing import ScriptedPeer

UNKNOWN_TOPIC_OR_PARTITION = 3
UNKNOWN_TOPIC_ID = 100


def resolve(peer: ScriptedPeer, entry: Any, name_field: str = "name") -> Tuple[Optional[str], int]:
    """``(topic name, error code)`` of a request's topic entry."""
    name = getattr(entry, name_field, None)
    if name:
        return (name, 0) if name in peer.topics else (None, UNKNOWN_TOPIC_OR_PARTITION)
    tid = getattr(entry, "topic_id", None)
    found = peer.topic_name(tid) if isinstance(tid, uuid.UUID) and tid.int else None
    return (found, 0) if found in peer.topics else (None, UNKNOWN_TOPIC_ID)


def init_producer_id(request: Any) -> Dict[str, Any]:
    """An InitProducerId answer granting producer id 1000, epoch 0."""
    return {"error_code": 0, "producer_id": 1000, "producer_epoch": 0}


def produce_handler(peer: ScriptedPeer, base_offset: int = 41) -> Callable[[Any], Dict[str, Any]]:
    """Answer Produce: every partition written at ``base_offset`` (or the topic's error)."""
    def answer(request: Any) -> Dict[str, Any]:
        responses = []
        for topic in request.body.topic_data:
            _, code = resolve(peer, topic)
            responses.append({"name": topic.name, "topic_id": topic.topic_id, "partition_responses": [
                {"index": p.index, "error_code": code, "base_offset": -1 if code else base_offset}
                for p in topic.partition_data]})
        return {"responses": responses}
    return answer


def fetch_handler(peer: ScriptedPeer, records: Mapping[Tuple[str, int], bytes],
                  high_watermark: int = 1) -> Callable[[Any], Dict[str, Any]]:
    """Answer Fetch with ``records[(topic, partition)]`` (empty where none) and ``high_watermark``."""
    def answer(request: Any) -> Dict[str, Any]:
        responses = []
        for topic in request.body.topics:
            name, code = resolve(peer, topic, "topic")
            responses.append({"topic": topic.topic, "topic_id": topic.topic_id, "partitions": [
                {"partition_index": p.partition, "error_code": code,
                 "high_watermark": -1 if code else high_watermark,
                 "records": b"" if code or p.fetch_offset >= high_watermark else records.get((name, p.partition), b"")}
                for p in topic.partitions]})
        return {"error_code": 0, "session_id": 0, "responses": responses}
    return answer


def offset_commit_handler(peer: ScriptedPeer, store: Dict[Tuple[str, int], int]) -> Callable[[Any], Dict[str, Any]]:
    """Answer OffsetCommit, keeping the committed offsets in ``store``."""
    def answer(request: Any) -> Dict[str, Any]:
        topics = []
        for topic in request.body.topics:
            name, code = resolve(peer, topic)
            for p in topic.partitions:
                if not code:
                    store[(name, p.partition_index)] = p.committed_offset
            topics.append({"name": topic.name, "topic_id": topic.topic_id, "partitions": [
                {"partition_index": p.partition_index, "error_code": code} for p in topic.partitions]})
        return {"topics": topics}
    return answer


def offset_fetch_handler(peer: ScriptedPeer, store: Mapping[Tuple[str, int], int]) -> Callable[[Any], Dict[str, Any]]:
    """Answer OffsetFetch (v8+, one group) from ``store``; a null topic list means every stored topic."""
    def answer(request: Any) -> Dict[str, Any]:
        [group] = request.body.groups
        wanted = group.topics
        if wanted is None:
            names = sorted({t for t, _ in store})
            ids = request.version >= 10
            wanted = [type("T", (), {"name": "" if ids else n, "topic_id": peer.topic_id(n),
                                     "partition_indexes": sorted(p for t, p in store if t == n)})
                      for n in names]
        topics = []
        for topic in wanted:
            name, code = resolve(peer, topic)
            topics.append({"name": topic.name, "topic_id": topic.topic_id, "partitions": [
                {"partition_index": p, "committed_offset": store.get((name, p), -1), "metadata": "",
                 "error_code": code} for p in topic.partition_indexes]})
        return {"groups": [{"group_id": group.group_id, "topics": topics, "error_code": 0}]}
    return answer
