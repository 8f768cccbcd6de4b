"""``kafkawire groups`` run as a user runs it: a subprocess against the embedded broker and the mock cluster."""

from __future__ import annotations

import time
import uuid

import pytest

from kafka.admin import KafkaAdminClient, NewTopic
from kafka.consumer import KafkaConsumer
from kafka.producer import KafkaProducer
from kafka.structs import OffsetAndMetadata, TopicPartition
from test.cli.test_topics import cli, one_error_line
from test.support.consuming import poll_count


def produce_one_per_batch(bootstrap: str, topic: str, counts: dict) -> None:
    # One record per batch: Tansu's ListOffsets "latest" is exact only then.
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=0)
    try:
        for partition, count in counts.items():
            for i in range(count):
                producer.send(topic, b"r%d" % i, partition=partition).get(10)
    finally:
        producer.close()


def table(stdout: str) -> list:
    return [line.split() for line in stdout.splitlines()]


def test_list_and_describe_a_live_group(broker):
    bs = broker.bootstrap_servers
    topic, group = "cligrp-" + uuid.uuid4().hex[:8], "cli-group-" + uuid.uuid4().hex[:8]
    with KafkaAdminClient(bootstrap_servers=bs) as admin:
        admin.create_topics([NewTopic(topic, 2, 1)])
    produce_one_per_batch(bs, topic, {0: 4, 1: 2})
    consumer = KafkaConsumer(topic, bootstrap_servers=bs, group_id=group, auto_offset_reset="earliest",
                             enable_auto_commit=False, session_timeout_ms=6000, heartbeat_interval_ms=1000,
                             client_id="cli-test-client")
    try:
        assert poll_count(consumer, 6, timeout=40) == 6
        consumer.commit({TopicPartition(topic, 0): OffsetAndMetadata(1, ""), TopicPartition(topic, 1): 2})

        listed = cli("groups", "list", "--bootstrap-server", bs)
        assert listed.returncode == 0 and group in listed.stdout.splitlines()
        with_state = cli("groups", "list", "--state", "--bootstrap-server", bs)
        assert "%s\t" % group in with_state.stdout

        described = cli("groups", "describe", group, "--bootstrap-server", bs)
        assert described.returncode == 0, described.stderr
        rows = table(described.stdout)
        assert rows[0] == ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                           "CONSUMER-ID", "HOST", "CLIENT-ID"]
        assert [r[:6] for r in rows[1:3]] == [[group, topic, "0", "1", "4", "3"], [group, topic, "1", "2", "2", "0"]]
        assert described.stdout.splitlines()[-1] == "state: Stable, members: 1"
    finally:
        consumer.close(autocommit=False)


def test_describe_on_a_broker_without_describe_groups(mock_cluster):
    # The mock implements no DescribeGroups: offsets and lag are still shown.
    mock_cluster.create_topic("lagged", 2)
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, linger_ms=5)
    try:
        futures = [producer.send("lagged", b"x", partition=i % 2) for i in range(10)]
        producer.flush()
        for f in futures:
            f.get(10)
    finally:
        producer.close()
    with KafkaAdminClient(bootstrap_servers=mock_cluster.bootstrap_servers) as admin:
        admin.alter_consumer_group_offsets("offline", {TopicPartition("lagged", 0): 2, TopicPartition("lagged", 1): 5})
    described = cli("groups", "describe", "offline", "--bootstrap-server", mock_cluster.bootstrap_servers)
    assert described.returncode == 0, described.stderr
    rows = table(described.stdout)
    assert [r[:6] for r in rows[1:]] == [["offline", "lagged", "0", "2", "5", "3"],
                                        ["offline", "lagged", "1", "5", "5", "0"]]
    assert all(r[6:] == ["-", "-", "-"] for r in rows[1:])
    listing = cli("groups", "list", "--bootstrap-server", mock_cluster.bootstrap_servers)
    assert listing.returncode == 1 and "ListGroups" in one_error_line(listing, "kafkawire groups")


def test_unknown_group_is_an_error(broker):
    result = cli("groups", "describe", "no-such-group-" + uuid.uuid4().hex[:6],
                 "--bootstrap-server", broker.bootstrap_servers)
    assert result.returncode == 1 and result.stdout == ""
    assert "does not exist" in one_error_line(result, "kafkawire groups")


@pytest.mark.parametrize("args, prog, fragment", [
    (["groups"], "groups", "required: ACTION"),
    (["groups", "describe"], "groups describe", "required: GROUP"),
    (["groups", "list", "--timeout", "soon"], "groups list", "--timeout"),
])
def test_usage_errors(args, prog, fragment):
    result = cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert fragment in one_error_line(result, "kafkawire " + prog)


def test_unreachable_broker():
    start = time.monotonic()
    result = cli("groups", "describe", "g", "--bootstrap-server", "127.0.0.1:1")
    assert result.returncode == 1 and "127.0.0.1:1" in one_error_line(result, "kafkawire groups")
    # The CLI gives up after its 5 s wait for a bootstrap server; the rest is the interpreter's
    # start-up, which took over 6 s once on a loaded machine. A hang would take the 60 s timeout.
    assert time.monotonic() - start < 30
