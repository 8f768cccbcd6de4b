"""The same consumer scenarios through confluent_kafka and kafka.confluent against one broker."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from test.support.topics import new_topic

FAST = {"fetch.queue.backoff.ms": 10, "fetch.wait.max.ms": 100, "session.timeout.ms": 6000,
        "heartbeat.interval.ms": 500}


def _fill(kc, broker, topic, count=10):
    """Records with keys, headers and explicit timestamps (written once, read by both clients)."""
    producer = kc.Producer({"bootstrap.servers": broker.bootstrap_servers, "partitioner": "murmur2"})
    for i in range(count):
        producer.produce(topic, value=b"value-%d" % i, key=b"key-%d" % (i % 4),
                         headers=[("n", str(i).encode())] if i % 2 else None, timestamp=1700000000000 + i)
    assert producer.flush(30) == 0


def _consumer(lib, broker, **extra):
    conf = {"bootstrap.servers": broker.bootstrap_servers, "group.id": "cf-" + uuid.uuid4().hex[:8],
            "auto.offset.reset": "earliest", "enable.auto.commit": False}
    conf.update(FAST)
    conf.update(extra)
    return lib.Consumer(conf)


def _drain(consumer, want_records, want_eofs=0, timeout=30.0):
    records, eofs = [], []
    deadline = time.monotonic() + timeout
    while (len(records) < want_records or len(eofs) < want_eofs) and time.monotonic() < deadline:
        msg = consumer.poll(0.2)
        if msg is None:
            continue
        if msg.error() is not None:
            eofs.append((msg.error().code(), msg.topic(), msg.partition(), msg.offset()))
            continue
        records.append(msg)
    return records, eofs


def _fields(msg):
    return (msg.topic(), msg.partition(), msg.offset(), msg.key(), msg.value(), msg.headers(), msg.timestamp(),
            len(msg), msg.leader_epoch(), msg.latency())


@pytest.fixture
def filled(broker, kc):
    topic = new_topic(broker, partitions=2, prefix="cf-cons")
    _fill(kc, broker, topic)
    return topic


def test_assigned_partitions_give_the_same_messages_and_eof_events(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker, **{"enable.partition.eof": True})
        consumer.assign([lib.TopicPartition(filled, 0, lib.OFFSET_BEGINNING),
                         lib.TopicPartition(filled, 1, lib.OFFSET_BEGINNING)])
        events = []
        deadline = time.monotonic() + 30
        while len(events) < 12 and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None:
                events.append(msg)
        by_partition = {}
        for msg in events:
            # Per partition: its records, then its end-of-partition event.
            by_partition.setdefault(msg.partition(), []).append(
                _fields(msg) if msg.error() is None else (msg.error().code(), msg.offset()))
        results[lib.__name__] = (by_partition, [(tp.topic, tp.partition) for tp in consumer.assignment()],
                                 consumer.poll(0.5))
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][0][0][-1][0] == ck.KafkaError._PARTITION_EOF


def test_consume_batches(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker)
        consumer.assign([lib.TopicPartition(filled, 0, 0), lib.TopicPartition(filled, 1, 0)])
        got = []
        deadline = time.monotonic() + 30
        while len(got) < 10 and time.monotonic() < deadline:
            batch = consumer.consume(num_messages=4, timeout=0.5)
            assert len(batch) <= 4
            got.extend(batch)
        results[lib.__name__] = sorted(_fields(m) for m in got)
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_commit_committed_position_and_stored_offsets(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker, **{"enable.auto.offset.store": False})
        tps = [lib.TopicPartition(filled, 0), lib.TopicPartition(filled, 1)]
        consumer.assign([lib.TopicPartition(filled, 0, 0), lib.TopicPartition(filled, 1, 0)])
        records, _ = _drain(consumer, 10)
        try:
            consumer.commit(asynchronous=False)
            nothing = "committed"
        except lib.KafkaException as exc:
            nothing = exc.args[0].code()
        last = [m for m in records if m.partition() == 0][-1]
        consumer.store_offsets(message=last)
        consumer.store_offsets(offsets=[lib.TopicPartition(filled, 1, 2)])
        committed = consumer.commit(asynchronous=False)
        after = consumer.committed(tps, timeout=10)
        position = consumer.position(tps)
        explicit = consumer.commit(offsets=[lib.TopicPartition(filled, 1, 3)], asynchronous=False)
        results[lib.__name__] = (
            nothing, sorted((tp.partition, tp.offset, tp.error) for tp in committed),
            [(tp.partition, tp.offset) for tp in after], [(tp.partition, tp.offset) for tp in position],
            [(tp.partition, tp.offset) for tp in explicit],
            [(tp.partition, tp.offset) for tp in consumer.committed(tps, timeout=10)])
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][0] == ck.KafkaError._NO_OFFSET


def test_store_offsets_needs_auto_store_off(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker)
        consumer.assign([lib.TopicPartition(filled, 0, 0)])
        try:
            consumer.store_offsets(offsets=[lib.TopicPartition(filled, 0, 1)])
            results[lib.__name__] = "stored"
        except lib.KafkaException as exc:
            results[lib.__name__] = exc.args[0].code()
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"] == ck.KafkaError._INVALID_ARG


def test_watermarks_and_offsets_for_times(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker)
        marks = [consumer.get_watermark_offsets(lib.TopicPartition(filled, p), timeout=10) for p in (0, 1)]
        found = consumer.offsets_for_times([lib.TopicPartition(filled, p, 1700000000004) for p in (0, 1)]
                                           + [lib.TopicPartition(filled, 0, 1800000000000)], timeout=10)
        results[lib.__name__] = (marks, [(tp.partition, tp.offset) for tp in found])
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_seek_pause_and_resume(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker)
        tp0 = lib.TopicPartition(filled, 0, 0)
        consumer.assign([tp0])
        first, _ = _drain(consumer, 1)
        consumer.seek(lib.TopicPartition(filled, 0, 0))
        again, _ = _drain(consumer, 1)
        consumer.pause([lib.TopicPartition(filled, 0)])
        paused = consumer.poll(1.0)
        consumer.resume([lib.TopicPartition(filled, 0)])
        resumed, _ = _drain(consumer, 1)
        results[lib.__name__] = ([m.offset() for m in first], [m.offset() for m in again], paused,
                                 [m.offset() for m in resumed])
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_subscribe_rebalance_callbacks_commit_and_on_commit(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        events = []
        consumer = _consumer(lib, broker, on_commit=lambda err, parts: events.append(
            ("commit", err, sorted((p.partition, p.offset) for p in parts), threading.current_thread())))

        def on_assign(cons, parts):
            assert cons is consumer
            events.append(("assign", sorted((p.topic == filled, p.partition, p.offset) for p in parts),
                           threading.current_thread()))

        consumer.subscribe([filled], on_assign=on_assign,
                           on_revoke=lambda cons, parts: events.append(("revoke", len(parts))))
        records, _ = _drain(consumer, 10, timeout=60)
        consumer.commit(asynchronous=True)
        deadline = time.monotonic() + 20
        while not any(e[0] == "commit" for e in events) and time.monotonic() < deadline:
            consumer.poll(0.2)
        committed = consumer.committed([lib.TopicPartition(filled, 0), lib.TopicPartition(filled, 1)], timeout=10)
        consumer.close()
        results[lib.__name__] = (sorted(_fields(m) for m in records), events,
                                 [(tp.partition, tp.offset) for tp in committed])
    ours, theirs = results["kafka.confluent"], results["confluent_kafka"]
    assert ours[0] == theirs[0]
    assert ours[2] == theirs[2]
    here = threading.current_thread()
    assert [e for e in ours[1] if e[0] == "assign"] == [e for e in theirs[1] if e[0] == "assign"] == [
        ("assign", [(True, 0, -1001), (True, 1, -1001)], here)]
    assert [e[:3] for e in ours[1] if e[0] == "commit"] == [e[:3] for e in theirs[1] if e[0] == "commit"]
    assert all(e[3] is here for e in ours[1] if e[0] == "commit")


def test_on_assign_can_set_the_starting_offsets(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker)

        def on_assign(cons, parts):
            for p in parts:
                p.offset = 3
            cons.assign(parts)

        consumer.subscribe(["^" + filled.replace("-", "[-]") + "$"], on_assign=on_assign)
        records, _ = _drain(consumer, 10 - 6, timeout=60)
        results[lib.__name__] = sorted((m.partition(), m.offset()) for m in records)
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert min(offset for _, offset in results["kafka.confluent"]) == 3


def test_a_raising_rebalance_callback_propagates_from_poll(broker, lib, filled):
    consumer = _consumer(lib, broker)

    def on_assign(cons, parts):
        raise RuntimeError("assign failed")

    consumer.subscribe([filled], on_assign=on_assign)
    deadline = time.monotonic() + 60
    with pytest.raises(RuntimeError):
        while time.monotonic() < deadline:
            consumer.poll(0.2)
    consumer.close()


def test_poll_without_assignment_returns_none(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker)
        results[lib.__name__] = (consumer.poll(0.3), consumer.consume(3, 0.3), consumer.assignment())
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"] == (None, [], [])


def test_manual_incremental_assignment_and_logical_seeks(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        consumer = _consumer(lib, broker)
        steps = []
        tp = lib.TopicPartition
        consumer.incremental_assign([tp(filled, 0, lib.OFFSET_END)])
        steps.append([(p.partition, p.offset) for p in consumer.assignment()])
        steps.append([(p.partition, p.offset) for p in consumer.position([tp(filled, 0), tp(filled, 1)])])
        try:
            consumer.incremental_assign([tp(filled, 0, 0)])
            steps.append("assigned twice")
        except lib.KafkaException as exc:
            steps.append(exc.args[0].code())
        consumer.incremental_assign([tp(filled, 1, lib.OFFSET_BEGINNING)])
        steps.append([(p.partition, p.offset) for p in consumer.assignment()])
        records, _ = _drain(consumer, 10 - _count(lib, broker, filled, 0))
        steps.append(sorted({m.partition() for m in records}))
        consumer.seek(tp(filled, 1, lib.OFFSET_BEGINNING))
        again, _ = _drain(consumer, 1)
        steps.append([(m.partition(), m.offset()) for m in again])
        consumer.incremental_unassign([tp(filled, 1)])
        steps.append([(p.partition, p.offset) for p in consumer.assignment()])
        try:
            consumer.seek(tp(filled, 1, 0))
            steps.append("seek accepted")
        except lib.KafkaException as exc:
            steps.append(exc.args[0].code())
        consumer.unassign()
        steps.append(consumer.assignment())
        results[lib.__name__] = steps
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]


def _count(lib, broker, topic, partition):
    consumer = _consumer(lib, broker)
    low, high = consumer.get_watermark_offsets(lib.TopicPartition(topic, partition), timeout=10)
    consumer.close()
    return high - low


def test_memberid_unsubscribe_and_list_topics(broker, ck, kc, filled):
    results = {}
    for lib in (ck, kc):
        events = []
        consumer = _consumer(lib, broker)
        before = consumer.memberid()
        consumer.subscribe([filled], on_assign=lambda c, p: events.append(("assign", len(p))),
                           on_revoke=lambda c, p: events.append(("revoke", len(p))))
        records, _ = _drain(consumer, 10, timeout=60)
        member = consumer.memberid()
        consumer.unsubscribe()
        deadline = time.monotonic() + 10
        while ("revoke", 2) not in events and time.monotonic() < deadline:
            consumer.poll(0.2)
        after_unsubscribe = (consumer.assignment(), consumer.poll(0.5))
        md = consumer.list_topics(filled, timeout=10)
        results[lib.__name__] = (before, isinstance(member, str) and len(member) > 0, len(records), events,
                                 after_unsubscribe, sorted(md.topics[filled].partitions))
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_partition_eof_again_after_new_records(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="cf-eof")
        consumer = _consumer(lib, broker, **{"enable.partition.eof": True})
        consumer.assign([lib.TopicPartition(topic, 0, lib.OFFSET_BEGINNING)])
        seen = []

        def read(until):
            deadline = time.monotonic() + 30
            while len(seen) < until and time.monotonic() < deadline:
                msg = consumer.poll(0.2)
                if msg is not None:
                    seen.append(("eof", msg.offset()) if msg.error() else ("record", msg.offset(), msg.value()))

        read(1)  # an empty partition ends at once
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers})
        producer.produce(topic, b"one")
        producer.produce(topic, b"two")
        assert producer.flush(30) == 0
        read(4)
        results[lib.__name__] = seen
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"] == [
        ("eof", 0), ("record", 0, b"one"), ("record", 1, b"two"), ("eof", 2)]


def test_subscribing_to_a_missing_topic_reports_it_from_poll(mock_cluster, ck, kc):
    from test.support.groups import narrow_group_versions

    narrow_group_versions(mock_cluster, "present", 2)
    mock_cluster.set_topic_error("absent", 3)  # UNKNOWN_TOPIC_OR_PART
    results = {}
    for lib in (ck, kc):
        consumer = lib.Consumer({"bootstrap.servers": mock_cluster.bootstrap_servers,
                                 "group.id": "cf-" + uuid.uuid4().hex[:8], "session.timeout.ms": 6000,
                                 "heartbeat.interval.ms": 500})
        consumer.subscribe(["absent", "present"])
        errors = []
        deadline = time.monotonic() + 30
        while (not errors or not consumer.assignment()) and time.monotonic() < deadline:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is not None:
                errors.append((msg.error().code(), msg.topic(), msg.error().str()))
        results[lib.__name__] = (errors, [(tp.topic, tp.partition, tp.offset) for tp in consumer.assignment()])
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][0][0][0] == ck.KafkaError.UNKNOWN_TOPIC_OR_PART
