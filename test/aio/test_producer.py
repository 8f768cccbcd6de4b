"""kafka.aio.AIOKafkaProducer on its own: sending, batching, errors, stopping, retries."""

from __future__ import annotations

import asyncio
import gc
import json

import pytest

from kafka.aio import AIOKafkaProducer, RecordMetadata
from kafka.aio.errors import ProducerClosed
from kafka.errors import KafkaConfigurationError, KafkaConnectionError, MessageSizeTooLargeError
from kafka.testing.broker import free_port
from test.aio.helpers import SlowCallbacks, by_partition, read_back, run
from test.support.topics import new_topic


def test_send_returns_a_future_resolved_on_delivery(broker) -> None:
    topic = new_topic(broker, partitions=2, prefix="aio-send")

    async def main() -> None:
        async with AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=20) as producer:
            future = await producer.send(topic, b"v", key=b"k", timestamp_ms=1700000000000,
                                         headers=[["as-list", b"1"], ("as-tuple", b"2")])
            assert isinstance(future, asyncio.Future)
            md = await future
            assert isinstance(md, RecordMetadata)
            assert (md.topic, md.offset, md.timestamp, md.timestamp_type) == (topic, 0, 1700000000000, 0)
            assert md.topic_partition == (topic, md.partition)
            assert await producer.partitions_for(topic) == {0, 1}

    run(main())


def test_many_records_keep_their_order_per_partition(broker) -> None:
    topic = new_topic(broker, partitions=3, prefix="aio-many")
    count = 5000

    async def main() -> list:
        async with AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5,
                                    max_batch_size=4096) as producer:
            futures = [await producer.send(topic, b"%d" % i, key=b"%d" % (i % 50)) for i in range(count)]
            await producer.flush()
            assert all(f.done() for f in futures)
            return [f.result() for f in futures]

    metadata = run(main())
    for offsets in by_partition(metadata).values():
        assert offsets == list(range(len(offsets)))
    records = read_back(broker.bootstrap_servers, topic, 3, count)
    assert sorted(int(v) for _k, v, _h, _p in records) == list(range(count))


def test_serializers_acks_zero_and_compression(broker) -> None:
    topic = new_topic(broker, partitions=1, prefix="aio-ser")

    async def main() -> None:
        async with AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, acks=0, compression_type="gzip",
                                    key_serializer=str.encode,
                                    value_serializer=lambda v: json.dumps(v).encode()) as producer:
            md = await producer.send_and_wait(topic, {"a": 1}, key="k")
            assert md.offset == -1  # acks=0: the broker says nothing
            await producer.send(topic, [1, 2], key="k2")

    run(main())
    assert read_back(broker.bootstrap_servers, topic, 1, 2) == [(b"k", b'{"a": 1}', [], 0), (b"k2", b"[1, 2]", [], 0)]


def test_stop_sends_what_is_queued_and_refuses_more(broker) -> None:
    topic = new_topic(broker, partitions=1, prefix="aio-stop")

    async def main() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=10000)
        await producer.start()
        futures = [await producer.send(topic, b"%d" % i) for i in range(10)]
        await producer.stop()
        assert [f.result().offset for f in futures] == list(range(10))
        with pytest.raises(ProducerClosed):
            await producer.send(topic, b"late")

    run(main())


def test_cancelling_send_and_wait_leaves_the_producer_usable(broker) -> None:
    topic = new_topic(broker, partitions=1, prefix="aio-cancel")

    async def main() -> None:
        async with AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=300) as producer:
            await producer.partitions_for(topic)
            waiting = asyncio.ensure_future(producer.send_and_wait(topic, b"cancelled"))
            await asyncio.sleep(0.05)  # appended, lingering
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            # And a cancel while the Produce request is in flight.
            in_flight = asyncio.ensure_future(producer.send_and_wait(topic, b"in flight"))
            await asyncio.sleep(0.32)
            in_flight.cancel()
            md = await producer.send_and_wait(topic, b"after")
            await asyncio.wait_for(producer.flush(), 10)
            assert md.offset >= 1

    run(main())
    # Cancelling the wait does not take back a record already appended (aiokafka's semantics too).
    values = sorted(v for _k, v, _h, _p in read_back(broker.bootstrap_servers, topic, 1, 3))
    assert values == [b"after", b"cancelled", b"in flight"]


def test_no_callback_holds_the_loop_in_debug_mode(broker) -> None:
    topic = new_topic(broker, partitions=3, prefix="aio-debug")

    async def main() -> None:
        # 0.5 s, not asyncio's 0.1: the test workers share two cores with their brokers and a
        # step can be descheduled for 0.1 s (seen once under load). So this catches a step
        # that holds the loop for 0.5 s or more, such as a wait on a socket or a lock.
        asyncio.get_running_loop().slow_callback_duration = 0.5
        async with AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5,
                                    compression_type="gzip") as producer:
            for i in range(20000):
                await producer.send(topic, b"x" * 100, key=b"%d" % (i % 100))
            await producer.send_and_wait(topic, b"last")

    # The cyclic garbage collector is off while it runs: in debug mode every
    # future carries its creation stack, so a full collection of this test
    # process's heap (pytest's, other tests') took 40-300 ms now and then and
    # was reported as a slow callback of whatever step it interrupted. What
    # is looked for here is the producer's own work holding the loop; that it
    # leaves no reference cycles for the collector is tested below.
    gc.disable()
    try:
        with SlowCallbacks() as slow:
            run(main(), debug=True)
    finally:
        gc.enable()
    assert slow.messages == []


def test_producing_leaves_no_reference_cycles(broker) -> None:
    topic = new_topic(broker, partitions=3, prefix="aio-cycles")

    async def main() -> list:
        async with AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5) as producer:
            await producer.send_and_wait(topic, b"first")  # connections and metadata in place
            gc.collect()
            gc.disable()
            gc.set_debug(gc.DEBUG_SAVEALL)
            try:
                for i in range(3000):
                    await producer.send(topic, b"x" * 100, key=b"%d" % (i % 30))
                await producer.flush()
                gc.collect()
                return [type(o).__name__ for o in gc.garbage]
            finally:
                gc.set_debug(0)
                gc.garbage.clear()
                gc.enable()

    assert run(main()) == []


def test_retriable_produce_errors_are_retried(mock_cluster) -> None:
    mock_cluster.create_topic("retried", partitions=2)
    not_leader, timed_out = 6, 7

    async def main() -> None:
        async with AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers,
                                    retry_backoff_ms=20) as producer:
            await producer.partitions_for("retried")
            mock_cluster.push_request_errors(0, not_leader, timed_out, not_leader)
            md = await producer.send_and_wait("retried", b"v", partition=1)
            assert (md.partition, md.offset) == (1, 0)

    run(main())


def test_a_dropped_connection_is_made_again_and_the_batch_resent(mock_cluster) -> None:
    from kafka.testing.mock_cluster import DISCONNECT

    mock_cluster.create_topic("dropped", partitions=1)

    async def main() -> None:
        async with AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers,
                                    retry_backoff_ms=20) as producer:
            await producer.partitions_for("dropped")
            mock_cluster.push_request_errors(0, DISCONNECT)
            futures = [await producer.send("dropped", b"%d" % i) for i in range(5)]
            assert [(await f).offset for f in futures] == list(range(5))

    run(main())


def test_a_non_retriable_error_fails_the_records(mock_cluster) -> None:
    from kafka.errors import InvalidTopicError

    mock_cluster.create_topic("refused", partitions=1)
    invalid_topic = 17

    async def main() -> None:
        async with AIOKafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers) as producer:
            await producer.partitions_for("refused")
            mock_cluster.push_request_errors(0, invalid_topic)
            with pytest.raises(InvalidTopicError):
                await producer.send_and_wait("refused", b"v")
            assert (await producer.send_and_wait("refused", b"w")).offset == 0

    run(main())


def test_configuration_and_record_checks() -> None:
    async def main() -> None:
        with pytest.raises(KafkaConfigurationError):
            AIOKafkaProducer(enable_idempotence=True)
        with pytest.raises(ValueError):
            AIOKafkaProducer(acks=2)
        with pytest.raises(ValueError):
            AIOKafkaProducer(compression_type="brotli")
        producer = AIOKafkaProducer(bootstrap_servers="127.0.0.1:%d" % free_port(), request_timeout_ms=1000)
        with pytest.raises(KafkaConnectionError):
            await producer.start()
        await producer.stop()

    run(main())


def test_records_too_large_or_of_the_wrong_type_are_refused(broker) -> None:
    topic = new_topic(broker, partitions=1, prefix="aio-check")

    async def main() -> None:
        async with AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, max_request_size=1000) as producer:
            with pytest.raises(MessageSizeTooLargeError):
                await producer.send(topic, b"x" * 2000)
            with pytest.raises(TypeError):
                await producer.send(topic, "text")
            with pytest.raises(AssertionError):
                await producer.send(topic)
            with pytest.raises(AssertionError):
                await producer.send(topic, b"v", partition=5)

    run(main())


async def _drive(coro):
    """Run ``coro`` by hand: its result, and whether it suspended on the way (awaited a future or slept)."""
    try:
        yielded = coro.send(None)
    except StopIteration as done:
        return done.value, False
    while True:
        if yielded is None:
            await asyncio.sleep(0)
        else:
            await asyncio.wait([yielded])
        try:
            yielded = coro.send(None)
        except StopIteration as done:
            return done.value, True


def test_most_sends_complete_without_suspending(broker) -> None:
    """The fast path: once the partition has an open batch, send() appends and returns without awaiting."""
    topic = new_topic(broker, partitions=1, prefix="aio-fast")

    async def main() -> None:
        async with AIOKafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=50) as producer:
            await producer.send_and_wait(topic, b"first")  # metadata known
            futures, suspended = [], 0
            for i in range(200):
                future, waited = await _drive(producer.send(topic, b"%d" % i, key=b"k" if i % 2 else None,
                                                            headers=[("h", b"v")] if i % 3 == 0 else None))
                futures.append(future)
                suspended += waited
            assert suspended <= 2
            metadata = await asyncio.gather(*futures)
            assert [md.offset for md in metadata] == list(range(1, len(futures) + 1))
            assert len({md.timestamp for md in metadata}) < len(metadata) or len(metadata) < 2

    run(main())
