"""Producer.purge() against confluent_kafka, on a scripted broker that answers when the test says."""

from __future__ import annotations

import threading
import time
from typing import Any, List

from kafka.testing import ScriptedPeer
from test.support.peer_answers import produce_answer

TOPIC = "cf-purge"


def _serve_until(producer: Any, reports: List[Any], count: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while len(reports) < count and time.monotonic() < deadline:
        producer.poll(0.1)


def _purge_in_flight(lib: Any) -> Any:
    release = threading.Event()

    def held_answer(request: Any) -> Any:
        release.wait(10)  # the answer to the first request comes only after the purge
        return produce_answer(request, 5)

    with ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}) as peer:
        peer.on("Produce", held_answer)
        reports: List[Any] = []
        producer = lib.Producer({"bootstrap.servers": peer.bootstrap, "linger.ms": 0})
        on_delivery = lambda err, msg: reports.append((msg.value(), err.name() if err else None, msg.offset()))  # noqa: E731
        producer.produce(TOPIC, b"a", on_delivery=on_delivery)
        peer.wait_for("Produce")
        producer.purge(in_queue=False, in_flight=True)
        _serve_until(producer, reports, 1)
        after_purge = (list(reports), len(producer))
        release.set()  # the late answer must change nothing
        producer.poll(0.5)
        late = list(reports)
        peer.on("Produce", lambda request: produce_answer(request, 6))
        producer.produce(TOPIC, b"b", on_delivery=on_delivery)
        remaining = producer.flush(10)
        return after_purge, late, remaining, reports[-1]


def test_purging_in_flight_records_reports_them_and_ignores_their_late_answer(ck, kc):
    results = {lib.__name__: _purge_in_flight(lib) for lib in (ck, kc)}
    assert results["confluent_kafka"] == results["kafka.confluent"] == (
        ([(b"a", "_PURGE_INFLIGHT", None)], 0), [(b"a", "_PURGE_INFLIGHT", None)], 0, (b"b", None, 6))


def _purge_queued(lib: Any) -> Any:
    with ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}) as peer:
        peer.on("Produce", lambda request: produce_answer(request, 5))
        reports: List[Any] = []
        producer = lib.Producer({"bootstrap.servers": peer.bootstrap, "linger.ms": 60000})
        # A warm-up record, flushed (flush() does not wait out linger.ms): the topic's
        # metadata is known, so the next records go to the partition's queue.
        producer.produce(TOPIC, b"warm-up", partition=0)
        assert producer.flush(10) == 0
        for value in (b"x", b"y"):
            producer.produce(TOPIC, value, partition=0,
                             on_delivery=lambda err, msg: reports.append((msg.value(), err.name() if err else None)))
        producer.purge(in_queue=False, in_flight=True)
        producer.poll(0.2)
        kept = (list(reports), len(producer))
        producer.purge(in_queue=True, in_flight=False)
        remaining = producer.flush(5)
        return kept, remaining, reports, len(peer.received("Produce"))


def test_purging_the_queue_reports_records_never_sent(ck, kc):
    results = {lib.__name__: _purge_queued(lib) for lib in (ck, kc)}
    assert results["confluent_kafka"] == results["kafka.confluent"] == (
        ([], 2), 0, [(b"x", "_PURGE_QUEUE"), (b"y", "_PURGE_QUEUE")], 1)  # 1: the warm-up's request
