"""Which batches of one Fetch response a ``read_committed`` reader leaves out.

A broker does not remove the records of aborted transactions from what it
sends; it lists, with each partition's answer, the aborted transactions the
answer overlaps: a producer id and the offset of that transaction's first
record. The records of such a producer, from that offset until the producer's
ABORT marker (a control batch), are left out. Control batches are never
records for the reader. This is the rule of :mod:`kafka.consumer.fetcher`,
except that a marker, too, takes in the listed transactions that begin at or
before it (as the Java consumer does), so that an answer beginning with an
ABORT marker does not leave the producer's next transaction out.
"""

from __future__ import annotations

import heapq
from typing import Any, Iterable, List, Set, Tuple

from kafka.record.record import ControlRecord, ControlRecordType

__all__ = ["AbortedTransactions"]


class AbortedTransactions:
    """The aborted-transactions list of one partition's Fetch answer, applied batch by batch in log order."""

    __slots__ = ("_pending", "_aborting")

    def __init__(self, aborted: Iterable[Any]) -> None:
        #: (first offset, producer id) of the listed transactions not reached yet
        self._pending: List[Tuple[int, int]] = [(a.first_offset, a.producer_id) for a in aborted or ()]
        heapq.heapify(self._pending)
        #: producers whose aborted transaction has begun and whose ABORT marker has not been seen
        self._aborting: Set[int] = set()

    def skips(self, batch: Any) -> bool:
        """Whether ``batch`` holds no records for a read_committed reader (called for every batch, in order)."""
        if not (batch.is_transactional or batch.is_control_batch):
            return False
        # Transactions listed as starting in this batch or before it are under
        # way, markers included: a response may begin with a transaction's
        # ABORT marker, which must end it before the producer's next one.
        pending = self._pending
        while pending and pending[0][0] <= batch.last_offset:
            self._aborting.add(heapq.heappop(pending)[1])
        if batch.is_control_batch:
            if any(isinstance(control, ControlRecord) and control.control_type == ControlRecordType.ABORT
                   for control in batch):
                self._aborting.discard(batch.producer_id)
            return True
        return batch.producer_id in self._aborting
