"""A :class:`~kafka.testing.ScriptedPeer` that takes Produce requests like a broker.

``producing_peer(topics)`` answers every Produce request with success and
offsets counted per partition, so a producer test can run against the
scripted peer (and script other answers on top) instead of a real broker.
Produce is offered up to v9, where topics are named (not given by id).
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Mapping, Tuple

from kafka.record import MemoryRecords
from kafka.testing.scripted_peer import ReceivedRequest, ScriptedPeer


class ProduceLog:
    """Answers Produce requests with success; remembers what each partition got."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next: Dict[Tuple[str, int], int] = {}
        #: raw record-batch bytes received, per (topic, partition)
        self.batches: Dict[Tuple[str, int], List[bytes]] = {}

    def __call__(self, request: ReceivedRequest) -> Dict[str, Any]:
        topics = []
        with self._lock:
            for topic in request.body.topic_data:
                parts = []
                for part in topic.partition_data:
                    key = (topic.name, part.index)
                    records = bytes(part.records or b"")
                    base = self._next.get(key, 0)
                    self._next[key] = base + _count(records)
                    self.batches.setdefault(key, []).append(records)
                    parts.append({"index": part.index, "error_code": 0, "base_offset": base,
                                  "log_append_time_ms": -1, "log_start_offset": 0})
                topics.append({"name": topic.name, "partition_responses": parts})
        return {"responses": topics, "throttle_time_ms": 0}

    def values(self, topic: str, partition: int) -> List[bytes]:
        """The record values received for a partition, in order."""
        with self._lock:
            raw = list(self.batches.get((topic, partition), ()))
        out: List[bytes] = []
        for data in raw:
            for batch in MemoryRecords(data):
                out.extend(record.value for record in batch)
        return out


def _count(records: bytes) -> int:
    return sum(batch.record_count for batch in MemoryRecords(records))


def producing_peer(topics: Mapping[str, int]) -> Tuple[ScriptedPeer, ProduceLog]:
    """A scripted peer serving ``topics`` that accepts every Produce; and its log."""
    peer = ScriptedPeer(api_versions={"Produce": (3, 9)}, topics=topics)
    log = ProduceLog()
    peer.on("Produce", log)
    return peer, log
