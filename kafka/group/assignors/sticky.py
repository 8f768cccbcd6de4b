"""Sticky assignors: balanced assignments that move as few partitions as possible.

Both assignors here compute the same assignment:

1. every partition still owned by a member that remains subscribed to its
   topic stays with that member (when several members claim a partition,
   the claim made in the highest generation wins; a tie voids the claim);
2. partitions without an owner go, hardest-to-place first (fewest eligible
   members), to the eligible member holding the fewest partitions;
3. while the most loaded member that can give a partition away holds at
   least two more than an eligible member with the fewest, one partition
   moves there (one it did not own before, if it has any).

When all members subscribe to the same topics the result is balanced
within one partition; with differing subscriptions no single move can
improve it. A member never keeps fewer than ``min(previously owned,
partitions // members)`` of its partitions when subscriptions are equal.

``sticky`` is eager: a member gives up all partitions before rejoining and
remembers its previous assignment in its subscription's user data (in the
layout Kafka's Java ``StickyAssignor`` uses). ``cooperative-sticky``
(KIP-429) relies on the owned partitions the subscription carries, and
holds back every partition that moves between members: the old owner is
asked to revoke it first, rejoins, and the partition is assigned in the
following rebalance.
"""

from __future__ import annotations

import logging
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from kafka.group.assignors.base import (
    GroupAssignment, MemberSubscription, PartitionAssignor, finish, normalize_members, partitions_per_topic,
    sorted_members)
from kafka.group.protocols import COOPERATIVE
from kafka.protocol.schema import Field, Struct
from kafka.protocol.types import INT32, STRING, Array
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

# User data of Java's StickyAssignor: the member's previous assignment, and
# from v1 the generation it was made in. Neither carries a version prefix:
# readers try v1 and fall back to v0.
_STICKY_TOPIC = Struct("StickyTopicPartitions", Field("topic", STRING), Field("partitions", Array(INT32)))
STICKY_USER_DATA = Struct(
    "StickyAssignorUserData",
    Field("previous_assignment", Array(_STICKY_TOPIC)),
    Field("generation", INT32, "1+", default=-1),
)
# User data of Java's CooperativeStickyAssignor: only the generation.
COOPERATIVE_USER_DATA = Struct("CooperativeStickyAssignorUserData", Field("generation", INT32))


def _group_by_topic(partitions: Sequence[TopicPartition]) -> Dict[str, List[int]]:
    by_topic: Dict[str, List[int]] = {}
    for tp in sorted(set(partitions)):
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    return by_topic


def encode_sticky_user_data(partitions: Sequence[TopicPartition], generation: int) -> bytes:
    """The StickyAssignor user data (v1) for ``partitions`` owned in ``generation``."""
    topics = [_STICKY_TOPIC.cls(topic=t, partitions=ps) for t, ps in _group_by_topic(partitions).items()]
    value = STICKY_USER_DATA.cls(previous_assignment=topics, generation=generation)
    out = bytearray()
    STICKY_USER_DATA.writer(1, False)(out, value)
    return bytes(out)


def decode_sticky_user_data(data: Optional[bytes]) -> Tuple[List[TopicPartition], int]:
    """``(previous assignment, generation)``; generation -1 when absent or unreadable."""
    if not data:
        return [], -1
    for version in (1, 0):
        try:
            value, end = STICKY_USER_DATA.reader(version, False)(data, 0)
        except Exception:  # noqa: BLE001 - any malformed bytes mean "try the older layout"
            continue
        if version == 1 and end != len(data):
            continue
        parts = [TopicPartition(t.topic, p) for t in value.previous_assignment for p in t.partitions]
        return parts, (value.generation if version == 1 else -1)
    log.warning("ignoring unreadable sticky assignor user data (%d bytes)", len(data))
    return [], -1


def encode_cooperative_user_data(generation: int) -> bytes:
    """The CooperativeStickyAssignor user data: the generation."""
    out = bytearray()
    COOPERATIVE_USER_DATA.writer(0, False)(out, COOPERATIVE_USER_DATA.cls(generation=generation))
    return bytes(out)


def decode_cooperative_user_data(data: Optional[bytes]) -> int:
    """The generation in CooperativeStickyAssignor user data, or -1."""
    if not data or len(data) < 4:
        return -1
    try:
        value, _ = COOPERATIVE_USER_DATA.reader(0, False)(data, 0)
    except Exception:  # noqa: BLE001
        return -1
    return value.generation


# -- the shared algorithm ------------------------------------------------------------------


def resolve_owners(subs: Mapping[str, MemberSubscription], partitions: Mapping[str, List[int]],
                   claims: Mapping[str, Tuple[Sequence[TopicPartition], int]]
                   ) -> Tuple[Dict[TopicPartition, str], Dict[TopicPartition, Set[str]]]:
    """Decide who owns what from members' claims ``{member: (partitions, generation)}``.

    A claim counts only for a partition that still exists, of a topic the
    member still subscribes to. Returns ``(owners, disputed)``: the owner
    of each claimed partition, and partitions whose highest-generation claim
    is shared by several members (owned by none of them).
    """
    existing = {t: set(ps) for t, ps in partitions.items()}
    by_partition: Dict[TopicPartition, List[Tuple[int, str]]] = {}
    for member_id, (owned, generation) in claims.items():
        topics = set(subs[member_id].topics)
        for tp in set(owned):
            if tp.topic in topics and tp.partition in existing.get(tp.topic, ()):
                by_partition.setdefault(tp, []).append((generation, member_id))
    owners: Dict[TopicPartition, str] = {}
    disputed: Dict[TopicPartition, Set[str]] = {}
    for tp, found in by_partition.items():
        best = max(g for g, _ in found)
        winners = {m for g, m in found if g == best}
        if len(winners) == 1:
            owners[tp] = winners.pop()
        else:
            log.warning("%s-%d is claimed by %s in the same generation %d; none keeps it",
                        tp.topic, tp.partition, sorted(winners), best)
            disputed[tp] = winners
    return owners, disputed


def balanced_assignment(subs: Mapping[str, MemberSubscription], partitions: Mapping[str, List[int]],
                        owners: Mapping[TopicPartition, str]) -> Dict[str, Set[TopicPartition]]:
    """Keep ``owners``' partitions, place the rest, then even out loads (see the module notes)."""
    order = sorted_members(subs)
    rank = {m: i for i, m in enumerate(order)}
    eligible: Dict[str, List[str]] = {
        t: [m for m in order if t in set(subs[m].topics)] for t in partitions}
    assigned: Dict[str, Set[TopicPartition]] = {m: set() for m in subs}
    for tp, member_id in owners.items():
        assigned[member_id].add(tp)

    def least_loaded(topic: str) -> str:
        return min(eligible[topic], key=lambda m: (len(assigned[m]), rank[m]))

    unplaced = [TopicPartition(t, p) for t, ps in partitions.items() if eligible[t] for p in ps
                if TopicPartition(t, p) not in owners]
    unplaced.sort(key=lambda tp: (len(eligible[tp.topic]), tp))
    for tp in unplaced:
        assigned[least_loaded(tp.topic)].add(tp)

    # Even out: take from the most loaded member that can give something
    # (a partition it did not own before if possible), to an eligible
    # member holding at least two fewer.
    while True:
        moved = False
        for source in sorted(assigned, key=lambda m: (-len(assigned[m]), rank[m])):
            load = len(assigned[source])
            if load < 2:
                break
            for tp in sorted(assigned[source], key=lambda tp: (owners.get(tp) == source, tp)):
                target = least_loaded(tp.topic)
                if load - len(assigned[target]) >= 2:
                    assigned[source].discard(tp)
                    assigned[target].add(tp)
                    moved = True
                    break
            if moved:
                break
        if not moved:
            return assigned


class StickyAssignor(PartitionAssignor):
    """Eager sticky assignment (Kafka's ``sticky``); see the module notes."""

    name = "sticky"

    def __init__(self) -> None:
        self._previous: List[TopicPartition] = []
        self._generation = -1

    def metadata(self, topics: Any, owned: Any) -> Optional[bytes]:
        # Eager members have already given their partitions up when they
        # rejoin: what they held is remembered here and sent as user data.
        if not self._previous and self._generation < 0:
            return None
        return encode_sticky_user_data(self._previous, self._generation)

    def on_assignment(self, partitions: Sequence[TopicPartition], generation_id: int) -> None:
        self._previous = [TopicPartition(*tp) for tp in partitions]
        self._generation = generation_id

    def _claims(self, subs: Mapping[str, MemberSubscription]) -> Dict[str, Tuple[Sequence[TopicPartition], int]]:
        claims: Dict[str, Tuple[Sequence[TopicPartition], int]] = {}
        for member_id, sub in subs.items():
            previous, generation = decode_sticky_user_data(sub.user_data)
            if not previous and sub.owned_partitions:
                previous, generation = list(sub.owned_partitions), sub.generation_id
            claims[member_id] = (previous, generation)
        return claims

    def assign(self, cluster: Any, members: Mapping[str, Any]) -> GroupAssignment:
        subs = normalize_members(members)
        topics = set().union(*(set(s.topics) for s in subs.values())) if subs else set()
        partitions = partitions_per_topic(cluster, topics)
        owners, _ = resolve_owners(subs, partitions, self._claims(subs))
        return finish(subs, balanced_assignment(subs, partitions, owners))


class CooperativeStickyAssignor(StickyAssignor):
    """Cooperative sticky assignment (Kafka's ``cooperative-sticky``, KIP-429).

    Same target as :class:`StickyAssignor`, but a partition that moves from
    one member to another is left out of the new owner's assignment until
    the old owner has revoked it (in the next rebalance).
    """

    name = "cooperative-sticky"
    protocol = COOPERATIVE

    def metadata(self, topics: Any, owned: Any) -> Optional[bytes]:
        return encode_cooperative_user_data(self._generation)

    def _claims(self, subs: Mapping[str, MemberSubscription]) -> Dict[str, Tuple[Sequence[TopicPartition], int]]:
        claims: Dict[str, Tuple[Sequence[TopicPartition], int]] = {}
        for member_id, sub in subs.items():
            generation = sub.generation_id if sub.generation_id >= 0 else decode_cooperative_user_data(sub.user_data)
            claims[member_id] = (list(sub.owned_partitions), generation)
        return claims

    def assign(self, cluster: Any, members: Mapping[str, Any]) -> GroupAssignment:
        subs = normalize_members(members)
        topics = set().union(*(set(s.topics) for s in subs.values())) if subs else set()
        partitions = partitions_per_topic(cluster, topics)
        owners, disputed = resolve_owners(subs, partitions, self._claims(subs))
        target = balanced_assignment(subs, partitions, owners)
        out: Dict[str, List[TopicPartition]] = {}
        for member_id, parts in target.items():
            out[member_id] = [tp for tp in parts
                              if owners.get(tp, member_id) == member_id
                              and disputed.get(tp, {member_id}) == {member_id}]
        return finish(subs, out)
