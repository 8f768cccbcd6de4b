"""The 0.9 MultiProcessConsumer, with real worker processes, against the embedded broker.

Every record is delivered exactly once across the workers; stop() ends every
worker within a bounded time (no orphans), with the fork and spawn start
methods; commits and auto-commit are made by the parent; and the
multiprocess example of the 0.9 usage guide runs as written.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import uuid

import pytest

from kafka import errors
from kafka.client import KafkaClient
from kafka.simple.common import OffsetAndMessage
from kafka.simple import MultiProcessConsumer
from test.support.simple import committed as _committed
from test.support.simple import get_messages_until
from test.support.simple import new_topic as _new_topic
from test.support.simple import produce as _produce


def _alive(procs):
    return [p for p in procs if p.is_alive()]


def _collect(consumer, expected, timeout=30.0):
    return get_messages_until(consumer, expected, timeout, wait=2)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_two_workers_deliver_every_record_exactly_once(broker, client, start_method):
    if start_method not in multiprocessing.get_all_start_methods():
        pytest.skip("no %s start method here" % start_method)
    topic = _new_topic(broker, partitions=4)
    expected = set()
    for p in range(4):
        values = [b"%d-%d" % (p, i) for i in range(15)]
        _produce(client, topic, p, values)
        expected.update((p, v) for v in values)
    group = "mp-" + uuid.uuid4().hex[:8]
    consumer = MultiProcessConsumer(client, group, topic, num_procs=2, auto_commit=False,
                                    start_method=start_method)
    try:
        assert len(consumer.procs) == 2
        pids = {p.pid for p in consumer.procs}
        assert os.getpid() not in pids and len(pids) == 2
        consumer.provide_partition_info()
        got = _collect(consumer, 60)
        assert len(got) == 60
        seen = [(p, m.message.value) for p, m in got]
        assert len(set(seen)) == 60 and set(seen) == expected  # each record once
        for partition, message in got:
            assert isinstance(message, OffsetAndMessage)
        # Within a partition, order is kept.
        for p in range(4):
            assert [m.offset for q, m in got if q == p] == list(range(15))
        assert consumer.offsets == {p: 15 for p in range(4)}
        # Nothing more arrives.
        assert consumer.get_messages(count=5, block=True, timeout=1) == []
        assert consumer.pending() == 0
        assert consumer.commit() is True
        assert _committed(client, group, topic, range(4)) == {p: 15 for p in range(4)}
    finally:
        started = time.monotonic()
        consumer.stop()
        took = time.monotonic() - started
    assert _alive(consumer.procs) == []
    assert all(p.exitcode is not None for p in consumer.procs)
    assert took < 15, took
    assert not [c for c in multiprocessing.active_children() if c in consumer.procs]


def test_partitions_per_proc_and_resuming_from_committed_offsets(broker, client):
    topic = _new_topic(broker, partitions=5)
    for p in range(5):
        _produce(client, topic, p, [b"a%d" % p, b"b%d" % p])
    group = "mp-" + uuid.uuid4().hex[:8]
    consumer = MultiProcessConsumer(client, group, topic, partitions_per_proc=2, auto_commit=True,
                                    auto_commit_every_n=5, auto_commit_every_t=None)
    try:
        assert len(consumer.procs) == 3  # 5 partitions, at most 2 each
        got = _collect(consumer, 5)
        assert len(got) == 5
        # Auto-commit by count (5 messages): committed from the parent.
        committed = _committed(client, group, topic, range(5))
        assert sum(max(o, 0) for o in committed.values()) == 5
        assert committed == consumer.offsets
    finally:
        consumer.stop()
    assert _alive(consumer.procs) == []

    # A new consumer of the group resumes after what was committed.
    again = MultiProcessConsumer(client, group, topic, num_procs=2, auto_commit=False)
    try:
        rest = _collect(again, 5)
        assert len(rest) == 5
        values = sorted(m.message.value for m in got + rest)
        assert values == sorted([b"a%d" % p for p in range(5)] + [b"b%d" % p for p in range(5)])
        assert again.get_messages(count=1, block=True, timeout=1) == []
    finally:
        again.stop()
    assert _alive(again.procs) == []


def test_workers_do_not_run_far_ahead_of_get_messages(broker, client):
    topic = _new_topic(broker, partitions=1)
    _produce(client, topic, 0, [b"w%02d" % i for i in range(40)])
    consumer = MultiProcessConsumer(client, None, topic, num_procs=1)
    try:
        first = _collect(consumer, 5)
        assert [m.offset for m in first] == [0, 1, 2, 3, 4]
        time.sleep(1.0)  # time the worker would use to queue everything
        assert consumer.queue.qsize() <= 2  # it stopped at about what was asked for
        rest = _collect(consumer, 35)
        assert [m.offset for m in first + rest] == list(range(40))
    finally:
        consumer.stop()
    assert _alive(consumer.procs) == []


def test_iteration_ends_when_nothing_arrives_and_stop_is_bounded(broker, client):
    topic = _new_topic(broker, partitions=2)
    for p in range(2):
        _produce(client, topic, p, [b"it%d-%d" % (p, i) for i in range(3)])
    consumer = MultiProcessConsumer(client, None, topic, num_procs=2)
    try:
        # The workers need a moment to connect; iteration ends after 1 s without messages.
        got = []
        deadline = time.monotonic() + 20
        while len(got) < 6 and time.monotonic() < deadline:
            got.extend(m.message.value for m in consumer)
        assert sorted(got) == sorted(b"it%d-%d" % (p, i) for p in range(2) for i in range(3))
        with pytest.raises(errors.KafkaConfigurationError):
            consumer.commit()  # no group
    finally:
        consumer.stop()
    assert _alive(consumer.procs) == []
    consumer.stop()  # twice is harmless


def test_argument_checks(broker, client):
    topic = _new_topic(broker, partitions=1)
    with pytest.raises(errors.IllegalArgumentError):
        MultiProcessConsumer(client, "g", topic, num_procs=0)
    with pytest.raises(errors.IllegalArgumentError):
        MultiProcessConsumer(client, "g", topic, partitions_per_proc=-1)
    with pytest.raises(errors.KafkaConfigurationError):
        MultiProcessConsumer(client, "g", topic, start_method="teleport")
    with pytest.raises(errors.KafkaConfigurationError, match="buffer_sise"):
        MultiProcessConsumer(client, "g", topic, buffer_sise=8192)
    with pytest.raises(errors.IllegalArgumentError, match="buffer_size"):
        MultiProcessConsumer(client, "g", topic, buffer_size=-1)  # refused before any worker starts
    # More processes than partitions: one per partition.
    consumer = MultiProcessConsumer(client, None, topic, num_procs=4)
    try:
        assert len(consumer.procs) == 1
    finally:
        consumer.stop()


def _client_class():
    return KafkaClient


def test_multiprocess_example_runs_as_written(fresh_broker, capsys):
    topic = _new_topic(fresh_broker, partitions=4, name="my-topic")
    producer_client = _client_class()(fresh_broker.bootstrap_servers)
    for p in range(4):
        _produce(producer_client, topic, p, [b"message %d-%d" % (p, i) for i in range(4)])
    address = fresh_broker.bootstrap_servers

    from kafka import KafkaClient, MultiProcessConsumer

    kafka = KafkaClient(address)

    # This will split the number of partitions among two processes
    consumer = MultiProcessConsumer(kafka, b'my-group', b'my-topic', num_procs=2)
    first = consumer

    # This will spawn processes such that each handles 2 partitions max
    consumer = MultiProcessConsumer(kafka, b'my-group', b'my-topic',
                                    partitions_per_proc=2)

    for message in consumer:
        print(message)

    for message in consumer.get_messages(count=5, block=True, timeout=4):
        print(message)

    try:
        assert len(first.procs) == 2 and len(consumer.procs) == 2
        printed = capsys.readouterr().out
        # Each of the 16 messages was printed once (the first loop may end
        # early while the workers connect; the second picks up the rest).
        lines = [line for line in printed.splitlines() if "OffsetAndMessage" in line]
        values = sorted(line.split("value=b'")[1].split("'")[0] for line in lines)
        assert len(lines) == len(set(lines)) and len(lines) >= 5
        assert set(values) <= {"message %d-%d" % (p, i) for p in range(4) for i in range(4)}
        remaining = _collect(consumer, 16 - len(values), timeout=20)
        assert len(values) + len(remaining) == 16
    finally:
        first.stop()
        consumer.stop()
        kafka.close()
        producer_client.close()
    assert _alive(first.procs + consumer.procs) == []
