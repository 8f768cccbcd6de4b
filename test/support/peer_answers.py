"""Ready-made answers for a :class:`kafka.testing.ScriptedPeer` playing a healthy broker."""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator

from kafka.testing import ReceivedRequest


def produce_answer(request: ReceivedRequest, base_offset: int) -> Dict[str, Any]:
    """A Produce response accepting every partition of ``request`` at ``base_offset``."""
    return {"responses": [
        {"name": t.name, "topic_id": t.topic_id,
         "partition_responses": [{"index": p.index, "error_code": 0, "base_offset": base_offset,
                                  "log_append_time_ms": -1, "log_start_offset": 0}
                                 for p in t.partition_data]}
        for t in request.body.topic_data]}


def counting_produce(first_offset: int = 0) -> Callable[[ReceivedRequest], Dict[str, Any]]:
    """A Produce handler giving each request the next offset, from ``first_offset``."""
    offsets: Iterator[int] = iter(range(first_offset, 1 << 62))
    return lambda request: produce_answer(request, next(offsets))


def init_producer_id(request: ReceivedRequest) -> Dict[str, Any]:
    """An InitProducerId answer granting producer id 1000, epoch 0."""
    return {"error_code": 0, "producer_id": 1000, "producer_epoch": 0}


def offsets_at_zero(request: ReceivedRequest) -> Dict[str, Any]:
    """An OffsetFetch answer saying every partition asked about has committed offset 0 (any version)."""
    def topics(asked: Any) -> Any:
        return [{"name": t.name, "partitions": [{"partition_index": p, "committed_offset": 0, "metadata": "",
                                                 "error_code": 0} for p in t.partition_indexes]}
                for t in asked or ()]

    if request.version >= 8:
        return {"groups": [{"group_id": g.group_id, "error_code": 0, "topics": topics(g.topics)}
                           for g in request.body.groups]}
    return {"error_code": 0, "topics": topics(request.body.topics)}


def members_left(request: ReceivedRequest) -> Dict[str, Any]:
    """A LeaveGroup answer letting every member named in ``request`` leave."""
    return {"error_code": 0, "members": [
        {"member_id": m.member_id, "group_instance_id": m.group_instance_id, "error_code": 0}
        for m in request.body.members or ()]}
