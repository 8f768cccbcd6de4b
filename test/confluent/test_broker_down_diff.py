"""Calls made while no broker can be reached, through confluent_kafka and kafka.confluent.

Each call gives up within its own timeout and reports librdkafka's code for
that call: metadata ``_TRANSPORT``; committed offsets, the cluster id, the
transactional calls and the admin futures ``_TIMED_OUT``; watermarks and
offset lookups ``_ALL_BROKERS_DOWN``; a synchronous commit ``_WAIT_COORD``
once the session timeout has passed; a record ``_MSG_TIMED_OUT`` in its
delivery report. Nothing waits for a default timeout of 30 or 60 seconds.
"""

from __future__ import annotations

import socket
import time

import pytest

from test.confluent.outcomes import raised

TIMEOUT = 1.0
SLACK = 3.0  # added to each call's own timeout: the machine is shared with other tests


@pytest.fixture(scope="module")
def nowhere():
    """A loopback address where nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return "127.0.0.1:%d" % port


def _outcome(call, limit):
    started = time.monotonic()
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 - the outcome is compared
        outcome = raised(exc, with_text=False)
    else:
        outcome = ("returned", type(result).__name__)
    took = time.monotonic() - started
    assert took < limit + SLACK, (outcome, took)
    return outcome


def _consumer_calls(lib, bootstrap):
    tp = lib.TopicPartition
    consumer = lib.Consumer({"bootstrap.servers": bootstrap, "group.id": "down", "session.timeout.ms": 1000,
                             "heartbeat.interval.ms": 100})
    try:
        return {
            "committed": _outcome(lambda: consumer.committed([tp("t", 0)], timeout=TIMEOUT), TIMEOUT),
            "watermarks": _outcome(lambda: consumer.get_watermark_offsets(tp("t", 0), timeout=TIMEOUT), TIMEOUT),
            "offsets_for_times": _outcome(lambda: consumer.offsets_for_times([tp("t", 0, 1)], timeout=TIMEOUT),
                                          TIMEOUT),
            "list_topics": _outcome(lambda: consumer.list_topics(timeout=TIMEOUT), TIMEOUT),
            "cluster_id": _outcome(lambda: consumer.cluster_id(timeout=TIMEOUT), TIMEOUT),
            "commit": _outcome(lambda: consumer.commit(offsets=[tp("t", 0, 1)], asynchronous=False), 1.0),
        }
    finally:
        consumer.close()


def _producer_calls(lib, bootstrap):
    producer = lib.Producer({"bootstrap.servers": bootstrap, "message.timeout.ms": 500})
    reports = []
    producer.produce("t", b"v", on_delivery=lambda err, msg: reports.append(err.name() if err else None))
    calls = {
        "flush": _outcome(lambda: producer.flush(5), 5),
        "list_topics": _outcome(lambda: producer.list_topics(timeout=TIMEOUT), TIMEOUT),
    }
    calls["reports"] = reports
    transactional = lib.Producer({"bootstrap.servers": bootstrap, "transactional.id": "down"})
    calls["init_transactions"] = _outcome(lambda: transactional.init_transactions(TIMEOUT), TIMEOUT)
    # The call that timed out is pending: another transactional call conflicts with it.
    calls["begin_transaction"] = _outcome(transactional.begin_transaction, TIMEOUT)
    calls["init_transactions again"] = _outcome(lambda: transactional.init_transactions(TIMEOUT), TIMEOUT)
    return calls


def _admin_calls(lib, bootstrap):
    admin_module = __import__(lib.__name__ + ".admin", fromlist=["AdminClient"])
    admin = admin_module.AdminClient({"bootstrap.servers": bootstrap})
    groups = _outcome(lambda: admin.list_consumer_groups(request_timeout=TIMEOUT).result(), TIMEOUT)
    return {
        "list_topics": _outcome(lambda: admin.list_topics(timeout=TIMEOUT), TIMEOUT),
        "create_topics": _outcome(lambda: admin.create_topics(
            [admin_module.NewTopic("x", 1, 1)], request_timeout=TIMEOUT)["x"].result(), TIMEOUT),
        "describe_cluster": _outcome(lambda: admin.describe_cluster(request_timeout=TIMEOUT).result(), TIMEOUT),
        "list_consumer_groups": groups,
    }


@pytest.mark.parametrize("calls", [_consumer_calls, _producer_calls, _admin_calls],
                         ids=["consumer", "producer", "admin"])
def test_calls_with_no_broker_give_up_in_time_with_librdkafka_s_codes(nowhere, ck, kc, calls):
    theirs = calls(ck, nowhere)
    ours = calls(kc, nowhere)
    assert ours == theirs
