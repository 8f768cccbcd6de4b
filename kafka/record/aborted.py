"""Which record batches of one partition's Fetch answer a reader leaves out.

Control batches (transaction markers) never hold records for a reader. A
``read_committed`` reader also leaves out the records of aborted
transactions. A broker does not remove those from what it sends: with each
partition's answer it lists the aborted transactions the answer overlaps, each
as a producer id and the offset of the transaction's first record. The
transactional batches of such a producer, from that offset until the
producer's ABORT marker, are left out; its next transaction is read.

A listed transaction is under way from the first batch (data or marker)
whose last offset reaches its first offset, so an answer that begins with a
transaction's ABORT marker ends that transaction before the producer's next
one, as the Java consumer has it. The consumer's fetcher and the Spark
reader both read batches through :func:`batch_filter`.
"""

from __future__ import annotations

import heapq
from typing import Any, Callable, Iterable, List, Optional, Set, Tuple, Union

from kafka.record.record import ControlRecord, ControlRecordType

__all__ = ["AbortedTransactions", "batch_filter"]

#: One listed aborted transaction: a ``(producer id, first offset)`` pair, or
#: the ``AbortedTransaction`` entry of a Fetch response (``producer_id``,
#: ``first_offset``).
AbortedEntry = Union[Tuple[int, int], Any]


def _pair(entry: AbortedEntry) -> Tuple[int, int]:
    """``(first offset, producer id)`` of a listed transaction (the order the heap wants)."""
    if isinstance(entry, tuple):
        producer_id, first_offset = entry
        return first_offset, producer_id
    return entry.first_offset, entry.producer_id


class AbortedTransactions:
    """The aborted-transactions list of one partition's Fetch answer, applied to its batches in log order."""

    __slots__ = ("_pending", "_aborting")

    def __init__(self, aborted: Optional[Iterable[AbortedEntry]]) -> None:
        #: (first offset, producer id) of the listed transactions not reached yet
        self._pending: List[Tuple[int, int]] = [_pair(entry) for entry in aborted or ()]
        heapq.heapify(self._pending)
        #: producers whose aborted transaction has begun and whose ABORT marker has not been read
        self._aborting: Set[int] = set()

    def skips(self, batch: Any) -> bool:
        """Whether ``batch`` holds no records for a read_committed reader.

        Call it for every batch of the answer, in order, those before the
        reader's position included: each moves the listed transactions along.
        """
        if not (batch.is_transactional or batch.is_control_batch):
            return False
        pending = self._pending
        while pending and pending[0][0] <= batch.last_offset:
            self._aborting.add(heapq.heappop(pending)[1])
        if batch.is_control_batch:
            if any(isinstance(control, ControlRecord) and control.control_type == ControlRecordType.ABORT
                   for control in batch):
                self._aborting.discard(batch.producer_id)
            return True
        return batch.producer_id in self._aborting


def _is_control(batch: Any) -> bool:
    control: bool = batch.is_control_batch
    return control


def batch_filter(read_committed: bool, aborted: Optional[Iterable[AbortedEntry]] = None) -> Callable[[Any], bool]:
    """``skips(batch)``: whether a reader leaves ``batch`` out, for the batches of one answer in log order.

    A read_uncommitted reader leaves out control batches only; a
    read_committed one also the batches of the ``aborted`` transactions
    (see :class:`AbortedTransactions`).
    """
    return AbortedTransactions(aborted).skips if read_committed else _is_control
