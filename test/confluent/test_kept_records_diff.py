"""Records kept back by kafka.confluent.Producer and handed to the engine in bulk, against confluent_kafka.

kafka.confluent keeps produced records back and hands them to the engine a
run at a time (from produce(), poll(), flush() or the engine's sender
thread); delivery reports are then served a batch at a time. These
scenarios check what a program can observe of that against librdkafka.
"""

from __future__ import annotations

import time

import pytest

from kafka.consumer import KafkaConsumer
from kafka.structs import TopicPartition
from test.support.topics import new_topic
from test.support.waiting import wait_until


def _values_in(broker, topic):
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
    try:
        consumer.assign([TopicPartition(topic, 0)])
        return [record.value for batch in consumer.poll(timeout_ms=1000).values() for record in batch]
    finally:
        consumer.close()


def _all_values_in(broker, topic, count):
    """The values of partition 0, read until ``count`` records came (or 30 s passed)."""
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
    values = []
    try:
        consumer.assign([TopicPartition(topic, 0)])
        deadline = time.monotonic() + 30
        while len(values) < count and time.monotonic() < deadline:
            values += [record.value for batch in consumer.poll(timeout_ms=500).values() for record in batch]
        return values
    finally:
        consumer.close()


def test_a_record_is_sent_with_no_further_call(broker, ck, kc):
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="kept-alone")
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 5})
        producer.produce(topic, b"alone", partition=0)
        # Neither poll() nor flush(): the record must still leave within linger.ms.
        assert wait_until(lambda: _values_in(broker, topic) == [b"alone"], timeout=30), lib.__name__
        assert producer.flush(30) == 0


def test_reports_across_many_batches_carry_each_record_s_offset(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=2, prefix="kept-batches")
        # Small batches: the records of one partition land in many batches and produce requests.
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 20,
                                 "batch.size": 1000})
        seen = []
        for i in range(1500):
            producer.produce(topic, b"value-%d" % i, partition=i % 2,
                             on_delivery=lambda err, msg: seen.append(
                                 (err, msg.partition(), msg.offset(), msg.value())))
            if i % 400 == 0:
                producer.poll(0)
        assert producer.flush(30) == 0
        results[lib.__name__] = sorted(seen, key=lambda report: (report[1], report[2]))
    expected = [(None, p, i // 2, b"value-%d" % i) for p in (0, 1) for i in range(p, 1500, 2)]
    assert results["confluent_kafka"] == expected
    assert results["kafka.confluent"] == expected


def test_a_callback_raising_mid_batch_leaves_the_rest_for_the_next_poll(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="kept-raise")
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 200})
        served = []

        def report(err, msg):
            served.append(msg.value())
            if msg.value() == b"3":
                raise ValueError("boom")

        for i in range(1, 6):
            producer.produce(topic, b"%d" % i, on_delivery=report)
        raised = False
        deadline = time.monotonic() + 30
        while not raised and time.monotonic() < deadline:
            try:
                producer.poll(0.2)
            except ValueError:
                raised = True
        left_after_raise = len(producer)
        assert producer.flush(30) == 0
        results[lib.__name__] = (raised, served, left_after_raise, len(producer))
    assert results["kafka.confluent"] == results["confluent_kafka"]


@pytest.mark.parametrize("count", [3, 700])
def test_purge_fails_records_kept_back(broker, ck, kc, count):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="kept-purge")
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 60_000})
        producer.list_topics(topic, timeout=10)
        producer.produce(topic, b"warm-up")  # learns the topic's partitions, so the rest is not waiting for them
        producer.flush(30)
        codes = []
        for i in range(count):
            producer.produce(topic, b"%d" % i, on_delivery=lambda err, msg: codes.append(err.name() if err else None))
        producer.purge(in_queue=True, in_flight=True)
        left = producer.flush(30)
        results[lib.__name__] = (sorted(set(codes)), len(codes), left)
    assert results["kafka.confluent"] == results["confluent_kafka"] == (["_PURGE_QUEUE"], count, 0)


def test_runs_without_key_and_headers_reach_the_engine_as_columns_in_order(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=1, prefix="kept-columns")
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 60_000})
        producer.list_topics(topic, timeout=10)
        producer.produce(topic, b"warm-up", partition=0)
        producer.flush(30)
        # 600 plain records: more than one hand-over's worth, so produce() itself hands them over.
        for i in range(600):
            producer.produce(topic, b"plain-%d" % i, partition=0)
        if lib is kc:
            # The long linger keeps the engine's batch open: it still holds two columns, no tuple per record.
            [batch] = producer._engine._accumulator._batches[TopicPartition(topic, 0)]
            assert batch.values is not None and batch.values[:2] == [b"plain-0", b"plain-1"]
        # Then a run that mixes keyed and plain records: handed over as tuples, after the columns.
        for i in range(600):
            producer.produce(topic, b"mixed-%d" % i, key=b"k" if i % 3 == 0 else None, partition=0)
        assert producer.flush(30) == 0
        results[lib.__name__] = _all_values_in(broker, topic, 1201)
    expected = [b"warm-up"] + [b"plain-%d" % i for i in range(600)] + [b"mixed-%d" % i for i in range(600)]
    assert results["confluent_kafka"] == expected
    assert results["kafka.confluent"] == expected


def _partition_values(broker, topic, partitions, count):
    """Each partition's values, read until ``count`` records came in all (or 30 s passed)."""
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
    found = {p: [] for p in range(partitions)}
    try:
        consumer.assign([TopicPartition(topic, p) for p in range(partitions)])
        deadline = time.monotonic() + 30
        while sum(map(len, found.values())) < count and time.monotonic() < deadline:
            for tp, records in consumer.poll(timeout_ms=500).items():
                found[tp.partition] += [record.value for record in records]
        return found
    finally:
        consumer.close()


def test_runs_of_partitions_and_equal_topic_strings_keep_each_partition_s_order(broker, ck, kc):
    # produce() remembers the run it added to last, by topic object and partition: an equal
    # topic string that is another object, a switch of partition and a hand-over in between
    # must each still put the record in its own partition's run, in order.
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=3, prefix="kept-runs")
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 50})
        for i in range(900):
            name = topic if i % 5 else (topic + "-")[:-1]  # equal, not the same object
            producer.produce(name, b"v-%d" % i, partition=(i // 7) % 3)
            if i % 250 == 0:
                producer.flush(30)
        assert producer.flush(30) == 0
        results[lib.__name__] = _partition_values(broker, topic, 3, 900)
    expected = {p: [b"v-%d" % i for i in range(900) if (i // 7) % 3 == p] for p in range(3)}
    assert results["confluent_kafka"] == expected
    assert results["kafka.confluent"] == expected


def test_delivered_records_give_their_bytes_back_to_the_queue_limit(broker, ck, kc):
    """Records spread over many batches, with and without keys and callbacks, free what they counted.

    Each round fills most of ``queue.buffering.max.kbytes`` and flushes; a
    round that found bytes of an earlier one still counted would get a
    BufferError.
    """
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=2, prefix="kept-bytes")
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 5,
                                 "batch.size": 1000, "queue.buffering.max.kbytes": 32})
        outcome = []
        reports = []
        for round_number in range(6):
            refused = 0
            for i in range(200):
                key = b"key-%d" % i if (i + round_number) % 3 == 0 else None
                callback = (lambda err, msg: reports.append(err)) if i % 5 == 0 else None
                try:
                    producer.produce(topic, b"v" * (60 + i % 90), key=key, partition=i % 2, on_delivery=callback)
                except BufferError:
                    refused += 1
            outcome.append((refused, producer.flush(30)))
        results[lib.__name__] = (outcome, len(reports), reports.count(None))
    assert results["kafka.confluent"] == results["confluent_kafka"] == ([(0, 0)] * 6, 240, 240)
