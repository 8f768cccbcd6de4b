"""The asyncio consumer's partitions and where it reads each of them.

Plain state, no I/O: :class:`Assignment` holds one :class:`PartitionState`
per assigned partition (position, paused, what the last Fetch answer said of
the log) and a version that changes with every new assignment, so answers
to requests sent before it can be told apart.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Set

from kafka.errors import IllegalStateError
from kafka.structs import TopicPartition

#: Where a partition without a position starts.
EARLIEST, LATEST = "earliest", "latest"


class PartitionState:
    """One assigned partition.

    ``position`` is the offset of the next record to hand out (None until
    it is looked up: the committed offset, else ``reset``).
    """

    __slots__ = ("position", "paused", "highwater", "last_stable_offset", "log_start_offset", "reset")

    def __init__(self) -> None:
        self.position: Optional[int] = None
        self.paused = False
        self.highwater: Optional[int] = None
        self.last_stable_offset: Optional[int] = None
        self.log_start_offset: Optional[int] = None
        #: EARLIEST/LATEST: look the position up there, skipping the committed offset.
        self.reset: Optional[str] = None


class Assignment:
    """The assigned partitions and their states."""

    def __init__(self) -> None:
        self.states: Dict[TopicPartition, PartitionState] = {}
        #: Changes with every :meth:`assign`.
        self.version = 0

    def assign(self, partitions: Iterable[TopicPartition]) -> Set[TopicPartition]:
        """Replace the assignment (partitions kept keep their state); the partitions dropped."""
        wanted = list(partitions)
        for tp in wanted:
            if not isinstance(tp, TopicPartition):
                raise TypeError("partitions must be TopicPartition instances, not %r" % (tp,))
        dropped = set(self.states) - set(wanted)
        self.states = {tp: self.states.get(tp) or PartitionState() for tp in wanted}
        self.version += 1
        return dropped

    def state(self, tp: TopicPartition) -> PartitionState:
        """The state of ``tp``; :class:`~kafka.errors.IllegalStateError` if it is not assigned."""
        state = self.states.get(tp)
        if state is None:
            raise IllegalStateError("partition %s-%d is not assigned" % (tp.topic, tp.partition))
        return state

    def fetchable(self) -> List[TopicPartition]:
        """Assigned, not paused, with a position."""
        return [tp for tp, s in self.states.items() if not s.paused and s.position is not None]

    def without_position(self) -> List[TopicPartition]:
        """Assigned partitions whose position is to be looked up."""
        return [tp for tp, s in self.states.items() if s.position is None]
