"""Reading with a KafkaConsumer in tests: poll until enough records came, within a deadline."""

from __future__ import annotations

import time
from typing import Any


def poll_count(consumer: Any, expected: int, timeout: float, poll_ms: int = 500) -> int:
    """Poll until ``expected`` records arrived or ``timeout`` seconds passed; return how many arrived.

    The caller asserts the count, so a shortfall shows as a plain number.
    """
    seen = 0
    deadline = time.monotonic() + timeout
    while seen < expected and time.monotonic() < deadline:
        seen += sum(len(records) for records in consumer.poll(poll_ms).values())
    return seen
