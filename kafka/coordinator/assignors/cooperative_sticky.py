"""kafka-python's name for the cooperative sticky assignor."""

from kafka.group.assignors.sticky import CooperativeStickyAssignor

#: kafka-python's name; accepted in ``partition_assignment_strategy`` like ``"cooperative-sticky"``.
CooperativeStickyPartitionAssignor = CooperativeStickyAssignor

__all__ = ["CooperativeStickyPartitionAssignor"]
