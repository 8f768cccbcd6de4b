"""The round-robin assignor: all partitions dealt out one by one."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from kafka.group.assignors.base import (
    GroupAssignment, PartitionAssignor, finish, normalize_members, partitions_per_topic, sorted_members)
from kafka.structs import TopicPartition


class RoundRobinAssignor(PartitionAssignor):
    """Deal every partition of every subscribed topic to the members in turn.

    Partitions are ordered by topic name then number; members in Java's
    order (static members by instance id, then the others by member id). A
    member not subscribed to a partition's topic is skipped for that
    partition, and the deal resumes after whoever took it. Example: members
    C0 (t0), C1 (t0, t1), C2 (t0, t1, t2) with topics of 1, 2 and 3
    partitions give C0 [t0p0], C1 [t1p0], C2 [t1p1, t2p0, t2p1, t2p2].
    """

    name = "roundrobin"

    def assign(self, cluster: Any, members: Mapping[str, Any]) -> GroupAssignment:
        subs = normalize_members(members)
        subscribed = {m: set(s.topics) for m, s in subs.items()}
        topics = set().union(*subscribed.values()) if subscribed else set()
        partitions = partitions_per_topic(cluster, topics)
        order = sorted_members(subs)
        out: Dict[str, List[TopicPartition]] = {m: [] for m in subs}
        if not order:
            return out
        turn = 0
        for topic in sorted(partitions):
            for p in partitions[topic]:
                # Some member is subscribed to every topic listed here.
                while topic not in subscribed[order[turn]]:
                    turn = (turn + 1) % len(order)
                out[order[turn]].append(TopicPartition(topic, p))
                turn = (turn + 1) % len(order)
        return finish(subs, out)
