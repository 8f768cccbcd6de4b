"""Transactional producing against the embedded broker.

Tansu writes the transaction markers but, like librdkafka's mock, does not
hide aborted records from read_committed fetches (see shared/DESIGN.md), so
these tests check what the broker stores: the data batches flagged
transactional with our producer id, followed by a COMMIT or ABORT marker.
"""

from __future__ import annotations

import uuid

import pytest

from kafka import direct, errors
from kafka.conn.blocking import BlockingConnection
from kafka.producer import KafkaProducer
from kafka.record import MemoryRecords
from kafka.record.record import ControlRecordType
from kafka.structs import TopicPartition


@pytest.fixture
def topic(broker):
    name = "txn-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=2)
    return name


def _batches(broker, topic, partition=0):
    with BlockingConnection(broker.host, broker.port) as conn:
        info = direct.describe_topic(conn, topic)
        return list(MemoryRecords(direct.fetch(conn, info, partition, 0).records))


def test_commit_and_abort_write_markers_after_the_data(broker, topic):
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="t-" + topic) as producer:
        producer.init_transactions()
        producer.begin_transaction()
        for i in range(3):
            producer.send(topic, value=b"commit-%d" % i, partition=0)
        producer.commit_transaction()
        producer.begin_transaction()
        for i in range(2):
            producer.send(topic, value=b"abort-%d" % i, partition=0)
        producer.abort_transaction()
        pid = producer._identity.producer_id
    batches = _batches(broker, topic)
    kinds = [("marker", list(b)[0].control_type) if b.is_control_batch else ("data", [r.value for r in b])
             for b in batches]
    assert kinds == [("data", [b"commit-0", b"commit-1", b"commit-2"]), ("marker", ControlRecordType.COMMIT),
                     ("data", [b"abort-0", b"abort-1"]), ("marker", ControlRecordType.ABORT)]
    assert all(b.is_transactional and b.producer_id == pid for b in batches)


def test_a_second_producer_with_the_same_id_fences_the_first(broker, topic):
    first = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="f-" + topic)
    second = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="f-" + topic)
    try:
        first.init_transactions()
        second.init_transactions()
        first.begin_transaction()
        with pytest.raises(errors.ProducerFencedError):
            first.send(topic, value=b"zombie", partition=0)
        with pytest.raises(errors.IllegalStateError):
            first.begin_transaction()
        second.begin_transaction()
        second.send(topic, value=b"live", partition=0)
        second.commit_transaction()
    finally:
        first.close(timeout=5)
        second.close(timeout=5)
    values = [r.value for b in _batches(broker, topic) if not b.is_control_batch for r in b]
    assert values == [b"live"]


def test_offsets_can_join_the_transaction(broker, topic):
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="o-" + topic) as producer:
        producer.init_transactions()
        producer.begin_transaction()
        producer.send(topic, value=b"out", partition=1)
        producer.send_offsets_to_transaction({TopicPartition(topic, 0): 42}, "group-" + topic)
        producer.commit_transaction()
    assert [b.is_control_batch for b in _batches(broker, topic, 1)] == [False, True]


def test_transactional_calls_in_the_wrong_order(broker, topic):
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="w-" + topic) as producer:
        with pytest.raises(errors.IllegalStateError):
            producer.begin_transaction()
        producer.init_transactions()
        with pytest.raises(errors.IllegalStateError):
            producer.send(topic, value=b"outside a transaction")
        with pytest.raises(errors.IllegalStateError):
            producer.commit_transaction()
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as plain:
        with pytest.raises(errors.IllegalStateError):
            plain.init_transactions()
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="x", enable_idempotence=False)
