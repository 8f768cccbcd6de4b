"""Transactions through confluent_kafka and kafka.confluent: the same observable results."""

from __future__ import annotations

import time
import uuid

from test.support.topics import new_topic


def _run(lib, broker, source, sink):
    servers = broker.bootstrap_servers
    group = "cf-txn-" + uuid.uuid4().hex[:8]
    consumer = lib.Consumer({"bootstrap.servers": servers, "group.id": group, "auto.offset.reset": "earliest",
                             "enable.auto.commit": False, "fetch.queue.backoff.ms": 10, "session.timeout.ms": 6000})
    consumer.assign([lib.TopicPartition(source, 0, 0)])
    records = []
    deadline = time.monotonic() + 30
    while len(records) < 3 and time.monotonic() < deadline:
        msg = consumer.poll(0.2)
        if msg is not None and msg.error() is None:
            records.append(msg)
    reports = []
    producer = lib.Producer({"bootstrap.servers": servers, "transactional.id": "cf-txn-" + uuid.uuid4().hex})
    try:
        producer.begin_transaction()
        early = "began"
    except lib.KafkaException as exc:
        early = exc.args[0].code()
    producer.init_transactions(30)
    producer.begin_transaction()
    for msg in records:
        producer.produce(sink, value=msg.value().upper(), key=msg.key(),
                         on_delivery=lambda err, m: reports.append((err, m.value())))
    producer.send_offsets_to_transaction(consumer.position([lib.TopicPartition(source, 0)]),
                                         consumer.consumer_group_metadata(), 30)
    producer.commit_transaction(30)
    served_by_commit = list(reports)
    producer.flush(10)
    committed = consumer.committed([lib.TopicPartition(source, 0)], timeout=10)
    consumer.close()
    return (early, served_by_commit, sorted(reports, key=lambda r: r[1]),
            [(tp.partition, tp.offset) for tp in committed])


def test_consume_transform_produce_transaction(broker, ck, kc):
    source = new_topic(broker, partitions=1, prefix="cf-txn-src")
    producer = kc.Producer({"bootstrap.servers": broker.bootstrap_servers})
    for i in range(3):
        producer.produce(source, value=b"v%d" % i, key=b"k")
    assert producer.flush(30) == 0
    results = {}
    for lib in (ck, kc):
        sink = new_topic(broker, partitions=1, prefix="cf-txn-sink")
        results[lib.__name__] = _run(lib, broker, source, sink)
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][3] == [(0, 3)]


def _doomed_record(lib, broker, prefix):
    """A fresh topic and a transactional producer that has produced b"doomed" in an open transaction."""
    topic = new_topic(broker, partitions=1, prefix=prefix)
    reports = []
    # linger.ms is long so that b"doomed" is still queued when the transaction is aborted,
    # however the threads are scheduled. Otherwise, once written in the aborted transaction,
    # it would show through the read_committed check below: the embedded broker (Tansu)
    # writes abort markers but answers Fetch with an empty aborted-transactions list.
    # (flush() and commit_transaction() do not wait out linger.ms.)
    producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 30_000,
                             "transactional.id": prefix + "-" + uuid.uuid4().hex})
    producer.init_transactions(30)
    producer.begin_transaction()
    producer.produce(topic, b"doomed", on_delivery=lambda err, msg: reports.append(err))
    return topic, producer, reports


def test_abort_transaction_reports_and_state_errors(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic, producer, reports = _doomed_record(lib, broker, "cf-txn-abort")
        producer.flush(30)
        producer.abort_transaction(30)
        try:
            producer.commit_transaction(10)
            late = "committed"
        except lib.KafkaException as exc:
            late = (exc.args[0].code(), exc.args[0].fatal())
        producer.begin_transaction()
        producer.produce(topic, b"kept")
        producer.commit_transaction(30)
        results[lib.__name__] = (reports, late, len(producer))
    assert results["kafka.confluent"] == results["confluent_kafka"]


def _committed_values(ck, broker, topic):
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": uuid.uuid4().hex,
                            "auto.offset.reset": "earliest", "isolation.level": "read_committed"})
    try:
        consumer.assign([ck.TopicPartition(topic, 0, 0)])
        values, deadline = [], time.monotonic() + 20
        while time.monotonic() < deadline and b"kept" not in values:
            msg = consumer.poll(0.2)
            if msg is not None and msg.error() is None:
                values.append(msg.value())
        for msg in consumer.consume(100, 1.0):  # anything after "kept" would be a leak
            if msg.error() is None:
                values.append(msg.value())
        return values
    finally:
        consumer.close()


def test_abort_right_after_produce_to_a_new_topic_leaks_nothing(broker, ck, kc):
    # The first produce() to a topic waits for its metadata. kafka.confluent
    # used to hand that record to the engine after the abort, so it was
    # written in the next transaction and committed with it.
    for lib in (ck, kc):
        topic, producer, reports = _doomed_record(lib, broker, "cf-txn-early-abort")
        producer.abort_transaction(30)
        producer.begin_transaction()
        producer.produce(topic, b"kept")
        producer.commit_transaction(30)
        producer.flush(10)
        purged = (None, lib.KafkaError._PURGE_QUEUE, lib.KafkaError._PURGE_INFLIGHT)
        assert [err if err is None else err.code() for err in reports] in ([code] for code in purged), lib
        assert _committed_values(ck, broker, topic) == [b"kept"], lib.__name__
