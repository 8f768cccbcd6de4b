"""The group leader's reading of the other members' subscriptions.

Each member's JoinGroup metadata was written by that member's client, which
may be another library, another version, or broken. The leader must not let
one unreadable subscription stop the whole group from rebalancing: such a
member is left out of the assignment (it receives no partitions) and is
reported once, and every other member is assigned as usual.
"""

from __future__ import annotations

import logging
import struct
from typing import Any, Dict, List, NamedTuple, Sequence, Set

from kafka import errors
from kafka.group.assignors import MemberSubscription
from kafka.protocol.apis.groups import CONSUMER_PROTOCOL_MAX_VERSION, decode_subscription
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)


class GroupSubscriptions(NamedTuple):
    """What the leader could read of its group's subscriptions."""

    #: readable subscriptions by member id, in the coordinator's order
    members: Dict[str, MemberSubscription]
    #: every member id of the generation, unreadable ones included
    member_ids: List[str]
    #: the consumer-protocol version every readable member understands
    version: int


def _payload_version(data: bytes) -> int:
    return struct.unpack(">h", data[:2])[0] if data and len(data) >= 2 else 0


def read_member(metadata: Any, group_instance_id: Any = None) -> MemberSubscription:
    """Decode one member's consumer-protocol subscription.

    Raises :class:`kafka.errors.ProtocolError` when the bytes are not a
    subscription this library can read.
    """
    if not isinstance(metadata, (bytes, bytearray)):
        raise errors.ProtocolError("the member sent no subscription metadata")
    sub = decode_subscription(bytes(metadata))
    owned = []
    for t in sub.owned_partitions or ():
        for p in t.partitions:
            if p < 0:
                raise errors.ProtocolError("the subscription claims partition %d of %r" % (p, t.topic))
            owned.append(TopicPartition(t.topic, p))
    return MemberSubscription(topics=tuple(sub.topics), owned_partitions=tuple(owned), user_data=sub.user_data,
                              generation_id=sub.generation_id, group_instance_id=group_instance_id,
                              rack_id=sub.rack_id)


def read_subscriptions(group_id: str, members: Sequence[Any], reported: Set[str]) -> GroupSubscriptions:
    """Read every JoinGroup member's subscription, leaving out those that cannot be read.

    ``members`` are the JoinGroup response's members; ``reported`` holds
    the ids of members already reported as unreadable (kept by the caller
    across rebalances, so each is logged as a warning once).
    """
    readable: Dict[str, MemberSubscription] = {}
    member_ids: List[str] = []
    version = CONSUMER_PROTOCOL_MAX_VERSION
    for m in members:
        member_ids.append(m.member_id)
        try:
            readable[m.member_id] = read_member(m.metadata, m.group_instance_id)
        except errors.ProtocolError as exc:
            level = logging.DEBUG if m.member_id in reported else logging.WARNING
            reported.add(m.member_id)
            log.log(level, "group %s: cannot read the subscription of member %s (%s); it gets no partitions",
                    group_id, m.member_id, exc)
            continue
        version = min(version, _payload_version(m.metadata))
    return GroupSubscriptions(readable, member_ids, max(version, 0))
