"""stats_cb documents against librdkafka's: every field kafkawire fills exists there, with the same type."""

from __future__ import annotations

import json
import re
import time
import uuid
from typing import Any, Dict, List

from test.confluent.support import topic_with
from test.support.topics import new_topic


def _types(document: Dict[str, Any]) -> Dict[str, type]:
    return {key: type(value) for key, value in document.items() if not isinstance(value, dict)}


def _assert_fields_like(ours: Dict[str, Any], theirs: Dict[str, Any]) -> None:
    ours_types, theirs_types = _types(ours), _types(theirs)
    for key, kind in ours_types.items():
        assert key in theirs_types, "librdkafka has no field %r" % key
        assert kind is theirs_types[key] or {kind, theirs_types[key]} <= {int, float}, key


def _last_stats(client: Any, stats: List[str], poll: Any, ready: Any) -> Dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        poll(client)
        if stats and ready(json.loads(stats[-1])):
            return json.loads(stats[-1])
    raise AssertionError("no statistics document showed the expected state: %s" % (stats[-1:],))


def _broker_up(document: Dict[str, Any]) -> bool:
    return any(b["state"] == "UP" and b["nodeid"] >= 0 for b in document["brokers"].values())


def _compare(documents: Dict[str, Dict[str, Any]], topic: str, role: str) -> None:
    theirs, ours = documents["confluent_kafka"], documents["kafka.confluent"]
    for document in (theirs, ours):
        assert document["type"] == role and re.fullmatch(r"rdkafka#%s-\d+" % role, document["name"])
        assert document["client_id"] == "rdkafka" and document["tx"] > 0 and document["rx"] > 0
        assert "0" in document["topics"][topic]["partitions"]
    _assert_fields_like(ours, theirs)
    their_broker = next(b for b in theirs["brokers"].values() if b["nodeid"] >= 0)
    our_broker = next(b for b in ours["brokers"].values() if b["nodeid"] >= 0)
    _assert_fields_like(our_broker, their_broker)
    _assert_fields_like(ours["topics"][topic]["partitions"]["0"], theirs["topics"][topic]["partitions"]["0"])


def test_producer_statistics_follow_librdkafkas_layout(broker, ck, kc):
    topic = new_topic(broker, partitions=1, prefix="cf-stats")
    documents = {}
    for lib in (ck, kc):
        stats: List[str] = []
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers, "statistics.interval.ms": 100,
                                 "stats_cb": stats.append})
        for value in (b"a", b"b", b"c"):
            producer.produce(topic, value)
        assert producer.flush(30) == 0
        documents[lib.__name__] = _last_stats(
            producer, stats, lambda p: p.poll(0.1),
            lambda d: d["msg_cnt"] == 0 and d["txmsgs"] == 3 and _broker_up(d) and topic in d["topics"])
    _compare(documents, topic, "producer")


def test_consumer_statistics_follow_librdkafkas_layout(broker, ck, kc):
    topic = topic_with(broker, ck, "cf-stats")
    documents = {}
    for lib in (ck, kc):
        stats: List[str] = []
        consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "cf-" + uuid.uuid4().hex,
                                 "statistics.interval.ms": 100, "stats_cb": stats.append})
        consumer.assign([lib.TopicPartition(topic, 0, 0)])

        def caught_up(document: Dict[str, Any]) -> bool:
            part = document["topics"].get(topic, {}).get("partitions", {}).get("0", {})
            return part.get("app_offset") == 3 and part.get("hi_offset") == 3 and document["rxmsgs"] >= 3 \
                and part.get("consumer_lag") == 0 and _broker_up(document)

        documents[lib.__name__] = _last_stats(consumer, stats, lambda c: c.poll(0.1), caught_up)
        consumer.close()
    _compare(documents, topic, "consumer")
