"""Column arithmetic for :meth:`KafkaProducer.send_batch`, without a Python step per record.

Each helper works on whole lists with C-level iteration (``map``,
``itertools.accumulate``, ``bisect``, ``sorted``) so that the cost per
record of a large ``send_batch`` stays a few tens of nanoseconds; on PyPy,
whose JIT compiles plain loops, the prefix sums and the grouping are plain
loops (the ``PLAIN_LOOPS`` fast path of :mod:`kafka.fast_paths`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from itertools import accumulate
from typing import Iterator, List, Optional, Sequence, Tuple

from kafka import fast_paths


def prefix_sums(sizes: Sequence[int]) -> List[int]:
    """``[0, sizes[0], sizes[0] + sizes[1], ...]`` (one more item than ``sizes``)."""
    if not fast_paths.PLAIN_LOOPS:
        return list(accumulate(sizes, initial=0))
    # PyPy's JIT runs the plain loop about twice as fast as accumulate().
    sums = [0] * (len(sizes) + 1)
    total = 0
    for i, size in enumerate(sizes, 1):
        total += size
        sums[i] = total
    return sums


def fill(sums: Sequence[int], start: int, room: int) -> int:
    """The end of the longest run from ``start`` whose sizes add up to at most ``room``.

    ``sums`` are the :func:`prefix_sums` of the sizes; the result ``stop``
    satisfies ``start <= stop`` and ``sums[stop] - sums[start] <= room``.
    """
    return bisect_right(sums, sums[start] + room, start) - 1


def sticky_runs(sizes: Sequence[int], limit: int,
                sums: Optional[Sequence[int]] = None) -> Iterator[Tuple[int, int]]:
    """``(start, stop)`` runs of records for successive sticky partitions.

    A run ends with the record that brings its total to ``limit`` or more
    (or with the last record), as the record-by-record loop of
    :meth:`KafkaProducer.send` does when it moves on to the next partition.
    ``sums``: the :func:`prefix_sums` of ``sizes``, if the caller has them.
    """
    if sums is None:
        sums = prefix_sums(sizes)
    n = len(sizes)
    start = 0
    while start < n:
        # The first record whose running total reaches ``limit`` closes the run.
        stop = bisect_left(sums, sums[start] + limit, start + 1) if limit > 0 else start + 1
        stop = min(stop, n)
        yield start, stop
        start = stop


def group_by_partition(indices: List[int], count: int) -> List[Tuple[int, List[int]]]:
    """``[(partition index, positions of its records in order)]`` for per-record partition ``indices``.

    A stable sort on the partition keeps each partition's records in their
    given order; on PyPy, a plain loop into one list per partition does
    (its JIT compiles the loop, while the sort calls its key per item).
    """
    if fast_paths.PLAIN_LOOPS:
        buckets: List[List[int]] = [[] for _ in range(count)]
        for position, index in enumerate(indices):
            buckets[index].append(position)
        return [(index, positions) for index, positions in enumerate(buckets) if positions]
    order = sorted(range(len(indices)), key=indices.__getitem__)
    out = []
    start = 0
    for index, size in sorted(Counter(indices).items()):
        out.append((index, order[start:start + size]))
        start += size
    return out
