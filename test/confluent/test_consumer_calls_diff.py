"""Consumer calls made with nothing (or something else) assigned, through confluent_kafka and kafka.confluent.

What each returns or raises is librdkafka's: pausing or resuming a
partition that is not assigned does nothing; seeking one is an unknown
partition when its topic is not assigned at all and an erroneous state when
another partition of the topic is; an empty subscription is an invalid
argument, and so on.
"""

from __future__ import annotations

import time
import uuid

from test.confluent.outcomes import raised


def _outcome(call):
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 - the outcome is compared
        return raised(exc)
    if isinstance(result, list):
        return ("ok", [(tp.topic, tp.partition, tp.offset) for tp in result])
    return ("ok", result)


def _calls(lib, consumer):
    tp = lib.TopicPartition
    return [
        ("pause", _outcome(lambda: consumer.pause([tp("t", 0)]))),
        ("resume", _outcome(lambda: consumer.resume([tp("t", 0)]))),
        ("seek", _outcome(lambda: consumer.seek(tp("t", 0, 5)))),
        ("seek negative", _outcome(lambda: consumer.seek(tp("t", 0, -5)))),
        ("subscribe to nothing", _outcome(lambda: consumer.subscribe([]))),
        ("position", _outcome(lambda: consumer.position([tp("t", 0)]))),
        ("committed of nothing", _outcome(lambda: consumer.committed([]))),
        ("assignment", _outcome(consumer.assignment)),
        ("incremental_unassign", _outcome(lambda: consumer.incremental_unassign([tp("t", 0)]))),
        ("unassign", _outcome(consumer.unassign)),
        ("unsubscribe", _outcome(consumer.unsubscribe)),
        ("store_offsets", _outcome(lambda: consumer.store_offsets(offsets=[tp("t", 0, 5)]))),
        ("cached watermarks", _outcome(lambda: consumer.get_watermark_offsets(tp("t", 0), cached=True))),
        ("consume none", _outcome(lambda: consumer.consume(0, 0.1))),
        ("poll", _outcome(lambda: consumer.poll(0.1))),
    ]


def _calls_with_t0_assigned(lib, consumer):
    tp = lib.TopicPartition
    consumer.assign([tp("t", 0)])
    return [
        ("pause another", _outcome(lambda: consumer.pause([tp("t", 1)]))),
        ("resume another", _outcome(lambda: consumer.resume([tp("t", 1)]))),
        ("seek another", _outcome(lambda: consumer.seek(tp("t", 1, 5)))),
        ("seek another topic", _outcome(lambda: consumer.seek(tp("u", 0, 5)))),
        # Not compared: a seek of the assigned partition itself, which librdkafka
        # refuses as an erroneous state until its fetcher has started.
    ]


def test_calls_with_nothing_or_another_partition_assigned(broker, ck, kc):
    results = {}
    for lib in (ck, kc):
        consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers,
                                 "group.id": "calls-" + uuid.uuid4().hex[:8]})
        try:
            results[lib.__name__] = _calls(lib, consumer) + _calls_with_t0_assigned(lib, consumer)
        finally:
            consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"]


def test_inside_on_assign_the_assignment_is_the_previous_one_until_assign_is_called(broker, ck, kc):
    from test.support.topics import new_topic

    topic = new_topic(broker, partitions=2, prefix="calls-assign")
    results = {}
    for lib in (ck, kc):
        seen = []

        def on_assign(consumer, partitions):
            before = sorted(tp.partition for tp in consumer.assignment())
            consumer.assign(partitions)
            seen.append((sorted(tp.partition for tp in partitions), before,
                         sorted(tp.partition for tp in consumer.assignment())))

        consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers,
                                 "group.id": "calls-" + uuid.uuid4().hex[:8],
                                 "session.timeout.ms": 6000, "heartbeat.interval.ms": 500})
        try:
            consumer.subscribe([topic], on_assign=on_assign)
            deadline = time.monotonic() + 30
            while not seen and time.monotonic() < deadline:
                consumer.poll(0.2)
        finally:
            consumer.close()
        results[lib.__name__] = seen
    assert results["kafka.confluent"] == results["confluent_kafka"] == [([0, 1], [], [0, 1])]


def test_a_consumer_does_not_create_the_topics_it_subscribes_to_by_default(broker, ck, kc):
    # librdkafka's consumer default is allow.auto.create.topics=false (its producer's is true);
    # the embedded broker creates a topic when a Metadata request allows it.
    results = {}
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    for lib in (ck, kc):
        topic = "calls-missing-" + uuid.uuid4().hex[:8]
        consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g-" + topic,
                                 "session.timeout.ms": 6000})
        try:
            consumer.subscribe([topic])
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                consumer.poll(0.2)
        finally:
            consumer.close()
        results[lib.__name__] = topic in admin.list_topics(timeout=10).topics
    assert results == {"confluent_kafka": False, "kafka.confluent": False}
