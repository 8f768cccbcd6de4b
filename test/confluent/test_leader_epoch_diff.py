"""Records carry the leader epoch their batch was written in, through every consumer API.

librdkafka's mock cluster stamps each stored batch with the partition's
leader epoch (0 at first, one more at each leader move); the embedded broker
keeps the -1 the producer sent, so it cannot show this.
"""

from __future__ import annotations

import time

from kafka import KafkaConsumer
from kafka.structs import TopicPartition as EngineTP


def _epochs_confluent(lib, bootstrap):
    consumer = lib.Consumer({"bootstrap.servers": bootstrap, "group.id": "epochs", "auto.offset.reset": "earliest"})
    consumer.assign([lib.TopicPartition("epochs", 0, 0)])
    out = []
    deadline = time.monotonic() + 20
    try:
        while len(out) < 2 and time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None and message.error() is None:
                out.append((message.offset(), message.leader_epoch()))
    finally:
        consumer.close()
    return out


def _epochs_native(bootstrap):
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest")
    consumer.assign([EngineTP("epochs", 0)])
    out = []
    deadline = time.monotonic() + 20
    try:
        while len(out) < 2 and time.monotonic() < deadline:
            for records in consumer.poll(200).values():
                out.extend((r.offset, r.leader_epoch) for r in records)
    finally:
        consumer.close()
    return out


def test_records_written_under_two_leaders_have_their_epochs(mock_cluster, ck, kc):
    mock_cluster.create_topic("epochs", 1)
    producer = ck.Producer({"bootstrap.servers": mock_cluster.bootstrap_servers})
    producer.produce("epochs", b"first")
    assert producer.flush(10) == 0
    mock_cluster.set_partition_leader("epochs", 0, 2)
    mock_cluster.set_partition_leader("epochs", 0, 3)
    producer.produce("epochs", b"second")
    assert producer.flush(30) == 0
    theirs = _epochs_confluent(ck, mock_cluster.bootstrap_servers)
    assert _epochs_confluent(kc, mock_cluster.bootstrap_servers) == theirs
    assert _epochs_native(mock_cluster.bootstrap_servers) == theirs
    assert theirs[0] == (0, 0) and theirs[1][1] > 0
