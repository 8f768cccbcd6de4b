"""Which delivered records are still to be acknowledged, and how, per partition.

A share consumer owns each record it was handed only for the broker's
acquisition lock. The application (or, in implicit mode, the consumer)
marks every in-flight record ACCEPT, RELEASE or REJECT; marked records are
sent with the next request to the partition's leader as acknowledgement
batches and stop being in flight. Offsets that were acquired but carried no
record (compacted away, transaction markers) are acknowledged as GAP.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Tuple

from kafka import errors
from kafka.structs import TopicPartition

GAP = 0
ACCEPT = 1
RELEASE = 2
REJECT = 3
#: The acknowledge types an application may give.
APPLICATION_TYPES = (ACCEPT, RELEASE, REJECT)

#: ``(first offset, last offset, types)``: one type for the whole range, or one per offset.
Batch = Tuple[int, int, List[int]]


def to_batches(marks: Dict[int, int]) -> List[Batch]:
    """Acknowledgement batches for ``{offset: type}``, one per run of consecutive offsets."""
    batches: List[Batch] = []
    run: List[Tuple[int, int]] = []
    for offset in sorted(marks):
        if run and offset != run[-1][0] + 1:
            batches.append(_batch(run))
            run = []
        run.append((offset, marks[offset]))
    if run:
        batches.append(_batch(run))
    return batches


def _batch(run: List[Tuple[int, int]]) -> Batch:
    types = [t for _, t in run]
    if all(t == types[0] for t in types):
        types = types[:1]  # one type stands for the whole range
    return run[0][0], run[-1][0], types


class InFlightRecords:
    """Delivered records per partition: unmarked (None) or marked with an acknowledge type."""

    def __init__(self) -> None:
        self._records: Dict[TopicPartition, Dict[int, Optional[int]]] = {}

    def delivered(self, tp: TopicPartition, offsets: Iterable[int]) -> None:
        """``offsets`` of ``tp`` were handed to the application."""
        marks = self._records.setdefault(tp, {})
        for offset in offsets:
            marks[offset] = None

    def mark(self, tp: TopicPartition, offset: int, ack_type: int) -> None:
        """Record how ``offset`` of ``tp`` is acknowledged; IllegalStateError when it is not in flight."""
        marks = self._records.get(tp)
        if marks is None or offset not in marks:
            raise errors.IllegalStateError("%s-%d offset %d is not in flight" % (tp.topic, tp.partition, offset))
        marks[offset] = ack_type

    def mark_gaps(self, tp: TopicPartition, offsets: Iterable[int]) -> None:
        """Acquired ``offsets`` of ``tp`` that carry no record: acknowledged as GAP."""
        marks = self._records.setdefault(tp, {})
        for offset in offsets:
            marks[offset] = GAP

    def accept_unmarked(self) -> None:
        """Implicit acknowledgement: every unmarked record is accepted."""
        for marks in self._records.values():
            for offset, mark in marks.items():
                if mark is None:
                    marks[offset] = ACCEPT

    def unmarked(self) -> int:
        """How many delivered records are not marked yet."""
        return sum(1 for marks in self._records.values() for mark in marks.values() if mark is None)

    def take_marked(self, tps: Optional[Iterable[TopicPartition]] = None) -> Dict[TopicPartition, Dict[int, int]]:
        """Remove and return the marked records (of ``tps``, or of every partition)."""
        out: Dict[TopicPartition, Dict[int, int]] = {}
        for tp in list(self._records if tps is None else tps):
            marks = self._records.get(tp)
            if not marks:
                continue
            taken = {offset: mark for offset, mark in marks.items() if mark is not None}
            if taken:
                out[tp] = taken
                for offset in taken:
                    del marks[offset]
            if not marks:
                del self._records[tp]
        return out

    def forget(self, tps: Iterable[TopicPartition]) -> None:
        """Drop ``tps`` (no longer assigned: their locks are released by the broker)."""
        for tp in tps:
            self._records.pop(tp, None)
