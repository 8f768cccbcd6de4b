"""Batches whose offsets run past 2**63 - 1 are corrupt: the consumer says so instead of stalling.

Offsets (and so positions) are INT64 on the wire. A batch ending past the
largest one would leave a position no Fetch request can carry.
"""

from __future__ import annotations

import time

import pytest

from kafka import KafkaConsumer, errors
from kafka.record import RecordBatchBuilder
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.support.fetch_answers import INT64_MAX, ServedLog, fetch_handler, with_header

TP = TopicPartition("t", 0)


def _batch(base_offset, count):
    builder = RecordBatchBuilder(base_offset=base_offset)
    for i in range(count):
        builder.append(base_offset + i, 1000 + i, None, b"v%d" % i)
    return builder.build()


def _read(batches, start, want=None):
    """Poll a consumer reading ``batches`` from ``start``: (offsets got, the error raised).

    Stops at an error, after ``want`` records, or after 10 s.
    """
    with ScriptedPeer(topics={"t": 1}, api_versions={"Fetch": (4, 12)}) as peer:
        peer.on("Fetch", fetch_handler(peer, {"t": {0: ServedLog(batches)}}))
        consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000, fetch_max_wait_ms=50)
        got = []
        try:
            consumer.assign([TP])
            consumer.seek(TP, start)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and (want is None or len(got) < want):
                try:
                    for records in consumer.poll(timeout_ms=100).values():
                        got.extend(r.offset for r in records)
                except errors.KafkaError as exc:
                    return got, exc
            return got, None
        finally:
            consumer.close()


def test_a_batch_ending_past_the_largest_offset_raises():
    got, error = _read([_batch(INT64_MAX - 1, 3)], INT64_MAX - 1)
    assert got == [] and isinstance(error, errors.CorruptRecordError), (got, error)


def test_the_records_before_such_a_batch_come_first():
    start = INT64_MAX - 10
    got, error = _read([_batch(start, 2), _batch(INT64_MAX - 1, 3)], start)
    assert got == [start, start + 1] and isinstance(error, errors.CorruptRecordError), (got, error)


@pytest.mark.parametrize("delta", [2, 0x7FFFFFFF])
def test_a_last_offset_delta_running_past_the_largest_offset_raises(delta):
    batch = with_header(_batch(INT64_MAX - 1, 1), last_offset_delta=delta)
    got, error = _read([batch], INT64_MAX - 1)
    assert got == [] and isinstance(error, errors.CorruptRecordError), (got, error)


def test_a_batch_ending_at_the_largest_offset_is_read():
    got, error = _read([_batch(INT64_MAX - 3, 3)], INT64_MAX - 3, want=3)
    assert got == [INT64_MAX - 3, INT64_MAX - 2, INT64_MAX - 1] and error is None


def test_a_record_offset_past_the_header_last_offset_raises():
    # Records at 2**63 - 2 and 2**63 - 1 under a header claiming the batch ends at the first.
    batch = with_header(_batch(INT64_MAX - 1, 2), last_offset_delta=0)
    got, error = _read([batch], INT64_MAX - 1)
    assert isinstance(error, errors.CorruptRecordError), (got, error)
