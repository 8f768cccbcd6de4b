"""Consumer behaviours confluent-kafka's own unit tests rely on, through confluent_kafka and kafka.confluent.

No broker is reachable in these scenarios (a name that does not resolve, or
a loopback port where nothing listens), as in confluent-kafka's unit tests.
"""

from __future__ import annotations

import time

import pytest

from test.confluent.outcomes import raised

NOWHERE = "nonexistent-broker.invalid:9092"


def _outcome(call):
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 - the outcome is compared
        return raised(exc, with_text=False)
    return ("returned", None if result is None else type(result).__name__)


def test_a_session_timeout_below_the_default_heartbeat_interval_is_accepted(ck, kc):
    for lib in (ck, kc):
        consumer = lib.Consumer({"group.id": "short", "bootstrap.servers": NOWHERE, "session.timeout.ms": 1000})
        consumer.close()


def test_store_offsets_and_commit_arguments(ck, kc):
    results = {}
    for lib in (ck, kc):
        consumer = lib.Consumer({"group.id": "args", "bootstrap.servers": NOWHERE, "enable.auto.commit": False,
                                 "enable.auto.offset.store": False})
        tp = lib.TopicPartition("t", 0, -1)
        message = lib.Message(topic="t", partition=0, offset=-1)
        no_offset = lib.Message(topic="t", partition=0)
        consumer.assign([tp])
        try:
            results[lib.__name__] = [
                _outcome(lambda: consumer.store_offsets(message=message)),
                _outcome(lambda: consumer.store_offsets(message=message, offsets=None)),
                _outcome(lambda: consumer.store_offsets(message=None, offsets=[tp])),
                _outcome(lambda: consumer.store_offsets(message=message, offsets=[tp])),
                _outcome(lambda: consumer.store_offsets()),
                _outcome(lambda: consumer.store_offsets(message=None, offsets=None)),
                _outcome(lambda: consumer.commit(message=no_offset)),
                _outcome(lambda: consumer.commit(message=None, offsets=None, asynchronous=True)),
                _outcome(lambda: consumer.commit(message=message, offsets=[])),
            ]
        finally:
            started = time.monotonic()
            consumer.close()  # the asynchronous commits could never be sent: not waited for
            assert time.monotonic() - started < 5, lib.__name__
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][3] == ("ValueError", "message and offsets are mutually exclusive")
    assert results["kafka.confluent"][4] == ("ValueError", "expected either message or offsets")


@pytest.mark.parametrize("raising", [RuntimeError, ValueError])
def test_error_cb_runs_in_the_consume_call_and_its_exception_comes_out_of_it(ck, kc, raising):
    results = {}
    for lib in (ck, kc):
        seen = []

        def error_cb(error):
            seen.append(error.code())
            raise raising("from error_cb")

        consumer = lib.Consumer({"group.id": "cb", "bootstrap.servers": NOWHERE, "session.timeout.ms": 1000,
                                 "error_cb": error_cb})
        consumer.subscribe(["t"])
        raised = _outcome(lambda: consumer.consume(timeout=0.1))
        closed = _outcome(consumer.close)  # queued events are served, their exceptions not raised
        results[lib.__name__] = (raised, closed, seen[0])
    assert results["kafka.confluent"] == results["confluent_kafka"] == (
        (raising.__name__, "from error_cb"), ("returned", None), ck.KafkaError._RESOLVE)


def test_a_partition_whose_fetching_has_not_started_cannot_be_sought(ck, kc):
    results = {}
    for lib in (ck, kc):
        consumer = lib.Consumer({"group.id": "seek", "bootstrap.servers": NOWHERE})
        consumer.assign([lib.TopicPartition("t", p) for p in range(3)])
        try:
            results[lib.__name__] = _outcome(lambda: consumer.seek(lib.TopicPartition("t", 0, 123)))
        finally:
            consumer.close()
    assert results["kafka.confluent"] == results["confluent_kafka"] == ("KafkaException", "_STATE")


def test_close_does_not_wait_for_a_metadata_lookup_under_way(kc):
    # subscribe() looks the topics up in the background; close() must not wait for it.
    consumer = kc.Consumer({"group.id": "close", "bootstrap.servers": "127.0.0.1:9", "session.timeout.ms": 1000})
    consumer.subscribe(["t"])
    started = time.monotonic()
    consumer.close()
    assert time.monotonic() - started < 5
