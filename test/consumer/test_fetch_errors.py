"""A partition's error in a Fetch answer: raised, refreshed-and-retried or reset, by its class.

A scripted peer answers Fetch, so every error code can be sent.
"""

from __future__ import annotations

import time

import pytest

from kafka import KafkaConsumer, errors
from kafka.consumer.fetch_errors import OK, RAISE, REFRESH, RESET, RETRY, classify_partition_error
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.support.fetch_answers import ServedLog, fetch_handler, plain_batch

TP = TopicPartition("t", 0)


def _consumer(peer, **configs):
    consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000, retry_backoff_ms=20,
                             fetch_max_wait_ms=50, **configs)
    consumer.assign([TP])
    consumer.seek(TP, 0)
    return consumer


def _poll_until(consumer, count, seconds):
    got = []
    deadline = time.monotonic() + seconds
    while len(got) < count and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=100).values():
            got.extend(records)
    return got


@pytest.mark.parametrize("code, action", [
    (errors.OffsetOutOfRangeError.errno, RESET),
    (errors.NotLeaderForPartitionError.errno, REFRESH),
    (errors.UnknownTopicIdError.errno, REFRESH),
    (errors.InconsistentTopicIdError.errno, REFRESH),
    (errors.FetchSessionIdNotFoundError.errno, RETRY),
    (errors.UnsupportedCompressionTypeError.errno, RAISE),
    (errors.TopicAuthorizationFailedError.errno, RAISE),
    (errors.CorruptMessageError.errno, RAISE),
    (0, OK),
])
def test_each_code_is_classified_by_its_error_class(code, action):
    assert classify_partition_error(code) == action


def test_unsupported_compression_type_reaches_the_application():
    log = ServedLog([plain_batch(0, [b"a"])])
    log.error_code = errors.UnsupportedCompressionTypeError.errno
    with ScriptedPeer(topics={"t": 1}) as peer:
        peer.on("Fetch", fetch_handler(peer, {"t": {0: log}}))
        consumer = _consumer(peer)
        try:
            deadline = time.monotonic() + 10
            with pytest.raises(errors.UnsupportedCompressionTypeError):
                while time.monotonic() < deadline:
                    consumer.poll(timeout_ms=100)
        finally:
            consumer.close()


@pytest.mark.parametrize("fetch_versions", [None, (4, 12)], ids=["newest", "v12"])
def test_unknown_topic_id_refreshes_metadata_and_fetches_again(fetch_versions):
    log = ServedLog([plain_batch(0, [b"a", b"b"])])
    log.error_code = errors.UnknownTopicIdError.errno
    versions = {"Fetch": fetch_versions} if fetch_versions else None
    with ScriptedPeer(topics={"t": 1}, api_versions=versions) as peer:
        peer.on("Fetch", fetch_handler(peer, {"t": {0: log}}))
        consumer = _consumer(peer)
        try:
            deadline = time.monotonic() + 10
            while not peer.received("Fetch") and time.monotonic() < deadline:
                assert consumer.poll(timeout_ms=100) == {}
            metadata_before = len(peer.received("Metadata"))
            assert consumer.poll(timeout_ms=200) == {}
            log.error_code = 0  # the broker knows the topic now
            got = _poll_until(consumer, 2, 10)
            assert [r.value for r in got] == [b"a", b"b"]
            assert len(peer.received("Metadata")) > metadata_before
        finally:
            consumer.close()


def test_an_error_for_the_whole_answer_that_no_retry_mends_reaches_the_application():
    with ScriptedPeer(topics={"t": 1}) as peer:
        peer.on("Fetch", lambda request: {"error_code": errors.ClusterAuthorizationFailedError.errno,
                                          "responses": []})
        consumer = _consumer(peer)
        try:
            deadline = time.monotonic() + 10
            with pytest.raises(errors.ClusterAuthorizationFailedError):
                while time.monotonic() < deadline:
                    consumer.poll(timeout_ms=100)
        finally:
            consumer.close()


def test_a_retriable_error_for_the_whole_answer_is_retried():
    failures = [errors.FetchSessionIdNotFoundError.errno] * 2
    with ScriptedPeer(topics={"t": 1}, api_versions={"Fetch": (7, 12)}) as peer:
        answer = fetch_handler(peer, {"t": {0: ServedLog([plain_batch(0, [b"a"])])}})
        peer.on("Fetch", lambda request: {"error_code": failures.pop(), "responses": []} if failures
                else answer(request))
        consumer = _consumer(peer)
        try:
            assert [r.value for r in _poll_until(consumer, 1, 10)] == [b"a"]
        finally:
            consumer.close()
