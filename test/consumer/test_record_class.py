"""KafkaConsumer.set_record_class: records built as another tuple class, field for field."""

from __future__ import annotations

import pytest

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import IllegalArgumentTypeError
from kafka.record.rows import ROW_FIELDS
from test.support.topics import new_topic


class Row(tuple):
    """A record class of an application's own: a tuple, no named fields."""


def _read_all(broker, topic, expected, record_class=None):
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest",
                             enable_auto_commit=False)
    try:
        if record_class is not None:
            consumer.set_record_class(record_class)
        consumer.assign([TopicPartition(topic, 0)])
        records = []
        for _ in range(100):
            for batch in consumer.poll(timeout_ms=200).values():
                records.extend(batch)
            if len(records) >= expected:
                break
        return records
    finally:
        consumer.close()


def test_records_come_as_the_class_given_with_every_field_in_place(broker):
    topic = new_topic(broker, partitions=1, prefix="record-class")
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=50) as producer:
        for i in range(300):  # a uniform run (same-length values, no keys) ...
            producer.send(topic, b"%05d" % i, partition=0)
        producer.flush()
        for i in range(300):  # ... and records of every shape
            producer.send(topic, b"v" * (i % 37), key=b"k%d" % i if i % 3 else None,
                          headers=[("h", b"%d" % i)] if i % 5 == 0 else None, partition=0)

    plain = _read_all(broker, topic, 600)
    custom = _read_all(broker, topic, 600, Row)

    assert len(plain) == len(custom) == 600
    assert all(type(record) is Row for record in custom)
    assert [tuple(record) for record in custom] == [tuple(record) for record in plain]
    assert len(custom[0]) == len(ROW_FIELDS)


@pytest.mark.parametrize("bad", [dict, "Row", object])
def test_a_record_class_that_is_not_a_tuple_subclass_is_refused(broker, bad):
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers)
    try:
        with pytest.raises(IllegalArgumentTypeError):
            consumer.set_record_class(bad)
    finally:
        consumer.close()
