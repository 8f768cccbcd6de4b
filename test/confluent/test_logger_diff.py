"""The ``logger`` keyword: client log lines reach the given logger from poll(), in the application's thread."""

from __future__ import annotations

import logging
import re
import threading
import time
import uuid
from typing import Any, Iterator, List

import pytest

from test.client.test_client_events import closed_port


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: List[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def engine_logs_at_info() -> Iterator[None]:
    # librdkafka logs at level 6 (info) by default; kafkawire's engine logs through `kafka`.
    engine = logging.getLogger("kafka")
    level = engine.level
    engine.setLevel(logging.INFO)
    yield
    engine.setLevel(level)


def _app_logger() -> Any:
    logger = logging.getLogger("cf-app-" + uuid.uuid4().hex)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    handler = Collect()
    logger.addHandler(handler)
    return logger, handler


def _shape(records: List[logging.LogRecord], role: str) -> Any:
    refused = [r for r in records if "refused" in r.getMessage().lower()]
    return {"format": {r.msg for r in records}, "threads": {r.threadName for r in records},
            "named": all(re.fullmatch(r"rdkafka#%s-\d+" % role, str(r.args[1])) for r in records),
            "refused": bool(refused), "error_or_info": {r.levelno >= logging.INFO for r in refused}}


def test_producer_log_lines_reach_the_logger_from_poll(ck, kc, engine_logs_at_info):
    servers = "127.0.0.1:%d" % closed_port()
    results = {}
    for lib in (ck, kc):
        logger, handler = _app_logger()
        producer = lib.Producer({"bootstrap.servers": servers}, logger=logger)
        silent = lib.Producer({"bootstrap.servers": servers})  # its lines must not reach `logger`
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any("refused" in r.getMessage().lower() for r in handler.records):
            producer.poll(0.1)
            silent.poll(0)
        results[lib.__name__] = _shape(handler.records, "producer")
        names = {r.args[1] for r in handler.records}
        assert len(names) == 1, names
    expected = {"format": {"%s [%s] %s"}, "threads": {threading.main_thread().name}, "named": True,
                "refused": True, "error_or_info": {True}}
    assert results["confluent_kafka"] == results["kafka.confluent"] == expected


def test_consumer_log_lines_reach_the_logger_given_in_the_configuration(ck, kc, engine_logs_at_info):
    servers = "127.0.0.1:%d" % closed_port()
    results = {}
    for lib in (ck, kc):
        logger, handler = _app_logger()
        consumer = lib.Consumer({"bootstrap.servers": servers, "group.id": "cf-" + uuid.uuid4().hex,
                                 "logger": logger})
        consumer.subscribe(["cf-logger"])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any("refused" in r.getMessage().lower() for r in handler.records):
            consumer.poll(0.1)
        consumer.close()
        results[lib.__name__] = _shape(handler.records, "consumer")
    expected = {"format": {"%s [%s] %s"}, "threads": {threading.main_thread().name}, "named": True,
                "refused": True, "error_or_info": {True}}
    assert results["confluent_kafka"] == results["kafka.confluent"] == expected


def test_a_logger_inside_the_kafka_hierarchy_does_not_receive_its_own_lines_again(kc, engine_logs_at_info):
    # quixstreams-style wrappers log through `kafka.quix` and give that logger to the client.
    logger = logging.getLogger("kafka.cf-app-" + uuid.uuid4().hex)
    logger.propagate = False
    handler = Collect()
    logger.addHandler(handler)
    consumer = kc.Consumer({"bootstrap.servers": "127.0.0.1:%d" % closed_port(), "group.id": "cf-" + uuid.uuid4().hex},
                           logger=logger)
    consumer.subscribe(["cf-logger"])
    for _ in range(20):
        consumer.poll(0.05)
        logger.warning("the application's own line")
    consumer.close()
    own = [r for r in handler.records if r.msg == "the application's own line"]
    forwarded = [r for r in handler.records if r.msg == "%s [%s] %s"]
    assert len(own) == 20
    assert forwarded and not any("application's own line" in r.getMessage() for r in forwarded)


def test_admin_client_log_lines_reach_the_logger_from_poll(ck, kc, engine_logs_at_info):
    import confluent_kafka.admin

    import kafka.confluent.admin

    servers = "127.0.0.1:%d" % closed_port()
    results = {}
    for lib, admin_module in ((ck, confluent_kafka.admin), (kc, kafka.confluent.admin)):
        logger, handler = _app_logger()
        admin = admin_module.AdminClient({"bootstrap.servers": servers}, logger=logger)
        admin.describe_cluster(request_timeout=5)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any("refused" in r.getMessage().lower() for r in handler.records):
            admin.poll(0.1)
        results[lib.__name__] = _shape(handler.records, "producer")  # librdkafka's admin client is a producer
    expected = {"format": {"%s [%s] %s"}, "threads": {threading.main_thread().name}, "named": True,
                "refused": True, "error_or_info": {True}}
    assert results["confluent_kafka"] == results["kafka.confluent"] == expected
