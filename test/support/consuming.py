"""Reading with a KafkaConsumer in tests: poll until enough records came, within a deadline."""

from __future__ import annotations

import time
from typing import Any, Dict, List

from kafka.consumer import KafkaConsumer
from kafka.structs import TopicPartition


def poll_count(consumer: Any, expected: int, timeout: float, poll_ms: int = 500) -> int:
    """Poll until ``expected`` records arrived or ``timeout`` seconds passed; return how many arrived.

    The caller asserts the count, so a shortfall shows as a plain number.
    """
    seen = 0
    deadline = time.monotonic() + timeout
    while seen < expected and time.monotonic() < deadline:
        seen += sum(len(records) for records in consumer.poll(poll_ms).values())
    return seen


def records_by_partition(bootstrap: str, topic: str, partitions: int, count: int, timeout: float = 30,
                         settle_ms: int = 0) -> Dict[int, List[Any]]:
    """The first ``count`` records of ``topic`` read from the earliest offsets, by partition.

    Polls until ``count`` records came or ``timeout`` seconds passed, then
    ``settle_ms`` more (for a test that checks no extra record arrives).
    """
    with KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                       enable_auto_commit=False) as consumer:
        consumer.assign([TopicPartition(topic, p) for p in range(partitions)])
        out: Dict[int, List[Any]] = {p: [] for p in range(partitions)}
        deadline = time.monotonic() + timeout
        while sum(map(len, out.values())) < count and time.monotonic() < deadline:
            for tp, records in consumer.poll(timeout_ms=500).items():
                out[tp.partition].extend(records)
        if settle_ms:
            for tp, records in consumer.poll(timeout_ms=settle_ms).items():
                out[tp.partition].extend(records)
        return out
