"""kafka-python's name for the sticky assignor."""

from kafka.group.assignors.sticky import StickyAssignor

#: kafka-python's name; accepted in ``partition_assignment_strategy`` like ``"sticky"``.
StickyPartitionAssignor = StickyAssignor

__all__ = ["StickyPartitionAssignor"]
