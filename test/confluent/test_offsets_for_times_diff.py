"""offsets_for_times when the broker finds no record at or after the timestamp.

Kafka answers ListOffsets with offset -1 then: confluent-kafka reports
``OFFSET_END`` (-1) for the partition, kafka-python's ``offsets_for_times``
None. librdkafka's mock cluster answers that way (the embedded broker answers
a future timestamp with offset 0 instead).
"""

from __future__ import annotations

import time

from kafka import KafkaConsumer
from kafka.structs import TopicPartition as EngineTP

FUTURE = int(time.time() * 1000) + 10 * 365 * 24 * 3600 * 1000


def test_a_timestamp_after_every_record_gives_offset_end(mock_cluster, ck, kc):
    mock_cluster.create_topic("times", 1)
    producer = ck.Producer({"bootstrap.servers": mock_cluster.bootstrap_servers})
    producer.produce("times", b"a", timestamp=1000)
    assert producer.flush(10) == 0
    results = {}
    for lib in (ck, kc):
        consumer = lib.Consumer({"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": "times"})
        try:
            results[lib.__name__] = [
                [(tp.partition, tp.offset, tp.error)
                 for tp in consumer.offsets_for_times([lib.TopicPartition("times", 0, timestamp)], timeout=10)]
                for timestamp in (FUTURE,)]
        finally:
            consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"] == [[(0, ck.OFFSET_END, None)]]

def test_the_native_consumer_gives_none(mock_cluster):
    mock_cluster.create_topic("times", 1)
    consumer = KafkaConsumer(bootstrap_servers=mock_cluster.bootstrap_servers)
    try:
        assert consumer.offsets_for_times({EngineTP("times", 0): FUTURE}) == {EngineTP("times", 0): None}
    finally:
        consumer.close()
