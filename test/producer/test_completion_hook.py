"""FutureRecordMetadata.on_completion(): one hook per record for either outcome."""

from __future__ import annotations

import uuid

from kafka import direct, errors
from kafka.conn.blocking import BlockingConnection
from kafka.producer import KafkaProducer


def _topic(broker):
    name = "completion-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, name, partitions=1)
    return name


def test_on_completion_reports_offsets_and_timestamps_in_order(broker):
    topic = _topic(broker)
    done = []
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=50) as producer:
        futures = []
        for i in range(300):
            future = producer.send(topic, value=b"%d" % i, partition=0, timestamp_ms=1_700_000_000_000 + i)
            futures.append(future.on_completion(done.append, i))
        producer.flush(30)
        # Registered after completion: runs at once.
        futures[0].on_completion(done.append, "late")
    assert done == list(range(300)) + ["late"]
    assert [f.offset_and_timestamp() for f in futures] == [(i, 1_700_000_000_000 + i) for i in range(300)]
    assert [f.get(0).offset for f in futures] == list(range(300))


def test_on_completion_runs_for_failed_records(mock_cluster):
    mock_cluster.create_topic("fails", 1, 1)
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, delivery_timeout_ms=1500,
                             request_timeout_ms=1000, reconnect_backoff_max_ms=100)
    outcomes = []
    try:
        producer.send("fails", value=b"first").get(10)
        mock_cluster.broker_down(-1)
        futures = [producer.send("fails", value=b"%d" % i) for i in range(5)]
        for future in futures:
            future.on_completion(lambda f: outcomes.append(f.exception), future)
        for future in futures:
            try:
                future.get(10)
            except errors.KafkaTimeoutError:
                pass
    finally:
        mock_cluster.broker_up(-1)
        producer.close(timeout=5)
    assert len(outcomes) == 5 and all(isinstance(e, errors.KafkaTimeoutError) for e in outcomes)
