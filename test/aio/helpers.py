"""Running coroutines in plain tests (pytest-asyncio is not a dependency) and reading back what was produced."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Dict, List, Optional, Tuple, TypeVar

from test.support.consuming import records_by_partition

T = TypeVar("T")


def run(coro: Awaitable[T], *, debug: bool = False, timeout: float = 60.0) -> T:
    """Run ``coro`` on a fresh event loop (``asyncio.run``), failing after ``timeout`` seconds."""

    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded(), debug=debug)


def read_back(bootstrap: str, topic: str, partitions: int, count: int) -> List[Tuple[Any, Any, List[Any], int]]:
    """``(key, value, headers, partition)`` of the first ``count`` records of ``topic``, sorted, via KafkaConsumer."""
    found = records_by_partition(bootstrap, topic, partitions, count)
    return sorted((r.key, r.value, list(r.headers), p) for p, records in found.items() for r in records)


class SlowCallbacks(logging.Handler):
    """Collects what asyncio's debug mode logs about callbacks that held the loop too long."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: List[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "took" in message and "seconds" in message:
            self.messages.append(message)

    def __enter__(self) -> "SlowCallbacks":
        logging.getLogger("asyncio").addHandler(self)
        return self

    def __exit__(self, *exc: Optional[BaseException]) -> None:
        logging.getLogger("asyncio").removeHandler(self)


def by_partition(metadata: List[Any]) -> Dict[int, List[int]]:
    """Offsets of record metadata, by partition."""
    out: Dict[int, List[int]] = {}
    for md in metadata:
        out.setdefault(md.partition, []).append(md.offset)
    return out
