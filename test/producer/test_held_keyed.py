"""Keyed records that send() holds back and hands over in bulk (kafka.producer.held).

Against the embedded broker: what the application sees must be exactly what
it saw when every keyed record went to its batch inside send(): murmur2
partitions, per-partition order across every kind of send, delivery within
linger without further calls, back-pressure, close, purge and futures.
"""

from __future__ import annotations

import random
import threading
import time
import uuid

import pytest

from kafka import direct, errors, fast_paths
from kafka.conn.blocking import BlockingConnection
from kafka.consumer import KafkaConsumer
from kafka.producer import KafkaProducer
from kafka.producer.accumulator import RecordAccumulator
from kafka.producer.batch import BATCH_OVERHEAD
from kafka.producer.future import FutureRecordMetadata
from kafka.producer.held import HeldRecords, place
from kafka.producer.partitioner import murmur2_partition
from kafka.structs import TopicPartition


def _topic(broker, partitions):
    name = "held-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=partitions)
    return name


def _read_all(broker, topic, partitions, count, timeout=30.0):
    """{partition: [(key, value), ...]} in offset order, once ``count`` records are in (or the time is up)."""
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
    try:
        consumer.assign([TopicPartition(topic, p) for p in range(partitions)])
        got = {p: [] for p in range(partitions)}
        seen = 0
        deadline = time.monotonic() + timeout
        while seen < count and time.monotonic() < deadline:
            for tp, records in consumer.poll(timeout_ms=300).items():
                got[tp.partition].extend((r.key, r.value) for r in records)
                seen += len(records)
        return got
    finally:
        consumer.close()


def _keys(count, seed=5):
    rnd = random.Random(seed)
    return [bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 40))) for _ in range(count)]


class _Stamp(int):
    """An int of another type: send()'s keyed fast path leaves it to _send."""


def _warm(producer, topic):
    """One keyed record through _send, which opens send()'s keyed path for ``topic``."""
    producer.send(topic, b"warm", key=b"warm").get(30)


def test_partitions_offsets_and_futures_match_murmur2(broker):
    topic = _topic(broker, 6)
    keys = _keys(3000)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=50) as producer:
        _warm(producer, topic)
        futures, held = [], 0
        for i, key in enumerate(keys):
            future = producer.send(topic, b"v%d" % i, key=key)
            if future._result.is_held:  # looked at at once: the sender thread hands groups over
                held += 1
                assert not future.is_done and future.exception is None and "held" in repr(future)
            futures.append(future)
        assert held > len(keys) // 2  # the path under test was taken
        metadata = [f.get(30) for f in futures]
    assert [m.partition for m in metadata] == [murmur2_partition(key, 6) for key in keys]
    got = _read_all(broker, topic, 6, len(keys) + 1)
    for m, key, i in zip(metadata, keys, range(len(keys))):
        assert got[m.partition][m.offset] == (key, b"v%d" % i)
        assert m.serialized_key_size == len(key)


def test_held_records_leave_within_linger_without_another_call(broker):
    topic = _topic(broker, 3)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5) as producer:
        _warm(producer, topic)
        held = None
        for i in range(1000):  # until one is seen held (the sender thread may hand one over at once)
            future = producer.send(topic, b"alone-%d" % i, key=b"k1")
            if future._result.is_held:
                held = (i, future)
                break
        assert held is not None
        # Only the sender thread's turn can hand it over now.
        got = _read_all(broker, topic, 3, held[0] + 2, timeout=20)  # nothing here touches the producer
        assert (b"k1", b"alone-%d" % held[0]) in got[murmur2_partition(b"k1", 3)]
        assert held[1].get(10).partition == murmur2_partition(b"k1", 3)


@pytest.mark.parametrize("kind", ["partition", "send_batch", "keyless", "timestamp"])
def test_every_other_kind_of_send_stays_behind_the_held_records(broker, kind):
    topic = _topic(broker, 4)
    sent = {p: [] for p in range(4)}
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=200) as producer:
        _warm(producer, topic)
        sent[murmur2_partition(b"warm", 4)].append((b"warm", b"warm"))
        for warm in (b"keyless-warm", b"keyless-warm-2"):  # the second takes send()'s keyless fast path
            keyless_partition = producer.send(topic, warm).get(30).partition
            sent[keyless_partition].append((None, warm))
        # Only the send under test may hand the held records over: not the sender thread's turns.
        producer._sender.turn_hooks.remove(producer.pipeline.hand_over_held)
        futures = []
        for round_ in range(3):
            held = 0
            for i, key in enumerate(_keys(100, seed=round_)):  # groups of 100: holding stays on
                value = b"%d-%d" % (round_, i)
                future = producer.send(topic, value, key=key)
                held += future._result.is_held  # the first after a metadata change goes straight
                futures.append(future)
                sent[murmur2_partition(key, 4)].append((key, value))
            assert held >= 90
            value = b"other-%d" % round_
            if kind == "partition":
                for part in range(4):
                    futures.append(producer.send(topic, value, key=b"explicit", partition=part))
                    sent[part].append((b"explicit", value))
            elif kind == "send_batch":
                futures.append(producer.send_batch(topic, [value] * 4, keys=[b"bulk"] * 4, partition=1))
                sent[1].extend([(b"bulk", value)] * 4)
            elif kind == "keyless":
                futures.append(producer.send(topic, value))
                sent[keyless_partition].append((None, value))
            else:  # a keyed record whose timestamp is of a type only _send converts
                futures.append(producer.send(topic, value, key=b"stamped", timestamp_ms=_Stamp(1_700_000_000_000)))
                sent[murmur2_partition(b"stamped", 4)].append((b"stamped", value))
        producer.flush(30)
        for future in futures:
            future.get(1)
    got = _read_all(broker, topic, 4, sum(map(len, sent.values())))
    assert got == sent


def test_keyless_records_stay_behind_held_keyed_records(broker):
    topic = _topic(broker, 1)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=200) as producer:
        _warm(producer, topic)
        producer.send(topic, b"keyless-warm").get(30)  # opens send()'s keyless fast path too
        for i in range(300):
            producer.send(topic, b"%d" % i, key=b"k" if i % 2 else None)
        producer.flush(30)
        # Keyless records came between keyed ones all the time: the topic stopped holding them.
        assert producer.pipeline.key_routes[topic].hold is False
        assert not producer.send(topic, b"direct", key=b"k")._result.is_held
    got = _read_all(broker, topic, 1, 303)[0]
    assert [value for _, value in got[2:302]] == [b"%d" % i for i in range(300)]


def test_close_delivers_held_records(broker):
    topic = _topic(broker, 3)
    keys = _keys(500, seed=3)
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=10_000)
    _warm(producer, topic)
    futures = [producer.send(topic, b"c%d" % i, key=key) for i, key in enumerate(keys)]
    producer.close(30)
    assert all(f.succeeded() for f in futures)
    got = _read_all(broker, topic, 3, 501)
    assert sum(map(len, got.values())) == 501
    with pytest.raises(errors.IllegalStateError):
        producer.send(topic, b"late", key=b"k")


def test_purge_fails_held_records_as_queued(broker):
    topic = _topic(broker, 3)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=60_000) as producer:
        _warm(producer, topic)
        futures = [producer.send(topic, b"x", key=b"k%d" % i) for i in range(100)]
        producer.purge()
        for future in futures:
            with pytest.raises(errors.PurgedInQueueError):
                future.get(10)
        assert producer._accumulator.used_memory == 0


def test_callbacks_on_held_futures_see_their_own_record(broker):
    topic = _topic(broker, 5)
    seen = []
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=100) as producer:
        _warm(producer, topic)
        for i in range(200):
            key = b"key-%d" % i
            producer.send(topic, b"v", key=key).add_callback(
                lambda metadata, key=key: seen.append((key, metadata.partition)))
        producer.flush(30)
    assert sorted(seen) == sorted((b"key-%d" % i, murmur2_partition(b"key-%d" % i, 5)) for i in range(200))


def test_threads_sending_at_once_keep_each_threads_order(broker):
    topic = _topic(broker, 3)
    per_thread = 2000
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5, batch_size=4096) as producer:
        _warm(producer, topic)

        def run(n):
            for i in range(per_thread):
                producer.send(topic, b"%d:%d" % (n, i), key=b"thread-%d" % n)

        threads = [threading.Thread(target=run, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        producer.flush(60)
        assert producer._accumulator.used_memory == 0  # no held memory left behind
    got = _read_all(broker, topic, 3, 4 * per_thread + 1, timeout=60)
    for n in range(4):
        values = [value for key, value in got[murmur2_partition(b"thread-%d" % n, 3)] if key == b"thread-%d" % n]
        assert values == [b"%d:%d" % (n, i) for i in range(per_thread)]


def test_small_buffer_memory_delivers_everything_without_deadlock(broker):
    topic = _topic(broker, 3)
    keys = _keys(3000, seed=11)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, buffer_memory=6000, batch_size=1000,
                       linger_ms=1, max_block_ms=30_000) as producer:
        _warm(producer, topic)
        futures = [producer.send(topic, b"m" * 60, key=key) for key in keys]
        producer.flush(60)
        assert all(f.succeeded() for f in futures)
        assert producer._accumulator.used_memory == 0


def test_back_pressure_on_held_records_blocks_up_to_max_block_ms_then_raises(mock_cluster):
    mock_cluster.create_topic("stall-keyed", 3, 1)
    with KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, buffer_memory=20000, batch_size=5000,
                       max_block_ms=800, linger_ms=0, request_timeout_ms=60000,
                       delivery_timeout_ms=120000) as producer:
        producer.send("stall-keyed", b"warm-up", key=b"k").get(10)
        for node in (1, 2, 3):
            mock_cluster.set_rtt(node, 30000)  # the leaders stop answering in time
        started = time.monotonic()
        with pytest.raises(errors.KafkaTimeoutError, match="buffer_memory"):
            for i in range(10000):
                producer.send("stall-keyed", b"x" * 500, key=b"k%d" % i)
        assert 0.7 < time.monotonic() - started < 5
        assert producer._accumulator.used_memory <= 20000 + 3000
        for node in (1, 2, 3):
            mock_cluster.set_rtt(node, 0)
        producer.close(timeout=1)


@pytest.mark.parametrize("pypy", [False, True], ids=["cpython-paths", "pypy-paths"])
def test_place_fails_what_it_cannot_place_and_returns_unused_memory(pypy):
    # PyPy takes plain loops where CPython maps and sorts (grouping, binding, hashing): both run here.
    with fast_paths.override(PLAIN_LOOPS=pypy, MURMUR2_KEY_LANES=not pypy, MURMUR2_LANES=not pypy):
        _place_fails_what_it_cannot_place_and_returns_unused_memory()


def _place_fails_what_it_cannot_place_and_returns_unused_memory():
    accumulator = RecordAccumulator(batch_size=1000, linger_ms=0, buffer_memory=100_000, retry_backoff_ms=100,
                                    delivery_timeout_ms=10_000)
    tps = [TopicPartition("t", p) for p in range(3)]

    def held_with(count, reserved):
        accumulator.reserve(reserved, 0)
        held = HeldRecords("t", 1, tps, reserved, lambda: None)
        for i in range(count):
            key = b"key%d" % i
            held.records.append((1000 + i, key, b"value", None))
            held.sizes.append(40)
            held.credit -= 40
            held.futures.append(FutureRecordMetadata(held, -1, 1000 + i, len(key), 5, -1))
        return held

    # Placed: every future is bound to a batch of murmur2's partition, in order, and the spare memory goes back.
    held = held_with(50, 10_000)
    place(accumulator, held, None)
    for i, future in enumerate(held.futures):
        assert future._result.topic_partition == tps[murmur2_partition(b"key%d" % i, 3)]
    by_tp = {}
    for future in held.futures:
        by_tp.setdefault(future._result.topic_partition, []).append(future._index)
    assert all(indexes == sorted(indexes) for indexes in by_tp.values())
    batches = {batch.result: batch for queue in accumulator._batches.values() for batch in queue}
    for i, future in enumerate(held.futures):  # each future names its own record in its batch
        assert batches[future._result].record_tuples()[future._index][1] == b"key%d" % i
    assert accumulator.used_memory == 50 * 40 + len(by_tp) * BATCH_OVERHEAD

    # The producer cannot send any more: every future fails with its error, the memory goes back.
    used = accumulator.used_memory
    failure = errors.KafkaError("fatal")
    held = held_with(20, 5_000)
    place(accumulator, held, failure)
    assert all(f.is_done and f.exception is failure for f in held.futures)
    assert accumulator.used_memory == used

    # A closed accumulator refuses the records: they fail with its error.
    held = held_with(20, 5_000)
    accumulator.close()
    place(accumulator, held, None)
    assert all(isinstance(f.exception, errors.IllegalStateError) for f in held.futures)
    assert accumulator.used_memory == used
