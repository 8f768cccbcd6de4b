"""kafka-python's name for the range assignor."""

from kafka.group.assignors.range import RangeAssignor

#: kafka-python's name; accepted in ``partition_assignment_strategy`` like ``"range"``.
RangePartitionAssignor = RangeAssignor

__all__ = ["RangePartitionAssignor"]
