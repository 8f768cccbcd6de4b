"""error_cb and throttle_cb against confluent_kafka: same events, served in the application's thread."""

from __future__ import annotations

import re
import threading
import time
import uuid
from typing import Any, Dict, List

from kafka.testing import ScriptedPeer
from test.client.test_client_events import closed_port
from test.support.peer_answers import produce_answer


#: What error_cb reports while the bootstrap brokers refuse connections.
REFUSED = {"names": {"_TRANSPORT", "_ALL_BROKERS_DOWN"}, "fatal": False, "threads": {threading.main_thread()},
           "down": ["N/N brokers are down"]}


def _error_events(lib: Any, client: Any, poll: Any) -> Dict[str, Any]:
    seen: List[Any] = []
    threads = set()

    def on_error(err: Any) -> None:
        threads.add(threading.current_thread())
        seen.append(err)

    client_obj = client(on_error)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not {"_TRANSPORT", "_ALL_BROKERS_DOWN"} <= {e.name() for e in seen}:
        poll(client_obj)
    return {"names": {e.name() for e in seen} & {"_TRANSPORT", "_ALL_BROKERS_DOWN"},
            "fatal": any(e.fatal() for e in seen), "threads": threads,
            # librdkafka's count includes brokers it is still adding: only the wording is compared.
            "down": [re.sub(r"\d+", "N", e.str()) for e in seen if e.name() == "_ALL_BROKERS_DOWN"][:1],
            "client": client_obj}


def test_error_cb_reports_a_refused_bootstrap_from_producer_poll(ck, kc):
    servers = "127.0.0.1:%d" % closed_port()
    results = {}
    for lib in (ck, kc):
        found = _error_events(lib, lambda cb: lib.Producer({"bootstrap.servers": servers, "error_cb": cb}),
                              lambda p: p.poll(0.1))
        found.pop("client")
        results[lib.__name__] = found
    assert results["confluent_kafka"] == REFUSED
    assert results["kafka.confluent"] == REFUSED


def test_error_cb_reports_refused_bootstraps_from_consumer_poll(ck, kc):
    servers = "127.0.0.1:%d,127.0.0.1:%d" % (closed_port(), closed_port())
    results = {}
    for lib in (ck, kc):
        def make(cb: Any) -> Any:
            consumer = lib.Consumer({"bootstrap.servers": servers, "group.id": "cf-" + uuid.uuid4().hex,
                                     "error_cb": cb})
            consumer.subscribe(["cf-events"])
            return consumer

        found = _error_events(lib, make, lambda c: c.poll(0.1))
        found.pop("client").close()
        results[lib.__name__] = found
    assert results["confluent_kafka"] == REFUSED
    assert results["kafka.confluent"] == REFUSED


def test_throttle_cb_reports_a_throttled_produce_response(ck, kc):
    results = {}
    for lib in (ck, kc):
        with ScriptedPeer(topics={"cf-throttle": 1}, api_versions={"Produce": (3, 12)}) as peer:
            peer.on("Produce", lambda request: dict(produce_answer(request, 5), throttle_time_ms=250))
            events: List[Any] = []
            threads = set()

            def on_throttle(event: Any) -> None:
                threads.add(threading.current_thread())
                events.append(event)

            producer = lib.Producer({"bootstrap.servers": peer.bootstrap, "throttle_cb": on_throttle,
                                     "linger.ms": 0})
            producer.produce("cf-throttle", b"v")
            assert producer.flush(10) == 0
            deadline = time.monotonic() + 5
            while not events and time.monotonic() < deadline:
                producer.poll(0.1)
            results[lib.__name__] = ([(e.broker_name, e.broker_id, e.throttle_time, str(e)) for e in events],
                                     threads)
            port = peer.bootstrap.split(":")[1]
            expected = ([("127.0.0.1:%s" % port, 0, 0.25, "127.0.0.1:%s/0 throttled for 250 ms" % port)],
                        {threading.main_thread()})
            assert results[lib.__name__] == expected, lib.__name__


def test_a_fatal_idempotence_error_is_raised_once_from_poll_and_purges_the_queue(ck, kc):
    results = {}
    for lib in (ck, kc):
        with ScriptedPeer(topics={"cf-fatal": 1}, api_versions={"Produce": (3, 12)}) as peer:
            peer.on("Produce", lambda request: produce_answer(request, 5))
            peer.on("InitProducerId", lambda request: {"error_code": 31, "producer_id": -1, "producer_epoch": -1})
            errors: List[Any] = []
            reports: List[Any] = []
            producer = lib.Producer({"bootstrap.servers": peer.bootstrap, "enable.idempotence": True,
                                     "error_cb": errors.append})
            producer.produce("cf-fatal", b"v", on_delivery=lambda err, msg: reports.append(err.name()))
            raised = []
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not raised:
                try:
                    producer.poll(0.1)
                except lib.KafkaException as exc:
                    raised.append((exc.args[0].name(), exc.args[0].fatal()))
            producer.poll(0.2)  # raised once only
            remaining = producer.flush(5)
            try:
                producer.produce("cf-fatal", b"w")
                after = None
            except lib.KafkaException as exc:
                after = exc.args[0].name()
            results[lib.__name__] = (raised, remaining, reports, after, errors)
    assert results["confluent_kafka"] == results["kafka.confluent"] == (
        [("CLUSTER_AUTHORIZATION_FAILED", True)], 0, ["_PURGE_QUEUE"], "_FATAL", [])
