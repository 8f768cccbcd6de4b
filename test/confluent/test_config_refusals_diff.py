"""Configurations librdkafka refuses when a client is created, through confluent_kafka and kafka.confluent.

Idempotence (which a ``transactional.id`` implies) needs ``acks=all``, at
most 5 requests in flight, at least one retry and FIFO queuing; the error
names the property the application wrote. A configuration that is not a dict
is a ``TypeError``. No broker is contacted.
"""

from __future__ import annotations

import pytest

from test.confluent.outcomes import raised

PRODUCER_SETTINGS = [
    {"transactional.id": "x", "enable.idempotence": False},
    {"enable.idempotence": True, "max.in.flight": 10},
    {"enable.idempotence": True, "max.in.flight.requests.per.connection": 6},
    {"enable.idempotence": True, "max.in.flight": 5},
    {"enable.idempotence": True, "acks": 1},
    {"enable.idempotence": True, "acks": "all"},
    {"enable.idempotence": True, "retries": 0},
    {"transactional.id": "x", "acks": 1},
    {"transactional.id": "x", "max.in.flight": 6},
    {"enable.idempotence": True, "queuing.strategy": "lifo"},
    {"enable.idempotence": False, "acks": 1, "max.in.flight": 10, "retries": 0},
]


def _outcome(call):
    try:
        client = call()
    except Exception as exc:  # noqa: BLE001 - the outcome is compared
        return raised(exc)
    close = getattr(client, "close", None)
    if close is not None and type(client).__name__ != "Producer":
        close()
    return "created"


@pytest.mark.parametrize("settings", PRODUCER_SETTINGS, ids=repr)
def test_idempotence_settings_are_checked_as_librdkafka_checks_them(ck, kc, settings):
    results = {lib.__name__: _outcome(lambda: lib.Producer(dict({"bootstrap.servers": "127.0.0.1:1"}, **settings)))
               for lib in (ck, kc)}
    assert results["kafka.confluent"] == results["confluent_kafka"]


@pytest.mark.parametrize("client", ["Producer", "Consumer"])
@pytest.mark.parametrize("conf", ["a=b", None, 5, ["x"]], ids=repr)
def test_a_configuration_that_is_not_a_dict_is_a_type_error(ck, kc, client, conf):
    results = {lib.__name__: _outcome(lambda: getattr(lib, client)(conf)) for lib in (ck, kc)}
    assert results["kafka.confluent"] == results["confluent_kafka"] == ("TypeError", "expected configuration dict")


def test_no_configuration_at_all_is_a_type_error_and_keywords_alone_are_enough(ck, kc):
    results = {}
    for lib in (ck, kc):
        results[lib.__name__] = [_outcome(lib.Producer), _outcome(lib.Consumer),
                                 _outcome(lambda: lib.Producer(**{"bootstrap.servers": "127.0.0.1:1"})),
                                 _outcome(lambda: lib.Producer(None, **{"bootstrap.servers": "127.0.0.1:1"}))]
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert results["kafka.confluent"][2] == "created"


@pytest.mark.parametrize("conf, times_out", [
    ({"message.timeout.ms": 600000, "default.topic.config": {"message.timeout.ms": 500}}, True),
    ({"default.topic.config": {"message.timeout.ms": 500}, "message.timeout.ms": 600000}, True),
    ({"default.topic.config": {"message.timeout.ms": 500}}, True),
], ids=["topic-config-last", "top-level-last", "topic-config-only"])
def test_default_topic_config_wins_over_the_top_level(ck, kc, conf, times_out):
    import time

    results = {}
    for lib in (ck, kc):
        producer = lib.Producer(dict({"bootstrap.servers": "127.0.0.1:9"}, **conf))
        reports = []
        producer.produce("t", b"v", on_delivery=lambda err, msg: reports.append(err.name() if err else None))
        deadline = time.monotonic() + 3
        while not reports and time.monotonic() < deadline:
            producer.poll(0.1)
        results[lib.__name__] = list(reports)
        producer.purge()
        producer.poll(0)
    assert results["kafka.confluent"] == results["confluent_kafka"] == (["_MSG_TIMED_OUT"] if times_out else [])


def test_no_bootstrap_servers_means_no_broker(ck, kc):
    # librdkafka (and kafka-python with an empty list) knows no broker then; it does not try localhost.
    import json

    results = {}
    for lib in (ck, kc):
        seen = []
        producer = lib.Producer({"bootstrap.servers": None, "statistics.interval.ms": 10,
                                 "stats_cb": lambda text: seen.append(len(json.loads(text)["brokers"]))})
        producer.poll(0.2)
        results[lib.__name__] = sorted(set(seen))
    assert results["kafka.confluent"] == results["confluent_kafka"] == [0]
