"""Tests of :mod:`kafka.testing.mock_cluster`, librdkafka's mock cluster via ctypes.

The cluster's protocol behaviour is checked with confluent-kafka clients and
with hand-built bytes over raw sockets, so these tests do not depend on
kafkawire's own client. Several tests pin down quirks of the mock that
kafkawire's tests must live with; their docstrings say which.
"""

from __future__ import annotations

import os
import socket
import struct
import time
from typing import Dict, Iterator, List, Tuple

import pytest

from kafka.errors import KafkaError
from kafka.testing import mock_cluster as mc
from kafka.testing.mock_cluster import (
    LibrdkafkaNotFoundError,
    MockCluster,
    MockClusterError,
)
from kafka.testing.probe import probe_api_versions
from test.support.waiting import wait_until as _wait_until

confluent_kafka = pytest.importorskip("confluent_kafka")
from confluent_kafka.admin import AdminClient  # noqa: E402

PRODUCE, FETCH, METADATA, API_VERSIONS, JOIN_GROUP = 0, 1, 3, 18, 11
NOT_ENOUGH_REPLICAS = 19  # retriable
UNSUPPORTED_VERSION = 35


# ------------------------------------------------------------------ fixtures


def _new_cluster(num_brokers: int = 3, **kwargs: object) -> MockCluster:
    try:
        return MockCluster(num_brokers, **kwargs)  # type: ignore[arg-type]
    except LibrdkafkaNotFoundError as exc:
        if os.environ.get("KAFKAWIRE_REQUIRE_BROKER", "") not in ("", "0"):
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))
        raise


@pytest.fixture
def cluster() -> Iterator[MockCluster]:
    """A fresh 3-broker mock cluster, closed after the test."""
    with _new_cluster(3) as own:
        yield own


def _producer(cluster: MockCluster, **extra: object) -> "confluent_kafka.Producer":
    conf = {"bootstrap.servers": cluster.bootstrap_servers, "linger.ms": 0}
    conf.update(extra)
    return confluent_kafka.Producer(conf)


def _produce_and_wait(producer: "confluent_kafka.Producer", topic: str,
                      values: List[Tuple[int, bytes]], timeout: float = 20.0) -> list:
    """Produce ``(partition, value)`` pairs; return the delivered messages (errors raise)."""
    delivered: list = []
    errors: list = []

    def on_delivery(err: object, msg: object) -> None:
        (errors if err else delivered).append(err or msg)

    for partition, value in values:
        producer.produce(topic, value=value, partition=partition, on_delivery=on_delivery)
    remaining = producer.flush(timeout)
    assert remaining == 0, "{0} messages not delivered in {1}s".format(remaining, timeout)
    assert not errors, errors
    return delivered


def _read_frame(sock: socket.socket) -> bytes:
    def exactly(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed by the mock broker")
            data += chunk
        return data

    (size,) = struct.unpack(">i", exactly(4))
    return exactly(size)


def _api_versions_raw(address: Tuple[str, int], version: int, correlation_id: int = 41) -> bytes:
    """Send one hand-built ApiVersions request; return the response without its size."""
    client_id = b"kafkawire-test"
    header = struct.pack(">hhih", API_VERSIONS, version, correlation_id, len(client_id)) + client_id
    if version >= 3:
        # Flexible request header v2 ends with (empty) tagged fields; the body
        # has compact strings (length + 1 as an unsigned varint) and tagged fields.
        header += b"\x00"
        body = b"\x0akafkawire" + b"\x040.1" + b"\x00"
    else:
        body = b""
    frame = header + body
    with socket.create_connection(address, timeout=5) as sock:
        sock.sendall(struct.pack(">i", len(frame)) + frame)
        response = _read_frame(sock)
    assert struct.unpack_from(">i", response, 0)[0] == correlation_id
    return response


def _api_versions_error(address: Tuple[str, int], version: int = 0) -> int:
    """The error code of an ApiVersions answer (the int16 after the correlation id)."""
    return struct.unpack_from(">h", _api_versions_raw(address, version), 4)[0]


# ------------------------------------------------------------------ lifecycle


def test_cluster_lifecycle_and_addresses() -> None:
    cluster = _new_cluster(2)
    try:
        assert cluster.broker_ids == [1, 2]
        addresses = cluster.broker_addresses()
        assert sorted(addresses) == [1, 2]
        assert cluster.bootstrap_servers == ",".join(
            "{0}:{1}".format(h, p) for h, p in addresses.values())
        assert "MockCluster(num_brokers=2" in repr(cluster)
        assert mc.librdkafka_version()[0].isdigit()
    finally:
        cluster.close()
    cluster.close()  # idempotent
    assert cluster.closed
    with pytest.raises(MockClusterError, match="closed"):
        cluster.create_topic("late", 1)
    with pytest.raises(OSError):
        probe_api_versions(*addresses[1], timeout=1.0)


def test_invalid_arguments_raise() -> None:
    with pytest.raises(ValueError):
        MockCluster(0)
    with _new_cluster(1) as cluster:
        with pytest.raises(ValueError):
            cluster.set_coordinator("consumer", "g", 1)
        cluster.create_topic("once", 1)
        with pytest.raises(MockClusterError) as info:
            cluster.create_topic("once", 1)
        assert info.value.code == 36  # TOPIC_ALREADY_EXISTS
        assert "TOPIC_ALREADY_EXISTS" in str(info.value)
        with pytest.raises(MockClusterError):
            cluster.set_partition_leader("once", 0, 7)  # no broker 7
        with pytest.raises(MockClusterError):
            cluster.delete_topic("never-created")
        assert isinstance(info.value, KafkaError)


def test_missing_library_is_a_clear_kafka_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mc, "_library", None)
    monkeypatch.setattr(mc, "_functions", {})
    monkeypatch.setattr(mc, "_candidate_paths", lambda: [])
    with pytest.raises(LibrdkafkaNotFoundError) as info:
        MockCluster(1)
    assert isinstance(info.value, KafkaError)
    assert "pip install confluent-kafka" in str(info.value)


def test_api_keys_may_be_given_by_name(cluster: MockCluster) -> None:
    cluster.start_request_tracking()
    probe_api_versions(*cluster.broker_addresses()[3])
    assert cluster.requests("ApiVersions") == [(3, API_VERSIONS)]
    assert cluster.requests(METADATA) == []


# ------------------------------------------------------------------ (a) produce / consume


def test_produce_and_consume_through_a_group(cluster: MockCluster) -> None:
    cluster.create_topic("orders", partitions=6, replication_factor=3)
    producer = _producer(cluster)
    values = [(i % 6, "record-{0}".format(i).encode()) for i in range(12)]
    delivered = _produce_and_wait(producer, "orders", values)
    assert sorted((m.partition(), m.offset()) for m in delivered) == sorted(
        (p, o) for p in range(6) for o in range(2))

    consumer = confluent_kafka.Consumer({
        "bootstrap.servers": cluster.bootstrap_servers, "group.id": "readers",
        "auto.offset.reset": "earliest", "enable.auto.commit": False,
    })
    try:
        started = time.monotonic()
        first_record_after = None
        consumer.subscribe(["orders"])
        seen: Dict[bytes, Tuple[int, int]] = {}
        deadline = started + 20
        while len(seen) < len(values) and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is None:
                continue
            assert msg.error() is None, msg.error()
            first_record_after = first_record_after or time.monotonic() - started
            seen[msg.value()] = (msg.partition(), msg.offset())
        assert sorted(seen) == sorted(v for _, v in values)
        assert all(seen[v][0] == p for p, v in values)
        # With rebalance_delay_ms=0 the group forms quickly (observed ~0.1-0.5 s).
        assert first_record_after is not None and first_record_after < 5.0
    finally:
        consumer.close()


# ------------------------------------------------------------------ (b) metadata & leaders


def test_metadata_reports_brokers_and_moved_leaders(cluster: MockCluster) -> None:
    cluster.create_topic("moves", partitions=6, replication_factor=3)
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap_servers})
    md = admin.list_topics(timeout=10)
    assert {b.id: (b.host, b.port) for b in md.brokers.values()} == cluster.broker_addresses()
    partitions = md.topics["moves"].partitions
    assert sorted(partitions) == list(range(6))
    assert {p.leader for p in partitions.values()} <= {1, 2, 3}
    assert all(sorted(p.replicas) == [1, 2, 3] for p in partitions.values())

    for partition in range(6):
        cluster.set_partition_leader("moves", partition, 3 - partition % 3)
    md = admin.list_topics("moves", timeout=10)
    leaders = {p.id: p.leader for p in md.topics["moves"].partitions.values()}
    assert leaders == {0: 3, 1: 2, 2: 1, 3: 3, 4: 2, 5: 1}

    cluster.set_partition_leader("moves", 0, -1)  # leaderless
    md = admin.list_topics("moves", timeout=10)
    assert md.topics["moves"].partitions[0].leader == -1


def test_topic_error_is_reported_in_metadata(cluster: MockCluster) -> None:
    cluster.create_topic("broken", 1)
    cluster.set_topic_error("broken", 3)  # UNKNOWN_TOPIC_OR_PARTITION
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap_servers})
    md = admin.list_topics("broken", timeout=10)
    assert md.topics["broken"].error is not None
    assert md.topics["broken"].error.code() == 3


# ------------------------------------------------------------------ (c) broker down / up


def test_broker_down_refuses_connections_until_up(cluster: MockCluster) -> None:
    """Down closes and refuses connections; leadership does not move by itself."""
    cluster.create_topic("restarts", partitions=1, replication_factor=3)
    cluster.set_partition_leader("restarts", 0, 2)
    address = cluster.broker_addresses()[2]
    producer = _producer(cluster, **{"message.timeout.ms": 30000})
    _produce_and_wait(producer, "restarts", [(0, b"before")])

    cluster.broker_down(2)
    with pytest.raises(OSError):
        probe_api_versions(*address, timeout=1.0)
    delivered: list = []
    producer.produce("restarts", value=b"while-down", partition=0,
                     on_delivery=lambda err, msg: delivered.append((err, msg)))
    producer.poll(1.5)
    assert delivered == []  # the leader is unreachable, nothing can be written

    cluster.broker_up(2)
    assert probe_api_versions(*address)[API_VERSIONS] == (0, 2)
    assert producer.flush(20) == 0
    assert len(delivered) == 1 and delivered[0][0] is None
    assert delivered[0][1].offset() == 1


def test_produce_follows_a_leader_move_while_the_old_leader_is_down(cluster: MockCluster) -> None:
    cluster.create_topic("failover", partitions=1, replication_factor=3)
    cluster.set_partition_leader("failover", 0, 1)
    producer = _producer(cluster, **{"message.timeout.ms": 30000})
    _produce_and_wait(producer, "failover", [(0, b"a")])
    cluster.start_request_tracking()
    cluster.broker_down(1)
    cluster.set_partition_leader("failover", 0, 3)
    [msg] = _produce_and_wait(producer, "failover", [(0, b"b")])
    assert msg.offset() == 1
    assert set(cluster.request_counts(PRODUCE)) == {3}
    cluster.broker_up(1)


# ------------------------------------------------------------------ (d) error injection


def test_injected_retriable_produce_errors_are_retried(cluster: MockCluster) -> None:
    """Each injected code fails exactly one Produce request and writes nothing."""
    cluster.create_topic("flaky", partitions=1, replication_factor=3)
    cluster.start_request_tracking()
    cluster.push_request_errors("Produce", NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS,
                                NOT_ENOUGH_REPLICAS)
    producer = _producer(cluster, **{"retry.backoff.ms": 10, "enable.idempotence": False})
    [msg] = _produce_and_wait(producer, "flaky", [(0, b"survivor")])
    assert msg.offset() == 0  # the three failed attempts wrote nothing
    assert sum(cluster.request_counts(PRODUCE).values()) == 4

    # Errors are taken off one stack per API key, whichever broker is asked.
    cluster.push_request_errors(API_VERSIONS, 7, 8)
    addresses = cluster.broker_addresses()
    assert _api_versions_error(addresses[1]) == 7
    assert _api_versions_error(addresses[2]) == 8
    assert _api_versions_error(addresses[3]) == 0

    cluster.push_request_errors(API_VERSIONS, 7, 7)
    cluster.clear_request_errors("ApiVersions")
    assert _api_versions_error(addresses[1]) == 0

    cluster.push_request_errors(API_VERSIONS, mc.DISCONNECT)
    with pytest.raises(ConnectionError):
        _api_versions_error(addresses[2])
    assert _api_versions_error(addresses[2]) == 0


def test_per_broker_error_rtts_delay_responses(cluster: MockCluster) -> None:
    address = cluster.broker_addresses()[1]
    cluster.push_broker_request_error_rtts(1, API_VERSIONS, [(0, 400), (8, 0)])
    assert cluster.broker_error_stack_count(1, API_VERSIONS) == 2
    assert cluster.broker_error_stack_count(2, API_VERSIONS) == 0

    started = time.monotonic()
    assert _api_versions_error(address) == 0
    assert time.monotonic() - started >= 0.35
    assert _api_versions_error(cluster.broker_addresses()[2]) == 0  # other brokers unaffected
    assert _api_versions_error(address) == 8
    assert cluster.broker_error_stack_count(1, API_VERSIONS) == 0


def _read_partition(cluster: MockCluster, topic: str, partition: int, count: int) -> List[bytes]:
    consumer = confluent_kafka.Consumer({
        "bootstrap.servers": cluster.bootstrap_servers, "group.id": "reader",
        "enable.auto.commit": False,
    })
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, partition, 0)])
        values: List[bytes] = []
        deadline = time.monotonic() + 10
        while len(values) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                values.append(msg.value())
        return values
    finally:
        consumer.close()


@pytest.mark.parametrize("idempotent", [False, True])
def test_late_produce_response_still_writes_the_batch(cluster: MockCluster,
                                                      idempotent: bool) -> None:
    """A response delayed past the client's timeout: the batch is written anyway.

    librdkafka retries and the mock stores the batch twice, even for an
    idempotent producer: the mock only de-duplicates transactional producers
    (see DESIGN section 3). This is how to make a broker write a batch whose
    response the client never sees.
    """
    cluster.create_topic("late", partitions=1, replication_factor=3)
    cluster.set_partition_leader("late", 0, 1)
    producer = _producer(cluster, **{
        "request.timeout.ms": 1000, "socket.timeout.ms": 1000, "retry.backoff.ms": 10,
        "message.timeout.ms": 20000, "enable.idempotence": idempotent})
    _produce_and_wait(producer, "late", [(0, b"first")])
    cluster.start_request_tracking()
    cluster.push_broker_request_error_rtts(1, "Produce", [(0, 4000)])
    [msg] = _produce_and_wait(producer, "late", [(0, b"once")])
    assert cluster.request_counts(PRODUCE) == {1: 2}
    assert msg.offset() == 2
    assert _read_partition(cluster, "late", 0, 3) == [b"first", b"once", b"once"]


def test_set_rtt_delays_every_response(cluster: MockCluster) -> None:
    # A 2 s delay, so that "no delay" (a few ms) can be told apart with a wide
    # margin even on a loaded machine: this checks the delay, not our speed.
    cluster.set_rtt(2, 2000)
    started = time.monotonic()
    probe_api_versions(*cluster.broker_addresses()[2], timeout=20)
    assert time.monotonic() - started >= 1.95
    cluster.set_rtt(2, 0)
    started = time.monotonic()
    probe_api_versions(*cluster.broker_addresses()[2], timeout=20)
    assert time.monotonic() - started < 1.5


# ------------------------------------------------------------------ (e) request tracking


def test_request_tracking_shows_produce_on_each_leader(cluster: MockCluster) -> None:
    cluster.create_topic("routed", partitions=3, replication_factor=3)
    for partition, leader in ((0, 3), (1, 3), (2, 2)):
        cluster.set_partition_leader("routed", partition, leader)
    producer = _producer(cluster)
    _produce_and_wait(producer, "routed", [(0, b"warm-up")])  # metadata known, connections up

    cluster.start_request_tracking()
    _produce_and_wait(producer, "routed", [(0, b"x"), (1, b"y")])
    assert set(cluster.request_counts(PRODUCE)) == {3}
    _produce_and_wait(producer, "routed", [(2, b"z")])
    assert set(cluster.request_counts(PRODUCE)) == {2, 3}

    log = cluster.request_log()
    assert [r.timestamp_us for r in log] == sorted(r.timestamp_us for r in log)
    cluster.clear_requests()
    assert cluster.requests() == []

    # Move partition 0 to broker 1: broker 3 answers NOT_LEADER_OR_FOLLOWER
    # with the new leader in the response (KIP-951 tagged fields, Produce
    # v10+), so librdkafka retries on broker 1 without a Metadata request.
    cluster.set_partition_leader("routed", 0, 1)
    [msg] = _produce_and_wait(producer, "routed", [(0, b"moved")])
    assert msg.offset() == 2
    assert [b for b, _ in cluster.requests(PRODUCE)] == [3, 1]

    cluster.stop_request_tracking()
    cluster.clear_requests()
    _produce_and_wait(producer, "routed", [(0, b"untracked")])
    assert cluster.requests() == []


def test_group_coordinator_can_be_pinned(cluster: MockCluster) -> None:
    cluster.create_topic("coordinated", 1)
    cluster.set_coordinator("group", "pinned", 2)
    cluster.start_request_tracking()
    consumer = confluent_kafka.Consumer({
        "bootstrap.servers": cluster.bootstrap_servers, "group.id": "pinned",
        "auto.offset.reset": "earliest",
    })
    try:
        consumer.subscribe(["coordinated"])
        assert _wait_until(lambda: bool(consumer.poll(0.1) or consumer.assignment()), 10)
        assert set(cluster.request_counts(JOIN_GROUP)) == {2}
    finally:
        consumer.close()


# ------------------------------------------------------------------ (f) ApiVersions quirk


def test_api_versions_v3_is_answered_with_unsupported_version(cluster: MockCluster) -> None:
    """The mock implements ApiVersions v0-v2 only and answers v3+ with error 35.

    Its error answer is hand-written and matches no schema version: after the
    correlation id come int16 error_code, a one-byte entry count (the plain
    count, not count + 1 as a compact array would have), one
    (api_key, min, max) entry for ApiVersions itself, and int32 throttle_time_ms,
    with no tagged fields. A client must read the error code, then retry at a
    version the broker supports (here: 2) instead of parsing the rest.
    """
    address = cluster.broker_addresses()[1]
    for version in (3, 4):
        response = _api_versions_raw(address, version)
        (error_code,) = struct.unpack_from(">h", response, 4)
        assert error_code == UNSUPPORTED_VERSION
        count = response[6]
        entries = [struct.unpack_from(">hhh", response, 7 + 6 * i) for i in range(count)]
        assert entries == [(API_VERSIONS, 0, 2)]
        assert len(response) == 7 + 6 * count + 4

    response = _api_versions_raw(address, 2)
    error_code, count = struct.unpack_from(">hi", response, 4)
    assert error_code == 0 and count > 10  # the full list, with an int32 count


# ------------------------------------------------------------------ (g) pretend to be older


def test_set_apiversion_narrows_what_api_versions_reports(cluster: MockCluster) -> None:
    address = cluster.broker_addresses()[1]
    before = probe_api_versions(*address)
    assert before[PRODUCE][1] >= 7 and FETCH in before

    cluster.set_apiversion("Produce", 0, 3)
    cluster.set_apiversion(FETCH, 4, 4)
    assert 23 in before
    cluster.set_apiversion("OffsetForLeaderEpoch", -1, -1)  # remove the API entirely
    after = probe_api_versions(*address)
    assert after[PRODUCE] == (0, 3)
    assert after[FETCH] == (4, 4)
    assert 23 not in after
    assert probe_api_versions(*cluster.broker_addresses()[3]) == after  # cluster wide

    # A producer still works against the "older" broker.
    cluster.create_topic("old-broker", 1)
    [msg] = _produce_and_wait(_producer(cluster), "old-broker", [(0, b"v3 produce")])
    assert msg.offset() == 0


# ------------------------------------------------------------------ other controls


def test_records_leaders_and_membership_controls(cluster: MockCluster) -> None:
    cluster.create_topic("misc", partitions=2, replication_factor=3)
    _produce_and_wait(_producer(cluster), "misc", [(0, b"%d" % i) for i in range(10)])
    cluster.delete_records("misc", 0, 4)
    consumer = confluent_kafka.Consumer({"bootstrap.servers": cluster.bootstrap_servers,
                                         "group.id": "watermarks"})
    try:
        assert consumer.get_watermark_offsets(
            confluent_kafka.TopicPartition("misc", 0), timeout=10) == (4, 10)
    finally:
        consumer.close()
    cluster.set_partition_follower("misc", 0, 2)
    cluster.set_partition_follower_watermarks("misc", 0, 1, 3)
    cluster.set_rack(1, "rack-a")

    admin = AdminClient({"bootstrap.servers": cluster.bootstrap_servers})
    cluster.set_partition_leader("misc", 1, 2)
    assert admin.list_topics("misc", timeout=10).topics["misc"].partitions[1].leader == 2
    # Only the next Metadata answer that covers the topic lies.
    cluster.push_leader_response("misc", 1, 3, 7)
    assert admin.list_topics("misc", timeout=10).topics["misc"].partitions[1].leader == 3
    assert admin.list_topics("misc", timeout=10).topics["misc"].partitions[1].leader == 2

    cluster.add_broker(4)
    assert sorted(admin.list_topics(timeout=10).brokers) == [1, 2, 3, 4]
    cluster.decommission_broker(2)
    # librdkafka may first ask the broker that just went away and time out
    # there; a second request goes to one that is still up.
    md = None
    for _ in range(3):
        try:
            md = admin.list_topics(timeout=10)
            break
        except confluent_kafka.KafkaException:
            continue
    assert md is not None, "no metadata from the remaining brokers"
    assert sorted(md.brokers) == [1, 3, 4]
    assert all(p.leader in (1, 3, 4) for p in md.topics["misc"].partitions.values())
