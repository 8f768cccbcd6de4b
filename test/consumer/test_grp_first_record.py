"""The first record for a new consumer, in a new group and without one, on the embedded broker.

What this checks: the consumer joins a new group and gets its first record,
with the client's 6 s and default session timeouts, and the broker holds
the JoinGroup about as long as documented below (a lower bound, which load
cannot break). How long each step takes is measured by
``benchmarks/group_join.py``, not asserted here, where a loaded machine
could fail the build. What was found about the time it takes:

- Tansu holds the JoinGroup of a member joining a group for half the
  session timeout it asks for (3.0 s at 6 s, 5.0 s at 10 s, 23 s at the
  default 45 s), whatever the rebalance timeout, the JoinGroup version,
  the client id, or whether the member id came from a MEMBER_ID_REQUIRED
  round (KIP-394) or was chosen by the client: a JoinGroup sent straight
  with a member id waits just as long. That round itself costs about a
  millisecond. Nothing on the client side shortens the wait, except a
  shorter ``session_timeout_ms``.
- Everything else — bootstrap, FindCoordinator, SyncGroup, the committed
  offsets lookup, ListOffsets and the first Fetch — takes well under a
  second together.

Tansu answers JoinGroup with MEMBER_ID_REQUIRED even at v3, which predates
KIP-394; the client handles it at every version.
"""

from __future__ import annotations

import logging
import time
import uuid

import pytest

from kafka import KafkaConsumer, KafkaProducer
from kafka.structs import TopicPartition
from test.support.topics import create_topic

SESSION_MS = 6000


@pytest.fixture
def topic(broker):
    name = "first-%s" % uuid.uuid4().hex[:8]
    create_topic(broker.bootstrap_servers, name, 2)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        for i in range(20):
            producer.send(name, value=b"r%d" % i, partition=i % 2)
        producer.flush(30)
    return name


class _JoinClock(logging.Handler):
    """Notes when the member joined a generation (from the group module's log)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.joined_at = None
        self.join_sent_at = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "JoinGroup as" in message:
            self.join_sent_at.append(time.monotonic())
        elif "joined generation" in message and self.joined_at is None:
            self.joined_at = time.monotonic()


def _first_record(broker, topic, **config):
    clock = _JoinClock()
    clock.setLevel(logging.DEBUG)
    log = logging.getLogger("kafka.consumer.group.classic")
    old_level = log.level
    log.setLevel(logging.DEBUG)
    log.addHandler(clock)
    start = time.monotonic()
    consumer = KafkaConsumer(topic, bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest",
                             **config)
    try:
        deadline = start + 60
        while True:
            assert time.monotonic() < deadline, "no record within 60 s"
            if consumer.poll(timeout_ms=200):
                break
        return time.monotonic() - start, clock, start
    finally:
        log.removeHandler(clock)
        log.setLevel(old_level)
        consumer.close()


def test_first_record_in_a_new_group(broker, topic):
    group = "first-%s" % uuid.uuid4().hex[:8]
    took, clock, start = _first_record(broker, topic, group_id=group, session_timeout_ms=SESSION_MS,
                                       heartbeat_interval_ms=1000)
    assert clock.joined_at is not None
    # One JoinGroup, or two with a MEMBER_ID_REQUIRED round first: no other rejoin delayed the record.
    assert 1 <= len(clock.join_sent_at) <= 2, clock.join_sent_at
    join_wait = clock.joined_at - clock.join_sent_at[-1]
    print("\nTansu, new group, session timeout %.0f s: first record after %.2f s (JoinGroup held %.2f s)"
          % (SESSION_MS / 1000, took, join_wait))
    # The broker's wait is half the session timeout (load can only lengthen it).
    assert join_wait >= SESSION_MS / 2000.0 - 1.0


def test_first_record_without_a_group(broker, topic):
    # For comparison: manual assignment, no group.
    start = time.monotonic()
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
    try:
        consumer.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        consumer.seek_to_beginning()
        while not consumer.poll(timeout_ms=200):
            assert time.monotonic() - start < 30, "no record within 30 s"
        took = time.monotonic() - start
    finally:
        consumer.close()
    print("\nTansu, manual assignment: first record after %.2f s" % took)


@pytest.mark.slow
def test_first_record_with_the_default_session_timeout(broker, topic):
    # What a user sees with the defaults (45 s session timeout): about 23 s,
    # the JoinGroup held longer than nothing but the consumer's request timeout.
    group = "default-%s" % uuid.uuid4().hex[:8]
    took, clock, start = _first_record(broker, topic, group_id=group)
    assert clock.joined_at is not None
    assert 1 <= len(clock.join_sent_at) <= 2, clock.join_sent_at  # none sent again after a request timeout
    join_wait = clock.joined_at - clock.join_sent_at[-1]
    print("\nTansu, new group, default 45 s session timeout: first record after %.2f s (JoinGroup held %.2f s)"
          % (took, join_wait))
    assert join_wait >= 22.5 - 2.0
