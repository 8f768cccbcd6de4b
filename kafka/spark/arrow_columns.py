"""Arrow record batches of the source schema, made from decoded columns.

:class:`ColumnBatchBuilder` collects :class:`~kafka.spark.columnar_decode.RecordColumns`
of one partition and turns them into a ``pyarrow.RecordBatch`` of
:func:`kafka.spark.arrow.arrow_schema` without a Python object per record:
keys and values become binary arrays over the gathered bytes, the other
columns come straight from numpy arrays. Only the headers of records that
have some are handled as Python objects (one per header).
"""

from __future__ import annotations

from typing import Any, List

import numpy as np
import pyarrow as pa

from kafka.spark.arrow import arrow_schema
from kafka.spark.columnar_decode import BinaryColumn, RecordColumns, concat

__all__ = ["ColumnBatchBuilder"]

_MS_TO_US = 1000


# Every array is made from its buffers: besides being direct, this keeps
# pyarrow from importing pandas (which pa.array() and pa.scalar() do, at a
# cost of about 0.25 s in each new Spark Python worker).

def _binary_array(column: BinaryColumn, kind: Any) -> Any:
    """A ``kind`` (binary or UTF-8 string) array of ``column``."""
    lengths = column.lengths
    n = len(lengths)
    offsets = np.zeros(n + 1, np.int32)
    np.cumsum(np.maximum(lengths, 0), out=offsets[1:])
    nulls = lengths < 0
    null_count = int(nulls.sum())
    validity = pa.py_buffer(np.packbits(~nulls, bitorder="little")) if null_count else None
    return pa.Array.from_buffers(kind, n, [validity, pa.py_buffer(offsets), pa.py_buffer(column.data)],
                                 null_count=null_count)


def _fixed_array(values: np.ndarray, kind: Any) -> Any:
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(np.ascontiguousarray(values))],
                                 null_count=0)


def _repeated_string(text: str, n: int) -> Any:
    data = text.encode("utf-8")
    offsets = np.arange(n + 1, dtype=np.int32) * len(data)
    return pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data * n)],
                                 null_count=0)


def _headers_array(columns: RecordColumns, kind: Any) -> Any:
    n = len(columns)
    offsets = np.zeros(n + 1, np.int32)
    pairs: List[Any] = []
    if columns.headers is not None:
        np.cumsum(np.fromiter(map(len, columns.headers), np.int64, n), out=offsets[1:])
        pairs = [pair for headers in columns.headers for pair in headers]
    fields = list(kind.value_type)
    keys = BinaryColumn.from_values([key.encode("utf-8") for key, _ in pairs])
    values = BinaryColumn.from_values([value for _, value in pairs])
    entries = pa.StructArray.from_arrays([_binary_array(keys, pa.string()), _binary_array(values, pa.binary())],
                                         fields=fields)
    return pa.Array.from_buffers(kind, n, [None, pa.py_buffer(offsets)], null_count=0, children=[entries])


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
            _binary_array(columns.keys, pa.binary()),
            _binary_array(columns.values, pa.binary()),
            _repeated_string(self.topic, n),
            _fixed_array(np.full(n, self.partition, np.int32), pa.int32()),
            _fixed_array(columns.offsets, pa.int64()),
            # Kafka timestamps are milliseconds; Spark's are microseconds.
            _fixed_array(columns.timestamps * _MS_TO_US, schema.field("timestamp").type),
            _fixed_array(columns.timestamp_types, pa.int32()),
        ]
        if self.include_headers:
            arrays.append(_headers_array(columns, schema.field("headers").type))
        return pa.RecordBatch.from_arrays(arrays, schema=schema)
