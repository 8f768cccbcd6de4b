"""Producer.produce_batch against confluent_kafka: checks, queue-full marks, delivery."""

from __future__ import annotations

from typing import Any, List

import pytest

from test.support.topics import new_topic

BAD_BATCHES = [
    ("t", [{"value": b"a"}, {"value": 1}]),
    ("t", [{"value": b"a"}, {"timestamp": 5}]),
    ("t", [{"value": b"a"}, 7]),
    ("t", [{"value": b"a", "key": 3}]),
    ("t", [{"value": b"a", "partition": "x"}]),
    ("t", "not a list"),
    (1, []),
]


@pytest.mark.parametrize("topic, messages", BAD_BATCHES)
def test_a_bad_batch_raises_before_anything_is_queued(ck, kc, topic, messages):
    outcomes = []
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": "127.0.0.1:9"})
        reports: List[Any] = []
        with pytest.raises(Exception) as info:
            producer.produce_batch(topic, messages, on_delivery=lambda err, msg: reports.append(msg.value()))
        producer.purge()  # anything queued would now be reported as purged
        producer.flush(1)
        outcomes.append((type(info.value), str(info.value), reports))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][2] == []


def test_messages_beyond_the_queue_limit_are_marked(ck, kc):
    results = []
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": "127.0.0.1:9", "queue.buffering.max.messages": 2})
        messages = [{"value": b"%d" % i} for i in range(4)]
        queued = producer.produce_batch("t", messages)
        # (len() is not compared: librdkafka counts its queued error events there too.)
        results.append((queued, [(m["value"], m["_error"].name() if "_error" in m else None) for m in messages]))
        producer.purge()
        producer.flush(1)
    assert results[0] == results[1] == (
        2, [(b"0", None), (b"1", None), (b"2", "_QUEUE_FULL"), (b"3", "_QUEUE_FULL")])


def test_a_batch_is_delivered_with_its_callbacks(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        topic = new_topic(broker, partitions=2, prefix="cf-batch")
        default: List[Any] = []
        own: List[Any] = []
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers})
        queued = producer.produce_batch(topic, [
            {"value": b"v0", "key": b"k0"},
            {"value": "v1", "partition": 1, "callback": lambda err, msg: own.append((msg.value(), msg.partition()))},
            {"key": "k2"},
        ], partition=0, on_delivery=lambda err, msg: default.append((err, msg.key(), msg.value(), msg.partition())))
        assert producer.flush(30) == 0
        results[lib.__name__] = (queued, sorted(default, key=repr), own)
    assert results["confluent_kafka"] == results["kafka.confluent"] == (
        # confluent-kafka 2.16 checks a message's own partition but sends it to the batch's.
        3, [(None, b"k0", b"v0", 0), (None, b"k2", None, 0)], [(b"v1", 0)])


def test_the_batch_callback_is_named_callback_or_on_delivery(broker, ck, kc):
    from test.support.topics import new_topic

    topic = new_topic(broker, partitions=1, prefix="pb-cb")
    results = {}
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers})
        seen = []
        own = lambda err, msg: seen.append(("own", msg.value()))  # noqa: E731
        assert producer.produce_batch(topic, [{"value": b"a", "callback": own}, {"value": b"b"}],
                                      callback=lambda err, msg: seen.append(("batch", msg.value()))) == 2
        assert producer.produce_batch(topic, [{"value": b"c"}],
                                      on_delivery=lambda err, msg: seen.append(("alias", msg.value()))) == 1
        assert producer.produce_batch(topic, []) == 0
        assert producer.flush(30) == 0
        results[lib.__name__] = sorted(seen)
    assert results["kafka.confluent"] == results["confluent_kafka"] == [
        ("alias", b"c"), ("batch", b"b"), ("own", b"a")]
