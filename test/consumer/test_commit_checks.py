"""KafkaConsumer.commit refuses offsets that are not offsets, before anything is sent.

A negative offset would overwrite the group's position with a value no
consumer can start from (the Java client refuses it in OffsetAndMetadata;
librdkafka leaves it out of the request).
"""

from __future__ import annotations

import uuid

import pytest

from kafka import KafkaConsumer, errors
from kafka.structs import OffsetAndMetadata, TopicPartition
from test.support.topics import create_topic


@pytest.mark.parametrize("bad", [-5, -1, -1001, 2 ** 63, "3", 1.5, OffsetAndMetadata(-2, "")])
def test_a_commit_of_a_bad_offset_is_refused_and_the_committed_offset_stays(broker, bad):
    topic = "commit-checks-%s" % uuid.uuid4().hex[:8]
    create_topic(broker.bootstrap_servers, topic, 1)
    tp = TopicPartition(topic, 0)
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, group_id="g-" + topic,
                             enable_auto_commit=False)
    try:
        consumer.assign([tp])
        consumer.commit({tp: OffsetAndMetadata(4, "")})
        with pytest.raises(errors.IllegalArgumentError, match="an offset to commit"):
            consumer.commit({tp: bad})
        with pytest.raises(errors.IllegalArgumentError):
            consumer.commit_async({tp: bad})
        assert consumer.committed(tp) == 4
    finally:
        consumer.close()


def test_a_commit_for_a_missing_topic_is_retried_until_the_timeout_unless_asked_not_to(broker):
    missing = TopicPartition("commit-missing-%s" % uuid.uuid4().hex[:8], 0)
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, group_id="g-" + missing.topic,
                             enable_auto_commit=False)
    try:
        # As kafka-python and the Java client: UNKNOWN_TOPIC_OR_PARTITION is retriable.
        with pytest.raises(errors.KafkaTimeoutError):
            consumer.commit({missing: OffsetAndMetadata(5, "")}, timeout_ms=1500)
        # As librdkafka: only the coordinator's errors are retried.
        with pytest.raises(errors.UnknownTopicOrPartitionError) as raised:
            consumer.commit({missing: OffsetAndMetadata(5, "")}, timeout_ms=30000, retry_partition_errors=False)
        assert raised.value.refused_partitions == {missing: errors.UnknownTopicOrPartitionError.errno}
    finally:
        consumer.close()
