"""on_commit and synchronous commits: confluent_kafka reports them through commit()'s result only."""

from __future__ import annotations

import time
import uuid
from typing import Any, List

from test.confluent.support import topic_with


def _sync_commit_callbacks(lib: Any, broker: Any, topic: str) -> Any:
    calls: List[Any] = []
    consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "cf-" + uuid.uuid4().hex,
                             "enable.auto.commit": False,
                             "on_commit": lambda err, parts: calls.append(
                                 (err, [(p.topic, p.partition, p.offset) for p in parts]))})
    consumer.assign([lib.TopicPartition(topic, 0, 0)])
    first = None
    deadline = time.monotonic() + 30
    while first is None and time.monotonic() < deadline:
        first = consumer.poll(0.2)
    assert first is not None and first.error() is None
    returned = consumer.commit(first, asynchronous=False)
    during = list(calls)
    for _ in range(5):
        consumer.poll(0.1)
    after_poll = list(calls)
    consumer.close()
    return ([(p.topic, p.partition, p.offset) for p in returned], during, after_poll)


def test_on_commit_after_a_synchronous_commit(broker, ck, kc):
    topic = topic_with(broker, ck, "cf-synccommit")
    results = {lib.__name__: _sync_commit_callbacks(lib, broker, topic) for lib in (ck, kc)}
    assert results["confluent_kafka"] == results["kafka.confluent"] == ([(topic, 0, 1)], [], [])
