"""Arrow record batches of the source schema, made from decoded columns.

:class:`ColumnBatchBuilder` collects :class:`~kafka.spark.record_columns.RecordColumns`
of one partition and turns them into a ``pyarrow.RecordBatch`` of
:func:`kafka.spark.arrow.arrow_schema` without a Python object per record:
keys and values become binary arrays over the gathered bytes, the other
columns come straight from numpy arrays. Only the headers column, when asked
for and when records carry headers, is built from Python objects.
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pyarrow as pa

from kafka.spark.arrow import arrow_schema
from kafka.spark.record_columns import BinaryColumn, RecordColumns, concat

__all__ = ["ColumnBatchBuilder"]

_MS_TO_US = 1000


def _binary_array(column: BinaryColumn) -> Any:
    lengths = column.lengths
    n = len(lengths)
    offsets = np.zeros(n + 1, np.int32)
    np.cumsum(np.maximum(lengths, 0), out=offsets[1:])
    nulls = lengths < 0
    null_count = int(nulls.sum())
    validity = pa.py_buffer(np.packbits(~nulls, bitorder="little")) if null_count else None
    return pa.Array.from_buffers(pa.binary(), n, [validity, pa.py_buffer(offsets), pa.py_buffer(column.data)],
                                 null_count=null_count)


def _headers_array(columns: RecordColumns, kind: Any) -> Any:
    n = len(columns)
    if columns.headers is None:
        return pa.ListArray.from_arrays(pa.array(np.zeros(n + 1, np.int32)), pa.array([], kind.value_type),
                                        type=kind)
    return pa.array([[{"key": k, "value": v} for k, v in h] for h in columns.headers], kind)


class ColumnBatchBuilder:
    """Accumulates the decoded records of one partition, then makes a ``pyarrow.RecordBatch``."""

    __slots__ = ("topic", "partition", "include_headers", "_parts", "_rows", "_bytes")

    def __init__(self, topic: str, partition: int, include_headers: bool) -> None:
        self.topic = topic
        self.partition = partition
        self.include_headers = include_headers
        self._parts: List[RecordColumns] = []
        self._rows = 0
        self._bytes = 0

    def __len__(self) -> int:
        return self._rows

    @property
    def byte_size(self) -> int:
        """Key and value bytes accumulated so far."""
        return self._bytes

    def add(self, columns: RecordColumns) -> None:
        """Append decoded records."""
        if len(columns):
            self._parts.append(columns)
            self._rows += len(columns)
            self._bytes += len(columns.keys.data) + len(columns.values.data)

    def build(self) -> Any:
        """The accumulated records as one ``pyarrow.RecordBatch``; the builder is emptied."""
        columns = concat(self._parts) if self._parts else RecordColumns.from_records([])
        self._parts, self._rows, self._bytes = [], 0, 0
        n = len(columns)
        schema = arrow_schema(self.include_headers)
        arrays = [
            _binary_array(columns.keys),
            _binary_array(columns.values),
            pa.repeat(pa.scalar(self.topic, pa.string()), n),
            pa.array(np.full(n, self.partition, np.int32)),
            pa.array(columns.offsets),
            # Kafka timestamps are milliseconds; Spark's are microseconds.
            pa.array(columns.timestamps * _MS_TO_US, schema.field("timestamp").type),
            pa.array(columns.timestamp_types),
        ]
        if self.include_headers:
            arrays.append(_headers_array(columns, schema.field("headers").type))
        return pa.RecordBatch.from_arrays(arrays, schema=schema)
