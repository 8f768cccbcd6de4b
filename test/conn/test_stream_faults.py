"""A peer's good answers survive junk that follows them in the same read.

The scripted peer answers a Produce request correctly and, in the same
``sendall``, appends bytes that break the stream. The client reads both at
once: the answered request must complete with the peer's offset, and only
what was still in flight fails with the stream's error.
"""

from __future__ import annotations

from typing import Any

import pytest

from kafka import KafkaProducer, errors
from kafka.client import KafkaClient
from kafka.conn.blocking import BlockingConnection
from kafka.protocol.apis import FIND_COORDINATOR, METADATA
from kafka.testing import NO_REPLY, ScriptedPeer
from test.support.peer_answers import produce_answer

TOPIC = "junk-after-answer"

#: Junk that breaks a Kafka byte stream in different ways.
JUNK = {
    "negative-length": b"\xff\xff\xff\xf0",
    "http": b"HTTP/1.1 400 Bad Request\r\n\r\n",
    "unknown-correlation-id": b"\x00\x00\x00\x04\x00\x00\x7f\x00",
}


@pytest.mark.parametrize("junk", sorted(JUNK))
def test_a_produce_answer_followed_by_junk_completes_the_send(junk: str) -> None:
    answers = iter([(41, JUNK[junk]), (42, b"")])

    def answer(request: Any) -> bytes:
        # The first answer carries junk after it; the second comes alone.
        offset, tail = next(answers)
        return request.frame(produce_answer(request, offset)) + tail

    # Produce v13 names topics by id; stay below it so the answer is matched by name.
    with ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}) as peer:
        peer.on("Produce", answer)
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, acks=1, linger_ms=0,
                                 reconnect_backoff_ms=20, request_timeout_ms=5000)
        try:
            metadata = producer.send(TOPIC, b"stored").get(timeout=10)
            assert (metadata.topic, metadata.partition, metadata.offset) == (TOPIC, 0, 41)
            # The junk closed that connection; the producer goes on over a new one.
            metadata = producer.send(TOPIC, b"next").get(timeout=10)
            assert metadata.offset == 42
            first, second = peer.received("Produce")
            assert first.connection != second.connection
        finally:
            producer.close(timeout=5)
        assert not peer.errors


def test_a_blocking_connection_returns_the_answer_and_drops_the_stream() -> None:
    with ScriptedPeer(topics={TOPIC: 1}) as peer:
        default = peer._answer_metadata
        peer.on("Metadata", lambda request: request.frame(default(request)) + JUNK["negative-length"])
        with BlockingConnection("127.0.0.1", peer.port, timeout=5) as conn:
            body = conn.request(METADATA, {"topics": None})
            assert [t.name for t in body.topics] == [TOPIC]
            with pytest.raises(errors.KafkaConnectionError):
                conn.request(METADATA, {"topics": None})


def test_only_the_requests_left_unanswered_fail_with_the_stream_error() -> None:
    held = []

    def answer(request: Any) -> Any:
        if not held:
            held.append(request)  # keep the first one for later
            return NO_REPLY
        # Answer the first request, then junk: the second stays unanswered.
        first = held[0]
        return first.frame({"error_code": 0, "node_id": 0, "host": "127.0.0.1", "port": peer.port}) + JUNK["http"]

    with ScriptedPeer(api_versions={"FindCoordinator": (0, 3)}) as peer:
        peer.on("FindCoordinator", answer)
        client = KafkaClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000)
        try:
            client.refresh_metadata(5000)
            assert client.await_ready(0, 5000)
            first = client.send(0, FIND_COORDINATOR.Request(key="a", key_type=0), api=FIND_COORDINATOR)
            second = client.send(0, FIND_COORDINATOR.Request(key="b", key_type=0), api=FIND_COORDINATOR)
            client.wait_for(first, 5000)
            with pytest.raises(errors.FrameTooLargeError):
                client.wait_for(second, 5000)
            assert first.value.node_id == 0
        finally:
            client.close()
