"""The asyncio producer's batches and accumulator without a broker: the fast append path, sizes, completion."""

from __future__ import annotations

import asyncio

import pytest

from kafka.aio import accumulator as accumulator_module
from kafka.aio.accumulator import TURN_RECORDS, Accumulator
from kafka.aio.batch import PendingBatch
from kafka.aio.structs import RecordMetadata
from kafka.aio.errors import ProducerClosed
from kafka.errors import KafkaTimeoutError
from kafka.record import codecs
from kafka.record.batch import HEADER_SIZE, RecordBatch, estimate_record_size
from kafka.structs import TopicPartition
from test.aio.helpers import run

TP = TopicPartition("t", 3)
STAMP = 1700000000000


def _size(value: bytes) -> int:
    return estimate_record_size(None, value, None)


def test_a_batch_takes_records_while_they_fit_and_the_first_whatever_its_size() -> None:
    async def main() -> None:
        big = b"x" * 500
        batch = PendingBatch(TP, 300, 0.0, asyncio.get_running_loop())
        first = batch.try_append(STAMP, None, big, None, _size(big))
        assert isinstance(first, asyncio.Future) and not first.done()
        assert batch.try_append(STAMP, None, b"y", None, _size(b"y")) is None  # full: left as it was
        assert batch.record_count == 1 and batch.size == HEADER_SIZE + _size(big)
        small = PendingBatch(TP, HEADER_SIZE + 3 * _size(b"abc"), 0.0, asyncio.get_running_loop())
        taken = [small.try_append(STAMP, None, b"abc", None, _size(b"abc")) for _ in range(4)]
        assert [f is not None for f in taken] == [True, True, True, False]

    run(main())


@pytest.mark.parametrize("compression", [codecs.NONE, codecs.GZIP])
def test_close_encodes_once_and_completion_resolves_every_future(compression) -> None:
    async def main() -> None:
        batch = PendingBatch(TP, 1 << 20, 0.0, asyncio.get_running_loop())
        futures = [batch.try_append(STAMP + i, b"k" if i % 2 else None, b"v%d" % i, None, 20) for i in range(5)]
        data = batch.close(compression)
        assert batch.close(compression) is data and batch.closed
        assert [(r.offset, r.timestamp, r.key, r.value) for r in RecordBatch(data)] == [
            (i, STAMP + i, b"k" if i % 2 else None, b"v%d" % i) for i in range(5)]
        futures[2].cancel()  # the caller gave up waiting: the others still resolve
        batch.succeed(100, -1, 7)
        assert batch.delivered.done() and batch.records == [] and batch.futures == []
        results = [f.result() for f in futures if not f.cancelled()]
        assert all(type(md) is RecordMetadata for md in results)
        assert results[0] == RecordMetadata("t", 3, TP, 100, STAMP, 0, 7)
        assert [md.offset for md in results] == [100, 101, 103, 104]

    run(main())


def test_log_append_time_acks_zero_and_failure() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        batch = PendingBatch(TP, 1 << 20, 0.0, loop)
        futures = [batch.try_append(STAMP, None, b"v", None, 10) for _ in range(3)]
        batch.succeed(5, 1800000000000, -1)
        assert [(f.result().offset, f.result().timestamp, f.result().timestamp_type) for f in futures] == [
            (5, 1800000000000, 1), (6, 1800000000000, 1), (7, 1800000000000, 1)]
        batch = PendingBatch(TP, 1 << 20, 0.0, loop)
        futures = [batch.try_append(STAMP, None, b"v", None, 10) for _ in range(2)]
        batch.succeed(-1)  # acks=0
        assert [f.result().offset for f in futures] == [-1, -1]
        batch = PendingBatch(TP, 1 << 20, 0.0, loop)
        future = batch.try_append(STAMP, None, b"v", None, 10)
        batch.fail(KafkaTimeoutError("late"))
        assert isinstance(future.exception(), KafkaTimeoutError) and batch.delivered.done()

    run(main())


def test_the_fast_path_appends_to_the_open_batch_only() -> None:
    async def main() -> None:
        acc = Accumulator(batch_size=HEADER_SIZE + 2 * _size(b"v"), compression=codecs.NONE, linger_ms=1000,
                          delivery_timeout_ms=30000)
        assert acc.append_now(TP, STAMP, None, b"v", None, _size(b"v")) is None  # no open batch yet
        first = await acc.append(TP, STAMP, None, b"v", None, _size(b"v"), 1.0)
        second = acc.append_now(TP, STAMP, None, b"v", None, _size(b"v"))
        assert second is not None and not second.done()
        assert acc.append_now(TP, STAMP, None, b"v", None, _size(b"v")) is None  # full
        # The slow path seals the full batch; the next record would wait for the sender: time it out.
        with pytest.raises(KafkaTimeoutError):
            await acc.append(TP, STAMP, None, b"v", None, _size(b"v"), 0.05)
        ready, _ = acc.ready(0.0)
        assert ready == [TP]  # sealed: it goes without lingering
        batch = acc.pop(TP)
        assert batch.record_count == 2 and len(list(RecordBatch(batch.data))) == 2
        batch.succeed(0)
        assert (first.result().offset, second.result().offset) == (0, 1)
        third = await acc.append(TP, STAMP, None, b"v", None, _size(b"v"), 1.0)  # room again
        acc.close(ProducerClosed("stopping"))
        assert acc.append_now(TP, STAMP, None, b"v", None, _size(b"v")) is None  # the open batch is sealed
        with pytest.raises(ProducerClosed):
            await acc.append(TP, STAMP, None, b"v", None, _size(b"v"), 1.0)
        acc.fail_all(ProducerClosed("stopped"))
        assert isinstance(third.exception(), ProducerClosed)

    run(main())


def test_the_fast_path_steps_aside_every_turn_records() -> None:
    async def main() -> None:
        acc = Accumulator(batch_size=1 << 30, compression=codecs.NONE, linger_ms=1000, delivery_timeout_ms=30000)
        await acc.append(TP, STAMP, None, b"v", None, 10, 1.0)
        misses = 0
        for _ in range(3 * TURN_RECORDS):
            if acc.append_now(TP, STAMP, None, b"v", None, 10) is None:
                misses += 1  # the caller goes through append() then, which may give the loop a turn
                await acc.append(TP, STAMP, None, b"v", None, 10, 1.0)
        assert misses == 3
        acc.fail_all(ProducerClosed("done"))

    run(main())


def test_a_tight_loop_of_fast_appends_lets_the_event_loop_run(monkeypatch) -> None:
    monkeypatch.setattr(accumulator_module, "TURN_SECONDS", 0.0)
    ticks = []

    async def main() -> None:
        acc = Accumulator(batch_size=1 << 30, compression=codecs.NONE, linger_ms=1000, delivery_timeout_ms=30000)
        asyncio.get_running_loop().call_soon(ticks.append, 1)
        for _ in range(2 * TURN_RECORDS):
            if acc.append_now(TP, STAMP, None, b"v", None, 10) is None:
                await acc.append(TP, STAMP, None, b"v", None, 10, 1.0)
        assert ticks == [1]
        acc.fail_all(ProducerClosed("done"))

    run(main())
