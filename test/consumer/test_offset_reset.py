"""Offset resets are looked up partition by partition: one bad leader holds back only its partition."""

from __future__ import annotations

import time

import pytest

from kafka import KafkaConsumer, KafkaProducer, errors
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.support.fetch_answers import ServedLog, fetch_handler

P0, P1 = TopicPartition("m", 0), TopicPartition("m", 1)


def _collect(consumer, got, until, seconds):
    """Poll into ``got`` ({tp: [offsets]}) until ``until()`` holds; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "records did not arrive in %d s: %r" % (seconds, got)
        for tp, records in consumer.poll(timeout_ms=100).items():
            got.setdefault(tp, []).extend(r.offset for r in records)


def test_a_partition_whose_leader_is_down_does_not_hold_back_the_others(mock_cluster):
    mock_cluster.create_topic("m", 2, 1)
    mock_cluster.set_partition_leader("m", 0, 1)
    mock_cluster.set_partition_leader("m", 1, 2)
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers)
    for i in range(3):
        for p in (0, 1):
            producer.send("m", b"v%d" % i, partition=p)
    producer.flush(10)
    producer.close()
    mock_cluster.broker_down(2)  # the leader of partition 1; leadership does not move
    consumer = KafkaConsumer(bootstrap_servers=mock_cluster.bootstrap_servers, auto_offset_reset="earliest",
                             request_timeout_ms=5000, retry_backoff_ms=50, fetch_max_wait_ms=100)
    try:
        consumer.assign([P0, P1])
        got = {}
        _collect(consumer, got, lambda: len(got.get(P0, [])) == 3, 15)
        assert got == {P0: [0, 1, 2]}
        mock_cluster.broker_up(2)
        _collect(consumer, got, lambda: len(got.get(P1, [])) == 3, 15)
        assert got == {P0: [0, 1, 2], P1: [0, 1, 2]}
    finally:
        consumer.close()


def _list_offsets_answer(codes):
    """A ListOffsets handler answering each partition with ``codes[partition]`` (offset 0 when 0)."""

    def handle(request):
        topics = []
        for topic in request.body.topics:
            parts = [{"partition_index": p.partition_index, "error_code": codes[p.partition_index],
                      "timestamp": -1, "offset": 0 if not codes[p.partition_index] else -1, "leader_epoch": 0}
                     for p in topic.partitions]
            topics.append({"name": topic.name, "partitions": parts})
        return {"topics": topics}

    return handle


def _batch(values):
    from kafka.record import RecordBatchBuilder

    builder = RecordBatchBuilder(base_offset=0)
    for i, value in enumerate(values):
        builder.append(i, 1000 + i, None, value)
    return builder.build()


def _peer_consumer(peer, codes):
    logs = {"m": {0: ServedLog([_batch([b"a", b"b"])]), 1: ServedLog([_batch([b"c"])])}}
    peer.on("Fetch", fetch_handler(peer, logs))
    peer.on("ListOffsets", _list_offsets_answer(codes))
    consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, auto_offset_reset="earliest",
                             request_timeout_ms=5000, retry_backoff_ms=50, fetch_max_wait_ms=50)
    consumer.assign([P0, P1])
    return consumer


def test_a_retriable_list_offsets_error_is_retried_while_the_other_partition_is_read():
    codes = {0: 0, 1: errors.NotLeaderForPartitionError.errno}
    with ScriptedPeer(topics={"m": 2}) as peer:
        consumer = _peer_consumer(peer, codes)
        try:
            got = {}
            _collect(consumer, got, lambda: len(got.get(P0, [])) == 2, 10)
            assert P1 not in got
            asked = len(peer.received("ListOffsets"))
            _collect(consumer, got, lambda: len(peer.received("ListOffsets")) > asked, 10)  # retried, in the background
            started = time.monotonic()
            with pytest.raises(errors.KafkaTimeoutError):
                consumer.position(P1, timeout_ms=300)  # waits for the lookup, as long as it is told
            assert time.monotonic() - started < 5
            codes[1] = 0  # the partition's leader is back
            _collect(consumer, got, lambda: len(got.get(P1, [])) == 1, 10)
            assert got == {P0: [0, 1], P1: [0]}
        finally:
            consumer.close()


def test_a_list_offsets_error_no_retry_mends_still_reaches_the_application():
    codes = {0: 0, 1: errors.TopicAuthorizationFailedError.errno}
    with ScriptedPeer(topics={"m": 2}) as peer:
        consumer = _peer_consumer(peer, codes)
        try:
            deadline = time.monotonic() + 10
            with pytest.raises(errors.TopicAuthorizationFailedError):
                while time.monotonic() < deadline:
                    consumer.poll(timeout_ms=100)
        finally:
            consumer.close()


def test_a_seek_made_while_the_reset_lookup_is_in_flight_wins_over_its_answer():
    released = __import__("threading").Event()
    answer = _list_offsets_answer({0: 0, 1: 0})

    def held_answer(request):
        released.wait(10)  # the answer leaves only after the application has sought
        return answer(request)

    with ScriptedPeer(topics={"m": 2}) as peer:
        consumer = _peer_consumer(peer, {0: 0, 1: 0})
        peer.on("ListOffsets", held_answer)
        try:
            consumer.assign([P0])
            consumer.poll(timeout_ms=200)  # the earliest-offset lookup is sent and stays unanswered
            assert len(peer.received("ListOffsets")) == 1
            consumer.seek(P0, 1)
            released.set()
            got = {}
            _collect(consumer, got, lambda: got.get(P0), 10)
            assert got[P0] == [1]
            assert consumer.position(P0) == 2
        finally:
            released.set()
            consumer.close()
