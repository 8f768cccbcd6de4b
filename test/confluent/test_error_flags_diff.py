"""The flags of the errors in delivery reports and consumer events, as confluent-kafka's C layer sets them.

confluent-kafka builds the KafkaError of a delivery report or a consumer
event from the error code alone: ``retriable()`` and ``fatal()`` are False
even for a code Kafka calls retriable. Programs that branch on
``retriable()`` must see the same thing on kafkawire.
"""

from __future__ import annotations

NOT_ENOUGH_REPLICAS = 19  # retriable in Kafka's table


def test_a_delivery_report_error_is_not_marked_retriable(mock_cluster, ck, kc):
    mock_cluster.create_topic("flags", 1)
    results = {}
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": mock_cluster.bootstrap_servers, "retries": 0, "acks": "all",
                                 "enable.idempotence": False, "retry.backoff.ms": 10})
        producer.produce("flags", b"warm-up")
        assert producer.flush(10) == 0
        mock_cluster.push_request_errors("Produce", NOT_ENOUGH_REPLICAS)
        reports = []
        producer.produce("flags", b"v", on_delivery=lambda err, msg: reports.append(
            (err.name(), err.retriable(), err.fatal(), err.txn_requires_abort()) if err else None))
        assert producer.flush(10) == 0
        results[lib.__name__] = reports
    assert results["kafka.confluent"] == results["confluent_kafka"] == [("NOT_ENOUGH_REPLICAS", False, False, False)]


def test_a_timed_out_delivery_is_not_marked_retriable(ck, kc):
    results = {}
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": "127.0.0.1:9", "message.timeout.ms": 300})
        reports = []
        producer.produce("flags", b"v", on_delivery=lambda err, msg: reports.append(
            (err.name(), err.retriable(), err.fatal()) if err else None))
        producer.flush(10)
        results[lib.__name__] = reports
    assert results["kafka.confluent"] == results["confluent_kafka"] == [("_MSG_TIMED_OUT", False, False)]
