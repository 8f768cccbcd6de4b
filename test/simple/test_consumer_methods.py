"""The API of kafka-python 0.9's KafkaConsumer, accepted by today's KafkaConsumer.

Against the embedded broker (Tansu): every form of set_topic_partitions
(including the API reference's example, as written), fetch_messages,
task_done and commit (only what was marked done is committed, checked from
a second client), offsets(), next() and ConsumerTimeout, auto-commit by
message count and by time, get_partition_offsets, configure and the old
option names.

Against the librdkafka mock cluster, where a group joins in well under a
second (Tansu holds the first JoinGroup for half the session timeout): the
KafkaConsumer examples of the 0.9 usage guide, as written.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from kafka import KafkaConsumer, errors
from kafka.client import KafkaClient
from kafka.simple.common import KafkaMessage, OffsetFetchRequest, ProduceRequest
from kafka.simple.protocol import create_message
from kafka.structs import TopicPartition
from test.support.simple import committed as _committed
from test.support.simple import new_topic as _new_topic
from test.support.simple import produce as _produce
from test.support.groups import narrow_group_versions


def _fetch_all(consumer, expected, timeout=15.0):
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < expected and time.monotonic() < deadline:
        out.extend(consumer.fetch_messages())
    return out


@pytest.fixture
def client(broker):
    c = KafkaClient(broker.bootstrap_servers, timeout=10)
    yield c
    c.close()


def _consumer(broker, **configs):
    configs.setdefault("bootstrap_servers", broker.bootstrap_servers)
    configs.setdefault("fetch_wait_max_ms", 200)
    return KafkaConsumer(**configs)


# -- set_topic_partitions ----------------------------------------------------------------------


def test_set_topic_partitions_reference_example_runs_as_written(fresh_broker):
    for name, partitions in (("topic1", 3), ("topic2", 3), ("topic3", 2)):
        _new_topic(fresh_broker, partitions, name=name)
    address = fresh_broker.bootstrap_servers

    kafka = KafkaConsumer(bootstrap_servers=address)

    # Consume topic1-all; topic2-partition2; topic3-partition0
    kafka.set_topic_partitions("topic1", ("topic2", 2), {"topic3": 0})

    assert kafka.assignment() == {TopicPartition("topic1", 0), TopicPartition("topic1", 1),
                                  TopicPartition("topic1", 2), TopicPartition("topic2", 2),
                                  TopicPartition("topic3", 0)}
    assert set(kafka.offsets("fetch").values()) == {0}  # empty topics, latest = 0

    # Consume topic1-0 starting at offset 12, and topic2-1 at offset 45
    # using tuples --
    kafka.set_topic_partitions(("topic1", 0, 12), ("topic2", 1, 45))

    assert kafka.offsets("fetch") == {("topic1", 0): 12, ("topic2", 1): 45}

    # using dict --
    kafka.set_topic_partitions({ ("topic1", 0): 12, ("topic2", 1): 45 })

    assert kafka.offsets("fetch") == {("topic1", 0): 12, ("topic2", 1): 45}
    kafka.close()


def test_set_topic_partitions_every_form_and_bad_input(broker):
    a = _new_topic(broker, 3)
    b = _new_topic(broker, 4)
    consumer = _consumer(broker)
    consumer.set_topic_partitions({a: [0, 2]}, {b: (1, 3)})
    assert consumer.assignment() == {TopicPartition(a, 0), TopicPartition(a, 2),
                                     TopicPartition(b, 1), TopicPartition(b, 3)}
    consumer.set_topic_partitions(a.encode(), {(b, 0): 3}, (b, 2, 7))
    assert consumer.offsets("fetch") == {(a, 0): 0, (a, 1): 0, (a, 2): 0, (b, 0): 3, (b, 2): 7}
    # Each call replaces the previous set.
    consumer.set_topic_partitions((a, 1))
    assert consumer.assignment() == {TopicPartition(a, 1)}

    with pytest.raises(errors.KafkaConfigurationError):
        consumer.set_topic_partitions(42)
    with pytest.raises(errors.KafkaConfigurationError):
        consumer.set_topic_partitions((a, 0, 1, 2))
    with pytest.raises(errors.KafkaConfigurationError):
        consumer.set_topic_partitions((a, -1))
    with pytest.raises(errors.KafkaConfigurationError):
        consumer.set_topic_partitions((a, 0, -5))
    with pytest.raises(errors.UnknownTopicOrPartitionError):
        consumer.set_topic_partitions((a, 9))
    assert consumer.assignment() == {TopicPartition(a, 1)}  # a refused call changes nothing

    # A subscription is replaced too.
    subscribed = _consumer(broker)
    subscribed.subscribe([b])
    assert len(subscribed.assignment()) == 4
    subscribed.set_topic_partitions((a, 0))
    assert subscribed.subscription() == set() and subscribed.assignment() == {TopicPartition(a, 0)}
    consumer.close()
    subscribed.close()


# -- reading, marking, committing -------------------------------------------------------------


def test_fetch_messages_task_done_commit_and_offsets(broker, client):
    topic = _new_topic(broker, 2)
    _produce(client, topic, 0, [b"a%d" % i for i in range(5)], key=b"k")
    _produce(client, topic, 1, [b"b%d" % i for i in range(3)])
    group = "first-" + uuid.uuid4().hex[:8]
    consumer = _consumer(broker, group_id=group, auto_offset_reset="smallest")
    consumer.set_topic_partitions(topic)
    assert consumer.offsets() == {
        "fetch": {(topic, 0): 0, (topic, 1): 0},
        "commit": {(topic, 0): None, (topic, 1): None},
        "highwater": {(topic, 0): None, (topic, 1): None},
        "task_done": {(topic, 0): None, (topic, 1): None},
    }
    messages = _fetch_all(consumer, 8)
    assert len(messages) == 8
    assert all(isinstance(m, KafkaMessage) for m in messages)
    first = [m for m in messages if m.partition == 0][0]
    assert (first.topic, first.partition, first.offset, first.key, first.value) == (topic, 0, 0, b"k", b"a0")

    assert consumer.commit() is False  # nothing marked done yet
    for m in messages:
        if m.partition == 1 or m.offset < 3:
            assert consumer.task_done(m) is True
    assert consumer.commit() is True
    assert _committed(client, group, topic, [0, 1]) == {0: 3, 1: 3}
    assert consumer.commit() is False  # nothing new
    offsets = consumer.offsets()
    assert offsets["commit"] == {(topic, 0): 3, (topic, 1): 3}
    assert offsets["task_done"] == {(topic, 0): 2, (topic, 1): 2}
    assert offsets["highwater"] == {(topic, 0): 5, (topic, 1): 3}
    assert offsets["fetch"] == {(topic, 0): 5, (topic, 1): 3}
    assert consumer.offsets("task_done") == offsets["task_done"]
    with pytest.raises(errors.IllegalArgumentError):
        consumer.offsets("nonsense")
    # A message of a partition not read here.
    assert consumer.task_done(KafkaMessage(topic, 7, 0, None, b"")) is False

    # Another consumer of the group starts at what was committed.
    again = _consumer(broker, group_id=group)
    again.set_topic_partitions(topic)
    assert again.offsets("commit") == {(topic, 0): 3, (topic, 1): 3}
    assert again.offsets("fetch") == {(topic, 0): 3, (topic, 1): 3}
    assert sorted((m.partition, m.value) for m in _fetch_all(again, 2)) == [(0, b"a3"), (0, b"a4")]
    again.close()
    consumer.close()

    # Without a group nothing can be committed.
    alone = _consumer(broker, auto_offset_reset="smallest")
    alone.set_topic_partitions((topic, 1))
    [m] = [m for m in _fetch_all(alone, 3) if m.offset == 0]
    alone.task_done(m)
    with pytest.raises(errors.KafkaConfigurationError):
        alone.commit()
    alone.close()


def test_only_messages_marked_done_are_committed_with_auto_commit(broker, client):
    topic = _new_topic(broker, 1)
    _produce(client, topic, 0, [b"m%d" % i for i in range(6)])
    group = "first-" + uuid.uuid4().hex[:8]
    consumer = _consumer(broker, group_id=group, auto_offset_reset="smallest", auto_commit_enable=True,
                         auto_commit_interval_ms=60000, auto_commit_interval_messages=2)
    assert consumer.auto_commit_interval_messages == 2
    consumer.set_topic_partitions(topic)
    messages = _fetch_all(consumer, 6)
    assert len(messages) == 6
    consumer.task_done(messages[0])
    assert _committed(client, group, topic, [0]) == {0: -1}  # one message: not yet
    consumer.task_done(messages[1])
    assert _committed(client, group, topic, [0]) == {0: 2}  # the second one commits
    consumer.task_done(messages[2])
    # close() does not commit positions past what was marked done.
    consumer.close()
    assert _committed(client, group, topic, [0]) == {0: 2}

    # By time: the first task_done after auto_commit_interval_ms commits.
    timed = _consumer(broker, group_id=group, auto_commit_enable=True, auto_commit_interval_ms=1000)
    timed.set_topic_partitions(topic)
    rest = _fetch_all(timed, 4)
    assert [m.offset for m in rest] == [2, 3, 4, 5]
    assert timed.commit() is False  # nothing marked yet; restarts the interval
    timed.task_done(rest[0])
    assert _committed(client, group, topic, [0]) == {0: 2}
    time.sleep(1.1)  # past auto_commit_interval_ms
    timed.task_done(rest[1])
    assert _committed(client, group, topic, [0]) == {0: 4}
    timed.close()

    with pytest.raises(errors.KafkaConfigurationError):
        _consumer(broker, auto_commit_interval_messages=0)


def test_next_raises_consumer_timeout_and_deserializer_class(broker, client):
    topic = _new_topic(broker, 1)
    _produce(client, topic, 0, [b"hello", b"world"])
    consumer = _consumer(broker, auto_offset_reset="smallest", consumer_timeout_ms=500,
                         deserializer_class=lambda raw: raw.decode("utf-8").upper())
    consumer.set_topic_partitions(topic)
    assert [consumer.next().value, consumer.next().value] == ["HELLO", "WORLD"]
    started = time.monotonic()
    with pytest.raises(errors.ConsumerTimeout):
        consumer.next()
    assert 0.4 <= time.monotonic() - started < 5
    consumer.close()

    # consumer_timeout_ms=-1 (0.9's default) means no timeout, not "stop at once".
    forever = _consumer(broker, consumer_timeout_ms=-1)
    assert forever.config["consumer_timeout_ms"] == float("inf")
    forever.close()


def test_get_partition_offsets(broker, client):
    topic = _new_topic(broker, 2)
    _produce(client, topic, 1, [b"x"] * 4)
    consumer = _consumer(broker)
    assert consumer.get_partition_offsets(topic, 1, -2, 1) == [0]
    assert consumer.get_partition_offsets(topic, 1, -1, 1) == [4]
    # (Tansu answers UNSUPPORTED_VERSION when max_num_offsets is not 1; Kafka ignores it since 0.10.1.)
    assert consumer.get_partition_offsets(topic.encode(), 0, -1, 1) == [0]
    with pytest.raises(errors.UnknownTopicOrPartitionError):
        consumer.get_partition_offsets(topic, 5, -1, 1)
    consumer.close()


def test_configure_and_old_option_names(broker, client):
    topic = _new_topic(broker, 1)
    _produce(client, topic, 0, [b"c0", b"c1"])
    consumer = _consumer(broker, fetch_message_max_bytes=2048, socket_timeout_ms=20000,
                         refresh_leader_backoff_ms=150, auto_commit_enable=False, auto_offset_reset="largest")
    cfg = consumer.config
    assert (cfg["max_partition_fetch_bytes"], cfg["request_timeout_ms"], cfg["retry_backoff_ms"],
            cfg["enable_auto_commit"], cfg["fetch_max_wait_ms"]) == (2048, 20000, 150, False, 200)
    consumer.set_topic_partitions(topic)
    assert consumer.offsets("fetch") == {(topic, 0): 2}  # 'largest'

    consumer.configure(auto_offset_reset="smallest", fetch_message_max_bytes=4096)
    assert consumer.config["max_partition_fetch_bytes"] == 4096
    assert consumer.config["request_timeout_ms"] == 20000  # kept
    assert consumer.assignment() == set()  # starts afresh, as in 0.9
    consumer.set_topic_partitions(topic)
    assert consumer.offsets("fetch") == {(topic, 0): 0}
    assert [m.value for m in _fetch_all(consumer, 2)] == [b"c0", b"c1"]
    with pytest.raises(errors.KafkaConfigurationError):
        consumer.configure(no_such_option=1)
    assert [m.value for m in _fetch_all(consumer, 0)] == []  # still usable after a refused configure
    consumer.close()


# -- the usage guide's examples, as written (mock cluster: groups join at once) -----------------


def _one_address(cluster):
    # The examples name one broker ('localhost:9092'); any broker of the cluster bootstraps.
    return cluster.bootstrap_servers.split(",")[0]


@pytest.fixture
def group_cluster(mock_cluster):
    return narrow_group_versions(mock_cluster)


class _Writer(threading.Thread):
    """Writes a message to ``topic`` every 100 ms until stopped."""

    def __init__(self, address, topic):
        super().__init__(daemon=True)
        self.client = KafkaClient(address, timeout=5)
        self.topic = topic
        self.stopped = threading.Event()
        self.count = 0

    def run(self):
        while not self.stopped.wait(0.1):
            self.client.send_produce_request([ProduceRequest(self.topic, 0, [create_message(
                b"live %d" % self.count, b"key")])])
            self.count += 1
        self.client.close()


def test_kafka_consumer_example_runs_as_written(group_cluster, capsys):
    group_cluster.create_topic("my-topic", 1, 3)
    address = _one_address(group_cluster)
    # auto_offset_reset is 'largest' by default: messages keep coming until some are read.
    writer = _Writer(address, "my-topic")
    writer.start()
    seen = []
    try:
        from kafka import KafkaConsumer

        # To consume messages
        consumer = KafkaConsumer('my-topic',
                                 group_id='my_group',
                                 bootstrap_servers=[address])
        for message in consumer:
            # message value is raw byte string -- decode if necessary!
            # e.g., for unicode: `message.value.decode('utf-8')`
            print("%s:%d:%d: key=%s value=%s" % (message.topic, message.partition,
                                                 message.offset, message.key,
                                                 message.value))
            seen.append(message)  # (test only: stop after three)
            if len(seen) == 3:
                break
    finally:
        writer.stopped.set()
        writer.join()
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    first = seen[0].offset
    assert lines[0] == "my-topic:0:%d: key=b'key' value=b'live %d'" % (first, first)
    assert [m.offset for m in seen] == [first, first + 1, first + 2]
    consumer.close()


def test_advanced_kafka_consumer_example_runs_as_written(group_cluster):
    for name in ("topic1", "topic2"):
        group_cluster.create_topic(name, 2, 3)
    address = _one_address(group_cluster)
    client = KafkaClient(address, timeout=5)
    expected = set()
    for name in ("topic1", "topic2"):
        for p in range(2):
            for i in range(3):
                client.send_produce_request([ProduceRequest(name, p, [create_message(b"%s-%d-%d" % (
                    name.encode(), p, i))])])
                expected.add((name, p, i))
    done = []

    def do_some_work(m):
        done.append((m.topic, m.partition, m.offset))

    process_message = do_some_work

    from kafka import KafkaConsumer

    # more advanced consumer -- multiple topics w/ auto commit offset
    # management
    consumer = KafkaConsumer('topic1', 'topic2',
                             bootstrap_servers=[address],
                             group_id='my_consumer_group',
                             auto_commit_enable=True,
                             auto_commit_interval_ms=30 * 1000,
                             auto_offset_reset='smallest')

    # Infinite iteration
    for m in consumer:
      do_some_work(m)

      # Mark this message as fully consumed
      # so it can be included in the next commit
      #
      # **messages that are not marked w/ task_done currently do not commit!
      consumer.task_done(m)
      if set(done) == expected: break  # (test only: the loop is infinite)

    # If auto_commit_enable is False, remember to commit() periodically
    consumer.commit()

    assert len(done) == 12
    committed = {}
    for name in ("topic1", "topic2"):
        for r in client.send_offset_fetch_request("my_consumer_group", [OffsetFetchRequest(name, p)
                                                                        for p in range(2)]):
            committed[(name, r.partition)] = r.offset
    assert committed == {(n, p): 3 for n in ("topic1", "topic2") for p in range(2)}

    # More messages, then the batch interface.
    for name in ("topic1", "topic2"):
        client.send_produce_request([ProduceRequest(name, 1, [create_message(b"more")])])
        expected.add((name, 1, 3))
    kafka = consumer  # the guide names the consumer ``kafka`` in this snippet
    deadline = time.monotonic() + 15

    # Batch process interface
    while True:
      if set(done) == expected or time.monotonic() > deadline: break  # (test only)
      for m in kafka.fetch_messages():
        process_message(m)
        consumer.task_done(m)

    assert set(done) == expected and len(done) == 14
    assert consumer.commit() is True
    assert client.send_offset_fetch_request("my_consumer_group", [OffsetFetchRequest("topic2", 1)])[0].offset == 4
    consumer.close()
    client.close()
