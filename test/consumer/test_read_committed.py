"""read_committed filtering on Fetch data built to the specification.

Neither test broker hides aborted records (shared/DESIGN.md), so the
fetcher is fed completed fetches assembled here: transactional batches of
two producers, their COMMIT/ABORT control batches, and the aborted
transactions list a broker sends with them.
"""

from __future__ import annotations

from kafka.consumer.fetcher import CompletedFetch, Fetcher
from kafka.consumer.subscription import SubscriptionState
from kafka.record import RecordBatchBuilder
from kafka.record.record import ControlRecordType, encode_control_key, encode_marker_value
from kafka.structs import TopicPartition

TP = TopicPartition("t", 0)


def _data(base_offset, producer_id, values, transactional=True):
    builder = RecordBatchBuilder(base_offset=base_offset, is_transactional=transactional, producer_id=producer_id,
                                 producer_epoch=0, base_sequence=0)
    for i, value in enumerate(values):
        builder.append(base_offset + i, 1000 + base_offset + i, None, value)
    return builder.build()


def _marker(base_offset, producer_id, control_type):
    builder = RecordBatchBuilder(base_offset=base_offset, is_transactional=True, is_control=True,
                                 producer_id=producer_id, producer_epoch=0)
    builder.append(base_offset, 2000 + base_offset, encode_control_key(control_type), encode_marker_value(0))
    return builder.build()


# Offsets: 0-1 pid 7 (committed), 2-3 pid 8 (aborted), 4 pid 7 COMMIT,
# 5 plain record, 6 pid 8 ABORT, 7-8 pid 8 (a later, committed transaction), 9 COMMIT pid 8.
LOG = b"".join([
    _data(0, 7, [b"a0", b"a1"]),
    _data(2, 8, [b"x2", b"x3"]),
    _marker(4, 7, ControlRecordType.COMMIT),
    _data(5, -1, [b"plain5"], transactional=False),
    _marker(6, 8, ControlRecordType.ABORT),
    _data(7, 8, [b"b7", b"b8"]),
    _marker(9, 8, ControlRecordType.COMMIT),
])
ABORTED = [(8, 2)]  # (producer id, first offset) as in the Fetch response


def _fetcher(isolation):
    sub = SubscriptionState("earliest")
    sub.assign_from_user([TP])
    sub.seek(TP, 0)
    fetcher = Fetcher(client=None, subscription=sub, isolation_level=isolation)
    fetcher._completed.append(CompletedFetch(TP, 0, LOG, 10, 10, 0, ABORTED, 0, sub.assignment_version))
    return fetcher, sub


def test_read_committed_drops_aborted_records_and_markers():
    fetcher, sub = _fetcher("read_committed")
    records = fetcher.fetched_records()[TP]
    assert [(r.offset, r.value) for r in records] == [(0, b"a0"), (1, b"a1"), (5, b"plain5"), (7, b"b7"),
                                                      (8, b"b8")]
    assert sub.position(TP) == 10  # past the final marker, so the next fetch does not repeat it


def test_read_uncommitted_returns_every_data_record():
    fetcher, sub = _fetcher("read_uncommitted")
    records = fetcher.fetched_records()[TP]
    assert [r.offset for r in records] == [0, 1, 2, 3, 5, 7, 8]
    assert sub.position(TP) == 10


def test_positions_advance_record_by_record_with_max_records():
    fetcher, sub = _fetcher("read_committed")
    first = fetcher.fetched_records(max_records=2)[TP]
    assert [r.offset for r in first] == [0, 1] and sub.position(TP) == 2
    rest = fetcher.fetched_records()[TP]
    assert [r.offset for r in rest] == [5, 7, 8]
