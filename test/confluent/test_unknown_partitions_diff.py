"""An assigned partition that does not exist is reported by poll(), through confluent_kafka and kafka.confluent.

librdkafka looks up the group's committed offset of each assigned partition;
when the coordinator answers that the partition is unknown, ``poll()``
returns an error message (``UNKNOWN_TOPIC_OR_PART``, once) instead of
nothing at all. librdkafka's mock cluster answers OffsetFetch that way (the
embedded broker answers with no error and no offset, and neither client
reports anything there).
"""

from __future__ import annotations

import time

import pytest

from kafka import KafkaConsumer, errors
from kafka.structs import TopicPartition as EngineTP


def _events(lib, bootstrap, partitions, seconds=3.0):
    consumer = lib.Consumer({"bootstrap.servers": bootstrap, "group.id": "unknown-parts",
                             "auto.offset.reset": "earliest", "allow.auto.create.topics": False})
    consumer.assign([lib.TopicPartition(topic, partition) for topic, partition in partitions])
    out = []
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None:
                error = message.error()
                out.append((message.topic(), message.partition(), message.offset(), message.value(),
                            error and (error.name(), error.str(), error.retriable(), error.fatal())))
    finally:
        consumer.close()
    return sorted(out, key=str)


@pytest.mark.parametrize("partitions", [[("present", 99)], [("absent", 0)], [("present", 99), ("present", 0)]],
                         ids=["partition", "topic", "beside-a-real-one"])
def test_an_unknown_assigned_partition_gives_one_error_message(mock_cluster, ck, kc, partitions):
    mock_cluster.create_topic("present", partitions=2)
    theirs = _events(ck, mock_cluster.bootstrap_servers, partitions)
    ours = _events(kc, mock_cluster.bootstrap_servers, partitions)
    assert ours == theirs
    text = 'Failed to fetch committed offset for group "unknown-parts" topic %s [%d]: ' \
           'Broker: Unknown topic or partition' % partitions[0]
    assert ours[0] == partitions[0] + (None, text.encode(), ("UNKNOWN_TOPIC_OR_PART", text, False, False))
    assert len(ours) == 1


def test_the_native_consumer_keeps_waiting_and_hands_the_error_to_take_partition_errors(mock_cluster):
    mock_cluster.create_topic("present", partitions=2)
    tp = EngineTP("present", 99)
    consumer = KafkaConsumer(bootstrap_servers=mock_cluster.bootstrap_servers, group_id="native-unknown",
                             auto_offset_reset="earliest")
    try:
        consumer.assign([tp])
        found = []
        deadline = time.monotonic() + 10
        while not found and time.monotonic() < deadline:
            assert consumer.poll(timeout_ms=200) == {}
            found = consumer.take_partition_errors()
        assert [(where, type(error)) for where, error in found] == [(tp, errors.UnknownTopicOrPartitionError)]
        consumer.poll(timeout_ms=500)
        assert consumer.take_partition_errors() == []  # each is handed out once
    finally:
        consumer.close()
