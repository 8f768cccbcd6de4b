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
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from kafka.record import MemoryRecords, RecordBatchBuilder
from kafka.record.crc import crc32c
from kafka.record.record import ControlRecordType

INT64_MAX = 2 ** 63 - 1


class ServedLog:
    """A partition's log as a list of batches, served from any fetch offset."""

    def __init__(self, batches: Sequence[bytes] = (), aborted: Optional[List[Dict[str, int]]] = None) -> None:
        self.batches = list(batches)
        #: ``[{"producer_id": P, "first_offset": O}]`` sent with every answer (read_committed fetches)
        self.aborted = aborted
        self.error_code = 0
        #: the last stable offset answered; None: the log's end (no open transaction)
        self.last_stable_offset: Optional[int] = None

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
        stable = end if self.last_stable_offset is None else self.last_stable_offset
        return partition_data(partition, b"".join(chosen), high_watermark=end, last_stable_offset=stable,
                              aborted=self.aborted if isolation_level else None)


def aborted_transactions(batches: Sequence[bytes]) -> List[Tuple[int, int, int]]:
    """(producer id, first offset, offset of the ABORT marker) of each aborted transaction in ``batches``."""
    first: Dict[int, int] = {}
    out = []
    for batch in (b for data in batches for b in MemoryRecords(data)):
        if batch.is_control_batch:
            start = first.pop(batch.producer_id, None)
            if start is not None and next(iter(batch)).control_type == ControlRecordType.ABORT:
                out.append((batch.producer_id, start, batch.base_offset))
        elif batch.is_transactional:
            first.setdefault(batch.producer_id, batch.base_offset)
    return out


class TransactionalLog(ServedLog):
    """A log whose aborted-transactions list comes from its markers, answered as a Kafka broker does.

    A read_committed fetch is told of the aborted transactions whose ABORT
    marker is at or after the fetch offset.
    """

    def answer(self, partition: int, fetch_offset: int, isolation_level: int) -> Dict[str, Any]:
        answer = super().answer(partition, fetch_offset, isolation_level)
        if isolation_level and not self.error_code:
            answer["aborted_transactions"] = [{"producer_id": pid, "first_offset": first}
                                              for pid, first, marker in aborted_transactions(self.batches)
                                              if marker >= fetch_offset]
        return answer


def list_offsets_handler(logs: Dict[str, Dict[int, ServedLog]]) -> Callable[[Any], Dict[str, Any]]:
    """A ListOffsets handler answering earliest (0) and latest (the log's end) for ``logs[topic][partition]``."""

    def handle(request: Any) -> Dict[str, Any]:
        topics = []
        for topic in request.body.topics:
            parts = [{"partition_index": p.partition_index, "error_code": 0, "timestamp": -1, "leader_epoch": 0,
                      "offset": 0 if p.timestamp == -2 else logs[topic.name][p.partition_index].end_offset()}
                     for p in topic.partitions]
            topics.append({"name": topic.name, "partitions": parts})
        return {"topics": topics}

    return handle


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
    return spec_batch(base_offset, [record_body(delta, None, value) for delta, value in enumerate(values)],
                      timestamp=timestamp, compress=gzip.compress, attributes=1)


#: Batch attribute bits (v2): the batch belongs to a transaction; the batch holds a control record.
TRANSACTIONAL = 0x10
CONTROL = 0x20


def record_body(offset_delta: int, key: Optional[bytes], value: Optional[bytes]) -> bytes:
    """One v2 record without its length prefix: attributes, timestamp delta 0, no headers."""
    def field(data: Optional[bytes]) -> bytes:
        return _varint(-1) if data is None else _varint(len(data)) + data
    return b"\x00" + _varint(0) + _varint(offset_delta) + field(key) + field(value) + _varint(0)


def control_body(commit: bool, coordinator_epoch: int = 0) -> bytes:
    """The record of a COMMIT or ABORT marker: key (version 0, type), value (version 0, coordinator epoch)."""
    return record_body(0, struct.pack(">hh", 0, 1 if commit else 0), struct.pack(">hi", 0, coordinator_epoch))


def spec_batch(base_offset: int, bodies: Sequence[bytes], *, timestamp: int = 1000, attributes: int = 0,
               producer_id: int = -1, producer_epoch: int = -1, base_sequence: int = -1,
               compress: Optional[Callable[[bytes], bytes]] = None) -> bytes:
    """A v2 batch of records given as :func:`record_body` bytes, laid out field by field as the spec says."""
    records = b"".join(_varint(len(body)) + body for body in bodies)
    if compress is not None:
        records = compress(records)
    after_crc = (struct.pack(">hiqqqhii", attributes, len(bodies) - 1, timestamp, timestamp, producer_id,
                             producer_epoch, base_sequence, len(bodies)) + records)
    return (struct.pack(">qiib", base_offset, len(after_crc) + 9, -1, 2) + struct.pack(">I", crc32c(after_crc))
            + after_crc)
