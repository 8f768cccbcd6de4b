"""Delivery reports of a topic stamped with the broker's log-append time.

A broker whose topic uses ``message.timestamp.type=LogAppendTime`` answers
Produce with the time it appended the batch (``log_append_time_ms``); the
producer reports that time, not the one it sent, and librdkafka marks it
``TIMESTAMP_LOG_APPEND_TIME``. Neither test broker uses log-append time, so
a scripted peer answers as such a broker does; the real confluent_kafka
talks to the same peer.
"""

from __future__ import annotations

import pytest

from kafka import KafkaProducer
from test.support.scripted_produce import ProduceLog, producing_peer

APPENDED_AT = 1_234_567_890_123


class AppendTimeLog(ProduceLog):
    """Accepts every Produce and answers with a log-append time."""

    def __call__(self, request):
        answer = super().__call__(request)
        for topic in answer["responses"]:
            for partition in topic["partition_responses"]:
                partition["log_append_time_ms"] = APPENDED_AT
        return answer


@pytest.fixture
def peer():
    scripted, _ = producing_peer({"t": 1})
    scripted.on("Produce", AppendTimeLog())
    with scripted:
        yield scripted


def test_delivery_reports_carry_the_log_append_time(peer, ck, kc):
    results = {}
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": peer.bootstrap})
        reports = []
        for timestamp in (1000, 0):
            producer.produce("t", b"v", timestamp=timestamp, on_delivery=lambda err, msg: reports.append(
                (err, msg.timestamp())))
        assert producer.flush(10) == 0
        results[lib.__name__] = reports
    assert results["kafka.confluent"] == results["confluent_kafka"] == [
        (None, (ck.TIMESTAMP_LOG_APPEND_TIME, APPENDED_AT))] * 2


def test_record_metadata_has_the_log_append_time(peer):
    with KafkaProducer(bootstrap_servers=peer.bootstrap, enable_idempotence=False, acks=1) as producer:
        metadata = producer.send("t", b"v", timestamp_ms=1000).get(10)
        assert metadata.timestamp == APPENDED_AT
        assert producer.send("t", b"w").get(10).timestamp == APPENDED_AT
