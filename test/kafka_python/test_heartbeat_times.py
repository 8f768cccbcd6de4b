"""``consumer._coordinator.heartbeat``: the times kafka-python's own group tests read.

kafka-python's integration tests watch a member's heartbeats through its
coordinator (``last_poll``, ``last_send``, ``last_receive``, ``last_reset``,
``heartbeat_failed``); a program checking liveness the same way must see
them move as the member polls and heartbeats.
"""

from __future__ import annotations

import time
import uuid

from kafka import KafkaConsumer
from kafka.structs import MemberState
from test.support.topics import new_topic
from test.support.waiting import wait_until


def test_heartbeat_times_follow_polls_and_answered_heartbeats(broker):
    topic = new_topic(broker, partitions=1, prefix="hb-times")
    consumer = KafkaConsumer(topic, bootstrap_servers=broker.bootstrap_servers, group_id="hb-" + uuid.uuid4().hex,
                             heartbeat_interval_ms=300, session_timeout_ms=6000)
    try:
        start = time.monotonic()
        deadline = start + 60
        while not consumer.assignment() and time.monotonic() < deadline:
            consumer.poll(timeout_ms=100)
        assert consumer.assignment()
        heartbeat = consumer._coordinator.heartbeat
        assert consumer._coordinator.state is MemberState.STABLE
        # poll() stamps last_poll as it starts; the join it completes stamps
        # last_reset later, so the two can come in either order.
        assert heartbeat.last_reset > start and heartbeat.last_poll > start
        last_poll = heartbeat.last_poll

        assert wait_until(lambda: heartbeat.last_receive > start, timeout=30)
        first_answer = heartbeat.last_receive
        assert first_answer > start and heartbeat.last_send > start and not heartbeat.heartbeat_failed

        # The heartbeat thread goes on between polls.
        assert wait_until(lambda: heartbeat.last_receive > first_answer, timeout=30)
        assert heartbeat.last_poll == last_poll  # ... and only poll() moves last_poll
        consumer.poll(timeout_ms=10)
        assert heartbeat.last_poll > last_poll
    finally:
        consumer.close()
