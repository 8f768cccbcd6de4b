"""The fetcher builds a v2 batch's records a chunk at a time: positions stay exact.

Completed fetches are assembled here from batches, as a broker would send
them, and handed to the fetcher directly.
"""

from __future__ import annotations

import gc
import struct
import sys

import pytest

from kafka.consumer.fetcher import CompletedFetch, Fetcher
from kafka.consumer.subscription import SubscriptionState
from kafka.errors import CorruptRecordError
from kafka.record import RecordBatchBuilder
from kafka.record.record import Record
from kafka.record.crc import crc32c
from kafka.structs import TopicPartition

TP = TopicPartition("t", 0)


def _batch(base_offset, count, start_value=0):
    builder = RecordBatchBuilder(base_offset=base_offset)
    for i in range(count):
        builder.append(base_offset + i, 1000 + i, None, b"value-%06d" % (start_value + i))
    return builder.build()


def _empty_batch(base_offset, last_offset_delta):
    """A batch that compaction emptied: header only, record count 0 (KIP-98 keeps these)."""
    after_crc = struct.pack(">hiqqqhii", 0, last_offset_delta, 1000, 1000, 5, 0, 0, 0)
    crc = crc32c(after_crc)
    head = struct.pack(">qiibI", base_offset, 4 + 1 + 4 + len(after_crc), 0, 2, crc)
    return head + after_crc


def _fetcher(data, position=0, max_poll_records=500, check_crcs=True):
    sub = SubscriptionState("earliest")
    sub.assign_from_user([TP])
    sub.seek(TP, position)
    fetcher = Fetcher(client=None, subscription=sub, max_poll_records=max_poll_records, check_crcs=check_crcs)
    fetcher._completed.append(CompletedFetch(TP, position, data, 10**6, 10**6, 0, [], 0, sub.assignment_version))
    return fetcher, sub


def _drain(fetcher, sub):
    polls = []
    while True:
        got = fetcher.fetched_records().get(TP, [])
        if not got:
            return polls
        polls.append(([r.offset for r in got], sub.position(TP)))


def test_a_large_batch_comes_out_in_polls_of_max_records_with_exact_positions():
    fetcher, sub = _fetcher(_batch(0, 2000), max_poll_records=300)
    polls = _drain(fetcher, sub)
    assert [len(offsets) for offsets, _ in polls] == [300] * 6 + [200]
    assert [o for offsets, _ in polls for o in offsets] == list(range(2000))
    assert [position for _, position in polls] == [300 * (i + 1) for i in range(6)] + [2000]


def test_a_position_inside_a_batch_skips_the_records_before_it():
    fetcher, sub = _fetcher(_batch(0, 1500) + _batch(1500, 100), position=1234)
    offsets = [o for batch, _ in _drain(fetcher, sub) for o in batch]
    assert offsets == list(range(1234, 1600))
    assert sub.position(TP) == 1600


def test_a_batch_emptied_by_compaction_moves_the_position_past_it():
    fetcher, sub = _fetcher(_batch(0, 10) + _empty_batch(10, 4) + _batch(15, 5))
    offsets = [o for batch, _ in _drain(fetcher, sub) for o in batch]
    assert offsets == list(range(10)) + list(range(15, 20))
    assert sub.position(TP) == 20
    fetcher, sub = _fetcher(_empty_batch(0, 4))
    assert _drain(fetcher, sub) == []
    assert sub.position(TP) == 5


def test_records_before_a_malformed_end_are_returned_then_the_error():
    data = bytearray(_batch(0, 800))
    data[-1] ^= 0xFF  # the last record's header count: unreadable, and no CRC check to catch it
    fetcher, sub = _fetcher(bytes(data), max_poll_records=500, check_crcs=False)
    first = fetcher.fetched_records()[TP]
    assert [r.offset for r in first] == list(range(500)) and sub.position(TP) == 500
    with pytest.raises(CorruptRecordError):
        fetcher.fetched_records()
    assert sub.position(TP) == 500
    assert gc.isenabled()  # paused while the poll built records, on again though it raised


def test_message_format_v1_records_come_out_as_consumer_records():
    from kafka.record import MemoryRecordsBuilder

    builder = MemoryRecordsBuilder(magic=1, compression_type=None)
    for i in range(5):
        builder.append(i, 1000 + i, b"k%d" % i if i % 2 else None, b"value-%d" % i)
    fetcher, sub = _fetcher(builder.build(), position=2)
    records = fetcher.fetched_records()[TP]
    assert [(r.topic, r.partition, r.offset, r.timestamp, r.key, r.value, r.headers) for r in records] == [
        ("t", 0, i, 1000 + i, b"k%d" % i if i % 2 else None, b"value-%d" % i, ()) for i in range(2, 5)]
    assert [(r.serialized_key_size, r.serialized_value_size, r.checksum) for r in records] == [
        (-1, 7, None), (2, 7, None), (-1, 7, None)]
    assert sub.position(TP) == 5


def _raw_records():
    return sum(1 for o in gc.get_objects() if type(o) is Record)


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="counts CPython references")
@pytest.mark.parametrize("deserialized", [False, True], ids=["plain", "deserialized"])
@pytest.mark.parametrize("take", [400, 1000], ids=["whole chunks", "part of a chunk"])
def test_records_handed_out_are_kept_alive_by_the_caller_alone(take, deserialized):
    # The chunk generators stay suspended until the next poll; records the
    # application dropped must not live on in them (nor be walked by the
    # collector's next pass, see kafka.gc_pause).
    fetcher, sub = _fetcher(_batch(0, 2000), max_poll_records=400)
    if deserialized:
        fetcher.value_deserializer = bytes
    raw_before = _raw_records()
    got = fetcher.fetched_records(max_records=take)[TP]
    assert len(got) == take
    for index in (0, -1):
        record = got[index]
        assert sys.getrefcount(record) == 3  # ``got``, ``record`` and getrefcount's argument
    del record
    if deserialized:  # nor the undeserialized records they were built from (bar the loop's last one)
        assert _raw_records() - raw_before <= 1
    assert [r.offset for r in fetcher.fetched_records(max_records=2000)[TP]] == list(range(take, 2000))
