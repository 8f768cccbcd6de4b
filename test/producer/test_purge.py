"""KafkaProducer.purge(): queued and in-flight records fail at once; late answers are ignored."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kafka import KafkaProducer, errors
from kafka.testing import ScriptedPeer
from test.support.peer_answers import init_producer_id, produce_answer

TOPIC = "purge"


def test_purging_the_queue_fails_unsent_records_and_keeps_the_producer_usable() -> None:
    with ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}) as peer:
        peer.on("InitProducerId", init_producer_id)
        peer.on("Produce", lambda request: produce_answer(request, 3))
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, linger_ms=60000)
        try:
            futures = [producer.send(TOPIC, b"v%d" % i, partition=0) for i in range(3)]
            producer.purge(queued=False, in_flight=True)
            assert not any(f.is_done for f in futures)
            producer.purge(queued=True)
            for future in futures:
                with pytest.raises(errors.PurgedInQueueError):
                    future.get(timeout=5)
            assert not peer.received("Produce")
            later = producer.send(TOPIC, b"after")
            producer.flush(timeout=10)
            assert later.get(timeout=1).offset == 3
        finally:
            producer.close(timeout=5)


@pytest.mark.parametrize("idempotent", [False, True])
def test_purging_in_flight_fails_the_record_and_ignores_its_late_answer(idempotent: bool) -> None:
    release = threading.Event()
    answers = iter([10, 20])

    def answer(request: Any) -> Any:
        offset = next(answers)
        if offset == 10:
            release.wait(10)
        return produce_answer(request, offset)

    with ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}) as peer:
        peer.on("InitProducerId", init_producer_id)
        peer.on("Produce", answer)
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, enable_idempotence=idempotent,
                                 acks="all" if idempotent else 1)
        try:
            first = producer.send(TOPIC, b"first")
            peer.wait_for("Produce")
            producer.purge(queued=False, in_flight=True)
            with pytest.raises(errors.PurgedInFlightError):
                first.get(timeout=5)
            release.set()
            second = producer.send(TOPIC, b"second")
            assert second.get(timeout=10).offset == 20
            with pytest.raises(errors.PurgedInFlightError):
                first.get(timeout=0)
        finally:
            producer.close(timeout=5)
