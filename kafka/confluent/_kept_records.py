"""The producer facade's records between produce() and their delivery report, kept as columns.

:class:`kafka.confluent.Producer` keeps the records of each partition back
in a :class:`KeptRun` until it hands them to the engine in bulk, and then
keeps them until their batch completes and poll() reports them
(:class:`ReportGroup`: a range of one run sharing one outcome).

A run holds one list per field rather than a tuple per record. On PyPy
a list of ints or floats stores them unboxed, so a record without key,
headers or callback costs three list slots (timestamp, value, size) and no
object of its own: records wait here for a while (until their batch is
acknowledged and poll() is called), long enough for PyPy's collector to
copy and trace every object they own. Keys, headers and callbacks get a
column only once a record of the run has one.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

from kafka.producer.batch import ValueColumns
from kafka.producer.future import ProduceResult

Headers = Tuple[Tuple[str, Optional[bytes]], ...]
#: A record as the engine's queue_prepared() takes it: (timestamp ms, key, value, headers).
Record = Tuple[int, Optional[bytes], Optional[bytes], Optional[Headers]]


def _column_with(column: Optional[List[Any]], count: int, item: Any) -> List[Any]:
    """``column`` with ``item`` appended; a column not made yet is made, None for the ``count`` before."""
    if column is None:
        column = [None] * count
    column.append(item)
    return column


class KeptRun:
    """Records of one partition, in produce() order, as columns.

    ``stamps`` (ms), ``values`` and ``sizes`` (each record's estimated
    size in a batch) have an entry per record; ``keys``, ``headers`` and
    ``callbacks`` are None while every record so far has none, and
    ``started`` (the monotonic time of each produce(), for the report's
    latency) is kept along with ``callbacks``. ``data_bytes`` sums the
    records' key and value lengths, as ``queue.buffering.max.kbytes`` counts
    them. A run is not changed once it is handed to the engine.
    """

    __slots__ = ("stamps", "values", "sizes", "keys", "headers", "callbacks", "started", "since", "data_bytes")

    def __init__(self, since: float) -> None:
        self.stamps: List[int] = []
        self.values: List[Optional[bytes]] = []
        self.sizes: List[int] = []
        self.keys: Optional[List[Optional[bytes]]] = None
        self.headers: Optional[List[Optional[Headers]]] = None
        self.callbacks: Optional[List[Optional[Callable[..., Any]]]] = None
        self.started: Optional[List[float]] = None
        #: The monotonic time of the first record's produce().
        self.since = since
        self.data_bytes = 0

    def __len__(self) -> int:
        return len(self.values)

    def add(self, stamp: int, key: Optional[bytes], value: Optional[bytes], headers: Optional[Headers],
            data_bytes: int, size: int, callback: Optional[Callable[..., Any]], started: float) -> None:
        """Keep one record: ``data_bytes`` is its key and value length, ``size`` its estimated batch size."""
        count = len(self.values)
        if key is not None or self.keys is not None:
            self.keys = _column_with(self.keys, count, key)
        if headers is not None or self.headers is not None:
            self.headers = _column_with(self.headers, count, headers)
        if callback is not None or self.callbacks is not None:
            self.callbacks = _column_with(self.callbacks, count, callback)
            if self.started is None:
                self.started = [started] * count
            self.started.append(started)
        self.stamps.append(stamp)
        self.values.append(value)
        self.sizes.append(size)
        self.data_bytes += data_bytes

    def for_engine(self) -> Union[ValueColumns, List[Record]]:
        """The records as the engine's queue_prepared() takes them: columns when none has a key or headers."""
        if self.keys is None and self.headers is None:
            return ValueColumns(self.stamps, self.values)
        count = len(self.values)
        keys = self.keys if self.keys is not None else [None] * count
        headers = self.headers if self.headers is not None else [None] * count
        return list(zip(self.stamps, keys, self.values, headers))

    def record(self, index: int) -> Record:
        """Record ``index`` as ``(timestamp ms, key, value, headers)``."""
        return (self.stamps[index], self.keys[index] if self.keys is not None else None, self.values[index],
                self.headers[index] if self.headers is not None else None)

    def bytes_between(self, start: int, stop: int) -> int:
        """The key and value bytes of records ``start..stop-1``."""
        if start == 0 and stop == len(self.values):
            return self.data_bytes
        return (_lengths(self.values, start, stop)
                + (_lengths(self.keys, start, stop) if self.keys is not None else 0))

    def has_callback_between(self, start: int, stop: int) -> bool:
        """Whether any record of ``start..stop-1`` has a delivery report callback."""
        callbacks = self.callbacks
        if callbacks is None:
            return False
        for index in range(start, stop):
            if callbacks[index] is not None:
                return True
        return False


def _lengths(column: Sequence[Optional[bytes]], start: int, stop: int) -> int:
    total = 0
    for index in range(start, stop):
        item = column[index]
        if item:
            total += len(item)
    return total


class ReportGroup:
    """Delivery reports to serve: records ``start..stop-1`` of a run, sharing one outcome.

    Either records in one engine batch (``result`` is its
    :class:`~kafka.producer.future.ProduceResult`; record ``start + i`` has
    offset ``base offset + first + i``) or records that failed here
    (``error``). ``skip`` counts leading records whose report was served
    already (their callback raised there); they still count in len() until
    the group is served.
    """

    __slots__ = ("topic", "partition", "run", "start", "stop", "result", "first", "error", "skip")

    def __init__(self, topic: str, partition: int, run: KeptRun, start: int, stop: int,
                 result: Optional[ProduceResult], first: int, error: Any, skip: int = 0) -> None:
        self.topic = topic
        self.partition = partition
        self.run = run
        self.start = start
        self.stop = stop
        self.result = result
        self.first = first
        self.error = error
        self.skip = skip

    def __len__(self) -> int:
        return self.stop - self.start

    def data_bytes(self) -> int:
        """The key and value bytes of the group's records."""
        return self.run.bytes_between(self.start, self.stop)

    def by_outcome(self) -> List["ReportGroup"]:
        """The group, or the groups of its records by the half batch that wrote them when the batch was split."""
        result = self.result
        if result is None or result.parts is None:
            return [self]
        groups = []
        start = self.start
        for leaf, first, count in result.leaves(self.first, self.stop - self.start):
            groups.append(ReportGroup(self.topic, self.partition, self.run, start, start + count, leaf, first,
                                      self.error, skip=min(max(self.skip - (start - self.start), 0), count)))
            start += count
        return groups

    def rest_from(self, index: int) -> "ReportGroup":
        """Records ``index..`` of the group, the first of them already reported (its callback raised)."""
        return ReportGroup(self.topic, self.partition, self.run, index, self.stop, self.result,
                           self.first + index - self.start, self.error, skip=1)
