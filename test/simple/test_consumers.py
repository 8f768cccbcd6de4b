"""The 0.9 SimpleConsumer and OffsetCommitContext.

Against the embedded broker (Tansu): reading every partition, get_message /
get_messages / iteration, partition info, seek with every ``whence``,
pending counts, commits read back by a second client, auto-commit by count
and by time, offsets out of range, fetch-size growth and its limit, and the
OffsetCommitContext example of the API reference.

Tansu answers ListOffsets "latest" with the last batch's base offset + 1
(see DESIGN.md); the records here are produced one per batch, where that is
the right answer. Exact end offsets with multi-record batches are checked on
the librdkafka mock cluster.
"""

from __future__ import annotations

import importlib
import time
import uuid

import pytest

import kafka
from kafka import errors
from kafka.client import KafkaClient
from kafka.simple.common import OffsetAndMessage
from kafka.simple.context import OffsetCommitContext
from kafka.simple import SimpleConsumer
from test.support.simple import committed as _committed
from test.support.simple import get_messages_until as _drain
from test.support.simple import new_topic as _new_topic
from test.support.simple import produce as _produce
from test.support.waiting import wait_until as _wait_until

# -- helpers (more in test/support/simple.py; client fixtures in conftest.py) -----------------


@pytest.fixture
def other_client(broker):
    c = KafkaClient(broker.bootstrap_servers, timeout=10)
    yield c
    c.close()


def _group():
    return "simple-g-" + uuid.uuid4().hex[:8]


# -- package exports --------------------------------------------------------------------------


def test_package_root_exports_the_simple_consumers():
    assert kafka.SimpleConsumer is SimpleConsumer
    assert kafka.MultiProcessConsumer is importlib.import_module("kafka.simple.multiprocess").MultiProcessConsumer
    from kafka import MultiProcessConsumer, SimpleConsumer as Root  # the examples' imports
    from kafka.simple.context import OffsetCommitContext as Ctx
    assert Root is SimpleConsumer and Ctx is OffsetCommitContext
    assert MultiProcessConsumer.__module__ == "kafka.simple.multiprocess"
    # 0.9 code also imported them from kafka.consumer.
    from kafka.consumer import MultiProcessConsumer as Mp, SimpleConsumer as Sc
    assert (Sc, Mp) == (SimpleConsumer, MultiProcessConsumer)
    assert {"SimpleConsumer", "MultiProcessConsumer"} <= set(kafka.__all__)


# -- reading ------------------------------------------------------------------------------------


def test_reads_every_partition_in_order(broker, client):
    topic = _new_topic(broker, partitions=3)
    for p in range(3):
        _produce(client, topic, p, [b"p%d-%d" % (p, i) for i in range(4)], one_per_batch=(p != 1))
    consumer = SimpleConsumer(client, _group(), topic, auto_commit=False)
    assert sorted(consumer.offsets) == [0, 1, 2] and set(consumer.offsets.values()) == {0}
    consumer.provide_partition_info()
    got = _drain(consumer, 12)
    assert len(got) == 12
    for partition, message in got:
        assert isinstance(message, OffsetAndMessage)
        assert message.message.value == b"p%d-%d" % (partition, message.offset)
        assert message.message.key is None
    by_partition = {}
    for partition, message in got:
        by_partition.setdefault(partition, []).append(message.offset)
    assert by_partition == {p: [0, 1, 2, 3] for p in range(3)}
    assert consumer.offsets == {0: 4, 1: 4, 2: 4}
    assert consumer.get_messages(count=5, block=False) == []
    consumer.stop()


def test_get_message_iteration_and_partition_info(broker, client):
    topic = _new_topic(broker, partitions=1)
    _produce(client, topic, 0, [b"a", b"b", b"c", b"d"], key=b"k")
    consumer = SimpleConsumer(client, _group(), topic, auto_commit=False, iter_timeout=1)
    first = None
    deadline = time.monotonic() + 10
    while first is None and time.monotonic() < deadline:
        first = consumer.get_message(timeout=1)
    assert (first.offset, first.message.key, first.message.value) == (0, b"k", b"a")
    assert consumer.offsets == {0: 1}
    partition, second = consumer.get_message(timeout=5, get_partition_info=True)
    assert (partition, second.offset) == (0, 1)
    started = time.monotonic()
    rest = [m.message.value for m in consumer]  # ends iter_timeout (1 s) after the last message
    assert rest == [b"c", b"d"]
    assert 0.9 <= time.monotonic() - started < 10
    assert consumer.offsets == {0: 4}
    # Nothing more: get_message returns None after its timeout.
    assert consumer.get_message(timeout=0.2) is None
    consumer.provide_partition_info()
    _produce(client, topic, 0, [b"e"])
    assert [(p, m.message.value) for p, m in _drain(consumer, 1)] == [(0, b"e")]
    consumer.stop()


def test_get_messages_block_and_timeout(broker, client):
    topic = _new_topic(broker, partitions=1)
    _produce(client, topic, 0, [b"x%d" % i for i in range(3)])
    consumer = SimpleConsumer(client, None, topic)  # no group: offset 0, no commits
    assert consumer.auto_commit is False
    started = time.monotonic()
    got = consumer.get_messages(count=10, block=True, timeout=1.5)
    took = time.monotonic() - started
    assert [m.message.value for m in got] == [b"x0", b"x1", b"x2"]
    assert 1.4 <= took < 6, took  # waited for the 7 that never came
    _produce(client, topic, 0, [b"y%d" % i for i in range(3)])
    # block=2: returns as soon as two are there.
    got = []
    deadline = time.monotonic() + 10
    while not got and time.monotonic() < deadline:
        got = consumer.get_messages(count=10, block=2, timeout=5)
    assert len(got) >= 2 and [m.message.value for m in got] == [b"y%d" % i for i in range(len(got))]
    with pytest.raises(errors.KafkaConfigurationError):
        consumer.commit()
    with pytest.raises(errors.IllegalArgumentError):
        consumer.get_messages(count=-1)
    consumer.stop()


# -- positions ----------------------------------------------------------------------------------


def test_seek_whence_semantics(broker, client):
    topic = _new_topic(broker, partitions=2)
    for p in range(2):
        _produce(client, topic, p, [b"%d:%d" % (p, i) for i in range(10)])
    consumer = SimpleConsumer(client, _group(), topic, auto_commit=False)
    consumer.provide_partition_info()

    consumer.seek(3)  # absolute, every partition
    assert consumer.offsets == {0: 3, 1: 3}
    consumer.seek(2, 1)  # relative to the current offsets
    assert consumer.offsets == {0: 5, 1: 5}
    consumer.seek(-1, 1, partition=1)
    assert consumer.offsets == {0: 5, 1: 4}
    consumer.seek(-4, 2)  # from the tail, spread over the partitions: -2 each
    assert consumer.offsets == {0: 8, 1: 8}
    consumer.seek(-3, 2)  # -3 over two partitions: -1 and -2
    assert consumer.offsets == {0: 9, 1: 8}
    consumer.seek(3, 0)  # from the head: 2 and 1
    assert consumer.offsets == {0: 2, 1: 1}
    consumer.seek(7, 0, partition=0)
    assert consumer.offsets == {0: 7, 1: 1}
    consumer.seek(-1, 2, partition=1)
    assert consumer.offsets == {0: 7, 1: 9}
    got = sorted((p, m.offset, m.message.value) for p, m in _drain(consumer, 4))
    assert got == [(0, 7, b"0:7"), (0, 8, b"0:8"), (0, 9, b"0:9"), (1, 9, b"1:9")]

    # Seeking drops what was buffered.
    consumer.seek(0)
    first = _drain(consumer, 1)
    consumer.seek(5, partition=0)
    consumer.seek(9, partition=1)
    rest = sorted((p, m.offset) for p, m in _drain(consumer, 6))
    assert first[0][1].offset == 0
    assert rest == [(0, 5), (0, 6), (0, 7), (0, 8), (0, 9), (1, 9)]

    with pytest.raises(errors.IllegalArgumentError):
        consumer.seek(0, 3)
    with pytest.raises(errors.UnknownTopicOrPartitionError):
        consumer.seek(0, partition=7)
    with pytest.raises(errors.IllegalArgumentError):
        consumer.seek(-1)
    consumer.stop()


def test_pending_counts(broker, client):
    topic = _new_topic(broker, partitions=2)
    _produce(client, topic, 0, [b"a"] * 5)
    _produce(client, topic, 1, [b"b"] * 3)
    consumer = SimpleConsumer(client, _group(), topic, auto_commit=False)
    assert consumer.pending() == 8
    assert consumer.pending(partitions=[1]) == 3
    _drain(consumer, 4)
    assert consumer.pending() == 4
    consumer.seek(0, 2)
    assert consumer.pending() == 0
    consumer.seek(-2, 1, partition=0)
    assert (consumer.pending([0]), consumer.pending([1])) == (2, 0)
    with pytest.raises(errors.UnknownTopicOrPartitionError):
        consumer.pending([5])
    consumer.stop()


def test_offset_out_of_range_resets_per_policy(mock_cluster, mock_client):
    # Tansu answers a fetch past the end with no error; the mock cluster says OFFSET_OUT_OF_RANGE.
    mock_cluster.create_topic("range", 1, 3)
    _produce(mock_client, "range", 0, [b"m0", b"m1", b"m2"], one_per_batch=False)
    largest = SimpleConsumer(mock_client, None, "range")  # auto_offset_reset='largest'
    largest.seek(100)
    assert largest.get_messages(count=1, block=True, timeout=0.5) == []
    assert largest.offsets == {0: 3} and largest.fetch_offsets == {0: 3}

    smallest = SimpleConsumer(mock_client, None, "range", auto_offset_reset="smallest")
    smallest.seek(100)
    assert [m.message.value for m in _drain(smallest, 3)] == [b"m0", b"m1", b"m2"]

    strict = SimpleConsumer(mock_client, None, "range", auto_offset_reset="none")
    strict.seek(100)
    with pytest.raises(errors.OffsetOutOfRangeError):
        strict.get_messages(count=1, block=False)
    with pytest.raises(errors.OffsetOutOfRangeError):
        strict.reset_partition_offset(0)
    assert smallest.reset_partition_offset(0) == 0
    assert largest.reset_partition_offset(0) == 3

    # Records deleted below a committed offset: the consumer follows auto_offset_reset.
    mock_cluster.delete_records("range", 0, 2)
    early = SimpleConsumer(mock_client, None, "range", auto_offset_reset="smallest")
    assert [(m.offset, m.message.value) for m in _drain(early, 1)] == [(2, b"m2")]


def test_pending_with_multi_record_batches(mock_cluster, mock_client):
    mock_cluster.create_topic("lag", 2, 3)
    _produce(mock_client, "lag", 0, [b"a"] * 7, one_per_batch=False)
    _produce(mock_client, "lag", 1, [b"b"] * 4, one_per_batch=False)
    consumer = SimpleConsumer(mock_client, "lag-group", "lag", auto_commit=False)
    assert consumer.pending() == 11
    consumer.seek(-3, 2)  # -1 and -2 from the tails
    assert consumer.offsets == {0: 6, 1: 2}
    assert (consumer.pending([0]), consumer.pending([1])) == (1, 2)
    assert len(_drain(consumer, 3)) == 3
    assert consumer.pending() == 0


# -- committing ----------------------------------------------------------------------------------


def test_commit_and_fetch_last_known_offsets(broker, client, other_client):
    topic = _new_topic(broker, partitions=2)
    for p in range(2):
        _produce(client, topic, p, [b"v%d" % i for i in range(6)])
    group = _group()
    consumer = SimpleConsumer(client, group, topic, auto_commit=False)
    assert consumer.commit() is None  # nothing consumed yet
    consumer.provide_partition_info()
    got = _drain(consumer, 5)
    assert len(got) == 5
    expected = dict(consumer.offsets)
    assert consumer.commit() is True
    assert _committed(other_client, group, topic, [0, 1]) == expected
    # Commit of some partitions only.
    consumer.seek(1, partition=0)
    consumer.seek(2, partition=1)
    assert consumer.commit(partitions=[1]) is True
    assert _committed(other_client, group, topic, [0, 1]) == {0: expected[0], 1: 2}

    # A new consumer of the group starts where the group committed.
    again = SimpleConsumer(other_client, group.encode(), topic.encode(), auto_commit=False)
    assert again.offsets == {0: expected[0], 1: 2}
    consumer.seek(4, partition=0)
    consumer.commit()
    again.fetch_last_known_offsets([0])
    assert again.offsets == {0: 4, 1: 2}
    # The consumer's own topic object is used (bytes in, bytes kept).
    assert again.topic == topic.encode()
    consumer.stop()
    again.stop()


def test_auto_commit_every_n_messages(broker, client, other_client):
    topic = _new_topic(broker, partitions=1)
    _produce(client, topic, 0, [b"n%d" % i for i in range(7)])
    group = _group()
    consumer = SimpleConsumer(client, group, topic, auto_commit=True, auto_commit_every_n=3,
                              auto_commit_every_t=None)
    assert consumer.commit_timer is None
    got = []
    while len(got) < 2:
        message = consumer.get_message(timeout=1)
        if message:
            got.append(message)
    assert _committed(other_client, group, topic, [0]) == {0: -1}  # 2 < 3: not yet
    got.append(consumer.get_message(timeout=5))
    assert _committed(other_client, group, topic, [0]) == {0: 3}
    # get_messages counts its whole batch.
    assert len(consumer.get_messages(count=4, block=True, timeout=5)) == 4
    assert _committed(other_client, group, topic, [0]) == {0: 7}
    consumer.stop()


def test_auto_commit_every_t_ms(broker, client, other_client):
    topic = _new_topic(broker, partitions=1)
    _produce(client, topic, 0, [b"t%d" % i for i in range(3)])
    group = _group()
    consumer = SimpleConsumer(client, group, topic, auto_commit=True, auto_commit_every_n=None,
                              auto_commit_every_t=1500)
    assert len(_drain(consumer, 2)) == 2
    committed_at = time.monotonic()
    consumer.seek(2)  # seek commits at once with auto-commit (and restarts the timer)
    assert _committed(other_client, group, topic, [0]) == {0: 2}
    message = None
    while message is None:
        message = consumer.get_message(timeout=1)
    if time.monotonic() - committed_at < 1.0:
        assert _committed(other_client, group, topic, [0]) == {0: 2}  # not yet: the timer commits
    assert _wait_until(lambda: _committed(other_client, group, topic, [0]) == {0: 3}, timeout=8)
    assert 1.3 < time.monotonic() - committed_at < 8
    # stop() stops the timer (and commits what is left).
    consumer.seek(1)
    consumer.stop()
    assert not consumer.commit_timer.is_alive()
    assert _committed(other_client, group, topic, [0]) == {0: 1}


def test_constructor_checks(broker, client):
    topic = _new_topic(broker, partitions=2)
    with pytest.raises(errors.IllegalArgumentError):
        SimpleConsumer(client, _group(), topic, buffer_size=8192, max_buffer_size=4096)
    with pytest.raises(errors.UnknownTopicOrPartitionError):
        SimpleConsumer(client, _group(), topic, partitions=[0, 5])
    with pytest.raises(errors.IllegalArgumentError):
        SimpleConsumer(client, _group(), 42)
    with pytest.raises(errors.IllegalArgumentError):
        SimpleConsumer(client, _group(), topic, auto_commit_every_n=0)
    only_one = SimpleConsumer(client, _group(), topic, partitions=[1], auto_commit=False)
    assert list(only_one.offsets) == [1]
    assert "partitions=[1]" in repr(only_one)


# -- fetch sizes ------------------------------------------------------------------------------------


def test_fetch_size_grows_for_a_large_message_then_fails_past_the_limit(broker, client):
    topic = _new_topic(broker, partitions=1)
    _produce(client, topic, 0, [b"small", b"L" * 10000, b"after"])
    consumer = SimpleConsumer(client, None, topic, buffer_size=1024, max_buffer_size=None)
    got = _drain(consumer, 3)
    assert [len(m.message.value) for m in got] == [5, 10000, 5]
    assert consumer.partition_buffer_sizes[0] >= 10000  # grew by doubling from 1024

    limited = SimpleConsumer(client, None, topic, buffer_size=1024, max_buffer_size=4096)
    # The message before the large one is handed out, then the error comes.
    assert [m.message.value for m in limited.get_messages(count=3, block=True, timeout=5)] == [b"small"]
    assert limited.offsets == {0: 1} and limited.fetch_offsets == {0: 1}
    with pytest.raises(errors.ConsumerFetchSizeTooSmall, match="max_buffer_size"):
        limited.get_messages(count=1, block=False)
    with pytest.raises(errors.ConsumerFetchSizeTooSmall):
        limited.get_message()
    assert limited.offsets == {0: 1}  # still on the large message
    limited.max_buffer_size = 16384
    assert [len(m.message.value) for m in _drain(limited, 2)] == [10000, 5]


def test_a_batch_of_small_messages_larger_than_max_buffer_size_is_read(broker, client):
    # Brokers return a record batch whole: 1000 messages of 100 bytes (~100 KB)
    # exceed the default max_buffer_size (32 KiB), yet no message is too large.
    topic = _new_topic(broker, partitions=1)
    values = [b"%03d" % i + b"x" * 97 for i in range(1000)]
    _produce(client, topic, 0, values, one_per_batch=False)
    consumer = SimpleConsumer(client, None, topic)
    assert (consumer.buffer_size, consumer.max_buffer_size) == (4096, 32768)
    assert [m.message.value for m in _drain(consumer, 1000)] == values
    assert consumer.partition_buffer_sizes[0] == 32768  # grew, up to the limit


# -- OffsetCommitContext -----------------------------------------------------------------------


def test_offset_commit_context_example(broker, client, other_client):
    topic = _new_topic(broker, partitions=1)
    _produce(client, topic, 0, [b"ok-%d" % i for i in range(3)] + [b"later"] + [b"ok-4"])
    group = _group()
    processed = []
    allow_later = []
    delays = []

    def can_process(message):
        value = message.message.value
        if value == b"later" and not allow_later:
            return False
        processed.append(value)
        return True

    def sleep(delay):
        delays.append(delay)
        allow_later.append(True)

    client_, group_, topic_ = client, group, topic
    count, delay = 10, 0.01
    rounds = iter(range(20))

    def some_condition():
        return next(rounds, None) is not None and len(processed) < 5

    # The example of the API reference, as written.
    from kafka import SimpleConsumer
    from kafka.simple.context import OffsetCommitContext
    client, group, topic = client_, group_, topic_

    consumer = SimpleConsumer(client, group, topic, auto_commit=False)
    consumer.provide_partition_info()
    consumer.fetch_last_known_offsets()

    while some_condition():
        with OffsetCommitContext(consumer) as context:
            messages = consumer.get_messages(count, block=False)

            for partition, message in messages:
                if can_process(message):
                    context.mark(partition, message.offset)
                else:
                    break

            if not context:
                sleep(delay)

    # "later" was refused once, retried after the pause, and everything was processed once.
    assert processed == [b"ok-0", b"ok-1", b"ok-2", b"later", b"ok-4"]
    assert delays  # at least one round marked nothing
    assert _committed(other_client, group, topic, [0]) == {0: 5}
    assert consumer.offsets == {0: 5}


def test_offset_commit_context_rolls_back_on_error(broker, client, other_client):
    topic = _new_topic(broker, partitions=2)
    for p in range(2):
        _produce(client, topic, p, [b"%d-%d" % (p, i) for i in range(4)])
    group = _group()
    consumer = SimpleConsumer(client, group, topic, auto_commit=False)
    consumer.provide_partition_info()

    with pytest.raises(ValueError):
        with OffsetCommitContext(consumer) as context:
            for partition, message in _drain(consumer, 8):
                context.mark(partition, message.offset)
            assert context
            raise ValueError("processing failed")
    # Nothing committed, and the consumer is back at the start.
    assert _committed(other_client, group, topic, [0, 1]) == {0: -1, 1: -1}
    assert consumer.offsets == {0: 0, 1: 0}

    with OffsetCommitContext(consumer) as context:
        for partition, message in _drain(consumer, 8):
            if partition == 0 and message.offset < 2:
                context.mark(partition, message.offset)
        context.mark(0, 0)  # the mark never goes back
    # Partition 0 committed up to its mark; partition 1 (nothing marked) was neither committed nor moved.
    assert _committed(other_client, group, topic, [0, 1]) == {0: 2, 1: -1}
    assert consumer.offsets == {0: 2, 1: 0}
    assert sorted((p, m.offset) for p, m in _drain(consumer, 6)) == [
        (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]

    # Explicit pairs, and the out-of-range helper.
    ctx = OffsetCommitContext(consumer)
    ctx.commit_partition_offsets({0: 3, 1: 1})
    assert _committed(other_client, group, topic, [0, 1]) == {0: 3, 1: 1}
    ctx.update_consumer_offsets({1: 3})
    assert consumer.offsets == {0: 4, 1: 3}
    ctx.handle_out_of_range()
    assert consumer.offsets == {0: 0, 1: 0}
    with pytest.raises(RuntimeError):
        ctx.mark(0, 1)


# -- faults (mock cluster) ------------------------------------------------------------------------

NOT_LEADER_OR_FOLLOWER = 6


def test_reads_on_through_a_moved_leader_and_fetch_errors(mock_cluster, mock_client):
    mock_cluster.create_topic("moving", 2, 3)
    mock_cluster.set_partition_leader("moving", 0, 1)
    _produce(mock_client, "moving", 0, [b"a%d" % i for i in range(5)], one_per_batch=False)
    _produce(mock_client, "moving", 1, [b"b%d" % i for i in range(5)], one_per_batch=False)
    consumer = SimpleConsumer(mock_client, "faults", "moving", auto_commit=False)
    consumer.provide_partition_info()
    first = _drain(consumer, 4)
    mock_cluster.set_partition_leader("moving", 0, 3)
    mock_cluster.push_request_errors("Fetch", NOT_LEADER_OR_FOLLOWER, NOT_LEADER_OR_FOLLOWER)
    rest = _drain(consumer, 6)
    got = sorted((p, m.offset) for p, m in first + rest)
    assert got == [(p, o) for p in range(2) for o in range(5)]  # each message once
    assert consumer.offsets == {0: 5, 1: 5}
    assert consumer.commit() is True
    assert _committed(mock_client, "faults", "moving", [0, 1]) == {0: 5, 1: 5}
