"""ListOffsets for :meth:`AdminClient.list_offsets`: offset, timestamp and leader epoch per partition.

The engine's admin client only answers earliest/latest offsets; confluent-kafka's
``list_offsets`` also wants the timestamp, the leader epoch, timestamp lookups,
``max_timestamp`` and an isolation level, so this sends the request itself
through the engine's leader routing.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

from kafka.confluent._admin_types import ListOffsetsResultInfo
from kafka.confluent.errors import KafkaError, KafkaException
from kafka.confluent.message import TopicPartition
from kafka.protocol.apis.offsets import LIST_OFFSETS
from kafka.structs import TopicPartition as EngineTP


def list_offsets(engine: Any, items: Sequence[Tuple[TopicPartition, int]],
                 isolation_level: int, timeout_ms: float) -> Dict[TopicPartition, Any]:
    """``{TopicPartition: ListOffsetsResultInfo or exception}`` for ``(partition, timestamp spec)`` items."""
    R = LIST_OFFSETS.Request
    P = R.ListOffsetsTopic.ListOffsetsPartition

    def build(node: int, version: int, batch: List[Tuple[EngineTP, Any]]) -> Any:
        topics: Dict[str, List[Any]] = {}
        for tp, ts in batch:
            topics.setdefault(tp.topic, []).append(P(partition_index=tp.partition, timestamp=ts))
        return R(replica_id=-1, isolation_level=isolation_level,
                 topics=[R.ListOffsetsTopic(name=t, partitions=ps)
                         for t, ps in topics.items()])

    def parse(response: Any) -> Dict[Tuple[str, int], Tuple[int, Any]]:
        out = {}
        for t in response.topics:
            for p in t.partitions:
                offset = p.old_style_offsets[0] if p.old_style_offsets else p.offset
                out[(t.name, p.partition_index)] = (p.error_code, ListOffsetsResultInfo(
                    offset, p.timestamp, p.leader_epoch))
        return out

    engine._check_open()
    # Like librdkafka, find every partition's leader first and fail the whole
    # call when one has none, rather than letting the request wait for it.
    described = engine.describe_topics(sorted({tp.topic for tp, _ in items}), raise_error=False)
    for tp, _ in items:
        found = described.get(tp.topic)
        leaders = {} if isinstance(found, BaseException) or found is None else \
            {p.partition: p.leader for p in found.partitions}
        if leaders.get(tp.partition, -1) < 0:
            raise KafkaException(KafkaError(KafkaError._NOENT,  # type: ignore[attr-defined]
                                            "Failed to query partition leaders: No leaders found"))
    routed = [(EngineTP(tp.topic, tp.partition), ts) for tp, ts in items]
    outcomes = engine._client.dispatch_by_leader(LIST_OFFSETS, routed, build, parse,
                                                 timeout_ms=timeout_ms)
    return {tp: (o.error if o.error is not None else o.value) for (tp, _), o in zip(items, outcomes)}
