"""The consumer protocol's payloads as one member writes and reads them.

A member offers one subscription per assignor in JoinGroup
(:func:`subscription_payload`); the leader sends each member its partitions
through SyncGroup (:func:`assignment_payload`) and each member reads its
own (:func:`assigned_partitions`). The leader's reading of the others'
subscriptions is :mod:`kafka.group.members`.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

from kafka.protocol.apis.groups import (
    CONSUMER_PROTOCOL_ASSIGNMENT, CONSUMER_PROTOCOL_MAX_VERSION, CONSUMER_PROTOCOL_SUBSCRIPTION,
    decode_assignment, encode_assignment, encode_subscription)
from kafka.structs import TopicPartition

_Sub: Any = CONSUMER_PROTOCOL_SUBSCRIPTION.cls
_Asg: Any = CONSUMER_PROTOCOL_ASSIGNMENT.cls


def by_topic(partitions: Iterable[TopicPartition]) -> Dict[str, List[int]]:
    """``{topic: sorted partition numbers}``."""
    out: Dict[str, List[int]] = {}
    for tp in sorted(set(partitions)):
        out.setdefault(tp.topic, []).append(tp.partition)
    return out


def subscription_payload(assignor: Any, topics: Iterable[str], owned: Iterable[TopicPartition],
                         generation_id: int = -1, rack_id: Optional[str] = None) -> bytes:
    """JoinGroup metadata offering ``assignor``: the topics, its user data, the partitions owned."""
    names = sorted(set(topics))
    owned = sorted(owned)
    value = _Sub(topics=names, user_data=assignor.metadata(names, owned),
                 owned_partitions=[_Sub.TopicPartition(topic=t, partitions=ps) for t, ps in by_topic(owned).items()],
                 generation_id=generation_id, rack_id=rack_id)
    return encode_subscription(value, CONSUMER_PROTOCOL_MAX_VERSION)


def assignment_payload(partitions: Iterable[TopicPartition], version: int = 0) -> bytes:
    """SyncGroup assignment bytes handing ``partitions`` to one member (``version``: the group's lowest)."""
    value = _Asg(assigned_partitions=[_Asg.TopicPartition(topic=t, partitions=ps)
                                      for t, ps in by_topic(partitions).items()], user_data=None)
    return encode_assignment(value, version)


def assigned_partitions(data: Optional[bytes]) -> List[TopicPartition]:
    """The partitions a SyncGroup answer's assignment bytes hand this member ([] for none).

    Raises :class:`kafka.errors.ProtocolError` when the bytes cannot be read.
    """
    if not data:
        return []
    assignment = decode_assignment(bytes(data))
    return [TopicPartition(t.topic, p) for t in assignment.assigned_partitions for p in t.partitions]


__all__ = ["assigned_partitions", "assignment_payload", "by_topic", "subscription_payload"]
