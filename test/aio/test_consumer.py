"""kafka.aio.AIOKafkaConsumer on the embedded broker: limits, cancellation, iteration, debug mode."""

from __future__ import annotations

import asyncio
import gc
from typing import Any, List

import pytest

from kafka.aio import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRecord
from kafka.aio.errors import ConsumerStoppedError, IllegalOperation
from kafka.record.rows import ROW_FIELDS
from kafka.structs import TopicPartition
from test.aio.helpers import SlowCallbacks, run
from test.support.topics import new_topic


async def _fill(bootstrap: str, topic: str, count: int, partitions: int = 1, codec: Any = None) -> None:
    async with AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, compression_type=codec) as producer:
        for i in range(count):
            await producer.send(topic, b"x" * 100, key=b"%d" % i, partition=i % partitions)
        await producer.flush()


def _consumer(broker: Any, **kw: Any) -> AIOKafkaConsumer:
    kw.setdefault("auto_offset_reset", "earliest")
    return AIOKafkaConsumer(bootstrap_servers=broker.bootstrap_servers, **kw)


def test_the_record_is_a_row_of_the_shared_layout() -> None:
    assert ConsumerRecord._fields == ROW_FIELDS


def test_getmany_hands_out_at_most_max_records(broker) -> None:
    topic = new_topic(broker, partitions=2, prefix="aioc-max")

    async def main() -> List[int]:
        await _fill(broker.bootstrap_servers, topic, 500, partitions=2)
        sizes = []
        async with _consumer(broker, max_poll_records=70) as consumer:
            consumer.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
            seen = set()
            while len(seen) < 500:
                got = await consumer.getmany(timeout_ms=5000, max_records=None if len(seen) < 200 else 33)
                sizes.append(sum(len(r) for r in got.values()))
                for records in got.values():
                    seen.update((r.partition, r.offset) for r in records)
            assert await consumer.getmany(timeout_ms=200) == {}
        assert len(seen) == 500
        return sizes

    sizes = run(main())
    assert max(sizes) <= 70
    assert all(s <= 33 for s in sizes[-3:])


def test_cancelled_gets_leave_the_consumer_usable(broker) -> None:
    topic = new_topic(broker, partitions=1, prefix="aioc-cancel")
    tp = TopicPartition(topic, 0)

    async def main() -> List[int]:
        async with _consumer(broker) as consumer:
            consumer.assign([tp])
            for waiting in (consumer.getone(), consumer.getmany(timeout_ms=10000)):
                task = asyncio.ensure_future(waiting)
                await asyncio.sleep(0.3)  # waiting for records of an empty topic
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
            await _fill(broker.bootstrap_servers, topic, 50)
            offsets = [(await consumer.getone()).offset]
            task = asyncio.ensure_future(consumer.getmany(timeout_ms=10000))
            task.cancel()  # before it ran: takes nothing
            with pytest.raises(asyncio.CancelledError):
                await task
            while len(offsets) < 50:
                got = await asyncio.wait_for(consumer.getmany(timeout_ms=5000), 10)
                offsets.extend(r.offset for r in got.get(tp, ()))
            return offsets

    assert run(main()) == list(range(50))


def test_async_for_and_stop(broker) -> None:
    topic = new_topic(broker, partitions=1, prefix="aioc-iter")
    tp = TopicPartition(topic, 0)

    async def main() -> List[int]:
        await _fill(broker.bootstrap_servers, topic, 20)
        consumer = _consumer(broker)
        await consumer.start()
        consumer.assign([tp])
        offsets = []
        async for record in consumer:
            offsets.append(record.offset)
            if len(offsets) == 20:
                break
        await consumer.stop()
        with pytest.raises(ConsumerStoppedError):
            await consumer.getone()
        async for _record in consumer:  # a stopped consumer ends the iteration
            raise AssertionError("no record after stop()")
        return offsets

    assert run(main()) == list(range(20))


def test_paused_partitions_hand_out_nothing(broker) -> None:
    topic = new_topic(broker, partitions=2, prefix="aioc-pause")
    tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]

    async def main() -> None:
        await _fill(broker.bootstrap_servers, topic, 40, partitions=2)
        async with _consumer(broker) as consumer:
            consumer.assign(tps)
            consumer.pause(tps[0])
            got = {}
            while sum(len(v) for v in got.values()) < 20:
                for tp, records in (await consumer.getmany(timeout_ms=3000)).items():
                    got.setdefault(tp, []).extend(records)
            assert set(got) == {tps[1]}
            consumer.resume(tps[0])
            more = await consumer.getmany(timeout_ms=3000)
            assert set(more) == {tps[0]}

    run(main())


def test_commit_needs_a_group(broker) -> None:
    async def main() -> None:
        async with _consumer(broker) as consumer:
            consumer.assign([TopicPartition("anything", 0)])
            with pytest.raises(IllegalOperation):
                await consumer.commit()
            with pytest.raises(IllegalOperation):
                await consumer.committed(TopicPartition("anything", 0))

    run(main())


def test_auto_commit_commits_positions_at_stop(broker) -> None:
    topic = new_topic(broker, partitions=1, prefix="aioc-auto")
    tp = TopicPartition(topic, 0)

    async def main() -> Any:
        await _fill(broker.bootstrap_servers, topic, 30)
        async with _consumer(broker, group_id="g-" + topic) as consumer:
            consumer.assign([tp])
            taken = 0
            while taken < 12:
                taken += len((await consumer.getmany(timeout_ms=3000, max_records=12 - taken)).get(tp, ()))
        async with _consumer(broker, group_id="g-" + topic) as again:
            again.assign([tp])
            return await again.committed(tp), (await again.getone()).offset

    assert run(main()) == (12, 12)


def test_no_callback_holds_the_loop_in_debug_mode(broker) -> None:
    topic = new_topic(broker, partitions=3, prefix="aioc-debug")

    async def main() -> int:
        # Before anything runs (filling the topic included): see test_producer.py for why not 0.1.
        asyncio.get_running_loop().slow_callback_duration = 0.5
        await _fill(broker.bootstrap_servers, topic, 20000, partitions=3, codec="gzip")
        count = 0
        async with _consumer(broker) as consumer:
            consumer.assign([TopicPartition(topic, p) for p in range(3)])
            while count < 20000:
                got = await consumer.getmany(timeout_ms=5000, max_records=5000)
                assert got
                count += sum(len(r) for r in got.values())
        return count

    # As in test_producer.py: no cyclic collection of the whole test process during the run.
    gc.disable()
    try:
        with SlowCallbacks() as slow:
            assert run(main(), debug=True) == 20000
    finally:
        gc.enable()
    assert slow.messages == []
