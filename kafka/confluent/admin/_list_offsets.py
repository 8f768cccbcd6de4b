"""ListOffsets for :meth:`AdminClient.list_offsets`: offset, timestamp and leader epoch per partition.

The engine's :meth:`~kafka.admin.KafkaAdminClient.list_offsets` does the
lookup; this adds librdkafka's check that every partition has a leader
before anything is sent.
"""

from __future__ import annotations

from typing import Any, Dict, Sequence, Tuple

from kafka.admin import KafkaAdminClient
from kafka.confluent.admin._types import ListOffsetsResultInfo
from kafka.confluent.kafka_error import KafkaError, KafkaException
from kafka.confluent.message import TopicPartition
from kafka.structs import TopicPartition as EngineTP


def list_offsets(engine: KafkaAdminClient, items: Sequence[Tuple[TopicPartition, int]],
                 isolation_level: int, timeout_ms: float) -> Dict[TopicPartition, Any]:
    """``{TopicPartition: ListOffsetsResultInfo or exception}`` for ``(partition, timestamp spec)`` items."""
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
    routed = {EngineTP(tp.topic, tp.partition): ts for tp, ts in items}
    found_offsets = engine.list_offsets(routed, isolation_level, timeout_ms, raise_error=False)
    out: Dict[TopicPartition, Any] = {}
    for tp, _ in items:
        value = found_offsets[EngineTP(tp.topic, tp.partition)]
        out[tp] = value if isinstance(value, BaseException) else \
            ListOffsetsResultInfo(value.offset, value.timestamp, value.leader_epoch)
    return out
