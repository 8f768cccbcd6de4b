"""The Kafka source schema and its Arrow record batches.

The schema is the one of Spark's built-in Kafka connector. Arrow batches
handed to Spark must match it exactly (int32 vs int64, timestamps in
microseconds with a UTC zone), so the Arrow types are spelled out here once.
pyarrow is imported when a batch is first built, not at import time.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from kafka.consumer.fetcher import ConsumerRecord

SOURCE_DDL = ("key binary, value binary, topic string, partition int, offset long, "
              "timestamp timestamp, timestampType int")
HEADERS_DDL = "headers array<struct<key:string,value:binary>>"


def source_ddl(include_headers: bool) -> str:
    """The DDL string of the source schema (with the headers column when asked)."""
    return SOURCE_DDL + (", " + HEADERS_DDL if include_headers else "")


_schemas: dict = {}

_FIELDS = ConsumerRecord._fields
_OFFSET, _TIMESTAMP, _TIMESTAMP_TYPE, _KEY, _VALUE, _HEADERS = (
    _FIELDS.index(name) for name in ("offset", "timestamp", "timestamp_type", "key", "value", "headers"))


def arrow_schema(include_headers: bool) -> Any:
    """The pyarrow schema matching :func:`source_ddl`."""
    schema = _schemas.get(include_headers)
    if schema is None:
        import pyarrow as pa

        fields = [
            pa.field("key", pa.binary()),
            pa.field("value", pa.binary()),
            pa.field("topic", pa.string()),
            pa.field("partition", pa.int32()),
            pa.field("offset", pa.int64()),
            pa.field("timestamp", pa.timestamp("us", tz="UTC")),
            pa.field("timestampType", pa.int32()),
        ]
        if include_headers:
            fields.append(pa.field("headers", pa.list_(pa.struct([pa.field("key", pa.string()),
                                                                  pa.field("value", pa.binary())]))))
        schema = _schemas[include_headers] = pa.schema(fields)
    return schema


class BatchBuilder:
    """Accumulates records of one partition column by column, then makes a RecordBatch."""

    __slots__ = ("topic", "partition", "include_headers", "keys", "values", "offsets", "timestamps",
                 "types", "headers")

    def __init__(self, topic: str, partition: int, include_headers: bool) -> None:
        self.topic = topic
        self.partition = partition
        self.include_headers = include_headers
        self.keys: List[Optional[bytes]] = []
        self.values: List[Optional[bytes]] = []
        self.offsets: List[int] = []
        self.timestamps: List[int] = []
        self.types: List[int] = []
        self.headers: List[List[Tuple[str, Optional[bytes]]]] = []

    def __len__(self) -> int:
        return len(self.offsets)

    def extend(self, records: Sequence[Any]) -> None:
        """Append consumer records (namedtuples of :class:`kafka.consumer.fetcher.ConsumerRecord`)."""
        if not records:
            return
        # Transposing the tuples in one C-level zip is cheaper than reading
        # five attributes per record.
        columns = list(zip(*records))
        self.offsets.extend(columns[_OFFSET])
        self.timestamps.extend(columns[_TIMESTAMP])
        self.types.extend(columns[_TIMESTAMP_TYPE])
        self.keys.extend(columns[_KEY])
        self.values.extend(columns[_VALUE])
        if self.include_headers:
            self.headers.extend(columns[_HEADERS])

    def extend_records(self, records: Sequence[Any]) -> None:
        """Append record tuples of :mod:`kafka.record` (offset, timestamp, type, key, value, headers)."""
        if not records:
            return
        offsets, timestamps, types, keys, values, headers = zip(*records)
        self.offsets.extend(offsets)
        self.timestamps.extend(timestamps)
        self.types.extend(types)
        self.keys.extend(keys)
        self.values.extend(values)
        if self.include_headers:
            self.headers.extend(headers)

    def build(self) -> Any:
        """The accumulated records as one ``pyarrow.RecordBatch``; the builder is emptied."""
        import pyarrow as pa

        n = len(self.offsets)
        columns = [
            pa.array(self.keys, pa.binary()),
            pa.array(self.values, pa.binary()),
            pa.array([self.topic] * n, pa.string()),
            pa.array([self.partition] * n, pa.int32()),
            pa.array(self.offsets, pa.int64()),
            # Kafka timestamps are milliseconds; Spark's are microseconds.
            pa.array([t * 1000 for t in self.timestamps], pa.int64()).cast(pa.timestamp("us", tz="UTC")),
            pa.array(self.types, pa.int32()),
        ]
        if self.include_headers:
            columns.append(pa.array([[{"key": k, "value": v} for k, v in h] for h in self.headers],
                                    arrow_schema(True).field("headers").type))
        batch = pa.RecordBatch.from_arrays(columns, schema=arrow_schema(self.include_headers))
        self.keys, self.values, self.offsets, self.timestamps, self.types, self.headers = [], [], [], [], [], []
        return batch
