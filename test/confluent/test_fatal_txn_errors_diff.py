"""A transactional producer after a fatal error, through confluent_kafka and kafka.confluent.

Once fenced by a newer producer with the same ``transactional.id``, or
refused its transactional id, librdkafka's producer is done: ``flush()``
raises the fatal error once, every transactional call after it raises the
same fatal error (``_FENCED`` for fencing, whichever request found it out),
and ``produce()`` raises ``_FATAL``. The embedded broker fences; librdkafka's
mock cluster never fences but takes injected error codes.
"""

from __future__ import annotations

import uuid

from test.support.topics import new_topic


def _outcome(call):
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the outcome is compared
        error = exc.args[0]
        return (type(exc).__name__, error.name(), error.fatal(), error.retriable(), error.txn_requires_abort())
    return "ok"


def _after_the_fatal_error(producer, topic):
    return [
        ("flush", _outcome(lambda: producer.flush(10))),
        ("commit", _outcome(lambda: producer.commit_transaction(10))),
        ("abort", _outcome(lambda: producer.abort_transaction(10))),
        ("begin", _outcome(producer.begin_transaction)),
        ("produce", _outcome(lambda: producer.produce(topic, b"late"))),
        ("init", _outcome(lambda: producer.init_transactions(5))),
    ]


def test_a_fenced_producer_reports_fenced_from_every_transactional_call(broker, ck, kc):
    topic = new_topic(broker, partitions=1, prefix="fenced")
    results = {}
    for lib in (ck, kc):
        transactional_id = "tx-" + uuid.uuid4().hex[:8]
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "transactional.id": transactional_id})
        producer.init_transactions(10)
        newer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "transactional.id": transactional_id})
        newer.init_transactions(10)
        producer.begin_transaction()
        producer.produce(topic, b"a")
        results[lib.__name__] = _after_the_fatal_error(producer, topic)
        newer.close()
    fenced = ("KafkaException", "_FENCED", True, False, False)
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert dict(results["kafka.confluent"]) == {
        "flush": fenced, "commit": fenced, "abort": fenced, "begin": fenced, "init": fenced,
        "produce": ("KafkaException", "_FATAL", False, False, False)}


def test_an_unauthorized_transactional_id_is_fatal(mock_cluster, ck, kc):
    mock_cluster.create_topic("auth", 1)
    results = {}
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": mock_cluster.bootstrap_servers,
                                 "transactional.id": "tx-" + uuid.uuid4().hex[:8]})
        producer.init_transactions(10)
        producer.begin_transaction()
        mock_cluster.push_request_errors("AddPartitionsToTxn", 53)  # TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        producer.produce("auth", b"a")
        after = _after_the_fatal_error(producer, "auth")
        starting = lib.Producer({"bootstrap.servers": mock_cluster.bootstrap_servers,
                                 "transactional.id": "tx-" + uuid.uuid4().hex[:8]})
        mock_cluster.push_request_errors("InitProducerId", 53)
        at_init = [_outcome(lambda: starting.init_transactions(10)), _outcome(starting.begin_transaction)]
        results[lib.__name__] = (after, at_init)
    refused = ("KafkaException", "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", True, False, False)
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][1] == [refused, refused]
