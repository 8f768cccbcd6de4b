"""A closed client fails at once, whatever the call: nothing waits out a timeout on a closed connection.

Before, a closed consumer's ``topics()`` or ``end_offsets()`` and a closed
admin client's ``describe_log_dirs()`` waited ``request_timeout_ms`` (30 s
by default) before failing. kafka-python raises at once too.
"""

from __future__ import annotations

import time

import pytest

from kafka import KafkaConsumer, errors
from kafka.admin import KafkaAdminClient
from kafka.structs import TopicPartition

TP = TopicPartition("closed-topic", 0)


def _fails_at_once(call):
    started = time.monotonic()
    with pytest.raises(errors.IllegalStateError):
        call()
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("call", [
    lambda c: c.topics(), lambda c: c.partitions_for_topic("closed-topic"),
    lambda c: c.beginning_offsets([TP]), lambda c: c.end_offsets([TP]), lambda c: c.offsets_for_times({TP: 0}),
    lambda c: c.position(TP), lambda c: c.committed(TP), lambda c: c.commit({TP: 1}), lambda c: c.poll(100),
], ids=["topics", "partitions_for_topic", "beginning_offsets", "end_offsets", "offsets_for_times", "position",
        "committed", "commit", "poll"])
def test_a_closed_consumer_fails_at_once(broker, call):
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, group_id="closed-group",
                             request_timeout_ms=30000)
    consumer.assign([TP])
    consumer.close()
    _fails_at_once(lambda: call(consumer))


@pytest.mark.parametrize("call", [
    lambda a: a.list_topics(), lambda a: a.describe_log_dirs(), lambda a: a.list_transactions(),
    lambda a: a.find_hanging_transactions(), lambda a: a.describe_cluster(), lambda a: a.list_consumer_groups(),
], ids=["list_topics", "describe_log_dirs", "list_transactions", "find_hanging_transactions", "describe_cluster",
        "list_consumer_groups"])
def test_a_closed_admin_client_fails_at_once(broker, call):
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers, request_timeout_ms=30000)
    admin.close()
    _fails_at_once(lambda: call(admin))


def test_an_admin_lookup_of_a_missing_topic_does_not_create_it(broker):
    missing = "never-created-%d" % int(time.time() * 1000)
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers, request_timeout_ms=3000)
    try:
        with pytest.raises(errors.KafkaError):
            admin.delete_records({TopicPartition(missing, 0): 1})
        assert missing not in admin.list_topics()
    finally:
        admin.close()
