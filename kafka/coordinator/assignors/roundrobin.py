"""kafka-python's name for the round-robin assignor."""

from kafka.group.assignors.roundrobin import RoundRobinAssignor

#: kafka-python's name; accepted in ``partition_assignment_strategy`` like ``"roundrobin"``.
RoundRobinPartitionAssignor = RoundRobinAssignor

__all__ = ["RoundRobinPartitionAssignor"]
