"""The same producer scenarios through confluent_kafka and kafka.confluent against one broker.

Each scenario returns what a program can observe (delivery reports and their
fields, len()/flush() counts, exceptions) and the two results must be equal.
"""

from __future__ import annotations

import time

import pytest

from test.support.topics import new_topic
from test.support.waiting import wait_until

KEYS = [b"", b"a", b"key-1", b"key-22", b"\x00\xff\x10", "caf\u00e9"] + [b"k%d" % i for i in range(40)]


def _producer(lib, broker, **extra):
    conf = {"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 5}
    conf.update(extra)
    return lib.Producer(conf)


def _reports(lib, broker, topic, records, **conf):
    """Produce ``records`` (dicts of produce() arguments) and return the served delivery reports."""
    seen = []

    def on_delivery(err, msg):
        seen.append((err.code() if err is not None else None, msg.topic(), msg.partition(), msg.offset(),
                     msg.key(), msg.value(), msg.headers(), msg.timestamp()[0], msg.latency() is not None))

    producer = _producer(lib, broker, **conf)
    for record in records:
        producer.produce(topic, on_delivery=on_delivery, **record)
    assert producer.flush(30) == 0
    assert len(producer) == 0
    return seen


@pytest.mark.parametrize("partitioner", ["consistent", "consistent_random", "murmur2", "murmur2_random",
                                         "fnv1a", "fnv1a_random"])
def test_keyed_records_land_on_the_same_partition(broker, ck, kc, partitioner):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=7, prefix="cf-part")
        records = [{"key": k, "value": b"v"} for k in KEYS if k or not partitioner.endswith("random")]
        seen = _reports(lib, broker, topic, records, partitioner=partitioner)
        reported = sorted((r[4], r[2]) for r in seen)
        assert _read_back(kc, broker, topic, 7, len(records)) == reported
        results[lib.__name__] = reported
    assert results["kafka.confluent"] == results["confluent_kafka"]


def _read_back(lib, broker, topic, partitions, count):
    """(key, partition) of every record stored in ``topic``, sorted."""
    consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "cf-readback",
                             "enable.auto.commit": False})
    consumer.assign([lib.TopicPartition(topic, p, lib.OFFSET_BEGINNING) for p in range(partitions)])
    stored = []
    deadline = time.monotonic() + 30
    while len(stored) < count and time.monotonic() < deadline:
        msg = consumer.poll(0.2)
        if msg is not None and msg.error() is None:
            stored.append((msg.key(), msg.partition()))
    consumer.close()
    return sorted(stored)


def test_null_keys_with_deterministic_partitioners(broker, ck, kc):
    for partitioner in ("consistent", "murmur2", "fnv1a"):
        results = {}
        for lib in (ck, kc):
            topic = new_topic(broker, partitions=5, prefix="cf-null")
            seen = _reports(lib, broker, topic, [{"value": b"x"}] * 3, partitioner=partitioner)
            results[lib.__name__] = sorted(r[2] for r in seen)
        assert results["kafka.confluent"] == results["confluent_kafka"], partitioner


def test_delivery_reports_fields_and_order_per_partition(broker, ck, kc):
    records = [{"key": "k%d" % (i % 3), "value": "value-%d" % i, "headers": [("h", b"x")] if i % 2 else {"d": "y"}}
               for i in range(30)] + [{"value": b"t", "key": b"ts", "timestamp": 1700000000000}]
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=3, prefix="cf-dr")
        seen = _reports(lib, broker, topic, records)
        by_partition = {}
        for code, _topic, partition, offset, key, value, headers, ts_type, has_latency in seen:
            by_partition.setdefault(partition, []).append((code, offset, key, value, headers, ts_type, has_latency))
        results[lib.__name__] = by_partition
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_len_and_flush_counts(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=2, prefix="cf-len")
        producer = _producer(lib, broker, **{"linger.ms": 500})
        for i in range(5):
            producer.produce(topic, b"v%d" % i, key=b"k")
        queued = len(producer)
        left = producer.flush(30)
        results[lib.__name__] = (queued, left, len(producer), producer.poll(0))
    assert results["kafka.confluent"] == results["confluent_kafka"] == (5, 0, 0, 0)


def test_poll_serves_reports_and_counts_them(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="cf-poll")
        producer = _producer(lib, broker, **{"linger.ms": 100})
        seen = []
        for i in range(3):
            producer.produce(topic, b"v", callback=lambda err, msg: seen.append(msg.offset()))
        served = 0
        deadline = time.monotonic() + 30
        while len(seen) < 3 and time.monotonic() < deadline:
            served += producer.poll(0.5)
        served += producer.poll(0.2)  # nothing more to serve
        results[lib.__name__] = (served, seen, len(producer))
    # One produce response carries the three reports: librdkafka counts it as one event.
    assert results["kafka.confluent"] == results["confluent_kafka"] == (1, [0, 1, 2], 0)


def test_buffer_error_when_the_queue_is_full(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="cf-full")
        producer = _producer(lib, broker, **{"queue.buffering.max.messages": 3, "linger.ms": 200})
        outcome = []
        for i in range(5):
            try:
                producer.produce(topic, b"v%d" % i)
                outcome.append("ok")
            except BufferError:
                outcome.append("BufferError")
        outcome.append(len(producer))
        outcome.append(producer.flush(30))
        producer.produce(topic, b"after")  # room again once reports were served
        outcome.append(producer.flush(30))
        results[lib.__name__] = outcome
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][:3] == ["ok"] * 3


def test_buffer_error_on_the_kbytes_limit(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="cf-kb")
        producer = _producer(lib, broker, **{"queue.buffering.max.kbytes": 2, "linger.ms": 200})
        outcome = []
        for i in range(4):
            try:
                producer.produce(topic, b"x" * 700)
                outcome.append("ok")
            except BufferError:
                outcome.append("BufferError")
        producer.flush(30)
        results[lib.__name__] = outcome
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_unknown_partition_of_a_known_topic(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=2, prefix="cf-up")
        producer = _producer(lib, broker)
        producer.produce(topic, b"first")
        producer.flush(30)
        try:
            producer.produce(topic, b"x", partition=7)
            results[lib.__name__] = "accepted"
        except lib.KafkaException as exc:
            results[lib.__name__] = exc.args[0].code()
        assert len(producer) == 0
    assert results["kafka.confluent"] == results["confluent_kafka"] == ck.KafkaError._UNKNOWN_PARTITION


def test_message_timeout_without_a_broker(ck, kc):
    results = {}
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": "127.0.0.1:1", "message.timeout.ms": 500,
                                 "socket.connection.setup.timeout.ms": 1000})
        seen = []
        producer.produce("nowhere", b"v", key=b"k", on_delivery=lambda err, msg: seen.append(
            (err.code(), msg.topic(), msg.key(), msg.value(), msg.offset())))
        left = producer.flush(20)
        results[lib.__name__] = (left, seen)
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][1][0][0] == ck.KafkaError._MSG_TIMED_OUT


def test_purge_of_records_waiting_for_a_broker(ck, kc):
    results = {}
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": "127.0.0.1:1", "message.timeout.ms": 30000})
        seen = []
        for i in range(3):
            producer.produce("nowhere", b"v%d" % i, on_delivery=lambda err, msg: seen.append(
                (err.code(), msg.value())))
        producer.purge(in_flight=False)
        left = producer.flush(10)
        results[lib.__name__] = (left, seen, len(producer))
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][1][0][0] == ck.KafkaError._PURGE_QUEUE


def test_bad_produce_arguments_fail_at_once_and_spare_queued_records(broker, ck, kc):
    bad_calls = [dict(topic=5), dict(value=5), dict(value=1.5), dict(key=object()), dict(partition="1"),
                 dict(partition=None), dict(timestamp="x"), dict(timestamp=1.5), dict(headers=5),
                 dict(headers=[("a",)]), dict(headers=[("a", 5)]), dict(headers={"a": 5}),
                 dict(headers=[["a", b"x"]]), dict(bogus=1), dict(value=bytearray(b"x")), dict(headers=())]
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="cf-bad")
        producer = _producer(lib, broker)
        seen = []
        producer.produce(topic, b"before", on_delivery=lambda err, msg: seen.append((err, msg.value())))
        raised = []
        for call in bad_calls:
            args = dict(topic=topic, value=b"v")
            args.update(call)
            try:
                producer.produce(**args)
                raised.append("accepted")
            except Exception as exc:  # noqa: BLE001 - the type is what is compared
                raised.append(type(exc).__name__)
        producer.produce(topic, b"after", on_delivery=lambda err, msg: seen.append((err, msg.value())))
        assert producer.flush(30) == 0
        results[lib.__name__] = (raised, seen)
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert "accepted" not in results["kafka.confluent"][0]


def test_a_raising_delivery_callback_propagates_and_the_producer_stays_usable(broker, lib):
    topic = new_topic(broker, partitions=1, prefix="cf-raise")
    producer = _producer(lib, broker)
    served = []

    def explode(err, msg):
        raise RuntimeError("boom")

    producer.produce(topic, b"1", on_delivery=explode)
    producer.produce(topic, b"2", on_delivery=lambda err, msg: served.append(msg.value()))
    deadline = time.monotonic() + 30
    with pytest.raises(RuntimeError):
        while time.monotonic() < deadline:
            producer.poll(0.2)
    assert producer.flush(30) == 0
    producer.produce(topic, b"3", on_delivery=lambda err, msg: served.append(msg.value()))
    assert producer.flush(30) == 0
    assert served == [b"2", b"3"]


def test_delivery_reports_run_in_the_application_thread(broker, kc):
    import threading

    topic = new_topic(broker, partitions=1, prefix="cf-thread")
    producer = _producer(kc, broker)
    threads = []
    for _ in range(5):
        producer.produce(topic, b"v", on_delivery=lambda err, msg: threads.append(threading.current_thread()))
    # Every record delivered, its report queued by the engine's thread; still none has run.
    assert wait_until(lambda: producer._queued_reports() == 5, timeout=30)
    assert threads == []  # nothing runs until poll() or flush()
    producer.flush(30)
    assert threads == [threading.current_thread()] * 5


def test_list_topics(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=3, prefix="cf-md")
        producer = _producer(lib, broker)
        md = producer.list_topics(timeout=10)
        one = producer.list_topics(topic, timeout=10)
        t = md.topics[topic]
        results[lib.__name__] = (
            md.cluster_id, sorted(md.brokers), [(b.host, b.port) for b in md.brokers.values()], md.controller_id,
            type(md).__name__, t.topic == topic, t.error, sorted(t.partitions),
            [(p.id, p.leader, p.replicas, p.isrs, p.error) for p in t.partitions.values()],
            list(one.topics) == [topic])
        if hasattr(producer, "close"):
            producer.flush(5)
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_unknown_topic_times_out_without_holding_up_other_topics(mock_cluster, ck, kc):
    results = {}
    for lib in (ck, kc):
        known, missing = "known-" + lib.__name__, "missing-" + lib.__name__
        mock_cluster.create_topic(known, 3)
        mock_cluster.set_topic_error(missing, 3)  # UNKNOWN_TOPIC_OR_PART
        producer = lib.Producer({"bootstrap.servers": mock_cluster.bootstrap_servers, "message.timeout.ms": 2000})
        seen = []

        def report(err, msg):
            seen.append((err.code() if err else None, msg.topic().split("-")[0], msg.partition()))

        producer.produce(missing, b"x", on_delivery=report)
        producer.produce(known, b"x", partition=1, on_delivery=report)
        left = producer.flush(15)
        results[lib.__name__] = (left, seen)
    assert results["kafka.confluent"] == results["confluent_kafka"] == (
        0, [(None, "known", 1), (ck.KafkaError._MSG_TIMED_OUT, "missing", None)])


@pytest.mark.parametrize("partitioner", ["consistent_random", "murmur2_random", "fnv1a_random", "random"])
def test_keyless_records_stick_to_one_partition_once_the_topic_is_known(broker, ck, kc, partitioner):
    results = {}
    for lib in (ck, kc):
        counts = []
        # (Records produced before the topic's metadata is known are spread by librdkafka when the
        # metadata comes later, but whether it comes first is a race, so that case is not compared.)
        for linger, warm in ((60000, True), (0, True)):
            topic = new_topic(broker, partitions=8, prefix="cf-sticky")
            producer = _producer(lib, broker, partitioner=partitioner, **{"sticky.partitioning.linger.ms": linger})
            if warm:
                producer.produce(topic, b"warm-up", key=b"k")
                assert producer.flush(30) == 0
            parts = []
            for _ in range(40):
                producer.produce(topic, b"v", on_delivery=lambda err, msg: parts.append(msg.partition()))
            assert producer.flush(30) == 0
            counts.append(len(set(parts)))
        # Stuck to one partition; no stickiness with 0.
        results[lib.__name__] = (counts[0], counts[1] > 1)
    assert results["kafka.confluent"] == results["confluent_kafka"] == (1, True)


def test_added_partitions_are_picked_up(mock_cluster, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = "grow-" + lib.__name__
        mock_cluster.create_topic(topic, 2)
        producer = lib.Producer({"bootstrap.servers": mock_cluster.bootstrap_servers,
                                 "topic.metadata.refresh.interval.ms": 500})
        producer.produce(topic, b"before", partition=1)
        assert producer.flush(30) == 0
        mock_cluster.delete_topic(topic)
        mock_cluster.create_topic(topic, 4)
        delivered = []
        deadline = time.monotonic() + 30
        while not delivered and time.monotonic() < deadline:
            try:
                producer.produce(topic, b"after", partition=3,
                                 on_delivery=lambda err, msg: delivered.append((err, msg.partition())))
            except lib.KafkaException as exc:
                assert exc.args[0].code() == ck.KafkaError._UNKNOWN_PARTITION
                producer.poll(0.2)
                continue
            producer.flush(30)
        results[lib.__name__] = delivered
    assert results["kafka.confluent"] == results["confluent_kafka"] == [(None, 3)]


def test_cluster_id(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        producer = _producer(lib, broker)
        consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g-cluster-id"})
        results[lib.__name__] = (producer.cluster_id(10), consumer.cluster_id(10))
        consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_flush_sends_at_once_whatever_linger_ms(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="cf-flush-linger")
        producer = _producer(lib, broker, **{"linger.ms": 60_000})
        producer.list_topics(topic, timeout=10)
        delivered = []
        producer.produce(topic, b"now", on_delivery=lambda err, msg: delivered.append((err, msg.offset())))
        # librdkafka's flush() does not wait out linger.ms: well within the 10 s allowed.
        results[lib.__name__] = (producer.flush(10), delivered)
    assert results["kafka.confluent"] == results["confluent_kafka"] == (0, [(None, 0)])


def test_a_record_with_neither_key_nor_value_is_written_with_both_null(broker, ck, kc):
    from kafka.consumer import KafkaConsumer
    from kafka.structs import TopicPartition

    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="cf-null")
        producer = _producer(lib, broker)
        reports = []
        producer.produce(topic, on_delivery=lambda err, msg: reports.append((err, msg.key(), msg.value())))
        assert producer.flush(30) == 0
        consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
        try:
            consumer.assign([TopicPartition(topic, 0)])
            written = [(r.key, r.value) for batch in consumer.poll(timeout_ms=10_000).values() for r in batch]
        finally:
            consumer.close()
        results[lib.__name__] = (reports, written)
    assert results["kafka.confluent"] == results["confluent_kafka"] == ([(None, None, None)], [(None, None)])


@pytest.mark.parametrize("conf", [
    {"linger.ms": 400_000},  # beyond the default message.timeout.ms: every produce() is refused
    {"linger.ms": 1000, "message.timeout.ms": 1000},  # given explicitly: refused at construction
    {"linger.ms": 1000, "message.timeout.ms": 1001},
    {"linger.ms": 60_000, "transactional.id": "no-transaction-begun"},  # _STATE comes first
    {"transactional.id": "no-transaction-begun"},
])
def test_linger_timeout_and_transaction_state_checks(ck, kc, conf):
    results = {}
    for lib in (ck, kc):
        try:
            producer = lib.Producer(dict(conf, **{"bootstrap.servers": "127.0.0.1:1"}))
        except lib.KafkaException as exc:
            results[lib.__name__] = ("constructor", exc.args[0].code(), exc.args[0].str())
            continue
        # (No len(): librdkafka also counts the connection errors it has queued for error_cb.)
        try:
            producer.produce("any-topic", b"v")
            results[lib.__name__] = ("queued",)
        except lib.KafkaException as exc:
            results[lib.__name__] = ("produce", exc.args[0].code(), exc.args[0].str())
        producer.purge()
        producer.flush(0)
    assert results["kafka.confluent"] == results["confluent_kafka"]
