"""A broker that offers no usable version of an API the client needs.

The scripted peer advertises narrowed version ranges (or none) in ApiVersions.
Nothing can fix that by retrying: the user must get
:class:`~kafka.errors.UnsupportedVersionError`, naming the API and both
version ranges, at once, and the logs must say it once rather than on every
turn of a background loop.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest

from kafka import KafkaConsumer, KafkaProducer, errors
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.support.peer_answers import counting_produce, init_producer_id

TOPIC = "versions"
#: How long a test lets a client run against the broker before counting its log lines.
OBSERVE_S = 1.0
#: "At once": far below the 20 s or more the clients would otherwise wait, with room for a loaded machine.
PROMPT_S = 8.0


def peer_with(api_versions: Dict[str, Optional[Tuple[int, int]]]) -> ScriptedPeer:
    peer = ScriptedPeer(topics={TOPIC: 1}, api_versions=api_versions)
    peer.on("InitProducerId", init_producer_id)
    peer.on("Produce", counting_produce())
    peer.on("ListOffsets", lambda request: {"topics": [
        {"name": t.name, "partitions": [{"partition_index": p.partition_index, "error_code": 0, "timestamp": -1,
                                         "offset": 0, "leader_epoch": 0} for p in t.partitions]}
        for t in request.body.topics]})
    return peer


def kafka_errors(caplog: pytest.LogCaptureFixture) -> List[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("kafka") and r.levelno >= logging.ERROR]


@pytest.mark.parametrize("offered,expected", [
    ((0, 2), "no common version of Produce: the broker supports v0-2, this client sends v3-13"),
    (None, "the broker does not support Produce at all; this client sends v3-13"),
], ids=["too-old", "missing"])
@pytest.mark.parametrize("acks", [1, "all"])
def test_producer_futures_fail_with_unsupported_version_and_it_is_logged_once(
        caplog: pytest.LogCaptureFixture, offered: Optional[Tuple[int, int]], expected: str, acks: Any) -> None:
    caplog.set_level(logging.INFO)
    with peer_with({"Produce": offered}) as peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, acks=acks, linger_ms=0, max_block_ms=5000,
                                 delivery_timeout_ms=30000)
        try:
            started = time.monotonic()
            futures = [producer.send(TOPIC, b"r%d" % i) for i in range(3)]
            for future in futures:
                with pytest.raises(errors.UnsupportedVersionError, match=expected):
                    future.get(timeout=5)
            assert time.monotonic() - started < PROMPT_S  # at once, not after delivery_timeout_ms
            time.sleep(OBSERVE_S)  # the sender thread keeps turning meanwhile: still logged once
            with pytest.raises(errors.UnsupportedVersionError):
                producer.send(TOPIC, b"later").get(timeout=5)
        finally:
            producer.close(timeout=2)
        assert not peer.received("Produce")
    logged = kafka_errors(caplog)
    assert len(logged) == 1, [r.getMessage() for r in logged]
    assert expected in logged[0].getMessage() and logged[0].exc_info is None


def test_no_metadata_version_fails_sends_at_once_without_a_traceback_storm(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with peer_with({"Metadata": None}) as peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, acks=1, max_block_ms=20000)
        try:
            started = time.monotonic()
            future = producer.send(TOPIC, b"x")
            with pytest.raises(errors.UnsupportedVersionError, match="Metadata at all; this client sends v0-"):
                future.get(timeout=5)
            assert time.monotonic() - started < PROMPT_S  # not max_block_ms, and not "topic not found"
            time.sleep(OBSERVE_S)  # the sender thread keeps turning meanwhile
            with pytest.raises(errors.UnsupportedVersionError):
                producer.partitions_for(TOPIC)
        finally:
            producer.close(timeout=2)
    logged = kafka_errors(caplog)
    assert len(logged) == 1, [r.getMessage() for r in logged]
    assert logged[0].exc_info is None


@pytest.mark.parametrize("offered", [(0, 3), None], ids=["too-old", "missing"])
def test_consumer_poll_raises_when_fetch_has_no_common_version(caplog: pytest.LogCaptureFixture,
                                                               offered: Optional[Tuple[int, int]]) -> None:
    caplog.set_level(logging.INFO)
    with peer_with({"Fetch": offered}) as peer:
        consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000)
        try:
            consumer.assign([TopicPartition(TOPIC, 0)])
            for _ in range(3):  # every poll says so, none returns an empty result instead
                started = time.monotonic()
                with pytest.raises(errors.UnsupportedVersionError, match="Fetch"):
                    consumer.poll(timeout_ms=20000)
                assert time.monotonic() - started < PROMPT_S
        finally:
            consumer.close()
        assert not peer.received("Fetch")
    assert len(kafka_errors(caplog)) == 1


def test_consumer_poll_raises_when_list_offsets_has_no_common_version() -> None:
    with peer_with({"ListOffsets": None}) as peer:
        consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000)
        try:
            consumer.assign([TopicPartition(TOPIC, 0)])
            with pytest.raises(errors.UnsupportedVersionError, match="ListOffsets"):
                consumer.poll(timeout_ms=3000)
        finally:
            consumer.close()


def test_admin_constructor_raises_when_metadata_has_no_common_version() -> None:
    with peer_with({"Metadata": None}) as peer:
        started = time.monotonic()
        with pytest.raises(errors.UnsupportedVersionError, match="Metadata"):
            KafkaAdminClient(bootstrap_servers=peer.bootstrap, bootstrap_timeout_ms=20000)
        assert time.monotonic() - started < PROMPT_S


def test_admin_call_raises_when_its_api_has_no_common_version() -> None:
    with peer_with({"CreateTopics": (0, 1)}) as peer:
        admin = KafkaAdminClient(bootstrap_servers=peer.bootstrap)
        try:
            # Per-topic results carry the error (the admin API reports each resource).
            results = admin.create_topics([NewTopic("t2", 1, 1)], timeout_ms=3000, raise_error=False)
            assert isinstance(results["t2"], errors.UnsupportedVersionError)
            assert "CreateTopics: the broker supports v0-1, this client sends v2-" in str(results["t2"])
        finally:
            admin.close()
        assert not peer.received("CreateTopics")
