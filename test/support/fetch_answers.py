"""Fetch answers for a :class:`kafka.testing.ScriptedPeer`, built from record batches.

:class:`ServedLog` holds a partition's batches (bytes, each a whole batch) and
answers a fetch offset with every batch that ends after it, as a broker does.
:func:`fetch_handler` turns ``{partition: ServedLog}`` (or a callable giving
a per-partition answer) into a ``peer.on("Fetch", ...)`` handler answering
at whatever version the client sent, by topic name or topic id.
"""

from __future__ import annotations

import gzip
import struct
from typing import Any, Callable, Dict, List, Optional, Sequence

from kafka.record import MemoryRecords, RecordBatchBuilder
from kafka.record.crc import crc32c

INT64_MAX = 2 ** 63 - 1


class ServedLog:
    """A partition's log as a list of batches, served from any fetch offset."""

    def __init__(self, batches: Sequence[bytes] = (), aborted: Optional[List[Dict[str, int]]] = None) -> None:
        self.batches = list(batches)
        #: ``[{"producer_id": P, "first_offset": O}]`` sent with every answer (read_committed fetches)
        self.aborted = aborted
        self.error_code = 0

    def end_offset(self) -> int:
        """The offset after the last batch (0 for an empty log)."""
        ends = [b.next_offset for data in self.batches for b in MemoryRecords(data)]
        return max(ends, default=0)

    def answer(self, partition: int, fetch_offset: int, isolation_level: int) -> Dict[str, Any]:
        """The PartitionData a broker would send for ``fetch_offset``."""
        if self.error_code:
            return partition_data(partition, error_code=self.error_code)
        chosen = [data for data in self.batches
                  if next(iter(MemoryRecords(data))).next_offset > fetch_offset]
        end = min(self.end_offset(), INT64_MAX)
        return partition_data(partition, b"".join(chosen), high_watermark=end, last_stable_offset=end,
                              aborted=self.aborted if isolation_level else None)


def partition_data(partition: int, records: bytes = b"", error_code: int = 0, high_watermark: int = 0,
                   last_stable_offset: int = -1, aborted: Optional[List[Dict[str, int]]] = None) -> Dict[str, Any]:
    """One partition's part of a Fetch response."""
    return {"partition_index": partition, "error_code": error_code, "high_watermark": high_watermark,
            "last_stable_offset": last_stable_offset, "log_start_offset": 0, "aborted_transactions": aborted,
            "records": records}


Answer = Callable[[str, int, int, int], Dict[str, Any]]


def fetch_handler(peer: Any, logs: Dict[str, Dict[int, ServedLog]]) -> Callable[[Any], Dict[str, Any]]:
    """A Fetch handler answering each partition asked for from ``logs[topic][partition]``."""

    def handle(request: Any) -> Dict[str, Any]:
        body = request.body
        topics = []
        for topic in body.topics:
            name = topic.topic or peer.topic_name(topic.topic_id)
            parts = [logs[name][p.partition].answer(p.partition, p.fetch_offset, body.isolation_level)
                     for p in topic.partitions]
            topics.append({"topic": name, "topic_id": peer.topic_id(name), "partitions": parts})
        return {"error_code": 0, "responses": topics}

    return handle


def with_header(batch: bytes, *, last_offset_delta: Optional[int] = None) -> bytes:
    """``batch`` (v2) with header fields replaced and its CRC made right again."""
    data = bytearray(batch)
    if last_offset_delta is not None:
        struct.pack_into(">i", data, 23, last_offset_delta)
    struct.pack_into(">I", data, 17, crc32c(bytes(data[21:])))
    return bytes(data)


def _varint(value: int) -> bytes:
    """Zig-zag varint, as record fields are written."""
    n = (value << 1) ^ (value >> 63)
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def plain_batch(base_offset: int, values: Sequence[bytes]) -> bytes:
    """An uncompressed v2 batch of ``values`` at ``base_offset`` (null keys, timestamps 1000 + i)."""
    builder = RecordBatchBuilder(base_offset=base_offset)
    for i, value in enumerate(values):
        builder.append(base_offset + i, 1000 + i, None, value)
    return bytes(builder.build())


def gzip_batch(base_offset: int, values: Sequence[bytes], timestamp: int = 1000) -> bytes:
    """A v2 batch of ``values`` (null keys, no headers), its records gzip-compressed, built from the spec."""
    records = b""
    for delta, value in enumerate(values):
        body = (b"\x00" + _varint(0) + _varint(delta) + _varint(-1) + _varint(len(value)) + value + _varint(0))
        records += _varint(len(body)) + body
    after_crc = (struct.pack(">hiqqqhii", 1, len(values) - 1, timestamp, timestamp, -1, -1, -1, len(values))
                 + gzip.compress(records))
    return (struct.pack(">qiib", base_offset, len(after_crc) + 9, -1, 2) + struct.pack(">I", crc32c(after_crc))
            + after_crc)
