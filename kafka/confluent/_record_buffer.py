"""Fetched records waiting to be handed out by ``Consumer.poll()``/``consume()``.

The engine's ``poll()`` returns one list of rows per partition; they are kept
as those lists, with a read position in the first, so handing out a run of
records is one list slice instead of a step per record.
"""

from __future__ import annotations

import collections
from typing import Any, Deque, Dict, List, Optional, Set, Tuple

from kafka.record.rows import OFFSET, PARTITION, TOPIC
from kafka.structs import TopicPartition as EngineTP


class RecordBuffer:
    """A queue of engine record rows, stored as per-partition runs."""

    __slots__ = ("_runs", "_count")

    def __init__(self) -> None:
        # Each entry is [rows of one partition, index of the next row to hand out].
        self._runs: Deque[List[Any]] = collections.deque()
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    def extend(self, rows: List[Any]) -> None:
        """Queue ``rows``, all of one partition, in offset order."""
        if rows:
            self._runs.append([rows, 0])
            self._count += len(rows)

    def take(self, limit: int) -> List[Any]:
        """Remove and return up to ``limit`` (at least 1) rows, all of the next row's partition."""
        run = self._runs[0]
        rows, start = run
        end = min(start + max(limit, 1), len(rows))
        if end == len(rows):
            self._runs.popleft()
            taken = rows if start == 0 else rows[start:]
        else:
            run[1] = end
            taken = rows[start:end]
        self._count -= end - start
        return taken

    def holds(self, topic: str, partition: int) -> bool:
        """Whether a row of that partition is buffered."""
        for rows, start in self._runs:
            row = rows[start]
            if row[PARTITION] == partition and row[TOPIC] == topic:
                return True
        return False

    def partitions(self) -> Set[Tuple[str, int]]:
        """``(topic, partition)`` of every partition with buffered rows."""
        return {(rows[start][TOPIC], rows[start][PARTITION]) for rows, start in self._runs}

    def drop(self, tps: Optional[Set[EngineTP]]) -> Dict[EngineTP, int]:
        """Remove the rows of ``tps`` (all when None); return each dropped partition's first offset."""
        first: Dict[EngineTP, int] = {}
        kept: Deque[List[Any]] = collections.deque()
        for run in self._runs:
            rows, start = run
            row = rows[start]
            etp = EngineTP(row[TOPIC], row[PARTITION])
            if tps is None or etp in tps:
                first.setdefault(etp, row[OFFSET])
                self._count -= len(rows) - start
            else:
                kept.append(run)
        self._runs = kept
        return first
