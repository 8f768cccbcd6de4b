"""The asyncio consumer's record handling without a broker: read_committed, positions, deserializers.

Fetch answers are laid out byte by byte from the protocol specification
(the batches of test/record/test_aborted.py: committed and aborted
transactions, their markers, a plain record), since neither test broker
lists aborted transactions. They go through the fetcher's answer handling
and ``take`` as a broker's answer would.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, List, Optional

from kafka.aio.assignment import Assignment
from kafka.aio.fetcher import AsyncFetcher
from kafka.aio.structs import ConsumerRecord
from kafka.record.fetched import partition_chunks
from kafka.structs import TopicPartition
from test.record.test_aborted import LISTED, LOG

TP = TopicPartition("t", 0)


def _offsets(read_committed: bool, position: int = 0) -> List[int]:
    out: List[int] = []
    for rows, _end in partition_chunks(b"".join(LOG), position, ConsumerRecord, ("t", 0, -1),
                                       read_committed=read_committed, aborted=LISTED):
        out.extend(r.offset for r in rows)
    return out


def test_partition_chunks_leave_out_markers_and_aborted_transactions() -> None:
    assert _offsets(True) == [0, 1, 5, 7, 8]
    assert _offsets(False) == [0, 1, 2, 3, 5, 7, 8]
    assert _offsets(True, position=3) == [5, 7, 8]


def _answer(records: bytes, aborted: Any, high_watermark: int = 10, lso: int = 10) -> Any:
    part = SimpleNamespace(partition_index=0, error_code=0, high_watermark=high_watermark, last_stable_offset=lso,
                           log_start_offset=0, records=records,
                           aborted_transactions=[SimpleNamespace(producer_id=p, first_offset=o) for p, o in aborted])
    return SimpleNamespace(error_code=0, responses=[SimpleNamespace(topic="t", partitions=[part])])


def _fetcher(isolation_level: int, value_deserializer: Optional[Any] = None) -> AsyncFetcher:
    assignment = Assignment()
    assignment.assign([TP])
    assignment.state(TP).position = 0
    return AsyncFetcher(SimpleNamespace(retry_backoff=0.1), assignment, group=None,  # type: ignore[arg-type]
                        key_deserializer=None, value_deserializer=value_deserializer, fetch_max_wait_ms=500,
                        fetch_min_bytes=1, fetch_max_bytes=1 << 20, max_partition_fetch_bytes=1 << 20,
                        isolation_level=isolation_level, check_crcs=True, auto_offset_reset="earliest",
                        request_timeout_ms=1000)


def _through_fetcher(isolation_level: int, limit: Optional[int], **kw: Any) -> Any:
    async def main() -> Any:
        fetcher = _fetcher(isolation_level, **kw)
        fetcher._on_answer(_answer(b"".join(LOG), LISTED), {("t", 0): 0}, fetcher.assignment.version)
        batches = []
        while True:
            got = fetcher.take([], limit)
            if not got:
                break
            batches.append([(r.offset, r.value) for r in got[TP]])
        state = fetcher.assignment.state(TP)
        return batches, state.position, state.highwater, state.last_stable_offset

    return asyncio.run(main())


def test_read_committed_through_the_fetcher() -> None:
    batches, position, highwater, lso = _through_fetcher(1, None)
    assert batches == [[(0, b"v0"), (1, b"v1"), (5, b"v5"), (7, b"v7"), (8, b"v8")]]
    assert (position, highwater, lso) == (10, 10, 10)  # past the last COMMIT marker


def test_max_records_splits_batches_and_positions_follow() -> None:
    batches, position, _hw, _lso = _through_fetcher(0, 2)
    assert [[o for o, _v in b] for b in batches] == [[0, 1], [2, 3], [5, 7], [8]]
    assert position == 10


def test_value_deserializer_runs_on_each_record() -> None:
    batches, _position, _hw, _lso = _through_fetcher(1, None, value_deserializer=lambda v: v.decode())
    assert [v for b in batches for _o, v in b] == ["v0", "v1", "v5", "v7", "v8"]


def test_an_answer_for_an_old_position_is_dropped() -> None:
    async def main() -> Any:
        fetcher = _fetcher(0)
        fetcher.assignment.state(TP).position = 5  # sought while the fetch from 0 was in flight
        fetcher._on_answer(_answer(b"".join(LOG), LISTED), {("t", 0): 0}, fetcher.assignment.version)
        return fetcher.take([], None)

    assert asyncio.run(main()) == {}
