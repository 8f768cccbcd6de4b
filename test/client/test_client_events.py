"""The ``client_events`` hook: connection failures, all brokers down and throttled responses."""

from __future__ import annotations

import socket
from typing import Any, List

from kafka import KafkaProducer
from kafka.client.events import AllBrokersDown, ConnectionFailed, Throttled
from kafka.testing import ScriptedPeer
from test.support.peer_answers import init_producer_id, produce_answer
from test.support.waiting import wait_until


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_refused_bootstrap_reports_the_failure_then_all_brokers_down_once() -> None:
    events: List[Any] = []
    port = closed_port()
    producer = KafkaProducer(bootstrap_servers="127.0.0.1:%d" % port, client_events=events.append,
                             max_block_ms=0, reconnect_backoff_ms=20, reconnect_backoff_max_ms=50)
    try:
        wait_until(lambda: sum(isinstance(e, ConnectionFailed) for e in events) >= 3, timeout=10)
    finally:
        producer.close(timeout=1)
    failures = [e for e in events if isinstance(e, ConnectionFailed)]
    assert len(failures) >= 3
    assert (failures[0].host, failures[0].port) == ("127.0.0.1", port) and failures[0].node_id < 0
    assert "refused" in str(failures[0].error).lower()
    assert [e for e in events if isinstance(e, AllBrokersDown)] == [AllBrokersDown(1, 1)]
    assert events.index(AllBrokersDown(1, 1)) > events.index(failures[0])


def test_a_response_with_a_throttle_time_is_reported() -> None:
    events: List[Any] = []
    with ScriptedPeer(topics={"t": 1}, api_versions={"Produce": (3, 12)}) as peer:
        peer.on("InitProducerId", init_producer_id)
        peer.on("Produce", lambda request: dict(produce_answer(request, 5), throttle_time_ms=250))
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, client_events=events.append)
        try:
            assert producer.send("t", b"v").get(timeout=10).offset == 5
        finally:
            producer.close(timeout=5)
    throttled = [e for e in events if isinstance(e, Throttled)]
    assert [(e.node_id, e.port, e.throttle_time_ms) for e in throttled] == [(0, int(peer.bootstrap.split(":")[1]), 250)]
    assert not [e for e in events if isinstance(e, ConnectionFailed)]
