"""What every partition assignor shares: member subscriptions, partition lookup, ordering."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from kafka.group.protocols import EAGER
from kafka.structs import TopicPartition

#: ``{member_id: [TopicPartition, ...]}``, what :meth:`PartitionAssignor.assign` returns.
GroupAssignment = Dict[str, List[TopicPartition]]


class MemberSubscription(NamedTuple):
    """One member's subscription as the group leader sees it.

    The first three fields are what an assignor needs most; a plain
    ``(topics, owned_partitions, user_data)`` tuple is accepted wherever a
    :class:`MemberSubscription` is.
    """

    topics: Sequence[str]
    owned_partitions: Sequence[TopicPartition] = ()
    user_data: Optional[bytes] = None
    generation_id: int = -1
    group_instance_id: Optional[str] = None
    rack_id: Optional[str] = None


def normalize_members(members: Mapping[str, Any]) -> Dict[str, MemberSubscription]:
    """Accept ``{member: MemberSubscription | (topics, owned, user_data, ...) | [topics]}``."""
    out: Dict[str, MemberSubscription] = {}
    for member_id, value in members.items():
        if isinstance(value, MemberSubscription):
            sub = value
        elif isinstance(value, (tuple, list)) and value and not isinstance(value[0], str):
            fields = list(value) + [None] * (6 - len(value))
            sub = MemberSubscription(
                topics=tuple(fields[0] or ()),
                owned_partitions=tuple(TopicPartition(*tp) for tp in (fields[1] or ())),
                user_data=fields[2],
                generation_id=-1 if fields[3] is None else fields[3],
                group_instance_id=fields[4],
                rack_id=fields[5])
        else:  # just the topics
            sub = MemberSubscription(tuple(value))
        out[member_id] = sub._replace(topics=tuple(sub.topics),
                                      owned_partitions=tuple(TopicPartition(*tp) for tp in sub.owned_partitions))
    return out


def partitions_per_topic(source: Any, topics: Iterable[str]) -> Dict[str, List[int]]:
    """Sorted partition numbers of each topic known to ``source``.

    ``source`` is cluster metadata (anything with ``partitions_for_topic``)
    or a mapping ``{topic: partition count | iterable of partition numbers}``.
    Topics it does not know are left out.
    """
    out: Dict[str, List[int]] = {}
    lookup = getattr(source, "partitions_for_topic", None)
    for topic in set(topics):
        if lookup is not None:
            parts: Any = lookup(topic)
        else:
            parts = source.get(topic)
        if parts is None:
            continue
        if isinstance(parts, int):
            parts = range(parts)
        out[topic] = sorted(parts)
    return out


def member_order(member_id: str, sub: MemberSubscription) -> Tuple[int, str, str]:
    """The order Kafka's Java assignors sort members in.

    Static members (with a ``group.instance.id``) come first, by instance
    id; dynamic members follow, by member id. Static members thereby keep
    their place across restarts, which is what makes their assignment
    stable under the range and round-robin assignors.
    """
    if sub.group_instance_id:
        return (0, sub.group_instance_id, member_id)
    return (1, member_id, "")


def sorted_members(subs: Mapping[str, MemberSubscription]) -> List[str]:
    """Member ids in :func:`member_order`."""
    return sorted(subs, key=lambda m: member_order(m, subs[m]))


class PartitionAssignor:
    """Base class of the client-side assignors used by the classic protocol.

    :attr:`name` is the protocol name offered in JoinGroup; :attr:`protocol`
    is ``"eager"`` (members give up every partition before rejoining) or
    ``"cooperative"`` (they keep what they are not asked to give up).
    """

    name = ""
    protocol = EAGER
    #: Version of the assignor's user data (kept for kafka-python parity).
    version = 0

    def metadata(self, topics: Iterable[str], owned: Iterable[TopicPartition]) -> Optional[bytes]:
        """User data to put in this member's subscription (None for none)."""
        return None

    def assign(self, cluster: Any, members: Mapping[str, Any]) -> GroupAssignment:
        """Assign the partitions of the subscribed topics to ``members``.

        :param cluster: cluster metadata or ``{topic: partition count}``.
        :param members: ``{member_id: (topics, owned partitions, user data)}``
            (or :class:`MemberSubscription`).
        :return: ``{member_id: [TopicPartition, ...]}`` with every member present.
        """
        raise NotImplementedError

    def on_assignment(self, partitions: Sequence[TopicPartition], generation_id: int) -> None:
        """Called on every member with its own assignment after each rebalance."""

    def __repr__(self) -> str:
        return "<%s name=%r protocol=%s>" % (type(self).__name__, self.name, self.protocol)


def finish(subs: Mapping[str, MemberSubscription],
           assignment: Mapping[str, Iterable[TopicPartition]]) -> GroupAssignment:
    """Every member present, each list sorted by (topic, partition)."""
    return {m: sorted(assignment.get(m, ())) for m in subs}
