"""KafkaClient against the embedded broker and against peers that are not Kafka."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from kafka import direct, errors
from kafka.client import KafkaClient
from kafka.conn.blocking import BlockingConnection
from kafka.protocol.apis import API_VERSIONS, METADATA, PRODUCE
from kafka.record import MemoryRecords, MemoryRecordsBuilder
from kafka.structs import TopicPartition

from ..conn.test_blocking import _Peer, _hang_up, _http, _silent
from ..support.waiting import wait_until


def _topic(broker, partitions=3):
    name = "client-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=partitions)
    return name


def _blob(value: bytes) -> bytes:
    builder = MemoryRecordsBuilder()
    builder.append(0, None, None, value)
    return builder.build()


def _build_produce(node_id, version, items):
    by_topic = {}
    for tp, records in items:
        by_topic.setdefault(tp.topic, []).append(
            PRODUCE.Request.TopicProduceData.PartitionProduceData(index=tp.partition, records=records))
    return PRODUCE.Request(acks=1, timeout_ms=10000, topic_data=[
        PRODUCE.Request.TopicProduceData(name=t, partition_data=parts) for t, parts in by_topic.items()])


def _parse_produce(response):
    return {(t.name, p.index): (p.error_code, p.base_offset)
            for t in response.responses for p in t.partition_responses}


def test_metadata_routing_and_dispatch(broker):
    topic = _topic(broker)
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers)
    try:
        client.ensure_topics([topic], timeout_ms=10000)
        assert client.cluster.partitions_for_topic(topic) == {0, 1, 2}
        leader = client.leader_for(TopicPartition(topic, 2))
        assert client.cluster.broker_metadata(leader).port == broker.port
        items = [(TopicPartition(topic, p % 3), _blob(b"v%d" % i)) for i, p in enumerate([2, 0, 1, 2, 0])]
        outcomes = client.dispatch_by_leader(PRODUCE, items, _build_produce, _parse_produce, timeout_ms=10000)
        assert [o.error for o in outcomes] == [None] * 5
        assert all(isinstance(o.value, int) and o.value >= 0 for o in outcomes)
    finally:
        client.close()


def test_unknown_topic_surfaces_as_its_error(broker):
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers, allow_auto_create_topics=False)
    try:
        with pytest.raises((errors.UnknownTopicOrPartitionError, errors.LeaderNotAvailableError)):
            client.leader_for(TopicPartition("no-such-topic-" + uuid.uuid4().hex, 0), timeout_ms=2000)
    finally:
        client.close()


def test_pipelining_is_bounded_by_max_in_flight(broker):
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers, max_in_flight_requests_per_connection=3)
    try:
        client.refresh_metadata(5000)  # so no metadata request takes a slot below
        node = client.least_loaded_node()
        assert client.await_ready(node, 5000)
        assert client.in_flight_request_count(node) == 0
        futures = [client.send(node, API_VERSIONS.Request()) for _ in range(5)]
        assert [f.failed() for f in futures] == [False, False, False, True, True]
        assert isinstance(futures[3].exception, errors.NodeNotReadyError)
        for f in futures[:3]:
            assert client.wait_for(f, 5000).error_code == 0
        assert client.in_flight_request_count() == 0
    finally:
        client.close()


def test_threads_share_one_client(broker):
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers, max_in_flight_requests_per_connection=50)
    failures = []

    def worker():
        try:
            for _ in range(20):
                response = client.send_to_any(METADATA.Request(topics=[]), timeout_ms=10000)
                assert response.brokers
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            failures.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    client.close()
    assert not failures


def test_a_response_another_thread_reads_ends_the_wait_for_it(broker):
    # As a transactional producer: its sender thread polls the client up to a
    # second at a time and starts its next poll at once, while the
    # application thread waits for a coordinator's answer (EndTxn,
    # AddPartitionsToTxn, ...). The sender reads that answer; the waiting
    # thread must return then, not when it manages to take the polling over
    # (the sender here polls a minute at a time: that would be a timeout).
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers)
    stop = threading.Event()
    polls = []

    def poller():
        while not stop.is_set():
            polls.append(1)
            client.poll(timeout_ms=60000)

    thread = threading.Thread(target=poller, daemon=True)
    try:
        client.send_to_any(METADATA.Request(topics=[]), timeout_ms=10000)
        node = next(iter(b.node_id for b in client.cluster.brokers()))
        assert client.await_ready(node, 10000)
        thread.start()
        assert wait_until(lambda: polls, timeout=10)
        for _ in range(20):
            started = time.monotonic()
            response = client.send_and_wait(node, METADATA.Request(topics=[]), timeout_ms=30000)
            assert response.brokers
            # Not a speed check: a wait ending only with the other thread's
            # poll (a minute) or with its own timeout (half a minute) fails.
            assert time.monotonic() - started < 10
    finally:
        stop.set()
        client.wakeup()
        thread.join(10)
        client.close()
    assert not thread.is_alive()


@pytest.mark.parametrize("behaviour,expected", [(_http, "Kafka broker"), (_silent, "took longer"),
                                                (_hang_up, "closed the connection")])
def test_non_kafka_peers_give_clear_errors_in_bounded_time(behaviour, expected):
    peer = _Peer(behaviour)
    client = KafkaClient(bootstrap_servers="127.0.0.1:%d" % peer.port, socket_connection_setup_timeout_ms=1000,
                         request_timeout_ms=1500, reconnect_backoff_ms=50)
    try:
        started = time.monotonic()
        with pytest.raises(errors.KafkaError) as info:
            client.send_to_any(METADATA.Request(topics=[]), timeout_ms=2500)
        assert time.monotonic() - started < 6.0
        assert expected in str(info.value)
    finally:
        client.close()
        peer.close()


def test_closed_port_gives_no_brokers_available():
    client = KafkaClient(bootstrap_servers="127.0.0.1:1", reconnect_backoff_ms=20)
    try:
        with pytest.raises(errors.NoBrokersAvailable, match="refused"):
            client.send_to_any(METADATA.Request(topics=[]), timeout_ms=1000)
    finally:
        client.close()


def test_reconnects_after_the_broker_is_killed_and_replaced(fresh_broker):
    topic = _topic(fresh_broker, partitions=1)
    threads_before = threading.active_count()
    client = KafkaClient(bootstrap_servers=fresh_broker.bootstrap_servers, reconnect_backoff_ms=20,
                         reconnect_backoff_max_ms=200, request_timeout_ms=5000)
    try:
        tp = TopicPartition(topic, 0)
        first = client.dispatch_by_leader(PRODUCE, [(tp, _blob(b"before"))], _build_produce, _parse_produce, 10000)
        assert first[0].error is None
        fresh_broker.kill()
        fresh_broker.start()  # same port, empty (Tansu keeps data in memory)
        _recreate = _topic_named(fresh_broker, topic)
        outcome = client.dispatch_by_leader(PRODUCE, [(tp, _blob(b"after"))], _build_produce, _parse_produce,
                                            timeout_ms=20000, retries=20)
        assert outcome[0].error is None, outcome
        with BlockingConnection(fresh_broker.host, fresh_broker.port) as conn:
            info = direct.describe_topic(conn, topic)
            fetched = direct.fetch(conn, info, 0, 0)
        assert [r.value for r in MemoryRecords(fetched.records).records()] == [b"after"]
        # The client runs no threads of its own: nothing is left spinning.
        assert threading.active_count() == threads_before
    finally:
        client.close()


def _topic_named(broker, name):
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=1)
    return name
