"""send_offsets_to_transaction against the embedded broker: the offsets are the group's once committed."""

from __future__ import annotations

import uuid

import pytest

from kafka import direct
from kafka.admin import KafkaAdminClient
from kafka.conn.blocking import BlockingConnection
from kafka.producer import KafkaProducer
from kafka.structs import OffsetAndMetadata, TopicPartition


@pytest.mark.parametrize("with_records", [True, False], ids=["with-records", "offsets-only"])
def test_committed_transaction_offsets_become_the_groups(broker, with_records):
    topic = "txo-" + uuid.uuid4().hex[:8]
    group = "txo-group-" + topic
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, topic, partitions=2)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="txo-" + topic) as producer:
        producer.init_transactions()
        producer.begin_transaction()
        if with_records:
            producer.send(topic, value=b"derived", partition=1)
        producer.send_offsets_to_transaction({TopicPartition(topic, 0): OffsetAndMetadata(17, "m"),
                                              TopicPartition(topic, 1): 5}, group)
        producer.commit_transaction()
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers)
    try:
        offsets = admin.list_consumer_group_offsets(group)
    finally:
        admin.close()
    assert {tp: o.offset for tp, o in offsets.items()} == {TopicPartition(topic, 0): 17, TopicPartition(topic, 1): 5}
