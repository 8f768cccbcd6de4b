"""Small helpers shared by the kafka.confluent differential tests."""

from __future__ import annotations

import time
from typing import Any, List, Sequence

from test.support.topics import new_topic


def deliver_one(producer: Any, topic: str, value: bytes, timeout: float = 15.0) -> List[Any]:
    """Produce ``value`` and poll until its report: ``[(error name or None, offset)]`` ([] if none came)."""
    reports: List[Any] = []
    producer.produce(topic, value, on_delivery=lambda err, msg: reports.append((err, msg.offset())))
    deadline = time.monotonic() + timeout
    while not reports and time.monotonic() < deadline:
        producer.poll(0.1)
    return [(err.name() if err else None, offset) for err, offset in reports]


def topic_with(broker: Any, ck: Any, prefix: str, values: Sequence[bytes] = (b"a", b"b", b"c")) -> str:
    """A new one-partition topic holding ``values`` (written by the real confluent_kafka)."""
    topic = new_topic(broker, partitions=1, prefix=prefix)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap_servers})
    for value in values:
        producer.produce(topic, value)
    assert producer.flush(30) == 0
    return topic
