"""A deserializer that fails: the records before the bad one are delivered, then the error, then it again."""

from __future__ import annotations

import uuid

import pytest

from kafka import direct
from kafka.conn.blocking import BlockingConnection
from kafka.consumer import KafkaConsumer
from kafka.producer import KafkaProducer
from kafka.structs import TopicPartition


def _strict(value: bytes) -> str:
    if value == b"bad":
        raise ValueError("cannot decode %r" % value)
    return value.decode()


def test_records_before_a_failing_one_are_delivered_and_the_position_stops_there(broker):
    topic = "deser-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, topic)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        # Three batches: the failing record sits in the second.
        for values in ([b"a", b"b"], [b"c", b"bad", b"d"], [b"e"]):
            for value in values:
                producer.send(topic, value=value)
            producer.flush(10)
    tp = TopicPartition(topic, 0)
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, value_deserializer=_strict,
                             auto_offset_reset="earliest", enable_auto_commit=False, fetch_max_wait_ms=100)
    try:
        consumer.assign([tp])
        got = []
        with pytest.raises(ValueError, match="cannot decode"):
            for _ in range(50):
                for records in consumer.poll(timeout_ms=500).values():
                    got.extend(r.value for r in records)
        assert got == ["a", "b", "c"]
        assert consumer.position(tp) == 3  # at the failing record, not past it
        with pytest.raises(ValueError):  # the same record fails again
            for _ in range(50):
                consumer.poll(timeout_ms=500)
        consumer.seek(tp, 4)  # the application skips the bad record (offset 3)
        rest = []
        for _ in range(20):
            for records in consumer.poll(timeout_ms=500).values():
                rest.extend(r.value for r in records)
            if len(rest) >= 2:
                break
        assert rest == ["d", "e"]
    finally:
        consumer.close()
