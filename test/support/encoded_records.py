"""Records encoded as the Spark writer hands them to ``send_encoded``, built the plain way for tests."""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence

from kafka.record.batch import HEADER_SIZE, RecordBatchBuilder


def record_body(records: Sequence[tuple]) -> bytes:
    """Record bytes of ``(timestamp, key, value, headers)`` records as a v2 batch holds them (offset deltas from 0)."""
    builder = RecordBatchBuilder()
    builder.extend(records)
    return builder.build()[HEADER_SIZE:]


def python_encoder(keys: Optional[Sequence[Optional[bytes]]],
                   values: Sequence[Optional[bytes]]) -> Callable[[Optional[List[int]], List[int]], List[bytes]]:
    """An ``encode(rows, counts)`` for :func:`~kafka.producer.encoded.send_encoded` in plain Python
    (the Spark writer's is numpy's and Arrow's)."""
    def encode(rows: Optional[List[int]], counts: List[int]) -> List[bytes]:
        order = list(range(len(values))) if rows is None else rows
        out, start = [], 0
        for count in counts:
            out.append(record_body([(0, None if keys is None else keys[i], values[i], None)
                                    for i in order[start:start + count]]))
            start += count
        return out
    return encode
