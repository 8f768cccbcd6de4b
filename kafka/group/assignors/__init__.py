"""Client-side partition assignors for the classic group protocol.

``range``, ``roundrobin``, ``sticky`` and ``cooperative-sticky``, each an
object with ``name``, ``protocol`` (``"eager"`` or ``"cooperative"``),
``metadata(topics, owned) -> bytes | None`` (the subscription's user data),
``assign(cluster, members) -> {member_id: [TopicPartition]}`` and
``on_assignment(partitions, generation_id)``. :func:`lookup` turns a name,
class or instance into an assignor object.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Type

from kafka import errors
from kafka.group.assignors.base import GroupAssignment, MemberSubscription, PartitionAssignor
from kafka.group.assignors.range import RangeAssignor
from kafka.group.assignors.roundrobin import RoundRobinAssignor
from kafka.group.assignors.sticky import CooperativeStickyAssignor, StickyAssignor

#: Assignor classes by protocol name (Java's short names and class names).
ASSIGNORS: Dict[str, Type[PartitionAssignor]] = {
    "range": RangeAssignor,
    "roundrobin": RoundRobinAssignor,
    "sticky": StickyAssignor,
    "cooperative-sticky": CooperativeStickyAssignor,
    "org.apache.kafka.clients.consumer.RangeAssignor": RangeAssignor,
    "org.apache.kafka.clients.consumer.RoundRobinAssignor": RoundRobinAssignor,
    "org.apache.kafka.clients.consumer.StickyAssignor": StickyAssignor,
    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor": CooperativeStickyAssignor,
}


def lookup(spec: Any) -> Any:
    """An assignor object for a name, an assignor class or an assignor instance."""
    if isinstance(spec, str):
        try:
            return ASSIGNORS[spec]()
        except KeyError:
            raise errors.KafkaConfigurationError(
                "unknown partition assignment strategy %r (known: range, roundrobin, sticky, "
                "cooperative-sticky)" % spec) from None
    if isinstance(spec, type):
        spec = spec()
    if not getattr(spec, "name", None) or not callable(getattr(spec, "assign", None)):
        raise errors.KafkaConfigurationError("%r is not a partition assignor (needs name and assign)" % (spec,))
    return spec


def lookup_all(specs: Any) -> List[Any]:
    """Assignor objects for a list of specs (a single spec is accepted too)."""
    if isinstance(specs, (str, type)) or not isinstance(specs, (list, tuple)):
        specs = [specs]
    assignors = [lookup(s) for s in specs]
    if not assignors:
        raise errors.KafkaConfigurationError("partition_assignment_strategy names no assignor")
    names = [a.name for a in assignors]
    if len(set(names)) != len(names):
        raise errors.KafkaConfigurationError("partition_assignment_strategy lists %s twice" % names)
    return assignors


def rebalance_protocol(assignors: Sequence[Any]) -> str:
    """``"cooperative"`` only if every configured assignor supports it (as in Java)."""
    protocols = {getattr(a, "protocol", "eager") for a in assignors}
    return "cooperative" if protocols == {"cooperative"} else "eager"


__all__ = [
    "ASSIGNORS", "CooperativeStickyAssignor", "GroupAssignment", "MemberSubscription", "PartitionAssignor",
    "RangeAssignor", "RoundRobinAssignor", "StickyAssignor", "lookup", "lookup_all", "rebalance_protocol",
]
