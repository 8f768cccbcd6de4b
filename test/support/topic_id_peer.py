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
