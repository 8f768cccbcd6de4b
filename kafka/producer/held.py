"""Keyed records that ``send()`` holds back, to hash their keys and fill their batches in bulk.

Hashing one key with murmur2 in Python and appending one record to its
batch cost about half of a keyed ``send()``. So once a topic's partitions
are known, ``send()`` only checks a keyed record, takes its bytes from
``buffer_memory`` and adds it to the topic's :class:`HeldRecords`. The
producer hands held records over at its sender thread's next turn (or
sooner: when a group is full, before any other kind of send, and in
``flush()``, ``close()`` and ``purge()``). The hand-over hashes all the keys
at once (:func:`kafka.murmur2.murmur2_partitions`), sorts the records by
partition, keeping their order within each, and appends each partition's
run in one step.

A held record's future points at its group, which answers as a result not
done yet. Anything that waits for the record, or registers a callback on
it, first has the group handed over; from then on the future points at its
batch like any other.
"""

from __future__ import annotations

from collections import deque
from itertools import repeat
from operator import itemgetter
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

from kafka import fast_paths
from kafka.murmur2 import murmur2_partitions
from kafka.producer.accumulator import RecordAccumulator
from kafka.producer.bulk_runs import group_by_partition
from kafka.producer.future import FutureRecordMetadata, ProduceResult
from kafka.structs import TopicPartition

__all__ = ["HeldRecords", "place"]

_drain: Callable[[Iterable[Any]], None] = deque(maxlen=0).extend  # runs an iterator to its end, keeping nothing


class HeldRecords:
    """Keyed records of one topic accepted by ``send()`` and not in a batch yet.

    ``records`` are the accumulator's ``(timestamp, key, value, headers)``
    tuples and ``sizes`` their estimated sizes; ``credit`` is what is left of
    the ``buffer_memory`` bytes taken for the group (``reserved`` in all).
    ``tps`` are the topic's partitions, in order, as the metadata of
    ``version`` gave them.

    Also the stand-in :class:`~kafka.producer.future.ProduceResult` of the
    records' futures until they are placed: not done, no error, and
    ``hand_over()`` places them.
    """

    __slots__ = ("topic", "version", "tps", "records", "sizes", "futures", "reserved", "credit",
                 "hand_over")

    #: What a future reads from its result; a held record has no outcome yet.
    is_held = True
    is_done = False
    parts = None  # never split (see ProduceResult.parts)
    error = None

    def __init__(self, topic: str, version: int, tps: List[TopicPartition], reserved: int,
                 hand_over: Callable[[], None]) -> None:
        self.topic = topic
        self.version = version
        self.tps = tps
        self.records: List[Tuple[int, Optional[bytes], Optional[bytes], Any]] = []
        self.sizes: List[int] = []
        self.futures: List[FutureRecordMetadata] = []
        self.reserved = reserved
        self.credit = reserved
        #: Hands every held group of the producer over, this one included.
        self.hand_over = hand_over


def place(accumulator: RecordAccumulator, held: HeldRecords, failure: Optional[BaseException]) -> bool:
    """Put ``held``'s records in their partitions' batches and bind their futures; True if a batch filled.

    Their memory was reserved when they were held: nothing here waits, and
    what the group did not use goes back. With ``failure`` (the producer
    cannot send any more), or when the accumulator refuses a run (it was
    closed meanwhile), the records not placed fail with that error.
    """
    records, futures, sizes = held.records, held.futures, held.sizes
    tps = held.tps
    runs: Sequence[Tuple[int, Sequence[int]]]  # (partition index, positions of its records in order)
    if len(tps) == 1:
        runs = [(0, range(len(records)))]
    else:
        runs = group_by_partition(murmur2_partitions(list(map(itemgetter(1), records)), len(tps)), len(tps))
    used = 0
    full = False
    try:
        for part, picked in runs:
            if failure is not None:
                _fail(futures, picked, tps[part], failure)
                continue
            placed: List[Tuple[ProduceResult, int, int]] = []
            try:
                _, filled = accumulator.append_many(
                    tps[part], list(map(records.__getitem__, picked)), list(map(sizes.__getitem__, picked)),
                    0.0, placed, reserved=True)
                full = full or filled
            except Exception as exc:  # noqa: BLE001 - the accumulator was closed: the rest fail with it
                failure = exc
            at = 0
            for result, first, n in placed:
                run = picked[at:at + n]
                _bind(futures, run, result, first)
                used += sum(map(sizes.__getitem__, run))
                at += n
            if failure is not None:
                _fail(futures, picked[at:], tps[part], failure)
    finally:
        accumulator.unreserve(held.reserved - used)
    return full


def _bind(futures: List[FutureRecordMetadata], run: Sequence[int], result: ProduceResult, first: int) -> None:
    """Point the futures at positions ``run`` at ``result``, as its records ``first``, ``first + 1``, ..."""
    if fast_paths.PLAIN_LOOPS:  # PyPy: the JIT compiles the loop; setattr through map() looks each name up per call
        for index, position in enumerate(run, first):
            future = futures[position]
            future._result = result
            future._index = index
        return
    group = list(map(futures.__getitem__, run))
    _drain(map(setattr, group, repeat("_result"), repeat(result, len(group))))
    _drain(map(setattr, group, repeat("_index"), range(first, first + len(group))))


def _fail(futures: List[FutureRecordMetadata], picked: Sequence[int], tp: TopicPartition,
          error: BaseException) -> None:
    """Bind the futures of records that could not be placed to a result failed with ``error``."""
    if not picked:
        return
    result = ProduceResult(tp)
    result.done(error=error)
    _drain(map(setattr, map(futures.__getitem__, picked), repeat("_result"), repeat(result)))
