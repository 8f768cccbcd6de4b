"""ShareConsumer (KIP-932 share groups) against the real confluent_kafka.ShareConsumer.

The peer is librdkafka's mock cluster, the only one here that serves share
groups (ShareGroupHeartbeat, ShareFetch and ShareAcknowledge v1; the
embedded broker serves none of them). A share partition starts at the log
end when the group first fetches from it, so each test first warms up:
it produces a marker record to every partition until the consumer has
received one from each, and only then produces the records it counts.
"""

from __future__ import annotations

import contextlib
import time
import uuid

import pytest

MARK = b"warm-up"


def _conf(cluster, group, **extra):
    conf = {"bootstrap.servers": cluster.bootstrap_servers, "group.id": group, "fetch.wait.max.ms": 100}
    conf.update(extra)
    return conf


def _topic(cluster, partitions=2):
    name = "share-" + uuid.uuid4().hex[:8]
    cluster.create_topic(name, partitions=partitions)
    return name


def _producer(ck, cluster):
    return ck.Producer({"bootstrap.servers": cluster.bootstrap_servers, "linger.ms": 0})


def _warm_up(producer, topic, partitions, *consumers, explicit=False):
    """Poll ``consumers`` until each partition gave one of them a marker; acknowledge what came."""
    seen = set()
    deadline = time.monotonic() + 30
    while len(seen) < partitions:
        assert time.monotonic() < deadline, "share consumers got no record from %s" % sorted(seen)
        for p in range(partitions):
            if p not in seen:
                producer.produce(topic, value=MARK, partition=p)
        producer.flush(10)
        for consumer in consumers:
            for msg in consumer.poll(0.3):
                assert msg.error() is None, msg.error()
                seen.add(msg.partition())
                if explicit:
                    consumer.acknowledge(msg)
    for consumer in consumers:
        consumer.commit_sync(10)


def _produce(producer, topic, count, partitions):
    values = [b"v%d" % i for i in range(count)]
    for i, value in enumerate(values):
        producer.produce(topic, value=value, partition=i % partitions)
    producer.flush(10)
    return values


def _read(consumers, count, seconds=20, explicit=False):
    """(consumer index, message) pairs of the first ``count`` non-marker records the consumers poll."""
    got = []
    deadline = time.monotonic() + seconds
    while len(got) < count and time.monotonic() < deadline:
        for index, consumer in enumerate(consumers):
            for msg in consumer.poll(0.2):
                assert msg.error() is None, msg.error()
                if explicit:
                    consumer.acknowledge(msg)
                if msg.value() != MARK:
                    got.append((index, msg))
    return got


@contextlib.contextmanager
def _explicit_consumer(cluster, lib, ck):
    """(consumer, producer, topic): an explicit-mode consumer of a new 1-partition topic, warmed up."""
    topic = _topic(cluster, partitions=1)
    producer = _producer(ck, cluster)
    conf = _conf(cluster, "g-" + topic, **{"share.acknowledgement.mode": "explicit"})
    with lib.ShareConsumer(conf) as consumer:
        consumer.subscribe([topic])
        _warm_up(producer, topic, 1, consumer, explicit=True)
        yield consumer, producer, topic


def test_implicit_mode_delivers_every_record_once(mock_cluster, lib, ck):
    topic = _topic(mock_cluster)
    producer = _producer(ck, mock_cluster)
    with lib.ShareConsumer(_conf(mock_cluster, "g-" + topic)) as consumer:
        consumer.subscribe([topic])
        assert consumer.subscription() == [topic]
        _warm_up(producer, topic, 2, consumer)
        values = _produce(producer, topic, 20, 2)
        got = _read([consumer], 20)
        assert sorted(m.value() for _, m in got) == sorted(values)
        assert {m.delivery_count() for _, m in got} == {1}
        assert {(m.topic(), m.partition()) for _, m in got} == {(topic, 0), (topic, 1)}
        result = consumer.commit_sync(10)  # accepts the last poll's records
        assert all(error is None for error in result.values())
        assert {(tp.topic, tp.partition) for tp in result} <= {(topic, 0), (topic, 1)}
        assert not _read([consumer], 1, seconds=1.5)  # accepted records are not delivered again
        assert consumer.commit_sync(10) == {}


def test_released_record_comes_back_with_a_higher_delivery_count(mock_cluster, lib, ck):
    with _explicit_consumer(mock_cluster, lib, ck) as (consumer, producer, topic):
        _produce(producer, topic, 1, 1)
        [(_, first)] = _read([consumer], 1)
        assert first.delivery_count() == 1
        consumer.acknowledge(first, lib.AcknowledgeType.RELEASE)
        assert list(consumer.commit_sync(10).values()) == [None]
        [(_, again)] = _read([consumer], 1)
        assert (again.offset(), again.value(), again.delivery_count()) == (first.offset(), first.value(), 2)
        consumer.acknowledge_offset(topic, 0, again.offset(), lib.AcknowledgeType.ACCEPT)
        consumer.commit_sync(10)
        assert not _read([consumer], 1, seconds=1.5)


def test_explicit_mode_refuses_a_poll_before_every_record_is_acknowledged(mock_cluster, lib, ck):
    with _explicit_consumer(mock_cluster, lib, ck) as (consumer, producer, topic):
        _produce(producer, topic, 2, 1)
        got = []
        deadline = time.monotonic() + 20
        while not got and time.monotonic() < deadline:
            got = list(consumer.poll(0.2))
        assert got
        with pytest.raises(lib.IllegalStateException):
            consumer.poll(0.1)
        for msg in got:
            consumer.acknowledge(msg)
        consumer.poll(0.1)


def test_acknowledgement_callback_reports_the_offsets(mock_cluster, lib, ck):
    reports = []
    with _explicit_consumer(mock_cluster, lib, ck) as (consumer, producer, topic):
        consumer.set_acknowledgement_commit_callback(lambda offsets, exc: reports.append((offsets, exc)))
        _produce(producer, topic, 3, 1)
        got = _read([consumer], 3, explicit=True)
        consumer.commit_sync(10)
        consumer.poll(0.2)  # the callback may run from here rather than from commit_sync()
    offsets = {}
    for parts, exc in reports:
        assert exc is None
        for tp, marks in parts.items():
            offsets.setdefault((tp.topic, tp.partition), set()).update(marks)
    assert offsets == {(topic, 0): {m.offset() for _, m in got}}


def test_records_left_unacknowledged_at_close_go_to_another_member(mock_cluster, ck, kc):
    topic = _topic(mock_cluster, partitions=1)
    producer = _producer(ck, mock_cluster)
    group = "g-" + topic
    for first_lib, second_lib in ((kc, ck), (ck, kc)):
        conf = _conf(mock_cluster, group, **{"share.acknowledgement.mode": "explicit"})
        first = first_lib.ShareConsumer(conf)
        first.subscribe([topic])
        _warm_up(producer, topic, 1, first, explicit=True)
        values = _produce(producer, topic, 2, 1)
        taken = _read([first], 2)
        assert sorted(m.value() for _, m in taken) == values
        first.close()  # released, not accepted
        with second_lib.ShareConsumer(conf) as second:
            second.subscribe([topic])
            again = _read([second], 2, explicit=True)
            second.commit_sync(10)
        assert sorted((m.value(), m.delivery_count()) for _, m in again) == [(v, 2) for v in values]


def test_a_mixed_share_group_delivers_each_record_to_one_member(mock_cluster, ck, kc):
    topic = _topic(mock_cluster, partitions=2)
    producer = _producer(ck, mock_cluster)
    conf = _conf(mock_cluster, "g-" + topic)
    ours, theirs = kc.ShareConsumer(conf), ck.ShareConsumer(conf)
    try:
        ours.subscribe([topic])
        theirs.subscribe([topic])
        _warm_up(producer, topic, 2, ours, theirs)
        values = _produce(producer, topic, 40, 2)
        got = _read([ours, theirs], 40)
        assert sorted(m.value() for _, m in got) == sorted(values)  # each exactly once
        assert not _read([ours, theirs], 1, seconds=1.5)
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("mode", ["implicit", "explicit"])
@pytest.mark.parametrize("args, raised", [
    (("t", 0, 0), "IllegalStateException"),  # implicit mode, or not in flight
    (("t", 0, 0, 7), {"implicit": "IllegalStateException", "explicit": "ValueError"}),
    (("t", -1, 0), "ValueError"),
    (("t", 0, -1), "ValueError"),
    ((1, 0, 0), "TypeError"),
    (("t", "x", 0), "TypeError"),
    (("t", 0, 0, "a"), "TypeError"),
])
def test_acknowledge_offset_checks_its_arguments_in_the_same_order(lib, mode, args, raised):
    consumer = lib.ShareConsumer({"bootstrap.servers": "127.0.0.1:9", "group.id": "g",
                                  "share.acknowledgement.mode": mode})
    try:
        with pytest.raises(Exception) as caught:
            consumer.acknowledge_offset(*args)
        assert type(caught.value).__name__ == (raised[mode] if isinstance(raised, dict) else raised)
    finally:
        consumer.close()


def test_calls_that_the_state_does_not_allow(lib):
    consumer = lib.ShareConsumer({"bootstrap.servers": "127.0.0.1:9", "group.id": "g"})
    with pytest.raises(lib.IllegalStateException):
        consumer.poll(0.1)  # not subscribed
    with pytest.raises(TypeError):
        consumer.acknowledge("not a message")
    with pytest.raises(TypeError):
        consumer.subscribe("t")
    for bad in (["t", "t"], [""]):
        with pytest.raises(ValueError):
            consumer.subscribe(bad)
    with pytest.raises(TypeError):
        consumer.commit_sync("x")
    assert consumer.commit_sync(0.5) == {}  # nothing pending
    consumer.close()
    consumer.close()  # a second close does nothing
    with pytest.raises(lib.IllegalStateException):
        consumer.subscribe(["t"])
    assert issubclass(lib.IllegalStateException, RuntimeError)


def test_config_needs_a_group_id(lib):
    with pytest.raises(ValueError):
        lib.ShareConsumer({"bootstrap.servers": "localhost:9"})


@pytest.mark.parametrize("api, codes", [
    ("ShareFetch", (122, 123)),          # SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH: open a new session
    ("ShareFetch", (6,)),                # NOT_LEADER_OR_FOLLOWER: look at metadata and fetch again
])
def test_share_fetch_errors_are_recovered_from(mock_cluster, lib, ck, api, codes):
    topic = _topic(mock_cluster)
    producer = _producer(ck, mock_cluster)
    with lib.ShareConsumer(_conf(mock_cluster, "g-" + topic)) as consumer:
        consumer.subscribe([topic])
        _warm_up(producer, topic, 2, consumer)
        mock_cluster.push_request_errors(api, *codes)
        values = _produce(producer, topic, 10, 2)
        got = _read([consumer], 10)
        assert sorted(m.value() for _, m in got) == sorted(values)


@pytest.mark.parametrize("code", [110, 25])  # FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID
def test_a_fenced_member_joins_again(mock_cluster, lib, ck, code):
    topic = _topic(mock_cluster)
    producer = _producer(ck, mock_cluster)
    with lib.ShareConsumer(_conf(mock_cluster, "g-" + topic)) as consumer:
        consumer.subscribe([topic])
        _warm_up(producer, topic, 2, consumer)
        mock_cluster.start_request_tracking()
        mock_cluster.push_request_errors("ShareGroupHeartbeat", code)
        deadline = time.monotonic() + 20
        while len(mock_cluster.requests("ShareGroupHeartbeat")) < 2:  # the fenced one, and the join after it
            assert time.monotonic() < deadline, "no heartbeat after the fenced one"
            consumer.poll(0.2)
        values = _produce(producer, topic, 10, 2)
        got = _read([consumer], 10)
        assert sorted(m.value() for _, m in got) == sorted(values)


def test_a_broker_without_share_groups_is_reported(broker, kc):
    # confluent_kafka's poll() returns nothing, forever; kafkawire says why.
    consumer = kc.ShareConsumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g-unsupported"})
    try:
        consumer.subscribe(["share-unsupported"])
        with pytest.raises(kc.KafkaException) as caught:
            consumer.poll(10)
        assert caught.value.args[0].code() == kc.KafkaError.UNSUPPORTED_VERSION
        assert "KIP-932" in str(caught.value)
    finally:
        consumer.close()
