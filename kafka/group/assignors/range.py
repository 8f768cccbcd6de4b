"""The range assignor: each topic's partitions split into contiguous ranges."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from kafka.group.assignors.base import (
    GroupAssignment, PartitionAssignor, finish, member_order, normalize_members, partitions_per_topic)
from kafka.structs import TopicPartition


class RangeAssignor(PartitionAssignor):
    """Per topic, hand consecutive partitions to the members subscribed to it.

    Members are taken in Java's order (static members by instance id, then
    the others by member id); with ``P`` partitions and ``M`` members the
    first ``P % M`` members get ``P // M + 1`` partitions and the rest
    ``P // M``. Two topics with the same partition count are thereby split
    identically, which co-partitioned joins rely on. Example: members C0,
    C1 and topics t0, t1 of 3 partitions each give C0 [t0p0, t0p1, t1p0,
    t1p1] and C1 [t0p2, t1p2].
    """

    name = "range"

    def assign(self, cluster: Any, members: Mapping[str, Any]) -> GroupAssignment:
        subs = normalize_members(members)
        by_topic: Dict[str, List[str]] = {}
        for member_id, sub in subs.items():
            for topic in set(sub.topics):
                by_topic.setdefault(topic, []).append(member_id)
        partitions = partitions_per_topic(cluster, by_topic)
        out: Dict[str, List[TopicPartition]] = {m: [] for m in subs}
        for topic in sorted(by_topic):
            parts = partitions.get(topic)
            if not parts:
                continue
            consumers = sorted(by_topic[topic], key=lambda m: member_order(m, subs[m]))
            each, extra = divmod(len(parts), len(consumers))
            for i, member_id in enumerate(consumers):
                start = each * i + min(i, extra)
                count = each + (1 if i < extra else 0)
                out[member_id].extend(TopicPartition(topic, p) for p in parts[start:start + count])
        return finish(subs, out)
