"""``retries`` counts the Produce requests sent after the first one, exactly.

With ``retries=N`` a batch that keeps failing with a retriable error is sent
N + 1 times, then fails with that error; ``retries=0`` sends it once. On the
mock cluster, injected errors fail whole requests and write nothing.
"""

from __future__ import annotations

import pytest

from kafka import errors
from kafka.producer import KafkaProducer

NOT_LEADER = 6  # NOT_LEADER_OR_FOLLOWER: retriable


@pytest.mark.parametrize("retries", [0, 1, 3])
def test_a_batch_is_sent_retries_plus_one_times(mock_cluster, retries):
    mock_cluster.create_topic("retry-count", 1)
    mock_cluster.set_partition_leader("retry-count", 0, 1)
    producer = KafkaProducer(bootstrap_servers=mock_cluster.bootstrap_servers, retries=retries, acks=1,
                             enable_idempotence=False, retry_backoff_ms=10, linger_ms=0)
    try:
        producer.send("retry-count", b"warm-up").get(10)  # metadata and connections ready
        mock_cluster.start_request_tracking()
        mock_cluster.push_request_errors("Produce", *[NOT_LEADER] * (retries + 1))
        with pytest.raises(errors.NotLeaderForPartitionError):
            producer.send("retry-count", b"fails").get(30)
        assert sum(mock_cluster.request_counts("Produce").values()) == retries + 1
        mock_cluster.clear_requests()
        mock_cluster.push_request_errors("Produce", *[NOT_LEADER] * retries)
        assert producer.send("retry-count", b"lands").get(30).offset == 1
        assert sum(mock_cluster.request_counts("Produce").values()) == retries + 1
    finally:
        producer.close()
